//! Run a solution as an online judge does, on every case the tablebase
//! knows, and say which cases it gets wrong and why.
//!
//! A [`Judge`] says how to make a judge input from some of its cases, how
//! many tokens one answer takes and how to judge (and classify) an answer;
//! [`plan`] splits the cases (or a random sample of them) into runs as the
//! judge's format allows; [`check`] runs the program on every run, in
//! parallel, through [`process::run`], and gathers a [`CheckReport`].
//!
//! # Judging
//!
//! Output is compared by the judges' rule: tokens (runs of non-whitespace)
//! are compared, so line breaks and trailing whitespace do not matter. The
//! answers of a run are consecutive groups of tokens, as many as
//! [`Judge::answer_tokens`] says from where each starts (a fixed
//! [`Judge::tokens_per_answer`] for most puzzles; one for Fliptile's
//! `IMPOSSIBLE`, M·N for its flips; for the Lights Out family one for
//! `Impossible`, else the count and a token a row), and each is judged
//! against its own case, so one wrong line is attributed to its board.
//!
//! - A run holding one case (Flip, Fliptile) gets exactly the judge's
//!   verdict: time limit, output limit, runtime error (a signal or a
//!   non-zero exit) before anything else, then the answer, then anything
//!   after it.
//! - In a run holding many cases (Euler, Carcassonne, Lights Out and its
//!   family), every complete
//!   answer is judged, even when the program then dies or is killed; the
//!   cases it did not answer get the run's end (time limit, runtime error,
//!   output limit) or, when it exited normally, "missing answer". The run
//!   itself gets the judge's verdict, which also counts output after the
//!   last answer.
//!
//! [`check`] succeeds in the judge's sense ([`CheckReport::accepted`]) only when
//! every run is accepted.

mod carcassonne;
pub mod cgroup;
mod euler;
mod flip;
mod fliptile;
mod lights;
mod lightsout;
pub mod process;
mod sized;

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde::Serialize;

pub use self::carcassonne::{CarcassonneCheck, SizeClass};
pub use self::euler::EulerCheck;
pub use self::flip::FlipCheck;
pub use self::fliptile::FliptileCheck;
pub use self::lights::LightsCheck;
pub use self::lightsout::LightsOutCheck;
pub use self::process::{Death, End, Limits, MemoryControl, Outcome, Program, RunError};
pub use self::sized::SizedCheck;
use crate::cases::Rng;
use crate::catalogue::Problem;
use crate::report::thousands;

/// A judge's verdict, named as judges name them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// The right answer, in the judge's format.
    Accepted,
    /// An answer in the judge's format, but not the right one.
    WrongAnswer,
    /// Output that is not an answer in the judge's format: a word the
    /// judge does not use, a wrong case label, answers missing or extra.
    PresentationError,
    /// Used the CPU time limit, or killed at the wall-clock guard.
    TimeLimitExceeded,
    /// Died at the memory limit: killed there (a cgroup), or of a failed
    /// allocation. or finished with a
    /// peak resident memory over it.
    MemoryLimitExceeded,
    /// Killed by a signal, or a non-zero exit status.
    RuntimeError,
    /// More output than the cap; killed.
    OutputLimitExceeded,
}

impl Verdict {
    /// Every verdict, in report order.
    pub const ALL: [Verdict; 7] = [
        Verdict::Accepted,
        Verdict::WrongAnswer,
        Verdict::PresentationError,
        Verdict::TimeLimitExceeded,
        Verdict::MemoryLimitExceeded,
        Verdict::RuntimeError,
        Verdict::OutputLimitExceeded,
    ];

