//! `GET /api/v1/flip` and `GET /api/v1/euler`: a board looked up in the
//! tablebase, its JSON written by the library's writers (the same bytes as
//! serde's of the lookup types, proved by tests/library/tablebase.rs).

use std::future::Future;
use std::pin::Pin;
use std::time::{Duration, Instant};

use axum::extract::Request;
use axum::response::{IntoResponse, Response};
use boardbase::error::Kind;
use boardbase::grid::{Alphabet, BoardTextError, Expect, Rows};
use boardbase::lights::{Grid, LightsError, Solver};
use boardbase::tablebase::{
    self, Begin, FlipFrom, Made, Pending, euler_json, flip_json, flip_lights_json_within,
};
use boardbase::tablefile::{Puzzle, TableError};
use boardbase::tables::shape::Shape;

use super::error::{ApiError, Work};
use super::query::{self, BoardQuery};
use super::{Ctx, INLINE_NULLITY, State, json_bytes};

pub async fn flip(axum::extract::State(state): Ctx, request: Request) -> Response {
    respond(flip_answer(&state, request.uri().query())).await
}

pub async fn euler(axum::extract::State(state): Ctx, request: Request) -> Response {
    respond(euler_answer(&state, request.uri().query())).await
}

/// A lookup answered at once, or work that waits: for a blocking worker
/// (Flip boards of a large nullity) or for a table to be made in memory.
/// The waiting work is a future of its own, boxed, so that the handlers'
/// futures stay small in the common case.
enum Lookup<'a> {
    /// The answer's JSON.
    Done(Vec<u8>),
    /// The work still to await.
    Pooled(Pin<Box<dyn Future<Output = Result<Vec<u8>, ApiError>> + Send + 'a>>),
}

/// The response to a lookup.
async fn respond(lookup: Result<Lookup<'_>, ApiError>) -> Response {
    let json = match lookup {
        Ok(Lookup::Done(body)) => Ok(body),
        Ok(Lookup::Pooled(work)) => work.await,
        Err(e) => Err(e),
    };
    match json {
        Ok(body) => json_bytes(body),
        Err(e) => e.into_response(),
    }
}

/// The board of a query: rows separated by `/` or new lines, with blanks
/// around them, of the puzzle's `alphabet`, read by the library's one
/// board parser ([`Alphabet::parse_board`]); without `size`, the shape is
/// the number of rows by their length. With `size`, a board may also be
/// given as its R·C cells in one run (`bwwbbbwbbwwbbwww` with `size=4x4`).
/// A character out of place is a 400 with its line and column (in bytes,
/// as the library counts them); rows that disagree with each other or with
/// `size` a 400, a board past 64×64 a 422.
fn board_rows(q: &BoardQuery<'_>, alphabet: &Alphabet) -> Result<Rows, ApiError> {
    let expect = q.size.map_or(Expect::Any, Expect::ShapeOrOneRun);
    alphabet
        .parse_board(q.board.as_bytes(), expect)
        .map_err(|e| match e {
            BoardTextError::Empty(_) => ApiError::parameter(
                "board",
                Kind::Syntax,
                "board: expected the rows of a board separated by '/', found nothing",
            ),
            BoardTextError::Syntax(error) => ApiError::syntax("board", &error, None),
            BoardTextError::Misfit {
                rows, cols, ragged, ..
            } => {
                let (kind, message) = match (ragged, q.size) {
                    (Some((k, cells)), _) => (
                        Kind::Mismatch,
                        format!(
                            "row {} has {cells} cells, row 1 has {cols}: every row needs as many",
                            k + 1
                        ),
                    ),
                    (None, Some(size)) => (
                        Kind::Mismatch,
                        format!("{}, but size={size} was given", rows_of_cells(rows, cols)),
                    ),
                    (None, None) => (
                        Kind::TooLarge,
                        format!(
                            "{}: boards have 1 to 64 rows and columns",
                            rows_of_cells(rows, cols)
                        ),
                    ),
                };
                ApiError::parameter("board", kind, format!("board: {message}"))
            }
        })
}

/// `4 rows of 4 cells`, `1 row of 69 cells`.
fn rows_of_cells(rows: usize, cols: usize) -> String {
    let plural = |n: usize, noun: &str| match n {
        1 => format!("1 {noun}"),
        n => format!("{n} {noun}s"),
    };
    format!("{} of {}", plural(rows, "row"), plural(cols, "cell"))
}

/// A board of at most 64 cells as a `u64`, cell (r, c) at bit `C·r + c`
/// (every board a table answers).
fn board_bits(board: &Rows) -> Result<u64, ApiError> {
    board.to_u64().ok_or_else(|| {
        let shape = board.shape();
        let message = format!("board: a {shape} board has over 64 cells: no table holds it");
        ApiError::refused(Kind::TooLarge, message)
    })
}

/// The answer layer's refusal of a board of `shape`.
fn answer(shape: Shape) -> impl FnOnce(tablebase::Error) -> ApiError {
    move |error| ApiError::answer(shape, &error)
}

