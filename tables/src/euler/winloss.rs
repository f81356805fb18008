//! The bit-parallel win/loss solver of the Game of Euler, for any shape of
//! at most [`MAX_CELLS`] cells.
//!
//! # Layout
//!
//! One bit a position: position `p` (the covered cells, in the shape's
//! layout) is bit `p % 64` of word `p / 64`, set when the player to move
//! wins. The full board is set (the opponent covered the last square). A
//! word holds the 64 positions that differ in the low 6 cells (`lo`, fewer
//! for boards of under 6 cells), and the word index `p >> 6` is split into
//! a *block* (`top`, the high bits) and a word within the block (`mid`, the
//! low [`block_bits`](WinLossSolver::block_bits) bits):
//!
//! ```text
//! position p = [ top | mid | lo ]      word = p >> 6 = [ top | mid ]
//!                 T     B     6        block = top: 2^B consecutive words
//! ```
//!
//! # Order
//!
//! A move sets cells that were clear, so every successor `p | m` has at
//! least the bits of `p` and at least one more. A move is split the same way,
//! `m = (m_top, m_mid, m_lo)`, and is solved according to its highest part:
//!
//! * `m_top != 0`: the successor lies in block `top | m_top`, which has more
//!   bits set than `top`. Blocks are solved in *layers* of decreasing
//!   popcount, so those blocks are final; blocks of one layer are
//!   independent of each other and may be solved in parallel (the library
//!   does, with one [`solve_block`](WinLossSolver::solve_block) call a
//!   block). A move applies to a whole word at once:
//!   `w |= (!w[succ] >> m_lo) & VALID[m_lo]`, where `VALID[m_lo]` keeps the
//!   positions `lo` with `lo & m_lo == 0` (then `lo | m_lo == lo + m_lo`,
//!   so bit `lo` of the shifted word is the successor's bit).
//! * `m_top == 0, m_mid != 0`: the successor is a word of the same block
//!   with a larger `mid`; words are solved in decreasing `mid` order.
//! * `m_top == m_mid == 0`: the move stays inside the word. The word's
//!   positions are finished by popcount of `lo`, from 6 down to 0:
//!   `w |= (!w >> m_lo) & VALID[m_lo] & LAYER[k]`, each layer reading only
//!   the finished layers above it.
//!
//! Moves sharing `(m_top, m_mid)` share one load. The shared bitset is a
//! slice of [`AtomicU64`] read and written with `Relaxed` ordering (plain
//! moves on the usual targets): a block writes only its own words and reads
//! only words of finished layers, and the caller separates layers (a join,
//! or one thread).

use core::sync::atomic::{AtomicU64, Ordering::Relaxed};

use super::{MAX_MOVES, moves};
use crate::shape::Shape;

/// The most cells a shape may have: 2^36 positions, a bitset of 8 GiB.
pub const MAX_CELLS: usize = 36;

/// Cells of a position inside one `u64` word (64 positions).
pub const WORD_CELLS: u32 = 6;

/// The default number of word-index bits a block spans: 4,096 words
/// (32 KiB, a level-1 data cache).
pub const DEFAULT_BLOCK_BITS: u32 = 12;

/// Moves sharing the parts above the word: one load, several shifts.
#[derive(Clone, Copy, Debug)]
struct Group {
    /// Block-index part of the move (`m_top`), already shifted down.
    top: usize,
    /// Word-in-block part (`m_mid`), already shifted down.
    mid: usize,
    /// Range of this group's `m_lo` values in `Plan::group_lo`.
    start: u16,
    len: u16,
}

const NO_GROUP: Group = Group {
    top: 0,
    mid: 0,
    start: 0,
    len: 0,
};

/// Most (layer, in-word move) operations: a move of `s` cells applies to
/// layers 0 to `6 - s`, at most 7 layers a move.
const MAX_WORD_OPS: usize = 7 * 64;

