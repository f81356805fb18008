//! Streaming input: a fixed-size refilled buffer with line and column tracking.
//!
//! [`Scanner`] reads any [`Read`] through one buffer of [`BUFFER_SIZE`] bytes
//! that is refilled in place, so memory stays flat however large the input
//! is, and nothing is copied into a growing `Vec`. The grid readers have a
//! fast path for the canonical layout (a whole `XXXX\n` row decoded with four
//! table lookups) and fall back to a general path that accepts CRLF, blanks
//! around a row and blank lines, and that reports errors with their line and
//! column.

use std::io::{self, Read};

use boardbase_tables::shape::{MAX_SIDE, Shape};

use crate::error::{Classify, Found, Kind, ParseError};
use crate::grid::{Alphabet, ROW_ENDS, ROW_NAMES};

/// Size of the refilled read buffer (256 KiB).
pub const BUFFER_SIZE: usize = 256 * 1024;

/// The longest run of bytes the parsers ever need to see at once; the buffer
/// always keeps at least this much look-ahead available before the end of
/// the input.
const LOOKAHEAD: usize = 64;

/// An error while reading input: bad syntax (with its position) or I/O.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// The input is not well formed.
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// The input could not be read.
    #[error("read error: {0}")]
    Io(#[from] io::Error),
}

impl Classify for InputError {
    fn kind(&self) -> Kind {
        match self {
            InputError::Parse(e) => e.kind(),
            InputError::Io(_) => Kind::Io,
        }
    }
}

/// A whitespace-delimited word read by [`Scanner::read_word`], with the
/// position of its first byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Word<const N: usize> {
    /// The bytes of the word.
    pub bytes: [u8; N],
    /// 1-based line of the first byte.
    pub line: u64,
    /// 1-based column of the first byte.
    pub column: u64,
}

/// A streaming reader over a fixed, refilled buffer that knows the line and
/// column of every byte it hands out.
pub struct Scanner<R> {
    src: R,
    buf: Box<[u8]>,
    pos: usize,
    end: usize,
    eof: bool,
    /// Absolute offset of `buf[0]` in the input.
    base: u64,
    /// 1-based line number of the byte at `pos`.
    line: u64,
    /// Absolute offset of the first byte of the current line.
    line_start: u64,
    /// Whether a 4×4 grid was read whole ([`Scanner::read_grid`]).
    grid_read: bool,
    /// Whether the last error of a 4×4 grid was the first grid's first row
    /// holding more or fewer than 4 cells ([`Scanner::misfit_first_row`]).
    misfit_first_row: bool,
}

impl<R: Read> Scanner<R> {
    /// A scanner over `src` with a [`BUFFER_SIZE`] buffer.
    pub fn new(src: R) -> Self {
        Self::with_capacity(src, BUFFER_SIZE)
    }

    /// A scanner with a buffer of `capacity` bytes (at least 2 × the
    /// internal look-ahead; smaller values are raised). Mostly for tests that
    /// want refills to fall in awkward places.
    pub fn with_capacity(src: R, capacity: usize) -> Self {
        Scanner {
            src,
            buf: vec![0; capacity.max(2 * LOOKAHEAD)].into_boxed_slice(),
            pos: 0,
            end: 0,
            eof: false,
            base: 0,
            line: 1,
            line_start: 0,
            grid_read: false,
            misfit_first_row: false,
        }
    }

    /// Whether the error [`Scanner::read_grid`] (or [`Scanner::read_rows`]
    /// of a 4×4 shape) last returned was the first board's first row of
    /// cells ending before its fourth cell or going on past it: a board of
    /// another width, which a front end reading 4×4 boards by default can
    /// answer with a hint of how to give the size (after a board of 4×4, a
    /// row of another width is a mistake in that row). The error itself is
    /// worded as any other.
    pub fn misfit_first_row(&self) -> bool {
        self.misfit_first_row
    }

    /// 1-based line and column of the next unread byte.
    pub fn position(&self) -> (u64, u64) {
        (self.line, self.base + self.pos as u64 - self.line_start + 1)
    }

    /// A parse error at the next unread byte.
    pub fn error_here(&self, expected: &'static str, found: Found) -> InputError {
        let (line, column) = self.position();
        InputError::Parse(ParseError {
            line,
            column,
            expected,
            found,
        })
    }

