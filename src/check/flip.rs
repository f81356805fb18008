//! Flip Game for `check`: all 65,536 boards, one a run.

use super::{
    Arrangement, CaseView, Fault, Judge, Judgement, Kind, Token, Verdict, kinds, parse_int,
};
use crate::cases::GenError;
use crate::cases::flip::{Filter, Pool, answer, write_board};
use crate::catalogue::entry::Problem;
use crate::flip::{self, Board};

/// An impossible board answered with a number.
pub static IMPOSSIBLE_ANSWERED_NUMBER: Kind = Kind {
    id: "impossible_answered_number",
    title: "impossible board answered with a number",
    verdict: Verdict::WrongAnswer,
};
/// A solvable board answered `Impossible`.
pub static POSSIBLE_ANSWERED_IMPOSSIBLE: Kind = Kind {
    id: "possible_answered_impossible",
    title: "solvable board answered Impossible",
    verdict: Verdict::WrongAnswer,
};
/// More rounds than the fewest.
pub static TOO_MANY_ROUNDS: Kind = Kind {
    id: "too_many_rounds",
    title: "too many rounds",
    verdict: Verdict::WrongAnswer,
};
/// Fewer rounds than can be done.
pub static TOO_FEW_ROUNDS: Kind = Kind {
    id: "too_few_rounds",
    title: "too few rounds",
    verdict: Verdict::WrongAnswer,
};

/// The judge sends one board a run. The cases are the boards a
/// [`Filter`] accepts, in ascending order of their bits (cell (r, c) at bit
/// `4r + c`, set = black): by default all 65,536, so case `i` is board `i`.
#[derive(Clone, Debug)]
pub struct FlipCheck {
    pool: Pool,
}

impl FlipCheck {
    /// The boards `filter` accepts; an error when there are none.
    pub fn new(filter: Filter) -> Result<FlipCheck, GenError> {
        Ok(FlipCheck {
            pool: Pool::new(filter)?,
        })
    }

    fn board(&self, case: usize) -> Board {
        self.pool.get(case)
    }
}

impl Default for FlipCheck {
    /// All 65,536 boards.
    fn default() -> FlipCheck {
        FlipCheck {
            pool: Pool::new(Filter::default())
                .unwrap_or_else(|_| unreachable!("every board passes")),
        }
    }
}

impl Judge for FlipCheck {
    fn problem(&self) -> &'static Problem {
        &crate::flip::POJ_1753
    }

    fn case_count(&self) -> usize {
        self.pool.len()
    }

    fn arrangement(&self) -> Arrangement {
        Arrangement::Ascending
    }

    fn write_input(&self, cases: &[usize], out: &mut Vec<u8>) {
        for &case in cases {
            // Writing to a Vec cannot fail.
            let _ = write_board(out, self.board(case));
        }
    }

    fn tokens_per_answer(&self) -> usize {
        1
    }

    fn expected(&self, case: usize, _number: usize) -> String {
        answer(self.board(case))
    }

    fn judge_answer(&self, case: usize, _number: usize, answer: &[Token<'_>]) -> Judgement {
        let want = flip::rounds(self.board(case));
        let got = answer[0].text;
        let right = match want {
            Some(r) => got == r.to_string().as_bytes(),
            None => got == b"Impossible",
        };
        if right {
            return Judgement::Accepted;
        }
        Judgement::Rejected(wrong_rounds(got, want.map(i64::from)))
    }

    fn describe(&self, case: usize) -> CaseView {
        let board = self.board(case);
        CaseView {
            key: u64::from(board.bits()),
            title: format!("board {board:#}"),
            board: board.to_string().lines().map(str::to_owned).collect(),
        }
    }
}

/// What is wrong with `got`, a Flip answer that is not `want` (the fewest
/// rounds, `None` when impossible): one classification for the 4×4 check
/// and the check of other sizes.
pub(super) fn wrong_rounds(got: &[u8], want: Option<i64>) -> Fault {
    let shown = || format!("'{}'", super::show(got, 20));
    match (parse_int(got), want) {
        (Some(n), None) => Fault::new(&IMPOSSIBLE_ANSWERED_NUMBER, format!("answered {n}")),
        (Some(n), Some(w)) if n == w => {
            Fault::new(&kinds::NUMBER_FORM, format!("{} for {w}", shown()))
        }
        (Some(n), Some(w)) => Fault::new(
            if n > w {
                &TOO_MANY_ROUNDS
            } else {
                &TOO_FEW_ROUNDS
            },
            format!("expected {w}, answered {n}"),
        ),
        (None, Some(w)) if got == b"Impossible" => Fault::new(
            &POSSIBLE_ANSWERED_IMPOSSIBLE,
            format!("{w} round{}", if w == 1 { "" } else { "s" }),
        ),
        (None, _) if got.eq_ignore_ascii_case(b"impossible") => {
            Fault::new(&kinds::MISSPELT, format!("{} for 'Impossible'", shown()))
        }
        (None, _) => Fault::new(&kinds::NOT_AN_ANSWER, shown()),
    }
}
