//! The JSON of the answers, written by hand: the same bytes as `serde_json`
//! writes for the [`report`](crate::report) and [`lookup`](super::lookup)
//! types, without building their strings and lists (the server's hot path).
//! Every writer names every field of the type it writes, so a field added
//! to a type does not compile until it is written here too; the tests
//! compare the bytes with serde's on every 4×4 board and position and on
//! boards of other shapes.

use boardbase_tables::shape::Shape;

use crate::euler::Outcome;
use crate::flip;
use crate::report::{EulerAnswer, EulerMove, FlipAnswer, FlipRoute};

/// Appends a board's one-line form: `letters[bit]` per cell, rows separated
/// by `/` (as the library's `{:#}` writes a 4×4 board).
pub(crate) fn rows_into(board: u64, shape: Shape, letters: [u8; 2], out: &mut Vec<u8>) {
    let (rows, cols) = (shape.rows(), shape.cols());
    out.reserve(rows * (cols + 1));
    for r in 0..rows {
        if r > 0 {
            out.push(b'/');
        }
        let bits = shape.row_bits(board, r);
        out.extend((0..cols).map(|c| letters[(bits >> c & 1) as usize]));
    }
}

/// A board's one-line form as a string.
pub(crate) fn rows_string(board: u64, shape: Shape, letters: [u8; 2]) -> String {
    let mut out = Vec::with_capacity(32);
    rows_into(board, shape, letters, &mut out);
    // The letters are ASCII.
    String::from_utf8_lossy(&out).into_owned()
}

/// Flip's letters: white, black.
pub(crate) const FLIP_LETTERS: [u8; 2] = *b"wb";
/// Euler's letters: open, covered.
pub(crate) const EULER_LETTERS: [u8; 2] = *b".X";

/// Writes a Flip answer's JSON object, the bytes `serde_json` writes for
/// it, without its closing brace so that more fields can follow. (Every
/// field is named below, so a field added to [`FlipAnswer`] does not
/// compile until it is written here; the tests compare with serde's.)
pub(crate) fn open_flip_object(out: &mut Vec<u8>, answer: &FlipAnswer) {
    let FlipAnswer {
        case,
        board,
        answer,
        solvable,
        rounds,
        colour,
        presses,
        optimal_sets,
        to_white,
        to_black,
    } = answer;
    push_head(out, *case, board, answer);
    out.extend_from_slice(if *solvable {
        b",\"solvable\":true,\"rounds\":"
    } else {
        b",\"solvable\":false,\"rounds\":"
    });
    push_option(out, rounds.map(u64::from));
    out.extend_from_slice(match colour {
        Some(flip::Colour::White) => b",\"colour\":\"white\",\"presses\":",
        Some(flip::Colour::Black) => b",\"colour\":\"black\",\"presses\":",
        None => b",\"colour\":null,\"presses\":",
    });
    match presses {
        Some(cells) => push_cells(out, cells.iter().map(|&[r, c]| (r, c))),
        None => out.extend_from_slice(b"null"),
    }
    out.extend_from_slice(b",\"optimal_sets\":");
    push_number(out, *optimal_sets);
    for (key, route) in [
        (&b",\"to_white\":"[..], to_white),
        (b",\"to_black\":", to_black),
    ] {
        out.extend_from_slice(key);
        match route {
            Some(FlipRoute {
                rounds,
                presses,
                optimal_sets,
            }) => push_route(
                out,
                (*rounds).into(),
                presses.iter().map(|&[r, c]| (r, c)),
                *optimal_sets,
            ),
            None => out.extend_from_slice(b"null"),
        }
    }
}

/// Writes an Euler answer's JSON object as [`open_flip_object`] does a
/// Flip answer's.
pub(crate) fn open_euler_object(out: &mut Vec<u8>, answer: &EulerAnswer) {
    let EulerAnswer {
        case,
        board,
        answer,
        outcome,
        moves_left,
        best_move,
        winning_moves,
        legal_moves,
        wdl_only,
    } = answer;
    push_head(out, *case, board, answer);
    out.extend_from_slice(match outcome {
        Outcome::Win => b",\"outcome\":\"win\",\"moves_left\":",
        Outcome::Loss => b",\"outcome\":\"loss\",\"moves_left\":",
    });
    push_option(out, moves_left.map(u64::from));
    out.extend_from_slice(b",\"best_move\":");
    match best_move {
        Some(EulerMove { mask, cells }) => {
            push_move(out, *mask, cells.iter().map(|&[r, c]| (r, c)));
        }
        None => out.extend_from_slice(b"null"),
    }
    out.extend_from_slice(b",\"winning_moves\":");
    push_number(out, *winning_moves as u64);
    out.extend_from_slice(b",\"legal_moves\":");
    push_number(out, *legal_moves as u64);
    if *wdl_only {
        out.extend_from_slice(b",\"wdl_only\":true");
    }
}

