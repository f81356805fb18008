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
#[cfg(test)]
use boardbase::report::Cell;
use boardbase::report::{EulerAnswer, FlipAnswer};
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
    /// Appends the board in its one-line form (`bwwb/bbwb/...`).
    fn render_into(&self, board: u64, out: &mut Vec<u8>);
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
    /// Appends the position in its one-line form (`XXX./XXX./...`).
    fn render_into(&self, position: u64, out: &mut Vec<u8>);
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

    fn render_into(&self, board: u64, out: &mut Vec<u8>) {
        rows_into(board, Shape::SQUARE4, *b"wb", out);
    }
}

/// Appends a board's one-line form: `letters[bit]` per cell, rows separated
/// by `/` (as the library's `{:#}` writes a 4×4 board).
fn rows_into(board: u64, shape: Shape, letters: [u8; 2], out: &mut Vec<u8>) {
    let (rows, cols) = (shape.rows(), shape.cols());
    out.reserve(rows * (cols + 1));
    for r in 0..rows {
        if r > 0 {
            out.push(b'/');
        }
        let bits = shape.row_bits(board, r);
        out.extend((0..cols).map(|c| letters[(bits >> c & 1) as usize]));
    }
}

#[cfg(test)]
/// A board's one-line form as a string.
fn rows_string(render: impl FnOnce(&mut Vec<u8>)) -> String {
    let mut out = Vec::with_capacity(32);
    render(&mut out);
    // The letters are ASCII.
    String::from_utf8_lossy(&out).into_owned()
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

    fn render_into(&self, position: u64, out: &mut Vec<u8>) {
        rows_into(position, Shape::SQUARE4, *b".X", out);
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

#[cfg(test)]
/// `GET /api/v1/flip`: the CLI's object and every press, best first. The
/// API writes it by hand ([`flip_json`]); this serde form is what the tests
/// check those bytes against.
#[derive(Serialize)]
pub struct FlipLookup {
    #[serde(flatten)]
    pub answer: FlipAnswer,
    /// Every cell's press, fewest rounds after it first, impossible ones
    /// last, ties in reading order.
    pub moves: Vec<FlipMove>,
}

#[cfg(test)]
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

/// One press of a Flip lookup before it is written: cell index, the board
/// after it, its rounds.
struct Press {
    cell: usize,
    after: u64,
    rounds: Option<u8>,
}

/// Every press from `board`, fewest rounds after it first, impossible ones
/// last, ties in reading order (a stable sort of reading order).
fn presses(source: &dyn FlipSource, board: u64) -> Vec<Press> {
    let shape = source.shape();
    let mut moves: Vec<Press> = (0..shape.cells())
        .map(|cell| {
            let (row, col) = shape.cell(cell);
            let (after, rounds) = source.press(board, row, col);
            Press {
                cell,
                after,
                rounds,
            }
        })
        .collect();
    moves.sort_by_key(|m| m.rounds.map_or(u16::MAX, u16::from));
    moves
}

#[cfg(test)]
/// The lookup of one Flip board: its answer and all its presses.
pub fn flip_lookup(source: &dyn FlipSource, board: u64) -> FlipLookup {
    let shape = source.shape();
    let moves = presses(source, board)
        .into_iter()
        .map(|m| {
            let (row, col) = shape.cell(m.cell);
            FlipMove {
                cell: [row, col],
                board: rows_string(|out| source.render_into(m.after, out)),
                solvable: m.rounds.is_some(),
                rounds: m.rounds,
            }
        })
        .collect();
    FlipLookup {
        answer: source.answer(board),
        moves,
    }
}

/// [`flip_lookup`] written as JSON, the same bytes as `serde_json` writes
/// for it, without building its strings: the hot path of the API.
pub fn flip_json(source: &dyn FlipSource, board: u64) -> Vec<u8> {
    let shape = source.shape();
    let mut out = Vec::with_capacity(512 + 64 * shape.cells());
    open_object(&mut out, &source.answer(board));
    out.extend_from_slice(b",\"moves\":[");
    for (i, m) in presses(source, board).iter().enumerate() {
        let (row, col) = shape.cell(m.cell);
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(b"{\"cell\":[");
        push_number(&mut out, row as u64);
        out.push(b',');
        push_number(&mut out, col as u64);
        out.extend_from_slice(b"],\"board\":\"");
        source.render_into(m.after, &mut out);
        out.extend_from_slice(b"\",\"solvable\":");
        match m.rounds {
            Some(r) => {
                out.extend_from_slice(b"true,\"rounds\":");
                push_number(&mut out, u64::from(r));
            }
            None => out.extend_from_slice(b"false,\"rounds\":null"),
        }
        out.push(b'}');
    }
    out.extend_from_slice(b"]}");
    out
}

/// Writes `value`'s JSON object without its closing brace, so that more
/// fields can follow.
fn open_object(out: &mut Vec<u8>, value: &impl Serialize) {
    if serde_json::to_writer(&mut *out, value).is_ok() && out.last() == Some(&b'}') {
        out.pop();
    }
}

/// Appends `n` in decimal.
fn push_number(out: &mut Vec<u8>, mut n: u64) {
    // Cells, rounds and moves left: almost always one digit.
    if n < 10 {
        out.push(b'0' + n as u8);
        return;
    }
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[i..]);
}

#[cfg(test)]
/// `GET /api/v1/euler`: the CLI's object and every legal move, best first
/// (written by hand by [`euler_json`]; this serde form is the tests'
/// reference).
#[derive(Serialize)]
pub struct EulerLookup {
    #[serde(flatten)]
    pub answer: EulerAnswer,
    /// Every legal move: winning ones first (to a position lost for the
    /// opponent), fastest first; then losing ones, longest resistance
    /// first; ties in the solver's move order.
    pub moves: Vec<EulerMoveValue>,
}

#[cfg(test)]
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

/// One legal Euler move before it is written.
struct Play {
    mask: u64,
    outcome: Outcome,
    moves_left: Option<u8>,
}

/// Every legal move from `position`: a move to a lost position wins, the
/// fastest first; a move to a won position loses, the longest first;
/// unknown lengths last within their group; ties in the solver's order (a
/// stable sort).
fn plays(source: &dyn EulerSource, position: u64) -> Vec<Play> {
    let mut moves: Vec<Play> = source
        .moves()
        .iter()
        .filter(|&&m| position & m == 0)
        .map(|&mask| {
            let (outcome, moves_left) = source.value(position | mask);
            Play {
                mask,
                outcome,
                moves_left,
            }
        })
        .collect();
    moves.sort_by_key(|m| match (m.outcome, m.moves_left) {
        (Outcome::Loss, Some(n)) => (0, i16::from(n)),
        (Outcome::Loss, None) => (1, 0),
        (Outcome::Win, Some(n)) => (2, -i16::from(n)),
        (Outcome::Win, None) => (3, 0),
    });
    moves
}

#[cfg(test)]
/// The lookup of one Euler position: its answer and all its legal moves.
pub fn euler_lookup(source: &dyn EulerSource, position: u64) -> EulerLookup {
    let shape = source.shape();
    let moves = plays(source, position)
        .into_iter()
        .map(|m| EulerMoveValue {
            mask: m.mask,
            cells: shape.cells_of(m.mask).map(|(r, c)| [r, c]).collect(),
            board: rows_string(|out| source.render_into(position | m.mask, out)),
            outcome: m.outcome,
            moves_left: m.moves_left,
        })
        .collect();
    EulerLookup {
        answer: source.answer(position),
        moves,
    }
}

/// [`euler_lookup`] written as JSON, the same bytes as `serde_json` writes
/// for it: the hot path of the API.
pub fn euler_json(source: &dyn EulerSource, position: u64) -> Vec<u8> {
    let shape = source.shape();
    let moves = plays(source, position);
    let mut out = Vec::with_capacity(512 + 110 * moves.len());
    open_object(&mut out, &source.answer(position));
    out.extend_from_slice(b",\"moves\":[");
    for (i, m) in moves.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(b"{\"mask\":");
        push_number(&mut out, m.mask);
        out.extend_from_slice(b",\"cells\":[");
        for (k, (r, c)) in shape.cells_of(m.mask).enumerate() {
            out.extend_from_slice(if k > 0 { b",[" } else { b"[" });
            push_number(&mut out, r as u64);
            out.push(b',');
            push_number(&mut out, c as u64);
            out.push(b']');
        }
        out.extend_from_slice(b"],\"board\":\"");
        source.render_into(position | m.mask, &mut out);
        out.extend_from_slice(match m.outcome {
            Outcome::Win => b"\",\"outcome\":\"win\",\"moves_left\":",
            Outcome::Loss => b"\",\"outcome\":\"loss\",\"moves_left\":",
        });
        match m.moves_left {
            Some(n) => push_number(&mut out, u64::from(n)),
            None => out.extend_from_slice(b"null"),
        }
        out.push(b'}');
    }
    out.extend_from_slice(b"]}");
    out
}
