//! Grids of two symbols: the [`Alphabet`] that decodes cells, and the one
//! parser of a board's text, [`Alphabet::parse_board`].
//!
//! The streaming [`Scanner`](crate::input::Scanner) decodes the judges'
//! inputs through an [`Alphabet`], with a word-wide fast path for 4×4 boards
//! ([`Alphabet::decode_canonical`]). The text of one board, whoever reads
//! it (`FromStr` of [`flip::Board`](crate::flip::Board),
//! [`euler::Position`](crate::euler::Position) and `lights::Grid`, the
//! command line's `--board`, the server's `board=`), goes through
//! [`Alphabet::parse_board`]: every front end accepts the same text and
//! reports the same errors, at the same line and column.

use boardbase_tables::shape::{MAX_SIDE, Shape};

use crate::error::{Found, ParseError};

/// The symbols of a grid's two cell values, e.g. `w`/`b` or `.`/`X`, and
/// how errors name them.
///
/// An alphabet has one pair of symbols ([`Alphabet::new`]), the pair the
/// 4×4 fast path decodes, and may accept more ([`Alphabet::also`]): a
/// lights grid reads `w`/`b` and `0`/`1`.
#[derive(Clone, Debug)]
pub struct Alphabet {
    /// Bit value of each byte: 0 or 1, or [`Alphabet::INVALID`].
    value: [u32; 256],
    /// Description for errors, e.g. `"'b' or 'w'"`.
    expected: &'static str,
    /// The canonical 20-byte layout (`XXXX\n` four times) with every cell
    /// showing the zero symbol, as three little-endian words.
    template: [u64; 3],
    /// `zero ^ one`: the bits in which the two symbols differ.
    diff: u8,
    /// The lowest bit of `diff`: the one bit read to tell the symbols apart.
    shift: u32,
}

/// Byte `i` of the canonical 20-byte layout is a cell unless `i % 5 == 4`.
const fn is_cell(i: usize) -> bool {
    i % 5 != 4
}

/// Whether a byte may be a cell's symbol: not a blank, a new line or `/`,
/// which a board's text has around and between its rows.
const fn may_be_symbol(b: u8) -> bool {
    !matches!(b, b' ' | b'\t' | b'\r' | b'\n' | b'/')
}

/// Splits the 20 canonical bytes into words of 8, 8 and 4 bytes, with
/// `cell` at cells and `newline` at line ends.
const fn canonical_words(cell: u8, newline: u8) -> [u64; 3] {
    let mut words = [0u64; 3];
    let mut i = 0;
    while i < 20 {
        let b = if is_cell(i) { cell } else { newline };
        words[i / 8] |= (b as u64) << (8 * (i % 8));
        i += 1;
    }
    words
}

/// `0x01` in every cell byte of the three canonical words.
const CELL_ONES: [u64; 3] = canonical_words(1, 0);

/// Gathers bit 0 of each byte of a word into bits 0..8 (byte `i` to bit `i`).
#[inline]
const fn gather(bytes01: u64) -> u64 {
    bytes01.wrapping_mul(0x0102_0408_1020_4080) >> 56
}

impl Alphabet {
    /// Marker for bytes outside the alphabet. It is large enough that any
    /// row containing it decodes to a value of 16 or more.
    const INVALID: u32 = 1 << 8;

    /// An alphabet where `zero` is bit 0, `one` is bit 1, and errors say
    /// `expected`.
    ///
    /// # Panics
    ///
    /// If the two symbols are the same, or either is a blank (space, tab,
    /// `\r`), a new line or `/`, which a board's text has between its rows
    /// (at compile time for a `const`).
    pub const fn new(zero: u8, one: u8, expected: &'static str) -> Alphabet {
        let mut value = [Self::INVALID; 256];
        value[zero as usize] = 0;
        value[one as usize] = 1;
        let diff = zero ^ one;
        assert!(diff != 0, "the two symbols must differ");
        assert!(
            zero != b'\n' && one != b'\n',
            "a symbol cannot be a newline"
        );
        assert!(
            may_be_symbol(zero) && may_be_symbol(one),
            "a symbol cannot be a blank or '/'"
        );
        Alphabet {
            value,
            expected,
            template: canonical_words(zero, b'\n'),
            diff,
            shift: diff.trailing_zeros(),
        }
    }

    /// This alphabet with two more symbols, `zero` for bit 0 and `one` for
    /// bit 1, and errors saying `expected` (which should name every
    /// symbol). The fast path ([`Alphabet::decode_canonical`]) still
    /// decodes the first pair only; every other reader takes them all.
    ///
    /// ```
    /// use boardbase::grid::{Alphabet, Expect};
    ///
    /// const CELLS: Alphabet =
    ///     Alphabet::new(b'w', b'b', "'b' or 'w'").also(b'0', b'1', "'b', 'w', '1' or '0'");
    /// assert_eq!((CELLS.decode(b'1'), CELLS.decode(b'w')), (Some(1), Some(0)));
    /// //   b 0 1
    /// //   w 1 b
    /// let rows = CELLS.parse_board("b01/w1b", Expect::Any)?;
    /// assert_eq!(rows.rows(), [0b101, 0b110]);
    /// # Ok::<(), boardbase::grid::BoardTextError>(())
    /// ```
    ///
    /// # Panics
    ///
    /// If the two symbols are the same, if either is a blank, a new line or
    /// `/`, or if either already stands for the other bit.
    pub const fn also(mut self, zero: u8, one: u8, expected: &'static str) -> Alphabet {
        assert!(zero != one, "the two symbols must differ");
        assert!(
            may_be_symbol(zero) && may_be_symbol(one),
            "a symbol cannot be a blank, a newline or '/'"
        );
        assert!(
            self.value[zero as usize] != 1 && self.value[one as usize] != 0,
            "a symbol cannot stand for both bits"
        );
        self.value[zero as usize] = 0;
        self.value[one as usize] = 1;
        self.expected = expected;
        self
    }

