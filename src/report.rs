//! The JSON answers: one serializable object per case, shared by every
//! front end.
//!
//! `boardbase flip --format json` prints a [`FlipAnswer`] per line,
//! `boardbase euler --format json` an [`EulerAnswer`] and
//! `boardbase carcassonne --format json` a [`CarcassonneAnswer`],
//! `boardbase fliptile` and `boardbase lightsout` a [`LightsAnswer`],
//! `boardbase lights solve` a [`LightsSolve`] and `boardbase lights info` a
//! [`LightsInfo`]; the HTTP
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

use boardbase_tables::shape::Shape;

use crate::carcassonne::{self, Tile};
use crate::euler::{self, Move, Outcome, Position};
use crate::flip::{self, Board, Colour, Presses, Route};
use crate::lights::family::{self, ColourGrid, FamilyAnswer, FamilyGoal, Variant, VariantInfo};
use crate::lights::{self, Grid, Routes};
use crate::tablefile::{EulerTable, FlipTable, TableError};

/// A cell as 0-based `[row, col]`.
pub type Cell = [usize; 2];

/// The cells of a press set, in reading order.
fn press_cells(presses: Presses) -> Vec<Cell> {
    presses.cells().map(|(r, c)| [r, c]).collect()
}

/// The cells of `mask` on `shape`, in reading order.
fn mask_cells(shape: Shape, mask: u64) -> Vec<Cell> {
    shape.cells_of(mask).map(|(r, c)| [r, c]).collect()
}

/// A whole number with its thousands grouped, as every report writes
/// counts.
///
/// ```
/// assert_eq!(boardbase::report::thousands(65536), "65,536");
/// assert_eq!(boardbase::report::thousands(999), "999");
/// ```
pub fn thousands(n: impl std::fmt::Display) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out
}

/// A board of `shape` (bit `cols * row + col`) in its one-line form: rows
/// of `one` (bit set) and `zero` separated by `/`.
///
/// ```
/// use boardbase::report::board_string;
/// use boardbase::tables::shape::Shape;
///
/// let shape = Shape::new(2, 3).unwrap();
/// assert_eq!(board_string(shape, 0b100_011, '.', 'X'), "XX./..X");
/// ```
pub fn board_string(shape: Shape, bits: u64, zero: char, one: char) -> String {
    let mut s = String::with_capacity(shape.cells() + shape.rows());
    for r in 0..shape.rows() {
        if r > 0 {
            s.push('/');
        }
        for c in 0..shape.cols() {
            s.push(if shape.get(bits, r, c) { one } else { zero });
        }
    }
    s
}

/// A grid in its one-line form, as [`board_string`].
fn grid_string(grid: &Grid, zero: char, one: char) -> String {
    let cols = grid.shape().cols();
    let mut s = String::with_capacity(grid.shape().cells() + grid.shape().rows());
    for (r, &bits) in grid.rows().iter().enumerate() {
        if r > 0 {
            s.push('/');
        }
        s.extend((0..cols).map(|c| if bits >> c & 1 == 1 { one } else { zero }));
    }
    s
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
    pub rounds: Option<u16>,
    /// The colour reached in fewest rounds, white when both tie (`null`
    /// when impossible).
    pub colour: Option<Colour>,
    /// One optimal set of cells to press (`null` when impossible).
    pub presses: Option<Vec<Cell>>,
    /// How many distinct press sets reach a uniform board in `rounds`
    /// rounds, both colours counted when they tie; 0 when impossible.
    pub optimal_sets: u64,
    /// The optimal way to all white (`null` when white cannot be reached;
    /// on 4×4 a board reaches both colours or neither).
    pub to_white: Option<FlipRoute>,
    /// The optimal way to all black (`null` when black cannot be reached).
    pub to_black: Option<FlipRoute>,
}

/// The optimal way to one colour, in a [`FlipAnswer`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FlipRoute {
    /// Fewest rounds to this colour.
    pub rounds: u16,
    /// One optimal set of cells to press.
    pub presses: Vec<Cell>,
    /// How many distinct press sets reach this colour in `rounds` rounds.
    pub optimal_sets: u64,
}

impl FlipRoute {
    /// The report of a [`Route`].
    pub fn new(route: Route) -> FlipRoute {
        FlipRoute {
            rounds: u16::from(route.rounds),
            presses: press_cells(route.presses),
            optimal_sets: u64::from(route.optimal_sets),
        }
    }

