//! Flip and Lights Out on any board up to 64×64, solved at run time by
//! linear algebra over GF(2).
//!
//! Pressing a cell flips it and its orthogonal neighbours. Presses commute
//! and pressing twice undoes a press, so a press set is a vector over GF(2)
//! and its effect is linear: the boards one press set can clear form a
//! linear space, and every question here is a linear system.
//!
//! # Method
//!
//! *Light chasing*: once the presses of row 0 are chosen, every later row is
//! forced (press under each cell still lit in the row above), and what stays
//! lit in the last row is an affine function of row 0. So a board of `R`
//! rows and `C` columns reduces to a `C`×`C` system over GF(2). A
//! [`Solver`] does the Gaussian elimination of that system once per shape
//! (bit rows, one `u64` a row); [`Solver::cached`] keeps one per shape for
//! the life of the process, shared by every thread. A query then chases the
//! lights twice (`2·R` word operations), solves the system (`C` parity
//! checks), and has `2^k` press sets that reach the goal, `k` being the
//! shape's **nullity** (the dimension of the press sets that change
//! nothing). The fewest presses is the lightest of them, found by looking at
//! all `2^k`:
//!
//! - by Gray code (each step XORs one pattern of `R` words and counts the
//!   presses) when `2^k · R` is small;
//! - otherwise by a Walsh–Hadamard transform: with `v(cell)` the `k` bits
//!   saying which quiet patterns press the cell, the number of presses of
//!   every one of the `2^k` sets is `(cells − W(y)) / 2`, where `W` is the
//!   transform of the signed count of cells per `v`: `k · 2^k` additions on
//!   16-bit lanes, in blocks of at most 2^20 (2 MiB, one buffer a thread).
//!
//! # Exactness
//!
//! Every answer is exact: the fewest presses, the number of optimal press
//! sets and the tie rule below are computed over all `2^k` press sets.
//! [`Solver::solve`] does this whenever the nullity is at most
//! [`MAX_NULLITY`] (24), which covers every board up to 32×32 (the largest
//! nullity there is 20, at 30×30 and 32×32) and 4,082 of the 4,096 shapes up
//! to 64×64. The other 14 are 27×35 (nullity 27), 31×47 (31), 35×55 (31),
//! 39×39 (32), 47×47 (30), 47×63 (32), 61×61 (40), 62×64 (36), 64×64 (28) and
//! their transposes. For them `solve` returns
//! [`LightsError::NullityTooLarge`], never a press set it has not proven
//! minimal; [`Solver::solve_within`] searches them anyway when the caller
//! accepts the cost (`k · 2^k` additions: under a second for 64×64),
//! and [`Solver::any_solution`] gives a press set that reaches the goal at
//! once, without any claim of minimality.
//!
//! # Tie rule
//!
//! Among the optimal press sets of a colour, the one reported is the least in
//! lexicographic order of its row-major string (`'0'` < `'1'`, row 0 first,
//! column 0 first): the earliest cell where two optimal sets differ is left
//! unpressed. This is the rule of POJ 3279 ("Fliptile"), applied to every
//! goal. For [`Goal::Either`], the colour with fewer presses wins; when both
//! take equally many, the answer is the white one (as Flip Game's 4×4 tables
//! do), and [`Answer::optimal_sets`] counts both colours' sets.
//!
//! The rule costs nothing: the quiet patterns are kept in reduced echelon
//! form over the cells in reading order, so the order of the press sets is
//! the numeric order of their `k` coordinates, and the search keeps the first
//! optimum it meets.
//!
//! # Example
//!
//! ```
//! use boardbase::lights::{self, Colour, Goal, Grid};
//!
//! // POJ 3279's sample (1 = black):
//! //   b w w b
//! //   w b b w
//! //   w b b w
//! //   b w w b
//! let board: Grid = "1001/0110/0110/1001".parse()?;
//! let answer = lights::solve(&board, Goal::White)?.expect("solvable");
//! assert_eq!(answer.rounds, 4);
//! assert_eq!(answer.optimal_sets, 2);
//! // The lesser of the two in reading order (the other presses the
//! // middle two cells of rows 0 and 3):
//! //   . . . .
//! //   x . . x
//! //   x . . x
//! //   . . . .
//! assert_eq!(answer.presses.show('x', '.').to_string(), "....\nx..x\nx..x\n....");
//! assert_eq!(board.apply(&answer.presses).uniform(), Some(Colour::White));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use core::fmt;
use core::str::FromStr;
use std::cell::RefCell;
use std::io::{self, Read, Write};
use std::sync::OnceLock;

use boardbase_tables::shape::{MAX_SIDE, Shape};

use crate::error::{Found, ParseError};
pub use crate::flip::Colour;
use crate::grid::Alphabet;
use crate::input::{InputError, Scanner};

/// The largest nullity whose `2^k` press sets [`Solver::solve`] searches
/// (at most about 30 ms a colour on one core): every answer for a shape of
/// nullity at most this is exact (fewest presses, count, tie rule); above it,
/// [`LightsError::NullityTooLarge`]. [`Solver::solve_within`] takes another
/// limit.
pub const MAX_NULLITY: usize = 24;

/// The 14 shapes (rows, columns) up to 64×64 whose nullity is over
/// [`MAX_NULLITY`], in reading order: the ones [`Solver::solve`] refuses.
pub const PAST_MAX_NULLITY: [(usize, usize); 14] = [
    (27, 35),
    (31, 47),
    (35, 27),
    (35, 55),
    (39, 39),
    (47, 31),
    (47, 47),
    (47, 63),
    (55, 35),
    (61, 61),
    (62, 64),
    (63, 47),
    (64, 62),
    (64, 64),
];

/// The largest nullity whose move values ([`Solver::move_values`]) are
/// found by Gray code; larger ones by Walsh–Hadamard transforms.
const GRAY_MOVES_MAX_NULLITY: usize = 12;

/// Coordinates of one block of the indicator transforms of
/// [`Solver::move_values`]: 2^14, so that no value leaves `i16`.
const INDICATOR_BITS: usize = 14;

/// Coordinates searched by one Walsh–Hadamard block: 2^20 lanes of 16 bits
/// (2 MiB, which fits the L2 cache of most machines).
const BLOCK_BITS: usize = 20;

/// An R×C grid of cells, each set or clear: a board (set = black, or lit) or
/// a press set (set = pressed).
///
/// One `u64` a row, column `c` at bit `c` (the column order of the `u64`
/// layout of [`Shape`]), in a fixed buffer of 64 rows: a grid never
/// allocates, whatever its shape. Cells outside the shape are always clear.
///
/// `FromStr` reads rows of `b`/`w` or `1`/`0` (set/clear), separated by
/// newlines or `/`; the shape is what the text holds. `Display` writes rows
/// of `b`/`w` on separate lines (`{:#}`: separated by `/`); [`Grid::show`]
/// draws with any two characters.
///
/// ```
/// use boardbase::lights::Grid;
/// use boardbase::tables::shape::Shape;
///
/// //   b w b
/// //   w w b
/// let g: Grid = "bwb/wwb".parse()?;
/// assert_eq!(g.shape(), Shape::new(2, 3).unwrap());
/// assert_eq!(g.rows(), [0b101, 0b100]);
/// assert!(g.get(0, 2) && !g.get(1, 0));
/// assert_eq!(g.to_string(), "bwb\nwwb");
/// assert_eq!(format!("{g:#}"), "bwb/wwb");
/// assert_eq!(g.show('#', '.').to_string(), "#.#\n..#");
/// assert_eq!(g.to_u64(), Some(0b100_101)); // bit 3·row + col
/// # Ok::<(), boardbase::error::ParseError>(())
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Grid {
    shape: Shape,
    rows: [u64; MAX_SIDE],
}

/// Why a grid could not be built from rows or bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GridError {
    /// The number of rows given is not the shape's.
    #[error("expected {expected} rows, found {found}")]
    RowCount {
        /// The shape's rows.
        expected: usize,
        /// The rows given.
        found: usize,
    },
    /// A row has a bit set past the shape's last column.
    #[error("row {row} has a cell past column {cols}")]
    RowTooWide {
        /// The 0-based row.
        row: usize,
        /// The shape's columns.
        cols: usize,
    },
    /// The shape has more than 64 cells, or the bits go past its cells.
    #[error("a {shape} board does not hold the bits {bits:#x} (one u64 holds at most 64 cells)")]
    Bits {
        /// The shape.
        shape: Shape,
        /// The bits given.
        bits: u64,
    },
}

impl Grid {
    /// The grid of `shape` with every cell clear.
    pub const fn new(shape: Shape) -> Grid {
        Grid {
            shape,
            rows: [0; MAX_SIDE],
        }
    }

    /// The grid of `shape` with every cell set.
    pub fn filled(shape: Shape) -> Grid {
        let mut g = Grid::new(shape);
        g.rows[..shape.rows()].fill(shape.row_mask());
        g
    }

    /// The grid of `shape` with these rows (bit `c` = column `c`).
    pub fn from_rows(shape: Shape, rows: &[u64]) -> Result<Grid, GridError> {
        if rows.len() != shape.rows() {
            return Err(GridError::RowCount {
                expected: shape.rows(),
                found: rows.len(),
            });
        }
        let mut g = Grid::new(shape);
        for (row, &bits) in rows.iter().enumerate() {
            if bits & !shape.row_mask() != 0 {
                return Err(GridError::RowTooWide {
                    row,
                    cols: shape.cols(),
                });
            }
            g.rows[row] = bits;
        }
        Ok(g)
    }