    /// Decodes a whole grid in the canonical layout, `XXXX\n` four times,
    /// with a few word-wide operations: `None` when a cell is not one of
    /// the first pair of symbols (those of [`Alphabet::new`]) or a line end
    /// is not exactly `\n` (then the caller takes the general path, which
    /// also finds the error).
    #[inline(always)]
    pub fn decode_canonical(&self, bytes: &[u8; 20]) -> Option<u16> {
        let word = |i: usize| {
            let mut w = [0u8; 8];
            let len = if i == 2 { 4 } else { 8 };
            w[..len].copy_from_slice(&bytes[8 * i..8 * i + len]);
            u64::from_le_bytes(w)
        };
        let mut gathered = [0u64; 3];
        let mut bad = 0u64;
        for (i, g) in gathered.iter_mut().enumerate() {
            // Zero where a cell shows `zero` or a line ends in `\n`; `diff`
            // where a cell shows `one`; anything else is invalid.
            let y = word(i) ^ self.template[i];
            let ones = (y >> self.shift) & CELL_ONES[i];
            bad |= y ^ ones.wrapping_mul(u64::from(self.diff));
            *g = gather(ones);
        }
        if bad != 0 {
            return None;
        }
        // Bytes 0-7: cells 0-3, `\n`, cells 4-6. Bytes 8-15: cell 7, `\n`,
        // cells 8-11, `\n`, cell 12. Bytes 16-19: cells 13-15, `\n`.
        let [g0, g1, g2] = gathered;
        let board = (g0 & 0xF)
            | (g0 >> 5) << 4
            | (g1 & 1) << 7
            | ((g1 >> 2) & 0xF) << 8
            | (g1 >> 7) << 12
            | (g2 & 0x7) << 13;
        Some(board as u16)
    }

