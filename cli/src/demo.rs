//! `boardbase demo`: every implemented puzzle's published sample, solved.

use std::io::Write;

use boardbase::euler::Position;
use boardbase::flip::Board;

use super::{Failure, Output};

/// Flip Game samples: POJ 1753's and Timus 1060's.
const FLIP_SAMPLES: [&str; 2] = ["bwwb/bbwb/bwwb/bwww", "bwbw/wwww/bbwb/bwwb"];

/// Game of Euler sample: UVA 10536's three boards.
const EULER_SAMPLES: [&str; 3] = [
    "XXX./XXX./.XXX/.XXX",
    "XXXX/...X/XX.X/XX.X",
    "..../..../..../....",
];

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
    for (i, text) in FLIP_SAMPLES.iter().enumerate() {
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
    for (i, text) in EULER_SAMPLES.iter().enumerate() {
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
