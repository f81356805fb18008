//! Extended Lights Out (POJ 1222, UVA 1560) puzzles: 5×6 boards of lights.
//!
//! A 5×6 board has nullity 0: every board can be turned off, by exactly
//! one press set, so there is one category. Each puzzle is a random grid as
//! [`fliptile::random_grid`] draws it, on 5×6: five draws of `next_u64()`,
//! each masked to its 6 low bits (bit `c` = column `c`, 1 = on), row 0
//! first.

use std::io::{self, Write};

use super::{CasesError, Rng, fliptile};
use crate::lights::{self, Colour, Grid, LIGHTS_OUT, Solver};

/// One puzzle: see the [module documentation](self).
///
/// ```
/// use boardbase::cases::{Rng, lightsout};
///
/// let board = lightsout::board(&mut Rng::new(1));
/// assert_eq!((board.shape().rows(), board.shape().cols()), (5, 6));
/// let mut answer = Vec::new();
/// lightsout::write_answer(&mut answer, 1, &board)?;
/// assert!(answer.starts_with(b"PUZZLE #1\n"));
/// assert_eq!(answer.len(), 10 + 5 * 12); // the label, then 5 rows of 6 cells
/// # Ok::<(), boardbase::cases::CasesError>(())
/// ```
pub fn board(rng: &mut Rng) -> Grid {
    fliptile::random_grid(rng, LIGHTS_OUT)
}

/// Writes one puzzle as the judge's input shows it: 5 lines of six `0`/`1`
/// separated by single spaces (the count line is the caller's).
pub fn write_puzzle<W: Write + ?Sized>(out: &mut W, board: &Grid) -> io::Result<()> {
    lights::write_judge_rows(out, board)
}

/// The presses that turn every light of `board` off (always exactly one
/// set on 5×6).
pub fn presses(board: &Grid) -> Result<Grid, CasesError> {
    let answer = Solver::cached(LIGHTS_OUT).route(board, Colour::White)?;
    answer.map(|a| a.presses).ok_or_else(|| {
        CasesError::Size("a 5×6 board without a solution: the solver is wrong".to_owned())
    })
}

/// Writes the judge's expected output for puzzle `number` (from 1):
/// `PUZZLE #number`, then the presses as 5 lines of six `0`/`1` separated
/// by single spaces: exactly what `boardbase lightsout` prints.
pub fn write_answer<W: Write + ?Sized>(
    out: &mut W,
    number: u64,
    board: &Grid,
) -> Result<(), CasesError> {
    writeln!(out, "PUZZLE #{number}")?;
    lights::write_judge_rows(out, &presses(board)?)?;
    Ok(())
}
