//! Teeko, as GamesmanOne's `src/games/teeko/teeko.c` plays it: on a 5×5
//! board each player has four pieces; Black (`X`) moves first. While
//! pieces are in hand the players drop them in turn on empty cells; once
//! all eight stand, a move slides one of the mover's pieces to an empty
//! cell next to it (across, down or diagonally). Four in a row (across,
//! down or along a diagonal) or four on the corners of a 2×2 square wins;
//! the *advanced* rule also wins with four on the corners of any larger
//! square (3×3, 4×4, 5×5). There is no pass. The game is over as soon as
//! a pattern stands, lost for the player to move. Positions repeat once
//! the pieces slide; the generic retrograde analysis finds the draws.
//!
//! GamesmanOne has only the 5×5 board with four pieces each. Other boards
//! (at least 9 cells, at most 64) are boardbase's own, for tests and
//! small tables; on some of them a player can be left with no slide, and
//! then loses (never on 5×5, where four pieces cannot wall in four).
//!
//! # Index
//!
//! Positions are ranked by phase, one *tier* per count of pieces placed
//! (0 to 7 while dropping, whose turn follows from it), then the sliding
//! phase twice, X to move and O to move. Inside a tier a position is the
//! colex rank of X's cells among all cells times the number of ways to
//! place O, plus the colex rank of O's cells among the cells X leaves
//! free. So every index is a placement of the right counts, and 5×5 has
//! 172,401,726 indices: 151,420,500 sliding (`2·C(25,4)·C(21,4)`) and
//! 20,981,226 dropping.
//!
//! Symmetry takes the board's turns and reflections (the class's least
//! index is canonical); X and O are never exchanged, since X has the
//! first drop. Parents are given exactly: a drop taken back (a piece of
//! the player who moved last lifted) or a slide taken back (one of its
//! pieces moved back to an empty cell next to it).
//!
//! # Text
//!
//! boardbase's: one line a row, top row first, `.` empty, `X` and `O`,
//! then a line naming the player to move, `X` or `O` (in the sliding
//! phase both are possible); lines may be joined by `/`. GamesmanOne's
//! position strings are read too: `1_` (X to move) or `2_` (O to move)
//! and the cells in reading order, `-` empty. A drop is written as its
//! cell (`c3`: the column's letter, the row's number from the top), a
//! slide as two cells joined by `-` (`c3-d4`); GamesmanOne's moves as
//! `gamesman query` prints them are read too, cells numbered from 0 in
//! reading order: `12` drops on the centre of 5×5, `12 18` slides from it
//! to `d4`.
//!
//! ```
//! use boardbase_tables::game::{Rules, Text, TwoPlayer, Value};
//! use boardbase_tables::shape::Shape;
//! use boardbase_tables::teeko::Teeko;
//!
//! let game = Teeko::new(Shape::new(5, 5).unwrap(), false).unwrap();
//! // X X X . .
//! // . O O . X
//! // . . . . .
//! // . . . . .
//! // O . . . O    every piece placed, X to move: e2-d1 slides the X
//! //              on e2 up and to the left, four in a row.
//! let p = game.read_position("XXX../.OO.X/...../...../O...O/X")?;
//! assert_eq!(game.read_position("1_XXX---OO-X----------O---O")?, p);
//! let mv = game.read_move(p, "e2-d1")?;
//! // GamesmanOne's move "9 3" is the same slide.
//! assert_eq!(game.read_move(p, "9 3")?, mv);
//! let won = game.play(p, mv);
//! let mut text = String::new();
//! game.write_position(won, &mut text).unwrap();
//! assert_eq!(text, "XXXX.\n.OO..\n.....\n.....\nO...O\nO");
//! // O is to move and X has four in a row: O has lost.
//! assert_eq!(game.primitive(won), Some(Value::Lose));
//!
//! // Dropping: three pieces each, X to move; X's fourth on d1 wins.
//! let q = game.read_position("XXX../.OO../....O/...../...../X")?;
//! let after = game.play(q, game.read_move(q, "d1")?);
//! assert_eq!(game.primitive(after), Some(Value::Lose));
//! # Ok::<(), boardbase_tables::text::ParseError>(())
//! ```

