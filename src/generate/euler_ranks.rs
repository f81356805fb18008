//! The Game of Euler's tables made by several processes, the ranks of one
//! job (see [`crate::ranks`]): each holds about `1/N` of the win/loss bits,
//! and the full tables where they fit.
//!
//! # Win/loss
//!
//! The solver's blocks (`2^12` words, 32 KiB) are solved layer by layer
//! as in one process. Rank `r` owns the `r`-th contiguous `N`-th of every
//! layer, in [`layer_members`] order: every layer is split exactly, and a
//! block's owner follows from its colex rank. A block reads the blocks one
//! move above it, of the next three layers, which other ranks may own:
//! those are fetched in rounds of at most the exchange budget (each rank
//! asks each owner for the blocks it needs, then the owners send them)
//! into a buffer the solver reads them from, and dropped again once the
//! round is solved (unless the next round reads them too). Each rank maps a
//! bitset of the whole table's size without reserving it: only its own
//! blocks take memory there. Why this scheme and not one-sided windows or a
//! manager: `docs/scaling.md`.
//!
//! # Moves left and best moves
//!
//! Where the full tables are made, the ranks first OR their blocks together
//! (every rank then holds the whole win/loss bitset, one bit a position),
//! and each computes the depth columns of its own contiguous range of
//! positions; after each step of the depth pass its words of that step are
//! ORed into every rank's copy. The byte columns (two bytes a position,
//! most of the full tables) are split; the bitsets (four bits a position)
//! are not.

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use boardbase_solvers::euler::depth::DepthSolver;
use boardbase_solvers::euler::winloss::{self, WinLossSolver, layer_members};
use boardbase_solvers::shape::Shape;
use memmap2::{MmapMut, MmapOptions};

use super::checkpoint::{BlockFile, Checkpoint, CheckpointError, PartCrc};
use super::euler::{DEPTH_CHUNK_WORDS, SaveCost, agree_not_cancelled, depth_pass, solve_blocks};
use super::{
    Cancel, EulerSummary, GenerateError, Hooks, Phase, Progress, Puzzle, Reporter,
    SMALL_ALLOCATIONS, check_cells, pool_threads,
};
use crate::euler::Outcome;
use crate::ranks::{Ranks, first_failed, owner, share};
use crate::tablefile::TableError;
use crate::tablefile::bits_bytes;
use crate::tablefile::parts::{BLOCK_LEN, write_parts};

/// The exchange budget by default: 256 MiB. A rank holds at most this
/// divided by the number of ranks of other ranks' blocks at once (and
/// sends at most the rest): enough that a layer takes a few rounds (each
/// costs a few collective calls), little beside a rank's share of a large
/// table.
pub const DEFAULT_EXCHANGE_BYTES: u64 = 256 << 20;

/// How to make Euler tables over several ranks.
#[derive(Clone, Debug)]
pub struct RanksOptions {
    /// The full tables (moves left, best move) besides win/loss.
    pub full: bool,
    /// The exchange budget: a rank holds at most this divided by the
    /// number of ranks of other ranks' blocks at once, and each of the
    /// others asks it for as much at most.
    pub exchange_bytes: u64,
    /// Stops every rank, with [`GenerateError::Cancelled`], once any
    /// rank's handle is cancelled.
    pub cancel: Option<Cancel>,
    /// Save the win/loss layers to this checkpoint file as they complete,
    /// and first resume from what it holds, as
    /// [`EulerOptions::checkpoint`](super::EulerOptions::checkpoint) does
    /// in one process: the same file, which either resumes. Every rank
    /// must see it (a directory they share): rank 0 creates and locks it,
    /// each rank writes and reads its own blocks. `None`: no checkpoint.
    pub checkpoint: Option<PathBuf>,
    /// Save the finished layers at most this often, as
    /// [`EulerOptions::checkpoint_every`](super::EulerOptions::checkpoint_every)
    /// (the ranks save a layer when every one of them would).
    pub checkpoint_every: Duration,
}

/// This rank's part of Euler tables made over several ranks.
pub struct RankTables {
    shape: Shape,
    /// The whole table's size; this rank's blocks, or every block where
    /// `whole` is set.
    bits: VirtualBits,
    own_blocks: Vec<usize>,
    whole: bool,
    /// Words of the depth columns this rank made, and the columns.
    depth: Option<(Range<usize>, Vec<u8>, Vec<u8>)>,
    /// Counts and the empty board, of the whole table.
    pub summary: EulerSummary,
    /// Bytes of blocks the ranks received from one another in each layer of
    /// the win/loss pass, all ranks together (the same on every rank).
    pub exchanged: Vec<u64>,
}

impl RankTables {
    /// The board shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Whether the depth columns were made.
    pub fn full(&self) -> bool {
        self.depth.is_some()
    }

