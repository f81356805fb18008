//! `boardbase fliptile` (POJ 3279) and `boardbase lightsout` (POJ 1222,
//! UVA 1560) end to end: the samples, formats, input rules, errors and exit
//! codes.

use crate::common;
use crate::oracle::samples;

use std::fmt::Write as _;

use common::{TempFile, ok, run};

const FLIPTILE: &str = samples::FLIPTILE;
const FLIPTILE_ANSWER: &str = samples::FLIPTILE_ANSWER;

const LIGHTS_OUT: &str = samples::LIGHTS_OUT;
const LIGHTS_OUT_ANSWER: &str = samples::LIGHTS_OUT_ANSWER;

/// A 4×4 board that cannot be made white: one black corner.
const CORNER: &str = "4 4\n1 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n";

/// Asserts exit status 1, exactly `answers` on stdout and `error` on stderr.
fn assert_fails(args: &[&str], stdin: &str, answers: &str, error: &str) {
    let r = run(args, stdin);
    assert_eq!(r.stdout, answers, "{args:?} {stdin:?}: stderr {}", r.stderr);
    assert_eq!(r.stderr, format!("{error}\n"), "{args:?} {stdin:?}");
    assert_eq!(r.code, 1, "{args:?} {stdin:?}");
}

#[test]
fn fliptile_sample_and_alias() {
    assert_eq!(ok(&["fliptile"], FLIPTILE), FLIPTILE_ANSWER);
    assert_eq!(ok(&["poj3279"], FLIPTILE), FLIPTILE_ANSWER);
    assert_eq!(ok(&["fliptile"], CORNER), "IMPOSSIBLE\n");
}

#[test]
fn fliptile_cases_back_to_back() {
    let two = format!("{FLIPTILE}{CORNER}\n\n1 1\n1\n1 3\n0 0 0\n");
    assert_eq!(
        ok(&["fliptile"], &two),
        format!("{FLIPTILE_ANSWER}IMPOSSIBLE\n1\n0 0 0\n")
    );
}

#[test]
fn fliptile_tolerant_input() {
    let crlf = FLIPTILE.replace('\n', "\r\n");
    assert_eq!(ok(&["fliptile"], &crlf), FLIPTILE_ANSWER);
    // Blanks around rows and numbers, several blanks between cells, blank
    // lines before a case and before its first row, no final newline.
    let loose = "\n  \n 4\t 4 \n\n  1  0 0\t1 \n0 1 1 0\n0 1 1 0\n1 0 0 1";
    assert_eq!(ok(&["fliptile"], loose), FLIPTILE_ANSWER);
}

#[test]
fn fliptile_up_to_64_columns() {
    // 1×64 with one black cell at the right end: the answer must clear
    // the row, checked by applying it here.
    let mut input = String::from("1 64\n");
    let cells: Vec<&str> = (0..64).map(|c| if c == 63 { "1" } else { "0" }).collect();
    writeln!(input, "{}", cells.join(" ")).unwrap();
    let out = ok(&["fliptile"], &input);
    let presses: Vec<u8> = out
        .trim_end()
        .split(' ')
        .map(|c| c.parse().unwrap())
        .collect();
    assert_eq!(presses.len(), 64);
    let mut row = [0u8; 64];
    row[63] = 1;
    for (c, &p) in presses.iter().enumerate() {
        if p == 1 {
            for d in [c.wrapping_sub(1), c, c + 1] {
                if d < 64 {
                    row[d] ^= 1;
                }
            }
        }
    }
    assert_eq!(row, [0u8; 64]);
}

#[test]
fn fliptile_pretty() {
    let out = ok(
        &["fliptile", "--format", "pretty"],
        format!("{FLIPTILE}{CORNER}2 2\n1 1\n1 1\n"),
    );
    let expected = "\
Case 1: 4x4 tiles, 4 flips make every tile white
  tiles  flips  after
  1001   ....   0000
  0110   x..x   0000
  0110   x..x   0000
  1001   ....   0000
  2 optimal flip sets; shown: the least in reading order
  nullity 4: 16 flip sets in all make these tiles white

Case 2: 4x4 tiles, IMPOSSIBLE: no flips make every tile white
  tiles
  1000
  0000
  0000
  0000
  nullity 4: only 1 board of this size in 16 can be made white

Case 3: 2x2 tiles, 4 flips make every tile white
  tiles  flips  after
  11     xx     00
  11     xx     00
  the only flip set that makes these tiles white (nullity 0)

";
    assert_eq!(out, expected);
}

