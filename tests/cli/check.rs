//! `boardbase check` on small programs with known faults: each must get
//! exactly the verdicts it earns, against oracles written in the tests.
//!
//! Cost: Flip runs are samples (a few hundred runs of a few milliseconds);
//! Euler checks all 65,535 positions, but in one run a check; Carcassonne
//! checks its 600 boards in 12 runs of a C program that reads them;
//! Fliptile checks samples of 3 to 120 boards, one a run (about 450 runs
//! in all); Lights Out its 2,032 puzzles in one run. The full 65,536-run
//! Flip check is a manual run (see docs/guide.md).
#![cfg(unix)]

use crate::common;
use crate::family_answers;
use crate::oracle;
use crate::oracle::fliptile;
use crate::programs;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Instant;

use oracle::euler;
use serde_json::Value;

fn flip_oracle() -> &'static Vec<Option<u8>> {
    static TABLE: OnceLock<Vec<Option<u8>>> = OnceLock::new();
    TABLE.get_or_init(oracle::tables::flip_rounds_4x4)
}

/// Runs `boardbase check ARGS -- PROGRAM...` with a JSON report; returns
/// the exit status and the report.
fn check(args: &[&str], program: &[&str]) -> (i32, Value) {
    let mut args = args.to_vec();
    args.extend(["--format", "json"]);
    let r = check_text(&args, program);
    let report: Value = serde_json::from_str(&r.stdout)
        .unwrap_or_else(|e| panic!("JSON report ({e}): {}\nstderr: {}", r.stdout, r.stderr));
    (r.code, report)
}

/// Runs `boardbase check ARGS -- PROGRAM...` with the text report.
fn check_text(args: &[&str], program: &[&str]) -> common::Run {
    let mut all: Vec<&str> = vec!["check"];
    all.extend(args);
    all.push("--");
    all.extend(program);
    common::run(&all, "")
}

/// `name` in the scratch directory, with nothing there yet (a log the
/// programs append to).
fn fresh_log(name: &str) -> PathBuf {
    let log = programs::scratch().join(name);
    let _ = std::fs::remove_file(&log);
    log
}

/// A group's details as `label -> count`.
fn details(group: &Value) -> HashMap<String, u64> {
    group["details"]
        .as_array()
        .expect("details")
        .iter()
        .map(|d| {
            (
                d["label"].as_str().unwrap().to_owned(),
                d["count"].as_u64().unwrap(),
            )
        })
        .collect()
}

fn path(p: &Path) -> &str {
    p.to_str().expect("UTF-8 path")
}

fn count(report: &Value, verdict: &str) -> u64 {
    report["case_verdicts"][verdict].as_u64().expect("a count")
}

/// The groups as `id -> count`.
fn groups(report: &Value) -> HashMap<String, u64> {
    report["groups"]
        .as_array()
        .expect("groups")
        .iter()
        .map(|g| {
            (
                g["id"].as_str().unwrap().to_owned(),
                g["count"].as_u64().unwrap(),
            )
        })
        .collect()
}

/// The log the Flip programs append to: board bits and the answer given.
fn read_log(log: &Path) -> Vec<(u16, String)> {
    std::fs::read_to_string(log)
        .expect("log written")
        .lines()
        .map(|line| {
            let (text, answer) = line.split_once(' ').expect("BOARD ANSWER");
            let bits = text
                .bytes()
                .enumerate()
                .fold(0u16, |b, (i, ch)| b | (u16::from(ch == b'b') << i));
            (bits, answer.to_owned())
        })
        .collect()
}

#[test]
fn flip_right_solution_is_accepted() {
    let program = programs::flip_solution(0);
    let log = fresh_log("flip-right.log");
    let (code, r) = check(
        &["flip", "--sample", "300", "--seed", "1"],
        &[path(&program), path(&log)],
    );
    assert_eq!(code, 0, "{r}");
    assert_eq!(count(&r, "accepted"), 300);
    assert_eq!(
        (r["cases"].as_u64(), r["runs"].as_u64()),
        (Some(300), Some(300))
    );
    assert_eq!(r["sampled"], true);
    // 300 distinct boards, one a run, each answered as the oracle says.
    let seen = read_log(&log);
    assert_eq!(seen.len(), 300);
    let mut boards: Vec<u16> = seen.iter().map(|(b, _)| *b).collect();
    boards.sort_unstable();
    boards.dedup();
    assert_eq!(boards.len(), 300);
    for (board, answer) in &seen {
        assert_eq!(
            *answer,
            fliptile::flip_answer(flip_oracle()[*board as usize])
        );
    }
    // Another seed, another sample.
    let _ = std::fs::remove_file(&log);
    let (code, _) = check(
        &["flip", "--sample", "20", "--seed", "2"],
        &[path(&program), path(&log)],
    );
    assert_eq!(code, 0);
    let other: Vec<u16> = read_log(&log).iter().map(|(b, _)| *b).collect();
    assert!(other.iter().any(|b| !boards.contains(b)));
}

#[test]
fn flip_zero_for_impossible_is_wrong_exactly_on_impossible_boards() {
    let program = programs::flip_solution(1);
    let log = fresh_log("flip-zero.log");
    let (code, r) = check(
        &["flip", "--sample", "200", "--seed", "7", "--show", "1000"],
        &[path(&program), path(&log)],
    );
    assert_eq!(code, 1);
    let seen = read_log(&log);
    let impossible: Vec<u16> = seen
        .iter()
        .filter(|(b, _)| flip_oracle()[*b as usize].is_none())
        .map(|(b, _)| *b)
        .collect();
    assert!(impossible.len() > 150, "15 of 16 boards are impossible");
    assert_eq!(count(&r, "wrong_answer"), impossible.len() as u64);
    assert_eq!(count(&r, "accepted"), 200 - impossible.len() as u64);
    let g = groups(&r);
    assert_eq!(g.len(), 1);
    assert_eq!(g["impossible_answered_number"], impossible.len() as u64);
    assert_eq!(r["groups"][0]["details"][0]["label"], "answered 0");
    // Every failure is listed (--show 1000), drawn, and is an impossible board.
    let failures = r["failures"].as_array().unwrap();
    assert_eq!(failures.len(), impossible.len());
    for f in failures {
        let case = f["view"]["key"].as_u64().unwrap() as u16;
        assert!(impossible.contains(&case));
        assert_eq!(
            (f["expected"].as_str(), f["received"].as_str()),
            (Some("Impossible"), Some("0"))
        );
        assert_eq!(f["verdict"], "wrong_answer");
        assert_eq!(f["view"]["input"].as_array().unwrap().len(), 4);
        assert_eq!(f["line"], 1);
    }
    // The text report says the same for people.
    let text = check_text(
        &["flip", "--sample", "200", "--seed", "7"],
        &[path(&program)],
    );
    assert_eq!(text.code, 1);
    assert!(
        text.stdout
            .contains("impossible board answered with a number"),
        "{}",
        text.stdout
    );
    assert!(
        text.stdout.contains("expected  Impossible"),
        "{}",
        text.stdout
    );
    assert!(text.stdout.contains(&format!(
        "not accepted: {} of 200 boards failed",
        impossible.len()
    )));
}

#[test]
fn flip_crash_is_a_runtime_error_with_its_signal() {
    let program = programs::flip_solution(2);
    let log = fresh_log("flip-crash.log");
    let (code, r) = check(
        &["flip", "--sample", "60", "--seed", "3"],
        &[path(&program), path(&log)],
    );
    assert_eq!(code, 1);
    // Boards whose first piece is black abort before logging.
    let survived = read_log(&log).len() as u64;
    assert_eq!(count(&r, "accepted"), survived);
    assert_eq!(count(&r, "runtime_error"), 60 - survived);
    assert!(survived > 10 && survived < 50);
    assert_eq!(r["groups"][0]["id"], "signal");
    assert_eq!(r["groups"][0]["details"][0]["label"], "SIGABRT (aborted)");
}

#[test]
fn flip_malformed_answers() {
    // A word the judge does not print is a Wrong Answer, as the judge says
    // (strict, by default); compared as tokens, a Presentation Error.
    let program = programs::flip_solution(3);
    let args = ["flip", "--sample", "40", "--seed", "4"];
    let (code, r) = check(&args, &[path(&program)]);
    assert_eq!(code, 1);
    assert_eq!(count(&r, "presentation_error"), 0);
    let bad = count(&r, "wrong_answer");
    assert!(bad > 30);
    assert_eq!(count(&r, "accepted"), 40 - bad);
    assert_eq!(groups(&r)["not_an_answer"], bad);
    assert_eq!(r["groups"][0]["details"][0]["label"], "'Impossible.'");
    assert_eq!(r["groups"][0]["verdict"], "wrong_answer");
    assert_eq!(r["presentation"], "strict");
    let (_, tokens) = check(
        &[&args[..], &["--presentation", "tokens"]].concat(),
        &[path(&program)],
    );
    assert_eq!(count(&tokens, "presentation_error"), bad);
    assert_eq!(count(&tokens, "wrong_answer"), 0);
    assert_eq!(tokens["presentation"], "tokens");
    // Extra output after a right answer, and a word spelt otherwise.
    let extra = programs::script("flip-extra", "cat >/dev/null; echo Impossible; echo 4");
    let (code, r) = check(&["flip", "--sample", "5"], &[path(&extra)]);
    assert_eq!(code, 1);
    assert_eq!(count(&r, "accepted"), 0);
    assert!(groups(&r).contains_key("extra_output"), "{r}");
    let lower = programs::script("flip-lower", "cat >/dev/null; echo impossible");
    let (_, r) = check(&["flip", "--sample", "30", "--seed", "5"], &[path(&lower)]);
    assert!(groups(&r)["misspelt"] > 20, "{r}");
}

#[test]
fn flip_flood_is_an_output_limit() {
    // Prints forever: killed at the output cap (64 KiB and a bit), not
    // read into memory without end.
    let flood = programs::script("flip-flood", "yes 4");
    let (code, r) = check(&["flip", "--sample", "3"], &[path(&flood)]);
    assert_eq!(code, 1);
    assert_eq!(count(&r, "output_limit_exceeded"), 3);
    assert_eq!(groups(&r)["output_limit"], 3);
}