    /// What errors say this alphabet expected, e.g. `"'b' or 'w'"`.
    pub const fn expected(&self) -> &'static str {
        self.expected
    }

    /// Decodes four cells (column 0 first) into a nibble, or `None` when a
    /// byte is outside the alphabet.
    #[inline]
    pub fn decode4(&self, cells: [u8; 4]) -> Option<u8> {
        let v = self.value[cells[0] as usize]
            | self.value[cells[1] as usize] << 1
            | self.value[cells[2] as usize] << 2
            | self.value[cells[3] as usize] << 3;
        if v < 16 { Some(v as u8) } else { None }
    }

    /// The bit of one byte, or `None` when it is outside the alphabet.
    #[inline]
    pub fn decode(&self, byte: u8) -> Option<u8> {
        let v = self.value[byte as usize];
        if v < 2 { Some(v as u8) } else { None }
    }

    /// Parses a whole 4×4 grid from text: four rows of four cells, separated
    /// by newlines (LF or CRLF) or by `/`. Blanks around rows and blank lines
    /// before and after the grid are accepted. This is
    /// [`Alphabet::parse_board`] with [`Expect::Shape`] 4×4, the grid as a
    /// `u16` (bit `4 * row + col`).
    pub fn parse_grid(&self, text: &str) -> Result<u16, ParseError> {
        let board = self.parse_board(text, Expect::Shape(Shape::SQUARE4))?;
        Ok(board.rows()[..4]
            .iter()
            .enumerate()
            .fold(0, |bits, (r, &row)| bits | (row as u16 & 0xF) << (4 * r)))
    }

    /// Parses the text of one board: the one parser of boards for every
    /// puzzle and front end (the streaming judge formats aside, which the
    /// [`Scanner`](crate::input::Scanner) reads).
    ///
    /// The text is rows of cells of this alphabet, separated by `/` or new
    /// lines (LF or CRLF), at most 64 rows of 64 cells:
    ///
    /// - blanks (spaces, tabs, `\r`) may stand around a row, but not
    ///   between its cells; blank lines and blanks before the board are
    ///   skipped;
    /// - the board ends at the end of the text, at a `/` followed by nothing
    ///   but blanks and new lines, or at a blank line (before that, with an
    ///   expected shape whose rows are not all there yet: a blank line is an
    ///   empty row); after it there may be only blanks and new lines;
    /// - every row has as many cells as the first, or as the expected shape
    ///   says;
    /// - with [`Expect::ShapeOrOneRun`], the board may also be its R·C
    ///   cells in one run, which is cut into rows.
    ///
    /// An error is the first thing wrong in the text, with its 1-based line
    /// and column (in bytes), what was expected there and what was found: a
    /// character that cannot be where it is ([`BoardTextError::Syntax`]),
    /// or a row or row count that does not fit ([`BoardTextError::Misfit`],
    /// which also counts the text's rows, read on to its end or to a
    /// character out of place). Any bytes may be given: invalid UTF-8 is
    /// reported as [`Found::Byte`], and no input makes it panic.
    ///
    /// ```
    /// use boardbase::error::Found;
    /// use boardbase::flip::ALPHABET;
    /// use boardbase::grid::{BoardTextError, Expect};
    /// use boardbase::tables::shape::Shape;
    ///
    /// //   b w b
    /// //   w w b
    /// let board = ALPHABET.parse_board("bwb/wwb", Expect::Any)?;
    /// assert_eq!(board.shape(), Shape::new(2, 3).unwrap());
    /// assert_eq!(board.rows(), [0b101, 0b100]); // column c at bit c
    /// assert_eq!(board.to_u64(), Some(0b100_101)); // bit 3·row + col
    ///
    /// // The same board on two lines, or in one run when the shape is given.
    /// let lines = ALPHABET.parse_board("  bwb\r\n  wwb\r\n", Expect::Any)?;
    /// let run = ALPHABET.parse_board("bwbwwb", Expect::ShapeOrOneRun(board.shape()))?;
    /// assert_eq!((&lines, &run), (&board, &board));
    ///
    /// // A bad cell: where it is, what was expected, what was found.
    /// let e = ALPHABET.parse_board("bwb\nwxb", Expect::Any).unwrap_err();
    /// assert_eq!(e.to_string(), "2:2: expected 'b' or 'w', found 'x'");
    /// assert!(matches!(e, BoardTextError::Syntax(_)));
    ///
    /// // A short row, and the size of the whole text.
    /// let e = ALPHABET.parse_board("bwb/ww/bbb", Expect::Any).unwrap_err();
    /// assert_eq!(e.parse_error().column, 7);
    /// assert_eq!(e.parse_error().found, Found::Char('/'));
    /// assert!(matches!(
    ///     e,
    ///     BoardTextError::Misfit { rows: 3, cols: 3, ragged: Some((1, 2)), .. }
    /// ));
    /// # Ok::<(), BoardTextError>(())
    /// ```
    pub fn parse_board(
        &self,
        text: impl AsRef<[u8]>,
        expect: Expect,
    ) -> Result<Rows, BoardTextError> {
        self.parse_bytes(text.as_ref(), expect)
    }

    /// [`Alphabet::parse_board`], not generic.
    fn parse_bytes(&self, bytes: &[u8], expect: Expect) -> Result<Rows, BoardTextError> {
        let mut cur = Cursor::new(bytes);
        cur.skip_whitespace();
        if cur.peek().is_none() {
            return Err(BoardTextError::Empty(cur.error(self.expected)));
        }
        let (shape, one_run) = match expect {
            Expect::Any => (None, false),
            Expect::Shape(s) => (Some(s), false),
            Expect::ShapeOrOneRun(s) => (Some(s), true),
        };
        let mut rows = [0u64; MAX_SIDE];
        // Rows read, the cells of the first, the first row with another
        // number of cells (and its cells).
        let (mut n_rows, mut first_cols) = (0usize, 0usize);
        let mut ragged = None;
        // The first row or row count that does not fit. The text is read
        // on, to count its rows, unless a character is out of place.
        let mut misfit: Option<ParseError> = None;
        // A first row of R·C cells when one run may be the whole board: a
        // misfit (a row too long) only if another row follows.
        let mut run: Option<ParseError> = None;
        let misfit_at = |error, rows, cols, ragged| BoardTextError::Misfit {
            error,
            rows,
            cols,
            ragged,
        };
        loop {
            cur.skip_blanks();
            if n_rows == MAX_SIDE {
                misfit.get_or_insert(cur.error(TOO_MANY_ROWS));
            }
            let start = cur;
            let mut n = 0usize;
            while let Some(bit) = cur.peek().and_then(|b| self.decode(b)) {
                // A first row of a known shape may be its cells in one run:
                // cell n at (n / C, n % C), which for a row of C cells is
                // (0, n).
                let (r, c) = match shape {
                    Some(s) if n_rows == 0 => (n / s.cols(), n % s.cols()),
                    _ => (n_rows, n),
                };
                if r < MAX_SIDE && c < MAX_SIDE {
                    rows[r] |= u64::from(bit) << c;
                }
                n += 1;
                cur.pos += 1;
            }
            let stop = cur;
            if n_rows == 0 {
                first_cols = n;
            }
            // The width the row must have: the shape's, or the first row's.
            let width = match shape {
                Some(s) => Some(s.cols()),
                None if n_rows > 0 => Some(first_cols),
                None => None,
            };
            // A row too long: at its first cell too many.
            let too_long = match width {
                Some(w) if n > w => Some(start.skip(w).error(if shape.is_some() {
                    ROW_ENDS[w - 1]
                } else {
                    ROW_END_AS_FIRST
                })),
                None if n > MAX_SIDE => Some(start.skip(MAX_SIDE).error(TOO_MANY_CELLS)),
                _ => None,
            };
            if let Some(e) = too_long {
                if one_run && n_rows == 0 && shape.is_some_and(|s| n == s.cells()) {
                    run = Some(e);
                } else {
                    misfit.get_or_insert(e);
                }
            }
            // Whether the row cannot end here: empty, shorter than it must
            // be, or a run of cells cut short.
            let cut_short = shape.is_some_and(|s| n > s.cols() && n < s.cells());
            let needs_cell =
                n == 0 || width.is_some_and(|w| n < w) || (one_run && n_rows == 0 && cut_short);
            cur.skip_blanks();
            // Only the end, `/` or a new line may follow a row (and a first
            // row has a cell).
            let ends = matches!(cur.peek(), None | Some(b'/' | b'\n')) && (n > 0 || n_rows > 0);
            // A row's cells are known if it ends here; more than the first
            // row's are too many whatever follows.
            if n_rows > 0 && ragged.is_none() && (n > first_cols || (ends && n != first_cols)) {
                ragged = Some((n_rows, n));
            }
            if !ends {
                // A character no board has here: where the row needs a
                // cell, the first byte after its cells; else what follows
                // the blanks after them.
                let error = match (needs_cell, width) {
                    (true, _) => stop.error(self.expected),
                    (false, None) => cur.error(CELL_OR_ROW_END),
                    (false, Some(w)) if shape.is_some() => cur.error(ROW_ENDS[w - 1]),
                    (false, Some(_)) => cur.error(ROW_END_AS_FIRST),
                };
                return Err(match misfit {
                    Some(first) => misfit_at(first, n_rows + 1, first_cols, ragged),
                    None => BoardTextError::Syntax(error),
                });
            }
            match width {
                Some(w) if n < w => {
                    let expected = if n == 0 || shape.is_some() {
                        self.expected
                    } else {
                        ANOTHER_CELL_AS_FIRST
                    };
                    misfit.get_or_insert(stop.error(expected));
                }
                _ => {}
            }
            n_rows += 1;
            // What follows: the end of the board, or a separator and
            // another row.
            let separator = cur;
            let more = match cur.peek() {
                Some(b'/') => {
                    cur.pos += 1;
                    !cur.rest_is_whitespace()
                }
                Some(_) => {
                    cur.newline();
                    // A blank line ends the board, unless rows are missing
                    // (and not in one run) and more text follows: then it
                    // is an empty row.
                    let mut next = cur;
                    next.skip_blanks();
                    let complete = run.is_some() || shape.is_none_or(|s| n_rows >= s.rows());
                    !matches!(next.peek(), None | Some(b'\n'))
                        || !(complete || next.rest_is_whitespace())
                }
                None => false,
            };
            if !more {
                break;
            }
            if let Some(e) = run.take() {
                misfit.get_or_insert(e);
            }
            if shape.is_some_and(|s| n_rows == s.rows()) {
                // A row too many: at the `/`, or where the next line's text
                // starts.
                let mut at = cur;
                at.skip_blanks();
                if separator.peek() == Some(b'/') {
                    at = separator;
                }
                misfit.get_or_insert(at.error(END));
            }
        }
        cur.skip_blanks();
        if let Some(s) = shape
            && n_rows < s.rows()
            && run.is_none()
        {
            misfit.get_or_insert(cur.error(ROW_NAMES[n_rows]));
        }
        cur.skip_whitespace();
        if cur.peek().is_some() {
            return Err(match misfit {
                Some(first) => misfit_at(first, n_rows, first_cols, ragged),
                None => BoardTextError::Syntax(cur.error(END)),
            });
        }
        // One run of R·C cells was cut into rows as it was read.
        match (misfit, shape.or_else(|| Shape::new(n_rows, first_cols))) {
            (None, Some(shape)) => Ok(Rows { shape, rows }),
            // Without a misfit the rows make a shape (1 to 64 rows of 1 to
            // 64 cells): the fallback only keeps the parser free of panics.
            (misfit, _) => Err(misfit_at(
                misfit.unwrap_or_else(|| Cursor::new(bytes).error(TOO_MANY_CELLS)),
                n_rows,
                first_cols,
                ragged,
            )),
        }
    }
}

