//! `boardbase generate GAME RxC`: tables of other board sizes written as
//! table files: Euler's and Flip's by their own generators on every core,
//! every other game of the catalogue's models by retrograde analysis.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicI32, AtomicU8, Ordering};
use std::time::Duration;

use boardbase::catalogue::{self, Model};
use boardbase::euler::Outcome;
use boardbase::generate::{
    Cancel, EulerReport, FlipReport, GenerateError, Job, LimitFrom, MemoryLimit, Phase, Plan,
    Progress, Report, ReportSummary, checkpoint, checkpoint::Resume, checkpoint_kept,
};
use boardbase::generate::{GameJob, GamePlan, GameReport, RunFigures};
use boardbase::memory::ByteSize;
use boardbase::tablefile::{self, Puzzle};
use boardbase::tables::shape::Shape;
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Args, ValueEnum};

use super::bar::PhaseBar;
use super::options::GameOptions;
use super::signals::{caught, on_signals};
use super::table_args::parse_shape;
use super::{Failure, Output, thousands, write_json_line};

/// What `generate` makes a table of: a puzzle with its own generator, or a
/// game of the catalogue's models.
#[derive(Clone, Copy, Debug)]
pub enum TableGame {
    /// Euler or Flip.
    Puzzle(Puzzle),
    /// Any other game of the model.
    Model(&'static Model),
}

/// The games `generate` takes, from the catalogue: Euler and Flip (with
/// their judge problems' names as aliases), then every game of the model.
fn table_game() -> impl TypedValueParser<Value = TableGame> {
    let mut values = vec![
        PossibleValue::new("euler")
            .alias("uva10536")
            .help("Game of Euler: up to 36 squares"),
        PossibleValue::new("flip")
            .alias("poj1753")
            .help("Flip Game: up to 25 cells"),
    ];
    for model in catalogue::MODELS.iter().filter(|m| m.game != "euler") {
        let title = catalogue::game(model.game).map_or(model.game, |g| g.title);
        values.push(
            PossibleValue::new(model.game)
                .help(format!("{title}: every position, by retrograde analysis")),
        );
    }
    PossibleValuesParser::new(values).map(|name: String| match name.as_str() {
        "euler" | "uva10536" => TableGame::Puzzle(Puzzle::Euler),
        "flip" | "poj1753" => TableGame::Puzzle(Puzzle::Flip),
        // The parser took only the names listed above.
        game => catalogue::model(game).map_or(TableGame::Puzzle(Puzzle::Flip), TableGame::Model),
    })
}

/// How the summary is written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum SummaryFormat {
    /// Lines for people.
    #[default]
    Text,
    /// One JSON object.
    Json,
}

