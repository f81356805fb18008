//! What a check found: counts, groups of failures, the failing runs.

use serde::Serialize;

use super::presentation::Presentation;
use super::process;
use super::puzzle::CaseView;
use super::verdict::Verdict;

/// Count of each verdict.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// Accepted.
    pub accepted: usize,
    /// Wrong Answer.
    pub wrong_answer: usize,
    /// Presentation Error.
    pub presentation_error: usize,
    /// Time Limit Exceeded.
    pub time_limit_exceeded: usize,
    /// Memory Limit Exceeded.
    pub memory_limit_exceeded: usize,
    /// Runtime Error.
    pub runtime_error: usize,
    /// Output Limit Exceeded.
    pub output_limit_exceeded: usize,
}

impl Counts {
    /// The count of `verdict`.
    pub fn get(&self, verdict: Verdict) -> usize {
        match verdict {
            Verdict::Accepted => self.accepted,
            Verdict::WrongAnswer => self.wrong_answer,
            Verdict::TimeLimitExceeded => self.time_limit_exceeded,
            Verdict::MemoryLimitExceeded => self.memory_limit_exceeded,
            Verdict::RuntimeError => self.runtime_error,
            Verdict::PresentationError => self.presentation_error,
            Verdict::OutputLimitExceeded => self.output_limit_exceeded,
        }
    }

    pub(super) fn add(&mut self, verdict: Verdict) {
        *match verdict {
            Verdict::Accepted => &mut self.accepted,
            Verdict::WrongAnswer => &mut self.wrong_answer,
            Verdict::TimeLimitExceeded => &mut self.time_limit_exceeded,
            Verdict::MemoryLimitExceeded => &mut self.memory_limit_exceeded,
            Verdict::RuntimeError => &mut self.runtime_error,
            Verdict::PresentationError => &mut self.presentation_error,
            Verdict::OutputLimitExceeded => &mut self.output_limit_exceeded,
        } += 1;
    }

    /// All counts together.
    pub fn total(&self) -> usize {
        Verdict::ALL.iter().map(|&v| self.get(v)).sum()
    }
}

/// Failures of one kind.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Group {
    /// [`FaultKind::id`](super::FaultKind::id).
    pub id: &'static str,
    /// [`FaultKind::title`](super::FaultKind::title).
    pub title: &'static str,
    /// The verdict of these cases: [`FaultKind::verdict`](super::FaultKind::verdict),
    /// or what the way output was compared made of it
    /// ([`Fault::verdict`](super::Fault::verdict)); a kind judged two ways
    /// is two groups.
    pub verdict: Verdict,
    /// Failing cases of this kind.
    pub count: usize,
    /// Sub-groups by detail, largest first (at most [`MAX_DETAILS`]; the
    /// rest are summed as `others`).
    pub details: Vec<Detail>,
}

/// A sub-group of a [`Group`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Detail {
    /// The detail (`answered 0`).
    pub label: String,
    /// Cases.
    pub count: usize,
}

/// Most details listed per group.
pub const MAX_DETAILS: usize = 12;

/// One failing case in full.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Failure {
    /// The run, from 1.
    pub run: usize,
    /// Its place in the run, from 1.
    pub number: usize,
    /// Its index among the puzzle's cases, from 0 (see [`CaseView::key`]
    /// for the board). In JSON `index`: `case` is a case number from 1
    /// everywhere else.
    #[serde(rename = "index")]
    pub case: usize,
    /// The case drawn.
    pub view: CaseView,
    /// The verdict.
    pub verdict: Verdict,
    /// [`FaultKind::id`](super::FaultKind::id).
    pub kind: &'static str,
    /// The kind's title and detail.
    pub what: String,
    /// The right answer.
    pub expected: String,
    /// What the program printed for it (or why it printed nothing).
    pub received: String,
    /// The output line of the received answer.
    pub line: Option<usize>,
    /// The end of the run's stderr, its lines joined with `\n`.
    pub stderr: String,
    /// With [`Options::save`](super::Options::save): the command line that runs the program
    /// again on its run's saved input.
    pub replay: Option<String>,
}

/// One run the judge would not accept.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunFailure {
    /// The run, from 1.
    pub run: usize,
    /// Cases in it.
    pub cases: usize,
    /// Complete answers in its output.
    pub answered: usize,
    /// The judge's verdict.
    pub verdict: Verdict,
    /// [`FaultKind::id`](super::FaultKind::id) of what decided it.
    pub kind: &'static str,
    /// In words.
    pub what: String,
    /// Seconds from start to exit (or kill), wall clock.
    pub seconds: f64,
    /// CPU seconds (user + system).
    pub cpu_seconds: f64,
    /// Peak resident memory, in MB.
    pub peak_memory_mb: f64,
    /// The end of its stderr, its lines joined with `\n`.
    pub stderr: String,
    /// A hint about the failure (killed with few answers complete: they
    /// may have been lost in the program's output buffer), or `None`.
    pub note: Option<String>,
    /// With [`Options::save`](super::Options::save): the command line that runs the program
    /// again on the run's saved input.
    pub replay: Option<String>,
}

/// Why a check stopped before every run was done.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Stopped {
    /// [`Options::max_failures`](super::Options::max_failures) runs failed.
    MaxFailures,
    /// Interrupted (Ctrl-C, SIGTERM): the runs under way were killed and
    /// are not judged.
    Interrupted,
}

