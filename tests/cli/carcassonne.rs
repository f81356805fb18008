//! `boardbase carcassonne` end to end: formats, options, input rules, errors.

use crate::common;
use crate::oracle;

use boardbase::carcassonne::{TILE_CODES, Tile, TileCode};
use common::{TempFile, ok, run};
use oracle::carcassonne::{Edges, SAMPLE, first_mismatch, turn_code};

/// Checks a witness board (rows of rotated codes) against the given tiles:
/// every tile is a rotation of the original and every shared edge matches.
fn assert_valid_witness(given: &[Vec<&str>], placed: &[Vec<String>]) {
    assert_eq!(given.len(), placed.len());
    let mut tiles: Vec<Edges> = Vec::new();
    for (g, p) in given.iter().zip(placed) {
        assert_eq!(g.len(), p.len());
        assert_eq!(p.len(), placed[0].len(), "rows of one length");
        for (g, p) in g.iter().zip(p) {
            assert!(
                (0..4).any(|k| turn_code(g, k) == *p),
                "{p} is not a rotation of {g}"
            );
            tiles.push(p.as_bytes().try_into().expect("4 letters"));
        }
    }
    let (rows, cols) = (placed.len(), placed.first().map_or(0, Vec::len));
    assert_eq!(
        first_mismatch(rows, cols, &tiles),
        None,
        "the first shared edge that differs: (row, col, side)"
    );
}

#[test]
fn judge_sample_and_alias() {
    let expected = "Case 1: 4\nCase 2: 1\nCase 3: 1048576\n";
    assert_eq!(ok(&["carcassonne"], SAMPLE), expected);
    assert_eq!(ok(&["hdu4064"], SAMPLE), expected);
    // Any whitespace separates tokens: one per line, tabs, CRLF.
    let odd = SAMPLE
        .split_whitespace()
        .collect::<Vec<_>>()
        .join("\r\n\t ");
    assert_eq!(ok(&["carcassonne"], odd), expected);
    let f = TempFile::new("carcassonne-sample.txt", SAMPLE);
    assert_eq!(ok(&["carcassonne", f.path()], ""), expected);
}

#[test]
fn exact_counts() {
    // 12 CCCC tiles: 4^12 = 16,777,216 placements, below p; 20 tiles:
    // 4^20 = 1,099,511,627,776, which the modular count reduces.
    let board = |n: usize| format!("1\n1 {n}\n{}\n", vec!["CCCC"; n].join(" "));
    assert_eq!(
        ok(&["carcassonne", "--exact"], board(12)),
        "Case 1: 16777216\n"
    );
    assert_eq!(
        ok(&["carcassonne", "--exact"], board(20)),
        "Case 1: 1099511627776\n"
    );
    let modular = 1_099_511_627_776u64 % 1_000_000_007;
    assert_eq!(
        ok(&["carcassonne"], board(20)),
        format!("Case 1: {modular}\n")
    );
}

#[test]
fn witnesses_are_valid_or_absent() {
    let out = ok(&["carcassonne", "--witness"], SAMPLE);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "Case 1: 4");
    assert_eq!(lines[1], "RRRR");
    assert_eq!(lines[2], "Case 2: 1");
    assert_eq!(lines[3], "RFRR CCCF");
    assert_eq!(lines[4], "Case 3: 1048576");
    let given: Vec<Vec<&str>> = SAMPLE
        .lines()
        .skip(6)
        .map(|l| l.split(' ').collect())
        .collect();
    let placed: Vec<Vec<String>> = lines[5..13]
        .iter()
        .map(|l| l.split(' ').map(str::to_owned).collect())
        .collect();
    assert_valid_witness(&given, &placed);
    // CCCC beside RRRR: no turn makes a City edge meet a Road edge.
    let none = ok(&["carcassonne", "--witness"], "1\n1 2\nCCCC RRRR\n");
    assert_eq!(none, "Case 1: 0\nno valid placement\n");
}