/// Arguments of `boardbase generate`.
#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// The game: `euler` (up to 36 squares), `flip` (up to 25 cells), or
    /// any game of `boardbase games` that `solve` answers.
    #[arg(value_name = "GAME", value_parser = table_game())]
    game: TableGame,
    /// The board size RxC, rows first (e.g. 5x5).
    #[arg(value_name = "RxC", value_parser = parse_shape)]
    shape: Shape,
    /// Directory to write the table into (`euler-RxC.bin`, `flip-RxC.bin`,
    /// `mnk-RxC-k3.bin`; created if missing; a file of that name is
    /// replaced once the new one is complete).
    #[arg(long, value_name = "DIR", default_value = ".")]
    dir: PathBuf,
    /// Euler: the win/loss bits only, without moves left and best moves
    /// (made anyway when the full tables do not fit in --memory).
    #[arg(long)]
    wdl_only: bool,
    /// Euler: save the finished win/loss layers to the checkpoint
    /// (DIR/euler-RxC.bin.checkpoint, which the same command resumes from
    /// after a kill) at most this often, in seconds; 0: after every layer.
    /// A game of the model: save the solver's state (DIR/GAME-RxC-kK.bin.checkpoint)
    /// at most this often, and never sooner than ten times the last save's time
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0,
          value_parser = parse_seconds)]
    checkpoint_every: f64,
    /// One entry a class of positions under the board's symmetries (table
    /// format version 5): up to 1/8 of the file on a square board, 1/4 on
    /// another rectangle. Euler: moves left without best moves, which are
    /// found from them. Flip: a board's press set is mapped from its
    /// class's
    #[arg(long)]
    symmetry: bool,
    /// Compress the table once written (table format version 4, as
    /// `boardbase compress` writes it); needs room for a second file of the
    /// raw table's length until it replaces it
    #[arg(long)]
    compress: bool,
    #[arg(long, value_name = "SIZE", value_parser = parse_byte_size,
          help = concat!("The most memory the job may take, e.g. 9G, 512M, 9GiB ", super::options::memory_units!(), " [default: the memory available]"))]
    memory: Option<u64>,
    #[arg(long = "jobs", visible_alias = "threads", value_name = "N",
          value_parser = super::options::parse_jobs,
          help = concat!(super::options::jobs_help!(), " (`--threads`, the old name, is an alias to be removed in a later release)"))]
    threads: Option<u16>,
    #[command(flatten)]
    options: GameOptions,
    /// How to print the summary.
    #[arg(long, value_enum, default_value_t)]
    format: SummaryFormat,
    /// Over MPI ranks: the memory for other ranks' blocks, e.g. 256M; a
    /// rank holds at most SIZE / ranks of them at once, and a layer (and,
    /// below 16M, the file's write) takes more rounds when it is smaller
    #[cfg(feature = "mpi")]
    #[arg(long, value_name = "SIZE", value_parser = parse_byte_size, default_value = "256MiB")]
    exchange_memory: u64,
}

/// Seconds: a number from 0 to a day.
fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if (0.0..=86_400.0).contains(&s) => Ok(s),
        _ => Err(format!("expected seconds from 0 to 86400, got {text:?}")),
    }
}

/// Parses a memory size as every option takes it (`8G`, `512M`, `9GiB`;
/// a bare number is MiB): [`ByteSize`]'s `FromStr`.
pub fn parse_byte_size(text: &str) -> Result<u64, String> {
    text.parse::<ByteSize>().map(|b| b.0)
}

/// On SIGINT, SIGTERM or SIGHUP: cancels the job (it stops within a
/// fraction of a second, removing its temporary file) and keeps the signal
/// for the exit status, 128 + the signal. A second signal stops at once:
/// this process's temporary file for `path` is removed, and the final name
/// is never touched (a table there is either the complete new one or
/// whatever was there before; once the job compresses it, the table as
/// written, or the compressed one once it replaced it). The process says
/// so where `speaks` (the ranks of a job but rank 0 are quiet).
pub(super) fn cancel_on_signals(path: &Path, cancel: &Cancel, speaks: bool) -> Interrupt {
    let path = path.to_owned();
    let compression = Arc::new(AtomicU8::new(NOT_COMPRESSING));
    let stage = Arc::clone(&compression);
    let caught = on_signals(cancel, move || {
        let removed = tablefile::remove_temporary_files(&path) > 0;
        let message = match stage.load(Ordering::Relaxed) {
            // Every byte written and no temporary file left: it replaced
            // the table as written.
            COMPRESSED if !removed => {
                format!("interrupted: {} written and compressed", path.display())
            }
            NOT_COMPRESSING => {
                let checkpoint = checkpoint::checkpoint_path(&path);
                let kept = checkpoint.exists().then_some(checkpoint.as_path());
                interrupted(&path, removed, kept)
            }
            _ => written_not_compressed(&path),
        };
        speaks.then_some(message)
    });
    Interrupt {
        caught,
        compression,
    }
}

/// A job's signals ([`cancel_on_signals`]): the one caught, and how far the
/// compression of its table has gone, which is what a second signal's
/// message says.
pub(super) struct Interrupt {
    caught: Arc<AtomicI32>,
    compression: Arc<AtomicU8>,
}

