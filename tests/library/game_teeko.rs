//! Teeko through the game model: the generic retrograde analysis of
//! `boardbase::tables::teeko::Teeko`, with and without symmetry, against
//! the oracle's value iteration over 2-D grids (tests/oracle/teeko.rs) on
//! every position reachable from the start of the small boards; every
//! position's moves against the oracle's; the game's text and
//! GamesmanOne's both ways; the index, the symmetries and the parents on
//! the full 5×5 board, over samples of its positions.

use std::collections::{BTreeSet, HashMap};

use crate::oracle::mnk::Solved;
use crate::oracle::teeko::{Position, Teeko as Oracle};
use boardbase::tables::game::{Outcome, Rules, Text, TwoPlayer, retrograde};
use boardbase::tables::shape::Shape;
use boardbase::tables::teeko::Teeko;

/// A cell's name: the column's letter, the row's number from the top.
fn cell((r, c): (usize, usize)) -> String {
    format!("{}{}", (b'a' + c as u8) as char, r + 1)
}

/// boardbase's text of an oracle position: the rows, then the mover.
fn text(position: &Position) -> String {
    let mut lines: Vec<String> = position
        .grid
        .iter()
        .map(|row| String::from_utf8_lossy(row).into_owned())
        .collect();
    lines.push((position.mover as char).to_string());
    lines.join("\n")
}

