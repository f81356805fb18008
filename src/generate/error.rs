//! The generator's one error, [`GenerateError`]: what the generators
//! ([`euler`](super::euler()), [`flip`](super::flip())), a table-file job
//! ([`Job`](super::Job), [`GameJob`](super::GameJob)), its checkpoint and
//! the table it writes can fail with. Its [`Kind`] says whose the fault is:
//! the job's settings ([`Kind::Option`], [`Kind::TooLarge`]), the memory or
//! threads ([`Kind::Resource`]), the files ([`Kind::Io`], [`Kind::Table`]),
//! a cancel ([`Kind::Interrupted`]) or the job's other processes
//! ([`Kind::Internal`]); a table file's own faults are the [`TableError`]
//! it wraps.

use std::io;
use std::path::{Path, PathBuf};

use boardbase_tables::shape::Shape;

use super::setting::{JobSetting, LimitFrom, MemoryLimit};
use crate::error::{Classify, Kind, Side};
use crate::memory::ByteSize;
use crate::ranks::OtherRank;
use crate::tablefile::{Puzzle, TableError, TooManyCells};

/// Why a table could not be generated, or its job could not make its file.
/// Every check of the settings and the memory happens before anything large
/// is allocated. The messages are those of `boardbase generate`, which
/// prints them after `error: `.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GenerateError {
    /// The board has more cells than the puzzle's tables allow.
    #[error(transparent)]
    TooManyCells(#[from] TooManyCells),
    /// The generation needs more memory than the limit of its options
    /// ([`EulerOptions::memory_limit`](super::EulerOptions::memory_limit)).
    #[error("{puzzle} {shape} needs {} of memory, over the limit of {}", ByteSize(*.needed), ByteSize(*.limit))]
    OverMemoryLimit {
        /// The puzzle.
        puzzle: Puzzle,
        /// The shape asked for.
        shape: Shape,
        /// Bytes the job needs.
        needed: u64,
        /// The limit.
        limit: u64,
    },
    /// A job needs more memory than its limit
    /// ([`Plan::memory_needed`](super::Plan::memory_needed)).
    #[error("{}", over_limit(.what, *.needed, .limit, JobSetting::MemoryLimit.flag()))]
    JobOverMemoryLimit {
        /// The puzzle or game and its board: `euler 5x6`, `mnk 4x4`.
        what: String,
        /// Bytes the job needs.
        needed: u64,
        /// The limit and where it comes from.
        limit: MemoryLimit,
    },
    /// The allocator refused memory the limit allowed.
    #[error("cannot allocate {} for the tables", ByteSize(*.bytes))]
    Allocation {
        /// Bytes asked for.
        bytes: u64,
    },
    /// `threads` was `Some(0)`.
    #[error("the number of threads must be at least 1")]
    NoThreads,
    /// The dedicated thread pool could not be started.
    #[error("cannot start a pool of {threads} threads: {message}")]
    ThreadPool {
        /// Threads asked for.
        threads: usize,
        /// The reason given.
        message: String,
    },
    /// `wdl_only` was asked of a Flip job.
    #[error("{}", wdl_only_flip(JobSetting::WdlOnly.flag()))]
    WdlOnlyFlip,
    /// `checkpoint_every` other than the default was given to a Flip job,
    /// which saves no checkpoint.
    #[error("{}", checkpoint_flip(JobSetting::CheckpointEvery.flag()))]
    CheckpointFlip,
    /// A Flip job was spread over several ranks: it runs in one process.
    #[error(
        "a Flip table is made by one process, not {ranks}: run `boardbase generate flip` without mpirun"
    )]
    RanksFlip {
        /// The ranks asked for.
        ranks: usize,
    },
    /// [`Plan::run_ranks`](super::Plan::run_ranks) was given another number
    /// of ranks than the job was planned for.
    #[error("the job was planned for {planned} ranks and runs on {running}")]
    RankCount {
        /// [`Job::ranks`](super::Job::ranks).
        planned: usize,
        /// [`Ranks::size`](crate::ranks::Ranks::size).
        running: usize,
    },
    /// The ranks of a job planned different tables: some have the memory
    /// for the full tables, some not.
    #[error(
        "the ranks planned different tables: {full} of {ranks} have the memory for the full tables; give every \
         rank the same --memory, or --wdl-only"
    )]
    RanksDisagree {
        /// Ranks that planned the full tables.
        full: usize,
        /// Ranks of the job.
        ranks: usize,
    },
    /// Another rank of a job over several ranks failed (it says why); this
    /// one stopped with it.
    #[error("rank {rank} of the job failed; every rank stopped")]
    OtherRank {
        /// The first rank that failed.
        rank: usize,
    },
    /// The [`Cancel`](super::Cancel) handle of a generation was cancelled:
    /// it stopped at its next check, and what it had made was dropped (but
    /// for the layers saved to its checkpoint).
    #[error("cancelled")]
    Cancelled,
    /// The [`Cancel`](super::Cancel) handle of a job was cancelled: nothing
    /// was written under `path`.
    #[error(
        "cancelled: {} not written{}{}",
        .path.display(),
        if *.removed_temporary { " (its temporary file was removed)" } else { "" },
        checkpoint_kept(.checkpoint.as_deref())
    )]
    NotWritten {
        /// The table file.
        path: PathBuf,
        /// Whether the write had begun: its temporary file was removed.
        removed_temporary: bool,
        /// The checkpoint kept for the same job to resume from, if any.
        checkpoint: Option<PathBuf>,
    },
    /// The [`Cancel`](super::Cancel) handle of a job was cancelled while
    /// the table, written whole under `path`, was being compressed
    /// ([`Job::compress`](super::Job::compress)): the table is kept as
    /// written, uncompressed, and the compression left no file.
    #[error("cancelled: {} written, not compressed", .path.display())]
    NotCompressed {
        /// The table file.
        path: PathBuf,
    },
    /// The checkpoint could not be read, written or synced.
    #[error("{}: {error}", .path.display())]
    Checkpoint {
        /// The checkpoint.
        path: PathBuf,
        /// Why.
        error: io::Error,
    },
    /// Another run holds the checkpoint's lock: it is making the same table
    /// now.
    #[error("{}: another run is making this table (it holds the checkpoint's lock)", .path.display())]
    CheckpointLocked {
        /// The checkpoint.
        path: PathBuf,
    },
    /// The checkpoint does not match this run, or is damaged: it is not
    /// used.
    #[error("cannot resume from {}: {reason}; remove it to start over", .path.display())]
    CheckpointRefused {
        /// The checkpoint.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// A game of the model cannot be set up as asked.
    #[error(transparent)]
    Setup(#[from] crate::catalogue::SetupError),
    /// A game's retrograde analysis failed.
    #[error("{0}")]
    Solve(boardbase_tables::game::SolveError),
    /// The directory or the file could not be written.
    #[error("cannot write {}: {error}", .path.display())]
    Write {
        /// The directory, or the table file.
        path: PathBuf,
        /// Why.
        error: io::Error,
    },
    /// The file system has no room for the file.
    #[error(
        "cannot write {}: the table takes {}, the file system has {} free",
        .path.display(),
        ByteSize(*.needed),
        ByteSize(*.free)
    )]
    DiskSpace {
        /// The table file.
        path: PathBuf,
        /// Its length in bytes.
        needed: u64,
        /// Bytes free for an unprivileged user.
        free: u64,
    },
    /// The table could not be built or written as a file.
    #[error("{}: {error}", .path.display())]
    Table {
        /// The table file.
        path: PathBuf,
        /// What went wrong.
        error: TableError,
    },
}