    /// Writes the table file `path` with the other ranks of `ranks` (see
    /// [`crate::ranks`]), each its own part: the same bytes as
    /// [`Table::write`](crate::tablefile::Table::write) writes for the
    /// tables made in one process. Returns the file's length.
    ///
    /// # Errors
    ///
    /// On the rank that failed, the errors of
    /// [`Table::write`](crate::tablefile::Table::write) (and a `path` that
    /// is a device or a pipe: the ranks write a file in parts); on the
    /// others, [`TableError::OtherRank`].
    pub fn write(&self, path: &Path, ranks: &dyn Ranks) -> Result<u64, TableError> {
        let shape = self.shape;
        let full = self.full();
        let (rank, size) = (ranks.rank(), ranks.size());
        write_parts(path, Puzzle::Euler, shape, full, ranks, |parts| {
            let entries = 1u64 << shape.cells();
            let len = entries.div_ceil(8);
            let words = self.bits.words();
            // One conversion buffer for every piece this rank writes.
            let mut buf = Vec::new();
            if self.whole {
                // Each rank writes its share of the column's blocks.
                let block = u64::from(BLOCK_LEN);
                let blocks = share(len.div_ceil(block) as usize, rank, size);
                let (from, to) = (
                    blocks.start as u64 * block,
                    (blocks.end as u64 * block).min(len),
                );
                // Whole words from a multiple of 8 bytes (the blocks and
                // the chunks are).
                let mut at = from;
                while at < to {
                    let end = (at + WRITE_CHUNK).min(to);
                    let first = (at / 8) as usize;
                    let last = (end.div_ceil(8) as usize).min(words.len());
                    bits_bytes(words, first..last, entries, &mut buf);
                    buf.truncate((end - at) as usize);
                    parts.put(0, at, &buf)?;
                    at = end;
                }
            } else {
                let n = WinLossSolver::new(shape).block_words();
                // In the file's order: the writes run forward.
                let mut blocks = self.own_blocks.clone();
                blocks.sort_unstable();
                for &b in &blocks {
                    bits_bytes(words, b * n..(b + 1) * n, entries, &mut buf);
                    parts.put(0, (b * n * 8) as u64, &buf)?;
                }
            }
            if let Some((start, plies, best)) = self.depth_part()
                && !plies.is_empty()
            {
                parts.put(1, start, plies)?;
                parts.put(2, start, best)?;
            }
            if rank == 0 {
                let moves: Vec<u8> = boardbase_solvers::euler::moves(shape)
                    .as_slice()
                    .iter()
                    .flat_map(|m| m.to_le_bytes())
                    .collect();
                parts.put(if full { 3 } else { 1 }, 0, &moves)?;
            }
            Ok(())
        })
    }

    /// The positions this rank made the depth columns of (a multiple of
    /// 4,096 from a multiple of 4,096, but for the last), and the columns.
    fn depth_part(&self) -> Option<(u64, &[u8], &[u8])> {
        let (range, plies, best) = self.depth.as_ref()?;
        let solver = DepthSolver::new(self.shape);
        let per_word = solver.positions() / solver.words();
        Some(((range.start * per_word) as u64, plies, best))
    }
}

/// Bytes of the winning column converted and written at a time: 1 MiB.
const WRITE_CHUNK: u64 = 1 << 20;

/// Bytes one rank of `ranks` allocates for the Euler tables of `shape`
/// (the full tables or not) on the current rayon pool's threads: its blocks of every
/// layer, the blocks fetched and sent in one round (or kept from the one
/// before), every thread's block buffer and the block lists; with the full tables, the whole win/loss
/// bitset, three bitsets for the depth steps, and its share of the two
/// byte columns.
pub fn euler_rank_memory(
    shape: Shape,
    ranks: usize,
    options: &RanksOptions,
) -> Result<u64, GenerateError> {
    check_cells(Puzzle::Euler, shape)?;
    let wl = WinLossSolver::new(shape);
    let ranks = ranks.max(1) as u64;
    let block_bytes = wl.block_words() as u64 * 8;
    let top = wl.top_bits();
    let own_blocks: u64 = (0..=top)
        .map(|ones| layer_members(top, ones).count().div_ceil(ranks as usize) as u64)
        .sum();
    // A round holds the blocks received or kept (budget / ranks) and the
    // blocks sent (the rest of the budget); the ranks' words are ORed
    // through an 8 MiB buffer. No round fetches more than the other ranks'
    // blocks.
    let exchange = if ranks > 1 {
        let budget = options
            .exchange_bytes
            .min(wl.words() as u64 * 8)
            .max(2 * block_bytes);
        budget + (8 << 20)
    } else {
        0
    };
    let threads = pool_threads(None) as u64;
    let mut bytes = own_blocks * block_bytes + exchange;
    bytes += threads * (wl.block_words() * size_of::<winloss::Lanes>()) as u64;
    // A layer's block list (8 bytes a block at most), the round planner's
    // stamps (4), the places of the blocks fetched (4) and the marks of
    // those the next round reads (1).
    bytes += wl.blocks() as u64 * 17;
    if options.full {
        let whole = wl.words() as u64 * 8;
        let positions = 1u64 << shape.cells();
        let own = positions.div_ceil(ranks) + (DEPTH_UNIT_WORDS as u64 * 64);
        // The whole bitset replaces the blocks, and the steps' three.
        bytes = bytes.max(whole + exchange) + 3 * whole + 2 * own;
    }
    Ok(bytes + SMALL_ALLOCATIONS)
}

