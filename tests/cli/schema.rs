//! The JSON vocabulary (docs/json.md): every solver's `--format json`,
//! `check --format json` and `generate --format json` validated against
//! the schemas in docs/schema/ on real output: the examples/ samples,
//! generated cases of every family, impossible boards, other sizes (from
//! a table file and by GF(2)), and the options that add fields. The
//! values the schemas cannot see are checked against the oracles in
//! tests/oracle; and each schema is shown to reject the old names.

use std::path::Path;

use serde_json::{Value, json};

use crate::common::{TempDir, ok, run};
use crate::oracle::fliptile::{flip_answer, fliptile_cases, fliptile_truth};
use crate::oracle::tables::flip_rounds_4x4;
use crate::programs;
use crate::schemas::{
    NAMES, assert_invalid, assert_valid, dir, renamed, valid_lines, validate, with,
};

/// `examples/NAME`.
fn example(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../examples")
        .join(name)
        .to_str()
        .expect("UTF-8 path")
        .to_owned()
}

/// `boardbase gen ARGS`'s judge input (a note on stderr allowed).
fn gen_input(args: &str) -> String {
    let mut all = vec!["cases"];
    all.extend(args.split_whitespace());
    let r = run(&all, "");
    assert_eq!(r.code, 0, "gen {args}: {}", r.stderr);
    r.stdout
}

/// The Flip board of a 4×4 `board` string (`b` = set, bit `4r + c`).
fn flip_bits(board: &str) -> usize {
    board
        .chars()
        .filter(|&c| c != '/')
        .enumerate()
        .filter(|&(_, c)| c == 'b')
        .map(|(i, _)| 1 << i)
        .sum()
}

#[test]
fn every_schema_compiles_and_every_file_is_listed() {
    let mut files: Vec<String> = std::fs::read_dir(dir())
        .expect("docs/schema")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    let mut listed: Vec<String> = NAMES.iter().map(|n| format!("{n}.schema.json")).collect();
    listed.sort();
    assert_eq!(files, listed);
    for name in NAMES {
        let text = std::fs::read_to_string(dir().join(format!("{name}.schema.json"))).unwrap();
        let schema: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            schema["$schema"], "https://json-schema.org/draft/2020-12/schema",
            "{name}"
        );
        // Compiles (a schema that does not is a panic, not a pass); nothing
        // at all is an object of any of them.
        assert!(validate(name, &json!(null)).is_err(), "{name}");
    }
}

#[test]
fn the_samples_of_every_solver() {
    for (puzzle, schema, cases) in [
        ("flip", "flip", 1),
        ("euler", "euler", 3),
        ("carcassonne", "carcassonne", 3),
        ("fliptile", "lights", 1),
        ("lightsout", "lights", 2),
    ] {
        let file = example(&format!("{puzzle}-sample.txt"));
        let out = ok(&[puzzle, "--format", "json", &file], "");
        let lines = valid_lines(schema, &out, puzzle);
        assert_eq!(lines.len(), cases, "{puzzle}");
    }
}

#[test]
fn flip_on_generated_boards_of_every_family() {
    let truth = flip_rounds_4x4();
    for family in ["random", "solvable", "impossible"] {
        let input = gen_input(&format!("flip --cases 40 --seed 5 --family {family}"));
        let out = ok(&["flip", "--format", "json"], &input);
        let lines = valid_lines("flip", &out, family);
        assert_eq!(lines.len(), 40);
        for v in &lines {
            let board = v["board"].as_str().unwrap();
            let rounds = truth[flip_bits(board)];
            assert_eq!(v["answer"], flip_answer(rounds).trim_end(), "{board}");
            assert_eq!(v["rounds"], json!(rounds), "{board}");
            assert_eq!(v["solvable"], rounds.is_some());
        }
    }
}

