//! Quixo on an R×C board, as GamesmanOne's `src/games/quixo/` plays it:
//! every cell holds a cube, blank at the start. A move takes a cube from
//! the border that is blank or shows the mover's symbol, turns it to the
//! mover's symbol and pushes it back in at an end of its row or column
//! (not the end it was taken from): the cubes between shift one step
//! towards the hole. X moves first. Whoever has `k` in a row (across, down
//! or along a diagonal; on GamesmanOne's square boards k is the side) when
//! it is their turn wins, even if the other player has one too: so a push
//! that makes a line for both players loses for the player who made it.
//! Positions repeat; the generic retrograde analysis finds the draws.
//!
//! A position is indexed in base 3, cell `i` (`C·r + c`) the `i`th digit
//! (0 blank, 1 X, 2 O), plus `3^cells` when O is to move: the counts do not
//! tell whose turn it is. Symmetry takes the board's turns and reflections
//! and the exchange of X and O with the turn, so every class has its least
//! index among the positions with X to move. Parents are given exactly
//! (each push taken back, the cube taken either blank or the mover's own).
//!
//! Text, boardbase's: one line a row, top row first, `.` blank, `X` and
//! `O`, then a last line naming the player to move, `X` or `O`; lines may
//! be joined by `/` (`..../..../..../..../X` is the 4×4 start).
//! GamesmanOne's position strings are read too: `1_` (X to move) or `2_`
//! (O to move) and the cells in reading order, `-` blank
//! (`1_----------------`). A move is the cube's cell and the cell where it
//! goes back in, joined by `-`: `a1-d1` takes the top-left cube and pushes
//! it in at the right end of the top row (cells are named as in the other
//! games: the column's letter and the row's number from the top).
//! GamesmanOne's moves are read too: the cube's cell numbered from 1 in
//! reading order, a blank, and the end it goes to, `L`, `R`, `U` or `D`
//! (`1 R` is `a1-d1` on 4×4).
//!
//! ```
//! use boardbase_tables::game::{Rules, Text, TwoPlayer, Value};
//! use boardbase_tables::quixo::Quixo;
//! use boardbase_tables::shape::Shape;
//!
//! let game = Quixo::new(Shape::new(3, 3).unwrap(), 3).unwrap();
//! // X X .
//! // O O .
//! // . . .     X to move: c1-a1 takes the blank c1 and pushes it in at
//! //           a1, the X X sliding right: X X X.
//! let p = game.read_position("XX./OO./.../X")?;
//! let mv = game.read_move(p, "c1-a1")?;
//! assert_eq!(game.read_move(p, "3 L")?, mv);
//! let after = game.play(p, mv);
//! let mut text = String::new();
//! game.write_position(after, &mut text).unwrap();
//! assert_eq!(text, "XXX\nOO.\n...\nO");
//! // O is to move and X has a line: O has lost.
//! assert_eq!(game.primitive(after), Some(Value::Lose));
//! # Ok::<(), boardbase_tables::text::ParseError>(())
//! ```

mod tiers;

use core::fmt;

use crate::game::{Rules, Text, TwoPlayer, Value, each_distinct, read_written_move};
use crate::lines::Lines;
use crate::shape::Shape;
use crate::text::{Found, ParseError, write_cell};
use crate::turn_text;

/// The most cells of a board: two turns times `3^cells` index a `u64`
/// (2·3^39 < 2^64).
pub const MAX_CELLS: usize = 39;

/// The most moves of a board: three a border cell at most.
const MAX_MOVES: usize = 3 * MAX_CELLS;

/// Cells a chunk of the index tables: a byte of a cell mask.
const CHUNK: usize = 8;
/// `3^CHUNK`.
const CHUNK_STATES: u64 = 6561;
/// Chunks of the largest board.
const MAX_CHUNKS: usize = MAX_CELLS.div_ceil(CHUNK);