    /// The report of a route read from a table of `shape`.
    fn from_table(shape: Shape, route: crate::tablefile::TableRoute) -> FlipRoute {
        FlipRoute {
            rounds: u16::from(route.rounds),
            presses: mask_cells(shape, route.presses),
            optimal_sets: u64::from(route.optimal_sets),
        }
    }

    /// The report of one colour's answer of [`lights`].
    pub(crate) fn from_lights(answer: &lights::Answer) -> FlipRoute {
        FlipRoute {
            rounds: rounds16(answer.rounds),
            presses: answer.presses.cells().map(|(r, c)| [r, c]).collect(),
            optimal_sets: answer.optimal_sets,
        }
    }
}

/// Rounds of a board of at most 64×64 cells: at most 4,096.
fn rounds16(rounds: usize) -> u16 {
    u16::try_from(rounds).unwrap_or(u16::MAX)
}

impl FlipAnswer {
    /// Solves a 4×4 `board` from the embedded tables ([`flip::solve`]).
    pub fn new(case: u64, board: Board) -> FlipAnswer {
        let s = flip::solve(board);
        FlipAnswer {
            case,
            // `{board:#}`, without the formatter's per-character calls.
            board: board_string(Shape::SQUARE4, u64::from(board.bits()), 'w', 'b'),
            answer: s.map_or_else(|| "Impossible".to_owned(), |s| s.rounds.to_string()),
            solvable: s.is_some(),
            rounds: s.map(|s| u16::from(s.rounds)),
            colour: s.map(|s| s.colour),
            presses: s.map(|s| press_cells(s.presses)),
            optimal_sets: s.map_or(0, |s| u64::from(s.optimal_sets)),
            to_white: s.map(|s| FlipRoute::new(s.to_white)),
            to_black: s.map(|s| FlipRoute::new(s.to_black)),
        }
    }

    /// Solves `board` (bit `cols * row + col` set = black) from a Flip
    /// table of any shape ([`FlipTable::solve`]): the same fields as
    /// [`FlipAnswer::new`], which gives the same answer for 4×4 boards.
    ///
    /// ```
    /// use boardbase::report::FlipAnswer;
    /// use boardbase::tablefile::{Puzzle, Table};
    ///
    /// let table = Table::embedded(Puzzle::Flip);
    /// let board = 0x19B9; // bwwb/bbwb/bwwb/bwww
    /// let answer = FlipAnswer::from_table(1, board, &table.as_flip()?)?;
    /// assert_eq!(answer, FlipAnswer::new(1, boardbase::flip::Board::from_bits(board as u16)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_table(
        case: u64,
        board: u64,
        table: &FlipTable<'_>,
    ) -> Result<FlipAnswer, TableError> {
        let shape = table.shape();
        let best = table.solve(board)?;
        // A table without per-colour columns (version 1) has no routes.
        let route = |colour| match table.route(board, colour) {
            Ok(r) => Ok(r.map(|r| FlipRoute::from_table(shape, r))),
            Err(TableError::NoColumn(_)) => Ok(None),
            Err(e) => Err(e),
        };
        let (to_white, to_black) = match best {
            Some(_) => (route(Colour::White)?, route(Colour::Black)?),
            None => (None, None),
        };
        Ok(FlipAnswer {
            case,
            board: board_string(shape, board, 'w', 'b'),
            answer: best.map_or_else(|| "Impossible".to_owned(), |s| s.rounds.to_string()),
            solvable: best.is_some(),
            rounds: best.map(|s| u16::from(s.rounds)),
            colour: best.map(|s| s.colour),
            presses: best.map(|s| mask_cells(shape, s.presses)),
            optimal_sets: best.map_or(0, |s| u64::from(s.optimal_sets)),
            to_white,
            to_black,
        })
    }

    /// The answer for `board` (set = black) from both colours' answers of
    /// [`lights::routes`] (any board up to 64×64, without a table): the
    /// colour with fewer presses, white on a tie, counting both colours'
    /// optimal sets on a tie, as the tables do. The press sets are the
    /// least optimal ones in reading order, which can differ from a
    /// table's; rounds and counts agree.
    ///
    /// ```
    /// use boardbase::lights::{self, Grid};
    /// use boardbase::report::FlipAnswer;
    ///
    /// // A 5×5 board: one black piece in the middle, with its four neighbours.
    /// //   w w w w w
    /// //   w w b w w
    /// //   w b b b w     one press, at (2, 2), makes it white
    /// //   w w b w w
    /// //   w w w w w
    /// let board: Grid = "wwwww/wwbww/wbbbw/wwbww/wwwww".parse()?;
    /// let answer = FlipAnswer::from_routes(1, &board, &lights::routes(&board)?);
    /// assert_eq!((answer.rounds, answer.presses.as_deref()), (Some(1), Some(&[[2, 2]][..])));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_routes(case: u64, board: &Grid, routes: &Routes) -> FlipAnswer {
        let best = routes.best();
        let solvable = best.is_some();
        FlipAnswer {
            case,
            board: grid_string(board, 'w', 'b'),
            answer: best
                .as_ref()
                .map_or_else(|| "Impossible".to_owned(), |a| a.rounds.to_string()),
            solvable,
            rounds: best.as_ref().map(|a| rounds16(a.rounds)),
            colour: best.as_ref().map(|a| a.colour),
            presses: best
                .as_ref()
                .map(|a| a.presses.cells().map(|(r, c)| [r, c]).collect()),
            optimal_sets: best.as_ref().map_or(0, |a| a.optimal_sets),
            to_white: routes
                .white
                .as_ref()
                .filter(|_| solvable)
                .map(FlipRoute::from_lights),
            to_black: routes
                .black
                .as_ref()
                .filter(|_| solvable)
                .map(FlipRoute::from_lights),
        }
    }
}

