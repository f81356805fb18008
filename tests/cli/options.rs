//! The option groups every subcommand shares: `--board` on every
//! solver, `--max-nullity`, `--jobs`, `--table`/`--tables`/`--size` on
//! `check`, the `cases` name (and its old name `gen`), and one help text
//! per option. Answers are checked against the oracles in `tests/oracle`.

use std::collections::BTreeMap;

use boardbase::tables::shape::Shape;
use serde_json::Value;

use crate::common::{self, TempDir, TempFile, ok, run};
use crate::oracle::{carcassonne as carc, euler as euler_oracle, press, tables};

/// A board of `0`/`1` (or `b`/`w`, `X`/`.`) rows separated by `/` as a
/// mask: cell (r, c) at bit C·r + c, set for `one`.
fn mask(text: &str, one: char) -> (usize, usize, u64) {
    let rows: Vec<&str> = text.split('/').collect();
    let cols = rows[0].len();
    let mut bits = 0u64;
    for (r, row) in rows.iter().enumerate() {
        for (c, ch) in row.chars().enumerate() {
            if ch == one {
                bits |= 1 << (r * cols + c);
            }
        }
    }
    (rows.len(), cols, bits)
}

/// A judge's grid of `0`/`1` separated by blanks as a mask.
fn grid_mask(text: &str, cols: usize) -> u64 {
    text.lines()
        .enumerate()
        .flat_map(|(r, line)| {
            line.split_whitespace()
                .enumerate()
                .filter(|(_, t)| *t == "1")
                .map(move |(c, _)| 1u64 << (r * cols + c))
        })
        .fold(0, |a, b| a | b)
}

/// The fewest presses that turn `board` to 0, by brute force over every
/// press set (boards of at most 20 cells).
fn fewest_to_clear(rows: usize, cols: usize, board: u64) -> Option<u32> {
    (0..1u64 << (rows * cols))
        .filter(|&x| press::effect(rows, cols, x) == board)
        .map(u64::count_ones)
        .min()
}

#[test]
fn euler_board_answers_as_the_oracle_on_4x4_and_other_sizes() {
    for (size, boards) in [
        (
            "4x4",
            &[
                "XX../X.../..../....",
                "..../..../..../....",
                "XXXX/XXXX/XXXX/XXX.",
                "XXXX/XXXX/XXXX/XXXX",
                "X.X./.X.X/X.X./.X.X",
            ][..],
        ),
        ("3x3", &["X../.../...", "XXX/X.X/XXX", ".../.../..."][..]),
        ("2x5", &["X...X/.XX..", "...../....."][..]),
    ] {
        let shape: Shape = Shape::parse(size).expect("a size");
        let moves: Vec<u64> = euler_oracle::moves(shape.rows(), shape.cols())
            .into_iter()
            .collect();
        let (wins, plies) = tables::solve_euler(shape, &moves);
        for board in boards {
            let (_, _, p) = mask(board, 'X');
            let want = if wins[p as usize] {
                "WINNING"
            } else {
                "LOSING"
            };
            let r = run(&["euler", "--size", size, "--board", board], "");
            assert_eq!(r.code, 0, "{board}: {}", r.stderr);
            assert_eq!(r.stdout, format!("{want}\n"), "{size} {board}");
            // JSON through the same writer: the answer and the moves left.
            let r = run(
                &[
                    "euler", "--size", size, "--board", board, "--format", "json",
                ],
                "",
            );
            let v: Value = serde_json::from_str(r.stdout.trim()).expect("one JSON line");
            assert_eq!(v["answer"], want, "{board}");
            assert_eq!(v["case"], 1);
            if p != shape.full() {
                assert_eq!(v["moves_left"], u64::from(plies[p as usize]), "{board}");
            }
            // Pretty names the answer.
            let r = run(
                &[
                    "euler", "--size", size, "--board", board, "--format", "pretty",
                ],
                "",
            );
            assert!(
                r.stdout.starts_with(&format!("Board 1: {want}")),
                "{}",
                r.stdout
            );
        }
    }
}