/// `ENCODE[b]`: the base-3 digits of a chunk's cells whose byte is `b`,
/// each 1: a board's index is `E(x) + 2·E(o)` with `E` summed chunk by
/// chunk.
const ENCODE: [u16; 256] = {
    let mut t = [0u16; 256];
    let mut b = 0;
    while b < 256 {
        let (mut v, mut p, mut i) = (0u16, 1u16, 0);
        while i < CHUNK {
            if b >> i & 1 == 1 {
                v += p;
            }
            p *= 3;
            i += 1;
        }
        t[b] = v;
        b += 1;
    }
    t
};

/// `DECODE[v]`: a chunk's base-3 value `v` as its X byte (low) and O byte
/// (high).
const DECODE: [u16; CHUNK_STATES as usize] = {
    let mut t = [0u16; CHUNK_STATES as usize];
    let mut v = 0;
    while v < CHUNK_STATES as usize {
        let (mut rest, mut x, mut o, mut i) = (v, 0u16, 0u16, 0);
        while i < CHUNK {
            match rest % 3 {
                1 => x |= 1 << i,
                2 => o |= 1 << i,
                _ => {}
            }
            rest /= 3;
            i += 1;
        }
        t[v] = x | o << 8;
        v += 1;
    }
    t
};

/// One push: the cube at `src` goes back in at `dst`, the cubes of `seg`
/// shifting one step (of `step` bits) towards `src`.
#[derive(Clone, Copy, Debug, Default)]
struct Push {
    src: u8,
    dst: u8,
    /// The cells that change: `seg` and `src`.
    span: u64,
    /// The cubes that shift.
    seg: u64,
    step: u8,
    /// Whether the cubes shift towards lower cell indices (`dst` past
    /// `src`).
    down: bool,
}

impl Push {
    /// The cubes of `mask` shifted as the push shifts them.
    #[inline]
    fn shift(&self, mask: u64) -> u64 {
        if self.down {
            mask >> self.step
        } else {
            mask << self.step
        }
    }

    /// The inverse of [`Push::shift`].
    #[inline]
    fn unshift(&self, mask: u64) -> u64 {
        if self.down {
            mask << self.step
        } else {
            mask >> self.step
        }
    }

    /// `mask` (one player's cubes) after the push, the cube itself not put
    /// back.
    #[inline]
    fn apply(&self, mask: u64) -> u64 {
        (mask & !self.span) | self.shift(mask & self.seg)
    }

    /// `mask` (one player's cubes) before the push, its `src` cell left
    /// blank.
    #[inline]
    fn undo(&self, mask: u64) -> u64 {
        let rest = self.span & !(1 << self.dst);
        (mask & !self.span) | self.unshift(mask & rest)
    }
}

/// Quixo on one board shape.
#[derive(Clone, Debug)]
pub struct Quixo {
    shape: Shape,
    k: usize,
    symmetric: bool,
    /// `3^cells`: the index of the first position with O to move.
    half: u64,
    /// Chunks of a cell mask.
    chunks: usize,
    /// `6561^j` for each chunk `j`.
    place: [u64; MAX_CHUNKS],
    /// The border cells.
    border: u64,
    /// Every push, by cube then by where it goes in.
    pushes: [Push; MAX_MOVES],
    moves: usize,
    /// Board symmetries used (1 without symmetry).
    symmetries: usize,
    /// `images[s][j][b]`: `Σ 3^i` over the cells `i` of the image under
    /// symmetry `s` of the cells of byte `b` of chunk `j`. The index of a
    /// board is linear in its cells, so an image's index is summed from
    /// these with no image drawn: the hot path of the symmetry.
    images: [[[u64; 256]; MAX_CHUNKS]; 8],
    /// Every `k` in a row.
    lines: Lines,
}

