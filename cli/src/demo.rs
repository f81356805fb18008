//! `boardbase demo`: every implemented puzzle's published sample, solved.

use std::io::Write;

use boardbase::euler::Position;
use boardbase::flip::Board;

use super::{Failure, Output};

/// POJ 1753's sample, as `examples/` holds it (the binary embeds it).
const FLIP_SAMPLE: &str = include_str!("../../examples/flip-sample.txt");

/// Timus 1060's sample, whose answer is Impossible (no file of
/// `examples/`: it is one board, not a judge's input of its own).
const TIMUS_SAMPLE: &str = "bwbw/wwww/bbwb/bwwb";

/// UVA 10536's sample, as `examples/` holds it: a case count, then three
/// boards, each after a blank line.
const EULER_SAMPLE: &str = include_str!("../../examples/euler-sample.txt");

/// Runs `boardbase demo`.
pub fn run(out: &mut Output) -> Result<(), Failure> {
    writeln!(
        out,
        "== Flip Game (POJ 1753): fewest rounds to a uniform board =="
    )?;
    writeln!(
        out,
        "   (published samples: POJ 1753 answers 4, Timus 1060 answers Impossible)\n"
    )?;
    for (i, text) in [FLIP_SAMPLE, TIMUS_SAMPLE].into_iter().enumerate() {
        let board: Board = text.parse().map_err(|e| unreachable_sample(text, e))?;
        super::flip::write_pretty(out, i as u64 + 1, board)?;
    }
    writeln!(
        out,
        "== Game of Euler (UVA 10536): covering the last square loses =="
    )?;
    writeln!(
        out,
        "   (published sample: UVA 10536 answers LOSING, WINNING, LOSING)\n"
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
    writeln!(
        out,
        "== Carcassonne (HDU 4064): tile rotations that match every shared edge =="
    )?;
    writeln!(
        out,
        "   (published sample: HDU 4064 answers 4, 1, 1048576)\n"
    )?;
    super::carcassonne::demo(out)?;
    super::fliptile::demo(out)?;
    super::sized::demo(out)?;
    Ok(())
}

fn unreachable_sample(text: &str, e: boardbase::error::ParseError) -> Failure {
    Failure::Output(std::io::Error::other(format!(
        "built-in sample {text:?} does not parse: {e}"
    )))
}