/// The answer for one Fliptile (POJ 3279) or Extended Lights Out (POJ 1222)
/// board: a line of `boardbase fliptile --format json` and of
/// `boardbase lightsout --format json`, the same object for both.
///
/// The vocabulary is Flip's ([`FlipAnswer`]): `case`, `board` (one string,
/// rows of `0`/`1` separated by `/`), `solvable`, `rounds` (fewest
/// presses, `null` when impossible), `presses`, `optimal_sets`; and the
/// GF(2) method's `nullity`.
///
/// ```
/// use boardbase::lights::{Colour, Grid, Solver};
/// use boardbase::report::LightsAnswer;
///
/// // POJ 3279's sample:
/// //   1 0 0 1
/// //   0 1 1 0
/// //   0 1 1 0
/// //   1 0 0 1
/// let board: Grid = "1001/0110/0110/1001".parse()?;
/// let solver = Solver::cached(board.shape());
/// let route = solver.route(&board, Colour::White)?;
/// let answer = LightsAnswer::new(1, &board, route.as_ref(), solver.nullity());
/// assert_eq!(
///     serde_json::to_string(&answer)?,
///     r#"{"case":1,"board":"1001/0110/0110/1001","solvable":true,"rounds":4,"#.to_owned()
///         + r#""presses":[[1,0],[1,3],[2,0],[2,3]],"optimal_sets":2,"nullity":4}"#
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LightsAnswer {
    /// The case number, from 1 (Lights Out's `PUZZLE #n`).
    pub case: u64,
    /// The board as given, rows of `0`/`1` separated by `/`.
    pub board: String,
    /// Whether the board can be made all `0`.
    pub solvable: bool,
    /// Fewest presses (flips) that make the board all `0` (`null` when
    /// impossible).
    pub rounds: Option<usize>,
    /// The tie rule's optimal press set, the least in reading order, as
    /// 0-based `[row, col]` (`null` when impossible).
    pub presses: Option<Vec<Cell>>,
    /// How many distinct press sets do it in `rounds` presses; 0 when
    /// impossible.
    pub optimal_sets: u64,
    /// The nullity of the board's shape over GF(2): 2^nullity press sets
    /// (of any size) clear each solvable board.
    pub nullity: usize,
}

