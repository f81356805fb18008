//! The breadth-first search of Flip Game over XOR press masks, for any
//! shape of at most [`MAX_CELLS`] cells.
//!
//! From a target board (all white `0` or all black `full`), the search
//! finds for every board the fewest presses that reach the target, one
//! optimal press set and the number of optimal press sets. Presses commute
//! and pressing twice undoes a press, so an answer is a *set* of cells, and
//! a board at distance `d` is reached by pressing some `d` distinct cells.
//!
//! # Levels, bit-parallel
//!
//! The boards at each distance are a bitset, one bit a board (bit `b % 64`
//! of word `b / 64`), held as bit-planes of their numbers of optimal sets.
//! The next level is the union over the cells `i` of the current level
//! translated by `PRESS[i]` (board `b` to `b ⊕ PRESS[i]`), less the boards
//! already seen: the high bits of a mask permute whole words, the low 6
//! permute bits inside a word, so a translation costs a few operations a
//! word and unreachable boards cost nothing. The same translated planes
//! give every new board the set counts of its predecessors, the boards
//! `b ⊕ PRESS[i]` of the current level. A [`step`](Search::step) runs on any
//! range of words independently of the others, so the library runs it on
//! every core.
//!
//! # Counting sets, not paths
//!
//! Counting shortest *paths* and dividing by `d!` (every optimal set is
//! pressed in `d!` orders) overflows past 4×4. Sets are counted instead:
//! every optimal set of a board `b` at distance `d + 1` minus one of its
//! `d + 1` cells `i` is an optimal set of `b ⊕ PRESS[i]`, at distance `d`,
//! so `sets(b) × (d + 1)` is the sum of `sets(b ⊕ PRESS[i])` over the
//! cells `i` leading to distance `d`; the search checks that the division
//! is exact.
//!
//! # Which optimal set
//!
//! The press set kept is the one whose cells, listed in increasing order,
//! come first lexicographically: of two sets of equal size, the one holding
//! the lowest cell in which they differ ([`precedes`]). That is the choice
//! of a first-in, first-out queue that expands boards in discovery order and
//! presses cells in increasing order (its path to a board is the
//! lexicographically smallest shortest path, which lists the least such set
//! in increasing order), so the 4×4 tables are those of the original
//! queue-based solver, byte for byte. The least set is built greedily: its
//! lowest cell `c` is the lowest cell of any optimal set, the first cell
//! whose press leads to the previous level, and the rest is the least set
//! of `b ⊕ PRESS[c]` (whose cells are all above `c`, or `c` would not be the
//! lowest).
//!
//! # Colours
//!
//! Every step commutes with translating all boards by a fixed board, so the
//! search towards `t` is the search towards white translated by `t`: the
//! tables towards black are those towards white at `b ⊕ full`, the same
//! entries in reverse order. The library searches once and reverses.

use core::sync::atomic::{AtomicU8, AtomicU16, AtomicU32, AtomicU64, Ordering::Relaxed};

use super::{UNREACHABLE, press_masks};
use crate::shape::Shape;

/// The most cells a board may have: 2^25 boards.
pub const MAX_CELLS: usize = 25;

/// An unsigned integer wide enough to hold a press set of a shape (a `u64`
/// with bits in the board layout): `u8` up to 8 cells, `u16` up to 16,
/// `u32` up to 32, `u64`.
pub trait PressSet: Copy + Eq + Default + core::fmt::Debug + Send + Sync {
    /// The atomic of the same width, for tables that threads share.
    type Atomic: Send + Sync;
    /// Bits the type holds.
    const BITS: u32;
    /// The set of the mask `mask` (which must fit).
    fn from_mask(mask: u64) -> Self;
    /// The set as a mask in the board layout.
    fn mask(self) -> u64;
    /// A new atomic holding `value`.
    fn atomic(value: Self) -> Self::Atomic;
    /// `Relaxed` load.
    fn load(atomic: &Self::Atomic) -> Self;
    /// `Relaxed` store.
    fn store(atomic: &Self::Atomic, value: Self);
    /// The value of an atomic owned outright.
    fn into_inner(atomic: Self::Atomic) -> Self;
}

