//! `boardbase generate` over the ranks of an MPI job (the CLI's `mpi`
//! feature; `.ci/run` installs Open MPI and runs these). The files of 1, 2
//! and 3 ranks are compared byte for byte with the one process's file (which
//! the other suites check against the oracles), and checked once more by
//! `verify --all`; a rank that dies ends the job, and the rerun resumes
//! from the checkpoint the ranks saved (on another number of ranks, or in
//! one process); ranks started with different arguments are refused.

#[path = "common/mod.rs"]
mod common;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, ExitStatus, Output, Stdio};
use std::time::{Duration, Instant};

use common::{TempDir, binary};

/// `mpirun -np RANKS boardbase ARGS`, the ranks oversubscribing the cores
/// (CI has 2) and allowed to run as root (CI runs as root).
fn mpirun(ranks: usize, args: &[&str]) -> Command {
    let mut cmd = Command::new("mpirun");
    cmd.args(["--oversubscribe", "-np", &ranks.to_string(), binary()])
        .args(args)
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .stdin(Stdio::null());
    cmd
}

fn output(cmd: &mut Command) -> Output {
    cmd.output().expect("mpirun runs (Debian: openmpi-bin)")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The table file one process writes for `args` in `dir`.
fn one_process(dir: &TempDir, args: &[&str]) -> Vec<u8> {
    let shape = args[0];
    let out = output(
        Command::new(binary())
            .args(["generate", "euler"])
            .args(args)
            .args(["--dir", dir.path()]),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    std::fs::read(dir.join(format!("euler-{shape}.bin"))).expect("the file is written")
}

#[test]
fn files_of_one_two_and_three_ranks_equal_one_process_s() {
    // 5x5 saves every layer to the checkpoint the ranks share (and removes
    // it once the file is written).
    let every_layer = ["5x5", "--checkpoint-every", "0"];
    // --compress: rank 0 compresses the file the ranks wrote.
    let compressed = ["4x5", "--compress"];
    // By class: every rank holds the whole win/loss bitset, and each
    // makes the moves left of its range of classes.
    let by_class = ["5x5", "--symmetry", "--checkpoint-every", "0"];
    for args in [
        &["4x5"][..],
        &every_layer,
        &["4x6", "--wdl-only"],
        &["3x4"],
        &compressed,
        &by_class,
        &["4x6", "--symmetry", "--wdl-only"],
        &["2x2", "--symmetry"],
    ] {
        let shape = args[0];
        let one = one_process(&TempDir::new("mpi-one"), args);
        for ranks in 1..=3 {
            let dir = TempDir::new("mpi-ranks");
            let out = output(
                mpirun(ranks, &["generate", "euler"])
                    .args(args)
                    .args(["--dir", dir.path()]),
            );
            let stderr = text(&out.stderr);
            assert!(out.status.success(), "{args:?} on {ranks} ranks: {stderr}");
            let path = dir.join(format!("euler-{shape}.bin"));
            let made = std::fs::read(&path).expect("the file is written");
            assert!(made == one, "{args:?} on {ranks} ranks: the file differs");
            // Rank 0 alone speaks: one plan, one summary. One rank is a
            // job of one process.
            let spread = usize::from(ranks > 1);
            let plans = stderr.matches(&format!("{ranks} ranks (")).count();
            assert_eq!(plans, spread, "{stderr}");
            // Ranks by class fetch no blocks from one another.
            let exchanged = stderr.matches("exchanged between ranks: ").count();
            let fetched = spread * usize::from(!args.contains(&"--symmetry"));
            assert_eq!(exchanged, fetched, "{stderr}");
            let summary = text(&out.stdout);
            assert_eq!(summary.matches("wrote ").count(), 1, "{summary}");
            assert_eq!(
                summary.contains(", compressed from "),
                args.contains(&"--compress"),
                "{summary}"
            );
            assert_eq!(
                dir.names(),
                [format!("euler-{shape}.bin")],
                "nothing else is left"
            );
            verify_all(&path);
        }
    }
}

#[test]
fn a_small_exchange_budget_takes_more_rounds_and_makes_the_same_file() {
    // A budget of a block or three a round: every layer takes many rounds,
    // which keep the blocks the next round reads.
    for args in [
        &["5x5", "--exchange-memory", "64KiB"][..],
        &["4x6", "--wdl-only", "--exchange-memory", "100KiB"],
    ] {
        let shape = args[0];
        let one_args: Vec<&str> = args
            .iter()
            .copied()
            .filter(|a| *a == shape || *a == "--wdl-only")
            .collect();
        let one = one_process(&TempDir::new("mpi-rounds-one"), &one_args);
        for ranks in [2, 3] {
            let dir = TempDir::new("mpi-rounds");
            let out = output(
                mpirun(ranks, &["generate", "euler"])
                    .args(args)
                    .args(["--dir", dir.path()]),
            );
            assert!(
                out.status.success(),
                "{args:?} on {ranks} ranks: {}",
                text(&out.stderr)
            );
            let made = std::fs::read(dir.join(format!("euler-{shape}.bin"))).expect("written");
            assert!(made == one, "{args:?} on {ranks} ranks: the file differs");
        }
    }
}

fn verify_all(path: &Path) {
    let out = output(Command::new(binary()).args(["verify", "--all"]).arg(path));
    assert!(out.status.success(), "{}", text(&out.stderr));
}

#[test]
fn ranks_given_different_arguments_are_refused() {
    let dir = TempDir::new("mpi-args");
    // Two programs in one job (MPMD): rank 1 asks for another board.
    let out = output(
        Command::new("mpirun")
            .args([
                "--oversubscribe",
                "-np",
                "1",
                binary(),
                "generate",
                "euler",
                "3x4",
            ])
            .args(["--dir", dir.path(), ":", "-np", "1", binary()])
            .args(["generate", "euler", "3x5", "--dir", dir.path()])
            .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
            .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
            .stdin(Stdio::null()),
    );
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(
            "error: the ranks of the job were started with different arguments: rank 0 `"
        ) && stderr.contains("generate euler 3x4 --dir")
            && stderr.contains("rank 1 `")
            && stderr.contains("generate euler 3x5 --dir"),
        "{stderr}"
    );
    assert_eq!(
        stderr.matches("error:").count(),
        1,
        "rank 0 alone says it: {stderr}"
    );
    assert!(dir.names().is_empty(), "{:?}", dir.names());
}

#[test]
fn a_flip_job_over_ranks_is_a_usage_error() {
    let dir = TempDir::new("mpi-flip");
    let out = output(&mut mpirun(
        2,
        &["generate", "flip", "3x3", "--dir", dir.path()],
    ));
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("error: a Flip table is made by one process, not 2"),
        "{stderr}"
    );
    assert!(dir.names().is_empty());
}

