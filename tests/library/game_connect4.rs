//! Connect Four through the game model: the generic retrograde analysis of
//! `boardbase::tables::connect4::Connect4`, with and without its mirror,
//! against the oracle's memoised game search (tests/oracle/connect4.rs),
//! every position reachable from the empty board; the game's text.

use crate::oracle::connect4::Connect4 as Oracle;
use crate::oracle::mnk::{Game, Solved};
use boardbase::tables::connect4::Connect4;
use boardbase::tables::game::{Outcome, Rules, Text, retrograde};
use boardbase::tables::shape::Shape;

fn outcome(solved: Solved) -> Outcome {
    match solved {
        Solved::Win(r) => Outcome::Win(r),
        Solved::Lose(r) => Outcome::Lose(r),
        Solved::Draw => Outcome::Draw,
    }
}

/// Solves with the mirror, and without it where `both`.
fn check(rows: usize, cols: usize, k: usize, both: bool) -> usize {
    let oracle = Oracle {
        board: Game { rows, cols, k },
    };
    let all = oracle.solve_all();
    let shape = Shape::new(rows, cols).unwrap();
    for symmetric in [true, false].into_iter().take(if both { 2 } else { 1 }) {
        let mut game = Connect4::new(shape, k).unwrap();
        if !symmetric {
            game = game.without_symmetry();
        }
        let solved = retrograde::solve(&game).unwrap();
        for (board, &want) in &all {
            let text: Vec<String> = board
                .chunks(cols)
                .map(|r| String::from_utf8_lossy(r).into_owned())
                .collect();
            let drawn = text.join("\n");
            let p = game.read_position(&drawn).unwrap();
            let mut written = String::new();
            game.write_position(p, &mut written).unwrap();
            assert_eq!(written, drawn);
            assert_eq!(
                solved.outcome_of(&game, p),
                Some(outcome(want)),
                "{rows}x{cols} k={k}:\n{drawn}"
            );
            // Every move of a position in play, one a column with room.
            let mut moves = 0;
            game.for_each_move(p, |_| moves += 1);
            let open = (0..cols)
                .filter(|&c| oracle.landing(board, c).is_some())
                .count();
            let over = matches!(want, Solved::Lose(0)) || open == 0;
            assert_eq!(moves, if over { 0 } else { open }, "{drawn}");
        }
    }
    all.len()
}

#[test]
fn every_reachable_position_of_small_boards_against_game_search() {
    assert!(check(4, 4, 4, true) > 100_000);
    check(3, 4, 3, true);
    check(4, 3, 3, true);
    check(2, 5, 2, true);
}

#[test]
fn every_reachable_4x5_position_against_game_search() {
    // With the mirror only: 28.6 million position indices a solve.
    check(4, 5, 4, false);
}

#[test]
fn position_text_errors_say_where_and_why() {
    let game = Connect4::new(Shape::new(4, 4).unwrap(), 4).unwrap();
    let error = |text: &str| game.read_position(text).unwrap_err().to_string();
    assert_eq!(
        error("..../.X../..../.O.."),
        "1:7: expected '.' over an empty cell (pieces fall to the lowest empty cell), found 'X'"
    );
    assert_eq!(
        error("....\n....\nO...\nX..O"),
        "1:1: expected a position of the game, found more O than X (X moves first)"
    );
    assert_eq!(
        error("..../..../..../XO."),
        "1:19: expected a cell, found end of input"
    );
    let p = game.read_position("..../..../..../X...").unwrap();
    assert_eq!(game.read_move(p, "b").unwrap(), 1);
    assert!(game.read_move(p, "e").is_err());
}

#[test]
fn a_line_longer_than_the_board_fits_nowhere() {
    // Every game of a k past both sides is a draw, for any k.
    for k in [5, 64, usize::MAX] {
        let game = Connect4::new(Shape::new(2, 3).unwrap(), k).unwrap();
        let solved = retrograde::solve(&game).unwrap();
        assert_eq!(solved.outcome_of(&game, 0), Some(Outcome::Draw), "k={k}");
    }
    assert!(Connect4::new(Shape::new(63, 1).unwrap(), 4).is_none());
    assert!(Connect4::new(Shape::new(62, 1).unwrap(), 4).is_some());
}