/// What a board's text must be, besides rows of cells: see
/// [`Alphabet::parse_board`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expect {
    /// Any shape of 1 to 64 rows of 1 to 64 cells: the first row gives the
    /// width, and the rows end at a blank line or at the end of the text.
    Any,
    /// This shape, row by row.
    Shape(Shape),
    /// This shape, row by row or as its R·C cells in one run (as the
    /// server's `board=bwwbbbwbbwwbbwww&size=4x4`).
    ShapeOrOneRun(Shape),
}

impl From<Option<Shape>> for Expect {
    /// [`Expect::Shape`] when the shape is known, else [`Expect::Any`].
    fn from(shape: Option<Shape>) -> Expect {
        shape.map_or(Expect::Any, Expect::Shape)
    }
}

/// A board read by [`Alphabet::parse_board`]: its shape and its rows.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Rows {
    shape: Shape,
    /// Row `r` at `rows[r]`, column `c` at bit `c`; clear outside the shape.
    rows: [u64; MAX_SIDE],
}

impl Rows {
    /// The board's shape.
    pub const fn shape(&self) -> Shape {
        self.shape
    }

    /// The board's rows, row 0 first, column `c` at bit `c`.
    pub fn rows(&self) -> &[u64] {
        &self.rows[..self.shape.rows()]
    }

    /// The board in the `u64` layout of [`Shape`] (cell (`row`, `col`) at bit
    /// `cols · row + col`), when it has at most 64 cells.
    pub fn to_u64(&self) -> Option<u64> {
        self.shape
            .fits_u64()
            .then(|| self.shape.board_of_rows(self.rows()))
    }
}

