//! The text of a position of X and O with the player to move written out
//! (Quixo, Teeko: a position's pieces do not say whose turn it is), in its
//! two forms:
//!
//! - boardbase's: the board's rows (`X`, `O`, `.` empty; the rows joined
//!   by `/` too, as a command line gives them), then the player to move,
//!   `X` or `O`, on a line of its own;
//! - GamesmanOne's position string: `1_` (X to move) or `2_` (O to move),
//!   then every cell in reading order, `-` empty.
//!
//! A game checks what the text cannot (how many pieces, whose turn it can
//! be) once it has the pieces.

use core::fmt;

use crate::lines::write_pieces;
use crate::shape::Shape;
use crate::text::{Found, ParseError, read_board_at};

/// A player's piece, as the text names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Piece {
    /// `X`, the first player's.
    X,
    /// `O`, the second player's.
    O,
}

/// Writes boardbase's text: the board's rows, then the player to move on a
/// line of its own.
pub(crate) fn write(
    shape: Shape,
    x: u64,
    o: u64,
    o_to_move: bool,
    out: &mut dyn fmt::Write,
) -> fmt::Result {
    write_pieces(shape, x, o, out)?;
    out.write_str(if o_to_move { "\nO" } else { "\nX" })
}

/// Writes GamesmanOne's position string.
pub(crate) fn write_gamesman(
    shape: Shape,
    x: u64,
    o: u64,
    o_to_move: bool,
    out: &mut dyn fmt::Write,
) -> fmt::Result {
    out.write_str(if o_to_move { "2_" } else { "1_" })?;
    for i in 0..shape.cells() {
        out.write_char(if x >> i & 1 == 1 {
            'X'
        } else if o >> i & 1 == 1 {
            'O'
        } else {
            '-'
        })?;
    }
    Ok(())
}

/// Reads either form (GamesmanOne's when `text` starts with `1_` or `2_`):
/// X's cells, O's cells and whether O is to move. `accept` is asked about
/// each piece of boardbase's board, in reading order, with the same
/// player's pieces read before it and the error that would refuse it there
/// (`expected` and `found` to fill).
pub(crate) fn read(
    shape: Shape,
    text: &str,
    accept: impl FnMut(Piece, u64, ParseError) -> Result<(), ParseError>,
) -> Result<(u64, u64, bool), ParseError> {
    let trimmed = text.trim_start();
    if trimmed.starts_with("1_") || trimmed.starts_with("2_") {
        read_gamesman(shape, text)
    } else {
        read_own(shape, text, accept)
    }
}

/// A GamesmanOne position string (`text` starts with `1_` or `2_`).
fn read_gamesman(shape: Shape, text: &str) -> Result<(u64, u64, bool), ParseError> {
    let lead = text.len() - text.trim_start().len();
    let bytes = text.trim().as_bytes();
    let at = |i: usize, expected, found| ParseError {
        line: 1,
        column: (lead + i + 1) as u64,
        expected,
        found,
    };
    let o_to_move = bytes.first() == Some(&b'2');
    let cells = bytes.get(2..).unwrap_or_default();
    let (mut x, mut o) = (0u64, 0u64);
    for i in 0..shape.cells() {
        match cells.get(i) {
            Some(b'X') => x |= 1 << i,
            Some(b'O') => o |= 1 << i,
            Some(b'-') => {}
            Some(_) => {
                return Err(at(2 + i, "'-', 'X' or 'O'", Found::first_of(&cells[i..])));
            }
            None => return Err(at(2 + i, "a cell", Found::EndOfInput)),
        }
    }
    if cells.len() > shape.cells() {
        let i = shape.cells();
        return Err(at(
            2 + i,
            "the end of the board",
            Found::first_of(&cells[i..]),
        ));
    }
    Ok((x, o, o_to_move))
}

