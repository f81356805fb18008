//! Why a command failed, and how it is said: the one error type of the
//! command line, the library's errors mapped to it by their kind, and the
//! exit status of each.

use std::io;

use boardbase::error::{Classify, Side};
use boardbase::input::InputError;

/// Why a run failed.
#[derive(Debug, thiserror::Error)]
pub enum Failure {
    /// Bad or unreadable input, after the earlier answers were written.
    #[error("{}", input_message(name, error))]
    Input {
        /// File name, `<stdin>` or the option the text came from.
        name: String,
        /// What went wrong where.
        error: InputError,
    },
    /// A failure with what to do about it, said on a line of its own after
    /// it (`hint: ...`), so that the error's line reads as it would alone.
    #[error("{failure}")]
    Hinted {
        /// What went wrong.
        failure: Box<Failure>,
        /// What to do about it.
        hint: &'static str,
    },
    /// The server could not start.
    #[cfg(feature = "serve")]
    #[error("{0}")]
    Serve(String),
    /// The input file could not be opened.
    #[error("{path}: {error}")]
    Open {
        /// The path given.
        path: String,
        /// Why it could not be opened.
        error: io::Error,
    },
    /// A table file is damaged or not a table file.
    #[error("{path}: {error}")]
    Table {
        /// The path given.
        path: String,
        /// What is wrong with it.
        error: boardbase::tablefile::TableError,
    },
    /// The answer layer failed, an error of the tablebase's side: a table
    /// file, its memory, a table it does not hold, a damaged table (exit
    /// status 1; the questions it cannot answer are usage errors, see
    /// `From<tablebase::Error>`).
    #[error(transparent)]
    Tablebase(boardbase::tablebase::Error),
    /// A job that needs more memory than it may take, or could not get it.
    #[error("{0}")]
    Memory(String),
    /// `generate`: the job failed (the library's message).
    #[error("{0}")]
    Job(boardbase::generate::GenerateError),
    /// `generate` was interrupted by a signal: its message, without
    /// `error: `, and exit status 128 + the signal.
    #[error("{message}")]
    Interrupted {
        /// `interrupted: PATH not written ...`.
        message: String,
        /// The signal.
        signal: i32,
    },
    /// A file or directory could not be written.
    #[error("cannot write {path}: {error}")]
    Write {
        /// The path.
        path: String,
        /// Why it could not be written.
        error: io::Error,
    },
    /// A case that was not answered (a Carcassonne case past the DP's
    /// budget, a board past the search's limit, a board that does not fit
    /// the variant): where it starts, the library's message and its hint.
    #[error("{name}:{line}: case {case}: {error}{}", hinted(&**error))]
    Case {
        /// File name, `<stdin>` or `--board`.
        name: String,
        /// Line where the case starts.
        line: u64,
        /// The case number, from 1.
        case: u64,
        /// Why it was not answered.
        error: Box<dyn Classify + Send + Sync>,
    },
    /// Writing the answers failed.
    #[error("cannot write output: {0}")]
    Output(io::Error),
    /// Arguments that make no sense together, or a program `check` cannot
    /// start: exit status 2.
    #[error("{0}")]
    Usage(String),
    /// `check`: the judge would not accept the program (the report says
    /// why): exit status 1, nothing more on stderr.
    #[error("not accepted")]
    Rejected,
    /// `cases` could not draw or write the cases.
    #[error("{0}")]
    Cases(boardbase::cases::CasesError),
    /// Another rank of an MPI job says why the job failed: this one exits
    /// with the status, saying nothing more.
    #[error("another rank of the job said why it failed")]
    Silent(u8),
    /// The reader of the output went away (e.g. `| head`): stop quietly.
    #[error("broken pipe")]
    BrokenPipe,
}

impl Failure {
    /// Writing the table file `path` failed: [`Failure::Write`] for an I/O
    /// error, [`Failure::Table`] otherwise.
    pub fn table_write(path: &str, error: boardbase::tablefile::TableError) -> Failure {
        match error {
            boardbase::tablefile::TableError::Io(error) => Failure::Write {
                path: path.to_owned(),
                error,
            },
            error => Failure::Table {
                path: path.to_owned(),
                error,
            },
        }
    }
}

impl From<boardbase::tablebase::Error> for Failure {
    /// The answer layer's errors, mapped once by their kind: the
    /// tablebase's failures exit 1; a question it does not answer (a size
    /// past the puzzle's limits, a nullity past --max-nullity, a variant
    /// past the search) is a usage error, exit 2, with its hint; a board's
    /// text that does not parse exits 1 with its line and column.
    fn from(error: boardbase::tablebase::Error) -> Failure {
        if let Some(&at) = error.parse_error() {
            return Failure::Input {
                name: "the board".to_owned(),
                error: InputError::Parse(at),
            };
        }
        match error.kind().side() {
            Side::Tablebase => Failure::Tablebase(error),
            Side::Question => Failure::Usage(format!("{error}{}", hinted(&error))),
        }
    }
}

impl From<io::Error> for Failure {
    fn from(error: io::Error) -> Self {
        if error.kind() == io::ErrorKind::BrokenPipe {
            Failure::BrokenPipe
        } else {
            Failure::Output(error)
        }
    }
}

/// `name:line:column: expected ..., found ...` for syntax errors,
/// `name: read error: ...` for I/O errors.
fn input_message(name: &str, error: &InputError) -> String {
    match error {
        InputError::Parse(e) => format!("{name}:{e}"),
        InputError::Io(e) => format!("{name}: read error: {e}"),
    }
}

/// ` (HINT)` when the error has a hint, said after its message.
pub fn hinted(error: &dyn Classify) -> String {
    error
        .hint()
        .map(|hint| format!(" ({hint})"))
        .unwrap_or_default()
}

/// Says why the command failed, on stderr (nothing for a closed pipe, a
/// rejected program or a failure said already), and returns its exit
/// status.
pub fn say(failure: Failure) -> u8 {
    match failure {
        Failure::Hinted { failure, hint } => {
            let code = say(*failure);
            eprintln!("hint: {hint}");
            code
        }
        Failure::BrokenPipe => 0,
        Failure::Rejected => 1,
        Failure::Silent(code) => code,
        Failure::Interrupted { message, signal } => {
            eprintln!("\n{message}");
            u8::try_from(128 + signal).unwrap_or(u8::MAX)
        }
        e @ Failure::Usage(_) => {
            eprintln!("error: {e}");
            2
        }
        e => {
            eprintln!("error: {e}");
            1
        }
    }
}
