//! Game of Euler: the move masks of every board shape and the
//! retrograde solvers.
//!
//! A position is the set of *covered* cells as a `u16` in the board layout
//! (a set bit is covered; `0` is the empty board, [`FULL`] the finished
//! one). A move covers a set of uncovered cells, so it is a mask `m` with
//! `m & covered == 0`, and playing it gives `covered | m`.
//!
//! # Moves
//!
//! [`MOVES`] holds the 48 distinct move masks, in this fixed order (which is
//! also the tie-break order of [`solve`]):
//!
//! * indices 0–15: the single cells, in cell order (`MOVES[i] == 1 << i`).
//!   A 1-long slide from a side is the same mask as a single cell, so it is
//!   not listed again;
//! * indices 16–47: the slides, four per line. Lines come rows 0–3 first,
//!   then columns 0–3; within a line the entry side comes first from the
//!   low end (left for rows, top for columns), then from the high end (right,
//!   bottom); within a side the 2-long slide precedes the 3-long one. A slide
//!   covers the border cell where it enters and the next cells inwards.
//!   So `MOVES[16 + 4 * line + 2 * side + (len - 2)]`, with `line` 0–3 for
//!   rows and 4–7 for columns and `side` 0 for the low end.
//!
//! # Rules and values
//!
//! Misère play: whoever covers the last uncovered cell loses. The full board
//! is therefore *won* by the player to move (the opponent just covered the
//! last cell), with 0 plies left and no move. For an open position the
//! player to move wins iff some legal move leads to a losing position.
//!
//! With perfect play the winner hurries and the loser resists: a winning
//! position lasts one more ply than its *shortest* losing successor, a losing
//! one one more ply than its *longest* successor (all of which are winning).
//! The stored best move is the one achieving that, the first such in
//! [`MOVES`] order on ties. Since the full board is a win in 0 plies,
//! a position is winning exactly when its ply count is even.
//!
//! # Retrograde order
//!
//! Every move sets at least one bit that was clear, so `covered | m` is
//! numerically greater than `covered` and has more bits set: solving from
//! the full board down, every successor is solved before the position that
//! reaches it, and one pass suffices.
//!
//! # Solvers for every shape
//!
//! The same rules on any R×C board of at most 36 cells, with the moves of
//! [`moves`], are solved by two passes that the 4×4 tables ([`solve`]) and
//! the library's generator of other sizes share:
//!
//! * [`winloss`]: who wins, one bit a position, 64 positions a machine word,
//!   in blocks that threads can solve side by side;
//! * [`depth`]: on top of those bits, the moves left with perfect play and
//!   one best move (an index into [`moves`]), checking every bit on the way.

use core::sync::atomic::AtomicU64;

use crate::board::{FULL, SIDE, STATES, bit};
use crate::shape::Shape;

#[cfg(feature = "alloc")]
pub mod classes;
pub mod depth;
pub mod game;
pub mod winloss;

/// Number of distinct moves.
pub const MOVE_COUNT: usize = 48;

/// The cell covered by the `k`-th square (from the entry border) of a slide
/// along `line` (0–3: rows, 4–7: columns) entering from `side` (0: left or
/// top, 1: right or bottom).
const fn slide_cell(line: usize, side: usize, k: usize) -> u16 {
    let along = if side == 0 { k } else { SIDE - 1 - k };
    if line < SIDE {
        bit(line, along)
    } else {
        bit(along, line - SIDE)
    }
}

/// Every move mask, in the order documented in the [module docs](self):
/// 16 single cells in cell order, then 32 slides (rows then columns; low
/// entry side then high; 2-long then 3-long).
pub const MOVES: [u16; MOVE_COUNT] = {
    let mut moves = [0u16; MOVE_COUNT];
    let mut i = 0;
    while i < SIDE * SIDE {
        moves[i] = 1 << i;
        i += 1;
    }
    let mut line = 0;
    while line < 2 * SIDE {
        let mut side = 0;
        while side < 2 {
            let mut len = 2;
            while len <= 3 {
                let mut m = 0u16;
                let mut k = 0;
                while k < len {
                    m |= slide_cell(line, side, k);
                    k += 1;
                }
                moves[i] = m;
                i += 1;
                len += 1;
            }
            side += 1;
        }
        line += 1;
    }
    assert!(i == MOVE_COUNT);
    moves
};