/// Why [`Alphabet::parse_board`] refused a text. Every error has the line
/// and column of what is wrong ([`BoardTextError::parse_error`]); `Display`
/// is the [`ParseError`]'s, e.g. `2:2: expected 'b' or 'w', found 'x'`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoardTextError {
    /// Nothing but blanks and new lines: the error is at the end.
    #[error("{0}")]
    Empty(ParseError),
    /// A character that no board's text has where it is: a byte outside
    /// the alphabet, a blank between cells, a `/` before the first row,
    /// text after the board.
    #[error("{0}")]
    Syntax(ParseError),
    /// The rows do not make the board expected: a row with another number
    /// of cells than the first (or than the shape's columns), more or fewer
    /// rows than the shape's, more than 64 rows or cells a row. The error is
    /// at the first of these; the counts are the text's, read on to its end
    /// (or to a character out of place after the error, if there is one).
    #[error("{error}")]
    Misfit {
        /// Where the first row or row count that does not fit is.
        error: ParseError,
        /// The rows of the text (an empty row between two `/` counts).
        rows: usize,
        /// The cells of its first row.
        cols: usize,
        /// The first row (0-based) with another number of cells than the
        /// first, and its cells.
        ragged: Option<(usize, usize)>,
    },
}

impl BoardTextError {
    /// Where the error is, what was expected there and what was found.
    pub const fn parse_error(&self) -> &ParseError {
        match self {
            BoardTextError::Empty(e) | BoardTextError::Syntax(e) => e,
            BoardTextError::Misfit { error, .. } => error,
        }
    }
}

impl From<BoardTextError> for ParseError {
    fn from(e: BoardTextError) -> ParseError {
        *e.parse_error()
    }
}

/// What errors expect after the first row's cells, its width not yet known.
const CELL_OR_ROW_END: &str = "a cell, '/' or the end of the row";
/// What errors expect where a row is shorter than the first.
const ANOTHER_CELL_AS_FIRST: &str = "another cell (every row as long as the first)";
/// What errors expect where a row is longer than the first.
const ROW_END_AS_FIRST: &str = "the end of the row (every row as long as the first)";
/// What errors expect at a 65th cell in a row.
const TOO_MANY_CELLS: &str = "at most 64 cells a row";
/// What errors expect at a 65th row.
const TOO_MANY_ROWS: &str = "at most 64 rows";
/// What errors expect after the board's last row.
const END: &str = "the end of the grid";

/// What a missing row of an R×C board is called in errors, by row.
pub(crate) const ROW_NAMES: [&str; MAX_SIDE] = [
    "row 1 of a board",
    "row 2 of a board",
    "row 3 of a board",
    "row 4 of a board",
    "row 5 of a board",
    "row 6 of a board",
    "row 7 of a board",
    "row 8 of a board",
    "row 9 of a board",
    "row 10 of a board",
    "row 11 of a board",
    "row 12 of a board",
    "row 13 of a board",
    "row 14 of a board",
    "row 15 of a board",
    "row 16 of a board",
    "row 17 of a board",
    "row 18 of a board",
    "row 19 of a board",
    "row 20 of a board",
    "row 21 of a board",
    "row 22 of a board",
    "row 23 of a board",
    "row 24 of a board",
    "row 25 of a board",
    "row 26 of a board",
    "row 27 of a board",
    "row 28 of a board",
    "row 29 of a board",
    "row 30 of a board",
    "row 31 of a board",
    "row 32 of a board",
    "row 33 of a board",
    "row 34 of a board",
    "row 35 of a board",
    "row 36 of a board",
    "row 37 of a board",
    "row 38 of a board",
    "row 39 of a board",
    "row 40 of a board",
    "row 41 of a board",
    "row 42 of a board",
    "row 43 of a board",
    "row 44 of a board",
    "row 45 of a board",
    "row 46 of a board",
    "row 47 of a board",
    "row 48 of a board",
    "row 49 of a board",
    "row 50 of a board",
    "row 51 of a board",
    "row 52 of a board",
    "row 53 of a board",
    "row 54 of a board",
    "row 55 of a board",
    "row 56 of a board",
    "row 57 of a board",
    "row 58 of a board",
    "row 59 of a board",
    "row 60 of a board",
    "row 61 of a board",
    "row 62 of a board",
    "row 63 of a board",
    "row 64 of a board",
];

/// What errors expect after the last cell of a row of C cells, by C - 1.
pub(crate) const ROW_ENDS: [&str; MAX_SIDE] = [
    "the end of the row after 1 cell",
    "the end of the row after 2 cells",
    "the end of the row after 3 cells",
    "the end of the row after 4 cells",
    "the end of the row after 5 cells",
    "the end of the row after 6 cells",
    "the end of the row after 7 cells",
    "the end of the row after 8 cells",
    "the end of the row after 9 cells",
    "the end of the row after 10 cells",
    "the end of the row after 11 cells",
    "the end of the row after 12 cells",
    "the end of the row after 13 cells",
    "the end of the row after 14 cells",
    "the end of the row after 15 cells",
    "the end of the row after 16 cells",
    "the end of the row after 17 cells",
    "the end of the row after 18 cells",
    "the end of the row after 19 cells",
    "the end of the row after 20 cells",
    "the end of the row after 21 cells",
    "the end of the row after 22 cells",
    "the end of the row after 23 cells",
    "the end of the row after 24 cells",
    "the end of the row after 25 cells",
    "the end of the row after 26 cells",
    "the end of the row after 27 cells",
    "the end of the row after 28 cells",
    "the end of the row after 29 cells",
    "the end of the row after 30 cells",
    "the end of the row after 31 cells",
    "the end of the row after 32 cells",
    "the end of the row after 33 cells",
    "the end of the row after 34 cells",
    "the end of the row after 35 cells",
    "the end of the row after 36 cells",
    "the end of the row after 37 cells",
    "the end of the row after 38 cells",
    "the end of the row after 39 cells",
    "the end of the row after 40 cells",
    "the end of the row after 41 cells",
    "the end of the row after 42 cells",
    "the end of the row after 43 cells",
    "the end of the row after 44 cells",
    "the end of the row after 45 cells",
    "the end of the row after 46 cells",
    "the end of the row after 47 cells",
    "the end of the row after 48 cells",
    "the end of the row after 49 cells",
    "the end of the row after 50 cells",
    "the end of the row after 51 cells",
    "the end of the row after 52 cells",
    "the end of the row after 53 cells",
    "the end of the row after 54 cells",
    "the end of the row after 55 cells",
    "the end of the row after 56 cells",
    "the end of the row after 57 cells",
    "the end of the row after 58 cells",
    "the end of the row after 59 cells",
    "the end of the row after 60 cells",
    "the end of the row after 61 cells",
    "the end of the row after 62 cells",
    "the end of the row after 63 cells",
    "the end of the row after 64 cells",
];

