//! m,n,k-games: two players place X and O in turn (X first) on an R×C
//! board; whoever first has `k` in a row (across, down or along either
//! diagonal) wins, and a full board without one is a draw. Tic-tac-toe is
//! 3×3 with k = 3.
//!
//! A position is indexed in base 3, cell `i` (`C·r + c`, as every board of
//! the crate) the `i`th digit: 0 empty, 1 X, 2 O. The player to move follows
//! from the counts: X when they are equal. Parents are given (take back one
//! of the last mover's pieces), so the generic retrograde needs no reverse
//! graph; symmetry is optional.
//!
//! Text: one line a row, top row first, `.` empty, `X` and `O`; rows may be
//! joined by `/`. A move is its cell: the column's letter and the row's
//! number counted from the top, `a1` the top-left cell.
//!
//! ```
//! use boardbase_tables::game::{Rules, Text, TwoPlayer, Value};
//! use boardbase_tables::mnk::Mnk;
//! use boardbase_tables::shape::Shape;
//!
//! let game = Mnk::new(Shape::new(3, 3).unwrap(), 3).unwrap();
//! // X . O
//! // X O .
//! // X . .     X has the first column: O, to move, has lost.
//! let p = game.read_position("X.O/XO./X..")?;
//! assert_eq!(game.primitive(p), Some(Value::Lose));
//! let mv = game.read_move(game.start(), "b2")?;
//! assert_eq!(mv, 4);
//! # Ok::<(), boardbase_tables::text::ParseError>(())
//! ```

use core::fmt;

use crate::game::{Rules, Text, TwoPlayer, Value, each_distinct};
use crate::lines::{Lines, write_pieces, x_to_move};
use crate::shape::Shape;
use crate::text::{ParseError, read_board, write_cell};

/// The most cells of a board: its positions are indexed by a `u64`
/// (3^40 < 2^64).
pub const MAX_CELLS: usize = 40;

/// The symbols of a cell, by digit: empty, X, O.
const SYMBOLS: &[u8; 3] = b".XO";

/// An m,n,k-game on one board shape.
#[derive(Clone, Debug)]
pub struct Mnk {
    shape: Shape,
    k: usize,
    symmetric: bool,
    /// `3^i` for each cell `i`.
    pow3: [u64; MAX_CELLS],
    /// Every `k` in a row.
    lines: Lines,
}

impl Mnk {
    /// The game of `k` in a row on `shape`, every position its own class;
    /// `None` for a board of more than [`MAX_CELLS`] cells, or `k` = 0.
    pub fn new(shape: Shape, k: usize) -> Option<Mnk> {
        if shape.cells() > MAX_CELLS || k == 0 {
            return None;
        }
        let mut pow3 = [0u64; MAX_CELLS];
        let mut p = 1u64;
        for slot in pow3.iter_mut().take(shape.cells()) {
            *slot = p;
            p = p.wrapping_mul(3);
        }
        Some(Mnk {
            shape,
            k,
            symmetric: false,
            pow3,
            lines: Lines::new(shape, k),
        })
    }