/// [`Interrupt`]'s stages of the compression: not begun (the table may not
/// be written yet), under way (the table is written), every byte written
/// (the compressed table replaces the written one next).
const NOT_COMPRESSING: u8 = 0;
const COMPRESSING: u8 = 1;
const COMPRESSED: u8 = 2;

impl Interrupt {
    /// Takes note of a job's progress report: its compression began, or
    /// wrote its last bytes.
    pub(super) fn saw(&self, p: &Progress) {
        if p.phase == Phase::Compress {
            let stage = if p.done == p.total {
                COMPRESSED
            } else {
                COMPRESSING
            };
            self.compression.fetch_max(stage, Ordering::Relaxed);
        }
    }
}

/// What an interrupted run says: `interrupted: PATH not written`, whether
/// its temporary file was removed, and the checkpoint kept to resume from.
fn interrupted(path: &Path, removed: bool, checkpoint: Option<&Path>) -> String {
    let what = if removed {
        " (its temporary file was removed)"
    } else {
        ""
    };
    format!(
        "interrupted: {} not written{what}{}",
        path.display(),
        checkpoint_kept(checkpoint)
    )
}

/// What a run interrupted while it compressed its table says: the table
/// is kept as written, and how to compress it.
fn written_not_compressed(path: &Path) -> String {
    format!(
        "interrupted: {} written, not compressed; `boardbase compress {}` compresses it",
        path.display(),
        path.display()
    )
}

/// The failure of a job: a usage error (exit status 2) when its settings
/// are at fault, else the job's own message (exit status 1).
pub(super) fn failure(error: GenerateError) -> Failure {
    if error.is_usage() {
        Failure::Usage(error.to_string())
    } else {
        Failure::Job(error)
    }
}

impl GenerateArgs {
    /// The puzzle of a job of Euler's or Flip's own generator (a game of
    /// the model is run apart, by [`run_game`], before any job of these is
    /// made).
    fn puzzle(&self) -> Puzzle {
        match self.game {
            TableGame::Puzzle(puzzle) => puzzle,
            TableGame::Model(_) => Puzzle::Euler,
        }
    }

    /// The game of the model asked for, if it is one.
    pub(super) fn model(&self) -> Option<&'static Model> {
        match self.game {
            TableGame::Model(model) => Some(model),
            TableGame::Puzzle(_) => None,
        }
    }

    /// Refuses a game's options (`--k`) given to Euler or Flip.
    pub(super) fn no_game_options(&self) -> Result<(), Failure> {
        match self.options.given().first() {
            Some((name, _)) => Err(Failure::Usage(format!(
                "--{name} is for the games of the model (`boardbase games`), not {}",
                self.puzzle()
            ))),
            None => Ok(()),
        }
    }

    /// `--jobs`, if given.
    pub(super) fn threads(&self) -> Option<usize> {
        self.threads.map(usize::from)
    }

    /// The board size.
    #[cfg(feature = "mpi")]
    pub(super) fn shape(&self) -> Shape {
        self.shape
    }
}

/// The job the arguments ask for.
pub(super) fn job_of(args: &GenerateArgs) -> Job {
    Job {
        dir: args.dir.clone(),
        wdl_only: args.wdl_only,
        threads: args.threads(),
        memory_limit: args.memory,
        checkpoint_every: Duration::from_secs_f64(args.checkpoint_every),
        compress: args.compress,
        symmetry: args.symmetry,
        #[cfg(feature = "mpi")]
        exchange_bytes: args.exchange_memory,
        ..Job::new(args.puzzle(), args.shape)
    }
}

