//! Board shapes of any size and the `u64` layout of boards up to 64 cells.
//!
//! An R×C board (`R` rows, `C` columns) numbers its cells in reading order:
//! cell (`row`, `col`) is bit `C * row + col`, row 0 being the first input
//! line and column 0 its first character. The 4×4 layout of
//! [`board`](crate::board) is this rule with `C = 4`; a board of at most 64
//! cells is a `u64` in this layout.
//!
//! ```text
//! 2×3:    col 0  col 1  col 2
//!  row 0  bit 0  bit 1  bit 2     <- first input line
//!  row 1  bit 3  bit 4  bit 5
//! ```
//!
//! A [`Shape`] allows sides up to [`MAX_SIDE`] (64), so that solvers working
//! row by row (one `u64` a row) can use it for boards of up to 64×64; the
//! whole-board `u64` helpers need [`Shape::fits_u64`].

use core::fmt;

/// The longest side a [`Shape`] may have.
pub const MAX_SIDE: usize = 64;

/// The most cells a board held in one `u64` may have.
pub const MAX_U64_CELLS: usize = 64;

/// The size of a rectangular board: 1 to [`MAX_SIDE`] rows and columns.
///
/// `Display` writes `RxC` (rows first), e.g. `5x6`.
///
/// ```
/// use boardbase_tables::shape::Shape;
///
/// let s = Shape::new(2, 3).expect("a valid shape");
/// assert_eq!((s.rows(), s.cols(), s.cells()), (2, 3, 6));
/// assert_eq!(s.index(1, 0), 3);
/// assert_eq!(s.full(), 0b11_1111);
/// assert_eq!(s.to_string(), "2x3");
/// assert_eq!(Shape::new(0, 3), None);
/// assert_eq!(Shape::parse("5x6"), Shape::new(5, 6));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Shape {
    rows: u8,
    cols: u8,
}

impl Shape {
    /// The 4×4 board of the original puzzles.
    pub const SQUARE4: Shape = Shape { rows: 4, cols: 4 };

    /// The shape with `rows` rows and `cols` columns, or `None` unless both
    /// are between 1 and [`MAX_SIDE`].
    pub const fn new(rows: usize, cols: usize) -> Option<Shape> {
        if rows >= 1 && rows <= MAX_SIDE && cols >= 1 && cols <= MAX_SIDE {
            Some(Shape {
                rows: rows as u8,
                cols: cols as u8,
            })
        } else {
            None
        }
    }

    /// Parses `RxC` (also `RXC` or `R×C`), e.g. `5x6`: `None` unless both
    /// numbers are plain decimal and the shape is valid.
    pub fn parse(text: &str) -> Option<Shape> {
        let (r, c) = text
            .split_once('x')
            .or_else(|| text.split_once('X'))
            .or_else(|| text.split_once('×'))?;
        let number = |s: &str| -> Option<usize> {
            if s.is_empty() || s.len() > 3 || !s.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            s.parse().ok()
        };
        Shape::new(number(r)?, number(c)?)
    }

    /// Number of rows.
    #[inline]
    pub const fn rows(self) -> usize {
        self.rows as usize
    }

    /// Number of columns.
    #[inline]
    pub const fn cols(self) -> usize {
        self.cols as usize
    }

    /// Number of cells, `rows × cols`.
    #[inline]
    pub const fn cells(self) -> usize {
        self.rows() * self.cols()
    }

    /// Whether a board of this shape fits a `u64` (at most 64 cells).
    #[inline]
    pub const fn fits_u64(self) -> bool {
        self.cells() <= MAX_U64_CELLS
    }

    /// Number of boards of this shape, `2^cells`, when that fits a `u64`
    /// (at most 63 cells).
    #[inline]
    pub const fn states(self) -> Option<u64> {
        if self.cells() < 64 {
            Some(1 << self.cells())
        } else {
            None
        }
    }

    /// The same board turned on its side: `cols` rows of `rows` columns.
    #[inline]
    pub const fn transpose(self) -> Shape {
        Shape {
            rows: self.cols,
            cols: self.rows,
        }
    }

    /// Bit index of cell (`row`, `col`): `cols * row + col`.
    #[inline]
    pub const fn index(self, row: usize, col: usize) -> usize {
        self.cols() * row + col
    }

