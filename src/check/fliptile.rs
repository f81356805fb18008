//! Fliptile (POJ 3279) for `check`: generated boards of every category, one
//! a run (the judge sends one case).

use super::{Arrangement, CaseView, Check, Fault, FaultKind, Judgement, Token, Verdict, kinds};
use crate::cases::fliptile::{FliptileCategory, JUDGE_MAX_SIDE, Spec, answer};
use crate::cases::{CasesError, Rng};
use crate::catalogue::entry::Problem;
use crate::lights::{Answer, Grid, Solver};
use crate::tables::shape::Shape;

/// An impossible board answered with flips.
pub static IMPOSSIBLE_ANSWERED_FLIPS: FaultKind = FaultKind {
    id: "impossible_answered_flips",
    title: "impossible board answered with flips",
    verdict: Verdict::WrongAnswer,
};
/// A board that can be made white answered `IMPOSSIBLE`.
pub static SOLVABLE_ANSWERED_IMPOSSIBLE: FaultKind = FaultKind {
    id: "solvable_answered_impossible",
    title: "solvable board answered IMPOSSIBLE",
    verdict: Verdict::WrongAnswer,
};
/// Flips after which some tile is black.
pub static FLIPS_DO_NOT_CLEAR: FaultKind = FaultKind {
    id: "flips_do_not_clear",
    title: "flips that do not make every tile white",
    verdict: Verdict::WrongAnswer,
};
/// Flips that make every tile white, but more than the fewest.
pub static NOT_MINIMUM: FaultKind = FaultKind {
    id: "not_minimum",
    title: "not a minimum flip set (more flips than the fewest)",
    verdict: Verdict::WrongAnswer,
};
/// A minimum flip set other than the judge's (the least in reading order).
pub static NOT_LEAST: FaultKind = FaultKind {
    id: "not_least",
    title: "a minimum flip set, but not the least in reading order (the judge's tie rule)",
    verdict: Verdict::WrongAnswer,
};
/// Fewer cells than the board has.
pub static WRONG_SIZE: FaultKind = FaultKind {
    id: "wrong_size",
    title: "fewer cells than the board has",
    verdict: Verdict::PresentationError,
};

/// One generated board and its answer.
#[derive(Clone, Debug)]
struct Case {
    /// Its number among all the generated boards.
    key: usize,
    category: FliptileCategory,
    board: Grid,
    answer: Option<Answer>,
}

/// Boards of every [`FliptileCategory`], `per_group` of each group, drawn from
/// `Rng::new(seed)` group by group as [`Spec::board`] draws them: random,
/// solvable, impossible and ties boards of random sizes up to 15×15 (the
/// judge's limits; impossible and ties boards on sizes of nullity at least
/// 1), then random 15×15 boards (the judge's largest: every one can be
/// made white, in one way, and a slow solution meets its time limit
/// there). Board `k` of that order is the same whichever category is kept.
/// The answers come from [`crate::lights`], for every board, when the
/// check is made (a few microseconds each). One board a run, the hardest
/// first, in turn ([`Arrangement::HardFirst`]).
#[derive(Clone, Debug)]
pub struct FliptileCheck {
    cases: Vec<Case>,
    seed: u64,
    per_group: usize,
    /// The one size of every board, when it was chosen.
    size: Option<Shape>,
}

impl FliptileCheck {
    /// Boards a group by default: 1,000 boards in all.
    pub const PER_GROUP: usize = 200;

    /// The groups, in the order they are drawn.
    pub const GROUPS: [Spec; 5] = [
        Spec {
            category: FliptileCategory::Random,
            size: None,
        },
        Spec {
            category: FliptileCategory::Solvable,
            size: None,
        },
        Spec {
            category: FliptileCategory::Impossible,
            size: None,
        },
        Spec {
            category: FliptileCategory::Ties,
            size: None,
        },
        Spec {
            category: FliptileCategory::Random,
            size: Shape::new(JUDGE_MAX_SIDE, JUDGE_MAX_SIDE),
        },
    ];

    /// Generates the boards, keeping those of `category` (all when `None`),
    /// and answers them.
    pub fn new(
        seed: u64,
        per_group: usize,
        category: Option<FliptileCategory>,
    ) -> Result<Self, CasesError> {
        Self::from_groups(seed, per_group, category, &Self::GROUPS, None)
    }

