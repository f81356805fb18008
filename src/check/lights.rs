//! The Lights Out family (`boardbase lights solve`) for `check`: boards of
//! one variant and goal, drawn as `boardbase cases lights` draws them, 100
//! a run. No online judge sets this problem, so the limits are this
//! project's own.

use super::{Arrangement, CaseView, Check, Fault, FaultKind, Judgement, Token, Verdict, kinds};
use crate::cases::lights::{Spec, write_board};
use crate::cases::{CasesError, Rng};
use crate::catalogue::entry::Problem;
use crate::lights::family::{ColourGrid, FamilyAnswer, FamilyGoal};

/// A board that never reaches the goal answered with presses.
pub static IMPOSSIBLE_ANSWERED_PRESSES: FaultKind = FaultKind {
    id: "impossible_answered_presses",
    title: "impossible board answered with presses",
    verdict: Verdict::WrongAnswer,
};
/// A board that reaches the goal answered `Impossible`.
pub static SOLVABLE_ANSWERED_IMPOSSIBLE: FaultKind = FaultKind {
    id: "solvable_answered_impossible",
    title: "solvable board answered Impossible",
    verdict: Verdict::WrongAnswer,
};
/// Presses after which the board is not the goal.
pub static PRESSES_MISS_GOAL: FaultKind = FaultKind {
    id: "presses_miss_goal",
    title: "presses that do not reach the goal",
    verdict: Verdict::WrongAnswer,
};
/// A count of presses other than the press vector's.
pub static COUNT_NOT_PRESSES: FaultKind = FaultKind {
    id: "count_not_presses",
    title: "a count of presses other than the press vector's total",
    verdict: Verdict::WrongAnswer,
};
/// Presses that reach the goal, but more than the fewest.
pub static NOT_MINIMUM: FaultKind = FaultKind {
    id: "not_minimum",
    title: "not a fewest press vector (more presses than the fewest)",
    verdict: Verdict::WrongAnswer,
};
/// A fewest press vector other than the least in reading order.
pub static NOT_LEAST: FaultKind = FaultKind {
    id: "not_least",
    title: "a fewest press vector, but not the least in reading order (the tie rule)",
    verdict: Verdict::WrongAnswer,
};

/// One drawn board and its answer.
#[derive(Clone, Debug)]
struct Case {
    board: ColourGrid,
    answer: Option<FamilyAnswer>,
}

/// Boards of one [`Spec`] (variant, goal, category): `count` of them drawn
/// from `Rng::new(seed)` exactly as `boardbase cases lights --cases COUNT
/// --seed SEED` draws them, answered as `--answers` writes them (the
/// fewest presses and the least fewest press vector in reading order, or
/// `Impossible`). Case `i` is the `i`-th board drawn; runs take
/// [`PER_RUN`](Self::PER_RUN) boards in that order, so the first run's
/// input is the first `PER_RUN` boards of `cases lights`.
#[derive(Clone, Debug)]
pub struct LightsCheck {
    spec: Spec,
    cases: Vec<Case>,
    seed: u64,
}

impl LightsCheck {
    /// Boards drawn by default.
    pub const SAMPLE: usize = 1_000;
    /// Boards a run: `boardbase lights solve` reads boards until its input
    /// ends, and there is no judge's count to follow.
    pub const PER_RUN: usize = crate::lights::family::LIGHTS.max_cases;

    /// `count` boards of `spec` drawn from `seed`, with their answers.
    pub fn new(spec: &Spec, count: usize, seed: u64) -> Result<Self, CasesError> {
        let mut rng = Rng::new(seed);
        let cases = (0..count)
            .map(|_| {
                let board = spec.board(&mut rng)?;
                let answer = spec.answer(&board)?;
                Ok(Case { board, answer })
            })
            .collect::<Result<_, CasesError>>()?;
        Ok(LightsCheck {
            spec: spec.clone(),
            cases,
            seed,
        })
    }

    /// The colour the goal asks for, in words.
    fn goal_words(&self) -> String {
        match self.spec.goal() {
            FamilyGoal::Colour(d) => format!("every cell {d}"),
            FamilyGoal::Any => "every cell one colour".to_owned(),
        }
    }

    /// Reads a row token: the colours of its cells, if it is `cols` digits
    /// below the variant's colours.
    fn row(&self, text: &[u8]) -> Option<Vec<u8>> {
        let colours = u32::from(self.spec.variant().colours());
        if text.len() != self.spec.variant().shape().cols() {
            return None;
        }
        text.iter()
            .map(|&b| {
                char::from(b)
                    .to_digit(16)
                    .filter(|&d| d < colours && !b.is_ascii_uppercase())
                    .map(|d| d as u8)
            })
            .collect()
    }
}