/// Everything a check found.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CheckReport {
    /// The subcommand name.
    pub puzzle: &'static str,
    /// The judge and problem.
    pub judge: &'static str,
    /// The program and its arguments.
    pub program: Vec<String>,
    /// Cases checked.
    pub cases: usize,
    /// Whether they are a sample.
    pub sampled: bool,
    /// The sample asked for (`--sample`), or `None`: larger than
    /// [`cases`](CheckReport::cases) when there were fewer.
    pub sample: Option<usize>,
    /// How the cases were generated, when they were, or `None` for a
    /// fixed set.
    pub drawn: Option<Drawn>,
    /// The seed of the sample and of generated cases.
    pub seed: u64,
    /// Runs.
    pub runs: usize,
    /// Runs done and judged: all of them, unless the check stopped early.
    pub runs_done: usize,
    /// Why the check stopped before every run was done, or `None`.
    pub stopped: Option<Stopped>,
    /// The `--max-failures` the check ran with (`None`: every run).
    pub max_failures: Option<usize>,
    /// How output was compared with the judge's (`strict` or `tokens`).
    pub presentation: Presentation,
    /// CPU time limit per run, in seconds (in JSON `time_limit_seconds`,
    /// as the server's limits are named: `time_limit` is the id of a kind
    /// of failure).
    #[serde(rename = "time_limit_seconds")]
    pub time_limit: f64,
    /// The wall-clock guard per run, in seconds: its first time. A run
    /// still gaining CPU time there is waiting for a core, and the guard
    /// moves on, up to [`wall_cap_seconds`](CheckReport::wall_cap_seconds).
    pub wall_limit_seconds: f64,
    /// The guard's last time, in seconds: however busy the machine, a run
    /// ends there ([`WALL_CAP_FACTOR`](super::process::WALL_CAP_FACTOR)
    /// times [`wall_limit_seconds`](CheckReport::wall_limit_seconds)).
    pub wall_cap_seconds: f64,
    /// Memory limit per run, in MB, or `None`.
    pub memory_limit_mb: Option<f64>,
    /// How the memory limit is applied: `cgroup_v2` or `cgroup_v1` (a
    /// cgroup a run: the whole tree's memory), `address_space` (`RLIMIT_AS`
    /// of each process, the peak held against the limit) or `none`.
    pub memory_limit_kind: &'static str,
    /// Why no cgroup holds the memory limit, when the address space does
    /// for want of one (`None` otherwise).
    pub no_cgroup: Option<String>,
    /// Runs at once.
    pub jobs: usize,
    /// Verdicts by case.
    pub case_verdicts: Counts,
    /// Verdicts by run (the judge's).
    pub run_verdicts: Counts,
    /// Failing cases grouped by what went wrong, largest first.
    pub groups: Vec<Group>,
    /// The first failing cases (in plan order) in full.
    pub failures: Vec<Failure>,
    /// The first runs not accepted (in plan order).
    pub failing_runs: Vec<RunFailure>,
    /// The run that used the most CPU time, of those not ended at a time
    /// limit (they are [`time_limit_runs`](CheckReport::time_limit_runs)
    /// and [`wall_limit_runs`](CheckReport::wall_limit_runs)).
    pub slowest_run: Option<SlowRun>,
    /// The run with the largest peak memory, of those not ended at the
    /// memory limit (they are
    /// [`memory_limit_runs`](CheckReport::memory_limit_runs)).
    pub largest_run: Option<LargeRun>,
    /// Runs that used their CPU time limit.
    pub time_limit_runs: RunList,
    /// Runs killed at the wall-clock guard below their CPU time limit.
    pub wall_limit_runs: RunList,
    /// Runs that died at the memory limit.
    pub memory_limit_runs: RunList,
    /// With [`Options::save`](super::Options::save): the directory every failing run was
    /// written to.
    pub saved_to: Option<String>,
    /// Runs within 10% of the CPU time limit, not over it.
    pub near_time_limit: RunList,
    /// Runs whose peak memory came within 10% of the memory limit, not
    /// ended by it.
    pub near_memory_limit: RunList,
    /// Seconds the whole check took.
    pub seconds: f64,
}

/// The cases a puzzle generated from the seed, of which the check ran all
/// or a sample.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Drawn {
    /// How many were generated.
    pub count: usize,
    /// How ([`Check::drawn`](super::Check::drawn)).
    pub how: String,
}

/// The run that used the most CPU time.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SlowRun {
    /// The run, from 1.
    pub run: usize,
    /// Its CPU seconds (user + system).
    pub cpu_seconds: f64,
    /// Seconds from its start to its exit, wall clock.
    pub seconds: f64,
}

/// The run with the largest peak memory.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct LargeRun {
    /// The run, from 1.
    pub run: usize,
    /// Its peak resident memory, in MB.
    pub peak_memory_mb: f64,
}

/// How many runs are of a kind, and the first of them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct RunList {
    /// How many.
    pub count: usize,
    /// The first [`RUN_LIST`] of them, by run number (from 1).
    pub first: Vec<usize>,
}

/// Most runs a [`RunList`] names.
pub const RUN_LIST: usize = 10;

impl RunList {
    pub(super) fn add(&mut self, run: usize) {
        self.count += 1;
        let at = self.first.partition_point(|&r| r < run);
        self.first.insert(at, run);
        self.first.truncate(RUN_LIST);
    }
}

/// Bytes as MB ([`process::MB`]).
pub(super) fn megabytes(bytes: u64) -> f64 {
    bytes as f64 / process::MB as f64
}

impl CheckReport {
    /// Whether the judge accepts every run.
    pub fn accepted(&self) -> bool {
        self.run_verdicts.accepted == self.runs
    }
}
