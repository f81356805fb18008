//! `boardbase solve`: any two-player game of the catalogue, every position
//! of tic-tac-toe, of small m,n,k and Euler boards and of 3×3 Quixo
//! through one process each, against the oracles' game searches
//! (tests/oracle/mnk.rs, tests/oracle/quixo.rs, tests/oracle/tables.rs):
//! the value and remoteness, every move with the value of the position
//! after it, best first; the text output; errors with their line and
//! column; the JSON against its schema.

use std::cmp::Reverse;

use serde_json::Value;

use crate::common::{ok, run};
use crate::oracle::connect4::Connect4;
use crate::oracle::euler;
use crate::oracle::mnk::{Game, Solved};
use crate::oracle::quixo::Quixo;
use crate::oracle::tables::solve_euler;
use crate::schemas::assert_valid;
use boardbase::tables::shape::Shape;

/// A cell's name: the column's letter, the row's number from the top.
fn cell(cols: usize, i: usize) -> String {
    format!("{}{}", (b'a' + (i % cols) as u8) as char, i / cols + 1)
}

/// (value, remoteness) as the JSON has them.
fn valued(s: Solved) -> (&'static str, Option<u64>) {
    match s {
        Solved::Win(r) => ("win", Some(r.into())),
        Solved::Lose(r) => ("lose", Some(r.into())),
        Solved::Draw => ("draw", None),
    }
}

/// How the player to move ranks a move by the value of the position after
/// it (the opponent's): a lost one first, the sooner the better, then a
/// draw, then a won one, the later the better.
fn rank(value: &str, remoteness: Option<u64>) -> (u8, i64) {
    let r = remoteness.map_or(0, |r| r as i64);
    match value {
        "lose" => (2, -r),
        "draw" => (1, 0),
        _ => (0, r),
    }
}

/// The moves of one solved object: (move, value, remoteness), checked best
/// first (ties kept in `order`'s order when given).
fn moves_of(object: &Value) -> Vec<(String, String, Option<u64>)> {
    let moves: Vec<(String, String, Option<u64>)> = object["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["move"].as_str().unwrap().to_owned(),
                m["value"].as_str().unwrap().to_owned(),
                m["remoteness"].as_u64(),
            )
        })
        .collect();
    let ranks: Vec<_> = moves.iter().map(|(_, v, r)| Reverse(rank(v, *r))).collect();
    assert!(ranks.is_sorted(), "best first: {object}");
    moves
}

fn check_mnk(rows: usize, cols: usize, k: usize) {
    let game = Game { rows, cols, k };
    let all = game.solve_all();
    let boards: Vec<&Vec<u8>> = all.keys().collect();
    let input: String = boards
        .iter()
        .map(|b| {
            let rows: Vec<String> = b
                .chunks(cols)
                .map(|r| String::from_utf8_lossy(r).into())
                .collect();
            rows.join("/") + "\n"
        })
        .collect();
    let size = format!("{rows}x{cols}");
    let k_text = k.to_string();
    let out = ok(
        &[
            "solve", "mnk", "--size", &size, "--k", &k_text, "--format", "json",
        ],
        input,
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), boards.len());
    for (board, line) in boards.iter().zip(lines) {
        let object: Value = serde_json::from_str(line).unwrap();
        let (value, remoteness) = valued(all[*board]);
        assert_eq!(object["value"], value, "{line}");
        assert_eq!(object["remoteness"].as_u64(), remoteness, "{line}");
        assert_eq!(object["options"]["k"], k as u64);
        let moves = moves_of(&object);
        // Every empty cell of a position still in play, each once, valued
        // as the oracle values the position after it.
        let over = matches!(all[*board], Solved::Lose(0)) || !board.contains(&b'.');
        let mut want: Vec<(String, String, Option<u64>)> = Vec::new();
        if !over {
            let mover = Game::to_move(board);
            for i in (0..board.len()).filter(|&i| board[i] == b'.') {
                let mut after = board.to_vec();
                after[i] = mover;
                let (v, r) = valued(all[&after]);
                want.push((cell(cols, i), v.to_owned(), r));
            }
        }
        let mut got = moves.clone();
        got.sort();
        want.sort();
        assert_eq!(got, want, "{line}");
        // Ties in the game's order: reading order of the cells.
        for pair in moves.windows(2) {
            if rank(&pair[0].1, pair[0].2) == rank(&pair[1].1, pair[1].2) {
                let index = |m: &str| {
                    let c = (m.as_bytes()[0] - b'a') as usize;
                    let r: usize = m[1..].parse().unwrap();
                    (r - 1) * cols + c
                };
                assert!(index(&pair[0].0) < index(&pair[1].0), "{line}");
            }
        }
    }
}

