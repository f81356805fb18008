//! Tables for boards of any size: the Game of Euler up to 36 squares, Flip
//! Game up to 25 cells, generated in memory on every core.
//!
//! The 4×4 tables embedded by `build.rs` come from the same solvers of the
//! `boardbase-solvers` crate ([`solvers::euler::winloss`],
//! [`solvers::euler::depth`], [`solvers::flip::search`]); this module runs them
//! on a thread pool (rayon) for any shape, says beforehand how much memory a
//! job takes, and reports progress. The result is one owned column per
//! quantity, in the layout of the version-2 table files, plus a summary.
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
//! * Euler: the full tables (win/loss, moves left and a best move) up to
//!   2^[`FULL_TABLES_MAX_CELLS`] positions (25 squares: 32 MiB a byte
//!   column), win/loss only above; [`EulerOptions::wdl_only`] forces
//!   win/loss only. At most [`EULER_MAX_CELLS`] squares (36: a bitset of
//!   8 GiB).
//! * Flip: at most [`FLIP_MAX_CELLS`] cells (25).
//! * Every core ([`threads`](EulerOptions::threads) `None`), no memory limit
//!   ([`memory_limit`](EulerOptions::memory_limit) `None`; a [`Job`], as
//!   the command line runs it, uses [`available_memory`]), not cancelled
//!   ([`cancel`](EulerOptions::cancel) `None`).
//!
//! ```
//! use boardbase::euler::Outcome;
//! use boardbase::generate::{self, EulerOptions};
//! use boardbase::solvers::shape::Shape;
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

use core::fmt;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use boardbase_solvers::euler::depth::{self, DepthSolver};
use boardbase_solvers::euler::winloss::{self, WinLossSolver, layer_members};
use boardbase_solvers::flip::search::{self, PressSet, Search};
use boardbase_solvers::shape::Shape;
use rayon::prelude::*;

use crate::euler::Outcome;
use crate::flip::{Colour, UNREACHABLE};
use crate::solvers;

/// The most squares of an Euler board: 36 (2^36 positions, a bitset of
/// 8 GiB).
pub const EULER_MAX_CELLS: usize = Puzzle::Euler.max_cells();

/// The most squares of an Euler board whose full tables (moves left and a
/// best move, one byte each a position) are made by default: 25
/// (2^25 positions, 32 MiB a column).
pub const FULL_TABLES_MAX_CELLS: usize = 25;

/// The most cells of a Flip board: 25 (2^25 boards).
pub const FLIP_MAX_CELLS: usize = Puzzle::Flip.max_cells();

/// The best-move entry of the full board, which has no move.
pub const NO_MOVE: u8 = depth::NO_MOVE;

/// Which puzzle a table is for: the same type as the table files'
/// [`tablefile::Puzzle`](crate::tablefile::Puzzle).
pub use crate::tablefile::Puzzle;
use crate::tablefile::{ColumnData, EulerColumns, FlipColumns as TableFlipColumns};

/// A number of bytes, displayed with a binary unit (`512 B`, `1.5 KiB`,
/// `8.00 GiB`).
///
/// ```
/// use boardbase::generate::ByteSize;
/// assert_eq!(ByteSize(512).to_string(), "512 B");
/// assert_eq!(ByteSize(1536).to_string(), "1.50 KiB");
/// assert_eq!(ByteSize(8 << 30).to_string(), "8.00 GiB");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct ByteSize(pub u64);

impl fmt::Display for ByteSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const UNITS: [&str; 6] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
        if self.0 < 1024 {
            return write!(f, "{} B", self.0);
        }
        let mut value = self.0 as f64;
        let mut unit = 0;
        while value >= 1024.0 && unit + 1 < UNITS.len() {
            value /= 1024.0;
            unit += 1;
        }
        write!(f, "{value:.2} {}", UNITS[unit])
    }
}

impl std::str::FromStr for ByteSize {
    type Err = String;

