//! `boardbase check`: run a solution as the judge does and report.

use std::ffi::OsString;
use std::io::Write;
use std::time::Duration;

use boardbase::cases::CasesError;
use boardbase::check::{
    self, CarcassonneCheck, Check, CheckError, CheckReport, FliptileCheck, LightsCheck,
    LightsOutCheck, MemoryControl, Options, Presentation, Program, SizedCheck, Stopped, Verdict,
};
use boardbase::lights::family::FamilyGoal;
use clap::{Args, ValueEnum};

use boardbase::tablefile::Puzzle;

use super::cases::FilterArgs;
use super::options::{JobsArgs, VariantArgs, parse_goal};
use super::table_args::TableArgs;
use super::{Failure, Output, PuzzleName, thousands, write_json_line};

/// Report formats.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum ReportFormat {
    /// For people.
    #[default]
    Text,
    /// One JSON object.
    Json,
}

/// How output is compared with the judge's (`--presentation`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum PresentationArg {
    /// As the judge compares: the answers on the judge's lines, their
    /// capitals and spaces, no blank line or space before them (spaces at
    /// the ends of lines and blank lines at the end do not count).
    #[default]
    Strict,
    /// Tokens only: line breaks and spaces do not matter.
    Tokens,
}

/// How the memory limit is held (`--memory-control`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum MemoryControlArg {
    /// A memory cgroup a run.
    Cgroup,
    /// RLIMIT_AS of each process.
    AddressSpace,
}

/// Arguments of `boardbase check`.
#[derive(Debug, Args)]
#[command(mut_arg("size", |a| a
    .help(concat!(super::options::size_help!(), ": check boards of this size (flip, euler, fliptile, carcassonne, lights) [default: the puzzle's own cases; lights needs it]"))
    .long_help(concat!(super::options::size_help!(), ": check boards of this size, drawn as `cases --size` draws them (flip, euler, fliptile, carcassonne, lights). Without it, the puzzle's own cases: the judge's, or (fliptile, carcassonne) boards of several sizes; lights needs it. Euler: up to 36 squares; Flip: up to 64x64"))))]
