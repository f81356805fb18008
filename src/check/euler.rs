//! Game of Euler for `check`: the 65,535 open positions, all in
//! one run (the judge allows up to 99,999 cases an input).

use std::io::Write;

use super::{Arrangement, CaseView, Fault, Judge, Judgement, Kind, Token, Verdict, kinds};
use crate::cases::GenError;
use crate::cases::euler::{Filter, Pool, write_position};
use crate::catalogue::entry::Problem;
use crate::euler::{self, Outcome, Position};

/// A losing position answered `WINNING`.
pub static LOSING_CALLED_WINNING: Kind = Kind {
    id: "losing_called_winning",
    title: "losing position answered WINNING",
    verdict: Verdict::WrongAnswer,
};
/// A winning position answered `LOSING`.
pub static WINNING_CALLED_LOSING: Kind = Kind {
    id: "winning_called_losing",
    title: "winning position answered LOSING",
    verdict: Verdict::WrongAnswer,
};

/// The cases are the open positions a [`Filter`] accepts, in ascending
/// order of their bits (cell (r, c) at bit `4r + c`, set = covered): by
/// default all 65,535, so case `i` is position `i`. They are shuffled
/// within the run, as a judge's input would be.
#[derive(Clone, Debug)]
pub struct EulerCheck {
    pool: Pool,
}

impl EulerCheck {
    /// The positions `filter` accepts; an error when there are none.
    pub fn new(filter: Filter) -> Result<EulerCheck, GenError> {
        Ok(EulerCheck {
            pool: Pool::new(filter)?,
        })
    }

    fn position(&self, case: usize) -> Position {
        self.pool.get(case)
    }
}

impl Default for EulerCheck {
    /// All 65,535 open positions.
    fn default() -> EulerCheck {
        EulerCheck {
            pool: Pool::new(Filter::default())
                .unwrap_or_else(|_| unreachable!("every open position passes")),
        }
    }
}

impl Judge for EulerCheck {
    fn problem(&self) -> &'static Problem {
        &crate::euler::UVA_10536
    }

    fn case_count(&self) -> usize {
        self.pool.len()
    }

    fn arrangement(&self) -> Arrangement {
        Arrangement::Shuffled
    }

    fn write_input(&self, cases: &[usize], out: &mut Vec<u8>) {
        // Writing to a Vec cannot fail.
        let _ = writeln!(out, "{}", cases.len());
        for &case in cases {
            out.push(b'\n');
            let _ = write_position(out, self.position(case));
        }
    }

    fn tokens_per_answer(&self) -> usize {
        1
    }

    fn expected(&self, case: usize, _number: usize) -> String {
        euler::outcome(self.position(case)).answer().to_owned()
    }

    fn judge_answer(&self, case: usize, _number: usize, answer: &[Token<'_>]) -> Judgement {
        let entry = euler::probe(self.position(case));
        let want = entry.outcome.answer().as_bytes();
        let got = answer[0].text;
        if got == want {
            return Judgement::Accepted;
        }
        let left = format!(
            "{} move{} left",
            entry.moves_left,
            if entry.moves_left == 1 { "" } else { "s" }
        );
        let fault = match (got, entry.outcome) {
            (b"WINNING", Outcome::Loss) => Fault::new(&LOSING_CALLED_WINNING, left),
            (b"LOSING", Outcome::Win) => Fault::new(&WINNING_CALLED_LOSING, left),
            _ if got.eq_ignore_ascii_case(b"WINNING") || got.eq_ignore_ascii_case(b"LOSING") => {
                let word = if got.eq_ignore_ascii_case(b"WINNING") {
                    "WINNING"
                } else {
                    "LOSING"
                };
                Fault::new(
                    &kinds::MISSPELT,
                    format!("'{}' for '{word}'", super::show(got, 20)),
                )
            }
            _ => Fault::new(&kinds::NOT_AN_ANSWER, format!("'{}'", super::show(got, 20))),
        };
        Judgement::Rejected(fault)
    }

    fn describe(&self, case: usize) -> CaseView {
        let p = self.position(case);
        let e = euler::probe(p);
        CaseView {
            key: u64::from(p.bits()),
            title: format!(
                "position {p:#} ({}, {} move{} left with perfect play)",
                e.outcome.answer(),
                e.moves_left,
                if e.moves_left == 1 { "" } else { "s" }
            ),
            board: p.to_string().lines().map(str::to_owned).collect(),
        }
    }
}
