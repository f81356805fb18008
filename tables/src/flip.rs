//! Flip Game: press masks of every shape and the breadth-first
//! solver (generic in [`search`], for 4×4 in [`solve`]).
//!
//! Pressing cell (`row`, `col`) flips it and its orthogonal neighbours, which
//! is an XOR of the board with [`PRESS`]`[4 * row + col]`. Presses commute and
//! pressing a cell twice undoes it, so an answer is a *set* of cells (a `u16`
//! in the board layout) and the number of rounds is its size.
//!
//! In a board a set bit is a black piece; all-white is `0` and all-black is
//! `0xFFFF`.

use core::sync::atomic::{AtomicU16, Ordering::Relaxed};

use crate::board::{CELLS, SIDE, STATES, bit};
use crate::shape::Shape;

pub mod game;
pub mod search;

/// The cells flipped by pressing each cell, indexed by `4 * row + col`.
pub const PRESS: [u16; CELLS] = {
    let mut masks = [0u16; CELLS];
    let mut row = 0;
    while row < SIDE {
        let mut col = 0;
        while col < SIDE {
            let mut m = bit(row, col);
            if row > 0 {
                m |= bit(row - 1, col);
            }
            if row + 1 < SIDE {
                m |= bit(row + 1, col);
            }
            if col > 0 {
                m |= bit(row, col - 1);
            }
            if col + 1 < SIDE {
                m |= bit(row, col + 1);
            }
            masks[row * SIDE + col] = m;
            col += 1;
        }
        row += 1;
    }
    masks
};

/// The cells flipped by pressing each cell of a `shape` board, indexed by
/// the cell's bit `cols * row + col` (entries past `shape.cells()` are 0).
/// For 4×4 these are the [`PRESS`] masks.
///
/// # Panics
///
/// Panics if the shape has more than 64 cells.
///
/// ```
/// use boardbase_tables::flip::press_masks;
/// use boardbase_tables::shape::Shape;
///
/// let s = Shape::new(2, 3).unwrap();
/// let p = press_masks(s);
/// assert_eq!(p[0], 0b001_011); // (0,0): itself, (0,1) and (1,0)
/// assert_eq!(p[4], 0b111_010); // (1,1): itself, (1,0), (1,2) and (0,1)
/// ```
pub const fn press_masks(shape: Shape) -> [u64; 64] {
    assert!(shape.fits_u64(), "at most 64 cells");
    let mut masks = [0u64; 64];
    let (rows, cols) = (shape.rows(), shape.cols());
    let mut row = 0;
    while row < rows {
        let mut col = 0;
        while col < cols {
            let mut m = shape.bit(row, col);
            if row > 0 {
                m |= shape.bit(row - 1, col);
            }
            if row + 1 < rows {
                m |= shape.bit(row + 1, col);
            }
            if col > 0 {
                m |= shape.bit(row, col - 1);
            }
            if col + 1 < cols {
                m |= shape.bit(row, col + 1);
            }
            masks[shape.index(row, col)] = m;
            col += 1;
        }
        row += 1;
    }
    masks
}

/// Table value of a board from which a target colour cannot be reached.
pub const UNREACHABLE: u8 = u8::MAX;

/// The two target colours, in table order: index 0 reaches all-white (`0`),
/// index 1 reaches all-black (`0xFFFF`).
pub const TARGETS: [u16; 2] = [0x0000, 0xFFFF];

/// The cells flipped by pressing every cell of `presses` once.
#[inline]
pub const fn effect(presses: u16) -> u16 {
    let mut out = 0u16;
    let mut i = 0;
    while i < CELLS {
        if presses & (1 << i) != 0 {
            out ^= PRESS[i];
        }
        i += 1;
    }
    out
}

/// The solved tables: for each target colour (see [`TARGETS`]) and each of
/// the 65,536 boards, the fewest rounds, one optimal press set and the number
/// of distinct optimal press sets.
pub struct FlipTables4x4 {
    /// Fewest rounds to reach the target, or [`UNREACHABLE`].
    pub rounds: [[u8; STATES]; 2],
    /// One optimal set of cells to press (`0` when unreachable or already there).
    pub presses: [[u16; STATES]; 2],
    /// Number of distinct press sets of the optimal size (`0` when unreachable).
    pub optimal_sets: [[u8; STATES]; 2],
}