pub struct CheckArgs {
    /// The puzzle the program solves.
    #[arg(value_enum)]
    puzzle: PuzzleName,
    #[command(flatten)]
    filter: FilterArgs,
    #[command(flatten)]
    tables: TableArgs,
    /// Check a random sample of N cases instead of every one (flip and
    /// euler of a size other than 4x4, by --size or --table: N boards of
    /// that size, drawn as `cases --size` draws them; 1,000 by default).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    sample: Option<u64>,
    #[arg(long, value_name = "S", default_value_t = 0, help = super::options::seed_help!(),
          long_help = concat!(super::options::seed_help!(), ": the sample, the order of cases in a run, and the boards generated (Carcassonne, Fliptile, Lights Out, and Flip and Euler with --size)"))]
    seed: u64,
    #[command(flatten)]
    jobs: JobsArgs,
    /// `--max-nullity K`: the limit of the GF(2) solver that answers Flip
    /// boards of other sizes and the search that answers the Lights Out
    /// family's (flip --size and lights).
    #[command(flatten)]
    nullity: super::options::NullityArgs,
    /// lights: the variant's colours, wrap and press pattern, as `cases
    /// lights` takes them.
    #[command(flatten)]
    variant: VariantArgs,
    #[arg(long, value_name = "G", value_parser = parse_goal,
          help = concat!(super::options::goal_help!(), " [default: 0]"))]
    goal: Option<FamilyGoal>,
    /// CPU time limit of one run (user + system), in seconds [default: the
    /// judge's: flip 1, euler 3, carcassonne 1, fliptile 2, lightsout 1;
    /// lights 1, no judge's].
    #[arg(long, alias = "timeout", value_name = "SECONDS", value_parser = parse_seconds)]
    time_limit: Option<Duration>,
    /// Wall-clock guard of one run, in seconds: a program that sleeps or
    /// waits uses no CPU time; one still gaining CPU time at the guard (a
    /// busy machine) gets another, up to 10 [default: 3 times the CPU time
    /// limit].
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    wall_limit: Option<Duration>,
    /// Memory limit of one run, in MB (1 MB = 1,048,576 bytes): the peak
    /// resident memory of the program and what it starts; 0 for none
    /// [default: the judge's: 64, lightsout 9.77 (POJ 1222's 10000K);
    /// lights 64, no judge's].
    #[arg(long, value_name = "MB", value_parser = parse_megabytes)]
    memory_limit: Option<f64>,
    /// How the memory limit is held: `cgroup` (a memory cgroup a run: the
    /// kernel stops the whole tree at the limit, and measures its peak) or
    /// `address-space` (RLIMIT_AS of each process at the limit plus 64 MB,
    /// the peak of the largest process held against the limit) [default:
    /// cgroup where this machine lets boardbase make one, else
    /// address-space].
    #[arg(long, value_enum, value_name = "HOW")]
    memory_control: Option<MemoryControlArg>,
    /// Stop once N runs failed (the runs under way finish and are
    /// judged); 0 runs every one.
    #[arg(long, value_name = "N", default_value_t = check::DEFAULT_MAX_FAILURES)]
    max_failures: usize,
    /// How output is compared with the judge's: `strict` (as the judge
    /// does: a word that differs, capitals too, is a Wrong Answer; right
    /// words laid out otherwise, on other lines, after blank lines or
    /// spaces, are a Presentation Error on POJ and HDU, a Wrong Answer on
    /// UVa) or `tokens` (line breaks and spaces do not matter; a word in
    /// other capitals is a Presentation Error).
    #[arg(long, value_enum, value_name = "HOW", default_value_t)]
    presentation: PresentationArg,
    /// How many failing cases (and failing runs) to show in full.
    #[arg(long, value_name = "N", default_value_t = 3)]
    show: usize,
    /// Write every failing run to DIR (created if need be): run-N.in (its
    /// input), run-N.expected, run-N.out (the program's output) and
    /// run-N.err (the end of its stderr); the report gives the command
    /// that runs it again.
    #[arg(long, value_name = "DIR")]
    save: Option<std::path::PathBuf>,
    /// Report format.
    #[arg(long, value_enum, default_value_t)]
    format: ReportFormat,
    /// The solution to check and its arguments, after `--`.
    #[arg(last = true, required = true, value_name = "PROGRAM")]
    program: Vec<OsString>,
}

fn parse_seconds(text: &str) -> Result<Duration, String> {
    let secs: f64 = text
        .parse()
        .map_err(|_| format!("'{text}' is not a number of seconds"))?;
    if !(0.001..=86_400.0).contains(&secs) {
        return Err("the limit must be between 0.001 and 86400 seconds".to_owned());
    }
    Ok(Duration::from_secs_f64(secs))
}

fn parse_megabytes(text: &str) -> Result<f64, String> {
    let mb: f64 = text
        .parse()
        .map_err(|_| format!("'{text}' is not a number of MB"))?;
    if !(0.0..=1_048_576.0).contains(&mb) {
        return Err("the memory limit must be between 0 (none) and 1048576 MB".to_owned());
    }
    Ok(mb)
}

/// On Ctrl-C (or SIGTERM, SIGHUP): kill the programs still running (they
/// are in process groups of their own, which the terminal's signal does not
/// reach) and exit with 128 + the signal.
fn kill_programs_on_signals() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
        return;
    };
    std::thread::spawn(move || {
        let mut signals = signals.forever();
        if let Some(signal) = signals.next() {
            // The runs done are reported; the runs under way are not.
            INTERRUPTED_BY.store(signal, std::sync::atomic::Ordering::SeqCst);
            check::process::kill_running();
            eprintln!(
                "\ninterrupted: the programs still running were killed; the report of the runs done follows (again to stop at once)"
            );
        }
        if let Some(signal) = signals.next() {
            std::process::exit(128 + signal);
        }
    });
}

/// The signal that interrupted the check (0: none yet).
static INTERRUPTED_BY: std::sync::atomic::AtomicI32 = std::sync::atomic::AtomicI32::new(0);