/// Opens a CLI answer's object: `{"case":N,"board":"..","answer":".."`.
pub(crate) fn push_head(out: &mut Vec<u8>, case: u64, board: &str, answer: &str) {
    out.extend_from_slice(b"{\"case\":");
    push_number(out, case);
    out.extend_from_slice(b",\"board\":");
    push_str(out, board);
    out.extend_from_slice(b",\"answer\":");
    push_str(out, answer);
}

/// Appends a Flip route's object: `{"rounds":R,"presses":[..],"optimal_sets":N}`.
pub(crate) fn push_route(
    out: &mut Vec<u8>,
    rounds: u64,
    presses: impl IntoIterator<Item = (usize, usize)>,
    optimal_sets: u64,
) {
    out.extend_from_slice(b"{\"rounds\":");
    push_number(out, rounds);
    out.extend_from_slice(b",\"presses\":");
    push_cells(out, presses);
    out.extend_from_slice(b",\"optimal_sets\":");
    push_number(out, optimal_sets);
    out.push(b'}');
}

/// Appends an Euler move's object: `{"mask":M,"cells":[..]}`.
pub(crate) fn push_move(
    out: &mut Vec<u8>,
    mask: u64,
    cells: impl IntoIterator<Item = (usize, usize)>,
) {
    out.extend_from_slice(b"{\"mask\":");
    push_number(out, mask);
    out.extend_from_slice(b",\"cells\":");
    push_cells(out, cells);
    out.push(b'}');
}

/// Appends `[[r,c],...]`.
pub(crate) fn push_cells(out: &mut Vec<u8>, cells: impl IntoIterator<Item = (usize, usize)>) {
    out.push(b'[');
    for (i, (r, c)) in cells.into_iter().enumerate() {
        out.extend_from_slice(if i > 0 { b",[" } else { b"[" });
        push_number(out, r as u64);
        out.push(b',');
        push_number(out, c as u64);
        out.push(b']');
    }
    out.push(b']');
}

/// Appends a number, or `null`.
pub(crate) fn push_option(out: &mut Vec<u8>, n: Option<u64>) {
    match n {
        Some(n) => push_number(out, n),
        None => out.extend_from_slice(b"null"),
    }
}

/// Appends `text` as a JSON string, escaped as `serde_json` escapes it.
pub(crate) fn push_str(out: &mut Vec<u8>, text: &str) {
    out.push(b'"');
    for &b in text.as_bytes() {
        match b {
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            b'\t' => out.extend_from_slice(b"\\t"),
            0x08 => out.extend_from_slice(b"\\b"),
            0x0c => out.extend_from_slice(b"\\f"),
            0..0x20 => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                out.extend_from_slice(b"\\u00");
                out.push(HEX[usize::from(b >> 4)]);
                out.push(HEX[usize::from(b & 15)]);
            }
            _ => out.push(b),
        }
    }
    out.push(b'"');
}

/// Appends `n` in decimal.
#[inline]
pub(crate) fn push_number(out: &mut Vec<u8>, mut n: u64) {
    // Cells, rounds and moves left: almost always one digit.
    if n < 10 {
        out.push(b'0' + n as u8);
        return;
    }
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[i..]);
}

#[cfg(test)]
mod json_tests {
    use super::{push_number, push_str};

    #[test]
    fn strings_are_escaped_as_serde_escapes_them() {
        let mut texts: Vec<String> = (0u8..=0x7f).map(|b| char::from(b).to_string()).collect();
        texts.extend(["", "bwwb/bbwb", "Impossible", "a\"b\\c\u{1f}d", "é€😀"].map(str::to_owned));
        for text in texts {
            let mut out = Vec::new();
            push_str(&mut out, &text);
            assert_eq!(out, serde_json::to_vec(&text).unwrap(), "{text:?}");
        }
    }

    #[test]
    fn numbers_are_written_as_serde_writes_them() {
        for n in [0, 1, 9, 10, 99, 100, 12345, u64::from(u32::MAX), u64::MAX] {
            let mut out = Vec::new();
            push_number(&mut out, n);
            assert_eq!(out, n.to_string().into_bytes());
        }
    }
}
