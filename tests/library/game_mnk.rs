//! m,n,k-games through the game model: the generic retrograde analysis of
//! `boardbase::tables::mnk::Mnk`, with and without symmetry, against the
//! oracle's memoised game search (tests/oracle/mnk.rs), every position
//! reachable from the empty board; the game's text both ways.

use std::collections::HashMap;

use crate::common::SplitMix;
use crate::oracle::mnk::{Game, Solved};
use boardbase::tables::game::{Outcome, Text, TwoPlayer, retrograde};
use boardbase::tables::mnk::Mnk;
use boardbase::tables::shape::Shape;

fn text(game: &Game, board: &[u8]) -> String {
    board
        .chunks(game.cols)
        .map(|row| String::from_utf8_lossy(row).into_owned())
        .collect::<Vec<_>>()
        .join("\n")
}

fn outcome(solved: Solved) -> Outcome {
    match solved {
        Solved::Win(r) => Outcome::Win(r),
        Solved::Lose(r) => Outcome::Lose(r),
        Solved::Draw => Outcome::Draw,
    }
}

/// Every reachable position of one game: its value and remoteness, its
/// best move's, and its text both ways.
fn check(rows: usize, cols: usize, k: usize) -> HashMap<Vec<u8>, Solved> {
    let oracle = Game { rows, cols, k };
    let all = oracle.solve_all();
    let shape = Shape::new(rows, cols).unwrap();
    for symmetric in [false, true] {
        let mut game = Mnk::new(shape, k).unwrap();
        if symmetric {
            game = game.with_symmetry();
        }
        let solved = retrograde::solve(&game).unwrap();
        for (board, &want) in &all {
            let drawn = text(&oracle, board);
            let p = game.read_position(&drawn).unwrap();
            let mut written = String::new();
            game.write_position(p, &mut written).unwrap();
            assert_eq!(written, drawn);
            let got = solved.outcome_of(&game, p);
            assert_eq!(got, Some(outcome(want)), "{rows}x{cols} k={k}:\n{drawn}");
            // The best move reaches the position's outcome.
            let best = solved.best_move(&game, p).map(|(_, o)| o);
            let finished = matches!(want, Solved::Lose(0)) || board.iter().all(|&b| b != b'.');
            assert_eq!(best, (!finished).then_some(outcome(want)), "{drawn}");
        }
    }
    all
}

#[test]
fn tic_tac_toe_every_reachable_position_against_game_search() {
    let all = check(3, 3, 3);
    assert_eq!(all.len(), 5478);
    assert_eq!(all[&b".........".to_vec()], Solved::Draw);
}

#[test]
fn other_boards_and_rows_against_game_search() {
    for (rows, cols, k) in [
        (1, 1, 1),
        (1, 5, 2),
        (2, 2, 2),
        (2, 4, 3),
        (3, 4, 3),
        (4, 3, 3),
        (3, 3, 2),
        (3, 3, 4),
    ] {
        check(rows, cols, k);
    }
}

/// 4×4 tic-tac-toe (k = 4), too large for the oracle from the empty board
/// (about ten million reachable positions in its map), is solved whole by
/// the retrograde analysis with the square's symmetries, then checked at
/// positions reached by random play of 6 to 12 plies:
/// the oracle searches each from there.
#[test]
fn four_by_four_at_sampled_positions_against_game_search() {
    let oracle = Game {
        rows: 4,
        cols: 4,
        k: 4,
    };
    let game = Mnk::new(Shape::new(4, 4).unwrap(), 4)
        .unwrap()
        .with_symmetry();
    let solved = retrograde::solve(&game).unwrap();
    let start = game.start();
    assert_eq!(solved.outcome_of(&game, start), Some(Outcome::Draw));
    let mut rng = SplitMix(16);
    let mut memo = HashMap::new();
    let (mut won, mut lost, mut drawn) = (0, 0, 0);
    for _ in 0..300 {
        let mut board = vec![b'.'; 16];
        let plies = 6 + rng.next() as usize % 7;
        for _ in 0..plies {
            let mover = Game::to_move(&board);
            let other = if mover == b'X' { b'O' } else { b'X' };
            if oracle.wins(&board, other) {
                break;
            }
            let empty: Vec<usize> = (0..16).filter(|&i| board[i] == b'.').collect();
            board[empty[rng.next() as usize % empty.len()]] = mover;
        }
        let want = oracle.solve_from(&board, &mut memo);
        match want {
            Solved::Win(_) => won += 1,
            Solved::Lose(_) => lost += 1,
            Solved::Draw => drawn += 1,
        }
        let drawn_text = text(&oracle, &board);
        let p = game.read_position(&drawn_text).unwrap();
        assert_eq!(
            solved.outcome_of(&game, p),
            Some(outcome(want)),
            "\n{drawn_text}"
        );
    }
    // The samples reach every value, so each kind of entry was compared.
    assert!(won > 0 && lost > 0 && drawn > 0, "{won} {lost} {drawn}");
}

#[test]
fn position_text_errors_say_where_and_why() {
    let game = Mnk::new(Shape::new(3, 3).unwrap(), 3).unwrap();
    let error = |text: &str| game.read_position(text).unwrap_err().to_string();
    assert_eq!(
        error("X../.Q./..."),
        "1:6: expected '.', 'X' or 'O', found 'Q'"
    );
    assert_eq!(
        error("X..\n.Q.\n..."),
        "2:2: expected '.', 'X' or 'O', found 'Q'"
    );
    assert_eq!(
        error("X../..."),
        "1:8: expected another row, found end of input"
    );
    assert_eq!(
        error("OO./X../..."),
        "1:1: expected a position of the game, found more O than X (X moves first)"
    );
    assert_eq!(
        error("XXX/OO./O.."),
        "1:1: expected a position of the game, found a line of the player to move (the game ended before the last move)"
    );
    // A move is its cell; one not empty is no move of the position.
    let p = game.read_position("X../.../...").unwrap();
    assert_eq!(game.read_move(p, " c3 ").unwrap(), 8);
    assert_eq!(
        game.read_move(p, "a1").unwrap_err().to_string(),
        "1:1: expected a move of the position, found 2 characters"
    );
    assert_eq!(game.start(), 0);
}
