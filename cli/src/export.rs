//! `boardbase export` and `boardbase verify`: table files any language can
//! read (layout: `boardbase::tablefile`).

use std::io::Write;
use std::path::PathBuf;

use boardbase::catalogue;
use boardbase::tablefile::{
    Checked, DEFAULT_SAMPLE, GameTable, Puzzle, Subject, Table, TableError, VerifyOptions,
};
use clap::Args;

use super::bar::PhaseBar;
use super::{Failure, Output, thousands};

/// Arguments of `boardbase export`.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// Directory to write `flip-4x4.bin` and `euler-4x4.bin` into (created
    /// if missing; existing files of those names are replaced); the current
    /// directory by default. `--dir DIR` says the same, as for `generate`.
    #[arg(value_name = "DIR", conflicts_with = "dir_option")]
    dir: Option<PathBuf>,
    /// The same as DIR, as `generate` takes it.
    #[arg(long = "dir", id = "dir_option", value_name = "DIR")]
    dir_option: Option<PathBuf>,
}

impl ExportArgs {
    /// The directory asked for, DIR or `--dir DIR`; `.` when neither.
    fn dir(&self) -> PathBuf {
        self.dir
            .clone()
            .or_else(|| self.dir_option.clone())
            .unwrap_or_else(|| PathBuf::from("."))
    }
}

/// Arguments of `boardbase verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// The table files to check (version 3, or 2 or 1 from earlier
    /// releases),
    /// one after the other; every file is checked, and the exit status is 1
    /// when any is not intact.
    #[arg(value_name = "FILE", required = true)]
    files: Vec<PathBuf>,
    /// Check the entries of every position (or board), however many: on
    /// every core, about three minutes for 2^30 positions on two cores. By
    /// default every position is checked up to 2^20 and a sample of 2^20
    /// above.
    #[arg(long, conflicts_with = "sample")]
    all: bool,
    /// Check the entries of N positions (or boards) spread over the table
    /// (always the empty and the full board), or of all of them when the
    /// table has at most N.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_SAMPLE,
          value_parser = clap::value_parser!(u64).range(2..))]
    sample: u64,
}

impl VerifyArgs {
    /// How thoroughly the entries are checked.
    fn options(&self) -> VerifyOptions {
        if self.all {
            VerifyOptions::all()
        } else {
            VerifyOptions {
                sample: self.sample,
            }
        }
    }
}

/// Runs `boardbase export`.
pub fn export(args: &ExportArgs, out: &mut Output) -> Result<(), Failure> {
    let dir = args.dir();
    std::fs::create_dir_all(&dir).map_err(|error| Failure::Write {
        path: dir.display().to_string(),
        error,
    })?;
    for puzzle in Puzzle::ALL {
        let table = Table::embedded(puzzle);
        let path = dir.join(table.file_name());
        let shown = path.display().to_string();
        let len = table
            .write(&path, &mut |_| {})
            .map_err(|error| Failure::table_write(&shown, error))?;
        writeln!(
            out,
            "wrote {shown} ({} {}, version {}, columns {}, {len} bytes)",
            table.puzzle(),
            table.shape(),
            table.version(),
            column_names(&table),
        )?;
    }
    Ok(())
}

/// Runs `boardbase verify`: every file in turn, each one's line as soon as
/// it is checked; the errors of files that are not intact go to stderr as
/// they are found, and the run fails (exit status 1) after the last file
/// when any was not intact.
pub fn verify(args: &VerifyArgs, out: &mut Output) -> Result<(), Failure> {
    let mut failed = 0usize;
    for file in &args.files {
        match verify_one(file, args.options(), out) {
            Ok(()) => {}
            Err(Failure::Table { path, error }) if args.files.len() > 1 => {
                out.flush()?;
                eprintln!("error: {path}: {error}");
                failed += 1;
            }
            Err(e) => return Err(e),
        }
        out.flush()?;
    }
    match failed {
        0 => Ok(()),
        n => {
            eprintln!("error: not intact: {n} of {} files", args.files.len());
            Err(Failure::Rejected)
        }
    }
}