/// Runs `boardbase check`.
pub fn run(args: &CheckArgs, out: &mut Output) -> Result<(), Failure> {
    let usage = |e: String| Failure::Usage(e);
    let cases = |e: CasesError| Failure::Usage(format!("nothing to check: {e}"));
    super::cases::lights_options(args.puzzle, &args.variant, args.goal).map_err(usage)?;
    match args.puzzle {
        PuzzleName::Flip | PuzzleName::Euler => {}
        _ if args.tables.table.is_some() || !args.tables.tables.is_empty() => {
            return Err(Failure::Usage(format!(
                "--table and --tables are for flip and euler, not {}",
                args.puzzle.name()
            )));
        }
        PuzzleName::Lightsout if args.tables.size.is_some() => {
            return Err(Failure::Usage(
                "--size is for flip, euler, fliptile, carcassonne and lights, not lightsout"
                    .to_owned(),
            ));
        }
        _ => {}
    }
    match args.puzzle {
        PuzzleName::Flip => run_boards(args, Puzzle::Flip, out),
        PuzzleName::Euler => run_boards(args, Puzzle::Euler, out),
        PuzzleName::Carcassonne => {
            let category = args.filter.carcassonne().map_err(usage)?;
            // 4 categories, each in 3 size classes, or of the one size asked.
            let classes = if args.tables.size.is_some() { 1 } else { 3 };
            let groups = if category.is_some() { 1 } else { 4 } * classes;
            let per_group = per_group(args.sample, groups, CarcassonneCheck::PER_GROUP)?;
            let puzzle = match args.tables.size {
                Some(size) => CarcassonneCheck::sized(
                    args.seed,
                    per_group,
                    category,
                    size.rows(),
                    size.cols(),
                ),
                None => CarcassonneCheck::new(args.seed, per_group, category),
            }
            .map_err(cases)?;
            run_puzzle(args, &puzzle, out)
        }
        PuzzleName::Fliptile => {
            let category = args.filter.fliptile().map_err(usage)?;
            let groups = FliptileCheck::groups(args.tables.size)
                .iter()
                .filter(|g| category.is_none_or(|f| f == g.category))
                .count();
            let per_group = per_group(args.sample, groups, FliptileCheck::PER_GROUP)?;
            let puzzle = match args.tables.size {
                Some(size) => FliptileCheck::sized(args.seed, per_group, category, size),
                None => FliptileCheck::new(args.seed, per_group, category),
            }
            .map_err(cases)?;
            run_puzzle(args, &puzzle, out)
        }
        PuzzleName::Lightsout => {
            args.filter.lightsout().map_err(usage)?;
            // 32 chosen puzzles, then the random ones.
            let random = per_group(
                args.sample.map(|n| n.saturating_sub(32)),
                1,
                LightsOutCheck::RANDOM,
            )?;
            let puzzle = LightsOutCheck::new(args.seed, random).map_err(cases)?;
            run_puzzle(args, &puzzle, out)
        }
        PuzzleName::Lights => run_lights(args, out),
    }
}

/// `check lights`: `--sample` boards (1,000 by default) of the variant
/// drawn from `--seed` as `cases lights` draws them, with the answers
/// `cases lights --answers` writes.
fn run_lights(args: &CheckArgs, out: &mut Output) -> Result<(), Failure> {
    let size = args.tables.size.map(|s| (s.rows(), s.cols()));
    let spec = super::cases::lights_spec(
        size,
        &args.variant,
        args.goal,
        &args.filter,
        args.nullity.get(),
    )
    .map_err(|e| Failure::Usage(format!("nothing to check: {e}")))?;
    let sample = args.sample.unwrap_or(LightsCheck::SAMPLE as u64);
    if sample > SIZED_MAX_SAMPLE {
        return Err(Failure::Usage(format!(
            "--sample {sample}: check lights draws at most {} boards (each is held until its run)",
            super::thousands(SIZED_MAX_SAMPLE)
        )));
    }
    let check = LightsCheck::new(&spec, sample as usize, args.seed).map_err(|e| match e {
        CasesError::Empty { .. } | CasesError::Size(_) | CasesError::Lights(_) => {
            Failure::Usage(format!("nothing to check: {e}"))
        }
        e => Failure::Cases(e),
    })?;
    run_puzzle(args, &check, out)
}