    /// The groups drawn: [`GROUPS`](Self::GROUPS), or for boards of one
    /// size, one group a category (impossible and ties only where the size
    /// has boards without a solution: nullity > 0).
    pub fn groups(size: Option<Shape>) -> Vec<Spec> {
        let Some(size) = size else {
            return Self::GROUPS.to_vec();
        };
        let has_kernel = Solver::cached(size).nullity() > 0;
        [
            FliptileCategory::Random,
            FliptileCategory::Solvable,
            FliptileCategory::Impossible,
            FliptileCategory::Ties,
        ]
        .into_iter()
        .filter(|&f| {
            has_kernel || matches!(f, FliptileCategory::Random | FliptileCategory::Solvable)
        })
        .map(|category| Spec {
            category,
            size: Some(size),
        })
        .collect()
    }

    /// Boards of one size: `per_group` of each of
    /// [`groups`](Self::groups)`(Some(size))`, keeping those of `category`.
    pub fn sized(
        seed: u64,
        per_group: usize,
        category: Option<FliptileCategory>,
        size: Shape,
    ) -> Result<Self, CasesError> {
        Self::from_groups(
            seed,
            per_group,
            category,
            &Self::groups(Some(size)),
            Some(size),
        )
    }

    fn from_groups(
        seed: u64,
        per_group: usize,
        category: Option<FliptileCategory>,
        groups: &[Spec],
        size: Option<Shape>,
    ) -> Result<Self, CasesError> {
        let mut rng = Rng::new(seed);
        let mut cases = Vec::new();
        let mut key = 0;
        for &spec in groups {
            for _ in 0..per_group {
                let board = spec.board(&mut rng)?;
                if category.is_none_or(|f| f == spec.category) {
                    let answer = answer(&board)?;
                    cases.push(Case {
                        key,
                        category: spec.category,
                        board,
                        answer,
                    });
                }
                key += 1;
            }
        }
        Ok(FliptileCheck {
            cases,
            seed,
            per_group,
            size,
        })
    }

    /// `nullity k`: the sub-group of an IMPOSSIBLE answered wrong.
    fn nullity(&self, case: usize) -> String {
        format!(
            "nullity {}",
            Solver::cached(self.cases[case].board.shape()).nullity()
        )
    }

    fn size(&self, case: usize) -> String {
        let s = self.cases[case].board.shape();
        s.to_string()
    }
}

