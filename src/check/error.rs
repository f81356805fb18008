//! The one error of `check`, [`CheckError`]: a run that could not be done
//! (the program not started, a system call on its pipes failed), the right
//! answers not worked out, a failing run not saved. A run the judge would
//! not accept is no error: the report says why.

use std::io;
use std::path::PathBuf;

use crate::error::{Classify, Kind};

/// Why a check, or one run of it, could not be done.
#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    /// The program could not be started (not found, not executable, ...).
    #[error("cannot start {program}: {error}")]
    Start {
        /// The program as given.
        program: String,
        /// Why.
        error: io::Error,
    },
    /// A system call on the program's pipes failed.
    #[error("running {program}: {error}")]
    Io {
        /// The program as given.
        program: String,
        /// Why.
        error: io::Error,
    },
    /// The right answers could not be worked out.
    #[error("{0}")]
    Prepare(String),
    /// A failing run could not be saved.
    #[error("cannot save a failing run to {}: {error}", path.display())]
    Save {
        /// The file.
        path: PathBuf,
        /// Why.
        error: io::Error,
    },
}

impl CheckError {
    /// The program could not be started because no file of its name was
    /// found: a front end may say where it was looked for.
    pub fn not_found(&self) -> bool {
        matches!(self, CheckError::Start { error, .. } if error.kind() == io::ErrorKind::NotFound)
    }
}

impl Classify for CheckError {
    /// [`Kind::Io`] for a program that could not be started or run and a
    /// run that could not be saved (the system refused); [`Kind::Resource`]
    /// for answers that could not be worked out (the only answers worked
    /// out before a check, Carcassonne's counts, fail past the counter's
    /// budget).
    fn kind(&self) -> Kind {
        match self {
            CheckError::Start { .. } | CheckError::Io { .. } | CheckError::Save { .. } => Kind::Io,
            CheckError::Prepare(_) => Kind::Resource,
        }
    }
}
