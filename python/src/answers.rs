//! The answers of `Tablebase.flip` and `Tablebase.euler` as the Python
//! layer reads them: the board's answer (its value: rounds, or who wins
//! and the moves left) is worked out at once, while the rest of the
//! lookup (every move valued, each with its board) is made, and turned
//! into Python objects, only when asked for. A loop that reads one number
//! a board then pays for that number, not for a lookup it throws away.

use std::sync::Arc;

use boardbase::report::{EulerAnswer, FlipAnswer};
use boardbase::tablebase::{
    self, EulerSource, FlipLookup, FlipSource, Tablebase, euler_lookup, flip_lookup,
};
use boardbase::tablefile::Puzzle;
use pyo3::prelude::*;

/// Where the rest of a Flip lookup comes from.
enum FlipRest {
    /// A table: the lookup is made from it when asked for (the
    /// tablebase says where a damaged table came from).
    Table {
        tablebase: Arc<Tablebase>,
        source: Arc<dyn FlipSource>,
        board: u64,
    },
    /// The GF(2) solver, which values every press as it answers: the
    /// whole lookup, made with the answer.
    Made(Box<FlipLookup>),
}

/// A Flip board's answer (`boardbase.FlipAnswer` holds one): the answer's
/// fields at hand, [`PyFlipLookup::lookup`] the whole lookup.
#[pyclass(name = "FlipLookup", module = "boardbase._boardbase", frozen)]
pub struct PyFlipLookup {
    answer: FlipAnswer,
    rest: FlipRest,
}

impl PyFlipLookup {
    /// The answer of `board` from a table of `tablebase`, the rest made
    /// when asked for.
    pub fn of_table(
        tablebase: Arc<Tablebase>,
        source: Arc<dyn FlipSource>,
        board: u64,
    ) -> Result<Self, tablebase::Error> {
        let answer = source
            .answer(board)
            .map_err(|e| tablebase.damaged(Puzzle::Flip, source.shape(), e))?;
        Ok(PyFlipLookup {
            answer,
            rest: FlipRest::Table {
                tablebase,
                source,
                board,
            },
        })
    }

    /// A lookup made whole.
    pub fn made(lookup: FlipLookup) -> Self {
        PyFlipLookup {
            answer: lookup.answer.clone(),
            rest: FlipRest::Made(Box::new(lookup)),
        }
    }
}

#[pymethods]
impl PyFlipLookup {
    /// The board, rows separated by `/`.
    #[getter]
    fn board(&self) -> &str {
        &self.answer.board
    }

    /// The judge's answer: the rounds, or `Impossible`.
    #[getter]
    fn answer(&self) -> &str {
        &self.answer.answer
    }

    /// Whether a uniform board can be reached.
    #[getter]
    fn solvable(&self) -> bool {
        self.answer.solvable
    }

    /// Fewest rounds to a uniform board (`None` when impossible).
    #[getter]
    fn rounds(&self) -> Option<u16> {
        self.answer.rounds
    }

    /// The colour reached in fewest rounds (`None` when impossible).
    #[getter]
    fn colour(&self) -> Option<String> {
        self.answer.colour.map(|c| c.to_string())
    }

    /// How many distinct press sets reach a uniform board in the fewest
    /// rounds (both colours counted when they tie; 0 when impossible).
    #[getter]
    fn optimal_sets(&self) -> u64 {
        self.answer.optimal_sets
    }

    /// The answer as a dict in the JSON vocabulary (the object of
    /// `boardbase flip --format json`): the lookup without its moves.
    fn report(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        crate::to_python(py, &self.answer)
    }

    /// The whole lookup as a dict in the JSON vocabulary (`/api/v1/flip`'s
    /// object): made now from a table, with the GIL released.
    fn lookup(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let made;
        let lookup = match &self.rest {
            FlipRest::Made(lookup) => &**lookup,
            FlipRest::Table {
                tablebase,
                source,
                board,
            } => {
                let shape = source.shape();
                let found = crate::run(py, || {
                    flip_lookup(&**source, *board)
                        .map_err(|e| tablebase.damaged(Puzzle::Flip, shape, e))
                })?;
                made = found.map_err(|e| crate::answer_error(py, shape, e))?;
                &made
            }
        };
        crate::to_python(py, lookup)
    }
}

/// A Game of Euler position's answer (`boardbase.EulerAnswer` holds one):
/// the answer's fields at hand, [`PyEulerLookup::lookup`] the whole lookup
/// (every legal move valued), made when asked for.
#[pyclass(name = "EulerLookup", module = "boardbase._boardbase", frozen)]
pub struct PyEulerLookup {
    answer: EulerAnswer,
    tablebase: Arc<Tablebase>,
    source: Arc<dyn EulerSource>,
    position: u64,
}

impl PyEulerLookup {
    /// The answer of `position` from `source`, a table of `tablebase`,
    /// the rest made when asked for.
    pub fn new(
        tablebase: Arc<Tablebase>,
        source: Arc<dyn EulerSource>,
        position: u64,
    ) -> Result<Self, tablebase::Error> {
        let answer = source
            .answer(position)
            .map_err(|e| tablebase.damaged(Puzzle::Euler, source.shape(), e))?;
        Ok(PyEulerLookup {
            answer,
            tablebase,
            source,
            position,
        })
    }
}

#[pymethods]
impl PyEulerLookup {
    /// The position, rows separated by `/`.
    #[getter]
    fn board(&self) -> &str {
        &self.answer.board
    }

    /// The judge's answer: `WINNING` or `LOSING`.
    #[getter]
    fn answer(&self) -> &'static str {
        self.answer.answer
    }

    /// `win` or `loss`, for the player to move.
    #[getter]
    fn outcome(&self) -> String {
        self.answer.outcome.to_string()
    }

    /// Whether the player to move wins.
    #[getter]
    fn winning(&self) -> bool {
        self.answer.outcome == boardbase::euler::Outcome::Win
    }

    /// Moves left with perfect play (`None` where the table holds win/loss
    /// only).
    #[getter]
    fn moves_left(&self) -> Option<u8> {
        self.answer.moves_left
    }

    /// How many legal moves win.
    #[getter]
    fn winning_moves(&self) -> usize {
        self.answer.winning_moves
    }

    /// How many moves are legal.
    #[getter]
    fn legal_moves(&self) -> usize {
        self.answer.legal_moves
    }

    /// The answer as a dict in the JSON vocabulary (the object of
    /// `boardbase euler --format json`): the lookup without its moves.
    fn report(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        crate::to_python(py, &self.answer)
    }

    /// The whole lookup as a dict in the JSON vocabulary
    /// (`/api/v1/euler`'s object), made now with the GIL released.
    fn lookup(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let shape = self.source.shape();
        let found = crate::run(py, || {
            euler_lookup(&*self.source, self.position)
                .map_err(|e| self.tablebase.damaged(Puzzle::Euler, shape, e))
        })?;
        let lookup = found.map_err(|e| crate::answer_error(py, shape, e))?;
        crate::to_python(py, &lookup)
    }
}