/// Capacity of a [`MoveList`]: the most moves of any shape of at most 64
/// cells (3×21 has 63 singles and 96 slides).
pub const MAX_MOVES: usize = 160;

/// The distinct moves of one board shape, as masks in the shape's layout
/// (bit `cols * row + col`), in the order of [`moves`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveList {
    masks: [u64; MAX_MOVES],
    len: usize,
}

impl MoveList {
    /// The move masks, in order.
    #[inline]
    pub fn as_slice(&self) -> &[u64] {
        &self.masks[..self.len]
    }

    /// Number of distinct moves.
    #[inline]
    #[allow(clippy::len_without_is_empty)] // every shape has at least one move
    pub const fn len(&self) -> usize {
        self.len
    }

    /// The index of `mask` in the list, if it is a move.
    pub fn index_of(&self, mask: u64) -> Option<usize> {
        self.as_slice().iter().position(|&m| m == mask)
    }
}

/// Every distinct move of a `shape` board, in the generalisation of the
/// [`MOVES`] order (for 4×4 the lists are equal):
///
/// * the single cells, in cell order (`moves[i] == 1 << i`);
/// * then the slides, line by line: rows 0 to `rows - 1`, then columns 0 to
///   `cols - 1`; within a line, entering from the low end (left, top), then
///   from the high end (right, bottom); within a side the 2-long pin, then
///   the 3-long one. A pin longer than its line cannot be placed, and a
///   slide whose squares equal an earlier move's (a 2-long pin in a line of
///   2 from either end, a 3-long one in a line of 3) is not listed again.
///
/// # Panics
///
/// Panics if the shape has more than 64 cells.
///
/// ```
/// use boardbase_tables::euler::{moves, MOVES};
/// use boardbase_tables::shape::Shape;
///
/// let four: Vec<u64> = MOVES.iter().map(|&m| u64::from(m)).collect();
/// assert_eq!(moves(Shape::SQUARE4).as_slice(), &four[..]);
/// // 1×2: the two squares, and the 2-long pin (the same from either end).
/// assert_eq!(moves(Shape::new(1, 2).unwrap()).as_slice(), &[0b01, 0b10, 0b11]);
/// ```
pub const fn moves(shape: Shape) -> MoveList {
    assert!(shape.fits_u64(), "Euler boards have at most 64 cells");
    let (rows, cols) = (shape.rows(), shape.cols());
    let mut list = MoveList {
        masks: [0; MAX_MOVES],
        len: 0,
    };
    let mut i = 0;
    while i < shape.cells() {
        list.masks[list.len] = 1 << i;
        list.len += 1;
        i += 1;
    }
    let mut line = 0;
    while line < rows + cols {
        let length = if line < rows { cols } else { rows };
        let mut side = 0;
        while side < 2 {
            let mut len = 2;
            while len <= 3 && len <= length {
                let mut m = 0u64;
                let mut k = 0;
                while k < len {
                    let along = if side == 0 { k } else { length - 1 - k };
                    m |= if line < rows {
                        shape.bit(line, along)
                    } else {
                        shape.bit(along, line - rows)
                    };
                    k += 1;
                }
                let mut seen = false;
                let mut j = 0;
                while j < list.len {
                    if list.masks[j] == m {
                        seen = true;
                    }
                    j += 1;
                }
                if !seen {
                    list.masks[list.len] = m;
                    list.len += 1;
                }
                len += 1;
            }
            side += 1;
        }
        line += 1;
    }
    list
}

/// Whether `mv` is one of the 48 move masks in [`MOVES`].
pub const fn is_move(mv: u16) -> bool {
    let mut i = 0;
    while i < MOVE_COUNT {
        if MOVES[i] == mv {
            return true;
        }
        i += 1;
    }
    false
}