impl Classify for GenerateError {
    /// A shape past the tables' cells ([`Kind::TooLarge`]); settings that
    /// make no job ([`Kind::Option`]); memory, threads ([`Kind::Resource`]);
    /// a file that cannot be written ([`Kind::Io`]); a table or checkpoint
    /// that cannot be used or written ([`Kind::Table`]); a cancel
    /// ([`Kind::Interrupted`]); the job's other processes, or the game's
    /// analysis failing ([`Kind::Internal`]).
    fn kind(&self) -> Kind {
        use GenerateError as E;
        match self {
            E::TooManyCells(e) => e.kind(),
            E::NoThreads
            | E::Setup(_)
            | E::WdlOnlyFlip
            | E::CheckpointFlip
            | E::RanksFlip { .. } => Kind::Option,
            E::OverMemoryLimit { .. }
            | E::JobOverMemoryLimit { .. }
            | E::Allocation { .. }
            | E::ThreadPool { .. } => Kind::Resource,
            E::Write { .. } | E::DiskSpace { .. } => Kind::Io,
            E::Table { .. }
            | E::Checkpoint { .. }
            | E::CheckpointLocked { .. }
            | E::CheckpointRefused { .. } => Kind::Table,
            E::Cancelled | E::NotWritten { .. } | E::NotCompressed { .. } => Kind::Interrupted,
            E::Solve(_) | E::RankCount { .. } | E::RanksDisagree { .. } | E::OtherRank { .. } => {
                Kind::Internal
            }
        }
    }
}

impl OtherRank for GenerateError {
    fn other_rank(rank: usize) -> GenerateError {
        GenerateError::OtherRank { rank }
    }
}

