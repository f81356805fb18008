//! The win/loss solver of the Game of Euler over one entry a class of
//! positions under the board's symmetries ([`Classes`]).
//!
//! The bitset is indexed as [`Classes::index`] says: a block of
//! `2^rest_bits` positions a class of key patterns, the block of class `c`
//! holding the positions whose key pattern is the class's canonical one.
//! The solver is the bit-parallel [`WinLossSolver`] with the cells numbered
//! rest first, key last, so that its block index is the key pattern:
//!
//! * a move that covers no key cell stays in the block: solved as the
//!   plain solver does;
//! * a move that covers key cells leads from key pattern `t` to `t' = t |
//!   m_key`, whose entries are those of its class `c'` seen through the
//!   symmetry `g` with `g(t') = canonical(c')`: position `(t', r | m_rest)`
//!   is entry `(c', g(r) | g(m_rest))`. So the moves whose successor is
//!   seen through one symmetry `g` are applied to a scratch block in `g`'s
//!   frame (position `u = g(r)`, move `g(m_rest)`: a plain stream through
//!   block `c'`), and the scratch is then carried back by permuting its
//!   index bits (at most 7 permutations a block, each a few passes of
//!   bit swaps).
//!
//! Blocks are solved in layers of decreasing popcount of their canonical
//! key pattern: every key move adds key cells, and a class's patterns all
//! have its popcount.

mod depth;

pub use depth::DepthScratch;

use alloc::vec::Vec;
use core::sync::atomic::{AtomicU64, Ordering::Relaxed};

use super::moves;
use super::winloss::{LANES, Lanes, MAX_CELLS, WORD_CELLS, WinLossSolver, full_bit, valid_masks};
use crate::classes::{Classes, IndexSizes, MAX_SYMMETRIES};
use crate::shape::Shape;

/// One move into another block: the class reached, the `mid` and `lo`
/// parts of the move in that class's frame.
#[derive(Clone, Copy, Debug, Default)]
struct Into {
    class: u32,
    mid: u32,
    lo: u32,
}

/// The sizes of a [`ClassSolver`] and of what it allocates, known without
/// making it: what a plan of memory reads before anything is made
/// ([`of_shape`](Self::of_shape) counts the classes, and the solver's own
/// [`words`](ClassSolver::words) and scratch are these).
///
/// ```
/// use boardbase_tables::euler::classes::{ClassSolver, SolverSizes};
/// use boardbase_tables::shape::Shape;
///
/// let five_six = Shape::new(5, 6).unwrap();
/// let solver = ClassSolver::new(five_six);
/// assert_eq!(SolverSizes::of_shape(five_six), solver.sizes());
/// // 6×6: 131,976 classes of 2^16 entries, a bitset of 1.01 GiB.
/// let six = SolverSizes::of_shape(Shape::new(6, 6).unwrap());
/// assert_eq!(six.words() as u64 * 8, 131_976 << 13);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolverSizes {
    index: IndexSizes,
}

impl SolverSizes {
    /// The sizes of [`ClassSolver::new`]'s solver of `shape`.
    ///
    /// # Panics
    ///
    /// Panics if the shape has more than 64 cells.
    pub fn of_shape(shape: Shape) -> SolverSizes {
        SolverSizes {
            index: Classes::sizes_of_shape(shape),
        }
    }

    /// The index's sizes.
    pub fn index(&self) -> IndexSizes {
        self.index
    }

    /// Bits of a position's index within a word.
    fn lo_bits(&self) -> u32 {
        self.index.rest_bits.min(WORD_CELLS)
    }

    /// Bits of a word's index within a block.
    fn mid_bits(&self) -> u32 {
        self.index.rest_bits - self.lo_bits()
    }

    /// Words of the bitset: one bit an entry, at least one word.
    pub fn words(&self) -> usize {
        self.index.classes << self.mid_bits()
    }

    /// Words of a class's block.
    pub fn block_words(&self) -> usize {
        1 << self.mid_bits()
    }

    /// Bytes of a thread's [`Scratch`].
    pub fn scratch_bytes(&self) -> u64 {
        (self.block_words() * (size_of::<Lanes>() + 8)) as u64
    }

    /// Bytes of a thread's [`DepthScratch`]: four words a block word.
    pub fn depth_scratch_bytes(&self) -> u64 {
        (self.block_words() * 4 * 8) as u64
    }

