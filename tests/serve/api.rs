//! `boardbase serve` over a real socket: the real binary on a free loopback
//! port, asked by a plain HTTP/1.1 client.
//!
//! Answers are checked against the library (itself checked against
//! independent oracles in `flip_oracle.rs`, `euler_oracle.rs` and
//! `carcassonne_bruteforce.rs`); what the server adds, the move lists and
//! the witness, is checked with the rules of `tests/oracle`: its press rule,
//! its Euler moves, its tile turning and edge matching.
#![cfg(feature = "serve")]

use crate::http;
use crate::lookups;
use crate::oracle;

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use http::{Conn, Response, Server};
use lookups::{check_euler, check_flip, rows_of};
use oracle::carcassonne::{Edges, SAMPLE, first_mismatch, turn_code};
use oracle::euler;
use serde_json::{Value, json};

/// Asks for `boards` on `threads` keep-alive connections at once.
fn ask_all(
    server: &Server,
    puzzle: &str,
    boards: Vec<u16>,
    threads: usize,
    check: impl Fn(u16, &Value) + Sync,
) {
    let chunk = boards.len().div_ceil(threads);
    std::thread::scope(|scope| {
        for part in boards.chunks(chunk) {
            let check = &check;
            scope.spawn(move || {
                let mut conn = server.connect();
                for &bits in part {
                    let (zero, one) = if puzzle == "flip" {
                        ('w', 'b')
                    } else {
                        ('.', 'X')
                    };
                    let r = conn.get(&format!(
                        "/api/v1/{puzzle}?board={}",
                        rows_of(bits, zero, one)
                    ));
                    assert_eq!(r.status, 200, "{}", r.text());
                    assert_eq!(r.header("content-type"), Some("application/json"));
                    check(bits, &r.json());
                }
            });
        }
    });
}

/// A sample of boards: every `step`-th, plus the corners of the space.
fn sample(step: usize) -> Vec<u16> {
    let mut boards: Vec<u16> = (0..=u16::MAX).step_by(step).collect();
    boards.extend([u16::MAX, 0x19B9, 0x0001, 0xFFFE]);
    boards
}

#[test]
fn flip_boards_over_the_socket() {
    let server = Server::start(&[]);
    ask_all(&server, "flip", sample(13), 4, check_flip);
}

#[test]
fn euler_positions_over_the_socket() {
    let server = Server::start(&[]);
    let moves = euler::moves_4x4();
    assert_eq!(moves.iter().collect::<BTreeSet<_>>().len(), 48);
    ask_all(&server, "euler", sample(13), 4, |bits, v| {
        check_euler(bits, &moves, v)
    });
}

#[test]
fn samples_answer_as_documented() {
    let server = Server::start(&[]);
    let flip = server.get("/api/v1/flip?board=bwwb/bbwb/bwwb/bwww").json();
    assert_eq!(flip["answer"], "4");
    assert_eq!(flip["rounds"], 4);
    assert_eq!(
        flip["moves"][0],
        json!({"cell": [0, 0], "board": "wbwb/wbwb/bwwb/bwww", "solvable": true, "rounds": 3})
    );
    let stuck = server.get("/api/v1/flip?board=bwbw/wwww/bbwb/bwwb").json();
    assert_eq!(stuck["answer"], "Impossible");
    assert!(
        stuck["moves"]
            .as_array()
            .unwrap()
            .iter()
            .all(|m| m["rounds"].is_null())
    );
    let e = server.get("/api/v1/euler?board=XXXX/...X/XX.X/XX.X").json();
    assert_eq!(e["answer"], "WINNING");
    assert_eq!(e["moves"][0]["cells"], json!([[1, 2]]));
    assert_eq!(e["moves"][0]["outcome"], "loss");
    assert_eq!(e["moves"][0]["moves_left"], 3);
    let full = server.get("/api/v1/euler?board=XXXX/XXXX/XXXX/XXXX").json();
    assert_eq!(full["answer"], "WINNING");
    assert_eq!(full["moves"], json!([]));
    assert_eq!(full["best_move"], Value::Null);
    let empty = server.get("/api/v1/euler?board=..../..../..../....").json();
    assert_eq!(empty["moves"].as_array().unwrap().len(), 48);
    assert_eq!(empty["moves_left"], 13);
}