    /// A memory size as every option of boardbase takes it: a number
    /// (decimals allowed) and a unit, `K`/`M`/`G`/`T` or `KiB`/`MiB`/`GiB`/
    /// `TiB` (powers of 1024), `KB`/`MB`/`GB`/`TB` (powers of 1000), `B`
    /// (bytes); a bare number is MiB.
    ///
    /// ```
    /// use boardbase::generate::ByteSize;
    /// assert_eq!("9G".parse(), Ok(ByteSize(9 << 30)));
    /// assert_eq!("512M".parse(), Ok(ByteSize(512 << 20)));
    /// assert_eq!("512".parse(), Ok(ByteSize(512 << 20))); // MiB
    /// assert_eq!("1.5GiB".parse(), Ok(ByteSize(3 << 29)));
    /// assert_eq!("2GB".parse(), Ok(ByteSize(2_000_000_000)));
    /// assert_eq!("4096B".parse(), Ok(ByteSize(4096)));
    /// assert!("lots".parse::<ByteSize>().is_err());
    /// ```
    fn from_str(text: &str) -> Result<ByteSize, String> {
        let bad = || {
            format!("'{text}' is not a memory size like 8G, 512M or 9GiB (a bare number is MiB)")
        };
        let t = text.trim();
        let split = t
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(t.len());
        let (number, unit) = t.split_at(split);
        let value: f64 = number.parse().map_err(|_| bad())?;
        let multiplier: f64 = match unit.trim().to_ascii_lowercase().as_str() {
            "b" => 1.0,
            "k" | "kib" => 1024.0,
            "" | "m" | "mib" => 1024.0 * 1024.0,
            "g" | "gib" => 1024.0 * 1024.0 * 1024.0,
            "t" | "tib" => 1024.0 * 1024.0 * 1024.0 * 1024.0,
            "kb" => 1e3,
            "mb" => 1e6,
            "gb" => 1e9,
            "tb" => 1e12,
            _ => return Err(bad()),
        };
        let bytes = value * multiplier;
        if !bytes.is_finite() || bytes >= u64::MAX as f64 {
            return Err(bad());
        }
        Ok(ByteSize(bytes.round() as u64))
    }
}

/// Why a table could not be generated. Every check happens before anything
/// large is allocated.
#[derive(Debug, thiserror::Error)]
pub enum GenerateError {
    /// The board has more cells than the puzzle's tables allow.
    #[error("{puzzle} tables take at most {max} cells; {shape} has {cells}")]
    TooManyCells {
        /// The puzzle.
        puzzle: Puzzle,
        /// The shape asked for.
        shape: Shape,
        /// Its number of cells.
        cells: usize,
        /// The most the puzzle allows.
        max: usize,
    },
    /// The job needs more memory than the limit allows.
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
    /// The job's [`Cancel`] handle was cancelled: it stopped at its next
    /// check, and what it had made was dropped.
    #[error("cancelled")]
    Cancelled,
}

pub use crate::progress::{Cancel, Phase, Progress};

mod job;
pub use job::{
    EulerReport, FlipReport, Job, JobError, JobSetting, LimitFrom, MemoryLimit, Plan, Report,
    ReportSummary, RunFigures,
};

/// How to generate Euler tables.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EulerOptions {
    /// Only the win/loss bits, even where the full tables are the default
    /// (up to 2^[`FULL_TABLES_MAX_CELLS`] positions).
    pub wdl_only: bool,
    /// Threads to use: `None` for rayon's global pool (every core), or a
    /// dedicated pool of this many threads.
    pub threads: Option<usize>,
    /// Refuse the job, before allocating anything, when it needs more than
    /// this many bytes. `None`: no limit.
    pub memory_limit: Option<u64>,
    /// Stop early, with [`GenerateError::Cancelled`], once this handle is
    /// cancelled (checked between chunks of work: within a fraction of a
    /// second). `None`: run to the end.
    pub cancel: Option<Cancel>,
}

/// How to generate Flip tables.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FlipOptions {
    /// Threads to use: `None` for rayon's global pool (every core), or a
    /// dedicated pool of this many threads.
    pub threads: Option<usize>,
    /// Refuse the job, before allocating anything, when it needs more than
    /// this many bytes. `None`: no limit.
    pub memory_limit: Option<u64>,
    /// Stop early, with [`GenerateError::Cancelled`], once this handle is
    /// cancelled (checked between chunks of work: within a fraction of a
    /// second). `None`: run to the end.
    pub cancel: Option<Cancel>,
}

/// The memory available for a job, where the system says (Linux:
/// `MemAvailable` of `/proc/meminfo`), else `None`.
pub fn available_memory() -> Option<u64> {
    proc_kib("/proc/meminfo", "MemAvailable:")
}

/// The kernel's high-water mark of this process's resident set, in bytes:
/// `VmHWM` of `/proc/self/status`, the figure `getrusage` reports as
/// `ru_maxrss` (Linux; `None` elsewhere).
pub fn peak_memory() -> Option<u64> {
    proc_kib("/proc/self/status", "VmHWM:")
}