macro_rules! press_set {
    ($($t:ty => $a:ty),*) => {$(
        impl PressSet for $t {
            type Atomic = $a;
            const BITS: u32 = <$t>::BITS;
            #[inline]
            fn from_mask(mask: u64) -> Self {
                mask as $t
            }
            #[inline]
            fn mask(self) -> u64 {
                u64::from(self)
            }
            #[inline]
            fn atomic(value: Self) -> $a {
                <$a>::new(value)
            }
            #[inline]
            fn load(atomic: &$a) -> Self {
                atomic.load(Relaxed)
            }
            #[inline]
            fn store(atomic: &$a, value: Self) {
                atomic.store(value, Relaxed)
            }
            #[inline]
            fn into_inner(atomic: $a) -> Self {
                atomic.into_inner()
            }
        }
    )*};
}
press_set!(u8 => AtomicU8, u16 => AtomicU16, u32 => AtomicU32, u64 => AtomicU64);

/// Bits of the narrowest of `u8`, `u16`, `u32` that holds a press set of
/// `cells` cells.
pub const fn press_bits(cells: usize) -> u32 {
    if cells <= 8 {
        8
    } else if cells <= 16 {
        16
    } else {
        32
    }
}

/// Rank over GF(2) of the press masks of `shape`: `2^rank` boards reach
/// each colour.
///
/// ```
/// use boardbase_tables::flip::search::rank;
/// use boardbase_tables::shape::Shape;
///
/// assert_eq!(rank(Shape::SQUARE4), 12); // 4,096 boards reach each colour
/// assert_eq!(rank(Shape::new(5, 5).unwrap()), 23); // Lights Out: 1 board in 4
/// ```
pub const fn rank(shape: Shape) -> u32 {
    let masks = press_masks(shape);
    let mut basis = [0u64; 64]; // basis[b]: a vector whose highest bit is b
    let mut rank = 0;
    let mut i = 0;
    while i < shape.cells() {
        let mut v = masks[i];
        while v != 0 {
            let top = 63 - v.leading_zeros() as usize;
            if basis[top] == 0 {
                basis[top] = v;
                rank += 1;
                break;
            }
            v ^= basis[top];
        }
        i += 1;
    }
    rank
}

/// A basis of the press sets that change nothing (the kernel of the press
/// masks over GF(2)), and its size, the nullity: `cells - rank`. As the
/// press relation is symmetric, a board is a sum of press masks exactly
/// when it has an even number of cells in common with each of them.
///
/// ```
/// use boardbase_tables::flip::search::kernel;
/// use boardbase_tables::flip::press_masks;
/// use boardbase_tables::shape::Shape;
///
/// let five = Shape::new(5, 5).unwrap();
/// let (basis, nullity) = kernel(five);
/// assert_eq!(nullity, 2);
/// let press = press_masks(five);
/// for &k in &basis[..nullity] {
///     let effect = (0..25).filter(|i| k >> i & 1 == 1).fold(0, |e, i| e ^ press[i]);
///     assert_eq!(effect, 0);
/// }
/// ```
pub const fn kernel(shape: Shape) -> ([u64; 64], usize) {
    let masks = press_masks(shape);
    // Row-reduce (effect, press set) pairs; the rows whose effect vanishes
    // span the kernel.
    let n = shape.cells();
    let mut effect = [0u64; 64];
    let mut set = [0u64; 64];
    let mut i = 0;
    while i < n {
        effect[i] = masks[i];
        set[i] = 1 << i;
        i += 1;
    }
    let mut row = 0;
    let mut bit = 0;
    while bit < n {
        let mut pivot = row;
        while pivot < n && effect[pivot] >> bit & 1 == 0 {
            pivot += 1;
        }
        if pivot < n {
            let (e, s) = (effect[pivot], set[pivot]);
            effect[pivot] = effect[row];
            set[pivot] = set[row];
            effect[row] = e;
            set[row] = s;
            let mut r = 0;
            while r < n {
                if r != row && effect[r] >> bit & 1 == 1 {
                    effect[r] ^= e;
                    set[r] ^= s;
                }
                r += 1;
            }
            row += 1;
        }
        bit += 1;
    }
    let mut basis = [0u64; 64];
    let mut nullity = 0;
    let mut r = row;
    while r < n {
        basis[nullity] = set[r];
        nullity += 1;
        r += 1;
    }
    (basis, nullity)
}

/// Whether press set `a` comes before `b` (of the same size) in the order
/// the search keeps: `a` holds the lowest cell in which they differ.
#[inline]
pub const fn precedes(a: u64, b: u64) -> bool {
    let x = a ^ b;
    x & x.wrapping_neg() & a != 0
}