#[test]
fn fliptile_board_presses_replayed_by_the_oracle_are_the_fewest() {
    for board in [
        "1001/0110/0110/1001",
        "111/101/111",
        "10/01",
        "0000/0000",
        "1",
    ] {
        let (rows, cols, bits) = mask(board, '1');
        let out = ok(&["fliptile", "--board", board], "");
        let want = fewest_to_clear(rows, cols, bits);
        match want {
            None => assert_eq!(out, "IMPOSSIBLE\n", "{board}"),
            Some(k) => {
                let presses = grid_mask(&out, cols);
                assert_eq!(out.lines().count(), rows, "{board}: {out}");
                assert_eq!(press::apply(rows, cols, bits, presses), 0, "{board}: {out}");
                assert_eq!(presses.count_ones(), k, "{board}: {out}");
            }
        }
        // The same answer as the judge's input of that one case.
        let cells: Vec<String> = board
            .split('/')
            .map(|r| r.chars().map(String::from).collect::<Vec<_>>().join(" "))
            .collect();
        let input = format!("{rows} {cols}\n{}\n", cells.join("\n"));
        assert_eq!(ok(&["fliptile"], input), out, "{board}");
    }
}

#[test]
fn lightsout_board_presses_turn_every_light_off() {
    let board = "011010/100111/001001/101001/011100";
    let (rows, cols, bits) = mask(board, '1');
    let out = ok(&["lightsout", "--board", board], "");
    let (head, grid) = out.split_once('\n').expect("a heading");
    assert_eq!(head, "PUZZLE #1");
    assert_eq!(press::apply(rows, cols, bits, grid_mask(grid, cols)), 0);
    // --max-nullity is accepted (5x6 has nullity 0: the same answer).
    assert_eq!(
        ok(&["lightsout", "--board", board, "--max-nullity", "0"], ""),
        out
    );
    let r = run(&["lightsout", "--board", "0110/1001"], "");
    assert_eq!(r.code, 2);
    assert_eq!(
        r.stderr,
        "error: --board 0110/1001: a 2x4 board, not 5x6 (Extended Lights Out boards are 5x6)\n"
    );
}

#[test]
fn carcassonne_board_counts_as_the_brute_force_oracle() {
    for (text, rows) in [
        ("CRFC RRFF/FFCC CRCR", vec!["CRFC RRFF", "FFCC CRCR"]),
        ("RRRF,FCCC", vec!["RRRF FCCC"]),
        ("RRRR", vec!["RRRR"]),
        (
            "CCCC, RRRR ,FFFF/RCRC,CRCR,FRFR",
            vec!["CCCC RRRR FFFF", "RCRC CRCR FRFR"],
        ),
    ] {
        let tiles: Vec<[u8; 4]> = rows
            .iter()
            .flat_map(|r| r.split(' '))
            .map(|t| t.as_bytes().try_into().expect("4 letters"))
            .collect();
        let plain = carc::Plain {
            rows: rows.len(),
            cols: rows[0].split(' ').count(),
            tiles,
        };
        let want = plain.brute_force();
        assert_eq!(
            ok(&["carcassonne", "--board", text], ""),
            format!("Case 1: {want}\n"),
            "{text}"
        );
        assert_eq!(
            ok(&["carcassonne", "--board", text, "--jobs", "1"], ""),
            format!("Case 1: {want}\n"),
            "{text}"
        );
        let v: Value = serde_json::from_str(
            ok(&["carcassonne", "--board", text, "--format", "json"], "").trim(),
        )
        .expect("JSON");
        assert_eq!(v["count"], want, "{text}");
    }
}