/// What the plan says first: the table, what it holds, its positions, and
/// the memory and disk it needs.
pub(super) fn plan_line(plan: &Plan) -> String {
    let job = plan.job();
    let limit_text = limit_text(plan.memory_limit);
    let holds = match plan.full_tables_memory {
        Some(full) => format!(
            "{} (the full tables need {}, over the limit)",
            plan.holds(),
            ByteSize(full)
        ),
        None => plan.holds().to_owned(),
    };
    // Win/loss tables are made both ways: say what the other way needs.
    let other_way = match plan.symmetry_memory {
        Some(m) if job.symmetry => format!("; {} without --symmetry", ByteSize(m.without)),
        Some(m) => format!("; {} with --symmetry", ByteSize(m.with)),
        None => String::new(),
    };
    format!(
        "{} {}, {holds}: {} {}; needs {} of memory ({} to generate, {} to write{limit_text}{other_way}) and {} of disk for {}",
        job.puzzle,
        job.shape,
        thousands(plan.positions),
        plan.units(),
        ByteSize(plan.memory_needed),
        ByteSize(plan.generate_memory),
        ByteSize(plan.write_memory),
        ByteSize(plan.file_bytes),
        plan.path.display(),
    )
}

/// The failure of a job that may have been stopped by a signal (kept in
/// `signal`): [`Failure::Interrupted`] then, else `other(error)`.
pub(super) fn interrupted_or(
    error: GenerateError,
    signal: &Interrupt,
    other: impl FnOnce(GenerateError) -> Failure,
) -> Failure {
    let message = match error {
        GenerateError::NotWritten {
            path,
            removed_temporary,
            checkpoint,
        } => interrupted(&path, removed_temporary, checkpoint.as_deref()),
        GenerateError::NotCompressed { path } => written_not_compressed(&path),
        e => return other(e),
    };
    Failure::Interrupted {
        message,
        signal: caught(&signal.caught),
    }
}

/// Runs `boardbase generate`, `launched` being what [`launcher`] found:
/// refused as one of several processes of a launcher (this build cannot
/// spread a job over them), else in this process alone.
pub fn run(
    args: &GenerateArgs,
    launched: Option<(&str, u64)>,
    out: &mut Output,
) -> Result<(), Failure> {
    if let Some((launcher, size)) = launched
        && size > 1
    {
        return Err(Failure::Usage(format!(
            "this boardbase is one of {size} processes started by {launcher}, but it was built \
             without the `mpi` feature, so each would make the whole table and write the same file. \
             Build it with `cargo build --release -p boardbase-cli --features mpi` (it needs an MPI \
             library: docs/scaling.md), or run `boardbase generate` without {launcher}"
        )));
    }
    if let Some(model) = args.model() {
        return run_game(args, model, out);
    }
    args.no_game_options()?;
    run_alone(args, out)
}

/// `boardbase generate` of a game of the model: its settings checked,
/// the plan said, the game solved and its table written.
pub(super) fn run_game(
    args: &GenerateArgs,
    model: &'static Model,
    out: &mut Output,
) -> Result<(), Failure> {
    // Euler's and Flip's settings, refused rather than ignored.
    let euler_only = [
        ("--wdl-only", args.wdl_only),
        ("--jobs", args.threads.is_some()),
    ];
    if let Some((flag, _)) = euler_only.iter().find(|(_, given)| *given) {
        return Err(Failure::Usage(format!(
            "{flag} is for euler and flip: a {} table is solved by one thread",
            model.game
        )));
    }
    if args.symmetry {
        return Err(Failure::Usage(format!(
            "--symmetry is for euler and flip: a {} table is solved by classes of the game's symmetries already",
            model.game
        )));
    }
    let setup = model
        .setup(Some(args.shape), args.options.given())
        .map_err(|e| Failure::Usage(e.to_string()))?;
    let job = GameJob {
        dir: args.dir.clone(),
        memory_limit: args.memory,
        checkpoint_every: Duration::from_secs_f64(args.checkpoint_every),
        compress: args.compress,
        ..GameJob::new(model, setup)
    };
    let plan = job.plan().map_err(failure)?;
    eprintln!("{}", game_plan_line(&plan));
    let cancel = Cancel::new();
    let signal = cancel_on_signals(&plan.path, &cancel, true);
    plan.check().map_err(failure)?;
    if let Some(checkpoint) = plan.checkpoint() {
        eprintln!("resuming from {}", checkpoint.display());
    }
    note_leftovers(&plan.leftovers());
    let report = with_bar(&signal, |progress| plan.run(progress, &cancel))?;
    match args.format {
        SummaryFormat::Json => write_json_line(out, &report),
        SummaryFormat::Text => write_game_text(out, &report),
    }
}

