//! The Game of Euler as a game of the [model](crate::game): any R×C board of
//! at most 63 cells, the position being the set of covered cells.
//!
//! A move is an index into [`moves`]`(shape)` (the order of the specialised
//! solvers' best moves), playing it covers its cells, and the full board is
//! won by the player to move (the opponent covered the last cell: misère).
//! Parents are given (uncover a move's cells), so the generic retrograde
//! needs no reverse graph; symmetry is optional.
//!
//! ```
//! use boardbase_tables::euler::game::Euler;
//! use boardbase_tables::game::{Rules, TwoPlayer, Value};
//! use boardbase_tables::shape::Shape;
//!
//! let game = Euler::new(Shape::new(1, 2).unwrap());
//! // Moves: either square, or the 2-long pin.
//! let mut moves = Vec::new();
//! game.for_each_move(game.start(), |m| moves.push(m));
//! assert_eq!(moves, [0, 1, 2]);
//! assert_eq!(game.play(0b01, 1), 0b11);
//! assert_eq!(game.primitive(0b11), Some(Value::Win));
//! ```

use core::fmt;

use super::{MoveList, moves};
use crate::game::{Rules, Text, TwoPlayer, Value, each_distinct};
use crate::shape::Shape;
use crate::text::{ParseError, read_board, write_cell};

/// The Game of Euler on one board shape.
#[derive(Clone, Debug)]
pub struct Euler {
    shape: Shape,
    moves: MoveList,
    symmetric: bool,
}

impl Euler {
    /// The game on `shape`, every position its own class.
    ///
    /// # Panics
    ///
    /// Panics if the shape has more than 63 cells.
    pub fn new(shape: Shape) -> Euler {
        assert!(
            shape.cells() < 64,
            "Euler positions are indexed by a u64: at most 63 cells"
        );
        Euler {
            shape,
            moves: moves(shape),
            symmetric: false,
        }
    }

    /// The game on `shape`, positions taken by class under the board's
    /// symmetries ([`Shape::canonical_board`]).
    ///
    /// # Panics
    ///
    /// Panics if the shape has more than 63 cells.
    pub fn with_symmetry(shape: Shape) -> Euler {
        Euler {
            symmetric: true,
            ..Euler::new(shape)
        }
    }

    /// The board shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The move masks, indexed by move.
    pub fn moves(&self) -> &[u64] {
        self.moves.as_slice()
    }
}

impl Rules for Euler {
    type Move = u8;

    fn positions(&self) -> u64 {
        1 << self.shape.cells()
    }

    fn for_each_move(&self, covered: u64, mut f: impl FnMut(u8)) {
        for (i, &m) in self.moves().iter().enumerate() {
            if m & covered == 0 {
                f(i as u8);
            }
        }
    }

    fn play(&self, covered: u64, mv: u8) -> u64 {
        covered | self.moves()[usize::from(mv)]
    }

    fn canonical(&self, covered: u64) -> u64 {
        if self.symmetric {
            self.shape.canonical_board(covered)
        } else {
            covered
        }
    }

    const PARENTS: bool = true;

    fn for_each_parent(&self, covered: u64, f: impl FnMut(u64)) {
        // Uncovering the cells of a move that lies wholly on covered cells
        // undoes it; distinct moves give distinct parents, but under
        // symmetry two of them may be one class.
        let mut found = [0u64; super::MAX_MOVES];
        let mut len = 0;
        for &m in self.moves() {
            if m & covered == m {
                found[len] = self.canonical(covered & !m);
                len += 1;
            }
        }
        if self.symmetric {
            each_distinct(&mut found[..len], f);
        } else {
            found[..len].iter().copied().for_each(f);
        }
    }
}

impl TwoPlayer for Euler {
    fn start(&self) -> u64 {
        0
    }

    fn primitive(&self, covered: u64) -> Option<Value> {
        (covered == self.shape.full()).then_some(Value::Win)
    }
}

/// Text: the board one line a row, top row first, `X` covered and `.`
/// empty (rows may be joined by `/`); a move by its cells, the column's
/// letter and the row's number counted from the top: `a1` one square,
/// `a1-c1` a pin from its first cell to its last.
impl Text for Euler {
    fn write_position(&self, covered: u64, out: &mut dyn fmt::Write) -> fmt::Result {
        for r in 0..self.shape.rows() {
            if r > 0 {
                out.write_char('\n')?;
            }
            for c in 0..self.shape.cols() {
                out.write_char(if self.shape.get(covered, r, c) {
                    'X'
                } else {
                    '.'
                })?;
            }
        }
        Ok(())
    }

    fn read_position(&self, text: &str) -> Result<u64, ParseError> {
        let mut covered = 0;
        let shape = self.shape;
        read_board(
            text,
            shape.rows(),
            shape.cols(),
            b".X",
            "'X' or '.'",
            |r, c, s| {
                if s == 1 {
                    covered |= shape.bit(r, c);
                }
            },
        )?;
        Ok(covered)
    }

    fn write_move(&self, _covered: u64, mv: u8, out: &mut dyn fmt::Write) -> fmt::Result {
        let mask = self.moves()[usize::from(mv)];
        let (r, c) = self.shape.cell(mask.trailing_zeros() as usize);
        write_cell(out, r, c)?;
        if mask.count_ones() > 1 {
            let (r, c) = self.shape.cell(63 - mask.leading_zeros() as usize);
            out.write_char('-')?;
            write_cell(out, r, c)?;
        }
        Ok(())
    }
}