#[test]
fn a_job_over_every_rank_s_memory_is_refused_by_rank_0_alone() {
    let dir = TempDir::new("mpi-memory");
    for symmetry in [&[][..], &["--symmetry"]] {
        let mut args = vec![
            "generate",
            "euler",
            "6x6",
            "--memory",
            "64M",
            "--dir",
            dir.path(),
        ];
        args.extend_from_slice(symmetry);
        let out = output(&mut mpirun(2, &args));
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        // Every rank is over its limit; one says so.
        assert_eq!(stderr.matches("error:").count(), 1, "{stderr}");
        assert!(
            stderr.contains("error: euler 6x6 needs ")
                && stderr.contains("over the limit of 64.00 MiB (--memory)"),
            "{stderr}"
        );
        assert!(dir.names().is_empty(), "{:?}", dir.names());
    }
}

/// The processes whose parent is `parent` (Linux's /proc).
fn children(parent: u32) -> Vec<u32> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        // After the command's name in parentheses: state, then the parent.
        let after = &stat[stat.rfind(')').map_or(0, |i| i + 1)..];
        if after.split_whitespace().nth(1) == Some(&parent.to_string()) {
            found.push(pid);
        }
    }
    found
}

/// Starts `boardbase generate euler 5x6 --wdl-only` saving every layer in
/// `dir` over `ranks` ranks (none: one process without mpirun), and kills
/// one of its processes with SIGKILL once the checkpoint holds `layers`
/// layers. Returns how it ended and its stderr.
fn killed_after(dir: &TempDir, ranks: Option<usize>, layers: u64) -> (ExitStatus, String) {
    let saved = |len: u64| len % 4096 / 40 >= layers;
    killed_when(dir, ranks, &["--wdl-only"], &saved)
}