/// Makes this rank's part of the Euler tables of `shape`, with the other
/// ranks of `ranks` (every rank calls it with the same shape and options),
/// on the threads of the current rayon pool (only the calling thread calls
/// `ranks`: MPI's "funneled" threading is enough). `progress` hears of this
/// rank's share of each phase.
///
/// # Errors
///
/// [`GenerateError::TooManyCells`]; [`GenerateError::Allocation`] on a rank
/// that cannot have its memory, and [`GenerateError::OtherRank`] on the
/// others; [`GenerateError::Cancelled`] on every rank once one is
/// cancelled.
pub fn euler_ranks<F: Fn(Progress) + Sync>(
    shape: Shape,
    options: &RanksOptions,
    ranks: &dyn Ranks,
    progress: F,
) -> Result<RankTables, GenerateError> {
    check_cells(Puzzle::Euler, shape)?;
    let hooks = Hooks {
        progress: &progress,
        cancel: options.cancel.as_ref(),
    };
    euler_ranks_in_pool(shape, options, ranks, &hooks)
}

fn euler_ranks_in_pool<F: Fn(Progress) + Sync>(
    shape: Shape,
    options: &RanksOptions,
    ranks: &dyn Ranks,
    hooks: &Hooks<'_, F>,
) -> Result<RankTables, GenerateError> {
    let wl = WinLossSolver::new(shape);
    let bits = VirtualBits::new(wl.words());
    // Every rank learns whether every rank has its memory.
    let mut bits = match (first_failed(ranks, bits.is_err()), bits) {
        (_, Err(e)) => return Err(e),
        (Some(rank), Ok(_)) => return Err(GenerateError::OtherRank { rank }),
        (None, Ok(bits)) => bits,
    };
    let checkpoint = match &options.checkpoint {
        Some(path) => Some(open_checkpoint(path, shape, ranks)?),
        None => None,
    };
    let saving = checkpoint.map(|c| (c, options.checkpoint_every));
    let (won, own_blocks, received) =
        win_loss(&wl, &bits, options.exchange_bytes, saving, ranks, hooks)?;
    let exchanged: Vec<u64> = received.iter().map(|&r| ranks.sum(r)).collect();
    let positions = 1u64 << shape.cells();
    let won = ranks.sum(won);
    // Full tables need the whole bitset; blocks under a file block (boards
    // under 15 squares, 2 KiB at most) are written whole too.
    let mut whole = ranks.size() == 1;
    if !whole && (options.full || wl.block_words() * 8 < BLOCK_LEN as usize) {
        ranks.or_words(bits.words_mut());
        whole = true;
    }
    // The block of position 0 (the empty board), wherever it is.
    let empty_won = own_blocks.contains(&0) && bits.words()[0] & 1 == 1;
    let empty_won = ranks.max(u64::from(empty_won)) == 1;

    let depth = if options.full {
        let solver = DepthSolver::new(shape);
        let words = solver.words();
        // Ranges of whole 4 KiB blocks of the byte columns.
        let units = words.div_ceil(DEPTH_UNIT_WORDS);
        let mine = share(units, ranks.rank(), ranks.size());
        let range =
            (mine.start * DEPTH_UNIT_WORDS).min(words)..(mine.end * DEPTH_UNIT_WORDS).min(words);
        let (plies, best) = depth_pass(shape, bits.words(), range.clone(), ranks, hooks)?;
        Some((range, plies, best))
    } else {
        None
    };
    let empty_moves_left = match &depth {
        Some((range, plies, _)) => {
            let mine = (range.start == 0 && !plies.is_empty()).then(|| u64::from(plies[0]) + 1);
            ranks.max(mine.unwrap_or(0)).checked_sub(1).map(|p| p as u8)
        }
        None => None,
    };
    let summary = EulerSummary {
        positions,
        winning: won - 1,
        losing: positions - won,
        empty: if empty_won {
            Outcome::Win
        } else {
            Outcome::Loss
        },
        empty_moves_left,
    };
    Ok(RankTables {
        shape,
        bits,
        own_blocks,
        whole,
        depth,
        summary,
        exchanged,
    })
}

/// Words of the smallest range of positions one rank's depth columns
/// take: 64, the positions of one 4 KiB block of the byte columns.
const DEPTH_UNIT_WORDS: usize = 4096 / 64;

const _: () = assert!(DEPTH_CHUNK_WORDS.is_multiple_of(DEPTH_UNIT_WORDS));

