//! The Game of Euler's tables of any shape up to 36 squares: who wins
//! every position (retrograde analysis, one bit a position) and, wherever
//! they fit in memory, moves left and a best move (the depth pass), on
//! every core.

use std::path::PathBuf;
use std::time::Duration;

use boardbase_tables::euler::depth;
use boardbase_tables::euler::winloss::{self, WinLossSolver};
use boardbase_tables::shape::Shape;

use super::euler_classes::{self, euler_classes_full_memory, euler_classes_memory};
use super::euler_ranks::{self, RanksOptions};
use super::euler_tables::EulerTables;
use super::euler_winloss;
use super::{
    Cancel, GenerateError, Hooks, Progress, Puzzle, SMALL_ALLOCATIONS, check_cells, check_memory,
    in_pool, pool_threads,
};
use crate::memory::available_memory;
use crate::ranks::Solo;

/// The most squares of an Euler board: 36 (2^36 positions, a bitset of
/// 8 GiB).
pub const EULER_MAX_CELLS: usize = Puzzle::Euler.max_cells();

/// The best-move entry of the full board, which has no move.
pub use depth::NO_MOVE;

/// How to generate Euler tables.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EulerOptions {
    /// Only the win/loss bits, even where the full tables would fit in
    /// memory (see [`euler_full_tables`]).
    pub wdl_only: bool,
    /// Threads to use: `None` for rayon's global pool (every core), or a
    /// dedicated pool of this many threads.
    pub threads: Option<usize>,
    /// Refuse the job, before allocating anything, when it needs more than
    /// this many bytes; the full tables are made only when they fit in it.
    /// `None`: no limit, and the full tables are made when they fit in the
    /// memory available ([`available_memory`]).
    pub memory_limit: Option<u64>,
    /// Stop early, with [`GenerateError::Cancelled`], once this handle is
    /// cancelled (checked between chunks of work: within a fraction of a
    /// second). `None`: run to the end.
    pub cancel: Option<Cancel>,
    /// Save each win/loss layer to this checkpoint file as it completes,
    /// and the moves-left pass's columns after its steps, and first resume
    /// from what it holds (see [`checkpoint`](super::checkpoint)); a
    /// checkpoint that does not match the run or is damaged is refused
    /// with [`GenerateError::Checkpoint`]. It is left in place: a
    /// [`Job`](super::Job) removes it once its table file is written.
    /// `None`: no checkpoint.
    pub checkpoint: Option<PathBuf>,
    /// Save the finished layers to the checkpoint at most this often, and
    /// only while saving has taken at most 10 % of the pass's time so far
    /// (at the disk speed measured by the saves before): a short run saves
    /// little and pays little, a long one saves nearly everything. The
    /// moves-left pass saves a step at most this often too, and never
    /// sooner than ten times the CPU time its last save took (a writer
    /// thread saves while the pass goes on). Zero (the default here):
    /// after every layer and every step, whatever it costs.
    pub checkpoint_every: Duration,
    /// One entry a class of positions under the board's symmetries
    /// ([`Classes`](crate::tables::classes::Classes)): the solvers visit
    /// the classes, in about 1/8 of the memory on a square board (1/4 on
    /// another rectangle), and the tables' columns are in the classes'
    /// order. The full tables then hold moves left but no best moves
    /// ([`EulerTables::best_move`] finds them from the successors' moves
    /// left). The checkpoint then holds the entries by class.
    pub symmetry: bool,
}