    /// The grid of a shape of at most 64 cells from its `u64` layout: cell
    /// (`row`, `col`) at bit `cols · row + col`.
    ///
    /// ```
    /// use boardbase::lights::Grid;
    /// use boardbase::tables::shape::Shape;
    ///
    /// let s = Shape::new(4, 4).unwrap();
    /// let g = Grid::from_u64(s, 0x19B9)?; // bwwb/bbwb/bwwb/bwww
    /// assert_eq!(format!("{g:#}"), "bwwb/bbwb/bwwb/bwww");
    /// assert_eq!(g.to_u64(), Some(0x19B9));
    /// # Ok::<(), boardbase::lights::GridError>(())
    /// ```
    pub fn from_u64(shape: Shape, bits: u64) -> Result<Grid, GridError> {
        if !shape.fits_u64() || bits & !shape.full() != 0 {
            return Err(GridError::Bits { shape, bits });
        }
        let mut g = Grid::new(shape);
        for row in 0..shape.rows() {
            g.rows[row] = shape.row_bits(bits, row);
        }
        Ok(g)
    }

    /// The `u64` layout of this grid (cell (`row`, `col`) at bit
    /// `cols · row + col`), when it has at most 64 cells.
    pub fn to_u64(&self) -> Option<u64> {
        let s = self.shape;
        s.fits_u64().then(|| {
            self.rows()
                .iter()
                .enumerate()
                .fold(0, |acc, (r, &bits)| acc | bits << (s.cols() * r))
        })
    }

    /// The shape.
    #[inline]
    pub const fn shape(&self) -> Shape {
        self.shape
    }

    /// The rows, row 0 first, column `c` at bit `c`.
    #[inline]
    pub fn rows(&self) -> &[u64] {
        &self.rows[..self.shape.rows()]
    }

    /// Row `row` (column `c` at bit `c`).
    ///
    /// # Panics
    ///
    /// Panics if `row` is outside the shape.
    #[inline]
    pub fn row(&self, row: usize) -> u64 {
        self.rows()[row]
    }

    /// Whether cell (`row`, `col`) is set; `false` outside the shape.
    #[inline]
    pub fn get(&self, row: usize, col: usize) -> bool {
        row < self.shape.rows() && col < self.shape.cols() && self.rows[row] >> col & 1 == 1
    }

    /// Sets or clears cell (`row`, `col`).
    ///
    /// # Panics
    ///
    /// Panics if the cell is outside the shape.
    pub fn set(&mut self, row: usize, col: usize, value: bool) {
        assert!(
            row < self.shape.rows() && col < self.shape.cols(),
            "cell ({row}, {col}) is outside the {} grid",
            self.shape
        );
        let bit = 1u64 << col;
        if value {
            self.rows[row] |= bit;
        } else {
            self.rows[row] &= !bit;
        }
    }

    /// Number of set cells (for a press set: the rounds it takes).
    pub fn count(&self) -> usize {
        self.rows().iter().map(|r| r.count_ones() as usize).sum()
    }

    /// Whether no cell is set.
    pub fn is_empty(&self) -> bool {
        self.rows().iter().all(|&r| r == 0)
    }

    /// The set cells as 0-based (`row`, `col`), in reading order.
    pub fn cells(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.rows().iter().enumerate().flat_map(|(r, &bits)| {
            let mut rest = bits;
            core::iter::from_fn(move || {
                if rest == 0 {
                    return None;
                }
                let c = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                Some((r, c))
            })
        })
    }

    /// The board after pressing (`row`, `col`) once: that cell and its
    /// orthogonal neighbours flip.
    ///
    /// # Panics
    ///
    /// Panics if the cell is outside the shape.
    pub fn press(&self, row: usize, col: usize) -> Grid {
        let mut presses = Grid::new(self.shape);
        presses.set(row, col, true);
        self.apply(&presses)
    }

    /// The board after pressing every cell of `presses` once.
    ///
    /// # Panics
    ///
    /// Panics if `presses` has another shape.
    pub fn apply(&self, presses: &Grid) -> Grid {
        assert_eq!(self.shape, presses.shape, "grids of different shapes");
        let mut out = self.clone();
        let (rows, mask) = (self.shape.rows(), self.shape.row_mask());
        for r in 0..rows {
            let p = presses.rows[r];
            let mut flips = p ^ (p << 1) ^ (p >> 1);
            if r > 0 {
                flips ^= presses.rows[r - 1];
            }
            if r + 1 < rows {
                flips ^= presses.rows[r + 1];
            }
            out.rows[r] ^= flips & mask;
        }
        out
    }

    /// The colour every cell shows, if the board is uniform (set = black).
    pub fn uniform(&self) -> Option<Colour> {
        let mask = self.shape.row_mask();
        if self.is_empty() {
            Some(Colour::White)
        } else if self.rows().iter().all(|&r| r == mask) {
            Some(Colour::Black)
        } else {
            None
        }
    }

    /// Draws the grid with `set` for a set cell and `clear` for a clear one,
    /// rows on separate lines (`{:#}`: separated by `/`).
    ///
    /// ```
    /// use boardbase::lights::Grid;
    ///
    /// let presses: Grid = "0110/1001".parse()?;
    /// assert_eq!(presses.show('x', '.').to_string(), ".xx.\nx..x");
    /// # Ok::<(), boardbase::error::ParseError>(())
    /// ```
    pub fn show(&self, set: char, clear: char) -> Show<'_> {
        Show {
            grid: self,
            set,
            clear,
        }
    }
}

impl fmt::Debug for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Grid({}, \"{self:#}\")", self.shape)
    }
}

/// A grid drawn with two characters: see [`Grid::show`].
pub struct Show<'a> {
    grid: &'a Grid,
    set: char,
    clear: char,
}

impl fmt::Display for Show<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let separator = if f.alternate() { '/' } else { '\n' };
        for (r, &bits) in self.grid.rows().iter().enumerate() {
            if r > 0 {
                fmt::Write::write_char(f, separator)?;
            }
            for c in 0..self.grid.shape.cols() {
                let on = bits >> c & 1 == 1;
                fmt::Write::write_char(f, if on { self.set } else { self.clear })?;
            }
        }
        Ok(())
    }
}

impl fmt::Display for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let shown = self.show('b', 'w');
        if f.alternate() {
            write!(f, "{shown:#}")
        } else {
            write!(f, "{shown}")
        }
    }
}

impl FromStr for Grid {
    type Err = ParseError;

    /// Rows of `b`/`1` (set) and `w`/`0` (clear), separated by newlines (LF
    /// or CRLF) or `/`, every row as long as the first, at most 64 rows of 64
    /// cells; blanks around rows and blank lines around the grid are
    /// accepted.
    fn from_str(text: &str) -> Result<Grid, ParseError> {
        let bytes = text.as_bytes();
        let (mut pos, mut line, mut line_start) = (0usize, 1u64, 0usize);
        let error = |pos: usize, line: u64, line_start: usize, expected: &'static str| {
            let rest = &bytes[pos..];
            ParseError {
                line,
                column: (pos - line_start + 1) as u64,
                expected,
                found: match rest.first() {
                    None => Found::EndOfInput,
                    Some(b'\n') => Found::EndOfLine,
                    Some(_) => Found::first_of(rest),
                },
            }
        };
        let blank = |b: u8| matches!(b, b' ' | b'\t' | b'\r');
        // Blank lines before the grid.
        loop {
            while pos < bytes.len() && blank(bytes[pos]) {
                pos += 1;
            }
            if bytes.get(pos) != Some(&b'\n') {
                break;
            }
            pos += 1;
            line += 1;
            line_start = pos;
        }
        let mut rows = [0u64; MAX_SIDE];
        let (mut n_rows, mut cols) = (0usize, 0usize);
        loop {
            while pos < bytes.len() && blank(bytes[pos]) {
                pos += 1;
            }
            if n_rows == MAX_SIDE {
                return Err(error(pos, line, line_start, "at most 64 rows"));
            }
            let mut bits = 0u64;
            let mut n = 0usize;
            while let Some(&b) = bytes.get(pos) {
                let bit = match b {
                    b'b' | b'1' => 1,
                    b'w' | b'0' => 0,
                    _ => break,
                };
                if n == MAX_SIDE {
                    return Err(error(pos, line, line_start, "at most 64 cells a row"));
                }
                bits |= bit << n;
                n += 1;
                pos += 1;
            }
            if n == 0 {
                return Err(error(pos, line, line_start, "a cell 'b', 'w', '1' or '0'"));
            }
            if n_rows == 0 {
                cols = n;
            } else if n != cols {
                let expected = if n < cols {
                    "another cell (every row as long as the first)"
                } else {
                    "the end of the row (every row as long as the first)"
                };
                let at = if n < cols { pos } else { pos - (n - cols) };
                return Err(error(at, line, line_start, expected));
            }
            rows[n_rows] = bits;
            n_rows += 1;
            while pos < bytes.len() && blank(bytes[pos]) {
                pos += 1;
            }
            match bytes.get(pos) {
                Some(b'/') => pos += 1,
                Some(b'\n') => {
                    pos += 1;
                    line += 1;
                    line_start = pos;
                    // The grid ends at a blank line or the end of the text.
                    let mut p = pos;
                    while p < bytes.len() && blank(bytes[p]) {
                        p += 1;
                    }
                    if matches!(bytes.get(p), None | Some(b'\n')) {
                        break;
                    }
                }
                None => break,
                Some(_) => {
                    return Err(error(
                        pos,
                        line,
                        line_start,
                        "a cell, '/' or the end of the row",
                    ));
                }
            }
        }
        // Only blank lines may follow.
        loop {
            while pos < bytes.len() && blank(bytes[pos]) {
                pos += 1;
            }
            match bytes.get(pos) {
                None => break,
                Some(b'\n') => {
                    pos += 1;
                    line += 1;
                    line_start = pos;
                }
                Some(_) => return Err(error(pos, line, line_start, "the end of the grid")),
            }
        }
        let shape = Shape::new(n_rows, cols).expect("1 to 64 rows of 1 to 64 cells");
        let mut g = Grid::new(shape);
        g.rows[..n_rows].copy_from_slice(&rows[..n_rows]);
        Ok(g)
    }
}