/// The bits of `x` permuted as the board indices `b ↦ b ⊕ k` permute the
/// positions of a word (`k < 64`): bit `j` of the result is bit `j ⊕ k` of
/// `x`.
#[inline]
fn permute(mut x: u64, k: u64) -> u64 {
    const LOW: [u64; 6] = [
        0x5555_5555_5555_5555,
        0x3333_3333_3333_3333,
        0x0F0F_0F0F_0F0F_0F0F,
        0x00FF_00FF_00FF_00FF,
        0x0000_FFFF_0000_FFFF,
        0x0000_0000_FFFF_FFFF,
    ];
    for (t, &low) in LOW.iter().enumerate() {
        if k >> t & 1 == 1 {
            let s = 1 << t;
            x = ((x >> s) & low) | ((x & low) << s);
        }
    }
    x
}

/// The per-shape plan of the search towards one target. It holds no table:
/// the caller gives the bitset of boards seen, the bit-planes of two levels
/// and the columns of `2^cells` entries.
///
/// A level is stored as [`stride`](Self::stride) bitsets interleaved word
/// by word (word `w` of bitset `k` at `w * stride + k`): the level itself,
/// then bit `k - 1` of the number of optimal sets of each of its boards.
///
/// ```
/// use boardbase_tables::flip::search::{PressSet, Search};
/// use boardbase_tables::flip::UNREACHABLE;
/// use boardbase_tables::shape::Shape;
/// use core::sync::atomic::AtomicU8;
///
/// // 1×3: pressing an end flips two cells, the middle flips all three.
/// let search = Search::new(Shape::new(1, 3).unwrap(), 0);
/// let (mut rounds, mut sets) = ([UNREACHABLE; 8], [0u8; 8]);
/// let presses: Vec<AtomicU8> = (0..8).map(|_| u8::atomic(0)).collect();
/// let mut seen = vec![0; search.words()];
/// let mut levels = [0, 1].map(|_| vec![0; search.words() * search.stride()]);
/// assert_eq!(search.run::<u8, _>(&mut seen, &mut levels, &mut rounds, &presses, &mut sets), 8);
/// let get = |b: usize| (rounds[b], u8::load(&presses[b]), sets[b]);
/// // b b b -> w w w: press the middle.
/// assert_eq!(get(0b111), (1, 0b010, 1));
/// // b w b -> w w w: press both ends (the middle flips twice).
/// assert_eq!(get(0b101), (2, 0b101, 1));
/// ```
#[derive(Clone, Debug)]
pub struct Search {
    press: [u64; 64],
    /// Per cell: the word-index part of its press mask, and the in-word part.
    press_word: [usize; MAX_CELLS],
    press_lo: [u64; MAX_CELLS],
    cells: usize,
    lo_bits: u32,
    planes: usize,
    target: u64,
    /// The kernel vectors' word-index parts, and per syndrome of those the
    /// positions of a word that reach the target.
    kernel_hi: [u64; 8],
    nullity: usize,
    reachable: [u64; 256],
}

impl Search {
    /// The search of `shape` towards `target`.
    ///
    /// # Panics
    ///
    /// Panics if the shape has more than [`MAX_CELLS`] cells or `target` is
    /// not a board of the shape.
    pub fn new(shape: Shape, target: u64) -> Search {
        let cells = shape.cells();
        assert!(
            cells <= MAX_CELLS,
            "the search takes at most {MAX_CELLS} cells"
        );
        assert!(target <= shape.full(), "the target is a board");
        // A board has at most 2^nullity optimal sets (the press sets that
        // reach the target from it); that number takes nullity + 1 bits.
        let (basis, nullity) = kernel(shape);
        assert!(nullity < 8, "optimal set counts fit a byte");
        let lo_bits = (cells as u32).min(6);
        let lo_mask = (1u64 << lo_bits) - 1;
        let press = press_masks(shape);
        let mut press_word = [0; MAX_CELLS];
        let mut press_lo = [0; MAX_CELLS];
        for c in 0..cells {
            press_word[c] = (press[c] >> lo_bits) as usize;
            press_lo[c] = press[c] & lo_mask;
        }
        // Board b reaches the target iff every kernel vector k has an even
        // number of cells in common with b ⊕ target. Split into word and
        // in-word parts: the syndrome of the in-word part must equal that of
        // the word part.
        let syndrome = |x: u64, lo: bool| {
            let mut s = 0usize;
            for (i, &k) in basis[..nullity].iter().enumerate() {
                let k = if lo { k & lo_mask } else { k };
                s |= ((k & x).count_ones() as usize & 1) << i;
            }
            s
        };
        let mut kernel_hi = [0u64; 8];
        for (i, &k) in basis[..nullity].iter().enumerate() {
            kernel_hi[i] = k >> lo_bits;
        }
        let target_syndrome = syndrome(target, false);
        let mut reachable = [0u64; 256];
        for j in 0..1u64 << lo_bits {
            reachable[syndrome(j, true) ^ target_syndrome] |= 1 << j;
        }
        Search {
            press,
            press_word,
            press_lo,
            cells,
            lo_bits,
            planes: nullity + 1,
            target,
            kernel_hi,
            nullity,
            reachable,
        }
    }