/// The bytes of the line `key  N kB` of a `/proc` file.
fn proc_kib(file: &str, key: &str) -> Option<u64> {
    let text = std::fs::read_to_string(file).ok()?;
    let line = text.lines().find(|l| l.starts_with(key))?;
    let kib: u64 = line[key.len()..]
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    kib.checked_mul(1024)
}

// ---------------------------------------------------------------- Euler --

/// The Euler tables of one shape, as owned columns (see the [module
/// docs](self) for the layout).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EulerTables {
    /// The board shape.
    pub shape: Shape,
    /// The move masks, in the order of
    /// [`solvers::euler::moves`]; best moves are indices into it.
    pub moves: Vec<u64>,
    /// One bit a position (bit `p % 64` of word `p / 64`), set when the
    /// player to move wins; the full board is set. At least one word; bits
    /// past `2^cells` are 0.
    pub winning: Vec<u64>,
    /// Moves left and best moves, when made (see [`EulerOptions`]).
    pub depth: Option<EulerDepth>,
    /// Counts and the empty board.
    pub summary: EulerSummary,
}

/// The depth columns of Euler tables: one byte a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EulerDepth {
    /// Moves left with perfect play (the winner hurries, the loser resists);
    /// 0 for the full board.
    pub plies: Vec<u8>,
    /// Index into [`EulerTables::moves`] of one best move (the fastest win,
    /// the longest resistance; ties to the first in list order);
    /// [`NO_MOVE`] for the full board.
    pub best_move: Vec<u8>,
}

/// What Euler tables say, in numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct EulerSummary {
    /// Positions: `2^cells`.
    pub positions: u64,
    /// Open positions won by the player to move (the full board is in
    /// neither count).
    pub winning: u64,
    /// Open positions lost by the player to move.
    pub losing: u64,
    /// Who wins the empty board.
    pub empty: Outcome,
    /// Moves left from the empty board with perfect play, when the depth
    /// columns were made.
    pub empty_moves_left: Option<u8>,
}

impl EulerTables {
    /// Whether the player to move wins `position` (bits in the shape's
    /// layout; the full board is won).
    ///
    /// # Panics
    ///
    /// Panics if `position` has bits outside the shape.
    pub fn winning(&self, position: u64) -> bool {
        assert!(position <= self.shape.full(), "a position of the shape");
        self.winning[(position / 64) as usize] >> (position % 64) & 1 == 1
    }

    /// Moves left with perfect play, when the depth columns were made.
    pub fn plies(&self, position: u64) -> Option<u8> {
        assert!(position <= self.shape.full(), "a position of the shape");
        self.depth.as_ref().map(|d| d.plies[position as usize])
    }

    /// The mask of the stored best move, when the depth columns were made
    /// and the position is open.
    pub fn best_move(&self, position: u64) -> Option<u64> {
        assert!(position <= self.shape.full(), "a position of the shape");
        let i = self.depth.as_ref()?.best_move[position as usize];
        (i != NO_MOVE).then(|| self.moves[usize::from(i)])
    }
}

/// Whether the Euler tables of `shape` with `options` include the depth
/// columns (moves left, best move).
pub fn euler_full_tables(shape: Shape, options: &EulerOptions) -> bool {
    !options.wdl_only && shape.cells() <= FULL_TABLES_MAX_CELLS
}

fn check_cells(puzzle: Puzzle, shape: Shape, max: usize) -> Result<(), GenerateError> {
    if shape.cells() > max {
        return Err(GenerateError::TooManyCells {
            puzzle,
            shape,
            cells: shape.cells(),
            max,
        });
    }
    Ok(())
}

/// Small allocations of a job besides its tables (move lists, per-layer
/// lists, histograms): a generous fixed allowance.
const SMALL_ALLOCATIONS: u64 = 1 << 20;

fn pool_threads(threads: Option<usize>) -> usize {
    threads.unwrap_or_else(rayon::current_num_threads).max(1)
}