#[test]
fn a_bad_board_is_a_usage_error_with_its_column_on_every_solver() {
    for (args, column, expected, found) in [
        (
            &["flip", "--board", "bwwb/bbxb/bwwb/bwww"][..],
            8,
            "'b' or 'w'",
            "'x'",
        ),
        (
            &["euler", "--board", "XX.q/X.../..../...."][..],
            4,
            "'X' or '.'",
            "'q'",
        ),
        (
            &["fliptile", "--board", "10a1"][..],
            3,
            "a cell, '/' or the end of the row",
            "'a'",
        ),
        (
            &["lightsout", "--board", "01101x/100111/001001/101001/011100"][..],
            6,
            "'0' or '1'",
            "'x'",
        ),
        (
            &["carcassonne", "--board", "CRFC RRXF/FFCC CRCR"][..],
            8,
            "a tile edge 'C', 'R' or 'F'",
            "'X'",
        ),
        (
            &["carcassonne", "--board", "CRFC RRFF/FFCC"][..],
            15,
            "another tile (every row as long as the first)",
            "end of input",
        ),
        // A letter that is no edge is named as a character, not counted
        // in bytes as a tile of the wrong length.
        (
            &["carcassonne", "--board", "CRF\u{c9} RRFF"][..],
            4,
            "a tile edge 'C', 'R' or 'F'",
            "'\u{c9}'",
        ),
        (
            &["carcassonne", "--board", "CRFC RRFFF"][..],
            6,
            "a tile of 4 letters 'C', 'R' or 'F'",
            "5 characters",
        ),
    ] {
        let r = run(args, "");
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert_eq!(r.stdout, "");
        let text = args[2];
        assert_eq!(
            r.stderr,
            format!(
                "error: invalid value '{text}' for '--board <ROWS>': column {column}: expected {expected}, found {found}\n"
            ),
            "{args:?}"
        );
    }
    // A board of another shape than --size's.
    let r = run(&["euler", "--board", "X../.../..."], "");
    assert_eq!(r.code, 2);
    assert_eq!(
        r.stderr,
        "error: --board X../.../...: a 3x3 board, not 4x4 (--size gives the board size; the default is 4x4)\n"
    );
    // --board and FILE cannot be given together.
    for puzzle in ["flip", "euler", "carcassonne", "fliptile", "lightsout"] {
        let r = run(&[puzzle, "--board", "1", "input.txt"], "");
        assert_eq!(r.code, 2, "{puzzle}");
        assert!(
            r.stderr
                .contains("the argument '--board <ROWS>' cannot be used with '[FILE]'"),
            "{puzzle}: {}",
            r.stderr
        );
    }
}

