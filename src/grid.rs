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
        Alphabet {
            value,
            expected,
            template: canonical_words(zero, b'\n'),
            diff,
            shift: diff.trailing_zeros(),
        }
    }

    /// Decodes a whole grid in the canonical layout, `XXXX\n` four times,
    /// with a few word-wide operations: `None` when a cell is outside the
    /// alphabet or a line end is not exactly `\n` (then the caller takes
    /// the general path, which also finds the error).
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
    /// before and after the grid are accepted.
    pub fn parse_grid(&self, text: &str) -> Result<u16, ParseError> {
        let mut p = StrCursor {
            bytes: text.as_bytes(),
            pos: 0,
            line: 1,
            line_start: 0,
        };
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
}