use core::fmt;

use crate::game::{Rules, Text, TwoPlayer, Value, each_distinct, read_written_move};
use crate::shape::Shape;
use crate::subsets::{binomial, rank, spread, squeeze, unrank};
use crate::text::{Found, ParseError, write_cell};
use crate::turn_text::{self, Piece};

/// The pieces each player has.
pub const PIECES: usize = 4;

/// The fewest cells of a board: the eight pieces and one empty cell to
/// slide to.
pub const MIN_CELLS: usize = 2 * PIECES + 1;

/// The most cells of a board: one bit a cell of a `u64`.
pub const MAX_CELLS: usize = 64;

/// Tiers: 0 to 7 pieces placed, then sliding with X to move, then with O.
const TIERS: usize = 2 * PIECES + 2;
/// The tier of the sliding phase with X to move.
const SLIDE_X: usize = 2 * PIECES;
/// The tier of the sliding phase with O to move.
const SLIDE_O: usize = 2 * PIECES + 1;

/// The most patterns of a board of 64 cells: the lines of four (four
/// directions from each cell), the 2×2 squares, and the advanced rule's
/// larger squares (91 on 8×8).
const MAX_PATTERNS: usize = 4 * 64 + 64 + 96;

/// A player's most slides: four pieces, eight directions each.
const MAX_SLIDES: usize = 8 * PIECES;

/// Teeko on one board.
#[derive(Clone, Debug)]
pub struct Teeko {
    shape: Shape,
    advanced: bool,
    symmetric: bool,
    /// Every winning pattern, as a cell mask of four cells.
    patterns: [u64; MAX_PATTERNS],
    pattern_count: usize,
    /// The cells next to each cell (eight directions).
    neighbours: [u64; MAX_CELLS],
    /// Board symmetries used (1 without symmetry).
    symmetries: usize,
    /// `images[s][i]`: the cell where symmetry `s` takes cell `i`.
    images: [[u8; MAX_CELLS]; 8],
    /// The first index of each tier, and past the last one.
    starts: [u64; TIERS + 1],
}

/// A position taken apart: the cells of X and of O, and its tier.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Parts {
    x: u64,
    o: u64,
    tier: usize,
}

impl Parts {
    /// Whether O is to move.
    fn o_to_move(self) -> bool {
        self.tier == SLIDE_O || (self.tier < SLIDE_X && self.tier % 2 == 1)
    }

    /// The pieces of the player to move and of the other.
    fn sides(self) -> (u64, u64) {
        if self.o_to_move() {
            (self.o, self.x)
        } else {
            (self.x, self.o)
        }
    }
}