/// What a board should become.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Goal {
    /// Every cell clear (white, or every light off): POJ 3279, POJ 1222.
    White,
    /// Every cell set (black).
    Black,
    /// Either uniform board, whichever takes fewer presses (white on a tie):
    /// POJ 1753's goal.
    Either,
}

impl From<Colour> for Goal {
    fn from(c: Colour) -> Goal {
        match c {
            Colour::White => Goal::White,
            Colour::Black => Goal::Black,
        }
    }
}

/// An optimal way to a uniform board.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Answer {
    /// The colour reached.
    pub colour: Colour,
    /// Fewest presses (rounds): `presses.count()`.
    pub rounds: usize,
    /// The optimal press set of the tie rule: the least in reading order
    /// (see the [module documentation](self)).
    pub presses: Grid,
    /// How many distinct press sets reach the goal in `rounds` presses
    /// (both colours' when [`Goal::Either`] ties): exact, at least 1.
    pub optimal_sets: u64,
}

impl Answer {
    /// Whether the optimal press set is the only one.
    pub fn is_unique(&self) -> bool {
        self.optimal_sets == 1
    }
}

/// Both colours' answers for one board: see [`Solver::routes`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Routes {
    /// The optimal way to all white, `None` when it cannot be reached.
    pub white: Option<Answer>,
    /// The optimal way to all black, `None` when it cannot be reached.
    pub black: Option<Answer>,
}

impl Routes {
    /// The answer for [`Goal::Either`]: the colour with fewer presses, white
    /// on a tie, counting both colours' optimal sets on a tie.
    pub fn best(&self) -> Option<Answer> {
        match (&self.white, &self.black) {
            (None, None) => None,
            (Some(w), None) => Some(w.clone()),
            (None, Some(b)) => Some(b.clone()),
            (Some(w), Some(b)) if b.rounds < w.rounds => Some(b.clone()),
            (Some(w), Some(b)) if w.rounds < b.rounds => Some(w.clone()),
            (Some(w), Some(b)) => Some(Answer {
                optimal_sets: w.optimal_sets + b.optimal_sets,
                ..w.clone()
            }),
        }
    }
}

/// What pressing each cell of a board leads to, towards one colour: see
/// [`Solver::move_values`].
///
/// With `m` = [`answer.rounds`](Answer::rounds) the fewest presses from the
/// board, the fewest from the board after pressing a cell is `m − 1` when
/// the cell is in [`in_optimal`](Self::in_optimal), else `m` when it is in
/// [`in_next`](Self::in_next), else `m + 1`
/// ([`rounds_after`](Self::rounds_after)).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ColourMoves {
    /// The board's own answer for this colour, as [`Solver::route`] gives
    /// it.
    pub answer: Answer,
    /// The cells pressed by at least one optimal press set (of
    /// `answer.rounds` presses).
    pub in_optimal: Grid,
    /// The cells pressed by at least one press set of `answer.rounds + 1`
    /// presses that reaches the colour.
    pub in_next: Grid,
}

impl ColourMoves {
    /// The fewest presses to this colour from the board after pressing
    /// (`row`, `col`).
    pub fn rounds_after(&self, row: usize, col: usize) -> usize {
        let m = self.answer.rounds;
        if self.in_optimal.get(row, col) {
            m - 1
        } else if self.in_next.get(row, col) {
            m
        } else {
            m + 1
        }
    }
}

/// A board's answers for both colours and what pressing each cell leads
/// to: see [`Solver::move_values`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MoveValues {
    /// Towards all white; `None` when white cannot be reached (from the
    /// board, or from any board one press away).
    pub white: Option<ColourMoves>,
    /// Towards all black; `None` when black cannot be reached.
    pub black: Option<ColourMoves>,
}

impl MoveValues {
    /// The board's own answers, as [`Solver::routes`] gives them.
    pub fn routes(&self) -> Routes {
        Routes {
            white: self.white.as_ref().map(|m| m.answer.clone()),
            black: self.black.as_ref().map(|m| m.answer.clone()),
        }
    }

    /// The fewest presses to either colour (POJ 1753's goal) from the
    /// board after pressing (`row`, `col`); `None` when neither colour can
    /// be reached.
    pub fn rounds_after(&self, row: usize, col: usize) -> Option<usize> {
        let white = self.white.as_ref().map(|m| m.rounds_after(row, col));
        let black = self.black.as_ref().map(|m| m.rounds_after(row, col));
        match (white, black) {
            (Some(w), Some(b)) => Some(w.min(b)),
            (w, b) => w.or(b),
        }
    }
}

/// Why a board could not be answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LightsError {
    /// The shape's nullity is above the limit of the search (by default
    /// [`MAX_NULLITY`]): its `2^nullity` press sets per board were not
    /// searched, so no answer is claimed minimal. [`Solver::any_solution`]
    /// still gives a press set.
    #[error(
        "a {shape} board has nullity {nullity} (2^{nullity} press sets reach each colour); the fewest presses are only searched up to nullity {max}"
    )]
    NullityTooLarge {
        /// The board's shape.
        shape: Shape,
        /// Its nullity.
        nullity: usize,
        /// The limit of the search.
        max: usize,
    },
    /// The board's shape is not the solver's.
    #[error("a {found} board given to the solver of {expected} boards")]
    ShapeMismatch {
        /// The solver's shape.
        expected: Shape,
        /// The board's.
        found: Shape,
    },
}

/// Everything about one shape that does not depend on the board: the
/// eliminated light-chasing system and the quiet press patterns.
///
/// Build one with [`Solver::new`] (microseconds to a millisecond, depending
/// on the shape), or borrow the process-wide one with [`Solver::cached`].
/// A solver is immutable, so one can serve any number of threads.
///
/// ```
/// use boardbase::lights::{Goal, Grid, Solver};
/// use boardbase::tables::shape::Shape;
///
/// let solver = Solver::cached(Shape::new(5, 5).unwrap());
/// assert_eq!((solver.nullity(), solver.rank()), (2, 3));
/// // A 5×5 Lights Out with every light on: 15 presses, in 4 ways.
/// let board: Grid = "11111/11111/11111/11111/11111".parse()?;
/// let a = solver.solve(&board, Goal::White)?.expect("solvable");
/// assert_eq!((a.rounds, a.optimal_sets), (15, 4));
/// // The least of the four in reading order:
/// assert_eq!(
///     a.presses.show('x', '.').to_string(),
///     "...xx\nxx.xx\nxxx..\n.xxx.\nx.xx."
/// );
/// assert!(board.apply(&a.presses).is_empty());
/// // One lit corner cannot be put out on 5×5.
/// let corner: Grid = "10000/00000/00000/00000/00000".parse()?;
/// assert_eq!(solver.solve(&corner, Goal::White)?, None);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Solver {
    shape: Shape,
    /// Rank of the `C`×`C` system.
    rank: usize,
    /// Rows of the elimination: for `i < rank`, the pivot bit `pivots[i]`
    /// of the first row is the parity of `elim[i] & residual`; for
    /// `rank <= i < C`, that parity must be 0 for the board to be solvable.
    elim: [u64; MAX_SIDE],
    /// Pivot column of each of the first `rank` rows of `elim`.
    pivots: [u8; MAX_SIDE],
    /// Row 0 of each quiet pattern, in reduced echelon form with respect to
    /// the columns (pivot = lowest bit, set in no other pattern), ordered by
    /// pivot: pattern `i` is coordinate bit `k - 1 - i` of a press set.
    quiet_first: [u64; MAX_SIDE],
    /// The quiet patterns, `R` rows each, pattern `i` at `i * R`.
    quiet: Vec<u64>,
    /// For each cell (row-major), the coordinate bits of the patterns that
    /// press it; empty unless the Walsh search can be used.
    cell_coords: Vec<u64>,
}

/// Which exhaustive search a query uses (internal; public for the tests).
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Search {
    /// The cheaper of the two for the shape.
    Auto,
    /// Gray code over the `2^k` press sets.
    Gray,
    /// Walsh–Hadamard transform in blocks of 2^`block_bits` (at most
    /// [`BLOCK_BITS`]) coordinates.
    Walsh {
        /// Coordinates transformed together.
        block_bits: usize,
    },
}

/// The outcome of the search over one colour's `2^k` press sets.
struct Best {
    rounds: usize,
    /// Coordinates of the first optimal set (the tie rule's).
    coords: u64,
    count: u64,
}