/// The win/loss pass of this rank: its blocks of every layer, in rounds
/// with the blocks it reads from other ranks, resumed from the checkpoint's
/// layers and saving the new ones to it (`saving`: the checkpoint and how
/// often). Returns the positions won in its blocks, the blocks, and the
/// bytes it received in each layer.
fn win_loss<F: Fn(Progress) + Sync>(
    wl: &WinLossSolver,
    bits: &VirtualBits,
    exchange_bytes: u64,
    saving: Option<(Checkpoint, Duration)>,
    ranks: &dyn Ranks,
    hooks: &Hooks<'_, F>,
) -> Result<(u64, Vec<usize>, Vec<u64>), GenerateError> {
    let (rank, size) = (ranks.rank(), ranks.size());
    let top = wl.top_bits();
    let n = wl.block_words();
    let shape = wl.shape();
    let shift = shape.cells() as u32 - top;
    // The block-index parts of the moves that change it: a block's
    // successor blocks are `block | m` for each `m` disjoint from it.
    let mut tops: Vec<usize> = boardbase_solvers::euler::moves(shape)
        .as_slice()
        .iter()
        .map(|&m| (m >> shift) as usize)
        .filter(|&m| m != 0)
        .collect();
    tops.sort_unstable();
    tops.dedup();
    let colex = Colex::new(top);
    let owner_of = |block: usize| {
        let ones = block.count_ones();
        owner(colex.rank(block), colex.layer_len(ones), size)
    };
    // What this rank holds of other ranks' blocks at once, and (each of at
    // most size - 1 ranks asking at most this) what it sends at once.
    let budget = (exchange_bytes / size as u64 / (n as u64 * 8)).max(1) as usize;
    let mine_of = |i: u32| share(colex.layer_len(top - i), rank, size);
    let atomic = bits.atomic();

    let mut own_blocks = Vec::new();
    let (mut won, done) = match &saving {
        Some((c, _)) if c.layers_done() > 0 => {
            let done = c.layers_done();
            let block_bytes = n as u64 * 8;
            let bytes = (0..done).map(|i| mine_of(i).len() as u64).sum::<u64>() * block_bytes;
            let report = Reporter::start(hooks, Phase::Resume, bytes);
            let part = |len: usize| share(len, rank, size);
            let loaded = c.load_part(&part, atomic, &|b| report.add(b));
            load_agreed(c, loaded, ranks)?;
            report.finish();
            for i in 0..done {
                own_blocks.extend(
                    layer_members(top, top - i)
                        .skip(mine_of(i).start)
                        .take(mine_of(i).len()),
                );
            }
            // Each layer's record counts all its blocks: rank 0 counts them.
            (if rank == 0 { c.won() } else { 0 }, done)
        }
        _ => (0, 0),
    };

    let own_total: u64 =
        (0..=top).map(|i| mine_of(i).len() as u64).sum::<u64>() * wl.block_positions();
    let report = Reporter::start(hooks, Phase::WinLoss, own_total);
    report.add((0..done).map(|i| mine_of(i).len() as u64).sum::<u64>() * wl.block_positions());
    let mut received = vec![0; top as usize + 1];
    let cost = SaveCost::default();
    std::thread::scope(|scope| {
        let mut saver = saving.map(|(checkpoint, every)| {
            let (to_writer, layers) = mpsc::channel::<(u32, Vec<usize>, u64)>();
            let (saved, from_writer) = mpsc::channel();
            let file = checkpoint.block_file().clone();
            let cost = &cost;
            scope.spawn(move || save_layers(&file, layers, &saved, atomic, n, cost));
            Saver {
                checkpoint,
                every,
                cost,
                start: Instant::now(),
                last_save: Instant::now(),
                to_writer: Some(to_writer),
                from_writer,
                pending: Vec::new(),
                pending_bytes: 0,
                failed: None,
                parts: BTreeMap::new(),
            }
        });
        // Kept from round to round.
        let (mut ids, mut asked, mut send) = (Vec::new(), Vec::new(), Vec::new());
        let mut fetch = Vec::new();
        // Other ranks' blocks a round reads, `n` words each, not at their
        // place in the bitset: pages written there would be faulted in and
        // zeroed for every block fetched, twice the cost of the copy. Those
        // kept from the round before are at its front, in `pooled` order;
        // `slot[b]` is block `b`'s place, `NOT_POOLED` for this rank's own.
        let mut pool: Vec<AtomicU64> = Vec::new();
        let mut pooled: Vec<usize> = Vec::new();
        let mut slot = vec![NOT_POOLED; wl.blocks()];
        // The blocks the next round reads, by block.
        let mut reads_next = vec![false; wl.blocks()];
        let mut solve = || -> Result<(), GenerateError> {
            for i in done..=top {
                let layer: Vec<usize> = layer_members(top, top - i).collect();
                let mine = &layer[mine_of(i)];
                own_blocks.extend_from_slice(mine);
                let rounds = plan_rounds(mine, &tops, budget, rank, &owner_of, ranks);
                let mut layer_won = 0;
                for (k, (range, want)) in rounds.iter().enumerate() {
                    agree_not_cancelled(&report, ranks)?;
                    let blocks = &mine[range.clone()];
                    // Ask each owner for the blocks not kept from the round
                    // before (`want` is sorted by owner), then send what
                    // was asked.
                    fetch.clear();
                    fetch.extend(want.iter().copied().filter(|&b| slot[b] == NOT_POOLED));
                    let mut counts = vec![0; size];
                    for &b in &fetch {
                        counts[owner_of(b)] += 1;
                    }
                    ids.clear();
                    ids.extend(fetch.iter().map(|&b| b as u64));
                    let asked_counts = ranks.exchange(&ids, &counts, &mut asked);
                    let asked = &asked[..asked_counts.iter().sum::<usize>()];
                    send.clear();
                    for &b in asked {
                        send.extend(
                            atomic[b as usize * n..][..n]
                                .iter()
                                .map(|w| w.load(Relaxed)),
                        );
                    }
                    let send_counts: Vec<usize> = asked_counts.iter().map(|c| c * n).collect();
                    // `fetch` is in owner order, as the owners send.
                    let mut recv_counts = vec![0; size];
                    for &b in &fetch {
                        recv_counts[owner_of(b)] += n;
                    }
                    let kept = pooled.len();
                    let len = (kept + fetch.len()) * n;
                    pool.reserve_exact(len.saturating_sub(pool.len()));
                    pool.resize_with(len, || AtomicU64::new(0));
                    ranks.exchange_known(
                        &send,
                        &send_counts,
                        &recv_counts,
                        &mut as_words_mut(&mut pool)[kept * n..],
                    );
                    received[i as usize] += (fetch.len() * n * 8) as u64;
                    for (j, &b) in fetch.iter().enumerate() {
                        slot[b] = (kept + j) as u32;
                    }
                    pooled.extend_from_slice(&fetch);
                    let (pool_now, slot_now) = (&pool[..], &slot[..]);
                    let block = |b: usize| match slot_now[b] {
                        NOT_POOLED => &atomic[b * n..][..n],
                        s => &pool_now[s as usize * n..][..n],
                    };
                    layer_won += solve_blocks(wl, blocks, block, &report);
                    // Keep what the next round reads too (consecutive runs
                    // read many of the same blocks), moved to the pool's
                    // front in order: the blocks kept never pass a round's
                    // own, within the budget.
                    let next = rounds.get(k + 1).map_or(&[][..], |(_, w)| &w[..]);
                    for &b in next {
                        reads_next[b] = true;
                    }
                    let words = as_words_mut(&mut pool);
                    let mut kept = 0;
                    for j in 0..pooled.len() {
                        let b = pooled[j];
                        if reads_next[b] {
                            words.copy_within(j * n..(j + 1) * n, kept * n);
                            slot[b] = kept as u32;
                            pooled[kept] = b;
                            kept += 1;
                        } else {
                            slot[b] = NOT_POOLED;
                        }
                    }
                    pooled.truncate(kept);
                    for &b in next {
                        reads_next[b] = false;
                    }
                }
                won += layer_won;
                if let Some(saver) = &mut saver {
                    // A layer cut short by a cancel (its blocks skipped) is
                    // not saved: the ranks agree first that none was.
                    agree_not_cancelled(&report, ranks)?;
                    saver.layer_done(i, mine.to_vec(), layer_won, ranks)?;
                }
            }
            agree_not_cancelled(&report, ranks)
        };
        let solved = solve();
        // The layers saved are recorded even when the job stops: every
        // rank gets here (each failure above is agreed by all of them).
        let recorded = saver.as_mut().map_or(Ok(()), |s| s.finish(ranks));
        solved.and(recorded)
    })?;
    report.finish();
    Ok((won, own_blocks, received))
}