impl Quixo {
    /// Quixo with `k` in a row on `shape`, classes taken under the board's
    /// symmetries and the exchange of X and O; `None` for a side shorter
    /// than 2, more than [`MAX_CELLS`] cells, or `k` not from 1 to the
    /// longer side (with no line to make, a border full of one player's
    /// cubes would leave the other no move).
    pub fn new(shape: Shape, k: usize) -> Option<Quixo> {
        let (rows, cols) = (shape.rows(), shape.cols());
        if rows < 2 || cols < 2 || shape.cells() > MAX_CELLS || k == 0 || k > rows.max(cols) {
            return None;
        }
        let chunks = shape.cells().div_ceil(CHUNK);
        let mut place = [0u64; MAX_CHUNKS];
        let mut p = 1u64;
        for slot in place.iter_mut().take(chunks) {
            *slot = p;
            p = p.saturating_mul(CHUNK_STATES);
        }
        let mut border = 0u64;
        for r in 0..rows {
            for c in 0..cols {
                if r == 0 || c == 0 || r == rows - 1 || c == cols - 1 {
                    border |= shape.bit(r, c);
                }
            }
        }
        let mut pushes = [Push::default(); MAX_MOVES];
        let mut moves = 0;
        for src in 0..shape.cells() {
            if border >> src & 1 == 0 {
                continue;
            }
            let (r, c) = shape.cell(src);
            let mut ends = [
                shape.index(r, 0),
                shape.index(0, c),
                shape.index(r, cols - 1),
                shape.index(rows - 1, c),
            ];
            ends.sort_unstable();
            for (i, &dst) in ends.iter().enumerate() {
                if dst == src || ends[..i].contains(&dst) {
                    continue;
                }
                let step = if shape.cell(dst).0 == r { 1 } else { cols };
                let (lo, hi) = (src.min(dst), src.max(dst));
                let span = (lo..=hi).step_by(step).fold(0u64, |m, i| m | 1 << i);
                pushes[moves] = Push {
                    src: src as u8,
                    dst: dst as u8,
                    span,
                    seg: span & !(1 << src),
                    step: step as u8,
                    down: dst > src,
                };
                moves += 1;
            }
        }
        let mut game = Quixo {
            shape,
            k,
            symmetric: true,
            half: 3u64.pow(shape.cells() as u32),
            chunks,
            place,
            border,
            pushes,
            moves,
            symmetries: shape.symmetries(),
            images: [[[0; 256]; MAX_CHUNKS]; 8],
            lines: Lines::new(shape, k),
        };
        for s in 0..game.symmetries {
            for j in 0..chunks {
                for b in 0..256usize {
                    let mask = (b as u64) << (CHUNK * j) & shape.full();
                    let image = shape.symmetric_board(mask, s);
                    game.images[s][j][b] = game.digits(image);
                }
            }
        }
        Some(game)
    }

