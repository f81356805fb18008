//! Where the server's answers come from: one source per puzzle and board
//! shape, behind two small traits, so that tables of other sizes and
//! run-time solvers plug in without touching the HTTP code.
//!
//! Today the [`Catalog`] holds the embedded 4×4 tables of Flip and Euler.
//! A table file (`--tables DIR`), a table made in memory or the GF(2) Flip
//! solver is one more [`FlipSource`] or [`EulerSource`] added to it; the
//! handlers, the move lists, `/api/v1/sizes` and the explorer's size
//! selector follow from the catalog.

use boardbase::error::ParseError;
use boardbase::euler::{self, Move, Outcome, Position};
use boardbase::flip::{self, Board};
use boardbase::report::{Cell, EulerAnswer, FlipAnswer};
use boardbase::tables::shape::Shape;
use serde::Serialize;

/// Flip Game answers for boards of one shape. Boards are `u64`s in the
/// shape's layout (cell (r, c) at bit `C·r + c`, set = black).
pub trait FlipSource: Send + Sync {
    /// The board shape answered.
    fn shape(&self) -> Shape;
    /// Where the answers come from, for `/api/v1/sizes`.
    fn source(&self) -> &str;
    /// Parses a board of this shape (rows separated by `/` or new lines).
    fn parse(&self, text: &str) -> Result<u64, ParseError>;
    /// The board's answer: the object of `boardbase flip --format json`.
    fn answer(&self, board: u64) -> FlipAnswer;
    /// The board after pressing (`row`, `col`) and its fewest rounds
    /// (`None`: impossible).
    fn press(&self, board: u64, row: usize, col: usize) -> (u64, Option<u8>);
    /// The board in its one-line form (`bwwb/bbwb/...`).
    fn render(&self, board: u64) -> String;
}

/// Game of Euler answers for positions of one shape (bit set = covered).
pub trait EulerSource: Send + Sync {
    /// The board shape answered.
    fn shape(&self) -> Shape;
    /// Where the answers come from, for `/api/v1/sizes`.
    fn source(&self) -> &str;
    /// Parses a position of this shape.
    fn parse(&self, text: &str) -> Result<u64, ParseError>;
    /// The position's answer: the object of `boardbase euler --format json`.
    fn answer(&self, position: u64) -> EulerAnswer;
    /// Every move of the shape (the squares it covers), in the solver's
    /// order; a move is legal where all its squares are open.
    fn moves(&self) -> &[u64];
    /// Who wins `position` for the player to move, and the moves left with
    /// perfect play (`None` where the source only knows win or loss).
    fn value(&self, position: u64) -> (Outcome, Option<u8>);
    /// The position in its one-line form (`XXX./XXX./...`).
    fn render(&self, position: u64) -> String;
}

/// The embedded 4×4 Flip tables.
pub struct EmbeddedFlip;

impl FlipSource for EmbeddedFlip {
    fn shape(&self) -> Shape {
        Shape::SQUARE4
    }

    fn source(&self) -> &str {
        "embedded tables"
    }

    fn parse(&self, text: &str) -> Result<u64, ParseError> {
        text.parse::<Board>().map(|b| u64::from(b.bits()))
    }

    fn answer(&self, board: u64) -> FlipAnswer {
        FlipAnswer::new(1, board4(board))
    }

    fn press(&self, board: u64, row: usize, col: usize) -> (u64, Option<u8>) {
        let after = board4(board).press(row, col);
        (u64::from(after.bits()), flip::rounds(after))
    }

    fn render(&self, board: u64) -> String {
        format!("{:#}", board4(board))
    }
}

/// The 4×4 board of a `u64` that a 4×4 source produced.
fn board4(bits: u64) -> Board {
    Board::from_bits(bits as u16)
}

/// The embedded 4×4 Euler tables.
pub struct EmbeddedEuler {
    moves: Vec<u64>,
}

impl EmbeddedEuler {
    pub fn new() -> EmbeddedEuler {
        EmbeddedEuler {
            moves: Move::ALL.iter().map(|m| u64::from(m.bits())).collect(),
        }
    }
}

fn position4(bits: u64) -> Position {
    Position::from_bits(bits as u16)
}

impl EulerSource for EmbeddedEuler {
    fn shape(&self) -> Shape {
        Shape::SQUARE4
    }

    fn source(&self) -> &str {
        "embedded tables"
    }

    fn parse(&self, text: &str) -> Result<u64, ParseError> {
        text.parse::<Position>().map(|p| u64::from(p.bits()))
    }

    fn answer(&self, position: u64) -> EulerAnswer {
        EulerAnswer::new(1, position4(position))
    }

    fn moves(&self) -> &[u64] {
        &self.moves
    }

    fn value(&self, position: u64) -> (Outcome, Option<u8>) {
        let entry = euler::probe(position4(position));
        (entry.outcome, Some(entry.moves_left))
    }

    fn render(&self, position: u64) -> String {
        format!("{:#}", position4(position))
    }
}

/// Every source the server answers from.
pub struct Catalog {
    flip: Vec<Box<dyn FlipSource>>,
    euler: Vec<Box<dyn EulerSource>>,
}

impl Catalog {
    /// What this build answers: the embedded 4×4 tables.
    pub fn embedded() -> Catalog {
        Catalog {
            flip: vec![Box::new(EmbeddedFlip)],
            euler: vec![Box::new(EmbeddedEuler::new())],
        }
    }

