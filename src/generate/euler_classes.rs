//! The Game of Euler's tables with one entry a class of positions under
//! the board's symmetries ([`Classes`](crate::tables::classes::Classes)): the generator visits the
//! classes, not the positions, in 1/8 of the memory on a square board
//! (1/4 on another rectangle), on every core, in one process or over the
//! ranks of a job ([`crate::ranks`]).
//!
//! # Over ranks
//!
//! The win/loss bitset, one bit an entry, is small beside the moves-left
//! column (a byte an entry), so every rank holds all of it. Each layer's
//! classes are split in contiguous shares, rank `r` the `r`-th; once a
//! layer is solved the ranks OR its blocks together, and every rank has the
//! layer the next ones read. The depth pass splits the moves-left column:
//! each rank makes the entries of its contiguous range of classes, and
//! after each step its words of the step are ORed into every rank's copy.
//! A rank saves its share of each layer and its range of the column into
//! the checkpoint the ranks share, at their places, so that any number of
//! ranks resumes it; the ranks write the file together, each its share of
//! the winning column's blocks and its range of moves left.

use std::ops::Range;
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

use boardbase_tables::euler::classes::{ClassSolver, DepthScratch, Scratch, SolverSizes};
use boardbase_tables::euler::moves;
use boardbase_tables::euler::winloss::LANES;
use boardbase_tables::shape::Shape;
use rayon::prelude::*;

use super::checkpoint::{Checkpoint, Geometry};
use super::euler_depth_save::{Chunk, Columns, DepthSaver, RUN_CHUNKS, Shared, load, lock};
use super::euler_ranks::{
    PART_WRITE_MEMORY, RanksOptions, open_checkpoint, put_bits_share, put_moves,
};
use super::euler_tables::{EulerDepth, EulerSummary, EulerTables};
use super::euler_winloss::{SaveCost, Saver, Unsaved, agree_not_cancelled, load_agreed};
use super::{
    GenerateError, Hooks, Phase, Progress, Puzzle, Reporter, SMALL_ALLOCATIONS, pool_threads,
    try_vec,
};
use crate::euler::Outcome;
use crate::ranks::{Ranks, agree, share};
use crate::tablefile::parts::{BLOCK_LEN, write_parts};

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
/// bitsets for the steps of the depth pass, each thread's scratch, and
/// the buffer the saves to the checkpoint copy the column through.
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
    let entries = sizes.index().entries();
    euler_classes_memory(shape, Some(threads as usize))
        + entries
        + 2 * sizes.words() as u64 * 8
        + threads * sizes.depth_scratch_bytes()
        + save_buffer(sizes).min(entries)
}

/// Bytes of the buffer the saves of the depth pass copy the moves-left
/// column through ([`RUN_CHUNKS`] of its chunks; no more than the part of
/// the column a rank has is ever touched): 64 MiB at 6×6.
fn save_buffer(sizes: SolverSizes) -> u64 {
    (RUN_CHUNKS * DEPTH_CHUNK_CLASSES) as u64 * sizes.index().class_entries()
}

/// Bytes one rank of `ranks` allocates for the tables by class of `shape`
/// (the full tables or not) on the current pool's threads: the whole
/// win/loss bitset, the solver's scratch and index, and the buffers a
/// layer is ORed through; with the full tables, the two bitsets of the
/// depth steps, its share of the moves-left column and the buffer its
/// saves copy it through. A job of one process takes
/// [`euler_classes_memory`] or [`euler_classes_full_memory`], without the
/// buffers of the ranks.
pub(super) fn euler_classes_rank_memory(shape: Shape, ranks: usize, full: bool) -> u64 {
    let threads = pool_threads(None);
    let ranks = ranks.max(1);
    let sizes = SolverSizes::of_shape(shape);
    let mut bytes = euler_classes_memory(shape, Some(threads)) + 2 * OR_WORDS as u64 * 8;
    if full {
        let classes = sizes.index().classes;
        let own = classes.div_ceil(DEPTH_CHUNK_CLASSES).div_ceil(ranks) * DEPTH_CHUNK_CLASSES;
        let own = own.min(classes) as u64 * sizes.index().class_entries();
        bytes += own
            + 2 * sizes.words() as u64 * 8
            + threads as u64 * sizes.depth_scratch_bytes()
            + save_buffer(sizes).min(own);
    }
    bytes
}

