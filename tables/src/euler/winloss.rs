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
//! `m = (m_top, m_mid, m_lo)`, and is applied according to its highest part:
//!
//! * `m_top != 0`: the successor lies in block `top | m_top`, which has more
//!   bits set than `top`. Blocks are solved in *layers* of decreasing
//!   popcount ([`layer_members`]), so those blocks are final; the blocks of
//!   one layer are independent of each other and may be solved in parallel
//!   (the library does, with one [`solve_blocks`](WinLossSolver::solve_blocks)
//!   call for [`LANES`] blocks). A move applies to a whole word at once:
//!   `w |= (!w[succ] >> m_lo) & VALID[m_lo]`, where `VALID[m_lo]` keeps the
//!   positions `lo` with `lo & m_lo == 0` (then `lo | m_lo == lo + m_lo`, so
//!   bit `lo` of the shifted word is the successor's bit). Each such move is
//!   one sequential stream through another block.
//! * `m_top == 0, m_mid != 0`: the successor is a word of the same block
//!   with a larger `mid`. The block is finished by recursive halving: its
//!   upper half (the highest `mid` bit set) first, then the moves whose
//!   highest `mid` bit is that one carry the upper half into the lower half,
//!   then the lower half; in the smallest ranges, word by word.
//! * `m_top == m_mid == 0`: the move stays inside the word. The word's
//!   positions are finished by popcount of `lo`, from 6 down to 0:
//!   `w |= (!w >> m_lo) & VALID[m_lo] & LAYER[k]`, each layer reading only
//!   the finished layers above it.
//!
//! Moves sharing `(m_top, m_mid)` share one load. [`LANES`] blocks of a
//! layer are solved side by side, so every step on a word of the block is
//! one operation on `[u64; LANES]`, which the compiler vectorizes, and the
//! control flow is paid once for all of them.
//!
//! The shared bitset is a slice of [`AtomicU64`] read and written with
//! `Relaxed` ordering (plain moves on the usual targets): a block writes only
//! its own words and reads only words of finished layers, and the caller
//! separates layers (a join, or one thread).

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

/// Blocks solved side by side by one [`solve_blocks`](WinLossSolver::solve_blocks)
/// call: every per-word step is one operation on `[u64; LANES]`, which the
/// compiler turns into vector instructions.
pub const LANES: usize = 8;

/// The accumulator of one word of [`LANES`] blocks.
pub type Lanes = [u64; LANES];

/// Words of a block processed word by word with every small group checked;
/// above this, the block is halved recursively.
const LEAF_BITS: u32 = 2;

/// One in-word step of a move: bit `lo` of `(!successor >> shift) & mask`
/// says that the move from position `lo` reaches a lost position.
#[derive(Clone, Copy, Debug, Default)]
struct Step {
    shift: u32,
    mask: u64,
}

/// Moves sharing the parts above the word: one load, several steps.
#[derive(Clone, Copy, Debug, Default)]
struct Group {
    /// Block-index part of the move (`m_top`), shifted down.
    top: usize,
    /// Word-in-block part (`m_mid`), shifted down.
    mid: usize,
    /// Range of this group's steps in `WinLossSolver::steps`.
    start: u16,
    len: u16,
    /// A single step of shift 0 over every position: `w |= !successor`.
    plain: bool,
}

