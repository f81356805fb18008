//! Run a solution as an online judge does, on every case the tablebase
//! knows, and say which cases it gets wrong and why.
//!
//! A [`Check`] says how to make a judge input from some of its cases, how
//! many tokens one answer takes and how to judge (and classify) an answer;
//! [`plan`] splits the cases (or a random sample of them) into runs as the
//! judge's format allows; [`check`] runs the program on every run, in
//! parallel, through [`process::run`], and gathers a [`CheckReport`].
//!
//! # Judging
//!
//! Output is read as tokens (runs of non-whitespace), with their lines. The
//! answers of a run are consecutive groups of tokens, as many as
//! [`Check::answer_tokens`] says from where each starts (a fixed
//! [`Check::tokens_per_answer`] for most puzzles; one for Fliptile's
//! `IMPOSSIBLE`, M·N for its flips; for the Lights Out family one for
//! `Impossible`, else the count and a token a row), and each is judged
//! against its own case, so one wrong line is attributed to its board.
//! How an answer's words and layout are compared with the judge's is
//! [`Options::presentation`]: [`Presentation::Strict`] (by default) sees
//! its lines as the judge does, a word that differs being a Wrong Answer
//! and the right words laid out otherwise the judge's verdict for layout
//! ([`layout_verdict`]); [`Presentation::Tokens`] compares tokens only.
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
mod error;
mod euler;
mod flip;
mod fliptile;
mod gather;
mod judging;
mod lights;
mod lightsout;
mod options;
mod plan;
mod presentation;
pub mod process;
mod puzzle;
mod report;
mod run;
mod shell;
mod sized;
mod tokens;
mod verdict;

pub use self::carcassonne::{CarcassonneCheck, SizeClass};
pub use self::error::CheckError;
pub use self::fliptile::FliptileCheck;
pub use self::lights::LightsCheck;
pub use self::lightsout::LightsOutCheck;
pub use self::options::{CheckProgress, DEFAULT_MAX_FAILURES, Options};
pub use self::plan::{PLAN_SALT, RunPlan, plan};
pub use self::presentation::{Presentation, layout_verdict};
pub use self::process::{Death, End, Limits, MemoryControl, Outcome, Program};
pub use self::puzzle::{Arrangement, CaseView, Check};
pub use self::report::{
    CheckReport, Counts, Detail, Drawn, Failure, Group, LargeRun, MAX_DETAILS, RUN_LIST,
    RunFailure, RunList, SlowRun, Stopped,
};
pub use self::run::{check, save_run};
pub use self::shell::{command_line, shell_quote};
pub use self::sized::SizedCheck;
pub use self::tokens::{Token, show, show_lines, tokens};
pub(crate) use self::tokens::{label_form, parse_int};
pub use self::verdict::{Fault, FaultKind, Judgement, Verdict, kinds};
use crate::report::thousands;

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
