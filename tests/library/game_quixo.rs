//! Quixo through the game model: the generic retrograde analysis of
//! `boardbase::tables::quixo::Quixo`, with and without symmetry, against
//! the oracle's value iteration (tests/oracle/quixo.rs) on every position
//! reachable from the start; every position's moves against the oracle's;
//! the game's text and GamesmanOne's both ways.

use std::collections::{BTreeSet, HashMap};

use crate::oracle::mnk::{Game, Solved};
use crate::oracle::quixo::Quixo as Oracle;
use boardbase::tables::game::{Outcome, Rules, Text, TwoPlayer, retrograde};
use boardbase::tables::quixo::Quixo;
use boardbase::tables::shape::Shape;

/// A cell's name: the column's letter, the row's number from the top.
fn cell(cols: usize, i: usize) -> String {
    format!("{}{}", (b'a' + (i % cols) as u8) as char, i / cols + 1)
}

/// boardbase's text of an oracle position: the rows, then the mover.
fn text(cols: usize, position: &[u8]) -> String {
    let (board, mover) = position.split_at(position.len() - 1);
    let mut lines: Vec<String> = board
        .chunks(cols)
        .map(|row| String::from_utf8_lossy(row).into_owned())
        .collect();
    lines.push((mover[0] as char).to_string());
    lines.join("\n")
}

/// GamesmanOne's string of an oracle position.
fn gamesman(position: &[u8]) -> String {
    let (board, mover) = position.split_at(position.len() - 1);
    let turn = if mover[0] == b'X' { "1_" } else { "2_" };
    turn.to_owned()
        + &board
            .iter()
            .map(|&b| if b == b'.' { '-' } else { b as char })
            .collect::<String>()
}

fn outcome(solved: Solved) -> Outcome {
    match solved {
        Solved::Win(r) => Outcome::Win(r),
        Solved::Lose(r) => Outcome::Lose(r),
        Solved::Draw => Outcome::Draw,
    }
}

/// Every reachable position of one board: its value and remoteness, its
/// moves and their results, its best move's outcome, its text both ways.
fn check(rows: usize, cols: usize, k: usize) -> HashMap<Vec<u8>, Solved> {
    let oracle = Oracle {
        board: Game { rows, cols, k },
    };
    let all = oracle.solve_all();
    let shape = Shape::new(rows, cols).unwrap();
    for symmetric in [false, true] {
        let mut game = Quixo::new(shape, k).unwrap();
        if !symmetric {
            game = game.without_symmetry();
        }
        let solved = retrograde::solve(&game).unwrap();
        for (position, &want) in &all {
            let drawn = text(cols, position);
            let p = game.read_position(&drawn).unwrap();
            assert!(game.is_legal(p), "{drawn}");
            let mut written = String::new();
            game.write_position(p, &mut written).unwrap();
            assert_eq!(written, drawn);
            assert_eq!(game.read_position(&gamesman(position)), Ok(p));
            let mut theirs = String::new();
            game.write_gamesman(p, &mut theirs).unwrap();
            assert_eq!(theirs, gamesman(position));
            let got = solved.outcome_of(&game, p);
            assert_eq!(got, Some(outcome(want)), "{rows}x{cols} k={k}:\n{drawn}");
            // The same moves, to the same positions.
            let mut moves = BTreeSet::new();
            game.for_each_move(p, |mv| {
                let mut name = String::new();
                game.write_move(p, mv, &mut name).unwrap();
                assert_eq!(game.read_move(p, &name), Ok(mv));
                let mut after = String::new();
                game.write_position(game.play(p, mv), &mut after).unwrap();
                moves.insert((name, after));
            });
            let want_moves: BTreeSet<(String, String)> = oracle
                .moves(position)
                .into_iter()
                .map(|(s, d, after)| {
                    (
                        format!("{}-{}", cell(cols, s), cell(cols, d)),
                        text(cols, &after),
                    )
                })
                .collect();
            assert_eq!(moves, want_moves, "{drawn}");
            let best = solved.best_move(&game, p).map(|(_, o)| o);
            let over = oracle.over(position).is_some();
            assert_eq!(best, (!over).then_some(outcome(want)), "{drawn}");
        }
    }
    all
}

