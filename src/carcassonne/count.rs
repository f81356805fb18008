//! The one entry of the counter: [`count`] a board as [`CountOptions`] ask
//! (the count modulo `p`, the exact count, a witness, within a memory
//! budget), giving up when a `stop` function says so.

use num_bigint::BigUint;

use super::Board;
use super::Error;
use super::dp::{self, Budget};

/// What to count on a board, and within what memory.
///
/// The default is the count modulo [`MODULUS`](super::MODULUS) alone, within
/// [`Budget::DEFAULT`].
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
    /// clockwise, in reading order, see [`Tile::rotated`](super::Tile::rotated)),
    /// or `None` when there is none.
    pub witness: Option<Option<Vec<u8>>>,
}

/// Counts `board` as `options` ask, asking `stop` before each tile whether
/// to give up (`|| false` to run to the end; a server passes a deadline, a
/// client that went away or a shutdown).
///
/// With a witness asked for, it is found first: reachability alone is the
/// cheapest pass, and when no placement exists both counts are 0 without
/// counting. The witness is found from reachability alone, so it exists
/// exactly when the exact count is not 0, even when the count modulo `p` is
/// 0.
///
/// ```
/// use std::time::{Duration, Instant};
/// use boardbase::carcassonne::{count, Board, CountOptions, Error};
///
/// let tiles = ["RRRF", "FCCC"].map(|s| s.parse().unwrap()).to_vec();
/// let board = Board::new(1, 2, tiles).unwrap();
/// // The count modulo 1,000,000,007 alone.
/// assert_eq!(count(&board, &CountOptions::default(), || false)?.count, 1);
///
/// // Everything, within ten seconds. The only placement: RFRR (two quarter
/// // turns, right edge F) next to CCCF (three, left edge F).
/// let all = CountOptions { exact: true, witness: true, ..CountOptions::default() };
/// let deadline = Instant::now() + Duration::from_secs(10);
/// let counted = count(&board, &all, || Instant::now() > deadline)?;
/// assert_eq!(counted.exact, Some(1u8.into()));
/// assert_eq!(counted.witness, Some(Some(vec![2, 3])));
///
/// // Asked to stop at once: nothing is counted.
/// assert_eq!(
///     count(&board, &all, || true),
///     Err(Error::Stopped { placed: 0, cells: 2 })
/// );
/// # Ok::<(), Error>(())
/// ```
pub fn count(
    board: &Board,
    options: &CountOptions,
    mut stop: impl FnMut() -> bool,
) -> Result<Counted, Error> {
    let budget = options.budget;
    let witness = if options.witness {
        let turns = dp::witness(board, budget, stopper(board, &mut stop))?;
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
    let count = dp::mod_p(board, budget, stopper(board, &mut stop))?;
    let exact = if options.exact {
        Some(dp::exact(board, budget, stopper(board, &mut stop))?)
    } else {
        None
    };
    Ok(Counted {
        count,
        exact,
        witness,
    })
}

/// The check before each cell that turns `stop` into [`Error::Stopped`].
fn stopper(
    board: &Board,
    mut stop: impl FnMut() -> bool,
) -> impl FnMut(usize) -> Result<(), Error> {
    let cells = board.tiles().len();
    move |placed| {
        if stop() {
            Err(Error::Stopped { placed, cells })
        } else {
            Ok(())
        }
    }
}

/// The count modulo [`MODULUS`](super::MODULUS) of every board, in parallel (one board per
/// task), in order, each within [`Budget::DEFAULT`].
pub fn count_all(boards: &[Board]) -> Vec<Result<u64, Error>> {
    use rayon::prelude::*;
    boards
        .par_iter()
        .map(|board| dp::mod_p(board, Budget::DEFAULT, |_| Ok::<(), Error>(())))
        .collect()
}
