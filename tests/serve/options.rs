//! `boardbase serve --table FILE` (single files, any name) and
//! `serve --max-nullity K` (the limit of Flip by GF(2)), checked against
//! the oracles of `tests/oracle`.
#![cfg(feature = "serve")]

use crate::common;
use crate::http::Server;
use crate::oracle::tables::Flip;

use boardbase::tables::shape::Shape;

/// A board of `b`/`w` rows as the mask of the oracle (bit C·r + c, `b`).
fn bits(rows: &[&str]) -> u64 {
    let cols = rows[0].len();
    rows.iter().enumerate().fold(0, |acc, (r, row)| {
        row.bytes()
            .enumerate()
            .fold(acc, |a, (c, b)| a | u64::from(b == b'b') << (r * cols + c))
    })
}

#[test]
fn serve_answers_from_a_table_file_given_by_name() {
    let dir = common::TempDir::new("serve-table-file");
    let r = common::run(&["generate", "flip", "3x3", "--dir", dir.path()], "");
    assert_eq!(r.code, 0, "{}", r.stderr);
    // Any name: the puzzle and shape are read from the file.
    let file = dir.join("mine.bin");
    std::fs::rename(dir.join("flip-3x3.bin"), &file).expect("renamed");
    let file = file.to_str().expect("UTF-8").to_owned();
    let mut server = Server::start(&["--table", &file]);
    assert!(server.stdout_line().starts_with("tables:"));
    let listed = server.stdout_line().trim_end().to_owned();
    assert_eq!(listed, format!("  {file}: flip 3x3"));
    let oracle = Flip::solve(Shape::new(3, 3).expect("3x3"));
    for board in [
        ["bwb", "www", "bwb"],
        ["bbb", "bbb", "bbb"],
        ["bww", "www", "www"],
    ] {
        let b = bits(&board) as usize;
        let best = oracle.rounds[0][b].min(oracle.rounds[1][b]);
        let v = server
            .get(&format!("/api/v1/flip?board={}", board.join("/")))
            .json();
        if best == 255 {
            assert_eq!(v["answer"], "Impossible", "{board:?}");
        } else {
            assert_eq!(v["rounds"], best, "{board:?}: {v}");
        }
    }
    let sizes = server.get("/api/v1/sizes").json();
    let flip = sizes["flip"].as_array().expect("a list");
    assert!(
        flip.iter()
            .any(|s| s["size"] == "3x3" && s["source"] == "file" && s["file"] == file.as_str()),
        "{sizes}"
    );
    // A file that is not there stops the start, exit status 1.
    let r = common::run(
        &[
            "serve",
            "--bind",
            "127.0.0.1:0",
            "--table",
            "/nonexistent.bin",
        ],
        "",
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("/nonexistent.bin"), "{}", r.stderr);
}

#[test]
fn serve_max_nullity_sets_the_limit_of_flip_by_gf2() {
    // 64x64 has nullity 28: past the default limit, a 422 naming it.
    let white = vec!["w".repeat(64); 64].join("/");
    let server = Server::start(&[]);
    let r = server.get(&format!("/api/v1/flip?board={white}"));
    assert_eq!(r.status, 422, "{}", r.text());
    let v = r.json();
    assert_eq!(
        (v["nullity"].clone(), v["max_nullity"].clone()),
        (28.into(), 24.into())
    );
    assert_eq!(
        server.get("/api/v1/sizes").json()["flip_gf2"]["max_nullity"],
        24
    );
    drop(server);
    // The limit both ways on 9x9 (nullity 8): refused at 7, answered at 8
    // (all white: 0 rounds, no press).
    let white9 = vec!["w".repeat(9); 9].join("/");
    let server = Server::start(&["--max-nullity", "7"]);
    let r = server.get(&format!("/api/v1/flip?board={white9}"));
    assert_eq!(r.status, 422, "{}", r.text());
    let v = r.json();
    assert_eq!(
        (v["nullity"].clone(), v["max_nullity"].clone()),
        (8.into(), 7.into())
    );
    drop(server);
    let server = Server::start(&["--max-nullity", "8"]);
    let r = server.get(&format!("/api/v1/flip?board={white9}"));
    assert_eq!(r.status, 200, "{}", r.text());
    let v = r.json();
    assert_eq!(v["rounds"], 0, "{v}");
    assert_eq!(v["presses"], serde_json::json!([]), "{v}");
    drop(server);
    // At 28, 64x64 is no longer among the shapes past the limit.
    let server = Server::start(&["--max-nullity", "28"]);
    let sizes = server.get("/api/v1/sizes").json();
    assert_eq!(sizes["flip_gf2"]["max_nullity"], 28);
    let beyond = sizes["flip_gf2"]["beyond"].as_array().expect("a list");
    assert!(!beyond.iter().any(|s| s == "64x64"), "{sizes}");
    assert!(beyond.iter().any(|s| s == "39x39"), "{sizes}");
}