/// [`win_loss`]'s mark of a block that is not in its pool of other ranks'
/// blocks.
const NOT_POOLED: u32 = u32::MAX;

/// The words of `atomics`, written without atomics while borrowed
/// mutably.
fn as_words_mut(atomics: &mut [AtomicU64]) -> &mut [u64] {
    // SAFETY: AtomicU64 has u64's size and at least its alignment, and the
    // mutable borrow excludes any other access while the result lives.
    unsafe { std::slice::from_raw_parts_mut(atomics.as_mut_ptr().cast::<u64>(), atomics.len()) }
}

/// Agrees on this rank's part of the checkpoint's layers as loaded
/// (`loaded`, the CRC of each layer's part) and checks each layer's CRC
/// against the ranks' parts: every rank returns the same, rank 0 says why.
fn load_agreed(
    checkpoint: &Checkpoint,
    loaded: Result<Vec<PartCrc>, CheckpointError>,
    ranks: &dyn Ranks,
) -> Result<(), GenerateError> {
    let mut mine = vec![u8::from(loaded.is_err())];
    for part in loaded.as_deref().unwrap_or_default() {
        mine.extend_from_slice(&part.crc.to_le_bytes());
        mine.extend_from_slice(&part.len.to_le_bytes());
    }
    let all = ranks.gather_bytes(&mine);
    if let Some(failed) = all.iter().position(|m| m.first() != Some(&0)) {
        return match loaded {
            Err(e) => Err(e.into()),
            Ok(_) => Err(GenerateError::OtherRank { rank: failed }),
        };
    }
    let parts: Vec<Vec<PartCrc>> = all
        .iter()
        .map(|m| {
            m[1..]
                .chunks_exact(12)
                .map(|b| PartCrc {
                    crc: u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
                    len: u64::from_le_bytes([b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11]]),
                })
                .collect()
        })
        .collect();
    match checkpoint.check_parts(&parts) {
        Err(_) if ranks.rank() != 0 => Err(GenerateError::OtherRank { rank: 0 }),
        checked => Ok(checked?),
    }
}

