//! The depth pass by class: moves left with perfect play for every entry
//! of a [`ClassSolver`]'s index, on top of its win/loss bits.
//!
//! The method is the plain depth pass's
//! ([`euler::depth`](crate::euler::depth)): `A(d)`, the positions of at most
//! `d` plies, follows from `A(d - 1)` alone (a won position with a move to a
//! lost one of `A(d - 1)`, a lost open position all of whose moves lead
//! into `A(d - 1)`), and a position's plies are the step that first takes
//! it in. Here each bitset is in the classes' order, and a move into
//! another block is read through the symmetry of the class it reaches, in
//! that symmetry's frame, as the win/loss solver does: the moves seen
//! through one symmetry are streamed into a scratch pair (an OR for
//! "hurry", an AND for "resist"), whose index bits are then permuted back.
//!
//! No best-move column is made: the best move of a position (the first
//! move, in [`moves`](crate::euler::moves) order, to a position of one ply
//! fewer) is found by probing its successors' plies, the same move the
//! plain pass stores.

use alloc::vec::Vec;
use core::ops::Range;

use super::{ClassSolver, Into};
use crate::classes::MAX_SYMMETRIES;
use crate::euler::MAX_MOVES;
use crate::euler::winloss::{full_bit, word_mask};

/// The scratch of one thread of the depth pass by class: the `hurry` and
/// `resist` words of a block, and a pair in another symmetry's frame.
#[derive(Clone, Debug)]
pub struct DepthScratch {
    hurry: Vec<u64>,
    resist: Vec<u64>,
    frame_hurry: Vec<u64>,
    frame_resist: Vec<u64>,
}

impl ClassSolver {
    /// A thread's scratch for [`depth_step`](Self::depth_step).
    pub fn depth_scratch(&self) -> DepthScratch {
        let n = self.block_words();
        DepthScratch {
            hurry: alloc::vec![0; n],
            resist: alloc::vec![0; n],
            frame_hurry: alloc::vec![0; n],
            frame_resist: alloc::vec![0; n],
        }
    }

    /// Bytes of a thread's [`DepthScratch`].
    pub fn depth_scratch_bytes(&self) -> u64 {
        self.sizes().depth_scratch_bytes()
    }

    /// The first step: `A(0)`, the full board alone, into `next` (the
    /// words of the classes `classes`), and its entry (0 plies) into
    /// `plies` (their entries) when in range. Returns the entries taken in
    /// (0 or 1).
    ///
    /// # Panics
    ///
    /// Panics if a slice is not of the classes' length.
    pub fn depth_start(&self, classes: Range<usize>, next: &mut [u64], plies: &mut [u8]) -> u64 {
        let n = self.block_words();
        assert_eq!(next.len(), classes.len() * n);
        assert_eq!(plies.len(), next.len() << self.lo_bits);
        next.fill(0);
        let last = self.classes.classes() - 1;
        if classes.contains(&last) {
            let words = next.len();
            next[words - 1] = full_bit(self.lo_bits);
            let entries = plies.len();
            plies[entries - 1] = 0;
            1
        } else {
            0
        }
    }

    /// One step: `A(d)` from `A(d - 1)` (`prev`, every class's words),
    /// with the win/loss bits `win` (every class's), for the classes
    /// `classes` into `next` (their words); for the entries taken in,
    /// writes `d` into `plies` (their entries). Returns their number.
    ///
    /// # Panics
    ///
    /// Panics if a slice has the wrong length or `d` is 0, or if the
    /// tables would contradict each other: an entry taken in with plies of
    /// the wrong parity for its outcome (wins are even).
    #[allow(clippy::too_many_arguments)]
    pub fn depth_step(
        &self,
        d: u8,
        win: &[u64],
        prev: &[u64],
        classes: Range<usize>,
        next: &mut [u64],
        plies: &mut [u8],
        scratch: &mut DepthScratch,
    ) -> u64 {
        assert!(d >= 1, "step 0 is depth_start");
        let n = self.block_words();
        assert!(win.len() == self.words() && prev.len() == self.words());
        assert_eq!(next.len(), classes.len() * n);
        let per_word = 1usize << self.lo_bits;
        assert_eq!(plies.len(), next.len() * per_word);
        let mask = word_mask(self.lo_bits);
        let last = self.classes.classes() - 1;
        let mut taken = 0;
        let mut into = [[Into::default(); MAX_MOVES]; MAX_SYMMETRIES];
        for (k, class) in classes.clone().enumerate() {
            let before = &prev[class * n..][..n];
            let out = &mut next[k * n..][..n];
            if before.iter().all(|&b| b == mask) {
                out.copy_from_slice(before);
                continue;
            }
            let t = self.classes.canonical(class);
            let count = self.moves_by_frame(t, &mut into);
            let DepthScratch {
                hurry,
                resist,
                frame_hurry,
                frame_resist,
            } = scratch;
            hurry.fill(0);
            resist.fill(!0);
            // Moves within the block.
            for &(mid, lo) in &self.rest_moves {
                let m = Into {
                    class: class as u32,
                    mid,
                    lo,
                };
                self.depth_stream(&m, win, prev, hurry, resist);
            }
            for (g, moves) in into.iter().enumerate() {
                let moves = &moves[..count[g]];
                if moves.is_empty() {
                    continue;
                }
                if g == 0 {
                    for m in moves {
                        self.depth_stream(m, win, prev, hurry, resist);
                    }
                } else {
                    frame_hurry.fill(0);
                    frame_resist.fill(!0);
                    for m in moves {
                        self.depth_stream(m, win, prev, frame_hurry, frame_resist);
                    }
                    self.unframe(g, frame_hurry);
                    self.unframe(g, frame_resist);
                    for (h, f) in hurry.iter_mut().zip(frame_hurry.iter()) {
                        *h |= f;
                    }
                    for (r, f) in resist.iter_mut().zip(frame_resist.iter()) {
                        *r &= f;
                    }
                }
            }
            let own = &win[class * n..][..n];
            let plies = &mut plies[k * n * per_word..][..n * per_word];
            for mid in 0..n {
                let mut open = mask;
                if class == last && mid == n - 1 {
                    open &= !full_bit(self.lo_bits);
                }
                let after =
                    before[mid] | (own[mid] & hurry[mid]) | (!own[mid] & open & resist[mid]);
                out[mid] = after;
                let new = after & !before[mid];
                if new == 0 {
                    continue;
                }
                taken += u64::from(new.count_ones());
                let wrong = if d.is_multiple_of(2) {
                    new & !own[mid]
                } else {
                    new & own[mid]
                };
                assert!(
                    wrong == 0,
                    "class {class}, entry {:#x}: {d} plies with the other outcome",
                    (mid << self.lo_bits) + wrong.trailing_zeros() as usize
                );
                let mut rest = new;
                while rest != 0 {
                    let j = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    plies[mid * per_word + j] = d;
                }
            }
        }
        taken
    }

