//! What answers one board shape of a puzzle: the embedded 4×4 tables, a
//! table file (mapped) or a table made in memory, behind one interface per
//! puzzle ([`FlipSource`], [`EulerSource`]) with the texts of every move
//! written once per shape.

use std::sync::{Arc, OnceLock};

use boardbase_tables::shape::Shape;

use super::json::{
    EULER_LETTERS, FLIP_LETTERS, open_euler_object, open_flip_object, push_cells, push_move,
    push_number, push_route, rows_into,
};
use crate::euler::{self, Move, Outcome, Position};
use crate::flip::{self, Board};
use crate::report::{EulerAnswer, FlipAnswer};
use crate::tablefile::{Table, TableError};

/// Flip Game answers for boards of one shape that fit a `u64` (cell (r, c)
/// at bit `C·r + c`, set = black): the embedded tables and table files.
pub trait FlipSource: Send + Sync {
    /// The board shape answered.
    fn shape(&self) -> Shape;
    /// The board's answer: the object of `boardbase flip --format json`.
    fn answer(&self, board: u64) -> Result<FlipAnswer, TableError>;
    /// The board after pressing (`row`, `col`) and its fewest rounds
    /// (`None`: impossible).
    fn press(&self, board: u64, row: usize, col: usize) -> Result<(u64, Option<u8>), TableError>;
    /// The start of each press's object in a lookup's `moves`.
    fn moves(&self) -> &MoveTexts;
    /// Writes the board's [`answer`](Self::answer) as JSON, without its
    /// closing brace, so that more fields can follow.
    fn open_answer(&self, board: u64, out: &mut Vec<u8>) -> Result<(), TableError> {
        open_flip_object(out, &self.answer(board)?);
        Ok(())
    }
}

/// Game of Euler answers for positions of one shape (bit set = covered).
pub trait EulerSource: Send + Sync {
    /// The board shape answered.
    fn shape(&self) -> Shape;
    /// The position's answer: the object of `boardbase euler --format json`.
    fn answer(&self, position: u64) -> Result<EulerAnswer, TableError>;
    /// Every move of the shape (the squares it covers), in the solver's
    /// order, with its JSON; a move is legal where all its squares are open.
    fn moves(&self) -> &EulerMoves;
    /// Who wins `position` for the player to move, and the moves left with
    /// perfect play (`None` where the source only knows win or loss).
    fn value(&self, position: u64) -> Result<(Outcome, Option<u8>), TableError>;
    /// Every legal move from `position` with the [`value`](Self::value) of
    /// the position it leads to, in the moves' order: one call per lookup,
    /// so that a table's columns are resolved once, not once per move.
    fn plays(&self, position: u64) -> Result<Vec<Play>, TableError> {
        plays_by(self.moves(), position, |after| self.value(after))
    }
    /// Writes the position's [`answer`](Self::answer) as JSON, without its
    /// closing brace, so that more fields can follow; `plays` are its
    /// legal moves.
    fn open_answer(
        &self,
        position: u64,
        plays: &[Play],
        out: &mut Vec<u8>,
    ) -> Result<(), TableError> {
        let _ = plays;
        open_euler_object(out, &self.answer(position)?);
        Ok(())
    }
}

/// The embedded 4×4 Flip tables.
pub struct EmbeddedFlip {
    moves: MoveTexts,
}

impl Default for EmbeddedFlip {
    fn default() -> EmbeddedFlip {
        EmbeddedFlip::new()
    }
}

impl EmbeddedFlip {
    /// The source of the embedded tables, its press texts written once.
    pub fn new() -> EmbeddedFlip {
        EmbeddedFlip {
            moves: MoveTexts::presses(Shape::SQUARE4),
        }
    }
}

impl FlipSource for EmbeddedFlip {
    fn shape(&self) -> Shape {
        Shape::SQUARE4
    }

    fn answer(&self, board: u64) -> Result<FlipAnswer, TableError> {
        Ok(FlipAnswer::new(1, board4(board)))
    }

    fn press(&self, board: u64, row: usize, col: usize) -> Result<(u64, Option<u8>), TableError> {
        let after = board4(board).press(row, col);
        Ok((u64::from(after.bits()), flip::rounds(after)))
    }