/// Scratch space for [`solve`]: the search's bitsets and its shared press
/// sets.
pub struct Scratch {
    seen: [u64; STATES / 64],
    levels: [[u64; STATES / 64 * 6]; 2],
    presses: [AtomicU16; STATES],
}

impl Scratch {
    /// Zeroed scratch space (about 200 KiB: put it on the heap).
    pub const fn new() -> Self {
        Scratch {
            seen: [0; STATES / 64],
            levels: [[0; STATES / 64 * 6]; 2],
            presses: [const { AtomicU16::new(0) }; STATES],
        }
    }
}

impl Default for Scratch {
    fn default() -> Self {
        Self::new()
    }
}

impl FlipTables4x4 {
    /// Tables with every board unreachable (about 640 KiB: put it on the heap).
    pub const fn new() -> Self {
        FlipTables4x4 {
            rounds: [[UNREACHABLE; STATES]; 2],
            presses: [[0; STATES]; 2],
            optimal_sets: [[0; STATES]; 2],
        }
    }
}

impl Default for FlipTables4x4 {
    fn default() -> Self {
        Self::new()
    }
}

/// Fills `out` for the 4×4 board with the generic breadth-first [`search`]
/// over XOR press masks, from each target.
///
/// # Panics
///
/// Panics if a structural invariant fails: anything other than 4,096 boards
/// reaching a target, a press set whose size or effect disagrees with its
/// distance, or a set count that does not divide (see [`search`]).
pub fn solve(out: &mut FlipTables4x4, scratch: &mut Scratch) {
    for (t, &target) in TARGETS.iter().enumerate() {
        let search = search::Search::new(Shape::SQUARE4, u64::from(target));
        assert_eq!(search.planes(), 5, "4×4 boards have up to 16 optimal sets");
        out.rounds[t].fill(UNREACHABLE);
        out.optimal_sets[t].fill(0);
        for p in &scratch.presses {
            p.store(0, Relaxed);
        }
        let reached = search.run::<u16, _>(
            &mut scratch.seen,
            &mut scratch.levels,
            &mut out.rounds[t],
            &scratch.presses,
            &mut out.optimal_sets[t],
        );
        assert_eq!(reached, 4096, "the press masks have rank 12");
        for board in 0..STATES {
            out.presses[t][board] = scratch.presses[board].load(Relaxed);
        }
        search.check(0, &out.rounds[t], &out.presses[t], &out.optimal_sets[t]);
        for board in 0..STATES {
            if out.rounds[t][board] != UNREACHABLE {
                let p = out.presses[t][board];
                assert_eq!(
                    board as u16 ^ effect(p),
                    target,
                    "press set reaches the target"
                );
                assert!(
                    (1..=16).contains(&out.optimal_sets[t][board]),
                    "at most the 16 sets of a coset"
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn press_masks_flip_three_four_or_five_cells() {
        assert_eq!(PRESS[0], 0b0000_0000_0001_0011);
        assert_eq!(PRESS[5], 0b0000_0010_0111_0010);
        let sizes: [u32; CELLS] = core::array::from_fn(|i| PRESS[i].count_ones());
        assert_eq!(sizes, [3, 4, 4, 3, 4, 5, 5, 4, 4, 5, 5, 4, 3, 4, 4, 3]);
    }

    #[test]
    fn generic_press_masks_match_the_4x4_ones() {
        let p = press_masks(Shape::SQUARE4);
        for i in 0..CELLS {
            assert_eq!(p[i], u64::from(PRESS[i]));
        }
        assert!(p[CELLS..].iter().all(|&m| m == 0));
        assert_eq!(press_masks(Shape::new(1, 1).unwrap())[0], 1);
        let s = Shape::new(8, 8).unwrap();
        let p = press_masks(s);
        assert_eq!(p[s.index(3, 3)].count_ones(), 5);
        assert_eq!(p[s.index(7, 7)], s.bit(7, 7) | s.bit(6, 7) | s.bit(7, 6));
    }

    #[test]
    fn the_known_flip_all_set_flips_every_cell() {
        let set = bit(0, 1) | bit(1, 3) | bit(2, 0) | bit(3, 2);
        assert_eq!(effect(set), 0xFFFF);
    }
}