impl GenerateError {
    /// The setting the error is about, if it is about one: `wdl_only` or
    /// `checkpoint_every` asked of Flip, or a memory limit given with the
    /// job that the job needs more than.
    pub fn setting(&self) -> Option<JobSetting> {
        match self {
            GenerateError::WdlOnlyFlip => Some(JobSetting::WdlOnly),
            GenerateError::CheckpointFlip => Some(JobSetting::CheckpointEvery),
            GenerateError::JobOverMemoryLimit {
                limit:
                    MemoryLimit {
                        from: LimitFrom::Given,
                        ..
                    },
                ..
            } => Some(JobSetting::MemoryLimit),
            _ => None,
        }
    }

    /// The error's message with the [`setting`](GenerateError::setting) it
    /// is about called `name(setting)`: a front end's own words for it.
    /// `Display` is `message(|s| s.flag().into())`, the command line's.
    ///
    /// ```
    /// use boardbase::generate::{Job, JobSetting, Puzzle};
    /// use boardbase::tables::shape::Shape;
    ///
    /// let job = Job { wdl_only: true, ..Job::new(Puzzle::Flip, Shape::new(3, 3).unwrap()) };
    /// let error = job.plan().unwrap_err();
    /// assert_eq!(error.setting(), Some(JobSetting::WdlOnly));
    /// assert_eq!(
    ///     error.to_string(),
    ///     "--wdl-only is for euler: a Flip table has no win/loss column"
    /// );
    /// let python = |setting| match setting {
    ///     JobSetting::WdlOnly => "wdl_only=True".to_owned(),
    ///     _ => format!("{setting:?}"),
    /// };
    /// assert_eq!(
    ///     error.message(python),
    ///     "wdl_only=True is for euler: a Flip table has no win/loss column"
    /// );
    /// ```
    pub fn message(&self, name: impl Fn(JobSetting) -> String) -> String {
        match self {
            GenerateError::WdlOnlyFlip => wdl_only_flip(&name(JobSetting::WdlOnly)),
            GenerateError::CheckpointFlip => checkpoint_flip(&name(JobSetting::CheckpointEvery)),
            GenerateError::JobOverMemoryLimit {
                what,
                needed,
                limit,
            } => over_limit(what, *needed, limit, &name(JobSetting::MemoryLimit)),
            other => other.to_string(),
        }
    }

    /// Whether the job's settings are at fault (too many cells, no
    /// threads, `wdl_only` or `checkpoint_every` for Flip): a usage error
    /// on the command line (exit status 2), a `ValueError` in Python. The
    /// errors on the question's side of their [`Kind`].
    pub fn is_usage(&self) -> bool {
        self.kind().side() == Side::Question
    }

    /// The error of writing the table file `path`: an I/O error is
    /// [`GenerateError::Write`], any other [`GenerateError::Table`].
    pub(crate) fn writing(path: &Path, error: TableError) -> GenerateError {
        match error {
            TableError::Io(error) => GenerateError::Write {
                path: path.to_owned(),
                error,
            },
            error => GenerateError::Table {
                path: path.to_owned(),
                error,
            },
        }
    }

    /// The file at fault: the table being written, or the checkpoint.
    pub fn file(&self) -> Option<&Path> {
        match self {
            GenerateError::Write { path, .. }
            | GenerateError::DiskSpace { path, .. }
            | GenerateError::Table { path, .. }
            | GenerateError::Checkpoint { path, .. }
            | GenerateError::CheckpointLocked { path }
            | GenerateError::CheckpointRefused { path, .. } => Some(path),
            _ => None,
        }
    }
}

/// What a cancelled job says of its checkpoint: `; PATH kept: the same
/// command resumes from it`, or nothing.
pub fn checkpoint_kept(checkpoint: Option<&Path>) -> String {
    checkpoint.map_or_else(String::new, |c| {
        format!("; {} kept: the same command resumes from it", c.display())
    })
}

/// [`GenerateError::WdlOnlyFlip`]'s message, the setting called `name`.
fn wdl_only_flip(name: &str) -> String {
    format!("{name} is for euler: a Flip table has no win/loss column")
}

/// [`GenerateError::CheckpointFlip`]'s message, the setting called `name`.
fn checkpoint_flip(name: &str) -> String {
    format!("{name} is for euler: a Flip job saves no checkpoint")
}

/// What a job over its memory limit says: `what` (the puzzle or game and
/// its board) needs so much, the limit called `name` when it was given.
fn over_limit(what: &str, needed: u64, limit: &MemoryLimit, name: &str) -> String {
    let from = match limit.from {
        LimitFrom::Given => name,
        LimitFrom::Available => "the memory available",
    };
    format!(
        "{what} needs {} of memory, over the limit of {} ({from}); nothing was generated",
        ByteSize(needed),
        ByteSize(limit.bytes),
    )
}
