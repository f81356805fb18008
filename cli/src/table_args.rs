//! Where the answers of `euler`, `flip` and `check` come from (`--size`,
//! `--table`, `--tables`): the tablebase they ask, the shape of their
//! boards, and the errors of its answers.

use std::io;
use std::path::{Path, PathBuf};

use boardbase::tablebase::{Loaded, Origin, StreamError, Tablebase};
use boardbase::tablefile::Puzzle;
use boardbase::tables::shape::{MAX_SIDE, Shape};
use clap::Args;

use super::bar::PhaseBar;
use super::{Failure, Source};

/// Where the table of a board size comes from: shared by `euler` and
/// `flip`.
#[derive(Debug, Args)]
pub struct TableArgs {
    #[arg(long, value_name = "RxC", value_parser = parse_shape,
          help = concat!(super::options::size_help!(), " [default: 4x4, or the shape of --table]"),
          long_help = concat!(super::options::size_help!(), " [default: 4x4, or the shape of --table]. Euler: up to 36 squares; Flip: up to 64x64"))]
    pub size: Option<Shape>,
    #[arg(long, value_name = "FILE", help = super::options::table_help!())]
    pub table: Option<PathBuf>,
    #[arg(long = "tables", value_name = "DIR", value_parser = super::existing_dir,
          help = super::options::tables_help!())]
    pub tables: Vec<PathBuf>,
}

impl TableArgs {
    /// The shape `puzzle`'s boards have: `--size`, else the shape of
    /// `--table`'s file, else 4×4.
    pub fn board_shape(&self, puzzle: Puzzle) -> Result<Shape, Failure> {
        self.shape_in(&self.tablebase(boardbase::lights::MAX_NULLITY), puzzle)
    }

    /// [`TableArgs::board_shape`], with the tablebase of these arguments
    /// at hand.
    pub fn shape_in(&self, tablebase: &Tablebase, puzzle: Puzzle) -> Result<Shape, Failure> {
        match self.size {
            Some(shape) => Ok(shape),
            None => Ok(tablebase.default_shape(puzzle)?),
        }
    }

    /// The tablebase of `--table`, `--tables` and `BOARDBASE_TABLES`,
    /// searching Flip boards by GF(2) up to nullity `max_nullity`.
    pub fn tablebase(&self, max_nullity: usize) -> Tablebase {
        tablebase_of(&self.tables, self.table.as_deref(), max_nullity)
    }
}

impl TableArgs {
    /// `failure`, met reading `source`'s boards, with a hint that `--size`
    /// exists when it is a board's first row of more or fewer than 4 cells
    /// read as 4×4 for want of `--size` or `--table` (a 5×5 board given
    /// without its size): the error alone names a line and a column.
    pub fn hint_size(&self, source: &Source, failure: Failure) -> Failure {
        let read_as_4x4 = self.size.is_none() && self.table.is_none();
        if read_as_4x4
            && matches!(failure, Failure::Input { .. })
            && source.scanner.misfit_first_row()
        {
            Failure::Hinted {
                failure: Box::new(failure),
                hint: "--size RxC answers other board sizes (a board read as 4x4 for want of it)",
            }
        } else {
            failure
        }
    }
}

/// The tablebase of `--table FILE` when given (it alone answers its
/// puzzle), else of the `--tables` directories given, then those of
/// `BOARDBASE_TABLES`, searching Flip boards by GF(2) up to nullity
/// `max_nullity`. A directory that cannot be read holds no files (the
/// errors for a missing table name it among those searched).
pub fn tablebase_of(dirs: &[PathBuf], table: Option<&Path>, max_nullity: usize) -> Tablebase {
    let mut tablebase = Tablebase::new();
    tablebase.set_max_nullity(max_nullity);
    if let Some(path) = table {
        tablebase.set_table(path);
    }
    for dir in dirs {
        let _ = tablebase.add_directory(dir);
    }
    tablebase.add_env_directories();
    tablebase
}

/// Parses `RxC` (`5x5`, `5X5`, `5×5`): both sides 1 to 64.
pub fn parse_shape(text: &str) -> Result<Shape, String> {
    Shape::parse(text.trim()).ok_or_else(|| {
        format!("'{text}' is not a board size RxC with 1 to {MAX_SIDE} rows and columns (e.g. 5x5)")
    })
}

/// Says on stderr that a table was made in memory, and how to keep it.
pub fn note_made(found: &Loaded, tablebase: &Tablebase, puzzle: Puzzle, shape: Shape) {
    if found.origin != Origin::Made {
        return;
    }
    let missing = tablebase.missing(puzzle, shape);
    let looked = missing
        .looked()
        .unwrap_or_else(|| "no table directory given".into());
    eprintln!(
        "note: {looked}: made the {puzzle} {shape} table in memory ({:.2} s); `{}` writes it to a file",
        found.elapsed.as_secs_f64(),
        missing.command()
    );
}

/// A progress bar for a table made on the spot, when stderr is a terminal.
pub fn made_bar() -> PhaseBar {
    PhaseBar::new()
}

/// The failure of a stream of answers from `source`: its input (with the
/// source's name), the tablebase's or the output's.
pub fn streamed(source: &Source, error: StreamError<io::Error>) -> Failure {
    match error {
        StreamError::Input(e) => source.fail(e),
        StreamError::Answer(e) => e.into(),
        StreamError::Write(e) => e.into(),
    }
}