/// The most cases `check` generates for a puzzle whose cases are drawn
/// from the seed (each is held, with its answer, until its run).
const MAX_GENERATED: u64 = 100_000;

/// Cases to draw in each of `groups` groups so that `sample` can be had:
/// `default`, or more when the sample asks for more.
fn per_group(sample: Option<u64>, groups: usize, default: usize) -> Result<usize, Failure> {
    let groups = groups.max(1) as u64;
    let Some(sample) = sample else {
        return Ok(default);
    };
    if sample > MAX_GENERATED {
        return Err(Failure::Usage(format!(
            "--sample {}: check draws at most {} cases (each is held until its run)",
            thousands(sample),
            thousands(MAX_GENERATED)
        )));
    }
    Ok((sample.div_ceil(groups) as usize).max(default))
}

/// Boards drawn for check by default on other sizes.
const SIZED_SAMPLE: u64 = 1000;

/// The most boards `check --size` draws: as many as the 4×4 check has
/// (the boards are held in memory until their runs).
const SIZED_MAX_SAMPLE: u64 = 65_536;

/// `check flip|euler`: the cases `cases flip|euler` draws for the shape
/// (`--size`, else that of `--table`, else 4×4), answered by the table
/// or the GF(2) solver the tablebase finds for it. On 4×4 that is every
/// eligible board (the embedded tables' or a 4×4 file's); on other sizes
/// `--sample` boards (1,000 by default) drawn from `--seed`.
fn run_boards(args: &CheckArgs, puzzle: Puzzle, out: &mut Output) -> Result<(), Failure> {
    let shape = args.tables.board_shape(puzzle)?;
    let answers = super::cases::sized_answers(
        puzzle,
        shape,
        args.tables.table.as_deref(),
        &args.tables.tables,
        args.nullity.get(),
    )?;
    let usage = |e: CasesError| match e {
        CasesError::Empty { .. } | CasesError::Size(_) | CasesError::Lights(_) => {
            Failure::Usage(format!("nothing to check: {e}"))
        }
        e => Failure::Cases(e),
    };
    let cases = answers
        .cases(super::cases::sized_filter(puzzle, &args.filter)?)
        .map_err(usage)?;
    // Boards drawn are held until their runs; a list of every board is
    // sampled by the plan.
    let count = if cases.is_drawn() {
        let sample = args.sample.unwrap_or(SIZED_SAMPLE);
        if sample > SIZED_MAX_SAMPLE {
            return Err(Failure::Usage(format!(
                "--sample {sample}: check --size draws at most {} boards (each is held until its run)",
                super::thousands(SIZED_MAX_SAMPLE)
            )));
        }
        sample as usize
    } else {
        0
    };
    let check = SizedCheck::new(&cases, count, args.seed).map_err(usage)?;
    // The check holds what it needs: the list of boards and the table
    // need not stay in memory while programs are started.
    drop(cases);
    drop(answers);
    run_puzzle(args, &check, out)
}