#[test]
fn board_spellings_and_sizes() {
    let server = Server::start(&[]);
    let canonical = server.get("/api/v1/flip?board=bwwb/bbwb/bwwb/bwww");
    assert_eq!(canonical.status, 200);
    for query in [
        "board=bwwbbbwbbwwbbwww&size=4x4",
        "board=bwwb%0Abbwb%0Abwwb%0Abwww",
        "board=bwwb%0D%0Abbwb%0D%0Abwwb%0D%0Abwww%0D%0A",
        "board=+bwwb/bbwb/bwwb/bwww+&size=4x4",
        "size=4X4&board=bwwb/bbwb/bwwb/bwww",
    ] {
        let r = server.get(&format!("/api/v1/flip?{query}"));
        assert_eq!(r.status, 200, "{query}: {}", r.text());
        assert_eq!(r.body, canonical.body, "{query}");
    }
    let sizes = server.get("/api/v1/sizes").json();
    assert_eq!(
        sizes["flip"],
        json!([{"size": "4x4", "rows": 4, "cols": 4, "source": "embedded"}])
    );
    assert_eq!(sizes["euler"][0]["size"], "4x4");
    assert_eq!(sizes["carcassonne"]["max_narrow_side"], 16);
    assert_eq!(sizes["carcassonne"]["body_limit_bytes"], 1 << 20);
    let health = server.get("/api/v1/health");
    assert_eq!(
        (health.status, health.json()),
        (200, json!({"status": "ok"}))
    );
}

/// The catalogue: the array `boardbase games --format json` prints, byte
/// for byte.
#[test]
fn games_is_the_catalogue_the_cli_lists() {
    let server = Server::start(&[]);
    let r = server.get("/api/v1/games");
    assert_eq!(r.status, 200);
    assert_eq!(r.header("content-type"), Some("application/json"));
    let games = r.json();
    crate::schemas::assert_valid("games", &games, "GET /api/v1/games");
    let cli: Value =
        serde_json::from_str(&crate::common::ok(&["games", "--format", "json"], "")).expect("JSON");
    assert_eq!(games, cli);
    assert_eq!(games[2]["problems"][0]["judge"], "UVA 10536");
}

fn error(r: &Response, status: u16) -> Value {
    assert_eq!(r.status, status, "{}", r.text());
    assert_eq!(r.header("content-type"), Some("application/json"));
    let v = r.json();
    assert!(v["error"].as_str().is_some_and(|m| !m.is_empty()), "{v}");
    v
}

#[test]
fn bad_boards_and_queries_are_400() {
    let server = Server::start(&[]);
    let mut conn = server.connect();
    // A bad cell: where, what was expected, what was found.
    let v = error(&conn.get("/api/v1/flip?board=bwwb/bbwb/bwxb/bwww"), 400);
    assert_eq!(
        (v["line"].clone(), v["column"].clone()),
        (json!(1), json!(13))
    );
    assert_eq!(v["expected"], "'b' or 'w'");
    assert_eq!(v["found"], "'x'");
    let v = error(
        &conn.get("/api/v1/euler?board=XXXX%0AXX.X%0AXXbX%0AXXXX"),
        400,
    );
    assert_eq!(
        (v["line"].clone(), v["column"].clone()),
        (json!(3), json!(3))
    );
    // A short row, a row too many.
    let v = error(&conn.get("/api/v1/flip?board=bwwb/bbw/bwwb/bwww"), 400);
    assert!(
        v["error"].as_str().unwrap().contains("row 2 has 3 cells"),
        "{v}"
    );
    let v = error(
        &conn.get("/api/v1/flip?board=bwwb/bbwb/bwwb/bwww/bbbb&size=4x4"),
        400,
    );
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("5 rows of 4 cells, but size=4x4"),
        "{v}"
    );
    let v = error(&conn.get("/api/v1/flip?board=b&size=2x2"), 400);
    assert_eq!(
        v["error"], "board: 1 row of 1 cell, but size=2x2 was given",
        "{v}"
    );
    // A separator after the last row, as a line end after it, is allowed;
    // one between rows is an empty row.
    let r = conn.get("/api/v1/flip?board=bwwb/bbwb/bwwb/bwww/");
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["board"], "bwwb/bbwb/bwwb/bwww");
    let v = error(&conn.get("/api/v1/flip?board=bwwb/bbwb//bwwb/bwww"), 400);
    assert!(
        v["error"].as_str().unwrap().contains("row 3 has 0 cells"),
        "{v}"
    );
    for query in [
        "",
        "board=",
        "board=%20%2F%2F",
        "board=bwwb/bbwb/bwwb/bwww&board=bwwb/bbwb/bwwb/bwww",
        "board=bwwb/bbwb/bwwb/bwww&bord=x",
        "board=bwwb/bbwb/bwwb/bwww&size=4by4",
        "board=bwwb/bbwb/bwwb/bwww&size=0x4",
        "board=bwwb/bbwb/bwwb/bwww&size=5x5",
        "board=%FF%FE/bbwb/bwwb/bwww",
        "board=b%C3%A9wb/bbwb/bwwb/bwww",
    ] {
        for puzzle in ["flip", "euler"] {
            error(&conn.get(&format!("/api/v1/{puzzle}?{query}")), 400);
        }
    }
}

