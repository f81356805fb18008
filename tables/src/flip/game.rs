//! Flip Game as a puzzle of the [model](crate::game): any R×C board of at
//! most 63 cells, a set bit a black piece, towards one uniform colour or
//! either.
//!
//! A move is the index of the cell pressed (it and its orthogonal
//! neighbours flip). Pressing twice undoes a press, so a board's parents
//! are its children; symmetry is optional.
//!
//! ```
//! use boardbase_tables::flip::game::{Flip, Goal};
//! use boardbase_tables::game::{OnePlayer, Rules};
//! use boardbase_tables::shape::Shape;
//!
//! let puzzle = Flip::new(Shape::new(2, 2).unwrap(), Goal::Either);
//! // Pressing the top-left cell of an all-white board flips three cells.
//! assert_eq!(puzzle.play(0b0000, 0), 0b0111);
//! assert!(puzzle.is_goal(0b1111) && puzzle.is_goal(0));
//! ```

use super::press_masks;
use crate::game::{OnePlayer, Rules, each_distinct};
use crate::shape::Shape;

/// Which boards solve the puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Goal {
    /// All white (no bit set).
    White,
    /// All black (every bit set).
    Black,
    /// Either uniform board: the original Flip Game's question.
    Either,
}

/// Flip Game on one board shape.
#[derive(Clone, Debug)]
pub struct Flip {
    shape: Shape,
    press: [u64; 64],
    goal: Goal,
    symmetric: bool,
}

impl Flip {
    /// The puzzle on `shape` towards `goal`, every board its own class.
    ///
    /// # Panics
    ///
    /// Panics if the shape has more than 63 cells.
    pub fn new(shape: Shape, goal: Goal) -> Flip {
        assert!(
            shape.cells() < 64,
            "Flip boards are indexed by a u64: at most 63 cells"
        );
        Flip {
            shape,
            press: press_masks(shape),
            goal,
            symmetric: false,
        }
    }

    /// The puzzle with boards taken by class under the board's symmetries
    /// ([`Shape::canonical_board`]).
    ///
    /// # Panics
    ///
    /// Panics if the shape has more than 63 cells.
    pub fn with_symmetry(shape: Shape, goal: Goal) -> Flip {
        Flip {
            symmetric: true,
            ..Flip::new(shape, goal)
        }
    }

    /// The board shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }
}

impl Rules for Flip {
    type Move = u8;

    fn positions(&self) -> u64 {
        1 << self.shape.cells()
    }

    fn for_each_move(&self, _board: u64, mut f: impl FnMut(u8)) {
        (0..self.shape.cells() as u8).for_each(&mut f);
    }

    fn play(&self, board: u64, cell: u8) -> u64 {
        board ^ self.press[usize::from(cell)]
    }

    fn canonical(&self, board: u64) -> u64 {
        if self.symmetric {
            self.shape.canonical_board(board)
        } else {
            board
        }
    }

    const PARENTS: bool = true;

    fn for_each_parent(&self, board: u64, f: impl FnMut(u64)) {
        // A press undoes itself: the parents are the children. On one row
        // or column of two cells both presses flip the same pair, and under
        // symmetry two parents may be one class: each is given once.
        let mut found = [0u64; 64];
        let cells = self.shape.cells();
        for (slot, cell) in found.iter_mut().zip(0..cells) {
            *slot = self.canonical(self.play(board, cell as u8));
        }
        each_distinct(&mut found[..cells], f);
    }
}

impl OnePlayer for Flip {
    fn is_goal(&self, board: u64) -> bool {
        let full = self.shape.full();
        match self.goal {
            Goal::White => board == 0,
            Goal::Black => board == full,
            Goal::Either => board == 0 || board == full,
        }
    }
}
