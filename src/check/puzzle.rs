//! One puzzle as `check` judges it (the [`Check`] trait), and a case as a
//! report shows it.

use serde::Serialize;

use super::tokens::{Token, joined};
use super::verdict::Judgement;
use crate::catalogue::entry::Problem;

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
    /// By [`Check::group`], then case number; a run never mixes groups.
    Grouped,
    /// The cases most likely to fail first, for runs of one case: one case
    /// of each [`Check::hardness`] in turn, the hardest first (the first
    /// of each class, then the second of each, ...), each class in case
    /// order. A program wrong on one class of cases fails within the first
    /// few runs, whichever class it is.
    HardFirst,
}

/// One puzzle as `check` judges it: its cases, its input, its answers.
///
/// Cases are numbered `0..case_count()`; a run holds up to
/// `problem().max_cases` of them, written as one judge input.
pub trait Check: Sync {
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
    /// How hard `case` is, for [`Arrangement::HardFirst`]: cases of one
    /// hardness are a class (Flip: the boards of one number of rounds, the
    /// impossible ones hardest).
    fn hardness(&self, _case: usize) -> usize {
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
    /// [`answer_tokens`](Check::answer_tokens)).
    fn tokens_per_answer(&self) -> usize;
    /// How many tokens the answer to `case` takes, given `rest`, the
    /// output's tokens from where that answer starts (never empty). A
    /// number larger than `rest.len()` means the answer is incomplete.
    /// By default [`tokens_per_answer`](Check::tokens_per_answer); a
    /// puzzle whose answers vary in length (Fliptile: `IMPOSSIBLE`, or M·N
    /// cells) says it from the answer's first token.
    fn answer_tokens(&self, _case: usize, _rest: &[Token<'_>]) -> usize {
        self.tokens_per_answer()
    }
    /// The right answer to `case`, answered `number`-th (from 1) in its
    /// run, as the judge prints it.
    fn expected(&self, case: usize, number: usize) -> String;
    /// Judges an answer of [`answer_tokens`](Check::answer_tokens) tokens.
    fn judge_answer(&self, case: usize, number: usize, answer: &[Token<'_>]) -> Judgement;
    /// An answer as the report shows it: by default its tokens separated
    /// by spaces; a puzzle whose answers are grids lays them out in lines
    /// as [`expected`](Check::expected) does.
    fn received(&self, _case: usize, answer: &[Token<'_>]) -> String {
        joined(answer)
    }
    /// The case, for the report.
    fn describe(&self, case: usize) -> CaseView;
}