#[test]
fn flip_of_other_sizes_by_gf2_and_from_a_table() {
    let dir = TempDir::new("schema-flip");
    let r = run(&["generate", "flip", "3x5", "--dir", dir.path()], "");
    assert_eq!(r.code, 0, "{}", r.stderr);
    for family in ["random", "impossible"] {
        let input = gen_input(&format!(
            "flip --size 3x5 --cases 25 --family {family} --tables {}",
            dir.path()
        ));
        let gf2 = ok(&["flip", "--size", "3x5", "--format", "json"], &input);
        let table = ok(
            &[
                "flip",
                "--size",
                "3x5",
                "--tables",
                dir.path(),
                "--format",
                "json",
            ],
            &input,
        );
        for out in [&gf2, &table] {
            let lines = valid_lines("flip", out, family);
            assert_eq!(lines.len(), 25);
            if family == "impossible" {
                assert!(lines.iter().all(|v| v["rounds"].is_null()));
            }
        }
        // The same answers from both, press sets aside (the GF(2) solver's
        // tie rule may pick another optimal set).
        let strip = |out: &str| -> Vec<Value> {
            out.lines()
                .map(|l| {
                    let v: Value = serde_json::from_str(l).unwrap();
                    json!([v["board"], v["rounds"], v["optimal_sets"], v["colour"]])
                })
                .collect()
        };
        assert_eq!(strip(&gf2), strip(&table), "{family}");
    }
    // A board larger than a table holds: GF(2) only.
    let board = "bwbwbwbwbw/".repeat(9) + "bwbwbwbwbw";
    let out = ok(
        &[
            "flip", "--size", "10x10", "--board", &board, "--format", "json",
        ],
        "",
    );
    valid_lines("flip", &out, "10x10");
}

#[test]
fn euler_of_4x4_and_other_sizes() {
    for family in ["random", "winning", "losing"] {
        let input = gen_input(&format!("euler --cases 30 --seed 2 --family {family}"));
        let out = ok(&["euler", "--format", "json"], &input);
        let lines = valid_lines("euler", &out, family);
        assert_eq!(lines.len(), 30);
        let won = |v: &Value| v["outcome"] == "win";
        match family {
            "winning" => assert!(lines.iter().all(won)),
            "losing" => assert!(!lines.iter().any(won)),
            _ => {}
        }
    }
    // 3x3 made in memory, and from win/loss-only and full table files.
    let dir = TempDir::new("schema-euler");
    for args in [
        &["generate", "euler", "3x4", "--wdl-only"][..],
        &["generate", "euler", "2x5"],
    ] {
        let mut args = args.to_vec();
        args.extend(["--dir", dir.path()]);
        let r = run(&args, "");
        assert_eq!(r.code, 0, "{}", r.stderr);
    }
    for (size, tables) in [
        ("3x3", None),
        ("3x4", Some(dir.path())),
        ("2x5", Some(dir.path())),
    ] {
        let input = gen_input(&format!(
            "euler --size {size} --cases 20 --seed 1 --tables {}",
            dir.path()
        ));
        let mut args = vec!["euler", "--size", size, "--format", "json"];
        if let Some(d) = tables {
            args.extend(["--tables", d]);
        }
        let r = run(&args, &input);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let lines = valid_lines("euler", &r.stdout, size);
        assert_eq!(lines.len(), 20);
        let wdl = size == "3x4";
        for v in &lines {
            assert_eq!(v.get("wdl_only").is_some(), wdl, "{size}: {v}");
            assert_eq!(v["moves_left"].is_null(), wdl, "{size}: {v}");
        }
    }
}

#[test]
fn carcassonne_with_exact_and_witness() {
    let sample = example("carcassonne-sample.txt");
    for extra in [
        &[][..],
        &["--exact"],
        &["--witness"],
        &["--exact", "--witness"],
    ] {
        let mut args = vec!["carcassonne", "--format", "json", &sample];
        args.extend(extra);
        let out = ok(&args, "");
        let lines = valid_lines("carcassonne", &out, &format!("{extra:?}"));
        for v in &lines {
            assert_eq!(v.get("exact").is_some(), extra.contains(&"--exact"));
            assert_eq!(v.get("witness").is_some(), extra.contains(&"--witness"));
        }
    }
    for family in ["random", "planted", "two-pair", "uniform"] {
        let input = gen_input(&format!(
            "carcassonne --cases 6 --size 3x4 --family {family}"
        ));
        let out = ok(
            &["carcassonne", "--format", "json", "--exact", "--witness"],
            &input,
        );
        let lines = valid_lines("carcassonne", &out, family);
        assert_eq!(lines.len(), 6);
        for v in &lines {
            assert_eq!((&v["rows"], &v["cols"]), (&json!(3), &json!(4)));
            // No placement: count 0 and a null witness, never a half one.
            assert_eq!(v["witness"].is_null(), v["exact"] == "0", "{v}");
        }
    }
}

