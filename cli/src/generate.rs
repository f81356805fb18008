//! `boardbase generate euler|flip RxC`: tables of other board sizes, made
//! on every core and written as version-2 table files.

use std::fs::{self, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use boardbase::euler::Outcome;
use boardbase::generate::{self, ByteSize, EulerOptions, FlipOptions};
use boardbase::tablefile::{self, EulerColumns, FlipColumns, Puzzle, Table};
use boardbase::tables::shape::Shape;
use clap::{Args, ValueEnum};
use serde::Serialize;

use super::bar::PhaseBar;
use super::sized::parse_shape;
use super::{Failure, Output, thousands, write_json_line};

/// The puzzles `generate` makes tables for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum TablePuzzle {
    /// Game of Euler (UVA 10536): up to 36 squares.
    #[value(alias = "uva10536")]
    Euler,
    /// Flip Game (POJ 1753): up to 25 cells.
    #[value(alias = "poj1753")]
    Flip,
}

impl TablePuzzle {
    fn puzzle(self) -> Puzzle {
        match self {
            TablePuzzle::Euler => Puzzle::Euler,
            TablePuzzle::Flip => Puzzle::Flip,
        }
    }
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
    /// The puzzle: `euler` (up to 36 squares) or `flip` (up to 25 cells).
    #[arg(value_enum)]
    puzzle: TablePuzzle,
    /// The board size RxC, rows first (e.g. 5x5).
    #[arg(value_name = "RxC", value_parser = parse_shape)]
    shape: Shape,
    /// Directory to write `euler-RxC.bin` / `flip-RxC.bin` into (created if
    /// missing; a file of that name is replaced once the new one is
    /// complete).
    #[arg(long, value_name = "DIR", default_value = ".")]
    dir: PathBuf,
    /// Euler: the win/loss bits only, without moves left and best moves
    /// (the default above 25 squares).
    #[arg(long)]
    wdl_only: bool,
    #[arg(long, value_name = "SIZE", value_parser = parse_byte_size,
          help = concat!("The most memory the job may take, e.g. 9G, 512M, 9GiB ", super::options::memory_units!(), " [default: the memory available]"))]
    memory: Option<u64>,
    #[arg(long = "jobs", visible_alias = "threads", value_name = "N",
          value_parser = super::options::parse_jobs,
          help = concat!(super::options::jobs_help!(), " (`--threads`, the old name, is an alias to be removed in a later release)"))]
    threads: Option<u16>,
    /// How to print the summary.
    #[arg(long, value_enum, default_value_t)]
    format: SummaryFormat,
}

/// Parses a memory size as every option takes it (`8G`, `512M`, `9GiB`;
/// a bare number is MiB): [`ByteSize`]'s `FromStr`.
pub fn parse_byte_size(text: &str) -> Result<u64, String> {
    text.parse::<ByteSize>().map(|b| b.0)
}

/// Free bytes for an unprivileged user on the file system of `dir`.
#[cfg(unix)]
fn free_space(dir: &Path) -> Option<u64> {
    let s = rustix::fs::statvfs(dir).ok()?;
    s.f_bavail.checked_mul(s.f_frsize)
}

#[cfg(not(unix))]
fn free_space(_dir: &Path) -> Option<u64> {
    None
}

/// On SIGINT, SIGTERM or SIGHUP: removes this process's temporary file for
/// `path` (the table being written, if it is), says so, and exits with
/// 128 + the signal. The final name is never touched: a table there is
/// either the complete new one or whatever was there before.
#[cfg(unix)]
fn tidy_on_signals(path: &Path) {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
        return;
    };
    let path = path.to_owned();
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            let removed = tablefile::remove_temporary_files(&path);
            let what = if removed > 0 {
                " (its temporary file was removed)"
            } else {
                ""
            };
            eprintln!("\ninterrupted: {} not written{what}", path.display());
            std::process::exit(128 + signal);
        }
    });
}

#[cfg(not(unix))]
fn tidy_on_signals(_path: &Path) {}

/// Temporary files of `name` in `dir` left by runs that were killed
/// outright (`.NAME.PID-N.tmp` whose process is gone), for a note.
fn leftovers(dir: &Path, name: &str) -> Vec<PathBuf> {
    let prefix = format!(".{name}.");
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut found: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .filter(|e| {
            let Some(file) = e.file_name().to_str().map(str::to_owned) else {
                return false;
            };
            let Some(rest) = file
                .strip_prefix(&prefix)
                .and_then(|r| r.strip_suffix(".tmp"))
            else {
                return false;
            };
            let Some((pid, n)) = rest.split_once('-') else {
                return false;
            };
            let (Ok(pid), true) = (
                pid.parse::<u32>(),
                !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()),
            ) else {
                return false;
            };
            pid != std::process::id()
                && Path::new("/proc/self").exists()
                && !Path::new(&format!("/proc/{pid}")).exists()
        })
        .map(|e| e.path())
        .collect();
    found.sort();
    found
}