impl Teeko {
    /// Teeko on `shape`, with the advanced rule's larger squares when
    /// `advanced`, classes taken under the board's symmetries; `None` for a
    /// board of fewer than [`MIN_CELLS`] or more than [`MAX_CELLS`] cells.
    pub fn new(shape: Shape, advanced: bool) -> Option<Teeko> {
        let cells = shape.cells();
        if !(MIN_CELLS..=MAX_CELLS).contains(&cells) {
            return None;
        }
        let (rows, cols) = (shape.rows(), shape.cols());
        let mut game = Teeko {
            shape,
            advanced,
            symmetric: true,
            patterns: [0; MAX_PATTERNS],
            pattern_count: 0,
            neighbours: [0; MAX_CELLS],
            symmetries: shape.symmetries(),
            images: [[0; MAX_CELLS]; 8],
            starts: [0; TIERS + 1],
        };
        let mut add = |mask: u64| {
            game.patterns[game.pattern_count] = mask;
            game.pattern_count += 1;
        };
        for r in 0..rows {
            for c in 0..cols {
                // Every line of four starting here, in the four directions.
                for (dr, dc) in [(0isize, 1isize), (1, 0), (1, 1), (1, -1)] {
                    let cells_of = |i: isize| (r as isize + dr * i, c as isize + dc * i);
                    let (er, ec) = cells_of(PIECES as isize - 1);
                    if (0..rows as isize).contains(&er) && (0..cols as isize).contains(&ec) {
                        add((0..PIECES as isize).fold(0, |m, i| {
                            let (a, b) = cells_of(i);
                            m | shape.bit(a as usize, b as usize)
                        }));
                    }
                }
            }
        }
        // The corners of the squares: 2×2 always, larger with the
        // advanced rule.
        let largest = if advanced { rows.min(cols) } else { 2 };
        for side in 2..=largest {
            for r in 0..=rows.saturating_sub(side) {
                for c in 0..=cols.saturating_sub(side) {
                    if r + side > rows || c + side > cols {
                        continue;
                    }
                    let (r2, c2) = (r + side - 1, c + side - 1);
                    add(shape.bit(r, c) | shape.bit(r, c2) | shape.bit(r2, c) | shape.bit(r2, c2));
                }
            }
        }
        for i in 0..cells {
            let (r, c) = shape.cell(i);
            let mut near = 0u64;
            for dr in -1isize..=1 {
                for dc in -1isize..=1 {
                    let (nr, nc) = (r as isize + dr, c as isize + dc);
                    if (dr, dc) != (0, 0)
                        && (0..rows as isize).contains(&nr)
                        && (0..cols as isize).contains(&nc)
                    {
                        near |= shape.bit(nr as usize, nc as usize);
                    }
                }
            }
            game.neighbours[i] = near;
        }
        for s in 0..game.symmetries {
            for i in 0..cells {
                game.images[s][i] = shape.symmetric_board(1 << i, s).trailing_zeros() as u8;
            }
        }
        for tier in 0..TIERS {
            let (nx, no) = counts(tier);
            let size = binomial(cells, nx) * binomial(cells - nx, no);
            game.starts[tier + 1] = game.starts[tier] + size;
        }
        Some(game)
    }

    /// The same game with every position its own class (no symmetry).
    pub fn without_symmetry(self) -> Teeko {
        Teeko {
            symmetric: false,
            symmetries: 1,
            ..self
        }
    }

    /// The board shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Whether the advanced rule's larger squares win too.
    pub fn advanced(&self) -> bool {
        self.advanced
    }

    /// The winning patterns, each a mask of four cells.
    pub fn patterns(&self) -> &[u64] {
        &self.patterns[..self.pattern_count]
    }

    /// Whether the cells of `mask` (one player's pieces) form a pattern.
    #[inline]
    pub fn has_pattern(&self, mask: u64) -> bool {
        // A player has four pieces at most, so a pattern is all of them.
        mask.count_ones() as usize == PIECES && self.patterns().contains(&mask)
    }

    /// The cells of X and of O in `position`, and whether O is to move.
    pub fn pieces(&self, position: u64) -> (u64, u64, bool) {
        let parts = self.parts(position);
        (parts.x, parts.o, parts.o_to_move())
    }

    /// The position of X's cells `x` and O's cells `o` (disjoint, at most
    /// four each, as many X as O or one more), O to move when `o_to_move`;
    /// `None` when no position is so (the counts do not fit, or the turn
    /// is not the one they give while dropping).
    pub fn position(&self, x: u64, o: u64, o_to_move: bool) -> Option<u64> {
        let tier = tier_of(x, o, o_to_move)?;
        if x & o != 0 || (x | o) & !self.shape.full() != 0 {
            return None;
        }
        Some(self.index(Parts { x, o, tier }))
    }

    /// The index of a position taken apart.
    #[inline]
    fn index(&self, p: Parts) -> u64 {
        let (nx, no) = counts(p.tier);
        let free = self.shape.cells() - nx;
        let o_ways = binomial(free, no);
        self.starts[p.tier] + rank(p.x) * o_ways + rank(squeeze(p.o, p.x))
    }

    /// `position` taken apart (it must be below [`Rules::positions`]).
    #[inline]
    fn parts(&self, position: u64) -> Parts {
        let mut tier = 0;
        while tier + 1 < TIERS && self.starts[tier + 1] <= position {
            tier += 1;
        }
        let (nx, no) = counts(tier);
        let cells = self.shape.cells();
        let o_ways = binomial(cells - nx, no);
        let within = position - self.starts[tier];
        let x = unrank(within / o_ways, nx, cells);
        let o = spread(unrank(within % o_ways, no, cells - nx), x);
        Parts { x, o, tier }
    }

