//! Where the server's answers come from, and their JSON.
//!
//! The [`Catalog`] says, per puzzle and board shape, what answers it, in the
//! order of the command line's `--size` (the library's
//! [`tablefile::Catalog`]):
//!
//! - 4×4: the embedded tables ([`EmbeddedFlip`], [`EmbeddedEuler`]: the hot
//!   path, written by hand);
//! - a table file `flip-RxC.bin` / `euler-RxC.bin` in the `--tables`
//!   directories or those of `BOARDBASE_TABLES`, opened (mapped) at start
//!   ([`TableFlip`], [`TableEuler`]);
//! - Flip of any other shape up to 64×64: the GF(2) solver
//!   ([`lights`], exact up to nullity 24; every press's value by
//!   [`lights::Solver::move_values`]);
//! - Euler of a shape with no file and at most 25 squares: a table made in
//!   memory on first use ([`super::made`]).
//!
//! Every lookup answers the object of `boardbase flip|euler --size RxC
//! --format json` plus `moves` (see [`flip_json`] and [`euler_json`]).

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::sync::{Arc, OnceLock, RwLock};

use boardbase::euler::{self, Move, Outcome, Position};
use boardbase::flip::{self, Board};
use boardbase::lights::{self, Grid, LightsError, MAX_NULLITY, Solver};
#[cfg(test)]
use boardbase::report::Cell;
use boardbase::report::{EulerAnswer, EulerMove, FlipAnswer, FlipRoute};
use boardbase::tablefile::{self, FindError, ProbeError, Puzzle, Table};
use boardbase::tables::shape::{MAX_SIDE, Shape};
use serde::Serialize;

use super::made::Maker;

/// Flip Game answers for boards of one shape that fit a `u64` (cell (r, c)
/// at bit `C·r + c`, set = black): the embedded tables and table files.
pub trait FlipSource: Send + Sync {
    /// The board shape answered.
    fn shape(&self) -> Shape;
    /// The board's answer: the object of `boardbase flip --format json`.
    fn answer(&self, board: u64) -> Result<FlipAnswer, ProbeError>;
    /// The board after pressing (`row`, `col`) and its fewest rounds
    /// (`None`: impossible).
    fn press(&self, board: u64, row: usize, col: usize) -> Result<(u64, Option<u8>), ProbeError>;
    /// The start of each press's object in a lookup's `moves`.
    fn moves(&self) -> &MoveTexts;
    /// Writes the board's [`answer`](Self::answer) as JSON, without its
    /// closing brace ([`open_flip_object`]).
    fn open_answer(&self, board: u64, out: &mut Vec<u8>) -> Result<(), ProbeError> {
        open_flip_object(out, &self.answer(board)?);
        Ok(())
    }
}

/// Game of Euler answers for positions of one shape (bit set = covered).
pub trait EulerSource: Send + Sync {
    /// The board shape answered.
    fn shape(&self) -> Shape;
    /// The position's answer: the object of `boardbase euler --format json`.
    fn answer(&self, position: u64) -> Result<EulerAnswer, ProbeError>;
    /// Every move of the shape (the squares it covers), in the solver's
    /// order, with its JSON; a move is legal where all its squares are open.
    fn moves(&self) -> &EulerMoves;
    /// Who wins `position` for the player to move, and the moves left with
    /// perfect play (`None` where the source only knows win or loss).
    fn value(&self, position: u64) -> Result<(Outcome, Option<u8>), ProbeError>;
    /// Every legal move from `position` with the [`value`](Self::value) of
    /// the position it leads to, in the moves' order: one call per lookup,
    /// so that a table's columns are resolved once, not once per move.
    fn plays(&self, position: u64) -> Result<Vec<Play>, ProbeError> {
        plays_by(self.moves(), position, |after| self.value(after))
    }
    /// Writes the position's [`answer`](Self::answer) as JSON, without its
    /// closing brace ([`open_euler_object`]); `plays` are its legal moves.
    fn open_answer(
        &self,
        position: u64,
        plays: &[Play],
        out: &mut Vec<u8>,
    ) -> Result<(), ProbeError> {
        let _ = plays;
        open_euler_object(out, &self.answer(position)?);
        Ok(())
    }
}

/// The embedded 4×4 Flip tables.
pub struct EmbeddedFlip {
    moves: MoveTexts,
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

    fn answer(&self, board: u64) -> Result<FlipAnswer, ProbeError> {
        Ok(FlipAnswer::new(1, board4(board)))
    }

    fn press(&self, board: u64, row: usize, col: usize) -> Result<(u64, Option<u8>), ProbeError> {
        let after = board4(board).press(row, col);
        Ok((u64::from(after.bits()), flip::rounds(after)))
    }

    fn moves(&self) -> &MoveTexts {
        &self.moves
    }

