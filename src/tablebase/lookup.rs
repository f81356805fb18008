//! A lookup: one board's answer and every move from it valued, best first,
//! as the typed [`FlipLookup`] and [`EulerLookup`] (serde) and as their
//! JSON written by hand ([`flip_json`], [`euler_json`]: the same bytes).

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{OnceLock, RwLock};

use boardbase_tables::shape::Shape;
use serde::Serialize;

use super::json::{
    EULER_LETTERS, FLIP_LETTERS, open_flip_object, push_number, rows_into, rows_string,
};
use super::source::{EulerSource, FlipSource, MoveTexts, Play};
use crate::euler::Outcome;
use crate::flip::Colour;
use crate::lights::{self, Goal, Grid, LightsError, Solver};
use crate::report::{Cell, EulerAnswer, FlipAnswer, FlipRoute, LightsAnswer};
use crate::tablefile::TableError;

/// `GET /api/v1/flip`: the CLI's object and every press, best first. The
/// API writes it by hand ([`flip_json`]); this serde form is what the tests
/// check those bytes against.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FlipLookup {
    /// The board's answer: the object of `boardbase flip --format json`.
    #[serde(flatten)]
    pub answer: FlipAnswer,
    /// Every cell's press, fewest rounds after it first, impossible ones
    /// last, ties in reading order.
    pub moves: Vec<FlipMove>,
}

/// One press in a [`FlipLookup`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
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

/// [`sort_presses`] as a stable sort of reading order: the tests'
/// reference.
fn sort_presses_stable(presses: &mut [Press]) {
    presses.sort_by_key(|m| m.rounds.unwrap_or(u16::MAX));
}