    /// Bytes of the solver's index and layers: five bytes a key pattern
    /// (its class and symmetry), eight a class (its canonical pattern and
    /// its place in a layer) and the byte maps of each symmetry.
    pub fn index_bytes(&self) -> u64 {
        let maps = |bits: usize| (self.index.symmetries * bits.div_ceil(8) * 256 * 8) as u64;
        (5u64 << self.index.key_cells)
            + 8 * self.index.classes as u64
            + maps(self.index.key_cells)
            + maps(self.index.rest_bits as usize)
    }
}

/// The plan of the class solver of one shape (see the [module](self)).
///
/// ```
/// use boardbase_tables::euler::classes::ClassSolver;
/// use boardbase_tables::shape::Shape;
/// use core::sync::atomic::{AtomicU64, Ordering::Relaxed};
///
/// let solver = ClassSolver::new(Shape::new(4, 4).unwrap());
/// let classes = solver.classes();
/// // 43 classes of 2^8 positions: 11,008 entries for 65,536 positions.
/// assert_eq!(classes.entries(), 11_008);
/// let bits: Vec<AtomicU64> = (0..solver.words()).map(|_| AtomicU64::new(0)).collect();
/// let mut scratch = solver.scratch();
/// let won = solver.solve(&bits, &mut scratch);
/// let wins = |board: u64| {
///     let i = classes.index(board);
///     bits[(i / 64) as usize].load(Relaxed) >> (i % 64) & 1 == 1
/// };
/// // X X X X
/// // X X X X      one open square: the player to move must cover it, and
/// // X X X X      loses (the last to move loses).
/// // X X X .
/// assert!(!wins(0xFFFF & !(1 << 15)));
/// // X X X X
/// // X X X X      two: cover one, and the opponent must cover the other.
/// // X X X X
/// // X X . .
/// assert!(wins(0xFFFF & !(0b11 << 14)));
/// assert_eq!(won, 65_536 - solver.lost_positions(&bits));
/// ```
#[derive(Clone, Debug)]
pub struct ClassSolver {
    classes: Classes,
    inner: WinLossSolver,
    lo_bits: u32,
    /// The moves covering key cells: (key part, rest part).
    key_moves: Vec<(u64, u64)>,
    /// The other moves, within a block: their (mid, lo) parts.
    rest_moves: Vec<(u32, u32)>,
    valid: [u64; 64],
    /// Per symmetry: the swaps of index bits that turn a block `A` in the
    /// symmetry's frame into `B[r] = A[g(r)]`, in order.
    swaps: Vec<Vec<(u8, u8)>>,
    /// Classes by the popcount of their canonical key pattern.
    layers: Vec<Vec<u32>>,
}

/// The scratch of one thread of a [`ClassSolver`]: the accumulators of
/// [`LANES`] blocks and one block in another frame.
#[derive(Clone, Debug)]
pub struct Scratch {
    acc: Vec<Lanes>,
    frame: Vec<u64>,
}

impl ClassSolver {
    /// The solver of `shape` over [`Classes::of_shape`].
    ///
    /// # Panics
    ///
    /// Panics if the shape has more than [`MAX_CELLS`] cells.
    pub fn new(shape: Shape) -> ClassSolver {
        ClassSolver::with_classes(shape, Classes::of_shape(shape))
    }