    fn moves(&self) -> &MoveTexts {
        &self.moves
    }

    /// [`FlipAnswer::new`]'s object written straight from [`flip::solve`],
    /// without building its strings and lists (the tests compare the two
    /// on every board).
    fn open_answer(&self, board: u64, out: &mut Vec<u8>) -> Result<(), TableError> {
        out.extend_from_slice(b"{\"case\":1,\"board\":\"");
        rows_into(board, Shape::SQUARE4, FLIP_LETTERS, out);
        let Some(s) = flip::solve(board4(board)) else {
            out.extend_from_slice(
                b"\",\"answer\":\"Impossible\",\"solvable\":false,\"rounds\":null,\"colour\":null,\
                \"presses\":null,\"optimal_sets\":0,\"to_white\":null,\"to_black\":null",
            );
            return Ok(());
        };
        out.extend_from_slice(b"\",\"answer\":\"");
        push_number(out, u64::from(s.rounds));
        out.extend_from_slice(b"\",\"solvable\":true,\"rounds\":");
        push_number(out, u64::from(s.rounds));
        out.extend_from_slice(match s.colour {
            flip::Colour::White => b",\"colour\":\"white\",\"presses\":",
            flip::Colour::Black => b",\"colour\":\"black\",\"presses\":",
        });
        push_cells(out, s.presses.cells());
        out.extend_from_slice(b",\"optimal_sets\":");
        push_number(out, u64::from(s.optimal_sets));
        for (key, route) in [
            (&b",\"to_white\":"[..], s.to_white),
            (b",\"to_black\":", s.to_black),
        ] {
            out.extend_from_slice(key);
            push_route(
                out,
                route.rounds.into(),
                route.presses.cells(),
                route.optimal_sets.into(),
            );
        }
        Ok(())
    }
}

/// A Flip table file (mapped).
pub struct TableFlip {
    table: Arc<Table>,
    /// Each cell's press: the cells it flips.
    masks: Vec<u64>,
    moves: MoveTexts,
}

impl TableFlip {
    /// The table answered from.
    pub fn table(&self) -> &Arc<Table> {
        &self.table
    }

    /// The source of a Flip `table`.
    pub fn new(table: Arc<Table>) -> TableFlip {
        let masks = boardbase_tables::flip::press_masks(table.shape())
            .as_slice()
            .to_vec();
        let moves = MoveTexts::presses(table.shape());
        TableFlip {
            table,
            masks,
            moves,
        }
    }
}

impl FlipSource for TableFlip {
    fn shape(&self) -> Shape {
        self.table.shape()
    }

    fn answer(&self, board: u64) -> Result<FlipAnswer, TableError> {
        FlipAnswer::from_table(1, board, &self.table.as_flip()?)
    }

    fn press(&self, board: u64, row: usize, col: usize) -> Result<(u64, Option<u8>), TableError> {
        let shape = self.table.shape();
        let after = board ^ self.masks[shape.index(row, col)];
        Ok((after, self.table.as_flip()?.rounds(after)?))
    }

    fn moves(&self) -> &MoveTexts {
        &self.moves
    }
}

/// The start of each move's object in a lookup's `moves`, up to the text
/// of the board it leads to (`{"cell":[r,c],"board":"` for a Flip press,
/// `{"mask":M,"cells":[[r,c],...],"board":"` for an Euler move): the part
/// that does not depend on the board, written once per source instead of
/// once per move of every request; and where each cell's letter is in a
/// board's text, so that the board after a move is the board's text with
/// a few letters changed.
#[derive(Clone)]
pub struct MoveTexts {
    /// Move `i`'s text is `text[starts[i]..starts[i + 1]]`.
    text: Vec<u8>,
    starts: Vec<usize>,
    /// Cell `i`'s letter is at `offsets[i]` of a board's text (boards of
    /// at most 64 cells; row r, column c at r·(C + 1) + c).
    offsets: [u8; 64],
}