/// Bytes one rank of a job by class takes to write its part of the file:
/// [`PART_WRITE_MEMORY`], and on rank 0 the `classes` column, made whole
/// (4 bytes a class: 528 KB at 6×6), which the plan counts on every rank.
pub(super) fn euler_classes_rank_write_memory(shape: Shape) -> u64 {
    PART_WRITE_MEMORY + 4 * SolverSizes::of_shape(shape).index().classes as u64
}

/// Words of a layer's blocks ORed among the ranks at once: 8 MiB.
const OR_WORDS: usize = 1 << 20;

/// This rank's part of the Euler tables by class of one shape: the whole
/// win/loss bitset and, with the full tables, the moves left of its range
/// of classes. One process holds every class ([`into_tables`](Self::into_tables)).
pub(super) struct ClassRankTables {
    shape: Shape,
    /// Boxed: its tables of moves are inline, 13 KiB.
    solver: Box<ClassSolver>,
    /// One bit an entry, every entry.
    winning: Vec<u64>,
    /// The classes this rank made the moves left of, and those moves left.
    depth: Option<(Range<usize>, Vec<u8>)>,
    /// Counts and the empty board, of the whole table.
    pub(super) summary: EulerSummary,
}

impl ClassRankTables {
    /// Whether the moves-left column was made.
    pub(super) fn full(&self) -> bool {
        self.depth.is_some()
    }

    /// The tables of a job of one rank, which holds every column whole.
    pub(super) fn into_tables(self) -> EulerTables {
        let shape = self.shape;
        let classes = self.solver.into_classes();
        EulerTables {
            shape,
            moves: moves(shape).as_slice().to_vec(),
            winning: self.winning,
            depth: self.depth.map(|(_, plies)| EulerDepth {
                plies,
                best_move: Vec::new(),
            }),
            summary: self.summary,
            classes: Some(classes),
        }
    }

    /// Writes the table file `path` (version 5) with the other ranks of
    /// `ranks`, each its own part: the same bytes as
    /// [`Table::write`](crate::tablefile::Table::write) writes for the
    /// tables made in one process. Returns the file's length.
    ///
    /// # Errors
    ///
    /// As [`RankTables::write`](super::RankTables::write).
    pub(super) fn write(&self, path: &Path, ranks: &dyn Ranks) -> Result<u64, GenerateError> {
        let classes = self.solver.classes();
        let shape = self.shape;
        let full = self.full();
        let (rank, size) = (ranks.rank(), ranks.size());
        let fill = |parts: &mut crate::tablefile::parts::Parts<'_>| {
            put_bits_share(parts, 0, &self.winning, classes.entries(), rank, size)?;
            if let Some((range, plies)) = &self.depth
                && !plies.is_empty()
            {
                parts.put(1, range.start as u64 * classes.class_entries(), plies)?;
            }
            if rank == 0 {
                let moves_column = if full { 2 } else { 1 };
                put_moves(parts, moves_column, shape)?;
                let canonical: Vec<u8> = classes
                    .canonical_patterns()
                    .iter()
                    .flat_map(|p| p.to_le_bytes())
                    .collect();
                parts.put(moves_column + 1, 0, &canonical)?;
            }
            Ok(())
        };
        write_parts(
            path,
            Puzzle::Euler,
            shape,
            full,
            Some(classes),
            ranks,
            fill,
            |error| GenerateError::writing(path, error),
        )
    }
}

