//! Nothing is left behind by `check`: no zombie, no process still running.
//!
//! One test only, in a binary of its own, so no other test's processes are
//! around while it counts this process's children in /proc.
#![cfg(target_os = "linux")]

mod common;
#[path = "common/programs.rs"]
mod programs;
// The judges' samples; only Flip's is used here.
#[allow(dead_code)]
#[path = "oracle/samples.rs"]
mod samples;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use boardbase::check::process::{End, Limits, MemoryControl, Program, memory_cgroups, run};

/// (pid, state, ppid) of every process in /proc.
fn processes() -> Vec<(u32, char, u32)> {
    let mut out = Vec::new();
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return out;
    };
    for entry in dir.flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        // "pid (comm) state ppid ...": comm may hold spaces, so split after ')'.
        let Some(rest) = stat.rsplit_once(')').map(|(_, r)| r) else {
            continue;
        };
        let mut fields = rest.split_whitespace();
        let state = fields.next().and_then(|s| s.chars().next()).unwrap_or('?');
        let ppid = fields.next().and_then(|s| s.parse().ok()).unwrap_or(0);
        out.push((pid, state, ppid));
    }
    out
}

/// This process's children, with their states.
fn children() -> Vec<(u32, char)> {
    let me = std::process::id();
    processes()
        .into_iter()
        .filter(|&(_, _, ppid)| ppid == me)
        .map(|(pid, state, _)| (pid, state))
        .collect()
}

/// Processes whose command line holds `marker`.
fn with_marker(marker: &str) -> Vec<u32> {
    processes()
        .into_iter()
        .filter(|&(pid, _, _)| {
            std::fs::read(format!("/proc/{pid}/cmdline"))
                .map(|c| String::from_utf8_lossy(&c).contains(marker))
                .unwrap_or(false)
        })
        .map(|(pid, _, _)| pid)
        .collect()
}

/// Waits up to 2 s for the killed processes to be gone (SIGKILL is
/// delivered at once, but tearing a process down takes a moment).
fn none_left(marker: &str) -> bool {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(2) {
        if with_marker(marker).is_empty() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

#[test]
fn no_zombie_and_no_process_left() {
    // A sleep no one else runs: its command line is the marker.
    let marker = format!("9{}.25", std::process::id());
    let sleep = format!("sleep {marker}");
    let limits = Limits {
        cpu: Duration::from_millis(300),
        wall: Duration::from_millis(300),
        memory: None,
        memory_control: MemoryControl::AddressSpace,
        stdout_bytes: 1 << 16,
        stderr_tail: 256,
    };
    let sh = |script: String| Program {
        path: "sh".into(),
        args: vec!["-c".into(), script.into()],
    };
    let cases = [
        // Hangs, with two children of its own.
        (sh(format!("{sleep} & {sleep} & wait")), End::WallLimit),
        // Answers and exits, leaving a child that holds the output pipe.
        (sh(format!("{sleep} & echo 4")), End::Exited(0)),
        // A child in a subshell, then a crash.
        (sh(format!("({sleep} &); kill -SEGV $$")), End::Signaled(11)),
        // Floods its output while a child sleeps.
        (sh(format!("{sleep} & yes")), End::OutputLimit),
    ];
    for (program, end) in cases {
        let started = Instant::now();
        let outcome = run(&program, samples::FLIP.as_bytes(), &limits).expect("runs");
        assert_eq!(outcome.end, end, "{:?}", program.args);
        assert!(
            started.elapsed() < Duration::from_secs(2),
            "{:?}",
            program.args
        );
        // The leader is reaped: no child of ours is left, zombie or not
        // (its own children went to init, killed).
        assert_eq!(children(), [], "{:?}", program.args);
        assert!(
            none_left(&marker),
            "{:?} left {:?}",
            program.args,
            with_marker(&marker)
        );
    }

    // A child that leaves the process group (setsid) escapes the group's
    // kill, not a memory cgroup's, where the machine allows one.
    if memory_cgroups().is_ok() {
        let limits = Limits {
            memory: Some(256 << 20),
            memory_control: MemoryControl::Cgroup,
            ..limits
        };
        let program = sh(format!("setsid {sleep} & echo 4"));
        let outcome = run(&program, samples::FLIP.as_bytes(), &limits).expect("runs");
        assert_eq!(outcome.end, End::Exited(0));
        assert_eq!(children(), []);
        assert!(none_left(&marker), "left {:?}", with_marker(&marker));
    }

    // The same through the command line, with several jobs at once.
    let script = programs::script("hang-with-children", &format!("{sleep} & {sleep} & wait"));
    let r = common::run(
        &[
            "check",
            "flip",
            "--sample",
            "6",
            "--jobs",
            "3",
            "--timeout",
            "0.2",
            "--format",
            "json",
            "--",
            script.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(r.code, 1, "{}", r.stdout);
    let report: serde_json::Value = serde_json::from_str(&r.stdout).expect("JSON report");
    assert_eq!(report["case_verdicts"]["time_limit_exceeded"], 6);
    assert!(none_left(&marker), "left {:?}", with_marker(&marker));
    assert_eq!(children(), []);

    // Answers, then leaves a child holding the pipe: accepted at once.
    let program = programs::flip_solution(0);
    let script = programs::script(
        "answer-and-leave-a-child",
        &format!("{sleep} & exec {}", program.to_str().unwrap()),
    );
    let started = Instant::now();
    let r = common::run(
        &[
            "check",
            "flip",
            "--sample",
            "4",
            "--",
            script.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(r.code, 0, "{}", r.stdout);
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(none_left(&marker), "left {:?}", with_marker(&marker));

    // Interrupted (Ctrl-C): the programs running are killed too, though
    // their process groups do not get the terminal's signal.
    let script = programs::script("hang", &format!("{sleep} & {sleep} & wait"));
    let checker = Command::new(env!("CARGO_BIN_EXE_boardbase"))
        .args(["check", "flip", "--timeout", "100", "--jobs", "2", "--"])
        .arg(&script)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("boardbase starts");
    let started = Instant::now();
    while with_marker(&marker).len() < 4 && started.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(with_marker(&marker).len(), 4, "two runs of two sleeps");
    let sent = Command::new("kill")
        .args(["-INT", &checker.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success());
    let out = checker.wait_with_output().expect("boardbase exits");
    assert_eq!(out.status.code(), Some(130));
    assert!(String::from_utf8_lossy(&out.stderr).contains("interrupted"));
    assert!(none_left(&marker), "left {:?}", with_marker(&marker));
    assert_eq!(children(), []);
}