fn run_puzzle<P: Check>(args: &CheckArgs, puzzle: &P, out: &mut Output) -> Result<(), Failure> {
    let (path, rest) = args
        .program
        .split_first()
        .ok_or_else(|| Failure::Usage("no PROGRAM after --".to_owned()))?;
    if puzzle.case_count() == 0 {
        // Fliptile boards of a size without boards of the category asked
        // (impossible or ties where every board has one solution).
        return Err(Failure::Usage(format!(
            "nothing to check: no {} of that choice",
            puzzle.problem().noun.1
        )));
    }
    let jobs = args.jobs.count();
    let time_limit = args
        .time_limit
        .unwrap_or_else(|| puzzle.problem().time_limit);
    let memory_limit = match args.memory_limit {
        None => Some(puzzle.problem().memory_limit),
        Some(0.0) => None,
        Some(mb) => Some((mb * check::process::MB as f64) as u64),
    };
    let options = Options {
        program: Program {
            path: path.clone(),
            args: rest.to_vec(),
        },
        time_limit,
        wall_limit: args
            .wall_limit
            .unwrap_or(time_limit * check::process::WALL_FACTOR),
        memory_limit,
        memory_control: match args.memory_control {
            // No limit to hold: nothing to look for.
            None if memory_limit.is_none() => MemoryControl::AddressSpace,
            None => MemoryControl::best(),
            Some(MemoryControlArg::AddressSpace) => MemoryControl::AddressSpace,
            Some(MemoryControlArg::Cgroup) => {
                check::process::memory_cgroups()
                    .map_err(|why| Failure::Usage(format!("--memory-control cgroup: {why}")))?;
                MemoryControl::Cgroup
            }
        },
        jobs,
        keep: args.show,
        save: args.save.clone(),
        max_failures: (args.max_failures > 0).then_some(args.max_failures),
        presentation: match args.presentation {
            PresentationArg::Strict => Presentation::Strict,
            PresentationArg::Tokens => Presentation::Tokens,
        },
    };
    if let Some(dir) = &args.save {
        std::fs::create_dir_all(dir)
            .map_err(|e| Failure::Usage(format!("--save: cannot create {}: {e}", dir.display())))?;
    }
    let sample = args
        .sample
        .map(|n| usize::try_from(n).unwrap_or(usize::MAX));
    let plan = check::plan(puzzle, sample, args.seed);
    let bar = super::bar::counter("runs", plan.runs.len() as u64);
    bar.enable_steady_tick(Duration::from_millis(200));
    let mut lines = super::bar::Lines::new();
    let (one, many) = puzzle.problem().noun;
    // From here a signal ends the runs and the report of those done is
    // written; before (a table made, the plan drawn) it ends the process.
    kill_programs_on_signals();
    let result = check::check(puzzle, &plan, args.seed, &options, &mut |p| {
        bar.set_position(p.runs_done as u64);
        let judged = format!(
            "{} {} judged, {} failed",
            thousands(p.cases_done),
            if p.cases_done == 1 { one } else { many },
            thousands(p.failed)
        );
        lines.update("check", p.runs_done as u64, p.runs as u64, "runs", &judged);
        super::bar::note(&bar, &judged);
    });
    bar.finish_and_clear();
    // A program that cannot be started is a usage error (exit status 2),
    // and so is a failing system call: the check could not be done.
    let report = result.map_err(|e: CheckError| {
        let mut message = e.to_string();
        let bare = !path.to_string_lossy().contains('/');
        if e.not_found() && bare && std::path::Path::new(path).exists() {
            // A program without a slash is looked up on PATH, not here.
            message += &format!(" (did you mean ./{}?)", path.to_string_lossy());
        }
        Failure::Usage(message)
    })?;
    match args.format {
        ReportFormat::Json => write_json_line(out, &report)?,
        ReportFormat::Text => write_text(out, &report, puzzle.problem().noun)?,
    }
    let signal = INTERRUPTED_BY.load(std::sync::atomic::Ordering::SeqCst);
    if report.stopped == Some(Stopped::Interrupted) && signal > 0 {
        // The shell's status of a command its signal ended.
        return Err(Failure::Silent(u8::try_from(128 + signal).unwrap_or(130)));
    }
    if report.accepted() {
        Ok(())
    } else {
        Err(Failure::Rejected)
    }
}

fn plural(n: usize, (one, many): (&str, &str)) -> String {
    format!("{} {}", thousands(n), if n == 1 { one } else { many })
}

fn seconds(s: f64) -> String {
    if s >= 10.0 {
        format!("{s:.1} s")
    } else {
        format!("{s:.3} s")
    }
}

