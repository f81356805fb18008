//! Running the program on every run of a plan (`check`), and a run saved
//! for replay.

use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Instant;

use super::error::CheckError;
use super::gather::Builder;
use super::judging::{Judged, judge_run, output_cap};
use super::options::{CheckProgress, Options};
use super::plan::RunPlan;
use super::process::{self, Limits, Outcome, Program};
use super::puzzle::Check;
use super::report::{CheckReport, Stopped};
use super::shell::{command_line, shell_quote};
use super::verdict::Verdict;

/// Writes `bytes` to `path` whole or not at all: to a temporary name in
/// the same directory, then renamed over it
/// ([`crate::tablefile::write_atomically`]).
pub(super) fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), CheckError> {
    crate::tablefile::write_atomically(path, bytes).map_err(|error| CheckError::Save {
        path: path.to_path_buf(),
        error,
    })
}

/// Saves run `run` (from 0) of `cases` in `dir`: `run-N.in` (its input,
/// exactly), `run-N.expected` (the right answers, a line or block each),
/// `run-N.out` (what the program wrote on stdout, up to the cap) and
/// `run-N.err` (the end of its stderr), N from 1. Returns the command
/// line that runs `program` on the saved input again, for a POSIX shell.
pub fn save_run<P: Check + ?Sized>(
    puzzle: &P,
    dir: &Path,
    run: usize,
    cases: &[usize],
    input: &[u8],
    outcome: &Outcome,
    program: &Program,
) -> Result<String, CheckError> {
    let name = |ext: &str| dir.join(format!("run-{}.{ext}", run + 1));
    let mut expected = String::new();
    for (i, &case) in cases.iter().enumerate() {
        expected.push_str(&puzzle.expected(case, i + 1));
        expected.push('\n');
    }
    write_atomically(&name("in"), input)?;
    write_atomically(&name("expected"), expected.as_bytes())?;
    write_atomically(&name("out"), &outcome.stdout)?;
    write_atomically(&name("err"), &outcome.stderr_tail)?;
    let words: Vec<String> = std::iter::once(&program.path)
        .chain(&program.args)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    Ok(format!(
        "{} < {}",
        command_line(&words),
        shell_quote(&name("in").to_string_lossy())
    ))
}

