//! What the games of `k` in a row share, where two players place X and O
//! in turn, X first (m,n,k-games, Connect Four): the lines of a board, whose
//! turn it is, when the game is over, and the board's text.

use core::fmt;

use crate::game::Value;
use crate::shape::Shape;
use crate::text::{Found, ParseError};

/// The most lines of a board of at most 64 cells: four directions from
/// each cell.
const MAX_LINES: usize = 4 * 64;

/// Every `k` in a row (across, down or along either diagonal) of a board,
/// as cell masks.
#[derive(Clone, Debug)]
pub struct Lines {
    masks: [u64; MAX_LINES],
    len: usize,
}

impl Lines {
    /// The lines of `k` cells on `shape` (none when `k` is 0 or longer than
    /// both sides).
    pub fn new(shape: Shape, k: usize) -> Lines {
        let mut lines = Lines {
            masks: [0; MAX_LINES],
            len: 0,
        };
        if k == 0 || k > shape.rows().max(shape.cols()) || !shape.fits_u64() {
            return lines;
        }
        let (rows, cols, k) = (shape.rows() as isize, shape.cols() as isize, k as isize);
        for r in 0..rows {
            for c in 0..cols {
                for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                    let (er, ec) = (r + dr * (k - 1), c + dc * (k - 1));
                    if !(0..rows).contains(&er) || !(0..cols).contains(&ec) {
                        continue;
                    }
                    let mask = (0..k).fold(0, |m, i| {
                        m | shape.bit((r + dr * i) as usize, (c + dc * i) as usize)
                    });
                    lines.masks[lines.len] = mask;
                    lines.len += 1;
                }
            }
        }
        lines
    }

    /// Whether the cells of `mask` hold a whole line.
    pub fn any_in(&self, mask: u64) -> bool {
        self.masks[..self.len].iter().any(|&line| line & !mask == 0)
    }

    /// Whether X (cells `x`) and O (cells `o`) can stand so: as many X as O
    /// or one more, and no line of the player to move (the game would have
    /// ended at the last move).
    pub fn is_legal(&self, x: u64, o: u64) -> bool {
        let (nx, no) = (x.count_ones(), o.count_ones());
        if nx == no {
            !self.any_in(x)
        } else {
            nx == no + 1 && !self.any_in(o)
        }
    }

    /// The value for the player to move when the game is over: lost when
    /// the last mover has a line, drawn on a full board without one.
    pub fn primitive(&self, shape: Shape, x: u64, o: u64) -> Option<Value> {
        let last = if x_to_move(x, o) { o } else { x };
        if self.any_in(last) {
            Some(Value::Lose)
        } else if x | o == shape.full() {
            Some(Value::Draw)
        } else {
            None
        }
    }

    /// [`Lines::is_legal`], or why not, in words, for a position read from
    /// text.
    pub fn check(&self, x: u64, o: u64) -> Result<(), ParseError> {
        let refused = |found| ParseError {
            line: 1,
            column: 1,
            expected: "a position of the game",
            found: Found::Described(found),
        };
        let (nx, no) = (x.count_ones(), o.count_ones());
        if no > nx {
            return Err(refused("more O than X (X moves first)"));
        }
        if nx > no + 1 {
            return Err(refused("two X or more past the O (the players alternate)"));
        }
        if !self.is_legal(x, o) {
            return Err(refused(
                "a line of the player to move (the game ended before the last move)",
            ));
        }
        Ok(())
    }
}

/// Whether X is to move: as many X as O.
pub fn x_to_move(x: u64, o: u64) -> bool {
    x.count_ones() == o.count_ones()
}

/// Writes the board one line a row, top row first: `X`, `O` and `.`.
pub fn write_pieces(shape: Shape, x: u64, o: u64, out: &mut dyn fmt::Write) -> fmt::Result {
    for r in 0..shape.rows() {
        if r > 0 {
            out.write_char('\n')?;
        }
        for c in 0..shape.cols() {
            let bit = shape.bit(r, c);
            out.write_char(if x & bit != 0 {
                'X'
            } else if o & bit != 0 {
                'O'
            } else {
                '.'
            })?;
        }
    }
    Ok(())
}
