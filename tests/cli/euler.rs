//! `boardbase euler` end to end: the built binary on judge input, tolerant
//! layouts, the pretty and JSON formats, and bad input.

use crate::common;
use crate::oracle::samples;

use common::{Run, TempFile, ok, run};

const SAMPLE: &str = samples::EULER;

const SAMPLE_ANSWERS: &str = samples::EULER_ANSWER;

fn euler(stdin: &str) -> Run {
    run(&["euler"], stdin)
}

/// Asserts that the answers so far were printed, then `error` alone on
/// stderr, with exit status 1.
fn assert_fails(r: &Run, answers: &str, error: &str) {
    assert_eq!(r.stdout, answers);
    assert_eq!(r.stderr, format!("error: {error}\n"));
    assert_eq!(r.code, 1);
}

#[test]
fn judge_sample() {
    assert_eq!(ok(&["euler"], SAMPLE), SAMPLE_ANSWERS);
    assert_eq!(ok(&["uva10536"], SAMPLE), SAMPLE_ANSWERS);
    assert_eq!(ok(&["euler", "-"], SAMPLE), SAMPLE_ANSWERS);
    assert_eq!(ok(&["euler", "--format", "judge"], SAMPLE), SAMPLE_ANSWERS);
}

#[test]
fn tolerant_layouts() {
    let packed = "3\nXXX.\nXXX.\n.XXX\n.XXX\nXXXX\n...X\nXX.X\nXX.X\n....\n....\n....\n....\n";
    assert_eq!(ok(&["euler"], packed), SAMPLE_ANSWERS);
    assert_eq!(ok(&["euler"], SAMPLE.replace('\n', "\r\n")), SAMPLE_ANSWERS);
    let untidy = "  3  \n\n \t\nXXX. \nXXX.\t\n  .XXX\n.XXX\n\n\nXXXX\n...X\nXX.X\nXX.X\n  \n\
                  ....\n....\n....\n....\n\n\n  \n";
    assert_eq!(ok(&["euler"], untidy), SAMPLE_ANSWERS);
    // No final newline.
    assert_eq!(ok(&["euler"], SAMPLE.trim_end()), SAMPLE_ANSWERS);
}

#[test]
fn full_board_and_zero_cases() {
    assert_eq!(ok(&["euler"], "1\n\nXXXX\nXXXX\nXXXX\nXXXX\n"), "WINNING\n");
    assert_eq!(
        ok(
            &["euler"],
            "2\nXXXX\nXXXX\nXXXX\nXXX.\nXXXX\nXXXX\nXXXX\nXX..\n"
        ),
        "LOSING\nWINNING\n"
    );
    assert_eq!(ok(&["euler"], "0\n"), "");
    assert_eq!(ok(&["euler"], "0\n\n  \n"), "");
}

#[test]
fn many_cases_stream() {
    let boards = ["....\n....\n....\n....\n", "XXXX\n...X\nXX.X\nXX.X\n"];
    let n = 50_000;
    let mut input = format!("{n}\n");
    for i in 0..n {
        input.push('\n');
        input.push_str(boards[i % 2]);
    }
    let stdout = ok(&["euler"], &input);
    assert_eq!(stdout, "LOSING\nWINNING\n".repeat(n / 2));
}

#[test]
fn pretty_format() {
    let stdout = ok(&["euler", "--format", "pretty"], SAMPLE);
    let expected_second = "\
Board 2: WINNING, 4 moves left with perfect play
  board  best move
  XXXX   XXXX
  ...X   ..oX
  XX.X   XX.X
  XX.X   XX.X
  best move covers (1,2); winning moves: 1 of 9 legal
";
    assert!(stdout.contains(expected_second), "{stdout}");
    assert!(stdout.starts_with("Board 1: LOSING, 3 moves left with perfect play\n"));
    assert!(stdout.contains("Board 3: LOSING, 13 moves left with perfect play\n"));
    assert!(
        stdout.contains(
            "  best move covers (0,1), resisting longest; winning moves: 0 of 48 legal\n"
        )
    );
    assert_eq!(stdout.matches("Board ").count(), 3);

    let full = ok(
        &["euler", "--format", "pretty"],
        "1\nXXXX\nXXXX\nXXXX\nXXXX\n",
    );
    assert_eq!(
        full,
        "Board 1: WINNING, game over (the opponent covered the last square)\n  XXXX\n  XXXX\n  XXXX\n  XXXX\n\n"
    );
}