/// What a plan says of its memory limit: `; limit 1 GiB by --memory`, `;
/// 3 GiB available`, or nothing.
fn limit_text(limit: Option<MemoryLimit>) -> String {
    match limit {
        Some(MemoryLimit {
            bytes,
            from: LimitFrom::Given,
        }) => format!("; limit {} by --memory", ByteSize(bytes)),
        Some(MemoryLimit {
            bytes,
            from: LimitFrom::Available,
        }) => format!("; {} available", ByteSize(bytes)),
        None => String::new(),
    }
}

/// What a game's plan says first: the table, its position indices, the
/// memory and disk it needs.
fn game_plan_line(plan: &GamePlan) -> String {
    let job = plan.job();
    let limit_text = limit_text(plan.memory_limit);
    // A game solved tier by tier keeps its entries in a file while it runs.
    let entries = if plan.entries_bytes > 0 {
        format!(
            ", solved tier by tier with {} of entries beside it until it is written",
            ByteSize(plan.entries_bytes)
        )
    } else {
        String::new()
    };
    format!(
        "{} {}, value and remoteness of every position: {} position indices; needs {} of memory ({} to solve, {} to write{limit_text}) and at most {} of disk for {}{entries}",
        job.model.game,
        job.setup.shape,
        thousands(plan.positions),
        ByteSize(plan.memory_needed),
        ByteSize(plan.generate_memory),
        ByteSize(plan.write_memory),
        ByteSize(plan.file_bytes),
        plan.path.display(),
    )
}

/// The text summary of a game's table.
fn write_game_text(out: &mut Output, r: &GameReport) -> Result<(), Failure> {
    let options: String = r
        .options
        .iter()
        .map(|(name, value)| format!(", {name} = {value}"))
        .collect();
    let start = match r.start.remoteness {
        Some(plies) => format!("{} in {plies}", r.start.value),
        None => r.start.value.to_string(),
    };
    writeln!(out, "{} {}x{}{options}", r.game, r.rows, r.cols)?;
    writeln!(
        out,
        "positions up to symmetry: {} legal, {} reachable from the start ({} won, {} lost, {} drawn by the player to move)",
        thousands(r.legal),
        thousands(r.reachable),
        thousands(r.win),
        thousands(r.lose),
        thousands(r.draw)
    )?;
    writeln!(out, "start: {start} for the first player")?;
    writeln!(
        out,
        "wrote {} ({} bytes{}) in {:.3} s ({:.3} s to solve); peak memory {}",
        r.run.file,
        thousands(r.run.file_bytes),
        compressed_text(&r.run),
        r.run.seconds,
        r.run.generate_seconds,
        r.run
            .peak_memory
            .map_or_else(|| "unknown".to_owned(), |b| ByteSize(b).to_string())
    )?;
    Ok(())
}

/// What a run resuming from a checkpoint says before it starts: the
/// win/loss layers, and the moves-left steps where it holds any.
pub(super) fn resuming(resume: &Resume) -> String {
    let mut line = format!(
        "resuming from {}: {} of {} win/loss layers done",
        resume.path.display(),
        resume.layers_done,
        resume.layers
    );
    if resume.depth_steps_done > 0 {
        line += &format!(
            ", {} of at most {} moves-left steps done",
            resume.depth_steps_done, resume.depth_steps
        );
    }
    line
}

/// `boardbase generate` in this process alone.
pub(super) fn run_alone(args: &GenerateArgs, out: &mut Output) -> Result<(), Failure> {
    let job = job_of(args);
    let plan = job.plan().map_err(failure)?;
    eprintln!("{}", plan_line(&plan));
    // Signals are caught before the first file is made (the check's probe
    // file): from here on an interrupt cancels the job and leaves nothing.
    let cancel = Cancel::new();
    let signal = cancel_on_signals(&plan.path, &cancel, true);
    // Checked before hours of work can be lost (and made again by `run`).
    plan.check().map_err(failure)?;
    if let Some(resume) = &plan.resume {
        eprintln!("{}", resuming(resume));
    }
    note_leftovers(&plan.leftovers());
    let report = with_bar(&signal, |progress| plan.run(progress, &cancel))?;
    write_report(args, out, &report)
}

