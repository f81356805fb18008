//! The Game of Euler's win/loss pass, layer by layer, of one rank of a
//! job ([`crate::ranks`]; one process is the job of one rank, [`Solo`]):
//! its blocks of every layer, with the blocks of other ranks they read
//! fetched in rounds, resumed from a checkpoint and saved to it on a writer
//! thread while the next layer is solved. How the ranks share the table:
//! [`super::euler_ranks`].
//!
//! [`Solo`]: crate::ranks::Solo

use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use boardbase_tables::euler::winloss::{self, WinLossSolver, layer_members};
use rayon::prelude::*;

use super::checkpoint::{BlockFile, Checkpoint};
use super::{GenerateError, Hooks, Phase, Progress, Reporter};
use crate::ranks::{Ranks, agree_gather, agree_saves, any, owner, share};
use crate::tablefile::parts::PartCrc;

/// The win/loss pass of this rank: its blocks of every layer, made in
/// `words` at the places `places` gives them, in rounds with the blocks it
/// reads from other ranks, resumed from the checkpoint's layers and saving
/// the new ones to it (`saving`: the checkpoint and how often). Returns the
/// positions won in its blocks, the blocks, the bytes it received in each
/// layer and, where the depth pass saves to the checkpoint next
/// (`hand_over`), the checkpoint and the layers left to save.
#[allow(clippy::too_many_arguments)]
pub(super) fn win_loss<F: Fn(Progress) + Sync>(
    wl: &WinLossSolver,
    words: &[AtomicU64],
    places: &BlockPlaces,
    exchange_bytes: u64,
    saving: Option<(Checkpoint, Duration)>,
    hand_over: bool,
    ranks: &dyn Ranks,
    hooks: &Hooks<'_, F>,
) -> Result<WinLossMade, GenerateError> {
    let (rank, size) = (ranks.rank(), ranks.size());
    let top = wl.top_bits();
    let n = wl.block_words();
    let shape = wl.shape();
    let shift = shape.cells() as u32 - top;
    // The block-index parts of the moves that change it: a block's
    // successor blocks are `block | m` for each `m` disjoint from it.
    let mut tops: Vec<usize> = boardbase_tables::euler::moves(shape)
        .as_slice()
        .iter()
        .map(|&m| (m >> shift) as usize)
        .filter(|&m| m != 0)
        .collect();
    tops.sort_unstable();
    tops.dedup();
    let owners = Owners::new(top, size);
    let owner_of = |block: usize| owners.of(block);
    let colex = &owners.colex;
    // What this rank holds of other ranks' blocks at once, and (each of at
    // most size - 1 ranks asking at most this) what it sends at once.
    let budget = (exchange_bytes / size as u64 / (n as u64 * 8)).max(1) as usize;
    let mine_of = |i: u32| share(colex.layer_len(top - i), rank, size);
    let own = |b: usize| &words[places.place(b) * n..][..n];

    let mut own_blocks = Vec::new();
    let (mut won, done) = match &saving {
        Some((c, _)) if c.layers_done() > 0 => {
            let done = c.layers_done();
            let block_bytes = n as u64 * 8;
            let bytes = (0..done).map(|i| mine_of(i).len() as u64).sum::<u64>() * block_bytes;
            let report = Reporter::start(hooks, Phase::Resume, bytes);
            let part = |len: usize| share(len, rank, size);
            let members = |layer: u32| layer_members(top, top - layer);
            let loaded = c.load_part(&members, &part, &own, &|b| report.add(b));
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
    let unsaved = std::thread::scope(|scope| {
        let mut saver = saving.map(|saving| Saver::start(scope, saving, &own, n, &cost));
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
                        send.extend(own(b as usize).iter().map(|w| w.load(Relaxed)));
                    }
                    let send_counts: Vec<usize> = asked_counts.iter().map(|c| c * n).collect();
                    // `fetch` is in owner order, as the owners send.
                    let recv_counts: Vec<usize> = counts.iter().map(|c| c * n).collect();
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
                        NOT_POOLED => own(b),
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
        // Every rank gets here (each failure above is agreed by all of
        // them).
        let solved = solve();
        Saver::end_pass(saver, solved, ranks)
    })?;
    report.finish();
    Ok((won, own_blocks, received, unsaved.filter(|_| hand_over)))
}

/// What [`win_loss`] returns: the positions won in this rank's blocks, the
/// blocks, the bytes it received in each layer, and what it hands over to
/// the depth pass.
pub(super) type WinLossMade = (u64, Vec<usize>, Vec<u64>, Option<Unsaved>);

/// What the win/loss pass leaves the depth pass, which saves its steps to
/// the same checkpoint: the checkpoint, when the pass last saved, and the
/// layers it finished and did not save (this rank's blocks of each, and
/// the positions won in them, in order), which go with the depth pass's
/// first save.
pub(super) struct Unsaved {
    /// The checkpoint, every layer handed over recorded.
    pub(super) checkpoint: Checkpoint,
    /// How often to save.
    pub(super) every: Duration,
    /// When the pass last saved (or began).
    pub(super) last_save: Instant,
    /// The layers not saved.
    pub(super) layers: Vec<(u32, Vec<usize>, u64)>,
}

/// Bytes [`win_loss`] takes a block of the table, beside the bits: a
/// layer's block list (8 bytes a block at most), the blocks solved (8, at
/// most), the round planner's stamps (4), the places of the blocks fetched
/// (4) and the marks of those the next round reads (1).
pub(super) const BYTES_A_BLOCK: u64 = 25;

/// Where a rank keeps the blocks it makes in its bitset: block `b` is the
/// `place(b)`-th block of words.
#[derive(Debug)]
pub(super) enum BlockPlaces {
    /// At their places in a bitset of the whole table: one process, and
    /// ranks that put the whole table together after the pass.
    InTable,
    /// One after another, layer by layer, in a bitset of its own blocks:
    /// pages faulted in one after another cost half as much as pages
    /// scattered over the table's span (docs/performance.md).
    Packed {
        colex: Colex,
        /// By a block's bits set: the place of the layer's first block of
        /// this rank, less that block's index in the layer.
        base: Vec<isize>,
    },
}

impl BlockPlaces {
    /// The places of rank `rank`'s blocks (of `size`) of a table of `top`
    /// block-index bits, packed; and how many blocks they are.
    pub(super) fn packed(top: u32, rank: usize, size: usize) -> (BlockPlaces, usize) {
        let colex = Colex::new(top);
        let mut base = vec![0; top as usize + 1];
        let mut at = 0;
        // The layers in the order they are made: the most bits set first.
        for ones in (0..=top).rev() {
            let mine = share(colex.layer_len(ones), rank, size);
            base[ones as usize] = at as isize - mine.start as isize;
            at += mine.len();
        }
        (BlockPlaces::Packed { colex, base }, at)
    }

    /// Where block `block` is, in blocks (one of this rank's).
    pub(super) fn place(&self, block: usize) -> usize {
        match self {
            BlockPlaces::InTable => block,
            BlockPlaces::Packed { colex, base } => {
                (base[block.count_ones() as usize] + colex.rank(block) as isize) as usize
            }
        }
    }
}

/// Which rank makes each block: rank `r` of `size` the `r`-th contiguous
/// share of every layer, in [`layer_members`] order.
#[derive(Debug)]
pub(super) struct Owners {
    colex: Colex,
    size: usize,
}

impl Owners {
    /// The owners of the blocks of a table of `top` block-index bits made
    /// by `size` ranks.
    pub(super) fn new(top: u32, size: usize) -> Owners {
        Owners {
            colex: Colex::new(top),
            size,
        }
    }

    /// The rank that makes block `block`.
    pub(super) fn of(&self, block: usize) -> usize {
        let ones = block.count_ones();
        owner(
            self.colex.rank(block),
            self.colex.layer_len(ones),
            self.size,
        )
    }
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
pub(super) fn load_agreed(
    checkpoint: &Checkpoint,
    loaded: Result<Vec<PartCrc>, GenerateError>,
    ranks: &dyn Ranks,
) -> Result<(), GenerateError> {
    let mine = loaded.map(|parts| parts.iter().flat_map(|p| p.to_bytes()).collect());
    let all = agree_gather(ranks, mine)?;
    let parts: Vec<Vec<PartCrc>> = all
        .iter()
        .map(|m| {
            m.chunks_exact(PartCrc::LEN)
                .map(PartCrc::from_bytes)
                .collect()
        })
        .collect();
    // Every rank checks the same parts; rank 0 says why they are refused.
    match checkpoint.check_parts(&parts) {
        Err(_) if ranks.rank() != 0 => Err(GenerateError::OtherRank { rank: 0 }),
        checked => Ok(checked?),
    }
}

/// The writer thread of a rank: saves each layer's blocks it is handed,
/// and hands back their CRC (or why they could not be saved, and stops).
fn save_layers<'a>(
    file: &BlockFile,
    layers: mpsc::Receiver<(u32, Vec<usize>, u64)>,
    saved: &mpsc::Sender<Result<Saved, GenerateError>>,
    own: &(dyn Fn(usize) -> &'a [AtomicU64] + Sync),
    block_words: usize,
    cost: &SaveCost,
) {
    for (layer, blocks, won) in layers {
        let start = Instant::now();
        let part = file.write(&blocks, own);
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
pub(super) struct Saved {
    /// The layer.
    pub(super) layer: u32,
    /// The CRC and length of the rank's blocks of it, in the layer's order.
    pub(super) part: PartCrc,
    /// Positions won in the part.
    pub(super) won: u64,
}

impl Saved {
    /// Bytes of [`to_bytes`](Saved::to_bytes).
    pub(super) const LEN: usize = 24;

    /// What a rank tells the others.
    pub(super) fn to_bytes(self) -> [u8; Saved::LEN] {
        let mut b = [0u8; Saved::LEN];
        b[..4].copy_from_slice(&self.layer.to_le_bytes());
        b[4..8].copy_from_slice(&self.part.crc.to_le_bytes());
        b[8..16].copy_from_slice(&self.part.len.to_le_bytes());
        b[16..].copy_from_slice(&self.won.to_le_bytes());
        b
    }

    /// A part read back from [`to_bytes`](Saved::to_bytes).
    pub(super) fn from_bytes(b: &[u8]) -> Saved {
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
pub(super) struct Saver<'a> {
    checkpoint: Checkpoint,
    every: Duration,
    cost: &'a SaveCost,
    start: Instant,
    last_save: Instant,
    /// `None` once the pass is over: the writer finishes and stops.
    to_writer: Option<mpsc::Sender<(u32, Vec<usize>, u64)>>,
    from_writer: mpsc::Receiver<Result<Saved, GenerateError>>,
    /// Layers finished and not yet handed to the writer (a record follows
    /// the one before it, so they go in order, together).
    pending: Vec<(u32, Vec<usize>, u64)>,
    pending_bytes: u64,
    /// Why this rank's writer stopped.
    failed: Option<GenerateError>,
    /// Rank 0: the parts saved of the layers not yet recorded, by rank.
    parts: BTreeMap<u32, Vec<Option<Saved>>>,
}

impl<'a> Saver<'a> {
    /// A rank's saver of its layers to `checkpoint` (at most as often as
    /// `every` says), its writer on a thread of `scope`: it writes a
    /// layer's blocks `own(b)`, `block_words` words each, and counts what
    /// that costs in `cost`.
    pub(super) fn start<'scope>(
        scope: &'scope std::thread::Scope<'scope, '_>,
        (checkpoint, every): (Checkpoint, Duration),
        own: &'a (dyn Fn(usize) -> &'a [AtomicU64] + Sync),
        block_words: usize,
        cost: &'a SaveCost,
    ) -> Saver<'a>
    where
        'a: 'scope,
    {
        let (to_writer, layers) = mpsc::channel::<(u32, Vec<usize>, u64)>();
        let (saved, from_writer) = mpsc::channel();
        let file = checkpoint.block_file().clone();
        scope.spawn(move || save_layers(&file, layers, &saved, own, block_words, cost));
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
    }

    /// The end of a pass that saved through `saver` (if any) and ended
    /// with `solved`: the layers saved are recorded even when the job
    /// stops, and a cancelled pass first saves the layers it finished
    /// since the last save, so that an interrupted run resumes with all its
    /// work. Returns the checkpoint and the layers left to save.
    pub(super) fn end_pass(
        saver: Option<Saver<'_>>,
        solved: Result<(), GenerateError>,
        ranks: &dyn Ranks,
    ) -> Result<Option<Unsaved>, GenerateError> {
        let cancelled = matches!(solved, Err(GenerateError::Cancelled));
        let finished = saver.map(|s| s.finish(cancelled, ranks)).transpose();
        solved.and(finished)
    }

    /// Layer `layer` is solved: this rank's `blocks` of it, `won` positions
    /// of them won. Saves the layers finished when the ranks agree they
    /// are due, and records those every rank has saved.
    pub(super) fn layer_done(
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
    /// writer, and records them. A pass that was `cancelled` first hands
    /// over the layers finished and not yet saved (every rank holds the
    /// same ones: the ranks decide together when to save): Ctrl-C keeps
    /// every finished layer. A pass that ended does not (its checkpoint
    /// is removed once the table is written, or the depth pass saves them
    /// with its first step): it hands them back.
    pub(super) fn finish(
        mut self,
        cancelled: bool,
        ranks: &dyn Ranks,
    ) -> Result<Unsaved, GenerateError> {
        if cancelled && let Some(to_writer) = &self.to_writer {
            self.cost.queue(self.pending.len() as u64);
            for layer in self.pending.drain(..) {
                let _ = to_writer.send(layer);
            }
        }
        self.to_writer = None;
        // The writer's channel closes when it has saved everything.
        let mut saved = Vec::new();
        while let Ok(s) = self.from_writer.recv() {
            saved.push(s);
        }
        self.sync_with(saved, false, ranks)?;
        Ok(Unsaved {
            checkpoint: self.checkpoint,
            every: self.every,
            last_save: self.last_save,
            layers: self.pending,
        })
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
        saved: Vec<Result<Saved, GenerateError>>,
        due: bool,
        ranks: &dyn Ranks,
    ) -> Result<bool, GenerateError> {
        let size = ranks.size();
        agree_saves(
            ranks,
            due,
            saved,
            self.failed.take(),
            |s, out| out.extend_from_slice(&s.to_bytes()),
            // Rank 0 records the layers every rank has saved, in order.
            |all| {
                for (r, m) in all.iter().enumerate() {
                    for s in m.chunks_exact(Saved::LEN).map(Saved::from_bytes) {
                        self.parts
                            .entry(s.layer)
                            .or_insert_with(|| vec![None; size])[r] = Some(s);
                    }
                }
                record_layers(&mut self.checkpoint, &mut self.parts)
            },
        )
    }
}

/// Rank 0: appends the records of the layers every rank has saved
/// (`parts[layer][rank]`), in order from the next one the checkpoint
/// lacks; the others wait for their parts.
pub(super) fn record_layers(
    checkpoint: &mut Checkpoint,
    parts: &mut BTreeMap<u32, Vec<Option<Saved>>>,
) -> Result<(), GenerateError> {
    while let Some(entry) = parts.first_entry() {
        if *entry.key() != checkpoint.layers_done() || entry.get().iter().any(Option::is_none) {
            break;
        }
        let (layer, parts) = entry.remove_entry();
        let parts: Vec<Saved> = parts.into_iter().flatten().collect();
        let crcs: Vec<PartCrc> = parts.iter().map(|s| s.part).collect();
        let blocks =
            crcs.iter().map(|p| p.len).sum::<u64>() / checkpoint.block_file().block_bytes() as u64;
        let won = parts.iter().map(|s| s.won).sum();
        checkpoint.append(layer, blocks, won, PartCrc::combine(&crcs))?;
    }
    Ok(())
}

/// Solves `blocks` (of one layer, the layers above solved) on every core,
/// reporting their positions; returns the positions won. `block(b)` is
/// block `b`'s words, as [`WinLossSolver::solve_blocks_by`] takes them. Once
/// the job is cancelled the blocks left are skipped: the caller checks
/// before it uses the layer.
fn solve_blocks<'a, F: Fn(Progress) + Sync>(
    wl: &WinLossSolver,
    blocks: &[usize],
    block: impl Fn(usize) -> &'a [AtomicU64] + Sync,
    report: &Reporter<'_, F>,
) -> u64 {
    let per_block = wl.block_positions();
    blocks
        .par_chunks(winloss::LANES)
        .map_init(
            || vec![[0u64; winloss::LANES]; wl.block_words()],
            |acc, lanes| {
                if report.cancelled() {
                    return 0;
                }
                let won = wl.solve_blocks_by(lanes, &block, acc);
                report.add(per_block * lanes.len() as u64);
                won
            },
        )
        .sum::<u64>()
}

/// The share of a run's time its checkpoint may take: 10 %.
const SAVE_SHARE: f64 = 0.1;

/// The disk's speed assumed before the first save has measured it:
/// 200 MB/s, slower than most.
const ASSUMED_SAVE_RATE: f64 = 200e6;

/// What saving the checkpoint has cost so far, kept by the writer thread
/// and read by the solver to decide whether to hand it more: layers are
/// saved only while the time spent saving, with the next batch's (at the
/// speed measured so far), stays within [`SAVE_SHARE`] of the time the
/// pass has run. Writing overlaps the solving, but competes with it for
/// the disk and memory bandwidth: the bound keeps a short run's cost small
/// (it saves little), while a long run saves all it can.
#[derive(Default)]
pub(super) struct SaveCost {
    nanos: AtomicU64,
    bytes: AtomicU64,
    /// Layers handed over and not yet saved.
    queued: AtomicU64,
}

impl SaveCost {
    pub(super) fn add(&self, took: Duration, bytes: u64) {
        self.nanos.fetch_add(took.as_nanos() as u64, Relaxed);
        self.bytes.fetch_add(bytes, Relaxed);
        self.queued.fetch_sub(1, Relaxed);
    }

    pub(super) fn queue(&self, layers: u64) {
        self.queued.fetch_add(layers, Relaxed);
    }

    /// Whether the layers finished, `pending_bytes` of blocks, are to be
    /// saved now: every layer when `every` is zero; otherwise once `every`
    /// has passed since the last save (`since_save`), the writer is idle,
    /// and the save is affordable `elapsed` into the pass.
    pub(super) fn due(
        &self,
        every: Duration,
        since_save: Duration,
        pending_bytes: u64,
        elapsed: Duration,
    ) -> bool {
        every.is_zero()
            || (since_save >= every && self.idle() && self.affordable(pending_bytes, elapsed))
    }

    /// Whether the writer has saved all it was handed.
    fn idle(&self) -> bool {
        self.queued.load(Relaxed) == 0
    }

    /// Whether saving `bytes` more keeps the checkpoint's share of the
    /// `elapsed` time within [`SAVE_SHARE`].
    fn affordable(&self, bytes: u64, elapsed: Duration) -> bool {
        let spent = self.nanos.load(Relaxed) as f64 / 1e9;
        let saved = self.bytes.load(Relaxed) as f64;
        let rate = if spent > 0.0 && saved > 0.0 {
            saved / spent
        } else {
            ASSUMED_SAVE_RATE
        };
        spent + bytes as f64 / rate <= SAVE_SHARE * elapsed.as_secs_f64()
    }
}

/// [`GenerateError::Cancelled`] on every rank once any rank's job is
/// cancelled (a rank cannot stop alone: the others would wait for it).
pub(super) fn agree_not_cancelled<F: Fn(Progress) + Sync>(
    report: &Reporter<'_, F>,
    ranks: &dyn Ranks,
) -> Result<(), GenerateError> {
    if any(ranks, report.cancelled()) {
        return Err(GenerateError::Cancelled);
    }
    Ok(())
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
#[derive(Debug)]
pub(super) struct Colex {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packed_places_fill_a_ranks_bitset_in_the_order_made() {
        let top = 9;
        for size in 1..=4 {
            for rank in 0..size {
                let (places, count) = BlockPlaces::packed(top, rank, size);
                // A rank's blocks, layer by layer from the full one, each
                // layer's share in its order: places 0, 1, 2, ...
                let mine: Vec<usize> = (0..=top)
                    .rev()
                    .flat_map(|ones| {
                        let layer: Vec<usize> = layer_members(top, ones).collect();
                        layer[share(layer.len(), rank, size)].to_vec()
                    })
                    .collect();
                assert_eq!(mine.len(), count);
                for (k, &b) in mine.iter().enumerate() {
                    assert_eq!(places.place(b), k, "block {b} of rank {rank} of {size}");
                }
            }
        }
        assert_eq!(BlockPlaces::InTable.place(77), 77);
    }

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