#[test]
fn flip_slow_program_is_killed_at_the_limit() {
    let slow = programs::script("flip-slow", "sleep 30");
    let started = Instant::now();
    let (code, r) = check(
        &["flip", "--sample", "4", "--timeout", "0.2", "--jobs", "2"],
        &[path(&slow)],
    );
    assert_eq!(code, 1);
    assert_eq!(count(&r, "time_limit_exceeded"), 4);
    assert_eq!(r["time_limit_seconds"], 0.2);
    // Two rounds of two runs of 0.2 s, not 30 s.
    assert!(started.elapsed().as_secs_f64() < 10.0);
}

/// Spinners pinned to CPU 0, stopped when dropped.
struct Spinners(Vec<std::process::Child>);

impl Spinners {
    fn start(n: usize) -> Spinners {
        Spinners(
            (0..n)
                .map(|_| {
                    std::process::Command::new("taskset")
                        .args(["-c", "0", "sh", "-c", "while :; do :; done"])
                        .spawn()
                        .expect("taskset (util-linux) starts a spinner")
                })
                .collect(),
        )
    }
}

impl Drop for Spinners {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// `boardbase check flip --time-limit 1 ARGS -- PROGRAM` on CPU 0 alone.
fn pinned_check(args: &str, program: &Path) -> std::process::Output {
    std::process::Command::new("taskset")
        .args([
            "-c",
            "0",
            common::binary(),
            "check",
            "flip",
            "--time-limit",
            "1",
        ])
        .args(args.split(' '))
        .args(["--", path(program)])
        .output()
        .expect("taskset (util-linux) runs the check")
}

#[test]
fn a_program_using_cpu_on_a_busy_core_is_judged_by_its_cpu_time() {
    // 0.5 s of CPU against a limit of 1 s, on a core shared with two
    // spinners (a third of it: 1.5 s of wall-clock time), under a guard of
    // 1.2 s: the guard moves on while the program gains CPU time, and the
    // runs are accepted, each with its 0.5 s. Three times, since a verdict
    // that depends on the load fails now and then.
    let burner = programs::flip_solution_burning(0, 500);
    let _spinners = Spinners::start(2);
    for attempt in 0..3 {
        let out = pinned_check(
            "--sample 2 --jobs 1 --wall-limit 1.2 --format json",
            &burner,
        );
        let r: Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
        assert_eq!(out.status.code(), Some(0), "attempt {attempt}: {r}");
        assert_eq!(count(&r, "accepted"), 2, "attempt {attempt}: {r}");
        assert_eq!(r["wall_limit_runs"]["count"], 0, "attempt {attempt}: {r}");
    }
    // A sleeper on the same busy core is still ended at the guard, with its
    // CPU time said in the report.
    let sleeper = programs::script("flip-sleeper", "sleep 30");
    let started = Instant::now();
    let run = pinned_check("--sample 1 --wall-limit 0.5", &sleeper);
    assert!(started.elapsed().as_secs_f64() < 10.0);
    let text = String::from_utf8_lossy(&run.stdout);
    assert_eq!(run.status.code(), Some(1), "{text}");
    assert!(
        text.contains("s of CPU time in 0.5") && text.contains("sleeping or waiting"),
        "{text}"
    );
}

#[test]
fn a_hopeless_check_stops_at_max_failures() {
    // Answers 0 to every board: wrong on all but the uniform ones.
    let zero = programs::script("flip-zero", "read a; read b; read c; read d; echo 0");
    let args: Vec<&str> = "flip --sample 60 --jobs 1 --max-failures 5"
        .split(' ')
        .collect();
    let (code, r) = check(&args, &[path(&zero)]);
    assert_eq!(code, 1, "{r}");
    assert_eq!(r["stopped"], "max_failures", "{r}");
    assert_eq!(r["max_failures"], 5);
    assert_eq!(r["runs"], 60);
    let done = r["runs_done"].as_u64().unwrap();
    let accepted = r["run_verdicts"]["accepted"].as_u64().unwrap();
    // One run at a time: it stopped right at the fifth failing run.
    assert_eq!(done - accepted, 5, "{r}");
    assert!(done < 60, "{r}");
    assert_eq!(r["case_verdicts"]["wrong_answer"], 5, "{r}");
    let text = check_text(&args, &[path(&zero)]);
    assert_eq!(text.code, 1);
    let last = text.stdout.lines().last().unwrap_or_default();
    assert!(
        last.starts_with(
            "not accepted: stopped at 5 failing runs (--max-failures 5; 0 runs every one)"
        ),
        "{}",
        text.stdout
    );
    // 0: every run.
    let (_, r) = check(
        &["flip", "--sample", "20", "--max-failures", "0"],
        &[path(&zero)],
    );
    assert_eq!(
        (r["runs_done"].as_u64(), r["stopped"].is_null()),
        (Some(20), true),
        "{r}"
    );
    assert_eq!(r["max_failures"], Value::Null);
}

#[test]
fn an_interrupted_check_reports_the_runs_done() {
    // A right program, slow enough that the check is under way when it is
    // interrupted.
    let right = programs::flip_solution(0);
    let slow = programs::script(
        "flip-slow-right",
        &format!("sleep 0.05; exec '{}'", right.display()),
    );
    for format in ["json", "text"] {
        // Every run the program finished is right: a run saved would be
        // one the interrupt cut short, judged as the program's failure.
        let saved = common::TempDir::new(&format!("interrupted-{format}"));
        let child = std::process::Command::new(common::binary())
            .args(["check", "flip", "--sample", "1000", "--jobs", "1"])
            .args(["--save", saved.path()])
            .args(["--format", format, "--", path(&slow)])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("the check starts");
        std::thread::sleep(std::time::Duration::from_millis(1500));
        let killed = std::process::Command::new("kill")
            .args(["-INT", &child.id().to_string()])
            .status()
            .expect("kill");
        assert!(killed.success());
        let started = Instant::now();
        let out = child.wait_with_output().expect("the check ends");
        assert!(started.elapsed().as_secs_f64() < 10.0);
        assert_eq!(out.status.code(), Some(130), "{format}");
        assert_eq!(saved.names(), Vec::<String>::new(), "{format}");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("interrupted"), "{stderr}");
        if format == "json" {
            let r: Value = serde_json::from_str(&stdout).expect("the JSON report");
            assert_eq!(r["stopped"], "interrupted", "{r}");
            let done = r["runs_done"].as_u64().unwrap();
            assert!((1..1000).contains(&done), "{r}");
            // The run the signal cut short is not judged: every run judged
            // is the right program's, accepted.
            assert_eq!(r["run_verdicts"]["accepted"].as_u64(), Some(done), "{r}");
        } else {
            let last = stdout.lines().last().unwrap_or_default();
            assert!(last.starts_with("interrupted: "), "{stdout}");
            assert!(last.contains("of 1,000 runs done"), "{stdout}");
            assert!(
                last.ends_with("0 of ") || last.contains("; 0 of "),
                "{stdout}"
            );
        }
    }
}

