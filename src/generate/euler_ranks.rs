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
//! round is solved (unless the next round reads them too). Each rank keeps
//! its own blocks packed, in the order it makes them (`BlockPlaces`), and
//! the ranks write the file together in windows of consecutive blocks
//! ([`RankTables::write`]). Why this scheme and not one-sided windows or a
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
//! are not. Each rank saves its range of the byte columns into the shared
//! checkpoint at its positions' places, so that any split of the ranks
//! resumes it (see [`super::euler_depth_save`]).

use std::io;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicU64;
use std::time::Duration;

use boardbase_tables::euler::depth::DepthSolver;
use boardbase_tables::euler::winloss::{self, WinLossSolver, layer_members};
use boardbase_tables::shape::Shape;
use memmap2::{MmapMut, MmapOptions};
use rayon::prelude::*;

use super::checkpoint::{Checkpoint, Geometry};
use super::euler_tables::{DEPTH_CHUNK_WORDS, EulerDepth, EulerTables, depth_pass};
use super::euler_winloss::{BYTES_A_BLOCK, BlockPlaces, Owners, win_loss};
use super::{
    Cancel, EulerSummary, GenerateError, Hooks, Phase, Progress, Puzzle, Reporter,
    SMALL_ALLOCATIONS, check_cells, pool_threads, try_vec_reported,
};
use crate::euler::Outcome;
use crate::ranks::{Ranks, agree, share};
use crate::tablefile::bits_bytes;
use crate::tablefile::parts::{BLOCK_LEN, Parts, write_parts};

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
    /// and the moves-left pass's columns after its steps, and first resume
    /// from what it holds, as
    /// [`EulerOptions::checkpoint`](super::EulerOptions::checkpoint) does
    /// in one process: the same file, which either resumes. Every rank
    /// must see it (a directory they share): rank 0 creates and locks it,
    /// each rank writes and reads its own blocks. `None`: no checkpoint.
    pub checkpoint: Option<PathBuf>,
    /// Save the finished layers and steps at most this often, as
    /// [`EulerOptions::checkpoint_every`](super::EulerOptions::checkpoint_every)
    /// (the ranks save a layer or a step when every one of them would).
    pub checkpoint_every: Duration,
}

/// This rank's part of Euler tables made over several ranks.
pub struct RankTables {
    shape: Shape,
    /// This rank's blocks, at their `places`; every block of the table
    /// where `whole` is set (they are then in the table's order).
    bits: Bitset,
    places: BlockPlaces,
    own_blocks: Vec<usize>,
    whole: bool,
    /// The exchange budget: it bounds the write's rounds too.
    exchange_bytes: u64,
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

    /// The tables of a job of one rank, whose bitset is the whole table:
    /// the columns of one process's [`EulerTables`], taken without a copy.
    pub(super) fn into_tables(self) -> EulerTables {
        debug_assert!(self.whole, "one rank holds the whole table");
        let shape = self.shape;
        EulerTables {
            shape,
            moves: boardbase_tables::euler::moves(shape).as_slice().to_vec(),
            winning: self.bits.into_words(),
            depth: self
                .depth
                .map(|(_, plies, best_move)| EulerDepth { plies, best_move }),
            summary: self.summary,
            classes: None,
        }
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
    /// is a device or a pipe: the ranks write a file in parts) as a job
    /// says them: [`GenerateError::Write`] for an I/O error,
    /// [`GenerateError::Table`] for any other; on the others,
    /// [`GenerateError::OtherRank`].
    pub fn write(&self, path: &Path, ranks: &dyn Ranks) -> Result<u64, GenerateError> {
        let shape = self.shape;
        let full = self.full();
        let (rank, size) = (ranks.rank(), ranks.size());
        let fill = |parts: &mut Parts<'_>| {
            let entries = 1u64 << shape.cells();
            if self.whole {
                put_bits_share(parts, 0, self.bits.words(), entries, rank, size)?;
            } else {
                self.write_windows(parts, ranks)?;
            }
            if let Some((start, plies, best)) = self.depth_part()
                && !plies.is_empty()
            {
                parts.put(1, start, plies)?;
                parts.put(2, start, best)?;
            }
            if rank == 0 {
                put_moves(parts, if full { 3 } else { 1 }, shape)?;
            }
            Ok(())
        };
        write_parts(
            path,
            Puzzle::Euler,
            shape,
            full,
            None,
            ranks,
            fill,
            |error| GenerateError::writing(path, error),
        )
    }

