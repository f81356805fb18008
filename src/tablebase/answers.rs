//! What answers the Flip boards of one shape, as the tablebase chose it
//! ([`Tablebase::flip_answers`](super::Tablebase::flip_answers)): a table
//! (embedded, a file, or the one file given) or the GF(2) solver, for a
//! front end that answers many boards of one shape (the command line's
//! `--size`, the judge inputs of `boardbase cases`).

use boardbase_solvers::shape::Shape;

use super::error::{Error, TablebaseError};
use super::find::Loaded;
use crate::lights::{Goal, Grid, Solver};
use crate::report::FlipAnswer;
use crate::tablefile::{FlipTable, ProbeError};

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
                FlipView::Table(loaded.table.as_flip().map_err(|e| self.probe(e))?)
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

    /// `board`'s whole answer (the object of `boardbase flip --format
    /// json`), numbered `case`.
    pub fn answer(&self, case: u64, board: &Grid) -> Result<FlipAnswer, Error> {
        self.view()?
            .answer(case, board)
            .map_err(|e| self.located(e))
    }

    /// A probe error of the table, said with where it came from.
    fn probe(&self, error: ProbeError) -> Error {
        match &self.table {
            Some(loaded) => TablebaseError::Probe {
                origin: loaded.origin.clone(),
                error,
            }
            .into(),
            None => TablebaseError::Damaged(error).into(),
        }
    }

    /// `error` with the table's origin, when it is the table's.
    fn located(&self, error: Error) -> Error {
        match error {
            Error::Tablebase(TablebaseError::Damaged(e)) => self.probe(e),
            e => e,
        }
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
    /// impossible. A damaged table is [`TablebaseError::Damaged`]; a
    /// shape past the solver's nullity limit is
    /// [`QuestionError::Lights`](super::QuestionError::Lights).
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

fn damaged(error: ProbeError) -> Error {
    TablebaseError::Damaged(error).into()
}

/// A board a table answers, as bits: it has at most 64 cells, since its
/// shape is the table's.
fn table_bits(board: &Grid) -> Result<u64, Error> {
    board
        .to_u64()
        .ok_or_else(|| super::QuestionError::OutsideShape(board.shape()).into())
}