    /// A parse error describing what is at the next unread byte. The outer
    /// `Result` carries an I/O error met while looking.
    pub fn unexpected(&mut self, expected: &'static str) -> Result<InputError, InputError> {
        let found = self.found_here()?;
        Ok(self.error_here(expected, found))
    }

    /// Describes what is at the next unread byte, for an error message.
    pub fn found_here(&mut self) -> Result<Found, InputError> {
        self.fill(4)?;
        let rest = &self.buf[self.pos..self.end];
        Ok(match rest.first() {
            None => Found::EndOfInput,
            Some(b'\n') => Found::EndOfLine,
            Some(b'\r') if rest.get(1) == Some(&b'\n') => Found::EndOfLine,
            Some(_) => Found::first_of(rest),
        })
    }

    /// Makes `want` bytes (at most [`LOOKAHEAD`]) available after `pos`,
    /// unless the input ends or a line ends first. Moves the unread tail to
    /// the front of the buffer and refills the rest.
    ///
    /// Stopping at a line end matters for interactive use: a board typed at
    /// a terminal is answered as soon as its last line is entered, without
    /// waiting for look-ahead bytes the user has not typed yet. Callers
    /// therefore treat `want` as a wish: fewer bytes may be buffered when
    /// the unread ones already hold a `\n`.
    #[cold]
    fn refill(&mut self, want: usize) -> io::Result<()> {
        debug_assert!(want <= LOOKAHEAD);
        if self.pos > 0 {
            self.buf.copy_within(self.pos..self.end, 0);
            self.base += self.pos as u64;
            self.end -= self.pos;
            self.pos = 0;
        }
        let mut scanned = 0;
        while self.end < want && !self.eof {
            if self.buf[scanned..self.end].contains(&b'\n') {
                break;
            }
            scanned = self.end;
            match self.src.read(&mut self.buf[self.end..]) {
                Ok(0) => self.eof = true,
                Ok(n) => self.end += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// Buffers `want` bytes after `pos` when the input has them, unless a
    /// line end is already buffered (see [`Scanner::refill`]).
    #[inline]
    fn fill(&mut self, want: usize) -> io::Result<()> {
        if self.end - self.pos < want && !self.eof {
            self.refill(want)?;
        }
        Ok(())
    }

    /// The next unread byte, or `None` at the end of the input.
    #[inline]
    pub fn peek(&mut self) -> io::Result<Option<u8>> {
        self.fill(1)?;
        Ok(self.buf[self.pos..self.end].first().copied())
    }

    /// Consumes one byte (which must have been peeked), tracking lines.
    #[inline]
    fn bump(&mut self) {
        let b = self.buf[self.pos];
        self.pos += 1;
        if b == b'\n' {
            self.newline();
        }
    }

    /// Records that the byte just consumed ended a line.
    #[inline]
    fn newline(&mut self) {
        self.line += 1;
        self.line_start = self.base + self.pos as u64;
    }

    /// Skips spaces, tabs and carriage returns without leaving the line.
    pub fn skip_inline_blanks(&mut self) -> io::Result<()> {
        while let Some(b' ' | b'\t' | b'\r') = self.peek()? {
            self.pos += 1;
        }
        Ok(())
    }

    /// Skips any whitespace, newlines included.
    pub fn skip_whitespace(&mut self) -> io::Result<()> {
        while let Some(b' ' | b'\t' | b'\r' | b'\n' | b'\x0B' | b'\x0C') = self.peek()? {
            self.bump();
        }
        Ok(())
    }

    /// Skips blank lines (lines holding only spaces, tabs or `\r`) and the
    /// blanks that start the next line. Returns `false` when the input ends
    /// first.
    pub fn skip_blank_lines(&mut self) -> io::Result<bool> {
        loop {
            self.skip_inline_blanks()?;
            match self.peek()? {
                None => return Ok(false),
                Some(b'\n') => self.bump(),
                Some(_) => return Ok(true),
            }
        }
    }

    /// Consumes the rest of the line, which must hold only blanks, and its
    /// newline (or the end of the input).
    pub fn end_of_line(&mut self, expected: &'static str) -> Result<(), InputError> {
        self.skip_inline_blanks()?;
        match self.peek()? {
            None => Ok(()),
            Some(b'\n') => {
                self.bump();
                Ok(())
            }
            Some(_) => Err(self.unexpected(expected)?),
        }
    }

    /// Reads a 4×4 grid of `alphabet` cells as a board in the shared layout
    /// (bit `4 * row + col`). Blank lines before the grid are skipped; a
    /// blank line inside it is an error. Returns `Ok(None)` when the input
    /// ends before the grid starts.
    #[inline(always)]
    pub fn read_grid(&mut self, alphabet: &Alphabet) -> Result<Option<u16>, InputError> {
        // Fast path: the canonical layout, four `XXXX\n` rows in a row,
        // right here or after one empty line (the judges' case separator).
        self.fill(21)?;
        let rest = &self.buf[self.pos..self.end];
        let empty_line = usize::from(rest.first() == Some(&b'\n'));
        if let Some(c) = rest[empty_line..].first_chunk::<20>()
            && let Some(board) = alphabet.decode_canonical(c)
        {
            self.pos += empty_line + 20;
            self.line += empty_line as u64 + 4;
            self.line_start = self.base + self.pos as u64;
            self.grid_read = true;
            return Ok(Some(board));
        }
        self.read_grid_slow(alphabet)
    }

    /// The general path of [`Scanner::read_grid`].
    #[cold]
    #[inline(never)]
    fn read_grid_slow(&mut self, alphabet: &Alphabet) -> Result<Option<u16>, InputError> {
        self.misfit_first_row = false;
        if !self.skip_blank_lines()? {
            return Ok(None);
        }
        let mut board = 0u16;
        for row in 0..4 {
            board |= u16::from(self.read_row(alphabet, row)?) << (4 * row);
        }
        self.grid_read = true;
        Ok(Some(board))
    }

    /// Reads one row of four cells and its line end.
    #[inline]
    fn read_row(&mut self, alphabet: &Alphabet, row: usize) -> Result<u8, InputError> {
        self.fill(5)?;
        if let Some(&[a, b, c, d, b'\n']) = self.buf[self.pos..self.end].get(..5)
            && let Some(bits) = alphabet.decode4([a, b, c, d])
        {
            self.pos += 5;
            self.newline();
            return Ok(bits);
        }
        self.read_row_slow(alphabet, row)
    }

    /// The general path of [`Scanner::read_row`]: blanks around the row,
    /// CRLF, a missing final newline, and precise errors.
    #[cold]
    fn read_row_slow(&mut self, alphabet: &Alphabet, row: usize) -> Result<u8, InputError> {
        const ROW: [&str; 4] = [
            "the first row of a board",
            "the second row of a board",
            "the third row of a board",
            "the fourth row of a board",
        ];
        self.skip_inline_blanks()?;
        match self.peek()? {
            None => return Err(self.error_here(ROW[row], Found::EndOfInput)),
            Some(b'\n') => return Err(self.error_here(ROW[row], Found::BlankLine)),
            Some(_) => {}
        }
        let mut bits = 0u8;
        for col in 0..4 {
            let bit = match self.peek()? {
                Some(b) => alphabet.decode(b),
                None => None,
            };
            match bit {
                Some(bit) => {
                    bits |= bit << col;
                    self.pos += 1;
                }
                None => {
                    let error = self.unexpected(alphabet.expected())?;
                    // The first row ended early: a narrower board.
                    self.misfit_first_row = row == 0
                        && !self.grid_read
                        && col > 0
                        && matches!(
                            error,
                            InputError::Parse(ParseError {
                                found: Found::EndOfLine | Found::EndOfInput,
                                ..
                            })
                        );
                    return Err(error);
                }
            }
        }
        if let Err(error) = self.end_of_line("the end of the row after 4 cells") {
            // The first row goes on with another cell: a wider board.
            self.misfit_first_row = row == 0
                && !self.grid_read
                && matches!(self.peek(), Ok(Some(b)) if alphabet.decode(b).is_some());
            return Err(error);
        }
        Ok(bits)
    }

    /// Reads a grid of `shape` (any R×C up to 64×64) of `alphabet` cells:
    /// R lines of exactly C cells, row `r` into `rows[r]` with column `c` at
    /// bit `c`. Blank lines before the grid are skipped; blanks around a
    /// row and CRLF line ends are accepted; a blank line inside the grid, a
    /// short or long row and a bad cell are errors at their line and
    /// column (a 4×4 grid is read as [`Scanner::read_grid`] reads it, with
    /// its words). Returns `Ok(false)` when the input ends before the grid
    /// starts. Nothing is allocated: the rows go to the caller's fixed
    /// buffer.
    ///
    /// ```
    /// use boardbase::grid::Alphabet;
    /// use boardbase::input::Scanner;
    /// use boardbase::tables::shape::Shape;
    ///
    /// const XO: Alphabet = Alphabet::new(b'.', b'X', "'X' or '.'");
    /// let shape = Shape::new(2, 5).unwrap();
    /// let mut s = Scanner::new(&b"X...X\r\n.XXX.\n\nXXXXX\n..X\n"[..]);
    /// let mut rows = [0u64; 64];
    /// assert!(s.read_rows(&XO, shape, &mut rows)?);
    /// assert_eq!(rows[..2], [0b10001, 0b01110]);
    /// // The second board's second row is short: an error where it ends.
    /// let e = s.read_rows(&XO, shape, &mut rows).unwrap_err();
    /// assert_eq!(e.to_string(), "5:4: expected 'X' or '.', found end of line");
    /// # Ok::<(), boardbase::input::InputError>(())
    /// ```
    pub fn read_rows(
        &mut self,
        alphabet: &Alphabet,
        shape: Shape,
        rows: &mut [u64; MAX_SIDE],
    ) -> Result<bool, InputError> {
        if shape == Shape::SQUARE4 {
            // The judges' own boards: one reader, and one wording of its
            // errors, for every 4×4 board whatever answers it.
            let Some(bits) = self.read_grid(alphabet)? else {
                return Ok(false);
            };
            for (r, row) in rows[..4].iter_mut().enumerate() {
                *row = u64::from(bits >> (4 * r) & 0xF);
            }
            return Ok(true);
        }
        if !self.skip_blank_lines()? {
            return Ok(false);
        }
        let cols = shape.cols();
        for (r, row) in rows[..shape.rows()].iter_mut().enumerate() {
            *row = self.read_cells_row(alphabet, cols, r)?;
        }
        Ok(true)
    }

    /// Reads row `r` of `cols` cells and its line end.
    #[inline]
    fn read_cells_row(
        &mut self,
        alphabet: &Alphabet,
        cols: usize,
        r: usize,
    ) -> Result<u64, InputError> {
        if cols < LOOKAHEAD {
            self.fill(cols + 1)?;
            if let Some(line) = self.buf[self.pos..self.end].get(..=cols)
                && line[cols] == b'\n'
            {
                let mut bits = 0u64;
                let mut ok = true;
                for (c, &b) in line[..cols].iter().enumerate() {
                    match alphabet.decode(b) {
                        Some(bit) => bits |= u64::from(bit) << c,
                        None => ok = false,
                    }
                }
                if ok {
                    self.pos += cols + 1;
                    self.newline();
                    return Ok(bits);
                }
            }
        }
        self.read_cells_row_slow(alphabet, cols, r)
    }

    /// The general path of [`Scanner::read_cells_row`]: blanks around the
    /// row, CRLF, a missing final newline, and precise errors.
    #[cold]
    fn read_cells_row_slow(
        &mut self,
        alphabet: &Alphabet,
        cols: usize,
        r: usize,
    ) -> Result<u64, InputError> {
        self.skip_inline_blanks()?;
        match self.peek()? {
            None => return Err(self.error_here(ROW_NAMES[r], Found::EndOfInput)),
            Some(b'\n') => return Err(self.error_here(ROW_NAMES[r], Found::BlankLine)),
            Some(_) => {}
        }
        let mut bits = 0u64;
        for c in 0..cols {
            match self.peek()?.and_then(|b| alphabet.decode(b)) {
                Some(bit) => {
                    bits |= u64::from(bit) << c;
                    self.pos += 1;
                }
                None => return Err(self.unexpected(alphabet.expected())?),
            }
        }
        self.end_of_line(ROW_ENDS[cols - 1])?;
        Ok(bits)
    }

    /// Reads a non-negative decimal integer no larger than `max`, after any
    /// blank lines and blanks. `what` names it in errors.
    pub fn read_unsigned(&mut self, what: &'static str, max: u64) -> Result<u64, InputError> {
        self.skip_whitespace()?;
        let (line, column) = self.position();
        let mut value: u64 = 0;
        let mut digits = 0;
        while let Some(b @ b'0'..=b'9') = self.peek()? {
            value = value
                .checked_mul(10)
                .and_then(|v| v.checked_add(u64::from(b - b'0')))
                .filter(|&v| v <= max)
                .ok_or(ParseError {
                    line,
                    column,
                    expected: what,
                    found: Found::NumberTooLarge,
                })?;
            self.pos += 1;
            digits += 1;
        }
        if digits == 0 {
            return Err(self.unexpected(what)?);
        }
        match self.peek()? {
            None | Some(b' ' | b'\t' | b'\r' | b'\n' | b'\x0B' | b'\x0C') => Ok(value),
            Some(_) => Err(self.unexpected(what)?),
        }
    }

    /// Reads a word of exactly `N` bytes that ends at whitespace or the end
    /// of the input, after any whitespace. `Ok(None)` at the end of the
    /// input.
    pub fn read_word<const N: usize>(
        &mut self,
        what: &'static str,
    ) -> Result<Option<Word<N>>, InputError> {
        // N + 1 bytes tell a word of N from a longer one; up to 3 more
        // complete a character that starts among the first N.
        const { assert!(N + 4 <= LOOKAHEAD) };
        self.skip_whitespace()?;
        let at = self.position();
        self.fill(N + 4)?;
        let rest = &self.buf[self.pos..self.end];
        if rest.is_empty() {
            return Ok(None);
        }
        let len = rest
            .iter()
            .position(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n' | b'\x0B' | b'\x0C'))
            .unwrap_or(rest.len());
        if len != N {
            // A byte no word may hold among the first N is pointed at;
            // otherwise the word is too short or too long, and its length
            // in characters is what was found.
            let (line, column) = at;
            let (column, found) = match rest[..len.min(N)]
                .iter()
                .position(|b| !b.is_ascii_graphic())
            {
                Some(i) => (column + i as u64, Found::first_of(&rest[i..])),
                None if len > N => (
                    column,
                    Found::Word {
                        len: self.word_len()?,
                    },
                ),
                None => (column, Found::Word { len }),
            };
            return Err(ParseError {
                line,
                column,
                expected: what,
                found,
            }
            .into());
        }
        let mut bytes = [0u8; N];
        bytes.copy_from_slice(&rest[..N]);
        self.pos += N;
        let (line, column) = at;
        Ok(Some(Word {
            bytes,
            line,
            column,
        }))
    }

    /// Length in characters of the word at `pos` (without consuming it),
    /// ending at the whitespace [`Scanner::read_word`] stops at. Only the
    /// next [`LOOKAHEAD`] bytes are looked at, whatever else the buffer
    /// holds, so the answer depends on the input alone: a longer word
    /// reports the characters of its first [`LOOKAHEAD`] bytes. A byte that
    /// is not part of valid UTF-8 counts as one character.
    fn word_len(&mut self) -> io::Result<usize> {
        self.fill(LOOKAHEAD)?;
        let rest = &self.buf[self.pos..self.end];
        let window = &rest[..rest.len().min(LOOKAHEAD)];
        let len = window
            .iter()
            .position(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n' | b'\x0B' | b'\x0C'))
            .unwrap_or(window.len());
        Ok(window[..len]
            .utf8_chunks()
            .map(|c| c.valid().chars().count() + c.invalid().len())
            .sum())
    }

    /// Whether only whitespace remains in the input.
    pub fn at_end(&mut self) -> io::Result<bool> {
        self.skip_whitespace()?;
        Ok(self.peek()?.is_none())
    }

    /// Checks that only whitespace follows the last case of a judge input
    /// whose case count said how many there are: an error at the first
    /// other byte otherwise.
    pub fn expect_end(&mut self) -> Result<(), InputError> {
        if self.at_end()? {
            Ok(())
        } else {
            Err(self.unexpected("the end of the input after the last case")?)
        }
    }

    /// Reads a non-negative decimal integer no larger than `max` on the
    /// current line: blanks may come before it, a line end may not (then
    /// the error says `what` was expected and the line ended).
    pub fn read_unsigned_on_line(
        &mut self,
        what: &'static str,
        max: u64,
    ) -> Result<u64, InputError> {
        self.skip_inline_blanks()?;
        match self.peek()? {
            None | Some(b'\n') => Err(self.unexpected(what)?),
            Some(_) => self.read_unsigned(what, max),
        }
    }

    /// Reads one row of `cols` cells (1 to 64), each one byte of
    /// `alphabet`, separated by one or more blanks (spaces or tabs), then
    /// the end of the line (or of the input); blanks before and after the
    /// row and CRLF line ends are accepted. Column `c` is bit `c` of the
    /// result. `what` names the row in the error when the line is blank or
    /// the input ends; a short row, cells not separated by a blank, a bad
    /// cell and a long row are errors at the byte concerned.
    pub fn read_spaced_row(
        &mut self,
        alphabet: &Alphabet,
        cols: usize,
        what: &'static str,
    ) -> Result<u64, InputError> {
        debug_assert!((1..=64).contains(&cols));
        // Fast path: `c c ... c\n` with single spaces, already buffered.
        let rest = &self.buf[self.pos..self.end];
        if let Some(row) = rest.get(..2 * cols) {
            let mut bits = 0u64;
            let mut ok = row[2 * cols - 1] == b'\n';
            for (c, pair) in row.chunks_exact(2).enumerate() {
                match alphabet.decode(pair[0]) {
                    Some(bit) => bits |= u64::from(bit) << c,
                    None => ok = false,
                }
                ok &= c + 1 == cols || pair[1] == b' ';
            }
            if ok {
                self.pos += 2 * cols;
                self.newline();
                return Ok(bits);
            }
        }
        self.read_spaced_row_slow(alphabet, cols, what)
    }

    /// The general path of [`Scanner::read_spaced_row`].
    #[cold]
    fn read_spaced_row_slow(
        &mut self,
        alphabet: &Alphabet,
        cols: usize,
        what: &'static str,
    ) -> Result<u64, InputError> {
        self.skip_inline_blanks()?;
        match self.peek()? {
            None => return Err(self.error_here(what, Found::EndOfInput)),
            Some(b'\n') => return Err(self.error_here(what, Found::BlankLine)),
            Some(_) => {}
        }
        let mut bits = 0u64;
        for c in 0..cols {
            if c > 0 {
                match self.peek()? {
                    Some(b' ' | b'\t' | b'\r') => self.skip_inline_blanks()?,
                    None | Some(b'\n') => {
                        return Err(self.unexpected("another cell (the row is short)")?);
                    }
                    Some(_) => return Err(self.unexpected("a blank between two cells")?),
                }
                if let None | Some(b'\n') = self.peek()? {
                    return Err(self.unexpected("another cell (the row is short)")?);
                }
            }
            match self.peek()?.and_then(|b| alphabet.decode(b)) {
                Some(bit) => {
                    bits |= u64::from(bit) << c;
                    self.pos += 1;
                }
                None => return Err(self.unexpected(alphabet.expected())?),
            }
        }
        self.end_of_line("the end of the row after its last cell")?;
        Ok(bits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BW: Alphabet = Alphabet::new(b'w', b'b', "'b' or 'w'");

    fn grids(input: &str, capacity: usize) -> Result<Vec<u16>, InputError> {
        let mut s = Scanner::with_capacity(input.as_bytes(), capacity);
        let mut out = Vec::new();
        while let Some(g) = s.read_grid(&BW)? {
            out.push(g);
        }
        Ok(out)
    }

    fn parse_err(r: Result<Vec<u16>, InputError>) -> ParseError {
        match r {
            Err(InputError::Parse(e)) => e,
            other => panic!("expected a parse error, got {other:?}"),
        }
    }

    #[test]
    fn canonical_and_tolerant_layouts_agree() {
        let canonical = "bwwb\nbbwb\nbwwb\nbwww\nwwww\nwwww\nwwww\nwwwb\n";
        let tolerant = "\r\n  bwwb \r\nbbwb\t\r\n bwwb\nbwww\n\n\n  \nwwww\nwwww\nwwww\nwwwb";
        let expected = vec![0b0001_1001_1011_1001, 0b1000_0000_0000_0000];
        for cap in [1, 7, 13, 200, BUFFER_SIZE] {
            assert_eq!(grids(canonical, cap).unwrap(), expected, "capacity {cap}");
            assert_eq!(grids(tolerant, cap).unwrap(), expected, "capacity {cap}");
        }
    }

    #[test]
    fn errors_point_at_line_and_column() {
        let e = parse_err(grids("bwwb\nbbwb\nbwxb\nbwww\n", 8));
        assert_eq!((e.line, e.column, e.found), (3, 3, Found::Char('x')));
        assert_eq!(e.expected, "'b' or 'w'");

        let e = parse_err(grids("bwwb\nbbwb\n\nbwww\nbwww\n", 8));
        assert_eq!((e.line, e.column, e.found), (3, 1, Found::BlankLine));

        let e = parse_err(grids("bwwb\nbbwbw\n", 8));
        assert_eq!((e.line, e.column, e.found), (2, 5, Found::Char('w')));

        let e = parse_err(grids("bwwb\nbbw\n", 8));
        assert_eq!((e.line, e.column, e.found), (2, 4, Found::EndOfLine));

        let e = parse_err(grids("bwwb\nbbwb\n", 8));
        assert_eq!((e.line, e.column, e.found), (3, 1, Found::EndOfInput));

        let e = parse_err(grids("wwww\nwwww\nwwww\nwwww\n  bwé\n", 8));
        assert_eq!((e.line, e.column, e.found), (5, 5, Found::Char('é')));
    }

    /// Hands out one line per `read`, like a terminal, and fails if asked
    /// for more than it was given: a test of not blocking on look-ahead.
    struct Terminal(Vec<&'static [u8]>);

    impl Read for Terminal {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let line = self
                .0
                .pop()
                .ok_or_else(|| io::Error::other("read past what was typed"))?;
            buf[..line.len()].copy_from_slice(line);
            Ok(line.len())
        }
    }

    #[test]
    fn a_typed_board_is_answered_without_reading_ahead() {
        let lines = vec![
            &b"bwwb\n"[..],
            b"bwwb\n",
            b"bbwb\n",
            b"bwwb\n",
            b"\n",
            b"wwww\n",
        ];
        let mut s = Scanner::new(Terminal(lines.into_iter().rev().collect()));
        assert_eq!(s.read_grid(&BW).unwrap(), Some(0b1001_1011_1001_1001));
        let mut s = Scanner::new(Terminal(vec![&b"7\n"[..]]));
        assert_eq!(s.read_unsigned("a count", u64::MAX).unwrap(), 7);
        s.end_of_line("the end of the line").unwrap();
        let mut s = Scanner::new(Terminal(vec![&b"bwxb\n"[..]]));
        match s.read_grid(&BW) {
            Err(InputError::Parse(e)) => {
                assert_eq!((e.line, e.column, e.found), (1, 3, Found::Char('x')))
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn unsigned_numbers() {
        let mut s = Scanner::new(&b"  \n 42 \n18446744073709551616\n-1\n7x"[..]);
        assert_eq!(s.read_unsigned("a count", u64::MAX).unwrap(), 42);
        match s.read_unsigned("a count", u64::MAX) {
            Err(InputError::Parse(e)) => {
                assert_eq!((e.line, e.column, e.found), (3, 1, Found::NumberTooLarge))
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn words() {
        let mut s = Scanner::with_capacity(&b"RRFF\n  CCCC FFF\nRRRRR"[..], 8);
        let w = s.read_word::<4>("a tile").unwrap().unwrap();
        assert_eq!((w.bytes, w.line, w.column), (*b"RRFF", 1, 1));
        let w = s.read_word::<4>("a tile").unwrap().unwrap();
        assert_eq!((w.bytes, w.line, w.column), (*b"CCCC", 2, 3));
        match s.read_word::<4>("a tile") {
            Err(InputError::Parse(e)) => {
                assert_eq!((e.line, e.column, e.found), (2, 8, Found::Word { len: 3 }))
            }
            other => panic!("{other:?}"),
        }
    }
}
