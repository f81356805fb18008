//! `boardbase compress`: a table file rewritten as version 4, its large
//! columns compressed in blocks that a probe decompresses one at a time
//! (layout: `boardbase::tablefile`, docs/table-format.md).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use boardbase::progress::Cancel;
use boardbase::tablefile::{self, GameTable, Subject, Table, TableError};
use clap::Args;

use super::bar::PhaseBar;
use super::signals::{caught, on_signals};
use super::{Failure, Output, thousands};

/// Arguments of `boardbase compress`.
#[derive(Debug, Args)]
pub struct CompressArgs {
    /// The table files to compress, each replaced by its compressed form
    /// under the same name (so that the directories that held it answer
    /// from it), one after the other.
    #[arg(value_name = "FILE", required = true)]
    files: Vec<PathBuf>,
}

/// Runs `boardbase compress`. On SIGINT, SIGTERM or SIGHUP the file being
/// compressed is left as it was (its temporary file removed), the ones
/// before it compressed, and the status is 128 + the signal.
pub fn compress(args: &CompressArgs, out: &mut Output) -> Result<(), Failure> {
    let cancel = Cancel::new();
    let current = Arc::new(Mutex::new(PathBuf::new()));
    let signal = {
        let current = Arc::clone(&current);
        on_signals(&cancel, move || {
            let file = current.lock().map(|f| f.clone()).unwrap_or_default();
            let removed = tablefile::remove_temporary_files(&file) > 0;
            Some(left_as_it_was(&file, removed))
        })
    };
    for file in &args.files {
        if let Ok(mut current) = current.lock() {
            current.clone_from(file);
        }
        let failure = |error| Failure::Table {
            path: file.display().to_string(),
            error,
        };
        let done = match Table::open(file) {
            Ok(table) => compress_one(&table, file, out, &cancel),
            // A game of the model's table: the same columns, another header.
            Err(TableError::UnknownPuzzle(_)) => {
                let table = GameTable::open_game(file).map_err(failure)?;
                compress_one(&table, file, out, &cancel)
            }
            Err(error) => return Err(failure(error)),
        };
        match done {
            Ok(()) => out.flush()?,
            Err(Some(error)) => return Err(failure(error)),
            Err(None) => {
                return Err(Failure::Interrupted {
                    message: left_as_it_was(file, false),
                    signal: caught(&signal),
                });
            }
        }
    }
    Ok(())
}

/// What an interrupted compression says of `file`: it is as it was
/// (`removed`: a second signal removed the temporary file; a first one
/// stops the compression, which removes it itself).
fn left_as_it_was(file: &Path, removed: bool) -> String {
    let what = if removed {
        " (its temporary file was removed)"
    } else {
        ""
    };
    format!(
        "interrupted: {} not compressed{what}; the table is as it was",
        file.display()
    )
}

/// Compresses one table into its own file and writes its line: `None`
/// once `cancel` stops it, else the table's error.
fn compress_one<I: Subject>(
    table: &Table<I>,
    file: &Path,
    out: &mut Output,
    cancel: &Cancel,
) -> Result<(), Option<TableError>> {
    let before = table.file_len();
    let bar = PhaseBar::new();
    let written = table.compress_cancellable(
        file,
        &mut |p| bar.update(p.phase.name(), p.done, p.total, p.phase.counts_bytes()),
        cancel,
        || None,
        Some,
    );
    bar.finish();
    let after = written?;
    // Reopened, to say what each column became.
    let (version, packed) = match Table::open(file) {
        Ok(t) => (t.version(), column_sizes(&t)),
        Err(TableError::UnknownPuzzle(_)) => {
            let t = GameTable::open_game(file)?;
            (t.version(), column_sizes(&t))
        }
        Err(e) => return Err(Some(e)),
    };
    writeln!(
        out,
        "{}: {} bytes to {} ({}), version {version}; {packed}",
        file.display(),
        thousands(before),
        thousands(after),
        percent(after, before),
    )
    .map_err(|e| Some(TableError::Io(e)))?;
    Ok(())
}

/// Each column's name and what it takes of its entries' bytes.
fn column_sizes<I: Subject>(table: &Table<I>) -> String {
    table
        .columns()
        .map(|c| match c.blocks.and_then(|b| b.packed) {
            Some(stored) => format!("{} {}", c.name, percent(stored, c.byte_len)),
            None => format!("{} raw", c.name),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// `part` of `whole`, in per cent to one decimal.
pub(super) fn percent(part: u64, whole: u64) -> String {
    format!("{:.1} %", part as f64 * 100.0 / whole.max(1) as f64)
}