/// Whether `mv` is a move (one of [`MOVES`]) that covers only uncovered
/// cells of `covered`.
///
/// ```
/// use boardbase_tables::euler::is_legal;
/// assert!(is_legal(0, 0b0111)); // 3-long slide along row 0 from the left
/// assert!(!is_legal(0b0010, 0b0111)); // it would pass over a covered cell
/// assert!(!is_legal(0, 0b0101)); // not a move at all
/// ```
pub const fn is_legal(covered: u16, mv: u16) -> bool {
    mv & covered == 0 && is_move(mv)
}

/// The legal moves from `covered`, in [`MOVES`] order. Empty only for the
/// full board.
pub fn legal_moves(covered: u16) -> impl Iterator<Item = u16> {
    MOVES.iter().copied().filter(move |&m| m & covered == 0)
}

/// The solved 4×4 game: for each of the 65,536 coverage masks, its value
/// for the player to move under perfect play.
pub struct EulerTables4x4 {
    /// `1` if the player to move wins, `0` if they lose.
    pub winning: [u8; STATES],
    /// Plies left with perfect play (the winner hurries, the loser resists).
    pub plies: [u8; STATES],
    /// Mask of the best move (see [`solve`]); `0` for the full board.
    pub best_move: [u16; STATES],
}

impl EulerTables4x4 {
    /// All-zero tables (256 KiB: put it on the heap).
    pub const fn new() -> Self {
        EulerTables4x4 {
            winning: [0; STATES],
            plies: [0; STATES],
            best_move: [0; STATES],
        }
    }
}

impl Default for EulerTables4x4 {
    fn default() -> Self {
        Self::new()
    }
}

/// Scratch space for [`solve`]: the win/loss bitset and the depth pass's
/// bitsets in the generic solvers' form.
pub struct Scratch {
    bits: [AtomicU64; STATES / 64],
    words: [u64; STATES / 64],
    acc: [winloss::Lanes; STATES / 64],
    sets: [[u64; STATES / 64]; 3],
    best: [u8; STATES],
}

impl Scratch {
    /// Zeroed scratch space (about 152 KiB: put it on the heap).
    pub const fn new() -> Self {
        Scratch {
            bits: [const { AtomicU64::new(0) }; STATES / 64],
            words: [0; STATES / 64],
            acc: [[0; winloss::LANES]; STATES / 64],
            sets: [[0; STATES / 64]; 3],
            best: [0; STATES],
        }
    }
}

impl Default for Scratch {
    fn default() -> Self {
        Self::new()
    }
}

/// Fills `out` for the 4×4 board with the generic solvers: the bit-parallel
/// [`winloss`] pass, then the [`depth`] pass on top of its bits, from
/// `0xFFFF` down to `0`.
///
/// The full board is a win in 0 plies with best move `0`. An open position
/// is winning iff a legal move leads to a losing one; its best move is then
/// the one to the losing successor with the fewest plies, otherwise the one
/// to the successor with the most plies. Ties go to the first move in
/// [`MOVES`] order. Plies are one more than those of the best successor.
///
/// # Panics
///
/// Panics if a structural invariant fails: a win/loss bit that disagrees
/// with the successors, an open position without a legal move, a best move
/// that is not legal or does not flip the outcome, plies that disagree with
/// the best successor, exceed the number of open cells, or whose parity
/// disagrees with the outcome.
pub fn solve(out: &mut EulerTables4x4, scratch: &mut Scratch) {
    use core::sync::atomic::Ordering::Relaxed;

    let wl = winloss::WinLossSolver::new(Shape::SQUARE4);
    assert_eq!(wl.words(), STATES / 64);
    let won = wl.solve(&scratch.bits, &mut scratch.acc);
    for (w, b) in scratch.words.iter_mut().zip(&scratch.bits) {
        *w = b.load(Relaxed);
    }
    let ones: u32 = scratch.words.iter().map(|w| w.count_ones()).sum();
    assert_eq!(u64::from(ones), won, "the count of won positions");
    let depth = depth::DepthSolver::new(Shape::SQUARE4);
    assert_eq!(depth.moves().len(), MOVE_COUNT);
    let [a, b, c] = &mut scratch.sets;
    depth.solve(&scratch.words, [a, b, c], &mut out.plies, &mut scratch.best);

    for p in 0..STATES {
        let win = (scratch.words[p / 64] >> (p % 64) & 1) as u8;
        let best = scratch.best[p];
        out.winning[p] = win;
        out.best_move[p] = if best == depth::NO_MOVE {
            assert_eq!(p, FULL as usize, "only the full board has no move");
            0
        } else {
            MOVES[best as usize]
        };
        if p == FULL as usize {
            continue;
        }
        let m = out.best_move[p];
        let q = p | m as usize;
        assert!(is_legal(p as u16, m), "best move is legal");
        assert!(q > p, "a move covers a square");
        assert_ne!(
            u64::from(win),
            scratch.words[q / 64] >> (q % 64) & 1,
            "best move flips the outcome"
        );
        assert_eq!(out.plies[p], out.plies[q] + 1, "plies follow the best move");
    }
}

