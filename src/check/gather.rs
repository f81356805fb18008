//! Judged runs, arriving in any order, gathered into the report.

use std::collections::{BTreeMap, HashMap};
use std::time::Duration;

use super::judging::{CaseFailure, Judged};
use super::options::{CheckProgress, Options};
use super::plan::RunPlan;
use super::process::{self, End, MemoryControl};
use super::puzzle::Check;
use super::report::{
    CheckReport, Counts, Detail, Drawn, Failure, Group, LargeRun, MAX_DETAILS, RunFailure, RunList,
    SlowRun, Stopped, megabytes,
};
use super::verdict::{Fault, FaultKind, Verdict};

/// A group's kind, its count of cases, and its count by detail.
type Grouped = (&'static FaultKind, usize, HashMap<String, usize>);

/// Gathers judged runs, arriving in any order, into a report.
pub(super) struct Builder {
    keep: usize,
    case_verdicts: Counts,
    run_verdicts: Counts,
    runs_done: usize,
    cases_done: usize,
    failed: usize,
    /// By kind and verdict (one kind can be judged two ways: a fault of
    /// presentation in whitespace alone, or in a word too).
    groups: HashMap<(&'static str, Verdict), Grouped>,
    /// The first `keep` failures by (run, place), with the run's stderr
    /// and replay command.
    failures: BTreeMap<(usize, usize), (CaseFailure, String, Option<String>)>,
    failing_runs: BTreeMap<usize, RunFailure>,
    slowest: Option<(usize, Duration, Duration)>,
    largest: Option<(usize, u64)>,
    time_limit_runs: RunList,
    wall_limit_runs: RunList,
    memory_limit_runs: RunList,
    near_time_limit: RunList,
    near_memory_limit: RunList,
    time_limit: Duration,
    memory_limit: Option<u64>,
}

impl Builder {
    pub(super) fn new(keep: usize, options: &Options) -> Builder {
        Builder {
            keep,
            case_verdicts: Counts::default(),
            run_verdicts: Counts::default(),
            runs_done: 0,
            cases_done: 0,
            failed: 0,
            groups: HashMap::new(),
            failures: BTreeMap::new(),
            failing_runs: BTreeMap::new(),
            slowest: None,
            largest: None,
            time_limit_runs: RunList::default(),
            wall_limit_runs: RunList::default(),
            memory_limit_runs: RunList::default(),
            near_time_limit: RunList::default(),
            near_memory_limit: RunList::default(),
            time_limit: options.time_limit,
            memory_limit: options.memory_limit,
        }
    }

    pub(super) fn progress(&self, runs: usize) -> CheckProgress {
        CheckProgress {
            runs_done: self.runs_done,
            runs,
            cases_done: self.cases_done,
            failed: self.failed,
        }
    }

    pub(super) fn add(&mut self, judged: &Judged) {
        self.runs_done += 1;
        self.run_verdicts.add(judged.verdict);
        let number = judged.run + 1;
        match judged.end {
            End::TimeLimit => self.time_limit_runs.add(number),
            End::WallLimit => self.wall_limit_runs.add(number),
            _ => {
                if self.slowest.is_none_or(|(_, cpu, _)| judged.cpu > cpu) {
                    self.slowest = Some((judged.run, judged.cpu, judged.elapsed));
                }
                // Within 10% of the limit: cpu ≥ 0.9 · limit.
                if judged.cpu * 10 >= self.time_limit * 9 {
                    self.near_time_limit.add(number);
                }
            }
        }
        if let End::MemoryLimit(_) | End::OverMemory = judged.end {
            self.memory_limit_runs.add(number);
        } else {
            if self
                .largest
                .is_none_or(|(_, peak)| judged.peak_memory > peak)
            {
                self.largest = Some((judged.run, judged.peak_memory));
            }
            if self
                .memory_limit
                .is_some_and(|m| judged.peak_memory.saturating_mul(10) >= m.saturating_mul(9))
            {
                self.near_memory_limit.add(number);
            }
        }
        if let Some(fault) = &judged.fault {
            self.failing_runs.insert(
                judged.run,
                RunFailure {
                    run: judged.run + 1,
                    cases: judged.cases.len(),
                    answered: judged.answered,
                    verdict: fault.verdict,
                    kind: fault.kind.id,
                    what: what(fault),
                    seconds: judged.elapsed.as_secs_f64(),
                    cpu_seconds: judged.cpu.as_secs_f64(),
                    peak_memory_mb: megabytes(judged.peak_memory),
                    stderr: judged.stderr.clone(),
                    note: judged.note.clone(),
                    replay: judged.replay.clone(),
                },
            );
            if self.failing_runs.len() > self.keep {
                self.failing_runs.pop_last();
            }
        }
        for (pos, failure) in judged.cases.iter().enumerate() {
            self.cases_done += 1;
            let Some(failure) = failure else {
                self.case_verdicts.add(Verdict::Accepted);
                continue;
            };
            self.failed += 1;
            let (kind, verdict) = (failure.fault.kind, failure.fault.verdict);
            self.case_verdicts.add(verdict);
            let group = self
                .groups
                .entry((kind.id, verdict))
                .or_insert_with(|| (kind, 0, HashMap::new()));
            group.1 += 1;
            *group.2.entry(failure.fault.detail.clone()).or_insert(0) += 1;
            let key = (judged.run, pos);
            if self.failures.len() < self.keep
                || self
                    .failures
                    .last_key_value()
                    .is_some_and(|(k, _)| key < *k)
            {
                let copy = CaseFailure {
                    fault: failure.fault.clone(),
                    received: failure.received.clone(),
                    line: failure.line,
                };
                self.failures
                    .insert(key, (copy, judged.stderr.clone(), judged.replay.clone()));
                if self.failures.len() > self.keep {
                    self.failures.pop_last();
                }
            }
        }
    }

    pub(super) fn finish<P: Check + ?Sized>(
        self,
        puzzle: &P,
        plan: &RunPlan,
        seed: u64,
        options: &Options,
        elapsed: Duration,
        stopped: Option<Stopped>,
    ) -> CheckReport {
        let mut groups: Vec<Group> = self
            .groups
            .into_iter()
            .map(|((_, verdict), (kind, count, details))| {
                let mut details: Vec<Detail> = details
                    .into_iter()
                    .filter(|(label, _)| !label.is_empty())
                    .map(|(label, count)| Detail { label, count })
                    .collect();
                details.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.label.cmp(&b.label)));
                if details.len() > MAX_DETAILS {
                    let others: usize = details[MAX_DETAILS - 1..].iter().map(|d| d.count).sum();
                    details.truncate(MAX_DETAILS - 1);
                    details.push(Detail {
                        label: "others".to_owned(),
                        count: others,
                    });
                }
                Group {
                    id: kind.id,
                    title: kind.title,
                    verdict,
                    count,
                    details,
                }
            })
            .collect();
        groups.sort_by(|a, b| {
            (b.count.cmp(&a.count))
                .then_with(|| a.id.cmp(b.id))
                .then_with(|| a.verdict.cmp(&b.verdict))
        });
        let failures = self
            .failures
            .into_iter()
            .map(|((run, pos), (f, stderr, replay))| {
                let case = plan.runs[run][pos];
                Failure {
                    run: run + 1,
                    number: pos + 1,
                    case,
                    view: puzzle.describe(case),
                    verdict: f.fault.verdict,
                    kind: f.fault.kind.id,
                    what: what(&f.fault),
                    expected: puzzle.expected(case, pos + 1),
                    received: f.received,
                    line: f.line,
                    stderr,
                    replay,
                }
            })
            .collect();
        CheckReport {
            puzzle: puzzle.problem().command,
            judge: puzzle.problem().judge,
            program: std::iter::once(&options.program.path)
                .chain(&options.program.args)
                .map(|a| a.to_string_lossy().into_owned())
                .collect(),
            cases: plan.cases,
            sampled: plan.sampled,
            sample: plan.requested,
            drawn: puzzle.drawn().map(|how| Drawn {
                count: puzzle.case_count(),
                how,
            }),
            seed,
            runs: plan.runs.len(),
            runs_done: self.runs_done,
            stopped,
            max_failures: options.max_failures,
            presentation: options.presentation,
            time_limit: options.time_limit.as_secs_f64(),
            wall_limit_seconds: options.wall_limit.as_secs_f64(),
            wall_cap_seconds: (options.wall_limit * process::WALL_CAP_FACTOR).as_secs_f64(),
            memory_limit_mb: options.memory_limit.map(megabytes),
            memory_limit_kind: match options.memory_limit {
                Some(_) => options.memory_control.kind(),
                None => "none",
            },
            no_cgroup: match (options.memory_limit, options.memory_control) {
                (Some(_), MemoryControl::AddressSpace) => {
                    process::memory_cgroups().err().map(str::to_owned)
                }
                _ => None,
            },
            jobs: options.jobs,
            case_verdicts: self.case_verdicts,
            run_verdicts: self.run_verdicts,
            groups,
            failures,
            failing_runs: self.failing_runs.into_values().collect(),
            slowest_run: self.slowest.map(|(run, cpu, t)| SlowRun {
                run: run + 1,
                cpu_seconds: cpu.as_secs_f64(),
                seconds: t.as_secs_f64(),
            }),
            largest_run: self.largest.map(|(run, peak)| LargeRun {
                run: run + 1,
                peak_memory_mb: megabytes(peak),
            }),
            time_limit_runs: self.time_limit_runs,
            wall_limit_runs: self.wall_limit_runs,
            memory_limit_runs: self.memory_limit_runs,
            saved_to: options
                .save
                .as_ref()
                .map(|d| d.to_string_lossy().into_owned()),
            near_time_limit: self.near_time_limit,
            near_memory_limit: self.near_memory_limit,
            seconds: elapsed.as_secs_f64(),
        }
    }
}

/// `title: detail`, or the title alone.
pub(super) fn what(fault: &Fault) -> String {
    if fault.detail.is_empty() {
        fault.kind.title.to_owned()
    } else {
        format!("{}: {}", fault.kind.title, fault.detail)
    }
}