#[test]
fn json_format() {
    let stdout = ok(&["euler", "--format", "json"], SAMPLE);
    let lines: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object a line"))
        .collect();
    assert_eq!(lines.len(), 3);
    let expect = [
        ("XXX./XXX./.XXX/.XXX", "LOSING", "loss", 3, 0, 6),
        ("XXXX/...X/XX.X/XX.X", "WINNING", "win", 4, 1, 9),
        ("..../..../..../....", "LOSING", "loss", 13, 0, 48),
    ];
    for (i, (v, (board, answer, outcome, left, wins, legal))) in
        lines.iter().zip(expect).enumerate()
    {
        assert_eq!(v["case"], i + 1);
        assert_eq!(v["board"], board);
        assert_eq!(v["answer"], answer);
        assert_eq!(v["outcome"], outcome);
        assert_eq!(v["moves_left"], left);
        assert_eq!(v["winning_moves"], wins);
        assert_eq!(v["legal_moves"], legal);
    }
    assert_eq!(
        lines[1]["best_move"],
        serde_json::json!({"mask": 64, "cells": [[1, 2]]})
    );
    for v in &lines {
        let mask = v["best_move"]["mask"].as_u64().unwrap();
        let cells = v["best_move"]["cells"].as_array().unwrap();
        let from_cells: u64 = cells
            .iter()
            .map(|c| 1 << (4 * c[0].as_u64().unwrap() + c[1].as_u64().unwrap()))
            .sum();
        assert_eq!(mask, from_cells);
    }

    let full = ok(
        &["euler", "--format", "json"],
        "1\nXXXX\nXXXX\nXXXX\nXXXX\n",
    );
    let v: serde_json::Value = serde_json::from_str(full.trim_end()).unwrap();
    assert_eq!(v["answer"], "WINNING");
    assert_eq!(v["moves_left"], 0);
    assert!(v["best_move"].is_null());
    assert_eq!(
        (&v["winning_moves"], &v["legal_moves"]),
        (&0.into(), &0.into())
    );
}

#[test]
fn bad_counts() {
    // An input of only whitespace has no cases (tests/cli/streams.rs); a
    // board where the count should be is an error.
    assert_fails(
        &euler("XXX.\nXXX.\n.XXX\n.XXX\n"),
        "",
        "<stdin>:1:1: expected a case count, found 'X'",
    );
    assert_fails(
        &euler("-1\n....\n....\n....\n....\n"),
        "",
        "<stdin>:1:1: expected a case count, found '-'",
    );
    assert_fails(
        &euler("  18446744073709551616\n....\n....\n....\n....\n"),
        "",
        "<stdin>:1:3: expected a case count, found a number too large",
    );
    assert_fails(
        &euler("3x\n"),
        "",
        "<stdin>:1:2: expected a case count, found 'x'",
    );
    assert_fails(
        &euler("1 2\n....\n....\n....\n....\n"),
        "",
        "<stdin>:1:3: expected the end of the line after the case count, found '2'",
    );
}

#[test]
fn count_larger_than_the_boards_given() {
    let two = SAMPLE
        .replacen('3', "4", 1)
        .replace("\n....\n....\n....\n....\n", "\n");
    let two = two.trim_end().to_owned() + "\n";
    assert_fails(
        &euler(&two),
        "LOSING\nWINNING\n",
        "<stdin>:12:1: expected another board (the case count asks for more), found end of input",
    );
    assert_fails(
        &euler(&SAMPLE.replacen('3', "4", 1)),
        SAMPLE_ANSWERS,
        "<stdin>:17:1: expected another board (the case count asks for more), found end of input",
    );
    // A huge count is read, not trusted: nothing is allocated from it.
    assert_fails(
        &euler("18446744073709551615\n....\n....\n....\n....\n"),
        "LOSING\n",
        "<stdin>:6:1: expected another board (the case count asks for more), found end of input",
    );
    // A board cut short.
    assert_fails(
        &euler("2\n....\n....\n....\n....\nXXXX\nXX.X\n"),
        "LOSING\n",
        "<stdin>:8:1: expected the third row of a board, found end of input",
    );
}