    /// The Flip source for boards of `shape`, if any.
    pub fn flip(&self, shape: Shape) -> Option<&dyn FlipSource> {
        self.flip.iter().find(|s| s.shape() == shape).map(|s| &**s)
    }

    /// The Euler source for positions of `shape`, if any.
    pub fn euler(&self, shape: Shape) -> Option<&dyn EulerSource> {
        self.euler.iter().find(|s| s.shape() == shape).map(|s| &**s)
    }

    /// The shapes answered, for `/api/v1/sizes`.
    pub fn sizes(&self) -> Sizes {
        let entry = |shape: Shape, source: &str| SizeEntry {
            size: shape.to_string(),
            rows: shape.rows(),
            cols: shape.cols(),
            source: source.to_owned(),
        };
        Sizes {
            flip: self
                .flip
                .iter()
                .map(|s| entry(s.shape(), s.source()))
                .collect(),
            euler: self
                .euler
                .iter()
                .map(|s| entry(s.shape(), s.source()))
                .collect(),
        }
    }
}

/// The board shapes answered, per puzzle.
#[derive(Serialize)]
pub struct Sizes {
    /// Flip Game shapes.
    pub flip: Vec<SizeEntry>,
    /// Game of Euler shapes.
    pub euler: Vec<SizeEntry>,
}

/// One answered shape.
#[derive(Serialize)]
pub struct SizeEntry {
    /// `RxC`, as the `size` parameter takes it.
    pub size: String,
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// Where the answers come from.
    pub source: String,
}

/// `GET /api/v1/flip`: the CLI's object and every press, best first.
#[derive(Serialize)]
pub struct FlipLookup {
    #[serde(flatten)]
    pub answer: FlipAnswer,
    /// Every cell's press, fewest rounds after it first, impossible ones
    /// last, ties in reading order.
    pub moves: Vec<FlipMove>,
}

/// One press in a [`FlipLookup`].
#[derive(Serialize)]
pub struct FlipMove {
    /// The cell pressed.
    pub cell: Cell,
    /// The board after the press.
    pub board: String,
    /// Whether a uniform board can be reached from there.
    pub solvable: bool,
    /// Fewest rounds from the board after the press (`null`: impossible).
    pub rounds: Option<u8>,
}

/// The lookup of one Flip board: its answer and all its presses.
pub fn flip_lookup(source: &dyn FlipSource, board: u64) -> FlipLookup {
    let shape = source.shape();
    let mut moves: Vec<FlipMove> = (0..shape.cells())
        .map(|i| {
            let (row, col) = shape.cell(i);
            let (after, rounds) = source.press(board, row, col);
            FlipMove {
                cell: [row, col],
                board: source.render(after),
                solvable: rounds.is_some(),
                rounds,
            }
        })
        .collect();
    // Stable: ties keep reading order.
    moves.sort_by_key(|m| m.rounds.map_or(u16::MAX, u16::from));
    FlipLookup {
        answer: source.answer(board),
        moves,
    }
}

/// `GET /api/v1/euler`: the CLI's object and every legal move, best first.
#[derive(Serialize)]
pub struct EulerLookup {
    #[serde(flatten)]
    pub answer: EulerAnswer,
    /// Every legal move: winning ones first (to a position lost for the
    /// opponent), fastest first; then losing ones, longest resistance
    /// first; ties in the solver's move order.
    pub moves: Vec<EulerMoveValue>,
}

/// One legal move in an [`EulerLookup`], with the value of the position it
/// leads to.
#[derive(Serialize)]
pub struct EulerMoveValue {
    /// The covered squares, bit `C·row + col`.
    pub mask: u64,
    /// The covered squares in reading order.
    pub cells: Vec<Cell>,
    /// The position after the move.
    pub board: String,
    /// Who wins there, for the player then to move (the opponent).
    pub outcome: Outcome,
    /// Moves left there with perfect play (`null` where unknown).
    pub moves_left: Option<u8>,
}

/// The lookup of one Euler position: its answer and all its legal moves.
pub fn euler_lookup(source: &dyn EulerSource, position: u64) -> EulerLookup {
    let shape = source.shape();
    let mut moves: Vec<EulerMoveValue> = source
        .moves()
        .iter()
        .filter(|&&m| position & m == 0)
        .map(|&m| {
            let after = position | m;
            let (outcome, moves_left) = source.value(after);
            EulerMoveValue {
                mask: m,
                cells: shape.cells_of(m).map(|(r, c)| [r, c]).collect(),
                board: source.render(after),
                outcome,
                moves_left,
            }
        })
        .collect();
    // Stable: ties keep the solver's order. A move to a lost position wins:
    // the fastest first; a move to a won position loses: the longest first.
    // Unknown lengths go last within their group.
    moves.sort_by_key(|m| match (m.outcome, m.moves_left) {
        (Outcome::Loss, Some(n)) => (0, i16::from(n)),
        (Outcome::Loss, None) => (1, 0),
        (Outcome::Win, Some(n)) => (2, -i16::from(n)),
        (Outcome::Win, None) => (3, 0),
    });
    EulerLookup {
        answer: source.answer(position),
        moves,
    }
}