/// Notes the temporary files of the table that killed runs left.
fn note_leftovers(paths: &[PathBuf]) {
    for old in paths {
        eprintln!(
            "note: {} was left by a run that was killed (its process is gone); remove it to free the space",
            old.display()
        );
    }
}

/// Runs a job with a progress bar on stderr, its failure the command
/// line's (an interrupt's, when `signal` caught one).
fn with_bar<R>(
    signal: &Interrupt,
    run: impl FnOnce(&(dyn Fn(Progress) + Sync)) -> Result<R, GenerateError>,
) -> Result<R, Failure> {
    let bar = PhaseBar::new();
    let progress = |p: Progress| {
        signal.saw(&p);
        bar.update(p.phase.name(), p.done, p.total, p.phase.counts_bytes());
    };
    let report = run(&progress).map_err(|e| interrupted_or(e, signal, failure))?;
    bar.finish();
    Ok(report)
}

/// The summary, as `--format` asks.
pub(super) fn write_report(
    args: &GenerateArgs,
    out: &mut Output,
    report: &Report,
) -> Result<(), Failure> {
    match args.format {
        SummaryFormat::Json => write_json_line(out, report),
        SummaryFormat::Text => write_text(out, report),
    }
}

/// What a summary's line of the file adds when the job compressed it:
/// `, compressed from BYTES: P %`.
fn compressed_text(f: &RunFigures) -> String {
    f.uncompressed_bytes.map_or_else(String::new, |before| {
        format!(
            ", compressed from {}: {}",
            thousands(before),
            super::compress::percent(f.file_bytes, before)
        )
    })
}

/// The text summary: what the table holds, then the file, time and memory.
fn write_text(out: &mut Output, r: &Report) -> Result<(), Failure> {
    let (rows, cols) = (r.rows, r.cols);
    match &r.summary {
        ReportSummary::Euler(s) => write_euler_text(out, rows, cols, s)?,
        ReportSummary::Flip(s) => write_flip_text(out, rows, cols, s)?,
    }
    let f = &r.run;
    writeln!(
        out,
        "wrote {}: {} bytes ({}{})",
        f.file,
        thousands(f.file_bytes),
        ByteSize(f.file_bytes),
        compressed_text(f)
    )?;
    let peak = f
        .peak_memory
        .map_or_else(|| "unknown".to_owned(), |p| ByteSize(p).to_string());
    writeln!(
        out,
        "time {:.2} s (generate {:.2} s, write {:.2} s); peak memory {peak} (needed {})",
        f.seconds,
        f.generate_seconds,
        f.write_seconds,
        ByteSize(f.memory_needed)
    )?;
    Ok(())
}

fn write_euler_text(
    out: &mut Output,
    rows: usize,
    cols: usize,
    r: &EulerReport,
) -> Result<(), Failure> {
    let tables = if r.wdl_only {
        "win/loss only"
    } else {
        "full tables"
    };
    writeln!(
        out,
        "euler {rows}x{cols}: {} positions ({tables})",
        thousands(r.positions)
    )?;
    writeln!(
        out,
        "  open positions: {} winning, {} losing for the player to move",
        thousands(r.winning),
        thousands(r.losing)
    )?;
    let who = match r.empty {
        Outcome::Win => "WINNING: the first player wins",
        Outcome::Loss => "LOSING: the second player wins",
    };
    match r.empty_moves_left {
        Some(n) => writeln!(out, "  empty board: {who}, {n} moves with perfect play")?,
        None => writeln!(
            out,
            "  empty board: {who} (moves left not stored: win/loss only)"
        )?,
    }
    Ok(())
}

