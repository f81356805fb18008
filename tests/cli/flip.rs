//! `boardbase flip` end to end: formats, input rules, errors and exit codes.

use crate::common;
use crate::oracle::samples;

use common::{TempFile, ok, run};

const SAMPLE: &str = samples::FLIP;
const TIMUS: &str = "bwbw\nwwww\nbbwb\nbwwb\n";

#[test]
fn judge_sample_and_alias() {
    assert_eq!(ok(&["flip"], SAMPLE), "4\n");
    assert_eq!(ok(&["poj1753"], SAMPLE), "4\n");
    assert_eq!(ok(&["flip"], TIMUS), "Impossible\n");
    assert_eq!(ok(&["flip", "-"], SAMPLE), "4\n");
}

#[test]
fn many_boards_with_or_without_blank_lines() {
    let uniform = "wwww\nwwww\nwwww\nwwww\n";
    let joined = format!("{SAMPLE}{TIMUS}{uniform}");
    assert_eq!(ok(&["flip"], &joined), "4\nImpossible\n0\n");
    let spaced = format!("\n\n{SAMPLE}\n{TIMUS}\n\n   \n{uniform}\n\n");
    assert_eq!(ok(&["flip"], &spaced), "4\nImpossible\n0\n");
}

#[test]
fn tolerant_input() {
    let crlf = SAMPLE.replace('\n', "\r\n");
    assert_eq!(ok(&["flip"], crlf), "4\n");
    assert_eq!(
        ok(&["flip"], "  bwwb  \n\tbbwb\nbwwb \t\nbwww"),
        "4\n",
        "no final newline"
    );
    assert_eq!(
        ok(&["flip"], format!("{SAMPLE}{}", TIMUS.trim_end())),
        "4\nImpossible\n"
    );
}

#[test]
fn board_option() {
    assert_eq!(ok(&["flip", "--board", "bwwb/bbwb/bwwb/bwww"], ""), "4\n");
    assert_eq!(
        ok(&["flip", "--board", "bwbw/wwww/bbwb/bwwb"], ""),
        "Impossible\n"
    );
    let r = run(&["flip", "--board", "bwwb/bbwb/bwxb/bwww"], "");
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .contains("column 13: expected 'b' or 'w', found 'x'"),
        "{}",
        r.stderr
    );
    let r = run(&["flip", "--board", "bwwb/bbwb"], "");
    assert_eq!(r.code, 2);
    let f = TempFile::new("flip-board-conflict.txt", SAMPLE);
    let r = run(&["flip", f.path(), "--board", "bwwb/bbwb/bwwb/bwww"], "");
    assert_eq!(r.code, 2, "FILE and --board conflict");
}

#[test]
fn file_argument() {
    let f = TempFile::new("flip-two.txt", format!("{SAMPLE}\n{TIMUS}"));
    assert_eq!(ok(&["flip", f.path()], ""), "4\nImpossible\n");
    let r = run(&["flip", "/nonexistent/boards.txt"], "");
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.starts_with("error: /nonexistent/boards.txt: "),
        "{}",
        r.stderr
    );
}

#[test]
fn pretty_format() {
    let out = ok(&["flip", "--format", "pretty"], format!("{SAMPLE}{TIMUS}"));
    let expected = "\
Board 1: 4 rounds to all white
  board  press  after
  bwwb   x...   wwww
  bbwb   .x.x   wwww
  bwwb   x...   wwww
  bwww   ....   wwww
  2 optimal press sets; to all white: 4 rounds, to all black: 4 rounds

Board 2: Impossible (neither all white nor all black can be reached)
  bwbw
  wwww
  bbwb
  bwwb

";
    assert_eq!(out, expected);
    let uniform = ok(
        &[
            "flip",
            "--format",
            "pretty",
            "--board",
            "bbbb/bbbb/bbbb/bbbb",
        ],
        "",
    );
    assert!(
        uniform.starts_with("Board 1: 0 rounds, already all black\n"),
        "{uniform}"
    );
}