#[test]
fn pretty_and_json() {
    let pretty = ok(&["carcassonne", "--format", "pretty"], SAMPLE);
    assert!(pretty.starts_with(
        "Case 1: 1x1 board, 4 valid placements (mod 1,000,000,007)\n  tiles (top, right, bottom, left; clockwise):\n    RRRR\n"
    ), "{pretty}");
    assert!(pretty.contains("Case 2: 1x2 board, 1 valid placement (mod 1,000,000,007)"));
    assert!(pretty.contains("    RFRR(2) CCCF(3)\n"));
    let none = ok(
        &["carcassonne", "--format", "pretty"],
        "1\n1 2\nCCCC RRRR\n",
    );
    assert!(none.contains("no valid placement exists"), "{none}");

    let json = ok(
        &["carcassonne", "--format", "json", "--exact", "--witness"],
        SAMPLE,
    );
    let v: Vec<serde_json::Value> = json
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(v.len(), 3);
    assert_eq!(v[0]["case"], 1);
    assert_eq!(v[0]["count"], 4);
    assert_eq!(v[0]["exact"], "4");
    assert_eq!(v[0]["modulus"], 1_000_000_007u64);
    assert_eq!(v[1]["witness"]["turns"], serde_json::json!([[2, 3]]));
    assert_eq!(
        v[1]["witness"]["tiles"],
        serde_json::json!([["RFRR", "CCCF"]])
    );
    assert_eq!(
        (v[2]["rows"].as_u64(), v[2]["cols"].as_u64()),
        (Some(8), Some(8))
    );
    assert_eq!(v[2]["count"], 1_048_576);
    let plain = ok(&["carcassonne", "--format", "json"], "1\n1 2\nCCCC RRRR\n");
    let p: serde_json::Value = serde_json::from_str(plain.trim()).unwrap();
    assert_eq!(p["count"], 0);
    assert!(p.get("exact").is_none() && p.get("witness").is_none());
    let nw = ok(
        &["carcassonne", "--format", "json", "--witness"],
        "1\n1 2\nCCCC RRRR\n",
    );
    let nw: serde_json::Value = serde_json::from_str(nw.trim()).unwrap();
    assert!(nw["witness"].is_null());
}

#[test]
fn many_cases_keep_their_order() {
    // 200 cases counted in parallel batches: answers stay in input order.
    let mut input = String::from("200\n");
    let mut expected = String::new();
    for k in 1..=200usize {
        let n = k % 7 + 1;
        input.push_str(&format!("1 {n}\n{}\n", vec!["CCCC"; n].join(" ")));
        expected.push_str(&format!("Case {k}: {}\n", 4u64.pow(n as u32)));
    }
    assert_eq!(ok(&["carcassonne"], &input), expected);
}

#[test]
fn errors_after_many_batches_come_after_every_earlier_answer() {
    // 150 good cases span three batches counted while the next is read; the
    // bad 151st must come after all 150 answers, and a count that passes the
    // budget likewise stops the run after the answers before it.
    let mut input = String::from("200\n");
    let mut expected = String::new();
    for k in 1..=150 {
        input.push_str("1 1\nCCCC\n");
        expected.push_str(&format!("Case {k}: 4\n"));
    }
    input.push_str("1 1\nCCCX\n");
    let r = run(&["carcassonne"], &input);
    assert_eq!(r.code, 1);
    assert_eq!(r.stdout, expected);
    assert_eq!(
        r.stderr,
        "error: <stdin>:303:4: expected a tile edge 'C', 'R' or 'F', found 'X'\n"
    );
}

#[test]
fn wide_boards_are_transposed_and_limits_hold() {
    // 14 × 40 and 16 × 16 of one tile: every placement of CCCC works.
    let big = |r: usize, c: usize| format!("1\n{r} {c}\n{}\n", vec!["CCCC"; r * c].join(" "));
    let count = |n: u32| {
        let mut x = 1u64;
        for _ in 0..n {
            x = x * 4 % 1_000_000_007;
        }
        x
    };
    assert_eq!(
        ok(&["carcassonne"], big(14, 40)),
        format!("Case 1: {}\n", count(560))
    );
    assert_eq!(
        ok(&["carcassonne"], big(16, 16)),
        format!("Case 1: {}\n", count(256))
    );
    let r = run(&["carcassonne"], "1\n17 17\n");
    assert_eq!(r.code, 1);
    assert_eq!(
        r.stderr,
        "error: <stdin>:2:4: expected N and M with the narrower side at most 16, found 17\n"
    );
}