impl MoveTexts {
    /// No moves yet, for boards of `shape`.
    fn with_shape(shape: Shape) -> MoveTexts {
        let mut offsets = [0u8; 64];
        for (i, offset) in offsets.iter_mut().enumerate().take(shape.cells()) {
            let (r, c) = shape.cell(i);
            // At most 63·2 (64 rows of one cell).
            *offset = u8::try_from(r * (shape.cols() + 1) + c).unwrap_or(u8::MAX);
        }
        MoveTexts {
            text: Vec::new(),
            starts: vec![0],
            offsets,
        }
    }

    /// Every press of `shape`, in reading order.
    pub fn presses(shape: Shape) -> MoveTexts {
        let mut texts = MoveTexts::with_shape(shape);
        for cell in 0..shape.cells() {
            let (r, c) = shape.cell(cell);
            let text = &mut texts.text;
            text.extend_from_slice(b"{\"cell\":[");
            push_number(text, r as u64);
            text.push(b',');
            push_number(text, c as u64);
            text.push(b']');
            if shape.fits_u64() {
                text.extend_from_slice(b",\"board\":\"");
            }
            texts.starts.push(text.len());
        }
        texts
    }

    /// The start of move `index`'s JSON object, up to its board's text.
    pub(crate) fn text(&self, index: usize) -> &[u8] {
        &self.text[self.starts[index]..self.starts[index + 1]]
    }

    /// Appends the one-line form of `after` given `base`, that of `board`
    /// (of this shape): `base` with the cells where the two differ
    /// re-lettered. A press or a move changes a few cells, so this copies
    /// the text once instead of walking every cell.
    pub(crate) fn patched_rows_into(
        &self,
        base: &[u8],
        board: u64,
        after: u64,
        letters: [u8; 2],
        out: &mut Vec<u8>,
    ) {
        let start = out.len();
        out.extend_from_slice(base);
        let text = &mut out[start..];
        let mut changed = board ^ after;
        while changed != 0 {
            let i = changed.trailing_zeros() as usize;
            changed &= changed - 1;
            if let Some(letter) = text.get_mut(usize::from(self.offsets[i])) {
                *letter = letters[(after >> i & 1) as usize];
            }
        }
    }
}

/// A shape's Euler moves and their [`MoveTexts`], written the first time
/// an answer needs them (the JSON and pretty answers; a judge's answer
/// does not, and a one-board query would spend a tenth of its instructions
/// on them).
pub struct EulerMoves {
    shape: Shape,
    masks: Vec<u64>,
    texts: OnceLock<MoveTexts>,
}

impl EulerMoves {
    /// The moves `masks` of `shape`.
    pub fn new(shape: Shape, masks: Vec<u64>) -> EulerMoves {
        EulerMoves {
            shape,
            masks,
            texts: OnceLock::new(),
        }
    }

    /// The squares each move covers.
    pub fn masks(&self) -> &[u64] {
        &self.masks
    }

    /// The moves' texts.
    pub(crate) fn texts(&self) -> &MoveTexts {
        self.texts.get_or_init(|| {
            let mut texts = MoveTexts::with_shape(self.shape);
            for &mask in &self.masks {
                let text = &mut texts.text;
                text.extend_from_slice(b"{\"mask\":");
                push_number(text, mask);
                text.extend_from_slice(b",\"cells\":");
                push_cells(text, self.shape.cells_of(mask));
                text.extend_from_slice(b",\"board\":\"");
                texts.starts.push(text.len());
            }
            texts
        })
    }
}

/// The 4×4 board of a `u64` that a 4×4 source produced.
fn board4(bits: u64) -> Board {
    Board::from_bits(bits as u16)
}

/// The embedded 4×4 Euler tables.
pub struct EmbeddedEuler {
    moves: EulerMoves,
}

impl Default for EmbeddedEuler {
    fn default() -> EmbeddedEuler {
        EmbeddedEuler::new()
    }
}