impl LightsAnswer {
    /// The report of `answer` (`None`: impossible) for `board`, case
    /// `case`, on a shape of `nullity` ([`lights::Solver::nullity`]).
    pub fn new(
        case: u64,
        board: &Grid,
        answer: Option<&lights::Answer>,
        nullity: usize,
    ) -> LightsAnswer {
        LightsAnswer {
            case,
            board: grid_string(board, '0', '1'),
            solvable: answer.is_some(),
            rounds: answer.map(|a| a.rounds),
            presses: answer.map(|a| a.presses.cells().map(|(r, c)| [r, c]).collect()),
            optimal_sets: answer.map_or(0, |a| a.optimal_sets),
            nullity,
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
/// assert_eq!((answer.outcome, answer.moves_left), (Outcome::Win, Some(4)));
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
    /// Moves (plies) left with perfect play; `null` when the table holds
    /// win/loss only (unknown, never guessed).
    pub moves_left: Option<u8>,
    /// One best move (`null` for the full board): the fastest win or the
    /// longest resistance. From a win/loss-only table (`wdl_only`), the
    /// first winning move in the moves' order for a won position, and the
    /// first legal move for a lost one (every move loses; which resists
    /// longest is unknown).
    pub best_move: Option<EulerMove>,
    /// How many legal moves win.
    pub winning_moves: usize,
    /// How many moves are legal.
    pub legal_moves: usize,
    /// Present, and `true`, when the answer comes from a win/loss-only
    /// table: `moves_left` is unknown and `best_move` is chosen as said
    /// there.
    #[serde(skip_serializing_if = "is_false")]
    pub wdl_only: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// A move in an [`EulerAnswer`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EulerMove {
    /// The covered squares, bit `cols * row + col`.
    pub mask: u64,
    /// The covered squares in reading order.
    pub cells: Vec<Cell>,
}

impl EulerMove {
    /// The report of a [`Move`].
    pub fn new(mv: Move) -> EulerMove {
        EulerMove {
            mask: u64::from(mv.bits()),
            cells: mv.cells().map(|(r, c)| [r, c]).collect(),
        }
    }

    /// The report of the move covering `mask` on `shape`.
    pub fn from_mask(shape: Shape, mask: u64) -> EulerMove {
        EulerMove {
            mask,
            cells: mask_cells(shape, mask),
        }
    }
}

impl EulerAnswer {
    /// Probes a 4×4 `position` in the embedded tables ([`euler::probe`]).
    pub fn new(case: u64, position: Position) -> EulerAnswer {
        let entry = euler::probe(position);
        EulerAnswer {
            case,
            // `{position:#}`, without the formatter's per-character calls.
            board: board_string(Shape::SQUARE4, u64::from(position.bits()), '.', 'X'),
            answer: entry.outcome.answer(),
            outcome: entry.outcome,
            moves_left: Some(entry.moves_left),
            best_move: entry.best_move.map(EulerMove::new),
            winning_moves: euler::winning_moves(position).count(),
            legal_moves: euler::legal_moves(position).count(),
            wdl_only: false,
        }
    }

    /// Probes `covered` (bit `cols * row + col` set = covered) in an Euler
    /// table of any shape. From a full table the answer is
    /// [`EulerAnswer::new`]'s for 4×4; from a win/loss-only table
    /// `moves_left` is `None` and the move shown is found by probing each
    /// legal move's position (see [`EulerAnswer::best_move`]).
    ///
    /// ```
    /// use boardbase::euler::Outcome;
    /// use boardbase::generate::{self, EulerOptions};
    /// use boardbase::report::EulerAnswer;
    /// use boardbase::tablefile::Table;
    /// use boardbase::tables::shape::Shape;
    ///
    /// // 3×3, win/loss only. The empty board is won; the move shown is the
    /// // first winning one in the moves' order, covering a corner:
    /// //   . . .     o . .
    /// //   . . .     . . .
    /// //   . . .     . . .
    /// let shape = Shape::new(3, 3).unwrap();
    /// let wdl = EulerOptions { wdl_only: true, ..EulerOptions::default() };
    /// let table = Table::from_euler(shape, generate::euler(shape, &wdl, |_| {})?.into())?;
    /// let answer = EulerAnswer::from_table(1, 0, &table.as_euler()?)?;
    /// assert_eq!((answer.outcome, answer.moves_left, answer.wdl_only), (Outcome::Win, None, true));
    /// let shown = answer.best_move.expect("a winning move");
    /// assert_eq!(shown.cells, [[0, 0]]);
    /// assert_eq!((answer.winning_moves, answer.legal_moves), (7, 27));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_table(
        case: u64,
        covered: u64,
        table: &EulerTable<'_>,
    ) -> Result<EulerAnswer, TableError> {
        let shape = table.shape();
        let entry = table.probe(covered)?;
        let mut legal = 0;
        let mut winning = 0;
        let mut first_win = None;
        let mut first_legal = None;
        for mask in table.legal_moves(covered)? {
            legal += 1;
            first_legal.get_or_insert(mask);
            if !table.outcome(covered | mask)?.is_win() {
                winning += 1;
                first_win.get_or_insert(mask);
            }
        }
        let wdl_only = table.is_wdl_only();
        let best = if wdl_only {
            first_win.or(first_legal)
        } else {
            entry.best_move
        };
        Ok(EulerAnswer {
            case,
            board: board_string(shape, covered, '.', 'X'),
            answer: entry.outcome.answer(),
            outcome: entry.outcome,
            moves_left: entry.moves_left,
            best_move: best.map(|m| EulerMove::from_mask(shape, m)),
            winning_moves: winning,
            legal_moves: legal,
            wdl_only,
        })
    }
}

/// The answer for one Carcassonne board: a line of
/// `boardbase carcassonne --format json`.
///
/// ```
/// use boardbase::carcassonne::{self, Board, CountOptions, Tile};
/// use boardbase::report::CarcassonneAnswer;
///
/// // RRRF beside FCCC: one placement, RFRR (two quarter turns) beside
/// // CCCF (three), meeting on a Field edge.
/// let tiles: Vec<Tile> = ["RRRF", "FCCC"].iter().map(|c| c.parse()).collect::<Result<_, _>>()?;
/// let board = Board::new(1, 2, tiles)?;
/// let all = CountOptions { exact: true, witness: true, ..CountOptions::default() };
/// let c = carcassonne::count(&board, &all, || false)?;
/// let witness = c.witness.as_ref().map(Option::as_deref);
/// let answer = CarcassonneAnswer::new(1, &board, c.count, c.exact.as_ref(), witness);
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
    /// the witness ([`carcassonne::Counted::witness`]: quarter turns per
    /// tile, or `None` when no placement exists) when it was asked for.
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
/// row-major, as [`carcassonne::Counted::witness`] gives them), by row.
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

/// What a board of the Lights Out family should become, as the JSON
/// writes it: the colour (an integer) or `"any"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum LightsGoal {
    /// Every cell this colour.
    Colour(u8),
    /// Every cell one colour, any (`"any"`).
    Any(&'static str),
}

impl From<FamilyGoal> for LightsGoal {
    fn from(goal: FamilyGoal) -> LightsGoal {
        match goal {
            FamilyGoal::Colour(d) => LightsGoal::Colour(d),
            FamilyGoal::Any => LightsGoal::Any("any"),
        }
    }
}

/// The answer for one board of the Lights Out family ([`family`]): a line
/// of `boardbase lights solve --format json`, and the API's
/// `/api/v1/lights` without its `moves`.
///
/// The vocabulary is Flip's and Fliptile's (`case`, `board`, `solvable`,
/// `rounds`, `presses`, `optimal_sets`), with the variant (`colours`,
/// `wrap`, `pattern`, `goal`) and the colour reached (`colour`, an integer,
/// `null` when impossible). A cell pressed `j` times is listed `j` times in
/// `presses`, so its length is `rounds`.
///
/// ```
/// use boardbase::lights::family::{self, ColourGrid, FamilyGoal, Variant};
/// use boardbase::report::LightsSolve;
///
/// // Lights Out 2000 (3 colours) on 3×3: one press vector a colour, 8
/// // presses here.
/// let variant = Variant::new(3, 3, 3)?;
/// let board = ColourGrid::parse("120/000/000", 3)?;
/// let answer = family::solve(&variant, &board, FamilyGoal::OFF)?;
/// let report = LightsSolve::new(1, &variant, &board, FamilyGoal::OFF, answer.as_ref());
/// let json = serde_json::to_string(&report)?;
/// assert!(json.starts_with(
///     r#"{"case":1,"board":"120/000/000","colours":3,"wrap":false,"pattern":"plus","goal":0,"solvable":true,"rounds":8,"#
/// ));
/// assert!(json.ends_with(r#""optimal_sets":1,"colour":0}"#));
/// // A cell pressed twice is listed twice.
/// assert_eq!(report.presses.as_ref().map(|p| p[..2].to_vec()), Some(vec![[0, 0], [0, 0]]));
/// assert_eq!(report.presses.map(|p| p.len()), Some(8));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LightsSolve {
    /// The case number, from 1.
    pub case: u64,
    /// The board as given, rows of digits (`a` to `f` past 9) separated
    /// by `/`.
    pub board: String,
    /// The number of colours K.
    pub colours: u8,
    /// Whether the board is a torus.
    pub wrap: bool,
    /// The press pattern: `plus`, `neighbours`, `x`, `king` or a stencil's
    /// rows (`.#./###/.#.`).
    pub pattern: String,
    /// The goal: a colour, or `"any"`.
    pub goal: LightsGoal,
    /// Whether the goal can be reached.
    pub solvable: bool,
    /// The fewest presses (`null` when impossible).
    pub rounds: Option<usize>,
    /// The tie rule's optimal press vector as 0-based `[row, col]` in
    /// reading order, a cell pressed `j` times listed `j` times (`null`
    /// when impossible).
    pub presses: Option<Vec<Cell>>,
    /// How many press vectors take `rounds` presses; 0 when impossible.
    pub optimal_sets: u64,
    /// The colour every cell shows at the end (`null` when impossible).
    pub colour: Option<u8>,
}

