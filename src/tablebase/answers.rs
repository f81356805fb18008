//! What answers the Flip boards of one shape, as the tablebase chose it
//! ([`Tablebase::flip_answers`](super::Tablebase::flip_answers)): a table
//! (embedded, a file, or the one file given) or the GF(2) solver, for a
//! front end that answers many boards of one shape (the command line's
//! `--size`, the judge inputs of `boardbase cases`).

use boardbase_tables::shape::Shape;

use super::error::Error;
use super::find::{Loaded, Origin};
use crate::euler::Position;
use crate::flip::Board;
use crate::lights::{Goal, Grid, Solver};
use crate::report::{EulerAnswer, FlipAnswer};
use crate::tablefile::{EulerTable, FlipTable, Puzzle, TableError};

/// The Flip answers of one shape, found by the tablebase: the table it
/// holds, or the GF(2) solver with the tablebase's nullity limit (checked:
/// the shape's nullity is within it).
#[derive(Debug)]
pub struct FlipAnswers {
    shape: Shape,
    table: Option<Loaded>,
    /// The solver when no table answers (looked up once, not per board).
    solver: Option<&'static Solver>,
    max_nullity: usize,
}

impl FlipAnswers {
    pub(super) fn new(shape: Shape, table: Option<Loaded>, max_nullity: usize) -> FlipAnswers {
        let solver = table.is_none().then(|| Solver::cached(shape));
        FlipAnswers {
            shape,
            table,
            solver,
            max_nullity,
        }
    }

    /// The board shape answered.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The table answering, with where it came from; `None` when the GF(2)
    /// solver answers.
    pub fn table(&self) -> Option<&Loaded> {
        self.table.as_ref()
    }

    /// The answers as a [`FlipView`], which borrows the table.
    pub fn view(&self) -> Result<FlipView<'_>, Error> {
        Ok(match (&self.table, self.solver) {
            (Some(loaded), _) => {
                FlipView::Table(loaded.table().as_flip().map_err(|e| self.probe_error(e))?)
            }
            (None, Some(solver)) => FlipView::Solver(solver, self.max_nullity),
            (None, None) => FlipView::Solver(Solver::cached(self.shape), self.max_nullity),
        })
    }

    /// The fewest rounds that make `board` one colour (the judge's
    /// answer), `None` when neither colour can be reached.
    pub fn rounds(&self, board: &Grid) -> Result<Option<usize>, Error> {
        self.view()?.rounds(board).map_err(|e| self.located(e))
    }

    /// Whether the embedded 4×4 tables answer, from their own arrays.
    pub(super) fn is_embedded(&self) -> bool {
        self.table
            .as_ref()
            .is_some_and(|t| t.origin == Origin::Embedded)
    }

    /// `board`'s whole answer (the object of `boardbase flip --format
    /// json`), numbered `case`.
    pub fn answer(&self, case: u64, board: &Grid) -> Result<FlipAnswer, Error> {
        if self.is_embedded() {
            let bits = table_bits(board)?;
            let board = u16::try_from(bits).map_err(|_| Error::OutsideShape(board.shape()))?;
            return Ok(FlipAnswer::new(case, Board::from_bits(board)));
        }
        self.view()?
            .answer(case, board)
            .map_err(|e| self.located(e))
    }

    /// A probe error of the table, said with where it came from.
    pub(super) fn probe_error(&self, error: TableError) -> Error {
        match &self.table {
            Some(loaded) => Error::Probe {
                origin: loaded.origin.clone(),
                error,
            },
            None => Error::Damaged(error),
        }
    }

    /// `error` with the table's origin, when it is the table's.
    fn located(&self, error: Error) -> Error {
        match error {
            Error::Damaged(e) => self.probe_error(e),
            e => e,
        }
    }
}