/// The summary of `--format json`: the board, what the table holds, and
/// how the run went.
#[derive(Serialize)]
struct Report {
    puzzle: Puzzle,
    rows: usize,
    cols: usize,
    #[serde(flatten)]
    summary: Summary,
    #[serde(flatten)]
    run: RunFigures,
}

/// What a table holds.
#[derive(Serialize)]
#[serde(untagged)]
enum Summary {
    Euler(EulerSummary),
    Flip(FlipSummary),
}

/// An Euler table.
#[derive(Serialize)]
struct EulerSummary {
    wdl_only: bool,
    positions: u64,
    winning: u64,
    losing: u64,
    empty: Outcome,
    empty_moves_left: Option<u8>,
}

/// A Flip table.
#[derive(Serialize)]
struct FlipSummary {
    positions: u64,
    // Counts of positions: `solvable` is a yes/no in every answer.
    #[serde(rename = "solvable_positions")]
    solvable: u64,
    #[serde(rename = "impossible_positions")]
    impossible: u64,
    reach_white: u64,
    reach_black: u64,
    histogram: Vec<u64>,
    max_rounds: u8,
}

/// Time, memory and the file written.
#[derive(Serialize)]
struct RunFigures {
    seconds: f64,
    generate_seconds: f64,
    write_seconds: f64,
    #[serde(rename = "memory_needed_bytes")]
    memory_needed: u64,
    #[serde(rename = "peak_memory_bytes")]
    peak_memory: Option<u64>,
    file: String,
    file_bytes: u64,
}

/// Seconds to the millisecond.
fn seconds(d: std::time::Duration) -> f64 {
    (d.as_secs_f64() * 1000.0).round() / 1000.0
}

