//! The depth pass of the Game of Euler: moves left with perfect play and one
//! best move for every position, on top of the win/loss bits of
//! [`winloss`](super::winloss).
//!
//! It is not a second solver: the outcome of every position is read from the
//! win/loss bitset, and the pass only measures how long the game lasts. It
//! also checks the bitset against its own definition (an open position is
//! won exactly when some move leads to a lost one; the full board is won),
//! so a wrong bit stops it with a panic instead of producing a table that
//! contradicts itself.
//!
//! # Values
//!
//! With perfect play the winner hurries and the loser resists: a winning
//! position lasts one ply more than its *shortest* losing successor, a losing
//! one one ply more than its *longest* successor (all of which are winning).
//! The full board has 0 plies and no move ([`NO_MOVE`]). Since the full
//! board is a win in 0 plies, a position is winning exactly when its ply
//! count is even.
//!
//! # Method
//!
//! With the outcomes known, the positions of at most `d` plies, `A(d)`, follow
//! from `A(d - 1)` alone: the full board; a winning position with a move to
//! a losing position of `A(d - 1)`; a losing open position all of whose
//! moves lead into `A(d - 1)`. Each [`step`](DepthSolver::step) computes one
//! `A(d)` bit-parallel, 64 positions a word as in the win/loss pass, and any
//! range of words independently of the others (no order, no shared writes);
//! a position's plies are the step that first takes it in. Its best move is
//! the first move, in the order of [`super::moves`], to a position
//! of exactly `d - 1` plies (in `A(d - 1)`, not in `A(d - 2)`): by parity
//! that successor has the other outcome, so it is the fastest win (every
//! losing successor has at least `d - 1` plies) or the longest resistance
//! (no successor has more).

use super::winloss::{MAX_CELLS, WORD_CELLS, full_bit, valid_masks, word_mask};
use super::{MAX_MOVES, MoveList, moves};
use crate::shape::Shape;

/// The best-move entry of the full board, which has no move.
pub const NO_MOVE: u8 = u8::MAX;

/// Words a [`step`](DepthSolver::step) treats side by side, when its range
/// allows (a multiple of 8 words from a multiple of 8).
pub const LANES: usize = 8;

/// One move as seen from a word: the word-index part and the in-word step.
#[derive(Clone, Copy, Debug, Default)]
struct WordMove {
    /// Word-index bits of the move (`m >> 6`).
    word: usize,
    /// In-word part (`m & 63`): the shift to the successor's bit.
    shift: u32,
    /// The positions of a word from which the in-word part is legal.
    valid: u64,
}

/// The per-shape plan of the depth pass. It holds no table: the caller
/// gives the win/loss bitset, two bitsets for `A(d - 1)` and `A(d)`, and
/// the byte columns.
///
/// ```
/// use boardbase_tables::euler::depth::{DepthSolver, NO_MOVE};
/// use boardbase_tables::euler::winloss::WinLossSolver;
/// use boardbase_tables::shape::Shape;
/// use core::sync::atomic::{AtomicU64, Ordering::Relaxed};
///
/// // 1×3, a row of three squares: the moves are the 3 squares, the 2-long
/// // pins from each end and the 3-long one.
/// //   . . .
/// let shape = Shape::new(1, 3).unwrap();
/// let wl = WinLossSolver::new(shape);
/// let bits: Vec<AtomicU64> = (0..wl.words()).map(|_| AtomicU64::new(0)).collect();
/// wl.solve(&bits, &mut vec![[0; 8]; wl.block_words()]);
/// let win: Vec<u64> = bits.iter().map(|w| w.load(Relaxed)).collect();
///
/// let depth = DepthSolver::new(shape);
/// let (mut plies, mut best) = (vec![0; 8], vec![0; 8]);
/// let [mut a, mut b, mut c] = [0, 1, 2].map(|_| vec![0; depth.words()]);
/// depth.solve(&win, [&mut a, &mut b, &mut c], &mut plies, &mut best);
/// // The empty row is won by covering two squares from either end: the
/// // opponent must cover the last one. Two plies.
/// assert_eq!(win[0] & 1, 1);
/// assert_eq!(plies[0], 2);
/// assert_eq!(depth.moves().as_slice()[best[0] as usize], 0b011);
/// assert_eq!((plies[0b111], best[0b111]), (0, NO_MOVE));
/// ```
#[derive(Clone, Debug)]
pub struct DepthSolver {
    moves: MoveList,
    word_moves: [WordMove; MAX_MOVES],
    cells: u32,
    lo_bits: u32,
}