impl LightsSolve {
    /// The report of `answer` (`None`: impossible) for `board` of
    /// `variant` towards `goal`, case `case`.
    pub fn new(
        case: u64,
        variant: &Variant,
        board: &ColourGrid,
        goal: FamilyGoal,
        answer: Option<&FamilyAnswer>,
    ) -> LightsSolve {
        LightsSolve {
            case,
            board: format!("{board:#}"),
            colours: variant.colours(),
            wrap: variant.wrap(),
            pattern: variant.pattern().to_string(),
            goal: goal.into(),
            solvable: answer.is_some(),
            rounds: answer.map(|a| a.rounds),
            presses: answer.map(|a| {
                a.presses
                    .press_list()
                    .iter()
                    .map(|&(r, c)| [r, c])
                    .collect()
            }),
            optimal_sets: answer.map_or(0, |a| a.optimal_sets),
            colour: answer.map(|a| a.colour),
        }
    }
}

/// One press of a Lights Out family lookup: the cell and the fewest
/// presses to the goal after it (`null` when the goal cannot be reached).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LightsMove {
    /// The pressed cell.
    pub cell: Cell,
    /// The fewest presses to the goal after this press; `null` when the
    /// board cannot reach the goal (a press never changes that).
    pub rounds: Option<usize>,
}