/// Makes this rank's part of the Euler tables by class of `shape`, with
/// the other ranks of `ranks` (every rank calls it with the same shape and
/// options), on the current rayon pool: its share of each win/loss layer,
/// the layers ORed together, then with [`RanksOptions::full`] the moves
/// left of its range of classes, step by step (entries in the order of
/// [`Classes::index`]; moves left without best moves: see
/// [`EulerTables::best_move`]). One process is the job of one rank
/// ([`Solo`](crate::ranks::Solo)).
///
/// With a checkpoint the tables keep their work as a run by position does
/// (see [`checkpoint`](super::checkpoint)): the run first resumes from
/// what the checkpoint holds, then saves its win/loss layers on a writer
/// thread as the pass goes on, and its moves-left steps, when a save is
/// due.
pub(super) fn make<F: Fn(Progress) + Sync>(
    shape: Shape,
    options: &RanksOptions,
    ranks: &dyn Ranks,
    hooks: &Hooks<'_, F>,
) -> Result<ClassRankTables, GenerateError> {
    let report = Reporter::start(hooks, Phase::Allocate, 1);
    let solver = ClassSolver::new(shape);
    let bits = try_vec(solver.words(), || AtomicU64::new(0));
    let bits = agree(ranks, bits)?;
    report.finish();
    let checkpoint = match &options.checkpoint {
        Some(path) => Some(open_checkpoint(path, Geometry::of_classes(shape), ranks)?),
        None => None,
    };
    let saving = checkpoint.map(|c| (c, options.checkpoint_every));
    let (won, unsaved) = win_loss(&solver, &bits, saving, options.full, ranks, hooks)?;
    let won = ranks.sum(won);
    let winning: Vec<u64> = bits.into_iter().map(AtomicU64::into_inner).collect();

    let depth = if options.full {
        let classes = solver.classes().classes();
        let units = classes.div_ceil(DEPTH_CHUNK_CLASSES);
        let mine = share(units, ranks.rank(), ranks.size());
        let range = (mine.start * DEPTH_CHUNK_CLASSES).min(classes)
            ..(mine.end * DEPTH_CHUNK_CLASSES).min(classes);
        let plies = depth_pass(&solver, &winning, range.clone(), unsaved, ranks, hooks)?;
        Some((range, plies))
    } else {
        None
    };
    let empty_moves_left = match &depth {
        Some((range, plies)) => {
            let mine = (range.start == 0 && !plies.is_empty()).then(|| u64::from(plies[0]) + 1);
            ranks.max(mine.unwrap_or(0)).checked_sub(1).map(|p| p as u8)
        }
        None => None,
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
        empty_moves_left,
    };
    Ok(ClassRankTables {
        shape,
        solver: Box::new(solver),
        winning,
        depth,
        summary,
    })
}