#[test]
fn flip_max_nullity_solves_what_fliptile_solves() {
    // 64x64 has nullity 28: refused by default, answered with --max-nullity 28.
    let mut rows = vec!["w".repeat(64); 64];
    rows[0] = format!("b{}", "w".repeat(63));
    let board = rows.join("/");
    let r = run(&["flip", "--size", "64x64", "--board", &board], "");
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("nullity 28") && r.stderr.contains("--max-nullity"),
        "{}",
        r.stderr
    );
    let json = ok(
        &[
            "flip",
            "--size",
            "64x64",
            "--board",
            &board,
            "--max-nullity",
            "28",
            "--format",
            "json",
        ],
        "",
    );
    let flip: Value = serde_json::from_str(json.trim()).expect("JSON");
    // Fliptile on the same board (1 = black): the fewest flips to white.
    let tiles: Vec<String> = rows
        .iter()
        .map(|r| {
            r.chars()
                .map(|c| if c == 'b' { "1" } else { "0" })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    let input = format!("64 64\n{}\n", tiles.join("\n"));
    let out = ok(&["fliptile", "--max-nullity", "28"], &input);
    if out == "IMPOSSIBLE\n" {
        assert!(flip["to_white"].is_null(), "{json}");
    } else {
        // Replay fliptile's flips with the oracle: every tile white.
        let mut cells: Vec<u8> = rows
            .iter()
            .flat_map(|r| r.bytes().map(|b| u8::from(b == b'b')))
            .collect();
        let mut flips = 0u64;
        for (r, line) in out.lines().enumerate() {
            for (c, t) in line.split(' ').enumerate() {
                if t == "1" {
                    press::press_cells(64, 64, &mut cells, r, c);
                    flips += 1;
                }
            }
        }
        assert!(cells.iter().all(|&c| c == 0));
        assert_eq!(flip["to_white"]["rounds"], flips, "{json}");
    }
    // The judge format, too.
    let r = run(
        &[
            "flip",
            "--size",
            "64x64",
            "--board",
            &board,
            "--max-nullity",
            "28",
        ],
        "",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout.trim(), flip["answer"].as_str().expect("answer"));
}

/// The option's help lines in `boardbase SUBCOMMAND -h`: the text after
/// the option's name, joined.
fn short_help(subcommand: &str, option: &str) -> Option<String> {
    let mut args: Vec<&str> = subcommand.split_whitespace().collect();
    args.push("-h");
    let text = ok(&args, "");
    let start = format!("{option} ");
    let line = text.lines().find(|l| l.trim_start().starts_with(&start))?;
    // `--jobs <N>   Workers ...`: what follows the value name.
    let rest = line.trim_start()[start.len()..].trim_start();
    let rest = match rest.find("  ") {
        Some(i) if rest.starts_with('<') => rest[i..].trim_start(),
        _ => rest,
    };
    Some(rest.to_owned())
}

#[test]
fn a_shared_option_has_one_help_text_everywhere() {
    let subcommands = [
        "flip",
        "euler",
        "carcassonne",
        "fliptile",
        "lightsout",
        "lights solve",
        "lights info",
        "check",
        "cases",
        "generate",
        "serve",
        "verify",
        "export",
    ];
    let mut seen: BTreeMap<&str, Vec<(&str, String)>> = BTreeMap::new();
    for option in [
        "--jobs",
        "--max-nullity",
        "--table",
        "--tables",
        "--seed",
        "--size",
        "--board",
        "--colours",
        "--wrap",
        "--pattern",
        "--goal",
    ] {
        for sub in subcommands {
            if let Some(help) = short_help(sub, option) {
                seen.entry(option).or_default().push((sub, help));
            }
        }
    }
    let has = |option: &str| -> Vec<&str> { seen[option].iter().map(|(s, _)| *s).collect() };
    assert_eq!(
        has("--jobs"),
        [
            "flip",
            "euler",
            "carcassonne",
            "fliptile",
            "check",
            "generate",
            "serve"
        ]
    );
    assert_eq!(
        has("--max-nullity"),
        [
            "flip",
            "fliptile",
            "lightsout",
            "lights solve",
            "check",
            "cases",
            "serve"
        ]
    );
    assert_eq!(has("--table"), ["flip", "euler", "check", "cases", "serve"]);
    assert_eq!(
        has("--tables"),
        ["flip", "euler", "check", "cases", "serve"]
    );
    assert_eq!(
        has("--board"),
        [
            "flip",
            "euler",
            "carcassonne",
            "fliptile",
            "lightsout",
            "lights solve"
        ]
    );
    // The same text (an old name's alias may be named after it).
    for (option, prefix) in [
        ("--jobs", "Workers at once [default: the number of cores]"),
        (
            "--max-nullity",
            "Search the press sets of boards whose nullity is up to K",
        ),
        (
            "--table",
            "The table file to answer from (its puzzle and shape are read from it and checked)",
        ),
        (
            "--tables",
            "A directory to look for table files `euler-RxC.bin` / `flip-RxC.bin` in (repeatable; searched in order, before the directories of BOARDBASE_TABLES, colon-separated); one that does not exist is a usage error",
        ),
        (
            "--seed",
            "Seed of the random draws: the same arguments give the same bytes, always",
        ),
        ("--size", "Board size RxC (rows first), e.g. 5x5"),
    ] {
        for (sub, help) in &seen[option] {
            assert!(help.starts_with(prefix), "{sub} {option}: {help}");
        }
    }
    let first = &seen["--max-nullity"][0].1;
    assert!(first.ends_with("[default: 24]"), "{first}");
    for (sub, help) in &seen["--max-nullity"] {
        assert_eq!(help, first, "{sub}");
    }
    for (sub, help) in &seen["--jobs"] {
        match *sub {
            "generate" => assert!(help.contains("`--threads`, the old name"), "{help}"),
            "serve" => assert!(help.contains("`--count-workers`, the old name"), "{help}"),
            _ => assert_eq!(
                help, "Workers at once [default: the number of cores]",
                "{sub}"
            ),
        }
    }
    // The Lights Out family's variant and goal: one text on `lights
    // solve`, `lights info`, `check` and `cases`.
    for option in ["--colours", "--wrap", "--pattern"] {
        assert_eq!(
            has(option),
            ["lights solve", "lights info", "check", "cases"],
            "{option}"
        );
        for (sub, help) in &seen[option] {
            assert_eq!(help, &seen[option][0].1, "{sub} {option}");
        }
    }
    assert_eq!(has("--goal"), ["lights solve", "check", "cases"]);
    for (sub, help) in &seen["--goal"] {
        assert_eq!(help, &seen["--goal"][0].1, "{sub} --goal");
    }
    assert!(seen["--colours"][0].1.ends_with("[default: 2]"));
    for (sub, help) in &seen["--board"] {
        assert!(
            help.contains("this one") && help.contains("instead of reading input"),
            "{sub}: {help}"
        );
        assert!(help.contains("separated by `/`"), "{sub}: {help}");
    }
}

#[test]
fn jobs_zero_is_refused_the_same_way_everywhere() {
    let mut messages = Vec::new();
    for args in [
        &["flip", "--jobs", "0"][..],
        &["euler", "--jobs", "0"],
        &["carcassonne", "--jobs", "0"],
        &["fliptile", "--jobs", "0"],
        &["check", "flip", "--jobs", "0", "--", "true"],
        &["generate", "flip", "3x3", "--jobs", "0"],
        &["generate", "flip", "3x3", "--threads", "0"],
        &["serve", "--jobs", "0"],
        &["serve", "--count-workers", "0"],
    ] {
        let r = run(args, "");
        assert_eq!(r.code, 2, "{args:?}");
        let line = r.stderr.lines().next().unwrap_or_default().to_owned();
        assert!(
            line.contains("'0' is not a number of workers from 1 to 1024"),
            "{line}"
        );
        messages.push(
            line.replace("--threads", "--jobs")
                .replace("--count-workers", "--jobs"),
        );
    }
    assert!(messages.windows(2).all(|w| w[0] == w[1]), "{messages:?}");
}

#[test]
fn cases_is_the_name_and_gen_the_old_alias_with_the_same_bytes() {
    for args in [
        &["flip", "--cases", "20", "--seed", "3"][..],
        &["euler", "--size", "3x3", "--cases", "10", "--seed", "5"],
        &["fliptile", "--cases", "4", "--seed", "1"],
    ] {
        let mut new = vec!["cases"];
        new.extend(args);
        let mut old = vec!["gen"];
        old.extend(args);
        let a = run(&new, "");
        let b = run(&old, "");
        assert_eq!(a.code, 0, "{}", a.stderr);
        assert_eq!((a.code, &a.stdout), (b.code, &b.stdout), "{args:?}");
    }
    let help = ok(&["--help"], "");
    let line = help
        .lines()
        .find(|l| l.trim_start().starts_with("cases "))
        .expect("cases in the command list");
    assert!(
        line.contains("`gen`, the old name, is an alias to be removed in a later release")
            && line.contains("[alias: gen]"),
        "{line}"
    );
    assert!(!help.lines().any(|l| l.trim_start().starts_with("gen ")));
    let about = ok(&["cases", "--help"], "");
    assert!(
        about.contains("Not to be mixed up with `generate`"),
        "{about}"
    );
    let about = ok(&["generate", "--help"], "");
    assert!(about.contains("Not to be mixed up with `cases`"), "{about}");
}

/// The boards and answers `cases PUZZLE --size SIZE` writes for `n`
/// cases of `seed`.
fn drawn(puzzle: &str, size: &str, n: usize, seed: u64) -> (Vec<u64>, Vec<String>) {
    let dir = TempDir::new("options-drawn");
    let answers = dir.join("answers.txt");
    // Euler's table is made in memory: a note on stderr.
    let r = run(
        &[
            "cases",
            puzzle,
            "--size",
            size,
            "--cases",
            &n.to_string(),
            "--seed",
            &seed.to_string(),
            "--answers",
            answers.to_str().expect("a UTF-8 path"),
        ],
        "",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let input = r.stdout;
    let answers: Vec<String> = std::fs::read_to_string(&answers)
        .expect("answers")
        .lines()
        .map(str::to_owned)
        .collect();
    let shape = Shape::parse(size).expect("a size");
    let one = if puzzle == "flip" { b'b' } else { b'X' };
    let lines: Vec<&str> = input
        .lines()
        .skip(usize::from(puzzle == "euler"))
        .filter(|l| !l.is_empty())
        .collect();
    let boards = lines
        .chunks(shape.rows())
        .map(|rows| {
            rows.iter().enumerate().fold(0u64, |acc, (r, row)| {
                row.bytes().enumerate().fold(acc, |a, (c, b)| {
                    a | u64::from(b == one) << (r * shape.cols() + c)
                })
            })
        })
        .collect();
    (boards, answers)
}

/// `boardbase check ARGS -- PROGRAM` with the JSON report.
fn check_json(args: &[&str], program: &[&str]) -> (i32, Value) {
    let mut all = vec!["check"];
    all.extend(args);
    all.extend(["--format", "json", "--"]);
    all.extend(program);
    let r = run(&all, "");
    let v = serde_json::from_str(&r.stdout)
        .unwrap_or_else(|e| panic!("{e}: {} / {}", r.stdout, r.stderr));
    (r.code, v)
}

#[test]
fn check_size_judges_boards_of_that_size_against_the_oracle() {
    let bin = common::binary();
    // Flip 3x4: the boards drawn are those of `cases --size`, and their
    // answers are the oracle's.
    let flip = tables::Flip::solve(Shape::parse("3x4").expect("3x4"));
    let (boards, answers) = drawn("flip", "3x4", 30, 7);
    assert_eq!(boards.len(), 30);
    let mut nonzero = 0;
    for (&b, answer) in boards.iter().zip(&answers) {
        let best = flip.rounds[0][b as usize].min(flip.rounds[1][b as usize]);
        let want = if best == 255 {
            "Impossible".to_owned()
        } else {
            best.to_string()
        };
        assert_eq!(answer, &want);
        nonzero += usize::from(answer != "0");
    }
    assert!(nonzero > 0);
    // The solver itself is accepted.
    let (code, report) = check_json(
        &["flip", "--size", "3x4", "--sample", "30", "--seed", "7"],
        &[bin, "flip", "--size", "3x4"],
    );
    assert_eq!(code, 0, "{report}");
    assert_eq!(report["cases"], 30);
    assert_eq!(report["case_verdicts"]["accepted"], 30);
    // A program that always answers 0 fails exactly the boards whose
    // answer is not 0.
    let zero = TempFile::new("zero.sh", "#!/bin/sh\ncat >/dev/null\necho 0\n");
    make_executable(zero.path());
    let (code, report) = check_json(
        &["flip", "--size", "3x4", "--sample", "30", "--seed", "7"],
        &[zero.path()],
    );
    assert_eq!(code, 1);
    assert_eq!(report["case_verdicts"]["accepted"], 30 - nonzero);
    assert_eq!(report["case_verdicts"]["wrong_answer"], nonzero);

    // Euler 3x3 from a table made in memory: all in one run.
    let shape = Shape::parse("3x3").expect("3x3");
    let moves: Vec<u64> = euler_oracle::moves(3, 3).into_iter().collect();
    let (wins, _) = tables::solve_euler(shape, &moves);
    let (boards, answers) = drawn("euler", "3x3", 40, 2);
    let mut losing = 0;
    for (&p, answer) in boards.iter().zip(&answers) {
        let want = if wins[p as usize] {
            "WINNING"
        } else {
            "LOSING"
        };
        assert_eq!(answer, want);
        losing += usize::from(want == "LOSING");
    }
    let (code, report) = check_json(
        &["euler", "--size", "3x3", "--sample", "40", "--seed", "2"],
        &[bin, "euler", "--size", "3x3"],
    );
    assert_eq!(code, 0, "{report}");
    assert_eq!(report["case_verdicts"]["accepted"], 40);
    // Always WINNING: the losing positions fail.
    let winning = TempFile::new(
        "winning.sh",
        "#!/bin/sh\nread n\ni=0\nwhile [ $i -lt $n ]; do echo WINNING; i=$((i+1)); done\ncat >/dev/null\n",
    );
    make_executable(winning.path());
    let (code, report) = check_json(
        &["euler", "--size", "3x3", "--sample", "40", "--seed", "2"],
        &[winning.path()],
    );
    assert_eq!(code, i32::from(losing > 0), "{report}");
    assert_eq!(report["case_verdicts"]["wrong_answer"], losing);

    // A table file gives the size; --tables must exist; other puzzles
    // take no size.
    let dir = TempDir::new("options-check-table");
    let r = run(&["generate", "flip", "3x4", "--dir", dir.path()], "");
    assert_eq!(r.code, 0, "{}", r.stderr);
    let table = dir.join("flip-3x4.bin");
    let (code, report) = check_json(
        &[
            "flip",
            "--table",
            table.to_str().expect("UTF-8"),
            "--sample",
            "30",
            "--seed",
            "7",
        ],
        &[zero.path()],
    );
    assert_eq!(code, 1);
    assert_eq!(report["case_verdicts"]["wrong_answer"], nonzero);
    let (code, report) = check_json(
        &[
            "flip",
            "--size",
            "3x4",
            "--tables",
            dir.path(),
            "--sample",
            "5",
        ],
        &[bin, "flip", "--size", "3x4"],
    );
    assert_eq!(code, 0, "{report}");
    let r = run(
        &[
            "check",
            "flip",
            "--tables",
            "/nonexistent/dir",
            "--",
            "true",
        ],
        "",
    );
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("/nonexistent/dir is not a directory"),
        "{}",
        r.stderr
    );
    let r = run(&["check", "lightsout", "--size", "3x3", "--", "true"], "");
    assert_eq!(r.code, 2);
    assert_eq!(
        r.stderr,
        "error: --size is for flip, euler, fliptile, carcassonne and lights, not lightsout\n"
    );
}

#[cfg(unix)]
fn make_executable(path: &str) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
}