/// `GET /api/v1/lights`: the [`LightsSolve`] object (case 1) and every
/// press valued, best first (fewest presses after it, then reading order;
/// in reading order when the goal cannot be reached).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LightsLookup {
    /// The board's answer.
    #[serde(flatten)]
    pub answer: LightsSolve,
    /// Every cell once, best first.
    pub moves: Vec<LightsMove>,
}

impl LightsLookup {
    /// The lookup of `board` of `variant` towards `goal`, searching up to
    /// `2^max_bits` press vectors a goal (see
    /// [`FamilySolver::move_values_within`](family::FamilySolver::move_values_within)).
    ///
    /// ```
    /// use boardbase::lights::family::{ColourGrid, FamilyGoal, Variant};
    /// use boardbase::report::LightsLookup;
    ///
    /// let variant = Variant::new(2, 3, 3)?;
    /// let board = ColourGrid::parse("100/000", 3)?;
    /// let lookup = LightsLookup::new(&variant, &board, FamilyGoal::OFF, 24)?;
    /// assert_eq!(lookup.moves.len(), 6);
    /// // The best press is one of the answer's first step's worth:
    /// assert_eq!(lookup.moves[0].rounds.map(|r| r + 1), lookup.answer.rounds);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(
        variant: &Variant,
        board: &ColourGrid,
        goal: FamilyGoal,
        max_bits: usize,
    ) -> Result<LightsLookup, crate::lights::LightsError> {
        let solver = family::FamilySolver::cached(variant);
        Ok(match solver.move_values_within(board, goal, max_bits)? {
            Some(values) => LightsLookup {
                answer: LightsSolve::new(1, variant, board, goal, Some(&values.answer)),
                moves: values
                    .moves
                    .iter()
                    .map(|m| LightsMove {
                        cell: [m.row, m.col],
                        rounds: Some(m.rounds_after),
                    })
                    .collect(),
            },
            None => LightsLookup {
                answer: LightsSolve::new(1, variant, board, goal, None),
                moves: (0..board.rows())
                    .flat_map(|r| (0..board.cols()).map(move |c| [r, c]))
                    .map(|cell| LightsMove { cell, rounds: None })
                    .collect(),
            },
        })
    }
}