/// The per-shape plan of the win/loss solver: the moves split by the part
/// of the position they change, and the masks of the in-word steps. It holds
/// no table; the bitset and scratch are the caller's.
///
/// ```
/// use boardbase_tables::euler::winloss::WinLossSolver;
/// use boardbase_tables::shape::Shape;
/// use core::sync::atomic::{AtomicU64, Ordering::Relaxed};
///
/// // 2×3: 64 positions, one word.
/// let solver = WinLossSolver::new(Shape::new(2, 3).unwrap());
/// assert_eq!((solver.words(), solver.blocks()), (1, 1));
/// let bits: Vec<AtomicU64> = (0..solver.words()).map(|_| AtomicU64::new(0)).collect();
/// solver.solve(&bits, &mut vec![0; solver.block_words()]);
/// let wins = |p: u64| bits[(p / 64) as usize].load(Relaxed) >> (p % 64) & 1 == 1;
/// // X X X     two open squares: cover one, the opponent covers the last.
/// // X . .
/// assert!(wins(0b001_111));
/// // X X X     one open square: the player to move must cover it, and loses.
/// // X X .
/// assert!(!wins(0b011_111));
/// // The full board is won: the opponent covered the last square.
/// assert!(wins(0b111_111));
/// ```
#[derive(Clone, Debug)]
pub struct WinLossSolver {
    shape: Shape,
    /// Cells inside a word: `min(cells, 6)`.
    lo_bits: u32,
    /// Word-index bits inside a block.
    mid_bits: u32,
    /// Block-index bits.
    top_bits: u32,
    /// `valid[m]`: the positions `lo < 2^lo_bits` with `lo & m == 0`.
    valid: [u64; 64],
    groups: [Group; MAX_MOVES],
    /// `groups[..top_groups]` have `top != 0`, the rest up to `group_count`
    /// have `top == 0` and `mid != 0`.
    top_groups: usize,
    group_count: usize,
    group_lo: [u8; MAX_MOVES],
    /// In-word steps, layer by layer from the top one down: `(m_lo, mask)`.
    word_ops: [(u8, u64); MAX_WORD_OPS],
    word_op_count: usize,
    /// `word_layers[k]..word_layers[k + 1]`: the steps of the `k`-th layer
    /// processed (popcount `lo_bits - 1 - k`).
    word_layers: [u16; 8],
}

impl WinLossSolver {
    /// The plan for `shape` with blocks of [`DEFAULT_BLOCK_BITS`].
    ///
    /// # Panics
    ///
    /// Panics if the shape has more than [`MAX_CELLS`] cells.
    pub fn new(shape: Shape) -> WinLossSolver {
        WinLossSolver::with_block_bits(shape, DEFAULT_BLOCK_BITS)
    }