    /// Writes the winning column of blocks packed on each rank in windows
    /// of consecutive blocks, each written whole by one rank: the ranks'
    /// blocks are scattered over the file, 32 KiB apart, and the disk takes
    /// large writes in order far faster than many small ones (6x6, 2 ranks:
    /// 58 s to write each rank's own blocks past the page cache). A round
    /// covers [`write_span`] bytes, a window a rank; each rank sends every
    /// writer its blocks of the writer's window (every rank knows who owns
    /// which block), and each writes its window. An I/O error stops this
    /// rank's writes, not the rounds: the others are still sending to it.
    fn write_windows(&self, parts: &mut Parts<'_>, ranks: &dyn Ranks) -> io::Result<()> {
        let (rank, size) = (ranks.rank(), ranks.size());
        let wl = WinLossSolver::new(self.shape);
        let (n, blocks) = (wl.block_words(), wl.blocks());
        let owners = Owners::new(wl.top_bits(), size);
        let window = (write_span(self.exchange_bytes) as usize / size / (n * 8)).max(1);
        let windows = blocks.div_ceil(window);
        let words = self.bits.words();
        let mut own = self.own_blocks.clone();
        own.sort_unstable();
        let mut own = own.into_iter().peekable();
        let (mut send, mut recv) = (Vec::new(), Vec::new());
        // A window in order, as far into a page as the file's column starts
        // (the page-aligned bytes then go to the disk without a copy).
        let pad = parts.page_offset(0);
        let (mut bytes, mut written) = match MmapMut::map_anon(pad + window * n * 8) {
            Ok(map) => (Some(map), Ok(())),
            Err(e) => (None, Err(e)),
        };
        for round in (0..windows).step_by(size) {
            let span = |k: usize| {
                ((round + k) * window).min(blocks)..((round + k + 1) * window).min(blocks)
            };
            // This rank's blocks of each other writer's window, in order
            // (those of its own window are copied from where they are).
            send.clear();
            let mut send_counts = vec![0; size];
            let end = span(size - 1).end;
            while let Some(b) = own.next_if(|&b| b < end) {
                let writer = b / window - round;
                if writer != rank {
                    send_counts[writer] += n;
                    let at = self.places.place(b) * n;
                    send.extend_from_slice(&words[at..at + n]);
                }
            }
            // Its own window's blocks of other ranks, from each in order.
            let mine = span(rank);
            let mut recv_counts = vec![0; size];
            for b in mine.clone() {
                let owner = owners.of(b);
                if owner != rank {
                    recv_counts[owner] += n;
                }
            }
            recv.resize(recv_counts.iter().sum(), 0);
            ranks.exchange_known(&send, &send_counts, &recv_counts, &mut recv);
            let Some(bytes) = bytes
                .as_mut()
                .filter(|_| !mine.is_empty() && written.is_ok())
            else {
                continue;
            };
            let mut from: Vec<usize> = recv_counts
                .iter()
                .scan(0, |at, &c| {
                    *at += c;
                    Some(*at - c)
                })
                .collect();
            let ordered = &mut bytes[pad..pad + mine.len() * n * 8];
            for (b, block) in mine.clone().zip(ordered.chunks_exact_mut(n * 8)) {
                let owner = owners.of(b);
                let words = if owner == rank {
                    let at = self.places.place(b) * n;
                    &words[at..at + n]
                } else {
                    let at = &mut from[owner];
                    *at += n;
                    &recv[*at - n..*at]
                };
                for (word, out) in words.iter().zip(block.chunks_exact_mut(8)) {
                    out.copy_from_slice(&word.to_le_bytes());
                }
            }
            written = parts.put(0, (mine.start * n * 8) as u64, ordered);
        }
        written
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

/// Writes the `moves` column, `column` of the file, of `shape`: its masks
/// little-endian, as [`Table::write`](crate::tablefile::Table::write)
/// writes them.
pub(super) fn put_moves(parts: &mut Parts<'_>, column: usize, shape: Shape) -> io::Result<()> {
    let moves: Vec<u8> = boardbase_tables::euler::moves(shape)
        .as_slice()
        .iter()
        .flat_map(|m| m.to_le_bytes())
        .collect();
    parts.put(column, 0, &moves)
}

/// Writes rank `rank`'s share (of `size`) of the blocks of the bit column
/// `column`, `entries` bits, from `words`, the whole column: every rank
/// holds it, and each writes its contiguous share of the file's blocks.
pub(super) fn put_bits_share(
    parts: &mut Parts<'_>,
    column: usize,
    words: &[u64],
    entries: u64,
    rank: usize,
    size: usize,
) -> io::Result<()> {
    let len = entries.div_ceil(8);
    let block = u64::from(BLOCK_LEN);
    let blocks = share(len.div_ceil(block) as usize, rank, size);
    let (from, to) = (
        blocks.start as u64 * block,
        (blocks.end as u64 * block).min(len),
    );
    // One conversion buffer for every piece; whole words from a multiple
    // of 8 bytes (the blocks and the chunks are).
    let mut buf = Vec::new();
    let mut at = from;
    while at < to {
        let end = (at + WRITE_CHUNK).min(to);
        let first = (at / 8) as usize;
        let last = (end.div_ceil(8) as usize).min(words.len());
        bits_bytes(words, first..last, entries, &mut buf);
        buf.truncate((end - at) as usize);
        parts.put(column, at, &buf)?;
        at = end;
    }
    Ok(())
}

/// Bytes of the winning column the ranks write in one round of
/// [`RankTables::write_windows`], a window a rank: 16 MiB, or the exchange
/// budget where that is less.
fn write_span(exchange_bytes: u64) -> u64 {
    exchange_bytes.clamp(1, 16 << 20)
}

/// Bytes one rank takes to write its part of a file from columns it holds
/// whole, as a rank of a job by class does, whatever the file's size: the
/// conversion buffer and the buffer the block CRCs are read back through
/// (1 MiB each), the buffer of direct writes (1 MiB) and a few bytes a
/// column. The block CRCs are written in place as the blocks are, never
/// gathered.
pub(super) const PART_WRITE_MEMORY: u64 = (3 << 20) + (64 << 10);

/// Bytes one rank of `ranks` takes to write its part of a file, whatever
/// its size: the conversion buffer and the buffer the block CRCs are read
/// back through (1 MiB each), the buffer of direct writes (1 MiB), a few
/// bytes a column (the block CRCs are written in place as the blocks are,
/// never gathered), and a round of the winning column's windows (the
/// blocks it sends, at most a round: 16 MiB or `exchange_bytes`, or a block
/// a rank where that is more; and its window twice: as received and in
/// order).
pub fn euler_rank_write_memory(shape: Shape, ranks: usize, exchange_bytes: u64) -> u64 {
    let block = WinLossSolver::new(shape).block_words() as u64 * 8;
    let ranks = ranks.max(1) as u64;
    // A window is one block at least, so a round may pass the span.
    let window = (write_span(exchange_bytes) / ranks / block).max(1) * block;
    PART_WRITE_MEMORY + ranks * window + 2 * window
}

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
    bytes += wl.blocks() as u64 * BYTES_A_BLOCK;
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
    make(shape, options, ranks, &hooks)
}

/// The Euler tables' one pass, on the current rayon pool: this rank's
/// part of them, made with the other ranks of `ranks`. One process
/// ([`generate::euler`](super::euler)) is the job of one rank, [`Solo`]:
/// every block its own, nothing exchanged, and its bitset the table's
/// winning column.
///
/// [`Solo`]: crate::ranks::Solo
pub(super) fn make<F: Fn(Progress) + Sync>(
    shape: Shape,
    options: &RanksOptions,
    ranks: &dyn Ranks,
    hooks: &Hooks<'_, F>,
) -> Result<RankTables, GenerateError> {
    let wl = WinLossSolver::new(shape);
    let positions = 1u64 << shape.cells();
    // Full tables need the whole bitset; blocks under a file block (boards
    // under 15 squares, 2 KiB at most) are written whole too. Otherwise a
    // rank keeps its blocks packed.
    let whole = ranks.size() == 1 || options.full || wl.block_words() * 8 < BLOCK_LEN as usize;
    let (places, words) = if whole {
        (BlockPlaces::InTable, wl.words())
    } else {
        let (places, blocks) = BlockPlaces::packed(wl.top_bits(), ranks.rank(), ranks.size());
        (places, blocks * wl.block_words())
    };
    let checkpoint = match &options.checkpoint {
        Some(path) => Some(open_checkpoint(path, Geometry::of_positions(shape), ranks)?),
        None => None,
    };
    let bits = if ranks.size() == 1 {
        Bitset::owned(words, positions, hooks)
    } else {
        Bitset::mapped(words, !whole)
    };
    // Every rank learns whether every rank has its memory.
    let mut bits = agree(ranks, bits)?;
    let saving = checkpoint.map(|c| (c, options.checkpoint_every));
    let (won, own_blocks, received, unsaved) = win_loss(
        &wl,
        bits.atomic(),
        &places,
        options.exchange_bytes,
        saving,
        options.full,
        ranks,
        hooks,
    )?;
    let exchanged: Vec<u64> = received.iter().map(|&r| ranks.sum(r)).collect();
    let won = ranks.sum(won);
    if whole && ranks.size() > 1 {
        ranks.or_words(bits.words_mut());
    }
    // The block of position 0 (the empty board), wherever it is.
    let empty_won =
        own_blocks.contains(&0) && bits.words()[places.place(0) * wl.block_words()] & 1 == 1;
    let empty_won = ranks.max(u64::from(empty_won)) == 1;

    let depth = if options.full {
        let solver = DepthSolver::new(shape);
        let words = solver.words();
        // Ranges of whole 4 KiB blocks of the byte columns.
        let units = words.div_ceil(DEPTH_UNIT_WORDS);
        let mine = share(units, ranks.rank(), ranks.size());
        let range =
            (mine.start * DEPTH_UNIT_WORDS).min(words)..(mine.end * DEPTH_UNIT_WORDS).min(words);
        let (plies, best) = depth_pass(shape, bits.words(), range.clone(), unsaved, ranks, hooks)?;
        Some((range, plies, best))
    } else {
        if whole {
            // No depth pass to check every bit against its successors:
            // check an even sample of words, about 16,000.
            let winning = bits.words();
            let solver = DepthSolver::new(shape);
            let step = (winning.len() >> 14).max(1);
            (0..winning.len())
                .into_par_iter()
                .step_by(step)
                .for_each(|w| solver.check(winning, w, 1));
        }
        None
    };
    let empty_moves_left = match &depth {
        Some((range, plies, _)) => {
            let mine = (range.start == 0 && !plies.is_empty()).then(|| u64::from(plies[0]) + 1);
            ranks.max(mine.unwrap_or(0)).checked_sub(1).map(|p| p as u8)
        }
        None => None,
    };
    // Bits past 2^cells (boards of under 6 squares) are 0; the full board
    // is won but not open.
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
        places,
        own_blocks,
        whole,
        exchange_bytes: options.exchange_bytes,
        depth,
        summary,
        exchanged,
    })
}