impl DepthSolver {
    /// The plan for `shape`.
    ///
    /// # Panics
    ///
    /// Panics if the shape has more than [`MAX_CELLS`] cells.
    pub fn new(shape: Shape) -> DepthSolver {
        assert!(
            shape.cells() <= MAX_CELLS,
            "the depth pass takes at most {MAX_CELLS} cells"
        );
        let cells = shape.cells() as u32;
        let lo_bits = cells.min(WORD_CELLS);
        let valid = valid_masks(lo_bits);
        let list = moves(shape);
        let mut word_moves = [WordMove::default(); MAX_MOVES];
        for (wm, &m) in word_moves.iter_mut().zip(list.as_slice()) {
            let lo = m & ((1 << lo_bits) - 1);
            *wm = WordMove {
                word: (m >> lo_bits) as usize,
                shift: lo as u32,
                valid: valid[lo as usize],
            };
        }
        DepthSolver {
            moves: list,
            word_moves,
            cells,
            lo_bits,
        }
    }

    /// The move list the best-move indices refer to.
    pub fn moves(&self) -> &MoveList {
        &self.moves
    }

    /// Positions, `2^cells`: the length of the plies and best-move columns.
    pub fn positions(&self) -> usize {
        1 << self.cells
    }

    /// Words of a bitset, `2^cells / 64` (at least 1).
    pub fn words(&self) -> usize {
        1 << (self.cells - self.lo_bits)
    }

    /// The positions of a word that exist (all 64, fewer under 6 cells).
    fn word_mask(&self) -> u64 {
        word_mask(self.lo_bits)
    }

    /// The bit of the full board in the last word.
    fn full_bit(&self) -> u64 {
        full_bit(self.lo_bits)
    }

    #[inline]
    fn legal(&self, word: usize) -> impl Iterator<Item = &WordMove> {
        self.word_moves[..self.moves.len()]
            .iter()
            .filter(move |m| word & m.word == 0)
    }

    /// Checks the win/loss bits of words `first..first + len` against the
    /// rules: an open position is won exactly when a move leads to a lost
    /// one, and the full board is won.
    ///
    /// # Panics
    ///
    /// Panics at the first contradiction, naming the position.
    pub fn check(&self, win: &[u64], first: usize, len: usize) {
        assert_eq!(win.len(), self.words(), "one bit a position");
        let last = self.words() - 1;
        for w in first..first + len {
            let mut wins = 0;
            for m in self.legal(w) {
                wins |= (!win[w | m.word] >> m.shift) & m.valid;
            }
            if w == last {
                wins |= self.full_bit();
            }
            let wrong = (wins ^ win[w]) & self.word_mask();
            assert!(
                wrong == 0,
                "position {:#x}: the win/loss bit disagrees with its successors",
                (w << self.lo_bits) + wrong.trailing_zeros() as usize
            );
        }
    }

    /// The first step: `A(0)`, the full board alone, into `next` (the words
    /// from `first`), and its entries (0 plies, [`NO_MOVE`]) when in range.
    /// Returns the number of positions taken in (0 or 1).
    pub fn start(&self, first: usize, next: &mut [u64], plies: &mut [u8], best: &mut [u8]) -> u64 {
        next.fill(0);
        let last = self.words() - 1;
        if (first..first + next.len()).contains(&last) {
            next[last - first] = self.full_bit();
            let full = self.positions() - 1 - (first << self.lo_bits);
            plies[full] = 0;
            best[full] = NO_MOVE;
            1
        } else {
            0
        }
    }

