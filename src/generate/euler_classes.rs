//! The Game of Euler's win/loss table with one entry a class of positions
//! under the board's symmetries ([`Classes`](crate::tables::classes::Classes)): the generator visits the
//! classes, not the positions, in 1/8 of the memory on a square board
//! (1/4 on another rectangle), on every core.

use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

use boardbase_tables::euler::classes::{ClassSolver, DepthScratch, Scratch, SolverSizes};
use boardbase_tables::euler::moves;
use boardbase_tables::euler::winloss::LANES;
use boardbase_tables::shape::Shape;
use rayon::prelude::*;

use super::checkpoint::{Checkpoint, Geometry};
use super::euler_depth_save::{Chunk, Columns, DepthSaver, Shared, load, lock};
use super::euler_tables::{EulerDepth, EulerSummary, EulerTables};
use super::euler_winloss::Unsaved;
use super::{GenerateError, Hooks, Phase, Progress, Reporter, SMALL_ALLOCATIONS, pool_threads};
use crate::euler::Outcome;
use crate::ranks::Solo;

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
/// are in the order of [`Classes::index`](crate::tables::classes::Classes::index)
/// (moves left without best moves: see [`EulerTables::best_move`]).
///
/// With `checkpoint` (its path, and how often to save) the full tables
/// keep their work as a run by position does (see
/// [`checkpoint`](super::checkpoint)): the run first resumes from what the
/// checkpoint holds, then saves its win/loss layers and its moves-left
/// steps when a save is due (the time since the last one at least the
/// interval and ten times what the last one took). The layers are written
/// between two layers, the pass waiting (a pass of seconds: 6×6's takes
/// 6); a pass cancelled first saves the layers it finished. The win/loss
/// table alone keeps no checkpoint.
pub(super) fn solve<F: Fn(Progress) + Sync>(
    shape: Shape,
    full: bool,
    checkpoint: Option<(&Path, Duration)>,
    hooks: &Hooks<'_, F>,
) -> Result<EulerTables, GenerateError> {
    let report = Reporter::start(hooks, Phase::Allocate, 1);
    let solver = ClassSolver::new(shape);
    let n = solver.block_words();
    let bits: Vec<AtomicU64> = super::try_vec(solver.words(), || AtomicU64::new(0))?;
    report.finish();
    let began = Instant::now();
    let mut checkpoint = match checkpoint.filter(|_| full) {
        Some((path, every)) => Some((Checkpoint::open(path, Geometry::of_classes(shape))?, every)),
        None => None,
    };

    let layers: Vec<&[u32]> = solver.layers().collect();
    let block = |c: usize| &bits[c * n..][..n];
    let per_class = 1u64 << solver.classes().rest_bits();
    let (mut won, done) = match &checkpoint {
        Some((c, _)) if c.layers_done() > 0 => {
            let done = c.layers_done() as usize;
            let classes: u64 = layers[..done].iter().map(|l| l.len() as u64).sum();
            let report = Reporter::start(hooks, Phase::Resume, classes * n as u64 * 8);
            let members = |layer: u32| layers[layer as usize].iter().map(|&c| c as usize);
            let parts = c.load_part(&members, &|len| 0..len, &block, &|b| report.add(b))?;
            c.check_parts(&[parts])?;
            report.finish();
            (c.won(), done)
        }
        _ => (0, 0),
    };

    let entries = solver.classes().entries();
    let report = Reporter::start(hooks, Phase::WinLoss, entries);
    report.add(layers[..done].iter().map(|l| l.len() as u64).sum::<u64>() * per_class);
    // The layers solved and not saved yet, and when and at what cost the
    // last save was.
    let mut unsaved = Vec::new();
    let (mut last_save, mut cost) = (began, Duration::ZERO);
    for (i, layer) in layers.iter().enumerate().skip(done) {
        let layer_won = layer
            .par_chunks(LANES)
            .map_init(
                || None::<Scratch>,
                |scratch, chunk| {
                    if report.cancelled() {
                        return 0;
                    }
                    let scratch = scratch.get_or_insert_with(|| solver.scratch());
                    let won = solver.solve_classes_by(chunk, block, scratch);
                    report.add(chunk.len() as u64 * per_class);
                    won
                },
            )
            .sum::<u64>();
        // A later layer reads this one whole: stop before it if cancelled,
        // the layers finished before it saved.
        if let Err(cancelled) = report.check() {
            if let Some((checkpoint, _)) = &mut checkpoint {
                save_layers(checkpoint, &mut unsaved, &block)?;
            }
            return Err(cancelled);
        }
        won += layer_won;
        unsaved.push((
            i as u32,
            layer.iter().map(|&c| c as usize).collect(),
            layer_won,
        ));
        if let Some((checkpoint, every)) = &mut checkpoint
            && last_save.elapsed() >= (*every).max(cost * 10)
        {
            cost = save_layers(checkpoint, &mut unsaved, &block)?;
            last_save = Instant::now();
        }
    }
    report.finish();

    let winning: Vec<u64> = bits.into_iter().map(AtomicU64::into_inner).collect();
    let saving = checkpoint.map(|(checkpoint, every)| Unsaved {
        checkpoint,
        every,
        last_save,
        layers: unsaved,
    });
    let depth = if full {
        Some(depth_pass(&solver, &winning, saving, hooks)?)
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

/// Writes the win/loss layers `unsaved` (each its number, its classes and
/// the positions won in them) to `checkpoint` from the bitset's blocks
/// (`block(c)` for class `c`) and records them; returns what it took.
fn save_layers<'a>(
    checkpoint: &mut Checkpoint,
    unsaved: &mut Vec<(u32, Vec<usize>, u64)>,
    block: &dyn Fn(usize) -> &'a [AtomicU64],
) -> Result<Duration, GenerateError> {
    let took = Instant::now();
    for (layer, blocks, won) in unsaved.drain(..) {
        let part = checkpoint.block_file().write(&blocks, block)?;
        checkpoint.append(layer, blocks.len() as u64, won, part.crc)?;
    }
    Ok(took.elapsed())
}

/// Entries of the classes a task of the depth pass takes, and a chunk of
/// its column that a save copies at once: 64 classes (4 Mi entries at
/// 6×6).
const DEPTH_CHUNK_CLASSES: usize = 64;

/// The depth pass by class on the current pool: the moves left of every
/// entry, step by step (each step reads the one before whole), resumed
/// from the checkpoint and saved to it where `saving` hands it over (as
/// the pass by position saves: [`euler_depth_save`](super::euler_depth_save),
/// the moves-left column alone).
fn depth_pass<F: Fn(Progress) + Sync>(
    solver: &ClassSolver,
    winning: &[u64],
    saving: Option<Unsaved>,
    hooks: &Hooks<'_, F>,
) -> Result<Vec<u8>, GenerateError> {
    let entries = solver.classes().entries();
    let words = solver.words();
    let n = solver.block_words();
    let cells = solver.classes().cells();
    let per_class = (entries as usize) / solver.classes().classes();
    let mut plies = super::try_vec(entries as usize, || 0u8)?;
    let mut prev = super::try_vec(words, || 0u64)?;
    let mut next = super::try_vec(words, || 0u64)?;
    {
        // The column in chunks behind the locks a save takes to copy them
        // out while the pass goes on, and the chunks changed since the
        // last save; no best-move column.
        let chunk_entries = DEPTH_CHUNK_CLASSES * per_class;
        let columns: Vec<Chunk<'_>> = plies
            .chunks_mut(chunk_entries)
            .map(|plies| Mutex::new((plies, Default::default())))
            .collect();
        let dirty: Vec<AtomicBool> = columns.iter().map(|_| AtomicBool::new(false)).collect();
        let part = Columns {
            chunks: &columns,
            chunk_positions: chunk_entries,
            first_position: 0,
        };
        // Resumed at step d, `prev` holds A(d) (and `next` A(d − 1), which
        // the next step overwrites).
        let loaded = match &saving {
            Some(unsaved) => load(
                &unsaved.checkpoint,
                (entries as usize, words),
                &part,
                0,
                (&mut prev, &mut next),
                &Solo,
                hooks,
            )?,
            None => None,
        };
        let report = Reporter::start(hooks, Phase::Depth, entries);
        let fresh = loaded.is_none();
        let (mut taken, mut d) = match &loaded {
            Some(loaded) => (loaded.taken, loaded.step + 1),
            None => {
                // Step 0: the full board alone, in the last class.
                let all = 0..solver.classes().classes();
                let mut last = lock(&columns[columns.len() - 1]);
                let first = (columns.len() - 1) * DEPTH_CHUNK_CLASSES;
                let taken = solver.depth_start(first..all.end, &mut prev[first * n..], last.0);
                prev[..first * n].fill(0);
                dirty[columns.len() - 1].store(true, Relaxed);
                (taken, 1)
            }
        };
        report.add(taken);
        let shared = Shared::default();
        std::thread::scope(|scope| {
            let mut saver = saving
                .map(|unsaved| DepthSaver::start(scope, unsaved, part, loaded, winning, &shared));
            let mut solve = || -> Result<(), GenerateError> {
                if let Some(saver) = &mut saver
                    && fresh
                {
                    saver.step_done(0, taken, &dirty, &Solo)?;
                }
                while taken < entries {
                    report.check()?;
                    assert!(usize::from(d) <= cells, "every entry is taken in");
                    let prev_set = &prev;
                    let step = next
                        .par_chunks_mut(DEPTH_CHUNK_CLASSES * n)
                        .zip(columns.par_iter())
                        .enumerate()
                        .map_init(
                            || None::<DepthScratch>,
                            |scratch, (i, (next, chunk))| {
                                if report.cancelled() {
                                    return 0;
                                }
                                let scratch = scratch.get_or_insert_with(|| solver.depth_scratch());
                                let mut chunk = lock(chunk);
                                let first = i * DEPTH_CHUNK_CLASSES;
                                let classes = first..first + next.len() / n;
                                let step = solver.depth_step(
                                    d, winning, prev_set, classes, next, chunk.0, scratch,
                                );
                                if step > 0 {
                                    dirty[i].store(true, Relaxed);
                                }
                                report.add(step);
                                step
                            },
                        )
                        .sum::<u64>();
                    // The next step reads this one whole.
                    report.check()?;
                    taken += step;
                    std::mem::swap(&mut prev, &mut next);
                    if let Some(saver) = &mut saver {
                        saver.step_done(d, taken, &dirty, &Solo)?;
                    }
                    d += 1;
                }
                Ok(())
            };
            let solved = solve();
            let cancelled = matches!(solved, Err(GenerateError::Cancelled));
            let finished = saver.map_or(Ok(()), |s| s.finish(cancelled, &Solo));
            solved.and(finished)
        })?;
        report.finish();
    }
    Ok(plies)
}
