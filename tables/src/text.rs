//! Text: the typed parse error every reader of positions, moves and
//! judges' inputs returns, and a reader of boards drawn one row a line.
//!
//! Every error carries the 1-based line and column (in bytes) where the
//! problem was found, what the reader expected there and what it found, so a
//! front end can print `source:line:column: expected ..., found ...`.

use core::fmt;

/// What a parser found where it expected something else.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Found {
    /// A character: printed quoted when it is printable (`'x'`), as its
    /// byte when it is an ASCII control character (`byte 0x03`, as a byte
    /// that is not UTF-8 is shown), and as its code point when it is
    /// another character that does not print (`U+200B`).
    Char(char),
    /// A byte that does not start a valid UTF-8 character.
    Byte(u8),
    /// The end of the line.
    EndOfLine,
    /// A line holding nothing but blanks.
    BlankLine,
    /// The end of the input.
    EndOfInput,
    /// A number too large for the field being read.
    NumberTooLarge,
    /// A number outside the range the field allows.
    Number(u64),
    /// A shorter or longer group of characters than the field takes.
    Word {
        /// Length of the group in characters.
        len: usize,
    },
    /// Something a rule forbids, in words (`more O than X`).
    Described(&'static str),
}

impl fmt::Display for Found {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Found::Char(c) if c.is_ascii_control() => write!(f, "byte 0x{:02x}", c as u32),
            Found::Char(c) if c.escape_debug().nth(1) == Some('u') => {
                write!(f, "U+{:04X}", c as u32)
            }
            Found::Char(c) => write!(f, "{c:?}"),
            Found::Byte(b) => write!(f, "byte 0x{b:02x}"),
            Found::EndOfLine => f.write_str("end of line"),
            Found::BlankLine => f.write_str("a blank line"),
            Found::EndOfInput => f.write_str("end of input"),
            Found::NumberTooLarge => f.write_str("a number too large"),
            Found::Number(n) => write!(f, "{n}"),
            Found::Word { len } => write!(f, "{len} characters"),
            Found::Described(what) => f.write_str(what),
        }
    }
}

/// A syntax error at a known position of the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based line number.
    pub line: u64,
    /// 1-based column, counted in bytes.
    pub column: u64,
    /// What the parser expected, in words (e.g. `"'b' or 'w'"`).
    pub expected: &'static str,
    /// What it found instead.
    pub found: Found,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: expected {}, found {}",
            self.line, self.column, self.expected, self.found
        )
    }
}

impl core::error::Error for ParseError {}

impl Found {
    /// Describes the first character of `bytes` (which must not be empty).
    pub fn first_of(bytes: &[u8]) -> Found {
        let Some(&first) = bytes.first() else {
            return Found::EndOfInput;
        };
        let width = match first {
            0x00..=0x7F => 1,
            0xC2..=0xDF => 2,
            0xE0..=0xEF => 3,
            0xF0..=0xF4 => 4,
            _ => return Found::Byte(first),
        };
        match bytes.get(..width).map(core::str::from_utf8) {
            Some(Ok(s)) => s.chars().next().map_or(Found::Byte(first), Found::Char),
            _ => Found::Byte(first),
        }
    }
}

/// Reads a board of `rows` × `cols` cells drawn one row a line, top row
/// first, or with its rows joined by `/` (as a command line gives it), each
/// cell one byte of `symbols`; calls `cell(row, col, symbol)` with the
/// index of each cell's symbol in `symbols`. Blanks after the board are
/// ignored; `expected` names the symbols in errors (`'.', 'X' or 'O'`).
///
/// ```
/// use boardbase_tables::text::read_board;
///
/// let mut cells = [[0; 3]; 2];
/// read_board("X.O/.X.", 2, 3, b".XO", "'.', 'X' or 'O'", |r, c, s| cells[r][c] = s)?;
/// assert_eq!(cells, [[1, 0, 2], [0, 1, 0]]);
///
/// let error = read_board("X.O\n.Y.\n", 2, 3, b".XO", "'.', 'X' or 'O'", |_, _, _| {});
/// assert_eq!(error.unwrap_err().to_string(), "2:2: expected '.', 'X' or 'O', found 'Y'");
/// # Ok::<(), boardbase_tables::text::ParseError>(())
/// ```
pub fn read_board(
    text: &str,
    rows: usize,
    cols: usize,
    symbols: &[u8],
    expected: &'static str,
    mut cell: impl FnMut(usize, usize, usize),
) -> Result<(), ParseError> {
    read_board_at(text, rows, cols, symbols, expected, |r, c, s, _| {
        cell(r, c, s);
        Ok(())
    })
}

