//! What every subcommand does at the edges of its streams: standard output
//! or standard error a closed pipe (`boardbase ... 2>&1 | true`), and an
//! input with no cases.

use std::fs::File;
use std::io::Read;
use std::os::fd::{FromRawFd, OwnedFd};
use std::process::{Command, Stdio};

use crate::common::{TempDir, binary, run};

/// The write end of a pipe whose read end is already closed: every write
/// to it fails with EPIPE (SIGPIPE is ignored by Rust programs).
fn closed_pipe() -> OwnedFd {
    let mut fds = [0; 2];
    // SAFETY: `pipe` fills the two descriptors, each owned once below.
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0, "pipe(2)");
    let (read, write) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    drop(read);
    write
}

/// Which streams are closed pipes.
#[derive(Clone, Copy, Debug)]
enum Closed {
    /// `2>&-`-like: standard error a closed pipe, standard output read.
    Stderr,
    /// `| true`: standard output a closed pipe, standard error read.
    Stdout,
    /// `2>&1 | true`: both the same closed pipe.
    Both,
}

/// What a run with some streams closed gave: the exit status, and the
/// streams that were still read.
#[derive(Debug)]
struct Ended {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

/// Runs `boardbase ARGS` with `stdin` as a file (`None`: /dev/null) and
/// the streams of `closed` closed pipes.
fn run_closed(args: &[&str], stdin: Option<&str>, closed: Closed) -> Ended {
    let mut cmd = Command::new(binary());
    cmd.args(args).env_remove("BOARDBASE_TABLES");
    cmd.stdin(match stdin {
        Some(path) => Stdio::from(File::open(path).expect("the input file")),
        None => Stdio::null(),
    });
    match closed {
        Closed::Stderr => {
            cmd.stdout(Stdio::piped()).stderr(closed_pipe());
        }
        Closed::Stdout => {
            cmd.stdout(closed_pipe()).stderr(Stdio::piped());
        }
        Closed::Both => {
            let pipe = closed_pipe();
            let again = pipe.try_clone().expect("dup");
            cmd.stdout(pipe).stderr(again);
        }
    }
    let mut child = cmd.spawn().expect("the binary starts");
    let mut stdout = String::new();
    let mut stderr = String::new();
    if let Some(mut s) = child.stdout.take() {
        s.read_to_string(&mut stdout).expect("stdout");
    }
    if let Some(mut s) = child.stderr.take() {
        s.read_to_string(&mut stderr).expect("stderr");
    }
    let status = child.wait().expect("the binary runs");
    Ended {
        code: status.code(),
        stdout,
        stderr,
    }
}

/// One command and the exit status it must end with: `open` when it can
/// write its messages (standard error closed changes nothing else),
/// `stdout_closed` when its output has no reader.
/// (`open` is `None` for a server, which runs on while its output is read.)
struct Case<'a> {
    args: Vec<&'a str>,
    stdin: Option<&'a str>,
    open: Option<i32>,
    stdout_closed: i32,
}

fn case<'a>(args: &[&'a str], stdin: Option<&'a str>, open: i32, stdout_closed: i32) -> Case<'a> {
    Case {
        args: args.to_vec(),
        stdin,
        open: Some(open),
        stdout_closed,
    }
}

