//! Judging one run's outcome: its answers against the right ones, its end,
//! the faults a report groups.

use std::time::Duration;

use super::presentation::{self, Lines, Presentation, same_words};
use super::process::{self, End, Outcome};
use super::puzzle::Check;
use super::tokens::{Token, joined, show, show_lines, tokens};
use super::verdict::{Fault, Judgement, Verdict, kinds};

/// What one run's answers came to.
pub(super) struct Judged {
    pub(super) run: usize,
    /// Per case in the run: `None` when accepted.
    pub(super) cases: Vec<Option<CaseFailure>>,
    pub(super) verdict: Verdict,
    pub(super) fault: Option<Fault>,
    pub(super) answered: usize,
    pub(super) end: End,
    pub(super) elapsed: Duration,
    pub(super) cpu: Duration,
    pub(super) peak_memory: u64,
    pub(super) stderr: String,
    /// See [`RunFailure::note`].
    pub(super) note: Option<String>,
    /// See [`RunFailure::replay`].
    pub(super) replay: Option<String>,
}

pub(super) struct CaseFailure {
    pub(super) fault: Fault,
    pub(super) received: String,
    pub(super) line: Option<usize>,
}

/// The fault of an abnormal end.
pub(super) fn end_fault(outcome: &Outcome) -> Option<Fault> {
    match outcome.end {
        End::Exited(0) => None,
        End::Exited(code) => Some(Fault::new(
            &kinds::EXIT_STATUS,
            format!("exit status {code}"),
        )),
        End::Signaled(signal) => {
            let (name, what) = process::signal_name(signal);
            Some(Fault::new(&kinds::SIGNAL, format!("{name} ({what})")))
        }
        End::TimeLimit => Some(Fault::new(&kinds::TIME_LIMIT, "")),
        End::WallLimit => Some(Fault::new(&kinds::WALL_LIMIT, wall_detail(outcome))),
        End::MemoryLimit(death) => Some(Fault::new(&kinds::MEMORY_LIMIT, death_detail(death))),
        End::OverMemory => Some(Fault::new(&kinds::OVER_MEMORY, "")),
        End::OutputLimit => Some(Fault::new(&kinds::OUTPUT_LIMIT, "")),
    }
}

/// The CPU time of a run ended at the wall-clock guard, and why it had no
/// more: it slept or waited (under a twentieth of a core since the last
/// guard), or the machine was too busy for it to reach its limit by the
/// guard's last time.
fn wall_detail(outcome: &Outcome) -> String {
    let why = if outcome.busy {
        "the machine was too busy for it to reach its CPU time limit"
    } else {
        "sleeping or waiting"
    };
    format!(
        "{:.2} s of CPU time in {:.2} s: {why}",
        outcome.cpu.as_secs_f64(),
        outcome.elapsed.as_secs_f64()
    )
}

/// How a program died, in words (`exit status 1`, `SIGSEGV (segmentation
/// fault)`).
pub(super) fn death_detail(death: process::Death) -> String {
    match death {
        process::Death::Exited(code) => format!("exit status {code}"),
        process::Death::Signaled(signal) => {
            let (name, what) = process::signal_name(signal);
            format!("{name} ({what})")
        }
    }
}