/// [`read_board`], `cell` also told where each cell is (`line`, `column`
/// and `found` of an error about it, `expected` left to fill), so that a
/// rule about a cell (a piece floating over an empty cell) can refuse the
/// board there.
pub fn read_board_at(
    text: &str,
    rows: usize,
    cols: usize,
    symbols: &[u8],
    expected: &'static str,
    mut cell: impl FnMut(usize, usize, usize, ParseError) -> Result<(), ParseError>,
) -> Result<(), ParseError> {
    let bytes = text.trim_end().as_bytes();
    let (mut line, mut line_start) = (1u64, 0usize);
    let (mut row, mut col) = (0usize, 0usize);
    let error = |at: usize, line: u64, line_start: usize, expected, found| ParseError {
        line,
        column: (at - line_start + 1) as u64,
        expected,
        found,
    };
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let newline = b == b'\n' || (b == b'\r' && bytes.get(i + 1) == Some(&b'\n'));
        if newline || b == b'/' {
            if row >= rows {
                return Err(error(
                    i,
                    line,
                    line_start,
                    "the end of the board",
                    Found::first_of(&bytes[i..]),
                ));
            }
            if col < cols {
                let found = if b == b'/' {
                    Found::Char('/')
                } else {
                    Found::EndOfLine
                };
                return Err(error(i, line, line_start, "a cell", found));
            }
            row += 1;
            col = 0;
            if newline {
                i += usize::from(b == b'\r');
                line += 1;
                line_start = i + 1;
            }
        } else if row >= rows {
            return Err(error(
                i,
                line,
                line_start,
                "the end of the board",
                Found::first_of(&bytes[i..]),
            ));
        } else if col >= cols {
            return Err(error(
                i,
                line,
                line_start,
                "the end of the row",
                Found::first_of(&bytes[i..]),
            ));
        } else if let Some(symbol) = symbols.iter().position(|&s| s == b) {
            let here = error(i, line, line_start, "", Found::Char(char::from(b)));
            cell(row, col, symbol, here)?;
            col += 1;
        } else {
            return Err(error(
                i,
                line,
                line_start,
                expected,
                Found::first_of(&bytes[i..]),
            ));
        }
        i += 1;
    }
    let complete = (row + 1 == rows && col == cols) || (row == rows && col == 0 && rows > 0);
    if !complete {
        let expected = if col < cols && row < rows {
            "a cell"
        } else {
            "another row"
        };
        return Err(error(
            bytes.len(),
            line,
            line_start,
            expected,
            Found::EndOfInput,
        ));
    }
    Ok(())
}

/// Writes the name of cell (`row`, `col`) as games name their moves: the
/// column's letters (`a` to `z`, then `aa`, `ab`, … as a spreadsheet's) and
/// the row's number counted from the top, so `a1` is the top-left cell.
///
/// ```
/// use boardbase_tables::text::write_cell;
///
/// let mut name = String::new();
/// write_cell(&mut name, 0, 0)?;
/// name.push(' ');
/// write_cell(&mut name, 2, 27)?;
/// assert_eq!(name, "a1 ab3");
/// # Ok::<(), core::fmt::Error>(())
/// ```
pub fn write_cell(out: &mut dyn fmt::Write, row: usize, col: usize) -> fmt::Result {
    let mut letters = [0u8; 8];
    let mut len = 0;
    let mut c = col + 1;
    while c > 0 && len < letters.len() {
        c -= 1;
        letters[len] = b'a' + (c % 26) as u8;
        len += 1;
        c /= 26;
    }
    for &l in letters[..len].iter().rev() {
        out.write_char(char::from(l))?;
    }
    write!(out, "{}", row + 1)
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use std::string::ToString;

    #[test]
    fn found_describes_utf8_and_raw_bytes() {
        assert_eq!(Found::first_of(b"x"), Found::Char('x'));
        assert_eq!(Found::first_of("é!".as_bytes()), Found::Char('é'));
        assert_eq!(Found::first_of(&[0xFF, b'a']), Found::Byte(0xFF));
        assert_eq!(Found::first_of(&[0xC3]), Found::Byte(0xC3));
    }

    #[test]
    fn what_does_not_print_is_shown_by_its_code() {
        let shown = |c: char| Found::Char(c).to_string();
        assert_eq!(shown('x'), "'x'");
        assert_eq!(shown('é'), "'é'");
        assert_eq!(shown('\''), "'\\''");
        assert_eq!(shown('\0'), "byte 0x00");
        assert_eq!(shown('\u{3}'), "byte 0x03");
        assert_eq!(shown('\t'), "byte 0x09");
        assert_eq!(shown('\u{7f}'), "byte 0x7f");
        assert_eq!(Found::Byte(0xbe).to_string(), "byte 0xbe");
        assert_eq!(shown('\u{200b}'), "U+200B");
        assert_eq!(shown('\u{85}'), "U+0085");
        assert_eq!(Found::first_of(b""), Found::EndOfInput);
    }

    fn read(text: &str) -> Result<[[usize; 3]; 2], std::string::String> {
        let mut cells = [[9; 3]; 2];
        read_board(text, 2, 3, b".XO", "a cell symbol", |r, c, s| {
            cells[r][c] = s
        })
        .map(|()| cells)
        .map_err(|e| e.to_string())
    }

    #[test]
    fn boards_are_read_with_either_separator_and_trailing_blanks() {
        let want = [[1, 0, 2], [0, 0, 1]];
        assert_eq!(read("X.O/..X"), Ok(want));
        assert_eq!(read("X.O\n..X\n"), Ok(want));
        assert_eq!(read("X.O\r\n..X\r\n\n  "), Ok(want));
        assert_eq!(read("X.O/..X/"), Ok(want));
    }

    #[test]
    fn every_misfit_says_where() {
        assert_eq!(
            read("X./..X").unwrap_err(),
            "1:3: expected a cell, found '/'"
        );
        assert_eq!(
            read("X.OO/..X").unwrap_err(),
            "1:4: expected the end of the row, found 'O'"
        );
        assert_eq!(
            read("X.O/..X/...").unwrap_err(),
            "1:9: expected the end of the board, found '.'"
        );
        assert_eq!(
            read("X.O\n..").unwrap_err(),
            "2:3: expected a cell, found end of input"
        );
        assert_eq!(
            read("X.O").unwrap_err(),
            "1:4: expected another row, found end of input"
        );
        assert_eq!(
            read("").unwrap_err(),
            "1:1: expected a cell, found end of input"
        );
        assert_eq!(
            read("X.O\n.-.").unwrap_err(),
            "2:2: expected a cell symbol, found '-'"
        );
    }
}