impl Solver {
    /// Eliminates the light-chasing system of `shape` and finds its quiet
    /// patterns.
    pub fn new(shape: Shape) -> Solver {
        let (rows, cols, mask) = (shape.rows(), shape.cols(), shape.row_mask());
        let zeros = [0u64; MAX_SIDE];
        // Column j of the system: what stays lit in the last row when only
        // (0, j) is pressed in row 0 and the lights are chased.
        let mut m_rows = [0u64; MAX_SIDE];
        for j in 0..cols {
            let residual = chase_residual(&zeros[..rows], mask, 1 << j);
            for (i, row) in m_rows.iter_mut().enumerate().take(cols) {
                *row |= (residual >> i & 1) << j;
            }
        }
        // Gauss–Jordan on [M | I]: m_rows becomes the reduced echelon form,
        // elim the combination of the original rows each row is.
        let mut elim = [0u64; MAX_SIDE];
        for (i, e) in elim.iter_mut().enumerate().take(cols) {
            *e = 1 << i;
        }
        let mut pivots = [0u8; MAX_SIDE];
        let mut rank = 0;
        for col in 0..cols {
            let Some(p) = (rank..cols).find(|&i| m_rows[i] >> col & 1 == 1) else {
                continue;
            };
            m_rows.swap(p, rank);
            elim.swap(p, rank);
            for i in 0..cols {
                if i != rank && m_rows[i] >> col & 1 == 1 {
                    m_rows[i] ^= m_rows[rank];
                    elim[i] ^= elim[rank];
                }
            }
            pivots[rank] = col as u8;
            rank += 1;
        }
        // The null space of M: one vector per free column.
        let pivot_mask = pivots[..rank].iter().fold(0u64, |m, &p| m | 1 << p);
        let mut basis: Vec<u64> = (0..cols)
            .filter(|&j| pivot_mask >> j & 1 == 0)
            .map(|j| {
                let mut v = 1u64 << j;
                for i in 0..rank {
                    if m_rows[i] >> j & 1 == 1 {
                        v |= 1 << pivots[i];
                    }
                }
                v
            })
            .collect();
        // Reduced echelon form with the lowest bit as pivot, by pivot.
        let k = basis.len();
        let mut quiet_first = [0u64; MAX_SIDE];
        let mut done = 0;
        for bit in 0..cols {
            let Some(p) = (done..k).find(|&i| basis[i] >> bit & 1 == 1) else {
                continue;
            };
            basis.swap(p, done);
            for i in 0..k {
                if i != done && basis[i] >> bit & 1 == 1 {
                    basis[i] ^= basis[done];
                }
            }
            done += 1;
        }
        debug_assert_eq!(done, k);
        quiet_first[..k].copy_from_slice(&basis);
        let mut quiet = vec![0u64; k * rows];
        for (i, pattern) in quiet.chunks_exact_mut(rows.max(1)).enumerate().take(k) {
            let residual = chase(&zeros[..rows], mask, quiet_first[i], pattern);
            debug_assert_eq!(residual, 0, "a quiet pattern leaves nothing lit");
        }
        let mut cell_coords = Vec::new();
        if k > 0 {
            cell_coords = vec![0u64; shape.cells()];
            for (i, pattern) in quiet.chunks_exact(rows).enumerate() {
                let bit = 1u64 << (k - 1 - i);
                for (r, &bits) in pattern.iter().enumerate() {
                    let mut rest = bits;
                    while rest != 0 {
                        let c = rest.trailing_zeros() as usize;
                        rest &= rest - 1;
                        cell_coords[r * cols + c] |= bit;
                    }
                }
            }
        }
        Solver {
            shape,
            rank,
            elim,
            pivots,
            quiet_first,
            quiet,
            cell_coords,
        }
    }

