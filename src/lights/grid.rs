//! The board type of [`lights`](super): [`Grid`], an R×C grid of cells up
//! to 64×64 in a fixed buffer, its text form (`FromStr`,
//! `Display`, [`Show`]) and pressing.

use core::fmt;
use core::str::FromStr;

use boardbase_tables::shape::{MAX_SIDE, Shape};

use super::error::LightsError;
#[cfg(test)]
use crate::error::Found;
use crate::error::ParseError;
use crate::flip::Colour;
use crate::grid::{Alphabet, Expect};

/// The cells of a [`Grid`]'s text: `w` or `0` clear, `b` or `1` set (the
/// judges' inputs, read by [`CELLS`](super::CELLS), have `0` and `1` only).
pub const ALPHABET: Alphabet =
    Alphabet::new(b'w', b'b', "'b' or 'w'").also(b'0', b'1', "a cell 'b', 'w', '1' or '0'");

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
    pub fn from_rows(shape: Shape, rows: &[u64]) -> Result<Grid, LightsError> {
        if rows.len() != shape.rows() {
            return Err(LightsError::RowCount {
                expected: shape.rows(),
                found: rows.len(),
            });
        }
        let mut g = Grid::new(shape);
        for (row, &bits) in rows.iter().enumerate() {
            if bits & !shape.row_mask() != 0 {
                return Err(LightsError::RowTooWide {
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
    /// # Ok::<(), boardbase::lights::LightsError>(())
    /// ```
    pub fn from_u64(shape: Shape, bits: u64) -> Result<Grid, LightsError> {
        if !shape.fits_u64() || bits & !shape.full() != 0 {
            return Err(LightsError::Bits { shape, bits });
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

    /// The rows to write, row 0 first, column `c` at bit `c` (for the
    /// solver, the search and the readers, which keep cells outside the
    /// shape clear).
    #[inline]
    pub(super) fn rows_mut(&mut self) -> &mut [u64] {
        &mut self.rows[..self.shape.rows()]
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
    /// accepted: [`Alphabet::parse_board`] with [`ALPHABET`] and
    /// [`Expect::Any`].
    fn from_str(text: &str) -> Result<Grid, ParseError> {
        let board = ALPHABET.parse_board(text, Expect::Any)?;
        let mut g = Grid::new(board.shape());
        g.rows_mut().copy_from_slice(board.rows());
        Ok(g)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(r: usize, c: usize) -> Shape {
        Shape::new(r, c).unwrap()
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
            Err(LightsError::RowTooWide { row: 0, cols: 3 })
        );
        assert_eq!(
            Grid::from_rows(shape(2, 3), &[0]),
            Err(LightsError::RowCount {
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
}