/// Every press from `board`, in reading order.
fn table_presses(source: &dyn FlipSource, board: u64) -> Result<Vec<Press>, TableError> {
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

/// Every press from a board solved by GF(2), in reading order, valued
/// towards either colour; `masks`: each press's cells, for boards of at
/// most 64 cells.
fn lights_presses(board: &Grid, values: &lights::MoveValues, masks: &[u64]) -> Vec<Press> {
    lights_presses_by(board, masks, |row, col| values.rounds_after(row, col))
}

/// Every press from a board, in reading order, valued by `rounds_after`.
fn lights_presses_by(
    board: &Grid,
    masks: &[u64],
    rounds_after: impl Fn(usize, usize) -> Option<usize>,
) -> Vec<Press> {
    let shape = board.shape();
    let bits = board.to_u64();
    (0..shape.cells())
        .map(|cell| {
            let (row, col) = shape.cell(cell);
            Press {
                cell,
                after: bits.zip(masks.get(cell)).map(|(b, m)| b ^ m),
                rounds: rounds_after(row, col).map(|r| u16::try_from(r).unwrap_or(u16::MAX)),
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
            boardbase_tables::flip::press_masks(shape)
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

/// The lookup of one Flip board from a table: its answer and all its
/// presses.
pub fn flip_lookup(source: &dyn FlipSource, board: u64) -> Result<FlipLookup, TableError> {
    let shape = source.shape();
    let moves = table_presses(source, board)?;
    Ok(FlipLookup {
        answer: source.answer(board)?,
        moves: flip_moves(shape, moves, FLIP_LETTERS),
    })
}

/// The letters of a Lights Out board: `0` clear, `1` set.
const LIGHTS_LETTERS: [u8; 2] = *b"01";

/// `presses` sorted by [`sort_presses_stable`], in their serde form, the
/// boards after them written in `letters` (clear, set).
fn flip_moves(shape: Shape, mut presses: Vec<Press>, letters: [u8; 2]) -> Vec<FlipMove> {
    sort_presses_stable(&mut presses);
    presses
        .into_iter()
        .map(|m| {
            let (row, col) = shape.cell(m.cell);
            FlipMove {
                cell: [row, col],
                board: m.after.map(|a| rows_string(a, shape, letters)),
                solvable: m.rounds.is_some(),
                rounds: m.rounds,
            }
        })
        .collect()
}

/// The lookup of a Flip board by GF(2) in its serde form (nullity up to
/// [`MAX_NULLITY`](crate::lights::MAX_NULLITY)).
pub fn flip_lights_lookup(solver: &Solver, board: &Grid) -> Result<FlipLookup, LightsError> {
    flip_lights_lookup_within(solver, board, crate::lights::MAX_NULLITY)
}

/// [`flip_lights_lookup`] for nullity up to `max_nullity`.
pub fn flip_lights_lookup_within(
    solver: &Solver,
    board: &Grid,
    max_nullity: usize,
) -> Result<FlipLookup, LightsError> {
    let shape = board.shape();
    let values = solver.move_values_within(board, max_nullity)?;
    let moves = lights_presses(board, &values, &LightsPresses::of(shape).masks);
    Ok(FlipLookup {
        answer: FlipAnswer::from_routes(1, board, &values.routes()),
        moves: flip_moves(shape, moves, FLIP_LETTERS),
    })
}

/// A Flip/Lights Out board's answer towards a goal, with both colours'
/// routes and every press valued towards the goal: Python's
/// `boardbase.lights()`.
///
/// ```
/// use boardbase::lights::{Goal, Grid, Solver};
/// use boardbase::tablebase::fliptile_lookup;
///
/// // POJ 3279's sample (1 = black):
/// //   1 0 0 1
/// //   0 1 1 0
/// //   0 1 1 0
/// //   1 0 0 1
/// let board: Grid = "1001/0110/0110/1001".parse()?;
/// let solver = Solver::cached(board.shape());
/// let lookup = fliptile_lookup(solver, &board, Goal::White, 24)?;
/// assert_eq!(lookup.answer.rounds, Some(4));
/// assert_eq!(lookup.to_white.as_ref().map(|r| r.rounds), Some(4));
/// // The best presses are those of an optimal set (either of the two):
/// // 3 presses left after them. The first in reading order is (0, 1).
/// assert_eq!(lookup.moves[0].rounds, Some(3));
/// assert_eq!(lookup.moves[0].cell, [0, 1]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FliptileLookup {
    /// The answer towards the goal: the object of `boardbase fliptile
    /// --format json`.
    #[serde(flatten)]
    pub answer: LightsAnswer,
    /// The goal: `"white"`, `"black"` or `"either"`.
    pub goal: &'static str,
    /// The colour the answer reaches (`null` when impossible).
    pub colour: Option<Colour>,
    /// The optimal way to all white (`null`: it cannot be reached).
    pub to_white: Option<FlipRoute>,
    /// The optimal way to all black (`null`: it cannot be reached).
    pub to_black: Option<FlipRoute>,
    /// Every cell's press, fewest presses to the goal after it first,
    /// impossible ones last, ties in reading order.
    pub moves: Vec<FlipMove>,
}

/// The [`FliptileLookup`] of `board` towards `goal`, for nullity up to
/// `max_nullity`.
pub fn fliptile_lookup(
    solver: &Solver,
    board: &Grid,
    goal: Goal,
    max_nullity: usize,
) -> Result<FliptileLookup, LightsError> {
    let shape = board.shape();
    let values = solver.move_values_within(board, max_nullity)?;
    let routes = values.routes();
    let (answer, goal_name) = match goal {
        Goal::White => (routes.white.clone(), "white"),
        Goal::Black => (routes.black.clone(), "black"),
        Goal::Either => (routes.best(), "either"),
    };
    let colour_after = |moves: &Option<lights::ColourMoves>, row, col| {
        moves.as_ref().map(|m| m.rounds_after(row, col))
    };
    let moves = lights_presses_by(
        board,
        &LightsPresses::of(shape).masks,
        |row, col| match goal {
            Goal::White => colour_after(&values.white, row, col),
            Goal::Black => colour_after(&values.black, row, col),
            Goal::Either => values.rounds_after(row, col),
        },
    );
    let route = |a: &Option<lights::Answer>| a.as_ref().map(FlipRoute::from_lights);
    Ok(FliptileLookup {
        answer: LightsAnswer::new(1, board, answer.as_ref(), solver.nullity()),
        goal: goal_name,
        colour: answer.map(|a| a.colour),
        to_white: route(&routes.white),
        to_black: route(&routes.black),
        moves: flip_moves(shape, moves, LIGHTS_LETTERS),
    })
}

/// The lookup of a Flip board from a table, written as JSON: the same
/// bytes as `serde_json` writes for [`FlipLookup`], without building its
/// strings (the hot path of the API).
pub fn flip_json(source: &dyn FlipSource, board: u64) -> Result<Vec<u8>, TableError> {
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
/// for boards of at most 64 cells. Nullity up to
/// [`MAX_NULLITY`](crate::lights::MAX_NULLITY).
pub fn flip_lights_json(solver: &Solver, board: &Grid) -> Result<Vec<u8>, LightsError> {
    flip_lights_json_within(solver, board, crate::lights::MAX_NULLITY)
}

/// [`flip_lights_json`] for nullity up to `max_nullity`.
pub fn flip_lights_json_within(
    solver: &Solver,
    board: &Grid,
    max_nullity: usize,
) -> Result<Vec<u8>, LightsError> {
    let values = solver.move_values_within(board, max_nullity)?;
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

/// `GET /api/v1/euler`: the CLI's object and every legal move, best first
/// (written by hand by [`euler_json`]; this serde form is the tests'
/// reference).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EulerLookup {
    /// The position's answer: the object of `boardbase euler --format
    /// json`.
    #[serde(flatten)]
    pub answer: EulerAnswer,
    /// Every legal move: winning ones first (to a position lost for the
    /// opponent), fastest first; then losing ones, longest resistance
    /// first; ties in the solver's move order.
    pub moves: Vec<EulerMoveValue>,
}

/// One legal move in an [`EulerLookup`], with the value of the position it
/// leads to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
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

/// The lookup of one Euler position: its answer and all its legal moves.
pub fn euler_lookup(source: &dyn EulerSource, position: u64) -> Result<EulerLookup, TableError> {
    let shape = source.shape();
    let mut moves = source.plays(position)?;
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
    Ok(EulerLookup {
        answer: source.answer(position)?,
        moves,
    })
}

/// [`euler_lookup`] written as JSON, the same bytes as `serde_json` writes
/// for it: the hot path of the API.
pub fn euler_json(source: &dyn EulerSource, position: u64) -> Result<Vec<u8>, TableError> {
    let shape = source.shape();
    let mut moves = source.plays(position)?;
    let mut out = Vec::with_capacity(512 + (100 + shape.cells()) * moves.len());
    source.open_answer(position, &moves, &mut out)?;
    sort_plays(&mut moves);
    let texts = source.moves().texts();
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