/// The win/loss pass by class of this rank, on the current pool: its
/// share of each layer's classes, solved into `bits`, then the layer's
/// blocks ORed with the other ranks'. Resumed from the checkpoint's layers
/// and saving the new ones to it (`saving`: the checkpoint and how often).
/// Returns the positions won in this rank's shares, and where the depth
/// pass saves next (`hand_over`) the checkpoint and the layers left to
/// save.
fn win_loss<F: Fn(Progress) + Sync>(
    solver: &ClassSolver,
    bits: &[AtomicU64],
    saving: Option<(Checkpoint, std::time::Duration)>,
    hand_over: bool,
    ranks: &dyn Ranks,
    hooks: &Hooks<'_, F>,
) -> Result<(u64, Option<Unsaved>), GenerateError> {
    let (rank, size) = (ranks.rank(), ranks.size());
    let n = solver.block_words();
    let layers: Vec<&[u32]> = solver.layers().collect();
    let block = |c: usize| &bits[c * n..][..n];
    let per_class = solver.classes().class_entries();
    let mine_of = |i: usize| share(layers[i].len(), rank, size);
    let mut buf = Vec::new();
    let (mut won, done) = match &saving {
        Some((c, _)) if c.layers_done() > 0 => {
            let done = c.layers_done() as usize;
            let classes: u64 = (0..done).map(|i| mine_of(i).len() as u64).sum();
            let report = Reporter::start(hooks, Phase::Resume, classes * n as u64 * 8);
            let members = |layer: u32| layers[layer as usize].iter().map(|&c| c as usize);
            let part = |len: usize| share(len, rank, size);
            let loaded = c.load_part(&members, &part, &block, &|b| report.add(b));
            load_agreed(c, loaded, ranks)?;
            for layer in &layers[..done] {
                or_blocks(bits, n, layer, &mut buf, ranks);
            }
            report.finish();
            // Each layer's record counts all its classes: rank 0 counts them.
            (if rank == 0 { c.won() } else { 0 }, done)
        }
        _ => (0, 0),
    };

    let own_total: u64 = (0..layers.len())
        .map(|i| mine_of(i).len() as u64)
        .sum::<u64>()
        * per_class;
    let report = Reporter::start(hooks, Phase::WinLoss, own_total);
    report.add((0..done).map(|i| mine_of(i).len() as u64).sum::<u64>() * per_class);
    let cost = SaveCost::default();
    let unsaved = std::thread::scope(|scope| {
        let mut saver = saving.map(|saving| Saver::start(scope, saving, &block, n, &cost));
        let mut solve = || -> Result<(), GenerateError> {
            for (i, layer) in layers.iter().enumerate().skip(done) {
                let mine = &layer[mine_of(i)];
                let layer_won = mine
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
                // A later layer reads this one whole: every rank stops
                // before it if one is cancelled (the layer cut short is not
                // saved).
                agree_not_cancelled(&report, ranks)?;
                or_blocks(bits, n, layer, &mut buf, ranks);
                won += layer_won;
                if let Some(saver) = &mut saver {
                    let blocks = mine.iter().map(|&c| c as usize).collect();
                    saver.layer_done(i as u32, blocks, layer_won, ranks)?;
                }
            }
            Ok(())
        };
        let solved = solve();
        Saver::end_pass(saver, solved, ranks)
    })?;
    report.finish();
    Ok((won, unsaved.filter(|_| hand_over)))
}

/// ORs the blocks of `classes` (`n` words each; every rank the same
/// list) with the other ranks' through `buf`, [`OR_WORDS`] at a time: each
/// rank made its share of them, the others' are 0 on it.
fn or_blocks(bits: &[AtomicU64], n: usize, classes: &[u32], buf: &mut Vec<u64>, ranks: &dyn Ranks) {
    if ranks.size() == 1 {
        return;
    }
    for batch in classes.chunks((OR_WORDS / n).max(1)) {
        buf.clear();
        for &c in batch {
            let block = &bits[c as usize * n..][..n];
            buf.extend(block.iter().map(|w| w.load(Relaxed)));
        }
        ranks.or_words(buf);
        for (&c, words) in batch.iter().zip(buf.chunks_exact(n)) {
            let block = &bits[c as usize * n..][..n];
            for (w, &v) in block.iter().zip(words) {
                w.store(v, Relaxed);
            }
        }
    }
}

/// Classes of a task of the depth pass, and of a chunk of its column that
/// a save copies at once: 64 classes (4 Mi entries at 6×6). A rank's range
/// of classes is a multiple of it: at least 2^8 entries a class (or one
/// class), so its bytes are whole 4 KiB blocks of the file's column.
const DEPTH_CHUNK_CLASSES: usize = 64;

const _: () = assert!((DEPTH_CHUNK_CLASSES << 8).is_multiple_of(BLOCK_LEN as usize));

