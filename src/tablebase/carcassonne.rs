//! Carcassonne boards counted on request: no table can hold every board,
//! so the counter ([`crate::carcassonne`]) runs here, under the caller's
//! memory budget and stop condition.

use num_bigint::BigUint;

use crate::carcassonne::{self, Board, Budget, StopError};
use crate::report::CarcassonneAnswer;

/// What to count on a Carcassonne board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CountOptions {
    /// The exact count besides the count modulo 1,000,000,007.
    pub exact: bool,
    /// One valid placement (the turns of the tiles), or that there is none.
    pub witness: bool,
    /// The counter's memory caps.
    pub budget: Budget,
}

/// The counts of one board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counted {
    /// The number of valid placements modulo 1,000,000,007.
    pub count: u64,
    /// The exact number, when asked for.
    pub exact: Option<BigUint>,
    /// When asked for: one valid placement (each tile's quarter turns
    /// clockwise, in reading order), or `None` when there is none.
    pub witness: Option<Option<Vec<u8>>>,
}

impl Counted {
    /// The answer object of case `case` (the JSON of `boardbase
    /// carcassonne --format json`).
    pub fn answer(&self, case: u64, board: &Board) -> CarcassonneAnswer {
        CarcassonneAnswer::new(
            case,
            board,
            self.count,
            self.exact.as_ref(),
            self.witness.as_ref().map(Option::as_deref),
        )
    }
}

/// Counts `board` as `options` ask, giving up when `stop` says so (it is
/// asked before each tile). With a witness asked for, it is found first:
/// reachability alone is the cheapest pass, and when no placement exists
/// both counts are 0 without counting.
pub fn count(
    board: &Board,
    options: &CountOptions,
    mut stop: impl FnMut() -> bool,
) -> Result<Counted, StopError> {
    let budget = options.budget;
    let witness = if options.witness {
        let turns = carcassonne::witness_with_stop(board, budget, &mut stop)?;
        if turns.is_none() {
            return Ok(Counted {
                count: 0,
                exact: options.exact.then_some(BigUint::ZERO),
                witness: Some(None),
            });
        }
        Some(turns)
    } else {
        None
    };
    let count = carcassonne::count_with_stop(board, budget, &mut stop)?;
    let exact = if options.exact {
        Some(carcassonne::count_exact_with_stop(
            board, budget, &mut stop,
        )?)
    } else {
        None
    };
    Ok(Counted {
        count,
        exact,
        witness,
    })
}