#[test]
fn json_format() {
    let out = ok(&["flip", "--format", "json"], format!("{SAMPLE}{TIMUS}"));
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    let a = &lines[0];
    assert_eq!(a["case"], 1);
    assert_eq!(a["board"], "bwwb/bbwb/bwwb/bwww");
    assert_eq!(a["answer"], "4");
    assert_eq!(a["solvable"], true);
    assert_eq!(a["rounds"], 4);
    assert_eq!(a["colour"], "white");
    assert_eq!(
        a["presses"],
        serde_json::json!([[0, 0], [1, 1], [1, 3], [2, 0]])
    );
    assert_eq!(a["optimal_sets"], 2);
    assert_eq!(a["to_black"]["rounds"], 4);
    assert_eq!(a["to_white"]["optimal_sets"], 1);
    let b = &lines[1];
    assert_eq!(b["case"], 2);
    assert_eq!(b["answer"], "Impossible");
    assert_eq!(b["solvable"], false);
    assert!(b["rounds"].is_null() && b["presses"].is_null() && b["to_white"].is_null());
}

#[test]
fn bad_input_prints_earlier_answers_then_the_error() {
    let r = run(&["flip"], format!("{SAMPLE}\n{TIMUS}bwwb\nbbxb\n"));
    assert_eq!(r.code, 1);
    assert_eq!(r.stdout, "4\nImpossible\n");
    assert_eq!(
        r.stderr,
        "error: <stdin>:11:3: expected 'b' or 'w', found 'x'\n"
    );
}

#[test]
fn every_kind_of_bad_input_has_a_position() {
    let cases: &[(&str, &str)] = &[
        (
            "bwwb\nbbwb\n",
            "error: <stdin>:3:1: expected the third row of a board, found end of input\n",
        ),
        (
            "bwwb\nbbwb\n\nbwwb\nbwww\n",
            "error: <stdin>:3:1: expected the third row of a board, found a blank line\n",
        ),
        (
            "bwwb\nbbw\nbwwb\nbwww\n",
            "error: <stdin>:2:4: expected 'b' or 'w', found end of line\n",
        ),
        (
            "bwwb\nbbwbb\nbwwb\nbwww\n",
            "error: <stdin>:2:5: expected the end of the row after 4 cells, found 'b'\n",
        ),
        (
            "bwwb\nbBwb\nbwwb\nbwww\n",
            "error: <stdin>:2:2: expected 'b' or 'w', found 'B'\n",
        ),
        (
            "bwwb\nb\u{e9}wb\nbwwb\nbwww\n",
            "error: <stdin>:2:2: expected 'b' or 'w', found '\u{e9}'\n",
        ),
        (
            "bwwb\r\nbw\twb\r\n",
            "error: <stdin>:2:3: expected 'b' or 'w', found byte 0x09\n",
        ),
    ];
    for (input, expected) in cases {
        let r = run(&["flip"], input);
        assert_eq!(r.code, 1, "input {input:?}");
        assert_eq!(&r.stderr, expected, "input {input:?}");
        assert_eq!(r.stdout, "", "input {input:?}");
    }
    // Bytes that are not UTF-8 are named, not mangled.
    let r = run(&["flip"], b"bwwb\nbw\xffb\n".as_slice());
    assert_eq!(r.code, 1);
    assert_eq!(
        r.stderr,
        "error: <stdin>:2:3: expected 'b' or 'w', found byte 0xff\n"
    );
}

#[test]
fn errors_in_files_name_the_file() {
    let f = TempFile::new("flip-bad.txt", format!("{SAMPLE}bwwb\n"));
    let r = run(&["flip", f.path()], "");
    assert_eq!(r.code, 1);
    assert_eq!(r.stdout, "4\n");
    assert_eq!(
        r.stderr,
        format!(
            "error: {}:6:1: expected the second row of a board, found end of input\n",
            f.path()
        )
    );
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(run(&["flip", "--format", "xml"], SAMPLE).code, 2);
    assert_eq!(run(&["flip", "--nope"], SAMPLE).code, 2);
    assert_eq!(run(&["nope"], "").code, 2);
    assert_eq!(run(&[], "").code, 2);
}

#[test]
fn large_input_streams_across_buffer_refills() {
    // 100,000 boards cross many refills of the 256 KiB buffer, in both the
    // canonical layout and a CRLF layout that takes the general path.
    let boards = [
        "bwwb\nbbwb\nbwwb\nbwww\n",
        "bwbw\nwwww\nbbwb\nbwwb\n",
        "wwww\nwwww\nwwww\nwwww\n",
    ];
    let answers = ["4\n", "Impossible\n", "0\n"];
    let input: String = (0..100_000).map(|i| boards[i % 3]).collect();
    let expected: String = (0..100_000).map(|i| answers[i % 3]).collect();
    assert_eq!(ok(&["flip"], &input), expected);
    assert_eq!(ok(&["flip"], input.replace('\n', "\r\n")), expected);
}