    /// One step: `A(d)` from `A(d - 1)` (`prev`) and `A(d - 2)` (`prev2`;
    /// for `d = 1` any bitset, as `A(-1)` is empty), whole bitsets, for the
    /// words `first..first + next.len()` into `next`. For the positions
    /// taken in, writes `d` into `plies` and the best move into `best` (the
    /// entries of those words' positions, from position `first * 64`).
    /// Returns their number.
    ///
    /// The best move of a position taken in at `d` is the first move to a
    /// position of exactly `d - 1` plies: in `A(d - 1)`, not in `A(d - 2)`.
    ///
    /// # Panics
    ///
    /// Panics if a slice has the wrong length or `d` is 0, or if the tables
    /// would contradict each other: a position taken in with more plies
    /// than open squares, with plies of the wrong parity for its outcome
    /// (wins are even), or without a move to a position of `d - 1` plies
    /// with the other outcome.
    #[allow(clippy::too_many_arguments)]
    pub fn step(
        &self,
        d: u8,
        win: &[u64],
        prev: &[u64],
        prev2: &[u64],
        first: usize,
        next: &mut [u64],
        plies: &mut [u8],
        best: &mut [u8],
    ) -> u64 {
        assert!(d >= 1, "step 0 is start");
        let words = self.words();
        assert!(win.len() == words && prev.len() == words && prev2.len() == words);
        let per_word = 1usize << self.lo_bits;
        assert!(plies.len() == next.len() * per_word && best.len() == plies.len());
        let mask = self.word_mask();
        let moves = &self.word_moves[..self.moves.len()];
        if first.is_multiple_of(LANES) && next.len().is_multiple_of(LANES) {
            for (g, out) in next.chunks_exact_mut(LANES).enumerate() {
                self.step_lanes(first + g * LANES, win, prev, out);
            }
        } else {
            for (i, out) in next.iter_mut().enumerate() {
                let w = first + i;
                let before = prev[w];
                if before == mask {
                    *out = before;
                    continue;
                }
                let mut hurry = 0;
                let mut resist = !0;
                for m in moves {
                    if w & m.word != 0 {
                        continue;
                    }
                    let s = prev[w | m.word];
                    let lost = !win[w | m.word] & s;
                    hurry |= (lost >> m.shift) & m.valid;
                    resist &= (s >> m.shift) | !m.valid;
                }
                *out = self.combine(w, before, win[w], hurry, resist);
            }
        }

        // The positions taken in: their plies and best moves.
        let mut taken = 0;
        for (i, &after) in next.iter().enumerate() {
            let w = first + i;
            let own = win[w];
            let new = after & !prev[w];
            if new == 0 {
                continue;
            }
            taken += u64::from(new.count_ones());
            // Wins are even plies, losses odd.
            let wrong = if d.is_multiple_of(2) {
                new & !own
            } else {
                new & own
            };
            assert!(
                wrong == 0,
                "position {:#x}: {d} plies with the other outcome",
                (w << self.lo_bits) + wrong.trailing_zeros() as usize
            );
            let plies = &mut plies[i * per_word..][..per_word];
            let best = &mut best[i * per_word..][..per_word];
            let mut rest = new;
            while rest != 0 {
                let j = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let p = (w << self.lo_bits) + j;
                assert!(
                    u32::from(d) <= self.cells - p.count_ones(),
                    "position {p:#x}: each move covers a square"
                );
                plies[j] = d;
            }
            // Best moves: the first move to exactly d - 1 plies.
            let mut rest = new;
            for (index, m) in moves.iter().enumerate() {
                if w & m.word != 0 {
                    continue;
                }
                let v = w | m.word;
                let exact = if d >= 2 { prev[v] & !prev2[v] } else { prev[v] };
                let found = (exact >> m.shift) & m.valid & rest;
                if found == 0 {
                    continue;
                }
                let flips = ((win[v] >> m.shift) ^ own) & found;
                assert!(
                    flips == found,
                    "position {:#x}: the best move flips the outcome",
                    (w << self.lo_bits) + (found ^ flips).trailing_zeros() as usize
                );
                let mut f = found;
                while f != 0 {
                    best[f.trailing_zeros() as usize] = index as u8;
                    f &= f - 1;
                }
                rest &= !found;
                if rest == 0 {
                    break;
                }
            }
            assert!(
                rest == 0,
                "position {:#x}: no move to {} plies",
                (w << self.lo_bits) + rest.trailing_zeros() as usize,
                d - 1
            );
        }
        taken
    }