/// The depth pass by class on the current pool: the moves left of the
/// entries of the classes `range`, step by step (each step reads the one
/// before whole: the other ranks' words of it are ORed in), resumed from
/// the checkpoint and saved to it where `saving` hands it over (as the
/// pass by position saves: [`euler_depth_save`](super::euler_depth_save),
/// the moves-left column alone).
fn depth_pass<F: Fn(Progress) + Sync>(
    solver: &ClassSolver,
    winning: &[u64],
    range: Range<usize>,
    saving: Option<Unsaved>,
    ranks: &dyn Ranks,
    hooks: &Hooks<'_, F>,
) -> Result<Vec<u8>, GenerateError> {
    let entries = solver.classes().entries();
    let words = solver.words();
    let n = solver.block_words();
    let cells = solver.classes().cells();
    let classes = solver.classes().classes();
    let per_class = solver.classes().class_entries() as usize;
    let own = range.len() * per_class;
    let alone = ranks.size() == 1;
    let allocated = (|| -> Result<_, GenerateError> {
        Ok((
            try_vec(own, || 0u8)?,
            try_vec(words, || 0u64)?,
            try_vec(words, || 0u64)?,
        ))
    })();
    let (mut plies, mut prev, mut next) = agree(ranks, allocated)?;
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
            first_position: (range.start * per_class) as u64,
        };
        // Resumed at step d, `prev` holds A(d) (and `next` A(d − 1), which
        // the next step overwrites).
        let loaded = match &saving {
            Some(unsaved) => load(
                &unsaved.checkpoint,
                (entries as usize, words),
                &part,
                range.start * n,
                (&mut prev, &mut next),
                ranks,
                hooks,
            )?,
            None => None,
        };
        let report = Reporter::start(hooks, Phase::Depth, own as u64);
        let fresh = loaded.is_none();
        let (mut taken, mut taken_here, mut d) = match &loaded {
            Some(loaded) => (ranks.sum(loaded.taken), loaded.taken, loaded.step + 1),
            None => {
                // Step 0: the full board alone, in the last class (the
                // last rank's).
                let mut here = 0;
                if range.end == classes && !columns.is_empty() {
                    let last = columns.len() - 1;
                    let first = range.start + last * DEPTH_CHUNK_CLASSES;
                    let mut chunk = lock(&columns[last]);
                    here = solver.depth_start(first..classes, &mut prev[first * n..], chunk.0);
                    dirty[last].store(true, Relaxed);
                }
                if !alone {
                    ranks.or_words(&mut prev);
                }
                (ranks.sum(here), here, 1)
            }
        };
        report.add(taken_here);
        let shared = Shared::default();
        std::thread::scope(|scope| {
            let mut saver = saving
                .map(|unsaved| DepthSaver::start(scope, unsaved, part, loaded, winning, &shared));
            let mut solve = || -> Result<(), GenerateError> {
                if let Some(saver) = &mut saver
                    && fresh
                {
                    saver.step_done(0, taken_here, &dirty, ranks)?;
                }
                while taken < entries {
                    agree_not_cancelled(&report, ranks)?;
                    assert!(usize::from(d) <= cells, "every entry is taken in");
                    if !alone {
                        // The other ranks' words still hold A(d − 2):
                        // cleared before their words of A(d) are ORed in.
                        next[..range.start * n].fill(0);
                        next[range.end * n..].fill(0);
                    }
                    let prev_set = &prev;
                    let step = next[range.start * n..range.end * n]
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
                                let first = range.start + i * DEPTH_CHUNK_CLASSES;
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
                    // The next step reads this one whole: a skipped chunk
                    // stops the job.
                    agree_not_cancelled(&report, ranks)?;
                    taken_here += step;
                    if !alone {
                        ranks.or_words(&mut next);
                    }
                    taken = ranks.sum(taken_here);
                    std::mem::swap(&mut prev, &mut next);
                    if let Some(saver) = &mut saver {
                        saver.step_done(d, taken_here, &dirty, ranks)?;
                    }
                    d += 1;
                }
                Ok(())
            };
            let solved = solve();
            // Every rank gets here (each failure above is agreed by all).
            let cancelled = matches!(solved, Err(GenerateError::Cancelled));
            let finished = saver.map_or(Ok(()), |s| s.finish(cancelled, ranks));
            solved.and(finished)
        })?;
        report.finish();
    }
    Ok(plies)
}