    /// The same game with positions taken by class under the board's
    /// symmetries: the canonical position is the least index of a class.
    pub fn with_symmetry(self) -> Mnk {
        Mnk {
            symmetric: true,
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

    /// The cells of X and of O in `position`, as bit boards.
    pub fn pieces(&self, position: u64) -> (u64, u64) {
        let (mut x, mut o) = (0, 0);
        let mut p = position;
        for i in 0..self.shape.cells() {
            match p % 3 {
                1 => x |= 1 << i,
                2 => o |= 1 << i,
                _ => {}
            }
            p /= 3;
        }
        (x, o)
    }

    /// The position of X's cells `x` and O's cells `o`.
    pub fn position(&self, x: u64, o: u64) -> u64 {
        let mut p = 0;
        for (mask, digit) in [(x, 1), (o, 2)] {
            let mut m = mask;
            while m != 0 {
                p += digit * self.pow3[m.trailing_zeros() as usize];
                m &= m - 1;
            }
        }
        p
    }

    /// Whether the cells of `mask` hold `k` in a row.
    pub fn has_line(&self, mask: u64) -> bool {
        self.lines.any_in(mask)
    }
}

impl Rules for Mnk {
    type Move = u8;

    fn positions(&self) -> u64 {
        3u64.pow(self.shape.cells() as u32)
    }

    /// As many X as O, or one more, and no line of the player to move
    /// (the game would have ended at its last move).
    fn is_legal(&self, position: u64) -> bool {
        let (x, o) = self.pieces(position);
        self.lines.is_legal(x, o)
    }

    fn for_each_move(&self, position: u64, mut f: impl FnMut(u8)) {
        if self.primitive(position).is_some() {
            return;
        }
        let (x, o) = self.pieces(position);
        for i in 0..self.shape.cells() {
            if (x | o) >> i & 1 == 0 {
                f(i as u8);
            }
        }
    }

    fn play(&self, position: u64, cell: u8) -> u64 {
        let (x, o) = self.pieces(position);
        let digit = if x_to_move(x, o) { 1 } else { 2 };
        position + digit * self.pow3[usize::from(cell)]
    }

    fn canonical(&self, position: u64) -> u64 {
        if !self.symmetric {
            return position;
        }
        let (x, o) = self.pieces(position);
        (1..self.shape.symmetries()).fold(position, |best, k| {
            let image = self.position(
                self.shape.symmetric_board(x, k),
                self.shape.symmetric_board(o, k),
            );
            best.min(image)
        })
    }

    const PARENTS: bool = true;

    fn for_each_parent(&self, position: u64, f: impl FnMut(u64)) {
        // Taking back one of the last mover's pieces; the parent must be a
        // position where that player was to move with no line of its own
        // and the game not over (no line of the other player).
        let (x, o) = self.pieces(position);
        if x | o == 0 {
            return;
        }
        let (last, other, digit) = if x_to_move(x, o) {
            (o, x, 2)
        } else {
            (x, o, 1)
        };
        if self.has_line(other) {
            return;
        }
        let mut found = [0u64; MAX_CELLS];
        let mut len = 0;
        let mut m = last;
        while m != 0 {
            let cell = m.trailing_zeros() as usize;
            m &= m - 1;
            if !self.has_line(last & !(1 << cell)) {
                found[len] = self.canonical(position - digit * self.pow3[cell]);
                len += 1;
            }
        }
        each_distinct(&mut found[..len], f);
    }
}

impl TwoPlayer for Mnk {
    fn start(&self) -> u64 {
        0
    }

    fn primitive(&self, position: u64) -> Option<Value> {
        let (x, o) = self.pieces(position);
        self.lines.primitive(self.shape, x, o)
    }
}

impl Text for Mnk {
    fn write_position(&self, position: u64, out: &mut dyn fmt::Write) -> fmt::Result {
        let (x, o) = self.pieces(position);
        write_pieces(self.shape, x, o, out)
    }

    fn read_position(&self, text: &str) -> Result<u64, ParseError> {
        let (mut x, mut o) = (0u64, 0u64);
        let shape = self.shape;
        read_board(
            text,
            shape.rows(),
            shape.cols(),
            SYMBOLS,
            "'.', 'X' or 'O'",
            |r, c, s| match s {
                1 => x |= shape.bit(r, c),
                2 => o |= shape.bit(r, c),
                _ => {}
            },
        )?;
        self.lines.check(x, o)?;
        let position = self.position(x, o);
        Ok(position)
    }

    fn write_move(&self, _position: u64, cell: u8, out: &mut dyn fmt::Write) -> fmt::Result {
        let (r, c) = self.shape.cell(usize::from(cell));
        write_cell(out, r, c)
    }
}
