//! The board: [`Board`], and the one-line text `--board` takes
//! ([`parse_rows`]).

use crate::error::{Found, ParseError};

use super::{Error, MAX_NARROW_SIDE, Tile};

/// Reads a board written on one line, as `boardbase carcassonne --board`
/// takes it: rows separated by `/` (a trailing `/` allowed), the tiles of
/// a row separated by blanks or commas, every row as long as the first.
/// Errors name the column (in bytes) and what was found there.
///
/// ```
/// use boardbase::carcassonne::parse_rows;
///
/// // CRFC RRFF
/// // FFCC CRCR
/// let rows = parse_rows("CRFC RRFF/FFCC,CRCR")?;
/// assert_eq!(rows.len(), 2);
/// assert_eq!(rows[1][1].to_string(), "CRCR");
/// let bad = parse_rows("CRFÉ RRFF").unwrap_err();
/// assert_eq!((bad.line, bad.column), (1, 4));
/// # Ok::<(), boardbase::error::ParseError>(())
/// ```
pub fn parse_rows(text: &str) -> Result<Vec<Vec<Tile>>, ParseError> {
    let error = |column: usize, expected: &'static str, found: Found| ParseError {
        line: 1,
        column: column as u64 + 1,
        expected,
        found,
    };
    let separator = |b: u8| b == b' ' || b == b',' || b == b'\t';
    let bytes = text.as_bytes();
    let mut rows: Vec<Vec<Tile>> = Vec::new();
    let mut start = 0;
    loop {
        let end = bytes[start..]
            .iter()
            .position(|&b| b == b'/')
            .map_or(bytes.len(), |i| start + i);
        let mut row = Vec::new();
        let mut i = start;
        while i < end {
            if separator(bytes[i]) {
                i += 1;
                continue;
            }
            let stop = bytes[i..end]
                .iter()
                .position(|&b| separator(b))
                .map_or(end, |k| i + k);
            let code = &bytes[i..stop];
            // A letter that is no edge is named first, as a character.
            if let Some(k) = code.iter().position(|b| !b"CRF".contains(b)) {
                return Err(error(
                    i + k,
                    "a tile edge 'C', 'R' or 'F'",
                    Found::first_of(&code[k..]),
                ));
            }
            let tile = Tile::try_from(code).map_err(|_| {
                error(
                    i,
                    "a tile of 4 letters 'C', 'R' or 'F'",
                    Found::Word { len: code.len() },
                )
            })?;
            if let Some(first) = rows.first()
                && row.len() == first.len()
            {
                return Err(error(
                    i,
                    "'/' or the end of the board (every row as long as the first)",
                    Found::first_of(&bytes[i..]),
                ));
            }
            row.push(tile);
            i = stop;
        }
        let trailing = row.is_empty() && end == bytes.len() && !rows.is_empty();
        if trailing {
            break;
        }
        let short = rows.first().is_some_and(|f| row.len() < f.len());
        if row.is_empty() || short {
            let expected = if short {
                "another tile (every row as long as the first)"
            } else {
                "a tile of 4 letters 'C', 'R' or 'F'"
            };
            return Err(error(end, expected, Found::first_of(&bytes[end..])));
        }
        rows.push(row);
        if end == bytes.len() {
            break;
        }
        start = end + 1;
    }
    Ok(rows)
}

/// A board of tiles in row-major order (row 0 first).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    rows: usize,
    cols: usize,
    tiles: Vec<Tile>,
}

impl Board {
    /// A `rows × cols` board of `tiles`, row-major. Both sides must be at
    /// least 1, the narrower at most [`MAX_NARROW_SIDE`] (the other is
    /// unbounded), and there must be exactly `rows × cols` tiles.
    ///
    /// ```
    /// use boardbase::carcassonne::{Board, Error, Tile};
    /// let t: Tile = "RRRF".parse().unwrap();
    /// assert!(Board::new(1, 2, vec![t, t]).is_ok());
    /// assert!(matches!(Board::new(1, 3, vec![t, t]), Err(Error::TileCount { .. })));
    /// ```
    pub fn new(rows: usize, cols: usize, tiles: Vec<Tile>) -> Result<Board, Error> {
        if rows == 0 || cols == 0 {
            return Err(Error::EmptySide { rows, cols });
        }
        if rows.min(cols) > MAX_NARROW_SIDE {
            return Err(Error::TooWide {
                rows,
                cols,
                max: MAX_NARROW_SIDE,
            });
        }
        if rows.checked_mul(cols) != Some(tiles.len()) {
            return Err(Error::TileCount {
                rows,
                cols,
                tiles: tiles.len(),
            });
        }
        Ok(Board { rows, cols, tiles })
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Number of columns.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// The tiles, row-major.
    pub fn tiles(&self) -> &[Tile] {
        &self.tiles
    }

    /// The tile at (`row`, `col`). Panics out of range.
    pub fn tile(&self, row: usize, col: usize) -> Tile {
        assert!(row < self.rows && col < self.cols, "cell out of range");
        self.tiles[row * self.cols + col]
    }

    /// The board mirrored in its main diagonal (cell (r, c) moves to (c, r)),
    /// every tile reflected so its edges stay clockwise. It has the same
    /// number of valid placements; turning a tile `k` times clockwise here
    /// corresponds to `(4 - k) % 4` turns on the transposed board.
    pub fn transposed(&self) -> Board {
        let tiles = (0..self.cols)
            .flat_map(|c| (0..self.rows).map(move |r| (r, c)))
            .map(|(r, c)| Tile::from_packed(self.tile(r, c).packed().reflect_transpose()))
            .collect();
        Board {
            rows: self.cols,
            cols: self.rows,
            tiles,
        }
    }
}
