//! `boardbase compress`: a table file rewritten as version 4, its large
//! columns compressed in blocks that a probe decompresses one at a time
//! (layout: `boardbase::tablefile`, docs/table-format.md).

use std::io::Write;
use std::path::{Path, PathBuf};

use boardbase::tablefile::{GameTable, Subject, Table, TableError};
use clap::Args;

use super::bar::PhaseBar;
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

/// Runs `boardbase compress`.
pub fn compress(args: &CompressArgs, out: &mut Output) -> Result<(), Failure> {
    for file in &args.files {
        let failure = |error| Failure::Table {
            path: file.display().to_string(),
            error,
        };
        match Table::open(file) {
            Ok(table) => compress_one(&table, file, out).map_err(failure)?,
            // A game of the model's table: the same columns, another header.
            Err(TableError::UnknownPuzzle(_)) => {
                let table = GameTable::open_game(file).map_err(failure)?;
                compress_one(&table, file, out).map_err(failure)?;
            }
            Err(error) => return Err(failure(error)),
        }
        out.flush()?;
    }
    Ok(())
}

/// Compresses one table into its own file and writes its line.
fn compress_one<I: Subject>(
    table: &Table<I>,
    file: &Path,
    out: &mut Output,
) -> Result<(), TableError> {
    let before = table.file_len();
    let bar = PhaseBar::new();
    let written = table.compress(file, &mut |p| {
        bar.update(p.phase.name(), p.done, p.total, p.phase.counts_bytes())
    });
    bar.finish();
    let after = written?;
    // Reopened, to say what each column became.
    let (version, packed) = match Table::open(file) {
        Ok(t) => (t.version(), column_sizes(&t)),
        Err(TableError::UnknownPuzzle(_)) => {
            let t = GameTable::open_game(file)?;
            (t.version(), column_sizes(&t))
        }
        Err(e) => return Err(e),
    };
    writeln!(
        out,
        "{}: {} bytes to {} ({}), version {version}; {packed}",
        file.display(),
        thousands(before),
        thousands(after),
        percent(after, before),
    )?;
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
