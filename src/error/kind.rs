//! What an error is about, for a front end to map once: [`Kind`], its
//! [`Side`], and [`Classify`], which the library's public errors implement
//! beside their messages.
//!
//! A front end maps each kind once (the command line to its exit codes,
//! the server to its statuses, Python to its exceptions) instead of
//! matching the variants of the errors it is handed; what it adds to a
//! message is the error's [`Classify::hint`], written here once.

/// What an error is about: the question asked (the text, the board, its
/// size, the options) or the tablebase that answers it (its tables, its
/// memory, its files).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Kind {
    /// Text that does not parse: what was expected and found, at a line
    /// and a column.
    Syntax,
    /// A board that does not fit the question: another shape, cells
    /// outside it, rows that do not make a board.
    Mismatch,
    /// Options that do not make a question for the board: a variant, a
    /// goal, a colour the variant does not have.
    Option,
    /// A board past the puzzle's limits: more cells than its tables take,
    /// too wide to count.
    TooLarge,
    /// A board past the exact search's limit (a nullity, quiet patterns):
    /// no answer is claimed minimal, and a larger limit answers it.
    Search,
    /// No table of the puzzle and shape, and none could be made: the
    /// message says the command that makes it.
    Missing,
    /// A table file that cannot be used, or a table found damaged.
    Table,
    /// A budget ran out: memory, threads, the DP's groups.
    Resource,
    /// Reading or writing failed.
    Io,
    /// The work was told to stop (a cancel, a signal) before it finished.
    Interrupted,
    /// Neither the question's nor a table's: another process of the job
    /// failed or disagreed, or a bug.
    Internal,
}

/// Whose the error is: the question's or the tablebase's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// The question has no answer here: the asker can change it.
    Question,
    /// Answering failed: a table, the memory, a file, the job.
    Tablebase,
}

impl Kind {
    /// Whose the error is.
    pub fn side(self) -> Side {
        match self {
            Kind::Syntax | Kind::Mismatch | Kind::Option | Kind::TooLarge | Kind::Search => {
                Side::Question
            }
            Kind::Missing
            | Kind::Table
            | Kind::Resource
            | Kind::Io
            | Kind::Interrupted
            | Kind::Internal => Side::Tablebase,
        }
    }
}

/// An error that knows its [`Kind`] and what to do about it.
pub trait Classify: core::error::Error {
    /// What the error is about.
    fn kind(&self) -> Kind;

    /// What the reader can do about it, when the message does not say it
    /// already: in the command line's words, as the library's messages
    /// name its commands (`boardbase generate`, `boardbase verify`).
    fn hint(&self) -> Option<&'static str> {
        None
    }
}

/// The hint of the errors past the exact search ([`Kind::Search`]).
pub const SEARCH_HINT: &str = "--max-nullity raises the limit";