    /// The process-wide solver of `shape`, built on first use and kept for
    /// the life of the process (about 1 KiB a shape, plus 8 bytes a cell
    /// and 8 bytes a row per quiet pattern when the nullity is not 0: 48 KiB
    /// for 64×64).
    /// Thread-safe: concurrent first uses build it once.
    pub fn cached(shape: Shape) -> &'static Solver {
        static CACHE: [OnceLock<Box<Solver>>; MAX_SIDE * MAX_SIDE] =
            [const { OnceLock::new() }; MAX_SIDE * MAX_SIDE];
        let slot = &CACHE[(shape.rows() - 1) * MAX_SIDE + shape.cols() - 1];
        slot.get_or_init(|| Box::new(Solver::new(shape)))
    }

    /// The shape this solver answers.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The nullity `k`: the dimension of the press sets that change nothing.
    /// A board that can reach a colour reaches it by exactly `2^k` press
    /// sets, and `2^(cells − k)` boards of the shape can reach white.
    pub fn nullity(&self) -> usize {
        self.shape.cols() - self.rank
    }

    /// The rank of the `C`×`C` light-chasing system (`C − nullity`).
    pub fn rank(&self) -> usize {
        self.rank
    }

    /// Whether [`solve`](Self::solve) answers this shape: nullity at most
    /// [`MAX_NULLITY`]. When `false`, it returns
    /// [`LightsError::NullityTooLarge`]; [`solve_within`](Self::solve_within)
    /// with a higher limit still answers exactly, at the cost of searching
    /// `2^nullity` press sets.
    pub fn is_exact(&self) -> bool {
        self.nullity() <= MAX_NULLITY
    }

    /// A basis of the quiet patterns: the `nullity` press sets, independent
    /// over GF(2), that change nothing, in reduced echelon form in reading
    /// order (each has a first pressed cell in row 0 that no other presses).
    ///
    /// ```
    /// use boardbase::lights::{Grid, Solver};
    /// use boardbase::tables::shape::Shape;
    ///
    /// let solver = Solver::cached(Shape::new(4, 4).unwrap());
    /// let quiet: Vec<_> = solver.quiet_patterns().collect();
    /// assert_eq!(quiet.len(), 4);
    /// // The first: pressing these 8 cells of a 4×4 board changes nothing.
    /// //   x . . .
    /// //   x x . .
    /// //   x . x .
    /// //   . x x x
    /// assert_eq!(quiet[0].show('x', '.').to_string(), "x...\nxx..\nx.x.\n.xxx");
    /// let board: Grid = "bwwb/bbwb/bwwb/bwww".parse()?;
    /// for p in &quiet {
    ///     assert_eq!(board.apply(p), board);
    /// }
    /// # Ok::<(), boardbase::error::ParseError>(())
    /// ```
    pub fn quiet_patterns(&self) -> impl Iterator<Item = Grid> + '_ {
        let rows = self.shape.rows();
        (0..self.nullity()).map(move |i| {
            let mut g = Grid::new(self.shape);
            g.rows[..rows].copy_from_slice(&self.quiet[i * rows..(i + 1) * rows]);
            g
        })
    }

    /// The fewest presses from `board` to `goal`, with the tie rule's press
    /// set and the number of optimal sets; `Ok(None)` when the goal cannot be
    /// reached. Shapes of nullity over [`MAX_NULLITY`] are refused.
    pub fn solve(&self, board: &Grid, goal: Goal) -> Result<Option<Answer>, LightsError> {
        self.solve_within(board, goal, MAX_NULLITY)
    }

    /// [`solve`](Self::solve) for shapes of nullity up to `max_nullity`:
    /// the search looks at `2^nullity` press sets a colour, about
    /// `nullity · 2^nullity` 16-bit additions, in blocks of 2^20 shared
    /// among rayon's threads. Measured on 2 shared cores (see the README):
    /// nullity 20 (32×32) 2.7 ms, 24 (62×62) 51 ms, 28 (64×64) 0.77 s; so
    /// 32 (39×39) about 15 s and 40 (61×61) about an hour.
    pub fn solve_within(
        &self,
        board: &Grid,
        goal: Goal,
        max_nullity: usize,
    ) -> Result<Option<Answer>, LightsError> {
        match goal {
            Goal::White => self.route_within(board, Colour::White, max_nullity),
            Goal::Black => self.route_within(board, Colour::Black, max_nullity),
            Goal::Either => Ok(self.routes_within(board, max_nullity)?.best()),
        }
    }

    /// Both colours' answers for `board` (nullity up to [`MAX_NULLITY`]).
    pub fn routes(&self, board: &Grid) -> Result<Routes, LightsError> {
        self.routes_within(board, MAX_NULLITY)
    }

    /// [`routes`](Self::routes) for nullity up to `max_nullity` (see
    /// [`solve_within`](Self::solve_within)).
    pub fn routes_within(&self, board: &Grid, max_nullity: usize) -> Result<Routes, LightsError> {
        Ok(Routes {
            white: self.route_within(board, Colour::White, max_nullity)?,
            black: self.route_within(board, Colour::Black, max_nullity)?,
        })
    }

    /// The fewest presses from `board` to all `colour`; `Ok(None)` when it
    /// cannot be reached (nullity up to [`MAX_NULLITY`]).
    pub fn route(&self, board: &Grid, colour: Colour) -> Result<Option<Answer>, LightsError> {
        self.route_within(board, colour, MAX_NULLITY)
    }

    /// [`route`](Self::route) for nullity up to `max_nullity` (see
    /// [`solve_within`](Self::solve_within)).
    pub fn route_within(
        &self,
        board: &Grid,
        colour: Colour,
        max_nullity: usize,
    ) -> Result<Option<Answer>, LightsError> {
        self.route_by(board, colour, max_nullity, Search::Auto)
    }

    /// [`route_within`](Self::route_within) with a chosen search (internal;
    /// for the tests).
    #[doc(hidden)]
    pub fn route_by(
        &self,
        board: &Grid,
        colour: Colour,
        max_nullity: usize,
        search: Search,
    ) -> Result<Option<Answer>, LightsError> {
        let Some(x0) = self.particular_within(board, colour, max_nullity)? else {
            return Ok(None);
        };
        let best = self.search(&x0, search);
        Ok(Some(self.answer(colour, x0, &best)))
    }

    /// [`LightsError::NullityTooLarge`] when the nullity is over `max_nullity`.
    fn check_nullity(&self, max_nullity: usize) -> Result<(), LightsError> {
        let k = self.nullity();
        if k > max_nullity {
            return Err(LightsError::NullityTooLarge {
                shape: self.shape,
                nullity: k,
                max: max_nullity,
            });
        }
        Ok(())
    }

    /// The search over the `2^k` press sets `x0 + quiet`, by `search`.
    fn search(&self, x0: &Grid, search: Search) -> Best {
        match search {
            Search::Gray => self.search_gray(x0),
            Search::Walsh { block_bits } if self.nullity() > 0 => {
                self.search_walsh(x0, block_bits.clamp(1, BLOCK_BITS))
            }
            _ if self.gray_is_cheaper() => self.search_gray(x0),
            _ => self.search_walsh(x0, BLOCK_BITS),
        }
    }

    /// The press set at coordinates `coords` of the search: `x0` plus the
    /// quiet patterns the coordinates pick.
    fn press_set(&self, x0: Grid, coords: u64) -> Grid {
        let (rows, k) = (self.shape.rows(), self.nullity());
        let mut presses = x0;
        for i in 0..k {
            if coords >> (k - 1 - i) & 1 == 1 {
                for (p, q) in presses.rows[..rows]
                    .iter_mut()
                    .zip(&self.quiet[i * rows..(i + 1) * rows])
                {
                    *p ^= q;
                }
            }
        }
        presses
    }

    /// The answer of a finished search.
    fn answer(&self, colour: Colour, x0: Grid, best: &Best) -> Answer {
        let presses = self.press_set(x0, best.coords);
        debug_assert_eq!(presses.count(), best.rounds);
        Answer {
            colour,
            rounds: best.rounds,
            presses,
            optimal_sets: best.count,
        }
    }

    /// Both colours' answers for `board` and, for every cell, the fewest
    /// presses from the board after pressing it, without solving those
    /// `R·C` boards one by one (nullity up to [`MAX_NULLITY`]).
    ///
    /// # Method
    ///
    /// Let `A` be the press matrix over GF(2), `x` a press set that takes
    /// the board to the colour and `N` the quiet press sets (the null space
    /// of `A`): the press sets that do it are the coset `x + N`. Pressing
    /// cell `i` adds column `i` of `A` to the board, so the press sets of
    /// the new board are `x + e_i + N`: each `v` of the coset gives one,
    /// `v + e_i`, with one press fewer when `v` presses cell `i` and one
    /// more when it does not. With `m` the fewest presses in the coset,
    /// the fewest after pressing `i` is therefore
    ///
    /// - `m − 1` when some press set of `m` presses presses `i`;
    /// - else `m` when some press set of `m + 1` presses presses `i` (one
    ///   of `m` presses without `i` gives `m + 1`, and sets of `m + 2` or
    ///   more give at least `m + 1`);
    /// - else `m + 1`.
    ///
    /// So one search of the `2^k` press sets that ORs together those of
    /// `m` presses ([`ColourMoves::in_optimal`]) and those of `m + 1`
    /// ([`ColourMoves::in_next`]) gives every press's value, per colour; the
    /// value for either colour is the lesser of the two. A press never
    /// changes which colours can be reached (it adds a column of `A`, which
    /// the colour's press sets absorb).
    ///
    /// Small nullities (at most 12) walk the press sets by Gray code, as
    /// the search of [`solve`](Self::solve) does. Larger ones use the
    /// Walsh–Hadamard transform twice over: once for the sizes of all
    /// `2^k` press sets (as `solve`), then, in blocks of 2^14 coordinates,
    /// on the indicator `g` of the sets of `m` presses (and of `m + 1`):
    /// the number of those that press cell `i` is
    /// `(|g| − s_i·G(v_i)) / 2`, where `G` is the transform of `g`, `v_i`
    /// the coordinates of the quiet patterns that press `i`, and `s_i = −1`
    /// when `x` presses `i` (else 1). Blocks holding no such set are
    /// skipped; the cost is at most three times [`solve`](Self::solve)'s.
    ///
    /// ```
    /// use boardbase::lights::{Colour, Grid, Solver};
    /// use boardbase::tables::shape::Shape;
    ///
    /// // 3×3, nullity 0: every board has a single press set per colour.
    /// //   b b w        x . .
    /// //   b w w        . . .    one press, at (0, 0), makes it white
    /// //   w w w        . . .
    /// let board: Grid = "bbw/bww/www".parse()?;
    /// let solver = Solver::cached(board.shape());
    /// let values = solver.move_values(&board)?;
    /// let white = values.white.as_ref().expect("white can be reached");
    /// assert_eq!(white.answer.rounds, 1);
    /// assert_eq!(white.rounds_after(0, 0), 0); // the press that solves it
    /// assert_eq!(white.rounds_after(2, 2), 2); // any other press: one more to undo
    /// // The same as solving the board after each press:
    /// for (r, c) in (0..3).flat_map(|r| (0..3).map(move |c| (r, c))) {
    ///     let after = board.press(r, c);
    ///     let solved = solver.route(&after, Colour::White)?.map(|a| a.rounds);
    ///     assert_eq!(solved, Some(white.rounds_after(r, c)));
    ///     let either = solver.routes(&after)?.best().map(|a| a.rounds);
    ///     assert_eq!(either, values.rounds_after(r, c));
    /// }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn move_values(&self, board: &Grid) -> Result<MoveValues, LightsError> {
        self.move_values_within(board, MAX_NULLITY)
    }

    /// [`move_values`](Self::move_values) for nullity up to `max_nullity`
    /// (see [`solve_within`](Self::solve_within)).
    pub fn move_values_within(
        &self,
        board: &Grid,
        max_nullity: usize,
    ) -> Result<MoveValues, LightsError> {
        Ok(MoveValues {
            white: self.colour_moves_by(board, Colour::White, max_nullity, Search::Auto)?,
            black: self.colour_moves_by(board, Colour::Black, max_nullity, Search::Auto)?,
        })
    }

    /// One colour's part of [`move_values_within`](Self::move_values_within)
    /// with a chosen search (internal; for the tests).
    #[doc(hidden)]
    pub fn colour_moves_by(
        &self,
        board: &Grid,
        colour: Colour,
        max_nullity: usize,
        search: Search,
    ) -> Result<Option<ColourMoves>, LightsError> {
        let Some(x0) = self.particular_within(board, colour, max_nullity)? else {
            return Ok(None);
        };
        let k = self.nullity();
        let gray = match search {
            Search::Gray => true,
            Search::Walsh { .. } => k == 0,
            Search::Auto => k <= GRAY_MOVES_MAX_NULLITY,
        };
        let (best, in_optimal, in_next) = if gray {
            self.spread_gray(&x0)
        } else {
            let block_bits = match search {
                Search::Walsh { block_bits } => block_bits.clamp(1, INDICATOR_BITS),
                _ => INDICATOR_BITS,
            };
            let best = self.search(&x0, search);
            let (in_optimal, in_next) = self.spread_walsh(&x0, best.rounds, block_bits);
            (best, in_optimal, in_next)
        };
        Ok(Some(ColourMoves {
            answer: self.answer(colour, x0, &best),
            in_optimal,
            in_next,
        }))
    }

    /// The Gray-code search of [`search_gray`](Self::search_gray), also
    /// ORing together the press sets of the fewest presses and of one more.
    fn spread_gray(&self, x0: &Grid) -> (Best, Grid, Grid) {
        let (rows, k) = (self.shape.rows(), self.nullity());
        let mut x = [0u64; MAX_SIDE];
        x[..rows].copy_from_slice(x0.rows());
        let x = &mut x[..rows];
        let weight = |x: &[u64]| x.iter().map(|r| r.count_ones() as usize).sum::<usize>();
        let mut best = Best {
            rounds: weight(x),
            coords: 0,
            count: 1,
        };
        let mut optimal = Grid::new(self.shape);
        optimal.rows[..rows].copy_from_slice(x);
        let mut next = Grid::new(self.shape);
        let or_into = |grid: &mut Grid, x: &[u64]| {
            for (a, b) in grid.rows.iter_mut().zip(x) {
                *a |= b;
            }
        };
        let mut g = 0u64;
        for step in 1..1u64 << k {
            let j = step.trailing_zeros() as usize;
            g ^= 1 << j;
            let i = k - 1 - j;
            for (a, b) in x.iter_mut().zip(&self.quiet[i * rows..(i + 1) * rows]) {
                *a ^= b;
            }
            let w = weight(x);
            if w < best.rounds {
                next = if w + 1 == best.rounds {
                    optimal.clone()
                } else {
                    Grid::new(self.shape)
                };
                optimal.rows[..rows].copy_from_slice(x);
                best = Best {
                    rounds: w,
                    coords: g,
                    count: 1,
                };
            } else if w == best.rounds {
                or_into(&mut optimal, x);
                best.count += 1;
                best.coords = best.coords.min(g);
            } else if w == best.rounds + 1 {
                or_into(&mut next, x);
            }
        }
        (best, optimal, next)
    }

    /// The cells pressed by some press set of `m` presses, and by some of
    /// `m + 1`, by Walsh–Hadamard transforms of their indicators in blocks
    /// of 2^`block_bits` coordinates (see [`move_values`](Self::move_values)).
    fn spread_walsh(&self, x0: &Grid, m: usize, block_bits: usize) -> (Grid, Grid) {
        let (cols, cells, k) = (self.shape.cols(), self.shape.cells(), self.nullity());
        let low = k.min(block_bits);
        let blocks = 1u64 << (k - low);
        // A set of w presses leaves cells − 2w more cells unpressed than
        // pressed: the value the first transform gives it.
        let top = cells as i16 - 2 * m as i16;
        use rayon::prelude::*;
        let sums = (0..blocks)
            .into_par_iter()
            .fold(
                || Spread::new(cells, low),
                |mut spread, hi| {
                    self.spread_block(x0, low, hi, [top, top - 2], &mut spread);
                    spread
                },
            )
            .reduce(|| Spread::new(cells, 0), Spread::merge);
        let mut optimal = Grid::new(self.shape);
        let mut next = Grid::new(self.shape);
        for (i, s) in sums.sums.iter().enumerate() {
            let (r, c) = (i / cols, i % cols);
            let sign = if x0.get(r, c) { -1 } else { 1 };
            for (t, grid) in [&mut optimal, &mut next].into_iter().enumerate() {
                // Of the sets counted, how many press cell i.
                if (sums.count[t] - sign * s[t]) / 2 > 0 {
                    grid.set(r, c, true);
                }
            }
        }
        (optimal, next)
    }

    /// One block of [`spread_walsh`](Self::spread_walsh): the press sets
    /// whose high coordinates are `hi`.
    fn spread_block(&self, x0: &Grid, low: usize, hi: u64, targets: [i16; 2], spread: &mut Spread) {
        let cols = self.shape.cols();
        let low_mask = (1u64 << low) - 1;
        let Spread { f, g, count, sums } = spread;
        f.fill(0);
        for (coords, &pressed) in self.cell_coords.chunks_exact(cols).zip(x0.rows()) {
            for (c, &v) in coords.iter().enumerate() {
                let flip = ((v >> low) & hi).count_ones() as u64;
                let sign = 1 - 2 * ((pressed >> c ^ flip) & 1) as i16;
                let slot = &mut f[(v & low_mask) as usize];
                *slot = slot.wrapping_add(sign);
            }
        }
        walsh_hadamard(f);
        for (t, &target) in targets.iter().enumerate() {
            let mut n = 0i64;
            for (g, &w) in g.iter_mut().zip(f.iter()) {
                *g = i16::from(w == target);
                n += i64::from(*g);
            }
            if n == 0 {
                continue;
            }
            count[t] += n;
            // At most 2^14 ones: no value of the transform leaves i16.
            walsh_hadamard(g);
            for (sum, &v) in sums.iter_mut().zip(&self.cell_coords) {
                let value = i64::from(g[(v & low_mask) as usize]);
                let odd = ((v >> low) & hi).count_ones() & 1 == 1;
                sum[t] += if odd { -value } else { value };
            }
        }
    }

    /// One press set from `board` to all `colour`, with no claim that it is
    /// the fewest (it is the one whose row 0 is clear at every pivot of the
    /// quiet patterns); `Ok(None)` when the colour cannot be reached. Works
    /// for every nullity.
    pub fn any_solution(&self, board: &Grid, colour: Colour) -> Result<Option<Grid>, LightsError> {
        self.check_shape(board)?;
        let mut x0 = Grid::new(self.shape);
        Ok(self.particular(board, colour, &mut x0).then_some(x0))
    }

    /// What every search starts from: the board's shape and the nullity
    /// checked (in that order), then the particular press set to `colour`
    /// ([`any_solution`](Self::any_solution)'s); `Ok(None)` when the colour
    /// cannot be reached.
    fn particular_within(
        &self,
        board: &Grid,
        colour: Colour,
        max_nullity: usize,
    ) -> Result<Option<Grid>, LightsError> {
        self.check_shape(board)?;
        self.check_nullity(max_nullity)?;
        let mut x0 = Grid::new(self.shape);
        Ok(self.particular(board, colour, &mut x0).then_some(x0))
    }

    fn check_shape(&self, board: &Grid) -> Result<(), LightsError> {
        if board.shape == self.shape {
            Ok(())
        } else {
            Err(LightsError::ShapeMismatch {
                expected: self.shape,
                found: board.shape,
            })
        }
    }

    /// Writes into `x0` the press set to `colour` whose row 0 is clear at
    /// the quiet patterns' pivots; `false` when there is none.
    fn particular(&self, board: &Grid, colour: Colour, x0: &mut Grid) -> bool {
        let (rows, cols, mask) = (self.shape.rows(), self.shape.cols(), self.shape.row_mask());
        let target = match colour {
            Colour::White => 0,
            Colour::Black => mask,
        };
        let mut d = [0u64; MAX_SIDE];
        for (d, &b) in d.iter_mut().zip(board.rows()) {
            *d = b ^ target;
        }
        let d = &d[..rows];
        let residual = chase_residual(d, mask, 0);
        let mut first = 0u64;
        for i in 0..self.rank {
            first |= u64::from((self.elim[i] & residual).count_ones() & 1) << self.pivots[i];
        }
        for i in self.rank..cols {
            if (self.elim[i] & residual).count_ones() & 1 == 1 {
                return false;
            }
        }
        // Clear the pivots: the press set with all coordinates 0.
        for &q in &self.quiet_first[..self.nullity()] {
            if first & q & q.wrapping_neg() != 0 {
                first ^= q;
            }
        }
        let left = chase(d, mask, first, &mut x0.rows[..rows]);
        debug_assert_eq!(left, 0, "the particular solution clears the board");
        true
    }

    /// Whether the Gray-code search costs less than the Walsh one here.
    fn gray_is_cheaper(&self) -> bool {
        let k = self.nullity();
        if k == 0 {
            return true;
        }
        if k > 16 {
            return false;
        }
        // Gray: 2^k steps of R words (XOR and popcount). Walsh: a pass over
        // the cells, then k·2^k additions 8 to 16 at a time.
        let gray = (1usize << k) * 2 * self.shape.rows();
        let walsh = 3 * self.shape.cells() + (k << k) / 4 + 64;
        gray <= walsh
    }

    /// Every press set by Gray code: coordinates `g` visit all `2^k` values,
    /// one pattern toggled a step.
    fn search_gray(&self, x0: &Grid) -> Best {
        let (rows, k) = (self.shape.rows(), self.nullity());
        let mut x = [0u64; MAX_SIDE];
        x[..rows].copy_from_slice(x0.rows());
        let x = &mut x[..rows];
        let weight = |x: &[u64]| x.iter().map(|r| r.count_ones() as usize).sum::<usize>();
        let mut best = Best {
            rounds: weight(x),
            coords: 0,
            count: 1,
        };
        let mut g = 0u64;
        for step in 1..1u64 << k {
            let j = step.trailing_zeros() as usize;
            g ^= 1 << j;
            let i = k - 1 - j;
            for (a, b) in x.iter_mut().zip(&self.quiet[i * rows..(i + 1) * rows]) {
                *a ^= b;
            }
            let w = weight(x);
            if w < best.rounds {
                best = Best {
                    rounds: w,
                    coords: g,
                    count: 1,
                };
            } else if w == best.rounds {
                best.count += 1;
                best.coords = best.coords.min(g);
            }
        }
        best
    }

    /// Every press set's size by Walsh–Hadamard transform, in blocks of at
    /// most 2^`block_bits` coordinates: the high coordinates pick the
    /// block, the low ones are transformed. Blocks run on rayon's threads;
    /// the result does not depend on their order.
    fn search_walsh(&self, x0: &Grid, block_bits: usize) -> Best {
        let k = self.nullity();
        let low = k.min(block_bits);
        let blocks = 1u64 << (k - low);
        if blocks == 1 {
            return self.walsh_block(x0, low, 0);
        }
        use rayon::prelude::*;
        (0..blocks)
            .into_par_iter()
            .map(|hi| self.walsh_block(x0, low, hi))
            .reduce(
                || Best {
                    rounds: usize::MAX,
                    coords: 0,
                    count: 0,
                },
                Best::merge,
            )
    }

    /// The press sets whose high coordinates are `hi`.
    fn walsh_block(&self, x0: &Grid, low: usize, hi: u64) -> Best {
        let (cols, cells) = (self.shape.cols(), self.shape.cells());
        let low_mask = (1u64 << low) - 1;
        debug_assert!(low <= BLOCK_BITS);
        SCRATCH.with(|scratch| {
            let mut scratch = scratch.borrow_mut();
            let f = scratch.walsh(1 << low);
            f.fill(0);
            // The signed count of cells by low coordinates: +1 where the
            // cell ends unpressed at low coordinates 0, -1 where pressed.
            for (coords, &pressed) in self.cell_coords.chunks_exact(cols).zip(x0.rows()) {
                for (c, &v) in coords.iter().enumerate() {
                    let flip = ((v >> low) & hi).count_ones() as u64;
                    let sign = 1 - 2 * ((pressed >> c ^ flip) & 1) as i16;
                    let slot = &mut f[(v & low_mask) as usize];
                    *slot = slot.wrapping_add(sign);
                }
            }
            walsh_hadamard(f);
            // The most cells left unpressed = the fewest presses.
            let top = f.iter().copied().max().unwrap_or(0);
            let first = f.iter().position(|&w| w == top).unwrap_or(0);
            Best {
                rounds: ((cells as i64 - i64::from(top)) / 2) as usize,
                coords: hi << low | first as u64,
                count: f.iter().filter(|&&w| w == top).count() as u64,
            }
        })
    }
}

