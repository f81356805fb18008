//! The depth pass of the Game of Euler: moves left with perfect play and one
//! best move for every position, on top of the win/loss bits of
//! [`winloss`](super::winloss).
//!
//! It is not a second solver: the outcome of every position is read from the
//! win/loss bitset, and the pass only measures how long the game lasts.
//! Along the way it checks the bitset against its own definition (an open
//! position is won exactly when some move leads to a lost one), so a wrong
//! bit stops the pass with a panic instead of producing a table that
//! contradicts itself.
//!
//! # Values
//!
//! With perfect play the winner hurries and the loser resists: a winning
//! position lasts one ply more than its *shortest* losing successor, a losing
//! one one ply more than its *longest* successor (all of which are winning).
//! The best move is the one achieving that, the first such in the order of
//! [`moves`](super::moves) on ties, stored as its index in that list; the
//! full board has 0 plies and no move ([`NO_MOVE`]). Since the full board is
//! a win in 0 plies, a position is winning exactly when its ply count is
//! even.
//!
//! # Order and parallelism
//!
//! Positions are split into blocks of `2^block_bits` consecutive positions.
//! A successor has more bits set than its position: it lies in a block with
//! more bits set in the block index (a later layer processed earlier), or in
//! the same block at a larger index. Blocks are solved layer by layer in
//! decreasing popcount, each block from its last position down; the blocks
//! of one layer are independent. Tables are slices of [`AtomicU8`] used with
//! `Relaxed` ordering, as in [`winloss`](super::winloss).

use core::sync::atomic::{AtomicU8, Ordering::Relaxed};

use super::winloss::{MAX_CELLS, layer_members};
use super::{MoveList, moves};
use crate::shape::Shape;

/// The best-move entry of the full board, which has no move.
pub const NO_MOVE: u8 = u8::MAX;

/// The default number of position bits a block spans (4,096 positions).
pub const DEFAULT_BLOCK_BITS: u32 = 12;

/// The per-shape plan of the depth pass. It holds no table.
///
/// ```
/// use boardbase_tables::euler::depth::{DepthSolver, NO_MOVE};
/// use boardbase_tables::euler::winloss::WinLossSolver;
/// use boardbase_tables::shape::Shape;
/// use core::sync::atomic::{AtomicU8, AtomicU64, Ordering::Relaxed};
///
/// // 1×3, a row of three squares: the moves are the 3 squares, the 2-long
/// // pins from each end and the 3-long one.
/// //   . . .
/// let shape = Shape::new(1, 3).unwrap();
/// let wl = WinLossSolver::new(shape);
/// let bits: Vec<AtomicU64> = (0..wl.words()).map(|_| AtomicU64::new(0)).collect();
/// wl.solve(&bits, &mut vec![0; wl.block_words()]);
/// let win: Vec<u64> = bits.iter().map(|w| w.load(Relaxed)).collect();
///
/// let depth = DepthSolver::new(shape);
/// let plies: Vec<AtomicU8> = (0..8).map(|_| AtomicU8::new(0)).collect();
/// let best: Vec<AtomicU8> = (0..8).map(|_| AtomicU8::new(0)).collect();
/// depth.solve(&win, &plies, &best);
/// // The empty row is won by covering two squares from either end: the
/// // opponent must cover the last one. Two plies.
/// assert_eq!(win[0] & 1, 1);
/// assert_eq!(plies[0].load(Relaxed), 2);
/// assert_eq!(depth.moves().as_slice()[best[0].load(Relaxed) as usize], 0b011);
/// assert_eq!((plies[0b111].load(Relaxed), best[0b111].load(Relaxed)), (0, NO_MOVE));
/// ```
#[derive(Clone, Debug)]
pub struct DepthSolver {
    moves: MoveList,
    cells: u32,
    block_bits: u32,
}

impl DepthSolver {
    /// The plan for `shape`, blocks of [`DEFAULT_BLOCK_BITS`].
    ///
    /// # Panics
    ///
    /// Panics if the shape has more than [`MAX_CELLS`] cells.
    pub fn new(shape: Shape) -> DepthSolver {
        DepthSolver::with_block_bits(shape, DEFAULT_BLOCK_BITS)
    }

