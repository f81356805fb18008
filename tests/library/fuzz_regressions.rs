//! Inputs the fuzz targets in `fuzz/` found, kept as plain tests: each
//! failed before its fix. The targets' invariants are described in
//! `fuzz/src/`; docs/fuzzing.md says how to run them.
#![cfg(feature = "std")]

use std::io::{self, Read};

use boardbase::carcassonne::{read_case, read_case_count};
use boardbase::error::{Found, ParseError};
use boardbase::input::{InputError, Scanner};

/// A reader handing its input over a few bytes at a time, as a pipe may.
struct Trickle<'a>(&'a [u8], usize);

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.1.min(buf.len()).min(self.0.len());
        buf[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        Ok(n)
    }
}

/// The error `boardbase carcassonne` reports for `input`, read through
/// `scanner`.
fn carcassonne_error(mut scanner: Scanner<impl Read>) -> ParseError {
    let total = read_case_count(&mut scanner).expect("a case count");
    for _ in 0..total {
        match read_case(&mut scanner) {
            Ok(_) => {}
            Err(InputError::Parse(e)) => return e,
            Err(e) => panic!("{e}"),
        }
    }
    panic!("no error")
}

/// `carcassonne_input`: the length reported for a tile code that is too
/// long counted every byte up to the end of the read buffer, so the same
/// input gave different errors depending on the buffer's size and on how
/// the input arrived (a file or a pipe), and the count ran past a vertical
/// tab (`\x0B`), which ends a word everywhere else. Fixed in
/// `Scanner::word_len` (src/input.rs): it looks at most 64 bytes ahead,
/// stops at the same whitespace as `read_word`, and counts characters.
#[test]
fn long_tile_code_errors_do_not_depend_on_the_buffer() {
    let mut input = b"1\n1 1\n".to_vec();
    input.extend(std::iter::repeat_n(b'C', 300));
    input.push(b'\n');
    let errors = [
        carcassonne_error(Scanner::new(&input[..])),
        carcassonne_error(Scanner::with_capacity(&input[..], 128)),
        carcassonne_error(Scanner::with_capacity(Trickle(&input, 7), 128)),
        carcassonne_error(Scanner::new(Trickle(&input, 100))),
    ];
    for e in &errors {
        assert_eq!((e.line, e.column), (3, 1));
        assert_eq!(*e, errors[0]);
    }
    // Counted within the 64-byte look-ahead.
    assert_eq!(errors[0].found, Found::Word { len: 64 });
}

/// `carcassonne_input`: the lengths of overlong tile codes, in characters,
/// up to the whitespace that ends them.
#[test]
fn overlong_tile_code_lengths_are_in_characters() {
    for (input, len) in [
        ("1\n1 1\nCCCCC\n", 5),
        // A vertical tab ends the word (it counted 7).
        ("1\n1 1\nCCCCC\x0BX\n", 5),
        // 'é' is one character of two bytes (it counted 7, then 8).
        ("1\n1 1\nCCCCCé\n", 6),
        ("1\n1 1\nRRRRFéé\tFFFF", 7),
    ] {
        let e = carcassonne_error(Scanner::new(input.as_bytes()));
        assert_eq!((e.line, e.column), (3, 1), "{input:?}");
        assert_eq!(e.found, Found::Word { len }, "{input:?}");
    }
    // Four good letters and then more: too long, whatever the rest is (it
    // said 'C' for this one, the word's first letter).
    let e = carcassonne_error(Scanner::new("1\n1 1\nCCCCé\n".as_bytes()));
    assert_eq!((e.line, e.column, e.found), (3, 1, Found::Word { len: 5 }));
    // A character no tile code holds among the first four is pointed at,
    // at its own column, in a word too short or too long.
    for (input, column, found) in [
        ("1\n1 1\nCé\n", 2, Found::Char('é')),
        ("1\n1 1\nCCé\u{1}F\n", 3, Found::Char('é')),
        ("1\n1 1\nR\u{1}\n", 2, Found::Char('\u{1}')),
    ] {
        let e = carcassonne_error(Scanner::new(input.as_bytes()));
        assert_eq!((e.line, e.column, e.found), (3, column, found), "{input:?}");
    }
    // The character pointed at is read whole however the input arrives:
    // '€' (3 bytes) starts at the fourth byte of the word.
    let input = "1\n1 1\nCCC€C\n".as_bytes();
    for chunk in 1..=12 {
        let e = carcassonne_error(Scanner::new(Trickle(input, chunk)));
        assert_eq!(
            (e.line, e.column, e.found),
            (3, 4, Found::Char('€')),
            "{chunk}"
        );
    }
    // A byte that is not valid UTF-8 counts as one character: the input the
    // fuzzer first stopped at.
    let input = b"3\n1 1\nRCFFF\0H\0\0\x001\x86F FCCC\n";
    let e = carcassonne_error(Scanner::new(&input[..]));
    assert_eq!((e.line, e.column, e.found), (3, 1, Found::Word { len: 13 }));
}