/// GamesmanOne's string of an oracle position.
fn gamesman(position: &Position) -> String {
    let turn = if position.mover == b'X' { "1_" } else { "2_" };
    turn.to_owned()
        + &position
            .grid
            .iter()
            .flatten()
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

fn written(game: &Teeko, p: u64) -> String {
    let mut s = String::new();
    game.write_position(p, &mut s).unwrap();
    s
}

/// Every reachable position of one board: its value and remoteness, its
/// moves and their results, its best move's outcome, its text both ways.
fn check(rows: usize, cols: usize, advanced: bool) -> HashMap<Position, Solved> {
    let oracle = Oracle {
        rows,
        cols,
        advanced,
    };
    let all = oracle.solve_all();
    let shape = Shape::new(rows, cols).unwrap();
    for symmetric in [false, true] {
        let mut game = Teeko::new(shape, advanced).unwrap();
        if !symmetric {
            game = game.without_symmetry();
        }
        let solved = retrograde::solve(&game).unwrap();
        for (position, &want) in &all {
            let drawn = text(position);
            let p = game.read_position(&drawn).unwrap();
            assert!(game.is_legal(p), "{drawn}");
            assert_eq!(written(&game, p), drawn);
            assert_eq!(game.read_position(&gamesman(position)), Ok(p));
            let mut theirs = String::new();
            game.write_gamesman(p, &mut theirs).unwrap();
            assert_eq!(theirs, gamesman(position));
            let got = solved.outcome_of(&game, p);
            assert_eq!(got, Some(outcome(want)), "{rows}x{cols}:\n{drawn}");
            // The same moves, to the same positions.
            let mut moves = BTreeSet::new();
            game.for_each_move(p, |mv| {
                let mut name = String::new();
                game.write_move(p, mv, &mut name).unwrap();
                assert_eq!(game.read_move(p, &name), Ok(mv));
                moves.insert((name, written(&game, game.play(p, mv))));
            });
            let want_moves: BTreeSet<(String, String)> = oracle
                .moves(position)
                .into_iter()
                .map(|(from, to, after)| {
                    let name = match from {
                        Some(from) => format!("{}-{}", cell(from), cell(to)),
                        None => cell(to),
                    };
                    (name, text(&after))
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

fn counts(all: &HashMap<Position, Solved>) -> [usize; 3] {
    all.values().fold([0; 3], |mut c, s| {
        c[match s {
            Solved::Win(_) => 0,
            Solved::Lose(_) => 1,
            Solved::Draw => 2,
        }] += 1;
        c
    })
}

#[test]
fn teeko_3x4_every_reachable_position_against_value_iteration() {
    let all = check(3, 4, false);
    let start = Oracle {
        rows: 3,
        cols: 4,
        advanced: false,
    }
    .start();
    // Drawn, as 5×5 is; 125,931 positions reachable, 16,644 won and
    // 3,120 lost for the player to move.
    assert_eq!(all[&start], Solved::Draw);
    assert_eq!(counts(&all), [16_644, 3_120, 106_167]);
}

#[test]
fn teeko_other_boards_against_value_iteration() {
    // Won, lost and drawn reachable positions; every start a draw.
    for (rows, cols, advanced, want) in [
        (3, 3, false, [664, 256, 5_570]),
        (3, 3, true, [748, 276, 5_444]),
        (4, 3, true, [20_426, 3_904, 101_321]),
    ] {
        let all = check(rows, cols, advanced);
        let start = Oracle {
            rows,
            cols,
            advanced,
        }
        .start();
        assert_eq!(all[&start], Solved::Draw);
        assert_eq!(counts(&all), want, "{rows}x{cols} advanced {advanced}");
    }
}

#[test]
fn teeko_parents_are_every_position_with_a_move_here() {
    // For every canonical reachable position of 3×4 and 3×3, the parents
    // the game gives are exactly the canonical positions with a move into
    // its class, with and without symmetry.
    for (rows, cols) in [(3, 4), (3, 3)] {
        let oracle = Oracle {
            rows,
            cols,
            advanced: false,
        };
        let all = oracle.solve_all();
        for symmetric in [true, false] {
            let mut game = Teeko::new(Shape::new(rows, cols).unwrap(), false).unwrap();
            if !symmetric {
                game = game.without_symmetry();
            }
            let mut into: HashMap<u64, BTreeSet<u64>> = HashMap::new();
            for position in all.keys() {
                let p = game.canonical(game.read_position(&text(position)).unwrap());
                into.entry(p).or_default();
                game.for_each_move(p, |mv| {
                    into.entry(game.canonical(game.play(p, mv)))
                        .or_default()
                        .insert(p);
                });
            }
            for (&child, parents) in &into {
                let given = given_parents(&game, child);
                // Parents no game from the start reaches may be given
                // besides.
                assert!(given.is_superset(parents), "{}", written(&game, child));
            }
        }
    }
}

/// The parents `game` gives of `child`, each checked: given once, a legal
/// canonical position that goes on, with a move into `child`'s class.
fn given_parents(game: &Teeko, child: u64) -> BTreeSet<u64> {
    let mut given = BTreeSet::new();
    game.for_each_parent(child, |p| {
        assert!(given.insert(p), "{p} given twice");
    });
    for &p in &given {
        assert!(game.is_legal(p) && game.canonical(p) == p && game.primitive(p).is_none());
        let mut reaches = false;
        game.for_each_move(p, |mv| reaches |= game.canonical(game.play(p, mv)) == child);
        assert!(
            reaches,
            "{} does not reach {}",
            written(game, p),
            written(game, child)
        );
    }
    given
}

/// Positions of 5×5 from random games (a fixed seed): every ply of 200
/// games of up to 60 plies, finished positions included.
fn sample_5x5(game: &Teeko) -> Vec<u64> {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut out = Vec::new();
    for _ in 0..200 {
        let mut p = game.start();
        for _ in 0..60 {
            out.push(p);
            let mut moves = Vec::new();
            game.for_each_move(p, |mv| moves.push(mv));
            if moves.is_empty() {
                break;
            }
            p = game.play(p, moves[(next() % moves.len() as u64) as usize]);
        }
    }
    out
}

#[test]
fn teeko_5x5_index_symmetry_and_parents_over_a_sample() {
    let game = Teeko::new(Shape::new(5, 5).unwrap(), false).unwrap();
    let plain = game.clone().without_symmetry();
    // Every placement of the right counts, phase by phase, and nothing
    // else: 20,981,226 dropping, 2·C(25,4)·C(21,4) sliding.
    assert_eq!(game.positions(), 172_401_726);
    assert_eq!(game.patterns().len(), 44);
    let advanced = Teeko::new(Shape::new(5, 5).unwrap(), true).unwrap();
    assert_eq!(advanced.patterns().len(), 44 + 14);
    let sample = sample_5x5(&game);
    let mut phases = [0usize; 2];
    for &p in &sample {
        let text = written(&game, p);
        assert_eq!(game.read_position(&text), Ok(p), "{text}");
        let (x, o, o_to_move) = game.pieces(p);
        assert_eq!(game.position(x, o, o_to_move), Some(p));
        phases[usize::from(x.count_ones() + o.count_ones() == 8)] += 1;
        // The canonical position is the least of the eight images, each
        // of which has it as canonical too.
        let c = game.canonical(p);
        assert!(c <= p && game.canonical(c) == c);
        let shape = game.shape();
        for s in 0..8 {
            let (ix, io) = (shape.symmetric_board(x, s), shape.symmetric_board(o, s));
            let image = game.position(ix, io, o_to_move).unwrap();
            assert_eq!(game.canonical(image), c, "{text}");
            assert_eq!(game.primitive(image), game.primitive(p));
        }
        // The parents of the position's class, with symmetry and without,
        // all reach it; and every position a move of `p` reaches lists
        // `p`'s class among its parents.
        given_parents(&game, c);
        given_parents(&plain, p);
        game.for_each_move(p, |mv| {
            let child = game.play(p, mv);
            let mut found = false;
            game.for_each_parent(game.canonical(child), |q| found |= q == c);
            assert!(found, "{text} not a parent of its child");
            let mut found = false;
            plain.for_each_parent(child, |q| found |= q == p);
            assert!(found, "{text} not a parent of its child without symmetry");
        });
    }
    assert!(phases[0] > 1000 && phases[1] > 1000, "{phases:?}");
}

#[test]
fn teeko_every_index_of_3x3_reads_back() {
    // Every index of a small board is a position whose text reads back to
    // it (or one where the player to move already has a pattern, which
    // the text refuses as the game does).
    for advanced in [false, true] {
        let game = Teeko::new(Shape::new(3, 3).unwrap(), advanced)
            .unwrap()
            .without_symmetry();
        for p in 0..game.positions() {
            let text = written(&game, p);
            let read = game.read_position(&text);
            if game.is_legal(p) {
                assert_eq!(read, Ok(p), "{text}");
            } else {
                assert!(read.is_err(), "{text}");
            }
            let mut theirs = String::new();
            game.write_gamesman(p, &mut theirs).unwrap();
            assert_eq!(game.read_position(&theirs), read, "{theirs}");
        }
    }
}

#[test]
fn teeko_text_errors_say_where() {
    let game = Teeko::new(Shape::new(5, 5).unwrap(), false).unwrap();
    let err = |t: &str| game.read_position(t).unwrap_err().to_string();
    assert_eq!(
        err("XX.../OO.../...../...../...../Z"),
        "1:31: expected the player to move ('X' or 'O') on a line after the board, found 'Z'"
    );
    assert_eq!(
        err("XX...\nOY...\n.....\n.....\n.....\nX"),
        "2:2: expected '.', 'X' or 'O', found 'Y'"
    );
    assert_eq!(
        err("XXXXX/OO.../...../...../...../O"),
        "1:5: expected at most four pieces of each player, found a fifth X (each player has four pieces)"
    );
    assert_eq!(
        err("XX.../OO.../...../...../X"),
        "1:25: expected another row, found end of input"
    );
    assert_eq!(err("1_--X-Y"), "1:7: expected '-', 'X' or 'O', found 'Y'");
    assert_eq!(err("1_--X--"), "1:8: expected a cell, found end of input");
    assert_eq!(
        err("O..../...../...../...../...../X"),
        "1:1: expected a position of the game, found more O than X (X drops first)"
    );
    assert_eq!(
        err("XX.../...../...../...../...../O"),
        "1:1: expected a position of the game, found two X or more past the O (the players alternate)"
    );
    assert_eq!(
        err("X..../...../...../...../...../X"),
        "1:1: expected a position of the game, found X to move with an X more than the O (O drops next)"
    );
    assert_eq!(
        err("XO.../...../...../...../...../O"),
        "1:1: expected a position of the game, found O to move with as many X as O before every piece is placed (X drops next)"
    );
    assert_eq!(
        err("XXXX./OOO.O/...../...../...../X"),
        "1:1: expected a position of the game, found a pattern of the player to move (the game ended before the last move)"
    );
    // Moves: boardbase's and GamesmanOne's (cells from 0).
    let p = game
        .read_position("X..../.O.../...../...../...../X")
        .unwrap();
    assert_eq!(game.read_move(p, "c1"), game.read_move(p, "2"));
    assert!(game.read_move(p, "a1").is_err()); // taken
    assert!(game.read_move(p, "25").is_err()); // off the board
    assert_eq!(
        game.read_move(p, "a1-a2").unwrap_err().to_string(),
        "1:1: expected a move of the position ('c3', 'c3-d4', or GamesmanOne's '12', '12 18'), found 5 characters"
    );
    let q = game
        .read_position("XXX../.OO.X/...../...../O...O/O")
        .unwrap();
    assert_eq!(game.read_move(q, "b2-c3"), game.read_move(q, "6 12"));
    assert!(game.read_move(q, "b2-d4").is_err()); // not next to it
    assert!(game.read_move(q, "a1-a2").is_err()); // X's piece
}

#[test]
#[ignore = "solves 5x5 Teeko, 172 million indices: about four minutes of CPU time; run with --ignored"]
fn teeko_5x5_start_is_a_draw() {
    let game = Teeko::new(Shape::new(5, 5).unwrap(), false).unwrap();
    let solved = retrograde::solve(&game).unwrap();
    assert_eq!(solved.outcome_of(&game, game.start()), Some(Outcome::Draw));
}
