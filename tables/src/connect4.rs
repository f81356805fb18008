//! Connect Four on an R×C board: two players drop X and O in turn (X
//! first) into a column, where the piece falls to the lowest empty cell
//! (row R − 1 is the bottom); whoever first has `k` in a row (across, down
//! or along a diagonal, 4 by default) wins, and a full board without one is
//! a draw.
//!
//! A position is indexed column by column: a column holding `h` pieces is
//! the code `2^h − 1 + b`, `b`'s bit `i` set for an O at the `i`th piece
//! from the bottom, so a column has `2^(R+1) − 1` codes and the index is the
//! columns' codes in base `2^(R+1) − 1`, column 0 the lowest digit. The
//! player to move follows from the counts: X when they are equal. Parents
//! are given (take back the top piece of a column, if the last mover's);
//! the left-right mirror is the symmetry.
//!
//! Text: one line a row, top row first, `.` empty, `X` and `O`; rows may be
//! joined by `/`. A move is its column's letter (`a` the leftmost).
//!
//! ```
//! use boardbase_tables::connect4::Connect4;
//! use boardbase_tables::game::{Rules, Text, TwoPlayer, Value};
//! use boardbase_tables::shape::Shape;
//!
//! let game = Connect4::new(Shape::new(4, 4).unwrap(), 4).unwrap();
//! // . . . .
//! // X . . .
//! // X O . .
//! // X O O .     X, to move, wins by dropping on the first column.
//! let p = game.read_position("..../X.../XO../XOO.")?;
//! let win = game.read_move(p, "a")?;
//! assert_eq!(game.primitive(game.play(p, win)), Some(Value::Lose));
//! # Ok::<(), boardbase_tables::text::ParseError>(())
//! ```

use core::fmt;

use crate::game::{Rules, Text, TwoPlayer, Value, each_distinct};
use crate::lines::{Lines, write_pieces, x_to_move};
use crate::shape::Shape;
use crate::text::{Found, ParseError, read_board_at};

/// The most columns: each is named by a letter.
pub const MAX_COLS: usize = 26;

const MAX_CELLS: usize = 64;

/// Connect Four on one board shape.
#[derive(Clone, Debug)]
pub struct Connect4 {
    shape: Shape,
    k: usize,
    symmetric: bool,
    /// Codes a column: `2^(rows+1) − 1`.
    base: u64,
    /// `base^c` for each column `c`.
    place: [u64; MAX_COLS],
    /// Every `k` in a row.
    lines: Lines,
}

impl Connect4 {
    /// The game of `k` in a row on `shape`, the left-right mirror used;
    /// `None` for `k` = 0, more than [`MAX_COLS`] columns, or a board whose
    /// positions a `u64` cannot index (`(2^(R+1) − 1)^C` at most 2^64).
    pub fn new(shape: Shape, k: usize) -> Option<Connect4> {
        if k == 0 || shape.cols() > MAX_COLS || shape.cells() > MAX_CELLS {
            return None;
        }
        let base = 1u64.checked_shl(shape.rows() as u32 + 1)?.checked_sub(1)?;
        if base == u64::MAX {
            return None;
        }
        let mut place = [0u64; MAX_COLS];
        let mut p = 1u64;
        for slot in place.iter_mut().take(shape.cols()) {
            *slot = p;
            p = p.checked_mul(base)?;
        }
        Some(Connect4 {
            shape,
            k,
            symmetric: true,
            base,
            place,
            lines: Lines::new(shape, k),
        })
    }

    /// The same game with every position its own class (no mirror).
    pub fn without_symmetry(self) -> Connect4 {
        Connect4 {
            symmetric: false,
            ..self
        }
    }

    /// The board shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// How many in a row win.
    pub fn k(&self) -> usize {
        self.k
    }

    /// Column `c`'s code in `position`.
    fn code(&self, position: u64, c: usize) -> u64 {
        position / self.place[c] % self.base
    }

    /// The height and the O bits (from the bottom) of a column's code.
    fn column(code: u64) -> (usize, u64) {
        let h = (64 - (code + 1).leading_zeros() - 1) as usize;
        (h, code + 1 - (1 << h))
    }

    /// The cells of X and of O in `position`, as bit boards.
    pub fn pieces(&self, position: u64) -> (u64, u64) {
        let (mut x, mut o) = (0, 0);
        let rows = self.shape.rows();
        for c in 0..self.shape.cols() {
            let (h, bits) = Connect4::column(self.code(position, c));
            for i in 0..h {
                let bit = self.shape.bit(rows - 1 - i, c);
                if bits >> i & 1 == 1 {
                    o |= bit;
                } else {
                    x |= bit;
                }
            }
        }
        (x, o)
    }

    /// The position of X's cells `x` and O's cells `o`, `None` when a
    /// piece floats over an empty cell.
    pub fn position(&self, x: u64, o: u64) -> Option<u64> {
        let rows = self.shape.rows();
        let mut p = 0;
        for c in 0..self.shape.cols() {
            let (mut h, mut bits) = (0, 0u64);
            for i in 0..rows {
                let bit = self.shape.bit(rows - 1 - i, c);
                if (x | o) & bit == 0 {
                    break;
                }
                bits |= u64::from(o & bit != 0) << i;
                h += 1;
            }
            // Every piece of the column counted from the bottom up.
            let column = (x | o) & (0..rows).fold(0, |m, r| m | self.shape.bit(r, c));
            if column.count_ones() as usize != h {
                return None;
            }
            p += ((1 << h) - 1 + bits) * self.place[c];
        }
        Some(p)
    }

