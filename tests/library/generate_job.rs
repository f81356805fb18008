//! A whole table-file job (`boardbase::generate::Job`, what `boardbase
//! generate` and Python's `boardbase.generate` run): its report against the
//! oracles of `tests/oracle` (written apart from the generator), its JSON,
//! its errors, and cancellation: a job cancelled in any phase stops there,
//! returns `GenerateError::NotWritten` and leaves no table and no temporary file.

use crate::common::TempDir;
use crate::oracle::tables::{Euler, Flip};

use std::sync::Mutex;
use std::time::{Duration, Instant};

use boardbase::generate::{
    Cancel, GenerateError, Job, JobSetting, LimitFrom, Phase, Puzzle, Report, ReportSummary,
};
use boardbase::tablefile::Table;
use boardbase::tables::shape::Shape;

fn shape(rows: usize, cols: usize) -> Shape {
    Shape::new(rows, cols).unwrap()
}

/// The job of `puzzle` on `shape` into `dir`, on two threads.
fn job(puzzle: Puzzle, shape: Shape, dir: &TempDir) -> Job {
    Job {
        dir: dir.0.clone(),
        threads: Some(2),
        ..Job::new(puzzle, shape)
    }
}

/// The JSON of the report's timings and file, as `--format json` ends.
fn run_json(report: &Report) -> String {
    let r = &report.run;
    format!(
        r#""seconds":{},"generate_seconds":{},"write_seconds":{},"memory_needed_bytes":{},"peak_memory_bytes":{},"file":{},"file_bytes":{}}}"#,
        serde_json::to_string(&r.seconds).unwrap(),
        serde_json::to_string(&r.generate_seconds).unwrap(),
        serde_json::to_string(&r.write_seconds).unwrap(),
        r.memory_needed,
        r.peak_memory.map_or("null".to_owned(), |p| p.to_string()),
        serde_json::to_string(&r.file).unwrap(),
        r.file_bytes,
    )
}

#[test]
fn euler_reports_against_the_oracle() {
    for (rows, cols, wdl_only) in [(3, 4, false), (3, 4, true), (2, 3, false)] {
        let dir = TempDir::new(&format!("job-euler-{rows}x{cols}-{wdl_only}"));
        let shape = shape(rows, cols);
        let oracle = Euler::solve(shape);
        let job = Job {
            wdl_only,
            ..job(Puzzle::Euler, shape, &dir)
        };
        let plan = job.plan().unwrap();
        assert_eq!(plan.path, dir.join(format!("euler-{rows}x{cols}.bin")));
        assert_eq!(plan.full, !wdl_only);
        let report = plan.run(|_| {}, &Cancel::new()).unwrap();

        let n = 1usize << shape.cells();
        // The full board is won but not open.
        let winning = oracle.wins[..n - 1].iter().filter(|&&w| w).count() as u64;
        let losing = (n - 1) as u64 - winning;
        let empty = if oracle.wins[0] { "win" } else { "loss" };
        let moves_left = if wdl_only {
            "null".to_owned()
        } else {
            oracle.plies[0].to_string()
        };
        let ReportSummary::Euler(s) = &report.summary else {
            panic!("an Euler report: {report:?}");
        };
        assert_eq!(
            (s.positions, s.winning, s.losing, s.wdl_only),
            (n as u64, winning, losing, wdl_only)
        );
        assert_eq!(s.empty.is_win(), oracle.wins[0]);
        assert_eq!(s.empty_moves_left, (!wdl_only).then_some(oracle.plies[0]));
        // The bytes of `boardbase generate euler RxC --format json`.
        assert_eq!(
            serde_json::to_string(&report).unwrap(),
            format!(
                r#"{{"puzzle":"euler","rows":{rows},"cols":{cols},"wdl_only":{wdl_only},"positions":{n},"winning":{winning},"losing":{losing},"empty":"{empty}","empty_moves_left":{moves_left},{}"#,
                run_json(&report)
            )
        );
        assert_eq!(report.run.memory_needed, plan.memory_needed);
        assert_eq!(report.run.file, plan.path.display().to_string());
        assert_eq!(
            report.run.file_bytes,
            std::fs::metadata(&plan.path).unwrap().len()
        );
        assert_eq!(report.run.file_bytes, plan.file_bytes);

        // The file: every entry is the oracle's.
        let table = Table::open(&plan.path).unwrap();
        let euler = table.as_euler().unwrap();
        assert_eq!(euler.is_wdl_only(), wdl_only);
        for p in 0..n as u64 {
            let e = euler.probe(p).unwrap();
            assert_eq!(e.outcome.is_win(), oracle.wins[p as usize], "{p:#x}");
            if !wdl_only {
                assert_eq!(e.moves_left, Some(oracle.plies[p as usize]), "{p:#x}");
            }
        }
        assert_eq!(dir.names(), [format!("euler-{rows}x{cols}.bin")]);
    }
}