/// Most (layer, in-word move) operations: a move of `s` cells applies to
/// layers 0 to `6 - s`, at most 6 layers a move.
const MAX_WORD_OPS: usize = 6 * 64;

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
/// solver.solve(&bits, &mut vec![[0; 8]; solver.block_words()]);
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
    /// Groups: `[..top_groups]` have `top != 0`; then the groups with
    /// `top == 0`, `mid != 0`, ordered by the highest bit of `mid`, those
    /// with highest bit `h` at `by_bit[h]..by_bit[h + 1]`.
    groups: [Group; MAX_MOVES],
    top_groups: usize,
    by_bit: [u16; 32],
    steps: [Step; MAX_MOVES],
    /// In-word steps, layer by layer from the top one down.
    word_ops: [Step; MAX_WORD_OPS],
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
        WinLossSolver::with_moves(shape, moves(shape).as_slice(), block_bits)
    }

    /// The plan for `shape`'s positions with its cells numbered another
    /// way: `list` holds the moves as masks of the bits the cells have in
    /// that numbering (the class solver numbers a board's cells so that the
    /// block index is a set of cells its symmetries map onto itself).
    ///
    /// # Panics
    ///
    /// Panics if the shape has more than [`MAX_CELLS`] cells, or `list` is
    /// longer than [`MAX_MOVES`].
    pub fn with_moves(shape: Shape, list: &[u64], block_bits: u32) -> WinLossSolver {
        assert!(list.len() <= MAX_MOVES, "at most {MAX_MOVES} moves");
        assert!(
            shape.cells() <= MAX_CELLS,
            "the win/loss solver takes at most {MAX_CELLS} cells"
        );
        let cells = shape.cells() as u32;
        let lo_bits = cells.min(WORD_CELLS);
        let word_bits = cells - lo_bits;
        let mid_bits = word_bits.min(block_bits).min(31);
        let top_bits = word_bits - mid_bits;
        let lo_count = 1u64 << lo_bits;
        let lo_mask = lo_count - 1;
        let mid_mask = (1u64 << mid_bits) - 1;

        let valid = valid_masks(lo_bits);
        let all = valid[0];

        let split = |m: u64| {
            (
                (m >> (lo_bits + mid_bits)) as usize,
                ((m >> lo_bits) & mid_mask) as usize,
                m & lo_mask,
            )
        };

        // Groups: every distinct (top, mid) with top != 0, then every
        // distinct mid with top == 0, mid != 0 by its highest bit; each with
        // the steps of its moves' m_lo.
        let mut groups = [Group::default(); MAX_MOVES];
        let mut steps = [Step::default(); MAX_MOVES];
        let mut count = 0;
        let mut used = 0;
        let mut top_groups = 0;
        let mut by_bit = [0u16; 32];
        // Pass 0: top != 0; pass 1 + h: top == 0 and mid's highest bit is h.
        for pass in 0..=mid_bits + 1 {
            if pass >= 1 && pass - 1 < 32 {
                by_bit[(pass - 1) as usize] = count as u16;
            }
            for &m in list {
                let (top, mid, _) = split(m);
                let wanted = if pass == 0 {
                    top != 0
                } else {
                    top == 0 && mid != 0 && 63 - (mid as u64).leading_zeros() == pass - 1
                };
                if !wanted || groups[..count].iter().any(|g| (g.top, g.mid) == (top, mid)) {
                    continue;
                }
                let start = used;
                for &m2 in list {
                    let (top2, mid2, lo2) = split(m2);
                    if (top2, mid2) == (top, mid) {
                        steps[used] = Step {
                            shift: lo2 as u32,
                            mask: valid[lo2 as usize],
                        };
                        used += 1;
                    }
                }
                let len = used - start;
                groups[count] = Group {
                    top,
                    mid,
                    start: start as u16,
                    len: len as u16,
                    plain: mid == 0
                        && len == 1
                        && steps[start].shift == 0
                        && steps[start].mask == all,
                };
                count += 1;
            }
            if pass == 0 {
                top_groups = count;
            }
        }
        for slot in by_bit.iter_mut().skip(mid_bits as usize + 1) {
            *slot = count as u16;
        }
        if mid_bits == 0 {
            by_bit[0] = count as u16;
        }

        // In-word steps by layer, the top layer (popcount lo_bits, only the
        // word's last position, which has no in-word move) excluded.
        let mut word_ops = [Step::default(); MAX_WORD_OPS];
        let mut ops = 0;
        let mut word_layers = [0u16; 8];
        for (i, k) in (0..lo_bits).rev().enumerate() {
            word_layers[i] = ops as u16;
            let mut layer = 0u64;
            for lo in 0..lo_count {
                if lo.count_ones() == k {
                    layer |= 1 << lo;
                }
            }
            for &m in list {
                if m & !lo_mask != 0 {
                    continue;
                }
                let mask = valid[m as usize] & layer;
                if mask != 0 {
                    word_ops[ops] = Step {
                        shift: m as u32,
                        mask,
                    };
                    ops += 1;
                }
            }
        }
        for slot in word_layers.iter_mut().skip(lo_bits as usize) {
            *slot = ops as u16;
        }

        WinLossSolver {
            shape,
            lo_bits,
            mid_bits,
            top_bits,
            groups,
            top_groups,
            by_bit,
            steps,
            word_ops,
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
    /// [`solve_blocks`](Self::solve_blocks) needs.
    pub fn block_words(&self) -> usize {
        1 << self.mid_bits
    }

    /// Block-index bits: there are `2^top_bits` blocks, solved in
    /// `top_bits + 1` layers (see [`layer_members`]).
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

    #[inline(always)]
    fn steps_of(&self, g: &Group) -> &[Step] {
        &self.steps[g.start as usize..(g.start + g.len) as usize]
    }

    /// Solves up to [`LANES`] blocks side by side (their words, from word
    /// `block * block_words`) into `bits`, using `acc` (at least
    /// [`block_words`](Self::block_words) long) as scratch. Returns the
    /// number of their positions won by the player to move.
    ///
    /// The blocks must have the same number of bits set (one layer), and
    /// every block with more bits set must be solved already; other blocks
    /// of the layer may be solved at the same time on other threads.
    ///
    /// # Panics
    ///
    /// Panics if `bits` is not [`words`](Self::words) long, `acc` is too
    /// short, `blocks` is empty or longer than [`LANES`], or the blocks are
    /// not of one layer.
    #[inline(always)]
    pub fn solve_blocks(&self, blocks: &[usize], bits: &[AtomicU64], acc: &mut [Lanes]) -> u64 {
        assert_eq!(bits.len(), self.words(), "one bit a position");
        let n = self.block_words();
        self.solve_blocks_by(blocks, |b| &bits[b * n..][..n], acc)
    }

    /// As [`solve_blocks`](Self::solve_blocks), with the words of each
    /// block wherever `block` says (`block(b)` is block `b`'s
    /// [`block_words`](Self::block_words) words): the blocks solved are
    /// written there, the blocks one move above them read there. A process
    /// holding part of the table keeps the blocks it has fetched from
    /// others in a buffer of its own, not at their place in the table.
    ///
    /// # Panics
    ///
    /// As [`solve_blocks`](Self::solve_blocks), and if a slice `block`
    /// returns is not [`block_words`](Self::block_words) long.
    #[inline(always)]
    pub fn solve_blocks_by<'a>(
        &self,
        blocks: &[usize],
        block: impl Fn(usize) -> &'a [AtomicU64],
        acc: &mut [Lanes],
    ) -> u64 {
        assert!(!blocks.is_empty() && blocks.len() <= LANES);
        let layer = blocks[0].count_ones();
        assert!(
            blocks
                .iter()
                .all(|b| b.count_ones() == layer && *b < self.blocks()),
            "blocks of one layer"
        );
        let n = self.block_words();
        let acc = &mut acc[..n];
        acc.fill([0; LANES]);
        let top_full = self.blocks() - 1;

        // The full board: the player to move has won.
        for (lane, &block) in blocks.iter().enumerate() {
            if block == top_full {
                acc[n - 1][lane] = full_bit(self.lo_bits);
            }
        }

        // Moves into other blocks: whole-block streams, every lane at once.
        // A lane for which the move is illegal reads the first legal lane's
        // source (already in cache) and masks it off.
        for g in &self.groups[..self.top_groups] {
            let Some(first) = blocks.iter().position(|b| b & g.top == 0) else {
                continue;
            };
            let mut src = [blocks[first] | g.top; LANES];
            let mut keep = [0u64; LANES];
            for (lane, &b) in blocks.iter().enumerate() {
                if b & g.top == 0 {
                    src[lane] = b | g.top;
                    keep[lane] = !0;
                }
            }
            let src = src.map(|b| {
                let s = block(b);
                assert_eq!(s.len(), n);
                s
            });
            if g.plain {
                for s in src {
                    assert_eq!(s.len(), acc.len());
                }
                for (mid, a) in acc.iter_mut().enumerate() {
                    let mut v = [0u64; LANES];
                    for l in 0..LANES {
                        v[l] = !src[l][mid].load(Relaxed) & keep[l];
                    }
                    for l in 0..LANES {
                        a[l] |= v[l];
                    }
                }
                continue;
            }
            let steps = self.steps_of(g);
            // The words whose mid leaves g.mid clear: the subsets of the
            // complement, in increasing order.
            let free = (n - 1) & !g.mid;
            let mut mid = 0usize;
            loop {
                let mut s = [0u64; LANES];
                for l in 0..LANES {
                    s[l] = !src[l][mid | g.mid].load(Relaxed) & keep[l];
                }
                let mut v = [0u64; LANES];
                for st in steps {
                    for l in 0..LANES {
                        v[l] |= (s[l] >> st.shift) & st.mask;
                    }
                }
                for l in 0..LANES {
                    acc[mid][l] |= v[l];
                }
                mid = mid.wrapping_sub(free) & free;
                if mid == 0 {
                    break;
                }
            }
        }

        // Moves inside the blocks, then inside the words.
        self.finish_block(acc);

        let mut won = 0;
        for (lane, &b) in blocks.iter().enumerate() {
            let dst = block(b);
            assert_eq!(dst.len(), n);
            for (dst, a) in dst.iter().zip(acc.iter()) {
                dst.store(a[lane], Relaxed);
                won += u64::from(a[lane].count_ones());
            }
        }
        won
    }

    /// Applies a group's steps from word `from` to word `to` of every lane.
    #[inline(always)]
    fn apply(&self, g: &Group, acc: &mut [Lanes], to: usize, from: usize) {
        let s = acc[from];
        let mut add = [0u64; LANES];
        for st in self.steps_of(g) {
            for l in 0..LANES {
                add[l] |= (!s[l] >> st.shift) & st.mask;
            }
        }
        let d = &mut acc[to];
        for l in 0..LANES {
            d[l] |= add[l];
        }
    }

    /// Finishes the block's words, in which every move from a larger block
    /// has been applied. In effect a recursive halving (the upper half
    /// first, then the moves from it into the lower half, then the lower
    /// half), written as a loop over the leaves of `2^LEAF_BITS` words from
    /// the last: before a leaf that tops the lower half of a range of
    /// `2^(h + 1)` words, the moves whose highest `mid` bit is `h` carry
    /// that range's upper half into its lower half.
    #[inline(always)]
    pub(crate) fn finish_block(&self, acc: &mut [Lanes]) {
        let leaf = LEAF_BITS.min(self.mid_bits);
        let small = &self.groups[self.top_groups..self.by_bit[leaf as usize] as usize];
        let leaves = 1usize << (self.mid_bits - leaf);
        for j in (0..leaves).rev() {
            if j != leaves - 1 {
                let h = leaf + j.trailing_ones();
                let base = (j << leaf) & !((2usize << h) - 1);
                let half = (1usize << h) - 1;
                let groups = &self.groups
                    [self.by_bit[h as usize] as usize..self.by_bit[h as usize + 1] as usize];
                for g in groups {
                    let free = half & !g.mid;
                    let mut lower = 0usize;
                    loop {
                        self.apply(g, acc, base | lower, base | lower | g.mid);
                        lower = lower.wrapping_sub(free) & free;
                        if lower == 0 {
                            break;
                        }
                    }
                }
            }
            let first = j << leaf;
            for mid in (first..first + (1 << leaf)).rev() {
                for g in small {
                    if mid & g.mid == 0 {
                        self.apply(g, acc, mid, mid | g.mid);
                    }
                }
                self.close_word(&mut acc[mid]);
            }
        }
    }

    /// Finishes one word of every lane: the in-word moves, layer by layer.
    #[inline(always)]
    fn close_word(&self, w: &mut Lanes) {
        let layers = &self.word_layers;
        for k in 0..self.lo_bits as usize {
            let mut add = [0u64; LANES];
            for st in &self.word_ops[layers[k] as usize..layers[k + 1] as usize] {
                for l in 0..LANES {
                    add[l] |= (!w[l] >> st.shift) & st.mask;
                }
            }
            for l in 0..LANES {
                w[l] |= add[l];
            }
        }
    }

    /// Solves every block on this thread, layer by layer: the whole table.
    /// `acc` is the scratch of [`solve_blocks`](Self::solve_blocks). Returns
    /// the number of positions won by the player to move.
    ///
    /// # Panics
    ///
    /// As [`solve_blocks`](Self::solve_blocks).
    pub fn solve(&self, bits: &[AtomicU64], acc: &mut [Lanes]) -> u64 {
        let mut lanes = [0usize; LANES];
        let mut won = 0;
        for layer in (0..=self.top_bits).rev() {
            let mut n = 0;
            for block in layer_members(self.top_bits, layer) {
                lanes[n] = block;
                n += 1;
                if n == LANES {
                    won += self.solve_blocks(&lanes, bits, acc);
                    n = 0;
                }
            }
            if n > 0 {
                won += self.solve_blocks(&lanes[..n], bits, acc);
            }
        }
        won
    }
}

/// `valid[m]`, for each in-word part `m` of a move: the positions `lo` of
/// a word of `2^lo_bits` (`lo_bits` at most 6) with `lo & m == 0`, those
/// the move can be made from (then `lo | m == lo + m`). `valid[0]` is
/// every position a word holds.
pub(crate) fn valid_masks(lo_bits: u32) -> [u64; 64] {
    let lo_count = 1u64 << lo_bits;
    let mut valid = [0u64; 64];
    for (m, v) in valid.iter_mut().enumerate().take(lo_count as usize) {
        for lo in 0..lo_count {
            if lo & m as u64 == 0 {
                *v |= 1 << lo;
            }
        }
    }
    valid
}

/// The positions a word of `2^lo_bits` holds: all 64, fewer under 6
/// cells.
pub(crate) const fn word_mask(lo_bits: u32) -> u64 {
    if lo_bits >= WORD_CELLS {
        !0
    } else {
        (1 << (1u64 << lo_bits)) - 1
    }
}

/// The bit of the full board in its word (the word's last position).
pub(crate) const fn full_bit(lo_bits: u32) -> u64 {
    1 << ((1u64 << lo_bits) - 1)
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