#[test]
fn bad_input_prints_earlier_answers_then_the_error() {
    let cases: &[(&str, &str, &str)] = &[
        // (An input of only whitespace has no cases: tests/cli/streams.rs.)
        (
            "-1\n",
            "",
            "error: <stdin>:1:1: expected a case count, found '-'\n",
        ),
        (
            "99999999999999999999\n",
            "",
            "error: <stdin>:1:1: expected a case count, found a number too large\n",
        ),
        (
            "2\n1 1\nRRRR\n",
            "Case 1: 4\n",
            "error: <stdin>:4:1: expected a number of rows N of at least 1, found end of input\n",
        ),
        (
            "2\n1 1\nRRRR\n1 2\nRRXF FCCC\n",
            "Case 1: 4\n",
            "error: <stdin>:5:3: expected a tile edge 'C', 'R' or 'F', found 'X'\n",
        ),
        (
            "1\n1 2\nRRFF rrff\n",
            "",
            "error: <stdin>:3:6: expected a tile edge 'C', 'R' or 'F', found 'r'\n",
        ),
        (
            "1\n1 2\nRRFF RRFFC\n",
            "",
            "error: <stdin>:3:6: expected a tile code (4 of 'C', 'R', 'F'), found 5 characters\n",
        ),
        (
            "1\n1 2\nRRFF RRF\n",
            "",
            "error: <stdin>:3:6: expected a tile code (4 of 'C', 'R', 'F'), found 3 characters\n",
        ),
        (
            "1\n1 2\nRRFF\n",
            "",
            "error: <stdin>:4:1: expected another tile (N × M in all), found end of input\n",
        ),
        (
            "1\n0 5\n",
            "",
            "error: <stdin>:2:1: expected a number of rows N of at least 1, found 0\n",
        ),
        (
            "1\n5 0\n",
            "",
            "error: <stdin>:2:3: expected a number of columns M of at least 1, found 0\n",
        ),
        (
            "1\n1000000 1000\n",
            "",
            "error: <stdin>:2:9: expected N and M with the narrower side at most 16, found 1000\n",
        ),
        (
            "1\n4294967296 4294967296\n",
            "",
            "error: <stdin>:2:12: expected N and M with the narrower side at most 16, found 4294967296\n",
        ),
        (
            "1\n2000000 1\n",
            "",
            "error: <stdin>:2:9: expected at most 1048576 tiles (N × M), found 2000000\n",
        ),
        (
            "1\n1 x\n",
            "",
            "error: <stdin>:2:3: expected a number of columns M of at least 1, found 'x'\n",
        ),
        (
            "1\n1 1\nRRRR\nRRRR\n",
            "Case 1: 4\n",
            "error: <stdin>:4:1: expected the end of the input after the last case, found 'R'\n",
        ),
    ];
    for (input, stdout, stderr) in cases {
        let r = run(&["carcassonne"], input);
        assert_eq!(
            (r.code, r.stdout.as_str(), r.stderr.as_str()),
            (1, *stdout, *stderr),
            "input {input:?}"
        );
    }
    assert_eq!(run(&["carcassonne", "--format", "xml"], SAMPLE).code, 2);
}

#[test]
fn declared_counts_are_not_trusted() {
    // A huge case count with one case: the answer, then an error at the end.
    let r = run(&["carcassonne"], "1000000000000000000\n1 1\nRRRR\n");
    assert_eq!(r.code, 1);
    assert_eq!(r.stdout, "Case 1: 4\n");
    assert_eq!(
        r.stderr,
        "error: <stdin>:4:1: expected a number of rows N of at least 1, found end of input\n"
    );
    // 65,536 × 16 tiles declared, two given: fails at the end of input, fast.
    let r = run(&["carcassonne"], "1\n65536 16\nRRRR RRRR\n");
    assert_eq!(r.code, 1);
    assert!(
        r.stderr
            .contains("expected another tile (N × M in all), found end of input"),
        "{}",
        r.stderr
    );
}

#[test]
fn the_tile_code_map_holds_all_81_codes_with_their_rotations() {
    assert_eq!(TILE_CODES.len(), 81);
    for a in "CRF".chars() {
        for b in "CRF".chars() {
            for c in "CRF".chars() {
                for d in "CRF".chars() {
                    let code: String = [a, b, c, d].iter().collect();
                    let entry = TileCode::lookup(code.as_bytes().try_into().unwrap()).unwrap();
                    assert_eq!(entry.tile.to_string(), code);
                    // Distinct rotations by string rotation, with how many
                    // of the 4 turns give each.
                    let turned: Vec<String> = (0..4).map(|k| turn_code(&code, k)).collect();
                    let mut distinct: Vec<(String, u8)> = Vec::new();
                    for t in &turned {
                        match distinct.iter_mut().find(|(s, _)| s == t) {
                            Some((_, m)) => *m += 1,
                            None => distinct.push((t.clone(), 1)),
                        }
                    }
                    let got: Vec<(String, u8)> = entry
                        .rotations
                        .iter()
                        .map(|r| (Tile::from_packed(r.tile).to_string(), r.multiplicity))
                        .collect();
                    assert_eq!(got, distinct, "rotations of {code}");
                    for r in entry.rotations {
                        assert_eq!(
                            turned[usize::from(r.turns)],
                            Tile::from_packed(r.tile).to_string()
                        );
                    }
                }
            }
        }
    }
    assert!(TileCode::lookup(b"CRFX").is_none());
    assert!(TileCode::lookup(b"crfc").is_none());
}
