//! Flip Game and Game of Euler for `check`, of any board size: the boards
//! `boardbase cases flip|euler` draws, with the answers of the table that
//! answers them (the embedded 4×4 tables, a file, one made in memory) or
//! of the GF(2) solver. On 4×4 the cases are every eligible board, in
//! ascending order of their bits, whatever table answers; on other sizes
//! the boards drawn from a seed.

use std::io::Write;

use super::euler::{LOSING_CALLED_WINNING, WINNING_CALLED_LOSING};
use super::{Arrangement, CaseView, Check, Fault, Judgement, Token, kinds};
use crate::cases::CasesError;
use crate::cases::sized::{SizedAnswer, SizedCases};
use crate::catalogue::entry::Problem;
use crate::lights::Grid;
use crate::tables::shape::Shape;

/// Which puzzle's judge the boards are sent as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SizedPuzzle {
    /// Flip Game's format: one board a run, no count.
    Flip,
    /// The Game of Euler's: a count, then the boards, all in one run.
    Euler,
}

/// Flip or Euler boards of one shape, with their answers: every eligible
/// 4×4 board in ascending order of its bits (case `i` is the `i`-th; by
/// default all 65,536 Flip boards, so case `i` is board `i`, and the
/// 65,535 open Euler positions), or on other shapes the boards drawn as
/// `cases --size` draws them (case `i` is the `i`-th drawn).
///
/// ```
/// use boardbase::cases::{flip, sized::{SizedAnswers, SizedFilter}};
/// use boardbase::check::{Check, SizedCheck};
/// use boardbase::tables::shape::Shape;
/// use boardbase::tablebase::Tablebase;
/// use boardbase::tablefile::Puzzle;
///
/// // Every 4×4 board, answered by the embedded table.
/// let answers = SizedAnswers::new(&Tablebase::new(), Puzzle::Flip, Shape::SQUARE4)?;
/// let check = SizedCheck::new(&answers.cases(SizedFilter::Flip(flip::Filter::default()))?, 0, 0)?;
/// assert_eq!(check.case_count(), 65_536);
/// // Board 0 (all white) takes no rounds.
/// assert_eq!(check.expected(0, 1), "0");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct SizedCheck {
    puzzle: SizedPuzzle,
    shape: Shape,
    boards: Boards,
    answers: Vec<SizedAnswer>,
}

/// The boards of a check, kept small: the program is started from this
/// process, and its peak memory counts what the parent held when it
/// started.
#[derive(Clone, Debug)]
enum Boards {
    /// Every eligible board's bits (4×4).
    Listed(Vec<u64>),
    /// The boards drawn from a seed.
    Drawn(Vec<Grid>),
}

impl SizedCheck {
    /// The cases of `cases`: on 4×4 every eligible board (`count` and
    /// `seed` unused: `check` samples them itself), on other shapes
    /// `count` boards drawn from `seed`, the boards and answers of
    /// `boardbase cases flip|euler --size RxC --cases COUNT --seed SEED
    /// --answers FILE`.
    pub fn new(cases: &SizedCases<'_>, count: usize, seed: u64) -> Result<Self, CasesError> {
        let puzzle = match cases {
            SizedCases::Flip(_) => SizedPuzzle::Flip,
            SizedCases::Euler(_) => SizedPuzzle::Euler,
        };
        let shape = cases.shape();
        let (boards, answers) = match cases.listed() {
            Some(bits) => {
                let answers = bits
                    .iter()
                    .map(|&b| {
                        let board = Grid::from_u64(shape, b)
                            .map_err(|e| CasesError::Size(e.to_string()))?;
                        cases.answer(&board)
                    })
                    .collect::<Result<_, CasesError>>()?;
                (Boards::Listed(bits), answers)
            }
            None => {
                let grids = cases.draw(count, seed)?;
                let answers = grids
                    .iter()
                    .map(|g| cases.answer(g))
                    .collect::<Result<_, _>>()?;
                (Boards::Drawn(grids), answers)
            }
        };
        Ok(SizedCheck {
            puzzle,
            shape,
            boards,
            answers,
        })
    }

    fn drawn(&self) -> bool {
        matches!(self.boards, Boards::Drawn(_))
    }

    fn answer(&self, case: usize) -> String {
        self.answers
            .get(case)
            .map_or_else(String::new, SizedAnswer::text)
    }

    fn moves_left(&self, case: usize) -> Option<u8> {
        match self.answers.get(case) {
            Some(SizedAnswer::Outcome(_, left)) => *left,
            _ => None,
        }
    }

    /// The board's bits, when it has at most 64 cells.
    fn bits(&self, case: usize) -> Option<u64> {
        match &self.boards {
            Boards::Listed(bits) => bits.get(case).copied(),
            Boards::Drawn(grids) => grids.get(case).and_then(Grid::to_u64),
        }
    }

