//! Helpers shared by the input-parser targets: checking an error's position
//! and description against the input, and a reader that hands the input to
//! the scanner in small, irregular pieces.

use std::io::{self, Read};

use boardbase::error::{Found, ParseError};
use boardbase::input::{InputError, Scanner};

/// Bytes the scanner treats as whitespace between words and numbers.
pub fn is_scanner_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n' | b'\x0B' | b'\x0C')
}

/// The byte offset of 1-based (`line`, `column`) in `input`. Panics unless
/// the position is inside the input or just past the end of its line (the
/// line's `\n`, or the end of the input).
pub fn offset_of(input: &[u8], line: u64, column: u64) -> usize {
    assert!(line >= 1, "line {line} is not 1-based");
    assert!(column >= 1, "column {column} is not 1-based");
    let mut start = 0usize;
    for l in 1..line {
        match input[start..].iter().position(|&b| b == b'\n') {
            Some(nl) => start += nl + 1,
            None => panic!("line {line} is past the input ({l} lines)"),
        }
    }
    let end = input[start..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(input.len(), |nl| start + nl);
    let column = usize::try_from(column).expect("column fits usize");
    assert!(
        column - 1 <= end - start,
        "{line}:{column} is past the end of its line ({} bytes)",
        end - start
    );
    start + column - 1
}

/// Checks that `e` points inside `input` (or just past a line or the input)
/// and that what it says it found is what is there.
pub fn check_error(input: &[u8], e: &ParseError) {
    let at = offset_of(input, e.line, e.column);
    let rest = &input[at..];
    let ok = match e.found {
        Found::EndOfInput => rest.is_empty(),
        Found::EndOfLine => rest.starts_with(b"\n") || rest.starts_with(b"\r\n"),
        Found::BlankLine => rest.starts_with(b"\n"),
        Found::Char(c) => rest.starts_with(c.encode_utf8(&mut [0; 4]).as_bytes()),
        Found::Byte(b) => rest.first() == Some(&b),
        Found::Number(_) | Found::NumberTooLarge => rest.first().is_some_and(u8::is_ascii_digit),
        Found::Word { len } => {
            let word = &rest[..rest
                .iter()
                .position(|&b| is_scanner_space(b))
                .unwrap_or(rest.len())];
            // Exact for a word shorter than the scanner's look-ahead (64
            // bytes); a longer one reports the characters of its first 64.
            if word.len() < 64 {
                len >= 1 && len == chars(word)
            } else {
                (1..=64).contains(&len)
            }
        }
        // A rule's refusal (a game's position text), never the scanner's.
        Found::Described(_) => false,
    };
    assert!(
        ok,
        "error {e:?} does not describe the input at {}:{} ({:?})",
        e.line,
        e.column,
        rest.get(..rest.len().min(16))
            .map(|r| r.escape_ascii().to_string())
    );
}

/// Characters in `bytes`, each byte that is not part of valid UTF-8 counting
/// as one.
pub fn chars(bytes: &[u8]) -> usize {
    bytes
        .utf8_chunks()
        .map(|c| c.valid().chars().count() + c.invalid().len())
        .sum()
}

/// The parse error inside an input error; the inputs here never fail to
/// read.
pub fn parse_error(e: InputError) -> ParseError {
    match e {
        InputError::Parse(e) => e,
        InputError::Io(e) => panic!("reading from memory failed: {e}"),
    }
}

/// A reader handing `data` over in pieces of 1 to 7 bytes, now and then
/// failing with [`io::ErrorKind::Interrupted`] (which the scanner retries).
pub struct Pieces<'a> {
    data: &'a [u8],
    step: usize,
}

impl<'a> Pieces<'a> {
    /// A reader over `data`; `seed` picks the pattern of piece sizes.
    pub fn new(data: &'a [u8], seed: usize) -> Pieces<'a> {
        Pieces { data, step: seed }
    }
}

impl Read for Pieces<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.step = self.step.wrapping_mul(5).wrapping_add(3) % 64;
        if self.step.is_multiple_of(11) {
            return Err(io::ErrorKind::Interrupted.into());
        }
        let n = (self.step % 7 + 1).min(buf.len()).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

/// The two scanners every parser target runs and compares: the CLI's (one
/// [`boardbase::input::BUFFER_SIZE`] buffer over the whole input) and one with
/// the smallest buffer fed in irregular pieces, so refills land everywhere.
pub fn scanners(data: &[u8]) -> [Scanner<Box<dyn Read + '_>>; 2] {
    let seed = data.len();
    [
        Scanner::new(Box::new(data) as Box<dyn Read>),
        Scanner::with_capacity(Box::new(Pieces::new(data, seed)) as Box<dyn Read>, 0),
    ]
}
