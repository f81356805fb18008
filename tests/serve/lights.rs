//! `GET /api/v1/lights` and `/api/v1/lights/info` (the Lights Out family) over a real
//! socket: the CLI's objects plus every press valued, against the brute
//! force of `tests/oracle/family.rs`; the schemas; every error.
#![cfg(feature = "serve")]

use serde_json::Value;

use crate::common::run;
use crate::family_answers::{VARIANTS, Variant, boards, check_answer, lines, oracle_answer, rows};
use crate::http::{Response, Server, encode};
use crate::oracle::family::BruteForce;
use crate::schemas::assert_valid;

/// A 200 answer's JSON, valid against `schema`.
fn answer(r: &Response, schema: &str, what: &str) -> Value {
    assert_eq!(r.status, 200, "{what}: {}", r.text());
    assert_eq!(r.header("content-type"), Some("application/json"));
    let v = r.json();
    assert_valid(schema, &v, what);
    v
}

/// An error's JSON, valid against error.schema.json.
fn error(r: &Response, status: u16, what: &str) -> Value {
    assert_eq!(r.status, status, "{what}: {}", r.text());
    assert_eq!(r.header("content-type"), Some("application/json"));
    let v = r.json();
    assert_valid("error", &v, what);
    v
}

/// The CLI's JSON lines for `lights solve` of the variant, `boards` and
/// `goal`.
fn cli_answers(v: &Variant, boards: &[Vec<u8>], goal: &str) -> Vec<Value> {
    let mut args: Vec<String> = vec!["lights".into(), "solve".into()];
    args.extend(v.args());
    args.extend(["--format", "json", "--goal", goal].map(String::from));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let input: String = boards.iter().map(|b| lines(b, v.cols)).collect();
    let r = run(&args, input);
    assert_eq!(r.code, 0, "{}", r.stderr);
    r.stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect()
}

#[test]
fn lookups_are_the_cli_object_and_every_press_valued_by_the_brute_force() {
    let server = Server::start(&[]);
    let mut conn = server.connect();
    for (i, v) in VARIANTS.iter().enumerate() {
        let brute = BruteForce::new(&v.rules());
        let rules = v.rules();
        let boards = boards(v, 8, 40 + i as u64);
        for goal in ["0", "any"] {
            let cli = cli_answers(v, &boards, goal);
            for (board, cli) in boards.iter().zip(&cli) {
                let path = format!(
                    "/api/v1/lights?board={}&{}&goal={goal}",
                    encode(&rows(board, v.cols)),
                    v.query()
                );
                let what = format!("{path} ({v:?})");
                let mut lookup = answer(&conn.get(&path), "lights-lookup", &what);
                let moves = lookup
                    .as_object_mut()
                    .and_then(|o| o.remove("moves"))
                    .expect("moves");
                // The API's object is the CLI's, case 1.
                let mut cli = cli.clone();
                cli["case"] = 1.into();
                assert_eq!(lookup, cli, "{what}");
                check_answer(&lookup, v, &brute, 1, board, goal);
                // Every cell once, valued as the brute force values the
                // board after that one press; best first, then reading
                // order.
                let moves = moves.as_array().expect("a list");
                assert_eq!(moves.len(), v.rows * v.cols, "{what}");
                let solvable = lookup["solvable"] == true;
                let mut keys = Vec::new();
                for m in moves {
                    let (r, c) = (
                        m["cell"][0].as_u64().unwrap(),
                        m["cell"][1].as_u64().unwrap(),
                    );
                    let index = r as usize * v.cols + c as usize;
                    let mut after = board.clone();
                    rules.press(&mut after, index);
                    let expected = oracle_answer(&brute, &after, goal).map(|s| s.rounds);
                    assert_eq!(
                        m["rounds"].as_u64().map(|n| n as usize),
                        expected,
                        "{what}: {m}"
                    );
                    assert_eq!(
                        expected.is_some(),
                        solvable,
                        "{what}: a press keeps solvability"
                    );
                    keys.push((expected.unwrap_or(0), index));
                }
                let mut sorted = keys.clone();
                sorted.sort();
                assert_eq!(keys, sorted, "{what}: best first, then reading order");
            }
        }
    }
}