fn write_flip_text(
    out: &mut Output,
    rows: usize,
    cols: usize,
    r: &FlipReport,
) -> Result<(), Failure> {
    writeln!(out, "flip {rows}x{cols}: {} boards", thousands(r.positions))?;
    writeln!(
        out,
        "  solvable: {} ({} reach all white, {} all black); impossible: {}",
        thousands(r.solvable),
        thousands(r.reach_white),
        thousands(r.reach_black),
        thousands(r.impossible)
    )?;
    let counts: Vec<String> = r
        .histogram
        .iter()
        .enumerate()
        .map(|(k, n)| format!("{k}: {}", thousands(*n)))
        .collect();
    writeln!(out, "  boards by fewest rounds: {}", counts.join(", "))?;
    writeln!(out, "  most rounds: {}", r.max_rounds)?;
    Ok(())
}

/// The launcher and process count when this process was started by an MPI
/// launcher or Slurm, one of `n` processes: Open
/// MPI's `mpirun` sets `OMPI_COMM_WORLD_SIZE`, MPICH's `mpiexec` (and
/// Slurm's PMI-2) `PMI_SIZE`, Slurm's `srun` `SLURM_NTASKS` with
/// `SLURM_STEP_ID` (a batch script alone sets `SLURM_NTASKS` but runs no
/// job step). `None` when started otherwise.
pub fn launcher() -> Option<(&'static str, u64)> {
    launched(&|name| std::env::var(name).ok())
}

/// [`launcher`], the variables read through `env`.
fn launched(env: &dyn Fn(&str) -> Option<String>) -> Option<(&'static str, u64)> {
    let size = |name: &str| {
        env(name)
            .and_then(|v| v.trim().parse::<u64>().ok())
            .filter(|&n| n >= 1)
    };
    if let Some(n) = size("OMPI_COMM_WORLD_SIZE") {
        return Some(("mpirun", n));
    }
    if let Some(n) = size("PMI_SIZE") {
        return Some(("mpiexec", n));
    }
    if env("SLURM_STEP_ID").is_some()
        && let Some(n) = size("SLURM_NTASKS")
    {
        return Some(("srun", n));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn launchers_are_recognised_by_their_variables() {
        let launch = |vars: &[(&str, &str)]| {
            let vars: Vec<(String, String)> = vars
                .iter()
                .map(|&(k, v)| (k.to_owned(), v.to_owned()))
                .collect();
            launched(&move |name| vars.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone()))
        };
        assert_eq!(launch(&[]), None);
        assert_eq!(
            launch(&[("OMPI_COMM_WORLD_SIZE", "2")]),
            Some(("mpirun", 2))
        );
        assert_eq!(
            launch(&[("OMPI_COMM_WORLD_SIZE", "1")]),
            Some(("mpirun", 1))
        );
        assert_eq!(launch(&[("PMI_SIZE", "4")]), Some(("mpiexec", 4)));
        assert_eq!(launch(&[("SLURM_NTASKS", "8")]), None);
        assert_eq!(
            launch(&[("SLURM_NTASKS", "8"), ("SLURM_STEP_ID", "0")]),
            Some(("srun", 8))
        );
        assert_eq!(launch(&[("OMPI_COMM_WORLD_SIZE", "x")]), None);
    }

    #[test]
    fn memory_sizes() {
        assert_eq!(parse_byte_size("9G"), Ok(9 << 30));
        assert_eq!(parse_byte_size("9GiB"), Ok(9 << 30));
        assert_eq!(parse_byte_size("512M"), Ok(512 << 20));
        assert_eq!(parse_byte_size("1.5g"), Ok(3 << 29));
        assert_eq!(parse_byte_size("2GB"), Ok(2_000_000_000));
        assert_eq!(parse_byte_size("4096"), Ok(4096 << 20));
        assert_eq!(parse_byte_size("4096B"), Ok(4096));
        assert!(parse_byte_size("lots").is_err());
        assert!(parse_byte_size("9X").is_err());
        assert!(parse_byte_size("").is_err());
    }
}