#[test]
fn fliptile_json() {
    let out = ok(
        &["fliptile", "--format", "json"],
        format!("{FLIPTILE}{CORNER}"),
    );
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(
        lines[0],
        serde_json::json!({
            "case": 1,
            "board": "1001/0110/0110/1001",
            "solvable": true, "rounds": 4,
            "presses": [[1, 0], [1, 3], [2, 0], [2, 3]],
            "optimal_sets": 2, "nullity": 4
        })
    );
    assert_eq!(
        lines[1],
        serde_json::json!({
            "case": 2,
            "board": "1000/0000/0000/0000",
            "solvable": false, "rounds": null, "presses": null,
            "optimal_sets": 0, "nullity": 4
        })
    );
}

#[test]
fn fliptile_bad_input_after_the_earlier_answers() {
    let cases: &[(&str, &str)] = &[
        // Missing sizes.
        (
            "4\n1 0 0 1\n",
            "1:2: expected a number of columns N from 1 to 64, found end of line",
        ),
        (
            "x 4\n",
            "1:1: expected a number of rows M from 1 to 64, found 'x'",
        ),
        (
            "4 -4\n",
            "1:3: expected a number of columns N from 1 to 64, found '-'",
        ),
        (
            "0 4\n",
            "1:1: expected a number of rows M from 1 to 64, found 0",
        ),
        (
            "4 65\n",
            "1:3: expected a number of columns N from 1 to 64, found 65",
        ),
        (
            "4 99999999999999999999\n",
            "1:3: expected a number of columns N from 1 to 64, found a number too large",
        ),
        (
            "4 4 4\n",
            "1:5: expected the end of the line after M and N, found '4'",
        ),
        // Short rows, missing rows.
        (
            "4 4\n1 0 0 1\n0 1 1\n",
            "3:6: expected another cell (the row is short), found end of line",
        ),
        (
            "4 4\n1 0 0 1\n0 1 1",
            "3:6: expected another cell (the row is short), found end of input",
        ),
        (
            "4 4\n1 0 0 1\n0 1 1 0\n",
            "4:1: expected a row of N cells, '0' or '1', found end of input",
        ),
        (
            "4 4\n1 0 0 1\n\n0 1 1 0\n",
            "3:1: expected a row of N cells, '0' or '1', found a blank line",
        ),
        // Bad digits.
        (
            "4 4\n1 0 0 1\n0 1 2 0\n",
            "3:5: expected '0' or '1', found '2'",
        ),
        (
            "4 4\n1 0 0 1\n0 b 1 0\n",
            "3:3: expected '0' or '1', found 'b'",
        ),
        (
            "4 4\n1 0 0 1\n0 1 \u{e9} 0\n",
            "3:5: expected '0' or '1', found '\u{e9}'",
        ),
        // Cells run together, long rows.
        (
            "4 4\n1 0 0 1\n01 1 0\n",
            "3:2: expected a blank between two cells, found '1'",
        ),
        (
            "4 4\n1 0 0 1\n0 1 1 0 1\n",
            "3:9: expected the end of the row after its last cell, found '1'",
        ),
        (
            "4 4\n1 0 0 1\n0 1 1 01\n",
            "3:8: expected the end of the row after its last cell, found '1'",
        ),
    ];
    for (bad, error) in cases {
        // Alone, then after a good case whose answer comes first (five
        // lines earlier); whitespace after a case just ends the input.
        assert_fails(&["fliptile"], bad, "", &format!("error: <stdin>:{error}"));
        let after = format!("{FLIPTILE}{bad}");
        if bad.trim().is_empty() {
            assert_eq!(ok(&["fliptile"], &after), FLIPTILE_ANSWER);
            continue;
        }
        let (line, rest) = error.split_once(':').unwrap();
        let line = line.parse::<u64>().unwrap() + 5;
        assert_fails(
            &["fliptile"],
            &after,
            FLIPTILE_ANSWER,
            &format!("error: <stdin>:{line}:{rest}"),
        );
    }
}

#[test]
fn fliptile_nullity_over_the_limit() {
    // 39×39 has nullity 32: refused after the earlier answers, with the
    // case's line and how to raise the limit.
    let mut big = String::from("39 39\n");
    for _ in 0..39 {
        big.push_str(&vec!["0"; 39].join(" "));
        big.push('\n');
    }
    let input = format!("{FLIPTILE}{big}");
    let r = run(&["fliptile"], &input);
    assert_eq!(r.stdout, FLIPTILE_ANSWER);
    assert_eq!(
        r.stderr,
        "error: <stdin>:6: case 2: a 39x39 board has nullity 32 (2^32 press sets reach each \
         colour); the fewest presses are only searched up to nullity 24 (--max-nullity raises \
         the limit)\n"
    );
    assert_eq!(r.code, 1);
    // A lower limit refuses smaller nullities too.
    let r = run(&["fliptile", "--max-nullity", "3"], FLIPTILE);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains("a 4x4 board has nullity 4"),
        "{}",
        r.stderr
    );
    assert_eq!(
        ok(&["fliptile", "--max-nullity", "4"], FLIPTILE),
        FLIPTILE_ANSWER
    );
}