/// Starts `boardbase generate euler 5x6 ARGS` saving every layer and step
/// in `dir` over `ranks` ranks (none: one process without mpirun), and
/// kills one of its processes with SIGKILL once the checkpoint's length
/// satisfies `saved`. Returns how it ended and its stderr.
fn killed_when(
    dir: &TempDir,
    ranks: Option<usize>,
    more: &[&str],
    saved: &dyn Fn(u64) -> bool,
) -> (ExitStatus, String) {
    let mut args = vec!["generate", "euler", "5x6"];
    args.extend_from_slice(more);
    args.extend_from_slice(&["--checkpoint-every", "0", "--dir", dir.path()]);
    let mut job = match ranks {
        Some(ranks) => mpirun(ranks, &args),
        None => {
            let mut cmd = Command::new(binary());
            cmd.args(args);
            cmd
        }
    }
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .spawn()
    .expect("the job starts");
    let stderr = job.stderr.take().expect("piped");
    let reader = std::thread::spawn(move || {
        let mut all = String::new();
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            all.push_str(&line);
            all.push('\n');
        }
        all
    });
    // The checkpoint's layout (src/generate/checkpoint.rs): the header and
    // the bitset fill whole 4 KiB pages, and each saved layer appends a
    // 40-byte record; the moves-left section follows in whole pages, and
    // each step saved appends a 40-byte record.
    let checkpoint = dir.join("euler-5x6.bin.checkpoint");
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if saved(std::fs::metadata(&checkpoint).map_or(0, |m| m.len())) {
            break;
        }
        assert!(Instant::now() < deadline, "nothing saved in a minute");
        assert!(
            job.try_wait().expect("waited for").is_none(),
            "the job ended before it saved what the test waits for"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    let victim = match ranks {
        Some(_) => *children(job.id()).last().expect("a rank runs"),
        None => job.id(),
    };
    let killed = Command::new("kill")
        .args(["-9", &victim.to_string()])
        .status();
    assert!(killed.is_ok_and(|s| s.success()));
    // No hang: mpirun ends the job within seconds, with a failure.
    let deadline = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(status) = job.try_wait().expect("the job is waited for") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = job.kill();
            panic!("the job hangs after a rank was killed");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    (status, reader.join().expect("the reader ends with the job"))
}

/// The complete layers the rerun of a killed job says it resumes from.
fn resumed_layers(stderr: &str) -> u64 {
    let line = stderr
        .lines()
        .find(|l| l.starts_with("resuming from "))
        .unwrap_or_else(|| panic!("the rerun resumes: {stderr}"));
    let done = line.split(": ").nth(1).and_then(|l| l.split(' ').next());
    done.and_then(|d| d.parse().ok())
        .unwrap_or_else(|| panic!("{line}"))
}