    /// Boards, `2^cells`: the length of each column.
    pub fn boards(&self) -> usize {
        1 << self.cells
    }

    /// Words of a bitset, `2^cells / 64` (at least 1).
    pub fn words(&self) -> usize {
        1 << (self.cells as u32 - self.lo_bits)
    }

    /// Bit-planes of set counts in a level: `nullity + 1`, as a board has at
    /// most `2^nullity` optimal sets.
    pub fn planes(&self) -> usize {
        self.planes
    }

    /// Bitsets of a level, interleaved: the level and its
    /// [`planes`](Self::planes).
    pub fn stride(&self) -> usize {
        self.planes + 1
    }

    /// The positions of word `w` that reach the target.
    #[inline]
    fn reachable(&self, w: usize) -> u64 {
        let mut s = 0;
        for (i, &k) in self.kernel_hi[..self.nullity].iter().enumerate() {
            s |= ((k & w as u64).count_ones() as usize & 1) << i;
        }
        self.reachable[s]
    }

    /// Level 0: the target alone in `seen` and `level` (whole, cleared
    /// first), its entries (0 rounds, no press, one set) in the columns,
    /// which must hold [`UNREACHABLE`], 0 and 0 everywhere else.
    pub fn start<P: PressSet>(
        &self,
        seen: &mut [u64],
        level: &mut [u64],
        rounds: &mut [u8],
        presses: &[P::Atomic],
        sets: &mut [u8],
    ) {
        assert!(seen.len() == self.words() && level.len() == self.words() * self.stride());
        seen.fill(0);
        level.fill(0);
        let t = self.target as usize;
        let (w, bit) = (t >> self.lo_bits, 1 << (t & ((1 << self.lo_bits) - 1)));
        seen[w] = bit;
        level[w * self.stride()] = bit;
        level[w * self.stride() + 1] = bit; // one optimal set
        rounds[t] = 0;
        P::store(&presses[t], P::default());
        sets[t] = 1;
    }

    /// One level: the boards `d` presses away, from the level `d - 1`
    /// (`level`, whole), for the words `first..first + seen.len()`. Updates
    /// `seen` (those words), writes the new level's planes into `next`
    /// (those words' planes), their rounds and set counts into `rounds` and
    /// `sets` (those words' boards, from board `first * 64`), and their
    /// press sets into `presses` (whole). Returns the number of new boards.
    ///
    /// # Panics
    ///
    /// Panics if a slice has the wrong length, `d` is 0, or a set count
    /// does not divide exactly.
    #[allow(clippy::too_many_arguments)]
    pub fn step<P: PressSet>(
        &self,
        d: u8,
        level: &[u64],
        first: usize,
        seen: &mut [u64],
        next: &mut [u64],
        rounds: &mut [u8],
        sets: &mut [u8],
        presses: &[P::Atomic],
    ) -> u64 {
        assert!(d >= 1, "level 0 is start");
        let (planes, stride) = (self.planes, self.stride());
        let per_word = 1usize << self.lo_bits;
        assert_eq!(level.len(), self.words() * stride);
        assert!(next.len() == seen.len() * stride);
        assert!(rounds.len() == seen.len() * per_word && sets.len() == rounds.len());
        let cells = self.cells;
        let (press_word, press_lo) = (&self.press_word[..cells], &self.press_lo[..cells]);
        let mut count = 0;
        for (i, seen) in seen.iter_mut().enumerate() {
            let w = first + i;
            let out = &mut next[i * stride..][..stride];
            out.fill(0);
            let unseen = !*seen & self.reachable(w);
            if unseen == 0 {
                continue;
            }
            // The previous level translated by each press: bit j of
            // moved[c] says that board (w, j) ⊕ PRESS[c] is in the level.
            let mut moved = [0u64; MAX_CELLS];
            let mut union = 0;
            for ((m, &pw), &lo) in moved.iter_mut().zip(press_word).zip(press_lo) {
                let src = level[(w ^ pw) * stride];
                if src != 0 {
                    *m = permute(src, lo);
                    union |= *m;
                }
            }
            let moved = &moved[..cells];
            let new = union & unseen;
            if new == 0 {
                continue;
            }
            *seen |= new;
            count += u64::from(new.count_ones());
            out[0] = new;
            let mut rest = new;
            while rest != 0 {
                let j = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let b = (w << self.lo_bits) | j;
                // The cells whose press leads to the level.
                let mut from = 0u32;
                for (c, &m) in moved.iter().enumerate() {
                    from |= ((m >> j) as u32 & 1) << c;
                }
                // The kept set: the first such cell, with the kept set of
                // the board it leads to.
                let first_cell = from.trailing_zeros() as usize;
                let kept = (from != 0).then(|| {
                    let src = b ^ self.press[first_cell] as usize;
                    P::load(&presses[src]).mask() | 1 << first_cell
                });
                let mut sum = 0u32;
                while from != 0 {
                    let c = from.trailing_zeros() as usize;
                    from &= from - 1;
                    // Bit j of a word translated by `lo` is bit j ⊕ lo.
                    let src = &level[(w ^ press_word[c]) * stride..][..stride];
                    let at = j ^ press_lo[c] as usize;
                    let mut v = 0;
                    for (k, &plane) in src[1..].iter().enumerate() {
                        v |= ((plane >> at) & 1) << k;
                    }
                    sum += v as u32;
                }
                let kept = kept.expect("a board of the level has a predecessor");
                assert_eq!(
                    sum % u32::from(d),
                    0,
                    "every optimal set loses one of its cells"
                );
                let n = sum / u32::from(d);
                assert!(n >= 1 && n < 1 << planes, "1 to 2^nullity optimal sets");
                for (k, plane) in out[1..].iter_mut().enumerate() {
                    *plane |= u64::from(n >> k & 1) << j;
                }
                rounds[i * per_word + j] = d;
                sets[i * per_word + j] = n as u8;
                P::store(&presses[b], P::from_mask(kept));
            }
        }
        count
    }