    /// Streams one move's successors of `A(d - 1)` into a pair: `hurry`
    /// gains the positions with the move to a lost position taken in,
    /// `resist` keeps those whose move (where legal) leads into `A(d - 1)`.
    #[inline(always)]
    fn depth_stream(
        &self,
        m: &Into,
        win: &[u64],
        prev: &[u64],
        hurry: &mut [u64],
        resist: &mut [u64],
    ) {
        let n = self.block_words();
        let base = m.class as usize * n;
        let (s, q) = (&prev[base..][..n], &win[base..][..n]);
        let (shift, valid) = (m.lo, self.valid[m.lo as usize]);
        self.each_source(m, |mid, from| {
            let (p, w) = (s[from], q[from]);
            hurry[mid] |= ((!w & p) >> shift) & valid;
            resist[mid] &= (p >> shift) | !valid;
        });
    }

    /// The whole depth pass on this thread: the plies of every entry into
    /// `plies` ([`Classes::entries`](crate::classes::Classes::entries)
    /// long), with the win/loss bits `win` and two bitsets of
    /// [`words`](Self::words) for the steps. Returns the most plies.
    ///
    /// # Panics
    ///
    /// As [`depth_step`](Self::depth_step), or if some entry is never taken
    /// in.
    pub fn depth_solve(&self, win: &[u64], sets: [&mut [u64]; 2], plies: &mut [u8]) -> u8 {
        let all = 0..self.classes.classes();
        let [mut prev, mut next] = sets;
        let mut scratch = self.depth_scratch();
        let mut taken = self.depth_start(all.clone(), prev, plies);
        let mut d = 0u8;
        while taken < self.classes.entries() {
            d += 1;
            assert!(
                usize::from(d) <= self.classes.cells(),
                "every entry is taken in"
            );
            taken += self.depth_step(d, win, prev, all.clone(), next, plies, &mut scratch);
            core::mem::swap(&mut prev, &mut next);
        }
        d
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{SHAPES, class_bits, plain_bits};
    use super::*;
    use crate::euler::depth::DepthSolver;
    use crate::shape::Shape;

    #[test]
    fn every_entry_has_the_plain_passes_plies() {
        for (r, c) in SHAPES {
            let shape = Shape::new(r, c).unwrap();
            let (win, _) = plain_bits(shape);
            let depth = DepthSolver::new(shape);
            let positions = depth.positions();
            let (mut plies, mut best) = (alloc::vec![0; positions], alloc::vec![0; positions]);
            let [mut a, mut b, mut e] = [0, 1, 2].map(|_| alloc::vec![0; depth.words()]);
            depth.solve(&win, [&mut a, &mut b, &mut e], &mut plies, &mut best);

            let solver = ClassSolver::new(shape);
            let (class_win, _) = class_bits(&solver);
            let entries = solver.classes().entries() as usize;
            let mut class_plies = alloc::vec![0xEE; entries];
            let [mut x, mut y] = [0, 1].map(|_| alloc::vec![0; solver.words()]);
            let most = solver.depth_solve(&class_win, [&mut x, &mut y], &mut class_plies);
            assert_eq!(most, *plies.iter().max().unwrap(), "{shape}");
            for p in 0..positions as u64 {
                let i = solver.classes().index(p) as usize;
                assert_eq!(class_plies[i], plies[p as usize], "{shape} {p:b}");
            }
        }
    }
}