#[cfg(test)]
mod tests {
    extern crate std;

    use super::*;
    use crate::board::Symmetry;
    use std::boxed::Box;
    use std::sync::OnceLock;

    /// The solved tables, built once on a thread with a roomy stack so that a
    /// debug build constructing the 256 KiB value before boxing it is safe.
    fn tables() -> &'static EulerTables4x4 {
        static TABLES: OnceLock<Box<EulerTables4x4>> = OnceLock::new();
        TABLES.get_or_init(|| {
            std::thread::Builder::new()
                .stack_size(16 << 20)
                .spawn(|| {
                    let mut t = Box::new(EulerTables4x4::new());
                    let mut scratch = Box::new(Scratch::new());
                    solve(&mut t, &mut scratch);
                    t
                })
                .expect("spawn solver thread")
                .join()
                .expect("solver thread")
        })
    }

    /// Parses four lines of `X` (covered) and `.` (uncovered).
    fn parse(rows: [&str; 4]) -> u16 {
        let mut b = 0;
        for (r, line) in rows.iter().enumerate() {
            assert_eq!(line.len(), 4);
            for (c, ch) in line.bytes().enumerate() {
                match ch {
                    b'X' => b |= bit(r, c),
                    b'.' => {}
                    _ => panic!("bad cell {ch}"),
                }
            }
        }
        b
    }

    #[test]
    fn there_are_48_distinct_moves_in_the_documented_order() {
        for (i, &a) in MOVES.iter().enumerate() {
            for &b in &MOVES[..i] {
                assert_ne!(a, b, "duplicate move {a:#06x}");
            }
        }
        let sizes: [u32; MOVE_COUNT] = core::array::from_fn(|i| MOVES[i].count_ones());
        assert!(sizes[..16].iter().all(|&s| s == 1));
        assert!(sizes[16..].iter().step_by(2).all(|&s| s == 2));
        assert!(sizes[17..].iter().step_by(2).all(|&s| s == 3));
        assert_eq!(MOVES[16..20], [0x0003, 0x0007, 0x000C, 0x000E]); // row 0
        assert_eq!(MOVES[32..36], [0x0011, 0x0111, 0x1100, 0x1110]); // column 0
        assert_eq!(MOVES[47], bit(1, 3) | bit(2, 3) | bit(3, 3)); // column 3 from below
        assert!(is_move(0x0007) && !is_move(0x000F) && !is_move(0x0005) && !is_move(0));
    }

    #[test]
    fn move_lists_of_every_shape() {
        let four: std::vec::Vec<u64> = MOVES.iter().map(|&m| u64::from(m)).collect();
        assert_eq!(moves(Shape::SQUARE4).as_slice(), &four[..]);
        // 1×1: one square. 1×3: 3 squares, 2-long from each end, one 3-long.
        assert_eq!(moves(Shape::new(1, 1).unwrap()).as_slice(), &[1]);
        assert_eq!(
            moves(Shape::new(1, 3).unwrap()).as_slice(),
            &[0b001, 0b010, 0b100, 0b011, 0b111, 0b110]
        );
        for rows in 1..=8 {
            for cols in 1..=8 {
                let s = Shape::new(rows, cols).unwrap();
                let list = moves(s);
                let m = list.as_slice();
                let slides = |n: usize| match n {
                    1 => 0,
                    2 => 1,
                    3 => 3,
                    _ => 4,
                };
                assert_eq!(
                    m.len(),
                    rows * cols + rows * slides(cols) + cols * slides(rows)
                );
                for (i, &a) in m.iter().enumerate() {
                    assert!(a != 0 && a & !s.full() == 0);
                    assert!(!m[..i].contains(&a), "{rows}x{cols}: duplicate {a:#x}");
                    // Transposing and mirroring map moves to moves.
                    assert!(
                        moves(s.transpose())
                            .index_of(s.transpose_board(a))
                            .is_some()
                    );
                    assert!(list.index_of(s.mirror_cols(a)).is_some());
                    assert!(list.index_of(s.mirror_rows(a)).is_some());
                }
            }
        }
        assert!(moves(Shape::new(3, 21).unwrap()).len() <= MAX_MOVES);
        assert_eq!(moves(Shape::new(3, 21).unwrap()).len(), 63 + 3 * 4 + 21 * 3);
    }

    #[test]
    fn the_move_set_is_closed_under_symmetry() {
        for s in Symmetry::ALL {
            for m in MOVES {
                assert!(is_move(s.apply(m)), "{s:?} of {m:#06x}");
            }
        }
    }

    #[test]
    fn legal_moves_filters_covered_cells() {
        assert_eq!(legal_moves(0).count(), MOVE_COUNT);
        assert_eq!(legal_moves(FULL).count(), 0);
        let one_open = FULL & !bit(2, 1);
        assert!(legal_moves(one_open).eq([bit(2, 1)]));
        for p in [0u16, 0x1234, 0xF0F0, 0x8001] {
            assert!(legal_moves(p).all(|m| is_legal(p, m)));
        }
    }

    #[test]
    fn counts_and_the_empty_board() {
        let t = tables();
        let losing = (0..FULL as usize).filter(|&p| t.winning[p] == 0).count();
        assert_eq!(losing, 13_802);
        assert_eq!((t.winning[FULL as usize], t.plies[FULL as usize]), (1, 0));
        assert_eq!(t.best_move[FULL as usize], 0);
        assert_eq!((t.winning[0], t.plies[0]), (0, 13));
    }

    #[test]
    fn judge_samples() {
        let t = tables();
        let samples = [
            (["XXX.", "XXX.", ".XXX", ".XXX"], 0),
            (["XXXX", "...X", "XX.X", "XX.X"], 1),
            (["....", "....", "....", "...."], 0),
        ];
        for (rows, want) in samples {
            assert_eq!(t.winning[parse(rows) as usize], want, "{rows:?}");
        }
    }

    #[test]
    fn values_are_invariant_under_symmetry() {
        let t = tables();
        for p in 0..STATES {
            let m = t.best_move[p];
            let q = p | m as usize;
            for s in Symmetry::ALL {
                let sp = s.apply(p as u16) as usize;
                assert_eq!(t.winning[sp], t.winning[p]);
                assert_eq!(t.plies[sp], t.plies[p]);
                if p == FULL as usize {
                    continue;
                }
                let sm = s.apply(m);
                let sq = s.apply(q as u16) as usize;
                assert!(is_legal(sp as u16, sm));
                assert_eq!(sp | sm as usize, sq);
                assert_eq!((t.winning[sq], t.plies[sq]), (t.winning[q], t.plies[q]));
            }
        }
    }
}
