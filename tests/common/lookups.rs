//! What a Flip or Euler lookup must answer, checked against the library
//! and against the rules of `tests/oracle`: its press rule and its Euler
//! moves (`oracle::euler::moves_4x4`, handed in as `all_moves`). Every
//! binary that includes this file includes `tests/oracle` as `oracle`.
#![allow(dead_code)]

use std::collections::BTreeSet;

use boardbase::euler::{self, Outcome, Position};
use boardbase::flip::{self, Board};
use boardbase::report::{EulerAnswer, FlipAnswer};
use serde_json::{Value, json};

use crate::oracle::press;

/// Rows of a 4×4 board from its bits, with `one` for a set bit.
pub fn rows_of(bits: u16, zero: char, one: char) -> String {
    (0..4)
        .map(|r| {
            (0..4)
                .map(|c| {
                    if bits >> (4 * r + c) & 1 == 1 {
                        one
                    } else {
                        zero
                    }
                })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// Checks one Flip answer: the CLI's object, plus every press with the
/// board it leads to and that board's rounds, fewest first, impossible
/// last, ties in reading order.
pub fn check_flip(bits: u16, v: &Value) {
    let board = Board::from_bits(bits);
    let mut expected = serde_json::to_value(FlipAnswer::new(1, board)).unwrap();
    let mut got = v.clone();
    let moves = got.as_object_mut().unwrap().remove("moves").expect("moves");
    expected.as_object_mut().unwrap().remove("moves");
    assert_eq!(got, expected, "answer of {board:#}");
    let moves = moves.as_array().unwrap();
    assert_eq!(moves.len(), 16);
    let mut cells = BTreeSet::new();
    let mut last: Option<(u16, usize)> = None;
    for m in moves {
        let (r, c) = (
            m["cell"][0].as_u64().unwrap() as usize,
            m["cell"][1].as_u64().unwrap() as usize,
        );
        assert!(cells.insert((r, c)), "cell ({r},{c}) twice");
        let after = press::pressed_4x4(bits, r, c);
        assert_eq!(m["board"], rows_of(after, 'w', 'b'), "press ({r},{c})");
        let rounds = flip::rounds(Board::from_bits(after));
        assert_eq!(m["rounds"], json!(rounds));
        assert_eq!(m["solvable"], json!(rounds.is_some()));
        let key = (rounds.map_or(u16::MAX, u16::from), 4 * r + c);
        if let Some(prev) = last {
            assert!(prev < key, "order of {board:#}: {prev:?} before {key:?}");
        }
        last = Some(key);
    }
}

/// Checks one Euler answer: the CLI's object, plus every legal move with
/// the value of the position it leads to, winning moves first (fastest
/// first), then losing ones (longest first).
pub fn check_euler(bits: u16, all_moves: &[u16], v: &Value) {
    let position = Position::from_bits(bits);
    let mut expected = serde_json::to_value(EulerAnswer::new(1, position)).unwrap();
    let mut got = v.clone();
    let moves = got.as_object_mut().unwrap().remove("moves").expect("moves");
    expected.as_object_mut().unwrap().remove("moves");
    assert_eq!(got, expected, "answer of {position:#}");
    let moves = moves.as_array().unwrap();
    let legal: BTreeSet<u16> = all_moves
        .iter()
        .copied()
        .filter(|m| bits & m == 0)
        .collect();
    let listed: BTreeSet<u16> = moves
        .iter()
        .map(|m| m["mask"].as_u64().unwrap() as u16)
        .collect();
    assert_eq!(listed, legal, "legal moves of {position:#}");
    assert_eq!(moves.len(), legal.len(), "no move twice");
    let mut last: Option<(u8, i16)> = None;
    for m in moves {
        let mask = m["mask"].as_u64().unwrap() as u16;
        let cells: Vec<[usize; 2]> = (0..16)
            .filter(|i| mask >> i & 1 == 1)
            .map(|i| [i / 4, i % 4])
            .collect();
        assert_eq!(m["cells"], json!(cells));
        assert_eq!(m["board"], rows_of(bits | mask, '.', 'X'));
        let child = euler::probe(Position::from_bits(bits | mask));
        assert_eq!(m["outcome"], json!(child.outcome));
        assert_eq!(m["moves_left"], json!(child.moves_left));
        let key = match child.outcome {
            Outcome::Loss => (0, i16::from(child.moves_left)),
            Outcome::Win => (1, -i16::from(child.moves_left)),
        };
        if let Some(prev) = last {
            assert!(prev <= key, "order of {position:#}");
        }
        last = Some(key);
    }
    // The best move heads the list.
    if let Some(first) = moves.first() {
        assert_eq!(
            first["mask"], v["best_move"]["mask"],
            "best move of {position:#}"
        );
    }
}