/// A table's error for a board: it is damaged.
fn damaged(state: &State, puzzle: Puzzle, shape: Shape) -> impl FnOnce(TableError) -> ApiError {
    move |error| answer(shape)(state.tablebase.damaged(puzzle, shape, error))
}

/// GF(2)'s refusal of a Flip board of `shape`.
fn nullity(shape: Shape) -> impl FnOnce(LightsError) -> ApiError {
    move |error| answer(shape)(error.into())
}

/// `GET /api/v1/flip`'s answer, or the work to do for it.
fn flip_answer<'a>(state: &'a State, query: Option<&str>) -> Result<Lookup<'a>, ApiError> {
    let q: BoardQuery = query::parse(query)?;
    let board = board_rows(&q, &boardbase::flip::ALPHABET)?;
    let shape = board.shape();
    let from = state.tablebase.flip(shape).map_err(answer(shape))?;
    match from {
        FlipFrom::Table(source) => flip_json(&*source, board_bits(&board)?)
            .map(Lookup::Done)
            .map_err(damaged(state, Puzzle::Flip, shape)),
        FlipFrom::Lights(solver) => {
            // The rows were read as a board of `shape`: they make its grid.
            let grid = Grid::from_rows(shape, board.rows())
                .map_err(|e| ApiError::refused(Kind::Mismatch, format!("board: {e}")))?;
            if solver.nullity() > INLINE_NULLITY {
                return Ok(Lookup::Pooled(Box::pin(flip_on_worker(
                    state,
                    solver,
                    Box::new(grid),
                    shape,
                ))));
            }
            flip_lights_json_within(solver, &grid, state.tablebase.max_nullity())
                .map(Lookup::Done)
                .map_err(nullity(shape))
        }
    }
}

/// A Flip board of a large nullity, solved on a blocking worker.
async fn flip_on_worker(
    state: &State,
    solver: &'static Solver,
    grid: Box<Grid>,
    shape: Shape,
) -> Result<Vec<u8>, ApiError> {
    let deadline = Instant::now() + state.limits.count_timeout;
    let max = state.tablebase.max_nullity();
    state
        .pool
        .run(deadline, Work::LargeBoards, move || {
            flip_lights_json_within(solver, &grid, max)
        })
        .await?
        .map_err(nullity(shape))
}

/// `GET /api/v1/euler`'s answer, or the table to make for it.
fn euler_answer<'a>(state: &'a State, query: Option<&str>) -> Result<Lookup<'a>, ApiError> {
    let q: BoardQuery = query::parse(query)?;
    let board = board_rows(&q, &boardbase::euler::ALPHABET)?;
    let shape = board.shape();
    let found = state.tablebase.euler(shape).map_err(answer(shape))?;
    let position = board_bits(&board)?;
    match found {
        Some(source) => euler_json(&*source, position)
            .map(Lookup::Done)
            .map_err(damaged(state, Puzzle::Euler, shape)),
        None => Ok(Lookup::Pooled(Box::pin(euler_once_made(
            state, shape, position,
        )))),
    }
}

/// An Euler position of a shape whose table is made in memory first: the
/// first request for the shape starts making it on a blocking worker, not
/// bound by any request's deadline (once started, the table is made for
/// whoever asks next); every request waits for it until its own deadline.
async fn euler_once_made(state: &State, shape: Shape, position: u64) -> Result<Vec<u8>, ApiError> {
    let deadline = Instant::now() + state.limits.count_timeout;
    let begin = state
        .tablebase
        .begin_made(shape)
        .map_err(|e| make_error(state, shape, e))?;
    let made = match begin {
        Begin::Ready(table) => Ok(table),
        Begin::Waiting(pending) => wait_made(pending, deadline).await,
        Begin::Start(job, pending) => {
            let pool = state.pool.clone();
            tokio::spawn(async move {
                let far = Instant::now() + Duration::from_secs(24 * 3600);
                // A job the pool never runs is dropped, which tells the
                // waiting requests (busy).
                let _ = pool
                    .run(far, Work::Making(shape), move || job.run(|_| {}))
                    .await;
            });
            wait_made(pending, deadline).await
        }
    };
    let source = made.map_err(|e| make_error(state, shape, e))?;
    euler_json(&*source, position).map_err(damaged(state, Puzzle::Euler, shape))
}

/// The table being made, waited for until `deadline` (past it, busy).
async fn wait_made(pending: Pending, deadline: Instant) -> Result<Made, tablebase::Error> {
    let busy = pending.clone();
    match tokio::time::timeout_at(deadline.into(), pending).await {
        Ok(made) => made,
        Err(_) => Err(busy.busy()),
    }
}

/// Why no table was made in memory: the workers were busy, or the answer
/// layer's error.
fn make_error(state: &State, shape: Shape, e: tablebase::Error) -> ApiError {
    match e {
        tablebase::Error::Busy { .. } => ApiError::Busy {
            workers: state.pool.workers(),
            work: Work::Making(shape),
        },
        e => answer(shape)(e),
    }
}
