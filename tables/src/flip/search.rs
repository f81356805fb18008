//! The breadth-first search of Flip Game over XOR press masks, for any
//! shape of at most [`MAX_CELLS`] cells.
//!
//! From a target board (all white `0` or all black `full`), the search
//! finds for every board the fewest presses that reach the target, one
//! optimal press set and the number of optimal press sets. Presses commute
//! and pressing twice undoes a press, so an answer is a *set* of cells, and
//! a board at distance `d` is reached by pressing some `d` distinct cells.
//!
//! # Levels
//!
//! The search runs level by level: the pass of level `d` scans every board
//! in increasing order and expands those at distance `d` (press each cell:
//! an unseen neighbour is at distance `d + 1`). Scanning in address order
//! keeps the accesses close to sequential; there is no queue.
//!
//! # Counting sets, not paths
//!
//! Counting shortest *paths* and dividing by `d!` (every optimal set is
//! pressed in `d!` orders) overflows past 4×4. Sets are counted instead:
//! every optimal set of a board `b` at distance `d + 1` minus one of its
//! `d + 1` cells `i` is an optimal set of `b ⊕ PRESS[i]`, at distance `d`,
//! so `sets(b) × (d + 1)` is the sum of `sets(b ⊕ PRESS[i])` over the
//! cells `i` leading to distance `d`. The search accumulates that sum while
//! expanding level `d` and divides when it reaches `b` in the next pass,
//! checking that the division is exact.
//!
//! # Which optimal set
//!
//! The press set kept is the one whose cells, listed in increasing order,
//! come first lexicographically: of two sets of equal size, the one holding
//! the lowest cell in which they differ. That is the choice of a first-in,
//! first-out queue that expands boards in discovery order and presses cells
//! in increasing order (the lexicographically smallest shortest path lists
//! the smallest such set in increasing order), so the 4×4 tables are those
//! of the original queue-based solver.

use super::{UNREACHABLE, press_masks};
use crate::shape::Shape;

/// The most cells a board may have: 2^25 boards.
pub const MAX_CELLS: usize = 25;

/// An unsigned integer wide enough to hold a press set of a shape (a `u64`
/// with bits in the board layout): `u8` up to 8 cells, `u16` up to 16,
/// `u32` up to 32.
pub trait PressSet: Copy + Eq + Default + core::fmt::Debug {
    /// Bits the type holds.
    const BITS: u32;
    /// The set of the mask `mask` (which must fit).
    fn from_mask(mask: u64) -> Self;
    /// The set as a mask in the board layout.
    fn mask(self) -> u64;
}

macro_rules! press_set {
    ($($t:ty),*) => {$(
        impl PressSet for $t {
            const BITS: u32 = <$t>::BITS;
            #[inline]
            fn from_mask(mask: u64) -> Self {
                mask as $t
            }
            #[inline]
            fn mask(self) -> u64 {
                u64::from(self)
            }
        }
    )*};
}
press_set!(u8, u16, u32, u64);

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

/// Whether press set `a` comes before `b` (of the same size) in the order
/// the search keeps: `a` holds the lowest cell in which they differ.
#[inline]
pub const fn precedes(a: u64, b: u64) -> bool {
    let x = a ^ b;
    x & x.wrapping_neg() & a != 0
}

/// A search from one target board, over caller-provided tables of `2^cells`
/// entries each. Run it with [`advance`](Self::advance) until it returns
/// `false` (or [`run`](Self::run)), then [`finish`](Self::finish) checks it.
///
/// ```
/// use boardbase_tables::flip::search::Search;
/// use boardbase_tables::shape::Shape;
///
/// // 1×3: pressing an end flips two cells, the middle flips all three.
/// let shape = Shape::new(1, 3).unwrap();
/// let (mut rounds, mut presses, mut sets, mut sums) = ([0u8; 8], [0u8; 8], [0u8; 8], [0u16; 8]);
/// let mut search = Search::new(shape, 0, &mut rounds, &mut presses, &mut sets, &mut sums);
/// search.run();
/// assert_eq!(search.finish(), 8); // every board reaches white
/// // b b b -> w w w: press the middle.
/// assert_eq!((rounds[0b111], presses[0b111], sets[0b111]), (1, 0b010, 1));
/// // b w b -> w w w: press both ends (the middle flips twice).
/// assert_eq!((rounds[0b101], presses[0b101], sets[0b101]), (2, 0b101, 1));
/// ```
pub struct Search<'a, P: PressSet> {
    press: [u64; 64],
    cells: usize,
    target: u64,
    rounds: &'a mut [u8],
    presses: &'a mut [P],
    sets: &'a mut [u8],
    sums: &'a mut [u16],
    level: u8,
    pos: usize,
    found_next: bool,
    done: bool,
    reached: u64,
}

