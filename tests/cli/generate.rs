//! `boardbase generate` end to end: the summary's values against the
//! oracles of `tests/oracle` (written apart from the generator), the file
//! written and verified, the memory limit, bad arguments, and that a
//! failed or interrupted run leaves no table and no temporary file.

use crate::common;
use crate::oracle;

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use boardbase::tablefile::Table;
use boardbase::tables::shape::Shape;
use common::{Run, TempDir, thousands};
use oracle::tables::{Euler, Flip};
use serde_json::Value;

/// Runs `boardbase ARGS` with nothing on standard input.
fn run(args: &[&str]) -> Run {
    common::run(args, "")
}

fn json(text: &str) -> Value {
    let mut lines = text.lines();
    let v = serde_json::from_str(lines.next().expect("one line")).expect("JSON");
    assert_eq!(lines.next(), None, "one object");
    v
}

/// `boardbase generate euler SIZE --dir DIR --format json` with `flags`
/// (and `--wdl-only`): the run, which must succeed, and its summary.
fn generate_euler(size: &str, dir: &str, flags: &[&str], wdl: bool) -> (Run, Value) {
    let mut args = vec!["generate", "euler", size, "--dir", dir, "--format", "json"];
    args.extend_from_slice(flags);
    if wdl {
        args.push("--wdl-only");
    }
    let r = run(&args);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let s = json(&r.stdout);
    (r, s)
}

#[test]
fn euler_summaries_against_the_oracle_and_files_that_verify() {
    let dir = TempDir::new("euler");
    for (rows, cols, wdl) in [(3, 3, false), (2, 5, false), (3, 4, true), (4, 4, false)] {
        let shape = Shape::new(rows, cols).unwrap();
        let size = shape.to_string();
        let oracle = Euler::solve(shape);
        let (r, s) = generate_euler(&size, dir.path(), &[], wdl);
        assert!(
            r.stderr.starts_with(&format!("euler {size}, ")) && r.stderr.contains(" of memory ("),
            "the memory needed is said first: {}",
            r.stderr
        );
        let n = 1u64 << shape.cells();
        let open_wins = oracle.wins[..n as usize - 1].iter().filter(|&&w| w).count() as u64;
        assert_eq!(s["puzzle"], "euler");
        assert_eq!(
            (s["rows"].as_u64(), s["cols"].as_u64()),
            (Some(rows as u64), Some(cols as u64))
        );
        assert_eq!(s["positions"], n);
        assert_eq!(s["winning"], open_wins, "{size}");
        assert_eq!(s["losing"], n - 1 - open_wins, "{size}");
        assert_eq!(s["empty"], if oracle.wins[0] { "win" } else { "loss" });
        assert_eq!(s["wdl_only"], wdl);
        if wdl {
            assert!(s["empty_moves_left"].is_null());
        } else {
            assert_eq!(s["empty_moves_left"], oracle.plies[0]);
        }
        assert!(s["seconds"].as_f64().unwrap() >= 0.0);
        assert!(s["peak_memory_bytes"].as_u64().unwrap() > 0);
        let file = dir.0.join(format!("euler-{size}.bin"));
        assert_eq!(s["file"], file.to_str().unwrap());
        assert_eq!(s["file_bytes"], std::fs::metadata(&file).unwrap().len());

        // The file: every entry is the oracle's, and `verify` passes.
        let table = Table::open(&file).unwrap();
        let euler = table.as_euler().unwrap();
        assert_eq!(euler.is_wdl_only(), wdl);
        for p in 0..n {
            let e = euler.probe(p).unwrap();
            assert_eq!(e.outcome.is_win(), oracle.wins[p as usize]);
            if !wdl {
                assert_eq!(e.moves_left, Some(oracle.plies[p as usize]));
            }
        }
        let v = run(&["verify", file.to_str().unwrap()]);
        assert_eq!(v.code, 0, "{}", v.stderr);
        assert!(v.stdout.contains(": ok (euler "), "{}", v.stdout);
    }
    // Nothing else in the directory: no temporary file left.
    assert_eq!(
        dir.names(),
        [
            "euler-2x5.bin",
            "euler-3x3.bin",
            "euler-3x4.bin",
            "euler-4x4.bin"
        ]
    );
}