    /// The single-bit mask of cell (`row`, `col`) (needs [`fits_u64`](Self::fits_u64)).
    #[inline]
    pub const fn bit(self, row: usize, col: usize) -> u64 {
        1 << self.index(row, col)
    }

    /// The mask with every cell set (needs [`fits_u64`](Self::fits_u64)).
    #[inline]
    pub const fn full(self) -> u64 {
        if self.cells() >= 64 {
            u64::MAX
        } else {
            (1 << self.cells()) - 1
        }
    }

    /// The mask of one row: `cols` bits (bit `c` = column `c`).
    #[inline]
    pub const fn row_mask(self) -> u64 {
        if self.cols() >= 64 {
            u64::MAX
        } else {
            (1 << self.cols()) - 1
        }
    }

    /// Whether cell (`row`, `col`) is set in `board`.
    #[inline]
    pub const fn get(self, board: u64, row: usize, col: usize) -> bool {
        board >> self.index(row, col) & 1 != 0
    }

    /// The cells of `row`, column `c` at bit `c`.
    #[inline]
    pub const fn row_bits(self, board: u64, row: usize) -> u64 {
        (board >> (self.cols() * row)) & self.row_mask()
    }

    /// The board whose rows are `rows` (row 0 first, column `c` at bit
    /// `c`): the inverse of [`Shape::row_bits`], for boards of at most 64
    /// cells.
    #[inline]
    pub fn board_of_rows(self, rows: &[u64]) -> u64 {
        rows[..self.rows()]
            .iter()
            .enumerate()
            .fold(0, |board, (r, &row)| board | row << (self.cols() * r))
    }

    /// The cell (`row`, `col`) of bit `index`.
    #[inline]
    pub const fn cell(self, index: usize) -> (usize, usize) {
        (index / self.cols(), index % self.cols())
    }

    /// The set cells of `mask` as 0-based (`row`, `col`), in reading order.
    ///
    /// ```
    /// use boardbase_tables::shape::Shape;
    ///
    /// let s = Shape::new(2, 3).unwrap();
    /// let cells: Vec<_> = s.cells_of(0b100_001).collect();
    /// assert_eq!(cells, [(0, 0), (1, 2)]);
    /// ```
    pub fn cells_of(self, mask: u64) -> impl Iterator<Item = (usize, usize)> {
        let mut rest = mask & self.full();
        core::iter::from_fn(move || {
            if rest == 0 {
                return None;
            }
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            Some(self.cell(i))
        })
    }

    /// `board` (of this shape) turned on its side: cell (`r`, `c`) moves to
    /// (`c`, `r`) of the [`transpose`](Self::transpose)d shape.
    ///
    /// ```
    /// use boardbase_tables::shape::Shape;
    ///
    /// let s = Shape::new(2, 3).unwrap();
    /// let b = s.bit(0, 2) | s.bit(1, 0);
    /// let t = s.transpose();
    /// assert_eq!(s.transpose_board(b), t.bit(2, 0) | t.bit(0, 1));
    /// ```
    pub fn transpose_board(self, board: u64) -> u64 {
        let t = self.transpose();
        let mut out = 0;
        for (r, c) in self.cells_of(board) {
            out |= t.bit(c, r);
        }
        out
    }

    /// `board` mirrored left to right: column `c` becomes `cols - 1 - c`.
    pub fn mirror_cols(self, board: u64) -> u64 {
        let mut out = 0;
        for (r, c) in self.cells_of(board) {
            out |= self.bit(r, self.cols() - 1 - c);
        }
        out
    }

    /// The number of symmetries of the board: 8 for a square (turns and
    /// reflections), 4 for any other rectangle (the two mirrors and the half
    /// turn, besides the board itself). On a board of one row or column
    /// some of them coincide.
    pub const fn symmetries(self) -> usize {
        if self.rows == self.cols { 8 } else { 4 }
    }

    /// `board` under symmetry `k` of [`symmetries`](Self::symmetries): bit 0
    /// of `k` mirrors the columns, bit 1 the rows, bit 2 (squares only)
    /// transposes after both. Symmetry 0 is the board itself.
    ///
    /// ```
    /// use boardbase_tables::shape::Shape;
    ///
    /// let s = Shape::new(2, 3).unwrap();
    /// let b = s.bit(0, 0);
    /// let images: Vec<u64> = (0..s.symmetries()).map(|k| s.symmetric_board(b, k)).collect();
    /// assert_eq!(images, [s.bit(0, 0), s.bit(0, 2), s.bit(1, 0), s.bit(1, 2)]);
    /// ```
    pub fn symmetric_board(self, board: u64, k: usize) -> u64 {
        let mut b = board;
        if k & 1 != 0 {
            b = self.mirror_cols(b);
        }
        if k & 2 != 0 {
            b = self.mirror_rows(b);
        }
        if k & 4 != 0 {
            b = self.transpose_board(b);
        }
        b
    }