    /// The plan for `shape` with blocks of `2^block_bits` words (fewer when
    /// the shape has fewer words).
    ///
    /// # Panics
    ///
    /// Panics if the shape has more than [`MAX_CELLS`] cells.
    pub fn with_block_bits(shape: Shape, block_bits: u32) -> WinLossSolver {
        assert!(
            shape.cells() <= MAX_CELLS,
            "the win/loss solver takes at most {MAX_CELLS} cells"
        );
        let cells = shape.cells() as u32;
        let lo_bits = cells.min(WORD_CELLS);
        let word_bits = cells - lo_bits;
        let mid_bits = word_bits.min(block_bits);
        let top_bits = word_bits - mid_bits;
        let lo_count = 1u64 << lo_bits;
        let lo_mask = lo_count - 1;
        let mid_mask = (1u64 << mid_bits) - 1;

        let mut valid = [0u64; 64];
        for (m, v) in valid.iter_mut().enumerate().take(lo_count as usize) {
            for lo in 0..lo_count {
                if lo & m as u64 == 0 {
                    *v |= 1 << lo;
                }
            }
        }

        let list = moves(shape);
        let split = |m: u64| {
            (
                (m >> (lo_bits + mid_bits)) as usize,
                ((m >> lo_bits) & mid_mask) as usize,
                (m & lo_mask) as u8,
            )
        };

        // Groups: first every distinct (top, mid) with top != 0, then every
        // distinct mid with top == 0 and mid != 0, each with its m_lo values.
        let mut groups = [NO_GROUP; MAX_MOVES];
        let mut group_lo = [0u8; MAX_MOVES];
        let mut group_count = 0;
        let mut lo_count_used = 0;
        let mut top_groups = 0;
        for pass in 0..2 {
            for &m in list.as_slice() {
                let (top, mid, _) = split(m);
                let wanted = if pass == 0 {
                    top != 0
                } else {
                    top == 0 && mid != 0
                };
                if !wanted
                    || groups[..group_count]
                        .iter()
                        .any(|g| (g.top, g.mid) == (top, mid))
                {
                    continue;
                }
                let start = lo_count_used;
                for &m2 in list.as_slice() {
                    let (top2, mid2, lo2) = split(m2);
                    if (top2, mid2) == (top, mid) {
                        group_lo[lo_count_used] = lo2;
                        lo_count_used += 1;
                    }
                }
                groups[group_count] = Group {
                    top,
                    mid,
                    start: start as u16,
                    len: (lo_count_used - start) as u16,
                };
                group_count += 1;
            }
            if pass == 0 {
                top_groups = group_count;
            }
        }

        // In-word steps by layer, the top layer (popcount lo_bits, only the
        // word's full position, which has no in-word move) excluded.
        let mut word_ops = [(0u8, 0u64); MAX_WORD_OPS];
        let mut word_op_count = 0;
        let mut word_layers = [0u16; 8];
        for (i, k) in (0..lo_bits).rev().enumerate() {
            word_layers[i] = word_op_count as u16;
            let mut layer = 0u64;
            for lo in 0..lo_count {
                if lo.count_ones() == k {
                    layer |= 1 << lo;
                }
            }
            for &m in list.as_slice() {
                if m & !lo_mask != 0 {
                    continue;
                }
                let mask = valid[m as usize] & layer;
                if mask != 0 {
                    word_ops[word_op_count] = (m as u8, mask);
                    word_op_count += 1;
                }
            }
        }
        for slot in word_layers.iter_mut().skip(lo_bits as usize) {
            *slot = word_op_count as u16;
        }

        WinLossSolver {
            shape,
            lo_bits,
            mid_bits,
            top_bits,
            valid,
            groups,
            top_groups,
            group_count,
            group_lo,
            word_ops,
            word_op_count,
            word_layers,
        }
    }

    /// The shape solved.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Words of the bitset: `2^cells / 64`, at least 1. Bits past
    /// `2^cells` (shapes of under 6 cells) are left 0.
    pub fn words(&self) -> usize {
        1 << (self.mid_bits + self.top_bits)
    }

    /// Word-index bits a block spans.
    pub fn block_bits(&self) -> u32 {
        self.mid_bits
    }

    /// Words a block spans: the length of the accumulator
    /// [`solve_block`](Self::solve_block) needs.
    pub fn block_words(&self) -> usize {
        1 << self.mid_bits
    }

    /// Block-index bits: there are `2^top_bits` blocks, solved in
    /// `top_bits + 1` layers.
    pub fn top_bits(&self) -> u32 {
        self.top_bits
    }

    /// Number of blocks.
    pub fn blocks(&self) -> usize {
        1 << self.top_bits
    }

    /// Positions a block holds: `64 × block_words` (fewer for tiny shapes).
    pub fn block_positions(&self) -> u64 {
        1 << (self.lo_bits + self.mid_bits)
    }