/// Bytes an Euler job allocates: the bitset, the depth columns when made,
/// every thread's block buffer and the block lists.
///
/// ```
/// use boardbase::generate::{self, EulerOptions};
/// use boardbase::solvers::shape::Shape;
///
/// // 6×6, win/loss only: a bitset of 2^36 bits (8 GiB) and little else.
/// let six = Shape::new(6, 6).unwrap();
/// let bytes = generate::euler_memory(six, &EulerOptions::default())?;
/// assert!(bytes >= 8 << 30 && bytes < (8 << 30) + (64 << 20));
/// // Too big: an error, not a number.
/// assert!(generate::euler_memory(Shape::new(6, 7).unwrap(), &EulerOptions::default()).is_err());
/// # Ok::<(), boardbase::generate::GenerateError>(())
/// ```
pub fn euler_memory(shape: Shape, options: &EulerOptions) -> Result<u64, GenerateError> {
    check_cells(Puzzle::Euler, shape, EULER_MAX_CELLS)?;
    let wl = WinLossSolver::new(shape);
    let threads = pool_threads(options.threads) as u64;
    let mut bytes = wl.words() as u64 * 8;
    bytes += threads * (wl.block_words() * size_of::<winloss::Lanes>()) as u64;
    bytes += wl.blocks() as u64 * 8;
    if euler_full_tables(shape, options) {
        // Plies and best moves, a byte each; three bitsets for the steps.
        let positions = 1u64 << shape.cells();
        bytes += 2 * positions + 3 * wl.words() as u64 * 8;
    }
    Ok(bytes + SMALL_ALLOCATIONS)
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
        if let Ok(mut reported) = self.reported.try_lock() {
            if done > *reported && done < self.total {
                *reported = done;
                (self.callback)(Progress {
                    phase: self.phase,
                    done,
                    total: self.total,
                });
            }
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

/// Generates the Euler tables of `shape`: who wins every position and,
/// where made (see [`EulerOptions`]), the moves left and a best move.
/// `progress` is called from the worker threads (see [`Progress`]).
///
/// ```
/// use boardbase::euler::Outcome;
/// use boardbase::generate::{self, EulerOptions, Phase};
/// use boardbase::solvers::shape::Shape;
/// use std::sync::Mutex;
///
/// // 4×5, win/loss only, on two threads, with the phases seen.
/// //   . . . . .
/// //   . . . . .      the empty board: the player to move loses
/// //   . . . . .
/// //   . . . . .
/// let options = EulerOptions { wdl_only: true, threads: Some(2), ..Default::default() };
/// let phases = Mutex::new(Vec::new());
/// let tables = generate::euler(Shape::new(4, 5).unwrap(), &options, |p| {
///     if p.done == p.total {
///         phases.lock().unwrap().push(p.phase);
///     }
/// })?;
/// assert_eq!(phases.into_inner().unwrap(), [Phase::Allocate, Phase::WinLoss]);
/// assert_eq!(tables.winning.len(), (1 << 20) / 64);
/// assert!(tables.depth.is_none());
/// assert!(!tables.winning(0));
/// assert_eq!(tables.summary.empty, Outcome::Loss);
/// assert_eq!(tables.summary.losing, 235_362);
/// # Ok::<(), boardbase::generate::GenerateError>(())
/// ```
///
/// # Errors
///
/// [`GenerateError::TooManyCells`] past [`EULER_MAX_CELLS`],
/// [`GenerateError::OverMemoryLimit`] when [`euler_memory`] exceeds the
/// limit, and the errors of starting threads or allocating;
/// [`GenerateError::Cancelled`] once [`cancel`](EulerOptions::cancel) is
/// cancelled.
pub fn euler<F: Fn(Progress) + Sync>(
    shape: Shape,
    options: &EulerOptions,
    progress: F,
) -> Result<EulerTables, GenerateError> {
    let needed = euler_memory(shape, options)?;
    check_memory(Puzzle::Euler, shape, needed, options.memory_limit)?;
    let full = euler_full_tables(shape, options);
    let hooks = Hooks {
        progress: &progress,
        cancel: options.cancel.as_ref(),
    };
    if hooks.cancel.is_some_and(Cancel::is_cancelled) {
        return Err(GenerateError::Cancelled);
    }
    in_pool(options.threads, || euler_in_pool(shape, full, &hooks))
}

fn euler_in_pool<F: Fn(Progress) + Sync>(
    shape: Shape,
    full: bool,
    hooks: &Hooks<'_, F>,
) -> Result<EulerTables, GenerateError> {
    let positions = 1u64 << shape.cells();
    let wl = WinLossSolver::new(shape);
    let report = Reporter::start(hooks, Phase::Allocate, positions);
    let per_word = positions / wl.words() as u64;
    let bits = try_vec_reported(wl.words(), || AtomicU64::new(0), &report, per_word)?;
    report.finish();

    let report = Reporter::start(hooks, Phase::WinLoss, positions);
    let per_block = wl.block_positions();
    let mut won = 0;
    for layer in (0..=wl.top_bits()).rev() {
        let blocks: Vec<usize> = layer_members(wl.top_bits(), layer).collect();
        won += blocks
            .par_chunks(winloss::LANES)
            .map_init(
                || vec![[0u64; winloss::LANES]; wl.block_words()],
                |acc, lanes| {
                    if report.cancelled() {
                        return 0;
                    }
                    let won = wl.solve_blocks(lanes, &bits, acc);
                    report.add(per_block * lanes.len() as u64);
                    won
                },
            )
            .sum::<u64>();
        // A layer reads the layers above it: a skipped block stops the job.
        report.check()?;
    }
    report.finish();
    // Same size and alignment: collected in place, no second bitset.
    let winning: Vec<u64> = bits.into_iter().map(AtomicU64::into_inner).collect();

    let depth = if full {
        Some(euler_depth(shape, &winning, hooks)?)
    } else {
        // No depth pass to check every bit against its successors: check an
        // even sample of words, about 16,000.
        let solver = DepthSolver::new(shape);
        let step = (winning.len() >> 14).max(1);
        (0..winning.len())
            .into_par_iter()
            .step_by(step)
            .for_each(|w| solver.check(&winning, w, 1));
        None
    };

    // Bits past 2^cells (boards of under 6 squares) are 0; the full board is
    // won but not open.
    let summary = EulerSummary {
        positions,
        winning: won - 1,
        losing: positions - won,
        empty: if winning[0] & 1 == 1 {
            Outcome::Win
        } else {
            Outcome::Loss
        },
        empty_moves_left: depth.as_ref().map(|d| d.plies[0]),
    };
    Ok(EulerTables {
        shape,
        moves: solvers::euler::moves(shape).as_slice().to_vec(),
        winning,
        depth,
        summary,
    })
}

/// The depth pass on every core: the check of the win/loss bits, then the
/// steps `A(0)`, `A(1)`, ... over chunks of words.
fn euler_depth<F: Fn(Progress) + Sync>(
    shape: Shape,
    winning: &[u64],
    hooks: &Hooks<'_, F>,
) -> Result<EulerDepth, GenerateError> {
    let solver = DepthSolver::new(shape);
    let positions = solver.positions();
    let words = solver.words();
    let per_word = positions / words;
    let mut plies = try_vec(positions, || 0u8)?;
    let mut best_move = try_vec(positions, || 0u8)?;
    let mut sets = [
        try_vec(words, || 0u64)?,
        try_vec(words, || 0u64)?,
        try_vec(words, || 0u64)?,
    ];
    let chunk = DEPTH_CHUNK_WORDS;
    let report = Reporter::start(hooks, Phase::Depth, positions as u64);
    winning.par_chunks(chunk).enumerate().for_each(|(i, c)| {
        if !report.cancelled() {
            solver.check(winning, i * chunk, c.len());
        }
    });
    let mut taken = 0;
    let mut d = 0u8;
    while taken < positions as u64 {
        report.check()?;
        // A(d) goes to sets[d % 3]; A(d - 1) and A(d - 2) are the others.
        let [a, b, c] = &mut sets;
        let (next, prev, prev2) = match d % 3 {
            0 => (a, &*c, &*b),
            1 => (b, &*a, &*c),
            _ => (c, &*b, &*a),
        };
        let rows = next
            .par_chunks_mut(chunk)
            .zip(plies.par_chunks_mut(chunk * per_word))
            .zip(best_move.par_chunks_mut(chunk * per_word))
            .enumerate();
        taken += if d == 0 {
            rows.map(|(i, ((next, plies), best))| solver.start(i * chunk, next, plies, best))
                .sum::<u64>()
        } else {
            assert!(
                usize::from(d) <= shape.cells(),
                "every position is taken in"
            );
            rows.map(|(i, ((next, plies), best))| {
                if report.cancelled() {
                    return 0;
                }
                solver.step(d, winning, prev, prev2, i * chunk, next, plies, best)
            })
            .sum::<u64>()
        };
        // A step reads the two before it: a skipped chunk stops the job.
        report.check()?;
        report.add(taken - report.done.load(Relaxed));
        d += 1;
    }
    report.finish();
    Ok(EulerDepth { plies, best_move })
}

/// Words a task of the depth pass takes: 1,024 (65,536 positions).
const DEPTH_CHUNK_WORDS: usize = 1 << 10;

// ----------------------------------------------------------------- Flip --

/// The Flip columns towards one colour.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ColourColumns {
    /// Fewest rounds to the colour, [`UNREACHABLE`] when it cannot be
    /// reached.
    pub rounds: Vec<u8>,
    /// One optimal press set, 0 when unreachable: the table file's column,
    /// in the narrowest of `U8`, `U16`, `U32` that holds the shape's cells
    /// ([`presses_width`](crate::tablefile::presses_width)).
    pub presses: ColumnData,
    /// Number of distinct optimal press sets, 0 when unreachable.
    pub optimal_sets: Vec<u8>,
}

/// The Flip tables of one shape, as owned columns (see the [module
/// docs](self) for the layout).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FlipTables {
    /// The board shape.
    pub shape: Shape,
    /// Fewest rounds to the closer colour, [`UNREACHABLE`] when neither can
    /// be reached: the judge's answer in one read.
    pub rounds: Vec<u8>,
    /// The columns towards white and black, indexed by [`Colour::index`].
    pub colours: [ColourColumns; 2],
    /// Counts.
    pub summary: FlipSummary,
}

