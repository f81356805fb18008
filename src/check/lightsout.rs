//! Extended Lights Out (POJ 1222, UVA 1560) for `check`: chosen and
//! generated 5×6 puzzles, all in one run (the count is not bounded).

use std::io::Write;

use super::{Arrangement, CaseView, Check, Fault, FaultKind, Judgement, Token, Verdict, kinds};
use crate::cases::{CasesError, Rng, lightsout};
use crate::catalogue::entry::Problem;
use crate::lights::{Grid, LIGHTS_OUT};

/// Presses after which some light is still on.
pub static PRESSES_DO_NOT_CLEAR: FaultKind = FaultKind {
    id: "presses_do_not_clear",
    title: "presses that leave lights on",
    verdict: Verdict::WrongAnswer,
};
/// Not `PUZZLE #m` before the presses.
pub static WRONG_PUZZLE_LABEL: FaultKind = FaultKind {
    id: "wrong_puzzle_label",
    title: "not the label 'PUZZLE #m'",
    verdict: Verdict::PresentationError,
};

/// Tokens of one answer: `PUZZLE`, `#m`, then 30 cells.
const TOKENS: usize = 2 + 30;

/// One puzzle and its presses.
#[derive(Clone, Debug)]
struct Case {
    board: Grid,
    presses: Grid,
}

/// The puzzles: all lights off; each of the 30 with one light on (the
/// columns of the inverse: a solution right on them and linear is right
/// everywhere); all on; then `random` puzzles drawn from `Rng::new(seed)`
/// as [`lightsout::board`] draws them (`boardbase cases lightsout`). Expected
/// presses come from [`crate::lights`]: every 5×6 board has exactly one
/// press set. POJ 1222 does not bound the count, so every puzzle goes in one
/// run, shuffled.
#[derive(Clone, Debug)]
pub struct LightsOutCheck {
    cases: Vec<Case>,
    seed: u64,
    random: usize,
}

impl LightsOutCheck {
    /// Random puzzles by default: 2,032 puzzles in all.
    pub const RANDOM: usize = 2_000;

    /// The chosen puzzles, then `random` drawn ones.
    pub fn new(seed: u64, random: usize) -> Result<Self, CasesError> {
        let mut boards = vec![Grid::new(LIGHTS_OUT)];
        for cell in 0..30 {
            let mut one = Grid::new(LIGHTS_OUT);
            one.set(cell / 6, cell % 6, true);
            boards.push(one);
        }
        boards.push(Grid::filled(LIGHTS_OUT));
        let mut rng = Rng::new(seed);
        boards.extend((0..random).map(|_| lightsout::board(&mut rng)));
        let cases = boards
            .into_iter()
            .map(|board| {
                let presses = lightsout::presses(&board)?;
                Ok(Case { board, presses })
            })
            .collect::<Result<_, CasesError>>()?;
        Ok(LightsOutCheck {
            cases,
            seed,
            random,
        })
    }

    /// The sub-group of a wrong answer.
    fn class(&self, case: usize) -> &'static str {
        match case {
            0 => "all lights off",
            1..=30 => "one light on",
            31 => "all lights on",
            _ => "random puzzles",
        }
    }

    /// What kind of puzzle `case` is, in words.
    fn kind(&self, case: usize) -> String {
        match case {
            0 => "all lights off".to_owned(),
            1..=30 => {
                let cell = case - 1;
                format!(
                    "one light on (row {}, column {})",
                    cell / 6 + 1,
                    cell % 6 + 1
                )
            }
            31 => "all lights on".to_owned(),
            _ => format!("random puzzle {}", case - 31),
        }
    }
}

/// A grid's rows as the judge prints them, `0`/`1` separated by spaces.
fn judge_rows(grid: &Grid) -> Vec<String> {
    grid.rows()
        .iter()
        .map(|&bits| {
            (0..6)
                .map(|c| if bits >> c & 1 == 1 { "1" } else { "0" })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}

impl Check for LightsOutCheck {
    fn problem(&self) -> &'static Problem {
        &crate::lights::POJ_1222
    }

    fn drawn(&self) -> Option<String> {
        Some(format!(
            "32 chosen, {} drawn from seed {}",
            super::thousands(self.random),
            self.seed
        ))
    }

    fn case_count(&self) -> usize {
        self.cases.len()
    }

    fn arrangement(&self) -> Arrangement {
        Arrangement::Shuffled
    }

    fn write_input(&self, cases: &[usize], out: &mut Vec<u8>) {
        // Writing to a Vec cannot fail.
        let _ = writeln!(out, "{}", cases.len());
        for &case in cases {
            let _ = lightsout::write_puzzle(out, &self.cases[case].board);
        }
    }

    fn tokens_per_answer(&self) -> usize {
        TOKENS
    }

    fn expected(&self, case: usize, number: usize) -> String {
        let mut lines = vec![format!("PUZZLE #{number}")];
        lines.extend(judge_rows(&self.cases[case].presses));
        lines.join("\n")
    }

    fn judge_answer(&self, case: usize, number: usize, answer: &[Token<'_>]) -> Judgement {
        let (word, label) = (answer[0].text, answer[1].text);
        if (word, label) != (&b"PUZZLE"[..], format!("#{number}").as_bytes()) {
            let form = (super::label_form(word), super::label_form(label));
            let detail = if word == b"PUZZLE" && form.1 == "#k" {
                "the wrong puzzle number".to_owned()
            } else {
                format!("'{} {}' for 'PUZZLE #m'", form.0, form.1)
            };
            return Judgement::Rejected(Fault::new(&WRONG_PUZZLE_LABEL, detail));
        }
        let cells = &answer[2..];
        if let Some(t) = cells.iter().find(|t| t.text != b"0" && t.text != b"1") {
            let run_together = t.text.len() > 1 && t.text.iter().all(|b| matches!(b, b'0' | b'1'));
            let detail = if run_together {
                "cells run together (the judge separates them by spaces)".to_owned()
            } else {
                format!("'{}'", super::show(t.text, 20))
            };
            return Judgement::Rejected(Fault::new(&kinds::NOT_AN_ANSWER, detail));
        }
        let mut presses = Grid::new(LIGHTS_OUT);
        for (i, t) in cells.iter().enumerate() {
            presses.set(i / 6, i % 6, t.text == b"1");
        }
        if presses == self.cases[case].presses {
            return Judgement::Accepted;
        }
        // The press set is unique: any other leaves lights on.
        Judgement::Rejected(Fault::new(&PRESSES_DO_NOT_CLEAR, self.class(case)))
    }

    /// The label, then the 30 cells in 5 rows.
    fn received(&self, _case: usize, answer: &[Token<'_>]) -> String {
        let words: Vec<String> = answer.iter().map(|t| super::show(t.text, 40)).collect();
        let mut lines = vec![words[..2].join(" ")];
        lines.extend(words[2..].chunks(6).map(|row| row.join(" ")));
        lines.join("\n")
    }

    fn describe(&self, case: usize) -> CaseView {
        let board = &self.cases[case].board;
        CaseView {
            key: board.to_u64().unwrap_or_default(),
            title: self.kind(case),
            board: judge_rows(board),
        }
    }
}
