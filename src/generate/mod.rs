//! Tables for boards of any size: the Game of Euler up to 36 squares, Flip
//! Game up to 25 cells, generated in memory on every core.
//!
//! The 4×4 tables embedded by `build.rs` come from the same solvers of the
//! `boardbase-tables` crate
//! ([`tables::euler::winloss`](crate::tables::euler::winloss),
//! [`tables::euler::depth`](crate::tables::euler::depth),
//! [`tables::flip::search`](crate::tables::flip::search)); this module runs them
//! on a thread pool (rayon) for any shape, says beforehand how much memory a
//! job takes, and reports progress. The result is one owned column per
//! quantity, in the layout of the table files, plus a summary.
//!
//! The Euler generator is in `euler.rs`, the Flip generator in `flip.rs`;
//! this file holds what they share: the errors, the thread pool, the
//! checked allocations, and the progress reports and cancellation checks
//! of the workers.
//!
//! A whole table-file job, as `boardbase generate` and Python's
//! `boardbase.generate` run it (the checks, the memory plan, the file
//! written and renamed, the summary, cancellation), is a [`Job`]: see
//! there. A [`Cancel`] handle in [`EulerOptions::cancel`] /
//! [`FlipOptions::cancel`] stops a generation early.
//!
//! # Layout
//!
//! A board of `R` rows and `C` columns is a `u64` with cell (`row`, `col`) at
//! bit `C * row + col`, row 0 being the first input line. Entry `i` of a
//! column is the value for the board whose bits are `i`: a column has
//! `2^(R·C)` entries. Bit columns hold entry `i` at bit `i % 64` of word
//! `i / 64`.
//!
//! # Defaults
//!
//! * Euler: the full tables (win/loss, moves left and a best move)
//!   wherever they fit in the memory limit (2.5 bytes a position: 2.5 GiB
//!   for the 30 squares of 5×6), win/loss only otherwise
//!   ([`euler_full_tables`]); [`EulerOptions::wdl_only`] forces win/loss
//!   only. At most [`EULER_MAX_CELLS`] squares (36: a bitset of 8 GiB).
//! * Flip: at most [`FLIP_MAX_CELLS`] cells (25).
//! * Every core ([`threads`](EulerOptions::threads) `None`), no memory limit
//!   ([`memory_limit`](EulerOptions::memory_limit) `None`; a [`Job`], as
//!   the command line runs it, uses
//!   [`available_memory`](crate::memory::available_memory)), not cancelled
//!   ([`cancel`](EulerOptions::cancel) `None`).
//!
//! ```
//! use boardbase::euler::Outcome;
//! use boardbase::generate::{self, EulerOptions};
//! use boardbase::tables::shape::Shape;
//!
//! // The Game of Euler on a 3×3 board: 512 positions.
//! let shape = Shape::new(3, 3).unwrap();
//! let options = EulerOptions::default();
//! let needed = generate::euler_memory(shape, &options)?;
//! assert!(needed < 2 << 20);
//! let tables = generate::euler(shape, &options, |_| {})?;
//!
//! //   X X .     row 0: bits 0..2
//! //   X X .     row 1: bits 3..5
//! //   X X X     row 2: bits 6..8
//! // Two open squares, one above the other: a 2-long pin from the top
//! // would cover both, the last ones, and lose; covering one wins.
//! let p = 0b111_011_011;
//! assert!(tables.winning(p));
//! assert_eq!(tables.plies(p), Some(2));
//! let best = tables.best_move(p).expect("an open position has a move");
//! assert_eq!(best.count_ones(), 1);
//! assert!(!tables.winning(p | best));
//!
//! // The empty 3×3 board is won, in 6 moves with perfect play.
//! assert_eq!(tables.summary.empty, Outcome::Win);
//! assert_eq!(tables.summary.empty_moves_left, Some(6));
//! assert_eq!(tables.summary.positions, 512);
//! assert_eq!(tables.summary.winning + tables.summary.losing, 511);
//! # Ok::<(), boardbase::generate::GenerateError>(())
//! ```

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use boardbase_tables::shape::Shape;
use rayon::prelude::*;

pub mod checkpoint;
mod error;
mod euler;
mod euler_classes;
mod euler_depth_save;
mod euler_ranks;
mod euler_tables;
mod euler_winloss;
mod flip;
mod game;
mod game_checkpoint;
mod game_tiers;
mod job;
mod setting;

pub use error::{GenerateError, checkpoint_kept};
pub use euler::{
    EULER_MAX_CELLS, EulerOptions, NO_MOVE, euler, euler_full_memory, euler_full_tables,
    euler_memory,
};
pub use euler_classes::{euler_classes_full_memory, euler_classes_memory};
pub use euler_ranks::{
    DEFAULT_EXCHANGE_BYTES, RankTables, RanksOptions, euler_rank_memory, euler_rank_write_memory,
    euler_ranks,
};
pub use euler_tables::{EulerDepth, EulerSummary, EulerTables};
pub use flip::{
    ColourColumns, FLIP_MAX_CELLS, FlipOptions, FlipSummary, FlipTables, flip, flip_memory,
};
pub use game::{GameJob, GamePlan, GameReport, StartValue};
pub use job::{
    DEFAULT_CHECKPOINT_EVERY, EulerReport, FlipReport, Job, Plan, RanksReport, Report,
    ReportSummary, RunFigures,
};
pub use setting::{JobSetting, LimitFrom, MemoryLimit};

/// Which puzzle a table is for: the same type as the table files'
/// [`tablefile::Puzzle`](crate::tablefile::Puzzle).
pub use crate::tablefile::Puzzle;

pub use crate::progress::{Cancel, Phase, Progress};