/// The Game of Euler's answers of one shape, from the table the tablebase
/// found ([`Tablebase::euler_answers`](super::Tablebase::euler_answers)):
/// the embedded 4×4 tables from their own arrays, any other table through
/// its columns.
#[derive(Debug)]
pub struct EulerAnswers<'a> {
    pub(super) found: &'a Loaded,
    /// The table's columns, resolved once; `None` for the embedded tables.
    pub(super) table: Option<EulerTable<'a>>,
}

impl<'a> EulerAnswers<'a> {
    /// The answers of `found`.
    pub fn new(found: &'a Loaded) -> Result<EulerAnswers<'a>, Error> {
        if found.puzzle() != Puzzle::Euler {
            let error = TableError::WrongPuzzle {
                expected: Puzzle::Euler,
                found: found.puzzle(),
            };
            return Err(probe_error(found, error));
        }
        let table = match found.origin {
            Origin::Embedded => None,
            _ => Some(
                found
                    .table()
                    .as_euler()
                    .map_err(|e| probe_error(found, e))?,
            ),
        };
        Ok(EulerAnswers { found, table })
    }

    /// `position`'s whole answer (the object of `boardbase euler --format
    /// json`), numbered `case`.
    pub fn answer(&self, case: u64, position: u64) -> Result<EulerAnswer, Error> {
        match &self.table {
            Some(table) => EulerAnswer::from_table(case, position, table)
                .map_err(|e| probe_error(self.found, e)),
            None => {
                let bits =
                    u16::try_from(position).map_err(|_| Error::OutsideShape(Shape::SQUARE4))?;
                Ok(EulerAnswer::new(case, Position::from_bits(bits)))
            }
        }
    }
}

/// A probe error of the table `found`, said with where it came from.
pub(super) fn probe_error(found: &Loaded, error: TableError) -> Error {
    Error::Probe {
        origin: found.origin.clone(),
        error,
    }
}

/// What answers Flip boards of one shape, borrowed: a Flip table, or the
/// GF(2) solver of the shape and the largest nullity it searches. The one
/// place that asks either for a board's rounds or answer.
#[derive(Clone, Copy, Debug)]
#[allow(clippy::large_enum_variant)] // one per run, never in a collection
pub enum FlipView<'a> {
    /// A Flip table (at most 25 cells).
    Table(FlipTable<'a>),
    /// The solver of the shape (any size up to 64×64), and the largest
    /// nullity it searches (24 by default, [`crate::lights::MAX_NULLITY`]).
    Solver(&'static Solver, usize),
}

impl<'a> FlipView<'a> {
    /// The board shape answered.
    pub fn shape(&self) -> Shape {
        match self {
            FlipView::Table(t) => t.shape(),
            FlipView::Solver(s, _) => s.shape(),
        }
    }

    /// The fewest rounds that make `board` one colour, `None` when
    /// impossible. A damaged table is [`Error::Damaged`]; a
    /// shape past the solver's nullity limit is
    /// [`Error::Lights`](Error::Lights).
    pub fn rounds(&self, board: &Grid) -> Result<Option<usize>, Error> {
        Ok(match self {
            FlipView::Table(t) => t
                .rounds(table_bits(board)?)
                .map_err(damaged)?
                .map(usize::from),
            FlipView::Solver(s, max) => {
                s.solve_within(board, Goal::Either, *max)?.map(|a| a.rounds)
            }
        })
    }

    /// `board`'s whole answer, numbered `case`.
    pub fn answer(&self, case: u64, board: &Grid) -> Result<FlipAnswer, Error> {
        Ok(match self {
            FlipView::Table(t) => {
                FlipAnswer::from_table(case, table_bits(board)?, t).map_err(damaged)?
            }
            FlipView::Solver(s, max) => {
                FlipAnswer::from_routes(case, board, &s.routes_within(board, *max)?)
            }
        })
    }
}

fn damaged(error: TableError) -> Error {
    Error::Damaged(error)
}

/// A board a table answers, as bits: it has at most 64 cells, since its
/// shape is the table's.
fn table_bits(board: &Grid) -> Result<u64, Error> {
    board
        .to_u64()
        .ok_or_else(|| Error::OutsideShape(board.shape()))
}