    /// `mask`'s cells under symmetry `s`.
    #[inline]
    fn image(&self, mut mask: u64, s: usize) -> u64 {
        let mut out = 0;
        while mask != 0 {
            out |= 1 << self.images[s][mask.trailing_zeros() as usize];
            mask &= mask - 1;
        }
        out
    }

    /// The least index of the class of `p`.
    #[inline]
    fn least(&self, p: Parts) -> u64 {
        let mut best = self.index(p);
        for s in 1..self.symmetries {
            let image = Parts {
                x: self.image(p.x, s),
                o: self.image(p.o, s),
                tier: p.tier,
            };
            best = best.min(self.index(image));
        }
        best
    }

    /// Whether a pattern stands: the game is over.
    #[inline]
    fn over(&self, p: Parts) -> bool {
        p.tier + 1 >= 2 * PIECES && (self.has_pattern(p.x) || self.has_pattern(p.o))
    }

    /// Whether the player to move has a slide (in the sliding phase).
    #[inline]
    fn can_slide(&self, mover: u64, empty: u64) -> bool {
        let mut m = mover;
        while m != 0 {
            if self.neighbours[m.trailing_zeros() as usize] & empty != 0 {
                return true;
            }
            m &= m - 1;
        }
        false
    }

    /// The value of `p` for the player to move when the game is over.
    #[inline]
    fn value(&self, p: Parts) -> Option<Value> {
        if self.over(p) {
            return Some(Value::Lose);
        }
        if p.tier >= SLIDE_X {
            let (mover, _) = p.sides();
            let empty = self.shape.full() & !(p.x | p.o);
            if !self.can_slide(mover, empty) {
                return Some(Value::Lose);
            }
        }
        None
    }

    /// `position` as GamesmanOne writes it: `1_` (X to move) or `2_` (O
    /// to move), then every cell in reading order, `-` empty.
    pub fn write_gamesman(&self, position: u64, out: &mut dyn fmt::Write) -> fmt::Result {
        let (x, o, o_to_move) = self.pieces(position);
        turn_text::write_gamesman(self.shape, x, o, o_to_move, out)
    }

    /// A GamesmanOne move as `gamesman query` writes it: a drop's cell,
    /// or a slide's two cells, numbered from 0 in reading order.
    fn read_gamesman_move(&self, position: u64, text: &str) -> Option<u16> {
        let mut words = text.split_whitespace();
        let first = words.next()?.parse::<usize>().ok()?;
        let second = match words.next() {
            Some(w) => Some(w.parse::<usize>().ok()?),
            None => None,
        };
        if words.next().is_some() {
            return None;
        }
        let wanted = match second {
            None => first,
            Some(dst) => self.shape.cells() + first * self.shape.cells() + dst,
        };
        let mut found = None;
        self.for_each_move(position, |mv| {
            if usize::from(mv) == wanted {
                found = Some(mv);
            }
        });
        found
    }
}

/// The pieces of X and of O in `tier`.
const fn counts(tier: usize) -> (usize, usize) {
    if tier < SLIDE_X {
        (tier.div_ceil(2), tier / 2)
    } else {
        (PIECES, PIECES)
    }
}

/// The tier of X's cells `x` and O's cells `o` with O to move when
/// `o_to_move`, if the counts and the turn fit a position.
fn tier_of(x: u64, o: u64, o_to_move: bool) -> Option<usize> {
    let (nx, no) = (x.count_ones() as usize, o.count_ones() as usize);
    if nx == PIECES && no == PIECES {
        Some(if o_to_move { SLIDE_O } else { SLIDE_X })
    } else if nx <= PIECES && (nx == no || nx == no + 1) && o_to_move == (nx > no) {
        Some(nx + no)
    } else {
        None
    }
}

impl Rules for Teeko {
    type Move = u16;

