//! The HTTP API's JSON against the schemas in docs/schema/: the lookups
//! (flip-lookup, euler-lookup), Carcassonne's answers, sizes, health and
//! every kind of error; and the API's objects field by field against the
//! CLI's (the CLI's object plus `moves`).
#![cfg(feature = "serve")]

use serde_json::{Value, json};

use crate::common::{TempDir, run};
use crate::http::{Response, Server, encode};
use crate::schemas::{assert_invalid, assert_valid};

/// A 200 answer's JSON.
fn answer(r: &Response, what: &str) -> Value {
    assert_eq!(r.status, 200, "{what}: {}", r.text());
    assert_eq!(r.header("content-type"), Some("application/json"));
    r.json()
}

/// An error's JSON, valid against error.schema.json.
fn error(r: &Response, status: u16, what: &str) -> Value {
    assert_eq!(r.status, status, "{what}: {}", r.text());
    let v = r.json();
    assert_valid("error", &v, what);
    v
}

/// The CLI's `--format json` line for `args` and `stdin`.
fn cli(args: &[&str], stdin: &str) -> Value {
    let r = run(args, stdin);
    assert_eq!(r.code, 0, "{}", r.stderr);
    serde_json::from_str(r.stdout.trim()).expect("one JSON line")
}

/// `lookup` without its `moves`: the CLI's object.
fn without_moves(lookup: &Value) -> Value {
    let mut v = lookup.clone();
    let moves = v.as_object_mut().unwrap().remove("moves");
    assert!(moves.is_some_and(|m| m.is_array()), "{lookup}");
    v
}

#[test]
fn lookups_match_their_schemas_and_the_cli() {
    let dir = TempDir::new("serve-schema");
    for args in [&["flip", "3x5"][..], &["euler", "3x4", "--wdl-only"]] {
        let mut all = vec!["generate"];
        all.extend(args);
        all.extend(["--dir", dir.path()]);
        let r = run(&all, "");
        assert_eq!(r.code, 0, "{}", r.stderr);
    }
    let server = Server::start(&["--tables", dir.path()]);
    let mut conn = server.connect();

    // Flip: 4x4 (solvable and impossible), a table of another size, GF(2),
    // and over 64 cells (presses without their boards).
    let tenby = "bwbwbwbwbw/".repeat(9) + "bwbwbwbwbw";
    for (board, size) in [
        ("bwwb/bbwb/bwwb/bwww", "4x4"),
        ("bwbw/wwww/bbwb/bwwb", "4x4"),
        ("bbbbw/wwbwb/bbbbw", "3x5"),
        ("bbbbw/wwbwb/bbbbb", "3x5"),
        ("bwbww/wwbwb/bbbbw/wbwbw", "4x5"),
        (tenby.as_str(), "10x10"),
    ] {
        let v = answer(
            &conn.get(&format!("/api/v1/flip?board={}", encode(board))),
            board,
        );
        assert_valid("flip-lookup", &v, board);
        let mut args = vec!["flip", "--format", "json", "--board", board];
        if size != "4x4" {
            args.extend(["--size", size]);
        }
        if size == "3x5" {
            args.extend(["--tables", dir.path()]);
        }
        let line = cli(&args, "");
        assert_valid("flip", &line, board);
        assert_eq!(
            without_moves(&v),
            line,
            "{board}: the API's object is the CLI's"
        );
        let moves = v["moves"].as_array().unwrap();
        assert_eq!(moves.len(), board.chars().filter(|&c| c != '/').count());
        assert_eq!(
            moves.iter().all(|m| m.get("board").is_some()),
            size != "10x10"
        );
    }

    // Euler: 4x4, made in memory (3x3), a win/loss-only table (3x4).
    for (board, size) in [
        ("XXX./XXX./.XXX/.XXX", "4x4"),
        ("XXXX/...X/XX.X/XX.X", "4x4"),
        ("XXXX/XXXX/XXXX/XXXX", "4x4"),
        ("XXX/..X/XXX", "3x3"),
        ("XXXX/..X./XXXX", "3x4"),
    ] {
        let v = answer(
            &conn.get(&format!("/api/v1/euler?board={}", encode(board))),
            board,
        );
        assert_valid("euler-lookup", &v, board);
        let mut args = vec!["euler", "--format", "json", "--tables", dir.path()];
        if size != "4x4" {
            args.extend(["--size", size]);
        }
        let r = run(&args, format!("1\n{}\n", board.replace('/', "\n")));
        assert_eq!(r.code, 0, "{}", r.stderr);
        let line: Value = serde_json::from_str(r.stdout.trim()).unwrap();
        assert_valid("euler", &line, board);
        assert_eq!(
            without_moves(&v),
            line,
            "{board}: the API's object is the CLI's"
        );
    }
}