/// boardbase's text: the board, then the player to move on a line of its
/// own.
fn read_own(
    shape: Shape,
    text: &str,
    mut accept: impl FnMut(Piece, u64, ParseError) -> Result<(), ParseError>,
) -> Result<(u64, u64, bool), ParseError> {
    let body = text.trim_end();
    let cut = body.rfind(['/', '\n']);
    let (board, turn_at) = match cut {
        Some(i) => (&body[..i], i + 1),
        None => ("", 0),
    };
    let turn = &body[turn_at..];
    // Where the last line starts, for its column.
    let line = 1 + body[..turn_at].matches('\n').count() as u64;
    let line_start = body[..turn_at].rfind('\n').map_or(0, |i| i + 1);
    let lead = turn.len() - turn.trim_start().len();
    let turn_column = (turn_at + lead - line_start + 1) as u64;
    let o_to_move = match turn.trim() {
        "X" => false,
        "O" => true,
        other => {
            return Err(ParseError {
                line,
                column: turn_column,
                expected: if cut.is_none() {
                    "the board's rows, then the player to move ('X' or 'O') on a line after them"
                } else {
                    "the player to move ('X' or 'O') on a line after the board"
                },
                found: if other.is_empty() {
                    Found::EndOfInput
                } else {
                    Found::first_of(other.as_bytes())
                },
            });
        }
    };
    let (mut x, mut o) = (0u64, 0u64);
    read_board_at(
        board,
        shape.rows(),
        shape.cols(),
        b".XO",
        "'.', 'X' or 'O'",
        |r, c, s, here| {
            let (piece, own) = match s {
                1 => (Piece::X, &mut x),
                2 => (Piece::O, &mut o),
                _ => return Ok(()),
            };
            accept(piece, *own, here)?;
            *own |= shape.bit(r, c);
            Ok(())
        },
    )
    .map_err(|e| {
        // The board ended early: the line of the turn was taken for a
        // row.
        if e.found == Found::EndOfInput && cut.is_some() {
            ParseError {
                line,
                column: turn_column,
                ..e
            }
        } else {
            e
        }
    })?;
    Ok((x, o, o_to_move))
}

#[cfg(test)]
mod tests {
    extern crate std;

    use super::*;
    use std::string::{String, ToString};
    use std::vec::Vec;

    fn shape() -> Shape {
        Shape::new(2, 3).unwrap()
    }

    fn any(_: Piece, _: u64, _: ParseError) -> Result<(), ParseError> {
        Ok(())
    }

    /// X at (0, 0) and (1, 2), O at (0, 2).
    const X: u64 = 0b100_001;
    const O: u64 = 0b000_100;

    fn written(f: impl Fn(&mut String) -> fmt::Result) -> String {
        let mut s = String::new();
        f(&mut s).unwrap();
        s
    }

    #[test]
    fn both_forms_are_written_and_read_back() {
        let own = written(|s| write(shape(), X, O, true, s));
        assert_eq!(own, "X.O\n..X\nO");
        let gamesman = written(|s| write_gamesman(shape(), X, O, false, s));
        assert_eq!(gamesman, "1_X-O--X");
        assert_eq!(read(shape(), &own, any), Ok((X, O, true)));
        assert_eq!(read(shape(), &gamesman, any), Ok((X, O, false)));
        // The rows joined by `/`, blanks after them.
        assert_eq!(read(shape(), "X.O/..X/X \n", any), Ok((X, O, false)));
        assert_eq!(read(shape(), "  2_X-O--X", any), Ok((X, O, true)));
    }

    #[test]
    fn errors_say_where() {
        let error = |text| read(shape(), text, any).unwrap_err().to_string();
        assert_eq!(
            error("X.O\n..X"),
            "2:1: expected the player to move ('X' or 'O') on a line after the board, found '.'"
        );
        assert_eq!(
            error("Y"),
            "1:1: expected the board's rows, then the player to move ('X' or 'O') on a line after them, found 'Y'"
        );
        // The board ended early: said at the line taken for a row.
        assert_eq!(
            error("X.O\nX"),
            "2:1: expected another row, found end of input"
        );
        assert_eq!(
            error("1_X-O-Y-"),
            "1:7: expected '-', 'X' or 'O', found 'Y'"
        );
        assert_eq!(error("1_X-O"), "1:6: expected a cell, found end of input");
        assert_eq!(
            error("2_X-O--X-"),
            "1:9: expected the end of the board, found '-'"
        );
    }

    #[test]
    fn accept_sees_each_piece_with_its_player_s_before_it() {
        let mut seen = Vec::new();
        let read = read(shape(), "XXO\n.OX\nO", |piece, own, _| {
            seen.push((piece, own));
            Ok(())
        });
        assert_eq!(read, Ok((0b100_011, 0b010_100, true)));
        assert_eq!(
            seen,
            [
                (Piece::X, 0),
                (Piece::X, 0b1),
                (Piece::O, 0),
                (Piece::O, 0b100),
                (Piece::X, 0b11),
            ]
        );
        // A refusal is said where the piece stands.
        let refused = super::read(shape(), "X.O\n.OX\nO", |piece, own, mut here| {
            if piece == Piece::O && own != 0 {
                here.expected = "one O";
                here.found = Found::Described("a second O");
                return Err(here);
            }
            Ok(())
        });
        assert_eq!(
            refused.unwrap_err().to_string(),
            "2:2: expected one O, found a second O"
        );
    }
}