/// Words of the smallest range of positions one rank's depth columns
/// take: 64, the positions of one 4 KiB block of the byte columns.
const DEPTH_UNIT_WORDS: usize = 4096 / 64;

const _: () = assert!(DEPTH_CHUNK_WORDS.is_multiple_of(DEPTH_UNIT_WORDS));

/// Opens the checkpoint at `path` for every rank: rank 0 makes or opens it
/// (and locks it), then the others open it. Every rank must read the same
/// layers from it: a rank that sees another file (a directory the ranks do
/// not share) stops them all.
pub(super) fn open_checkpoint(
    path: &Path,
    geometry: Geometry,
    ranks: &dyn Ranks,
) -> Result<Checkpoint, GenerateError> {
    let rank = ranks.rank();
    // Rank 0 opens (or makes) the file, then the others join it.
    let opened = (rank == 0)
        .then(|| Checkpoint::open(path, geometry.clone()))
        .transpose();
    let opened = agree(ranks, opened)?;
    let checkpoint = match opened {
        Some(opened) => Ok(opened),
        None => Checkpoint::join(path, geometry),
    };
    let checkpoint = agree(ranks, checkpoint)?;
    let step = checkpoint.depth_record().map_or(0, |r| r.step + 1);
    let done = u64::from(checkpoint.layers_done()) | u64::from(step) << 32;
    let least = u64::MAX - ranks.max(u64::MAX - done);
    if least != ranks.max(done) {
        return Err(if rank == 0 {
            GenerateError::CheckpointRefused {
                path: path.to_owned(),
                reason:
                    "the ranks see different files under its name; they must share its directory"
                        .into(),
            }
        } else {
            GenerateError::OtherRank { rank: 0 }
        });
    }
    Ok(checkpoint)
}