/// Whether the Euler tables of `shape` with `options` include the depth
/// columns (moves left, best move): unless
/// [`wdl_only`](EulerOptions::wdl_only) is asked, whenever they fit in the
/// memory limit ([`euler_full_memory`] at most
/// [`memory_limit`](EulerOptions::memory_limit), or the memory available
/// where no limit is given and the system says). Nothing else caps them:
/// a best move is an index into a move list of at most 160 moves, moves
/// left at most 36, a byte each.
///
/// ```
/// use boardbase::generate::{self, EulerOptions};
/// use boardbase::tables::shape::Shape;
///
/// // 5×6: full tables in 2.5 GiB, win/loss only in 129 MiB.
/// let shape = Shape::new(5, 6).unwrap();
/// let gib = |n: u64| EulerOptions { memory_limit: Some(n << 30), ..Default::default() };
/// assert!(generate::euler_full_tables(shape, &gib(3)));
/// assert!(!generate::euler_full_tables(shape, &gib(2)));
/// let wdl = EulerOptions { wdl_only: true, ..gib(3) };
/// assert!(!generate::euler_full_tables(shape, &wdl));
/// ```
pub fn euler_full_tables(shape: Shape, options: &EulerOptions) -> bool {
    if options.wdl_only || check_cells(Puzzle::Euler, shape).is_err() {
        return false;
    }
    let limit = match options.memory_limit {
        Some(limit) => limit,
        None => available_memory().unwrap_or(u64::MAX),
    };
    let needed = if options.symmetry {
        euler_classes_full_memory(shape, options.threads)
    } else {
        euler_full_memory(shape, options.threads)
    };
    needed <= limit
}

/// Bytes an Euler job of `shape` on `threads` threads (`None`: every core)
/// allocates when it makes the full tables (see [`euler_memory`]), whether
/// or not it would: what a plan says the full tables would take.
pub fn euler_full_memory(shape: Shape, threads: Option<usize>) -> u64 {
    shape_memory(shape, threads, true)
}

/// Bytes an Euler job allocates: the bitset, the depth columns when made,
/// every thread's block buffer and the block lists.
///
/// ```
/// use boardbase::generate::{self, EulerOptions};
/// use boardbase::tables::shape::Shape;
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
    check_cells(Puzzle::Euler, shape)?;
    if options.symmetry {
        return Ok(if euler_full_tables(shape, options) {
            euler_classes_full_memory(shape, options.threads)
        } else {
            euler_classes_memory(shape, options.threads)
        });
    }
    Ok(shape_memory(
        shape,
        options.threads,
        euler_full_tables(shape, options),
    ))
}

/// [`euler_memory`] of a shape already checked, the full tables or not.
fn shape_memory(shape: Shape, threads: Option<usize>, full: bool) -> u64 {
    let wl = WinLossSolver::new(shape);
    let threads = pool_threads(threads) as u64;
    let mut bytes = wl.words() as u64 * 8;
    bytes += threads * (wl.block_words() * size_of::<winloss::Lanes>()) as u64;
    bytes += wl.blocks() as u64 * euler_winloss::BYTES_A_BLOCK;
    if full {
        // Plies and best moves, a byte each; three bitsets for the steps.
        let positions = 1u64 << shape.cells();
        bytes += 2 * positions + 3 * wl.words() as u64 * 8;
    }
    bytes + SMALL_ALLOCATIONS
}

/// Generates the Euler tables of `shape`: who wins every position and,
/// where made (see [`EulerOptions`]), the moves left and a best move.
/// `progress` is called from the worker threads (see [`Progress`]).
///
/// ```
/// use boardbase::euler::Outcome;
/// use boardbase::generate::{self, EulerOptions, Phase};
/// use boardbase::tables::shape::Shape;
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
    check_cells(Puzzle::Euler, shape)?;
    // Decided once: the memory available may change between two calls.
    let full = euler_full_tables(shape, options);
    let needed = if options.symmetry {
        if full {
            euler_classes_full_memory(shape, options.threads)
        } else {
            euler_classes_memory(shape, options.threads)
        }
    } else {
        shape_memory(shape, options.threads, full)
    };
    check_memory(Puzzle::Euler, shape, needed, options.memory_limit)?;
    let hooks = Hooks {
        progress: &progress,
        cancel: options.cancel.as_ref(),
    };
    if hooks.cancel.is_some_and(Cancel::is_cancelled) {
        return Err(GenerateError::Cancelled);
    }
    // One process is the job of one rank: the same pass, nothing
    // exchanged.
    let one = RanksOptions {
        full,
        exchange_bytes: 0,
        cancel: options.cancel.clone(),
        checkpoint: options.checkpoint.clone(),
        checkpoint_every: options.checkpoint_every,
    };
    in_pool(options.threads, || {
        if options.symmetry {
            euler_classes::make(shape, &one, &Solo, &hooks).map(|made| made.into_tables())
        } else {
            euler_ranks::make(shape, &one, &Solo, &hooks).map(|made| made.into_tables())
        }
    })
}
