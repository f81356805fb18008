//! Carcassonne boards counted on request: no table can hold every board,
//! so the counter's one entry ([`crate::carcassonne::count`]) runs here,
//! under the caller's options, memory budget and stop condition, and its
//! counts become the answer object.

use crate::carcassonne::Board;
pub use crate::carcassonne::{CountOptions, Counted, count};
use crate::report::CarcassonneAnswer;

// The answer object lives in `report`, which imports the counter's types,
// so the counter cannot name it: the conversion is written here, above both.
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