#[test]
fn lightsout_sample_and_aliases() {
    for name in ["lightsout", "poj1222", "uva1560"] {
        assert_eq!(ok(&[name], LIGHTS_OUT), LIGHTS_OUT_ANSWER, "{name}");
    }
    let f = TempFile::new("lightsout-sample.txt", LIGHTS_OUT);
    assert_eq!(ok(&["lightsout", f.path()], ""), LIGHTS_OUT_ANSWER);
    assert_eq!(ok(&["lightsout"], "0\n"), "");
}

#[test]
fn lightsout_tolerant_input() {
    // Several blanks between lights, CRLF, blank lines between puzzles.
    let loose = LIGHTS_OUT
        .replacen("0 1 1 0 1 0", "0  1 1\t0 1   0 ", 1)
        .replacen("0 0 1 0 1 0\n", "\n\n0 0 1 0 1 0\n", 1)
        .replace('\n', "\r\n");
    assert_eq!(ok(&["lightsout"], &loose), LIGHTS_OUT_ANSWER);
}

#[test]
fn lightsout_pretty_and_json() {
    let out = ok(&["lightsout", "--format", "pretty"], LIGHTS_OUT);
    let first = "\
PUZZLE #1: 13 presses turn every light off
  lights  press   after
  011010  x.x..x  000000
  100111  xx.x.x  000000
  001001  ..x.xx  000000
  100101  x..x..  000000
  011100  .x....  000000
  the only press set that does it (5x6 has nullity 0)

";
    assert!(out.starts_with(first), "{out}");
    assert!(out.contains("PUZZLE #2: 15 presses turn every light off\n"));

    let out = ok(&["lightsout", "--format", "json"], LIGHTS_OUT);
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["case"], 1);
    assert_eq!(lines[0]["board"], "011010/100111/001001/100101/011100");
    assert_eq!(lines[0]["rounds"], 13);
    assert_eq!(lines[0]["nullity"], 0);
    assert_eq!(lines[0]["optimal_sets"], 1);
    assert_eq!(
        lines[0]["presses"][0],
        serde_json::json!([0, 0]),
        "presses are [row, col]"
    );
    assert_eq!(lines[1]["case"], 2);
    assert_eq!(lines[1]["rounds"], 15);
}

#[test]
fn lightsout_bad_input() {
    // The count (2) and the first puzzle; then the second, cut or broken.
    let head = &LIGHTS_OUT[..LIGHTS_OUT.find("0 0 1 0 1 0\n1 0 1").unwrap()];
    // A count of 1 and the first puzzle.
    let one = head.replacen('2', "1", 1);
    let first_answer = &LIGHTS_OUT_ANSWER[..LIGHTS_OUT_ANSWER.find("PUZZLE #2").unwrap()];
    let cases: &[(String, &str, &str)] = &[
        // (An input of only whitespace has no puzzles: tests/cli/streams.rs.)
        ("x\n".into(), "", "1:1: expected a puzzle count, found 'x'"),
        (
            "2 2\n".into(),
            "",
            "1:3: expected the end of the line after the puzzle count, found '2'",
        ),
        // The count asks for more puzzles than there are.
        (
            LIGHTS_OUT.replacen('2', "3", 1),
            LIGHTS_OUT_ANSWER,
            "12:1: expected another puzzle (the puzzle count asks for more), found end of input",
        ),
        (
            format!("{head}0 0 1 0 1\n"),
            first_answer,
            "7:10: expected another cell (the row is short), found end of line",
        ),
        (
            format!("{head}0 0 1 0 1 0\n1 0 1 0 1 1\n0 0 1 3 1 1\n"),
            first_answer,
            "9:7: expected '0' or '1', found '3'",
        ),
        (
            format!("{head}0 0 1 0 1 0\n\n"),
            first_answer,
            "8:1: expected a row of six lights, '0' or '1', found a blank line",
        ),
        (
            format!("{head}0 0 1 0 1 0 1\n"),
            first_answer,
            "7:13: expected the end of the row after its last cell, found '1'",
        ),
        // Puzzles past the count.
        (
            format!("{one}0 0 1 0 1 0\n1 0 1 0 1 1\n0 0 1 0 1 1\n1 0 1 1 0 0\n0 1 0 1 0 0\n"),
            first_answer,
            "7:1: expected the end of the input after the last case, found '0'",
        ),
    ];
    for (input, answers, error) in cases {
        assert_fails(
            &["lightsout"],
            input,
            answers,
            &format!("error: <stdin>:{error}"),
        );
    }
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &["fliptile", "--format", "xml"][..],
        &["fliptile", "--max-nullity", "65"],
        &["fliptile", "--max-nullity", "-1"],
        &["lightsout", "--bogus"],
        &["lightsout", "a", "b"],
    ] {
        let r = run(args, FLIPTILE);
        assert_eq!(r.code, 2, "{args:?}");
        assert_eq!(r.stdout, "");
        assert!(!r.stderr.is_empty());
    }
}