#[test]
fn flip_reports_against_the_oracle() {
    for (rows, cols) in [(3, 3), (2, 4), (1, 5)] {
        let dir = TempDir::new(&format!("job-flip-{rows}x{cols}"));
        let shape = shape(rows, cols);
        let oracle = Flip::solve(shape);
        let report = job(Puzzle::Flip, shape, &dir)
            .run(|_| {}, &Cancel::new())
            .unwrap();

        let n = 1usize << shape.cells();
        let best: Vec<u8> = (0..n)
            .map(|b| oracle.rounds[0][b].min(oracle.rounds[1][b]))
            .collect();
        let solvable = best.iter().filter(|&&r| r != 255).count() as u64;
        let max = best.iter().copied().filter(|&r| r != 255).max().unwrap();
        let mut histogram = vec![0u64; usize::from(max) + 1];
        for &r in best.iter().filter(|&&r| r != 255) {
            histogram[usize::from(r)] += 1;
        }
        let reach = |c: usize| oracle.rounds[c].iter().filter(|&&r| r != 255).count() as u64;
        let ReportSummary::Flip(s) = &report.summary else {
            panic!("a Flip report: {report:?}");
        };
        assert_eq!(
            (s.positions, s.solvable, s.impossible),
            (n as u64, solvable, n as u64 - solvable)
        );
        assert_eq!((s.reach_white, s.reach_black), (reach(0), reach(1)));
        assert_eq!((&s.histogram, s.max_rounds), (&histogram, max));
        // The bytes of `boardbase generate flip RxC --format json`.
        assert_eq!(
            serde_json::to_string(&report).unwrap(),
            format!(
                r#"{{"puzzle":"flip","rows":{rows},"cols":{cols},"positions":{n},"solvable_positions":{solvable},"impossible_positions":{},"reach_white":{},"reach_black":{},"histogram":{},"max_rounds":{max},{}"#,
                n as u64 - solvable,
                reach(0),
                reach(1),
                serde_json::to_string(&histogram).unwrap(),
                run_json(&report)
            )
        );

        let table = Table::open(dir.join(format!("flip-{rows}x{cols}.bin"))).unwrap();
        let flip = table.as_flip().unwrap();
        for b in 0..n as u64 {
            let want = Some(best[b as usize]).filter(|&r| r != 255);
            assert_eq!(flip.rounds(b).unwrap(), want, "{b:#x}");
        }
        assert_eq!(dir.names(), [format!("flip-{rows}x{cols}.bin")]);
    }
}