#[test]
fn quixo_3x3_every_reachable_position_against_value_iteration() {
    let all = check(3, 3, 3);
    // As GamesmanOne's variant 2 has it: X wins from the start in 7.
    let start = Oracle {
        board: Game {
            rows: 3,
            cols: 3,
            k: 3,
        },
    }
    .start();
    assert_eq!(all[&start], Solved::Win(7));
    let counts = all.values().fold([0; 3], |mut c, s| {
        c[match s {
            Solved::Win(_) => 0,
            Solved::Lose(_) => 1,
            Solved::Draw => 2,
        }] += 1;
        c
    });
    // 32,027 positions reachable, none drawn: the cycles all end.
    assert_eq!(counts, [20_247, 11_780, 0]);
}

#[test]
fn quixo_other_boards_against_value_iteration() {
    for (rows, cols, k) in [(2, 2, 2), (2, 3, 2), (3, 2, 3), (3, 3, 2), (2, 4, 3)] {
        check(rows, cols, k);
    }
}

#[test]
fn quixo_parents_are_every_position_with_a_move_here() {
    // For every canonical reachable position, the parents the game gives
    // are exactly the canonical positions with a move into its class.
    let shape = Shape::new(3, 3).unwrap();
    let game = Quixo::new(shape, 3).unwrap();
    let oracle = Oracle {
        board: Game {
            rows: 3,
            cols: 3,
            k: 3,
        },
    };
    let all = oracle.solve_all();
    let mut into: HashMap<u64, BTreeSet<u64>> = HashMap::new();
    for position in all.keys() {
        let p = game.canonical(game.read_position(&text(3, position)).unwrap());
        into.entry(p).or_default();
        game.for_each_move(p, |mv| {
            into.entry(game.canonical(game.play(p, mv)))
                .or_default()
                .insert(p);
        });
    }
    for (&child, parents) in &into {
        let mut given = BTreeSet::new();
        game.for_each_parent(child, |p| {
            assert!(given.insert(p), "{p} given twice");
        });
        // Parents the search does not reach (positions the rules allow
        // but no game from the start does) may be given besides.
        assert!(given.is_superset(parents), "{child}");
        for &p in &given {
            assert!(game.is_legal(p) && game.canonical(p) == p && game.primitive(p).is_none());
            let mut reaches = false;
            game.for_each_move(p, |mv| reaches |= game.canonical(game.play(p, mv)) == child);
            assert!(reaches, "{p} does not reach {child}");
        }
    }
}

#[test]
fn quixo_text_errors_say_where() {
    let game = Quixo::new(Shape::new(3, 3).unwrap(), 3).unwrap();
    let err = |t: &str| game.read_position(t).unwrap_err().to_string();
    assert_eq!(
        err("XX./OO./.../Z"),
        "1:13: expected the player to move ('X' or 'O') on a line after the board, found 'Z'"
    );
    assert_eq!(
        err("XX.\nOO.\n...\n"),
        "3:1: expected the player to move ('X' or 'O') on a line after the board, found '.'"
    );
    assert_eq!(
        err("XX.\nOY.\n...\nX"),
        "2:2: expected '.', 'X' or 'O', found 'Y'"
    );
    assert_eq!(
        err("1_--X-Y----"),
        "1:7: expected '-', 'X' or 'O', found 'Y'"
    );
    assert_eq!(err("1_--X--"), "1:8: expected a cell, found end of input");
    assert_eq!(
        err(".../.../.../O"),
        "1:1: expected a position of the game, found O to move on an empty board (X moves first)"
    );
    assert_eq!(
        err(".../.X./.../O"),
        "1:1: expected a position of the game, found no cube of the player who moved last on the border (a push leaves one there)"
    );
    // Moves: boardbase's and GamesmanOne's.
    let p = game.read_position("XX./OO./.../X").unwrap();
    assert_eq!(game.read_move(p, "a1-c1"), game.read_move(p, "1 R"));
    assert!(game.read_move(p, "a2-c2").is_err()); // O's cube
    assert!(game.read_move(p, "b2-b3").is_err()); // not on the border
}