/// What Flip tables say, in numbers.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct FlipSummary {
    /// Boards: `2^cells`.
    pub boards: u64,
    /// Boards that reach one colour or both.
    pub solvable: u64,
    /// Boards that reach each colour (white, black): `2^rank` of the press
    /// masks each.
    pub reach: [u64; 2],
    /// Solvable boards by fewest rounds to the closer colour: index = rounds.
    pub histogram: Vec<u64>,
    /// The most rounds any solvable board needs.
    pub max_rounds: u8,
}

impl FlipTables {
    /// The columns towards `colour`.
    pub fn colour(&self, colour: Colour) -> &ColourColumns {
        &self.colours[colour.index()]
    }

    /// Fewest rounds from `board` to the closer colour, `None` when neither
    /// can be reached.
    ///
    /// # Panics
    ///
    /// Panics if `board` has bits outside the shape.
    pub fn rounds(&self, board: u64) -> Option<u8> {
        assert!(board <= self.shape.full(), "a board of the shape");
        Some(self.rounds[board as usize]).filter(|&r| r != UNREACHABLE)
    }
}

/// Bytes a Flip job allocates: per colour the rounds, press sets and set
/// counts; the closer-colour rounds; the search's bitsets.
///
/// ```
/// use boardbase::generate::{self, FlipOptions};
/// use boardbase::solvers::shape::Shape;
///
/// // 5×5: 2^25 boards, 4-byte press sets: 13 bytes a board; and 9 bitsets
/// // of 4 MiB (boards seen; two levels, each with 3 bit-planes of set
/// // counts: up to 4 optimal sets a board).
/// let five = Shape::new(5, 5).unwrap();
/// let bytes = generate::flip_memory(five, &FlipOptions::default())?;
/// assert_eq!(bytes, (13 << 25) + (9 << 22) + (1 << 20));
/// # Ok::<(), boardbase::generate::GenerateError>(())
/// ```
pub fn flip_memory(shape: Shape, options: &FlipOptions) -> Result<u64, GenerateError> {
    check_cells(Puzzle::Flip, shape, FLIP_MAX_CELLS)?;
    let _ = options;
    let boards = 1u64 << shape.cells();
    let press_bytes = u64::from(search::press_bits(shape.cells()) / 8);
    // Rounds, press sets and set counts per colour; the closer rounds; for
    // the search, the bitset of boards seen and two levels of bit-planes.
    let search = Search::new(shape, 0);
    let bitsets = (1 + 2 * search.stride() as u64) * search.words() as u64 * 8;
    Ok(boards * (2 * (1 + press_bytes + 1) + 1) + bitsets + SMALL_ALLOCATIONS)
}