/// The win/loss bitset a rank makes its blocks in.
enum Bitset {
    /// One process's: every word, allocated and zeroed before the pass
    /// (the [`Phase::Allocate`] it reports), and handed over as the
    /// table's winning column without a copy.
    Owned(Vec<AtomicU64>),
    /// A rank's of several: a bitset that takes memory only where written
    /// (a rank's blocks in a bitset of the whole table's size), or packed
    /// and faulted in whole when mapped (every page is written by the
    /// pass: a rank the kernel cannot give them stops at the start, not
    /// hours in, and the solver takes no page faults): an anonymous
    /// mapping without reserved swap, its untouched pages shared zeros.
    /// (An allocation would not do: the allocator zeroes large aligned
    /// ones with a memset, making the whole bitset resident.)
    Mapped { map: MmapMut, words: usize },
}

impl Bitset {
    fn owned<F: Fn(Progress) + Sync>(
        words: usize,
        positions: u64,
        hooks: &Hooks<'_, F>,
    ) -> Result<Bitset, GenerateError> {
        let report = Reporter::start(hooks, Phase::Allocate, positions);
        let per_word = positions / words as u64;
        let bits = try_vec_reported(words, || AtomicU64::new(0), &report, per_word)?;
        report.finish();
        Ok(Bitset::Owned(bits))
    }