    /// The canonical board of `board`'s class under the shape's symmetries:
    /// the smallest of its images.
    ///
    /// ```
    /// use boardbase_tables::shape::Shape;
    ///
    /// let s = Shape::new(3, 3).unwrap();
    /// // Every corner alone is the same board as the first.
    /// for (r, c) in [(0, 0), (0, 2), (2, 0), (2, 2)] {
    ///     assert_eq!(s.canonical_board(s.bit(r, c)), s.bit(0, 0));
    /// }
    /// ```
    pub fn canonical_board(self, board: u64) -> u64 {
        (1..self.symmetries()).fold(board, |best, k| best.min(self.symmetric_board(board, k)))
    }

    /// `board` mirrored top to bottom: row `r` becomes `rows - 1 - r`.
    pub fn mirror_rows(self, board: u64) -> u64 {
        let mut out = 0;
        for r in 0..self.rows() {
            out |= self.row_bits(board, r) << (self.cols() * (self.rows() - 1 - r));
        }
        out
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.rows, self.cols)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_4x4_shape_is_the_board_layout() {
        let s = Shape::SQUARE4;
        for row in 0..4 {
            for col in 0..4 {
                assert_eq!(s.index(row, col), crate::board::index(row, col));
                assert_eq!(s.bit(row, col), u64::from(crate::board::bit(row, col)));
            }
        }
        assert_eq!(s.full(), u64::from(crate::board::FULL));
        assert_eq!(s.states(), Some(crate::board::STATES as u64));
        use crate::board::Symmetry;
        for b in [0u16, 1, 0x1234, 0xBEEF, 0x8001, 0xFFFF] {
            let w = u64::from(b);
            assert_eq!(
                s.transpose_board(w),
                u64::from(Symmetry::Transpose.apply(b))
            );
            assert_eq!(
                s.mirror_cols(w),
                u64::from(Symmetry::FlipHorizontal.apply(b))
            );
            assert_eq!(s.mirror_rows(w), u64::from(Symmetry::FlipVertical.apply(b)));
        }
    }

    #[test]
    fn shapes_are_checked_and_parsed() {
        assert_eq!(Shape::new(1, 1).map(Shape::cells), Some(1));
        assert_eq!(Shape::new(64, 64).map(Shape::cells), Some(4096));
        assert_eq!(Shape::new(65, 1), None);
        assert_eq!(Shape::new(1, 0), None);
        assert_eq!(Shape::parse("4x4"), Some(Shape::SQUARE4));
        assert_eq!(Shape::parse("6X5"), Shape::new(6, 5));
        assert_eq!(Shape::parse("3×7"), Shape::new(3, 7));
        for bad in [
            "", "x", "4", "4x", "x4", "0x4", "4x65", "+4x4", "4x4x4", " 4x4", "0004x4",
        ] {
            assert_eq!(Shape::parse(bad), None, "{bad:?}");
        }
        let s = Shape::new(8, 8).unwrap();
        assert!(s.fits_u64());
        assert_eq!(s.full(), u64::MAX);
        assert_eq!(s.states(), None);
        assert!(!Shape::new(5, 13).unwrap().fits_u64());
    }

    #[test]
    fn transposes_and_mirrors_are_involutions() {
        for (rows, cols) in [(1, 1), (1, 7), (2, 3), (3, 5), (5, 4), (6, 6), (8, 8)] {
            let s = Shape::new(rows, cols).unwrap();
            let mut x = 0x9E37_79B9_7F4A_7C15u64;
            for _ in 0..64 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let b = x & s.full();
                assert_eq!(s.transpose().transpose_board(s.transpose_board(b)), b);
                assert_eq!(s.mirror_cols(s.mirror_cols(b)), b);
                assert_eq!(s.mirror_rows(s.mirror_rows(b)), b);
                assert_eq!(s.transpose_board(b).count_ones(), b.count_ones());
                assert_eq!(s.mirror_rows(b).count_ones(), b.count_ones());
            }
        }
    }
}