    /// The same game with every position its own class (no symmetry, no
    /// exchange of X and O).
    pub fn without_symmetry(self) -> Quixo {
        Quixo {
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

    /// The cells of X and of O in `position`, and whether O is to move.
    #[inline]
    pub fn pieces(&self, position: u64) -> (u64, u64, bool) {
        let o_to_move = position >= self.half;
        let mut board = if o_to_move {
            position - self.half
        } else {
            position
        };
        let (mut x, mut o) = (0u64, 0u64);
        for j in 0..self.chunks {
            let d = u64::from(DECODE[(board % CHUNK_STATES) as usize]);
            board /= CHUNK_STATES;
            x |= (d & 0xff) << (CHUNK * j);
            o |= (d >> 8) << (CHUNK * j);
        }
        (x, o, o_to_move)
    }

    /// The position of X's cells `x` and O's cells `o` (disjoint), O to
    /// move when `o_to_move`.
    #[inline]
    pub fn position(&self, x: u64, o: u64, o_to_move: bool) -> u64 {
        self.half * u64::from(o_to_move) + self.digits(x) + 2 * self.digits(o)
    }

    /// `Σ 3^i` over the cells `i` of `mask`.
    #[inline]
    fn digits(&self, mask: u64) -> u64 {
        let mut v = 0;
        for j in 0..self.chunks {
            v += u64::from(ENCODE[(mask >> (CHUNK * j) & 0xff) as usize]) * self.place[j];
        }
        v
    }

    /// `Σ 3^i` over the cells `i` of `mask` under board symmetry `s`.
    #[inline]
    fn image_digits(&self, mask: u64, s: usize) -> u64 {
        let table = &self.images[s];
        let mut v = 0;
        for (j, t) in table.iter().enumerate().take(self.chunks) {
            v += t[(mask >> (CHUNK * j) & 0xff) as usize];
        }
        v
    }

    /// The least index of the class of the position where the player with
    /// cubes `mover` is to move and the other has `other`: always one with
    /// X to move.
    #[inline]
    fn least(&self, mover: u64, other: u64) -> u64 {
        let mut best = self.digits(mover) + 2 * self.digits(other);
        for s in 1..self.symmetries {
            best = best.min(self.image_digits(mover, s) + 2 * self.image_digits(other, s));
        }
        best
    }

    /// Whether the cells of `mask` hold `k` in a row.
    pub fn has_line(&self, mask: u64) -> bool {
        self.lines.any_in(mask)
    }

    /// The value for the player to move with cubes `mover` against
    /// `other`, when the game is over.
    #[inline]
    fn over(&self, mover: u64, other: u64) -> Option<Value> {
        if self.has_line(mover) {
            Some(Value::Win)
        } else if self.has_line(other) {
            Some(Value::Lose)
        } else {
            None
        }
    }

    /// Whether the player with `mover`'s cubes can be to move: at the
    /// start (an empty board, X to move), or after the other player's
    /// push, which leaves one of the other's cubes on the border. The test
    /// GamesmanOne makes; it lets some positions that cannot be reached
    /// pass, never refuses one that can.
    #[inline]
    fn can_be(&self, mover: u64, other: u64, o_to_move: bool) -> bool {
        (mover | other == 0 && !o_to_move) || other & self.border != 0
    }

    /// `position` as GamesmanOne writes it: `1_` (X to move) or `2_` (O
    /// to move), then every cell in reading order, `-` blank.
    pub fn write_gamesman(&self, position: u64, out: &mut dyn fmt::Write) -> fmt::Result {
        let (x, o, o_to_move) = self.pieces(position);
        turn_text::write_gamesman(self.shape, x, o, o_to_move, out)
    }

    /// A GamesmanOne move: the cube's cell from 1 in reading order, a
    /// blank, the end it goes to (`L`, `R`, `U`, `D`).
    fn read_gamesman_move(&self, position: u64, text: &str) -> Option<u8> {
        let (number, end) = text.trim().split_once(' ')?;
        let src = number.parse::<usize>().ok()?.checked_sub(1)?;
        if src >= self.shape.cells() {
            return None;
        }
        let (r, c) = self.shape.cell(src);
        let (rows, cols) = (self.shape.rows(), self.shape.cols());
        let dst = match end.trim() {
            "L" => self.shape.index(r, 0),
            "R" => self.shape.index(r, cols - 1),
            "U" => self.shape.index(0, c),
            "D" => self.shape.index(rows - 1, c),
            _ => return None,
        };
        let mut found = None;
        self.for_each_move(position, |mv| {
            let p = &self.pushes[usize::from(mv)];
            if usize::from(p.src) == src && usize::from(p.dst) == dst {
                found = Some(mv);
            }
        });
        found
    }
}

impl Rules for Quixo {
    type Move = u8;

    fn positions(&self) -> u64 {
        2 * self.half
    }

    fn is_legal(&self, position: u64) -> bool {
        if position >= self.positions() {
            return false;
        }
        let (x, o, o_to_move) = self.pieces(position);
        let (mover, other) = if o_to_move { (o, x) } else { (x, o) };
        self.can_be(mover, other, o_to_move)
    }

    fn for_each_move(&self, position: u64, mut f: impl FnMut(u8)) {
        let (x, o, o_to_move) = self.pieces(position);
        let (mover, other) = if o_to_move { (o, x) } else { (x, o) };
        if self.over(mover, other).is_some() {
            return;
        }
        for (i, p) in self.pushes[..self.moves].iter().enumerate() {
            if other >> p.src & 1 == 0 {
                f(i as u8);
            }
        }
    }

    fn play(&self, position: u64, mv: u8) -> u64 {
        let (x, o, o_to_move) = self.pieces(position);
        let p = &self.pushes[usize::from(mv)];
        let (mut x, mut o) = (p.apply(x), p.apply(o));
        if o_to_move {
            o |= 1 << p.dst;
        } else {
            x |= 1 << p.dst;
        }
        self.position(x, o, !o_to_move)
    }

    fn canonical(&self, position: u64) -> u64 {
        if !self.symmetric {
            return position;
        }
        let (x, o, o_to_move) = self.pieces(position);
        if o_to_move {
            self.least(o, x)
        } else {
            self.least(x, o)
        }
    }

    const PARENTS: bool = true;

    fn for_each_parent(&self, position: u64, f: impl FnMut(u64)) {
        // Each push of the player who moved last taken back: its cube must
        // stand where it went in; the cube it took was blank or already
        // its own. The parent must have that player to move and not be
        // over.
        let (x, o, o_to_move) = self.pieces(position);
        let (last, next) = if o_to_move { (x, o) } else { (o, x) };
        let mut found = [0u64; 2 * MAX_MOVES];
        let mut len = 0;
        for p in &self.pushes[..self.moves] {
            if last >> p.dst & 1 == 0 {
                continue;
            }
            let (before_last, before_next) = (p.undo(last), p.undo(next));
            for took_own in [false, true] {
                let mover = before_last | u64::from(took_own) << p.src;
                // With symmetry the parent is taken as its class's least
                // member, where the mover is X: the empty board is the
                // start there, never O to move.
                let parent_o_to_move = !self.symmetric && !o_to_move;
                if self.over(mover, before_next).is_some()
                    || !self.can_be(mover, before_next, parent_o_to_move)
                {
                    continue;
                }
                found[len] = if self.symmetric {
                    self.least(mover, before_next)
                } else if o_to_move {
                    self.position(mover, before_next, false)
                } else {
                    self.position(before_next, mover, true)
                };
                len += 1;
            }
        }
        each_distinct(&mut found[..len], f);
    }
}

impl TwoPlayer for Quixo {
    fn start(&self) -> u64 {
        0
    }

    fn primitive(&self, position: u64) -> Option<Value> {
        let (x, o, o_to_move) = self.pieces(position);
        if o_to_move {
            self.over(o, x)
        } else {
            self.over(x, o)
        }
    }
}

impl Text for Quixo {
    fn write_position(&self, position: u64, out: &mut dyn fmt::Write) -> fmt::Result {
        let (x, o, o_to_move) = self.pieces(position);
        turn_text::write(self.shape, x, o, o_to_move, out)
    }

    fn read_position(&self, text: &str) -> Result<u64, ParseError> {
        let (x, o, o_to_move) = turn_text::read(self.shape, text, |_, _, _| Ok(()))?;
        let (mover, other) = if o_to_move { (o, x) } else { (x, o) };
        if !self.can_be(mover, other, o_to_move) {
            return Err(ParseError {
                line: 1,
                column: 1,
                expected: "a position of the game",
                found: Found::Described(if mover | other == 0 {
                    "O to move on an empty board (X moves first)"
                } else {
                    "no cube of the player who moved last on the border (a push leaves one there)"
                }),
            });
        }
        Ok(self.position(x, o, o_to_move))
    }

    /// The rows, and the line of the player to move.
    fn position_lines(&self) -> Option<usize> {
        Some(self.shape.rows() + 1)
    }

    fn write_move(&self, _position: u64, mv: u8, out: &mut dyn fmt::Write) -> fmt::Result {
        let p = &self.pushes[usize::from(mv)];
        let (r, c) = self.shape.cell(usize::from(p.src));
        write_cell(out, r, c)?;
        out.write_char('-')?;
        let (r, c) = self.shape.cell(usize::from(p.dst));
        write_cell(out, r, c)
    }

    fn read_move(&self, position: u64, text: &str) -> Result<u8, ParseError> {
        if let Some(mv) = self.read_gamesman_move(position, text) {
            return Ok(mv);
        }
        read_written_move(
            self,
            position,
            text,
            "a move of the position ('a1-d1' or GamesmanOne's '1 R')",
        )
    }
}