    /// Appends the board's rows as the judge's input writes them.
    fn write_board(&self, case: usize, out: &mut Vec<u8>) {
        let rows: Vec<u64> = match &self.boards {
            Boards::Listed(bits) => match bits.get(case) {
                Some(&b) => (0..self.shape.rows())
                    .map(|r| self.shape.row_bits(b, r))
                    .collect(),
                None => return,
            },
            Boards::Drawn(grids) => match grids.get(case) {
                Some(g) => g.rows().to_vec(),
                None => return,
            },
        };
        let (zero, one) = match self.puzzle {
            SizedPuzzle::Flip => (b'w', b'b'),
            SizedPuzzle::Euler => (b'.', b'X'),
        };
        for bits in rows {
            out.extend((0..self.shape.cols()).map(|c| if bits >> c & 1 == 1 { one } else { zero }));
            out.push(b'\n');
        }
    }

    /// The board's lines.
    fn lines(&self, case: usize) -> Vec<String> {
        let mut text = Vec::new();
        self.write_board(case, &mut text);
        String::from_utf8_lossy(&text)
            .lines()
            .map(str::to_owned)
            .collect()
    }
}

/// `3 moves left`.
fn moves_left(n: u8) -> String {
    format!("{n} move{} left", if n == 1 { "" } else { "s" })
}

impl Check for SizedCheck {
    fn problem(&self) -> &'static Problem {
        match self.puzzle {
            SizedPuzzle::Flip => &crate::flip::POJ_1753,
            SizedPuzzle::Euler => &crate::euler::UVA_10536,
        }
    }

    fn case_count(&self) -> usize {
        self.answers.len()
    }

    fn is_drawn(&self) -> bool {
        self.drawn()
    }

    fn arrangement(&self) -> Arrangement {
        match self.puzzle {
            SizedPuzzle::Flip => Arrangement::HardFirst,
            SizedPuzzle::Euler => Arrangement::Shuffled,
        }
    }

    /// Flip: the boards of more rounds are harder, impossible ones the
    /// hardest (a search cut short calls a board impossible, or finds too
    /// many rounds, on the boards far from both colours).
    fn hardness(&self, case: usize) -> usize {
        match self.answers.get(case) {
            Some(SizedAnswer::Rounds(None)) => usize::MAX,
            Some(SizedAnswer::Rounds(Some(rounds))) => usize::from(*rounds),
            _ => 0,
        }
    }

    fn write_input(&self, cases: &[usize], out: &mut Vec<u8>) {
        // Writing to a Vec cannot fail.
        if self.puzzle == SizedPuzzle::Euler {
            let _ = writeln!(out, "{}", cases.len());
        }
        for &case in cases {
            if self.puzzle == SizedPuzzle::Euler {
                out.push(b'\n');
            }
            self.write_board(case, out);
        }
    }

    fn tokens_per_answer(&self) -> usize {
        1
    }

    fn expected(&self, case: usize, _number: usize) -> String {
        self.answer(case)
    }

    fn judge_answer(&self, case: usize, _number: usize, answer: &[Token<'_>]) -> Judgement {
        let want = self.answer(case);
        let want = want.as_str();
        let got = answer[0].text;
        if got == want.as_bytes() {
            return Judgement::Accepted;
        }
        let shown = || format!("'{}'", super::show(got, 20));
        let fault = match self.puzzle {
            SizedPuzzle::Flip => super::flip::wrong_rounds(got, want.parse::<i64>().ok()),
            SizedPuzzle::Euler => {
                // The moves left when the table holds them, else the answer.
                let left = || {
                    self.moves_left(case)
                        .map_or_else(|| want.to_owned(), moves_left)
                };
                match (got, want) {
                    (b"WINNING", "LOSING") => Fault::new(&LOSING_CALLED_WINNING, left()),
                    (b"LOSING", "WINNING") => Fault::new(&WINNING_CALLED_LOSING, left()),
                    _ if got.eq_ignore_ascii_case(b"WINNING") => {
                        Fault::new(&kinds::MISSPELT, format!("{} for 'WINNING'", shown()))
                    }
                    _ if got.eq_ignore_ascii_case(b"LOSING") => {
                        Fault::new(&kinds::MISSPELT, format!("{} for 'LOSING'", shown()))
                    }
                    _ => Fault::new(&kinds::NOT_AN_ANSWER, shown()),
                }
            }
        };
        Judgement::Rejected(fault)
    }

    fn describe(&self, case: usize) -> CaseView {
        let board = self.lines(case);
        let rows = board.join("/");
        let bits = self.bits(case);
        let what = match self.puzzle {
            SizedPuzzle::Flip => "board",
            SizedPuzzle::Euler => "position",
        };
        // A board of every one is named by its rows (and its bits); a
        // board drawn also by its shape (and its number).
        let title = match (self.drawn(), self.puzzle) {
            (true, _) => format!("{} {what} {rows} ({})", self.shape, self.answer(case)),
            (false, SizedPuzzle::Flip) => format!("board {rows}"),
            (false, SizedPuzzle::Euler) => match self.moves_left(case) {
                Some(n) => format!(
                    "position {rows} ({}, {} with perfect play)",
                    self.answer(case),
                    moves_left(n)
                ),
                None => format!("position {rows} ({})", self.answer(case)),
            },
        };
        CaseView {
            key: match (self.drawn(), bits) {
                (false, Some(bits)) => bits,
                _ => case as u64,
            },
            title,
            board,
        }
    }
}
