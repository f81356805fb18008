//! `boardbase lights solve|info` end to end: every answer against
//! the brute force of `tests/oracle/family.rs`, each press vector replayed
//! under its rules, the three formats, the input rules, the published
//! facts, and every error with its place and exit status.

use std::collections::BTreeSet;

use serde_json::Value;

use crate::common::{TempFile, ok, run};
use crate::family_answers::{
    VARIANTS, Variant, boards, check_answer, lines, oracle_answer, parse_boards, rows,
};
use crate::oracle::family::{self as rules, BruteForce};

/// `boardbase lights solve ARGS` with the variant's options.
fn solve(v: &Variant, extra: &[&str], input: &str) -> String {
    let mut args: Vec<String> = vec!["lights".into(), "solve".into()];
    args.extend(v.args());
    args.extend(extra.iter().map(|s| s.to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    ok(&args, input)
}

/// The JSON lines of a run.
fn json_lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

#[test]
fn json_answers_as_the_brute_force_on_every_variant_and_goal() {
    for (i, v) in VARIANTS.iter().enumerate() {
        let brute = BruteForce::new(&v.rules());
        let boards = boards(v, 40, 19 + i as u64);
        let input: String = boards.iter().map(|b| lines(b, v.cols)).collect();
        let last = rules_digit(v.k - 1);
        for goal in ["0", last.as_str(), "any"] {
            let out = solve(v, &["--format", "json", "--goal", goal], &input);
            let objects = json_lines(&out);
            assert_eq!(objects.len(), boards.len(), "{v:?} goal {goal}");
            for (case, (object, board)) in objects.iter().zip(&boards).enumerate() {
                check_answer(object, v, &brute, case as u64 + 1, board, goal);
            }
        }
    }
}

/// A colour as `--goal` takes it (decimal).
fn rules_digit(d: u8) -> String {
    d.to_string()
}

#[test]
fn judge_format_is_the_rounds_then_the_press_grid_or_impossible() {
    for v in [VARIANTS[2], VARIANTS[6], VARIANTS[9]] {
        let brute = BruteForce::new(&v.rules());
        let boards = boards(&v, 30, 7);
        let input: String = boards.iter().map(|b| lines(b, v.cols)).collect();
        let mut expected = String::new();
        for b in &boards {
            match oracle_answer(&brute, b, "0") {
                Some(s) => {
                    expected.push_str(&format!("{}\n", s.rounds));
                    expected.push_str(&lines(&s.presses, v.cols));
                }
                None => expected.push_str("Impossible\n"),
            }
        }
        assert_eq!(solve(&v, &[], &input), expected, "{v:?}");
        // Without --size: boards separated by blank lines, digits with
        // blanks between them, CRLF, blank lines before and after.
        let loose: String = boards
            .iter()
            .map(|b| {
                let spaced: String = lines(b, v.cols)
                    .lines()
                    .map(|l| {
                        let cells: Vec<String> = l.chars().map(String::from).collect();
                        format!(" {} \r\n", cells.join(" "))
                    })
                    .collect();
                format!("\r\n{spaced}")
            })
            .collect();
        let mut args = vec!["lights", "solve"];
        let all = v.args();
        // The variant's options without --size.
        args.extend(all[2..].iter().map(String::as_str));
        assert_eq!(ok(&args, format!("\n{loose}\n\n")), expected, "{v:?}");
    }
}

#[test]
fn board_option_answers_one_board_and_checks_its_shape() {
    let v = VARIANTS[7];
    let brute = BruteForce::new(&v.rules());
    let board = [1, 2, 0, 0, 1, 0, 2, 2, 1];
    let text = rows(&board, 3);
    let out = ok(
        &[
            "lights",
            "solve",
            "--board",
            &text,
            "--colours",
            "3",
            "--pattern",
            "king",
            "--format",
            "json",
            "--goal",
            "any",
        ],
        "",
    );
    check_answer(&json_lines(&out)[0], &v, &brute, 1, &board, "any");
    // --size agrees with the board, or it is a usage error.
    let same = ok(
        &["lights", "solve", "--board", "10/01", "--size", "2x2"],
        "",
    );
    assert_eq!(same, ok(&["lights", "solve", "--board", "10/01"], ""));
    let r = run(
        &["lights", "solve", "--board", "10/01", "--size", "3x3"],
        "",
    );
    assert_eq!((r.code, r.stdout.as_str()), (2, ""));
    assert!(r.stderr.contains("a 2x2 board, not 3x3"), "{}", r.stderr);
}

#[test]
fn pretty_format_draws_the_board_the_presses_and_the_result() {
    // Lights Out 2000 on 3×3: one press vector a colour, 8 presses here.
    let brute = BruteForce::new(&rules::Rules::new(3, 3, 3, false, rules::PLUS));
    let board = [1, 2, 0, 0, 0, 0, 0, 0, 0];
    let s = brute.to_colour(&board, 0).expect("solvable");
    assert_eq!((s.rounds, s.count), (8, 1));
    assert_eq!(s.presses, [2, 0, 2, 0, 0, 1, 1, 2, 0]);
    let out = ok(
        &[
            "lights",
            "solve",
            "--board",
            "120/000/000",
            "--colours",
            "3",
            "--format",
            "pretty",
        ],
        "",
    );
    assert_eq!(
        out,
        "Case 1: 3x3, 3 colours, plus: 8 presses make every cell 0
  board    presses  after
  120      2.2      000
  000      ..1      000
  000      12.      000
  the only optimal press vector

"
    );
    // An impossible board (judge: `Impossible`), and several optimal
    // vectors.
    let corner = ["lights", "solve", "--board", "1000/0000/0000/0000"];
    assert!(
        BruteForce::new(&rules::Rules::new(4, 4, 2, false, rules::PLUS))
            .to_colour(&[1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], 0)
            .is_none()
    );
    assert_eq!(ok(&corner, ""), "Impossible\n");
    let out = ok(
        &[
            "lights",
            "solve",
            "--board",
            "1000/0000/0000/0000",
            "--format",
            "pretty",
        ],
        "",
    );
    assert_eq!(
        out,
        "Case 1: 4x4, 2 colours, plus: Impossible: no presses make every cell 0
  board
  1000
  0000
  0000
  0000

"
    );
    let out = ok(
        &[
            "lights",
            "solve",
            "--board",
            "1001/0110/0110/1001",
            "--format",
            "pretty",
        ],
        "",
    );
    assert!(
        out.contains("4 presses make every cell 0")
            && out.contains("2 optimal press vectors; shown: the least in reading order"),
        "{out}"
    );
}

/// `boardbase lights info SIZE ARGS --format json`.
fn info(size: &str, extra: &[&str]) -> Value {
    let mut args = vec!["lights", "info", size, "--format", "json"];
    args.extend(extra);
    serde_json::from_str(&ok(&args, "")).expect("one JSON object")
}

#[test]
fn info_states_the_published_facts() {
    // Null-space dimensions of the classic n×n game (Sutner; Brouwer's
    // tables): 4×4 4, 5×5 2, 9×9 8, 19×19 16.
    for (n, nullity) in [(4, 4), (5, 2), (9, 8), (19, 16)] {
        let size = format!("{n}x{n}");
        let i = info(&size, &[]);
        assert_eq!(i["nullity"], nullity, "{size}");
        assert_eq!(i["quiet_count"], (1u64 << nullity).to_string(), "{size}");
        assert_eq!(
            i["quiet_generators"].as_array().map(Vec::len),
            Some(nullity)
        );
        // 2^(n²) boards, 1 in 2^nullity solvable; exact past 2^53.
        let solvable = num_bigint::BigUint::from(1u32) << (n * n - nullity);
        assert_eq!(i["solvable_boards"], solvable.to_string(), "{size}");
    }
    // God's number of the classic 5×5: 15 presses.
    let i = info("5x5", &[]);
    assert_eq!(i["max_presses"], 15);
    let histogram: Vec<u64> = serde_json::from_value(i["histogram"].clone()).expect("histogram");
    assert_eq!(histogram.len(), 16);
    assert_eq!(histogram.iter().sum::<u64>(), 1 << 23);
    assert_eq!(histogram[..3], [1, 25, 300]);
    // Past 2^25 boards there is no histogram.
    let i = info("6x5", &[]);
    assert_eq!(
        (&i["histogram"], &i["max_presses"]),
        (&Value::Null, &Value::Null)
    );
}

#[test]
fn info_answers_as_the_brute_force() {
    for v in VARIANTS {
        let brute = BruteForce::new(&v.rules());
        let mut args = vec![
            "--colours".to_owned(),
            v.k.to_string(),
            "--pattern".to_owned(),
        ];
        args.push(v.pattern.to_owned());
        if v.wrap {
            args.push("--wrap".to_owned());
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let i = info(&v.size(), &args);
        let what = format!("{v:?}");
        assert_eq!(
            (i["rows"].as_u64(), i["cols"].as_u64()),
            (Some(v.rows as u64), Some(v.cols as u64))
        );
        assert_eq!(i["colours"], v.k, "{what}");
        assert_eq!(i["wrap"], v.wrap, "{what}");
        assert_eq!(i["pattern"], v.pattern, "{what}");
        assert_eq!(
            i["solvable_boards"],
            brute.solvable_boards().to_string(),
            "{what}"
        );
        let histogram: Vec<u64> =
            serde_json::from_value(i["histogram"].clone()).expect("histogram");
        assert_eq!(histogram, brute.histogram(), "{what}");
        assert_eq!(i["max_presses"], histogram.len() - 1, "{what}");
        // The quiet patterns: as many as the brute force finds, and the
        // generators with their orders make exactly them.
        let quiet: BTreeSet<Vec<u8>> = brute.quiet().into_iter().collect();
        assert_eq!(i["quiet_count"], quiet.len().to_string(), "{what}");
        let generators: Vec<Vec<u8>> = i["quiet_generators"]
            .as_array()
            .expect("generators")
            .iter()
            .map(|g| {
                g.as_str()
                    .expect("rows")
                    .chars()
                    .filter(|&c| c != '/')
                    .map(|c| c.to_digit(16).expect("a digit") as u8)
                    .collect()
            })
            .collect();
        let orders: Vec<u64> =
            serde_json::from_value(i["generator_orders"].clone()).expect("orders");
        assert_eq!(generators.len(), orders.len(), "{what}");
        let mut spanned = BTreeSet::from([vec![0u8; v.rows * v.cols]]);
        for (g, &order) in generators.iter().zip(&orders) {
            let zero = vec![0u8; g.len()];
            assert_eq!(v.rules().apply(&zero, g), zero, "{what}: {g:?} is quiet");
            let mut next = BTreeSet::new();
            for s in &spanned {
                for c in 0..order {
                    let sum: Vec<u8> = s
                        .iter()
                        .zip(g)
                        .map(|(&a, &b)| ((u64::from(a) + c * u64::from(b)) % u64::from(v.k)) as u8)
                        .collect();
                    next.insert(sum);
                }
            }
            spanned = next;
        }
        assert_eq!(spanned, quiet, "{what}");
        let count: u64 = orders.iter().product();
        assert_eq!(
            count as usize,
            quiet.len(),
            "{what}: each quiet pattern once"
        );
        let factors: Vec<u64> =
            serde_json::from_value(i["invariant_factors"].clone()).expect("factors");
        assert_eq!(factors.iter().product::<u64>(), count, "{what}");
        let prime = (2..v.k).all(|p| v.k % p != 0);
        if prime {
            assert_eq!(i["nullity"], generators.len(), "{what}");
        } else {
            assert_eq!(i["nullity"], Value::Null, "{what}");
        }
    }
}

#[test]
fn info_text_draws_the_quiet_patterns_and_the_histogram() {
    let out = ok(&["lights", "info", "4x4"], "");
    assert!(out.starts_with("4x4, 2 colours, plus\nquiet patterns: nullity 4, 16 quiet patterns (Z_2^4)\na basis:\n  #1\n"), "{out}");
    assert!(
        out.contains("solvable boards: 4,096 of 65,536 (1 in 16)\n"),
        "{out}"
    );
    assert!(
        out.contains("fewest presses to all 0, over every solvable board:\n    0      1\n"),
        "{out}"
    );
    let json = info("4x4", &[]);
    let max = json["max_presses"].as_u64().expect("max");
    assert!(
        out.ends_with(&format!("max presses (God's number): {max}\n")),
        "{out}"
    );
    let out = ok(&["lights", "info", "4x4", "--colours", "4"], "");
    assert!(
        out.contains("the group Z_2^2 × Z_4^2") && out.contains("(order 4)"),
        "{out}"
    );
    assert!(
        out.contains("histogram: not computed (more than 2^25 boards)"),
        "{out}"
    );
}

/// Asserts exit status 1, exactly `answers` on stdout and `error` on stderr.
fn assert_fails(args: &[&str], stdin: &str, answers: &str, error: &str) {
    let r = run(args, stdin);
    assert_eq!(r.stdout, answers, "{args:?} {stdin:?}: stderr {}", r.stderr);
    assert_eq!(r.stderr, format!("{error}\n"), "{args:?} {stdin:?}");
    assert_eq!(r.code, 1, "{args:?} {stdin:?}");
}

#[test]
fn bad_input_is_an_error_with_its_line_and_column_after_the_earlier_answers() {
    let k3 = ["lights", "solve", "--colours", "3"];
    let first = ok(&k3, "12\n00\n");
    // A digit of K or more: blank-line separated, and back to back.
    assert_fails(
        &k3,
        "12\n00\n\n10\n03\n",
        &first,
        "error: <stdin>:5:2: expected a colour 0 to 2, found '3'",
    );
    let sized = ["lights", "solve", "--colours", "3", "--size", "2x2"];
    assert_fails(
        &sized,
        "12\n00\n10\n0 3\n",
        &first,
        "error: <stdin>:4:3: expected a colour 0 to 2, found '3'",
    );
    // A hex digit is a colour only below K.
    assert_fails(
        &["lights", "solve", "--colours", "10"],
        "12\n0a\n",
        "",
        "error: <stdin>:2:2: expected a colour 0 to 9, found 'a'",
    );
    // A board cut short, a row too long or too short, something else.
    assert_fails(
        &sized,
        "12\n00\n12\n",
        &first,
        "error: <stdin>:4:1: expected the board's last row, found end of input",
    );
    assert_fails(
        &sized,
        "12\n000\n",
        "",
        "error: <stdin>:2:3: expected the end of the row (every row as long as the first), found '0'",
    );
    assert_fails(
        &k3,
        "12\n00\n\n120\n01\n",
        &first,
        "error: <stdin>:5:3: expected another cell (every row as long as the first), found end of line",
    );
    assert_fails(
        &k3,
        "12\n0x\n",
        "",
        "error: <stdin>:2:2: expected a colour 0 to 2, found 'x'",
    );
    // A file is named in the error.
    let file = TempFile::new("lights-bad.txt", "12\n00\n\n12\n0-\n");
    let r = run(&["lights", "solve", "--colours", "3", file.path()], "");
    assert_eq!((r.code, r.stdout.as_str()), (1, first.as_str()));
    assert_eq!(
        r.stderr,
        format!(
            "error: {}:5:2: expected a colour 0 to 2, found '-'\n",
            file.path()
        )
    );
    let r = run(&["lights", "solve", "/no/such/file"], "");
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.starts_with("error: /no/such/file: "),
        "{}",
        r.stderr
    );
    // No board at all is no answer.
    assert_eq!(ok(&["lights", "solve"], "\n\n"), "");
}

#[test]
fn bad_options_are_usage_errors() {
    for (args, says) in [
        (&["--colours", "1"][..], "1 is not in 2..=16"),
        (&["--colours", "17"], "17 is not in 2..=16"),
        (
            &["--pattern", "##/##"],
            "2 columns: a stencil has an odd width",
        ),
        (
            &["--pattern", "###/###"],
            "2 rows: a stencil has an odd height",
        ),
        (
            &["--pattern", "#x#"],
            "stencil column 2: expected '#', '.' or '/', found 'x'",
        ),
        (&["--pattern", "..."], "no '#'"),
        (&["--pattern", "plux"], "unknown pattern \"plux\""),
        (
            &["--goal", "3", "--colours", "3"],
            "--goal 3: there are 3 colours (0 to 2)",
        ),
        (&["--goal", "z"], "unknown goal \"z\""),
        (&["--size", "0x3"], "'0x3' is not a board size RxC"),
        (&["--size", "65x1"], "'65x1' is not a board size RxC"),
        (
            &["--board", "10/3"],
            "invalid value '10/3' for '--board <ROWS>': column 4: expected a colour 0 or 1, found '3'",
        ),
        (
            &["--board", "12/00", "--colours", "3", "--size", "3x3"],
            "--board 12/00: a 2x2 board, not 3x3 (--size)",
        ),
        (&["--max-nullity", "65"], "65 is not in 0..=64"),
    ] {
        let mut all = vec!["lights", "solve"];
        all.extend(args);
        let r = run(&all, "01\n10\n");
        assert_eq!(
            (r.code, r.stdout.as_str()),
            (2, ""),
            "{args:?}: {}",
            r.stderr
        );
        assert!(r.stderr.contains(says), "{args:?}: {}", r.stderr);
    }
    for (args, says) in [
        (&["0x3"][..], "'0x3' is not a board size RxC"),
        (&["3x3", "--colours", "0"], "0 is not in 2..=16"),
        (&["3x3", "--pattern", "#./.#"], "2 columns"),
        (&["3x3", "--format", "pretty"], "invalid value 'pretty'"),
    ] {
        let mut all = vec!["lights", "info"];
        all.extend(args);
        let r = run(&all, "");
        assert_eq!(
            (r.code, r.stdout.as_str()),
            (2, ""),
            "{args:?}: {}",
            r.stderr
        );
        assert!(r.stderr.contains(says), "{args:?}: {}", r.stderr);
    }
}

#[test]
fn past_the_search_limit_is_an_error_naming_max_nullity() {
    // 4×4 Lights Out over Z_4 has 2^6 quiet patterns (Z_2^2 × Z_4^2):
    // searched with --max-nullity 6, refused with 5.
    // (One press at the corner: solvable. An unsolvable board is answered
    // `Impossible` at any limit: no minimality is claimed.)
    let board = "1100\n1000\n0000\n0000\n";
    let args = ["lights", "solve", "--colours", "4", "--max-nullity", "5"];
    let r = run(&args, board);
    assert_eq!((r.code, r.stdout.as_str()), (1, ""));
    assert!(
        r.stderr.starts_with("error: <stdin>:1: case 1: a 4x4, 4 colours, plus board has 64 quiet patterns, more than 2^5")
            && r.stderr.ends_with("(--max-nullity raises the limit)\n"),
        "{}",
        r.stderr
    );
    let out = ok(
        &["lights", "solve", "--colours", "4", "--max-nullity", "6"],
        board,
    );
    let rounds: usize = out
        .lines()
        .next()
        .and_then(|l| l.parse().ok())
        .expect("rounds");
    let presses: Vec<u8> = out
        .lines()
        .skip(1)
        .flat_map(|l| l.chars().map(|c| c.to_digit(16).expect("digit") as u8))
        .collect();
    assert_eq!(
        presses.iter().map(|&p| usize::from(p)).sum::<usize>(),
        rounds
    );
    let rules = rules::Rules::new(4, 4, 4, false, rules::PLUS);
    let start: Vec<u8> = board
        .bytes()
        .filter(u8::is_ascii_digit)
        .map(|b| b - b'0')
        .collect();
    assert!(rules.apply(&start, &presses).iter().all(|&c| c == 0));
    // The classic 64×64 (nullity 28) through the same engine, as fliptile
    // refuses it.
    let zeros = vec!["0".repeat(64); 64].join("/");
    let r = run(&["lights", "solve", "--board", &zeros], "");
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.starts_with("error: --board:1: case 1: a 64x64, 2 colours, plus board has 268435456 quiet patterns, more than 2^24"),
        "{}",
        r.stderr
    );
}

/// `boardbase cases lights`: every family of several variants and goals,
/// each board read back and answered by the brute force, the answers file
/// equal to what the oracle says and to what `lights solve` prints for the
/// same input; a family that asks for what cannot be is an error.
#[test]
fn cases_lights_writes_boards_of_their_family_with_the_oracles_answers() {
    let parse = parse_boards;
    for (v, goal) in [
        (VARIANTS[0], "0"),
        (VARIANTS[2], "1"),
        (VARIANTS[3], "any"),
        (VARIANTS[5], "0"),
        (VARIANTS[7], "2"),
        (VARIANTS[9], "any"),
        (VARIANTS[11], "0"),
        (VARIANTS[8], "any"),
        // A quiet pattern, yet every board reaches 0 or 1 (10101 has odd
        // weight): no impossible board towards `any`.
        (
            Variant::new(1, 5, 2, false, "neighbours", rules::NEIGHBOURS),
            "any",
        ),
    ] {
        let brute = BruteForce::new(&v.rules());
        for family in ["random", "solvable", "impossible"] {
            let mut args = vec!["cases".to_owned(), "lights".to_owned()];
            args.extend(v.args());
            args.extend(
                [
                    "--goal", goal, "--family", family, "--cases", "40", "--seed", "5",
                ]
                .map(String::from),
            );
            let answers = TempFile::new(&format!("lights-{}-{goal}-{family}", v.size()), "");
            args.extend(["--answers".to_owned(), answers.path().to_owned()]);
            let words: Vec<&str> = args.iter().map(String::as_str).collect();
            // Whether any board misses the goal (every board, or 200).
            let impossible_anywhere = boards(&v, 200, 1)
                .iter()
                .any(|b| oracle_answer(&brute, b, goal).is_none());
            let out = run(&words, "");
            if family == "impossible" && !impossible_anywhere {
                // Every board reaches the goal: nothing to draw, said so
                // (a usage error when the variant has no quiet pattern).
                assert_ne!(out.code, 0, "{v:?} {goal}");
                assert!(out.stderr.contains("no impossible board"), "{}", out.stderr);
                continue;
            }
            assert_eq!(out.code, 0, "{v:?} {goal} {family}: {}", out.stderr);
            let boards = parse(&out.stdout, &v);
            assert_eq!(boards.len(), 40, "{v:?}");
            let mut expected = String::new();
            for b in &boards {
                assert!(b.iter().all(|&d| d < v.k), "{b:?}");
                match oracle_answer(&brute, b, goal) {
                    Some(s) => {
                        assert_ne!(family, "impossible", "{v:?} {b:?}");
                        expected.push_str(&format!("{}\n", s.rounds));
                        expected.push_str(&lines(&s.presses, v.cols));
                    }
                    None => {
                        assert_ne!(family, "solvable", "{v:?} {b:?}");
                        expected.push_str("Impossible\n");
                    }
                }
            }
            let written = std::fs::read_to_string(answers.path()).expect("answers written");
            assert_eq!(written, expected, "{v:?} {goal} {family}");
            let mut solve_args = vec!["lights".to_owned(), "solve".to_owned()];
            solve_args.extend(v.args());
            solve_args.extend(["--goal".to_owned(), goal.to_owned()]);
            let solve_words: Vec<&str> = solve_args.iter().map(String::as_str).collect();
            assert_eq!(ok(&solve_words, out.stdout.clone()), expected, "{v:?}");
        }
    }
    // The options of other puzzles, and lights without its size.
    for (args, error) in [
        (
            &["cases", "lights", "--cases", "1"][..],
            "--size RxC is needed for lights",
        ),
        (
            &["cases", "flip", "--cases", "1", "--colours", "3"][..],
            "--colours, --wrap, --pattern and --goal are for lights, not flip",
        ),
        (
            &[
                "cases", "flip", "--size", "5x5", "--cases", "1", "--goal", "1",
            ][..],
            "--colours, --wrap, --pattern and --goal are for lights, not flip",
        ),
        (
            &[
                "cases",
                "lights",
                "--size",
                "9x9",
                "--wrap",
                "--max-nullity",
                "3",
                "--cases",
                "1",
            ][..],
            "(--max-nullity raises the limit)",
        ),
        (
            &[
                "cases", "lights", "--size", "3x3", "--cases", "1", "--family", "ties",
            ][..],
            "ties",
        ),
        (
            &[
                "cases",
                "lights",
                "--size",
                "3x3",
                "--colours",
                "3",
                "--goal",
                "3",
                "--cases",
                "1",
            ][..],
            "--goal 3: there are 3 colours (0 to 2)",
        ),
    ] {
        let out = run(args, "");
        assert_eq!(out.code, 2, "{args:?}: {}", out.stderr);
        assert!(out.stderr.contains(error), "{args:?}: {}", out.stderr);
    }
}