/// A sample input of `examples/`.
fn example(name: &str) -> String {
    format!("{}/../examples/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn a_closed_pipe_on_any_stream_ends_quietly_with_the_usual_status() {
    let dir = TempDir::new("streams-closed");
    let out_dir = dir.path().to_owned();
    let table = format!("{out_dir}/flip-4x4.bin");
    assert_eq!(run(&["export", &out_dir], "").code, 0, "export for verify");
    let flip = &example("flip-sample.txt");
    let euler = &example("euler-sample.txt");
    let carcassonne = &example("carcassonne-sample.txt");
    let fliptile = &example("fliptile-sample.txt");
    let lightsout = &example("lightsout-sample.txt");
    let bad = "/nonexistent/input.txt";
    let cases = [
        // No arguments: the command list on stderr, a usage error.
        case(&[], None, 2, 2),
        case(&["--help"], None, 0, 0),
        case(&["--version"], None, 0, 0),
        case(&["flip", "--help"], None, 0, 0),
        case(&["flip", "--no-such-option"], None, 2, 2),
        case(&["flip", bad], None, 1, 1),
        case(&["flip"], Some(flip), 0, 0),
        case(&["flip", "--format", "pretty", flip], None, 0, 0),
        case(&["euler", euler], None, 0, 0),
        case(&["euler", "--format", "json"], Some(euler), 0, 0),
        case(&["euler", bad], None, 1, 1),
        case(
            &["euler", "--size", "3x3", "--tables", "/nonexistent"],
            None,
            2,
            2,
        ),
        case(&["carcassonne", carcassonne], None, 0, 0),
        case(
            &["carcassonne", "--format", "pretty", carcassonne],
            None,
            0,
            0,
        ),
        case(&["fliptile", fliptile], None, 0, 0),
        case(&["lightsout", lightsout], None, 0, 0),
        case(
            &[
                "lights",
                "solve",
                "--board",
                "120/000/000",
                "--colours",
                "3",
            ],
            None,
            0,
            0,
        ),
        case(&["lights", "info", "3x3"], None, 0, 0),
        case(&["lights", "solve", bad], None, 1, 1),
        case(&["cases", "flip", "--cases", "100000"], None, 0, 0),
        case(
            &[
                "cases",
                "euler",
                "--cases",
                "10",
                "--answers",
                "/nonexistent/a",
            ],
            None,
            1,
            1,
        ),
        case(&["demo"], None, 0, 0),
        case(&["export", &out_dir], None, 0, 0),
        case(&["verify", &table], None, 0, 0),
        case(&["verify", bad], None, 1, 1),
        case(&["generate", "euler", "2x3", "--dir", &out_dir], None, 0, 0),
        case(&["completions", "bash"], None, 0, 0),
        case(&["man"], None, 0, 0),
        case(&["check", "flip", "--", "/nonexistent/program"], None, 2, 2),
        case(&["serve", "--bind", "127.0.0.1:99999"], None, 2, 2),
        // The address is the first line the server writes: nobody reads it,
        // so the server stops before it serves.
        Case {
            args: vec!["serve", "--bind", "127.0.0.1:0"],
            stdin: None,
            open: None,
            stdout_closed: 0,
        },
    ];
    for c in &cases {
        let shown = format!("boardbase {}", c.args.join(" "));
        for closed in [Closed::Stderr, Closed::Stdout, Closed::Both] {
            let want = match (closed, c.open) {
                (Closed::Stderr, Some(open)) => open,
                (Closed::Stderr, None) => continue,
                (Closed::Stdout | Closed::Both, _) => c.stdout_closed,
            };
            let ended = run_closed(&c.args, c.stdin, closed);
            assert_eq!(
                ended.code,
                Some(want),
                "{shown} with {closed:?} a closed pipe: {ended:?}"
            );
            assert!(
                !ended.stderr.contains("panicked"),
                "{shown} with {closed:?} closed: {}",
                ended.stderr
            );
            // Nothing said about the pipe (a command's own notes may be).
            assert!(
                !ended.stderr.contains("pipe") && !ended.stderr.contains("cannot write output"),
                "{shown} with {closed:?} closed: {}",
                ended.stderr
            );
        }
        // Standard error closed: the output is the same as with it open.
        if c.open.is_some() {
            let open = run_closed_none(&c.args, c.stdin);
            let quiet = run_closed(&c.args, c.stdin, Closed::Stderr);
            if !c.args.contains(&"generate") && !c.args.contains(&"check") {
                assert_eq!(quiet.stdout, open, "{shown}: stdout with stderr closed");
            }
        }
    }
}

/// The standard output of `boardbase ARGS` with both streams read.
fn run_closed_none(args: &[&str], stdin: Option<&str>) -> String {
    let mut cmd = Command::new(binary());
    cmd.args(args)
        .env_remove("BOARDBASE_TABLES")
        .stdin(match stdin {
            Some(path) => Stdio::from(File::open(path).expect("the input file")),
            None => Stdio::null(),
        })
        .stderr(Stdio::null());
    let out = cmd.output().expect("the binary runs");
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// Every solver with its ways to read cases, each given `input`.
fn solvers() -> Vec<Vec<&'static str>> {
    let mut all = Vec::new();
    for format in ["judge", "pretty", "json"] {
        all.push(vec!["flip", "--format", format]);
        all.push(vec!["flip", "--size", "3x5", "--format", format]);
        all.push(vec!["euler", "--format", format]);
        all.push(vec!["euler", "--size", "3x3", "--format", format]);
        all.push(vec!["carcassonne", "--format", format]);
        all.push(vec!["fliptile", "--format", format]);
        all.push(vec!["lightsout", "--format", format]);
        all.push(vec!["lights", "solve", "--format", format]);
        all.push(vec![
            "lights",
            "solve",
            "--colours",
            "3",
            "--format",
            format,
        ]);
    }
    all
}

#[test]
fn an_input_of_only_whitespace_has_no_cases_on_every_solver() {
    let dir = TempDir::new("streams-empty");
    for input in ["", "\n", "\n\n\n", " \t\r\n  \n"] {
        let file = dir.join("empty.txt");
        std::fs::write(&file, input).expect("written");
        let file = file.to_str().expect("UTF-8").to_owned();
        for args in solvers() {
            for from_file in [false, true] {
                let mut with = args.clone();
                if from_file {
                    with.push(&file);
                }
                let r = run(&with, if from_file { "" } else { input });
                // `--size` may say that it made its table in memory.
                let said = r.stderr.lines().filter(|l| !l.starts_with("note: "));
                assert_eq!(
                    (r.code, r.stdout.as_str(), said.count()),
                    (0, "", 0),
                    "boardbase {} on {input:?}",
                    with.join(" ")
                );
            }
        }
    }
}

#[test]
fn an_input_with_something_but_no_case_is_still_an_error() {
    // Whitespace is the only input that means "no cases": the first thing
    // that is not a count or a board is an error with its place.
    let cases: [(&[&str], &str, &str); 8] = [
        (
            &["euler"],
            "\n x\n",
            "error: <stdin>:2:2: expected a case count, found 'x'\n",
        ),
        (
            &["euler"],
            "1\n",
            "error: <stdin>:2:1: expected another board (the case count asks for more), found end of input\n",
        ),
        (
            &["carcassonne"],
            "T\n",
            "error: <stdin>:1:1: expected a case count, found 'T'\n",
        ),
        (
            &["lightsout"],
            "\n\n-1\n",
            "error: <stdin>:3:1: expected a puzzle count, found '-'\n",
        ),
        (
            &["lightsout"],
            "2\n",
            "error: <stdin>:2:1: expected another puzzle (the puzzle count asks for more), found end of input\n",
        ),
        (
            &["flip"],
            "\nbw\n",
            // A first row of 2 cells read as 4x4: maybe a board of another
            // size, which --size answers.
            "error: <stdin>:2:3: expected 'b' or 'w', found end of line\n\
             hint: --size RxC answers other board sizes (a board read as 4x4 for want of it)\n",
        ),
        (
            &["fliptile"],
            "\n\nx\n",
            "error: <stdin>:3:1: expected a number of rows M from 1 to 64, found 'x'\n",
        ),
        (
            &["euler", "--size", "3x3"],
            "\n\n?\n",
            "error: <stdin>:3:1: expected a case count, found '?'\n",
        ),
    ];
    for (args, input, message) in cases {
        let r = run(args, input);
        // `--size` may say first that it made its table in memory.
        let said: String = r
            .stderr
            .split_inclusive('\n')
            .filter(|l| !l.starts_with("note: "))
            .collect();
        assert_eq!(
            (r.code, r.stdout.as_str(), said.as_str()),
            (1, "", message),
            "boardbase {} on {input:?}",
            args.join(" ")
        );
    }
}