impl EmbeddedEuler {
    /// The source of the embedded tables.
    pub fn new() -> EmbeddedEuler {
        let masks = Move::ALL.iter().map(|m| u64::from(m.bits())).collect();
        EmbeddedEuler {
            moves: EulerMoves::new(Shape::SQUARE4, masks),
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

    fn answer(&self, position: u64) -> Result<EulerAnswer, TableError> {
        Ok(EulerAnswer::new(1, position4(position)))
    }

    fn moves(&self) -> &EulerMoves {
        &self.moves
    }

    fn value(&self, position: u64) -> Result<(Outcome, Option<u8>), TableError> {
        let entry = euler::probe(position4(position));
        Ok((entry.outcome, Some(entry.moves_left)))
    }

    /// [`EulerAnswer::new`]'s object written straight from
    /// [`euler::probe`], its move counts from `plays` (a move wins where
    /// it leaves a lost position) instead of probing every move again (the
    /// tests compare the two on every position).
    fn open_answer(
        &self,
        position: u64,
        plays: &[Play],
        out: &mut Vec<u8>,
    ) -> Result<(), TableError> {
        let entry = euler::probe(position4(position));
        out.extend_from_slice(b"{\"case\":1,\"board\":\"");
        rows_into(position, Shape::SQUARE4, EULER_LETTERS, out);
        out.extend_from_slice(match entry.outcome {
            Outcome::Win => b"\",\"answer\":\"WINNING\",\"outcome\":\"win\",\"moves_left\":",
            Outcome::Loss => b"\",\"answer\":\"LOSING\",\"outcome\":\"loss\",\"moves_left\":",
        });
        push_number(out, u64::from(entry.moves_left));
        out.extend_from_slice(b",\"best_move\":");
        match entry.best_move {
            Some(m) => push_move(out, m.bits().into(), m.cells()),
            None => out.extend_from_slice(b"null"),
        }
        out.extend_from_slice(b",\"winning_moves\":");
        let winning = plays.iter().filter(|p| p.outcome == Outcome::Loss).count();
        push_number(out, winning as u64);
        out.extend_from_slice(b",\"legal_moves\":");
        push_number(out, plays.len() as u64);
        Ok(())
    }
}

/// An Euler table: a file (mapped), or made in memory.
pub struct TableEuler {
    table: Arc<Table>,
    moves: EulerMoves,
}

impl TableEuler {
    /// The table answered from.
    pub fn table(&self) -> &Arc<Table> {
        &self.table
    }

    /// The source of an Euler `table` (an error for a Flip table).
    pub fn new(table: Arc<Table>) -> Result<TableEuler, TableError> {
        let moves = EulerMoves::new(table.shape(), table.as_euler()?.moves().to_vec());
        Ok(TableEuler { table, moves })
    }

    /// Whether the table holds win/loss only.
    pub fn is_wdl_only(&self) -> bool {
        self.table.is_wdl_only()
    }
}

impl EulerSource for TableEuler {
    fn shape(&self) -> Shape {
        self.table.shape()
    }

    fn answer(&self, position: u64) -> Result<EulerAnswer, TableError> {
        EulerAnswer::from_table(1, position, &self.table.as_euler()?)
    }

    fn moves(&self) -> &EulerMoves {
        &self.moves
    }

    fn value(&self, position: u64) -> Result<(Outcome, Option<u8>), TableError> {
        let entry = self.table.as_euler()?.probe(position)?;
        Ok((entry.outcome, entry.moves_left))
    }

    fn plays(&self, position: u64) -> Result<Vec<Play>, TableError> {
        let table = self.table.as_euler()?;
        plays_by(&self.moves, position, |after| {
            let entry = table.probe(after)?;
            Ok((entry.outcome, entry.moves_left))
        })
    }
}

/// One legal Euler move before it is written.
pub struct Play {
    /// The move's index in the source's moves.
    pub index: usize,
    /// The squares it covers.
    pub mask: u64,
    /// Who wins the position after it, for the opponent then to move.
    pub outcome: Outcome,
    /// Moves left there with perfect play.
    pub moves_left: Option<u8>,
}

/// Every legal move of `moves` from `position` and the `value` of the
/// position it leads to, in the moves' order.
fn plays_by(
    moves: &EulerMoves,
    position: u64,
    value: impl Fn(u64) -> Result<(Outcome, Option<u8>), TableError>,
) -> Result<Vec<Play>, TableError> {
    moves
        .masks()
        .iter()
        .enumerate()
        .filter(|&(_, &m)| position & m == 0)
        .map(|(index, &mask)| {
            let (outcome, moves_left) = value(position | mask)?;
            Ok(Play {
                index,
                mask,
                outcome,
                moves_left,
            })
        })
        .collect()
}