/// Runs `options.program` on every run of `plan`, `options.jobs` at a
/// time, and reports. [`Check::prepare`] is called first, with every case
/// of the plan; `progress` is called after every run. Only a program that
/// cannot be started (or a failing system call) is an error; the first one
/// stops the check.
///
/// ```
/// use std::time::Duration;
/// use boardbase::cases::{flip, sized::{SizedAnswers, SizedFilter}};
/// use boardbase::check::{self, MemoryControl, Options, Presentation, Program, SizedCheck, Verdict};
/// use boardbase::tables::shape::Shape;
/// use boardbase::tablebase::Tablebase;
/// use boardbase::tablefile::Puzzle;
///
/// // A "solution" that answers Impossible to every board: right on 15 of 16.
/// let answers = SizedAnswers::new(&Tablebase::new(), Puzzle::Flip, Shape::SQUARE4)?;
/// let puzzle = SizedCheck::new(&answers.cases(SizedFilter::Flip(flip::Filter::default()))?, 0, 0)?;
/// let plan = check::plan(&puzzle, Some(64), 1); // 64 boards, one a run
/// let options = Options {
///     program: Program { path: "sh".into(), args: vec!["-c".into(), "echo Impossible".into()] },
///     time_limit: Duration::from_secs(10),
///     wall_limit: Duration::from_secs(30),
///     memory_limit: None,
///     memory_control: MemoryControl::AddressSpace,
///     save: None,
///     max_failures: None, // every run
///     presentation: Presentation::Strict,
///     jobs: 2,
///     keep: 1,
/// };
/// let report = check::check(&puzzle, &plan, 1, &options, &mut |_| {})?;
/// assert!(!report.accepted());
/// let (right, wrong) = (report.case_verdicts.accepted, report.case_verdicts.wrong_answer);
/// assert_eq!(right + wrong, 64);
/// assert_eq!(report.groups[0].id, "possible_answered_impossible");
/// // The first failure, drawn: the board and what was expected.
/// let f = &report.failures[0];
/// assert_eq!((f.verdict, f.received.as_str()), (Verdict::WrongAnswer, "Impossible"));
/// assert_eq!(f.view.board.len(), 4); // e.g. ["wwbb", "wwbb", "wwww", "bwww"]
/// assert_ne!(f.expected, "Impossible");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn check<P: Check + ?Sized>(
    puzzle: &P,
    plan: &RunPlan,
    seed: u64,
    options: &Options,
    progress: &mut dyn FnMut(&CheckProgress),
) -> Result<CheckReport, CheckError> {
    let all: Vec<usize> = plan.runs.iter().flatten().copied().collect();
    puzzle.prepare(&all).map_err(CheckError::Prepare)?;
    drop(all);
    let started = Instant::now();
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let failing = AtomicUsize::new(0);
    let mut builder = Builder::new(options.keep, options);
    let (tx, rx) = mpsc::channel::<Result<Judged, CheckError>>();
    let mut first_error = None;
    let mut stopped: Option<Stopped> = None;
    std::thread::scope(|scope| {
        for _ in 0..options.jobs.clamp(1, plan.runs.len().max(1)) {
            let tx = tx.clone();
            let (next, stop, failing) = (&next, &stop, &failing);
            scope.spawn(move || {
                let mut input = Vec::new();
                loop {
                    let run = next.fetch_add(1, Ordering::Relaxed);
                    if run >= plan.runs.len()
                        || stop.load(Ordering::Relaxed)
                        || process::is_stopped()
                    {
                        break;
                    }
                    let cases = &plan.runs[run];
                    input.clear();
                    puzzle.write_input(cases, &mut input);
                    let limits = Limits {
                        cpu: options.time_limit,
                        wall: options.wall_limit,
                        memory: options.memory_limit,
                        memory_control: options.memory_control,
                        stdout_bytes: output_cap(puzzle, cases),
                        stderr_tail: 2000,
                    };
                    let run_result = process::run(&options.program, &input, &limits);
                    if process::is_stopped() {
                        // Interrupted: this run was killed (or refused) by
                        // the interrupt, not by its program: neither judged
                        // nor saved.
                        break;
                    }
                    let result = run_result.and_then(|outcome| {
                        let mut judged =
                            judge_run(puzzle, run, cases, &outcome, options.presentation);
                        if let Some(dir) = &options.save
                            && judged.verdict != Verdict::Accepted
                        {
                            judged.replay = Some(save_run(
                                puzzle,
                                dir,
                                run,
                                cases,
                                &input,
                                &outcome,
                                &options.program,
                            )?);
                        }
                        Ok(judged)
                    });
                    // Counted here, before this worker takes another run,
                    // so that one worker stops right at the limit.
                    let failed = match &result {
                        Ok(judged) => judged.verdict != Verdict::Accepted,
                        Err(_) => true,
                    };
                    if failed
                        && options
                            .max_failures
                            .is_some_and(|max| failing.fetch_add(1, Ordering::Relaxed) + 1 >= max)
                        || result.is_err()
                    {
                        stop.store(true, Ordering::Relaxed);
                    }
                    if tx.send(result).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        // The workers send no run the interrupt cut short: the runs done
        // before it are judged.
        for result in rx {
            match result {
                Ok(judged) => {
                    builder.add(&judged);
                    progress(&builder.progress(plan.runs.len()));
                }
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
    });
    if process::is_stopped() {
        stopped = Some(Stopped::Interrupted);
    } else if let Some(e) = first_error {
        return Err(e);
    } else if builder.progress(plan.runs.len()).runs_done < plan.runs.len() {
        // The runs under way when the last failure allowed came in
        // finished and were judged.
        stopped = Some(Stopped::MaxFailures);
    }
    Ok(builder.finish(puzzle, plan, seed, options, started.elapsed(), stopped))
}
