//! `GET /api/v1/solve` over a real socket: every reachable tic-tac-toe
//! position against the oracle's game search (tests/oracle/mnk.rs), the
//! same objects as `boardbase solve --format json`, a game solved on a
//! worker the first time, and every error.
#![cfg(feature = "serve")]

use serde_json::Value;

use crate::common::ok;
use crate::http::{Server, encode};
use crate::oracle::mnk::{Game, Solved};
use crate::schemas::assert_valid;

fn text(board: &[u8], cols: usize) -> String {
    board
        .chunks(cols)
        .map(|r| String::from_utf8_lossy(r).into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

#[test]
fn every_tic_tac_toe_position_against_game_search_and_the_cli() {
    let server = Server::start(&[]);
    let all = Game {
        rows: 3,
        cols: 3,
        k: 3,
    }
    .solve_all();
    let mut conn = server.connect();
    let mut boards: Vec<&Vec<u8>> = all.keys().collect();
    boards.sort();
    for board in &boards {
        let r = conn.get(&format!(
            "/api/v1/solve?game=mnk&board={}",
            encode(&text(board, 3))
        ));
        assert_eq!(r.status, 200, "{}", r.text());
        let v = r.json();
        let (value, remoteness) = match all[*board] {
            Solved::Win(r) => ("win", Some(u64::from(r))),
            Solved::Lose(r) => ("lose", Some(u64::from(r))),
            Solved::Draw => ("draw", None),
        };
        assert_eq!(
            (v["value"].as_str(), v["remoteness"].as_u64()),
            (Some(value), remoteness)
        );
    }
    // The objects are the CLI's, byte for byte.
    let sample: Vec<String> = boards.iter().step_by(97).map(|b| text(b, 3)).collect();
    let cli = ok(
        &["solve", "mnk", "--format", "json"],
        sample.join("\n") + "\n",
    );
    for (position, line) in sample.iter().zip(cli.lines()) {
        let r = server.get(&format!(
            "/api/v1/solve?game=mnk&board={}",
            encode(position)
        ));
        assert_eq!(r.text(), line);
        assert_valid("solve", &r.json(), "/api/v1/solve");
    }
}

#[test]
fn a_game_solved_on_a_worker_then_at_once_and_the_start() {
    let server = Server::start(&[]);
    let q = "/api/v1/solve?game=connect4&size=4x4&board=..../X.../XO../XOO.";
    for _ in 0..2 {
        let v = server.get(q).json();
        assert_eq!(
            (v["value"].as_str(), v["moves"][0]["move"].as_str()),
            (Some("win"), Some("a"))
        );
    }
    let v = server.get("/api/v1/solve?game=mnk&k=3").json();
    assert_eq!(
        (v["position"].as_str(), v["value"].as_str()),
        (Some(".../.../..."), Some("draw"))
    );
    let v = server
        .get("/api/v1/solve?game=euler&board=XXXX/XXXX/XXXX/XXX.")
        .json();
    assert_eq!(
        (v["value"].as_str(), v["remoteness"].as_u64()),
        (Some("lose"), Some(1))
    );
}

#[test]
fn every_error_says_what_and_where() {
    let server = Server::start(&[]);
    let error = |query: &str, status: u16| -> Value {
        let r = server.get(&format!("/api/v1/solve?{query}"));
        assert_eq!(r.status, status, "{query}: {}", r.text());
        let v = r.json();
        assert_valid("error", &v, query);
        v
    };
    let v = error("game=mnk&board=X../.Q./...", 400);
    assert_eq!(
        (v["line"].as_u64(), v["column"].as_u64()),
        (Some(1), Some(6))
    );
    assert_eq!(error("game=chess", 400)["parameter"], "game");
    assert_eq!(error("board=X..", 400)["parameter"], "game");
    assert_eq!(error("game=mnk&q=1", 400)["parameter"], "q");
    assert_eq!(error("game=mnk&k=x", 400)["parameter"], "k");
    assert_eq!(error("game=mnk&k=3&k=4", 400)["parameter"], "k");
    assert_eq!(
        error("game=mnk&k=0", 400)["error"],
        "k = 0: mnk takes k from 1 to 40"
    );
    let v = error("game=connect4", 422);
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .starts_with("solving connect4 on 6x7 in memory needs")
    );
}

#[test]
fn positions_true_gives_each_moves_position_after_it() {
    let server = Server::start(&[]);
    let all = Game {
        rows: 3,
        cols: 3,
        k: 3,
    }
    .solve_all();
    let mut boards: Vec<&Vec<u8>> = all.keys().collect();
    boards.sort();
    let mut conn = server.connect();
    for board in boards.iter().step_by(53) {
        let position = text(board, 3);
        let q = format!("/api/v1/solve?game=mnk&board={}", encode(&position));
        let plain = conn.get(&q).json();
        let v = conn.get(&format!("{q}&positions=true")).json();
        assert_valid("solve", &v, &q);
        // The same object, each move with its position added.
        let mover = Game::to_move(board);
        let moves = v["moves"].as_array().unwrap();
        assert_eq!(moves.len(), plain["moves"].as_array().unwrap().len());
        for (m, p) in moves.iter().zip(plain["moves"].as_array().unwrap()) {
            let mut without = m.clone();
            let after = without.as_object_mut().unwrap().remove("position");
            assert_eq!(&without, p, "{position}");
            // The move's text names its cell: a column letter, a row from 1.
            let name = m["move"].as_str().unwrap().as_bytes();
            let cell = usize::from(name[1] - b'1') * 3 + usize::from(name[0] - b'a');
            let mut next = (*board).clone();
            next[cell] = mover;
            assert_eq!(after.unwrap().as_str(), Some(text(&next, 3).as_str()));
        }
    }
    // On a worker too (a game solved the first time), and `false` as none.
    let q = "/api/v1/solve?game=connect4&size=4x4&k=3&board=..../..../..../.XO.";
    let v = server.get(&format!("{q}&positions=true")).json();
    assert_valid("solve", &v, q);
    let a = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["move"] == "a")
        .unwrap();
    assert_eq!(a["position"], "..../..../..../XXO.");
    let v = server.get(&format!("{q}&positions=false")).json();
    assert!(v["moves"][0].get("position").is_none());
    for (query, status) in [
        ("positions=maybe", 400),
        ("positions=true&positions=true", 400),
    ] {
        let r = server.get(&format!("/api/v1/solve?game=mnk&{query}"));
        assert_eq!(r.status, status, "{query}: {}", r.text());
        assert_eq!(r.json()["parameter"], "positions", "{query}");
    }
}

#[test]
fn quixo_in_both_texts_and_its_errors() {
    let server = Server::start(&[]);
    // GamesmanOne's string of the 3x3 start: won in 7, as its query says.
    let v = server
        .get("/api/v1/solve?game=quixo&size=3x3&board=1_---------")
        .json();
    assert_valid("solve", &v, "quixo");
    assert_eq!(
        (
            v["position"].as_str(),
            v["value"].as_str(),
            v["remoteness"].as_u64(),
            v["moves"][0]["move"].as_str()
        ),
        (Some(".../.../.../X"), Some("win"), Some(7), Some("a1-c1"))
    );
    let v = server
        .get("/api/v1/solve?game=quixo&size=3x3&board=XX./OO./.../X")
        .json();
    assert_eq!(
        (v["value"].as_str(), v["moves"][0]["move"].as_str()),
        (Some("win"), Some("c1-a1"))
    );
    let r = server.get("/api/v1/solve?game=quixo&size=3x3&board=XX./OO./.../Z");
    assert_eq!(r.status, 400);
    let v = r.json();
    assert_eq!(
        (v["line"].as_u64(), v["column"].as_u64()),
        (Some(1), Some(13))
    );
}