/// The structure of a variant of the Lights Out family: the object of
/// `boardbase lights info --format json` and of `/api/v1/lights/info`.
///
/// The counts that can pass 2^53 (`quiet_count`, `solvable_boards`) are
/// strings of decimal digits, always, so that every JSON reader gets them
/// exactly.
///
/// ```
/// use boardbase::lights::family::{self, Variant};
/// use boardbase::report::LightsInfo;
///
/// let info = LightsInfo::new(&family::info(&Variant::new(4, 4, 2)?));
/// assert_eq!((info.nullity, info.quiet_count.as_str()), (Some(4), "16"));
/// assert_eq!(info.solvable_boards, "4096");
/// assert_eq!(info.quiet_generators.len(), 4);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LightsInfo {
    /// The shape, `RxC`.
    pub size: String,
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// The number of colours K.
    pub colours: u8,
    /// Whether the board is a torus.
    pub wrap: bool,
    /// The press pattern, as [`LightsSolve::pattern`].
    pub pattern: String,
    /// For a prime K, the dimension of the quiet patterns over GF(K)
    /// (`null` for a composite K).
    pub nullity: Option<usize>,
    /// The group of the quiet patterns, `Z_2^3 × Z_4` (`trivial` when
    /// only pressing nothing is quiet).
    pub quiet_group: String,
    /// Its invariant factors, each dividing the next (empty when trivial).
    pub invariant_factors: Vec<u32>,
    /// How many quiet patterns there are, in decimal.
    pub quiet_count: String,
    /// Generators of the quiet patterns as boards (rows separated by `/`,
    /// each cell its number of presses): for a prime K a basis.
    pub quiet_generators: Vec<String>,
    /// The order of each generator's coefficient: every quiet pattern is
    /// `Σ c_i·g_i` for exactly one choice of `0 ≤ c_i < order_i`.
    pub generator_orders: Vec<u32>,
    /// How many boards can be made all 0, in decimal.
    pub solvable_boards: String,
    /// Where K^(R·C) ≤ 2^25: entry `n` is how many boards need exactly `n`
    /// presses to become all 0 (`null` for more boards).
    pub histogram: Option<Vec<u64>>,
    /// The last index of the histogram: the most presses a solvable board
    /// needs ("God's number"; `null` with the histogram).
    pub max_presses: Option<usize>,
}

impl LightsInfo {
    /// The report of a variant's structure.
    pub fn new(info: &VariantInfo) -> LightsInfo {
        let v = &info.variant;
        LightsInfo {
            size: v.shape().to_string(),
            rows: v.rows(),
            cols: v.cols(),
            colours: v.colours(),
            wrap: v.wrap(),
            pattern: v.pattern().to_string(),
            nullity: info.nullity,
            quiet_group: info.quiet_group.to_string(),
            invariant_factors: info.quiet_group.invariant_factors().to_vec(),
            quiet_count: info.quiet_group.order().to_string(),
            quiet_generators: info
                .quiet_generators
                .iter()
                .map(|g| format!("{g:#}"))
                .collect(),
            generator_orders: info.generator_orders.clone(),
            solvable_boards: info.solvable_boards_text(),
            histogram: info.histogram.clone(),
            max_presses: info.max_presses,
        }
    }
}

