//! Typed parse errors shared by every puzzle's parser.
//!
//! Every error carries the 1-based line and column (in bytes) where the
//! problem was found, what the parser expected there and what it found, so a
//! front end can print `source:line:column: expected ..., found ...`.
//!
//! Every public error of the library says what it is about through
//! [`Classify`] ([`kind`]), so a front end maps kinds, not variants.

use core::fmt;

pub mod kind;

pub use kind::{Classify, Kind, Side};

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
        }
    }
}

/// A syntax error at a known position of the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{column}: expected {expected}, found {found}")]
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

impl Classify for ParseError {
    fn kind(&self) -> Kind {
        Kind::Syntax
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;

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
}