/// Checks one table file and writes its line.
fn verify_one(
    file: &std::path::Path,
    options: VerifyOptions,
    out: &mut Output,
) -> Result<(), Failure> {
    let path = file.display().to_string();
    let failure = |error| Failure::Table {
        path: path.clone(),
        error,
    };
    let table = match Table::open(file) {
        // A game of the model's table: its rules check it.
        Err(TableError::UnknownPuzzle(name)) if catalogue::model(&name).is_some() => {
            return verify_game(file, out);
        }
        opened => opened.map_err(failure)?,
    };
    let bar = PhaseBar::new();
    let verified = table.verify_with(options, &mut |p| {
        bar.update(p.phase.name(), p.done, p.total, p.phase.counts_bytes())
    });
    bar.finish();
    let verified = verified.map_err(failure)?;
    let plural = |n: u64| if n == 1 { "" } else { "s" };
    let crcs = match table.version() {
        1 => "file CRC ok".to_owned(),
        2 => format!(
            "{} column CRC{} ok over {} bytes",
            verified.crcs,
            plural(verified.crcs as u64),
            thousands(verified.bytes)
        ),
        // Each column's block-CRC array was checked against its CRC too:
        // the blocks are what a reader checks as it probes.
        _ => format!(
            "{} block CRC{} ok over {} bytes",
            thousands(verified.blocks),
            plural(verified.blocks),
            thousands(verified.bytes)
        ),
    };
    // A table by class checks its entries, each a class of positions.
    let unit = if table.classes().is_some() {
        "entries of classes"
    } else {
        "positions"
    };
    let entries = match verified.entries {
        Checked::Embedded { .. } => "every entry equals the built-in tables".to_owned(),
        Checked::Consistent { checked, positions } if checked == positions => {
            format!(
                "every entry agrees with its neighbours ({} {unit})",
                thousands(positions)
            )
        }
        Checked::Consistent { checked, positions } => format!(
            "entries agree with their neighbours at {} of {} {unit} (a spot check)",
            thousands(checked),
            thousands(positions)
        ),
    };
    writeln!(
        out,
        "{path}: ok ({} {}, version {}, columns {}; {crcs}; {entries})",
        table.puzzle(),
        table.shape(),
        table.version(),
        column_names(&table),
    )?;
    Ok(())
}

/// Checks the table file of a game of the model and writes its line.
fn verify_game(file: &std::path::Path, out: &mut Output) -> Result<(), Failure> {
    let path = file.display().to_string();
    let failure = |error| Failure::Table {
        path: path.clone(),
        error,
    };
    let table = GameTable::open_game(file).map_err(failure)?;
    let model = catalogue::model(table.game())
        .ok_or_else(|| failure(TableError::UnknownPuzzle(table.game().to_owned())))?;
    let bar = PhaseBar::new();
    let verified = table.verify_as(model, &mut |p| {
        bar.update(p.phase.name(), p.done, p.total, p.phase.counts_bytes())
    });
    bar.finish();
    let (blocks, bytes) = verified.map_err(failure)?;
    let options: String = table
        .options()
        .iter()
        .map(|(name, value)| format!(" {name}={value}"))
        .collect();
    writeln!(
        out,
        "{path}: ok ({} {}{options}, version {}, columns {}; {} block CRC{} ok over {} bytes; every entry agrees with its moves by the rules ({} position indices))",
        table.game(),
        table.shape(),
        table.version(),
        column_names(&table),
        thousands(blocks as u64),
        if blocks == 1 { "" } else { "s" },
        thousands(bytes),
        thousands(table.positions()),
    )?;
    Ok(())
}

/// `rounds, presses, ...`
fn column_names<I: Subject>(table: &Table<I>) -> String {
    table
        .columns()
        .map(|c| c.name.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}
