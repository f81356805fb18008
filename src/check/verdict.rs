//! The judges' verdicts, and the kinds of failure a report groups.

use std::fmt;

use serde::Serialize;

/// A judge's verdict, named as judges name them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// The right answer, in the judge's format.
    Accepted,
    /// An answer in the judge's format, but not the right one.
    WrongAnswer,
    /// The right words laid out otherwise than the judge's output (POJ's
    /// and HDU's rule, [`Presentation::Strict`](super::Presentation::Strict));
    /// compared as tokens, output that is not an answer in the judge's
    /// format: a word the judge does not use, a wrong case label, answers
    /// missing or extra.
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
pub struct FaultKind {
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
    pub kind: &'static FaultKind,
    /// The sub-group.
    pub detail: String,
    /// The verdict: the kind's, unless the way output is compared gives
    /// another ([`Presentation::Strict`](super::Presentation::Strict) calls
    /// a misspelt word a Wrong Answer, as the judges do).
    pub verdict: Verdict,
}

impl Fault {
    /// A fault of `kind` with `detail`, and the kind's verdict.
    pub fn new(kind: &'static FaultKind, detail: impl Into<String>) -> Fault {
        Fault {
            kind,
            detail: detail.into(),
            verdict: kind.verdict,
        }
    }

    /// The same fault with the verdict `verdict`.
    pub fn judged(self, verdict: Verdict) -> Fault {
        Fault { verdict, ..self }
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
    use super::{FaultKind, Verdict};

    /// Used its CPU time limit.
    pub static TIME_LIMIT: FaultKind = FaultKind {
        id: "time_limit",
        title: "used its CPU time limit",
        verdict: Verdict::TimeLimitExceeded,
    };
    /// Killed at the wall-clock guard before using its CPU time limit.
    pub static WALL_LIMIT: FaultKind = FaultKind {
        id: "wall_limit",
        title: "killed at the wall-clock guard, below its CPU time limit",
        verdict: Verdict::TimeLimitExceeded,
    };
    /// Died at the memory limit: killed there (a cgroup), or of a failed
    /// allocation.
    pub static MEMORY_LIMIT: FaultKind = FaultKind {
        id: "memory_limit",
        title: "died at the memory limit (killed at it, or an allocation failed)",
        verdict: Verdict::MemoryLimitExceeded,
    };
    /// Finished with a peak resident memory over the memory limit.
    pub static OVER_MEMORY: FaultKind = FaultKind {
        id: "over_memory",
        title: "used more memory than the limit (its peak resident memory)",
        verdict: Verdict::MemoryLimitExceeded,
    };
    /// Killed by a signal.
    pub static SIGNAL: FaultKind = FaultKind {
        id: "signal",
        title: "killed by a signal",
        verdict: Verdict::RuntimeError,
    };
    /// A non-zero exit status.
    pub static EXIT_STATUS: FaultKind = FaultKind {
        id: "exit_status",
        title: "non-zero exit status",
        verdict: Verdict::RuntimeError,
    };
    /// More output than the cap.
    pub static OUTPUT_LIMIT: FaultKind = FaultKind {
        id: "output_limit",
        title: "output limit exceeded",
        verdict: Verdict::OutputLimitExceeded,
    };
    /// The output ended before this case's answer.
    pub static MISSING_ANSWER: FaultKind = FaultKind {
        id: "missing_answer",
        title: "no answer (the output ended before it)",
        verdict: Verdict::PresentationError,
    };
    /// Output after the last answer.
    pub static EXTRA_OUTPUT: FaultKind = FaultKind {
        id: "extra_output",
        title: "output after the last answer",
        verdict: Verdict::PresentationError,
    };
    /// A token that is no answer at all.
    pub static NOT_AN_ANSWER: FaultKind = FaultKind {
        id: "not_an_answer",
        title: "not an answer in the judge's format",
        verdict: Verdict::PresentationError,
    };
    /// The right word with other capitals.
    pub static MISSPELT: FaultKind = FaultKind {
        id: "misspelt",
        title: "the judge's word with other capitals (tokens are compared exactly)",
        verdict: Verdict::PresentationError,
    };
    /// The right answer laid out otherwise than the judge's output: on
    /// other lines, with spaces before it or other spaces between its
    /// words, after blank lines, or on a line of another answer. Only
    /// [`Presentation::Strict`](super::super::Presentation::Strict) looks;
    /// a Presentation Error where the judge gives one (POJ, HDU), else a
    /// Wrong Answer (UVa).
    pub static LAYOUT: FaultKind = FaultKind {
        id: "layout",
        title: "the right answer, laid out otherwise than the judge's output",
        verdict: Verdict::PresentationError,
    };
    /// The right number written another way (`04`, `+4`).
    pub static NUMBER_FORM: FaultKind = FaultKind {
        id: "number_form",
        title: "the right number written another way (tokens are compared exactly)",
        verdict: Verdict::PresentationError,
    };
}