#[test]
fn flip_program_that_cannot_start_is_a_usage_error() {
    let r = check_text(&["flip"], &["/nonexistent/solution"]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("cannot start /nonexistent/solution"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("No such file"), "{}", r.stderr);
    let r = common::run(&["check", "flip"], "");
    assert_eq!(r.code, 2, "no program");
    let r = check_text(&["flip", "--timeout", "0"], &["true"]);
    assert_eq!(r.code, 2, "zero limit");
}

fn euler_truth() -> (Vec<bool>, Vec<u8>) {
    oracle::tables::solve_euler_4x4(&euler::moves_4x4())
}

#[test]
fn euler_right_solution_is_accepted_on_every_position_in_one_run() {
    let program = programs::euler_solution("euler-right", 3, 0, 0, false);
    let (code, r) = check(&["euler"], &[path(&program)]);
    assert_eq!(code, 0, "{r}");
    assert_eq!(
        (r["cases"].as_u64(), r["runs"].as_u64()),
        (Some(65_535), Some(1))
    );
    assert_eq!(count(&r, "accepted"), 65_535);
    assert_eq!(r["time_limit_seconds"], 3.0);
}

#[test]
fn euler_forgotten_long_pins_are_wrong_exactly_where_the_rules_differ() {
    let program = programs::euler_solution("euler-short", 2, 0, 0, false);
    let (code, r) = check(&["euler", "--show", "2"], &[path(&program)]);
    assert_eq!(code, 1);
    let (right, plies) = euler_truth();
    let (short, _) = oracle::tables::solve_euler_4x4(&euler::moves_4x4_up_to(2));
    let (mut loss_as_win, mut win_as_loss) = (0u64, 0u64);
    let mut by_plies: HashMap<String, u64> = HashMap::new();
    for p in 0..0xFFFF {
        match (right[p], short[p]) {
            (false, true) => loss_as_win += 1,
            (true, false) => win_as_loss += 1,
            _ => continue,
        }
        if !right[p] {
            *by_plies
                .entry(format!("{} moves left", plies[p]))
                .or_default() += 1;
        }
    }
    assert!(loss_as_win > 0 && win_as_loss > 0);
    assert_eq!(count(&r, "wrong_answer"), loss_as_win + win_as_loss);
    assert_eq!(count(&r, "accepted"), 65_535 - loss_as_win - win_as_loss);
    let g = groups(&r);
    assert_eq!(g["losing_called_winning"], loss_as_win);
    assert_eq!(g["winning_called_losing"], win_as_loss);
    // Sub-groups by moves left, as the oracle counts them.
    let group = r["groups"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == "losing_called_winning")
        .unwrap();
    for d in group["details"].as_array().unwrap() {
        let label = d["label"].as_str().unwrap();
        if label != "others" {
            assert_eq!(d["count"].as_u64(), by_plies.get(label).copied(), "{label}");
        }
    }
    // Each listed failure names the line the wrong answer is on.
    let f = &r["failures"][0];
    assert_eq!(f["line"], f["number"]);
    assert_eq!(r["failing_runs"][0]["verdict"], "wrong_answer");
}

#[test]
fn euler_crash_half_way_has_its_answered_prefix_judged() {
    let program = programs::euler_solution("euler-abort", 3, 1000, 0, false);
    let (code, r) = check(&["euler"], &[path(&program)]);
    assert_eq!(code, 1);
    assert_eq!(count(&r, "accepted"), 1000);
    assert_eq!(count(&r, "runtime_error"), 64_535);
    assert_eq!(r["run_verdicts"]["runtime_error"], 1);
    assert_eq!(r["failing_runs"][0]["answered"], 1000);
    assert_eq!(r["groups"][0]["details"][0]["label"], "SIGABRT (aborted)");
    assert_eq!(r["failures"][0]["number"], 1001);
}

#[test]
fn euler_malformed_line_and_extra_output() {
    // A word in other capitals: UVa's judge compares the output exactly.
    let program = programs::euler_solution("euler-lower", 3, 0, 500, false);
    let (code, r) = check(&["euler"], &[path(&program)]);
    assert_eq!(code, 1);
    assert_eq!(count(&r, "wrong_answer"), 1);
    assert_eq!(count(&r, "accepted"), 65_534);
    let f = &r["failures"][0];
    assert_eq!(
        (f["number"].as_u64(), f["line"].as_u64()),
        (Some(500), Some(500))
    );
    assert_eq!(f["kind"], "misspelt");
    assert_eq!(r["failing_runs"][0]["verdict"], "wrong_answer");

    let program = programs::euler_solution("euler-extra", 3, 0, 0, true);
    let (code, r) = check(&["euler"], &[path(&program)]);
    assert_eq!(code, 1, "output after the last answer is not accepted");
    assert_eq!(count(&r, "accepted"), 65_535);
    assert_eq!(r["failing_runs"][0]["kind"], "extra_output");
    assert!(
        r["failing_runs"][0]["what"]
            .as_str()
            .unwrap()
            .contains("line 65536")
    );
}

#[test]
fn euler_program_that_never_reads_its_input() {
    // 1.3 MB of input it never reads: no deadlock, killed at the limit.
    let sleeper = programs::script("euler-sleeper", "sleep 30");
    let started = Instant::now();
    let (code, r) = check(&["euler", "--timeout", "0.3"], &[path(&sleeper)]);
    assert_eq!(code, 1);
    assert_eq!(count(&r, "time_limit_exceeded"), 65_535);
    assert!(started.elapsed().as_secs_f64() < 10.0);
    // One that answers one line and exits without reading.
    let quitter = programs::script("euler-quitter", "echo WINNING");
    let (code, r) = check(&["euler"], &[path(&quitter)]);
    assert_eq!(code, 1);
    // The answers it never gave are missing: a Wrong Answer, as UVa says.
    assert_eq!(count(&r, "accepted") + count(&r, "wrong_answer"), 65_535);
    assert_eq!(groups(&r)["missing_answer"], 65_534);
}

#[test]
fn carcassonne_verdicts() {
    // Every answer 0: planted boards always have placements, so all 150
    // (3 runs of 50) are wrong, and the groups say which family and size.
    let zero = programs::carcassonne_zero("carcassonne-zero", "Case ");
    let (code, r) = check(
        &["carcassonne", "--family", "planted", "--show", "0"],
        &[path(&zero)],
    );
    assert_eq!(code, 1);
    assert_eq!(
        (r["cases"].as_u64(), r["runs"].as_u64()),
        (Some(150), Some(3))
    );
    assert_eq!(count(&r, "wrong_answer"), 150);
    assert_eq!(groups(&r)["nonzero_answered_zero"], 150);
    let details: HashMap<String, u64> = details(&r["groups"][0]);
    for class in ["small (N, M ≤ 4)", "mixed (N, M ≤ 12)", "12x12"] {
        assert_eq!(
            details.get(&format!("planted, {class}")),
            Some(&50),
            "{class}: {details:?}"
        );
    }
    // Random boards mostly have none (almost all 12×12 ones): the zeros
    // are accepted, the others are wrong in the same way.
    let (_, r) = check(&["carcassonne", "--family", "random"], &[path(&zero)]);
    assert_eq!(r["cases"], 150);
    assert!(count(&r, "accepted") >= 60, "{r}");
    assert_eq!(count(&r, "accepted") + count(&r, "wrong_answer"), 150);
    assert!(groups(&r).keys().all(|k| k == "nonzero_answered_zero"));

    // A wrong label is a wrong word, whatever the count: a Wrong Answer as
    // HDU judges it, a Presentation Error compared as tokens.
    let label = programs::carcassonne_zero("carcassonne-label", "Case #");
    let args = ["carcassonne", "--family", "random", "--sample", "60"];
    let (code, r) = check(&args, &[path(&label)]);
    assert_eq!(code, 1);
    assert_eq!(count(&r, "wrong_answer"), 60);
    let (_, tokens) = check(
        &[&args[..], &["--presentation", "tokens"]].concat(),
        &[path(&label)],
    );
    assert_eq!(count(&tokens, "presentation_error"), 60);
    assert_eq!(
        r["groups"][0]["details"][0]["label"],
        "'Case #k:' for 'Case k:'"
    );
}

#[test]
fn filters_choose_the_cases() {
    // Only impossible boards: the program that answers 0 for them fails all.
    let zero = programs::flip_solution(1);
    let (code, r) = check(
        &["flip", "--family", "impossible", "--sample", "30"],
        &[path(&zero)],
    );
    assert_eq!(code, 1);
    assert_eq!(count(&r, "wrong_answer"), 30);
    // Only solvable boards taking 6 rounds: all 256 of them, and it is right.
    let (code, r) = check(&["flip", "--rounds", "6", "--show", "0"], &[path(&zero)]);
    assert_eq!((code, r["cases"].as_u64()), (0, Some(256)));
    // Only 13-move losses, for a program that forgets the 3-long pins.
    let short = programs::euler_solution("euler-short-13", 2, 0, 0, false);
    let (code, r) = check(
        &["euler", "--family", "losing", "--moves-left", "13"],
        &[path(&short)],
    );
    let (right, plies) = euler_truth();
    let (short_win, _) = oracle::tables::solve_euler_4x4(&euler::moves_4x4_up_to(2));
    let cases = (0..0xFFFF).filter(|&p| !right[p] && plies[p] == 13).count() as u64;
    let wrong = (0..0xFFFF)
        .filter(|&p| !right[p] && plies[p] == 13 && short_win[p])
        .count() as u64;
    assert_eq!(r["cases"].as_u64(), Some(cases));
    assert_eq!(count(&r, "wrong_answer"), wrong);
    assert_eq!(code, i32::from(wrong > 0));
    // A filter nothing passes, or one for another puzzle: usage errors.
    let r = check_text(
        &["euler", "--family", "winning", "--moves-left", "13"],
        &["true"],
    );
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .contains("no winning Euler position lasting 13 moves exists"),
        "{}",
        r.stderr
    );
    let r = check_text(&["flip", "--moves-left", "3"], &["true"]);
    assert_eq!(r.code, 2);
    let r = check_text(&["carcassonne", "--family", "impossible"], &["true"]);
    assert_eq!(r.code, 2);
}

#[test]
fn carcassonne_counter_is_accepted() {
    // boardbase's own counter (a debug build here, hence the limit).
    let bin = env!("CARGO_BIN_EXE_boardbase");
    let (code, r) = check(
        &[
            "carcassonne",
            "--sample",
            "48",
            "--seed",
            "2",
            "--timeout",
            "60",
        ],
        &[bin, "carcassonne"],
    );
    assert_eq!(code, 0, "{r}");
    assert_eq!(count(&r, "accepted"), 48);
}

/// The boards a Fliptile program logged: (rows, cols, row-major cells).
fn fliptile_log(log: &Path) -> Vec<(usize, usize, Vec<u8>)> {
    std::fs::read_to_string(log)
        .expect("log written")
        .lines()
        .map(|line| {
            let w: Vec<&str> = line.split(' ').collect();
            let cells = w[2].bytes().map(|b| b - b'0').collect();
            (w[0].parse().unwrap(), w[1].parse().unwrap(), cells)
        })
        .collect()
}