#[test]
fn demo_shows_the_samples() {
    let out = ok(&["demo"], "");
    assert!(out.contains("Flip Game (POJ 1753)"));
    assert!(out.contains("Board 1: 4 rounds to all white"));
    assert!(out.contains("Board 2: Impossible"));
}

/// One round is "1 round" wherever the pretty form counts rounds.
#[test]
fn pretty_says_one_round() {
    // One press at the corner from all white.
    let text = ok(
        &[
            "flip",
            "--board",
            "bbww/bwww/wwww/wwww",
            "--format",
            "pretty",
        ],
        "",
    );
    assert!(
        text.starts_with("Board 1: 1 round to all white\n"),
        "{text}"
    );
    assert!(
        text.contains("to all white: 1 round, to all black: "),
        "{text}"
    );
    assert!(!text.contains("1 rounds"), "{text}");
    let text = ok(
        &[
            "flip", "--size", "2x3", "--board", "bbw/bww", "--format", "pretty",
        ],
        "",
    );
    assert!(text.contains("to all white: 1 round,"), "{text}");
    assert!(!text.contains("1 rounds"), "{text}");
}

#[test]
fn a_board_of_another_width_without_size_hints_at_size() {
    // On a line of its own: the error's line reads as it would alone.
    const HINT: &str =
        "\nhint: --size RxC answers other board sizes (a board read as 4x4 for want of it)";
    let five = "bwbwb\nbwbwb\nbwbwb\nbwbwb\nbwbwb\n";
    let three = "bwb\nbwb\nbwb\n";
    for format in ["judge", "json", "pretty"] {
        // Read as 4×4 for want of --size: the first row is too long or too
        // short, and the error says how to give the size.
        let r = run(&["flip", "--format", format], five);
        assert_eq!(
            r.stderr,
            format!(
                "error: <stdin>:1:5: expected the end of the row after 4 cells, found 'b'{HINT}\n"
            ),
            "{format}"
        );
        assert_eq!((r.code, r.stdout.as_str()), (1, ""), "{format}");
        let r = run(&["flip", "--format", format], three);
        assert_eq!(
            r.stderr,
            format!("error: <stdin>:1:4: expected 'b' or 'w', found end of line{HINT}\n"),
            "{format}"
        );
        // With the size given, the same board is an error in that size's
        // words, and no hint: the user chose it.
        let r = run(&["flip", "--size", "4x4", "--format", format], five);
        assert_eq!(
            r.stderr, "error: <stdin>:1:5: expected the end of the row after 4 cells, found 'b'\n",
            "{format}"
        );
        // After a board of 4×4, a row of another width is a slip in that
        // row, not a board of another size: no hint.
        let r = run(
            &["flip", "--format", format],
            "bwwb\nbbwb\nbwwb\nbwww\n\nbwwbb\nbbwb\nbwwb\nbwww\n",
        );
        assert_eq!(
            r.stderr, "error: <stdin>:6:5: expected the end of the row after 4 cells, found 'b'\n",
            "{format}"
        );
        assert_eq!(r.code, 1);
        // A bad cell in the first row is no matter of size.
        let r = run(&["flip", "--format", format], "bwwx\nbbwb\nbwwb\nbwww\n");
        assert_eq!(
            r.stderr, "error: <stdin>:1:4: expected 'b' or 'w', found 'x'\n",
            "{format}"
        );
        let r = run(&["flip", "--format", format], "bwwbx\nbbwb\nbwwb\nbwww\n");
        assert_eq!(
            r.stderr, "error: <stdin>:1:5: expected the end of the row after 4 cells, found 'x'\n",
            "{format}"
        );
    }
    // The same board with its size is answered: one answer, no error.
    let r = run(&["flip", "--size", "5x5"], five);
    assert_eq!((r.code, r.stderr.as_str()), (0, ""));
    assert_eq!(r.stdout.lines().count(), 1, "{}", r.stdout);
    // A file as well as standard input.
    let file = TempFile::new("flip-5x5.txt", five);
    let r = run(&["flip", file.path()], "");
    assert_eq!(
        r.stderr,
        format!(
            "error: {}:1:5: expected the end of the row after 4 cells, found 'b'{HINT}\n",
            file.path()
        )
    );
}