fn write_text(out: &mut Output, r: &CheckReport, noun: (&str, &str)) -> Result<(), Failure> {
    let one_a_run = r.runs == r.cases;
    let what = match (&r.drawn, r.sampled) {
        (Some(d), true) => format!(
            "a sample of {} (seed {}) of {} ({})",
            plural(r.cases, noun),
            r.seed,
            thousands(d.count),
            d.how
        ),
        (Some(d), false) => format!("{} ({})", plural(r.cases, noun), d.how),
        (None, true) => format!("a sample of {} (seed {})", plural(r.cases, noun), r.seed),
        (None, false) => match r.sample {
            Some(asked) if asked > r.cases => format!(
                "all {} (--sample {} asks for more than there are)",
                plural(r.cases, noun),
                thousands(asked)
            ),
            _ => format!("all {}", plural(r.cases, noun)),
        },
    };
    let runs = if one_a_run {
        format!("one {} a run", noun.0)
    } else {
        format!("in {}", plural(r.runs, ("run", "runs")))
    };
    writeln!(
        out,
        "boardbase check {} ({}): {what}, {runs}",
        r.puzzle, r.judge
    )?;
    writeln!(out, "program: {}", check::command_line(&r.program))?;
    let memory = match (r.memory_limit_mb, r.memory_limit_kind) {
        (Some(mb), "address_space") => format!(
            "{} MB of memory (peak resident; address space {} MB, RLIMIT_AS{})",
            number(mb),
            number(mb + (check::process::ADDRESS_GRACE / check::process::MB) as f64),
            match &r.no_cgroup {
                Some(why) => format!(": no cgroup, {why}"),
                None => String::new(),
            }
        ),
        (Some(mb), kind) => format!(
            "{} MB of memory (a memory cgroup a run, {}: the whole tree's)",
            number(mb),
            kind.replace('_', " ")
        ),
        (None, _) => "no memory limit".to_owned(),
    };
    writeln!(
        out,
        // The guard moves on while a run gains CPU time (a busy machine),
        // so both its first time and its last are the run's limit.
        "limits a run: {} s CPU time (wall-clock guard {} s, up to {} s while it gains CPU time), \
         {memory}; {} at once; took {}",
        number(r.time_limit),
        number(r.wall_limit_seconds),
        number(r.wall_cap_seconds),
        r.jobs,
        seconds(r.seconds)
    )?;
    write_costs(out, r)?;
    if r.presentation == Presentation::Tokens {
        writeln!(
            out,
            "output compared as tokens (--presentation tokens): line breaks and spaces not judged"
        )?;
    }
    writeln!(out)?;
    writeln!(out, "verdicts ({})", noun.1)?;
    let width = Verdict::ALL
        .iter()
        .map(|v| v.name().len())
        .max()
        .unwrap_or(0);
    let num_width = thousands(r.cases).len();
    for v in Verdict::ALL {
        writeln!(
            out,
            "  {:width$}  {:>num_width$}",
            v.name(),
            thousands(r.case_verdicts.get(v))
        )?;
    }
    if !one_a_run {
        let judge: Vec<String> = Verdict::ALL
            .iter()
            .filter(|&&v| r.run_verdicts.get(v) > 0)
            .map(|&v| format!("{} {}", thousands(r.run_verdicts.get(v)), v.name()))
            .collect();
        writeln!(out, "runs, as the judge sees them: {}", judge.join(", "))?;
    }
    if !r.groups.is_empty() {
        writeln!(out)?;
        writeln!(out, "what went wrong")?;
        for g in &r.groups {
            writeln!(
                out,
                "  {}: {} ({})",
                g.title,
                plural(g.count, noun),
                g.verdict
            )?;
            for d in &g.details {
                writeln!(out, "      {:>num_width$}  {}", thousands(d.count), d.label)?;
            }
        }
    }
    if !r.failures.is_empty() {
        writeln!(out)?;
        // Of the cases judged: a check stopped early judged fewer.
        let failed = r.case_verdicts.total() - r.case_verdicts.accepted;
        writeln!(
            out,
            "first failing {} ({} of {})",
            noun.1,
            r.failures.len(),
            thousands(failed)
        )?;
        for f in &r.failures {
            let place = if one_a_run {
                format!("run {}", f.run)
            } else {
                format!("run {}, case {}", f.run, thousands(f.number))
            };
            writeln!(out, "  {place}: {}", f.view.title)?;
            writeln!(out, "    {}", f.what)?;
            let board_width = f
                .view
                .board
                .iter()
                .map(|l| l.chars().count())
                .max()
                .unwrap_or(0);
            let line = f.line.map_or(String::new(), |l| {
                format!("  (output line {})", thousands(l))
            });
            if f.expected.contains('\n') || f.received.contains('\n') {
                // Grids (Fliptile, Lights Out): the board, the expected
                // and the received answer as blocks.
                write_blocks(
                    out,
                    &[
                        ("board".to_owned(), f.view.board.clone()),
                        ("expected".to_owned(), lines(&f.expected)),
                        (format!("received{line}"), lines(&f.received)),
                    ],
                )?;
                if one_a_run && !f.stderr.is_empty() {
                    write_stderr(out, &f.stderr)?;
                }
                if one_a_run && let Some(replay) = &f.replay {
                    writeln!(out, "    replay: {replay}")?;
                }
                continue;
            }
            let beside = [
                format!("expected  {}", f.expected),
                format!("received  {}{line}", f.received),
            ];
            if board_width <= 12 {
                // A small board with the answers beside it.
                let rows = f.view.board.len().max(beside.len());
                for i in 0..rows {
                    let left = f.view.board.get(i).map_or("", String::as_str);
                    let right = beside.get(i).map_or("", String::as_str);
                    let text = format!("    {left:board_width$}   {right}");
                    writeln!(out, "{}", text.trim_end())?;
                }
            } else {
                // A large one below them.
                for l in beside.iter().chain(&f.view.board) {
                    writeln!(out, "    {l}")?;
                }
            }
            if one_a_run && !f.stderr.is_empty() {
                write_stderr(out, &f.stderr)?;
            }
            if one_a_run && let Some(replay) = &f.replay {
                writeln!(out, "    replay: {replay}")?;
            }
        }
    }
    if !one_a_run && !r.failing_runs.is_empty() {
        writeln!(out)?;
        let bad = r.runs_done - r.run_verdicts.accepted;
        writeln!(
            out,
            "failing runs ({} of {})",
            r.failing_runs.len(),
            thousands(bad)
        )?;
        for run in &r.failing_runs {
            writeln!(
                out,
                "  run {} ({}, {}, {} CPU, {} wall, {}): {}: {}",
                run.run,
                plural(run.cases, noun),
                plural(run.answered, ("complete answer", "complete answers")),
                seconds(run.cpu_seconds),
                seconds(run.seconds),
                megabytes(run.peak_memory_mb),
                run.verdict,
                run.what
            )?;
            if let Some(note) = &run.note {
                writeln!(out, "    note: {note}")?;
            }
            if !run.stderr.is_empty() {
                write_stderr(out, &run.stderr)?;
            }
            if let Some(replay) = &run.replay {
                writeln!(out, "    replay: {replay}")?;
            }
        }
    }
    writeln!(out)?;
    if let Some(dir) = &r.saved_to
        && !r.accepted()
    {
        let bad = r.runs_done - r.run_verdicts.accepted;
        writeln!(
            out,
            "saved: {} to {dir} (run-N.in, run-N.expected, run-N.out, run-N.err)",
            plural(bad, ("failing run", "failing runs"))
        )?;
    }
    let judged = r.case_verdicts.total();
    let failed = judged - r.case_verdicts.accepted;
    let done = format!(
        "{} of {} done",
        thousands(r.runs_done),
        plural(r.runs, ("run", "runs"))
    );
    if r.accepted() {
        writeln!(out, "accepted: every one of {}", plural(r.cases, noun))?;
    } else if r.stopped == Some(Stopped::MaxFailures) {
        let bad = r.runs_done - r.run_verdicts.accepted;
        writeln!(
            out,
            "not accepted: stopped at {} (--max-failures {}; 0 runs every one), {done}; {} of {} judged failed",
            plural(bad, ("failing run", "failing runs")),
            r.max_failures.unwrap_or(bad),
            thousands(failed),
            plural(judged, noun)
        )?;
    } else if r.stopped == Some(Stopped::Interrupted) {
        writeln!(
            out,
            "interrupted: {done} (the runs under way were killed and are not judged); {} of {} judged failed",
            thousands(failed),
            plural(judged, noun)
        )?;
    } else {
        let failed = r.cases - r.case_verdicts.accepted;
        if failed == 0 {
            let bad = r.runs - r.run_verdicts.accepted;
            writeln!(
                out,
                "not accepted: every answer is right, but {} failed (see above)",
                plural(bad, ("run", "runs"))
            )?;
        } else {
            writeln!(
                out,
                "not accepted: {} of {} failed",
                thousands(failed),
                plural(r.cases, noun)
            )?;
        }
    }
    Ok(())
}

