//! Carcassonne for `check`: generated boards of every category and
//! size class, up to 50 a run (the judge's `T ≤ 50`).

use std::io::Write;

use std::sync::OnceLock;

use num_bigint::BigUint;
use rayon::prelude::*;

use super::{Arrangement, CaseView, Check, Fault, FaultKind, Judgement, Token, Verdict, kinds};
use crate::carcassonne::{self, Board, CountOptions, MODULUS};
use crate::cases::carcassonne::{CarcassonneCategory, write_board};
use crate::cases::{CasesError, Rng};
use crate::catalogue::entry::Problem;

/// A board without placements (count 0) answered with another count.
pub static ZERO_ANSWERED_NONZERO: FaultKind = FaultKind {
    id: "zero_answered_nonzero",
    title: "count 0 answered with another count",
    verdict: Verdict::WrongAnswer,
};
/// A non-zero count answered 0.
pub static NONZERO_ANSWERED_ZERO: FaultKind = FaultKind {
    id: "nonzero_answered_zero",
    title: "non-zero count answered 0",
    verdict: Verdict::WrongAnswer,
};
/// Another non-zero count.
pub static WRONG_COUNT: FaultKind = FaultKind {
    id: "wrong_count",
    title: "wrong non-zero count",
    verdict: Verdict::WrongAnswer,
};
/// A number of at least 1,000,000,007.
pub static NOT_REDUCED: FaultKind = FaultKind {
    id: "not_reduced",
    title: "a count of at least 1,000,000,007 (answers are taken modulo it)",
    verdict: Verdict::WrongAnswer,
};
/// Not `Case k:` before the count.
pub static WRONG_CASE_LABEL: FaultKind = FaultKind {
    id: "wrong_case_label",
    title: "not the label 'Case k:'",
    verdict: Verdict::PresentationError,
};

/// The sizes of a group of boards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SizeClass {
    /// N and M each uniform in 1..=4.
    Small,
    /// N and M each uniform in 1..=12.
    Mixed,
    /// 12×12, the judge's largest.
    Largest,
}

impl SizeClass {
    /// Every class, in generation order.
    pub const ALL: [SizeClass; 3] = [SizeClass::Small, SizeClass::Mixed, SizeClass::Largest];

    /// In words.
    pub fn name(self) -> &'static str {
        match self {
            SizeClass::Small => "small (N, M ≤ 4)",
            SizeClass::Mixed => "mixed (N, M ≤ 12)",
            SizeClass::Largest => "12x12",
        }
    }

    /// Draws N and M (nothing for 12×12): `1 + below(max)` each, N first.
    fn draw(self, rng: &mut Rng) -> (usize, usize) {
        let side = |rng: &mut Rng, max: u64| 1 + rng.below(max) as usize;
        match self {
            SizeClass::Small => (side(rng, 4), side(rng, 4)),
            SizeClass::Mixed => (side(rng, 12), side(rng, 12)),
            SizeClass::Largest => (12, 12),
        }
    }
}

/// One generated case; its count is worked out when a plan needs it.
#[derive(Debug)]
struct Case {
    /// Its number among all the generated boards.
    key: usize,
    category: CarcassonneCategory,
    /// `None` for the boards of one size (`--size`).
    class: Option<SizeClass>,
    board: Board,
    count: OnceLock<Result<u64, carcassonne::Error>>,
}

/// Boards of every [`CarcassonneCategory`] in every [`SizeClass`], `per_group` of each,
/// drawn from `Rng::new(seed)` category by category (random, planted, two-pair,
/// uniform), class by class (small, mixed, 12×12): per board its sides
/// (see [`SizeClass`]) then its tiles (see [`crate::cases::carcassonne`]).
/// Board `k` of that order is the same whichever category is kept. Expected
/// counts come from [`carcassonne::count`], for the planned boards only. A
/// run holds boards of one category and class, up to 50.
#[derive(Debug)]
pub struct CarcassonneCheck {
    cases: Vec<Case>,
    seed: u64,
    per_group: usize,
    /// The one size of every board (rows, columns), when it was chosen.
    size: Option<(usize, usize)>,
}

impl CarcassonneCheck {
    /// Boards a category and class by default: 600 boards in all, 12 runs.
    pub const PER_GROUP: usize = 50;

    /// Generates the boards, keeping those of `category` (all when `None`).
    pub fn new(
        seed: u64,
        per_group: usize,
        category: Option<CarcassonneCategory>,
    ) -> Result<CarcassonneCheck, CasesError> {
        let mut rng = Rng::new(seed);
        let mut cases = Vec::new();
        let mut key = 0;
        for (_, f) in CarcassonneCategory::ALL {
            for class in SizeClass::ALL {
                for _ in 0..per_group {
                    let (rows, cols) = class.draw(&mut rng);
                    let board = f.board(&mut rng, rows, cols)?;
                    if category.is_none_or(|x| x == f) {
                        cases.push(Case {
                            key,
                            category: f,
                            class: Some(class),
                            board,
                            count: OnceLock::new(),
                        });
                    }
                    key += 1;
                }
            }
        }
        Ok(CarcassonneCheck {
            cases,
            seed,
            per_group,
            size: None,
        })
    }

    /// Boards of one size, `per_group` of each category (of `category` only
    /// when given): category F's are those of `boardbase cases carcassonne
    /// --size RxC --family F --cases PER_GROUP --seed SEED`, each category
    /// drawn from a fresh `Rng::new(seed)` as `cases` draws it. A run holds
    /// boards of one category, up to 50.
    pub fn sized(
        seed: u64,
        per_group: usize,
        category: Option<CarcassonneCategory>,
        rows: usize,
        cols: usize,
    ) -> Result<CarcassonneCheck, CasesError> {
        let mut cases = Vec::new();
        for (i, (_, f)) in CarcassonneCategory::ALL.into_iter().enumerate() {
            if category.is_some_and(|x| x != f) {
                continue;
            }
            let mut rng = Rng::new(seed);
            for k in 0..per_group {
                cases.push(Case {
                    key: i * per_group + k,
                    category: f,
                    class: None,
                    board: f.board(&mut rng, rows, cols)?,
                    count: OnceLock::new(),
                });
            }
        }
        Ok(CarcassonneCheck {
            cases,
            seed,
            per_group,
            size: Some((rows, cols)),
        })
    }