#[test]
fn settings_errors_are_usage_errors_with_the_command_line_messages() {
    let dir = TempDir::new("job-settings");
    let error = job(Puzzle::Euler, shape(6, 7), &dir).plan().unwrap_err();
    assert!(error.is_usage());
    assert!(matches!(
        error,
        GenerateError::TooManyCells(e) if e.shape == shape(6, 7)
    ));
    assert_eq!(
        error.to_string(),
        "euler tables take at most 36 cells; 6x7 has 42"
    );
    let error = job(Puzzle::Flip, shape(5, 6), &dir).plan().unwrap_err();
    assert_eq!(
        error.to_string(),
        "flip tables take at most 25 cells; 5x6 has 30"
    );
    let wdl_flip = Job {
        wdl_only: true,
        ..job(Puzzle::Flip, shape(3, 3), &dir)
    };
    let error = wdl_flip.plan().unwrap_err();
    assert!(error.is_usage() && matches!(error, GenerateError::WdlOnlyFlip));
    assert_eq!(
        error.to_string(),
        "--wdl-only is for euler: a Flip table has no win/loss column"
    );
    let checkpoint_flip = Job {
        checkpoint_every: Duration::ZERO,
        ..job(Puzzle::Flip, shape(3, 3), &dir)
    };
    let error = checkpoint_flip.plan().unwrap_err();
    assert!(error.is_usage() && matches!(error, GenerateError::CheckpointFlip));
    assert_eq!(error.setting(), Some(JobSetting::CheckpointEvery));
    assert_eq!(
        error.to_string(),
        "--checkpoint-every is for euler: a Flip job saves no checkpoint"
    );
    let no_threads = Job {
        threads: Some(0),
        ..job(Puzzle::Euler, shape(3, 3), &dir)
    };
    let error = no_threads.plan().unwrap_err();
    assert!(error.is_usage());
    assert_eq!(
        error.to_string(),
        "the number of threads must be at least 1"
    );

    // Over the limit: refused by `check` and by `run`, nothing written.
    let limited = Job {
        memory_limit: Some(1 << 20),
        ..job(Puzzle::Euler, shape(4, 5), &dir)
    };
    let plan = limited.plan().unwrap();
    let limit = plan.memory_limit.unwrap();
    assert_eq!((limit.bytes, limit.from), (1 << 20, LimitFrom::Given));
    assert!(plan.memory_needed > 1 << 20);
    for error in [
        plan.check().unwrap_err(),
        plan.run(|_| panic!("no progress"), &Cancel::new())
            .unwrap_err(),
    ] {
        assert!(!error.is_usage());
        assert!(
            matches!(error, GenerateError::JobOverMemoryLimit { .. }),
            "{error:?}"
        );
        assert!(
            error.to_string().starts_with("euler 4x5 needs ")
                && error.to_string().ends_with(
                    " of memory, over the limit of 1.00 MiB (--memory); nothing was generated"
                ),
            "{error}"
        );
    }
    assert_eq!(dir.names(), Vec::<String>::new());

    // A directory that cannot be: a regular file on the way.
    std::fs::write(dir.join("file"), "not a directory").unwrap();
    let job = Job {
        dir: dir.join("file").join("tables"),
        ..job(Puzzle::Euler, shape(3, 3), &dir)
    };
    let error = job
        .run(|_| panic!("no progress"), &Cancel::new())
        .unwrap_err();
    assert!(matches!(error, GenerateError::Write { .. }), "{error:?}");
    assert!(
        error
            .to_string()
            .starts_with(&format!("cannot write {}: ", job.dir.display())),
        "{error}"
    );
    assert_eq!(dir.names(), ["file"]);
}

/// What a job cancelled from its progress callback did: its result, the
/// reports heard after the cancel, and the time from the cancel to the
/// return.
struct Cancelled {
    result: Result<Report, GenerateError>,
    after: Vec<(Phase, u64)>,
    took: Duration,
}

/// Runs `job`, cancelling it from the progress callback at the first report
/// of `phase` past its start (`done > 0`).
fn cancel_at(job: &Job, phase: Phase) -> Cancelled {
    let cancel = Cancel::new();
    let at: Mutex<Option<Instant>> = Mutex::new(None);
    let after = Mutex::new(Vec::new());
    let result = job.run(
        |p| {
            let mut at = at.lock().unwrap();
            if at.is_some() {
                after.lock().unwrap().push((p.phase, p.done));
            } else if p.phase == phase && p.done > 0 {
                cancel.cancel();
                *at = Some(Instant::now());
            }
        },
        &cancel,
    );
    let took = at
        .into_inner()
        .unwrap()
        .unwrap_or_else(|| panic!("{phase:?} was reported"))
        .elapsed();
    Cancelled {
        result,
        after: after.into_inner().unwrap(),
        took,
    }
}