#[test]
fn help_and_demo() {
    let help = ok(&["--help"], "");
    for name in ["fliptile", "poj3279", "lightsout", "poj1222", "uva1560"] {
        assert!(help.contains(name), "{name}: {help}");
    }
    let demo = ok(&["demo"], "");
    let fliptile = &demo[demo.find("== Fliptile").expect("a Fliptile section")..];
    assert!(fliptile.contains("Case 1: 4x4 tiles, 4 flips make every tile white\n"));
    assert!(fliptile.contains("PUZZLE #1: 13 presses turn every light off\n"));
    assert!(fliptile.contains("PUZZLE #2: 15 presses turn every light off\n"));
}

/// Runs `boardbase ARGS` under a 256 MiB address-space cap (`ulimit -v`):
/// a declared size that decided an allocation would abort it.
fn run_capped(args: &[&str], stdin: Vec<u8>) -> common::Run {
    common::run_capped(args, stdin, 256 * 1024)
}

#[test]
fn ten_megabyte_lines_fail_fast_in_flat_memory() {
    const TEN_MB: usize = 10_000_000;
    // A row that never ends: the error comes after its 64th cell.
    let mut input = format!("{FLIPTILE}1 64\n").into_bytes();
    input.extend(b"0 ".repeat(TEN_MB / 2));
    let r = run_capped(&["fliptile"], input);
    assert_eq!(r.stdout, FLIPTILE_ANSWER);
    assert_eq!(
        r.stderr,
        "error: <stdin>:7:129: expected the end of the row after its last cell, found '0'\n"
    );
    assert_eq!(r.code, 1);
    // Ten million blanks, then nothing: no case, no error.
    let r = run_capped(&["fliptile"], vec![b' '; TEN_MB]);
    assert_eq!((r.code, r.stdout.as_str(), r.stderr.as_str()), (0, "", ""));
    // Ten million blanks, then a letter: the column is exact.
    let mut input = vec![b' '; TEN_MB];
    input.push(b'x');
    let r = run_capped(&["fliptile"], input);
    assert_eq!(
        r.stderr,
        "error: <stdin>:1:10000001: expected a number of rows M from 1 to 64, found 'x'\n"
    );
    // A puzzle count of 10^18 with one puzzle.
    let input = LIGHTS_OUT.replacen('2', "1000000000000000000", 1);
    let r = run_capped(&["lightsout"], input.into_bytes());
    assert_eq!(r.stdout, LIGHTS_OUT_ANSWER);
    assert!(
        r.stderr
            .starts_with("error: <stdin>:12:1: expected another puzzle")
    );
    assert_eq!(r.code, 1);
}

#[test]
fn many_cases_stream_and_match_the_library() {
    use boardbase::lights::{self, Goal, Grid};
    use boardbase::tables::shape::Shape;
    // 300 cases of every size from 1×1 to 15×15 in turn, pseudo-random.
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let mut input = String::new();
    let mut expected = String::new();
    for case in 0..300 {
        let (rows, cols) = (1 + case % 15, 1 + (case * 7) % 15);
        let shape = Shape::new(rows, cols).unwrap();
        writeln!(input, "{rows} {cols}").unwrap();
        let mut bits = Vec::new();
        for _ in 0..rows {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let row = x & shape.row_mask();
            bits.push(row);
            let cells: Vec<String> = (0..cols).map(|c| (row >> c & 1).to_string()).collect();
            writeln!(input, "{}", cells.join(" ")).unwrap();
        }
        let board = Grid::from_rows(shape, &bits).unwrap();
        match lights::solve(&board, Goal::White).unwrap() {
            None => expected.push_str("IMPOSSIBLE\n"),
            Some(a) => {
                for line in a.presses.show('1', '0').to_string().lines() {
                    let spaced: Vec<String> = line.chars().map(String::from).collect();
                    writeln!(expected, "{}", spaced.join(" ")).unwrap();
                }
            }
        }
    }
    assert_eq!(ok(&["fliptile"], &input), expected);
}
