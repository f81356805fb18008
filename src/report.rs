//! The JSON answers: one serializable object per case, shared by every
//! front end.
//!
//! `boardbase flip --format json` prints a [`FlipAnswer`] per line,
//! `boardbase euler --format json` an [`EulerAnswer`] and
//! `boardbase carcassonne --format json` a [`CarcassonneAnswer`]; the HTTP
//! server (`boardbase serve`) returns the same objects, with the moves of the
//! position added. Fields serialize in declaration order, so the text is
//! stable: cells are 0-based `[row, col]`, boards are their one-line form
//! (`bwwb/bbwb/bwwb/bwww`).
//!
//! The fields are public so that other answer sources (tables of other
//! sizes, run-time solvers) can fill in the same objects.
//!
//! ```
//! use boardbase::flip::Board;
//! use boardbase::report::FlipAnswer;
//!
//! // The judge's sample:
//! //   b w w b
//! //   b b w b
//! //   b w w b
//! //   b w w w
//! let board: Board = "bwwb/bbwb/bwwb/bwww".parse()?;
//! let answer = FlipAnswer::new(1, board);
//! assert_eq!(answer.rounds, Some(4));
//! assert_eq!(
//!     serde_json::to_string(&answer)?,
//!     r#"{"case":1,"board":"bwwb/bbwb/bwwb/bwww","answer":"4","solvable":true,"rounds":4,"#.to_owned()
//!         + r#""colour":"white","presses":[[0,0],[1,1],[1,3],[2,0]],"optimal_sets":2,"#
//!         + r#""to_white":{"rounds":4,"presses":[[0,0],[1,1],[1,3],[2,0]],"optimal_sets":1},"#
//!         + r#""to_black":{"rounds":4,"presses":[[0,0],[0,1],[1,1],[3,2]],"optimal_sets":1}}"#
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use num_bigint::BigUint;
use serde::Serialize;

use crate::carcassonne::{self, Tile};
use crate::euler::{self, Move, Outcome, Position};
use crate::flip::{self, Board, Colour, Presses, Route};

/// A cell as 0-based `[row, col]`.
pub type Cell = [usize; 2];

/// The cells of a press set, in reading order.
fn press_cells(presses: Presses) -> Vec<Cell> {
    presses.cells().map(|(r, c)| [r, c]).collect()
}

/// The answer for one Flip Game board: a line of
/// `boardbase flip --format json`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FlipAnswer {
    /// The case number, from 1.
    pub case: u64,
    /// The board, rows separated by `/`.
    pub board: String,
    /// The judge's answer: the rounds, or `Impossible`.
    pub answer: String,
    /// Whether a uniform board can be reached.
    pub solvable: bool,
    /// Fewest rounds to a uniform board (`null` when impossible).
    pub rounds: Option<u8>,
    /// The colour reached in fewest rounds, white when both tie (`null`
    /// when impossible).
    pub colour: Option<Colour>,
    /// One optimal set of cells to press (`null` when impossible).
    pub presses: Option<Vec<Cell>>,
    /// How many distinct press sets reach a uniform board in `rounds`
    /// rounds, both colours counted when they tie; 0 when impossible.
    pub optimal_sets: u8,
    /// The optimal way to all white (`null` when impossible).
    pub to_white: Option<FlipRoute>,
    /// The optimal way to all black (`null` when impossible).
    pub to_black: Option<FlipRoute>,
}

/// The optimal way to one colour, in a [`FlipAnswer`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FlipRoute {
    /// Fewest rounds to this colour.
    pub rounds: u8,
    /// One optimal set of cells to press.
    pub presses: Vec<Cell>,
    /// How many distinct press sets reach this colour in `rounds` rounds.
    pub optimal_sets: u8,
}

impl FlipRoute {
    /// The report of a [`Route`].
    pub fn new(route: Route) -> FlipRoute {
        FlipRoute {
            rounds: route.rounds,
            presses: press_cells(route.presses),
            optimal_sets: route.optimal_sets,
        }
    }
}

impl FlipAnswer {
    /// Solves a 4×4 `board` from the embedded tables ([`flip::solve`]).
    pub fn new(case: u64, board: Board) -> FlipAnswer {
        let s = flip::solve(board);
        FlipAnswer {
            case,
            board: format!("{board:#}"),
            answer: s.map_or_else(|| "Impossible".to_owned(), |s| s.rounds.to_string()),
            solvable: s.is_some(),
            rounds: s.map(|s| s.rounds),
            colour: s.map(|s| s.colour),
            presses: s.map(|s| press_cells(s.presses)),
            optimal_sets: s.map_or(0, |s| s.optimal_sets),
            to_white: s.map(|s| FlipRoute::new(s.to_white)),
            to_black: s.map(|s| FlipRoute::new(s.to_black)),
        }
    }
}

/// The answer for one Game of Euler position: a line of
/// `boardbase euler --format json`.
///
/// ```
/// use boardbase::euler::{Outcome, Position};
/// use boardbase::report::EulerAnswer;
///
/// // The judge's second sample: covering (1, 2) wins.
/// //   X X X X
/// //   . . . X
/// //   X X . X
/// //   X X . X
/// let position: Position = "XXXX/...X/XX.X/XX.X".parse()?;
/// let answer = EulerAnswer::new(2, position);
/// assert_eq!((answer.outcome, answer.moves_left), (Outcome::Win, 4));
/// assert_eq!(
///     serde_json::to_string(&answer)?,
///     r#"{"case":2,"board":"XXXX/...X/XX.X/XX.X","answer":"WINNING","outcome":"win","#.to_owned()
///         + r#""moves_left":4,"best_move":{"mask":64,"cells":[[1,2]]},"winning_moves":1,"legal_moves":9}"#
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EulerAnswer {
    /// The case number, from 1.
    pub case: u64,
    /// The position, rows separated by `/`.
    pub board: String,
    /// The judge's answer: `WINNING` or `LOSING`.
    pub answer: &'static str,
    /// Who wins, for the player to move.
    pub outcome: Outcome,
    /// Moves (plies) left with perfect play.
    pub moves_left: u8,
    /// One best move (`null` for the full board).
    pub best_move: Option<EulerMove>,
    /// How many legal moves win.
    pub winning_moves: usize,
    /// How many moves are legal.
    pub legal_moves: usize,
}