#[test]
fn info_is_the_cli_object() {
    let server = Server::start(&[]);
    let mut conn = server.connect();
    for (query, args) in [
        ("size=5x5", &["5x5"][..]),
        ("size=4x4&colours=4", &["4x4", "--colours", "4"]),
        (
            "size=3x4&colours=3&wrap=true&pattern=king",
            &["3x4", "--colours", "3", "--wrap", "--pattern", "king"],
        ),
        (
            "size=3x3&pattern=.%23./%23.%23/.%23.",
            &["3x3", "--pattern", ".#./#.#/.#."],
        ),
        ("size=19x19", &["19x19"]),
    ] {
        let what = format!("/api/v1/lights/info?{query}");
        let api = answer(&conn.get(&what), "lights-info", &what);
        let mut all = vec!["lights", "info"];
        all.extend(args);
        all.extend(["--format", "json"]);
        let r = run(&all, "");
        assert_eq!(r.code, 0, "{}", r.stderr);
        let cli: Value = serde_json::from_str(r.stdout.trim()).expect("JSON");
        assert_eq!(api, cli, "{what}");
    }
    // God's number of the classic 5×5, as the API says it.
    let v = answer(
        &conn.get("/api/v1/lights/info?size=5x5"),
        "lights-info",
        "5x5",
    );
    assert_eq!((&v["nullity"], &v["max_presses"]), (&2.into(), &15.into()));
}

#[test]
fn bad_parameters_are_400_and_past_the_search_limit_422() {
    let server = Server::start(&["--max-nullity", "5"]);
    let mut conn = server.connect();
    // A digit of K or more: where, what was expected, what was found.
    let v = error(
        &conn.get("/api/v1/lights?board=120/003/000&colours=3"),
        400,
        "digit",
    );
    assert_eq!(
        v["error"],
        "board: 1:7: expected a colour 0 to 2, found '3'"
    );
    assert_eq!((&v["line"], &v["column"]), (&1.into(), &7.into()));
    assert_eq!(
        (&v["expected"], &v["found"]),
        (&"a colour 0 to 2".into(), &"'3'".into())
    );
    for (query, parameter, says) in [
        ("colours=3", "board", "missing parameter board"),
        (
            "board=10/01&colours=1",
            "colours",
            "colours: expected 2 to 16, found \"1\"",
        ),
        (
            "board=10/01&colours=17",
            "colours",
            "colours: expected 2 to 16",
        ),
        (
            "board=10/01&colours=x",
            "colours",
            "colours: expected 2 to 16",
        ),
        (
            "board=10/01&wrap=yes",
            "wrap",
            "wrap: expected true or false",
        ),
        (
            "board=10/01&pattern=%23%23/%23%23",
            "pattern",
            "2 columns: a stencil has an odd width",
        ),
        (
            "board=10/01&pattern=%23x%23",
            "pattern",
            "expected '#', '.' or '/', found 'x'",
        ),
        ("board=10/01&pattern=plux", "pattern", "unknown pattern"),
        (
            "board=10/01&goal=2",
            "goal",
            "goal: colour 2, but there are 2 colours (0 to 1)",
        ),
        ("board=10/01&goal=every", "goal", "unknown goal"),
        ("board=10/01&size=2x2", "size", "unknown parameter \"size\""),
        (
            "board=10/01&board=10/01",
            "board",
            "board is given more than once",
        ),
        (
            "board=10/01&colours=2&colours=3",
            "colours",
            "colours is given more than once",
        ),
    ] {
        let what = format!("/api/v1/lights?{query}");
        let v = error(&conn.get(&what), 400, &what);
        assert_eq!(v["parameter"], parameter, "{what}: {v}");
        assert!(v["error"].as_str().unwrap().contains(says), "{what}: {v}");
    }
    for (query, parameter, says) in [
        ("", "size", "missing parameter size"),
        ("size=0x4", "size", "size: expected RxC"),
        ("size=4x4&goal=1", "goal", "unknown parameter \"goal\""),
        ("size=4x4&board=1", "board", "unknown parameter \"board\""),
    ] {
        let what = format!("/api/v1/lights/info?{query}");
        let v = error(&conn.get(&what), 400, &what);
        assert_eq!(v["parameter"], parameter, "{what}: {v}");
        assert!(v["error"].as_str().unwrap().contains(says), "{what}: {v}");
    }
    // 4×4 over Z_4 has 2^6 quiet patterns; this server searches 2^5.
    let v = error(
        &conn.get("/api/v1/lights?board=1100/1000/0000/0000&colours=4"),
        422,
        "past the limit",
    );
    assert_eq!(
        (&v["quiet_count"], &v["max_nullity"], &v["size"]),
        (&"64".into(), &5.into(), &"4x4".into())
    );
    assert!(
        v["error"].as_str().unwrap().contains("more than 2^5"),
        "{v}"
    );
    // Within it, the same server answers.
    let v = answer(
        &conn.get("/api/v1/lights?board=1100/1000/0000/0000&colours=3"),
        "lights-lookup",
        "3 colours",
    );
    assert_eq!(v["solvable"], true);
}