/// The writer thread of a rank: saves each layer's blocks it is handed,
/// and hands back their CRC (or why they could not be saved, and stops).
fn save_layers(
    file: &BlockFile,
    layers: mpsc::Receiver<(u32, Vec<usize>, u64)>,
    saved: &mpsc::Sender<Result<Saved, CheckpointError>>,
    bits: &[AtomicU64],
    block_words: usize,
    cost: &SaveCost,
) {
    for (layer, blocks, won) in layers {
        let start = Instant::now();
        let part = file.write(&blocks, bits);
        cost.add(start.elapsed(), (blocks.len() * block_words * 8) as u64);
        let failed = part.is_err();
        let _ = saved.send(part.map(|part| Saved { layer, part, won }));
        if failed {
            return;
        }
    }
}

/// A rank's part of a layer, saved and synced.
#[derive(Clone, Copy, Debug)]
struct Saved {
    layer: u32,
    part: PartCrc,
    /// Positions won in the part.
    won: u64,
}

impl Saved {
    const LEN: usize = 24;

    fn to_bytes(self) -> [u8; Saved::LEN] {
        let mut b = [0u8; Saved::LEN];
        b[..4].copy_from_slice(&self.layer.to_le_bytes());
        b[4..8].copy_from_slice(&self.part.crc.to_le_bytes());
        b[8..16].copy_from_slice(&self.part.len.to_le_bytes());
        b[16..].copy_from_slice(&self.won.to_le_bytes());
        b
    }

    fn from_bytes(b: &[u8]) -> Saved {
        let u32_at = |at: usize| u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]]);
        let u64_at = |at: usize| u64::from_le_bytes(b[at..at + 8].try_into().unwrap_or([0; 8]));
        Saved {
            layer: u32_at(0),
            part: PartCrc {
                crc: u32_at(4),
                len: u64_at(8),
            },
            won: u64_at(16),
        }
    }
}

/// How a rank saves its layers to the checkpoint the ranks share: its
/// writer thread writes and syncs its part of a layer; after each layer the
/// ranks tell one another the parts they have saved, and once every rank
/// has saved its part of the next layer, rank 0 appends that layer's
/// record. The ranks decide together which layers they save (each says
/// whether it would, as one process decides), so that every layer saved
/// is saved by all.
struct Saver<'a> {
    checkpoint: Checkpoint,
    every: Duration,
    cost: &'a SaveCost,
    start: Instant,
    last_save: Instant,
    /// `None` once the pass is over: the writer finishes and stops.
    to_writer: Option<mpsc::Sender<(u32, Vec<usize>, u64)>>,
    from_writer: mpsc::Receiver<Result<Saved, CheckpointError>>,
    /// Layers finished and not yet handed to the writer (a record follows
    /// the one before it, so they go in order, together).
    pending: Vec<(u32, Vec<usize>, u64)>,
    pending_bytes: u64,
    /// Why this rank's writer stopped.
    failed: Option<CheckpointError>,
    /// Rank 0: the parts saved of the layers not yet recorded, by rank.
    parts: BTreeMap<u32, Vec<Option<Saved>>>,
}