    fn mapped(words: usize, populate: bool) -> Result<Bitset, GenerateError> {
        let bytes = words * 8;
        let allocation = || GenerateError::Allocation {
            bytes: bytes as u64,
        };
        let map = MmapOptions::new()
            .len(bytes)
            .no_reserve_swap()
            .map_anon()
            .map_err(|_| allocation())?;
        // One touched 32 KiB block of a scattered few would otherwise take
        // a 2 MiB huge page. (Packed, huge pages were measured slower: 22.9
        // and 24.4 s to make 5x7 on 2 ranks, against 18.2 and 20.3 s.) Set
        // before the pages are faulted in, which takes them as it says.
        #[cfg(target_os = "linux")]
        {
            let _ = map.advise(memmap2::Advice::NoHugePage);
            // A kernel before 5.14 does not know the advice: the pass then
            // faults the pages in as it fills them.
            if populate
                && let Err(e) = map.advise(memmap2::Advice::PopulateWrite)
                && e.kind() != std::io::ErrorKind::InvalidInput
            {
                return Err(allocation());
            }
        }
        #[cfg(not(target_os = "linux"))]
        let _ = populate;
        Ok(Bitset::Mapped { map, words })
    }

    fn atomic(&self) -> &[AtomicU64] {
        match self {
            Bitset::Owned(bits) => bits,
            // SAFETY: the mapping is page-aligned, `words * 8` bytes long
            // and lives as long as the borrow; AtomicU64 has u64's layout,
            // and every access while it is borrowed so goes through the
            // atomics.
            Bitset::Mapped { map, words } => unsafe {
                std::slice::from_raw_parts(map.as_ptr().cast::<AtomicU64>(), *words)
            },
        }
    }

    fn words(&self) -> &[u64] {
        let atomic = self.atomic();
        // SAFETY: AtomicU64 has u64's size and alignment at least; no
        // atomic borrow is alive at the same time.
        unsafe { std::slice::from_raw_parts(atomic.as_ptr().cast::<u64>(), atomic.len()) }
    }

    fn words_mut(&mut self) -> &mut [u64] {
        let (ptr, len) = match self {
            Bitset::Owned(bits) => (bits.as_mut_ptr().cast::<u64>(), bits.len()),
            Bitset::Mapped { map, words } => (map.as_mut_ptr().cast::<u64>(), *words),
        };
        // SAFETY: as in `words`, borrowed mutably.
        unsafe { std::slice::from_raw_parts_mut(ptr, len) }
    }

    /// The words, owned: one process's taken as they are (same size and
    /// alignment: collected in place), a mapping's copied.
    fn into_words(self) -> Vec<u64> {
        match self {
            Bitset::Owned(bits) => bits.into_iter().map(AtomicU64::into_inner).collect(),
            Bitset::Mapped { .. } => self.words().to_vec(),
        }
    }
}