/// Generates the Flip tables of `shape`: for every board and colour the
/// fewest rounds, one optimal press set and the number of optimal sets.
/// `progress` is called from the worker threads (see [`Progress`]).
///
/// ```
/// use boardbase::flip::Colour;
/// use boardbase::generate::{self, FlipOptions};
/// use boardbase::solvers::shape::Shape;
///
/// // Flip Game on 3×3: all 512 boards can be made one colour.
/// //   b w w      pressing the corner flips it and its two neighbours, so
/// //   w w w      one black corner takes more than one press: the only
/// //   w w w      way to white is 5 presses.
/// let tables = generate::flip(Shape::new(3, 3).unwrap(), &FlipOptions::default(), |_| {})?;
/// let white = tables.colour(Colour::White);
/// let board = 0b000_000_001;
/// assert_eq!(white.rounds[board as usize], 5);
/// assert_eq!(white.optimal_sets[board as usize], 1);
/// //   o . o
/// //   . . o      the cells to press
/// //   o o .
/// assert_eq!(white.presses.get(board), 0b011_100_101);
/// assert_eq!(tables.summary.reach, [512, 512]);
/// assert_eq!(tables.summary.solvable, 512);
/// assert_eq!(tables.summary.histogram.iter().sum::<u64>(), 512);
/// assert_eq!(tables.rounds(0), Some(0));
/// # Ok::<(), boardbase::generate::GenerateError>(())
/// ```
///
/// # Errors
///
/// [`GenerateError::TooManyCells`] past [`FLIP_MAX_CELLS`],
/// [`GenerateError::OverMemoryLimit`] when [`flip_memory`] exceeds the
/// limit, and the errors of starting threads or allocating;
/// [`GenerateError::Cancelled`] once [`cancel`](FlipOptions::cancel) is
/// cancelled.
pub fn flip<F: Fn(Progress) + Sync>(
    shape: Shape,
    options: &FlipOptions,
    progress: F,
) -> Result<FlipTables, GenerateError> {
    let needed = flip_memory(shape, options)?;
    check_memory(Puzzle::Flip, shape, needed, options.memory_limit)?;
    let hooks = Hooks {
        progress: &progress,
        cancel: options.cancel.as_ref(),
    };
    if hooks.cancel.is_some_and(Cancel::is_cancelled) {
        return Err(GenerateError::Cancelled);
    }
    in_pool(options.threads, || {
        match search::press_bits(shape.cells()) {
            8 => flip_in_pool::<u8, F>(shape, &hooks, ColumnData::U8),
            16 => flip_in_pool::<u16, F>(shape, &hooks, ColumnData::U16),
            _ => flip_in_pool::<u32, F>(shape, &hooks, ColumnData::U32),
        }
    })
}