#[test]
fn other_sizes_answer_and_past_the_largest_is_422() {
    // Every size is checked against the oracles in serve_sizes.rs; here,
    // that they answer without table files.
    let server = Server::start(&[]);
    let r = server.get("/api/v1/flip?board=bwwbb/bbwbb/bwwbb/bwwwb/bbbbb");
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json()["answer"], "Impossible");
    let r = server.get("/api/v1/euler?board=.../.../.../...");
    assert_eq!(r.status, 200, "{}", r.text());
    // The empty 4×3 board: 12 squares; per row of 3, two 2-long pins and
    // one 3-long; per column of 4, 2- and 3-long pins from either end.
    assert_eq!(
        r.json()["moves"].as_array().unwrap().len(),
        12 + 4 * 3 + 3 * 4
    );
    // Past the largest shape.
    let wide = "b".repeat(65);
    error(&server.get(&format!("/api/v1/flip?board={wide}")), 422);
}

#[test]
fn routes_methods_and_files() {
    let server = Server::start(&[]);
    let mut conn = server.connect();
    let v = error(&conn.get("/api/v1/nope"), 404);
    assert_eq!(v["error"], "no such route: GET /api/v1/nope");
    error(&conn.get("/favicon.ico"), 404);
    let r = conn.request("POST", "/api/v1/flip?board=x", &[], b"");
    error(&r, 405);
    assert_eq!(r.header("allow"), Some("GET,HEAD"));
    let r = conn.get("/api/v1/carcassonne");
    error(&r, 405);
    assert_eq!(r.header("allow"), Some("POST"));
    error(&conn.request("DELETE", "/", &[], b""), 405);
    let r = conn.request("HEAD", "/api/v1/health", &[], b"");
    assert_eq!(r.status, 200);
    // The explorer: HTML, script and style from here only.
    let page = conn.get("/");
    assert_eq!(page.status, 200);
    assert_eq!(
        page.header("content-type"),
        Some("text/html; charset=utf-8")
    );
    assert!(
        page.header("content-security-policy")
            .unwrap()
            .contains("default-src 'self'")
    );
    let html = page.text();
    assert!(html.contains("<script src=\"/app.js\""));
    assert!(
        !html.contains("http://") && !html.contains("https://"),
        "no outside URL"
    );
    for (path, kind) in [
        ("/app.js", "text/javascript; charset=utf-8"),
        ("/app.css", "text/css; charset=utf-8"),
        ("/favicon.svg", "image/svg+xml"),
    ] {
        let r = conn.get(path);
        assert_eq!(
            (r.status, r.header("content-type")),
            (200, Some(kind)),
            "{path}"
        );
        assert!(!r.body.is_empty());
        let text = r.text();
        // The only URL a file may name is the SVG namespace.
        let outside = text
            .match_indices("http")
            .filter(|(i, _)| !text[*i..].starts_with("http://www.w3.org/2000/svg"))
            .count();
        assert_eq!(outside, 0, "{path} names an outside URL");
    }
    assert_eq!(
        conn.get("/api/v1/health")
            .header("access-control-allow-origin"),
        Some("*")
    );
}