    fn positions(&self) -> u64 {
        self.starts[TIERS]
    }

    /// Every index is a placement of the right counts; illegal are those
    /// where the player to move already has a pattern (the game ended
    /// before the last move). GamesmanOne counts them legal unless both
    /// players have one, and no game reaches them.
    fn is_legal(&self, position: u64) -> bool {
        if position >= self.positions() {
            return false;
        }
        let p = self.parts(position);
        let (mover, _) = p.sides();
        !self.has_pattern(mover)
    }

    fn for_each_move(&self, position: u64, mut f: impl FnMut(u16)) {
        let p = self.parts(position);
        if self.over(p) {
            return;
        }
        let cells = self.shape.cells();
        let empty = self.shape.full() & !(p.x | p.o);
        if p.tier < SLIDE_X {
            // Drops, cell by cell in reading order.
            let mut e = empty;
            while e != 0 {
                f(e.trailing_zeros() as u16);
                e &= e - 1;
            }
        } else {
            // Slides, piece by piece, each to its empty neighbours in
            // reading order: GamesmanOne's order.
            let (mut mover, _) = p.sides();
            while mover != 0 {
                let src = mover.trailing_zeros() as usize;
                let mut to = self.neighbours[src] & empty;
                while to != 0 {
                    let dst = to.trailing_zeros() as usize;
                    f((cells + src * cells + dst) as u16);
                    to &= to - 1;
                }
                mover &= mover - 1;
            }
        }
    }

    fn play(&self, position: u64, mv: u16) -> u64 {
        let p = self.parts(position);
        let cells = self.shape.cells();
        let mv = usize::from(mv);
        let o_to_move = p.o_to_move();
        let change = if mv < cells {
            1u64 << mv
        } else {
            let (src, dst) = ((mv - cells) / cells, (mv - cells) % cells);
            1u64 << src | 1u64 << dst
        };
        let (mut x, mut o) = (p.x, p.o);
        if o_to_move {
            o ^= change;
        } else {
            x ^= change;
        }
        // A drop goes to the next tier; O's fourth (from tier 7) to the
        // sliding phase with X to move; a slide to the other player's
        // sliding tier.
        let tier = if p.tier == SLIDE_O {
            SLIDE_X
        } else {
            p.tier + 1
        };
        self.index(Parts { x, o, tier })
    }

    fn canonical(&self, position: u64) -> u64 {
        if !self.symmetric || position >= self.positions() {
            return position;
        }
        self.least(self.parts(position))
    }

    const PARENTS: bool = true;

    fn for_each_parent(&self, position: u64, f: impl FnMut(u64)) {
        // Each move of the player who moved last taken back: a drop (one
        // of its pieces lifted) or a slide (one of its pieces moved back
        // to an empty neighbour). The parent has that player to move and
        // must not be over.
        let p = self.parts(position);
        let mut found = [0u64; PIECES * (1 + MAX_SLIDES)];
        let mut len = 0;
        let give = |parent: Parts, found: &mut [u64], len: &mut usize| {
            if self.value(parent).is_some() {
                return;
            }
            found[*len] = if self.symmetric {
                self.least(parent)
            } else {
                self.index(parent)
            };
            *len += 1;
        };
        let empty = self.shape.full() & !(p.x | p.o);
        // The player who moved last: O when X is to move.
        let last_is_o = !p.o_to_move();
        let last = if last_is_o { p.o } else { p.x };
        let with_last = |moved: u64, tier| {
            if last_is_o {
                Parts {
                    x: p.x,
                    o: moved,
                    tier,
                }
            } else {
                Parts {
                    x: moved,
                    o: p.o,
                    tier,
                }
            }
        };
        // Drops taken back: into every tier of the dropping phase but the
        // first, and into the sliding phase with X to move (O's fourth
        // drop).
        if (1..=SLIDE_X).contains(&p.tier) {
            let mut l = last;
            while l != 0 {
                let cell = l & l.wrapping_neg();
                give(with_last(last & !cell, p.tier - 1), &mut found, &mut len);
                l &= l - 1;
            }
        }
        // Slides taken back: the parent is in the sliding phase too, the
        // other player to move.
        if p.tier >= SLIDE_X {
            let tier = if p.tier == SLIDE_X { SLIDE_O } else { SLIDE_X };
            let mut l = last;
            while l != 0 {
                let dst = l.trailing_zeros() as usize;
                let mut from = self.neighbours[dst] & empty;
                while from != 0 {
                    let src = from & from.wrapping_neg();
                    give(
                        with_last(last & !(1 << dst) | src, tier),
                        &mut found,
                        &mut len,
                    );
                    from &= from - 1;
                }
                l &= l - 1;
            }
        }
        each_distinct(&mut found[..len], f);
    }
}