/// Words a task of the Flip search takes: 1,024 (65,536 boards).
const FLIP_CHUNK_WORDS: usize = 1 << 10;

/// One colour's search on every core, reporting boards reached.
type Columns<P> = (Vec<u8>, Vec<P>, Vec<u8>);

fn search_colour<P: PressSet, F: Fn(Progress) + Sync>(
    shape: Shape,
    target: u64,
    report: &Reporter<'_, F>,
) -> Result<Columns<P>, GenerateError> {
    let search = Search::new(shape, target);
    let boards = search.boards();
    let words = search.words();
    let per_word = boards / words;
    let chunk = FLIP_CHUNK_WORDS;
    let stride = search.stride();
    let mut rounds = try_vec(boards, || UNREACHABLE)?;
    let presses = try_vec(boards, || P::atomic(P::default()))?;
    let mut sets = try_vec(boards, || 0u8)?;
    let mut seen = try_vec(words, || 0u64)?;
    let mut level = try_vec(words * stride, || 0u64)?;
    let mut next = try_vec(words * stride, || 0u64)?;
    search.start::<P>(&mut seen, &mut level, &mut rounds, &presses, &mut sets);
    report.add(1);
    let mut reached = 1u64;
    let mut d = 0u8;
    loop {
        d += 1;
        let level_words: &[u64] = &level;
        let found: u64 = seen
            .par_chunks_mut(chunk)
            .zip(next.par_chunks_mut(chunk * stride))
            .zip(rounds.par_chunks_mut(chunk * per_word))
            .zip(sets.par_chunks_mut(chunk * per_word))
            .enumerate()
            .map(|(i, (((seen, next), rounds), sets))| {
                if report.cancelled() {
                    return 0;
                }
                let found = search.step::<P>(
                    d,
                    level_words,
                    i * chunk,
                    seen,
                    next,
                    rounds,
                    sets,
                    &presses,
                );
                report.add(found);
                found
            })
            .sum();
        // A level is made from the one before: a skipped chunk stops the
        // job.
        report.check()?;
        if found == 0 {
            break;
        }
        reached += found;
        std::mem::swap(&mut level, &mut next);
    }
    drop((seen, level, next));
    assert_eq!(
        reached,
        1 << search::rank(shape),
        "2^rank boards reach a colour"
    );
    // Same sizes and alignments: collected in place.
    let presses: Vec<P> = presses.into_iter().map(P::into_inner).collect();
    let chunk = chunk * per_word;
    rounds
        .par_chunks(chunk)
        .zip(presses.par_chunks(chunk))
        .zip(sets.par_chunks(chunk))
        .enumerate()
        .for_each(|(i, ((r, p), s))| {
            if !report.cancelled() {
                search.check(i * chunk, r, p, s);
            }
        });
    report.check()?;
    Ok((rounds, presses, sets))
}