#[test]
fn every_tic_tac_toe_position_against_game_search() {
    check_mnk(3, 3, 3);
}

#[test]
fn other_m_n_k_boards_against_game_search() {
    check_mnk(3, 4, 3);
    check_mnk(2, 3, 2);
}

#[test]
fn every_connect_four_position_of_a_small_board_against_game_search() {
    let (rows, cols, k) = (3, 4, 3);
    let oracle = Connect4 {
        board: Game { rows, cols, k },
    };
    let all = oracle.solve_all();
    let boards: Vec<&Vec<u8>> = all.keys().collect();
    let input: String = boards
        .iter()
        .map(|b| {
            let rows: Vec<String> = b
                .chunks(cols)
                .map(|r| String::from_utf8_lossy(r).into())
                .collect();
            rows.join("/") + "\n"
        })
        .collect();
    let out = ok(
        &[
            "solve", "connect4", "--size", "3x4", "--k", "3", "--format", "json",
        ],
        input,
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), boards.len());
    for (board, line) in boards.iter().zip(lines) {
        let object: Value = serde_json::from_str(line).unwrap();
        let (value, remoteness) = valued(all[*board]);
        assert_eq!(
            (object["value"].as_str(), object["remoteness"].as_u64()),
            (Some(value), remoteness),
            "{line}"
        );
        let mut got = moves_of(&object);
        let over = matches!(all[*board], Solved::Lose(0));
        let mut want = Vec::new();
        for c in (0..cols).filter(|_| !over) {
            if let Some(i) = oracle.landing(board, c) {
                let mut after = board.to_vec();
                after[i] = Game::to_move(board);
                let (v, r) = valued(all[&after]);
                want.push((((b'a' + c as u8) as char).to_string(), v.to_owned(), r));
            }
        }
        got.sort();
        want.sort();
        assert_eq!(got, want, "{line}");
    }
}

#[test]
fn every_euler_position_of_small_boards_against_the_oracle() {
    for (rows, cols) in [(3, 3), (2, 4)] {
        let shape = Shape::new(rows, cols).unwrap();
        let moves: Vec<u64> = euler::moves(rows, cols).into_iter().collect();
        let (wins, plies) = solve_euler(shape, &moves);
        let text = |p: u64| {
            (0..rows)
                .map(|r| {
                    (0..cols)
                        .map(|c| {
                            if p >> (r * cols + c) & 1 == 1 {
                                'X'
                            } else {
                                '.'
                            }
                        })
                        .collect::<String>()
                })
                .collect::<Vec<_>>()
                .join("/")
        };
        let input: String = (0..=shape.full()).map(|p| text(p) + "\n").collect();
        let size = format!("{rows}x{cols}");
        let out = ok(
            &["solve", "euler", "--size", &size, "--format", "json"],
            input,
        );
        assert_eq!(out.lines().count(), 1 << shape.cells());
        for (p, line) in out.lines().enumerate() {
            let object: Value = serde_json::from_str(line).unwrap();
            let want = if wins[p] { "win" } else { "lose" };
            assert_eq!(object["value"], want, "{line}");
            assert_eq!(
                object["remoteness"].as_u64(),
                Some(plies[p].into()),
                "{line}"
            );
            assert_eq!(object["position"], text(p as u64));
            let mut got = moves_of(&object);
            let mut expected: Vec<(String, String, Option<u64>)> = moves
                .iter()
                .filter(|&&m| m & p as u64 == 0)
                .map(|&m| {
                    let first = m.trailing_zeros() as usize;
                    let last = 63 - m.leading_zeros() as usize;
                    let name = if first == last {
                        cell(cols, first)
                    } else {
                        format!("{}-{}", cell(cols, first), cell(cols, last))
                    };
                    let c = (p as u64 | m) as usize;
                    let v = if wins[c] { "win" } else { "lose" };
                    (name, v.to_owned(), Some(u64::from(plies[c])))
                })
                .collect();
            got.sort();
            expected.sort();
            assert_eq!(got, expected, "{line}");
        }
    }
}