/// A limit as given: `1`, `0.25`, `9.77`.
fn number(x: f64) -> String {
    let s = format!("{x:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_owned()
}

fn megabytes(mb: f64) -> String {
    format!("{mb:.1} MB")
}

/// `runs 1, 2, 5` (and `...` when there are more than named).
fn run_numbers(list: &check::RunList) -> String {
    let named: Vec<String> = list.first.iter().map(usize::to_string).collect();
    let more = if list.count > list.first.len() {
        ", ..."
    } else {
        ""
    };
    let s = if list.count == 1 { "" } else { "s" };
    format!("run{s} {}{more}", named.join(", "))
}

/// The slowest and largest runs, the runs ended at a limit, and the
/// warnings for runs near one.
fn write_costs(out: &mut Output, r: &CheckReport) -> Result<(), Failure> {
    let mut parts = Vec::new();
    if let Some(s) = r.slowest_run {
        parts.push(format!(
            "slowest run {} CPU (run {})",
            seconds(s.cpu_seconds),
            s.run
        ));
    }
    if let Some(l) = r.largest_run {
        parts.push(format!(
            "largest {} (run {})",
            megabytes(l.peak_memory_mb),
            l.run
        ));
    }
    if !parts.is_empty() {
        writeln!(out, "{}", parts.join(", "))?;
    }
    let at = [
        (&r.time_limit_runs, "used the CPU time limit"),
        (&r.wall_limit_runs, "killed at the wall-clock guard"),
        (&r.memory_limit_runs, "went over the memory limit"),
    ];
    for (list, what) in at {
        if list.count > 0 {
            writeln!(
                out,
                "{} {what} ({})",
                plural(list.count, ("run", "runs")),
                run_numbers(list)
            )?;
        }
    }
    let near = [
        (&r.near_time_limit, "CPU time"),
        (&r.near_memory_limit, "memory"),
    ];
    for (list, what) in near {
        if list.count > 0 {
            writeln!(
                out,
                "warning: {} came within 10% of the {what} limit ({}): a judge's machine may not pass them",
                plural(list.count, ("run", "runs")),
                run_numbers(list)
            )?;
        }
    }
    Ok(())
}

fn lines(text: &str) -> Vec<String> {
    text.lines().map(str::to_owned).collect()
}

/// Widest line of blocks drawn side by side; wider ones go one under
/// another.
const BLOCKS_WIDTH: usize = 100;

/// Draws titled blocks of lines side by side (one under another when they
/// would be wider than [`BLOCKS_WIDTH`]), indented by 4.
fn write_blocks(out: &mut Output, blocks: &[(String, Vec<String>)]) -> Result<(), Failure> {
    let width = |(title, lines): &(String, Vec<String>)| {
        lines
            .iter()
            .chain(std::iter::once(title))
            .map(|l| l.chars().count())
            .max()
            .unwrap_or(0)
    };
    let widths: Vec<usize> = blocks.iter().map(width).collect();
    if 4 + widths.iter().map(|w| w + 3).sum::<usize>() > BLOCKS_WIDTH {
        for (title, lines) in blocks {
            writeln!(out, "    {title}")?;
            for l in lines {
                writeln!(out, "      {l}")?;
            }
        }
        return Ok(());
    }
    let rows = blocks.iter().map(|(_, l)| l.len()).max().unwrap_or(0);
    for i in 0..=rows {
        let mut text = String::from("   ");
        for ((title, lines), &w) in blocks.iter().zip(&widths) {
            let cell = if i == 0 {
                title.as_str()
            } else {
                lines.get(i - 1).map_or("", String::as_str)
            };
            text.push_str(&format!(" {cell:w$}  "));
        }
        writeln!(out, "{}", text.trim_end())?;
    }
    Ok(())
}

fn write_stderr(out: &mut Output, stderr: &str) -> Result<(), Failure> {
    let lines: Vec<&str> = stderr.lines().collect();
    let tail = &lines[lines.len().saturating_sub(5)..];
    writeln!(out, "    stderr (last lines):")?;
    for l in tail {
        writeln!(out, "      | {l}")?;
    }
    Ok(())
}