#[test]
fn carcassonne_board_takes_a_trailing_slash_as_the_other_solvers_do() {
    for args in [
        &["carcassonne", "--board", "CRFC RRFF/FFCC CRCR/"][..],
        &["euler", "--board", "XX../X.../..../..../"][..],
    ] {
        let r = run(args, "");
        assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
    }
    // 2x2 of these tiles: 4 placements (the brute-force oracle's count,
    // as carcassonne_board_counts_as_the_brute_force_oracle checks).
    let with = run(&["carcassonne", "--board", "CRFC RRFF/FFCC CRCR/"], "");
    let without = run(&["carcassonne", "--board", "CRFC RRFF/FFCC CRCR"], "");
    assert_eq!(with.stdout, without.stdout);
    assert_eq!(with.stdout, "Case 1: 4\n");
}

#[test]
fn check_size_says_its_boards_are_a_sample_and_caps_how_many() {
    let bin = common::binary();
    // 2x2 has 16 boards; 5 drawn from a seed are a sample, not "all".
    let r = run(
        &[
            "check", "flip", "--size", "2x2", "--sample", "5", "--format", "json", "--", bin,
            "flip", "--size", "2x2",
        ],
        "",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).expect("one JSON object");
    assert_eq!(v["sampled"], true);
    assert_eq!(v["cases"], 5);
    let r = run(
        &[
            "check", "flip", "--size", "2x2", "--sample", "70000", "--", bin,
        ],
        "",
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("at most 65,536 boards"), "{}", r.stderr);
}

