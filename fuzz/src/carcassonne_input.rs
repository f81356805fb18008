//! `carcassonne_input`: arbitrary bytes through the Carcassonne judge-input
//! reader, as `boardbase carcassonne` loops over it: `read_case_count`, then
//! that many `read_case`, then only whitespace. Run with the CLI's scanner
//! and with a tiny buffer fed in pieces, which must agree. The input's
//! 4-byte pieces also go through `Tile`'s parser.
//!
//! Invariants: no panic; every board read has both sides at least 1, the
//! narrower at most 16, `rows × cols` tiles and at most `MAX_TILES`, and
//! prints as judge input that reads back as the same board; every error
//! points inside the input (or just past a line or the input) and describes
//! what is there. Memory stays bounded: a declared size never decides an
//! allocation (the fuzzer runs with `-malloc_limit_mb`).

use std::io::Read;

use boardbase::carcassonne::{
    Board, Colour, Error, MAX_NARROW_SIDE, MAX_TILES, Tile, TileCode, read_case, read_case_count,
};
use boardbase::error::ParseError;
use boardbase::input::Scanner;

use crate::text::{check_error, offset_of, parse_error, scanners};

/// The case count, each case's board and line, and the error that ended the
/// input, if any.
pub type Outcome = (Option<u64>, Vec<(Board, u64)>, Option<ParseError>);

/// `boardbase carcassonne`'s loop over the input.
pub fn cli_loop(scanner: &mut Scanner<impl Read>) -> Outcome {
    let total = match read_case_count(scanner) {
        Ok(total) => total,
        Err(e) => return (None, Vec::new(), Some(parse_error(e))),
    };
    let mut cases = Vec::new();
    for _ in 0..total {
        match read_case(scanner) {
            Ok(case) => cases.push((case.board, case.line)),
            Err(e) => return (Some(total), cases, Some(parse_error(e))),
        }
    }
    let trailing = scanner.expect_end().err();
    (Some(total), cases, trailing.map(parse_error))
}

/// The judge input of one case holding `board`.
pub fn judge_input(board: &Board) -> String {
    let mut text = format!("1\n{} {}\n", board.rows(), board.cols());
    for row in board.tiles().chunks(board.cols()) {
        let codes: Vec<String> = row.iter().map(Tile::to_string).collect();
        text += &codes.join(" ");
        text.push('\n');
    }
    text
}

/// Checks a board that was read: its shape, and that it reads back from its
/// own judge input.
pub fn check_board(board: &Board) {
    let (rows, cols) = (board.rows(), board.cols());
    assert!(rows >= 1 && cols >= 1, "{rows}×{cols}");
    assert!(rows.min(cols) <= MAX_NARROW_SIDE, "{rows}×{cols}");
    assert_eq!(board.tiles().len(), rows * cols);
    assert!(board.tiles().len() as u64 <= MAX_TILES);
    let text = judge_input(board);
    let (total, cases, error) = cli_loop(&mut Scanner::new(text.as_bytes()));
    assert_eq!((total, error), (Some(1), None), "{text:?}");
    assert_eq!(cases, [(board.clone(), 2)], "{text:?}");
}

/// Checks `Tile`'s parser on one piece of input.
fn check_tile(code: &[u8]) {
    match Tile::try_from(code) {
        Ok(tile) => {
            assert_eq!(tile.to_string().as_bytes(), code);
            let entry = TileCode::lookup(code.try_into().expect("4 bytes")).expect("known code");
            assert_eq!(entry.tile, tile);
            let rotations = entry.rotations;
            assert_eq!(rotations.iter().map(|r| r.multiplicity).sum::<u8>(), 4);
            for (i, r) in rotations.iter().enumerate() {
                assert_eq!(Tile::from_packed(r.tile), tile.rotated(u32::from(r.turns)));
                assert!(rotations[..i].iter().all(|s| s.tile != r.tile));
            }
        }
        Err(Error::TileLength { len }) => assert!(len == code.len() && len != 4),
        Err(Error::TileLetter { position, byte }) => {
            assert_eq!(code.len(), 4);
            assert_eq!(code[position], byte);
            assert!(Colour::from_letter(byte).is_none());
            assert!(
                code[..position]
                    .iter()
                    .all(|&b| Colour::from_letter(b).is_some())
            );
        }
        Err(e) => panic!("a tile's code refused as a board: {e}"),
    }
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
    let (total, cases, error) = &outcome;
    if let Some(total) = total {
        assert!(error.is_some() || cases.len() as u64 == *total);
    }
    for (board, line) in cases {
        check_board(board);
        offset_of(data, *line, 1);
    }
    if let Some(e) = error {
        check_error(data, e);
    }
    for piece in data.chunks(4).take(64) {
        check_tile(piece);
    }
}