    /// [`FlipAnswer::new`]'s object written straight from [`flip::solve`],
    /// without building its strings and lists (the tests compare the two
    /// on every board).
    fn open_answer(&self, board: u64, out: &mut Vec<u8>) -> Result<(), ProbeError> {
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
    /// The source of a Flip `table`.
    pub fn new(table: Arc<Table>) -> TableFlip {
        let masks = boardbase::tables::flip::press_masks(table.shape())
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

    fn answer(&self, board: u64) -> Result<FlipAnswer, ProbeError> {
        FlipAnswer::from_table(1, board, &self.table.as_flip()?)
    }

    fn press(&self, board: u64, row: usize, col: usize) -> Result<(u64, Option<u8>), ProbeError> {
        let shape = self.table.shape();
        let after = board ^ self.masks[shape.index(row, col)];
        Ok((after, self.table.as_flip()?.rounds(after)?))
    }

    fn moves(&self) -> &MoveTexts {
        &self.moves
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
fn rows_string(board: u64, shape: Shape, letters: [u8; 2]) -> String {
    let mut out = Vec::with_capacity(32);
    rows_into(board, shape, letters, &mut out);
    // The letters are ASCII.
    String::from_utf8_lossy(&out).into_owned()
}

/// Flip's letters: white, black.
const FLIP_LETTERS: [u8; 2] = *b"wb";
/// Euler's letters: open, covered.
const EULER_LETTERS: [u8; 2] = *b".X";

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
    fn text(&self, index: usize) -> &[u8] {
        &self.text[self.starts[index]..self.starts[index + 1]]
    }

    /// Appends the one-line form of `after` given `base`, that of `board`
    /// (of this shape): `base` with the cells where the two differ
    /// re-lettered. A press or a move changes a few cells, so this copies
    /// the text once instead of walking every cell.
    fn patched_rows_into(
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

/// A shape's Euler moves and their [`MoveTexts`].
pub struct EulerMoves {
    masks: Vec<u64>,
    texts: MoveTexts,
}

impl EulerMoves {
    /// The moves `masks` of `shape` and their texts.
    pub fn new(shape: Shape, masks: Vec<u64>) -> EulerMoves {
        let mut texts = MoveTexts::with_shape(shape);
        for &mask in &masks {
            let text = &mut texts.text;
            text.extend_from_slice(b"{\"mask\":");
            push_number(text, mask);
            text.extend_from_slice(b",\"cells\":");
            push_cells(text, shape.cells_of(mask));
            text.extend_from_slice(b",\"board\":\"");
            texts.starts.push(text.len());
        }
        EulerMoves { masks, texts }
    }

    /// The squares each move covers.
    pub fn masks(&self) -> &[u64] {
        &self.masks
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

impl EmbeddedEuler {
    /// The source of the embedded tables, its move texts written once.
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

    fn answer(&self, position: u64) -> Result<EulerAnswer, ProbeError> {
        Ok(EulerAnswer::new(1, position4(position)))
    }

    fn moves(&self) -> &EulerMoves {
        &self.moves
    }

    fn value(&self, position: u64) -> Result<(Outcome, Option<u8>), ProbeError> {
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
    ) -> Result<(), ProbeError> {
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
    /// The source of an Euler `table` (an error for a Flip table).
    pub fn new(table: Arc<Table>) -> Result<TableEuler, ProbeError> {
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

    fn answer(&self, position: u64) -> Result<EulerAnswer, ProbeError> {
        EulerAnswer::from_table(1, position, &self.table.as_euler()?)
    }

    fn moves(&self) -> &EulerMoves {
        &self.moves
    }

    fn value(&self, position: u64) -> Result<(Outcome, Option<u8>), ProbeError> {
        let entry = self.table.as_euler()?.probe(position)?;
        Ok((entry.outcome, entry.moves_left))
    }

    fn plays(&self, position: u64) -> Result<Vec<Play>, ProbeError> {
        let table = self.table.as_euler()?;
        plays_by(&self.moves, position, |after| {
            let entry = table.probe(after)?;
            Ok((entry.outcome, entry.moves_left))
        })
    }
}

/// A table file found at start: opened, or the reason it could not be.
pub enum FileEntry<S> {
    /// Opened and checked.
    Ready {
        /// The answers.
        source: Arc<S>,
        /// The file.
        path: PathBuf,
    },
    /// Damaged or mislabelled: the shape's lookups answer this error.
    Broken {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        error: String,
    },
}

/// What answers a Flip board of some shape.
pub enum FlipFrom {
    /// A table (embedded or file).
    Table(Arc<dyn FlipSource>),
    /// The GF(2) solver.
    Lights(&'static Solver),
}

/// Why a shape has no answers.
pub enum Unanswered {
    /// A table file of the shape that cannot be used.
    Broken {
        /// The file.
        path: PathBuf,
        /// Why.
        error: String,
    },
    /// Flip: the shape's nullity is past the exact search.
    Lights(LightsError),
    /// Euler: more squares than any table.
    TooManyCells(FindError),
    /// Euler: no file, and not made in memory here.
    Missing,
}

/// Every source the server answers from.
pub struct Catalog {
    /// The directories searched, and the library's rules.
    library: tablefile::Catalog,
    embedded_flip: Arc<dyn FlipSource>,
    embedded_euler: Arc<dyn EulerSource>,
    flip_files: BTreeMap<Shape, FileEntry<TableFlip>>,
    euler_files: BTreeMap<Shape, FileEntry<TableEuler>>,
    maker: Arc<Maker>,
}

/// What finding the table files said, for the server's first lines.
pub struct Found {
    /// One line per file: used, or why not.
    pub lines: Vec<String>,
}

impl Catalog {
    /// The embedded 4×4 tables only, nothing made in memory.
    pub fn embedded() -> Catalog {
        Catalog {
            library: tablefile::Catalog::new(Vec::<PathBuf>::new()),
            embedded_flip: Arc::new(EmbeddedFlip::new()),
            embedded_euler: Arc::new(EmbeddedEuler::new()),
            flip_files: BTreeMap::new(),
            euler_files: BTreeMap::new(),
            maker: Arc::new(Maker::new(0)),
        }
    }

    /// The table files of `library`'s directories (each opened, mapped and
    /// checked now), and Euler tables made in memory within
    /// `make_budget` bytes.
    pub fn open(library: tablefile::Catalog, make_budget: u64) -> (Catalog, Found) {
        let mut catalog = Catalog {
            maker: Arc::new(Maker::new(make_budget)),
            ..Catalog::embedded()
        };
        let mut lines = Vec::new();
        for (puzzle, shape, path) in library.list() {
            if shape == Shape::SQUARE4 {
                lines.push(format!(
                    "{}: not used (4x4 is answered by the embedded tables)",
                    path.display()
                ));
                continue;
            }
            let found = library.find(puzzle, shape);
            fn broken<S>(path: &std::path::Path, error: String) -> FileEntry<S> {
                FileEntry::Broken {
                    path: path.to_owned(),
                    error,
                }
            }
            match puzzle {
                Puzzle::Flip => {
                    let entry = match found {
                        Ok(Some(f)) => FileEntry::Ready {
                            source: Arc::new(TableFlip::new(Arc::new(f.table))),
                            path: path.clone(),
                        },
                        Ok(None) => continue,
                        Err(e) => broken(&path, e.to_string()),
                    };
                    catalog.flip_files.insert(shape, entry);
                }
                Puzzle::Euler => {
                    let entry = match found {
                        Ok(Some(f)) => match TableEuler::new(Arc::new(f.table)) {
                            Ok(source) => FileEntry::Ready {
                                source: Arc::new(source),
                                path: path.clone(),
                            },
                            Err(e) => broken(&path, format!("{}: {e}", path.display())),
                        },
                        Ok(None) => continue,
                        Err(e) => broken(&path, e.to_string()),
                    };
                    catalog.euler_files.insert(shape, entry);
                }
            }
            lines.extend(catalog.describe(puzzle, shape));
        }
        catalog.library = library;
        (catalog, Found { lines })
    }

    /// One line about the file of `puzzle` on `shape`.
    fn describe(&self, puzzle: Puzzle, shape: Shape) -> Option<String> {
        let (path, error, wdl) = match puzzle {
            Puzzle::Flip => match self.flip_files.get(&shape)? {
                FileEntry::Ready { path, .. } => (path, None, false),
                FileEntry::Broken { path, error } => (path, Some(error), false),
            },
            Puzzle::Euler => match self.euler_files.get(&shape)? {
                FileEntry::Ready { path, source } => (path, None, source.is_wdl_only()),
                FileEntry::Broken { path, error } => (path, Some(error), false),
            },
        };
        Some(match error {
            Some(error) => format!("{error} (not used: its lookups answer 422)"),
            None => format!(
                "{}: {puzzle} {shape}{}",
                path.display(),
                if wdl { " (win/loss only)" } else { "" }
            ),
        })
    }

    /// The maker of Euler tables in memory.
    pub fn maker(&self) -> &Arc<Maker> {
        &self.maker
    }

    /// What answers Flip boards of `shape`.
    pub fn flip(&self, shape: Shape) -> Result<FlipFrom, Unanswered> {
        if shape == Shape::SQUARE4 {
            return Ok(FlipFrom::Table(self.embedded_flip.clone()));
        }
        match self.flip_files.get(&shape) {
            Some(FileEntry::Ready { source, .. }) => Ok(FlipFrom::Table(source.clone())),
            Some(FileEntry::Broken { path, error }) => Err(Unanswered::Broken {
                path: path.clone(),
                error: error.clone(),
            }),
            None => {
                let solver = Solver::cached(shape);
                if solver.is_exact() {
                    Ok(FlipFrom::Lights(solver))
                } else {
                    Err(Unanswered::Lights(LightsError::NullityTooLarge {
                        shape,
                        nullity: solver.nullity(),
                        max: MAX_NULLITY,
                    }))
                }
            }
        }
    }

    /// What answers Euler positions of `shape`: `Ok(Some(..))` a table at
    /// hand, `Ok(None)` one to make in memory ([`Catalog::maker`]).
    pub fn euler(&self, shape: Shape) -> Result<Option<Arc<dyn EulerSource>>, Unanswered> {
        if shape == Shape::SQUARE4 {
            return Ok(Some(self.embedded_euler.clone()));
        }
        if shape.cells() > Puzzle::Euler.max_cells() {
            return Err(Unanswered::TooManyCells(FindError::TooManyCells {
                puzzle: Puzzle::Euler,
                shape,
                cells: shape.cells(),
                max: Puzzle::Euler.max_cells(),
            }));
        }
        match self.euler_files.get(&shape) {
            Some(FileEntry::Ready { source, .. }) => Ok(Some(source.clone())),
            Some(FileEntry::Broken { path, error }) => Err(Unanswered::Broken {
                path: path.clone(),
                error: error.clone(),
            }),
            // A table made before: without asking again whether it would
            // be made (which plans the generator's memory).
            None => match self.maker.ready(shape) {
                Some(made) => Ok(Some(made as Arc<dyn EulerSource>)),
                None if self.maker.would_make(shape) => Ok(None),
                None => Err(Unanswered::Missing),
            },
        }
    }

    /// The `boardbase generate` command that makes the table of `puzzle`
    /// on `shape` where this server looks for it.
    pub fn generate_command(&self, puzzle: Puzzle, shape: Shape) -> String {
        self.library.missing(puzzle, shape).command()
    }

    /// The directories searched for table files.
    pub fn dirs(&self) -> &[PathBuf] {
        self.library.dirs()
    }

    /// The shapes answered, for `/api/v1/sizes`.
    pub fn sizes(&self) -> Sizes {
        let embedded = || SizeEntry::new(Shape::SQUARE4, "embedded");
        let file = |shape: Shape, path: &PathBuf, error: Option<&String>| SizeEntry {
            file: Some(path.display().to_string()),
            error: error.cloned(),
            ..SizeEntry::new(shape, "file")
        };
        let mut flip = vec![embedded()];
        for (&shape, entry) in &self.flip_files {
            flip.push(match entry {
                FileEntry::Ready { path, .. } => file(shape, path, None),
                FileEntry::Broken { path, error } => file(shape, path, Some(error)),
            });
        }
        let mut euler = vec![embedded()];
        for (&shape, entry) in &self.euler_files {
            euler.push(match entry {
                FileEntry::Ready { path, source } => SizeEntry {
                    wdl_only: Some(source.is_wdl_only()),
                    ..file(shape, path, None)
                },
                FileEntry::Broken { path, error } => file(shape, path, Some(error)),
            });
        }
        let info = self.maker.info();
        let mut made = Vec::new();
        for cells in 1..=self.maker.max_cells() {
            for rows in 1..=cells {
                if cells % rows != 0 {
                    continue;
                }
                let Some(shape) = Shape::new(rows, cells / rows) else {
                    continue;
                };
                if shape == Shape::SQUARE4
                    || self.euler_files.contains_key(&shape)
                    || !self.maker.would_make(shape)
                {
                    continue;
                }
                made.push(SizeEntry {
                    wdl_only: Some(false),
                    in_memory: Some(info.ready.contains(&shape)),
                    make_bytes: Some(Maker::needed(shape)),
                    ..SizeEntry::new(shape, "made on demand")
                });
            }
        }
        euler.extend(made);
        let beyond: Vec<String> = lights::PAST_MAX_NULLITY
            .iter()
            .filter_map(|&(r, c)| Shape::new(r, c))
            .map(|s| s.to_string())
            .collect();
        Sizes {
            flip,
            flip_gf2: Gf2Range {
                max_rows: MAX_SIDE,
                max_cols: MAX_SIDE,
                max_nullity: MAX_NULLITY,
                beyond,
            },
            euler,
            euler_made: MadeRange {
                max_cells: self.maker.max_cells(),
                memory_budget_bytes: self.maker.budget(),
                memory_held_bytes: info.held,
            },
        }
    }
}

/// The board shapes answered, per puzzle.
#[derive(Serialize)]
pub struct Sizes {
    /// Flip shapes with tables: the embedded 4×4 and the table files.
    pub flip: Vec<SizeEntry>,
    /// Every other Flip shape: the GF(2) solver.
    pub flip_gf2: Gf2Range,
    /// Euler shapes: the embedded 4×4, the table files, and the shapes
    /// made in memory on first use.
    pub euler: Vec<SizeEntry>,
    /// The rules of the Euler tables made in memory.
    pub euler_made: MadeRange,
}

/// One shape answered from a table.
#[derive(Serialize)]
pub struct SizeEntry {
    /// `RxC`, as the `size` parameter takes it.
    pub size: String,
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// `embedded`, `file` or `made on demand`.
    pub source: &'static str,
    /// The table file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// Euler: whether the table holds win/loss only (`moves_left` null).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wdl_only: Option<bool>,
    /// Made on demand: whether the table is in memory now.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub in_memory: Option<bool>,
    /// Made on demand: the memory making it takes (reserved against the
    /// budget while it is made).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub make_bytes: Option<u64>,
    /// A file that cannot be used: why (its lookups answer 422).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl SizeEntry {
    fn new(shape: Shape, source: &'static str) -> SizeEntry {
        SizeEntry {
            size: shape.to_string(),
            rows: shape.rows(),
            cols: shape.cols(),
            source,
            file: None,
            wdl_only: None,
            in_memory: None,
            make_bytes: None,
            error: None,
        }
    }
}

/// Flip boards answered by GF(2).
#[derive(Serialize)]
pub struct Gf2Range {
    /// Most rows.
    pub max_rows: usize,
    /// Most columns.
    pub max_cols: usize,
    /// The largest nullity searched exactly.
    pub max_nullity: usize,
    /// The shapes within the sides whose nullity is past it (422).
    pub beyond: Vec<String>,
}

/// Euler tables made in memory.
#[derive(Serialize)]
pub struct MadeRange {
    /// Most squares of a shape made on demand (0: none).
    pub max_cells: usize,
    /// The memory they may take (`--make-memory`).
    pub memory_budget_bytes: u64,
    /// The memory they take now.
    pub memory_held_bytes: u64,
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
    /// The board after the press (boards of at most 64 cells).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub board: Option<String>,
    /// Whether a uniform board can be reached from there.
    pub solvable: bool,
    /// Fewest rounds from the board after the press (`null`: impossible).
    pub rounds: Option<u16>,
}

/// One press of a Flip lookup before it is written: cell index, the board
/// after it (boards that fit a `u64`), its rounds.
struct Press {
    cell: usize,
    after: Option<u64>,
    rounds: Option<u16>,
}

/// Sorts presses fewest rounds after them first, impossible ones last,
/// ties in reading order: one integer key of rounds and cell, each
/// press's own, so that an unstable sort (no scratch buffer) gives the
/// stable order.
fn sort_presses(presses: &mut [Press]) {
    presses.sort_unstable_by_key(|m| u64::from(m.rounds.unwrap_or(u16::MAX)) << 32 | m.cell as u64);
}

#[cfg(test)]
/// [`sort_presses`] as a stable sort of reading order: the tests'
/// reference.
fn sort_presses_stable(presses: &mut [Press]) {
    presses.sort_by_key(|m| m.rounds.unwrap_or(u16::MAX));
}

/// Every press from `board`, in reading order.
fn table_presses(source: &dyn FlipSource, board: u64) -> Result<Vec<Press>, ProbeError> {
    let shape = source.shape();
    (0..shape.cells())
        .map(|cell| {
            let (row, col) = shape.cell(cell);
            let (after, rounds) = source.press(board, row, col)?;
            Ok(Press {
                cell,
                after: Some(after),
                rounds: rounds.map(u16::from),
            })
        })
        .collect()
}

/// Every press from a board solved by GF(2), in reading order; `masks`:
/// each press's cells, for boards of at most 64 cells.
fn lights_presses(board: &Grid, values: &lights::MoveValues, masks: &[u64]) -> Vec<Press> {
    let shape = board.shape();
    let bits = board.to_u64();
    (0..shape.cells())
        .map(|cell| {
            let (row, col) = shape.cell(cell);
            Press {
                cell,
                after: bits.zip(masks.get(cell)).map(|(b, m)| b ^ m),
                rounds: values
                    .rounds_after(row, col)
                    .map(|r| u16::try_from(r).unwrap_or(u16::MAX)),
            }
        })
        .collect()
}

/// The presses of a shape answered by GF(2): their texts, and their masks
/// where the board fits a `u64`.
#[derive(Clone)]
struct LightsPresses {
    texts: MoveTexts,
    masks: Vec<u64>,
}

impl LightsPresses {
    fn new(shape: Shape) -> LightsPresses {
        let masks = if shape.fits_u64() {
            boardbase::tables::flip::press_masks(shape)
                .as_slice()
                .to_vec()
        } else {
            Vec::new()
        };
        LightsPresses {
            texts: MoveTexts::presses(shape),
            masks,
        }
    }

    /// Those of `shape`, made once per shape of at most 64 cells (a few
    /// hundred shapes, a few KiB each) and kept; made for each call on
    /// larger shapes, where solving costs far more than this.
    fn of(shape: Shape) -> Cow<'static, LightsPresses> {
        static KEPT: OnceLock<RwLock<HashMap<Shape, &'static LightsPresses>>> = OnceLock::new();
        if !shape.fits_u64() {
            return Cow::Owned(LightsPresses::new(shape));
        }
        let kept = KEPT.get_or_init(Default::default);
        if let Some(&found) = kept.read().unwrap_or_else(|e| e.into_inner()).get(&shape) {
            return Cow::Borrowed(found);
        }
        let mut write = kept.write().unwrap_or_else(|e| e.into_inner());
        let found = *write
            .entry(shape)
            .or_insert_with(|| Box::leak(Box::new(LightsPresses::new(shape))));
        Cow::Borrowed(found)
    }
}

#[cfg(test)]
/// The lookup of one Flip board from a table: its answer and all its
/// presses.
pub fn flip_lookup(source: &dyn FlipSource, board: u64) -> FlipLookup {
    let shape = source.shape();
    let moves = table_presses(source, board).expect("a checked table");
    FlipLookup {
        answer: source.answer(board).expect("a checked table"),
        moves: flip_moves(shape, moves),
    }
}

#[cfg(test)]
/// `presses` sorted by [`sort_presses_stable`], in their serde form.
fn flip_moves(shape: Shape, mut presses: Vec<Press>) -> Vec<FlipMove> {
    sort_presses_stable(&mut presses);
    presses
        .into_iter()
        .map(|m| {
            let (row, col) = shape.cell(m.cell);
            FlipMove {
                cell: [row, col],
                board: m.after.map(|a| rows_string(a, shape, FLIP_LETTERS)),
                solvable: m.rounds.is_some(),
                rounds: m.rounds,
            }
        })
        .collect()
}

#[cfg(test)]
/// The lookup of a Flip board by GF(2) in its serde form.
pub fn flip_lights_lookup(solver: &Solver, board: &Grid) -> FlipLookup {
    let shape = board.shape();
    let values = solver.move_values(board).expect("an exact shape");
    let moves = lights_presses(board, &values, &LightsPresses::of(shape).masks);
    FlipLookup {
        answer: FlipAnswer::from_routes(1, board, &values.routes()),
        moves: flip_moves(shape, moves),
    }
}

/// The lookup of a Flip board from a table, written as JSON: the same
/// bytes as `serde_json` writes for [`FlipLookup`], without building its
/// strings (the hot path of the API).
pub fn flip_json(source: &dyn FlipSource, board: u64) -> Result<Vec<u8>, ProbeError> {
    let shape = source.shape();
    let mut presses = table_presses(source, board)?;
    sort_presses(&mut presses);
    let mut out = flip_buffer(shape, presses.len());
    source.open_answer(board, &mut out)?;
    write_flip_moves(source.moves(), shape, Some(board), &presses, &mut out);
    Ok(out)
}

/// The lookup of a Flip board by GF(2), written as JSON: the CLI's object
/// ([`FlipAnswer::from_routes`]) and every press by
/// [`lights::Solver::move_values`]. The boards after each press are given
/// for boards of at most 64 cells.
pub fn flip_lights_json(solver: &Solver, board: &Grid) -> Result<Vec<u8>, LightsError> {
    let values = solver.move_values(board)?;
    let answer = FlipAnswer::from_routes(1, board, &values.routes());
    let shape = board.shape();
    let kept = LightsPresses::of(shape);
    let mut presses = lights_presses(board, &values, &kept.masks);
    sort_presses(&mut presses);
    let mut out = flip_buffer(shape, presses.len());
    open_flip_object(&mut out, &answer);
    write_flip_moves(&kept.texts, shape, board.to_u64(), &presses, &mut out);
    Ok(out)
}

/// A buffer for a Flip lookup's JSON on `shape` with `presses` presses.
fn flip_buffer(shape: Shape, presses: usize) -> Vec<u8> {
    let per_move = 48
        + if shape.fits_u64() {
            shape.cells() + shape.rows()
        } else {
            0
        };
    Vec::with_capacity(512 + 4 * shape.cells() + per_move * presses)
}

/// Ends a Flip lookup's JSON: `presses` (sorted) from `board` (`None`:
/// more than 64 cells, and no presses' boards either), each press starting
/// with its text of `texts`, and the closing brace.
fn write_flip_moves(
    texts: &MoveTexts,
    shape: Shape,
    board: Option<u64>,
    presses: &[Press],
    out: &mut Vec<u8>,
) {
    // The board's text, which each press's board patches.
    let mut base = Vec::new();
    if let Some(board) = board {
        rows_into(board, shape, FLIP_LETTERS, &mut base);
    }
    out.extend_from_slice(b",\"moves\":[");
    for (i, m) in presses.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(texts.text(m.cell));
        if let (Some(board), Some(after)) = (board, m.after) {
            texts.patched_rows_into(&base, board, after, FLIP_LETTERS, out);
            out.push(b'"');
        }
        match m.rounds {
            Some(r) => {
                out.extend_from_slice(b",\"solvable\":true,\"rounds\":");
                push_number(out, u64::from(r));
                out.push(b'}');
            }
            None => out.extend_from_slice(b",\"solvable\":false,\"rounds\":null}"),
        }
    }
    out.extend_from_slice(b"]}");
}

/// Writes a Flip answer's JSON object, the bytes `serde_json` writes for
/// it, without its closing brace so that more fields can follow. (Every
/// field is named below, so a field added to [`FlipAnswer`] does not
/// compile until it is written here; the tests compare with serde's.)
fn open_flip_object(out: &mut Vec<u8>, answer: &FlipAnswer) {
    let FlipAnswer {
        case,
        board,
        answer,
        solvable,
        rounds,
        colour,
        presses,
        optimal_sets,
        to_white,
        to_black,
    } = answer;
    push_head(out, *case, board, answer);
    out.extend_from_slice(if *solvable {
        b",\"solvable\":true,\"rounds\":"
    } else {
        b",\"solvable\":false,\"rounds\":"
    });
    push_option(out, rounds.map(u64::from));
    out.extend_from_slice(match colour {
        Some(flip::Colour::White) => b",\"colour\":\"white\",\"presses\":",
        Some(flip::Colour::Black) => b",\"colour\":\"black\",\"presses\":",
        None => b",\"colour\":null,\"presses\":",
    });
    match presses {
        Some(cells) => push_cells(out, cells.iter().map(|&[r, c]| (r, c))),
        None => out.extend_from_slice(b"null"),
    }
    out.extend_from_slice(b",\"optimal_sets\":");
    push_number(out, *optimal_sets);
    for (key, route) in [
        (&b",\"to_white\":"[..], to_white),
        (b",\"to_black\":", to_black),
    ] {
        out.extend_from_slice(key);
        match route {
            Some(FlipRoute {
                rounds,
                presses,
                optimal_sets,
            }) => push_route(
                out,
                (*rounds).into(),
                presses.iter().map(|&[r, c]| (r, c)),
                *optimal_sets,
            ),
            None => out.extend_from_slice(b"null"),
        }
    }
}

/// Writes an Euler answer's JSON object as [`open_flip_object`] does a
/// Flip answer's.
fn open_euler_object(out: &mut Vec<u8>, answer: &EulerAnswer) {
    let EulerAnswer {
        case,
        board,
        answer,
        outcome,
        moves_left,
        best_move,
        winning_moves,
        legal_moves,
        wdl_only,
    } = answer;
    push_head(out, *case, board, answer);
    out.extend_from_slice(match outcome {
        Outcome::Win => b",\"outcome\":\"win\",\"moves_left\":",
        Outcome::Loss => b",\"outcome\":\"loss\",\"moves_left\":",
    });
    push_option(out, moves_left.map(u64::from));
    out.extend_from_slice(b",\"best_move\":");
    match best_move {
        Some(EulerMove { mask, cells }) => {
            push_move(out, *mask, cells.iter().map(|&[r, c]| (r, c)));
        }
        None => out.extend_from_slice(b"null"),
    }
    out.extend_from_slice(b",\"winning_moves\":");
    push_number(out, *winning_moves as u64);
    out.extend_from_slice(b",\"legal_moves\":");
    push_number(out, *legal_moves as u64);
    if *wdl_only {
        out.extend_from_slice(b",\"wdl_only\":true");
    }
}

/// Opens a CLI answer's object: `{"case":N,"board":"..","answer":".."`.
fn push_head(out: &mut Vec<u8>, case: u64, board: &str, answer: &str) {
    out.extend_from_slice(b"{\"case\":");
    push_number(out, case);
    out.extend_from_slice(b",\"board\":");
    push_str(out, board);
    out.extend_from_slice(b",\"answer\":");
    push_str(out, answer);
}

/// Appends a Flip route's object: `{"rounds":R,"presses":[..],"optimal_sets":N}`.
fn push_route(
    out: &mut Vec<u8>,
    rounds: u64,
    presses: impl IntoIterator<Item = (usize, usize)>,
    optimal_sets: u64,
) {
    out.extend_from_slice(b"{\"rounds\":");
    push_number(out, rounds);
    out.extend_from_slice(b",\"presses\":");
    push_cells(out, presses);
    out.extend_from_slice(b",\"optimal_sets\":");
    push_number(out, optimal_sets);
    out.push(b'}');
}

/// Appends an Euler move's object: `{"mask":M,"cells":[..]}`.
fn push_move(out: &mut Vec<u8>, mask: u64, cells: impl IntoIterator<Item = (usize, usize)>) {
    out.extend_from_slice(b"{\"mask\":");
    push_number(out, mask);
    out.extend_from_slice(b",\"cells\":");
    push_cells(out, cells);
    out.push(b'}');
}

/// Appends `[[r,c],...]`.
fn push_cells(out: &mut Vec<u8>, cells: impl IntoIterator<Item = (usize, usize)>) {
    out.push(b'[');
    for (i, (r, c)) in cells.into_iter().enumerate() {
        out.extend_from_slice(if i > 0 { b",[" } else { b"[" });
        push_number(out, r as u64);
        out.push(b',');
        push_number(out, c as u64);
        out.push(b']');
    }
    out.push(b']');
}

/// Appends a number, or `null`.
fn push_option(out: &mut Vec<u8>, n: Option<u64>) {
    match n {
        Some(n) => push_number(out, n),
        None => out.extend_from_slice(b"null"),
    }
}

/// Appends `text` as a JSON string, escaped as `serde_json` escapes it.
fn push_str(out: &mut Vec<u8>, text: &str) {
    out.push(b'"');
    for &b in text.as_bytes() {
        match b {
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            b'\t' => out.extend_from_slice(b"\\t"),
            0x08 => out.extend_from_slice(b"\\b"),
            0x0c => out.extend_from_slice(b"\\f"),
            0..0x20 => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                out.extend_from_slice(b"\\u00");
                out.push(HEX[usize::from(b >> 4)]);
                out.push(HEX[usize::from(b & 15)]);
            }
            _ => out.push(b),
        }
    }
    out.push(b'"');
}

/// Appends `n` in decimal.
#[inline]
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
pub struct Play {
    /// The move's index in the source's moves.
    index: usize,
    /// The squares it covers.
    mask: u64,
    /// Who wins the position after it, for the opponent then to move.
    outcome: Outcome,
    /// Moves left there with perfect play.
    moves_left: Option<u8>,
}

/// Every legal move of `moves` from `position` and the `value` of the
/// position it leads to, in the moves' order.
fn plays_by(
    moves: &EulerMoves,
    position: u64,
    value: impl Fn(u64) -> Result<(Outcome, Option<u8>), ProbeError>,
) -> Result<Vec<Play>, ProbeError> {
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

/// Sorts plays best first: a move to a lost position wins, the fastest
/// first; a move to a won position loses, the longest first; unknown
/// lengths (win/loss-only tables) after the known ones of their group;
/// ties in the source's order. The key, one integer, ends with the move's
/// index, so an unstable sort (no scratch buffer) gives that order.
fn sort_plays(plays: &mut [Play]) {
    plays.sort_unstable_by_key(|m| {
        let (group, length) = match (m.outcome, m.moves_left) {
            (Outcome::Loss, Some(n)) => (0u64, n),
            (Outcome::Loss, None) => (1, 0),
            (Outcome::Win, Some(n)) => (2, u8::MAX - n),
            (Outcome::Win, None) => (3, 0),
        };
        group << 40 | u64::from(length) << 32 | m.index as u64
    });
}

#[cfg(test)]
/// [`sort_plays`] as a stable sort of the source's order: the tests'
/// reference.
fn sort_plays_stable(plays: &mut [Play]) {
    plays.sort_by_key(|m| match (m.outcome, m.moves_left) {
        (Outcome::Loss, Some(n)) => (0, i16::from(n)),
        (Outcome::Loss, None) => (1, 0),
        (Outcome::Win, Some(n)) => (2, -i16::from(n)),
        (Outcome::Win, None) => (3, 0),
    });
}

#[cfg(test)]
/// The lookup of one Euler position: its answer and all its legal moves.
pub fn euler_lookup(source: &dyn EulerSource, position: u64) -> EulerLookup {
    let shape = source.shape();
    let mut moves = source.plays(position).expect("a checked table");
    sort_plays_stable(&mut moves);
    let moves = moves
        .into_iter()
        .map(|m| EulerMoveValue {
            mask: m.mask,
            cells: shape.cells_of(m.mask).map(|(r, c)| [r, c]).collect(),
            board: rows_string(position | m.mask, shape, EULER_LETTERS),
            outcome: m.outcome,
            moves_left: m.moves_left,
        })
        .collect();
    EulerLookup {
        answer: source.answer(position).expect("a checked table"),
        moves,
    }
}

/// [`euler_lookup`] written as JSON, the same bytes as `serde_json` writes
/// for it: the hot path of the API.
pub fn euler_json(source: &dyn EulerSource, position: u64) -> Result<Vec<u8>, ProbeError> {
    let shape = source.shape();
    let mut moves = source.plays(position)?;
    let mut out = Vec::with_capacity(512 + (100 + shape.cells()) * moves.len());
    source.open_answer(position, &moves, &mut out)?;
    sort_plays(&mut moves);
    let texts = &source.moves().texts;
    // The position's text, which each move's board patches.
    let mut base = Vec::new();
    rows_into(position, shape, EULER_LETTERS, &mut base);
    out.extend_from_slice(b",\"moves\":[");
    for (i, m) in moves.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(texts.text(m.index));
        texts.patched_rows_into(&base, position, position | m.mask, EULER_LETTERS, &mut out);
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
    Ok(out)
}

#[cfg(test)]
mod json_tests {
    use super::{push_number, push_str};

    #[test]
    fn strings_are_escaped_as_serde_escapes_them() {
        let mut texts: Vec<String> = (0u8..=0x7f).map(|b| char::from(b).to_string()).collect();
        texts.extend(["", "bwwb/bbwb", "Impossible", "a\"b\\c\u{1f}d", "é€😀"].map(str::to_owned));
        for text in texts {
            let mut out = Vec::new();
            push_str(&mut out, &text);
            assert_eq!(out, serde_json::to_vec(&text).unwrap(), "{text:?}");
        }
    }

    #[test]
    fn numbers_are_written_as_serde_writes_them() {
        for n in [0, 1, 9, 10, 99, 100, 12345, u64::from(u32::MAX), u64::MAX] {
            let mut out = Vec::new();
            push_number(&mut out, n);
            assert_eq!(out, n.to_string().into_bytes());
        }
    }
}