#[test]
fn cases_and_check_take_max_nullity_as_flip_does() {
    // 9x9 has nullity 8: refused at 7, answered at 8 and by default.
    let refused = run(
        &[
            "cases",
            "flip",
            "--size",
            "9x9",
            "--cases",
            "1",
            "--max-nullity",
            "7",
        ],
        "",
    );
    assert_eq!(refused.code, 2, "{}", refused.stderr);
    assert!(refused.stderr.contains("nullity 8"), "{}", refused.stderr);
    let dir = TempDir::new("nullity");
    let answers = dir.join("answers.txt");
    let answers = answers.to_str().expect("a UTF-8 path");
    let input = ok(
        &[
            "cases",
            "flip",
            "--size",
            "9x9",
            "--cases",
            "3",
            "--seed",
            "5",
            "--family",
            "solvable",
            "--max-nullity",
            "8",
            "--answers",
            answers,
        ],
        "",
    );
    // The answers are the oracle's: the fewest presses of each board, by
    // light chasing from every first row (the press rule of
    // tests/oracle/press.rs).
    let want: Vec<String> = std::fs::read_to_string(answers)
        .expect("answers")
        .lines()
        .map(str::to_owned)
        .collect();
    let boards: Vec<&str> = input.lines().collect();
    assert_eq!(boards.len(), 27);
    for (k, board) in boards.chunks(9).enumerate() {
        let cells: Vec<u8> = board
            .iter()
            .flat_map(|row| row.bytes().map(|c| u8::from(c == b'b')))
            .collect();
        let fewest = chase_fewest(9, 9, &cells);
        assert_eq!(
            want[k],
            fewest.map_or("Impossible".to_owned(), |r| r.to_string())
        );
    }
    let bin = common::binary();
    let r = run(
        &[
            "check",
            "flip",
            "--size",
            "9x9",
            "--sample",
            "3",
            "--max-nullity",
            "8",
            "--",
            bin,
            "flip",
            "--size",
            "9x9",
        ],
        "",
    );
    assert_eq!(r.code, 0, "{}", r.stdout);
}

/// The fewest presses that make `cells` (1 = black) one colour, by light
/// chasing: every press set is fixed by its first row, so all 2^cols first
/// rows and both colours cover every press set that works.
fn chase_fewest(rows: usize, cols: usize, cells: &[u8]) -> Option<usize> {
    let mut best: Option<usize> = None;
    for colour in [0u8, 1] {
        for first in 0u32..1 << cols {
            let mut board = cells.to_vec();
            let mut presses = 0;
            for c in 0..cols {
                if first >> c & 1 == 1 {
                    press::press_cells(rows, cols, &mut board, 0, c);
                    presses += 1;
                }
            }
            for r in 1..rows {
                for c in 0..cols {
                    if board[(r - 1) * cols + c] != colour {
                        press::press_cells(rows, cols, &mut board, r, c);
                        presses += 1;
                    }
                }
            }
            if board.iter().all(|&x| x == colour) {
                best = Some(best.map_or(presses, |b| b.min(presses)));
            }
        }
    }
    best
}