#[test]
fn the_start_a_board_and_the_text_output() {
    let start: Value =
        serde_json::from_str(&ok(&["solve", "mnk", "--start", "--format", "json"], "")).unwrap();
    assert_valid("solve", &start, "solve mnk --start");
    assert_eq!(
        (start["value"].as_str(), start["position"].as_str()),
        (Some("draw"), Some(".../.../..."))
    );
    assert_eq!(start["moves"].as_array().unwrap().len(), 9);
    // X to move: c1 wins at once, c2 lets O draw, the rest let O win.
    let text = ok(&["solve", "mnk", "--board", "XX./OO./..."], "");
    assert_eq!(
        text,
        "XX./OO./...: win in 1\n  c1     wins in 1\n  c2     draws\n  a3     loses in 2\n  b3     loses in 2\n  c3     loses in 2\n"
    );
    // Rows one a line, blank lines between positions.
    let text = ok(&["solve", "mnk"], "XXX\nOO.\n...\n\n\nX..\n...\n...\n");
    assert!(
        text.starts_with("XXX/OO./...: lose in 0\nX../.../...: "),
        "{text}"
    );
}

#[test]
fn bad_positions_and_setups_say_where_and_why() {
    // The answers before a bad position are given; the error has its line
    // and column in the input.
    let r = run(&["solve", "mnk"], "X../.../...\n\nX..\n.Q.\n...\n");
    assert_eq!(r.code, 1);
    assert_eq!(r.stdout.lines().next(), Some("X../.../...: draw"));
    assert_eq!(
        r.stderr,
        "error: <stdin>:4:2: expected '.', 'X' or 'O', found 'Q'\n"
    );
    let r = run(&["solve", "mnk", "--board", "OO./X../..."], "");
    assert_eq!(r.code, 1);
    assert_eq!(
        r.stderr,
        "error: --board:1:1: expected a position of the game, found more O than X (X moves first)\n"
    );
    let r = run(&["solve", "mnk", "--board", "X../..."], "");
    assert_eq!(
        r.stderr,
        "error: --board:1:8: expected another row, found end of input\n"
    );
    // Setups: exit 2.
    let r = run(&["solve", "mnk", "--k", "0", "--start"], "");
    assert_eq!(
        (r.code, r.stderr.as_str()),
        (2, "error: k = 0: mnk takes k from 1 to 40\n")
    );
    let r = run(&["solve", "chess", "--start"], "");
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .contains("'chess' is not a game solve knows: euler, mnk"),
        "{}",
        r.stderr
    );
    let r = run(&["solve", "mnk", "--size", "7x7", "--start"], "");
    assert_eq!(r.code, 2);
    assert_eq!(
        r.stderr,
        "error: mnk is not played on a 7x7 board: more cells than its positions can be indexed by\n"
    );
    // A column too tall for a 64-bit index of Connect Four's positions.
    let r = run(&["solve", "connect4", "--size", "63x1", "--start"], "");
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert_eq!(
        r.stderr,
        "error: connect4 is not played on a 63x1 board: more cells than its positions can be indexed by\n"
    );
    // Too large for the memory of tables made in memory: said, never tried.
    let r = run(&["solve", "mnk", "--size", "5x5", "--start"], "");
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stderr
            .starts_with("error: solving mnk on 5x5 in memory needs "),
        "{}",
        r.stderr
    );
}

/// boardbase's text of a Quixo position of the oracle: the rows and the
/// player to move, joined by `/`.
fn quixo_text(cols: usize, position: &[u8]) -> String {
    let (board, mover) = position.split_at(position.len() - 1);
    let mut lines: Vec<String> = board
        .chunks(cols)
        .map(|r| String::from_utf8_lossy(r).into())
        .collect();
    lines.push((mover[0] as char).to_string());
    lines.join("/")
}

#[test]
fn every_quixo_3x3_position_against_value_iteration() {
    let (rows, cols, k) = (3, 3, 3);
    let oracle = Quixo {
        board: Game { rows, cols, k },
    };
    let all = oracle.solve_all();
    let positions: Vec<&Vec<u8>> = all.keys().collect();
    let input: String = positions
        .iter()
        .map(|p| quixo_text(cols, p) + "\n")
        .collect();
    let out = ok(
        &["solve", "quixo", "--size", "3x3", "--format", "json"],
        input,
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), positions.len());
    for (position, line) in positions.iter().zip(lines) {
        let object: Value = serde_json::from_str(line).unwrap();
        assert_eq!(object["position"], quixo_text(cols, position));
        let (value, remoteness) = valued(all[*position]);
        assert_eq!(
            (object["value"].as_str(), object["remoteness"].as_u64()),
            (Some(value), remoteness),
            "{line}"
        );
        let mut got = moves_of(&object);
        let mut want: Vec<(String, String, Option<u64>)> = oracle
            .moves(position)
            .into_iter()
            .map(|(s, d, after)| {
                let (v, r) = valued(all[&after]);
                (
                    format!("{}-{}", cell(cols, s), cell(cols, d)),
                    v.to_owned(),
                    r,
                )
            })
            .collect();
        got.sort();
        want.sort();
        assert_eq!(got, want, "{line}");
    }
}