/// The board of a reported failure, as (rows, cols, cells).
fn failure_board(f: &Value) -> (usize, usize, Vec<u8>) {
    let lines: Vec<&str> = f["view"]["input"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    let cells: Vec<u8> = lines
        .iter()
        .flat_map(|l| l.split(' ').map(|c| c.parse::<u8>().unwrap()))
        .collect();
    let rows = lines.len();
    (rows, cells.len() / rows, cells)
}

#[test]
fn fliptile_right_solution_is_accepted() {
    let program = programs::fliptile_solution(0);
    let log = fresh_log("fliptile-right.log");
    let (code, r) = check(
        &["fliptile", "--sample", "80", "--seed", "1"],
        &[path(&program), path(&log)],
    );
    assert_eq!(code, 0, "{r}");
    assert_eq!(count(&r, "accepted"), 80);
    assert_eq!(
        (r["runs"].as_u64(), r["time_limit_seconds"].as_f64()),
        (Some(80), Some(2.0))
    );
    // The sample holds every kind of board the judge can send.
    let boards = fliptile_log(&log);
    assert_eq!(boards.len(), 80);
    let truths: Vec<_> = boards
        .iter()
        .map(|(m, n, cells)| fliptile::fliptile_truth(*m, *n, cells))
        .collect();
    assert!(truths.iter().any(Option::is_none), "impossible boards");
    assert!(
        truths.iter().flatten().any(|t| t.optimal >= 2),
        "tied boards"
    );
    assert!(
        boards.iter().any(|&(m, n, _)| (m, n) == (15, 15)),
        "the largest"
    );
    assert!(
        boards
            .iter()
            .all(|&(m, n, _)| (1..=15).contains(&m) && (1..=15).contains(&n))
    );
}

#[test]
fn fliptile_last_minimum_is_wrong_exactly_where_minimal_sets_tie() {
    // `<=` for `<`: keeps the last of the fewest flip sets, not the least.
    let program = programs::fliptile_solution(1);
    let log = fresh_log("fliptile-last.log");
    let (code, r) = check(
        &[
            "fliptile", "--sample", "120", "--seed", "2", "--show", "1000",
        ],
        &[path(&program), path(&log)],
    );
    assert_eq!(code, 1);
    let mut ties: HashMap<String, u64> = HashMap::new();
    for (m, n, cells) in fliptile_log(&log) {
        if let Some(t) = fliptile::fliptile_truth(m, n, &cells)
            && t.optimal >= 2
        {
            *ties
                .entry(format!("one of {} fewest flip sets", t.optimal))
                .or_default() += 1;
        }
    }
    let tied: u64 = ties.values().sum();
    assert!(tied > 10, "{ties:?}");
    assert_eq!(count(&r, "wrong_answer"), tied);
    assert_eq!(count(&r, "accepted"), 120 - tied);
    assert_eq!(groups(&r), HashMap::from([("not_least".to_owned(), tied)]));
    for d in r["groups"][0]["details"].as_array().unwrap() {
        assert_eq!(
            d["count"].as_u64(),
            ties.get(d["label"].as_str().unwrap()).copied(),
            "{d}"
        );
    }
    // Each failure is drawn with the oracle's answer, the received one in
    // rows, and the received flips really are another minimum.
    for f in r["failures"].as_array().unwrap() {
        let (m, n, cells) = failure_board(f);
        let t = fliptile::fliptile_truth(m, n, &cells).expect("solvable");
        let expected = fliptile::fliptile_text(n, Some(&t.least));
        assert_eq!(f["expected"].as_str().unwrap(), expected.trim_end());
        let received: Vec<u8> = f["received"]
            .as_str()
            .unwrap()
            .split_whitespace()
            .map(|c| c.parse().unwrap())
            .collect();
        assert_eq!(f["received"].as_str().unwrap().lines().count(), m);
        assert_eq!(received.iter().filter(|&&x| x == 1).count(), t.fewest);
        assert!(received > t.least);
    }
    // Only boards with tied sets: every one fails.
    let (_, r) = check(
        &["fliptile", "--family", "ties", "--sample", "30"],
        &[path(&program)],
    );
    assert_eq!(
        (count(&r, "wrong_answer"), r["cases"].as_u64()),
        (30, Some(30))
    );
    // The text report draws the board and both answers side by side.
    let text = check_text(
        &[
            "fliptile", "--family", "ties", "--sample", "3", "--show", "1",
        ],
        &[path(&program)],
    );
    assert_eq!(text.code, 1);
    assert!(
        text.stdout.contains(
            "a minimum flip set, but not the least in reading order (the judge's tie rule)"
        ),
        "{}",
        text.stdout
    );
    assert!(text.stdout.contains("board") && text.stdout.contains("expected"));
    assert!(
        text.stdout.contains("received  (output line 1)"),
        "{}",
        text.stdout
    );
}

#[test]
fn fliptile_first_solution_is_not_minimal_where_the_oracle_says() {
    // The first flip set that works, in reading order, not the fewest.
    let program = programs::fliptile_solution(4);
    let log = fresh_log("fliptile-first.log");
    let (code, r) = check(
        &[
            "fliptile", "--family", "solvable", "--sample", "60", "--seed", "3",
        ],
        &[path(&program), path(&log)],
    );
    assert_eq!(code, 1);
    let mut more: HashMap<String, u64> = HashMap::new();
    for (m, n, cells) in fliptile_log(&log) {
        let t = fliptile::fliptile_truth(m, n, &cells).expect("solvable family");
        let first = t.first.iter().filter(|&&x| x == 1).count();
        if first > t.fewest {
            let d = first - t.fewest;
            let s = if d == 1 { "" } else { "s" };
            *more
                .entry(format!("{d} flip{s} more than the fewest"))
                .or_default() += 1;
        }
    }
    let wrong: u64 = more.values().sum();
    assert!(wrong > 5, "{more:?}");
    assert_eq!(count(&r, "wrong_answer"), wrong);
    assert_eq!(
        groups(&r),
        HashMap::from([("not_minimum".to_owned(), wrong)])
    );
    let details: HashMap<String, u64> = details(&r["groups"][0]);
    if more.len() <= 12 {
        assert_eq!(details, more);
    }
}

#[test]
fn fliptile_malformed_answers() {
    // `Impossible`: the judge's word in other capitals, on impossible
    // boards only.
    let program = programs::fliptile_solution(2);
    let log = fresh_log("fliptile-word.log");
    let (code, r) = check(
        &["fliptile", "--sample", "60", "--seed", "4"],
        &[path(&program), path(&log)],
    );
    assert_eq!(code, 1);
    let impossible = fliptile_log(&log)
        .iter()
        .filter(|(m, n, cells)| fliptile::fliptile_truth(*m, *n, cells).is_none())
        .count() as u64;
    assert!(impossible > 5);
    assert_eq!(count(&r, "wrong_answer"), impossible);
    assert_eq!(count(&r, "accepted"), 60 - impossible);
    assert_eq!(
        r["groups"][0]["details"][0]["label"],
        "'Impossible' for 'IMPOSSIBLE'"
    );
    // Cells run together: wrong on every solvable board wider than 1.
    let program = programs::fliptile_solution(3);
    let log = fresh_log("fliptile-together.log");
    let (_, r) = check(
        &["fliptile", "--sample", "60", "--seed", "4"],
        &[path(&program), path(&log)],
    );
    let together = fliptile_log(&log)
        .iter()
        .filter(|(m, n, cells)| *n > 1 && fliptile::fliptile_truth(*m, *n, cells).is_some())
        .count() as u64;
    assert_eq!(
        groups(&r),
        HashMap::from([("not_an_answer".to_owned(), together)])
    );
    assert_eq!(
        r["groups"][0]["details"][0]["label"],
        "cells run together (the judge separates them by spaces)"
    );
    // The right cells, only the spaces between them missing: POJ's
    // Presentation Error.
    assert_eq!(count(&r, "presentation_error"), together);
    // Too few cells, and output after the answer.
    let one = programs::script("fliptile-one", "cat >/dev/null; echo 1");
    let (_, r) = check(
        &["fliptile", "--family", "impossible", "--sample", "10"],
        &[path(&one)],
    );
    assert_eq!(groups(&r), HashMap::from([("wrong_size".to_owned(), 10)]));
    let extra = programs::script("fliptile-extra", "cat >/dev/null; echo IMPOSSIBLE; echo 0");
    let (_, r) = check(
        &["fliptile", "--family", "impossible", "--sample", "10"],
        &[path(&extra)],
    );
    assert_eq!(groups(&r), HashMap::from([("extra_output".to_owned(), 10)]));
    assert_eq!(r["failures"][0]["received"], "IMPOSSIBLE 0");
    // IMPOSSIBLE for every board: right on the impossible ones only.
    let (_, r) = check(
        &["fliptile", "--family", "solvable", "--sample", "10"],
        &[path(&programs::script(
            "fliptile-never",
            "cat >/dev/null; echo IMPOSSIBLE",
        ))],
    );
    assert_eq!(
        groups(&r),
        HashMap::from([("solvable_answered_impossible".to_owned(), 10)])
    );
}

/// The puzzles `check lightsout --seed SEED` sends, in case order: all off,
/// the 30 with one light on, all on, then 2,000 drawn as `cases lightsout`.
fn lightsout_puzzles(seed: u64) -> Vec<Vec<u8>> {
    let mut puzzles = vec![vec![0u8; 30]];
    for cell in 0..30 {
        let mut one = vec![0u8; 30];
        one[cell] = 1;
        puzzles.push(one);
    }
    puzzles.push(vec![1u8; 30]);
    let text = common::ok(
        &[
            "cases",
            "lightsout",
            "--cases",
            "2000",
            "--seed",
            &seed.to_string(),
        ],
        "",
    );
    let cells: Vec<u8> = text
        .split_whitespace()
        .skip(1)
        .map(|c| c.parse().unwrap())
        .collect();
    puzzles.extend(cells.chunks(30).map(<[u8]>::to_vec));
    puzzles
}

#[test]
fn lightsout_right_solution_is_accepted_in_one_run() {
    let program = programs::lightsout_solution("lightsout-right", "PUZZLE #", false, 0);
    let (code, r) = check(&["lightsout"], &[path(&program)]);
    assert_eq!(code, 0, "{r}");
    assert_eq!(
        (r["cases"].as_u64(), r["runs"].as_u64()),
        (Some(2032), Some(1))
    );
    assert_eq!(count(&r, "accepted"), 2032);
}

#[test]
fn lightsout_skipped_first_row_is_wrong_exactly_where_it_is_needed() {
    // First rows tried from 1: wrong on every puzzle whose presses leave
    // the first row alone (the all-off puzzle among them).
    let program = programs::lightsout_solution("lightsout-skip", "PUZZLE #", true, 0);
    let (code, r) = check(
        &["lightsout", "--seed", "5", "--show", "5000"],
        &[path(&program)],
    );
    assert_eq!(code, 1);
    let mut wrong: HashMap<&str, u64> = HashMap::new();
    for (case, puzzle) in lightsout_puzzles(5).iter().enumerate() {
        let t = fliptile::fliptile_truth(5, 6, puzzle).expect("5×6 is always solvable");
        assert_eq!(t.optimal, 1);
        if t.least[..6].iter().all(|&x| x == 0) {
            let class = match case {
                0 => "all lights off",
                1..=30 => "one light on",
                31 => "all lights on",
                _ => "random puzzles",
            };
            *wrong.entry(class).or_default() += 1;
        }
    }
    let total: u64 = wrong.values().sum();
    assert!(wrong["random puzzles"] > 10, "{wrong:?}");
    assert_eq!(count(&r, "wrong_answer"), total);
    assert_eq!(count(&r, "accepted"), 2032 - total);
    assert_eq!(
        groups(&r),
        HashMap::from([("presses_do_not_clear".to_owned(), total)])
    );
    for d in r["groups"][0]["details"].as_array().unwrap() {
        assert_eq!(
            d["count"].as_u64(),
            wrong.get(d["label"].as_str().unwrap()).copied()
        );
    }
    // Every failure: the oracle's presses under its own label.
    let failures = r["failures"].as_array().unwrap();
    assert_eq!(failures.len() as u64, total);
    for f in failures {
        let (rows, cols, cells) = failure_board(f);
        assert_eq!((rows, cols), (5, 6));
        let t = fliptile::fliptile_truth(5, 6, &cells).unwrap();
        let expected = format!(
            "PUZZLE #{}\n{}",
            f["number"],
            fliptile::fliptile_text(6, Some(&t.least))
        );
        assert_eq!(f["expected"].as_str().unwrap(), expected.trim_end());
        assert_eq!(
            f["line"].as_u64().unwrap(),
            6 * f["number"].as_u64().unwrap() - 5
        );
    }
}

#[test]
fn lightsout_labels_and_a_crash_half_way() {
    let program = programs::lightsout_solution("lightsout-label", "Puzzle #", false, 0);
    let (code, r) = check(&["lightsout"], &[path(&program)]);
    assert_eq!(code, 1);
    assert_eq!(count(&r, "wrong_answer"), 2032);
    assert_eq!(r["groups"][0]["id"], "wrong_puzzle_label");
    assert_eq!(
        r["groups"][0]["details"][0]["label"],
        "'Puzzle #k' for 'PUZZLE #m'"
    );
    let program = programs::lightsout_solution("lightsout-zero", "PUZZLE #0", false, 0);
    let (_, r) = check(&["lightsout", "--sample", "5"], &[path(&program)]);
    assert_eq!(
        r["groups"][0]["details"][0]["label"],
        "the wrong puzzle number"
    );
    // Aborts after 100 answers: those are judged, the rest are the crash's.
    let program = programs::lightsout_solution("lightsout-abort", "PUZZLE #", false, 100);
    let (code, r) = check(&["lightsout"], &[path(&program)]);
    assert_eq!(code, 1);
    assert_eq!(count(&r, "accepted"), 100);
    assert_eq!(count(&r, "runtime_error"), 1932);
    assert_eq!(r["failing_runs"][0]["answered"], 100);
    // No families: a usage error.
    let r = check_text(&["lightsout", "--family", "ties"], &["true"]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("lightsout has only random puzzles"),
        "{}",
        r.stderr
    );
}

#[test]
fn stderr_line_by_line_quoted_program_and_the_buffer_note() {
    // Seven lines on stderr, then a crash with no answer written.
    let noisy = programs::script(
        "euler-noisy",
        "cat >/dev/null; for i in 1 2 3 4 5 6 7; do echo \"line $i\" >&2; done; kill -SEGV $$",
    );
    let (code, r) = check(&["euler"], &[path(&noisy), "an arg"]);
    assert_eq!(code, 1);
    let run = &r["failing_runs"][0];
    assert_eq!(
        run["stderr"],
        "line 1\nline 2\nline 3\nline 4\nline 5\nline 6\nline 7\n"
    );
    assert_eq!(run["answered"], 0);
    assert!(
        run["note"].as_str().unwrap().contains("output buffer"),
        "{run}"
    );
    let t = check_text(&["euler"], &[path(&noisy), "an arg"]);
    assert_eq!(t.code, 1);
    assert!(
        t.stdout
            .contains(&format!("program: {} 'an arg'\n", path(&noisy))),
        "{}",
        t.stdout
    );
    // The last five lines, each on its own.
    assert!(
        t.stdout.contains(
            "    stderr (last lines):\n      | line 3\n      | line 4\n      | line 5\n      | line 6\n      | line 7\n"
        ),
        "{}",
        t.stdout
    );
    assert!(!t.stdout.contains("line 2"), "{}", t.stdout);
    assert!(
        t.stdout
            .contains("    note: answers the program wrote may have been lost")
    );
    // A program that exits by itself after one answer gets no such note.
    let quitter = programs::script("euler-quitter", "echo WINNING");
    let (_, r) = check(&["euler"], &[path(&quitter)]);
    assert_eq!(r["failing_runs"][0]["note"], Value::Null);
}

/// A Flip "solution" that reads its board, then allocates: `touch`: 1 MB
/// at a time, each page written, until malloc fails (then it writes
/// through the null pointer: SIGSEGV); `some`: 40 MB touched, then `0`
/// and exit status 0; `pair`: a forked child and the program touch 40 MB
/// each, and hold it together until the program has written `0`; else one
/// block of 256 MB, never touched, and exit status 3 when it cannot have it
/// (it prints `0` when it can).
fn allocator() -> PathBuf {
    programs::c_program(
        "flip-allocator",
        r#"#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
static char *keep[1024];
int main(int argc, char **argv) {
    char row[8];
    for (int r = 0; r < 4; r++) if (scanf("%7s", row) != 1) return 1;
    if (argc > 1 && strcmp(argv[1], "pair") == 0) {
        int ready[2];
        if (pipe(ready) != 0) return 4;
        fflush(stdout);
        pid_t child = fork();
        if (child != 0) close(ready[1]);
        for (int i = 0; i < 40; i++) {
            keep[i] = malloc(1 << 20);
            for (int j = 0; j < 1 << 20; j += 4096) ((volatile char *)keep[i])[j] = 1;
        }
        if (child == 0) {
            if (write(ready[1], "x", 1) != 1) return 4;
            pause();
            return 0;
        }
        char c;
        if (read(ready[0], &c, 1) != 1) return 4;
        printf("0\n");
        fflush(stdout);
        kill(child, SIGKILL);
        waitpid(child, 0, 0);
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "touch") == 0) {
        for (int i = 0; i < 1024; i++) {
            keep[i] = malloc(1 << 20);
            for (int j = 0; j < 1 << 20; j += 4096) ((volatile char *)keep[i])[j] = 1;
        }
        printf("%p\n", (void *)keep[1023]);
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "some") == 0) {
        for (int i = 0; i < 40; i++) {
            keep[i] = malloc(1 << 20);
            for (int j = 0; j < 1 << 20; j += 4096) ((volatile char *)keep[i])[j] = 1;
        }
        printf("0\n");
        return 0;
    }
    char *p = malloc(256 << 20);
    if (!p) return 3;
    printf("0 %p\n", (void *)p);
    return 0;
}
"#,
    )
}