impl Check for LightsCheck {
    fn problem(&self) -> &'static Problem {
        &crate::lights::family::LIGHTS
    }

    fn drawn(&self) -> Option<String> {
        Some(format!(
            "{} boards of {}, goal {}, drawn from seed {} as cases lights draws them; no judge sets this problem: the limits are boardbase's own",
            self.spec.category(),
            self.spec.variant(),
            self.spec.goal(),
            self.seed
        ))
    }

    fn case_count(&self) -> usize {
        self.cases.len()
    }

    fn arrangement(&self) -> Arrangement {
        Arrangement::Ascending
    }

    fn write_input(&self, cases: &[usize], out: &mut Vec<u8>) {
        for &case in cases {
            // Writing to a Vec cannot fail.
            let _ = write_board(out, &self.cases[case].board);
        }
    }

    /// `Impossible` is one token; an answer the count and R rows.
    fn tokens_per_answer(&self) -> usize {
        1
    }

    /// One token unless the answer starts with a number: then the count
    /// and one token a row.
    fn answer_tokens(&self, _case: usize, rest: &[Token<'_>]) -> usize {
        let first = rest[0].text;
        if !first.is_empty() && first.iter().all(u8::is_ascii_digit) {
            1 + self.spec.variant().shape().rows()
        } else {
            1
        }
    }

    fn expected(&self, case: usize, _number: usize) -> String {
        match &self.cases[case].answer {
            Some(a) => format!("{}\n{}", a.rounds, a.presses),
            None => "Impossible".to_owned(),
        }
    }

    fn judge_answer(&self, case: usize, _number: usize, answer: &[Token<'_>]) -> Judgement {
        let c = &self.cases[case];
        let first = answer[0].text;
        let reject = |kind, detail: String| Judgement::Rejected(Fault::new(kind, detail));
        if answer.len() == 1 {
            if first == b"Impossible" {
                return match &c.answer {
                    None => Judgement::Accepted,
                    Some(a) => reject(
                        &SOLVABLE_ANSWERED_IMPOSSIBLE,
                        format!("{} presses reach it", a.rounds),
                    ),
                };
            }
            let detail = if first.eq_ignore_ascii_case(b"Impossible") {
                return reject(
                    &kinds::MISSPELT,
                    format!("'{}' for 'Impossible'", super::show(first, 20)),
                );
            } else {
                format!("'{}'", super::show(first, 20))
            };
            return reject(&kinds::NOT_AN_ANSWER, detail);
        }
        let shape = self.spec.variant().shape();
        let mut cells = Vec::with_capacity(shape.cells());
        for (r, t) in answer[1..].iter().enumerate() {
            let Some(row) = self.row(t.text) else {
                return reject(
                    &kinds::NOT_AN_ANSWER,
                    format!(
                        "row {}: '{}' (a row is {} digits 0 to {:x}, not separated)",
                        r + 1,
                        super::show(t.text, 20),
                        shape.cols(),
                        self.spec.variant().colours() - 1
                    ),
                );
            };
            cells.extend(row);
        }
        let Some(presses) = ColourGrid::from_cells(shape, cells) else {
            return reject(&kinds::NOT_AN_ANSWER, "a grid of another size".to_owned());
        };
        let Some(want) = &c.answer else {
            return reject(&IMPOSSIBLE_ANSWERED_PRESSES, self.goal_words());
        };
        let after = self.spec.apply(&c.board, &presses);
        let reached = match self.spec.goal() {
            FamilyGoal::Colour(d) => after.uniform() == Some(d),
            FamilyGoal::Any => after.uniform().is_some(),
        };
        if !reached {
            return reject(
                &PRESSES_MISS_GOAL,
                format!("not {} after them", self.goal_words()),
            );
        }
        let total = presses.total();
        if first != total.to_string().as_bytes() {
            if super::parse_int(first) == Some(total as i64) {
                return reject(
                    &kinds::NUMBER_FORM,
                    format!("'{}' for {total}", super::show(first, 20)),
                );
            }
            return reject(
                &COUNT_NOT_PRESSES,
                format!("'{}' for {total} presses", super::show(first, 20)),
            );
        }
        if total > want.rounds {
            let more = total - want.rounds;
            let s = if more == 1 { "" } else { "es" };
            return reject(
                &NOT_MINIMUM,
                format!("{more} press{s} more than the fewest"),
            );
        }
        if presses != want.presses {
            return reject(
                &NOT_LEAST,
                format!("one of {} fewest press vectors", want.optimal_sets),
            );
        }
        Judgement::Accepted
    }

    /// The count, then a row a line.
    fn received(&self, _case: usize, answer: &[Token<'_>]) -> String {
        answer
            .iter()
            .map(|t| super::show(t.text, 40))
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn describe(&self, case: usize) -> CaseView {
        let c = &self.cases[case];
        let what = match &c.answer {
            Some(a) => format!("{} presses", a.rounds),
            None => "Impossible".to_owned(),
        };
        CaseView {
            key: case as u64,
            title: format!("{} board {} ({what})", self.spec.category(), case + 1),
            board: c.board.to_string().lines().map(str::to_owned).collect(),
        }
    }
}