    /// Solves block `block` (its `block_words` words, from word
    /// `block * block_words`) into `bits`, using `acc` (at least
    /// [`block_words`](Self::block_words) long) as scratch.
    ///
    /// Every block with more bits set than `block` (the layers above) must
    /// be solved already; blocks with as many bits set may be solved at the
    /// same time on other threads.
    ///
    /// # Panics
    ///
    /// Panics if `bits` is not [`words`](Self::words) long or `acc` is too
    /// short.
    pub fn solve_block(&self, block: usize, bits: &[AtomicU64], acc: &mut [u64]) {
        assert_eq!(bits.len(), self.words(), "one bit a position");
        let n = self.block_words();
        let acc = &mut acc[..n];
        let valid = &self.valid;
        let lo = |g: &Group| &self.group_lo[g.start as usize..(g.start + g.len) as usize];
        acc.fill(0);
        let top_full = self.blocks() - 1;
        if block == top_full {
            // The full board: the player to move has won.
            acc[n - 1] = 1 << ((1u64 << self.lo_bits) - 1);
        }

        // Moves into other blocks: whole-block streams.
        for g in &self.groups[..self.top_groups] {
            if block & g.top != 0 {
                continue;
            }
            let src = &bits[(block | g.top) * n..][..n];
            let los = lo(g);
            if g.mid == 0 {
                if los == [0] {
                    for (a, s) in acc.iter_mut().zip(src) {
                        *a |= !s.load(Relaxed);
                    }
                } else {
                    for (a, s) in acc.iter_mut().zip(src) {
                        let s = !s.load(Relaxed);
                        for &m in los {
                            *a |= (s >> m) & valid[m as usize];
                        }
                    }
                }
            } else {
                // The words whose mid leaves g.mid clear: the subsets of the
                // complement, in increasing order.
                let free = (n - 1) & !g.mid;
                let mut mid = 0usize;
                loop {
                    let s = !src[mid | g.mid].load(Relaxed);
                    let mut w = 0;
                    for &m in los {
                        w |= (s >> m) & valid[m as usize];
                    }
                    acc[mid] |= w;
                    mid = mid.wrapping_sub(free) & free;
                    if mid == 0 {
                        break;
                    }
                }
            }
        }

        // Moves inside the block, then inside the word, in decreasing order.
        let mid_groups = &self.groups[self.top_groups..self.group_count];
        let ops = &self.word_ops[..self.word_op_count];
        let layers = &self.word_layers;
        for mid in (0..n).rev() {
            let mut w = acc[mid];
            for g in mid_groups {
                if mid & g.mid == 0 {
                    let s = !acc[mid | g.mid];
                    for &m in lo(g) {
                        w |= (s >> m) & valid[m as usize];
                    }
                }
            }
            for k in 0..self.lo_bits as usize {
                let mut add = 0;
                for &(m, mask) in &ops[layers[k] as usize..layers[k + 1] as usize] {
                    add |= (!w >> m) & mask;
                }
                w |= add;
            }
            acc[mid] = w;
        }

        for (dst, &a) in bits[block * n..][..n].iter().zip(acc.iter()) {
            dst.store(a, Relaxed);
        }
    }

    /// Solves every block on this thread, layer by layer: the whole table.
    ///
    /// # Panics
    ///
    /// As [`solve_block`](Self::solve_block).
    pub fn solve(&self, bits: &[AtomicU64], acc: &mut [u64]) {
        for layer in (0..=self.top_bits).rev() {
            for block in layer_members(self.top_bits, layer) {
                self.solve_block(block, bits, acc);
            }
        }
    }
}

/// The numbers below `2^bits` with `ones` bits set, in increasing order:
/// the blocks of one layer.
///
/// ```
/// use boardbase_tables::euler::winloss::layer_members;
/// assert!(layer_members(4, 2).eq([0b0011, 0b0101, 0b0110, 0b1001, 0b1010, 0b1100]));
/// assert!(layer_members(3, 0).eq([0]));
/// assert!(layer_members(3, 3).eq([0b111]));
/// assert_eq!(layer_members(3, 4).count(), 0);
/// ```
pub fn layer_members(bits: u32, ones: u32) -> impl Iterator<Item = usize> {
    let end = 1usize << bits;
    let mut next = if ones > bits {
        end
    } else {
        (1usize << ones) - 1
    };
    core::iter::from_fn(move || {
        if next >= end {
            return None;
        }
        let x = next;
        if x == 0 {
            next = end;
        } else {
            // Gosper's hack: the next larger number with as many bits set.
            let c = x & x.wrapping_neg();
            let r = x + c;
            next = (((r ^ x) >> 2) / c) | r;
        }
        Some(x)
    })
}