    /// The solver of `shape` over the index `classes`, whose symmetries
    /// must be symmetries of the game on `shape` (they map its moves onto
    /// its moves).
    ///
    /// # Panics
    ///
    /// Panics if the shape has more than [`MAX_CELLS`] cells, `classes` is
    /// of another number of cells, or it has several classes and fewer
    /// than 6 cells outside its key.
    pub fn with_classes(shape: Shape, classes: Classes) -> ClassSolver {
        assert!(shape.cells() <= MAX_CELLS);
        assert_eq!(classes.cells(), shape.cells());
        let rest_bits = classes.rest_bits();
        // A class's block is whole words: an entry is `class · 2^rest_bits
        // + rest`, so under 6 rest bits there must be one class.
        assert!(
            rest_bits >= WORD_CELLS || classes.classes() == 1,
            "at least 6 cells outside the key"
        );
        let sizes = SolverSizes {
            index: classes.sizes(),
        };
        let (lo_bits, mid_bits) = (sizes.lo_bits(), sizes.mid_bits());
        let relabel = |m: u64| classes.rest_pattern(m) | classes.key_pattern(m) << rest_bits;
        let list = moves(shape);
        let relabeled: Vec<u64> = list.as_slice().iter().map(|&m| relabel(m)).collect();
        let inner = WinLossSolver::with_moves(shape, &relabeled, mid_bits);
        let key_moves = list
            .as_slice()
            .iter()
            .filter(|&&m| classes.key_pattern(m) != 0)
            .map(|&m| (classes.key_pattern(m), classes.rest_pattern(m)))
            .collect();
        let lo_mask = (1u64 << lo_bits) - 1;
        let rest_moves = list
            .as_slice()
            .iter()
            .filter(|&&m| classes.key_pattern(m) == 0)
            .map(|&m| {
                let r = classes.rest_pattern(m);
                ((r >> lo_bits) as u32, (r & lo_mask) as u32)
            })
            .collect();
        let valid = valid_masks(lo_bits);
        let swaps = (0..classes.symmetries().len())
            .map(|g| {
                let mut image: Vec<u8> = (0..rest_bits)
                    .map(|j| classes.rest_image(g, 1 << j).trailing_zeros() as u8)
                    .collect();
                // Sorting `image` by swaps on the right writes it as a
                // product of transpositions, applied in the reverse order.
                let mut right = Vec::new();
                for j in 0..image.len() {
                    while image[j] as usize != j {
                        let k = image[j] as usize;
                        image.swap(j, k);
                        right.push((j.min(k) as u8, j.max(k) as u8));
                    }
                }
                right.reverse();
                right
            })
            .collect();
        let mut layers = alloc::vec![Vec::new(); classes.key().len() + 1];
        for c in 0..classes.classes() {
            layers[classes.canonical(c).count_ones() as usize].push(c as u32);
        }
        ClassSolver {
            classes,
            inner,
            lo_bits,
            key_moves,
            rest_moves,
            valid,
            swaps,
            layers,
        }
    }

    /// The index the bitset follows.
    pub fn classes(&self) -> &Classes {
        &self.classes
    }

    /// The index the bitset follows, the solver done with.
    pub fn into_classes(self) -> Classes {
        self.classes
    }

    /// The solver's sizes.
    pub fn sizes(&self) -> SolverSizes {
        SolverSizes {
            index: self.classes.sizes(),
        }
    }

    /// Words of the bitset: one bit an entry ([`Classes::entries`]), at
    /// least one word.
    pub fn words(&self) -> usize {
        self.sizes().words()
    }

    /// Words of a class's block.
    pub fn block_words(&self) -> usize {
        self.sizes().block_words()
    }

    /// The layers, from the first solved: classes whose canonical key
    /// pattern has `key cells − k` cells covered, for `k` from 0.
    pub fn layers(&self) -> impl Iterator<Item = &[u32]> {
        self.layers.iter().rev().map(Vec::as_slice)
    }

    /// A thread's scratch.
    pub fn scratch(&self) -> Scratch {
        Scratch {
            acc: alloc::vec![[0; LANES]; self.block_words()],
            frame: alloc::vec![0; self.block_words()],
        }
    }

    /// Bytes of a thread's [`Scratch`].
    pub fn scratch_bytes(&self) -> u64 {
        self.sizes().scratch_bytes()
    }