impl Best {
    /// The better of two disjoint parts of a search: fewer presses, or on a
    /// tie the lower coordinates, with both counts.
    fn merge(a: Best, b: Best) -> Best {
        match a.rounds.cmp(&b.rounds) {
            core::cmp::Ordering::Less => a,
            core::cmp::Ordering::Greater => b,
            core::cmp::Ordering::Equal => Best {
                rounds: a.rounds,
                coords: a.coords.min(b.coords),
                count: a.count + b.count,
            },
        }
    }
}

/// The sums of one thread's blocks in [`Solver::spread_walsh`]: for the
/// press sets of the fewest presses (`[0]`) and of one more (`[1]`), how
/// many there are and, per cell `i`, the transform of their indicator at
/// the cell's coordinates.
struct Spread {
    f: Vec<i16>,
    g: Vec<i16>,
    count: [i64; 2],
    sums: Vec<[i64; 2]>,
}

impl Spread {
    fn new(cells: usize, low: usize) -> Spread {
        Spread {
            f: vec![0; 1 << low],
            g: vec![0; 1 << low],
            count: [0; 2],
            sums: vec![[0; 2]; cells],
        }
    }

    fn merge(mut a: Spread, b: Spread) -> Spread {
        for t in 0..2 {
            a.count[t] += b.count[t];
        }
        for (x, y) in a.sums.iter_mut().zip(&b.sums) {
            x[0] += y[0];
            x[1] += y[1];
        }
        a
    }
}

impl fmt::Debug for Solver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Solver")
            .field("shape", &self.shape)
            .field("rank", &self.rank)
            .field("nullity", &self.nullity())
            .finish_non_exhaustive()
    }
}

/// Per-thread scratch space for the Walsh search, kept between queries so
/// that a stream of boards does not allocate.
struct Scratch {
    walsh: Vec<i16>,
}

impl Scratch {
    fn walsh(&mut self, len: usize) -> &mut [i16] {
        if self.walsh.len() < len {
            self.walsh.resize(len, 0);
        }
        &mut self.walsh[..len]
    }
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = const { RefCell::new(Scratch { walsh: Vec::new() }) };
}

