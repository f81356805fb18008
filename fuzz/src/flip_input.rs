//! `flip_input`: arbitrary bytes through the Flip Game input readers.
//!
//! - The CLI's loop (`boardbase flip`): `read_grid` until the input ends or
//!   an error, with no board at all being an error; run with the CLI's
//!   scanner and with a tiny buffer fed in pieces, which must agree.
//! - `Board::from_str` on the input when it is UTF-8; without a `/` in it,
//!   it must accept exactly the inputs the scanner reads as one board.
//!
//! Invariants: no panic; every board read prints (`Display` and `{:#}`) as
//! text that parses back to it; every error points inside the input (or
//! just past a line or the input) and describes what is there.

use std::io::Read;

use boardbase::error::{Found, ParseError};
use boardbase::flip::{ALPHABET, Board};
use boardbase::input::Scanner;

use crate::text::{check_error, parse_error, scanners};

/// The boards read and the error that ended the input, if any.
pub type Outcome = (Vec<u16>, Option<ParseError>);

/// `boardbase flip`'s loop over the input.
pub fn cli_loop(scanner: &mut Scanner<impl Read>) -> Outcome {
    let mut boards = Vec::new();
    loop {
        match scanner.read_grid(&ALPHABET) {
            Ok(Some(bits)) => boards.push(bits),
            Ok(None) if !boards.is_empty() => return (boards, None),
            Ok(None) => {
                let e = scanner.error_here("a board (4 rows of 4 'b'/'w')", Found::EndOfInput);
                return (boards, Some(parse_error(e)));
            }
            Err(e) => return (boards, Some(parse_error(e))),
        }
    }
}

/// Checks that `board` prints as text that reads back as `board`, through
/// `FromStr` and through the scanner.
pub fn check_round_trip(board: Board) {
    for text in [board.to_string(), format!("{board:#}")] {
        assert_eq!(text.parse::<Board>(), Ok(board), "{text:?}");
    }
    let lines = format!("{board}\n");
    let (boards, error) = cli_loop(&mut Scanner::new(lines.as_bytes()));
    assert_eq!((boards, error), (vec![board.bits()], None), "{lines:?}");
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
    let (boards, error) = &outcome;
    for &bits in boards {
        check_round_trip(Board::from_bits(bits));
    }
    if let Some(e) = error {
        check_error(data, e);
    }

    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let parsed = text.parse::<Board>();
    match &parsed {
        Ok(board) => check_round_trip(*board),
        Err(e) => check_error(data, e),
    }
    if !data.contains(&b'/') {
        let one_board = match outcome {
            (boards, None) if boards.len() == 1 => Some(Board::from_bits(boards[0])),
            _ => None,
        };
        assert_eq!(
            parsed.ok(),
            one_board,
            "FromStr and the scanner disagree on one board"
        );
    }
}