    /// The plan for `shape`, blocks of `2^block_bits` positions (fewer when
    /// the shape has fewer positions).
    ///
    /// # Panics
    ///
    /// Panics if the shape has more than [`MAX_CELLS`] cells.
    pub fn with_block_bits(shape: Shape, block_bits: u32) -> DepthSolver {
        assert!(
            shape.cells() <= MAX_CELLS,
            "the depth pass takes at most {MAX_CELLS} cells"
        );
        let cells = shape.cells() as u32;
        DepthSolver {
            moves: moves(shape),
            cells,
            block_bits: block_bits.min(cells),
        }
    }

    /// The move list the best-move indices refer to.
    pub fn moves(&self) -> &MoveList {
        &self.moves
    }

    /// Positions, `2^cells`: the length of the plies and best-move tables.
    pub fn positions(&self) -> usize {
        1 << self.cells
    }

    /// Block-index bits: `2^top_bits` blocks in `top_bits + 1` layers.
    pub fn top_bits(&self) -> u32 {
        self.cells - self.block_bits
    }

    /// Positions a block holds.
    pub fn block_positions(&self) -> usize {
        1 << self.block_bits
    }

    /// Fills plies and best moves of the positions of block `block`, given
    /// the finished win/loss bitset `win` (bit `p % 64` of word `p / 64`).
    /// Every block with more bits set than `block` must be done already.
    ///
    /// # Panics
    ///
    /// Panics if a table has the wrong length, or if the bitset contradicts
    /// itself: a position marked won without a move to a lost one, or
    /// marked lost with one, or the full board not marked won.
    pub fn solve_block(&self, block: usize, win: &[u64], plies: &[AtomicU8], best: &[AtomicU8]) {
        let positions = self.positions();
        assert!(win.len() * 64 >= positions, "one bit a position");
        assert!(plies.len() == positions && best.len() == positions);
        let full = positions - 1;
        let won = |p: usize| win[p >> 6] >> (p & 63) & 1 == 1;
        let first = block << self.block_bits;
        for p in (first..first + self.block_positions()).rev() {
            if p == full {
                assert!(won(p), "the full board is won by the player to move");
                plies[p].store(0, Relaxed);
                best[p].store(NO_MOVE, Relaxed);
                continue;
            }
            // Fastest losing successor, longest winning one: (plies, index).
            let mut fastest = (u8::MAX, NO_MOVE);
            let mut longest = (0u8, NO_MOVE);
            for (i, &m) in self.moves.as_slice().iter().enumerate() {
                let m = m as usize;
                if p & m != 0 {
                    continue;
                }
                let q = p | m;
                let d = plies[q].load(Relaxed);
                if won(q) {
                    if longest.1 == NO_MOVE || d > longest.0 {
                        longest = (d, i as u8);
                    }
                } else if d < fastest.0 {
                    fastest = (d, i as u8);
                }
            }
            let wins = fastest.1 != NO_MOVE;
            assert_eq!(
                wins,
                won(p),
                "position {p:#x}: the win/loss bit disagrees with its successors"
            );
            let (d, i) = if wins { fastest } else { longest };
            assert!(i != NO_MOVE, "every open position has a move");
            let d = d + 1;
            assert!(
                d as u32 <= self.cells - p.count_ones(),
                "each move covers a square"
            );
            assert_eq!(d % 2 == 0, wins, "wins are even plies");
            plies[p].store(d, Relaxed);
            best[p].store(i, Relaxed);
        }
    }

    /// Solves every block on this thread, layer by layer.
    ///
    /// # Panics
    ///
    /// As [`solve_block`](Self::solve_block).
    pub fn solve(&self, win: &[u64], plies: &[AtomicU8], best: &[AtomicU8]) {
        let top = self.top_bits();
        for layer in (0..=top).rev() {
            for block in layer_members(top, layer) {
                self.solve_block(block, win, plies, best);
            }
        }
    }
}