    /// Checks the finished columns for the boards
    /// `first..first + rounds.len()`: a reached board's press set has as
    /// many cells as its rounds and reaches the target, and it has at least
    /// one optimal set; an unreached board has neither.
    ///
    /// # Panics
    ///
    /// Panics at the first board that breaks these rules.
    pub fn check<P: PressSet>(&self, first: usize, rounds: &[u8], presses: &[P], sets: &[u8]) {
        for (i, ((&d, &p), &s)) in rounds.iter().zip(presses).zip(sets).enumerate() {
            let b = first + i;
            let p = p.mask();
            if d == UNREACHABLE {
                assert!(
                    p == 0 && s == 0,
                    "board {b:#x}: nothing reaches an unreachable board"
                );
                continue;
            }
            assert_eq!(
                p.count_ones(),
                u32::from(d),
                "board {b:#x}: press set size is the distance"
            );
            let mut effect = 0;
            let mut rest = p;
            while rest != 0 {
                effect ^= self.press[rest.trailing_zeros() as usize];
                rest &= rest - 1;
            }
            assert_eq!(
                b as u64 ^ effect,
                self.target,
                "board {b:#x}: press set reaches the target"
            );
            assert!(s >= 1, "board {b:#x}: a reached board has an optimal set");
        }
    }

    /// The whole search on this thread, with the bitset `seen`
    /// ([`words`](Self::words) long), two levels (`words × stride` long)
    /// and the columns (`rounds` [`UNREACHABLE`], `presses` and `sets` 0 on
    /// entry). Returns the number of boards that reach the target. Run
    /// [`check`](Self::check) on the plain columns after.
    ///
    /// # Panics
    ///
    /// As [`step`](Self::step), or if the reached boards are not a power of
    /// two in number (a coset of the press masks' span).
    pub fn run<P: PressSet, L: AsMut<[u64]>>(
        &self,
        seen: &mut [u64],
        levels: &mut [L; 2],
        rounds: &mut [u8],
        presses: &[P::Atomic],
        sets: &mut [u8],
    ) -> u64 {
        let [a, b] = levels;
        let (mut level, mut next) = (a.as_mut(), b.as_mut());
        self.start::<P>(seen, level, rounds, presses, sets);
        let mut reached = 1u64;
        let mut d = 0u8;
        loop {
            d += 1;
            let found = self.step::<P>(d, level, 0, seen, next, rounds, sets, presses);
            if found == 0 {
                break;
            }
            reached += found;
            core::mem::swap(&mut level, &mut next);
        }
        assert!(reached.is_power_of_two(), "the reached boards are a coset");
        reached
    }
}