#[test]
fn fliptile_and_lightsout_on_generated_boards() {
    for family in ["random", "solvable", "impossible", "ties"] {
        // Boards of the judge's sizes, and 4x4 (nullity 4) for the others.
        let size = if family == "random" { "" } else { "--size 4x4" };
        let input = gen_input(&format!(
            "fliptile --cases 30 --seed 4 {size} --family {family}"
        ));
        let out = ok(&["fliptile", "--format", "json"], &input);
        let lines = valid_lines("lights", &out, family);
        let cases = fliptile_cases(&input);
        assert_eq!(lines.len(), cases.len());
        for (v, (rows, cols, cells)) in lines.iter().zip(&cases) {
            let board: Vec<String> = cells
                .chunks(*cols)
                .map(|r| r.iter().map(|c| c.to_string()).collect())
                .collect();
            assert_eq!(v["board"], board.join("/"));
            let truth = fliptile_truth(*rows, *cols, cells);
            assert_eq!(
                v["rounds"],
                json!(truth.as_ref().map(|t| t.fewest)),
                "{family}"
            );
            assert_eq!(
                v["optimal_sets"],
                truth.as_ref().map_or(0, |t| t.optimal),
                "{family}"
            );
        }
    }
    let input = gen_input("lightsout --cases 20 --seed 9");
    let out = ok(&["lightsout", "--format", "json"], &input);
    let lines = valid_lines("lights", &out, "lightsout");
    assert_eq!(lines.len(), 20);
    assert!(
        lines
            .iter()
            .all(|v| v["nullity"] == 0 && v["optimal_sets"] == 1)
    );
}

