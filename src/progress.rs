//! Progress reports of long jobs: generating tables ([`crate::generate`]),
//! writing and verifying table files ([`crate::tablefile`]). One
//! [`Progress`] type for all of them, so that a front end draws one kind
//! of progress bar, and one [`Cancel`] handle that stops any of them.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// A phase of a long job.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Generating Euler tables: zeroing the win/loss bitset (units:
    /// positions), which the system maps in page by page (seconds for the
    /// 8 GiB of 6×6).
    Allocate,
    /// Generating Euler tables: reading the win/loss layers a checkpoint
    /// holds (bytes), to resume an earlier run.
    Resume,
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
    /// Compressing a table file: its columns read, compressed and written
    /// (bytes of the table as it was).
    Compress,
    /// Verifying a table file: the column CRCs (bytes).
    Crc,
    /// Verifying a table: the entries (positions or boards).
    Contents,
    /// A game of the model solved by retrograde analysis (positions: two
    /// steps each, one to count its moves and one to decide it).
    Solve,
    /// A game of the model: the classes of positions reachable from the
    /// start counted, by a walk over them (positions; the total is the
    /// legal classes, of which the walk reaches some, and the last report
    /// is of the total).
    Reachable,
}

impl Phase {
    /// A short name for a progress bar: `allocate`, `resume`, `win/loss`,
    /// `moves left`, `search`, `summary`, `checksum`, `write`, `compress`,
    /// `crc`, `contents`, `solve`, `reachable`.
    pub const fn name(self) -> &'static str {
        match self {
            Phase::Allocate => "allocate",
            Phase::Resume => "resume",
            Phase::WinLoss => "win/loss",
            Phase::Depth => "moves left",
            Phase::Search => "search",
            Phase::Summary => "summary",
            Phase::Checksum => "checksum",
            Phase::Write => "write",
            Phase::Compress => "compress",
            Phase::Crc => "crc",
            Phase::Contents => "contents",
            Phase::Solve => "solve",
            Phase::Reachable => "reachable",
        }
    }

    /// Whether the phase counts bytes (else positions or boards).
    pub const fn counts_bytes(self) -> bool {
        matches!(
            self,
            Phase::Resume | Phase::Checksum | Phase::Write | Phase::Compress | Phase::Crc
        )
    }
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A progress report: `done` of `total` units of `phase` (positions,
/// boards or bytes). Each phase starts with a report of `done == 0` and
/// ends with one of `done == total` (unless the job is cancelled: see
/// [`Cancel`]); `done` never decreases within a phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// The phase running.
    pub phase: Phase,
    /// Units done.
    pub done: u64,
    /// Units in the phase.
    pub total: u64,
}

/// A handle that stops a long job: [`cancel`](Cancel::cancel) it from any
/// thread (a signal handler's thread, a progress callback, Python's Ctrl-C)
/// and the job that holds a clone of it stops at its next check, within a
/// fraction of a second, and returns its error
/// ([`GenerateError::Cancelled`](crate::generate::GenerateError::Cancelled),
/// [`GenerateError::NotWritten`](crate::generate::GenerateError::NotWritten),
/// or the caller's own error given to
/// [`Table::write_cancellable`](crate::tablefile::Table::write_cancellable)),
/// leaving no partial file.
///
/// Clones share one flag; two handles are equal when they are clones of
/// one another.
///
/// ```
/// use boardbase::progress::Cancel;
///
/// let cancel = Cancel::new();
/// let handle = cancel.clone();
/// assert!(!cancel.is_cancelled());
/// std::thread::spawn(move || handle.cancel()).join().unwrap();
/// assert!(cancel.is_cancelled());
/// assert_ne!(cancel, Cancel::new());
/// ```
#[derive(Clone, Debug, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// A handle not cancelled yet.
    pub fn new() -> Cancel {
        Cancel::default()
    }

    /// Asks every job holding a clone of this handle to stop.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether [`cancel`](Cancel::cancel) was called on this handle or a
    /// clone of it.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

impl PartialEq for Cancel {
    /// Clones of one handle are equal; separate handles are not.
    fn eq(&self, other: &Cancel) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for Cancel {}