fn check_cells(puzzle: Puzzle, shape: Shape) -> Result<(), GenerateError> {
    Ok(puzzle.check_cells(shape)?)
}

/// Small allocations of a job besides its tables (move lists, per-layer
/// lists, histograms): a generous fixed allowance.
const SMALL_ALLOCATIONS: u64 = 1 << 20;

fn pool_threads(threads: Option<usize>) -> usize {
    threads.unwrap_or_else(rayon::current_num_threads).max(1)
}

fn check_memory(
    puzzle: Puzzle,
    shape: Shape,
    needed: u64,
    limit: Option<u64>,
) -> Result<(), GenerateError> {
    match limit {
        Some(limit) if needed > limit => Err(GenerateError::OverMemoryLimit {
            puzzle,
            shape,
            needed,
            limit,
        }),
        _ => Ok(()),
    }
}

/// Runs `job` on a dedicated pool of `threads` threads, or on the current
/// pool when `None`.
fn in_pool<T: Send>(
    threads: Option<usize>,
    job: impl FnOnce() -> Result<T, GenerateError> + Send,
) -> Result<T, GenerateError> {
    match threads {
        None => job(),
        Some(0) => Err(GenerateError::NoThreads),
        Some(n) => rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .thread_name(|i| format!("boardbase-generate-{i}"))
            .build()
            .map_err(|e| GenerateError::ThreadPool {
                threads: n,
                message: e.to_string(),
            })?
            .install(job),
    }
}

/// An empty vector with room for exactly `len` values, or an allocation
/// error.
fn reserved<T>(len: usize) -> Result<Vec<T>, GenerateError> {
    let mut v = Vec::new();
    v.try_reserve_exact(len)
        .map_err(|_| GenerateError::Allocation {
            bytes: (len * size_of::<T>()) as u64,
        })?;
    Ok(v)
}

/// A vector of `len` values made by `make`, filled in parallel, or an
/// allocation error.
fn try_vec<T: Send>(
    len: usize,
    make: impl Fn() -> T + Sync + Send,
) -> Result<Vec<T>, GenerateError> {
    let mut v = reserved(len)?;
    (0..len)
        .into_par_iter()
        .map(|_| make())
        .collect_into_vec(&mut v);
    Ok(v)
}

/// As [`try_vec`], reporting `per_item` units of progress an entry and
/// stopping early when the job is cancelled (filling a large vector is
/// where the system maps its pages in: seconds for gigabytes).
fn try_vec_reported<T: Send, F: Fn(Progress) + Sync>(
    len: usize,
    make: impl Fn() -> T + Sync + Send,
    report: &Reporter<'_, F>,
    per_item: u64,
) -> Result<Vec<T>, GenerateError> {
    const STRIDE: usize = 1 << 16;
    let mut v = reserved(len)?;
    v.spare_capacity_mut()[..len]
        .par_chunks_mut(STRIDE)
        .for_each(|chunk| {
            if report.cancelled() {
                return;
            }
            for slot in chunk.iter_mut() {
                slot.write(make());
            }
            report.add(per_item * chunk.len() as u64);
        });
    // A chunk is skipped only once the job is cancelled, and a cancelled
    // handle stays cancelled: past this check every chunk was written.
    // (When cancelled, the entries written are never dropped: the vector
    // still has length 0.)
    report.check()?;
    // SAFETY: the capacity is at least `len` (`reserved`), and each of the
    // first `len` slots was written above, every chunk having run to its
    // end.
    unsafe { v.set_len(len) };
    Ok(v)
}

/// What a job's workers are handed besides its data: the progress
/// callback and the handle that cancels the job.
struct Hooks<'a, F: Fn(Progress) + Sync> {
    progress: &'a F,
    cancel: Option<&'a Cancel>,
}

/// Calls the progress callback from any thread, in order: `done` never
/// decreases, and a report that would not advance is dropped. It also
/// says whether the job was cancelled: a worker skips its chunk once it
/// is, and the job returns [`GenerateError::Cancelled`] at the next
/// [`check`](Reporter::check).
struct Reporter<'a, F: Fn(Progress) + Sync> {
    callback: &'a F,
    cancel: Option<&'a Cancel>,
    phase: Phase,
    total: u64,
    done: AtomicU64,
    reported: Mutex<u64>,
}

impl<'a, F: Fn(Progress) + Sync> Reporter<'a, F> {
    fn start(hooks: &Hooks<'a, F>, phase: Phase, total: u64) -> Self {
        (hooks.progress)(Progress {
            phase,
            done: 0,
            total,
        });
        Reporter {
            callback: hooks.progress,
            cancel: hooks.cancel,
            phase,
            total,
            done: AtomicU64::new(0),
            reported: Mutex::new(0),
        }
    }

    /// Whether the job was cancelled: a worker skips what is left of its
    /// work.
    fn cancelled(&self) -> bool {
        self.cancel.is_some_and(Cancel::is_cancelled)
    }

    /// [`GenerateError::Cancelled`] once the job is cancelled: called
    /// after each parallel pass, before its results are used.
    fn check(&self) -> Result<(), GenerateError> {
        if self.cancelled() {
            return Err(GenerateError::Cancelled);
        }
        Ok(())
    }

    fn add(&self, units: u64) {
        let done = self.done.fetch_add(units, Relaxed) + units;
        // A thread that finds the lock taken skips its report: the next
        // one (or the final one) carries the count.
        if let Ok(mut reported) = self.reported.try_lock()
            && done > *reported
            && done < self.total
        {
            *reported = done;
            (self.callback)(Progress {
                phase: self.phase,
                done,
                total: self.total,
            });
        }
    }

    fn finish(self) {
        let _guard = self.reported.lock();
        (self.callback)(Progress {
            phase: self.phase,
            done: self.total,
            total: self.total,
        });
    }
}