/// Checks a witness: each placed tile is its given tile turned, and every
/// shared edge matches.
fn check_witness(rows: usize, cols: usize, given: &[&str], witness: &Value) {
    let placed: Vec<Edges> = (0..rows * cols)
        .map(|i| {
            let turns = witness["turns"][i / cols][i % cols].as_u64().unwrap();
            let tile = turn_code(given[i], turns);
            assert_eq!(witness["tiles"][i / cols][i % cols], tile.as_str());
            tile.as_bytes().try_into().expect("4 letters")
        })
        .collect();
    assert_eq!(
        first_mismatch(rows, cols, &placed),
        None,
        "the first shared edge that differs: (row, col, side)"
    );
}

#[test]
fn carcassonne_json_and_judge_text() {
    let server = Server::start(&[]);
    let r = server.post(
        "/api/v1/carcassonne",
        "application/json",
        br#"{"rows": 1, "cols": 2, "tiles": ["RRRF", "FCCC"]}"#,
    );
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(
        r.text(),
        r#"{"case":1,"rows":1,"cols":2,"count":1,"modulus":1000000007,"exact":"1","witness":{"turns":[[2,3]],"tiles":[["RFRR","CCCF"]]}}"#
    );
    // No placement: counts 0, witness null.
    let v = server
        .post(
            "/api/v1/carcassonne",
            "application/json; charset=utf-8",
            br#"{"rows": 1, "cols": 2, "tiles": ["CCCC", "RRRR"]}"#,
        )
        .json();
    assert_eq!(
        (v["count"].clone(), v["exact"].clone(), v["witness"].clone()),
        (json!(0), json!("0"), Value::Null)
    );
    // The judge's text: every case, in order.
    let r = server.post("/api/v1/carcassonne", "text/plain", SAMPLE.as_bytes());
    assert_eq!(r.status, 200, "{}", r.text());
    let v = r.json();
    let cases = v["cases"].as_array().unwrap();
    let counts: Vec<&Value> = cases.iter().map(|c| &c["count"]).collect();
    assert_eq!(counts, [&json!(4), &json!(1), &json!(1048576)]);
    assert_eq!(cases[2]["exact"], "1048576");
    let words: Vec<&str> = SAMPLE.split_whitespace().collect();
    check_witness(1, 1, &words[3..4], &cases[0]["witness"]);
    check_witness(1, 2, &words[6..8], &cases[1]["witness"]);
    check_witness(8, 8, &words[10..74], &cases[2]["witness"]);
    // Without a content type, and with curl's default for -d.
    for kind in [None, Some("application/x-www-form-urlencoded")] {
        let headers: Vec<(&str, &str)> = kind.map(|k| ("content-type", k)).into_iter().collect();
        let mut conn = server.connect();
        let r = conn.request("POST", "/api/v1/carcassonne", &headers, SAMPLE.as_bytes());
        assert_eq!(r.json()["cases"][2]["count"], 1048576);
        let r = conn.request(
            "POST",
            "/api/v1/carcassonne",
            &headers,
            br#" {"rows":1,"cols":1,"tiles":["CCCC"]}"#,
        );
        assert_eq!(r.json()["exact"], "4");
    }
    // Exact counts past 64 bits.
    let tiles = vec!["CCCC"; 40];
    let body = json!({"rows": 2, "cols": 20, "tiles": tiles}).to_string();
    let v = server
        .post("/api/v1/carcassonne", "application/json", body.as_bytes())
        .json();
    assert_eq!(v["exact"], "1208925819614629174706176"); // 4^40
    assert_eq!(
        v["count"],
        (1208925819614629174706176u128 % 1_000_000_007) as u64
    );
}