/// Cancels `job` in each of `phases`: each time the job stops in that
/// phase (no other phase starts; at most one report more per thread, the
/// chunks under way), promptly, with `GenerateError::NotWritten`, and leaves
/// the directory as it was.
fn check_cancelled(job: &Job, dir: &TempDir, phases: &[Phase], before: &[String]) {
    let path = job.plan().unwrap().path;
    for &phase in phases {
        let c = cancel_at(job, phase);
        let writing = matches!(phase, Phase::Checksum | Phase::Write);
        // Stopped past the win/loss pass, an Euler job keeps the layers
        // it saved for the same job to resume from; stopped in it, the
        // layers it finished (saved as it stops), if any; stopped before
        // it, nothing. (Past the pass it saves them only every
        // `checkpoint_every`: 10 s by default, so a short job never does.)
        let keeps = job.puzzle == Puzzle::Euler
            && job.checkpoint_every.is_zero()
            && !matches!(phase, Phase::Allocate | Phase::WinLoss);
        let in_pass = job.puzzle == Puzzle::Euler && phase == Phase::WinLoss;
        match &c.result {
            Err(GenerateError::NotWritten {
                path: p,
                removed_temporary,
                checkpoint,
            }) => {
                assert_eq!(p, &path);
                assert_eq!(*removed_temporary, writing, "{phase:?}");
                let expected = keeps.then(|| {
                    dir.join(format!(
                        "{}.checkpoint",
                        path.file_name().unwrap().to_str().unwrap()
                    ))
                });
                if in_pass && checkpoint.is_some() {
                    let kept = dir.join(format!(
                        "{}.checkpoint",
                        path.file_name().unwrap().to_str().unwrap()
                    ));
                    assert_eq!(checkpoint, &Some(kept), "{phase:?}");
                } else {
                    assert_eq!(checkpoint, &expected, "{phase:?}");
                }
                if let Some(checkpoint) = checkpoint {
                    std::fs::remove_file(checkpoint).unwrap();
                }
            }
            other => panic!("{phase:?}: {other:?}"),
        }
        assert!(
            c.after.iter().all(|&(p, _)| p == phase),
            "{phase:?}: no later phase begins: {:?}",
            c.after
        );
        // On two threads, at most the two chunks under way report; a write
        // stops at its next chunk.
        let most = if writing { 0 } else { 2 };
        assert!(c.after.len() <= most, "{phase:?}: {:?}", c.after);
        assert!(
            c.took < Duration::from_secs(2),
            "{phase:?}: stopped {:?} after the cancel",
            c.took
        );
        assert_eq!(dir.names(), before, "{phase:?}: nothing left behind");
    }
}

#[test]
fn a_cancelled_euler_job_leaves_nothing() {
    let dir = TempDir::new("job-cancel-euler");
    let job = job(Puzzle::Euler, shape(5, 5), &dir);
    check_cancelled(
        &job,
        &dir,
        &[Phase::Allocate, Phase::WinLoss, Phase::Depth, Phase::Write],
        &[],
    );
    // Saving every layer: stopped past the win/loss pass, the job keeps
    // them.
    let job = Job {
        checkpoint_every: Duration::ZERO,
        ..job
    };
    check_cancelled(
        &job,
        &dir,
        &[Phase::Allocate, Phase::WinLoss, Phase::Depth, Phase::Write],
        &[],
    );
}

#[test]
fn a_cancelled_flip_job_leaves_nothing() {
    let dir = TempDir::new("job-cancel-flip");
    let job = job(Puzzle::Flip, shape(5, 5), &dir);
    check_cancelled(
        &job,
        &dir,
        &[Phase::Search, Phase::Summary, Phase::Checksum],
        &[],
    );
}

#[test]
fn a_cancelled_write_keeps_the_file_it_would_replace() {
    let dir = TempDir::new("job-cancel-replace");
    let old = dir.join("euler-4x5.bin");
    std::fs::write(&old, "the table before").unwrap();
    let job = Job {
        wdl_only: true,
        ..job(Puzzle::Euler, shape(4, 5), &dir)
    };
    check_cancelled(
        &job,
        &dir,
        &[Phase::WinLoss, Phase::Checksum, Phase::Write],
        &["euler-4x5.bin".to_owned()],
    );
    assert_eq!(std::fs::read(&old).unwrap(), b"the table before");
    // Not cancelled: the new table replaces it.
    job.run(|_| {}, &Cancel::new()).unwrap();
    let table = Table::open(&old).unwrap();
    assert!(table.as_euler().unwrap().is_wdl_only());
    assert_eq!(dir.names(), ["euler-4x5.bin"]);
}

#[test]
fn a_job_cancelled_before_it_starts_does_nothing() {
    let dir = TempDir::new("job-cancel-early");
    let cancel = Cancel::new();
    cancel.cancel();
    for puzzle in [Puzzle::Euler, Puzzle::Flip] {
        let error = job(puzzle, shape(4, 4), &dir)
            .run(|p| panic!("no progress: {p:?}"), &cancel)
            .unwrap_err();
        assert!(
            matches!(
                error,
                GenerateError::NotWritten {
                    removed_temporary: false,
                    ..
                }
            ),
            "{error:?}"
        );
    }
    assert_eq!(dir.names(), Vec::<String>::new());
}