impl Saver<'_> {
    /// Layer `layer` is solved: this rank's `blocks` of it, `won` positions
    /// of them won. Saves the layers finished when the ranks agree they
    /// are due, and records those every rank has saved.
    fn layer_done(
        &mut self,
        layer: u32,
        blocks: Vec<usize>,
        won: u64,
        ranks: &dyn Ranks,
    ) -> Result<(), GenerateError> {
        self.pending_bytes += (blocks.len() * self.checkpoint.block_file().block_bytes()) as u64;
        self.pending.push((layer, blocks, won));
        let due = self.cost.due(
            self.every,
            self.last_save.elapsed(),
            self.pending_bytes,
            self.start.elapsed(),
        );
        if self.sync(due, ranks)? {
            self.last_save = Instant::now();
            self.cost.queue(self.pending.len() as u64);
            self.pending_bytes = 0;
            if let Some(to_writer) = &self.to_writer {
                for layer in self.pending.drain(..) {
                    // A writer that stopped says why at the next sync.
                    let _ = to_writer.send(layer);
                }
            }
        }
        Ok(())
    }

    /// The pass is over (or stopped): waits for the layers handed to the
    /// writer, and records them.
    fn finish(&mut self, ranks: &dyn Ranks) -> Result<(), GenerateError> {
        self.to_writer = None;
        // The writer's channel closes when it has saved everything.
        let mut saved = Vec::new();
        while let Ok(s) = self.from_writer.recv() {
            saved.push(s);
        }
        self.sync_with(saved, false, ranks).map(|_| ())
    }

    /// Tells the other ranks the parts this rank has saved since the last
    /// sync and whether it would save the layers finished now (`due`);
    /// rank 0 records the layers complete. Returns whether every rank
    /// would save now.
    fn sync(&mut self, due: bool, ranks: &dyn Ranks) -> Result<bool, GenerateError> {
        let saved: Vec<_> = self.from_writer.try_iter().collect();
        self.sync_with(saved, due, ranks)
    }

    fn sync_with(
        &mut self,
        saved: Vec<Result<Saved, CheckpointError>>,
        due: bool,
        ranks: &dyn Ranks,
    ) -> Result<bool, GenerateError> {
        let mut mine = vec![0, u8::from(due)];
        for s in saved {
            match s {
                Ok(s) => mine.extend_from_slice(&s.to_bytes()),
                Err(e) => self.failed = self.failed.take().or(Some(e)),
            }
        }
        mine[0] = u8::from(self.failed.is_some());
        let all = ranks.gather_bytes(&mine);
        let (rank, size) = (ranks.rank(), ranks.size());
        if let Some(failed) = all.iter().position(|m| m[0] != 0) {
            return Err(match self.failed.take() {
                Some(e) if failed == rank => e.into(),
                _ => GenerateError::OtherRank { rank: failed },
            });
        }
        let due = all.iter().all(|m| m[1] == 1);
        // Rank 0 records the layers every rank has saved, in order.
        let mut recorded = Ok(());
        if rank == 0 {
            for (r, m) in all.iter().enumerate() {
                for s in m[2..].chunks_exact(Saved::LEN).map(Saved::from_bytes) {
                    self.parts
                        .entry(s.layer)
                        .or_insert_with(|| vec![None; size])[r] = Some(s);
                }
            }
            while let Some(entry) = self.parts.first_entry() {
                if *entry.key() != self.checkpoint.layers_done()
                    || entry.get().iter().any(Option::is_none)
                {
                    break;
                }
                let (layer, parts) = entry.remove_entry();
                let parts: Vec<Saved> = parts.into_iter().flatten().collect();
                let crcs: Vec<PartCrc> = parts.iter().map(|s| s.part).collect();
                let blocks = crcs.iter().map(|p| p.len).sum::<u64>()
                    / self.checkpoint.block_file().block_bytes() as u64;
                let won = parts.iter().map(|s| s.won).sum();
                recorded = self
                    .checkpoint
                    .append(layer, blocks, won, PartCrc::combine(&crcs));
                if recorded.is_err() {
                    break;
                }
            }
        }
        match first_failed(ranks, recorded.is_err()) {
            None => Ok(due),
            Some(_) if rank == 0 => Err(recorded
                .err()
                .map_or(GenerateError::OtherRank { rank: 0 }, Into::into)),
            Some(failed) => Err(GenerateError::OtherRank { rank: failed }),
        }
    }
}

/// Opens the checkpoint at `path` for every rank: rank 0 makes or opens it
/// (and locks it), then the others open it. Every rank must read the same
/// layers from it: a rank that sees another file (a directory the ranks do
/// not share) stops them all.
fn open_checkpoint(
    path: &Path,
    shape: Shape,
    ranks: &dyn Ranks,
) -> Result<Checkpoint, GenerateError> {
    let rank = ranks.rank();
    let opened = (rank == 0).then(|| Checkpoint::open(path, shape));
    if first_failed(ranks, matches!(opened, Some(Err(_)))).is_some() {
        return Err(match opened {
            Some(Err(e)) => e.into(),
            _ => GenerateError::OtherRank { rank: 0 },
        });
    }
    let checkpoint = match opened {
        Some(opened) => opened,
        None => Checkpoint::join(path, shape),
    };
    if let Some(failed) = first_failed(ranks, checkpoint.is_err()) {
        return Err(match checkpoint {
            Err(e) => e.into(),
            Ok(_) => GenerateError::OtherRank { rank: failed },
        });
    }
    let checkpoint = checkpoint?;
    let done = u64::from(checkpoint.layers_done());
    let least = u64::MAX - ranks.max(u64::MAX - done);
    if least != ranks.max(done) {
        return Err(if rank == 0 {
            CheckpointError::Refused {
                path: path.to_owned(),
                reason:
                    "the ranks see different files under its name; they must share its directory"
                        .into(),
            }
            .into()
        } else {
            GenerateError::OtherRank { rank: 0 }
        });
    }
    Ok(checkpoint)
}

