//! The Game of Euler's win/loss table with one entry a class of positions
//! under the board's symmetries ([`Classes`](crate::tables::classes::Classes)): the generator visits the
//! classes, not the positions, in 1/8 of the memory on a square board
//! (1/4 on another rectangle), on every core.

use std::sync::atomic::AtomicU64;

use boardbase_tables::euler::classes::{ClassSolver, DepthScratch, Scratch, SolverSizes};
use boardbase_tables::euler::moves;
use boardbase_tables::euler::winloss::LANES;
use boardbase_tables::shape::Shape;
use rayon::prelude::*;

use super::euler_tables::{EulerDepth, EulerSummary, EulerTables};
use super::{GenerateError, Hooks, Phase, Progress, Reporter, SMALL_ALLOCATIONS, pool_threads};
use crate::euler::Outcome;

/// Bytes the class solver of `shape` allocates on `threads` threads
/// (`None`: every core) for the win/loss table: one bit an entry, each
/// thread's scratch, and the index's tables ([`SolverSizes`], counted
/// without making anything).
///
/// ```
/// use boardbase::generate;
/// use boardbase::tables::shape::Shape;
///
/// // 6×6: 131,976 classes of 2^16 entries, a bitset of 1.01 GiB
/// // (2^36 positions take 8 GiB without symmetry).
/// let bytes = generate::euler_classes_memory(Shape::new(6, 6).unwrap(), Some(2));
/// assert!(bytes > 131_976 << 13 && bytes < (131_976 << 13) + (16 << 20));
/// ```
pub fn euler_classes_memory(shape: Shape, threads: Option<usize>) -> u64 {
    let sizes = SolverSizes::of_shape(shape);
    let threads = pool_threads(threads) as u64;
    sizes.words() as u64 * 8
        + threads * sizes.scratch_bytes()
        + sizes.index_bytes()
        + SMALL_ALLOCATIONS
}

/// Bytes the class solver of `shape` allocates for the full tables:
/// [`euler_classes_memory`], then a byte of moves left an entry, two
/// bitsets for the steps of the depth pass and each thread's scratch.
///
/// ```
/// use boardbase::generate;
/// use boardbase::tables::shape::Shape;
///
/// // 6×6: 8.65 G entries of moves left (8.06 GiB) and three bitsets of
/// // 1.01 GiB: 11.1 GiB (160 GiB by position, with best moves).
/// let bytes = generate::euler_classes_full_memory(Shape::new(6, 6).unwrap(), Some(2));
/// assert!(bytes > 11 << 30 && bytes < 12 << 30);
/// ```
pub fn euler_classes_full_memory(shape: Shape, threads: Option<usize>) -> u64 {
    let sizes = SolverSizes::of_shape(shape);
    let threads = pool_threads(threads) as u64;
    euler_classes_memory(shape, Some(threads as usize))
        + sizes.index().entries()
        + 2 * sizes.words() as u64 * 8
        + threads * sizes.depth_scratch_bytes()
}

/// Solves `shape`'s win/loss table by class on the current pool, layer by
/// layer, and with `full` its moves left: [`EulerTables`] whose columns
/// are in the order of [`Classes::index`](crate::tables::classes::Classes::index) (moves left without best moves:
/// see [`EulerTables::best_move`]).
pub(super) fn solve<F: Fn(Progress) + Sync>(
    shape: Shape,
    full: bool,
    hooks: &Hooks<'_, F>,
) -> Result<EulerTables, GenerateError> {
    let report = Reporter::start(hooks, Phase::Allocate, 1);
    let solver = ClassSolver::new(shape);
    let n = solver.block_words();
    let bits: Vec<AtomicU64> = super::try_vec(solver.words(), || AtomicU64::new(0))?;
    report.finish();

    let entries = solver.classes().entries();
    let report = Reporter::start(hooks, Phase::WinLoss, entries);
    let block = |c: usize| &bits[c * n..][..n];
    let mut won = 0;
    for layer in solver.layers() {
        won += layer
            .par_chunks(LANES)
            .map_init(
                || None::<Scratch>,
                |scratch, chunk| {
                    if report.cancelled() {
                        return 0;
                    }
                    let scratch = scratch.get_or_insert_with(|| solver.scratch());
                    let won = solver.solve_classes_by(chunk, block, scratch);
                    report.add((chunk.len() as u64) << solver.classes().rest_bits());
                    won
                },
            )
            .sum::<u64>();
        // A later layer reads this one whole: stop before it if cancelled.
        report.check()?;
    }
    report.finish();

    let winning: Vec<u64> = bits.into_iter().map(AtomicU64::into_inner).collect();
    let depth = if full {
        Some(depth_pass(&solver, &winning, hooks)?)
    } else {
        None
    };
    let positions = 1u64 << shape.cells();
    let summary = EulerSummary {
        positions,
        // The full board counts as won; it is in neither count.
        winning: won - 1,
        losing: positions - won,
        empty: if winning[0] & 1 == 1 {
            Outcome::Win
        } else {
            Outcome::Loss
        },
        empty_moves_left: depth.as_ref().map(|plies| plies[0]),
    };
    Ok(EulerTables {
        shape,
        moves: moves(shape).as_slice().to_vec(),
        winning,
        depth: depth.map(|plies| EulerDepth {
            plies,
            best_move: Vec::new(),
        }),
        summary,
        classes: Some(solver.into_classes()),
    })
}

/// Entries of the classes a task of the depth pass takes: 64 classes (4 Mi
/// entries at 6×6).
const DEPTH_CHUNK_CLASSES: usize = 64;

/// The depth pass by class on the current pool: the moves left of every
/// entry, step by step (each step reads the one before whole).
fn depth_pass<F: Fn(Progress) + Sync>(
    solver: &ClassSolver,
    winning: &[u64],
    hooks: &Hooks<'_, F>,
) -> Result<Vec<u8>, GenerateError> {
    let entries = solver.classes().entries();
    let words = solver.words();
    let n = solver.block_words();
    let per_class = (entries as usize) / solver.classes().classes();
    let mut plies = super::try_vec(entries as usize, || 0u8)?;
    let mut prev = super::try_vec(words, || 0u64)?;
    let mut next = super::try_vec(words, || 0u64)?;
    let report = Reporter::start(hooks, Phase::Depth, entries);
    let all = 0..solver.classes().classes();
    let mut taken = solver.depth_start(all, &mut prev, &mut plies);
    report.add(taken);
    let mut d = 0u8;
    while taken < entries {
        d += 1;
        assert!(
            usize::from(d) <= solver.classes().cells(),
            "every entry is taken in"
        );
        let step = next
            .par_chunks_mut(DEPTH_CHUNK_CLASSES * n)
            .zip(plies.par_chunks_mut(DEPTH_CHUNK_CLASSES * per_class))
            .enumerate()
            .map_init(
                || None::<DepthScratch>,
                |scratch, (i, (next, plies))| {
                    if report.cancelled() {
                        return 0;
                    }
                    let scratch = scratch.get_or_insert_with(|| solver.depth_scratch());
                    let first = i * DEPTH_CHUNK_CLASSES;
                    let classes = first..first + next.len() / n;
                    let step = solver.depth_step(d, winning, &prev, classes, next, plies, scratch);
                    report.add(step);
                    step
                },
            )
            .sum::<u64>();
        // The next step reads this one whole.
        report.check()?;
        taken += step;
        std::mem::swap(&mut prev, &mut next);
    }
    report.finish();
    Ok(plies)
}
