//! Progress reports of long jobs: generating tables ([`crate::generate`]),
//! writing and verifying table files ([`crate::tablefile`]). One
//! [`Progress`] type for all of them, so that a front end draws one kind
//! of progress bar.

use std::fmt;

/// A phase of a long job.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Generating Euler tables: zeroing the win/loss bitset (units:
    /// positions), which the system maps in page by page (seconds for the
    /// 8 GiB of 6×6).
    Allocate,
    /// Generating Euler tables: who wins each position (one bit a
    /// position).
    WinLoss,
    /// Generating Euler tables: moves left and a best move for each
    /// position (and the check of the win/loss bits).
    Depth,
    /// Generating Flip tables: the breadth-first search from both uniform
    /// boards.
    Search,
    /// Generating Flip tables: the closer colour and the counts of the
    /// summary.
    Summary,
    /// Writing a table file: the column CRCs, computed before the header
    /// is written (bytes).
    Checksum,
    /// Writing a table file: the columns (bytes).
    Write,
    /// Verifying a table file: the column CRCs (bytes).
    Crc,
    /// Verifying a table: the entries (positions or boards).
    Contents,
}

impl Phase {
    /// A short name for a progress bar: `allocate`, `win/loss`, `moves
    /// left`, `search`, `summary`, `checksum`, `write`, `crc`, `contents`.
    pub const fn name(self) -> &'static str {
        match self {
            Phase::Allocate => "allocate",
            Phase::WinLoss => "win/loss",
            Phase::Depth => "moves left",
            Phase::Search => "search",
            Phase::Summary => "summary",
            Phase::Checksum => "checksum",
            Phase::Write => "write",
            Phase::Crc => "crc",
            Phase::Contents => "contents",
        }
    }

    /// Whether the phase counts bytes (else positions or boards).
    pub const fn counts_bytes(self) -> bool {
        matches!(self, Phase::Checksum | Phase::Write | Phase::Crc)
    }
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A progress report: `done` of `total` units of `phase` (positions,
/// boards or bytes). Each phase starts with a report of `done == 0` and
/// ends with one of `done == total`; `done` never decreases within a phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// The phase running.
    pub phase: Phase,
    /// Units done.
    pub done: u64,
    /// Units in the phase.
    pub total: u64,
}