/// This rank's blocks of a layer cut into rounds, as many on every rank
/// (each round is one exchange that every rank takes part in): each a run
/// of consecutive blocks, with the blocks of other ranks they read (sorted
/// by owner, then number: the order the owners send them in). Every rank
/// cuts its share into runs of equal length, so that no rank waits for
/// another at the end of a round, in as few rounds as keep each run's
/// blocks read from others within `budget` (a block alone may read more).
fn plan_rounds(
    mine: &[usize],
    tops: &[usize],
    budget: usize,
    rank: usize,
    owner_of: &dyn Fn(usize) -> usize,
    ranks: &dyn Ranks,
) -> Vec<(Range<usize>, Vec<usize>)> {
    // Each block's successors owned by others, found once: `remote[k]` are
    // those of `mine[k]`.
    let mut remote: Vec<u32> = Vec::new();
    let mut ends = Vec::with_capacity(mine.len());
    for &block in mine {
        remote.extend(
            tops.iter()
                .filter(|&&m| block & m == 0)
                .map(|&m| block | m)
                .filter(|&s| owner_of(s) != rank)
                .map(|s| s as u32),
        );
        ends.push(remote.len());
    }
    let of = |k: usize| &remote[if k == 0 { 0 } else { ends[k - 1] }..ends[k]];
    // Distinct blocks a run reads, counted with a stamp a block (the run's
    // number) instead of a sort.
    let most = remote.iter().max().map_or(0, |&m| m as usize + 1);
    let mut stamps = vec![0u32; most];
    let mut stamp = 0u32;
    let cut = |count: usize| -> Vec<Range<usize>> {
        (0..count).map(|k| share(mine.len(), k, count)).collect()
    };
    let mut fits = |count: usize| {
        cut(count).into_iter().all(|run| {
            stamp += 1;
            let mut distinct = 0;
            for k in run {
                for &s in of(k) {
                    if stamps[s as usize] != stamp {
                        stamps[s as usize] = stamp;
                        distinct += 1;
                    }
                }
            }
            distinct <= budget
        })
    };
    // Fewest equal runs that fit, doubling then bisecting: the runs of a
    // cut do not nest in the next one's, but more runs read less.
    let mut count = 1;
    while count < mine.len() && !fits(count) {
        count *= 2;
    }
    let (mut low, mut high) = (count / 2 + 1, count);
    while low < high {
        let mid = (low + high) / 2;
        if fits(mid) {
            high = mid;
        } else {
            low = mid + 1;
        }
    }
    let count = ranks.max(high.min(mine.len()).max(1) as u64) as usize;
    cut(count)
        .into_iter()
        .map(|run| {
            let mut want: Vec<(usize, usize)> = run
                .clone()
                .flat_map(|k| of(k).iter().map(|&s| (owner_of(s as usize), s as usize)))
                .collect();
            want.sort_unstable();
            want.dedup();
            (run, want.into_iter().map(|(_, s)| s).collect())
        })
        .collect()
}

/// Colex ranks of the numbers of `bits` bits: a layer's blocks in
/// [`layer_members`] order are numbered 0, 1, 2, ...
struct Colex {
    /// `binomial[n][k]` = C(n, k), n and k up to `bits`.
    binomial: Vec<Vec<usize>>,
    bits: u32,
}

impl Colex {
    fn new(bits: u32) -> Colex {
        let n = bits as usize + 1;
        let mut binomial = vec![vec![0usize; n + 1]; n + 1];
        for i in 0..=n {
            binomial[i][0] = 1;
            for k in 1..=i {
                binomial[i][k] = binomial[i - 1][k - 1] + binomial[i - 1][k];
            }
        }
        Colex { binomial, bits }
    }

    /// The index of `x` among the numbers with as many bits set, in
    /// increasing order: the sum of C(c_i, i) over its set bits c_1 < c_2 < ...
    fn rank(&self, x: usize) -> usize {
        let (mut rank, mut rest) = (0, x);
        let mut i = 1;
        while rest != 0 {
            rank += self.binomial[rest.trailing_zeros() as usize][i];
            i += 1;
            rest &= rest - 1;
        }
        rank
    }

    /// How many numbers of `bits` bits have `ones` set.
    fn layer_len(&self, ones: u32) -> usize {
        self.binomial[self.bits as usize][ones as usize]
    }
}

/// A bitset of a whole table's size that takes memory only where written:
/// an anonymous mapping without reserved swap, its untouched pages shared
/// zeros. (An allocation would not do: the allocator zeroes large aligned ones
/// with a memset, making the whole table resident.)
struct VirtualBits {
    map: MmapMut,
    words: usize,
}

impl VirtualBits {
    fn new(words: usize) -> Result<VirtualBits, GenerateError> {
        let bytes = words * 8;
        let map = MmapOptions::new()
            .len(bytes)
            .no_reserve_swap()
            .map_anon()
            .map_err(|_| GenerateError::Allocation {
                bytes: bytes as u64,
            })?;
        // One touched 32 KiB block would otherwise take a 2 MiB huge page.
        #[cfg(target_os = "linux")]
        let _ = map.advise(memmap2::Advice::NoHugePage);
        Ok(VirtualBits { map, words })
    }

    fn atomic(&self) -> &[AtomicU64] {
        // SAFETY: the mapping is page-aligned, `words * 8` bytes long and
        // lives as long as the borrow; AtomicU64 has u64's layout, and
        // every access while it is borrowed so goes through the atomics.
        unsafe { std::slice::from_raw_parts(self.map.as_ptr().cast::<AtomicU64>(), self.words) }
    }

    fn words(&self) -> &[u64] {
        // SAFETY: as in `atomic`; no atomic borrow is alive at the same time.
        unsafe { std::slice::from_raw_parts(self.map.as_ptr().cast::<u64>(), self.words) }
    }

    fn words_mut(&mut self) -> &mut [u64] {
        // SAFETY: as in `atomic`, borrowed mutably.
        unsafe { std::slice::from_raw_parts_mut(self.map.as_mut_ptr().cast::<u64>(), self.words) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colex_ranks_follow_layer_order() {
        let colex = Colex::new(10);
        for ones in 0..=10 {
            let layer: Vec<usize> = layer_members(10, ones).collect();
            assert_eq!(layer.len(), colex.layer_len(ones));
            for (i, &x) in layer.iter().enumerate() {
                assert_eq!(colex.rank(x), i);
            }
        }
    }
}
