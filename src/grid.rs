//! 4×4 grids of two symbols: decoding rows and parsing a grid from a string.
//!
//! Both the streaming [`Scanner`](crate::input::Scanner) and the `FromStr`
//! implementations of the puzzle boards decode cells through an
//! [`Alphabet`], so every front end accepts the same symbols and reports the
//! same errors.

use crate::error::{Found, ParseError};

/// The two symbols of a 4×4 grid of cells, e.g. `w`/`b` or `.`/`X`.
#[derive(Clone, Debug)]
pub struct Alphabet {
    /// Bit value of each byte: 0 or 1, or [`Alphabet::INVALID`].
    value: [u16; 256],
    /// Description for errors, e.g. `"'b' or 'w'"`.
    expected: &'static str,
}

impl Alphabet {
    /// Marker for bytes outside the alphabet. It is large enough that any
    /// row containing it decodes to a value of 16 or more.
    const INVALID: u16 = 0x100;

    /// An alphabet where `zero` is bit 0, `one` is bit 1, and errors say
    /// `expected`.
    pub const fn new(zero: u8, one: u8, expected: &'static str) -> Alphabet {
        let mut value = [Self::INVALID; 256];
        value[zero as usize] = 0;
        value[one as usize] = 1;
        Alphabet { value, expected }
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
    /// before and after the grid are accepted.
    pub fn parse_grid(&self, text: &str) -> Result<u16, ParseError> {
        let mut p = StrCursor { bytes: text.as_bytes(), pos: 0, line: 1, line_start: 0 };
        p.skip_whitespace();
        let mut board = 0u16;
        for row in 0..4 {
            p.skip_inline_blanks();
            for col in 0..4 {
                match p.peek().and_then(|b| self.decode(b)) {
                    Some(bit) => {
                        board |= u16::from(bit) << (4 * row + col);
                        p.pos += 1;
                    }
                    None => return Err(p.error(self.expected)),
                }
            }
            p.skip_inline_blanks();
            if row < 3 {
                match p.peek() {
                    Some(b'/') => p.pos += 1,
                    Some(b'\n') => p.newline(),
                    _ => return Err(p.error("'/' or a new line after 4 cells")),
                }
            }
        }
        p.skip_whitespace();
        match p.peek() {
            None => Ok(board),
            Some(_) => Err(p.error("the end of the board after 4 rows")),
        }
    }
}

/// A cursor over a string with line and column tracking.
struct StrCursor<'a> {
    bytes: &'a [u8],
    pos: usize,
    line: u64,
    line_start: usize,
}

impl StrCursor<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn newline(&mut self) {
        self.pos += 1;
        self.line += 1;
        self.line_start = self.pos;
    }

    fn skip_inline_blanks(&mut self) {
        while let Some(b' ' | b'\t' | b'\r') = self.peek() {
            self.pos += 1;
        }
    }

    fn skip_whitespace(&mut self) {
        loop {
            self.skip_inline_blanks();
            if self.peek() != Some(b'\n') {
                return;
            }
            self.newline();
        }
    }

    fn error(&self, expected: &'static str) -> ParseError {
        let rest = &self.bytes[self.pos..];
        let found = match rest.first() {
            None => Found::EndOfInput,
            Some(b'\n') => Found::EndOfLine,
            Some(_) => Found::first_of(rest),
        };
        ParseError {
            line: self.line,
            column: (self.pos - self.line_start + 1) as u64,
            expected,
            found,
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
        assert_eq!(BW.parse_grid("\r\n  bwwb\r\n  bbwb\r\n  bwwb\r\n  bwww\r\n\n"), Ok(expected));
        assert_eq!(BW.parse_grid(" bwwb / bbwb / bwwb / bwww "), Ok(expected));
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
}