impl TwoPlayer for Teeko {
    fn start(&self) -> u64 {
        0
    }

    /// Lost for the player to move when a pattern stands (GamesmanOne's
    /// `TeekoPrimitive` returns `kLose` for any pattern), or, sliding,
    /// when the player to move has no slide (never on 5×5).
    fn primitive(&self, position: u64) -> Option<Value> {
        self.value(self.parts(position))
    }
}

impl Text for Teeko {
    fn write_position(&self, position: u64, out: &mut dyn fmt::Write) -> fmt::Result {
        let (x, o, o_to_move) = self.pieces(position);
        turn_text::write(self.shape, x, o, o_to_move, out)
    }

    fn read_position(&self, text: &str) -> Result<u64, ParseError> {
        // A fifth piece of a player is refused where it stands in the
        // board's rows (GamesmanOne's strings are counted below).
        let (x, o, o_to_move) = turn_text::read(self.shape, text, |piece, own, mut here| {
            if own.count_ones() as usize == PIECES {
                here.expected = "at most four pieces of each player";
                here.found = Found::Described(match piece {
                    Piece::X => "a fifth X (each player has four pieces)",
                    Piece::O => "a fifth O (each player has four pieces)",
                });
                return Err(here);
            }
            Ok(())
        })?;
        let refused = |found| ParseError {
            line: 1,
            column: 1,
            expected: "a position of the game",
            found: Found::Described(found),
        };
        let (nx, no) = (x.count_ones() as usize, o.count_ones() as usize);
        if nx > PIECES || no > PIECES {
            return Err(refused("more than four pieces of one player"));
        }
        if no > nx {
            return Err(refused("more O than X (X drops first)"));
        }
        if nx > no + 1 {
            return Err(refused("two X or more past the O (the players alternate)"));
        }
        let Some(tier) = tier_of(x, o, o_to_move) else {
            return Err(refused(if o_to_move {
                "O to move with as many X as O before every piece is placed (X drops next)"
            } else {
                "X to move with an X more than the O (O drops next)"
            }));
        };
        let p = Parts { x, o, tier };
        let (mover, _) = p.sides();
        if self.has_pattern(mover) {
            return Err(refused(
                "a pattern of the player to move (the game ended before the last move)",
            ));
        }
        Ok(self.index(p))
    }

    /// The rows, and the line of the player to move.
    fn position_lines(&self) -> Option<usize> {
        Some(self.shape.rows() + 1)
    }

    fn write_move(&self, _position: u64, mv: u16, out: &mut dyn fmt::Write) -> fmt::Result {
        let cells = self.shape.cells();
        let mv = usize::from(mv);
        if mv < cells {
            let (r, c) = self.shape.cell(mv);
            return write_cell(out, r, c);
        }
        let (src, dst) = ((mv - cells) / cells, (mv - cells) % cells);
        let (r, c) = self.shape.cell(src);
        write_cell(out, r, c)?;
        out.write_char('-')?;
        let (r, c) = self.shape.cell(dst);
        write_cell(out, r, c)
    }

    fn read_move(&self, position: u64, text: &str) -> Result<u16, ParseError> {
        if let Some(mv) = self.read_gamesman_move(position, text) {
            return Ok(mv);
        }
        read_written_move(
            self,
            position,
            text,
            "a move of the position ('c3', 'c3-d4', or GamesmanOne's '12', '12 18')",
        )
    }
}
