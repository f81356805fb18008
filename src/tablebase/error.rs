//! The error of the answer layer, [`Error`]: one type, as a chess endgame
//! tablebase's probe has one, whose [`Kind`] says whose it is
//! ([`Kind::side`]): the tablebase's (a table file that cannot be used, a
//! table it does not hold, the memory to make one, a damaged table) or the
//! question's (the board, its size, the options). A front end maps each
//! kind once: the command line to its exit codes (a question it cannot
//! answer is a usage error, the tablebase's failure a failure), the server
//! to its statuses, Python to its exceptions. Each message is written here,
//! once; each error's [`Kind`] and hint ([`Classify`]) too, and the facts a
//! front end puts beside the message ([`Error::file`], [`Error::command`]
//! and the rest).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use boardbase_tables::shape::Shape;

use super::find::{Missing, OptionNames, Origin};
use crate::error::{Classify, Kind, ParseError};
use crate::grid::BoardTextError;
use crate::lights::LightsError;
use crate::tablefile::{Puzzle, TableError, TooManyCells};

/// Why the tablebase gave no answer. The first variants are the
/// tablebase's (it failed: its files, its memory, a table it does not
/// hold), the rest the question's (it has no answer here: the board, its
/// size, the options); [`Classify::kind`] says which, by [`Kind::side`].
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// No table of the puzzle and shape, and none made in memory: where it
    /// was looked for and the command that makes it.
    #[error(transparent)]
    Missing(#[from] Missing),
    /// A file could not be opened as a table, or failed its checks.
    #[error("{}: {error}", path.display())]
    Open {
        /// The file.
        path: PathBuf,
        /// Why.
        error: TableError,
    },
    /// A file holds another puzzle's or another shape's table.
    #[error("{}: {} {found_shape} table, not {} {shape} table", path.display(), found_puzzle.with_article(), puzzle.with_article())]
    Mismatch {
        /// The file.
        path: PathBuf,
        /// The puzzle asked for.
        puzzle: Puzzle,
        /// The shape asked for.
        shape: Shape,
        /// The file's puzzle.
        found_puzzle: Puzzle,
        /// The file's shape.
        found_shape: Shape,
    },
    /// The table file of a puzzle and shape (found in the directories, or
    /// added by [`Tablebase::add_file`](super::Tablebase::add_file))
    /// cannot be used: it did not open, holds another table, or its columns
    /// do not resolve. No board of the shape is answered until it is
    /// replaced, since a later file or a table made in memory would hide
    /// the damage.
    #[error(
        "{error}: no {puzzle} {shape} board is answered until the file is replaced; make it with: {command}"
    )]
    Unusable {
        /// The puzzle.
        puzzle: Puzzle,
        /// The shape.
        shape: Shape,
        /// The file.
        path: PathBuf,
        /// Why it cannot be used ([`Error::Open`],
        /// [`Error::Mismatch`] or [`Error::Probe`]), found
        /// when it was opened.
        error: Arc<Error>,
        /// The command that makes the table.
        command: String,
    },
    /// A table answered an error: it is damaged.
    #[error("{origin}: {error} (boardbase verify checks the file)")]
    Probe {
        /// Where the table came from.
        origin: Origin,
        /// What the probe found.
        error: TableError,
    },
    /// A table answered an error, said where its origin is not known (a
    /// [`FlipView`](super::FlipView) borrowed from a table).
    #[error("the table cannot answer this board: {0} (the file is damaged)")]
    Damaged(TableError),
    /// The table was not made in memory for want of room: tables being
    /// made hold the rest of the budget, or the job making it was dropped
    /// before it ran (its caller's workers were busy). Asking again later
    /// may answer; the server says so with its own status.
    #[error(
        "cannot make the {puzzle} {shape} table in memory: busy making other tables in memory; make it with: {command}"
    )]
    Busy {
        /// The puzzle.
        puzzle: Puzzle,
        /// The shape.
        shape: Shape,
        /// The command that makes the table's file.
        command: String,
    },
    /// Making the table in memory failed: the generator could not
    /// allocate, or a worker crashed.
    #[error("cannot make the {puzzle} {shape} table in memory: {reason}; make it with: {command}")]
    Make {
        /// The puzzle.
        puzzle: Puzzle,
        /// The shape.
        shape: Shape,
        /// The generator's message.
        reason: String,
        /// The command that makes the table's file.
        command: String,
    },
    /// A game too large to solve in the memory for tables made in memory.
    #[error(
        "solving {game} on {shape} in memory needs {}{}, more than the {} allowed for games solved in memory",
        if *needed == u64::MAX { "more than " } else { "" },
        crate::memory::ByteSize(*needed),
        crate::memory::ByteSize(*budget)
    )]
    TooLarge {
        /// The game.
        game: &'static str,
        /// The board.
        shape: Shape,
        /// The bytes it needs (`u64::MAX`: at least that).
        needed: u64,
        /// The bytes allowed.
        budget: u64,
    },
    /// The game's retrograde analysis failed.
    #[error("cannot solve {game} on {shape}: {error}")]
    Solve {
        /// The game.
        game: &'static str,
        /// The board.
        shape: Shape,
        /// Why.
        error: boardbase_tables::game::SolveError,
    },

    /// The shape has more cells than the puzzle's tables allow.
    #[error(transparent)]
    TooManyCells(#[from] TooManyCells),
    /// A board's text that does not parse, at its line and column.
    #[error(transparent)]
    Board(#[from] ParseError),
    /// A board's rows of `0`/`1` or `w`/`b` (the classic game's, asked by
    /// [`Tablebase::lights_answer`](super::Tablebase::lights_answer)) that
    /// do not read or make no board: at a line and column, with the rows
    /// and cells counted for a front end's own words.
    #[error(transparent)]
    Rows(BoardTextError),
    /// A board of another shape than the one asked about.
    #[error("a {found} board, not {expected}")]
    BoardShape {
        /// The shape asked about.
        expected: Shape,
        /// The board's.
        found: Shape,
    },
    /// A board with cells outside its shape (as bits).
    #[error("the board has bits outside its {0} cells")]
    OutsideShape(Shape),
    /// Flip, Lights Out or the Lights Out family: the shape's nullity or
    /// the variant's quiet patterns are past the exact search (the
    /// tablebase's limit), or the board or goal does not fit the variant.
    #[error(transparent)]
    Lights(#[from] LightsError),
    /// A game set up on a board or with options it is not played with.
    #[error(transparent)]
    Setup(#[from] crate::catalogue::SetupError),
    /// A position text that reads, but names no position of the game.
    #[error("not a position of the game")]
    NotAPosition,
}

impl Classify for Error {
    /// The tablebase's: [`Kind::Missing`] for no table (none made in memory
    /// either), [`Kind::Table`] for a file that cannot be used or a damaged
    /// table, [`Kind::Resource`] for a game too large to solve in memory,
    /// [`Kind::Internal`] for its analysis failing. The question's: the
    /// kind of the error it holds, [`Kind::Mismatch`] for a board that does
    /// not fit, [`Kind::Option`] for a game not set up so.
    fn kind(&self) -> Kind {
        match self {
            Error::Missing(_) | Error::Busy { .. } | Error::Make { .. } => Kind::Missing,
            Error::Open { .. }
            | Error::Mismatch { .. }
            | Error::Unusable { .. }
            | Error::Probe { .. }
            | Error::Damaged(_) => Kind::Table,
            Error::TooLarge { .. } => Kind::Resource,
            Error::Solve { .. } => Kind::Internal,
            Error::TooManyCells(e) => e.kind(),
            Error::Board(e) => e.kind(),
            Error::Rows(e) => e.parse_error().kind(),
            Error::BoardShape { .. } | Error::OutsideShape(_) | Error::NotAPosition => {
                Kind::Mismatch
            }
            Error::Lights(e) => e.kind(),
            Error::Setup(_) => Kind::Option,
        }
    }

    fn hint(&self) -> Option<&'static str> {
        match self {
            Error::Lights(e) => e.hint(),
            _ => None,
        }
    }
}

/// What locates the problem or fixes it, each there when the error has it:
/// for a front end's fields (the server's JSON, Python's attributes), so
/// that none matches the variants.
impl Error {
    /// The message, naming the options as `names` say (a missing table's
    /// message points to them; every other message is `Display`'s).
    pub fn worded(&self, names: OptionNames) -> String {
        match self {
            Error::Missing(missing) => missing.worded(names).to_string(),
            e => e.to_string(),
        }
    }

    /// The puzzle of a table that is missing or could not be made.
    pub fn puzzle(&self) -> Option<Puzzle> {
        match self {
            Error::Missing(missing) => Some(missing.puzzle),
            Error::Busy { puzzle, .. } | Error::Make { puzzle, .. } => Some(*puzzle),
            _ => None,
        }
    }

    /// The table file at fault: one that cannot be used, holds another
    /// table, or answered an error.
    pub fn file(&self) -> Option<&Path> {
        match self {
            Error::Unusable { path, .. }
            | Error::Open { path, .. }
            | Error::Mismatch { path, .. }
            | Error::Probe {
                origin: Origin::File(path),
                ..
            } => Some(path),
            _ => None,
        }
    }

    /// The command that makes the table: of a table missing, one that
    /// could not be made in memory, or a file that must be replaced.
    pub fn command(&self) -> Option<String> {
        match self {
            Error::Missing(missing) => Some(missing.command()),
            Error::Busy { command, .. }
            | Error::Make { command, .. }
            | Error::Unusable { command, .. } => Some(command.clone()),
            _ => None,
        }
    }

    /// Where a board's text does not parse.
    pub fn parse_error(&self) -> Option<&ParseError> {
        match self {
            Error::Board(e) => Some(e),
            Error::Rows(e) => Some(e.parse_error()),
            _ => None,
        }
    }

    /// A board's rows that do not read or make no board, with the rows
    /// and cells counted ([`Error::Rows`]).
    pub fn board_text(&self) -> Option<&BoardTextError> {
        match self {
            Error::Rows(e) => Some(e),
            _ => None,
        }
    }

    /// The most cells the puzzle's tables take, for a shape past them.
    pub fn max_cells(&self) -> Option<usize> {
        match self {
            Error::TooManyCells(e) => Some(e.puzzle.max_cells()),
            _ => None,
        }
    }

    /// Past the exact search ([`Kind::Search`]): the limit of the search,
    /// in bits (a nullity, or quiet patterns as a power of 2).
    pub fn max_nullity(&self) -> Option<usize> {
        match self {
            Error::Lights(LightsError::NullityTooLarge { max, .. }) => Some(*max),
            Error::Lights(LightsError::SearchTooLarge { max_bits, .. }) => Some(*max_bits),
            _ => None,
        }
    }

    /// Past the exact search on a GF(2) board: the shape's nullity.
    pub fn nullity(&self) -> Option<usize> {
        match self {
            Error::Lights(LightsError::NullityTooLarge { nullity, .. }) => Some(*nullity),
            _ => None,
        }
    }

    /// Past the exact search on a variant of the family: its quiet
    /// patterns, in decimal.
    pub fn quiet_count(&self) -> Option<&str> {
        match self {
            Error::Lights(LightsError::SearchTooLarge { quiet, .. }) => Some(quiet),
            _ => None,
        }
    }
}