    /// `A(d)` of word `w` from its own bits `before` in `A(d - 1)`, its
    /// win/loss bits `own`, and over its moves: `hurry`, the positions with
    /// a move to a lost position of `A(d - 1)`; `resist`, those all of
    /// whose moves lead into `A(d - 1)`.
    #[inline]
    fn combine(&self, w: usize, before: u64, own: u64, hurry: u64, resist: u64) -> u64 {
        let mut open = self.word_mask();
        if w == self.words() - 1 {
            open &= !self.full_bit();
        }
        before | (own & hurry) | (!own & open & resist)
    }

    /// [`step`](Self::step)'s bits for the [`LANES`] words from `w0` (a
    /// multiple of [`LANES`]) side by side. A move's word part splits into
    /// its low 3 bits, which pick the source lane and rule lanes out, and
    /// the rest, the same for all lanes: every move is then a few
    /// branch-free operations on `[u64; LANES]`.
    #[inline]
    fn step_lanes(&self, w0: usize, win: &[u64], prev: &[u64], out: &mut [u64]) {
        let mask = self.word_mask();
        let before: &[u64; LANES] = prev[w0..w0 + LANES].try_into().expect("LANES words");
        if before.iter().all(|&b| b == mask) {
            out.copy_from_slice(before);
            return;
        }
        let mut hurry = [0u64; LANES];
        let mut resist = [!0u64; LANES];
        for m in &self.word_moves[..self.moves.len()] {
            let high = m.word & !(LANES - 1);
            let low = m.word & (LANES - 1);
            if w0 & high != 0 {
                continue;
            }
            let base = w0 | high;
            let p: &[u64; LANES] = prev[base..base + LANES].try_into().expect("LANES words");
            let q: &[u64; LANES] = win[base..base + LANES].try_into().expect("LANES words");
            if low == 0 {
                for l in 0..LANES {
                    let lost = !q[l] & p[l];
                    hurry[l] |= (lost >> m.shift) & m.valid;
                    resist[l] &= (p[l] >> m.shift) | !m.valid;
                }
            } else {
                for l in 0..LANES {
                    // Lane l's successor is lane l | low, when l & low == 0.
                    let keep = if l & low == 0 { m.valid } else { 0 };
                    let src = l | low;
                    let lost = !q[src] & p[src];
                    hurry[l] |= (lost >> m.shift) & keep;
                    resist[l] &= (p[src] >> m.shift) | !keep;
                }
            }
        }
        for l in 0..LANES {
            out[l] = self.combine(w0 + l, before[l], win[w0 + l], hurry[l], resist[l]);
        }
    }

    /// The whole pass on this thread: checks `win`, fills `plies` and
    /// `best`, using the three bitsets of `sets` ([`words`](Self::words)
    /// long each) for the steps.
    ///
    /// # Panics
    ///
    /// As [`check`](Self::check) and [`step`](Self::step), or if some
    /// position is never taken in.
    pub fn solve(&self, win: &[u64], sets: [&mut [u64]; 3], plies: &mut [u8], best: &mut [u8]) {
        self.check(win, 0, self.words());
        let [mut prev2, mut prev, mut next] = sets;
        let mut taken = self.start(0, prev, plies, best);
        let mut d = 0u8;
        while taken < self.positions() as u64 {
            d += 1;
            assert!(u32::from(d) <= self.cells, "every position is taken in");
            taken += self.step(d, win, prev, prev2, 0, next, plies, best);
            // A(d) becomes A(d - 1), A(d - 1) becomes A(d - 2).
            core::mem::swap(&mut prev2, &mut prev);
            core::mem::swap(&mut prev, &mut next);
        }
    }
}