    /// Solves up to [`LANES`] classes of one layer side by side, reading
    /// and writing class `c`'s block where `block(c)` says. Returns the
    /// number of positions (not entries) won by the player to move in
    /// their classes: an entry counts [`Classes::weight`] positions.
    ///
    /// Every class of a layer solved before must be solved already.
    ///
    /// # Panics
    ///
    /// Panics if `classes` is empty, longer than [`LANES`] or not of one
    /// layer, or a block is not [`block_words`](Self::block_words) long.
    pub fn solve_classes_by<'a>(
        &self,
        classes: &[u32],
        block: impl Fn(usize) -> &'a [AtomicU64],
        scratch: &mut Scratch,
    ) -> u64 {
        assert!(!classes.is_empty() && classes.len() <= LANES);
        let pop = self.classes.canonical(classes[0] as usize).count_ones();
        assert!(
            classes
                .iter()
                .all(|&c| self.classes.canonical(c as usize).count_ones() == pop),
            "classes of one layer"
        );
        let n = self.block_words();
        let acc = &mut scratch.acc[..n];
        acc.fill([0; LANES]);
        let full_key = (1u64 << self.classes.key().len()) - 1;
        let mut into = [[Into::default(); super::MAX_MOVES]; MAX_SYMMETRIES];
        for (lane, &class) in classes.iter().enumerate() {
            let t = self.classes.canonical(class as usize);
            if t == full_key {
                // The full board: the player to move has won.
                acc[n - 1][lane] = full_bit(self.lo_bits);
            }
            let count = self.moves_by_frame(t, &mut into);
            for (g, moves) in into.iter().enumerate() {
                let moves = &moves[..count[g]];
                if moves.is_empty() {
                    continue;
                }
                if g == 0 {
                    for m in moves {
                        self.stream(m, &block, |mid, v| acc[mid][lane] |= v);
                    }
                } else {
                    let frame = &mut scratch.frame[..n];
                    frame.fill(0);
                    for m in moves {
                        self.stream(m, &block, |mid, v| frame[mid] |= v);
                    }
                    self.unframe(g, frame);
                    for (a, f) in acc.iter_mut().zip(frame.iter()) {
                        a[lane] |= f;
                    }
                }
            }
        }
        self.inner.finish_block(acc);
        let mut won = 0;
        for (lane, &class) in classes.iter().enumerate() {
            let dst = block(class as usize);
            assert_eq!(dst.len(), n);
            let mut ones = 0;
            for (d, a) in dst.iter().zip(acc.iter()) {
                d.store(a[lane], Relaxed);
                ones += u64::from(a[lane].count_ones());
            }
            won += ones * self.classes.weight(class as usize);
        }
        won
    }

    /// The moves from key pattern `t` into other blocks, by the symmetry
    /// through which the class they reach is read: `into[g][..count[g]]`,
    /// each with the class reached and the move's `mid` and `lo` parts in
    /// `g`'s frame. Returns `count`.
    fn moves_by_frame(
        &self,
        t: u64,
        into: &mut [[Into; super::MAX_MOVES]; MAX_SYMMETRIES],
    ) -> [usize; MAX_SYMMETRIES] {
        let lo_mask = (1u64 << self.lo_bits) - 1;
        let mut count = [0usize; MAX_SYMMETRIES];
        for &(key, rest) in &self.key_moves {
            if t & key != 0 {
                continue;
            }
            let (to, g) = self.classes.class_of(t | key);
            let m = self.classes.rest_image(g, rest);
            into[g][count[g]] = Into {
                class: to as u32,
                mid: (m >> self.lo_bits) as u32,
                lo: (m & lo_mask) as u32,
            };
            count[g] += 1;
        }
        count
    }

    /// Streams one move into another block: `out(mid, bits)` for every
    /// word `mid` the move can be made from.
    #[inline(always)]
    fn stream<'a>(
        &self,
        m: &Into,
        block: &impl Fn(usize) -> &'a [AtomicU64],
        mut out: impl FnMut(usize, u64),
    ) {
        let src = block(m.class as usize);
        assert_eq!(src.len(), self.block_words());
        let (shift, mask) = (m.lo, self.valid[m.lo as usize]);
        self.each_source(m, |mid, from| {
            out(mid, (!src[from].load(Relaxed) >> shift) & mask);
        });
    }

    /// `f(mid, from)` for every word `mid` of a block that move `m` can be
    /// made from (its `mid` part clear), `from` the word of the block it
    /// reaches: the subsets of the other `mid` bits, in increasing order.
    #[inline(always)]
    fn each_source(&self, m: &Into, mut f: impl FnMut(usize, usize)) {
        let mid_m = m.mid as usize;
        let free = (self.block_words() - 1) & !mid_m;
        let mut mid = 0usize;
        loop {
            f(mid, mid | mid_m);
            mid = mid.wrapping_sub(free) & free;
            if mid == 0 {
                break;
            }
        }
    }

    /// Turns a block computed in symmetry `g`'s frame (position `u =
    /// g(r)`) into the block's own: `words[r]` becomes what was at `g(r)`.
    fn unframe(&self, g: usize, words: &mut [u64]) {
        for &(a, b) in &self.swaps[g] {
            swap_index_bits(words, a.into(), b.into());
        }
    }

    /// Solves every class on this thread, layer by layer, into `bits`
    /// ([`words`](Self::words) long). Returns the positions won by the
    /// player to move.
    ///
    /// # Panics
    ///
    /// Panics if `bits` is not [`words`](Self::words) long.
    pub fn solve(&self, bits: &[AtomicU64], scratch: &mut Scratch) -> u64 {
        assert_eq!(bits.len(), self.words());
        let n = self.block_words();
        let mut won = 0;
        for layer in self.layers() {
            for chunk in layer.chunks(LANES) {
                won += self.solve_classes_by(chunk, |c| &bits[c * n..][..n], scratch);
            }
        }
        won
    }

    /// Positions lost by the player to move in a solved bitset: its entries
    /// clear, each counted [`Classes::weight`] times.
    pub fn lost_positions(&self, bits: &[AtomicU64]) -> u64 {
        let n = self.block_words();
        let per_word = 1u64 << self.lo_bits;
        (0..self.classes.classes())
            .map(|c| {
                let set: u64 = bits[c * n..][..n]
                    .iter()
                    .map(|w| u64::from(w.load(Relaxed).count_ones()))
                    .sum();
                (per_word * n as u64 - set) * self.classes.weight(c)
            })
            .sum()
    }
}