/// The unnormalised Walsh–Hadamard transform in place:
/// `f[y] = Σ_u f[u] · (-1)^popcount(u & y)`, for a length that is a power
/// of two. The inputs here are signed counts of at most 4,096 cells in all,
/// so no sum leaves `i16`.
///
/// Compiled twice: for the baseline target and with AVX2, chosen at run
/// time (16 lanes of 16 bits instead of 8: about 1.5 to 2 times faster).
fn walsh_hadamard(f: &mut [i16]) {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU supports AVX2, checked just above.
            unsafe { walsh_hadamard_avx2(f) };
            return;
        }
    }
    walsh_hadamard_any(f);
}

/// [`walsh_hadamard_any`] compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn walsh_hadamard_avx2(f: &mut [i16]) {
    walsh_hadamard_any(f);
}

/// Levels transformed within one cache-sized piece: 2^12 lanes, 8 KiB.
const PIECE_BITS: usize = 12;

/// The transform, cache-friendly: the first three levels eight lanes at a
/// time in registers, the next ones within 8 KiB pieces (L1), the rest over
/// the whole buffer; two levels a pass from the fourth on.
#[inline(always)]
fn walsh_hadamard_any(f: &mut [i16]) {
    let bits = f.len().trailing_zeros() as usize;
    debug_assert!(f.len().is_power_of_two());
    if bits < 3 {
        levels(f, 0, bits);
        return;
    }
    for piece in f.chunks_mut(1 << PIECE_BITS) {
        for eight in piece.chunks_exact_mut(8) {
            walsh8(eight);
        }
        levels(piece, 3, bits.min(PIECE_BITS));
    }
    if bits > PIECE_BITS {
        levels(f, PIECE_BITS, bits);
    }
}

/// Levels `from..to` of the transform (the butterflies of distance
/// 2^`from` to 2^(`to` − 1)), two a pass.
#[inline(always)]
fn levels(f: &mut [i16], from: usize, to: usize) {
    let mut level = from;
    while level + 2 <= to {
        let half = 1 << level;
        for block in f.chunks_exact_mut(4 * half) {
            let (ab, cd) = block.split_at_mut(2 * half);
            let (a, b) = ab.split_at_mut(half);
            let (c, d) = cd.split_at_mut(half);
            for (((a, b), c), d) in a.iter_mut().zip(b).zip(c).zip(d) {
                let (s0, s1) = (a.wrapping_add(*b), a.wrapping_sub(*b));
                let (s2, s3) = (c.wrapping_add(*d), c.wrapping_sub(*d));
                *a = s0.wrapping_add(s2);
                *b = s1.wrapping_add(s3);
                *c = s0.wrapping_sub(s2);
                *d = s1.wrapping_sub(s3);
            }
        }
        level += 2;
    }
    if level < to {
        let half = 1 << level;
        for block in f.chunks_exact_mut(2 * half) {
            let (a, b) = block.split_at_mut(half);
            for (x, y) in a.iter_mut().zip(b) {
                let (s, t) = (*x, *y);
                *x = s.wrapping_add(t);
                *y = s.wrapping_sub(t);
            }
        }
    }
}

/// The first three levels on eight lanes.
#[inline(always)]
fn walsh8(c: &mut [i16]) {
    let a: [i16; 8] = [c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]];
    let mut b = [0i16; 8];
    for i in 0..4 {
        b[2 * i] = a[2 * i].wrapping_add(a[2 * i + 1]);
        b[2 * i + 1] = a[2 * i].wrapping_sub(a[2 * i + 1]);
    }
    let mut d = [0i16; 8];
    for i in [0, 1, 4, 5] {
        d[i] = b[i].wrapping_add(b[i + 2]);
        d[i + 2] = b[i].wrapping_sub(b[i + 2]);
    }
    for i in 0..4 {
        c[i] = d[i].wrapping_add(d[i + 4]);
        c[i + 4] = d[i].wrapping_sub(d[i + 4]);
    }
}

/// Chases the lights of `d` (one word a row) with `first` pressed in row 0:
/// writes every row's presses into `x` and returns what stays lit in the
/// last row.
#[inline]
fn chase(d: &[u64], mask: u64, first: u64, x: &mut [u64]) -> u64 {
    let (mut prev, mut cur) = (0u64, first);
    for (x, &d) in x.iter_mut().zip(d) {
        *x = cur;
        let next = (d ^ cur ^ (cur << 1) ^ (cur >> 1) ^ prev) & mask;
        prev = cur;
        cur = next;
    }
    cur
}

/// [`chase`] without writing the presses.
#[inline]
fn chase_residual(d: &[u64], mask: u64, first: u64) -> u64 {
    let (mut prev, mut cur) = (0u64, first);
    for &d in d {
        let next = (d ^ cur ^ (cur << 1) ^ (cur >> 1) ^ prev) & mask;
        prev = cur;
        cur = next;
    }
    cur
}

/// The cells of both judges' boards: `0` white (off), `1` black (on).
pub const CELLS: Alphabet = Alphabet::new(b'0', b'1', "'0' or '1'");

/// One case of POJ 3279's input, with the line where its `M N` stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FliptileCase {
    /// The tiles, set = black (`1`).
    pub board: Grid,
    /// 1-based line of `M N`.
    pub line: u64,
}

/// What an input without a single Fliptile case lacks (for the error).
pub const NO_FLIPTILE_CASE: &str = "a case: the numbers of rows M and columns N";

/// Reads one case of POJ 3279 ("Fliptile"): `M N` on one line (each 1 to
/// 64; blank lines before it are skipped), then M rows of N cells `0`/`1`,
/// one row a line, cells separated by blanks (blank lines before the first
/// row are skipped; see [`Scanner::read_spaced_row`]). `Ok(None)` when only
/// whitespace is left. The sizes are checked before any row is read, and the
/// board is a fixed-size [`Grid`]: nothing is allocated.
///
/// ```
/// use boardbase::input::Scanner;
/// use boardbase::lights::{self, Goal};
///
/// let mut input = Scanner::new("2 3\n1 1 0\n1 0 0\n".as_bytes());
/// let case = lights::read_fliptile_case(&mut input)?.expect("one case");
/// assert_eq!((case.board.to_string(), case.line), ("bbw\nbww".to_owned(), 1));
/// let a = lights::solve(&case.board, Goal::White)?.expect("solvable");
/// assert_eq!(a.presses.show('1', '0').to_string(), "100\n000");
/// assert!(lights::read_fliptile_case(&mut input)?.is_none());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn read_fliptile_case<R: Read>(
    scanner: &mut Scanner<R>,
) -> Result<Option<FliptileCase>, InputError> {
    if !scanner.skip_blank_lines()? {
        return Ok(None);
    }
    let line = scanner.position().0;
    let rows = read_side(scanner, "a number of rows M from 1 to 64", false)?;
    let cols = read_side(scanner, "a number of columns N from 1 to 64", true)?;
    scanner.end_of_line("the end of the line after M and N")?;
    let shape = Shape::new(rows, cols).expect("sides checked");
    let mut board = Grid::new(shape);
    scanner.skip_blank_lines()?;
    for row in board.rows[..rows].iter_mut() {
        *row = scanner.read_spaced_row(&CELLS, cols, "a row of N cells, '0' or '1'")?;
    }
    Ok(Some(FliptileCase { board, line }))
}

/// Reads M or N: from 1 to 64, N on the line of M.
fn read_side<R: Read>(
    scanner: &mut Scanner<R>,
    what: &'static str,
    on_line: bool,
) -> Result<usize, InputError> {
    if on_line {
        scanner.skip_inline_blanks()?;
    } else {
        scanner.skip_whitespace()?;
    }
    let (line, column) = scanner.position();
    let n = scanner.read_unsigned_on_line(what, u64::MAX)?;
    if (1..=MAX_SIDE as u64).contains(&n) {
        return Ok(n as usize);
    }
    Err(ParseError {
        line,
        column,
        expected: what,
        found: Found::Number(n),
    }
    .into())
}

/// The 5×6 board of Extended Lights Out (POJ 1222, UVA 1560): nullity 0,
/// so every board has exactly one solution.
pub const LIGHTS_OUT: Shape = match Shape::new(5, 6) {
    Some(s) => s,
    None => panic!("5×6 is a shape"),
};

/// Reads the puzzle count of Extended Lights Out, alone on its line.
pub fn read_lights_out_count<R: Read>(scanner: &mut Scanner<R>) -> Result<u64, InputError> {
    let count = scanner.read_unsigned("a puzzle count", u64::MAX)?;
    scanner.end_of_line("the end of the line after the puzzle count")?;
    Ok(count)
}

/// Reads one puzzle of Extended Lights Out: 5 rows of six lights `0`/`1`
/// separated by blanks, blank lines before it skipped. Running out of input
/// is an error: the count promised one more.
///
/// ```
/// use boardbase::input::Scanner;
/// use boardbase::lights::{self, Goal};
///
/// let text = "1\n0 1 1 0 1 0\n1 0 0 1 1 1\n0 0 1 0 0 1\n1 0 0 1 0 1\n0 1 1 1 0 0\n";
/// let mut input = Scanner::new(text.as_bytes());
/// assert_eq!(lights::read_lights_out_count(&mut input)?, 1);
/// let board = lights::read_lights_out_puzzle(&mut input)?;
/// let a = lights::solve(&board, Goal::White)?.expect("5×6 is always solvable");
/// assert_eq!(a.presses.show('1', '0').to_string().lines().next(), Some("101001"));
/// assert!(a.is_unique());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn read_lights_out_puzzle<R: Read>(scanner: &mut Scanner<R>) -> Result<Grid, InputError> {
    if !scanner.skip_blank_lines()? {
        return Err(scanner.error_here(
            "another puzzle (the puzzle count asks for more)",
            Found::EndOfInput,
        ));
    }
    let mut board = Grid::new(LIGHTS_OUT);
    for row in board.rows[..5].iter_mut() {
        *row = scanner.read_spaced_row(&CELLS, 6, "a row of six lights, '0' or '1'")?;
    }
    Ok(board)
}