    /// The count of `case`, worked out now if [`Check::prepare`] did not.
    fn count(&self, case: usize) -> Result<u64, carcassonne::Error> {
        let c = &self.cases[case];
        *c.count.get_or_init(|| {
            carcassonne::count(&c.board, &CountOptions::default(), || false).map(|c| c.count)
        })
    }

    fn detail(&self, case: usize) -> String {
        let c = &self.cases[case];
        format!("{} {}x{}", c.category, c.board.rows(), c.board.cols())
    }

    fn group_detail(&self, case: usize) -> String {
        let c = &self.cases[case];
        match c.class {
            Some(class) => format!("{}, {}", c.category, class.name()),
            None => format!("{}, {}x{}", c.category, c.board.rows(), c.board.cols()),
        }
    }
}

impl Check for CarcassonneCheck {
    fn problem(&self) -> &'static Problem {
        &crate::carcassonne::HDU_4064
    }

    fn drawn(&self) -> Option<String> {
        Some(match self.size {
            None => format!(
                "drawn from seed {}, {} a family and size class",
                self.seed,
                super::thousands(self.per_group)
            ),
            Some((rows, cols)) => format!(
                "all {rows}x{cols}, {} a family, each family drawn from seed {} as cases carcassonne --size draws it",
                super::thousands(self.per_group),
                self.seed
            ),
        })
    }

    fn case_count(&self) -> usize {
        self.cases.len()
    }

    fn arrangement(&self) -> Arrangement {
        Arrangement::Grouped
    }

    fn group(&self, case: usize) -> usize {
        let c = &self.cases[case];
        // One more group a category for the boards of one size.
        let class = c.class.map_or(SizeClass::ALL.len(), |class| class as usize);
        (c.category as usize) * (SizeClass::ALL.len() + 1) + class
    }

    fn prepare(&self, cases: &[usize]) -> Result<(), String> {
        cases
            .par_iter()
            .try_for_each(|&case| self.count(case).map(drop))
            .map_err(|e| format!("cannot count a board: {e}"))
    }

    fn write_input(&self, cases: &[usize], out: &mut Vec<u8>) {
        // Writing to a Vec cannot fail.
        let _ = writeln!(out, "{}", cases.len());
        for &case in cases {
            let _ = write_board(out, &self.cases[case].board);
        }
    }

    fn tokens_per_answer(&self) -> usize {
        3
    }

    fn expected(&self, case: usize, number: usize) -> String {
        match self.count(case) {
            Ok(count) => format!("Case {number}: {count}"),
            Err(e) => format!("Case {number}: (cannot be counted: {e})"),
        }
    }

    fn judge_answer(&self, case: usize, number: usize, answer: &[Token<'_>]) -> Judgement {
        let (label, count) = ((answer[0].text, answer[1].text), answer[2].text);
        let want_label = format!("{number}:");
        if label != (&b"Case"[..], want_label.as_bytes()) {
            let shape = super::label_form;
            let detail = if label.0 == b"Case" && shape(label.1) == "k:" {
                "the wrong case number".to_owned()
            } else {
                format!("'{} {}' for 'Case k:'", shape(label.0), shape(label.1))
            };
            return Judgement::Rejected(Fault::new(&WRONG_CASE_LABEL, detail));
        }
        // `prepare` has counted every planned board (or the check stopped).
        let Ok(want) = self.count(case) else {
            return Judgement::Accepted;
        };
        if count == want.to_string().as_bytes() {
            return Judgement::Accepted;
        }
        if count.is_empty() || !count.iter().all(u8::is_ascii_digit) {
            return Judgement::Rejected(Fault::new(
                &kinds::NOT_AN_ANSWER,
                format!("'{}'", super::show(count, 20)),
            ));
        }
        let Some(value) = BigUint::parse_bytes(count, 10) else {
            return Judgement::Rejected(Fault::new(
                &kinds::NOT_AN_ANSWER,
                format!("'{}'", super::show(count, 20)),
            ));
        };
        let fault = if value == BigUint::from(want) {
            Fault::new(
                &kinds::NUMBER_FORM,
                format!("'{}' for {want}", super::show(count, 20)),
            )
        } else if value >= BigUint::from(MODULUS) {
            let same = &value % MODULUS == BigUint::from(want);
            Fault::new(
                &NOT_REDUCED,
                if same {
                    "the right count, not reduced"
                } else {
                    "a wrong count, not reduced"
                },
            )
        } else if want == 0 {
            Fault::new(&ZERO_ANSWERED_NONZERO, self.group_detail(case))
        } else if value == BigUint::ZERO {
            Fault::new(&NONZERO_ANSWERED_ZERO, self.group_detail(case))
        } else {
            Fault::new(&WRONG_COUNT, self.group_detail(case))
        };
        Judgement::Rejected(fault)
    }

    fn describe(&self, case: usize) -> CaseView {
        let c = &self.cases[case];
        let mut text = Vec::new();
        let _ = write_board(&mut text, &c.board);
        CaseView {
            key: c.key as u64,
            title: format!("{} board", self.detail(case)),
            board: String::from_utf8_lossy(&text)
                .lines()
                .map(str::to_owned)
                .collect(),
        }
    }
}