#[test]
fn check_and_generate_summaries() {
    let program = programs::flip_solution(1);
    let r = run(
        &[
            "check",
            "flip",
            "--sample",
            "300",
            "--format",
            "json",
            "--",
            program.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    let report: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_valid("check", &report, "check flip");
    assert!(
        !report["failures"].as_array().unwrap().is_empty(),
        "{report}"
    );
    let failure = &report["failures"][0];
    // The index is the board's (flip: its bits), the input its rows.
    assert_eq!(failure["index"], failure["view"]["key"]);
    assert_eq!(failure["view"]["input"].as_array().unwrap().len(), 4);

    let dir = TempDir::new("schema-generate");
    for args in [
        &["flip", "3x3"][..],
        &["euler", "3x3"],
        &["euler", "2x4", "--wdl-only"],
        &["mnk", "3x3"],
        &["connect4", "3x4", "--k", "3"],
    ] {
        let mut all = vec!["generate"];
        all.extend(args);
        all.extend(["--dir", dir.path(), "--format", "json"]);
        let r = run(&all, "");
        assert_eq!(r.code, 0, "{}", r.stderr);
        let summary: Value = serde_json::from_str(&r.stdout).unwrap();
        assert_valid("generate", &summary, &format!("{args:?}"));
    }
}

#[test]
fn the_schemas_reject_the_old_names_and_wrong_types() {
    let flip = ok(
        &["flip", "--format", "json", &example("flip-sample.txt")],
        "",
    );
    let flip: Value = serde_json::from_str(flip.trim()).unwrap();
    assert_valid("flip", &flip, "flip sample");
    assert_invalid(
        "flip",
        &renamed(&flip, "rounds", "count"),
        "rounds as count",
    );
    assert_invalid("flip", &renamed(&flip, "case", "puzzle"), "case as puzzle");
    assert_invalid("flip", &with(&flip, "rows", json!(4)), "an extra field");
    assert_invalid(
        "flip",
        &with(&flip, "board", json!(["bwwb", "bbwb", "bwwb", "bwww"])),
        "board as rows",
    );
    assert_invalid(
        "flip",
        &with(&flip, "board", json!("1001/0110")),
        "Lights' letters",
    );
    assert_invalid(
        "flip",
        &with(&flip, "rounds", json!(null)),
        "solvable, no rounds",
    );

    let lights = ok(
        &[
            "fliptile",
            "--format",
            "json",
            &example("fliptile-sample.txt"),
        ],
        "",
    );
    let lights: Value = serde_json::from_str(lights.trim()).unwrap();
    assert_valid("lights", &lights, "fliptile sample");
    // The old fliptile/lightsout object.
    let old = json!({
        "case": 1, "rows": 4, "cols": 4,
        "board": ["1001", "0110", "0110", "1001"],
        "solvable": true, "count": 4,
        "presses": [[1, 0], [1, 3], [2, 0], [2, 3]],
        "optimal_sets": 2, "unique": false, "nullity": 4
    });
    assert_invalid("lights", &old, "the old object");
    assert_invalid(
        "lights",
        &renamed(&lights, "rounds", "count"),
        "rounds as count",
    );
    assert_invalid(
        "lights",
        &renamed(&lights, "case", "puzzle"),
        "case as puzzle",
    );
    assert_invalid("lights", &with(&lights, "unique", json!(false)), "unique");
    assert_invalid(
        "lights",
        &with(&lights, "presses", json!([[1, 0, 2]])),
        "a 3-cell",
    );

    let euler = ok(
        &["euler", "--format", "json", &example("euler-sample.txt")],
        "",
    );
    let euler: Value = serde_json::from_str(euler.lines().next().unwrap()).unwrap();
    assert_invalid(
        "euler",
        &with(&euler, "answer", json!("WINNING")),
        "answer ≠ outcome",
    );
    assert_invalid(
        "euler",
        &with(&euler, "wdl_only", json!(false)),
        "wdl_only false",
    );
    assert_invalid(
        "euler",
        &renamed(&euler, "moves_left", "rounds"),
        "moves_left",
    );

    let carcassonne = ok(
        &[
            "carcassonne",
            "--format",
            "json",
            &example("carcassonne-sample.txt"),
        ],
        "",
    );
    let carcassonne: Value = serde_json::from_str(carcassonne.lines().next().unwrap()).unwrap();
    assert_invalid(
        "carcassonne",
        &with(&carcassonne, "count", json!("4")),
        "count as text",
    );
    assert_invalid(
        "carcassonne",
        &with(&carcassonne, "exact", json!(4)),
        "exact as a number",
    );
}

#[test]
fn lights_solve_and_info_of_the_family() {
    use crate::family_answers::{VARIANTS, boards, check_answer, lines};
    use crate::oracle::family::BruteForce;
    // Every preset and stencil, wrap or not, K 2 to 6, every goal: the
    // schema on real answers (solvable and impossible), the values against
    // the brute force.
    for (i, v) in VARIANTS.iter().enumerate() {
        let brute = BruteForce::new(&v.rules());
        let boards = boards(v, 12, i as u64);
        let input: String = boards.iter().map(|b| lines(b, v.cols)).collect();
        for goal in ["0", "any"] {
            let mut args: Vec<String> = vec!["lights".into(), "solve".into()];
            args.extend(v.args());
            args.extend(["--format", "json", "--goal", goal].map(String::from));
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let what = format!("lights solve {v:?} goal {goal}");
            let objects = valid_lines("lights-solve", &ok(&args, &input), &what);
            for (case, (object, board)) in objects.iter().zip(&boards).enumerate() {
                check_answer(object, v, &brute, case as u64 + 1, board, goal);
            }
        }
        let mut args: Vec<String> = vec!["lights".into(), "info".into(), v.size()];
        args.extend(v.args()[2..].iter().cloned());
        args.extend(["--format", "json"].map(String::from));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let info: Value = serde_json::from_str(&ok(&args, "")).expect("JSON");
        assert_valid("lights-info", &info, &format!("lights info {v:?}"));
        assert_eq!(info["solvable_boards"], brute.solvable_boards().to_string());
    }
    // Past 2^53 boards and past 2^25 (no histogram), and a composite K.
    for args in [
        &["19x19"][..],
        &["6x6", "--colours", "6", "--wrap", "--pattern", "king"],
    ] {
        let mut all = vec!["lights", "info"];
        all.extend(args);
        all.extend(["--format", "json"]);
        let info: Value = serde_json::from_str(&ok(&all, "")).expect("JSON");
        assert_valid("lights-info", &info, &format!("lights info {args:?}"));
        assert_eq!(info["histogram"], Value::Null);
    }
    // The schemas fail: the Fliptile object is not a family answer, a
    // colour past 15, a goal that is neither, a count as a number.
    let one = ok(
        &[
            "lights",
            "solve",
            "--board",
            "120/000/000",
            "--colours",
            "3",
            "--format",
            "json",
        ],
        "",
    );
    let one: Value = serde_json::from_str(one.trim()).expect("JSON");
    assert_valid("lights-solve", &one, "3 colours");
    assert_invalid("lights", &one, "a family answer is not a Fliptile answer");
    assert_invalid(
        "lights-solve",
        &with(&one, "colour", json!(16)),
        "colour 16",
    );
    assert_invalid(
        "lights-solve",
        &with(&one, "goal", json!("all")),
        "goal all",
    );
    assert_invalid(
        "lights-solve",
        &with(&one, "colour", Value::Null),
        "solvable, no colour",
    );
    assert_invalid("lights-solve", &renamed(&one, "rounds", "count"), "count");
    let info: Value = serde_json::from_str(&ok(&["lights", "info", "4x4", "--format", "json"], ""))
        .expect("JSON");
    assert_valid("lights-info", &info, "4x4");
    assert_invalid(
        "lights-info",
        &with(&info, "solvable_boards", json!(4096)),
        "a number",
    );
}