/// Swaps index bits `a < b` of a block of words (bits 0 to 5 of an index
/// pick the bit in a word, the others the word): entry `x` trades places
/// with entry `x` with bits `a` and `b` exchanged.
fn swap_index_bits(words: &mut [u64], a: u32, b: u32) {
    debug_assert!(a < b);
    if b < WORD_CELLS {
        let d = (1u32 << b) - (1 << a);
        let mut low = 0u64;
        for x in 0..64u32 {
            if x >> a & 1 == 1 && x >> b & 1 == 0 {
                low |= 1 << x;
            }
        }
        for w in words.iter_mut() {
            let t = (*w ^ (*w >> d)) & low;
            *w ^= t ^ (t << d);
        }
    } else if a < WORD_CELLS {
        let high = 1usize << (b - WORD_CELLS);
        let s = 1u32 << a;
        let mut clear = 0u64;
        for x in 0..64u32 {
            if x >> a & 1 == 0 {
                clear |= 1 << x;
            }
        }
        for u in 0..words.len() {
            if u & high == 0 {
                let v = u | high;
                let t = ((words[u] >> s) ^ words[v]) & clear;
                words[v] ^= t;
                words[u] ^= t << s;
            }
        }
    } else {
        let (ha, hb) = (1usize << (a - WORD_CELLS), 1usize << (b - WORD_CELLS));
        for u in 0..words.len() {
            if u & ha != 0 && u & hb == 0 {
                words.swap(u, u ^ ha ^ hb);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::euler::winloss::WinLossSolver;

    /// The shapes the class solvers are compared with the plain ones on:
    /// under 6 cells outside any key, keys of 4 and 8 cells, squares and
    /// other rectangles.
    pub(super) const SHAPES: [(usize, usize); 8] = [
        (1, 1),
        (2, 3),
        (3, 3),
        (2, 5),
        (3, 4),
        (4, 4),
        (3, 6),
        (4, 5),
    ];

    /// The plain solver's bitset of `shape`, and the positions won.
    pub(super) fn plain_bits(shape: Shape) -> (Vec<u64>, u64) {
        let plain = WinLossSolver::new(shape);
        let bits: Vec<AtomicU64> = (0..plain.words()).map(|_| AtomicU64::new(0)).collect();
        let won = plain.solve(&bits, &mut alloc::vec![[0; LANES]; plain.block_words()]);
        (bits.into_iter().map(AtomicU64::into_inner).collect(), won)
    }

    /// The class solver's bitset of `shape`, and the positions won.
    pub(super) fn class_bits(solver: &ClassSolver) -> (Vec<u64>, u64) {
        let bits: Vec<AtomicU64> = (0..solver.words()).map(|_| AtomicU64::new(0)).collect();
        let won = solver.solve(&bits, &mut solver.scratch());
        (bits.into_iter().map(AtomicU64::into_inner).collect(), won)
    }

    #[test]
    fn swaps_permute_the_index_bits() {
        let solver = ClassSolver::new(Shape::new(4, 4).unwrap());
        let c = solver.classes();
        let n = solver.block_words();
        for g in 0..c.symmetries().len() {
            let mut frame: Vec<u64> = (0..n as u64)
                .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ i << 7)
                .collect();
            let before = frame.clone();
            solver.unframe(g, &mut frame);
            for r in 0..(n as u64) << 6 {
                let u = c.rest_image(g, r);
                let want = before[(u >> 6) as usize] >> (u & 63) & 1;
                assert_eq!(
                    frame[(r >> 6) as usize] >> (r & 63) & 1,
                    want,
                    "g {g} r {r}"
                );
            }
        }
    }

    #[test]
    fn every_entry_agrees_with_the_plain_solver() {
        for (r, c) in SHAPES {
            let shape = Shape::new(r, c).unwrap();
            let (bits, won) = plain_bits(shape);
            let solver = ClassSolver::new(shape);
            let (class_bits, class_won) = class_bits(&solver);
            assert_eq!(class_won, won, "{shape}");
            let get = |v: &[u64], i: u64| v[(i / 64) as usize] >> (i % 64) & 1;
            for p in 0..1u64 << shape.cells() {
                let i = solver.classes().index(p);
                assert_eq!(get(&class_bits, i), get(&bits, p), "{shape} {p:b}");
            }
        }
    }
}