/// Runs `boardbase generate`.
pub fn run(args: &GenerateArgs, out: &mut Output) -> Result<(), Failure> {
    let start = Instant::now();
    let puzzle = args.puzzle.puzzle();
    let shape = args.shape;
    if shape.cells() > puzzle.max_cells() {
        return Err(Failure::Usage(format!(
            "{puzzle} tables take at most {} cells; {shape} has {}",
            puzzle.max_cells(),
            shape.cells()
        )));
    }
    if args.wdl_only && puzzle == Puzzle::Flip {
        return Err(Failure::Usage(
            "--wdl-only is for euler: a Flip table has no win/loss column".to_owned(),
        ));
    }
    let threads = args.threads.map(usize::from);
    let euler_options = EulerOptions {
        wdl_only: args.wdl_only,
        threads,
        memory_limit: None,
    };
    let flip_options = FlipOptions {
        threads,
        memory_limit: None,
    };
    let (generating, full) = match puzzle {
        Puzzle::Euler => (
            generate::euler_memory(shape, &euler_options),
            generate::euler_full_tables(shape, &euler_options),
        ),
        Puzzle::Flip => (generate::flip_memory(shape, &flip_options), false),
    };
    let generating = generating.map_err(|e| Failure::Usage(e.to_string()))?;
    let needed = generating + tablefile::WRITE_MEMORY;
    let file_len =
        tablefile::expected_file_len(puzzle, shape, full).map_err(|error| Failure::Table {
            path: puzzle.file_name(shape),
            error,
        })?;
    let (limit, limit_from) = match args.memory {
        Some(m) => (Some(m), "--memory"),
        None => (generate::available_memory(), "the memory available"),
    };

    let tables = match (puzzle, full) {
        (Puzzle::Euler, true) => "full tables (win/loss, moves left, best move)",
        (Puzzle::Euler, false) => "win/loss only",
        (Puzzle::Flip, _) => "rounds, press sets and optimal set counts to each colour",
    };
    let units = match puzzle {
        Puzzle::Euler => "positions",
        Puzzle::Flip => "boards",
    };
    let limit_text = match (limit, args.memory) {
        (Some(l), Some(_)) => format!("; limit {} by --memory", ByteSize(l)),
        (Some(l), None) => format!("; {} available", ByteSize(l)),
        (None, _) => String::new(),
    };
    eprintln!(
        "{puzzle} {shape}, {tables}: {} {units}; needs {} of memory ({} to generate, {} to write{limit_text}) and {} of disk for {}",
        thousands(1u64 << shape.cells()),
        ByteSize(needed),
        ByteSize(generating),
        ByteSize(tablefile::WRITE_MEMORY),
        ByteSize(file_len),
        args.dir.join(puzzle.file_name(shape)).display(),
    );
    if let Some(limit) = limit
        && needed > limit
    {
        return Err(Failure::Memory(format!(
            "{puzzle} {shape} needs {} of memory, over the limit of {} ({limit_from}); nothing was generated",
            ByteSize(needed),
            ByteSize(limit)
        )));
    }

    // Where it goes: checked before hours of work can be lost.
    let dir = &args.dir;
    let path = dir.join(puzzle.file_name(shape));
    let shown = path.display().to_string();
    fs::create_dir_all(dir).map_err(|error| Failure::Write {
        path: dir.display().to_string(),
        error,
    })?;
    let probe = dir.join(format!(
        ".{}.{}-probe.tmp",
        puzzle.file_name(shape),
        std::process::id()
    ));
    OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)
        .map_err(|error| Failure::Write {
            path: dir.display().to_string(),
            error,
        })?;
    let _ = fs::remove_file(&probe);
    if let Some(free) = free_space(dir) {
        // A file being replaced gives its space back only after the rename.
        if free < file_len {
            return Err(Failure::Write {
                path: shown.clone(),
                error: std::io::Error::other(format!(
                    "the table takes {}, the file system has {} free",
                    ByteSize(file_len),
                    ByteSize(free)
                )),
            });
        }
    }
    for old in leftovers(dir, &puzzle.file_name(shape)) {
        eprintln!(
            "note: {} was left by a run that was killed (its process is gone); remove it to free the space",
            old.display()
        );
    }
    tidy_on_signals(&path);

    let bar = PhaseBar::new();
    let progress = |p: generate::Progress| bar.update(p.phase.name(), p.done, p.total, false);
    let generate_failure = |e: generate::GenerateError| Failure::Memory(e.to_string());
    let table_failure = |error| Failure::Table {
        path: shown.clone(),
        error,
    };
    let (generated, table, summary) = match puzzle {
        Puzzle::Euler => {
            let options = EulerOptions {
                memory_limit: limit,
                ..euler_options
            };
            let made = generate::euler(shape, &options, progress).map_err(generate_failure)?;
            let generated = start.elapsed();
            let s = made.summary;
            let table =
                Table::from_euler(shape, EulerColumns::from(made)).map_err(table_failure)?;
            let summary = Summary::Euler(EulerSummary {
                wdl_only: table.is_wdl_only(),
                positions: s.positions,
                winning: s.winning,
                losing: s.losing,
                empty: s.empty,
                empty_moves_left: s.empty_moves_left,
            });
            (generated, table, summary)
        }
        Puzzle::Flip => {
            let options = FlipOptions {
                memory_limit: limit,
                ..flip_options
            };
            let made = generate::flip(shape, &options, progress).map_err(generate_failure)?;
            let generated = start.elapsed();
            let mut s = made.summary.clone();
            let table = Table::from_flip(shape, FlipColumns::from(made)).map_err(table_failure)?;
            s.histogram.truncate(usize::from(s.max_rounds) + 1);
            let summary = Summary::Flip(FlipSummary {
                positions: s.boards,
                solvable: s.solvable,
                impossible: s.boards - s.solvable,
                reach_white: s.reach[0],
                reach_black: s.reach[1],
                histogram: s.histogram,
                max_rounds: s.max_rounds,
            });
            (generated, table, summary)
        }
    };
    let file_bytes = table
        .write(&path, &mut |p| {
            bar.update(p.phase.name(), p.done, p.total, true)
        })
        .map_err(|error| Failure::table_write(&shown, error))?;
    bar.finish();
    let total = start.elapsed();
    let report = Report {
        puzzle,
        rows: shape.rows(),
        cols: shape.cols(),
        summary,
        run: RunFigures {
            seconds: seconds(total),
            generate_seconds: seconds(generated),
            write_seconds: seconds(total - generated),
            memory_needed: needed,
            peak_memory: generate::peak_memory(),
            file: shown.clone(),
            file_bytes,
        },
    };
    match args.format {
        SummaryFormat::Json => write_json_line(out, &report),
        SummaryFormat::Text => write_text(out, &report),
    }
}

/// The text summary: what the table holds, then the file, time and memory.
fn write_text(out: &mut Output, r: &Report) -> Result<(), Failure> {
    let (rows, cols) = (r.rows, r.cols);
    match &r.summary {
        Summary::Euler(s) => write_euler_text(out, rows, cols, s)?,
        Summary::Flip(s) => write_flip_text(out, rows, cols, s)?,
    }
    let f = &r.run;
    writeln!(
        out,
        "wrote {}: {} bytes ({})",
        f.file,
        thousands(f.file_bytes),
        ByteSize(f.file_bytes)
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
    r: &EulerSummary,
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
    r: &FlipSummary,
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

#[cfg(test)]
mod tests {
    use super::*;

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