#[test]
fn quixo_positions_in_both_texts_and_their_errors() {
    // X to move makes X X X along the top row, three ways.
    let text = ok(
        &[
            "solve",
            "quixo",
            "--size",
            "3x3",
            "--board",
            "XX./OO./.../X",
        ],
        "",
    );
    assert!(
        text.starts_with(
            "XX./OO./.../X: win in 1\n  c1-a1  wins in 1\n  c2-c1  wins in 1\n  c3-c1  wins in 1\n"
        ),
        "{text}"
    );
    // GamesmanOne's string of the 3x3 start, as its query answers it.
    let start: Value = serde_json::from_str(&ok(
        &[
            "solve",
            "quixo",
            "--size",
            "3x3",
            "--board",
            "1_---------",
            "--format",
            "json",
        ],
        "",
    ))
    .unwrap();
    assert_valid("solve", &start, "solve quixo --board 1_---------");
    assert_eq!(
        (
            start["position"].as_str(),
            start["value"].as_str(),
            start["remoteness"].as_u64()
        ),
        (Some(".../.../.../X"), Some("win"), Some(7))
    );
    assert_eq!(start["moves"].as_array().unwrap().len(), 20);
    // O to move, and X has a line: O has lost.
    let text = ok(
        &["solve", "quixo", "--size", "3x3", "--board", "2_XXXOO----"],
        "",
    );
    assert_eq!(text, "XXX/OO./.../O: lose in 0\n");
    // From a file: a line with `/`, or the rows and the line of the turn,
    // blank lines between; an error has its line and column in the input.
    let r = run(
        &["solve", "quixo", "--size", "3x3"],
        ".../.../.../X\n\nXX.\nOO.\n...\nX\nXX.\nOO.\n...\n\n",
    );
    assert_eq!(r.code, 1);
    let answers: Vec<&str> = r.stdout.lines().filter(|l| !l.starts_with(' ')).collect();
    assert_eq!(
        answers,
        [".../.../.../X: win in 7", "XX./OO./.../X: win in 1"]
    );
    assert_eq!(
        r.stderr,
        "error: <stdin>:9:1: expected the player to move ('X' or 'O') on a line after the board, found '.'\n"
    );
    let r = run(
        &["solve", "quixo", "--size", "3x3", "--board", "1_--X-Y----"],
        "",
    );
    assert_eq!(
        (r.code, r.stderr.as_str()),
        (
            1,
            "error: --board:1:7: expected '-', 'X' or 'O', found 'Y'\n"
        )
    );
    let r = run(
        &[
            "solve",
            "quixo",
            "--size",
            "3x3",
            "--board",
            ".../.X./.../O",
        ],
        "",
    );
    assert_eq!(
        r.stderr,
        "error: --board:1:1: expected a position of the game, found no cube of the player who moved last on the border (a push leaves one there)\n"
    );
    let r = run(
        &["solve", "quixo", "--size", "3x3", "--k", "4", "--start"],
        "",
    );
    assert_eq!(
        (r.code, r.stderr.as_str()),
        (
            2,
            "error: quixo is not played on a 3x3 board: k is longer than both sides\n"
        )
    );
    // The standard 5x5: refused for its memory, never tried.
    let r = run(&["solve", "quixo", "--start"], "");
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stderr
            .starts_with("error: solving quixo on 5x5 in memory needs "),
        "{}",
        r.stderr
    );
}

#[test]
fn a_quixo_table_written_with_k_0_answers_under_the_side_s_name() {
    // Tables written before k = 0 was settled stored k = 0: renamed to the
    // side's name, they answer as that k.
    let model = boardbase::catalogue::model("quixo").unwrap();
    let shape = Shape::new(3, 3).unwrap();
    let setup = boardbase::catalogue::Setup {
        shape,
        options: vec![0],
    };
    let solved = model.make(&setup).unwrap().solve().unwrap();
    let table = boardbase::tablefile::GameTable::from_solved(model, &setup, solved).unwrap();
    assert_eq!(table.options(), vec![("k".to_owned(), 0)]);
    let dir = crate::common::TempDir::new("quixo-k0");
    table
        .write(dir.0.join("quixo-3x3-k3.bin"), &mut |_| {})
        .unwrap();
    let out = ok(
        &[
            "solve",
            "quixo",
            "--size",
            "3x3",
            "--start",
            "--tables",
            dir.path(),
            "--make-memory",
            "0",
        ],
        "",
    );
    assert!(out.starts_with(".../.../.../X: win in 7\n"), "{out}");
}