/// Why there is no answer, for the report (`single`: the run's only case).
pub(super) fn missing(end: End, single: bool, answered: usize, partial: &[Token<'_>]) -> String {
    let mut why = match end {
        End::Exited(0) => "the program exited".to_owned(),
        End::Exited(code) => format!("the program exited with status {code}"),
        End::Signaled(s) => format!("the program was killed by {}", process::signal_name(s).0),
        End::TimeLimit => "over the CPU time limit".to_owned(),
        End::WallLimit => "killed at the wall-clock guard".to_owned(),
        End::MemoryLimit(death) => format!("died at the memory limit ({})", death_detail(death)),
        End::OverMemory => "the program exited, over the memory limit".to_owned(),
        End::OutputLimit => "killed at the output limit".to_owned(),
    };
    if !single {
        let s = if answered == 1 { "" } else { "s" };
        why += &format!(" after {answered} complete answer{s}");
    }
    if partial.is_empty() {
        format!("nothing ({why})")
    } else {
        format!("{} ({why})", joined(partial))
    }
}

/// Judges one run's outcome, its output compared as `presentation` says.
pub(super) fn judge_run<P: Check + ?Sized>(
    puzzle: &P,
    run: usize,
    cases: &[usize],
    outcome: &Outcome,
    presentation: Presentation,
) -> Judged {
    // After a kill or a crash, a last token without whitespace after it may
    // have been cut: it is no answer.
    let toks = tokens(&outcome.stdout, outcome.end.is_abnormal());
    // Where each case's answer starts and ends in `toks`: complete answers
    // one after another, from the first token.
    let mut spans: Vec<(usize, Option<usize>)> = Vec::with_capacity(cases.len());
    let mut at = 0;
    for &case in cases {
        let end = toks
            .get(at..)
            .filter(|rest| !rest.is_empty())
            .map(|rest| at + puzzle.answer_tokens(case, rest).max(1))
            .filter(|&end| end <= toks.len());
        spans.push((at, end));
        match end {
            Some(end) => at = end,
            None => break,
        }
    }
    let answered = spans.iter().filter(|(_, end)| end.is_some()).count();
    let ended = end_fault(outcome);
    let single = cases.len() == 1;
    let extra = (answered == cases.len())
        .then(|| toks.get(at))
        .flatten()
        .map(|t| {
            Fault::new(
                &kinds::EXTRA_OUTPUT,
                format!(
                    "'{}' on line {} after the last answer",
                    show(t.text, 40),
                    t.line
                ),
            )
        });
    let strict = presentation == Presentation::Strict;
    let layout_verdict = presentation::layout_verdict(puzzle.problem());
    let lines = strict.then(|| Lines::new(&outcome.stdout));
    // The judges' rule, strict: a fault of presentation (a word spelt
    // otherwise, a missing answer, output after the last) is a Wrong
    // Answer unless only whitespace differs. A run of one case is judged
    // as the judge does, on its whole output; in a run of many, each
    // answer on its own.
    let whole = |all: &[Token<'_>]| {
        let expected: Vec<String> = cases
            .iter()
            .enumerate()
            .map(|(i, &c)| puzzle.expected(c, i + 1))
            .collect();
        same_words(all, &expected.join("\n"))
    };
    let strict_verdict = |fault: Fault, answer: &[Token<'_>], case: usize, pos: usize| {
        if !strict || fault.verdict != Verdict::PresentationError {
            return fault;
        }
        let spaces_only = if single {
            whole(&toks)
        } else {
            same_words(answer, &puzzle.expected(case, pos + 1))
        };
        let verdict = if spaces_only {
            layout_verdict
        } else {
            Verdict::WrongAnswer
        };
        fault.judged(verdict)
    };
    let mut results = Vec::with_capacity(cases.len());
    for (pos, &case) in cases.iter().enumerate() {
        let (start, end) = spans.get(pos).copied().unwrap_or((toks.len(), None));
        let answer = end.map(|end| &toks[start..end]);
        let partial = toks.get(start..).unwrap_or(&[]);
        let failure = match (answer, &ended) {
            // One case a run: the judge's verdict, whatever was printed.
            (_, Some(fault)) if single => Some(CaseFailure {
                fault: fault.clone(),
                received: match answer {
                    Some(a) => puzzle.received(case, a),
                    None => missing(outcome.end, single, answered, partial),
                },
                line: answer.map(|a| a[0].line),
            }),
            (Some(answer), _) => match puzzle.judge_answer(case, pos + 1, answer) {
                Judgement::Accepted if single && extra.is_some() => Some(CaseFailure {
                    fault: strict_verdict(
                        extra
                            .clone()
                            .unwrap_or_else(|| Fault::new(&kinds::EXTRA_OUTPUT, "")),
                        answer,
                        case,
                        pos,
                    ),
                    received: format!(
                        "{} {}",
                        puzzle.received(case, answer),
                        joined(&toks[at..toks.len().min(at + 7)])
                    ),
                    line: Some(answer[0].line),
                }),
                Judgement::Accepted => lines.as_ref().and_then(|lines| {
                    let before = start.checked_sub(1).and_then(|i| toks.get(i));
                    let after = end.and_then(|end| toks.get(end));
                    let expected = puzzle.expected(case, pos + 1);
                    let fault = presentation::layout(
                        lines,
                        answer,
                        before,
                        after,
                        &expected,
                        layout_verdict,
                    )?;
                    // The lines as printed: what is wrong is their layout.
                    Some(CaseFailure {
                        fault,
                        received: presentation::printed(lines, answer, before),
                        line: Some(answer[0].line),
                    })
                }),
                Judgement::Rejected(fault) => Some(CaseFailure {
                    fault: strict_verdict(fault, answer, case, pos),
                    received: puzzle.received(case, answer),
                    line: Some(answer[0].line),
                }),
            },
            (None, _) => Some(CaseFailure {
                fault: ended.clone().unwrap_or_else(|| {
                    strict_verdict(Fault::new(&kinds::MISSING_ANSWER, ""), partial, case, pos)
                }),
                received: missing(outcome.end, single, answered, partial),
                line: None,
            }),
        };
        results.push(failure);
    }
    let note = buffered_note(outcome.end, cases.len(), answered, &outcome.stdout);
    let first = results.iter().flatten().next().map(|f| f.fault.clone());
    let fault = match ended {
        Some(ended) => Some(ended),
        // The judge's verdict on the whole output: a Wrong Answer when a
        // word differs anywhere, else the judge's verdict for layout.
        None if strict && (first.is_some() || extra.is_some()) => {
            let verdict = if whole(&toks) {
                layout_verdict
            } else {
                Verdict::WrongAnswer
            };
            results
                .iter()
                .flatten()
                .map(|f| &f.fault)
                .find(|f| f.verdict == verdict)
                .cloned()
                .or(first)
                .or(extra)
                .map(|f| f.judged(verdict))
        }
        None => first.or(extra),
    };
    Judged {
        run,
        verdict: fault.as_ref().map_or(Verdict::Accepted, |f| f.verdict),
        fault,
        cases: results,
        answered,
        end: outcome.end,
        elapsed: outcome.elapsed,
        cpu: outcome.cpu,
        peak_memory: outcome.peak_memory,
        stderr: show_lines(&outcome.stderr_tail, 2000),
        note,
        replay: None,
    }
}

/// When a run of several cases was killed (or crashed) with none or few of
/// its answers complete, and its output looks cut by a buffer (nothing at
/// all, a last line without its end, or a whole number of 512-byte blocks,
/// as stdio's buffers of a pipe are flushed): a hint that answers may have
/// been in the program's output buffer, lost with it. A program that
/// flushed after each answer ends its output at an answer's end, and gets
/// no note.
pub(super) fn buffered_note(
    end: End,
    cases: usize,
    answered: usize,
    stdout: &[u8],
) -> Option<String> {
    let killed = end.is_limit() || matches!(end, End::Signaled(_));
    let cut = stdout.is_empty() || !stdout.ends_with(b"\n") || stdout.len().is_multiple_of(512);
    (killed && cases > 1 && answered * 10 < cases && cut).then(|| {
        "answers the program wrote may have been lost in its output buffer when it was \
         killed: flush after each answer (fflush(stdout), std::endl, flush=True) to have them \
         judged"
            .to_owned()
    })
}

/// Bytes of stdout a run may write: 64 KiB plus 4 times the expected
/// output.
pub(super) fn output_cap<P: Check + ?Sized>(puzzle: &P, cases: &[usize]) -> usize {
    let expected: usize = cases
        .iter()
        .enumerate()
        .map(|(i, &c)| puzzle.expected(c, i + 1).len() + 1)
        .sum();
    (64 << 10) + 4 * expected
}