impl<'a, P: PressSet> Search<'a, P> {
    /// Starts a search towards `target`, resetting the tables: `rounds`
    /// (fewest presses, [`UNREACHABLE`] when none), `presses` (one optimal
    /// set, 0 when none), `sets` (number of optimal sets, 0 when none), and
    /// the scratch `sums`.
    ///
    /// # Panics
    ///
    /// Panics if the shape has more than [`MAX_CELLS`] cells, a press set
    /// does not fit `P`, a table is not `2^cells` long, or `target` is not a
    /// board of the shape.
    pub fn new(
        shape: Shape,
        target: u64,
        rounds: &'a mut [u8],
        presses: &'a mut [P],
        sets: &'a mut [u8],
        sums: &'a mut [u16],
    ) -> Self {
        let cells = shape.cells();
        assert!(
            cells <= MAX_CELLS,
            "the search takes at most {MAX_CELLS} cells"
        );
        assert!(cells as u32 <= P::BITS, "a press set fits its type");
        let boards = 1usize << cells;
        assert!(
            rounds.len() == boards
                && presses.len() == boards
                && sets.len() == boards
                && sums.len() == boards,
            "one entry a board"
        );
        assert!(target < boards as u64, "the target is a board");
        rounds.fill(UNREACHABLE);
        presses.fill(P::default());
        sets.fill(0);
        sums.fill(0);
        rounds[target as usize] = 0;
        sums[target as usize] = 1;
        Search {
            press: press_masks(shape),
            cells,
            target,
            rounds,
            presses,
            sets,
            sums,
            level: 0,
            pos: 0,
            found_next: false,
            done: false,
            reached: 1,
        }
    }

    /// Boards reached so far (at most `2^rank`).
    pub fn reached(&self) -> u64 {
        self.reached
    }

    /// Scans up to `budget` more boards (at least one pass step); returns
    /// whether work remains.
    pub fn advance(&mut self, budget: usize) -> bool {
        let boards = self.rounds.len();
        let mut left = budget.max(1);
        while !self.done && left > 0 {
            let end = boards.min(self.pos + left);
            left -= end - self.pos;
            let level = self.level;
            for b in self.pos..end {
                if self.rounds[b] == level {
                    self.expand(b);
                }
            }
            self.pos = end;
            if end == boards {
                if self.found_next {
                    self.level += 1;
                    self.pos = 0;
                    self.found_next = false;
                } else {
                    self.done = true;
                }
            }
        }
        !self.done
    }

    /// Runs the search to the end.
    pub fn run(&mut self) {
        while self.advance(usize::MAX) {}
    }

    /// Expands board `b` of the current level: its set count is complete.
    #[inline]
    fn expand(&mut self, b: usize) {
        let d = self.level;
        let sum = self.sums[b];
        let div = u16::from(d.max(1));
        assert_eq!(sum % div, 0, "every optimal set loses one of its cells");
        let sets = sum / div;
        assert!(
            (1..=u16::from(u8::MAX)).contains(&sets),
            "optimal set count fits a byte"
        );
        self.sets[b] = sets as u8;
        let mine = self.presses[b].mask();
        for (i, &mask) in self.press[..self.cells].iter().enumerate() {
            let n = b ^ mask as usize;
            let r = self.rounds[n];
            let candidate = mine ^ (1 << i);
            if r == UNREACHABLE {
                self.rounds[n] = d + 1;
                self.presses[n] = P::from_mask(candidate);
                self.sums[n] = sets;
                self.reached += 1;
                self.found_next = true;
            } else if r == d + 1 {
                self.sums[n] = self.sums[n]
                    .checked_add(sets)
                    .expect("optimal set sums fit 16 bits");
                if precedes(candidate, self.presses[n].mask()) {
                    self.presses[n] = P::from_mask(candidate);
                }
            }
        }
    }

    /// Checks the finished tables and returns the number of boards that
    /// reach the target.
    ///
    /// # Panics
    ///
    /// Panics if the search is not finished, or if a structural invariant
    /// fails: a press set whose size is not the distance or that does not
    /// reach the target, an unreachable board with a press set or count, or
    /// a number of reached boards that is not a power of two.
    pub fn finish(self) -> u64 {
        assert!(self.done, "the search is finished");
        for b in 0..self.rounds.len() {
            let d = self.rounds[b];
            let p = self.presses[b].mask();
            if d == UNREACHABLE {
                assert!(
                    p == 0 && self.sets[b] == 0,
                    "nothing reaches an unreachable board"
                );
                continue;
            }
            assert_eq!(
                p.count_ones(),
                u32::from(d),
                "press set size is the distance"
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
                "press set reaches the target"
            );
            assert!(self.sets[b] >= 1);
        }
        assert!(
            self.reached.is_power_of_two(),
            "the reached boards are a coset"
        );
        self.reached
    }
}
