//! `boardbase demo`: every implemented puzzle's published sample, solved.

use std::io::Write;

use boardbase::carcassonne;
use boardbase::catalogue::{Game, Problem};
use boardbase::euler::{self, Position};
use boardbase::flip::{self, Board};

use super::{Failure, Output};

/// Flip Game's sample, as `examples/` holds it (the binary embeds it).
const FLIP_SAMPLE: &str = include_str!("../../examples/flip-sample.txt");

/// Timus 1060's sample, whose answer is Impossible (no file of
/// `examples/`: it is one board, not a judge's input of its own).
const TIMUS_SAMPLE: &str = "bwbw/wwww/bbwb/bwwb";

/// The Game of Euler's sample, as `examples/` holds it: a case count, then three
/// boards, each after a blank line.
const EULER_SAMPLE: &str = include_str!("../../examples/euler-sample.txt");

/// Runs `boardbase demo`.
pub fn run(out: &mut Output) -> Result<(), Failure> {
    heading(out, &flip::GAME, &flip::POJ_1753)?;
    writeln!(
        out,
        "   (published samples: {} answers 4, Timus 1060 answers Impossible)\n",
        flip::POJ_1753.judge
    )?;
    for (i, text) in [FLIP_SAMPLE, TIMUS_SAMPLE].into_iter().enumerate() {
        let board: Board = text.parse().map_err(|e| unreachable_sample(text, e))?;
        super::flip::write_pretty(out, i as u64 + 1, board)?;
    }
    heading(out, &euler::GAME, &euler::UVA_10536)?;
    writeln!(
        out,
        "   (published sample: {} answers LOSING, WINNING, LOSING)\n",
        euler::UVA_10536.judge
    )?;
    // The boards: the blocks of lines after the count, between blank lines.
    let lines: Vec<&str> = EULER_SAMPLE.lines().skip(1).map(str::trim).collect();
    let boards = lines
        .split(|line| line.is_empty())
        .filter(|b| !b.is_empty());
    for (i, rows) in boards.enumerate() {
        let text = &rows.join("\n");
        let position: Position = text.parse().map_err(|e| unreachable_sample(text, e))?;
        super::euler::write_pretty(out, i as u64 + 1, position)?;
    }
    heading(out, &carcassonne::GAME, &carcassonne::HDU_4064)?;
    writeln!(
        out,
        "   (published sample: {} answers 4, 1, 1048576)\n",
        carcassonne::HDU_4064.judge
    )?;
    super::carcassonne::demo(out)?;
    super::fliptile::demo(out)?;
    super::sized::demo(out)?;
    Ok(())
}

/// A game's heading, from the catalogue: its title, the judge's problem and
/// the question.
fn heading(out: &mut Output, game: &Game, problem: &Problem) -> Result<(), Failure> {
    writeln!(
        out,
        "== {} ({}): {} ==",
        game.title, problem.judge, game.question
    )?;
    Ok(())
}

fn unreachable_sample(text: &str, e: boardbase::error::ParseError) -> Failure {
    Failure::Output(std::io::Error::other(format!(
        "built-in sample {text:?} does not parse: {e}"
    )))
}
