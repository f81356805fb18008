//! The 4×4 bit layout shared by every table: indices, rows and the eight
//! symmetries of the square.

/// Number of rows (and columns) of a 4×4 board.
pub const SIDE: usize = 4;

/// Number of cells of a 4×4 board.
pub const CELLS: usize = SIDE * SIDE;

/// Number of distinct 4×4 boards (`2^16`): the length of every dense table.
pub const STATES: usize = 1 << CELLS;

/// The 16-bit mask with every cell set.
pub const FULL: u16 = u16::MAX;

/// Bit index of cell (`row`, `col`): `4 * row + col`.
///
/// ```
/// assert_eq!(boardbase_tables::board::index(0, 0), 0);
/// assert_eq!(boardbase_tables::board::index(2, 1), 9);
/// ```
#[inline]
pub const fn index(row: usize, col: usize) -> usize {
    SIDE * row + col
}

/// The single-bit mask of cell (`row`, `col`).
#[inline]
pub const fn bit(row: usize, col: usize) -> u16 {
    1 << index(row, col)
}

/// Whether cell (`row`, `col`) is set in `board`.
#[inline]
pub const fn get(board: u16, row: usize, col: usize) -> bool {
    board & bit(row, col) != 0
}

/// The four cells of `row` as a nibble, column `c` at bit `c`.
#[inline]
pub const fn row_bits(board: u16, row: usize) -> u8 {
    ((board >> (SIDE * row)) & 0xF) as u8
}

/// Builds a board from its four row nibbles (row 0 first).
#[inline]
pub const fn from_rows(rows: [u8; SIDE]) -> u16 {
    (rows[0] as u16 & 0xF)
        | (rows[1] as u16 & 0xF) << 4
        | (rows[2] as u16 & 0xF) << 8
        | (rows[3] as u16 & 0xF) << 12
}

/// The set cells of `mask` as 0-based (`row`, `col`), in reading order.
///
/// ```
/// let cells: Vec<_> = boardbase_tables::board::cells(0b1000_0000_0010_0001).collect();
/// assert_eq!(cells, [(0, 0), (1, 1), (3, 3)]);
/// ```
pub fn cells(mask: u16) -> impl Iterator<Item = (usize, usize)> {
    (0..CELLS)
        .filter(move |&i| mask & (1 << i) != 0)
        .map(|i| (i / SIDE, i % SIDE))
}

/// One of the eight symmetries of the square (the dihedral group D4),
/// acting on cell coordinates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Symmetry {
    /// The identity.
    Identity,
    /// Quarter turn clockwise.
    Rotate90,
    /// Half turn.
    Rotate180,
    /// Quarter turn counter-clockwise.
    Rotate270,
    /// Mirror left to right (columns reversed).
    FlipHorizontal,
    /// Mirror top to bottom (rows reversed).
    FlipVertical,
    /// Mirror in the main diagonal (transpose).
    Transpose,
    /// Mirror in the anti-diagonal.
    AntiTranspose,
}

impl Symmetry {
    /// All eight symmetries, identity first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::Rotate90,
        Symmetry::Rotate180,
        Symmetry::Rotate270,
        Symmetry::FlipHorizontal,
        Symmetry::FlipVertical,
        Symmetry::Transpose,
        Symmetry::AntiTranspose,
    ];

    /// Where cell (`row`, `col`) goes under this symmetry.
    #[inline]
    pub const fn map_cell(self, row: usize, col: usize) -> (usize, usize) {
        let last = SIDE - 1;
        match self {
            Symmetry::Identity => (row, col),
            Symmetry::Rotate90 => (col, last - row),
            Symmetry::Rotate180 => (last - row, last - col),
            Symmetry::Rotate270 => (last - col, row),
            Symmetry::FlipHorizontal => (row, last - col),
            Symmetry::FlipVertical => (last - row, col),
            Symmetry::Transpose => (col, row),
            Symmetry::AntiTranspose => (last - col, last - row),
        }
    }

    /// Applies this symmetry to every cell of `board`.
    pub const fn apply(self, board: u16) -> u16 {
        let mut out = 0u16;
        let mut row = 0;
        while row < SIDE {
            let mut col = 0;
            while col < SIDE {
                if get(board, row, col) {
                    let (r, c) = self.map_cell(row, col);
                    out |= bit(r, c);
                }
                col += 1;
            }
            row += 1;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_round_trip() {
        for b in 0..=u16::MAX {
            let rows = [
                row_bits(b, 0),
                row_bits(b, 1),
                row_bits(b, 2),
                row_bits(b, 3),
            ];
            assert_eq!(from_rows(rows), b);
        }
    }

    #[test]
    fn symmetries_are_permutations_with_the_right_order() {
        for s in Symmetry::ALL {
            let mut seen = 0u16;
            for i in 0..CELLS {
                seen |= s.apply(1 << i);
            }
            assert_eq!(seen, FULL, "{s:?} is not a permutation");
        }
        let b = 0b0000_0000_0001_0011; // cells (0,0), (0,1), (1,0)
        assert_eq!(
            Symmetry::Rotate90.apply(b),
            bit(0, 3) | bit(1, 3) | bit(0, 2)
        );
        assert_eq!(Symmetry::Transpose.apply(bit(0, 1)), bit(1, 0));
        for b in [0x1234u16, 0xBEEF, 0x8001] {
            let r = Symmetry::Rotate90;
            assert_eq!(r.apply(r.apply(r.apply(r.apply(b)))), b);
            assert_eq!(
                r.apply(r.apply(b)),
                Symmetry::Rotate180.apply(b),
                "two quarter turns make a half turn"
            );
        }
    }
}