    /// As the report prints it, the judges' name: `Wrong Answer`, ...
    pub const fn name(self) -> &'static str {
        match self {
            Verdict::Accepted => "Accepted",
            Verdict::WrongAnswer => "Wrong Answer",
            Verdict::PresentationError => "Presentation Error",
            Verdict::TimeLimitExceeded => "Time Limit Exceeded",
            Verdict::MemoryLimitExceeded => "Memory Limit Exceeded",
            Verdict::RuntimeError => "Runtime Error",
            Verdict::OutputLimitExceeded => "Output Limit Exceeded",
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What went wrong, as the report groups failures.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct Kind {
    /// A stable identifier (`impossible_answered_number`).
    pub id: &'static str,
    /// For people (`impossible board answered with a number`).
    pub title: &'static str,
    /// The verdict a judge gives it.
    pub verdict: Verdict,
}

/// One failure: its kind, and a detail that sub-groups it (`answered 0`,
/// `13 moves left`, `SIGSEGV (segmentation fault)`; may be empty).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    /// The kind.
    pub kind: &'static Kind,
    /// The sub-group.
    pub detail: String,
}

impl Fault {
    /// A fault of `kind` with `detail`.
    pub fn new(kind: &'static Kind, detail: impl Into<String>) -> Fault {
        Fault {
            kind,
            detail: detail.into(),
        }
    }
}

/// The judgement of one answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Judgement {
    /// Right.
    Accepted,
    /// Wrong, and how.
    Rejected(Fault),
}

/// The kinds of failure every puzzle shares.
pub mod kinds {
    use super::{Kind, Verdict};

    /// Used its CPU time limit.
    pub static TIME_LIMIT: Kind = Kind {
        id: "time_limit",
        title: "used its CPU time limit",
        verdict: Verdict::TimeLimitExceeded,
    };
    /// Killed at the wall-clock guard before using its CPU time limit.
    pub static WALL_LIMIT: Kind = Kind {
        id: "wall_limit",
        title: "killed at the wall-clock guard, below its CPU time limit (sleeping or waiting)",
        verdict: Verdict::TimeLimitExceeded,
    };
    /// Died at the memory limit: killed there (a cgroup), or of a failed
    /// allocation.
    pub static MEMORY_LIMIT: Kind = Kind {
        id: "memory_limit",
        title: "died at the memory limit (killed at it, or an allocation failed)",
        verdict: Verdict::MemoryLimitExceeded,
    };
    /// Finished with a peak resident memory over the memory limit.
    pub static OVER_MEMORY: Kind = Kind {
        id: "over_memory",
        title: "used more memory than the limit (its peak resident memory)",
        verdict: Verdict::MemoryLimitExceeded,
    };
    /// Killed by a signal.
    pub static SIGNAL: Kind = Kind {
        id: "signal",
        title: "killed by a signal",
        verdict: Verdict::RuntimeError,
    };
    /// A non-zero exit status.
    pub static EXIT_STATUS: Kind = Kind {
        id: "exit_status",
        title: "non-zero exit status",
        verdict: Verdict::RuntimeError,
    };
    /// More output than the cap.
    pub static OUTPUT_LIMIT: Kind = Kind {
        id: "output_limit",
        title: "output limit exceeded",
        verdict: Verdict::OutputLimitExceeded,
    };
    /// The output ended before this case's answer.
    pub static MISSING_ANSWER: Kind = Kind {
        id: "missing_answer",
        title: "no answer (the output ended before it)",
        verdict: Verdict::PresentationError,
    };
    /// Output after the last answer.
    pub static EXTRA_OUTPUT: Kind = Kind {
        id: "extra_output",
        title: "output after the last answer",
        verdict: Verdict::PresentationError,
    };
    /// A token that is no answer at all.
    pub static NOT_AN_ANSWER: Kind = Kind {
        id: "not_an_answer",
        title: "not an answer in the judge's format",
        verdict: Verdict::PresentationError,
    };
    /// The right word with other capitals.
    pub static MISSPELT: Kind = Kind {
        id: "misspelt",
        title: "the judge's word with other capitals (tokens are compared exactly)",
        verdict: Verdict::PresentationError,
    };
    /// The right number written another way (`04`, `+4`).
    pub static NUMBER_FORM: Kind = Kind {
        id: "number_form",
        title: "the right number written another way (tokens are compared exactly)",
        verdict: Verdict::PresentationError,
    };
}

/// One whitespace-separated token of a program's output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token<'a> {
    /// Its bytes.
    pub text: &'a [u8],
    /// Its 1-based line.
    pub line: usize,
}