#[test]
fn memory_limit_exceeded_by_touching_and_by_a_refused_block() {
    // The address-space limit, which every machine allows (a cgroup's:
    // below).
    let program = allocator();
    let limited = [
        "flip",
        "--sample",
        "2",
        "--memory-limit",
        "32",
        "--memory-control",
        "address-space",
    ];
    let (code, r) = check(&limited, &[path(&program), "touch"]);
    assert_eq!(code, 1);
    assert_eq!(r["memory_limit_mb"], 32.0);
    assert_eq!(r["memory_limit_kind"], "address_space");
    assert_eq!(count(&r, "memory_limit_exceeded"), 2, "{r}");
    assert_eq!(r["memory_limit_runs"]["count"], 2);
    assert_eq!(r["memory_limit_runs"]["first"], serde_json::json!([1, 2]));
    let run = &r["failing_runs"][0];
    assert_eq!(run["kind"], "memory_limit");
    assert!(
        run["what"]
            .as_str()
            .unwrap()
            .ends_with("SIGSEGV (segmentation fault)"),
        "{run}"
    );
    // It dies at the address space's limit: the limit and 64 MB.
    let peak = run["peak_memory_mb"].as_f64().unwrap();
    assert!((32.0..=96.0).contains(&peak), "peak {peak} MB");
    // 40 MB touched, within the address space, then a normal exit: over
    // the limit by its peak.
    let (code, r) = check(&limited, &[path(&program), "some"]);
    assert_eq!(code, 1);
    assert_eq!(count(&r, "memory_limit_exceeded"), 2, "{r}");
    assert_eq!(r["memory_limit_runs"]["count"], 2);
    let run = &r["failing_runs"][0];
    assert_eq!(run["kind"], "over_memory", "{run}");
    let peak = run["peak_memory_mb"].as_f64().unwrap();
    assert!((40.0..=48.0).contains(&peak), "peak {peak} MB");
    // Refused a 256 MB block at once: its peak is small, but without the
    // limit it exits normally.
    let (code, r) = check(&limited, &[path(&program)]);
    assert_eq!(code, 1);
    assert_eq!(count(&r, "memory_limit_exceeded"), 2, "{r}");
    assert_eq!(
        r["failing_runs"][0]["what"],
        "died at the memory limit (killed at it, or an allocation failed): exit status 3"
    );
    assert!(r["failing_runs"][0]["peak_memory_mb"].as_f64().unwrap() < 8.0);
    // With the limit lifted, the block is had: a wrong answer (or right,
    // on a board of 0 rounds), no memory verdict.
    let (_, r) = check(
        &["flip", "--sample", "2", "--memory-limit", "0"],
        &[path(&program)],
    );
    assert_eq!(r["memory_limit_kind"], "none");
    assert_eq!(r["memory_limit_mb"], Value::Null);
    assert_eq!(
        count(&r, "memory_limit_exceeded") + count(&r, "runtime_error"),
        0,
        "{r}"
    );
}

#[test]
fn cpu_time_limit_wall_clock_guard_and_the_near_limit_warning() {
    // Spins: ended by its CPU time, with a wall-clock guard far away.
    let spin = programs::script("flip-spin", "while :; do :; done");
    let (code, r) = check(
        &[
            "flip",
            "--sample",
            "2",
            "--time-limit",
            "0.3",
            "--wall-limit",
            "60",
        ],
        &[path(&spin)],
    );
    assert_eq!(code, 1);
    assert_eq!(r["time_limit_seconds"], 0.3);
    assert_eq!(r["wall_limit_seconds"], 60.0);
    // The guard moves on while a run gains CPU time, up to ten times its
    // first time (process::WALL_CAP_FACTOR): the report says both.
    assert_eq!(r["wall_cap_seconds"], 600.0);
    assert_eq!(groups(&r)["time_limit"], 2, "{r}");
    assert_eq!(r["time_limit_runs"]["count"], 2);
    assert_eq!(r["slowest_run"], Value::Null, "no run ended by itself");
    for run in r["failing_runs"].as_array().unwrap() {
        let cpu = run["cpu_seconds"].as_f64().unwrap();
        assert!((0.3..0.6).contains(&cpu), "{run}");
    }
    // Sleeps: no CPU time, ended by the wall-clock guard, and said so.
    let started = Instant::now();
    let (code, r) = check(
        &[
            "flip",
            "--sample",
            "2",
            "--time-limit",
            "5",
            "--wall-limit",
            "0.3",
        ],
        &["sleep", "30"],
    );
    assert_eq!(code, 1);
    assert!(started.elapsed().as_secs_f64() < 5.0);
    assert_eq!(groups(&r)["wall_limit"], 2, "{r}");
    assert_eq!(count(&r, "time_limit_exceeded"), 2);
    assert_eq!(r["wall_limit_runs"]["count"], 2);
    assert_eq!(r["time_limit_runs"]["count"], 0);
    let run = &r["failing_runs"][0];
    assert!(run["cpu_seconds"].as_f64().unwrap() < 0.1, "{run}");
    assert!(run["seconds"].as_f64().unwrap() >= 0.3, "{run}");
    // The default guard is three times the limit, and --timeout is the
    // limit's other name.
    let (_, r) = check(
        &["flip", "--sample", "1", "--timeout", "0.2"],
        &["sleep", "30"],
    );
    assert_eq!(r["time_limit_seconds"], 0.2);
    assert!((r["wall_limit_seconds"].as_f64().unwrap() - 0.6).abs() < 1e-9);
    assert!((r["wall_cap_seconds"].as_f64().unwrap() - 6.0).abs() < 1e-9);
    // The text report says the guard's first time and its last.
    let text = check_text(
        &["flip", "--sample", "1", "--timeout", "0.2"],
        &["sleep", "30"],
    );
    assert!(
        text.stdout.contains(
            "limits a run: 0.2 s CPU time (wall-clock guard 0.6 s, up to 6 s while it gains CPU time), "
        ),
        "{}",
        text.stdout
    );

    // Busy for 0.46 s of CPU time, under a limit of 0.5 s: accepted with
    // a warning, in the text and in JSON.
    let near = programs::c_program(
        "flip-near-limit",
        r#"#include <stdio.h>
#include <time.h>
int main(void) {
    char row[8];
    for (int r = 0; r < 4; r++) if (scanf("%7s", row) != 1) return 1;
    while (clock() < CLOCKS_PER_SEC * 46 / 100) {}
    puts("Impossible");
    return 0;
}
"#,
    );
    // Board 0xffff-like boards aside, "Impossible" is wrong; a sample of
    // impossible boards is all accepted.
    let args = [
        "flip",
        "--family",
        "impossible",
        "--sample",
        "2",
        "--time-limit",
        "0.5",
        "--wall-limit",
        "60",
    ];
    let (code, r) = check(&args, &[path(&near)]);
    assert_eq!(code, 0, "{r}");
    assert_eq!(r["near_time_limit"]["count"], 2, "{r}");
    let cpu = r["slowest_run"]["cpu_seconds"].as_f64().unwrap();
    assert!((0.45..0.5).contains(&cpu), "{cpu}");
    let t = check_text(&args, &[path(&near)]);
    assert!(
        t.stdout.contains(
            "warning: 2 runs came within 10% of the CPU time limit (runs 1, 2): a judge's machine may not pass them\n"
        ),
        "{}",
        t.stdout
    );
}