#[test]
fn carcassonne_bad_bodies() {
    let server = Server::start(&[]);
    let mut conn = server.connect();
    let mut post = |kind: &str, body: &str| conn.post("/api/v1/carcassonne", kind, body.as_bytes());
    let json = "application/json";
    let v = error(
        &post(
            json,
            "{\"rows\": 1,\n \"cols\": 2, \"tiles\": [\"RRRF\" \"FCCC\"]}",
        ),
        400,
    );
    assert_eq!(
        (v["line"].clone(), v["column"].clone()),
        (json!(2), json!(30))
    );
    error(&post(json, ""), 400);
    error(&post(json, "[]"), 400);
    error(&post(json, r#"{"rows": 1, "cols": 2}"#), 400);
    error(&post(json, r#"{"rows": -1, "cols": 2, "tiles": []}"#), 400);
    error(
        &post(
            json,
            r#"{"rows": 1, "cols": 2, "tiles": ["RRRF"], "extra": 1}"#,
        ),
        400,
    );
    error(&post(json, r#"{"rows": 0, "cols": 2, "tiles": []}"#), 400);
    error(
        &post(json, r#"{"rows": 1, "cols": 2, "tiles": ["RRRF"]}"#),
        400,
    );
    let v = error(
        &post(
            json,
            r#"{"rows": 2, "cols": 2, "tiles": ["RRRF", "CCCC", "CCXC", "CCCC"]}"#,
        ),
        400,
    );
    assert_eq!(
        (v["tile"].clone(), v["row"].clone(), v["col"].clone()),
        (json!(2), json!(1), json!(0))
    );
    error(
        &post(json, r#"{"rows": 1, "cols": 1, "tiles": ["CCCCC"]}"#),
        400,
    );
    // Past the limits: 422.
    let v = error(&post(json, r#"{"rows": 17, "cols": 17, "tiles": []}"#), 422);
    assert!(v["error"].as_str().unwrap().contains("at most 16"));
    error(
        &post(
            json,
            r#"{"rows": 16, "cols": 18446744073709551615, "tiles": []}"#,
        ),
        422,
    );
    error(
        &post(json, r#"{"rows": 16, "cols": 1000000, "tiles": []}"#),
        422,
    );
    // The judge's text: errors with line and column.
    let text = "text/plain";
    let v = error(&post(text, "2\n1 1\nRRRR\n1 2\nRRRF FCXC\n"), 400);
    assert_eq!(
        (v["line"].clone(), v["column"].clone(), v["case"].clone()),
        (json!(5), json!(8), json!(2))
    );
    let v = error(&post(text, "1\n1 1\nRRRR\nxyz\n"), 400);
    assert_eq!(v["line"], 4);
    error(&post(text, "2\n1 1\nRRRR\n"), 400);
    error(&post(text, ""), 400);
    error(&post(text, "1\n0 3\n"), 400);
    error(&post(text, "1\n17 17\n"), 400);
    let v = error(&post(text, "1001\n"), 422);
    assert_eq!(v["max_cases"], 1000);
    error(&post("application/xml", "<x/>"), 415);
    error(&post("image/png", "1\n1 1\nCCCC\n"), 415);
}

#[test]
fn oversized_bodies_are_413() {
    let server = Server::start(&[]);
    // Declared too large: refused before it is read.
    let mut conn = server.connect();
    conn.send(b"POST /api/v1/carcassonne HTTP/1.1\r\nhost: x\r\ncontent-type: text/plain\r\ncontent-length: 2000000\r\n\r\n")
        .unwrap();
    let v = error(&conn.read_response(false).unwrap(), 413);
    assert_eq!(v["body_limit_bytes"], 1 << 20);
    // Sent in chunks with no length: refused once past the limit.
    let mut conn = server.connect();
    conn.send(b"POST /api/v1/carcassonne HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n")
        .unwrap();
    let chunk = vec![b' '; 64 * 1024];
    let mut sent = 0;
    while sent <= 1 << 20 {
        let mut piece = format!("{:x}\r\n", chunk.len()).into_bytes();
        piece.extend_from_slice(&chunk);
        piece.extend_from_slice(b"\r\n");
        if conn.send(&piece).is_err() {
            break; // the server answered and closed
        }
        sent += chunk.len();
    }
    let _ = conn.send(b"0\r\n\r\n");
    error(&conn.read_response(false).unwrap(), 413);
    // Exactly at the limit is read (and is then a bad body).
    let mut body = vec![b' '; (1 << 20) - 2];
    body.extend_from_slice(b"{}");
    error(
        &server.post("/api/v1/carcassonne", "application/json", &body),
        400,
    );
}

/// A `rows × cols` board of two-pair tiles (rotations of RRFF), which keep
/// every two-colour frontier reachable: the DP's heaviest kind of board.
/// `rows × cols` rotations of `RRFF`, drawn from a fixed LCG, row-major.
fn two_pair_tiles(rows: usize, cols: usize) -> Vec<&'static str> {
    let mut x: u32 = 12345;
    (0..rows * cols)
        .map(|_| {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            ["RRFF", "FRRF", "FFRR", "RFFR"][(x >> 16) as usize % 4]
        })
        .collect()
}

/// [`two_pair_tiles`] as the API's JSON board.
fn two_pair(rows: usize, cols: usize) -> String {
    json!({"rows": rows, "cols": cols, "tiles": two_pair_tiles(rows, cols)}).to_string()
}

#[test]
fn budget_and_time_limit_are_422() {
    let server = Server::start(&["--count-timeout", "0.5"]);
    // 16 × 40 two-pair tiles: 32,768 profile groups a tile, so a witness
    // would store more than its budget of 2^24 groups.
    let r = server.post(
        "/api/v1/carcassonne",
        "application/json",
        two_pair(16, 40).as_bytes(),
    );
    if r.status == 422 && r.text().contains("time limit") {
        // A slow build: the deadline came first. Ask again with time to spare.
        let slow = Server::start(&["--count-timeout", "600"]);
        let r = slow.post(
            "/api/v1/carcassonne",
            "application/json",
            two_pair(16, 40).as_bytes(),
        );
        let v = error(&r, 422);
        assert!(v["error"].as_str().unwrap().contains("budget"), "{v}");
    } else {
        let v = error(&r, 422);
        assert!(v["error"].as_str().unwrap().contains("budget"), "{v}");
        assert_eq!(v["case"], 1);
    }
    // 16 × 24 two-pair: within the budget, but its exact count takes longer
    // than half a second.
    let r = server.post(
        "/api/v1/carcassonne",
        "application/json",
        two_pair(16, 24).as_bytes(),
    );
    let v = error(&r, 422);
    assert!(
        v["error"].as_str().unwrap().contains("time limit of 0.5 s"),
        "{v}"
    );
    // The server is still there.
    assert_eq!(server.get("/api/v1/health").status, 200);
}

#[test]
fn a_heavy_count_does_not_stall_lookups() {
    // The count's time limit, and how long the heavy request surely lasts:
    // 500 cases of 30 × 12 two-pair tiles (0.9 MB) take minutes in any build, so
    // the request ends only when the server's deadline stops it.
    const LIMIT: u64 = 10;
    let server = Server::start(&[
        "--count-workers",
        "1",
        "--count-timeout",
        &LIMIT.to_string(),
    ]);
    let mut text = String::from("500\n");
    let one = two_pair_text(30, 12);
    for _ in 0..500 {
        text.push_str(&one);
    }
    let done = Arc::new(AtomicBool::new(false));
    let heavy = {
        let addr = server.addr.clone();
        let done = done.clone();
        std::thread::spawn(move || {
            let r = Conn::connect(&addr).post("/api/v1/carcassonne", "text/plain", text.as_bytes());
            done.store(true, Ordering::SeqCst);
            r
        })
    };
    // Wait until the count has started (the health check answers at once).
    std::thread::sleep(Duration::from_millis(300));
    let started = Instant::now();
    let mut conn = server.connect();
    let mut answered = 0;
    for bits in (0..=u16::MAX).step_by(331) {
        let r = conn.get(&format!("/api/v1/flip?board={}", rows_of(bits, 'w', 'b')));
        assert_eq!(r.status, 200);
        check_flip(bits, &r.json());
        answered += 1;
    }
    // Every lookup was answered while the count was still running.
    assert!(
        !done.load(Ordering::SeqCst),
        "the count ended before the {answered} lookups ({:?})",
        started.elapsed()
    );
    let r = heavy.join().unwrap();
    assert_eq!(r.status, 422, "{}", r.text());
    let message = r.json()["error"].as_str().unwrap_or_default().to_owned();
    assert!(
        message.contains(&format!("time limit of {LIMIT} s")),
        "{message}"
    );
}

/// [`two_pair_tiles`] as one case of the judge's text input.
fn two_pair_text(rows: usize, cols: usize) -> String {
    let mut text = format!("{rows} {cols}\n");
    for row in two_pair_tiles(rows, cols).chunks(cols) {
        text.push_str(&row.join(" "));
        text.push('\n');
    }
    text
}

#[test]
fn concurrent_requests_all_answer_right() {
    let server = Server::start(&[]);
    let moves = euler::moves_4x4();
    let failures = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for t in 0..16u32 {
            let (server, moves, failures) = (&server, &moves, &failures);
            scope.spawn(move || {
                let mut conn = server.connect();
                let mut x = 0x9E37_79B9u32.wrapping_mul(t + 1);
                for i in 0..150 {
                    x ^= x << 13;
                    x ^= x >> 17;
                    x ^= x << 5;
                    let bits = x as u16;
                    match i % 5 {
                        0 | 1 => check_flip(
                            bits,
                            &conn
                                .get(&format!("/api/v1/flip?board={}", rows_of(bits, 'w', 'b')))
                                .json(),
                        ),
                        2 | 3 => check_euler(
                            bits,
                            moves,
                            &conn
                                .get(&format!("/api/v1/euler?board={}", rows_of(bits, '.', 'X')))
                                .json(),
                        ),
                        _ => {
                            let r = conn.post(
                                "/api/v1/carcassonne",
                                "text/plain",
                                b"1\n1 2\nRRRF FCCC\n",
                            );
                            if r.json()["cases"][0]["count"] != 1 {
                                failures.lock().unwrap().push(r.text().to_owned());
                            }
                        }
                    }
                }
            });
        }
    });
    assert_eq!(failures.into_inner().unwrap(), Vec::<String>::new());
}

#[test]
fn slow_clients_time_out() {
    let server = Server::start(&["--read-timeout", "0.5"]);
    // Headers never finished: the connection is closed.
    let mut conn = server.connect();
    conn.send(b"GET /api/v1/health HTTP/1.1\r\nhost: x\r\n")
        .unwrap();
    assert!(conn.closed_within(Duration::from_secs(10)));
    // A body that stops coming: 408.
    let mut conn = server.connect();
    conn.send(b"POST /api/v1/carcassonne HTTP/1.1\r\nhost: x\r\ncontent-type: text/plain\r\ncontent-length: 100\r\n\r\n1\n1 1\n")
        .unwrap();
    let r = conn.read_response(false).unwrap();
    let v = error(&r, 408);
    assert!(v["error"].as_str().unwrap().contains("0.5 s"));
    // A kept-alive connection left idle is closed.
    let mut conn = server.connect();
    assert_eq!(conn.get("/api/v1/health").status, 200);
    assert!(conn.closed_within(Duration::from_secs(10)));
    // Meanwhile others are served.
    assert_eq!(server.get("/api/v1/health").status, 200);
}

#[test]
fn graceful_shutdown_finishes_open_requests() {
    for signal in ["TERM", "INT"] {
        let mut server = Server::start(&["--count-timeout", "600"]);
        let addr = server.addr.clone();
        let open = std::thread::spawn(move || {
            Conn::connect(&addr).post(
                "/api/v1/carcassonne",
                "application/json",
                two_pair(16, 12).as_bytes(),
            )
        });
        std::thread::sleep(Duration::from_millis(300));
        server.signal(signal);
        let r = open.join().unwrap();
        assert_eq!(r.status, 200, "{signal}: {}", r.text());
        assert!(r.json()["witness"].is_object());
        let (status, stderr) = server.wait(Duration::from_secs(60));
        assert!(status.success(), "{signal}: {status:?}, {stderr}");
        assert!(
            stderr.contains("finishing open requests") && stderr.contains("stopped"),
            "{stderr}"
        );
        assert!(
            std::net::TcpStream::connect(&server.addr).is_err(),
            "still listening after {signal}"
        );
    }
}

#[test]
fn start_up_errors() {
    let busy = Server::start(&[]);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_boardbase"))
        .args(["serve", "--bind", &busy.addr])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot listen on"));
    for args in [
        &["serve", "--tables", "/no/such/dir"][..],
        &["serve", "--bind", "localhost"],
        &["serve", "--bind", "localhost:99999"],
        &["serve", "--bind", ":8080"],
        &["serve", "--count-timeout", "0"],
        &["serve", "--count-workers", "0"],
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_boardbase"))
            .args(args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
    // An existing --tables directory is accepted, and said to be searched.
    let dir = std::env::temp_dir();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_boardbase"))
        .args([
            "serve",
            "--bind",
            "127.0.0.1:0",
            "--tables",
            dir.to_str().unwrap(),
        ])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut reader = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut lines = String::new();
    for _ in 0..2 {
        std::io::BufRead::read_line(&mut reader, &mut lines).unwrap();
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(lines.contains("listening on http://127.0.0.1:"), "{lines}");
    assert!(
        lines.contains(&format!("tables: looked in {}", dir.display())),
        "{lines}"
    );
    // A host name is resolved: localhost listens on a loopback address.
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_boardbase"))
        .args(["serve", "--bind", "localhost:0"])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut reader = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    std::io::BufRead::read_line(&mut reader, &mut line).unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(
        line.starts_with("boardbase serve: listening on http://127.0.0.1:")
            || line.starts_with("boardbase serve: listening on http://[::1]:"),
        "{line}"
    );
    // A name that does not resolve: exit status 1, said.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_boardbase"))
        .args(["serve", "--bind", "no-such-host.invalid:0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("cannot listen on no-such-host.invalid:0"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A table file with a damaged block: the lookups that read the block
/// answer 422 naming the file, the column and the block, never a 5xx or a
/// wrong answer; the others answer from the rest of the file.
#[test]
fn a_damaged_block_is_422_and_the_rest_answers() {
    use boardbase::tablefile::Table;
    use boardbase::tables::shape::Shape;

    let dir = crate::common::TempDir::new("serve-damaged-block");
    let shape = Shape::new(3, 5).unwrap();
    let table = Table::from_euler(shape, oracle::Euler::solve(shape).columns(false)).unwrap();
    let path = dir.0.join("euler-3x5.bin");
    let mut bytes = table.to_bytes().unwrap();
    // Block 0 of `plies`: positions 0 to 4,095 (square (2,2) open).
    let plies = table_offset(&bytes, "plies");
    bytes[plies + 9] ^= 4;
    std::fs::write(&path, &bytes).unwrap();
    let intact = dir.0.join("intact");
    std::fs::create_dir(&intact).unwrap();
    table
        .write(intact.join("euler-3x5.bin"), &mut |_| {})
        .unwrap();

    let server = Server::start(&["--tables", dir.path()]);
    let good = Server::start(&["--tables", intact.to_str().unwrap()]);
    let v = error(&server.get("/api/v1/euler?board=...../...../....."), 422);
    assert_eq!(
        v["error"],
        format!(
            "{}: column \"plies\", block 0 (bytes {plies}..{} of the file) does not match its CRC: \
             the table is damaged (boardbase verify checks the file)",
            path.display(),
            plies + 4096
        )
    );
    // Square (2,2) covered: this position and every one after it lie in
    // other blocks.
    for board in [
        "...../...../..XXX",
        "X..../.X.../..X..",
        "XXXXX/XXXXX/XXXX.",
    ] {
        let url = format!("/api/v1/euler?board={board}");
        let r = server.get(&url);
        assert_eq!(r.status, 200, "{board}: {}", r.text());
        assert_eq!(r.json(), good.get(&url).json(), "{board}");
    }
}

/// Where column `name` starts in a table file's bytes.
fn table_offset(bytes: &[u8], name: &str) -> usize {
    let table = boardbase::tablefile::Table::from_bytes(bytes.to_vec()).unwrap();
    table.column(name).and_then(|c| c.offset).unwrap() as usize
}