/// The judges' whitespace: space, `\t`, `\n`, `\v`, `\f`, `\r`.
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// Splits `output` into tokens. When `truncated`, a last token that runs
/// into the end may be cut and is dropped.
pub fn tokens(output: &[u8], truncated: bool) -> Vec<Token<'_>> {
    let mut out = Vec::new();
    let (mut line, mut i) = (1, 0);
    while i < output.len() {
        let b = output[i];
        if is_space(b) {
            line += usize::from(b == b'\n');
            i += 1;
            continue;
        }
        let start = i;
        while i < output.len() && !is_space(output[i]) {
            i += 1;
        }
        if truncated && i == output.len() {
            break;
        }
        out.push(Token {
            text: &output[start..i],
            line,
        });
    }
    out
}

/// `bytes` for a report: UTF-8 (lossy), control characters escaped, at most
/// `max` characters (then `…`).
pub fn show(bytes: &[u8], max: usize) -> String {
    let text = String::from_utf8_lossy(bytes);
    let mut out = String::new();
    for (n, c) in text.chars().enumerate() {
        if n == max {
            out.push('…');
            break;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// Text a program wrote (its stderr) for a report: UTF-8 (lossy), split
/// into lines first (a `\r` before a line break dropped), then control
/// characters escaped in each line, the lines joined with `\n`; at most
/// `max` characters (then `…`).
pub fn show_lines(bytes: &[u8], max: usize) -> String {
    let text = String::from_utf8_lossy(bytes);
    let mut out = String::new();
    let mut left = max;
    for (n, line) in text.split('\n').enumerate() {
        if n > 0 {
            if left == 0 {
                out.push('…');
                return out;
            }
            out.push('\n');
            left -= 1;
        }
        let line = line.strip_suffix('\r').unwrap_or(line);
        let count = line.chars().count();
        out.push_str(&show(line.as_bytes(), left));
        if count > left {
            return out;
        }
        left -= count;
    }
    out
}

/// `word` as a POSIX shell reads it back: as it is when it holds only
/// characters no shell treats specially, else in single quotes (a `'`
/// written `'\''`).
pub fn shell_quote(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_-+=:,./@%".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// Words as one command line a shell can run (each [`shell_quote`]d).
pub fn command_line(words: &[String]) -> String {
    let quoted: Vec<String> = words.iter().map(|w| shell_quote(w)).collect();
    quoted.join(" ")
}

/// A label token with its runs of digits shown as `k` (`#12` as `#k`), so
/// that wrong labels group by their form.
pub(crate) fn label_form(token: &[u8]) -> String {
    let mut s = String::new();
    for ch in show(token, 20).chars() {
        if ch.is_ascii_digit() {
            if !s.ends_with('k') {
                s.push('k');
            }
        } else {
            s.push(ch);
        }
    }
    s
}

/// Parses a token as a decimal integer with an optional sign.
pub(crate) fn parse_int(text: &[u8]) -> Option<i64> {
    std::str::from_utf8(text).ok()?.parse().ok()
}

/// A case shown in a report: a title and the board's lines.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CaseView {
    /// The board's bits (Flip, Euler: cell (r, c) at bit `4r + c`; Lights
    /// Out: at bit `6r + c`) or the generated board's number (Carcassonne,
    /// Fliptile).
    pub key: u64,
    /// E.g. `bwwb/bbwb/bwwb/bwww` or `planted 12×12 board`.
    pub title: String,
    /// The board as the judge's input shows it, a line each. In JSON
    /// `input`: `board` is one string everywhere else.
    #[serde(rename = "input")]
    pub board: Vec<String>,
}

/// How the cases of a plan are put in order before they are cut into runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arrangement {
    /// By case number (one case a run: the order of the report).
    Ascending,
    /// Shuffled, as a judge's input would be.
    Shuffled,
    /// By [`Judge::group`], then case number; a run never mixes groups.
    Grouped,
}

/// One puzzle as `check` judges it: its cases, its input, its answers.
///
/// Cases are numbered `0..case_count()`; a run holds up to
/// `problem().max_cases` of them, written as one judge input.
pub trait Judge: Sync {
    /// The judge's problem: its command, name, limits and case noun.
    fn problem(&self) -> &'static Problem;
    /// How many cases there are.
    fn case_count(&self) -> usize;
    /// How cases are ordered before they are cut into runs.
    fn arrangement(&self) -> Arrangement;

    /// Whether the cases are themselves a random draw (the boards of
    /// another size, drawn from a seed) rather than every case: a report
    /// then says it checked a sample, whatever `--sample` was.
    fn is_drawn(&self) -> bool {
        false
    }
    /// How generated cases were drawn, for the report's header (`drawn
    /// from seed 0, 200 a group`); `None` for a fixed set.
    fn drawn(&self) -> Option<String> {
        None
    }
    /// The group of a case, for [`Arrangement::Grouped`].
    fn group(&self, _case: usize) -> usize {
        0
    }
    /// Works out what the right answers to `cases` need, before the first
    /// run (Carcassonne counts its boards here, in parallel).
    fn prepare(&self, _cases: &[usize]) -> Result<(), String> {
        Ok(())
    }
    /// Appends the judge's input holding `cases`, in order, to `out`.
    fn write_input(&self, cases: &[usize], out: &mut Vec<u8>);
    /// How many tokens one answer takes, when that is fixed (see
    /// [`answer_tokens`](Judge::answer_tokens)).
    fn tokens_per_answer(&self) -> usize;
    /// How many tokens the answer to `case` takes, given `rest`, the
    /// output's tokens from where that answer starts (never empty). A
    /// number larger than `rest.len()` means the answer is incomplete.
    /// By default [`tokens_per_answer`](Judge::tokens_per_answer); a
    /// puzzle whose answers vary in length (Fliptile: `IMPOSSIBLE`, or M·N
    /// cells) says it from the answer's first token.
    fn answer_tokens(&self, _case: usize, _rest: &[Token<'_>]) -> usize {
        self.tokens_per_answer()
    }
    /// The right answer to `case`, answered `number`-th (from 1) in its
    /// run, as the judge prints it.
    fn expected(&self, case: usize, number: usize) -> String;
    /// Judges an answer of [`answer_tokens`](Judge::answer_tokens) tokens.
    fn judge_answer(&self, case: usize, number: usize, answer: &[Token<'_>]) -> Judgement;
    /// An answer as the report shows it: by default its tokens separated
    /// by spaces; a puzzle whose answers are grids lays them out in lines
    /// as [`expected`](Judge::expected) does.
    fn received(&self, _case: usize, answer: &[Token<'_>]) -> String {
        joined(answer)
    }
    /// The case, for the report.
    fn describe(&self, case: usize) -> CaseView;
}

/// The cases to run, cut into runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunPlan {
    /// Case numbers, run by run.
    pub runs: Vec<Vec<usize>>,
    /// How many cases in all.
    pub cases: usize,
    /// Whether this is a sample rather than every case.
    pub sampled: bool,
    /// The sample asked for (`--sample`), if any.
    pub requested: Option<usize>,
}

/// What the sample and the shuffles are drawn with: `Rng::new(seed ^
/// PLAN_SALT)`, so they do not repeat the draws of cases generated from
/// the same seed.
pub const PLAN_SALT: u64 = 0x706C_616E; // "plan"

/// Every case of `puzzle`, or a random sample of `sample` of them (drawn
/// with [`Rng::sample`]), arranged and cut into runs of at most
/// the problem's [`max_cases`](Problem::max_cases).
pub fn plan<P: Judge + ?Sized>(puzzle: &P, sample: Option<usize>, seed: u64) -> RunPlan {
    let n = puzzle.case_count();
    let mut rng = Rng::new(seed ^ PLAN_SALT);
    let (mut cases, sampled) = match sample {
        Some(k) if k < n => (rng.sample(n, k), true),
        _ => ((0..n).collect(), puzzle.is_drawn()),
    };
    match puzzle.arrangement() {
        Arrangement::Ascending => cases.sort_unstable(),
        Arrangement::Shuffled => rng.shuffle(&mut cases),
        Arrangement::Grouped => cases.sort_unstable_by_key(|&c| (puzzle.group(c), c)),
    }
    let max = puzzle.problem().max_cases.max(1);
    let mut runs: Vec<Vec<usize>> = Vec::new();
    for &case in &cases {
        let group = puzzle.group(case);
        match runs.last_mut() {
            Some(run) if run.len() < max && puzzle.group(run[0]) == group => run.push(case),
            _ => runs.push(vec![case]),
        }
    }
    RunPlan {
        runs,
        cases: cases.len(),
        sampled,
        requested: sample,
    }
}

/// How to run the program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// The program under test.
    pub program: Program,
    /// CPU time limit per run.
    pub time_limit: Duration,
    /// Wall-clock guard per run (usually [`process::WALL_FACTOR`] times
    /// the CPU time limit).
    pub wall_limit: Duration,
    /// Memory limit per run, in bytes; `None`: no limit.
    pub memory_limit: Option<u64>,
    /// How the memory limit is held ([`MemoryControl::best`] is a cgroup
    /// where the machine allows one).
    pub memory_control: MemoryControl,
    /// Runs at once.
    pub jobs: usize,
    /// How many failing cases (and failing runs) the report keeps in full.
    pub keep: usize,
    /// Where to write every failing run's input, expected output, output
    /// and stderr ([`save_run`]); the directory must exist.
    pub save: Option<PathBuf>,
}

/// Where a check is, for a progress bar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CheckProgress {
    /// Runs finished.
    pub runs_done: usize,
    /// Runs in all.
    pub runs: usize,
    /// Cases judged.
    pub cases_done: usize,
    /// Cases not accepted so far.
    pub failed: usize,
}

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

    fn add(&mut self, verdict: Verdict) {
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
    /// [`Kind::id`].
    pub id: &'static str,
    /// [`Kind::title`].
    pub title: &'static str,
    /// [`Kind::verdict`].
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
    /// [`Kind::id`].
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
    /// With [`Options::save`]: the command line that runs the program
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
    /// [`Kind::id`] of what decided it.
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
    /// With [`Options::save`]: the command line that runs the program
    /// again on the run's saved input.
    pub replay: Option<String>,
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
    /// CPU time limit per run, in seconds (in JSON `time_limit_seconds`,
    /// as the server's limits are named: `time_limit` is the id of a kind
    /// of failure).
    #[serde(rename = "time_limit_seconds")]
    pub time_limit: f64,
    /// The wall-clock guard per run, in seconds.
    pub wall_limit_seconds: f64,
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
    /// With [`Options::save`]: the directory every failing run was
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
    /// How ([`Judge::drawn`]).
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
    fn add(&mut self, run: usize) {
        self.count += 1;
        let at = self.first.partition_point(|&r| r < run);
        self.first.insert(at, run);
        self.first.truncate(RUN_LIST);
    }
}

/// Bytes as MB ([`process::MB`]).
fn megabytes(bytes: u64) -> f64 {
    bytes as f64 / process::MB as f64
}

impl CheckReport {
    /// Whether the judge accepts every run.
    pub fn accepted(&self) -> bool {
        self.run_verdicts.accepted == self.runs
    }
}

/// What one run's answers came to.
struct Judged {
    run: usize,
    /// Per case in the run: `None` when accepted.
    cases: Vec<Option<CaseFailure>>,
    verdict: Verdict,
    fault: Option<Fault>,
    answered: usize,
    end: End,
    elapsed: Duration,
    cpu: Duration,
    peak_memory: u64,
    stderr: String,
    /// See [`RunFailure::note`].
    note: Option<String>,
    /// See [`RunFailure::replay`].
    replay: Option<String>,
}

struct CaseFailure {
    fault: Fault,
    received: String,
    line: Option<usize>,
}

/// The fault of an abnormal end.
fn end_fault(end: End) -> Option<Fault> {
    match end {
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
        End::WallLimit => Some(Fault::new(&kinds::WALL_LIMIT, "")),
        End::MemoryLimit(death) => Some(Fault::new(&kinds::MEMORY_LIMIT, death_detail(death))),
        End::OverMemory => Some(Fault::new(&kinds::OVER_MEMORY, "")),
        End::OutputLimit => Some(Fault::new(&kinds::OUTPUT_LIMIT, "")),
    }
}

/// How a program died, in words (`exit status 1`, `SIGSEGV (segmentation
/// fault)`).
fn death_detail(death: process::Death) -> String {
    match death {
        process::Death::Exited(code) => format!("exit status {code}"),
        process::Death::Signaled(signal) => {
            let (name, what) = process::signal_name(signal);
            format!("{name} ({what})")
        }
    }
}

/// Why there is no answer, for the report (`single`: the run's only case).
fn missing(end: End, single: bool, answered: usize, partial: &[Token<'_>]) -> String {
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

fn joined(tokens: &[Token<'_>]) -> String {
    let words: Vec<String> = tokens.iter().map(|t| show(t.text, 40)).collect();
    words.join(" ")
}

/// Judges one run's outcome.
fn judge_run<P: Judge + ?Sized>(
    puzzle: &P,
    run: usize,
    cases: &[usize],
    outcome: &Outcome,
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
    let ended = end_fault(outcome.end);
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
                    fault: extra
                        .clone()
                        .unwrap_or_else(|| Fault::new(&kinds::EXTRA_OUTPUT, "")),
                    received: format!(
                        "{} {}",
                        puzzle.received(case, answer),
                        joined(&toks[at..toks.len().min(at + 7)])
                    ),
                    line: Some(answer[0].line),
                }),
                Judgement::Accepted => None,
                Judgement::Rejected(fault) => Some(CaseFailure {
                    fault,
                    received: puzzle.received(case, answer),
                    line: Some(answer[0].line),
                }),
            },
            (None, _) => Some(CaseFailure {
                fault: ended
                    .clone()
                    .unwrap_or_else(|| Fault::new(&kinds::MISSING_ANSWER, "")),
                received: missing(outcome.end, single, answered, partial),
                line: None,
            }),
        };
        results.push(failure);
    }
    let note = buffered_note(outcome.end, cases.len(), answered);
    let fault = ended
        .or_else(|| results.iter().flatten().next().map(|f| f.fault.clone()))
        .or(extra);
    Judged {
        run,
        verdict: fault.as_ref().map_or(Verdict::Accepted, |f| f.kind.verdict),
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
/// its answers complete: a hint that they may have been in the program's
/// output buffer, lost with it.
fn buffered_note(end: End, cases: usize, answered: usize) -> Option<String> {
    let killed = end.is_limit() || matches!(end, End::Signaled(_));
    (killed && cases > 1 && answered * 10 < cases).then(|| {
        "answers the program wrote may have been lost in its output buffer when it was \
         killed: flush after each answer (fflush(stdout), std::endl, flush=True) to have them \
         judged"
            .to_owned()
    })
}

/// Bytes of stdout a run may write: 64 KiB plus 4 times the expected
/// output.
fn output_cap<P: Judge + ?Sized>(puzzle: &P, cases: &[usize]) -> usize {
    let expected: usize = cases
        .iter()
        .enumerate()
        .map(|(i, &c)| puzzle.expected(c, i + 1).len() + 1)
        .sum();
    (64 << 10) + 4 * expected
}

/// Why a check could not be done.
#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    /// The program could not be started, or a system call failed.
    #[error(transparent)]
    Run(#[from] RunError),
    /// The right answers could not be worked out.
    #[error("{0}")]
    Prepare(String),
    /// A failing run could not be saved.
    #[error("cannot save a failing run to {}: {error}", path.display())]
    Save {
        /// The file.
        path: PathBuf,
        /// Why.
        error: io::Error,
    },
}

/// Writes `bytes` to `path` whole or not at all: to a temporary name in
/// the same directory, then renamed over it
/// ([`crate::tablefile::write_atomically`]).
fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), CheckError> {
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
pub fn save_run<P: Judge + ?Sized>(
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
/// time, and reports. [`Judge::prepare`] is called first, with every case
/// of the plan; `progress` is called after every run. Only a program that
/// cannot be started (or a failing system call) is an error; the first one
/// stops the check.
///
/// ```
/// use std::time::Duration;
/// use boardbase::check::{self, FlipCheck, MemoryControl, Options, Program, Verdict};
///
/// // A "solution" that answers Impossible to every board: right on 15 of 16.
/// let puzzle = FlipCheck::default();
/// let plan = check::plan(&puzzle, Some(64), 1); // 64 boards, one a run
/// let options = Options {
///     program: Program { path: "sh".into(), args: vec!["-c".into(), "echo Impossible".into()] },
///     time_limit: Duration::from_secs(10),
///     wall_limit: Duration::from_secs(30),
///     memory_limit: None,
///     memory_control: MemoryControl::AddressSpace,
///     save: None,
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
/// # Ok::<(), boardbase::check::CheckError>(())
/// ```
pub fn check<P: Judge + ?Sized>(
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
    let mut builder = Builder::new(options.keep, options);
    let (tx, rx) = mpsc::channel::<Result<Judged, CheckError>>();
    let mut first_error = None;
    std::thread::scope(|scope| {
        for _ in 0..options.jobs.clamp(1, plan.runs.len().max(1)) {
            let tx = tx.clone();
            let (next, stop) = (&next, &stop);
            scope.spawn(move || {
                let mut input = Vec::new();
                loop {
                    let run = next.fetch_add(1, Ordering::Relaxed);
                    if run >= plan.runs.len() || stop.load(Ordering::Relaxed) {
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
                    let result = process::run(&options.program, &input, &limits)
                        .map_err(CheckError::from)
                        .and_then(|outcome| {
                            let mut judged = judge_run(puzzle, run, cases, &outcome);
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
                    if result.is_err() {
                        stop.store(true, Ordering::Relaxed);
                    }
                    if tx.send(result).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
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
    if let Some(e) = first_error {
        return Err(e);
    }
    Ok(builder.finish(puzzle, plan, seed, options, started.elapsed()))
}

/// Gathers judged runs, arriving in any order, into a report.
struct Builder {
    keep: usize,
    case_verdicts: Counts,
    run_verdicts: Counts,
    runs_done: usize,
    cases_done: usize,
    failed: usize,
    groups: HashMap<&'static str, (&'static Kind, usize, HashMap<String, usize>)>,
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
    fn new(keep: usize, options: &Options) -> Builder {
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

    fn progress(&self, runs: usize) -> CheckProgress {
        CheckProgress {
            runs_done: self.runs_done,
            runs,
            cases_done: self.cases_done,
            failed: self.failed,
        }
    }

    fn add(&mut self, judged: &Judged) {
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
                    verdict: fault.kind.verdict,
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
            let kind = failure.fault.kind;
            self.case_verdicts.add(kind.verdict);
            let group = self
                .groups
                .entry(kind.id)
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

    fn finish<P: Judge + ?Sized>(
        self,
        puzzle: &P,
        plan: &RunPlan,
        seed: u64,
        options: &Options,
        elapsed: Duration,
    ) -> CheckReport {
        let mut groups: Vec<Group> = self
            .groups
            .into_values()
            .map(|(kind, count, details)| {
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
                    verdict: kind.verdict,
                    count,
                    details,
                }
            })
            .collect();
        groups.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.id.cmp(b.id)));
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
                    verdict: f.fault.kind.verdict,
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
            time_limit: options.time_limit.as_secs_f64(),
            wall_limit_seconds: options.wall_limit.as_secs_f64(),
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
fn what(fault: &Fault) -> String {
    if fault.detail.is_empty() {
        fault.kind.title.to_owned()
    } else {
        format!("{}: {}", fault.kind.title, fault.detail)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_and_lines() {
        let t = tokens(b"  4\n\nImpossible \r\nx", false);
        let got: Vec<(&[u8], usize)> = t.iter().map(|t| (t.text, t.line)).collect();
        assert_eq!(
            got,
            [(&b"4"[..], 1), (&b"Impossible"[..], 3), (&b"x"[..], 4)]
        );
        assert_eq!(tokens(b"4\nImposs", true).len(), 1);
        assert_eq!(tokens(b"4\n", true).len(), 1);
    }

    #[test]
    fn stderr_is_shown_line_by_line() {
        assert_eq!(
            show_lines(b"one\r\ntwo\x07\n\nthree", 100),
            "one\ntwo\\u{7}\n\nthree"
        );
        assert_eq!(show_lines(b"abc\ndef", 5), "abc\nd…");
        assert_eq!(show_lines(b"abc\ndef", 3), "abc…");
    }

    #[test]
    fn words_are_quoted_for_a_shell() {
        let words = ["./a.out", "x y", "it's", "", "--k=v"].map(String::from);
        assert_eq!(command_line(&words), "./a.out 'x y' 'it'\\''s' '' --k=v");
    }

    #[test]
    fn counts_with_commas() {
        let got: Vec<String> = [0, 999, 1000, 65_536, 1_234_567].map(thousands).to_vec();
        assert_eq!(got, ["0", "999", "1,000", "65,536", "1,234,567"]);
    }

    #[test]
    fn show_escapes_and_clips() {
        assert_eq!(show(b"a\x07b", 10), "a\\u{7}b");
        assert_eq!(show(b"abcdef", 3), "abc…");
        assert_eq!(show(b"\xff", 3), "\u{fffd}");
    }
}