/// A move in an [`EulerAnswer`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EulerMove {
    /// The covered squares, bit `4 * row + col`.
    pub mask: u16,
    /// The covered squares in reading order.
    pub cells: Vec<Cell>,
}

impl EulerMove {
    /// The report of a [`Move`].
    pub fn new(mv: Move) -> EulerMove {
        EulerMove {
            mask: mv.bits(),
            cells: mv.cells().map(|(r, c)| [r, c]).collect(),
        }
    }
}

impl EulerAnswer {
    /// Probes a 4×4 `position` in the embedded tables ([`euler::probe`]).
    pub fn new(case: u64, position: Position) -> EulerAnswer {
        let entry = euler::probe(position);
        EulerAnswer {
            case,
            board: format!("{position:#}"),
            answer: entry.outcome.answer(),
            outcome: entry.outcome,
            moves_left: entry.moves_left,
            best_move: entry.best_move.map(EulerMove::new),
            winning_moves: euler::winning_moves(position).count(),
            legal_moves: euler::legal_moves(position).count(),
        }
    }
}

/// The answer for one Carcassonne board: a line of
/// `boardbase carcassonne --format json`.
///
/// ```
/// use boardbase::carcassonne::{self, Board, Tile};
/// use boardbase::report::CarcassonneAnswer;
///
/// // RRRF beside FCCC: one placement, RFRR (two quarter turns) beside
/// // CCCF (three), meeting on a Field edge.
/// let tiles: Vec<Tile> = ["RRRF", "FCCC"].iter().map(|c| c.parse()).collect::<Result<_, _>>()?;
/// let board = Board::new(1, 2, tiles)?;
/// let turns = carcassonne::witness(&board)?;
/// let exact = carcassonne::count_exact(&board)?;
/// let answer = CarcassonneAnswer::new(1, &board, carcassonne::count(&board)?, Some(&exact), Some(turns.as_deref()));
/// assert_eq!(
///     serde_json::to_string(&answer)?,
///     r#"{"case":1,"rows":1,"cols":2,"count":1,"modulus":1000000007,"exact":"1","#.to_owned()
///         + r#""witness":{"turns":[[2,3]],"tiles":[["RFRR","CCCF"]]}}"#
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CarcassonneAnswer {
    /// The case number, from 1.
    pub case: u64,
    /// Rows of the board.
    pub rows: usize,
    /// Columns of the board.
    pub cols: usize,
    /// The number of valid placements modulo `modulus`.
    pub count: u64,
    /// [`carcassonne::MODULUS`].
    pub modulus: u64,
    /// The exact number, as a decimal string (left out unless asked for).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exact: Option<String>,
    /// One valid placement (left out unless asked for; `null` when none
    /// exists).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub witness: Option<Option<CarcassonneWitness>>,
}

/// One valid placement, in a [`CarcassonneAnswer`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CarcassonneWitness {
    /// Quarter turns clockwise per tile, by row.
    pub turns: Vec<Vec<u8>>,
    /// The turned tiles' codes, by row.
    pub tiles: Vec<Vec<String>>,
}

impl CarcassonneAnswer {
    /// The report of `board`'s counts: `count` modulo
    /// [`carcassonne::MODULUS`], the exact count when it was asked for, and
    /// the witness ([`carcassonne::witness`]'s quarter turns per tile, or
    /// `None` when no placement exists) when it was asked for.
    pub fn new(
        case: u64,
        board: &carcassonne::Board,
        count: u64,
        exact: Option<&BigUint>,
        witness: Option<Option<&[u8]>>,
    ) -> CarcassonneAnswer {
        CarcassonneAnswer {
            case,
            rows: board.rows(),
            cols: board.cols(),
            count,
            modulus: carcassonne::MODULUS,
            exact: exact.map(BigUint::to_string),
            witness: witness.map(|w| {
                w.map(|turns| CarcassonneWitness {
                    turns: turns.chunks(board.cols()).map(<[u8]>::to_vec).collect(),
                    tiles: turned_rows(board, turns)
                        .iter()
                        .map(|r| r.iter().map(Tile::to_string).collect())
                        .collect(),
                })
            }),
        }
    }
}

/// The board's tiles each turned by its quarter turns clockwise (`turns`,
/// row-major, as [`carcassonne::witness`] gives them), by row.
///
/// ```
/// use boardbase::carcassonne::{Board, Tile};
/// use boardbase::report::turned_rows;
///
/// let tiles: Vec<Tile> = ["RRRF", "FCCC"].iter().map(|c| c.parse()).collect::<Result<_, _>>()?;
/// let board = Board::new(1, 2, tiles)?;
/// let rows = turned_rows(&board, &[2, 3]);
/// assert_eq!(rows[0].iter().map(Tile::to_string).collect::<Vec<_>>(), ["RFRR", "CCCF"]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn turned_rows(board: &carcassonne::Board, turns: &[u8]) -> Vec<Vec<Tile>> {
    board
        .tiles()
        .chunks(board.cols())
        .zip(turns.chunks(board.cols()))
        .map(|(tiles, turns)| {
            tiles
                .iter()
                .zip(turns)
                .map(|(t, &k)| t.rotated(u32::from(k)))
                .collect()
        })
        .collect()
}
