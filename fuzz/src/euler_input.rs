//! `euler_input`: arbitrary bytes through the Game of Euler input readers.
//!
//! - The CLI's loop (`boardbase euler`): a case count alone on its line,
//!   then that many boards (running out is an error), then only whitespace;
//!   run with the CLI's scanner and with a tiny buffer fed in pieces, which
//!   must agree.
//! - `Position::from_str` on the input when it is UTF-8; without a `/` in
//!   it, it must accept exactly the inputs the scanner reads as one board.
//!
//! Invariants: no panic; every position read prints (`Display` and `{:#}`)
//! as text that parses back to it; every error points inside the input (or
//! just past a line or the input) and describes what is there.

use std::io::Read;

use boardbase::error::{Found, ParseError};
use boardbase::euler::{ALPHABET, Position};
use boardbase::input::Scanner;

use crate::text::{check_error, parse_error, scanners};

/// The case count, the positions read and the error that ended the input,
/// if any.
pub type Outcome = (Option<u64>, Vec<u16>, Option<ParseError>);

/// `boardbase euler`'s loop over the input.
pub fn cli_loop(scanner: &mut Scanner<impl Read>) -> Outcome {
    let count = scanner
        .read_unsigned("a case count", u64::MAX)
        .and_then(|count| {
            scanner.end_of_line("the end of the line after the case count")?;
            Ok(count)
        });
    let count = match count {
        Ok(count) => count,
        Err(e) => return (None, Vec::new(), Some(parse_error(e))),
    };
    let mut boards = Vec::new();
    for _ in 0..count {
        match scanner.read_grid(&ALPHABET) {
            Ok(Some(bits)) => boards.push(bits),
            Ok(None) => {
                let e = scanner.error_here(
                    "another board (the case count asks for more)",
                    Found::EndOfInput,
                );
                return (Some(count), boards, Some(parse_error(e)));
            }
            Err(e) => return (Some(count), boards, Some(parse_error(e))),
        }
    }
    let trailing = scanner.expect_end().err();
    (Some(count), boards, trailing.map(parse_error))
}

/// Checks that `position` prints as text that reads back as `position`,
/// through `FromStr` and through the scanner.
pub fn check_round_trip(position: Position) {
    for text in [position.to_string(), format!("{position:#}")] {
        assert_eq!(text.parse::<Position>(), Ok(position), "{text:?}");
    }
    let input = format!("1\n{position}\n");
    let outcome = cli_loop(&mut Scanner::new(input.as_bytes()));
    assert_eq!(outcome, (Some(1), vec![position.bits()], None), "{input:?}");
}

/// Whether `data` reads as exactly one position (without the count line):
/// the flip loop's question for this alphabet.
fn scanner_one_board(data: &[u8]) -> Option<Position> {
    let mut scanner = Scanner::new(data);
    let first = scanner.read_grid(&ALPHABET).ok()??;
    matches!(scanner.read_grid(&ALPHABET), Ok(None)).then_some(Position::from_bits(first))
}

/// The target.
pub fn check(data: &[u8]) {
    let [mut cli, mut small] = scanners(data);
    let outcome = cli_loop(&mut cli);
    assert_eq!(
        outcome,
        cli_loop(&mut small),
        "the buffer size changed the result"
    );
    let (count, boards, error) = &outcome;
    if let Some(count) = count {
        // All boards were read, or an error stopped the loop.
        assert!(error.is_some() || boards.len() as u64 == *count);
    }
    for &bits in boards {
        check_round_trip(Position::from_bits(bits));
    }
    if let Some(e) = error {
        check_error(data, e);
    }

    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let parsed = text.parse::<Position>();
    match &parsed {
        Ok(position) => check_round_trip(*position),
        Err(e) => check_error(data, e),
    }
    if !data.contains(&b'/') {
        assert_eq!(
            parsed.ok(),
            scanner_one_board(data),
            "FromStr and the scanner disagree on one board"
        );
    }
}