    /// Whether the cells of `mask` hold `k` in a row.
    pub fn has_line(&self, mask: u64) -> bool {
        self.lines.any_in(mask)
    }

    /// The position mirrored left to right.
    fn mirror(&self, position: u64) -> u64 {
        let cols = self.shape.cols();
        (0..cols).fold(0, |m, c| {
            m + self.code(position, c) * self.place[cols - 1 - c]
        })
    }
}

impl Rules for Connect4 {
    type Move = u8;

    fn positions(&self) -> u64 {
        // `new` checked that base^cols fits: the last place times the base.
        self.place[self.shape.cols() - 1] * self.base
    }

    fn is_legal(&self, position: u64) -> bool {
        if position >= self.positions() {
            return false;
        }
        let (x, o) = self.pieces(position);
        self.lines.is_legal(x, o)
    }

    fn for_each_move(&self, position: u64, mut f: impl FnMut(u8)) {
        if self.primitive(position).is_some() {
            return;
        }
        for c in 0..self.shape.cols() {
            let (h, _) = Connect4::column(self.code(position, c));
            if h < self.shape.rows() {
                f(c as u8);
            }
        }
    }

    fn play(&self, position: u64, column: u8) -> u64 {
        let (x, o) = self.pieces(position);
        let c = usize::from(column);
        let code = self.code(position, c);
        let (h, bits) = Connect4::column(code);
        let piece = u64::from(!x_to_move(x, o));
        let after = (1 << (h + 1)) - 1 + (bits | piece << h);
        position - code * self.place[c] + after * self.place[c]
    }

    fn canonical(&self, position: u64) -> u64 {
        if self.symmetric {
            position.min(self.mirror(position))
        } else {
            position
        }
    }

    const PARENTS: bool = true;

    fn for_each_parent(&self, position: u64, f: impl FnMut(u64)) {
        // The top piece of a column, if the last mover's, taken back; the
        // parent must have the last mover to move with no line of its own,
        // and no line of the other player (the game not over).
        let (x, o) = self.pieces(position);
        if x | o == 0 {
            return;
        }
        let x_last = !x_to_move(x, o);
        let (last, other) = if x_last { (x, o) } else { (o, x) };
        if self.has_line(other) {
            return;
        }
        let rows = self.shape.rows();
        let mut found = [0u64; MAX_COLS];
        let mut len = 0;
        for c in 0..self.shape.cols() {
            let code = self.code(position, c);
            let (h, bits) = Connect4::column(code);
            if h == 0 || (bits >> (h - 1) & 1 == 1) == x_last {
                continue;
            }
            let top = self.shape.bit(rows - h, c);
            if self.has_line(last & !top) {
                continue;
            }
            let before = (1 << (h - 1)) - 1 + (bits & !(1 << (h - 1)));
            let parent = position - code * self.place[c] + before * self.place[c];
            found[len] = self.canonical(parent);
            len += 1;
        }
        each_distinct(&mut found[..len], f);
    }
}

impl TwoPlayer for Connect4 {
    fn start(&self) -> u64 {
        0
    }

    fn primitive(&self, position: u64) -> Option<Value> {
        let (x, o) = self.pieces(position);
        self.lines.primitive(self.shape, x, o)
    }
}

impl Text for Connect4 {
    fn write_position(&self, position: u64, out: &mut dyn fmt::Write) -> fmt::Result {
        let (x, o) = self.pieces(position);
        write_pieces(self.shape, x, o, out)
    }

    fn read_position(&self, text: &str) -> Result<u64, ParseError> {
        let (mut x, mut o) = (0u64, 0u64);
        let shape = self.shape;
        // Where each column's highest empty cell is, top rows first, to
        // refuse a piece over it.
        let mut empty_below = [false; MAX_COLS];
        let mut cells: [Option<ParseError>; MAX_CELLS] = [None; MAX_CELLS];
        read_board_at(
            text,
            shape.rows(),
            shape.cols(),
            b".XO",
            "'.', 'X' or 'O'",
            |r, c, s, at| {
                match s {
                    1 => x |= shape.bit(r, c),
                    2 => o |= shape.bit(r, c),
                    _ => {}
                }
                cells[shape.index(r, c)] = Some(at);
                Ok(())
            },
        )?;
        for r in (0..shape.rows()).rev() {
            for (c, below) in empty_below.iter_mut().enumerate().take(shape.cols()) {
                let filled = (x | o) & shape.bit(r, c) != 0;
                if filled && *below {
                    let at = cells[shape.index(r, c)].unwrap_or(ParseError {
                        line: 1,
                        column: 1,
                        expected: "",
                        found: Found::EndOfInput,
                    });
                    return Err(ParseError {
                        expected: "'.' over an empty cell (pieces fall to the lowest empty cell)",
                        ..at
                    });
                }
                *below |= !filled;
            }
        }
        self.lines.check(x, o)?;
        self.position(x, o).ok_or(ParseError {
            line: 1,
            column: 1,
            expected: "a position of the game",
            found: Found::Described("a piece over an empty cell"),
        })
    }

    fn write_move(&self, _position: u64, column: u8, out: &mut dyn fmt::Write) -> fmt::Result {
        out.write_char(char::from(b'a' + column))
    }
}