#[test]
fn saved_failing_runs_replay_the_same_way() {
    let dir = programs::scratch().join("saved-runs");
    let _ = std::fs::remove_dir_all(&dir);
    // Answers 0 to impossible boards: every one of these is wrong.
    let program = programs::flip_solution(1);
    let args = [
        "flip",
        "--family",
        "impossible",
        "--sample",
        "3",
        "--seed",
        "2",
        "--save",
        path(&dir),
    ];
    let (code, r) = check(&args, &[path(&program)]);
    assert_eq!(code, 1);
    assert_eq!(count(&r, "wrong_answer"), 3);
    let runs = r["failing_runs"].as_array().unwrap();
    assert_eq!(runs.len(), 3);
    for run in runs {
        let n = run["run"].as_u64().unwrap();
        let replay = run["replay"].as_str().unwrap();
        assert_eq!(
            replay,
            format!("{} < {}/run-{n}.in", path(&program), path(&dir))
        );
        let input = std::fs::read_to_string(dir.join(format!("run-{n}.in"))).unwrap();
        assert_eq!(input.lines().count(), 4, "a board as the judge sends it");
        let expected = std::fs::read_to_string(dir.join(format!("run-{n}.expected"))).unwrap();
        assert_eq!(expected, "Impossible\n");
        let out = std::fs::read(dir.join(format!("run-{n}.out"))).unwrap();
        assert_eq!(out, b"0\n");
        // The command, run by a shell, gives the same wrong answer.
        let again = std::process::Command::new("sh")
            .args(["-c", replay])
            .output()
            .unwrap();
        assert_eq!(again.stdout, out);
        assert!(again.status.success());
    }
    // The saved board is the one the report draws.
    let f = &r["failures"][0];
    let lines: Vec<&str> = f["view"]["input"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    let saved = std::fs::read_to_string(dir.join(format!("run-{}.in", f["run"]))).unwrap();
    assert_eq!(saved, format!("{}\n", lines.join("\n")));
    assert_eq!(f["replay"], runs[0]["replay"]);
    // A crash replays as the same crash; accepted runs are not saved.
    let _ = std::fs::remove_dir_all(&dir);
    let crash = programs::flip_solution(2);
    let log = fresh_log("flip-crash-saved.log");
    let (_, r) = check(
        &[
            "flip",
            "--sample",
            "20",
            "--seed",
            "3",
            "--save",
            path(&dir),
        ],
        &[path(&crash), path(&log)],
    );
    let crashed = count(&r, "runtime_error");
    assert!(crashed > 0);
    let saved = common::names_in(&dir);
    assert_eq!(saved.len() as u64, 4 * crashed, "{saved:?}");
    let replay = r["failing_runs"][0]["replay"].as_str().unwrap();
    let again = std::process::Command::new("sh")
        .args(["-c", replay])
        .output()
        .unwrap();
    // SIGABRT, as in the check: the shell's status 134, or the shell's
    // own signal where it ran the program in its place.
    use std::os::unix::process::ExitStatusExt;
    let status = again.status;
    assert!(
        status.code() == Some(128 + 6) || status.signal() == Some(6),
        "{status:?}"
    );
    let t = check_text(
        &[
            "flip",
            "--sample",
            "20",
            "--seed",
            "3",
            "--save",
            path(&dir),
        ],
        &[path(&crash), path(&log)],
    );
    assert!(
        t.stdout.contains(&format!("    replay: {replay}\n")),
        "{}",
        t.stdout
    );
    assert!(
        t.stdout.contains(&format!(
            "saved: {crashed} failing runs to {} (run-N.in, run-N.expected, run-N.out, run-N.err)\n",
            path(&dir)
        )),
        "{}",
        t.stdout
    );
    assert_eq!(r["saved_to"], path(&dir));
}

#[test]
fn any_sample_count_and_a_header_that_says_how_the_cases_were_had() {
    // More than the generated set: more are drawn from the seed, all
    // checked, and the oracle's solution is right on every one.
    let program = programs::lightsout_solution("lightsout-right", "PUZZLE #", false, 0);
    let (code, r) = check(&["lightsout", "--sample", "3000"], &[path(&program)]);
    assert_eq!(code, 0, "{r}");
    assert_eq!(count(&r, "accepted"), 3000);
    assert_eq!(r["sample"], 3000);
    assert_eq!(r["sampled"], false);
    assert_eq!(r["drawn"]["count"], 3000);
    assert_eq!(r["drawn"]["how"], "32 chosen, 2,968 drawn from seed 0");
    let t = check_text(&["lightsout"], &[path(&program)]);
    assert!(
        t.stdout.starts_with(
            "boardbase check lightsout (POJ 1222): 2,032 puzzles (32 chosen, 2,000 drawn from seed 0), in 1 run\n"
        ),
        "{}",
        t.stdout
    );
    // A sample of a generated set says both.
    let t = check_text(&["fliptile", "--sample", "3", "--seed", "4"], &["true"]);
    assert!(
        t.stdout.starts_with(
            "boardbase check fliptile (POJ 3279): a sample of 3 boards (seed 4) of 1,000 (drawn from seed 4, 200 a group), one board a run\n"
        ),
        "{}",
        t.stdout
    );
    // A fixed set asked for more than it has says so.
    let t = check_text(&["euler", "--sample", "70000"], &["true"]);
    assert!(
        t.stdout.starts_with(
            "boardbase check euler (UVA 10536): all 65,535 positions (--sample 70,000 asks for more than there are), in 1 run\n"
        ),
        "{}",
        t.stdout
    );
    let t = check_text(&["fliptile", "--sample", "200000"], &["true"]);
    assert_eq!(t.code, 2);
    assert!(
        t.stderr.contains("check draws at most 100,000 cases"),
        "{}",
        t.stderr
    );
}

#[test]
fn fliptile_size_draws_boards_of_that_size() {
    let program = programs::fliptile_solution(0);
    let (code, r) = check(
        &["fliptile", "--size", "5x5", "--sample", "30"],
        &[path(&program)],
    );
    assert_eq!(code, 0, "{r}");
    assert_eq!(count(&r, "accepted"), 30);
    // 5x5 has boards without a solution: four families of 200.
    assert_eq!(r["drawn"]["count"], 800);
    assert_eq!(r["drawn"]["how"], "drawn from seed 0, 200 a group, all 5x5");
    let f = programs::script("fliptile-impossible", "cat >/dev/null; echo IMPOSSIBLE");
    let (_, r) = check(
        &[
            "fliptile",
            "--size",
            "5x5",
            "--family",
            "impossible",
            "--sample",
            "5",
        ],
        &[path(&f)],
    );
    assert_eq!(
        count(&r, "accepted"),
        5,
        "every board drawn is 5x5 and impossible"
    );
    // Boards shown are 5x5: five rows of five cells.
    let (_, r) = check(
        &["fliptile", "--size", "5x5", "--sample", "2", "--show", "2"],
        &["true"],
    );
    for failure in r["failures"].as_array().unwrap() {
        let rows = failure["view"]["input"].as_array().unwrap();
        assert_eq!(rows.len(), 5, "{failure}");
        assert!(
            rows.iter()
                .all(|row| row.as_str().unwrap().split(' ').count() == 5)
        );
    }
    assert_eq!(r["failures"].as_array().unwrap().len(), 2);
    // 3x3 boards all have a solution: none is impossible.
    let t = check_text(
        &["fliptile", "--size", "3x3", "--family", "impossible"],
        &["true"],
    );
    assert_eq!(t.code, 2);
    assert!(t.stderr.contains("nothing to check"), "{}", t.stderr);
    let t = check_text(&["lightsout", "--size", "3x3"], &["true"]);
    assert_eq!(t.code, 2);
    assert!(
        t.stderr
            .contains("--size is for flip, euler, fliptile, carcassonne and lights, not lightsout"),
        "{}",
        t.stderr
    );
}

/// `check carcassonne --size RxC`: the boards are those `cases carcassonne
/// --size RxC` writes for the family and seed, every one of that size, and
/// the counter's answers are accepted.
#[test]
fn carcassonne_size_draws_boards_of_that_size() {
    let log = fresh_log("carcassonne-sized.log");
    let logger = programs::script("carcassonne-logger", &format!("cat >> '{}'", path(&log)));
    let (code, r) = check(
        &[
            "carcassonne",
            "--size",
            "3x4",
            "--family",
            "planted",
            "--sample",
            "50",
            "--seed",
            "3",
        ],
        &[path(&logger)],
    );
    assert_eq!(code, 1, "{r}");
    assert_eq!(r["runs"], 1);
    // No answer at all: a Wrong Answer as HDU judges it.
    assert_eq!(count(&r, "wrong_answer"), 50, "{r}");
    assert_eq!(
        r["drawn"]["how"],
        "all 3x4, 50 a family, each family drawn from seed 3 as cases carcassonne --size draws it"
    );
    let input = std::fs::read_to_string(&log).expect("the run's input");
    let cases = common::run(
        &[
            "cases",
            "carcassonne",
            "--size",
            "3x4",
            "--family",
            "planted",
            "--cases",
            "50",
            "--seed",
            "3",
        ],
        "",
    );
    assert_eq!(cases.code, 0, "{}", cases.stderr);
    assert_eq!(input, cases.stdout);
    let mut lines = input.lines();
    assert_eq!(lines.next(), Some("50"));
    let sizes: Vec<&str> = lines.clone().step_by(4).collect();
    assert_eq!(sizes, ["3 4"; 50]);
    // Every family, each 3x4, shown as pasteable judge input.
    let (_, r) = check(
        &[
            "carcassonne",
            "--size",
            "3x4",
            "--sample",
            "8",
            "--show",
            "8",
        ],
        &["true"],
    );
    // 50 a family by default, 8 of them checked.
    assert_eq!(r["drawn"]["count"], 200);
    assert_eq!(r["failures"].as_array().unwrap().len(), 8);
    for failure in r["failures"].as_array().unwrap() {
        let input = failure["view"]["input"].as_array().unwrap();
        assert_eq!(input[0], "3 4", "{failure}");
        assert_eq!(input.len(), 4, "{failure}");
    }
    crate::schemas::assert_valid("check", &r, "check carcassonne --size");
    // boardbase's own counter is accepted on them.
    let bin = env!("CARGO_BIN_EXE_boardbase");
    let (code, r) = check(
        &[
            "carcassonne",
            "--size",
            "2x3",
            "--sample",
            "12",
            "--timeout",
            "60",
        ],
        &[bin, "carcassonne"],
    );
    assert_eq!(code, 0, "{r}");
    assert_eq!(count(&r, "accepted"), 12);
}

/// The Lights Out family's boards and answers of one variant: the boards
/// of the run read back from the program's input, with the brute force's
/// answers (tests/oracle/family.rs).
fn lights_logged(v: &family_answers::Variant, log: &Path) -> Vec<Vec<u8>> {
    let text = std::fs::read_to_string(log).expect("the run's input");
    family_answers::parse_boards(&text, v)
}

/// `check lights`: the boards are those of `cases lights`; the brute
/// force's answers are accepted, `Impossible` everywhere is wrong exactly
/// on the boards the brute force solves, and `boardbase lights solve`
/// passes over several runs.
#[test]
fn lights_answers_are_judged_against_the_brute_force() {
    // 2x3, 3 colours, plus: 3 quiet patterns, so a third of the random
    // boards are solvable.
    let v = family_answers::VARIANTS[2];
    let goal = "1";
    let brute = oracle::family::BruteForce::new(&v.rules());
    let mut args: Vec<String> = vec!["lights".to_owned()];
    args.extend(v.args());
    args.extend(["--goal", goal, "--sample", "60", "--seed", "4"].map(String::from));
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    let log = fresh_log("lights-boards.log");
    let logger = programs::script("lights-logger", &format!("cat >> '{}'", path(&log)));
    let (code, r) = check(&words, &[path(&logger)]);
    assert_eq!(code, 1, "{r}");
    assert_eq!(r["puzzle"], "lights");
    assert_eq!(r["runs"], 1);
    assert_eq!(groups(&r)["missing_answer"], 60, "{r}");
    let mut cases_args: Vec<String> = vec!["cases".to_owned(), "lights".to_owned()];
    cases_args.extend(v.args());
    cases_args.extend(["--goal", goal, "--cases", "60", "--seed", "4"].map(String::from));
    let cases_words: Vec<&str> = cases_args.iter().map(String::as_str).collect();
    let cases = common::run(&cases_words, "");
    assert_eq!(cases.code, 0, "{}", cases.stderr);
    assert_eq!(std::fs::read_to_string(&log).unwrap(), cases.stdout);
    let boards = lights_logged(&v, &log);
    assert_eq!(boards.len(), 60);
    let mut expected = String::new();
    let mut solvable = 0;
    for b in &boards {
        match family_answers::oracle_answer(&brute, b, goal) {
            Some(s) => {
                solvable += 1;
                expected.push_str(&format!("{}\n", s.rounds));
                expected.push_str(&family_answers::lines(&s.presses, v.cols));
            }
            None => expected.push_str("Impossible\n"),
        }
    }
    assert!(0 < solvable && solvable < 60, "{solvable} of 60 solvable");
    let answers = programs::scratch().join("lights-oracle-answers");
    std::fs::write(&answers, &expected).expect("answers written");
    let right = programs::script(
        "lights-oracle",
        &format!("cat >/dev/null; cat '{}'", path(&answers)),
    );
    let (code, r) = check(&words, &[path(&right)]);
    assert_eq!(code, 0, "{r}");
    assert_eq!(count(&r, "accepted"), 60);
    crate::schemas::assert_valid("check", &r, "check lights");
    let never = programs::script(
        "lights-never",
        "cat >/dev/null; i=0; while [ $i -lt 60 ]; do echo Impossible; i=$((i+1)); done",
    );
    let (code, r) = check(&words, &[path(&never)]);
    assert_eq!(code, 1, "{r}");
    assert_eq!(count(&r, "accepted"), 60 - solvable);
    assert_eq!(count(&r, "wrong_answer"), solvable);
    assert_eq!(groups(&r)["solvable_answered_impossible"], solvable);
    crate::schemas::assert_valid("check", &r, "check lights, rejected");
    // Failing boards are shown as the program's input: 2 rows of digits.
    let shown = &r["failures"][0]["view"]["input"];
    assert_eq!(shown.as_array().unwrap().len(), 2, "{r}");
    // The text report says what was drawn and that no judge sets it.
    let t = check_text(&words, &[path(&never)]);
    assert!(
        t.stdout.starts_with(
            "boardbase check lights (no original judge): 60 boards (random boards of 2x3, 3 colours, plus, goal 1, drawn from seed 4 as cases lights draws them; no judge sets this problem: the limits are boardbase's own), in 1 run\n"
        ),
        "{}",
        t.stdout
    );
    // boardbase's own solver over two runs of 100 and one of 50.
    let bin = env!("CARGO_BIN_EXE_boardbase");
    let mut solve: Vec<String> = vec![bin.to_owned(), "lights".to_owned(), "solve".to_owned()];
    solve.extend(v.args());
    solve.extend(["--goal".to_owned(), goal.to_owned()]);
    let solve: Vec<&str> = solve.iter().map(String::as_str).collect();
    let mut args250 = words.clone();
    let at = args250.iter().position(|&w| w == "60").unwrap();
    args250[at] = "250";
    let (code, r) = check(&args250, &solve);
    assert_eq!(code, 0, "{r}");
    assert_eq!(count(&r, "accepted"), 250);
    assert_eq!(r["runs"], 3);
}

/// `check lights` refuses what `cases lights` refuses, and the variant's
/// options are for lights only.
#[test]
fn lights_bad_options_are_usage_errors() {
    for (args, error) in [
        (&["lights"][..], "--size RxC is needed for lights"),
        (
            &["lights", "--size", "3x3", "--goal", "2"][..],
            "--goal 2: there are 2 colours (0 to 1)",
        ),
        (
            &["lights", "--size", "3x3", "--family", "impossible"][..],
            "nothing to check",
        ),
        (&["lights", "--size", "3x3", "--family", "ties"][..], "ties"),
        (
            &["flip", "--colours", "3"][..],
            "--colours, --wrap, --pattern and --goal are for lights, not flip",
        ),
        (
            &["lights", "--size", "3x3", "--table", "x.table"][..],
            "--table and --tables are for flip and euler, not lights",
        ),
    ] {
        let t = check_text(args, &["true"]);
        assert_eq!(t.code, 2, "{args:?}: {}", t.stderr);
        assert!(t.stderr.contains(error), "{args:?}: {}", t.stderr);
        assert!(!t.stderr.contains("panicked"), "{}", t.stderr);
    }
}

/// Checks an Euler program that writes 100 `LOSING` lines (each flushed
/// when `flush`), then spins: the report, whose first failing run was
/// killed at the CPU time limit.
fn euler_answers_then_spin(name: &str, flush: bool) -> Value {
    let source = format!(
        "#include <stdio.h>\nint main(void) {{\n    for (int i = 0; i < 100; i++) {{ printf(\"LOSING\\n\");{} }}\n    for (volatile unsigned long n = 0;; n++) {{}}\n}}\n",
        if flush { " fflush(stdout);" } else { "" }
    );
    let program = programs::c_program(name, &source);
    let (code, r) = check(
        &["euler", "--time-limit", "0.3", "--wall-limit", "60"],
        &[path(&program)],
    );
    assert_eq!(code, 1);
    assert_eq!(r["failing_runs"][0]["kind"], "time_limit", "{r}");
    r
}

#[test]
fn a_buffered_program_killed_at_the_limit_gets_the_note() {
    // 100 answers left in stdio's buffer (stdout is a pipe), then a spin:
    // killed at the CPU time limit with nothing written.
    let r = euler_answers_then_spin("euler-buffered", false);
    let run = &r["failing_runs"][0];
    assert_eq!(run["answered"], 0);
    assert!(run["cpu_seconds"].as_f64().unwrap() >= 0.3, "{run}");
    assert!(
        run["note"]
            .as_str()
            .unwrap()
            .contains("lost in its output buffer"),
        "{run}"
    );
    assert_eq!(count(&r, "time_limit_exceeded"), 65_535);
    // The same program flushing after each answer: its output ends at an
    // answer's end, nothing was in its buffer, and there is no note.
    let r = euler_answers_then_spin("euler-flushed", true);
    let run = &r["failing_runs"][0];
    assert_eq!(run["answered"], 100, "{run}");
    assert_eq!(run["note"], Value::Null, "{run}");
}

#[test]
fn a_child_that_allocates_past_the_limit_counts_for_its_parent() {
    // A script whose child (waited for) dies at the limit and which
    // passes its status on: the child's peak is in the script's (wait4
    // counts waited-for children), so it is a memory limit, not a crash.
    let program = allocator();
    let script = programs::script(
        "flip-allocating-child",
        &format!("{} touch\nexit $?", path(&program)),
    );
    let (code, r) = check(
        &[
            "flip",
            "--sample",
            "1",
            "--memory-limit",
            "32",
            "--memory-control",
            "address-space",
        ],
        &[path(&script)],
    );
    assert_eq!(code, 1);
    let run = &r["failing_runs"][0];
    assert_eq!(run["kind"], "memory_limit", "{run}");
    assert!(
        run["what"].as_str().unwrap().ends_with("exit status 139"),
        "{run}"
    );
    assert!(run["peak_memory_mb"].as_f64().unwrap() >= 16.0, "{run}");
}

#[test]
fn a_memory_cgroup_holds_the_whole_tree_where_the_machine_allows_one() {
    let program = allocator();
    let limit = |mb: &'static str| ["flip", "--sample", "2", "--memory-limit", mb];
    let asked = check_text(
        &[&limit("32")[..], &["--memory-control", "cgroup"]].concat(),
        &[path(&program), "some"],
    );
    if asked.code == 2 {
        // No cgroup can be made here: the error says why, and by default
        // the address space holds the limit, the report saying why.
        assert!(
            asked.stderr.contains("--memory-control cgroup: "),
            "{}",
            asked.stderr
        );
        let (_, r) = check(&limit("32"), &[path(&program), "some"]);
        assert_eq!(r["memory_limit_kind"], "address_space");
        assert!(
            r["no_cgroup"].as_str().is_some_and(|why| !why.is_empty()),
            "{r}"
        );
        let text = check_text(&limit("32"), &[path(&program), "some"]);
        assert!(
            text.stdout.contains("RLIMIT_AS: no cgroup, "),
            "{}",
            text.stdout
        );
        return;
    }
    // By default, where allowed, a cgroup holds the limit.
    let (code, r) = check(&limit("32"), &[path(&program), "touch"]);
    assert_eq!(code, 1);
    let kind = r["memory_limit_kind"].as_str().unwrap();
    assert!(kind == "cgroup_v1" || kind == "cgroup_v2", "{kind}");
    assert_eq!(r["no_cgroup"], Value::Null);
    // Touching without end: killed by the kernel at the limit, its peak
    // the limit's.
    assert_eq!(count(&r, "memory_limit_exceeded"), 2, "{r}");
    let run = &r["failing_runs"][0];
    assert_eq!(run["kind"], "memory_limit", "{run}");
    assert!(
        run["what"].as_str().unwrap().ends_with("SIGKILL (killed)"),
        "{run}"
    );
    let peak = run["peak_memory_mb"].as_f64().unwrap();
    assert!((24.0..=32.0).contains(&peak), "peak {peak} MB");
    // 40 MB touched: killed too (the address space let it finish).
    let (_, r) = check(&limit("32"), &[path(&program), "some"]);
    assert_eq!(count(&r, "memory_limit_exceeded"), 2, "{r}");
    assert_eq!(r["failing_runs"][0]["kind"], "memory_limit", "{r}");
    // 256 MB reserved and never touched costs nothing (the address space
    // refused it): it answers 0, right on boards of 0 rounds only.
    let (_, r) = check(&limit("32"), &[path(&program)]);
    assert_eq!(count(&r, "memory_limit_exceeded"), 0, "{r}");
    assert!(
        r["largest_run"]["peak_memory_mb"].as_f64().unwrap() < 8.0,
        "{r}"
    );
    // Two processes of 40 MB each, together past 64 MB: the cgroup counts
    // the tree, where each process's own peak stays under the limit.
    let (_, r) = check(&limit("64"), &[path(&program), "pair"]);
    assert_eq!(count(&r, "memory_limit_exceeded"), 2, "{r}");
    assert_eq!(r["failing_runs"][0]["kind"], "memory_limit", "{r}");
    let (_, r) = check(
        &[&limit("64")[..], &["--memory-control", "address-space"]].concat(),
        &[path(&program), "pair"],
    );
    assert_eq!(count(&r, "memory_limit_exceeded"), 0, "{r}");
    let peak = r["largest_run"]["peak_memory_mb"].as_f64().unwrap();
    assert!((40.0..=48.0).contains(&peak), "peak {peak} MB");
    // The text report names the control.
    let text = check_text(&limit("64"), &[path(&program), "pair"]);
    assert!(
        text.stdout
            .contains("64 MB of memory (a memory cgroup a run, cgroup v"),
        "{}",
        text.stdout
    );
}

/// `--presentation strict` (the default) sees the output's lines as the
/// judge does; `tokens` compares tokens only. Each program is right but for
/// its layout (or, `impossible`, its capitals).
#[test]
fn presentation_strict_and_tokens() {
    let tokens = |args: &[&str], program: &Path| {
        let (code, r) = check(
            &[args, &["--presentation", "tokens"]].concat(),
            &[path(program)],
        );
        assert_eq!(
            (code, r["presentation"].as_str()),
            (0, Some("tokens")),
            "{r}"
        );
        assert_eq!(count(&r, "accepted"), r["cases"].as_u64().unwrap(), "{r}");
    };
    // Lights Out (POJ 1222): each puzzle's presses on one line, not five.
    let one_line = programs::lightsout_laid_out("lightsout-one-line", 1);
    let (code, r) = check(&["lightsout"], &[path(&one_line)]);
    assert_eq!(code, 1);
    assert_eq!(count(&r, "presentation_error"), 2032);
    assert_eq!(count(&r, "accepted"), 0);
    assert_eq!(r["run_verdicts"]["presentation_error"], 1);
    assert_eq!(groups(&r), HashMap::from([("layout".to_owned(), 2032)]));
    assert_eq!(
        details(&r["groups"][0]),
        HashMap::from([(
            "on 2 lines where the judge's answer takes 6 lines".to_owned(),
            2032
        )])
    );
    assert_eq!(r["failing_runs"][0]["kind"], "layout");
    tokens(&["lightsout"], &one_line);
    // A blank line before the first answer: that answer alone.
    let blank = programs::lightsout_laid_out("lightsout-blank-first", 2);
    let (code, r) = check(&["lightsout"], &[path(&blank)]);
    assert_eq!(code, 1);
    assert_eq!(count(&r, "presentation_error"), 1);
    assert_eq!(count(&r, "accepted"), 2031);
    assert_eq!(r["failures"][0]["number"], 1);
    assert_eq!(r["failures"][0]["line"], 2);
    assert_eq!(
        r["failures"][0]["what"],
        "the right answer, laid out otherwise than the judge's output: \
         1 line blank at the start of the output"
    );
    // Shown as printed: the blank line, the label, five rows.
    let received = r["failures"][0]["received"].as_str().unwrap();
    assert!(received.starts_with("\nPUZZLE #1\n"), "{received:?}");
    assert_eq!(received.lines().count(), 7, "{received:?}");
    tokens(&["lightsout"], &blank);
    // Spaces before each label.
    let spaces = programs::lightsout_laid_out("lightsout-spaces", 3);
    let (code, r) = check(&["lightsout"], &[path(&spaces)]);
    assert_eq!(code, 1);
    assert_eq!(count(&r, "presentation_error"), 2032);
    assert_eq!(
        details(&r["groups"][0]),
        HashMap::from([("spaces before its words on its line 1".to_owned(), 2032)])
    );
    tokens(&["lightsout"], &spaces);

    // Flip Game (POJ 1753), one board a run: spaces before the answer, a
    // blank line before it.
    let args = ["flip", "--sample", "12", "--seed", "6"];
    for (mode, detail) in [
        (4, "spaces before its words"),
        (5, "1 line blank at the start of the output"),
    ] {
        let program = programs::flip_solution(mode);
        let (code, r) = check(&args, &[path(&program)]);
        assert_eq!(code, 1);
        assert_eq!(count(&r, "presentation_error"), 12, "{r}");
        assert_eq!(
            details(&r["groups"][0]),
            HashMap::from([(detail.to_owned(), 12)])
        );
        tokens(&args, &program);
    }
    // `impossible` for `Impossible`: a wrong word, POJ's Wrong Answer; as
    // tokens, a Presentation Error.
    let lower = programs::script("flip-lower-case", "cat >/dev/null; echo impossible");
    let args = ["flip", "--family", "impossible", "--sample", "10"];
    let (code, r) = check(&args, &[path(&lower)]);
    assert_eq!(code, 1);
    assert_eq!(count(&r, "wrong_answer"), 10);
    assert_eq!(r["groups"][0]["id"], "misspelt");
    assert_eq!(r["groups"][0]["verdict"], "wrong_answer");
    let (code, r) = check(
        &[&args[..], &["--presentation", "tokens"]].concat(),
        &[path(&lower)],
    );
    assert_eq!((code, count(&r, "presentation_error")), (1, 10));

    // The Game of Euler (UVA 10536): UVa gives Wrong Answer for a layout
    // POJ calls a Presentation Error. Spaces before the first answer.
    let right = programs::euler_solution("euler-right", 3, 0, 0, false);
    let shifted = programs::script(
        "euler-shifted",
        &format!("'{}' | sed '1s/^/  /'", path(&right)),
    );
    let args = ["euler", "--sample", "300", "--seed", "2"];
    let (code, r) = check(&args, &[path(&shifted)]);
    assert_eq!(code, 1);
    assert_eq!(count(&r, "wrong_answer"), 1);
    assert_eq!(count(&r, "accepted"), 299);
    assert_eq!(r["groups"][0]["id"], "layout");
    assert_eq!(r["run_verdicts"]["wrong_answer"], 1);
    tokens(&args, &shifted);

    // The text report says when tokens were compared.
    let t = check_text(
        &["flip", "--sample", "2", "--presentation", "tokens"],
        &[path(&programs::flip_solution(0))],
    );
    assert_eq!(t.code, 0, "{}", t.stderr);
    assert!(t.stdout.contains(
        "output compared as tokens (--presentation tokens): line breaks and spaces not judged\n"
    ));
    let t = check_text(
        &["flip", "--sample", "2"],
        &[path(&programs::flip_solution(0))],
    );
    assert!(!t.stdout.contains("compared as tokens"), "{}", t.stdout);
}