#[test]
fn a_rank_killed_ends_the_job_and_the_rerun_resumes_to_the_same_file() {
    let one = one_process(&TempDir::new("mpi-kill-one"), &["5x6", "--wdl-only"]);
    let dir = TempDir::new("mpi-kill");
    let (status, stderr) = killed_after(&dir, Some(2), 3);
    assert!(!status.success(), "{stderr}");
    assert!(
        stderr.contains("signal 9"),
        "mpirun says which rank died: {stderr}"
    );
    assert!(
        !dir.join("euler-5x6.bin").exists(),
        "no file under the final name"
    );
    for name in dir.names() {
        // A temporary file of the killed job: `note:`d, never read.
        if name.starts_with(".euler-5x6.bin.") && name.ends_with(".tmp") {
            std::fs::remove_file(dir.join(&name)).expect("removed");
        } else {
            assert_eq!(name, "euler-5x6.bin.checkpoint");
        }
    }

    // A checkpoint whose data does not match its CRCs is refused, by rank 0
    // alone, with the reason: the last byte of the bitset is in layer 0's
    // block (every top cell covered), the last block.
    let checkpoint = dir.join("euler-5x6.bin.checkpoint");
    let saved = std::fs::read(&checkpoint).expect("kept");
    let mut damaged = saved.clone();
    let data_end = saved.len() - saved.len() % 4096;
    damaged[data_end - 1] ^= 0x10;
    std::fs::write(&checkpoint, &damaged).expect("written");
    let args = [
        "generate",
        "euler",
        "5x6",
        "--wdl-only",
        "--dir",
        dir.path(),
    ];
    let out = output(&mut mpirun(2, &args));
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let refusal = "the data of win/loss layer 0 does not match its CRC";
    assert_eq!(stderr.matches(refusal).count(), 1, "{stderr}");
    assert!(!dir.join("euler-5x6.bin").exists());

    // The checkpoint as the killed job left it: 3 ranks resume it and
    // write the file one process writes.
    std::fs::write(&checkpoint, &saved).expect("written");
    let out = output(&mut mpirun(3, &args));
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(resumed_layers(&stderr) >= 3, "{stderr}");
    let made = std::fs::read(dir.join("euler-5x6.bin")).expect("written");
    assert!(made == one, "the resumed file differs from one process's");
    assert_eq!(dir.names(), ["euler-5x6.bin"], "the checkpoint is removed");

    // One process resumes the ranks' checkpoint, and the ranks one
    // process's.
    for (killed, rerun) in [(Some(2), None), (None, Some(2))] {
        let dir = TempDir::new("mpi-kill-across");
        killed_after(&dir, killed, 2);
        let out = match rerun {
            Some(ranks) => output(mpirun(ranks, &args[..4]).args(["--dir", dir.path()])),
            None => output(
                Command::new(binary())
                    .args(&args[..4])
                    .args(["--dir", dir.path()]),
            ),
        };
        let stderr = text(&out.stderr);
        assert!(out.status.success(), "{stderr}");
        assert!(resumed_layers(&stderr) >= 2, "{stderr}");
        let made = std::fs::read(dir.join("euler-5x6.bin")).expect("written");
        assert!(made == one, "{killed:?} then {rerun:?}: the file differs");
    }
}

#[test]
fn a_run_by_class_killed_in_its_moves_left_pass_resumes_on_any_number_of_ranks() {
    let full = ["5x6", "--symmetry"];
    let one = one_process(&TempDir::new("mpi-class-one"), &full);
    // 5x6 by class: a bitset of 33.9 MB, then a moves-left section of
    // 271.6 MB; three steps saved past it.
    let in_depth = |len: u64| len > 200 << 20 && len % 4096 / 40 >= 3;
    for (killed, rerun) in [(Some(2), Some(3)), (Some(3), None), (None, Some(2))] {
        let dir = TempDir::new("mpi-class-kill");
        let (status, stderr) = killed_when(&dir, killed, &["--symmetry"], &in_depth);
        assert!(!status.success(), "{stderr}");
        let args = [
            "generate",
            "euler",
            "5x6",
            "--symmetry",
            "--dir",
            dir.path(),
        ];
        let out = match rerun {
            Some(ranks) => output(&mut mpirun(ranks, &args)),
            None => output(Command::new(binary()).args(args)),
        };
        let stderr = text(&out.stderr);
        assert!(out.status.success(), "{stderr}");
        assert!(stderr.contains("17 of 17 win/loss layers done"), "{stderr}");
        let steps = stderr
            .split("layers done, ")
            .nth(1)
            .and_then(|s| s.split(' ').next())
            .and_then(|s| s.parse::<u32>().ok());
        assert!(steps.is_some_and(|s| s >= 3), "{stderr}");
        let made = std::fs::read(dir.join("euler-5x6.bin")).expect("written");
        assert!(made == one, "{killed:?} then {rerun:?}: the file differs");
        assert_eq!(dir.names(), ["euler-5x6.bin"], "the checkpoint is removed");
    }
}