/// A position in a text, with its line and where the line starts.
#[derive(Clone, Copy)]
struct Cursor<'a> {
    bytes: &'a [u8],
    pos: usize,
    line: u64,
    line_start: usize,
}

impl<'a> Cursor<'a> {
    const fn new(bytes: &'a [u8]) -> Cursor<'a> {
        Cursor {
            bytes,
            pos: 0,
            line: 1,
            line_start: 0,
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    /// Steps over the `\n` at the cursor.
    fn newline(&mut self) {
        self.pos += 1;
        self.line += 1;
        self.line_start = self.pos;
    }

    /// This position `n` bytes on, on the same line.
    fn skip(mut self, n: usize) -> Cursor<'a> {
        self.pos = (self.pos + n).min(self.bytes.len());
        self
    }

    fn skip_blanks(&mut self) {
        while let Some(b' ' | b'\t' | b'\r') = self.peek() {
            self.pos += 1;
        }
    }

    fn skip_whitespace(&mut self) {
        loop {
            self.skip_blanks();
            if self.peek() != Some(b'\n') {
                return;
            }
            self.newline();
        }
    }

    /// Whether nothing but blanks and new lines follows.
    fn rest_is_whitespace(&self) -> bool {
        let rest = self.bytes.get(self.pos..).unwrap_or_default();
        rest.iter()
            .all(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
    }

    /// An error here: `expected`, and what is found here.
    fn error(&self, expected: &'static str) -> ParseError {
        let rest = self.bytes.get(self.pos..).unwrap_or_default();
        ParseError {
            line: self.line,
            column: (self.pos - self.line_start + 1) as u64,
            expected,
            found: match rest.first() {
                None => Found::EndOfInput,
                Some(b'\n') => Found::EndOfLine,
                Some(_) => Found::first_of(rest),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BW: Alphabet = Alphabet::new(b'w', b'b', "'b' or 'w'");

    #[test]
    fn slash_and_multiline_forms_agree() {
        let expected = 0b0001_1001_1011_1001;
        assert_eq!(BW.parse_grid("bwwb/bbwb/bwwb/bwww"), Ok(expected));
        assert_eq!(BW.parse_grid("bwwb\nbbwb\nbwwb\nbwww\n"), Ok(expected));
        assert_eq!(
            BW.parse_grid("\r\n  bwwb\r\n  bbwb\r\n  bwwb\r\n  bwww\r\n\n"),
            Ok(expected)
        );
        assert_eq!(BW.parse_grid(" bwwb / bbwb / bwwb / bwww "), Ok(expected));
    }

    #[test]
    fn canonical_decoding_matches_the_cell_by_cell_decoder() {
        let xo = Alphabet::new(b'.', b'X', "'X' or '.'");
        for alphabet in [&BW, &xo] {
            let [zero, one] = [0, 1].map(|bit| {
                (0..=255u8)
                    .find(|&b| alphabet.decode(b) == Some(bit))
                    .unwrap()
            });
            let mut seed = 0x2545_F491_4F6C_DD1Du64;
            for board in (0..=u16::MAX).step_by(7).chain([0, u16::MAX]) {
                let mut bytes = [b'\n'; 20];
                for i in 0..16 {
                    bytes[i + i / 4] = if board >> i & 1 == 1 { one } else { zero };
                }
                assert_eq!(alphabet.decode_canonical(&bytes), Some(board));
                // Corrupt one byte: the fast decoder must refuse, never guess.
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let at = (seed % 20) as usize;
                for b in 0..=255u8 {
                    bytes[at] = b;
                    let valid = if is_cell(at) {
                        alphabet.decode(b).is_some()
                    } else {
                        b == b'\n'
                    };
                    assert_eq!(
                        alphabet.decode_canonical(&bytes).is_some(),
                        valid,
                        "byte {b:#x} at {at}"
                    );
                }
            }
        }
    }

    #[test]
    fn errors_have_positions() {
        let e = BW.parse_grid("bwwb/bbxb/bwwb/bwww").unwrap_err();
        assert_eq!((e.line, e.column, e.found), (1, 8, Found::Char('x')));
        let e = BW.parse_grid("bwwb\nbbwb\nbwwb").unwrap_err();
        assert_eq!((e.line, e.column, e.found), (3, 5, Found::EndOfInput));
        let e = BW.parse_grid("bwwb/bbwb/bwwb/bwww/bwww").unwrap_err();
        assert_eq!((e.line, e.column, e.found), (1, 20, Found::Char('/')));
        let e = BW.parse_grid("bwwbb/bbwb/bwwb/bwww").unwrap_err();
        assert_eq!((e.line, e.column, e.found), (1, 5, Found::Char('b')));
    }

    // The one board parser against a reference written apart from it, on
    // every short text and on random ones.

    /// Blanks, which may stand around a row.
    fn is_blank(b: u8) -> bool {
        matches!(b, b' ' | b'\t' | b'\r')
    }

    /// The reference: the board a text holds, or `None`, by cutting the
    /// text into lines and pieces (no cursor, no positions).
    fn reference(alphabet: &Alphabet, text: &[u8], expect: Expect) -> Option<(Shape, Vec<u64>)> {
        let blank_line = |l: &[u8]| l.iter().all(|&b| is_blank(b));
        let lines: Vec<&[u8]> = text.split(|&b| b == b'\n').collect();
        let first = lines.iter().position(|l| !blank_line(l))?;
        // Inside a board of a known shape, a blank line is an (empty) row:
        // the board then has an empty row and is refused either way. So the
        // board is the lines up to the next blank line, and only blank
        // lines may follow.
        let end = (first..lines.len())
            .find(|&i| blank_line(lines[i]))
            .unwrap_or(lines.len());
        if !lines[end..].iter().all(|l| blank_line(l)) {
            return None;
        }
        let mut pieces: Vec<&[u8]> = lines[first..end]
            .iter()
            .flat_map(|l| l.split(|&b| b == b'/'))
            .collect();
        // A `/` after the last row.
        if pieces.len() > 1 && pieces.last().is_some_and(|p| blank_line(p)) {
            pieces.pop();
        }
        let mut cells: Vec<Vec<u8>> = Vec::new();
        for piece in pieces {
            let from = piece.iter().position(|&b| !is_blank(b))?;
            let to = piece.iter().rposition(|&b| !is_blank(b))? + 1;
            let row: Option<Vec<u8>> = piece[from..to]
                .iter()
                .map(|&b| alphabet.decode(b))
                .collect();
            cells.push(row?);
        }
        let (shape, one_run) = match expect {
            Expect::Any => (Shape::new(cells.len(), cells[0].len())?, false),
            Expect::Shape(s) => (s, false),
            Expect::ShapeOrOneRun(s) => (s, true),
        };
        if one_run && cells.len() == 1 && cells[0].len() == shape.cells() {
            cells = cells[0].chunks(shape.cols()).map(<[u8]>::to_vec).collect();
        }
        if cells.len() != shape.rows() || cells.iter().any(|r| r.len() != shape.cols()) {
            return None;
        }
        let rows = cells
            .iter()
            .map(|r| {
                r.iter()
                    .rev()
                    .fold(0, |bits, &b| (bits << 1) | u64::from(b))
            })
            .collect();
        Some((shape, rows))
    }

    /// Checks that `e` points inside `text` (or just past a line or the
    /// text) at what it says it found.
    fn assert_points_at(text: &[u8], e: &ParseError) {
        let lines: Vec<&[u8]> = text.split(|&b| b == b'\n').collect();
        assert!(e.line >= 1 && e.column >= 1, "{e}");
        let line = lines[e.line as usize - 1];
        let at = &line[e.column as usize - 1..];
        match e.found {
            Found::Char(c) => {
                let mut buf = [0; 4];
                assert!(at.starts_with(c.encode_utf8(&mut buf).as_bytes()), "{e}");
            }
            Found::Byte(b) => assert_eq!(at.first(), Some(&b), "{e}"),
            Found::EndOfLine => assert!(at.is_empty() && (e.line as usize) < lines.len(), "{e}"),
            Found::EndOfInput => assert!(at.is_empty() && e.line as usize == lines.len(), "{e}"),
            _ => panic!("not made by the board parser: {e}"),
        }
    }

    /// Parses `text` every way and checks each result against the reference.
    fn check_against_reference(text: &[u8]) {
        let xo = Alphabet::new(b'.', b'X', "'X' or '.'").also(b'o', b'O', "a cell");
        let shapes =
            [(1, 1), (1, 3), (2, 2), (3, 1), (2, 3)].map(|(r, c)| Shape::new(r, c).unwrap());
        for alphabet in [&BW, &xo] {
            for expect in [Expect::Any]
                .into_iter()
                .chain(shapes.iter().map(|&s| Expect::Shape(s)))
                .chain(shapes.iter().map(|&s| Expect::ShapeOrOneRun(s)))
            {
                let got = alphabet.parse_board(text, expect);
                let want = reference(alphabet, text, expect);
                match (&got, &want) {
                    (Ok(rows), Some((shape, bits))) => {
                        assert_eq!(
                            (rows.shape(), rows.rows()),
                            (*shape, &bits[..]),
                            "{text:?} {expect:?}"
                        );
                    }
                    (Err(e), None) => {
                        assert_points_at(text, e.parse_error());
                        if let BoardTextError::Empty(_) = e {
                            assert!(text.iter().all(|&b| is_blank(b) || b == b'\n'));
                        }
                    }
                    _ => panic!("{text:?} {expect:?}: {got:?}, the reference says {want:?}"),
                }
            }
        }
    }

    #[test]
    fn every_short_text_parses_as_the_reference_reads_it() {
        // Cells of both alphabets, a byte outside them, the separators,
        // blanks, and the first byte of a two-byte character.
        const BYTES: [u8; 9] = [b'b', b'w', b'X', b'.', b'/', b'\n', b' ', b'\r', 0xC3];
        let mut text = Vec::new();
        for len in 0..=6u32 {
            for mut k in 0..BYTES.len().pow(len) {
                text.clear();
                for _ in 0..len {
                    text.push(BYTES[k % BYTES.len()]);
                    k /= BYTES.len();
                }
                check_against_reference(&text);
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]

        #[test]
        fn any_bytes_parse_as_the_reference_reads_them(
            text in proptest::collection::vec(
                proptest::sample::select(b"bwwbX.o/\n\n  \t\r/x\xC3\xA9".to_vec()), 0..40)
        ) {
            check_against_reference(&text);
        }

        #[test]
        fn boards_read_back_however_they_are_laid_out(
            rows in 1usize..=64,
            cols in 1usize..=64,
            bits in proptest::collection::vec(proptest::prelude::any::<u64>(), 64),
            layout in proptest::prelude::any::<u64>(),
        ) {
            let shape = Shape::new(rows, cols).unwrap();
            let want: Vec<u64> = bits[..rows].iter().map(|b| b & shape.row_mask()).collect();
            let pick = |i: usize, of: &[&'static str]| of[((layout >> (i % 61)) & 7) as usize % of.len()];
            let mut text = String::from(pick(0, &["", "\n", "  \r\n\t", " "]));
            for (r, row) in want.iter().enumerate() {
                if r > 0 {
                    text += pick(r, &["/", "\n", "\r\n", " / ", "\t\n  "]);
                }
                text.extend((0..cols).map(|c| if row >> c & 1 == 1 { 'b' } else { 'w' }));
            }
            text += pick(3, &["", "\n", "/", "/ \n\n", " \r\n\n  "]);
            for expect in [Expect::Any, Expect::Shape(shape), Expect::ShapeOrOneRun(shape)] {
                let got = BW.parse_board(&text, expect).map_err(|e| e.to_string());
                proptest::prop_assert_eq!(got.as_ref().map(|g| (g.shape(), g.rows())), Ok((shape, &want[..])), "{:?}", text);
            }
            // One run of R·C cells, when the shape is given.
            let run: String = text.chars().filter(|&c| c == 'b' || c == 'w').collect();
            let got = BW.parse_board(&run, Expect::ShapeOrOneRun(shape)).map_err(|e| e.to_string());
            proptest::prop_assert_eq!(got.as_ref().map(|g| g.rows()), Ok(&want[..]));
            let wide = BW.parse_board(&run, Expect::Any);
            proptest::prop_assert_eq!(wide.is_ok(), rows * cols <= 64);
        }
    }

    #[test]
    fn misfits_name_the_whole_text() {
        let four = Shape::SQUARE4;
        let misfit = |text: &str, expect: Expect| match BW.parse_board(text, expect) {
            Err(BoardTextError::Misfit {
                error,
                rows,
                cols,
                ragged,
            }) => (error.line, error.column, rows, cols, ragged),
            other => panic!("{text:?}: {other:?}"),
        };
        // Too many rows: where the first extra one starts, and all of them.
        let five = "bwwb/bbwb/bwwb/bwww/bbbb/bbbb";
        assert_eq!(misfit(five, Expect::Shape(four)), (1, 20, 6, 4, None));
        assert_eq!(
            misfit(five, Expect::ShapeOrOneRun(four)),
            (1, 20, 6, 4, None)
        );
        // A run of the wrong length, a row too long for the shape.
        assert_eq!(
            misfit("bwwbbbwb", Expect::ShapeOrOneRun(four)),
            (1, 5, 1, 8, None)
        );
        assert_eq!(
            misfit("bwwbb\nbbwb\nbwwb\nbwww", Expect::Shape(four)),
            (1, 5, 4, 5, Some((1, 4)))
        );
        // An empty row between two '/', a blank line inside a 4x4 board.
        assert_eq!(misfit("bw//bw", Expect::Any), (1, 4, 3, 2, Some((1, 0))));
        assert_eq!(
            misfit("bwwb\n\nbbwb\nbwwb\nbwww", Expect::Shape(four)),
            (2, 1, 5, 4, Some((1, 0)))
        );
        // Past 64: the whole text's size.
        let wide = vec!["w".repeat(70); 3].join("/");
        assert_eq!(misfit(&wide, Expect::Any), (1, 65, 3, 70, None));
        // The first error in the text: a character out of place, or a row
        // that does not fit (the rows counted up to the character).
        let e = BW.parse_board("bw/bx/bww", Expect::Any).unwrap_err();
        assert!(matches!(e, BoardTextError::Syntax(_)), "{e:?}");
        assert_eq!(
            (e.parse_error().column, e.parse_error().found),
            (5, Found::Char('x'))
        );
        assert_eq!(
            misfit("bw/bww/bx/bw", Expect::Any),
            (1, 6, 3, 2, Some((1, 3)))
        );
        assert_eq!(misfit("b\nwbx", Expect::Any), (2, 2, 2, 1, Some((1, 2))));
        // A run of R·C cells is the whole board, or a row too long.
        let run = "bwwbbbwbbwwbbwww";
        assert!(BW.parse_board(run, Expect::ShapeOrOneRun(four)).is_ok());
        let e = BW.parse_board(format!("{run}\n\nx"), Expect::ShapeOrOneRun(four));
        assert!(matches!(e, Err(BoardTextError::Syntax(_))), "{e:?}");
        let e = misfit(&format!("{run}/bwwb"), Expect::ShapeOrOneRun(four));
        assert_eq!(e, (1, 5, 2, 16, Some((1, 4))));
    }
}