#[test]
fn euler_text_summary() {
    let dir = TempDir::new("text");
    let r = run(&[
        "generate",
        "euler",
        "3x4",
        "--dir",
        dir.path(),
        "--threads",
        "1",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let oracle = Euler::solve(Shape::new(3, 4).unwrap());
    let open_wins = oracle.wins[..4095].iter().filter(|&&w| w).count();
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines[0], "euler 3x4: 4,096 positions (full tables)");
    assert_eq!(
        lines[1],
        format!(
            "  open positions: {},{:03} winning, {} losing for the player to move",
            open_wins / 1000,
            open_wins % 1000,
            4095 - open_wins
        )
    );
    assert_eq!(
        lines[2],
        format!(
            "  empty board: LOSING: the second player wins, {} moves with perfect play",
            oracle.plies[0]
        )
    );
    assert!(!oracle.wins[0]);
    assert!(lines[3].starts_with(&format!("wrote {}/euler-3x4.bin: ", dir.path())));
    assert!(lines[4].starts_with("time ") && lines[4].contains("; peak memory "));
}

#[test]
fn flip_summaries_against_the_oracle() {
    let dir = TempDir::new("flip");
    for (rows, cols) in [(2, 3), (3, 3), (4, 4), (1, 7)] {
        let shape = Shape::new(rows, cols).unwrap();
        let size = shape.to_string();
        let oracle = Flip::solve(shape);
        let r = run(&[
            "generate",
            "flip",
            &size,
            "--dir",
            dir.path(),
            "--format",
            "json",
        ]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let s = json(&r.stdout);
        let n = 1usize << shape.cells();
        let best: Vec<u8> = (0..n)
            .map(|b| oracle.rounds[0][b].min(oracle.rounds[1][b]))
            .collect();
        let solvable = best.iter().filter(|&&r| r != 255).count();
        let max = best.iter().copied().filter(|&r| r != 255).max().unwrap();
        let mut histogram = vec![0u64; usize::from(max) + 1];
        for &r in best.iter().filter(|&&r| r != 255) {
            histogram[usize::from(r)] += 1;
        }
        let reach = |c: usize| oracle.rounds[c].iter().filter(|&&r| r != 255).count();
        assert_eq!(s["puzzle"], "flip");
        assert_eq!(s["positions"], n);
        assert_eq!(s["solvable_positions"], solvable, "{size}");
        assert_eq!(s["impossible_positions"], n - solvable);
        assert_eq!(
            (s["reach_white"].as_u64(), s["reach_black"].as_u64()),
            (Some(reach(0) as u64), Some(reach(1) as u64))
        );
        assert_eq!(s["max_rounds"], max, "{size}");
        assert_eq!(s["histogram"], serde_json::json!(histogram), "{size}");
        let file = dir.0.join(format!("flip-{size}.bin"));
        let v = run(&["verify", file.to_str().unwrap()]);
        assert_eq!(v.code, 0, "{}", v.stderr);
    }
    // 4x4: the file is the embedded tables' (`verify` compares every entry).
    let v = run(&["verify", &format!("{}/flip-4x4.bin", dir.path())]);
    assert!(
        v.stdout.contains("every entry equals the built-in tables"),
        "{}",
        v.stdout
    );
}

#[test]
fn bad_arguments_are_usage_errors() {
    let dir = TempDir::new("usage");
    for args in [
        &["generate", "euler", "6x7"][..], // 42 squares: past 36
        &["generate", "flip", "5x6"],      // 30 cells: past 25
        &["generate", "euler", "0x4"],
        &["generate", "euler", "4x"],
        &["generate", "euler", "99x1"],
        &["generate", "carcassonne", "4x4"],
        &["generate", "flip", "3x3", "--wdl-only"],
        &["generate", "flip", "3x3", "--checkpoint-every", "0"],
        &["generate", "euler", "3x3", "--threads", "0"],
        &["generate", "euler", "3x3", "--memory", "lots"],
        &["generate", "euler", "3x3", "--memory", "9Q"],
        &["generate", "euler", "3x3", "--format", "yaml"],
        &["generate", "euler"],
    ] {
        let mut args = args.to_vec();
        args.extend(["--dir", dir.path()]);
        let r = run(&args);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert_eq!(r.stdout, "");
    }
    let r = run(&["generate", "euler", "6x7", "--dir", dir.path()]);
    assert!(
        r.stderr
            .contains("euler tables take at most 36 cells; 6x7 has 42"),
        "{}",
        r.stderr
    );
    assert_eq!(dir.names(), Vec::<String>::new());
}

/// A Flip run saves no checkpoint: `--checkpoint-every` is refused as
/// `--wdl-only` is, rather than ignored, before anything is written.
#[test]
fn flip_refuses_checkpoint_every() {
    let dir = TempDir::new("flip-checkpoint");
    for seconds in ["0", "60"] {
        let r = run(&[
            "generate",
            "flip",
            "3x3",
            "--checkpoint-every",
            seconds,
            "--dir",
            dir.path(),
        ]);
        assert_eq!(r.code, 2, "{seconds}: {}", r.stderr);
        assert_eq!(r.stdout, "");
        assert_eq!(
            r.stderr,
            "error: --checkpoint-every is for euler: a Flip job saves no checkpoint\n"
        );
    }
    assert_eq!(dir.names(), Vec::<String>::new());
    // Without it, the same run makes its table.
    let r = run(&["generate", "flip", "3x3", "--dir", dir.path()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(dir.names(), ["flip-3x3.bin"]);
}

/// Started as one of several processes by `mpirun` (or `mpiexec`, `srun`),
/// a `generate` built without the `mpi` feature (the default build) refuses
/// before it plans anything, naming the feature: each process would make
/// the whole table and write the same file.
#[test]
fn several_processes_of_a_launcher_are_refused() {
    let dir = TempDir::new("launcher");
    for (name, value, launcher) in [
        ("OMPI_COMM_WORLD_SIZE", "2", "mpirun"),
        ("PMI_SIZE", "3", "mpiexec"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_boardbase"))
            .args(["generate", "euler", "3x3", "--dir", dir.path()])
            .env(name, value)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(out.stdout.is_empty());
        assert!(
            stderr.starts_with(&format!(
                "error: this boardbase is one of {value} processes started by {launcher}, but it \
                 was built without the `mpi` feature, so each would make the whole table and write \
                 the same file. Build it with `cargo build --release -p boardbase-cli --features mpi`"
            )),
            "{stderr}"
        );
    }
    assert_eq!(dir.names(), Vec::<String>::new());
    // One process of a launcher is a process like any other.
    let out = Command::new(env!("CARGO_BIN_EXE_boardbase"))
        .args(["generate", "euler", "3x3", "--dir", dir.path()])
        .env("OMPI_COMM_WORLD_SIZE", "1")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(dir.names(), ["euler-3x3.bin"]);
}

#[test]
fn over_the_memory_limit_nothing_is_generated() {
    let dir = TempDir::new("memory");
    for memory in ["1M", "2MiB", "3000000B", "2"] {
        let r = run(&[
            "generate",
            "euler",
            "4x5",
            "--memory",
            memory,
            "--dir",
            dir.path(),
        ]);
        assert_eq!(r.code, 1, "{memory}: {}", r.stderr);
        assert_eq!(r.stdout, "");
        assert!(
            r.stderr.contains("error: euler 4x5 needs ") && r.stderr.contains("over the limit of"),
            "{}",
            r.stderr
        );
    }
    // 6x6 needs 8 GiB: refused at once under a 4G limit, nothing allocated.
    let start = Instant::now();
    let r = run(&[
        "generate",
        "euler",
        "6x6",
        "--memory",
        "4G",
        "--dir",
        dir.path(),
    ]);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains("needs 8.01 GiB of memory"),
        "{}",
        r.stderr
    );
    assert!(start.elapsed() < Duration::from_secs(5));
    // Enough memory: the same job runs.
    let r = run(&[
        "generate",
        "euler",
        "4x5",
        "--memory",
        "64M",
        "--dir",
        dir.path(),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(dir.names(), ["euler-4x5.bin"]);
}

#[test]
fn an_unwritable_directory_fails_before_generating() {
    let dir = TempDir::new("unwritable");
    // A regular file where the directory should be: no table can go there
    // (as root, permissions would not stop the test).
    let file = dir.0.join("file");
    std::fs::write(&file, "not a directory").unwrap();
    let target = file.join("tables");
    let r = run(&[
        "generate",
        "euler",
        "3x3",
        "--dir",
        target.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("error: cannot write "), "{}", r.stderr);
    assert_eq!(dir.names(), ["file"]);
}

#[test]
fn ctrl_c_leaves_no_table_and_no_temporary_file() {
    let dir = TempDir::new("interrupt");
    // Interrupt the same job at different moments (while generating, while
    // writing the temporary file): never a table under the final name, never
    // a temporary file left.
    let mut seen_writing = false;
    // The last one waits for the temporary file, to interrupt the write.
    for delay_ms in [0u64, 50, 300, 20_000] {
        let mut child = spawn(
            ["generate", "euler", "5x5", "--dir", dir.path()],
            Stdio::piped(),
        );
        // Wait for the temporary file (or the delay), then interrupt.
        let start = Instant::now();
        loop {
            let writing = dir.names().iter().any(|n| n.ends_with(".tmp"));
            if writing || start.elapsed() >= Duration::from_millis(delay_ms) {
                seen_writing |= writing;
                break;
            }
            if child.try_wait().unwrap().is_some() {
                break;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        let _ = Command::new("kill")
            .args(["-INT", &child.id().to_string()])
            .status();
        let out = child.wait_with_output().unwrap();
        let names = dir.names();
        match out.status.code() {
            Some(130) => {
                let stderr = String::from_utf8(out.stderr).unwrap();
                assert!(stderr.contains("interrupted: "), "{stderr}");
                // Past the first win/loss layer the run keeps its
                // checkpoint, and says so; never a table.
                if names.is_empty() {
                    assert!(!stderr.contains("checkpoint"), "{stderr}");
                } else {
                    assert_eq!(names, ["euler-5x5.bin.checkpoint"], "after an interrupt");
                    let checkpoint = dir.0.join("euler-5x5.bin.checkpoint");
                    assert!(
                        stderr.contains(&format!(
                            "; {} kept: the same command resumes from it",
                            checkpoint.display()
                        )),
                        "{stderr}"
                    );
                    std::fs::remove_file(checkpoint).unwrap();
                }
            }
            // It finished first: the complete table, nothing else.
            Some(0) => {
                assert_eq!(names, ["euler-5x5.bin"]);
                std::fs::remove_file(dir.0.join("euler-5x5.bin")).unwrap();
            }
            // Killed by the signal before the handler was installed (at
            // start-up): nothing was written either.
            None => assert_eq!(names, Vec::<String>::new()),
            other => panic!("exit {other:?}"),
        }
    }
    assert!(seen_writing, "the temporary file was seen and interrupted");
}

/// Starts `boardbase ARGS` with nothing on standard input and standard
/// output, standard error as `stderr` says.
fn spawn<S: AsRef<std::ffi::OsStr>>(args: impl IntoIterator<Item = S>, stderr: Stdio) -> Child {
    Command::new(env!("CARGO_BIN_EXE_boardbase"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(stderr)
        .spawn()
        .unwrap()
}

/// Runs `args` and interrupts it (SIGINT, `signals` times in a row) once
/// `due` says so of the directory's names; the exit code and standard
/// error.
fn interrupt_when(
    args: &[&str],
    dir: &TempDir,
    due: impl Fn(&[String]) -> bool,
    signals: usize,
) -> (Option<i32>, String) {
    let mut child = spawn(args, Stdio::piped());
    let start = Instant::now();
    while !due(&dir.names()) && child.try_wait().unwrap().is_none() {
        assert!(start.elapsed() < Duration::from_secs(120));
        std::thread::sleep(Duration::from_millis(1));
    }
    for _ in 0..signals {
        let _ = Command::new("kill")
            .args(["-INT", &child.id().to_string()])
            .status();
    }
    let out = child.wait_with_output().unwrap();
    (out.status.code(), String::from_utf8(out.stderr).unwrap())
}

#[test]
fn ctrl_c_while_compressing_keeps_the_table_as_it_was() {
    let dir = TempDir::new("interrupt-compress");
    let file = dir.0.join("flip-4x5.bin");
    let path = file.display().to_string();
    let compressing = |names: &[String]| names.iter().any(|n| n.ends_with(".tmp"));
    let mut interrupted = [0, 0, 0];
    for _ in 0..4 {
        let r = run(&["generate", "flip", "4x5", "--dir", dir.path()]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let raw = std::fs::read(&file).unwrap();
        // Interrupted, `args` says `says` and leaves the raw table; else it
        // finished first: the compressed table. Nothing else either way.
        let mut outcome =
            |k: usize, args: &[&str], due: &dyn Fn(&[String]) -> bool, says: String| {
                // The third outcome's signal comes twice: the second stops
                // the process at once, saying the same; or, where the
                // compressed table had just replaced the raw one, so.
                match interrupt_when(args, &dir, due, if k == 2 { 2 } else { 1 }) {
                    (Some(130), stderr) if k == 2 && stderr.contains("written and compressed") => {
                        assert!(
                            stderr.contains(&format!("interrupted: {path} written and compressed"))
                        );
                        assert_eq!(Table::open(&file).unwrap().version(), 4);
                    }
                    (Some(130), stderr) => {
                        assert!(stderr.contains(&says), "{stderr}");
                        assert_eq!(std::fs::read(&file).unwrap(), raw);
                        interrupted[k] += 1;
                    }
                    (Some(0), _) => assert_eq!(Table::open(&file).unwrap().version(), 4),
                    other => panic!("{other:?}"),
                }
                assert_eq!(dir.names(), ["flip-4x5.bin"]);
                std::fs::remove_file(&file).unwrap();
            };
        // `compress FILE`: the file as it was, its temporary file removed.
        outcome(
            0,
            &["compress", &path],
            &compressing,
            format!("interrupted: {path} not compressed; the table is as it was"),
        );
        // `generate --compress`: the table written, kept uncompressed,
        // whether one signal comes or two.
        for k in [1, 2] {
            outcome(
                k,
                &["generate", "flip", "4x5", "--compress", "--dir", dir.path()],
                &|names| names.iter().any(|n| n == "flip-4x5.bin") && compressing(names),
                format!(
                    "interrupted: {path} written, not compressed; `boardbase compress {path}` compresses it"
                ),
            );
        }
    }
    assert!(interrupted.iter().all(|&n| n > 0), "{interrupted:?}");
}

/// The CPU time process `pid` has used so far, from `/proc/PID/stat`.
fn cpu_time(pid: u32) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // After the command's name, in parentheses: state is field 3, utime
    // and stime fields 14 and 15.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split(' ').collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    let per_second = Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok()?.trim().parse::<u64>().ok())
        .unwrap_or(100);
    Some(Duration::from_millis(ticks * 1000 / per_second))
}

#[test]
fn ctrl_c_saves_the_finished_layers_and_the_same_command_resumes() {
    // 5x6, win/loss only, one thread: 13 layers in about 0.7 s of CPU
    // time (a debug build); saving by the clock never comes
    // (--checkpoint-every 3600), so whatever the checkpoint holds after
    // Ctrl-C was saved as the run stopped.
    let args = |dir: &TempDir| {
        vec![
            "generate".to_owned(),
            "euler".into(),
            "5x6".into(),
            "--wdl-only".into(),
            "--threads".into(),
            "1".into(),
            "--checkpoint-every".into(),
            "3600".into(),
            "--dir".into(),
            dir.path().into(),
        ]
    };
    let whole = TempDir::new("ctrl-c-whole");
    let r = common::run(
        &args(&whole).iter().map(String::as_str).collect::<Vec<_>>(),
        "",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);

    let dir = TempDir::new("ctrl-c-resume");
    let checkpoint = dir.0.join("euler-5x6.bin.checkpoint");
    let mut child = spawn(args(&dir), Stdio::piped());
    // Past the first layers (about 6 of 13 at 0.3 s of CPU time),
    // whatever the machine's load.
    while cpu_time(child.id()).is_some_and(|t| t < Duration::from_millis(250)) {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the run ended before it was interrupted"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
    let _ = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    // The checkpoint is kept, and the message says so and how to resume.
    assert_eq!(dir.names(), ["euler-5x6.bin.checkpoint"], "{stderr}");
    assert!(
        stderr.contains(&format!(
            "interrupted: {} not written; {} kept: the same command resumes from it",
            dir.0.join("euler-5x6.bin").display(),
            checkpoint.display()
        )),
        "{stderr}"
    );
    // The same command resumes from the layers finished before Ctrl-C
    // (none would be there had they not been saved as it stopped), and
    // writes the same file as the run that was never interrupted.
    let r = common::run(
        &args(&dir).iter().map(String::as_str).collect::<Vec<_>>(),
        "",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let resumed = r
        .stderr
        .lines()
        .find_map(|l| l.split("resuming from ").nth(1))
        .unwrap_or_else(|| panic!("no resume: {}", r.stderr));
    let done: u32 = resumed
        .split(": ")
        .nth(1)
        .and_then(|t| t.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{resumed}"));
    assert!((1..=13).contains(&done), "{resumed}");
    assert!(
        resumed.ends_with(" of 13 win/loss layers done"),
        "{resumed}"
    );
    assert_eq!(dir.names(), ["euler-5x6.bin"], "the checkpoint is removed");
    assert!(
        std::fs::read(dir.0.join("euler-5x6.bin")).unwrap()
            == std::fs::read(whole.0.join("euler-5x6.bin")).unwrap(),
        "the resumed table equals the whole run's"
    );
}

/// A run of `args` in a fresh directory `name`, never interrupted: it
/// leaves its table `file` and no checkpoint.
fn whole_run(name: &str, args: impl Fn(&TempDir) -> Vec<String>, file: &str) -> TempDir {
    let whole = TempDir::new(name);
    let r = common::run(
        &args(&whole).iter().map(String::as_str).collect::<Vec<_>>(),
        "",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(whole.names(), [file], "no checkpoint left");
    whole
}

/// Starts `args` and kills it with SIGKILL (no handler runs) once `due`
/// says so of its checkpoint's length; it must not have ended by then, nor
/// left its table `file`.
fn kill_when(
    args: &[String],
    checkpoint: &Path,
    dir: &TempDir,
    file: &str,
    mut due: impl FnMut(u64) -> bool,
) {
    let mut child = spawn(args, Stdio::null());
    let start = Instant::now();
    while !due(std::fs::metadata(checkpoint).map_or(0, |m| m.len())) {
        assert!(
            child.try_wait().unwrap().is_none(),
            "killed before it ended"
        );
        assert!(start.elapsed() < Duration::from_secs(120));
        std::thread::sleep(Duration::from_millis(1));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(!dir.names().contains(&file.to_owned()));
}

/// Runs `args` again, which must succeed, and returns its line that says
/// what it resumed from.
fn rerun_resuming(args: &[String]) -> String {
    let r = common::run(&args.iter().map(String::as_str).collect::<Vec<_>>(), "");
    assert_eq!(r.code, 0, "{}", r.stderr);
    r.stderr
        .lines()
        .find(|l| l.starts_with("resuming from "))
        .unwrap_or_else(|| panic!("{}", r.stderr))
        .to_owned()
}

/// The resumed run left its table `file` alone in `dir`, byte-identical
/// to the whole run's.
fn assert_same_table(dir: &TempDir, whole: &TempDir, file: &str) {
    assert_eq!(dir.names(), [file], "the checkpoint is removed");
    assert!(
        std::fs::read(dir.0.join(file)).unwrap() == std::fs::read(whole.0.join(file)).unwrap(),
        "the resumed file is byte-identical"
    );
}

#[test]
fn a_killed_run_resumes_from_its_checkpoint_and_writes_the_same_file() {
    // 4×7, win/loss only: 11 layers of 1 to 252 blocks of 2^18 positions.
    let args = |dir: &TempDir| {
        vec![
            "generate".to_owned(),
            "euler".into(),
            "4x7".into(),
            "--wdl-only".into(),
            "--checkpoint-every".into(),
            "0".into(),
            "--dir".into(),
            dir.path().into(),
        ]
    };
    let whole = whole_run("resume-whole", args, "euler-4x7.bin");
    let dir = TempDir::new("resume-killed");
    let checkpoint = dir.0.join("euler-4x7.bin.checkpoint");
    // The bitset starts at 4 KiB; 40-byte records follow it. Killed once
    // three layers are saved.
    let data_end = 4096 + (1u64 << 28) / 8;
    kill_when(&args(&dir), &checkpoint, &dir, "euler-4x7.bin", |len| {
        len >= data_end + 3 * 40
    });
    let resumed = rerun_resuming(&args(&dir));
    let done: u32 = resumed
        .strip_prefix(&format!("resuming from {}: ", checkpoint.display()))
        .and_then(|rest| rest.strip_suffix(" of 11 win/loss layers done"))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{resumed}"));
    assert!((3..=11).contains(&done), "{resumed}");
    assert_same_table(&dir, &whole, "euler-4x7.bin");

    // A damaged checkpoint is refused, exit 1, and left for the user.
    std::fs::write(&checkpoint, b"BRDBCKPT\x01\0\0\0garbage").unwrap();
    let r = common::run(
        &args(&dir).iter().map(String::as_str).collect::<Vec<_>>(),
        "",
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert_eq!(
        r.stderr,
        format!(
            "error: cannot resume from {}: its header is cut short or too long; remove it to start over\n",
            checkpoint.display()
        )
    );
    assert!(checkpoint.exists());
}

#[test]
fn a_run_by_class_killed_in_the_moves_left_pass_resumes_from_its_steps() {
    // 4×6 by class, full tables, every layer and step saved.
    let args = |dir: &TempDir| {
        vec![
            "generate".to_owned(),
            "euler".into(),
            "4x6".into(),
            "--symmetry".into(),
            "--checkpoint-every".into(),
            "0".into(),
            "--dir".into(),
            dir.path().into(),
        ]
    };
    let whole = whole_run("by-class-whole", args, "euler-4x6.bin");
    let dir = TempDir::new("by-class-killed");
    let checkpoint = dir.0.join("euler-4x6.bin.checkpoint");
    // The table holds a bit and a byte an entry, the checkpoint its bitset
    // and then, once the moves-left pass first saves, a byte an entry too,
    // with a 40-byte record after each step saved. Killed once three more
    // steps are saved than when the column was first seen.
    let entries = std::fs::metadata(whole.0.join("euler-4x6.bin"))
        .unwrap()
        .len()
        * 8
        / 9;
    let mut column = 0;
    kill_when(&args(&dir), &checkpoint, &dir, "euler-4x6.bin", |len| {
        if column == 0 && len > entries / 2 {
            column = len;
        }
        column > 0 && len >= column + 3 * 40
    });
    let resumed = rerun_resuming(&args(&dir));
    let steps: u32 = resumed
        .split(", ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{resumed}"));
    assert!(steps >= 3, "{resumed}");
    assert!(
        resumed.ends_with(" of at most 25 moves-left steps done"),
        "{resumed}"
    );
    assert_same_table(&dir, &whole, "euler-4x6.bin");
}

#[test]
fn a_run_killed_in_the_moves_left_pass_resumes_from_its_steps() {
    // 4×6, full tables, every layer and step saved.
    let args = |dir: &TempDir| {
        vec![
            "generate".to_owned(),
            "euler".into(),
            "4x6".into(),
            "--checkpoint-every".into(),
            "0".into(),
            "--dir".into(),
            dir.path().into(),
        ]
    };
    let whole = whole_run("depth-whole", args, "euler-4x6.bin");
    let dir = TempDir::new("depth-killed");
    let checkpoint = dir.0.join("euler-4x6.bin.checkpoint");
    // The layout (src/generate/checkpoint.rs): the bitset from 4 KiB, the
    // room of a 40-byte record for each of 7 layers, from the next 4 KiB
    // the two byte columns, then a 40-byte record a step. Killed once
    // three steps are saved.
    let positions = 1u64 << 24;
    let columns_end = (4096 + positions / 8 + 7 * 40).next_multiple_of(4096) + 2 * positions;
    kill_when(&args(&dir), &checkpoint, &dir, "euler-4x6.bin", |len| {
        len >= columns_end + 3 * 40
    });
    let resumed = rerun_resuming(&args(&dir));
    let steps: u32 = resumed
        .strip_prefix(&format!(
            "resuming from {}: 7 of 7 win/loss layers done, ",
            checkpoint.display()
        ))
        .and_then(|rest| rest.strip_suffix(" of at most 25 moves-left steps done"))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{resumed}"));
    assert!((3..=25).contains(&steps), "{resumed}");
    assert_same_table(&dir, &whole, "euler-4x6.bin");
}

#[test]
fn a_temporary_file_left_by_a_killed_run_is_named() {
    // SIGKILL leaves `.NAME.PID-N.tmp` (never a table under NAME): the next
    // run says so, and leaves it for the user to remove. (Whether its process
    // is gone is read from /proc: Linux.)
    if !Path::new("/proc/self").exists() {
        return;
    }
    let dir = TempDir::new("leftover");
    let left = dir.0.join(".euler-2x2.bin.4294967295-0.tmp");
    std::fs::write(&left, "partial").unwrap();
    let r = run(&["generate", "euler", "2x2", "--dir", dir.path()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stderr.contains(&format!(
            "note: {} was left by a run that was killed",
            left.display()
        )),
        "{}",
        r.stderr
    );
    assert_eq!(
        dir.names(),
        [".euler-2x2.bin.4294967295-0.tmp", "euler-2x2.bin"]
    );
}

#[test]
fn full_tables_past_25_squares_answer_moves_left() {
    // 1×26: full tables by default now that the memory decides (160 MiB),
    // and `euler --size` answers moves left and a best move from the
    // file. A row of n ≥ 5 squares lasts n − 1 moves from the empty board,
    // lost for the player to move when n is even: the plain retrograde of
    // benches/retrograde.rs (docs/results.md) found so for every n to 30.
    let dir = TempDir::new("past-25");
    let r = run(&["generate", "euler", "1x26", "--dir", dir.path()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stderr.starts_with(
            "euler 1x26, full tables (win/loss, moves left, best move): 67,108,864 positions; "
        ),
        "{}",
        r.stderr
    );
    let board = format!("1\n{}\n", ".".repeat(26));
    let r = common::run(
        &[
            "euler",
            "--size",
            "1x26",
            "--tables",
            dir.path(),
            "--format",
            "json",
        ],
        board,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = json(&r.stdout);
    assert_eq!(v["answer"], "LOSING");
    assert_eq!(v["moves_left"], 25);
    assert!(v["best_move"]["mask"].as_u64().is_some(), "{v}");
}

#[test]
fn a_dir_that_is_a_file_is_said_to_be_one() {
    let dir = TempDir::new("gen-dir-is-a-file");
    let file = dir.join("not-a-dir");
    std::fs::write(&file, b"").unwrap();
    let r = run(&["generate", "euler", "2x2", "--dir", file.to_str().unwrap()]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stderr.contains(&format!(
            "error: cannot write {}: not a directory (--dir names a directory to write the table into)",
            file.display()
        )),
        "{}",
        r.stderr
    );
    assert_eq!(
        std::fs::read(&file).unwrap(),
        b"",
        "the file is left as it was"
    );
}

#[test]
fn a_game_of_the_model_generated_verified_and_answered_from_its_file() {
    let dir = TempDir::new("generate-mnk");
    // Tic-tac-toe's well-known figures: 765 positions up to symmetry, all
    // reachable, the start a draw (tests/library/game_table.rs counts the
    // classes of the oracle's reachable positions).
    let r = run(&["generate", "mnk", "3x3", "--dir", dir.path()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stderr.starts_with(
            "mnk 3x3, value and remoteness of every position: 19,683 position indices; needs "
        ),
        "the memory needed is said first: {}",
        r.stderr
    );
    let file = dir.join("mnk-3x3-k3.bin");
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines[0], "mnk 3x3, k = 3");
    assert_eq!(
        lines[1],
        "positions up to symmetry: 765 legal, 765 reachable from the start (390 won, 224 lost, 151 drawn by the player to move)"
    );
    assert_eq!(lines[2], "start: draw for the first player");
    // One entry a legal canonical position: 765 of the 19,683 indices.
    assert!(lines[3].starts_with(&format!("wrote {} (4,932 bytes) in ", file.display())));
    assert_eq!(std::fs::metadata(&file).unwrap().len(), 4_932);

    let r = run(&["verify", file.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        r.stdout,
        format!(
            "{}: ok (mnk 3x3 k=3, version 6, columns canonical, canonical_rank, outcome, option_k; 4 block CRCs ok \
             over 4,311 bytes; every entry agrees with its moves by the rules (19,683 position indices))\n",
            file.display()
        )
    );

    // No memory to solve in: only the file can answer.
    let r = run(&[
        "solve",
        "mnk",
        "--board",
        "XX./OO./...",
        "--tables",
        dir.path(),
        "--make-memory",
        "0",
        "--format",
        "json",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = json(&r.stdout);
    assert_eq!(
        (v["value"].as_str(), v["remoteness"].as_u64()),
        (Some("win"), Some(1))
    );
    assert_eq!(v["moves"][0]["move"], "c1");
    let r = run(&[
        "solve",
        "mnk",
        "--start",
        "--k",
        "2",
        "--tables",
        dir.path(),
        "--make-memory",
        "0",
    ]);
    assert_ne!(r.code, 0, "k = 2 has no file and no memory: {}", r.stdout);

    // JSON summary, and Connect Four's option.
    let r = run(&[
        "generate",
        "connect4",
        "3x4",
        "--k",
        "3",
        "--dir",
        dir.path(),
        "--format",
        "json",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v = json(&r.stdout);
    assert_eq!(v["game"], "connect4");
    assert_eq!(v["options"]["k"], 3);
    assert_eq!((v["rows"].as_u64(), v["cols"].as_u64()), (Some(3), Some(4)));
    let counted = ["win", "lose", "draw"].map(|k| v[k].as_u64().unwrap());
    assert_eq!(
        counted.iter().sum::<u64>(),
        v["reachable"].as_u64().unwrap()
    );
    assert!(v["reachable"].as_u64() <= v["legal"].as_u64());
    // Column-coded indices: (2^(3+1) - 1)^4.
    assert_eq!(v["positions"], 15u64.pow(4));
    assert_eq!(
        v["file"],
        dir.join("connect4-3x4-k3.bin").display().to_string()
    );
}

#[test]
fn a_game_of_the_model_refuses_the_settings_of_euler_and_flip() {
    let dir = TempDir::new("generate-mnk-usage");
    for (extra, flag) in [
        (&["--wdl-only"][..], "--wdl-only"),
        (&["--jobs", "2"][..], "--jobs"),
    ] {
        let mut args = vec!["generate", "mnk", "3x3", "--dir", dir.path()];
        args.extend_from_slice(extra);
        let r = run(&args);
        assert_eq!(r.code, 2, "{}", r.stderr);
        assert_eq!(
            r.stderr,
            format!("error: {flag} is for euler and flip: a mnk table is solved by one thread\n")
        );
    }
    let r = run(&["generate", "flip", "3x3", "--k", "3", "--dir", dir.path()]);
    assert_eq!(r.code, 2);
    assert_eq!(
        r.stderr,
        "error: --k is for the games of the model (`boardbase games`), not flip\n"
    );
    let r = run(&["generate", "mnk", "3x3", "--k", "0", "--dir", dir.path()]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.starts_with("error: k = 0: mnk takes k from 1 to "),
        "{}",
        r.stderr
    );
    assert!(dir.names().is_empty(), "{:?}", dir.names());
}

/// A game's run stopped part way (through the library, at a chosen point)
/// leaves its checkpoint; the same command resumes from it, says so, and
/// writes the file a run that never stopped writes, leaving no checkpoint.
#[test]
fn a_game_resumes_from_its_checkpoint_to_the_same_file() {
    let fresh = TempDir::new("generate-game-fresh");
    let args = |dir: &TempDir| -> Vec<String> {
        ["generate", "quixo", "3x4", "--k", "3", "--dir", dir.path()]
            .map(str::to_owned)
            .to_vec()
    };
    let argv = args(&fresh);
    let r = run(&argv.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(!r.stderr.contains("resuming"), "{}", r.stderr);
    let want = std::fs::read(fresh.0.join("quixo-3x4-k3.bin")).unwrap();

    let dir = TempDir::new("generate-game-resumed");
    let (quixo, setup) = crate::interrupted::quixo_3x4(3);
    crate::interrupted::interrupted(&dir.0, quixo, setup, 2.0 / 3.0);
    assert_eq!(dir.names(), ["quixo-3x4-k3.bin.checkpoint"]);
    let argv = args(&dir);
    let r = run(&argv.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(r.code, 0, "{}", r.stderr);
    let checkpoint = dir.0.join("quixo-3x4-k3.bin.checkpoint");
    assert!(
        r.stderr
            .lines()
            .any(|l| l == format!("resuming from {}", checkpoint.display())),
        "{}",
        r.stderr
    );
    assert_eq!(std::fs::read(dir.0.join("quixo-3x4-k3.bin")).unwrap(), want);
    assert_eq!(dir.names(), ["quixo-3x4-k3.bin"]);
}

#[test]
fn generate_compress_writes_the_bytes_of_generate_then_compress() {
    // Euler full and win/loss, Flip, a game solved whole and one solved
    // tier by tier (held to 10M).
    let cases: [(&[&str], &str); 5] = [
        (&["euler", "3x5"], "euler-3x5.bin"),
        (&["euler", "4x5", "--wdl-only"], "euler-4x5.bin"),
        (&["flip", "3x4"], "flip-3x4.bin"),
        (&["mnk", "3x4", "--k", "3"], "mnk-3x4-k3.bin"),
        (&["quixo", "3x4", "--memory", "10M"], "quixo-3x4-k3.bin"),
    ];
    for (args, name) in cases {
        let raw = TempDir::new("generate-raw");
        let r = run(&[&["generate"], args, &["--dir", raw.path()]].concat());
        assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
        // The game held to 10M is solved tier by tier, the others whole.
        let tiered = args.contains(&"10M");
        assert_eq!(
            r.stderr.contains(", solved tier by tier with "),
            tiered,
            "{}",
            r.stderr
        );
        let raw_file = raw.0.join(name);
        let raw_len = std::fs::metadata(&raw_file).unwrap().len();
        let r = run(&["compress", &raw_file.display().to_string()]);
        assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
        let want = std::fs::read(&raw_file).unwrap();

        let dir = TempDir::new("generate-compressed");
        let r = run(&[
            &["generate"],
            args,
            &["--dir", dir.path(), "--compress", "--format", "json"],
        ]
        .concat());
        assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
        let v = json(&r.stdout);
        let path = dir.0.join(name);
        assert!(
            std::fs::read(&path).unwrap() == want,
            "{args:?}: the bytes differ"
        );
        assert_eq!(v["file_bytes"], want.len() as u64, "{args:?}");
        assert_eq!(v["uncompressed_bytes"], raw_len, "{args:?}");
        assert!((want.len() as u64) < raw_len, "{args:?}");
        assert_eq!(dir.names(), [name], "{args:?}: nothing else is left");
        let version = Table::open(&path)
            .map(|t| t.version())
            .or_else(|_| boardbase::tablefile::GameTable::open_game(&path).map(|t| t.version()))
            .unwrap();
        // A game's table keeps version 6, one entry a class.
        let game = !matches!(args[0], "euler" | "flip");
        assert_eq!(version, if game { 6 } else { 4 }, "{args:?}");

        // The text says it; without --compress the JSON has no such field.
        let r = run(&[&["generate"], args, &["--dir", dir.path(), "--compress"]].concat());
        assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
        let percent = format!("{:.1} %", want.len() as f64 * 100.0 / raw_len as f64);
        assert!(
            r.stdout.contains(&format!(
                "compressed from {}: {percent}",
                thousands(raw_len)
            )),
            "{args:?}: {}",
            r.stdout
        );
        let r = run(&[
            &["generate"],
            args,
            &["--dir", raw.path(), "--format", "json"],
        ]
        .concat());
        assert_eq!(json(&r.stdout).get("uncompressed_bytes"), None, "{args:?}");
    }
}

#[test]
fn euler_by_class_answers_every_position_as_the_oracle() {
    let dir = TempDir::new("by-class");
    for (rows, cols, wdl) in [(4, 4, false), (3, 5, false), (2, 6, true), (4, 5, false)] {
        let shape = Shape::new(rows, cols).unwrap();
        let size = shape.to_string();
        let oracle = Euler::solve(shape);
        let (r, s) = generate_euler(&size, dir.path(), &["--symmetry"], wdl);
        assert!(
            r.stderr
                .contains("one entry a class of the board's symmetries")
                && r.stderr.contains(" without --symmetry)"),
            "{}",
            r.stderr
        );
        let n = 1u64 << shape.cells();
        let open_wins = oracle.wins[..n as usize - 1].iter().filter(|&&w| w).count() as u64;
        assert_eq!(
            (s["winning"].as_u64(), s["losing"].as_u64()),
            (Some(open_wins), Some(n - 1 - open_wins))
        );
        assert_eq!(s["wdl_only"], wdl);
        let file = dir.0.join(format!("euler-{size}.bin"));
        let table = Table::open(&file).unwrap();
        assert_eq!(table.version(), 5);
        let euler = table.as_euler().unwrap();
        for p in 0..n {
            let e = euler.probe(p).unwrap();
            assert_eq!(e.outcome.is_win(), oracle.wins[p as usize], "{size} {p:#x}");
            if wdl {
                assert_eq!((e.moves_left, e.best_move), (None, None));
                continue;
            }
            assert_eq!(
                e.moves_left,
                Some(oracle.plies[p as usize]),
                "{size} {p:#x}"
            );
            let best = oracle.best[p as usize];
            let want = (p != shape.full()).then(|| oracle.order[usize::from(best)]);
            assert_eq!(e.best_move, want, "{size} {p:#x}: best move");
        }
        let v = run(&["verify", "--all", file.to_str().unwrap()]);
        assert_eq!(v.code, 0, "{}", v.stderr);
        assert!(v.stdout.contains(", version 5, "), "{}", v.stdout);
    }
    assert_eq!(
        dir.names(),
        [
            "euler-2x6.bin",
            "euler-3x5.bin",
            "euler-4x4.bin",
            "euler-4x5.bin"
        ]
    );
}

#[test]
fn flip_by_class_answers_every_board_as_the_table_by_board() {
    let (by_class, by_board) = (TempDir::new("flip-by-class"), TempDir::new("flip-by-board"));
    for (rows, cols) in [(3, 4), (4, 4)] {
        let shape = Shape::new(rows, cols).unwrap();
        let size = shape.to_string();
        let r = run(&[
            "generate",
            "flip",
            &size,
            "--symmetry",
            "--dir",
            by_class.path(),
        ]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert!(
            r.stderr
                .contains("one entry a class of the board's symmetries")
                && r.stderr.contains(" without --symmetry)"),
            "{}",
            r.stderr
        );
        let r = run(&["generate", "flip", &size, "--dir", by_board.path()]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert!(r.stderr.contains(" with --symmetry)"), "{}", r.stderr);
        let (class_file, board_file) = (
            by_class.0.join(format!("flip-{size}.bin")),
            by_board.0.join(format!("flip-{size}.bin")),
        );
        let v = run(&["verify", "--all", class_file.to_str().unwrap()]);
        assert_eq!(v.code, 0, "{}", v.stderr);
        assert!(v.stdout.contains(", version 5, "), "{}", v.stdout);
        let (small, large) = (
            std::fs::metadata(&class_file).unwrap().len(),
            std::fs::metadata(&board_file).unwrap().len(),
        );
        assert!(2 * small < large, "{small} {large}");

        // The rounds and set counts of every board, as the oracle's
        // enumeration of every press set finds them.
        let oracle = Flip::solve(shape);
        let table = Table::open(&class_file).unwrap();
        let flip = table.as_flip().unwrap();
        let mut boards = String::new();
        for b in 0..=shape.full() {
            for (colour, c) in boardbase::flip::Colour::ALL.into_iter().enumerate() {
                let route = flip.route(b, c).unwrap();
                let want = oracle.rounds[colour][b as usize];
                assert_eq!(route.map_or(255, |r| r.rounds), want, "{size} {b:#x}");
                assert_eq!(
                    route.map_or(0, |r| r.optimal_sets),
                    oracle.sets[colour][b as usize],
                    "{size} {b:#x}"
                );
            }
            for r in 0..rows {
                for c in 0..cols {
                    boards.push(if b >> (r * cols + c) & 1 == 1 {
                        'b'
                    } else {
                        'w'
                    });
                }
                boards.push('\n');
            }
        }
        // Every answer, press sets included, byte for byte.
        let answers = |file: &Path| {
            let r = common::run(
                &[
                    "flip",
                    "--table",
                    file.to_str().unwrap(),
                    "--format",
                    "json",
                ],
                &boards,
            );
            assert_eq!(r.code, 0, "{}", r.stderr);
            r.stdout
        };
        assert_eq!(answers(&class_file), answers(&board_file), "{size}");
    }
}

#[test]
fn symmetry_is_refused_where_it_makes_no_table() {
    let dir = TempDir::new("by-class-refused");
    let r = run(&["generate", "mnk", "3x3", "--symmetry", "--dir", dir.path()]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("--symmetry is for euler and flip"),
        "{}",
        r.stderr
    );
    assert!(dir.names().is_empty());
}