/// A grid's rows as the judge prints them, `0`/`1` separated by spaces.
fn judge_rows(grid: &Grid) -> String {
    grid.rows()
        .iter()
        .map(|&bits| {
            (0..grid.shape().cols())
                .map(|c| if bits >> c & 1 == 1 { "1" } else { "0" })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

impl Check for FliptileCheck {
    fn problem(&self) -> &'static Problem {
        &crate::lights::POJ_3279
    }

    fn drawn(&self) -> Option<String> {
        let size = self.size.map_or(String::new(), |s| format!(", all {s}"));
        Some(format!(
            "drawn from seed {}, {} a group{size}",
            self.seed,
            super::thousands(self.per_group)
        ))
    }

    fn case_count(&self) -> usize {
        self.cases.len()
    }

    fn arrangement(&self) -> Arrangement {
        Arrangement::HardFirst
    }

    /// Ties hardest (the judge's rule among several fewest flip sets),
    /// then impossible boards, the judge's largest (a slow solution's time
    /// limit), solvable boards, and random ones.
    fn hardness(&self, case: usize) -> usize {
        let Some(c) = self.cases.get(case) else {
            return 0;
        };
        let largest =
            c.board.shape().rows() == JUDGE_MAX_SIDE && c.board.shape().cols() == JUDGE_MAX_SIDE;
        match c.category {
            FliptileCategory::Ties => 4,
            FliptileCategory::Impossible => 3,
            _ if largest => 2,
            FliptileCategory::Solvable => 1,
            FliptileCategory::Random => 0,
        }
    }

    fn write_input(&self, cases: &[usize], out: &mut Vec<u8>) {
        for &case in cases {
            // Writing to a Vec cannot fail.
            let _ = crate::cases::fliptile::write_case(out, &self.cases[case].board);
        }
    }

    /// `IMPOSSIBLE` is one token; a flip set is M·N.
    fn tokens_per_answer(&self) -> usize {
        1
    }

    /// One token when the answer starts with `IMPOSSIBLE` (in any
    /// capitals), else M·N, or what is left when fewer are: the run holds
    /// one case, so a short grid is judged as one ("fewer cells than the
    /// board has").
    fn answer_tokens(&self, case: usize, rest: &[Token<'_>]) -> usize {
        if rest[0].text.eq_ignore_ascii_case(b"IMPOSSIBLE") {
            return 1;
        }
        let s = self.cases[case].board.shape();
        (s.rows() * s.cols()).min(rest.len())
    }

    fn expected(&self, case: usize, _number: usize) -> String {
        match &self.cases[case].answer {
            Some(a) => judge_rows(&a.presses),
            None => "IMPOSSIBLE".to_owned(),
        }
    }

    fn judge_answer(&self, case: usize, _number: usize, answer: &[Token<'_>]) -> Judgement {
        let c = &self.cases[case];
        let shape = c.board.shape();
        let first = answer[0].text;
        let reject = |kind, detail: String| Judgement::Rejected(Fault::new(kind, detail));
        if answer.len() == 1 && first.eq_ignore_ascii_case(b"IMPOSSIBLE") {
            if first != b"IMPOSSIBLE" {
                let got = super::show(first, 20);
                return reject(&kinds::MISSPELT, format!("'{got}' for 'IMPOSSIBLE'"));
            }
            return match &c.answer {
                None => Judgement::Accepted,
                Some(_) => reject(&SOLVABLE_ANSWERED_IMPOSSIBLE, self.nullity(case)),
            };
        }
        if let Some(t) = answer.iter().find(|t| t.text != b"0" && t.text != b"1") {
            let run_together = t.text.len() > 1 && t.text.iter().all(|b| matches!(b, b'0' | b'1'));
            let detail = if run_together {
                "cells run together (the judge separates them by spaces)".to_owned()
            } else {
                format!("'{}'", super::show(t.text, 20))
            };
            return reject(&kinds::NOT_AN_ANSWER, detail);
        }
        let cells = shape.rows() * shape.cols();
        if answer.len() < cells {
            let s = if answer.len() == 1 { "" } else { "s" };
            return reject(
                &WRONG_SIZE,
                format!("{} cell{s} for a {} board", answer.len(), self.size(case)),
            );
        }
        let mut presses = Grid::new(shape);
        for (i, t) in answer.iter().enumerate() {
            presses.set(i / shape.cols(), i % shape.cols(), t.text == b"1");
        }
        let Some(want) = &c.answer else {
            return reject(&IMPOSSIBLE_ANSWERED_FLIPS, self.nullity(case));
        };
        let left = c.board.apply(&presses).count();
        if left > 0 {
            let s = if left == 1 { "" } else { "s" };
            return reject(&FLIPS_DO_NOT_CLEAR, format!("{left} tile{s} left black"));
        }
        if presses.count() > want.rounds {
            let more = presses.count() - want.rounds;
            let s = if more == 1 { "" } else { "s" };
            return reject(&NOT_MINIMUM, format!("{more} flip{s} more than the fewest"));
        }
        if presses != want.presses {
            return reject(
                &NOT_LEAST,
                format!("one of {} fewest flip sets", want.optimal_sets),
            );
        }
        Judgement::Accepted
    }

    /// A flip set of M·N cells in the judge's rows; anything else as is.
    fn received(&self, case: usize, answer: &[Token<'_>]) -> String {
        let cols = self.cases[case].board.shape().cols();
        let cells = cols * self.cases[case].board.shape().rows();
        if answer.len() != cells {
            return answer
                .iter()
                .map(|t| super::show(t.text, 40))
                .collect::<Vec<_>>()
                .join(" ");
        }
        answer
            .chunks(cols)
            .map(|row| {
                row.iter()
                    .map(|t| super::show(t.text, 40))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn describe(&self, case: usize) -> CaseView {
        let c = &self.cases[case];
        let k = Solver::cached(c.board.shape()).nullity();
        CaseView {
            key: c.key as u64,
            title: format!("{} {} board (nullity {k})", c.category, self.size(case)),
            board: judge_rows(&c.board).lines().map(str::to_owned).collect(),
        }
    }
}
