//! `boardbase demo`: every implemented puzzle's published sample, solved.

use std::io::Write;

use boardbase::carcassonne;
use boardbase::catalogue::{Game, Problem};
use boardbase::euler::{self, Position};
use boardbase::flip;
use boardbase::lights::Grid;
use boardbase::tablebase::{EulerAnswers, Tablebase};
use boardbase::tables::shape::Shape;

use super::euler::write_euler_pretty;
use super::flip::write_flip_pretty;
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
    let tablebase = Tablebase::new();
    heading(out, &flip::GAME, &flip::POJ_1753)?;
    writeln!(
        out,
        "   (published samples: {} answers 4, Timus 1060 answers Impossible)\n",
        flip::POJ_1753.judge
    )?;
    let answers = tablebase.flip_answers(Shape::SQUARE4)?;
    for (i, text) in [FLIP_SAMPLE, TIMUS_SAMPLE].into_iter().enumerate() {
        let board: Grid = text.parse().map_err(|e| unreachable_sample(text, e))?;
        let answer = answers.answer(i as u64 + 1, &board)?;
        write_flip_pretty(out, &board, &answer)?;
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
    let found = tablebase.euler_answers(Shape::SQUARE4, |_| {})?;
    let answers = EulerAnswers::new(&found)?;
    for (i, rows) in boards.enumerate() {
        let text = &rows.join("\n");
        let position: Position = text.parse().map_err(|e| unreachable_sample(text, e))?;
        let bits = u64::from(position.bits());
        let answer = answers.answer(i as u64 + 1, bits)?;
        write_euler_pretty(out, Shape::SQUARE4, bits, &answer)?;
    }
    heading(out, &carcassonne::GAME, &carcassonne::HDU_4064)?;
    writeln!(
        out,
        "   (published sample: {} answers 4, 1, 1048576)\n",
        carcassonne::HDU_4064.judge
    )?;
    super::carcassonne::demo(out)?;
    super::fliptile::demo(out)?;
    other_sizes(&tablebase, out)?;
    Ok(())
}

/// The demo's other sizes: the empty 4×5 Game of Euler board, from a table
/// made in memory (milliseconds), and a 5×5 Flip board, by the GF(2)
/// solver, both as the tablebase answers them.
fn other_sizes(tablebase: &Tablebase, out: &mut Output) -> Result<(), Failure> {
    writeln!(
        out,
        "== Other board sizes (boardbase euler --size 4x5, boardbase flip --size 5x5) =="
    )?;
    writeln!(
        out,
        "   (Euler from a table made in memory; Flip by linear algebra over GF(2))\n"
    )?;
    let shape = Shape::new(4, 5).expect("4x5 is a shape");
    let found = tablebase.euler_answers(shape, |_| {})?;
    let answer = EulerAnswers::new(&found)?.answer(1, 0)?;
    write_euler_pretty(out, shape, 0, &answer)?;
    let board: Grid =
        "wwbww/wbbbw/bbwbb/wbbbw/wwbww"
            .parse()
            .map_err(|e: boardbase::error::ParseError| {
                Failure::Output(std::io::Error::other(e.to_string()))
            })?;
    let answer = tablebase.flip_answers(board.shape())?.answer(1, &board)?;
    write_flip_pretty(out, &board, &answer)?;
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