#[test]
fn bad_boards_point_at_line_and_column() {
    assert_fails(
        &euler("2\n\nXXXX\n...X\nXX.X\nXX.X\n\nXXX.\nXYX.\n.XXX\n.XXX\n"),
        "WINNING\n",
        "<stdin>:9:2: expected 'X' or '.', found 'Y'",
    );
    assert_fails(
        &euler("1\n\nXXX\nXXX.\n.XXX\n.XXX\n"),
        "",
        // The first board's first row of 3 cells: another size, maybe.
        "<stdin>:3:4: expected 'X' or '.', found end of line\nhint: --size RxC answers other board sizes (a board read as 4x4 for want of it)",
    );
    assert_fails(
        &euler("1\n\nXXX..\nXXX.\n.XXX\n.XXX\n"),
        "",
        "<stdin>:3:5: expected the end of the row after 4 cells, found '.'\nhint: --size RxC answers other board sizes (a board read as 4x4 for want of it)",
    );
    // A 5×5 board: the hint in every format, none with the size given.
    let five = euler("1\n.....\n.....\n.....\n.....\n.....\n");
    assert_fails(
        &five,
        "",
        "<stdin>:2:5: expected the end of the row after 4 cells, found '.'\nhint: --size RxC answers other board sizes (a board read as 4x4 for want of it)",
    );
    for format in ["json", "pretty"] {
        let r = run(
            &["euler", "--format", format],
            "1\n.....\n.....\n.....\n.....\n.....\n",
        );
        assert_fails(
            &r,
            "",
            "<stdin>:2:5: expected the end of the row after 4 cells, found '.'\nhint: --size RxC answers other board sizes (a board read as 4x4 for want of it)",
        );
    }
    let r = run(
        &["euler", "--size", "4x4"],
        "1\n.....\n.....\n.....\n.....\n.....\n",
    );
    assert_fails(
        &r,
        "",
        "<stdin>:2:5: expected the end of the row after 4 cells, found '.'",
    );
    // The second board's row is a slip in it: no hint.
    assert_fails(
        &euler("2\nXXX.\nXXX.\n.XXX\n.XXX\nXXX..\nXXX.\n.XXX\n.XXX\n"),
        "LOSING\n",
        "<stdin>:6:5: expected the end of the row after 4 cells, found '.'",
    );
    assert_fails(
        &euler("1\n\nXXX.\n\nXXX.\n.XXX\n.XXX\n"),
        "",
        "<stdin>:4:1: expected the second row of a board, found a blank line",
    );
    assert_fails(
        &euler("1\nxxx.\n"),
        "",
        "<stdin>:2:1: expected 'X' or '.', found 'x'",
    );
}

#[test]
fn trailing_boards_after_the_count_are_an_error() {
    let input = "1\n....\n....\n....\n....\n\nXXXX\nXXXX\nXXXX\nXXX.\n";
    assert_fails(
        &euler(input),
        "LOSING\n",
        "<stdin>:7:1: expected the end of the input after the last case, found 'X'",
    );
}

#[test]
fn file_argument() {
    let file = TempFile::new("euler-sample.txt", SAMPLE);
    assert_eq!(ok(&["euler", file.path()], ""), SAMPLE_ANSWERS);

    let file = TempFile::new("euler-bad.txt", "2\n....\n....\n....\n....\n");
    let r = run(&["euler", file.path()], "");
    let error = format!(
        "{}:6:1: expected another board (the case count asks for more), found end of input",
        file.path()
    );
    assert_fails(&r, "LOSING\n", &error);

    let r = run(&["euler", "/nonexistent/euler-input.txt"], "");
    assert_eq!(r.code, 1);
    assert_eq!(r.stdout, "");
    assert!(
        r.stderr
            .starts_with("error: /nonexistent/euler-input.txt: "),
        "{}",
        r.stderr
    );
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &["euler", "--format", "xml"][..],
        &["euler", "--bogus"],
        &["euler", "a", "b"],
    ] {
        let r = run(args, SAMPLE);
        assert_eq!(r.code, 2, "{args:?}");
        assert_eq!(r.stdout, "");
        assert!(!r.stderr.is_empty());
    }
}

#[test]
fn help_and_demo() {
    let help = ok(&["--help"], "");
    assert!(
        help.contains("euler") && help.contains("uva10536"),
        "{help}"
    );

    let stdout = ok(&["demo"], "");
    let euler = &stdout[stdout.find("Game of Euler").expect("an Euler section")..];
    assert!(euler.contains("Board 1: LOSING, 3 moves left"));
    assert!(euler.contains("Board 2: WINNING, 4 moves left"));
    assert!(euler.contains("Board 3: LOSING, 13 moves left"));
}