fn flip_in_pool<P: PressSet, F: Fn(Progress) + Sync>(
    shape: Shape,
    hooks: &Hooks<'_, F>,
    column: fn(Vec<P>) -> ColumnData,
) -> Result<FlipTables, GenerateError> {
    let boards = 1u64 << shape.cells();
    let reach = 1u64 << search::rank(shape);
    let report = Reporter::start(hooks, Phase::Search, reach);
    let white = search_colour::<P, F>(shape, 0, &report)?;
    let cancelled = || match hooks.cancel {
        Some(cancel) if cancel.is_cancelled() => Err(GenerateError::Cancelled),
        _ => Ok(()),
    };
    report.finish();
    // Towards black: the search towards white translated by the full
    // board, entry b ⊕ full = full - b, the columns reversed.
    let reversed = |v: &[u8]| -> Result<Vec<u8>, GenerateError> {
        let mut out = try_vec(v.len(), || 0u8)?;
        out.par_iter_mut()
            .zip(v.par_iter().rev())
            .for_each(|(o, &x)| *o = x);
        Ok(out)
    };
    let mut black_presses = try_vec(white.1.len(), P::default)?;
    black_presses
        .par_iter_mut()
        .zip(white.1.par_iter().rev())
        .for_each(|(o, &x)| *o = x);
    let black = (reversed(&white.0)?, black_presses, reversed(&white.2)?);
    // White's columns were checked in full; black's are a copy, checked
    // on one chunk in 16.
    let black_search = Search::new(shape, shape.full());
    let chunk = FLIP_CHUNK_WORDS * 64;
    black
        .0
        .par_chunks(chunk)
        .zip(black.1.par_chunks(chunk))
        .zip(black.2.par_chunks(chunk))
        .enumerate()
        .filter(|(i, _)| i % 16 == 0)
        .for_each(|(i, ((r, p), s))| black_search.check(i * chunk, r, p, s));
    cancelled()?;

    let report = Reporter::start(hooks, Phase::Summary, boards);
    let mut rounds = try_vec(boards as usize, || 0u8)?;
    let chunk = 1 << 16;
    let histogram = rounds
        .par_chunks_mut(chunk)
        .zip(white.0.par_chunks(chunk).zip(black.0.par_chunks(chunk)))
        .map(|(out, (w, b))| {
            let mut histogram = vec![0u64; search::MAX_CELLS + 1];
            if report.cancelled() {
                return histogram;
            }
            for ((o, &w), &b) in out.iter_mut().zip(w).zip(b) {
                *o = w.min(b);
                if *o != UNREACHABLE {
                    histogram[usize::from(*o)] += 1;
                }
            }
            report.add(out.len() as u64);
            histogram
        })
        .reduce(
            || vec![0u64; search::MAX_CELLS + 1],
            |mut a, b| {
                for (x, y) in a.iter_mut().zip(b) {
                    *x += y;
                }
                a
            },
        );
    report.check()?;
    report.finish();
    let max_rounds = histogram.iter().rposition(|&n| n > 0).unwrap_or(0);
    let mut histogram = histogram;
    histogram.truncate(max_rounds + 1);
    let summary = FlipSummary {
        boards,
        solvable: histogram.iter().sum(),
        reach: [reach, reach],
        histogram,
        max_rounds: max_rounds as u8,
    };
    let columns = |(rounds, presses, optimal_sets): (Vec<u8>, Vec<P>, Vec<u8>)| ColourColumns {
        rounds,
        presses: column(presses),
        optimal_sets,
    };
    Ok(FlipTables {
        shape,
        rounds,
        colours: [columns(white), columns(black)],
        summary,
    })
}

// ------------------------------------------------- into table columns --

impl From<EulerTables> for EulerColumns {
    /// The generator's columns, taken as they are (nothing is copied).
    fn from(tables: EulerTables) -> EulerColumns {
        EulerColumns {
            winning: tables.winning,
            full: tables.depth.map(|d| (d.plies, d.best_move)),
        }
    }
}

impl From<FlipTables> for TableFlipColumns {
    /// The generator's columns, taken as they are (nothing is copied).
    fn from(tables: FlipTables) -> TableFlipColumns {
        let [white, black] = tables.colours;
        TableFlipColumns {
            rounds: tables.rounds,
            rounds_white: white.rounds,
            rounds_black: black.rounds,
            presses_white: white.presses,
            presses_black: black.presses,
            optimal_sets_white: white.optimal_sets,
            optimal_sets_black: black.optimal_sets,
        }
    }
}
