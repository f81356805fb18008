//! Flip Game and Game of Euler of other board sizes for `check`: the
//! boards `boardbase cases flip|euler --size RxC` draws for a seed, with
//! the answers of the table (a file, or made in memory) or of the GF(2)
//! solver that answers them there.

use std::io::Write;

use super::euler::{LOSING_CALLED_WINNING, WINNING_CALLED_LOSING};
use super::{Arrangement, CaseView, Fault, Judge, Judgement, Token, kinds};
use crate::cases::GenError;
use crate::cases::sized::SizedCases;
use crate::catalogue::entry::Problem;
use crate::solvers::shape::Shape;

/// Which puzzle's judge the boards are sent as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SizedPuzzle {
    /// Flip Game's format: one board a run, no count.
    Flip,
    /// The Game of Euler's: a count, then the boards, all in one run.
    Euler,
}

/// Flip or Euler boards of one shape, drawn as `cases --size` draws them,
/// with their answers. Case `i` is the `i`-th board drawn.
#[derive(Clone, Debug)]
pub struct SizedCheck {
    puzzle: SizedPuzzle,
    shape: Shape,
    /// Each board's lines, as the judge's input writes them.
    boards: Vec<Vec<String>>,
    /// Each board's answer, as the judge prints it.
    answers: Vec<String>,
}

/// Input and answers written by a `cases` writer, as text.
fn written(
    write: impl FnOnce(&mut Vec<u8>, &mut Vec<u8>) -> Result<(), GenError>,
) -> Result<(String, Vec<String>), GenError> {
    let (mut input, mut answers) = (Vec::new(), Vec::new());
    write(&mut input, &mut answers)?;
    let text = |bytes: Vec<u8>| String::from_utf8_lossy(&bytes).into_owned();
    let answers = text(answers).lines().map(str::to_owned).collect();
    Ok((text(input), answers))
}

impl SizedCheck {
    /// `count` boards of `cases`' shape drawn from `seed`: the boards and
    /// answers of `boardbase cases flip|euler --size RxC --cases COUNT
    /// --seed SEED --answers FILE`.
    pub fn new(
        cases: &SizedCases<'_>,
        shape: Shape,
        count: usize,
        seed: u64,
    ) -> Result<Self, GenError> {
        let (input, answers) = written(|input, answers| {
            cases.write(count as u64, seed, input, Some(answers), &mut |_| {})
        })?;
        let (puzzle, lines): (SizedPuzzle, Vec<String>) = match cases {
            // The boards one after another.
            SizedCases::Flip(_) => (
                SizedPuzzle::Flip,
                input.lines().map(str::to_owned).collect(),
            ),
            // The count, then each position after a blank line.
            SizedCases::Euler(_) => (
                SizedPuzzle::Euler,
                input
                    .lines()
                    .skip(1)
                    .filter(|l| !l.is_empty())
                    .map(str::to_owned)
                    .collect(),
            ),
        };
        let boards = lines.chunks(shape.rows()).map(<[String]>::to_vec).collect();
        Ok(SizedCheck {
            puzzle,
            shape,
            boards,
            answers,
        })
    }

    fn answer(&self, case: usize) -> &str {
        self.answers.get(case).map_or("", String::as_str)
    }
}

impl Judge for SizedCheck {
    fn problem(&self) -> &'static Problem {
        match self.puzzle {
            SizedPuzzle::Flip => &crate::flip::POJ_1753,
            SizedPuzzle::Euler => &crate::euler::UVA_10536,
        }
    }

    fn case_count(&self) -> usize {
        self.boards.len()
    }

    fn is_drawn(&self) -> bool {
        true
    }

    fn arrangement(&self) -> Arrangement {
        match self.puzzle {
            SizedPuzzle::Flip => Arrangement::Ascending,
            SizedPuzzle::Euler => Arrangement::Shuffled,
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
            for line in &self.boards[case] {
                let _ = writeln!(out, "{line}");
            }
        }
    }

    fn tokens_per_answer(&self) -> usize {
        1
    }

    fn expected(&self, case: usize, _number: usize) -> String {
        self.answer(case).to_owned()
    }

    fn judge_answer(&self, case: usize, _number: usize, answer: &[Token<'_>]) -> Judgement {
        let want = self.answer(case);
        let got = answer[0].text;
        if got == want.as_bytes() {
            return Judgement::Accepted;
        }
        let shown = || format!("'{}'", super::show(got, 20));
        let fault = match self.puzzle {
            SizedPuzzle::Flip => super::flip::wrong_rounds(got, want.parse::<i64>().ok()),
            SizedPuzzle::Euler => match (got, want) {
                (b"WINNING", "LOSING") => Fault::new(&LOSING_CALLED_WINNING, "LOSING"),
                (b"LOSING", "WINNING") => Fault::new(&WINNING_CALLED_LOSING, "WINNING"),
                _ if got.eq_ignore_ascii_case(b"WINNING")
                    || got.eq_ignore_ascii_case(b"LOSING") =>
                {
                    Fault::new(&kinds::MISSPELT, format!("{} for '{want}'", shown()))
                }
                _ => Fault::new(&kinds::NOT_AN_ANSWER, shown()),
            },
        };
        Judgement::Rejected(fault)
    }

    fn describe(&self, case: usize) -> CaseView {
        let board = self.boards.get(case).cloned().unwrap_or_default();
        let what = match self.puzzle {
            SizedPuzzle::Flip => "board",
            SizedPuzzle::Euler => "position",
        };
        CaseView {
            key: case as u64,
            title: format!(
                "{} {what} {} ({})",
                self.shape,
                board.join("/"),
                self.answer(case)
            ),
            board,
        }
    }
}