/// A game of the [catalogue](crate::catalogue), as `boardbase games
/// --format json` lists it and `GET /api/v1/games` returns it.
///
/// ```
/// use boardbase::report::GameEntry;
///
/// let all = GameEntry::all();
/// assert_eq!(all[0].name, "flip");
/// assert_eq!(all[0].problems[0].command, "flip");
/// assert!(serde_json::to_string(&all[0])?.starts_with(r#"{"name":"flip","title":"Flip Game","kind":"puzzle""#));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameEntry {
    /// Its name (`flip`).
    pub name: &'static str,
    /// Its title (`Flip Game`).
    pub title: &'static str,
    /// `two-player`, `puzzle` or `count`.
    pub kind: &'static str,
    /// The question answered, in a few words.
    pub question: &'static str,
    /// The board sizes answered, in words.
    pub sizes: &'static str,
    /// Whether other shapes are answered from table files.
    pub tables: bool,
    /// The judges' problems on it.
    pub problems: Vec<ProblemEntry>,
    /// How `boardbase solve` sets it up (`null`: not solved through the
    /// game model).
    pub solve: Option<SolveEntry>,
}

/// How a game of the model is set up for `boardbase solve`, in a
/// [`GameEntry`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SolveEntry {
    /// The board when none is asked for, `RxC`.
    pub default_size: String,
    /// The most cells of a board.
    pub max_cells: usize,
    /// Its options.
    pub options: Vec<OptionEntry>,
}

/// A game's option in a [`SolveEntry`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OptionEntry {
    /// Its name (`k`: `--k` on the command line).
    pub name: &'static str,
    /// What it means.
    pub help: &'static str,
    /// Its value when not given.
    pub default: u64,
    /// The least value taken.
    pub min: u64,
    /// The greatest value taken.
    pub max: u64,
}

/// A judge's problem in a [`GameEntry`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ProblemEntry {
    /// The subcommand that answers and checks it (`flip`).
    pub command: &'static str,
    /// The judge and problem (`POJ 3279`), or `no original judge`.
    pub judge: &'static str,
    /// The time limit of one run, CPU seconds.
    pub time_limit: f64,
    /// The memory limit of one run, in MB (2^20 bytes).
    pub memory_limit_mb: f64,
    /// What a case is (`board`).
    pub case: &'static str,
    /// The most cases one input holds; `null` for no limit.
    pub max_cases: Option<u64>,
    /// The statement's limits on the input, in words (empty for none).
    pub limits: &'static str,
}

impl GameEntry {
    /// Every game of the catalogue, in its order.
    pub fn all() -> Vec<GameEntry> {
        crate::catalogue::GAMES
            .iter()
            .map(|g| GameEntry::new(g))
            .collect()
    }

    /// The entry of `game`.
    pub fn new(game: &crate::catalogue::Game) -> GameEntry {
        GameEntry {
            name: game.name,
            title: game.title,
            kind: game.kind.name(),
            question: game.question,
            sizes: game.sizes,
            tables: game.tables,
            problems: game
                .problems
                .iter()
                .map(|p| ProblemEntry {
                    command: p.command,
                    judge: p.judge,
                    time_limit: p.time_limit.as_secs_f64(),
                    memory_limit_mb: p.memory_limit as f64 / crate::catalogue::MB as f64,
                    case: p.noun.0,
                    max_cases: (p.max_cases != usize::MAX).then_some(p.max_cases as u64),
                    limits: p.limits,
                })
                .collect(),
            solve: crate::catalogue::model(game.name).map(|m| SolveEntry {
                default_size: m.default_shape.to_string(),
                max_cells: m.max_cells,
                options: m
                    .options
                    .iter()
                    .map(|o| OptionEntry {
                        name: o.name,
                        help: o.help,
                        default: o.default,
                        min: o.min,
                        max: o.max,
                    })
                    .collect(),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grids_are_written_as_their_display_form() {
        for (rows, cols) in [(1, 1), (1, 7), (5, 5), (3, 64), (64, 2), (64, 64)] {
            let shape = Shape::new(rows, cols).unwrap();
            let mut grid = Grid::new(shape);
            for i in 0..shape.cells() {
                if (i * 7 + i / 3) % 5 < 2 {
                    grid.set(i / cols, i % cols, true);
                }
            }
            assert_eq!(
                grid_string(&grid, 'w', 'b'),
                format!("{:#}", grid.show('b', 'w'))
            );
        }
    }

    #[test]
    fn four_by_four_boards_are_written_as_their_display_form() {
        for bits in 0..=u16::MAX {
            let board = Board::from_bits(bits);
            assert_eq!(FlipAnswer::new(1, board).board, format!("{board:#}"));
            let position = Position::from_bits(bits);
            assert_eq!(EulerAnswer::new(1, position).board, format!("{position:#}"));
        }
    }
}