/// Writes `grid` as the judges' text: one line a row, its cells `1` (set)
/// and `0` (clear) separated by single spaces. That is a board of POJ 3279's
/// and POJ 1222's inputs (without the sizes or the count) and the press set
/// of their answers; `boardbase fliptile` and `boardbase lightsout` print
/// their answers with it, and `boardbase gen` their inputs and answers.
/// A row is written with one `write_all`, from a fixed buffer.
///
/// ```
/// use boardbase::lights::{self, Grid};
///
/// let presses: Grid = "0000/1001".parse()?;
/// let mut out = Vec::new();
/// lights::write_judge_rows(&mut out, &presses)?;
/// assert_eq!(out, b"0 0 0 0\n1 0 0 1\n");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write_judge_rows<W: Write + ?Sized>(out: &mut W, grid: &Grid) -> io::Result<()> {
    let cols = grid.shape().cols();
    let mut line = [b' '; 2 * MAX_SIDE];
    line[2 * cols - 1] = b'\n';
    for &bits in grid.rows() {
        for (c, cell) in line[..2 * cols].iter_mut().step_by(2).enumerate() {
            *cell = b'0' + (bits >> c & 1) as u8;
        }
        out.write_all(&line[..2 * cols])?;
    }
    Ok(())
}

/// [`Solver::solve`] with the process-wide solver of the board's shape
/// ([`Solver::cached`]).
pub fn solve(board: &Grid, goal: Goal) -> Result<Option<Answer>, LightsError> {
    Solver::cached(board.shape()).solve(board, goal)
}

/// [`Solver::routes`] with the process-wide solver of the board's shape.
pub fn routes(board: &Grid) -> Result<Routes, LightsError> {
    Solver::cached(board.shape()).routes(board)
}

/// [`Solver::move_values`] with the process-wide solver of the board's
/// shape.
pub fn move_values(board: &Grid) -> Result<MoveValues, LightsError> {
    Solver::cached(board.shape()).move_values(board)
}

/// The nullity of `shape` (see [`Solver::nullity`]), from the cached solver.
///
/// ```
/// use boardbase::lights::nullity;
/// use boardbase::tables::shape::Shape;
///
/// let n = |r, c| nullity(Shape::new(r, c).unwrap());
/// assert_eq!((n(4, 4), n(5, 5), n(5, 6), n(9, 9), n(19, 19)), (4, 2, 0, 8, 16));
/// ```
pub fn nullity(shape: Shape) -> usize {
    Solver::cached(shape).nullity()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(r: usize, c: usize) -> Shape {
        Shape::new(r, c).unwrap()
    }

    #[test]
    fn quiet_patterns_change_nothing_and_are_echelon() {
        for (r, c) in [
            (4, 4),
            (5, 5),
            (9, 9),
            (1, 1),
            (1, 5),
            (2, 3),
            (16, 16),
            (64, 64),
        ] {
            let s = Solver::new(shape(r, c));
            let mut seen_pivots = 0u64;
            for p in s.quiet_patterns() {
                let board = Grid::filled(shape(r, c));
                assert_eq!(board.apply(&p), board);
                let first = p.row(0);
                assert_ne!(first, 0);
                let pivot = first & first.wrapping_neg();
                assert_eq!(seen_pivots & first, 0, "pivot of an earlier pattern");
                seen_pivots |= pivot;
            }
        }
    }

    #[test]
    fn judge_rows_read_back_through_the_fliptile_reader() {
        for (r, c) in [(1, 1), (2, 3), (5, 6), (15, 15), (64, 64)] {
            let s = shape(r, c);
            let mut g = Grid::new(s);
            for row in 0..r {
                for col in 0..c {
                    g.set(row, col, (row * 7 + col * 3) % 5 < 2);
                }
            }
            let mut text = format!("{r} {c}\n").into_bytes();
            write_judge_rows(&mut text, &g).unwrap();
            assert_eq!(text.iter().filter(|&&b| b == b'\n').count(), r + 1);
            assert!(
                text.split(|&b| b == b'\n')
                    .skip(1)
                    .take(r)
                    .all(|l| l.len() == 2 * c - 1)
            );
            let mut scanner = Scanner::new(&text[..]);
            let case = read_fliptile_case(&mut scanner).unwrap().unwrap();
            assert_eq!(case.board, g, "{r}x{c}");
        }
        let mut out = Vec::new();
        write_judge_rows(&mut out, &Grid::filled(shape(1, 3))).unwrap();
        assert_eq!(out, b"1 1 1\n");
    }

    #[test]
    fn grids_parse_and_print() {
        let g: Grid = "\r\n  bwb \r\n 010\n\n".parse().unwrap();
        assert_eq!((g.shape(), g.rows()), (shape(2, 3), &[0b101u64, 0b010][..]));
        assert_eq!(format!("{g:#}"), "bwb/wbw");
        let wide = "1".repeat(64);
        let g: Grid = format!("{wide}/{wide}").parse().unwrap();
        assert_eq!(g.rows(), [u64::MAX, u64::MAX]);
        assert_eq!(g.uniform(), Some(Colour::Black));
        let error = |text: &str| {
            let e = text.parse::<Grid>().unwrap_err();
            (e.line, e.column, e.expected, e.found)
        };
        assert_eq!(
            error("bwb/bw"),
            (
                1,
                7,
                "another cell (every row as long as the first)",
                Found::EndOfInput
            )
        );
        assert_eq!(
            error("bw\nbwb"),
            (
                2,
                3,
                "the end of the row (every row as long as the first)",
                Found::Char('b')
            )
        );
        assert_eq!(
            error("bxb"),
            (1, 2, "a cell, '/' or the end of the row", Found::Char('x'))
        );
        assert_eq!(
            error(""),
            (1, 1, "a cell 'b', 'w', '1' or '0'", Found::EndOfInput)
        );
        assert_eq!(
            error("bw\n\nbw"),
            (3, 1, "the end of the grid", Found::Char('b'))
        );
        assert_eq!(
            error(&"1".repeat(65)),
            (1, 65, "at most 64 cells a row", Found::Char('1'))
        );
        assert_eq!(
            error(&vec!["1"; 65].join("/")),
            (1, 129, "at most 64 rows", Found::Char('1'))
        );
        assert_eq!(
            Grid::from_rows(shape(2, 3), &[0b1000, 0]),
            Err(GridError::RowTooWide { row: 0, cols: 3 })
        );
        assert_eq!(
            Grid::from_rows(shape(2, 3), &[0]),
            Err(GridError::RowCount {
                expected: 2,
                found: 1
            })
        );
        assert!(Grid::from_u64(shape(9, 9), 0).is_err());
        assert!(Grid::from_u64(shape(2, 3), 1 << 6).is_err());
        let g = Grid::from_u64(shape(8, 8), u64::MAX).unwrap();
        assert_eq!(g.to_u64(), Some(u64::MAX));
        assert_eq!(Grid::new(shape(9, 9)).to_u64(), None);
    }

    #[test]
    fn walsh_hadamard_is_the_transform() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut random = |n: usize| -> Vec<i16> {
            (0..n)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    (x % 5) as i16 - 2
                })
                .collect()
        };
        // The definition, for every length up to 2^9.
        for bits in 0..=9 {
            let f = random(1 << bits);
            let mut fast = f.clone();
            walsh_hadamard(&mut fast);
            let mut portable = f.clone();
            walsh_hadamard_any(&mut portable);
            for (y, (&w, &p)) in fast.iter().zip(&portable).enumerate() {
                let want: i32 = f
                    .iter()
                    .enumerate()
                    .map(|(u, &v)| {
                        i32::from(v) * if (u & y).count_ones() % 2 == 0 { 1 } else { -1 }
                    })
                    .sum();
                assert_eq!(
                    (i32::from(w), i32::from(p)),
                    (want, want),
                    "2^{bits} at {y}"
                );
            }
        }
        // Past one piece (2^12), with an even and an odd number of levels
        // left: each level's butterflies one pass at a time.
        for bits in [14, 15] {
            let f = random(1 << bits);
            let mut slow = f.clone();
            let mut half = 1;
            while half < slow.len() {
                for i in 0..slow.len() {
                    if i & half == 0 {
                        let (s, t) = (slow[i], slow[i + half]);
                        slow[i] = s.wrapping_add(t);
                        slow[i + half] = s.wrapping_sub(t);
                    }
                }
                half *= 2;
            }
            let mut fast = f;
            walsh_hadamard(&mut fast);
            assert_eq!(fast, slow, "2^{bits}");
        }
    }

    #[test]
    fn gray_and_walsh_agree() {
        for (r, c) in [(4, 4), (5, 5), (9, 9), (11, 11), (16, 16), (2, 5), (17, 17)] {
            let s = Solver::new(shape(r, c));
            let mut x = 0x9E37_79B9_7F4A_7C15u64;
            for _ in 0..6 {
                let mut rows = [0u64; 64];
                for row in rows.iter_mut().take(r) {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    *row = x & shape(r, c).row_mask();
                }
                // Pressing random cells of a white board gives a board that
                // can reach white (a random board rarely can).
                let presses = Grid::from_rows(shape(r, c), &rows[..r]).unwrap();
                let b = Grid::new(shape(r, c)).apply(&presses);
                assert!(s.route(&b, Colour::White).unwrap().is_some());
                for colour in Colour::ALL {
                    let g = s.route_by(&b, colour, 64, Search::Gray).unwrap();
                    for block_bits in [20, 3, 1] {
                        let w = s.route_by(&b, colour, 64, Search::Walsh { block_bits });
                        assert_eq!(w.unwrap(), g, "{r}x{c} {b:?} {colour} {block_bits}");
                    }
                }
            }
        }
    }
}