#[test]
fn carcassonne_sizes_and_health_match_their_schemas() {
    let server = Server::start(&[]);
    let mut conn = server.connect();
    let one = answer(
        &conn.post(
            "/api/v1/carcassonne",
            "application/json",
            br#"{"rows": 1, "cols": 2, "tiles": ["RRRF", "FCCC"]}"#,
        ),
        "JSON body",
    );
    assert_valid("carcassonne", &one, "JSON body");
    assert_eq!(
        one,
        cli(
            &["carcassonne", "--format", "json", "--exact", "--witness"],
            "1\n1 2\nRRRF FCCC\n"
        ),
        "the API's object is the CLI's with --exact --witness"
    );
    let none = answer(
        &conn.post(
            "/api/v1/carcassonne",
            "application/json",
            br#"{"rows": 1, "cols": 2, "tiles": ["CCCC", "RRRR"]}"#,
        ),
        "no placement",
    );
    assert_valid("carcassonne", &none, "no placement");
    assert_eq!(none["witness"], Value::Null);

    let text = "3\n1 1\nRRRR\n1 2\nRRRF FCCC\n1 2\nCCCC RRRR\n";
    let cases = answer(
        &conn.post("/api/v1/carcassonne", "text/plain", text.as_bytes()),
        "judge text",
    );
    assert_valid("carcassonne-cases", &cases, "judge text");
    let r = run(
        &["carcassonne", "--format", "json", "--exact", "--witness"],
        text,
    );
    let lines: Vec<Value> = r
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(cases["cases"], json!(lines));

    let sizes = answer(&conn.get("/api/v1/sizes"), "sizes");
    assert_valid("sizes", &sizes, "sizes");
    let health = answer(&conn.get("/api/v1/health"), "health");
    assert_valid("health", &health, "health");
    // The schemas can fail.
    assert_invalid("health", &json!({"status": "ok", "up": true}), "extra");
    let mut renamed = sizes.clone();
    let limit = renamed["carcassonne"]
        .as_object_mut()
        .unwrap()
        .remove("body_limit_bytes")
        .unwrap();
    renamed["carcassonne"]["limit"] = limit;
    assert_invalid("sizes", &renamed, "body_limit_bytes as limit");
    assert_invalid(
        "flip-lookup",
        &without_moves(&answer(
            &conn.get("/api/v1/flip?board=bwwb/bbwb/bwwb/bwww"),
            "flip",
        )),
        "a lookup without its moves",
    );
}

#[test]
fn every_kind_of_error_matches_the_schema() {
    let server = Server::start(&["--make-memory", "0"]);
    // 400: a bad cell (line, column, expected, found), a missing, unknown
    // or repeated parameter, a bad size, rows that disagree.
    let v = error(
        &server.get("/api/v1/flip?board=bwwb/bbwb/bwxb/bwww"),
        400,
        "bad cell",
    );
    assert!(v["line"].is_u64() && v["column"].is_u64(), "{v}");
    error(&server.get("/api/v1/flip"), 400, "no board");
    error(
        &server.get("/api/v1/euler?board=..&colour=b"),
        400,
        "unknown parameter",
    );
    error(
        &server.get("/api/v1/flip?board=bw&board=bw"),
        400,
        "repeated",
    );
    error(
        &server.get("/api/v1/flip?board=bw&size=0x3"),
        400,
        "bad size",
    );
    error(&server.get("/api/v1/flip?board=bw/b"), 400, "ragged");
    // 404, 405.
    error(&server.get("/api/v1/nothing"), 404, "no route");
    error(
        &server.post("/api/v1/flip", "text/plain", b"x"),
        405,
        "method",
    );
    // 422: too many cells, no table and none made.
    let v = error(
        &server.get("/api/v1/euler?board=......./......./......./......./......./......./......."),
        422,
        "7x7",
    );
    assert!(v["max_cells"].is_u64() || v["size"].is_string(), "{v}");
    let v = error(
        &server.get("/api/v1/euler?board=...../...../...../...../....."),
        422,
        "5x5",
    );
    assert_eq!(
        (&v["size"], v["command"].is_string()),
        (&json!("5x5"), true)
    );
    // Carcassonne: JSON syntax (line, column), a bad tile (tile, row,
    // col), too large a board, too many cases, too large a body, a type
    // that is neither JSON nor text.
    let post = |kind: &str, body: &[u8]| server.post("/api/v1/carcassonne", kind, body);
    let v = error(
        &post("application/json", b"{\"rows\": 1,"),
        400,
        "JSON syntax",
    );
    assert!(v["line"].is_u64(), "{v}");
    let v = error(
        &post(
            "application/json",
            br#"{"rows": 1, "cols": 2, "tiles": ["RRRF", "CCXC"]}"#,
        ),
        400,
        "bad tile",
    );
    assert_eq!(
        (&v["tile"], &v["row"], &v["col"]),
        (&json!(1), &json!(0), &json!(1))
    );
    error(
        &post(
            "application/json",
            br#"{"rows": 17, "cols": 17, "tiles": []}"#,
        ),
        422,
        "too large",
    );
    let v = error(&post("text/plain", b"1001\n"), 422, "cases");
    assert_eq!(v["max_cases"], 1000);
    let v = error(&post("text/plain", b"1\n1 1\nRRRX\n"), 400, "judge text");
    assert_eq!(v["case"], 1);
    let v = error(&post("text/plain", &vec![b' '; (1 << 20) + 1]), 413, "body");
    assert_eq!(v["body_limit_bytes"], 1 << 20);
    error(&post("text/html", b"1"), 415, "content type");
    // The old name of the limits is no longer valid.
    assert_invalid(
        "error",
        &json!({"error": "too large", "limit": 1048576}),
        "limit",
    );
}
