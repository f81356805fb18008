//! The routes, the request parsing and the JSON errors.
//!
//! | route | answer |
//! | --- | --- |
//! | `GET /api/v1/flip?board=ROWS[&size=RxC]` | the CLI's object and every press ([`flip_json`]) |
//! | `GET /api/v1/euler?board=ROWS[&size=RxC]` | the CLI's object and every legal move ([`euler_json`]) |
//! | `POST /api/v1/carcassonne` (JSON or the judge's text) | [`CarcassonneAnswer`] or `{"cases": [...]}` |
//! | `GET /api/v1/lights?board=ROWS[&colours=K&wrap=B&pattern=P&goal=G]` | [`LightsLookup`]: the CLI's object and every press valued |
//! | `GET /api/v1/lights/info?size=RxC[&colours=K&wrap=B&pattern=P]` | [`LightsInfo`] |
//! | `GET /api/v1/sizes` | what the server answers |
//! | `GET /api/v1/health` | `{"status": "ok"}` |
//! | `GET /` and its files | the explorer |
//!
//! Every error is a JSON object with an `error` message, plus `line`,
//! `column`, `expected` and `found` where the library located the problem:
//! 400 for a bad board, query or body, 404 for an unknown route, 405 for a
//! method a route does not take, 408 for a body sent too slowly, 413 for a
//! body over [`Limits::body`], 415 for a body that is neither JSON nor
//! text, 422 for a board past the limits, of a size the server has no
//! answers for, or past the DP's budget or the time limit, 429 when every
//! Carcassonne worker stays busy.

use std::borrow::Cow;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::Request;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use boardbase::carcassonne::{self, Board, BoardError, StopError, Tile};
use boardbase::error::ParseError;
use boardbase::grid::{Alphabet, BoardTextError, Expect, Rows};
use boardbase::input::{InputError, Scanner};
use boardbase::lights::family::{
    self, ColourGrid, FamilyError, FamilyGoal, FamilySolver, Pattern, Variant,
};
use boardbase::lights::{Grid, LightsError, Solver};
use boardbase::memory::ByteSize;
use boardbase::report::{CarcassonneAnswer, LightsInfo, LightsLookup};
use boardbase::solvers::shape::Shape;
use boardbase::tablefile::{ProbeError, Puzzle};
use http_body_util::BodyExt;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use boardbase::tablebase::{
    Begin, FlipFrom, Made, MakeError, Maker, Pending, Sizes, Tablebase, Unanswered, euler_json,
    flip_json, flip_lights_json_within,
};

use super::assets;
use super::count::{CountFailure, Pool};

/// Flip boards by GF(2) of at most this nullity are answered on the async
/// threads (at most 2^12 press sets of 64 rows, well under a millisecond);
/// larger ones on the blocking workers.
const INLINE_NULLITY: usize = 12;

/// The server's limits.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Largest request body, in bytes.
    pub body: usize,
    /// Longest a client may take to send a body (and, in the connection,
    /// the headers).
    pub read_timeout: Duration,
    /// Longest a Carcassonne request, or a heavy lookup (a table made in
    /// memory, Flip by GF(2) of nullity above 12), may take, waiting
    /// included.
    pub count_timeout: Duration,
    /// Most cases in one judge-text request.
    pub max_cases: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            body: 1 << 20,
            read_timeout: Duration::from_secs(10),
            count_timeout: Duration::from_secs(20),
            max_cases: 1000,
        }
    }
}

/// What the handlers share.
pub struct State {
    tablebase: Arc<Tablebase>,
    pool: Arc<Pool>,
    limits: Limits,
}

impl State {
    /// The state of a server answering from `tablebase`.
    pub fn new(tablebase: Tablebase, pool: Pool, limits: Limits) -> State {
        State {
            tablebase: Arc::new(tablebase),
            pool: Arc::new(pool),
            limits,
        }
    }
}

#[cfg(test)]
impl State {
    /// Takes the pool's workers until the permit is dropped.
    pub fn hold_worker_for_test(&self) -> tokio::sync::OwnedSemaphorePermit {
        self.pool.hold_for_test()
    }
}

type Shared = Arc<State>;

/// The whole application: the API, the explorer, and JSON errors for
/// everything else.
pub fn router(state: Shared) -> Router {
    let api = Router::new()
        .route("/api/v1/health", get(health))
        .route("/api/v1/sizes", get(sizes))
        .route("/api/v1/flip", get(flip))
        .route("/api/v1/euler", get(euler))
        .route("/api/v1/lights", get(lights))
        .route("/api/v1/lights/info", get(lights_info))
        .route("/api/v1/carcassonne", post(carcassonne));
    let app = assets::routes(api).fallback(not_found).with_state(state);
    // Outside the routes, so that it sees the Allow header of a 405.
    Router::new()
        .fallback_service(app)
        .layer(middleware::from_fn(json_errors))
}

/// A JSON error response.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    fields: Map<String, Value>,
    retry_after: Option<u64>,
}

impl ApiError {
    /// An error with this status and message.
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        let mut fields = Map::new();
        fields.insert("error".to_owned(), Value::String(message.into()));
        ApiError {
            status,
            fields,
            retry_after: None,
        }
    }

    /// Adds a field to the error object.
    pub fn with(mut self, key: &str, value: impl Into<Value>) -> ApiError {
        self.fields.insert(key.to_owned(), value.into());
        self
    }

    fn bad(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    fn unprocessable(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, message)
    }

    /// A syntax error in `what` (a parameter or the body), with where it is.
    fn parse(what: &str, e: &ParseError) -> ApiError {
        ApiError::bad(format!("{what}: {e}"))
            .with("line", e.line)
            .with("column", e.column)
            .with("expected", e.expected)
            .with("found", e.found.to_string())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = json_response(self.status, &Value::Object(self.fields));
        if let Some(seconds) = self.retry_after {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        response
    }
}

/// `value` as a JSON response.
fn json_response(status: StatusCode, value: &impl Serialize) -> Response {
    let (status, body) = match serde_json::to_vec(value) {
        Ok(body) => (status, body),
        // The answer types always serialize; say so if one ever did not.
        Err(e) => (
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("{{\"error\":\"cannot write the answer: {e}\"}}").into_bytes(),
        ),
    };
    let mut response = (status, body).into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    response
}

fn answer(result: Result<impl Serialize, ApiError>) -> Response {
    match result {
        Ok(value) => json_response(StatusCode::OK, &value),
        Err(e) => e.into_response(),
    }
}

/// An answer already written as JSON.
fn raw_answer(result: Result<Vec<u8>, ApiError>) -> Response {
    match result {
        Ok(body) => {
            let mut response = body.into_response();
            response.headers_mut().insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            );
            response
        }
        Err(e) => e.into_response(),
    }
}

async fn health() -> Response {
    raw_answer(Ok(br#"{"status":"ok"}"#.to_vec()))
}

/// `GET /api/v1/sizes`.
#[derive(Serialize)]
struct Capabilities {
    #[serde(flatten)]
    sizes: Sizes,
    carcassonne: CarcassonneLimits,
}

#[derive(Serialize)]
struct CarcassonneLimits {
    max_narrow_side: usize,
    max_tiles: u64,
    max_cases: u64,
    body_limit_bytes: usize,
    time_limit_seconds: f64,
    group_budget: usize,
    witness_budget: usize,
    workers: usize,
}

async fn sizes(axum::extract::State(state): axum::extract::State<Shared>) -> Response {
    let limits = &state.limits;
    json_response(
        StatusCode::OK,
        &Capabilities {
            sizes: state.tablebase.sizes(),
            carcassonne: CarcassonneLimits {
                max_narrow_side: carcassonne::MAX_NARROW_SIDE,
                max_tiles: carcassonne::MAX_TILES,
                max_cases: limits.max_cases,
                body_limit_bytes: limits.body,
                time_limit_seconds: limits.count_timeout.as_secs_f64(),
                group_budget: carcassonne::GROUP_BUDGET,
                witness_budget: carcassonne::WITNESS_BUDGET,
                workers: state.pool.workers(),
            },
        },
    )
}

/// A board query: the board's text and the size given, if any.
struct BoardQuery<'a> {
    board: Cow<'a, str>,
    size: Option<Shape>,
}

/// Parses `board=ROWS[&size=RxC]`.
fn board_query(query: Option<&str>) -> Result<BoardQuery<'_>, ApiError> {
    let mut board = None;
    let mut size = None;
    for (key, value) in form_urlencoded::parse(query.unwrap_or("").as_bytes()) {
        match &*key {
            "board" if board.is_none() => board = Some(value),
            "size" if size.is_none() => {
                size = Some(Shape::parse(value.trim()).ok_or_else(|| {
                    ApiError::bad(format!(
                        "size: expected RxC with 1 to 64 rows and columns (e.g. 4x4), found {value:?}"
                    ))
                    .with("parameter", "size")
                })?);
            }
            "board" | "size" => {
                return Err(ApiError::bad(format!("{key} is given more than once"))
                    .with("parameter", key.into_owned()));
            }
            _ => {
                return Err(ApiError::bad(format!(
                    "unknown parameter {key:?}: expected board (rows separated by '/') and optionally size (RxC)"
                ))
                .with("parameter", key.into_owned()));
            }
        }
    }
    let board = board.ok_or_else(|| {
        ApiError::bad("missing parameter board: the rows of the board separated by '/'")
            .with("parameter", "board")
    })?;
    Ok(BoardQuery { board, size })
}

/// The board of a query: rows separated by `/` or new lines, with blanks
/// around them, of the puzzle's `alphabet`, read by the library's one
/// board parser ([`Alphabet::parse_board`]); without `size`, the shape is
/// the number of rows by their length. With `size`, a board may also be
/// given as its R·C cells in one run (`bwwbbbwbbwwbbwww` with `size=4x4`).
/// A character out of place is a 400 with its line and column (in bytes,
/// as the library counts them); rows that disagree with each other or with
/// `size` a 400, a board past 64×64 a 422.
fn board_rows(text: &str, size: Option<Shape>, alphabet: &Alphabet) -> Result<Rows, ApiError> {
    let expect = size.map_or(Expect::Any, Expect::ShapeOrOneRun);
    alphabet.parse_board(text, expect).map_err(|e| match e {
        BoardTextError::Empty(_) => {
            ApiError::bad("board: expected the rows of a board separated by '/', found nothing")
                .with("parameter", "board")
        }
        BoardTextError::Syntax(e) => ApiError::parse("board", &e),
        BoardTextError::Misfit {
            rows: r,
            cols: c,
            ragged,
            ..
        } => match (ragged, size) {
            (Some((k, n)), _) => ApiError::bad(format!(
                "board: row {} has {n} cells, row 1 has {c}: every row needs as many",
                k + 1
            ))
            .with("parameter", "board"),
            (None, Some(size)) => ApiError::bad(format!(
                "board: {} of {}, but size={size} was given",
                plural(r, "row"),
                plural(c, "cell")
            ))
            .with("parameter", "board"),
            (None, None) => ApiError::unprocessable(format!(
                "board: {} of {}: boards have 1 to 64 rows and columns",
                plural(r, "row"),
                plural(c, "cell")
            ))
            .with("parameter", "board"),
        },
    })
}

/// A board of at most 64 cells as a `u64`, cell (r, c) at bit `C·r + c`
/// (every board a table answers).
fn board_bits(board: &Rows) -> Result<u64, ApiError> {
    board.to_u64().ok_or_else(|| {
        ApiError::unprocessable(format!(
            "board: a {} board has over 64 cells: no table holds it",
            board.shape()
        ))
    })
}

/// The 422 for a board whose table answers an error: the file is damaged.
fn probe_error(puzzle: &str, shape: Shape, e: &ProbeError) -> ApiError {
    ApiError::unprocessable(format!(
        "the {puzzle} {shape} table cannot answer this board: {e} (the file is damaged: boardbase verify FILE)"
    ))
    .with("size", shape.to_string())
}

/// The 422 for a shape this server does not answer.
fn unanswered(tablebase: &Tablebase, puzzle: Puzzle, shape: Shape, why: Unanswered) -> ApiError {
    let command = tablebase.generate_command(puzzle, shape);
    match why {
        Unanswered::Broken { path, error } => ApiError::unprocessable(format!(
            "{error}: this server answers no {puzzle} {shape} boards until the file is replaced; make it with: {command}"
        ))
        .with("file", path.display().to_string())
        .with("command", command),
        Unanswered::Lights(e) => {
            let mut err = ApiError::unprocessable(format!(
                "{e}: no answer is claimed minimal past that (boardbase flip --size {shape} refuses it too)"
            ));
            if let LightsError::NullityTooLarge { nullity, max, .. } = e {
                err = err.with("nullity", nullity).with("max_nullity", max);
            }
            err
        }
        Unanswered::TooManyCells(e) => ApiError::unprocessable(e.to_string())
            .with("max_cells", Puzzle::Euler.max_cells()),
        Unanswered::Missing => missing(tablebase, shape),
    }
    .with("size", shape.to_string())
}

/// The 422 for an Euler shape with no table file that is not made here.
fn missing(tablebase: &Tablebase, shape: Shape) -> ApiError {
    let maker = tablebase.maker();
    let command = tablebase.generate_command(Puzzle::Euler, shape);
    let looked = tablebase
        .missing(Puzzle::Euler, shape)
        .looked()
        .unwrap_or_else(|| "no table directory given (--tables DIR, or BOARDBASE_TABLES)".into());
    let why = if maker.max_cells() == 0 {
        "and this server makes no tables in memory (--make-memory 0)".to_owned()
    } else if shape.cells() > maker.max_cells() {
        format!(
            "and {} squares are too many to make it in memory (at most {})",
            shape.cells(),
            maker.max_cells()
        )
    } else {
        format!(
            "and making it in memory needs {}, over this server's budget of {} (--make-memory)",
            ByteSize(Maker::needed(shape)),
            ByteSize(maker.budget())
        )
    };
    let then = if tablebase.dirs().is_empty() {
        ", then restart the server with --tables tables"
    } else {
        ""
    };
    ApiError::unprocessable(format!(
        "no Euler {shape} table: {looked}, {why}; make it with: {command}{then}"
    ))
    .with("size", shape.to_string())
    .with("command", command)
}

/// 429: the blocking workers stayed busy.
fn busy(workers: usize, what: &str) -> ApiError {
    let mut e = ApiError::new(
        StatusCode::TOO_MANY_REQUESTS,
        format!("all {workers} workers are busy ({what}): try again in a moment"),
    );
    e.retry_after = Some(1);
    e
}

async fn flip(
    axum::extract::State(state): axum::extract::State<Shared>,
    request: Request,
) -> Response {
    respond(flip_answer(&state, request.uri().query())).await
}

async fn euler(
    axum::extract::State(state): axum::extract::State<Shared>,
    request: Request,
) -> Response {
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
    match lookup {
        Ok(Lookup::Done(body)) => raw_answer(Ok(body)),
        Ok(Lookup::Pooled(work)) => raw_answer(work.await),
        Err(e) => e.into_response(),
    }
}

/// `GET /api/v1/flip`'s answer, or the work to do for it.
fn flip_answer<'a>(state: &'a State, query: Option<&str>) -> Result<Lookup<'a>, ApiError> {
    let q = board_query(query)?;
    let alphabet = &boardbase::flip::ALPHABET;
    let board = board_rows(&q.board, q.size, alphabet)?;
    let shape = board.shape();
    let from = state
        .tablebase
        .flip(shape)
        .map_err(|why| unanswered(&state.tablebase, Puzzle::Flip, shape, why))?;
    match from {
        FlipFrom::Table(source) => flip_json(&*source, board_bits(&board)?)
            .map(Lookup::Done)
            .map_err(|e| probe_error("Flip", shape, &e)),
        FlipFrom::Lights(solver) => {
            let grid = Grid::from_rows(shape, board.rows())
                .map_err(|e| ApiError::bad(format!("board: {e}")))?;
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
                .map_err(|e| {
                    unanswered(&state.tablebase, Puzzle::Flip, shape, Unanswered::Lights(e))
                })
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
        .run(deadline, move || {
            flip_lights_json_within(solver, &grid, max)
        })
        .await
        .map_err(|e| match e {
            CountFailure::Busy { workers } => busy(workers, "solving large boards"),
            _ => ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "the solving task failed"),
        })?
        .map_err(|e| unanswered(&state.tablebase, Puzzle::Flip, shape, Unanswered::Lights(e)))
}

/// `GET /api/v1/euler`'s answer, or the table to make for it.
fn euler_answer<'a>(state: &'a State, query: Option<&str>) -> Result<Lookup<'a>, ApiError> {
    let q = board_query(query)?;
    let alphabet = &boardbase::euler::ALPHABET;
    let board = board_rows(&q.board, q.size, alphabet)?;
    let shape = board.shape();
    let found = state
        .tablebase
        .euler(shape)
        .map_err(|why| unanswered(&state.tablebase, Puzzle::Euler, shape, why))?;
    let position = board_bits(&board)?;
    match found {
        Some(source) => euler_json(&*source, position)
            .map(Lookup::Done)
            .map_err(|e| probe_error("Euler", shape, &e)),
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
        .maker()
        .begin(shape)
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
                let _ = pool.run(far, move || job.run(|_| {})).await;
            });
            wait_made(pending, deadline).await
        }
    };
    let source = made.map_err(|e| make_error(state, shape, e))?;
    euler_json(&*source, position).map_err(|e| probe_error("Euler", shape, &e))
}

/// The table being made, waited for until `deadline`.
async fn wait_made(pending: Pending, deadline: Instant) -> Result<Made, MakeError> {
    tokio::time::timeout_at(deadline.into(), pending)
        .await
        .unwrap_or(Err(MakeError::Busy))
}

/// The answer when no table was made in memory.
fn make_error(state: &State, shape: Shape, e: MakeError) -> ApiError {
    let tablebase = &state.tablebase;
    match e {
        MakeError::NotMade => missing(tablebase, shape),
        MakeError::Busy => busy(
            state.pool.workers(),
            &format!("making tables in memory, the euler {shape} table among them"),
        ),
        MakeError::Failed(why) => {
            let command = tablebase.generate_command(Puzzle::Euler, shape);
            ApiError::unprocessable(format!(
                "cannot make the Euler {shape} table in memory: {why}; make it with: {command}"
            ))
            .with("size", shape.to_string())
            .with("command", command)
        }
    }
}

/// Which of the Lights Out family's routes a query is for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum LightsRoute {
    /// `/api/v1/lights`: a board and a goal.
    Solve,
    /// `/api/v1/lights/info`: a size.
    Info,
}

/// The parameters of a Lights Out family query, each at most once: the
/// variant (`colours`, `wrap`, `pattern`), and `board` and `goal` for a
/// board, `size` for the structure.
struct LightsQuery {
    board: Option<String>,
    size: Option<Shape>,
    colours: u8,
    wrap: bool,
    pattern: Pattern,
    goal: FamilyGoal,
}

/// Parses a Lights Out family query for `route`. The variant's parameters
/// mean what the options of `boardbase lights` mean, with their defaults
/// (2 colours, no wrap, plus, goal 0).
fn lights_query(query: Option<&str>, route: LightsRoute) -> Result<LightsQuery, ApiError> {
    let mut q = LightsQuery {
        board: None,
        size: None,
        colours: 2,
        wrap: false,
        pattern: Pattern::Plus,
        goal: FamilyGoal::OFF,
    };
    let mut seen: Vec<String> = Vec::new();
    let bad = |key: &str, message: String| ApiError::bad(message).with("parameter", key);
    for (key, value) in form_urlencoded::parse(query.unwrap_or("").as_bytes()) {
        let known = matches!(
            (route, &*key),
            (LightsRoute::Solve, "board" | "goal")
                | (LightsRoute::Info, "size")
                | (_, "colours" | "wrap" | "pattern")
        );
        if !known {
            let expected = match route {
                LightsRoute::Solve => {
                    "board (rows separated by '/') and optionally colours, wrap, pattern and goal"
                }
                LightsRoute::Info => "size (RxC) and optionally colours, wrap and pattern",
            };
            return Err(bad(
                &key,
                format!("unknown parameter {key:?}: expected {expected}"),
            ));
        }
        if seen.iter().any(|k| *k == key) {
            return Err(bad(&key, format!("{key} is given more than once")));
        }
        seen.push(key.clone().into_owned());
        let value = value.trim();
        match &*key {
            "board" => q.board = Some(value.to_owned()),
            "size" => {
                q.size = Some(Shape::parse(value).ok_or_else(|| {
                    bad(
                        "size",
                        format!(
                            "size: expected RxC with 1 to 64 rows and columns (e.g. 5x5), found {value:?}"
                        ),
                    )
                })?);
            }
            "colours" => {
                q.colours = value
                    .parse::<u8>()
                    .ok()
                    .filter(|k| (family::MIN_COLOURS..=family::MAX_COLOURS).contains(k))
                    .ok_or_else(|| {
                        bad(
                            "colours",
                            format!(
                                "colours: expected {} to {}, found {value:?}",
                                family::MIN_COLOURS,
                                family::MAX_COLOURS
                            ),
                        )
                    })?;
            }
            "wrap" => {
                q.wrap = match value {
                    "true" => true,
                    "false" => false,
                    _ => {
                        return Err(bad(
                            "wrap",
                            format!("wrap: expected true or false, found {value:?}"),
                        ));
                    }
                }
            }
            "pattern" => {
                q.pattern = value
                    .parse()
                    .map_err(|e: family::PatternError| bad("pattern", format!("pattern: {e}")))?;
            }
            _ => {
                q.goal = value
                    .parse()
                    .map_err(|e: family::GoalError| bad("goal", format!("goal: {e}")))?;
            }
        }
    }
    if let FamilyGoal::Colour(d) = q.goal
        && d >= q.colours
    {
        return Err(bad(
            "goal",
            format!(
                "goal: colour {d}, but there are {} colours (0 to {})",
                q.colours,
                q.colours - 1
            ),
        ));
    }
    Ok(q)
}

/// The 422 for a board of the family that was not answered.
fn family_error(e: &FamilyError, shape: Shape) -> ApiError {
    match e {
        FamilyError::SearchTooLarge {
            quiet, max_bits, ..
        } => ApiError::unprocessable(format!(
            "{e}: no answer is claimed minimal past that (boardbase lights solve refuses it too)"
        ))
        .with("quiet_count", quiet.clone())
        .with("max_nullity", *max_bits),
        // The query was checked: the board has the variant's shape and
        // colours, the goal is one of them.
        _ => ApiError::bad(e.to_string()),
    }
    .with("size", shape.to_string())
}

/// A blocking-worker job that could not run.
fn worker_error(e: CountFailure, what: &str) -> ApiError {
    match e {
        CountFailure::Busy { workers } => busy(workers, what),
        _ => ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "the solving task failed"),
    }
}

/// `GET /api/v1/lights`.
async fn lights(
    axum::extract::State(state): axum::extract::State<Shared>,
    request: Request,
) -> Response {
    answer(lights_answer(&state, request.uri().query()).await)
}

/// `GET /api/v1/lights`'s answer: on the async threads when the search
/// visits at most 2^12 press vectors a colour, else on a blocking worker.
async fn lights_answer(state: &State, query: Option<&str>) -> Result<LightsLookup, ApiError> {
    let q = lights_query(query, LightsRoute::Solve)?;
    let text = q.board.ok_or_else(|| {
        ApiError::bad("missing parameter board: the rows of the board separated by '/'")
            .with("parameter", "board")
    })?;
    let board = ColourGrid::parse(&text, q.colours).map_err(|e| ApiError::parse("board", &e))?;
    let shape = board.shape();
    let variant = Variant::of_shape(shape, q.colours)
        .map_err(|e| ApiError::bad(e.to_string()))?
        .with_wrap(q.wrap)
        .with_pattern(q.pattern);
    let (goal, max) = (q.goal, state.tablebase.max_nullity());
    let inline = FamilySolver::cached(&variant).quiet_count().bits() <= INLINE_NULLITY as u64;
    let lookup = if inline {
        LightsLookup::new(&variant, &board, goal, max)
    } else {
        let deadline = Instant::now() + state.limits.count_timeout;
        state
            .pool
            .run(deadline, move || {
                LightsLookup::new(&variant, &board, goal, max)
            })
            .await
            .map_err(|e| worker_error(e, "solving large boards"))?
    };
    lookup.map_err(|e| family_error(&e, shape))
}

/// `GET /api/v1/lights/info`: on a blocking worker (the histogram visits
/// up to 2^25 boards).
async fn lights_info(
    axum::extract::State(state): axum::extract::State<Shared>,
    request: Request,
) -> Response {
    let query = lights_query(request.uri().query(), LightsRoute::Info);
    drop(request);
    let result = async {
        let q = query?;
        let shape = q.size.ok_or_else(|| {
            ApiError::bad("missing parameter size: the board size RxC (e.g. 5x5)")
                .with("parameter", "size")
        })?;
        let variant = Variant::of_shape(shape, q.colours)
            .map_err(|e| ApiError::bad(e.to_string()))?
            .with_wrap(q.wrap)
            .with_pattern(q.pattern);
        let deadline = Instant::now() + state.limits.count_timeout;
        state
            .pool
            .run(deadline, move || LightsInfo::new(&family::info(&variant)))
            .await
            .map_err(|e| worker_error(e, "the structure of variants"))
    };
    answer(result.await)
}

/// `POST /api/v1/carcassonne` with a JSON body.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CarcassonneRequest {
    rows: u64,
    cols: u64,
    tiles: Vec<String>,
}

/// The answer to a Carcassonne request: one board's for a JSON body, every
/// case's for the judge's text.
#[derive(Serialize)]
#[serde(untagged)]
enum CarcassonneReply {
    One(CarcassonneAnswer),
    Cases { cases: Vec<CarcassonneAnswer> },
}

/// How a Carcassonne body is written.
enum BodyKind {
    Json,
    Text,
}

fn body_kind(headers: &HeaderMap, body: &[u8]) -> Result<BodyKind, ApiError> {
    // No type given: JSON if it looks like it, the judge's text otherwise.
    let sniffed = || {
        let first = body.iter().find(|b| !b.is_ascii_whitespace());
        if first == Some(&b'{') {
            BodyKind::Json
        } else {
            BodyKind::Text
        }
    };
    let Some(value) = headers.get(header::CONTENT_TYPE) else {
        return Ok(sniffed());
    };
    let essence = value
        .to_str()
        .unwrap_or("")
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    if essence == "application/x-www-form-urlencoded" {
        // curl's default for -d: not a form, whatever it says.
        return Ok(sniffed());
    }
    if essence == "application/json" || essence.ends_with("+json") {
        Ok(BodyKind::Json)
    } else if essence == "text/plain" {
        Ok(BodyKind::Text)
    } else {
        Err(ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            format!(
                "unsupported content type {:?}: send application/json ({{\"rows\": 1, \"cols\": 2, \"tiles\": [\"RRRF\", \"FCCC\"]}}) or text/plain (the judge's input)",
                value.to_str().unwrap_or("(not text)")
            ),
        ))
    }
}

/// Reads the body, at most `limit` bytes, within `timeout`.
async fn read_body(body: Body, headers: &HeaderMap, limits: &Limits) -> Result<Bytes, ApiError> {
    let too_large = || {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the body is larger than {} bytes", limits.body),
        )
        .with("body_limit_bytes", limits.body)
    };
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > limits.body as u64) {
        return Err(too_large());
    }
    let limited = http_body_util::Limited::new(body, limits.body);
    match tokio::time::timeout(limits.read_timeout, limited.collect()).await {
        Ok(Ok(collected)) => Ok(collected.to_bytes()),
        Ok(Err(e)) if e.is::<http_body_util::LengthLimitError>() => Err(too_large()),
        Ok(Err(e)) => Err(ApiError::bad(format!("cannot read the body: {e}"))),
        Err(_) => Err(ApiError::new(
            StatusCode::REQUEST_TIMEOUT,
            format!(
                "the body was not received within {} s",
                limits.read_timeout.as_secs_f64()
            ),
        )),
    }
}

async fn carcassonne(
    axum::extract::State(state): axum::extract::State<Shared>,
    headers: HeaderMap,
    body: Body,
) -> Response {
    let deadline = Instant::now() + state.limits.count_timeout;
    let result = async {
        let bytes = read_body(body, &headers, &state.limits).await?;
        let kind = body_kind(&headers, &bytes)?;
        let boards = match kind {
            BodyKind::Json => vec![json_board(&bytes)?],
            BodyKind::Text => text_boards(&bytes, state.limits.max_cases)?,
        };
        let mut answers = state
            .pool
            .count(state.tablebase.clone(), boards, deadline)
            .await
            .map_err(|e| count_error(e, &state.limits))?;
        match (kind, answers.pop()) {
            (BodyKind::Json, Some(one)) => Ok(CarcassonneReply::One(one)),
            (BodyKind::Text, last) => {
                answers.extend(last);
                Ok(CarcassonneReply::Cases { cases: answers })
            }
            (BodyKind::Json, None) => Err(ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "the board was not counted",
            )),
        }
    };
    answer(result.await)
}

fn count_error(failure: CountFailure, limits: &Limits) -> ApiError {
    match failure {
        CountFailure::Busy { workers } => {
            let mut e = ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                format!("all {workers} Carcassonne workers are busy: try again later"),
            );
            e.retry_after = Some(1);
            e
        }
        CountFailure::Case { case, error, late } => {
            let message = match error {
                StopError::Count(e) => format!("case {case}: {e}: past the DP's memory budget"),
                StopError::Stopped { placed, cells } if late => format!(
                    "case {case}: not counted within the server's time limit of {} s (stopped after {placed} of {cells} tiles)",
                    limits.count_timeout.as_secs_f64()
                ),
                StopError::Stopped { placed, cells } => {
                    format!("case {case}: stopped after {placed} of {cells} tiles")
                }
            };
            ApiError::unprocessable(message).with("case", case)
        }
        CountFailure::Crashed => ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the counting task failed",
        ),
    }
}

/// The board of a JSON body.
fn json_board(bytes: &[u8]) -> Result<Board, ApiError> {
    let request: CarcassonneRequest = serde_json::from_slice(bytes).map_err(|e| {
        ApiError::bad(format!("body: {e}"))
            .with("line", e.line())
            .with("column", e.column())
    })?;
    let (rows, cols) = (request.rows, request.cols);
    let size = |what: &str| format!("{what} ({rows}×{cols})");
    if rows == 0 || cols == 0 {
        return Err(ApiError::bad(size(
            "a board needs at least one row and one column",
        )));
    }
    if rows.min(cols) > carcassonne::MAX_NARROW_SIDE as u64 {
        return Err(ApiError::unprocessable(size(&format!(
            "the narrower side of a board may be at most {}",
            carcassonne::MAX_NARROW_SIDE
        ))));
    }
    let cells = rows
        .checked_mul(cols)
        .filter(|&n| n <= carcassonne::MAX_TILES);
    let Some(cells) = cells else {
        return Err(ApiError::unprocessable(size(&format!(
            "a board may have at most {} tiles",
            carcassonne::MAX_TILES
        ))));
    };
    if request.tiles.len() as u64 != cells {
        return Err(ApiError::bad(format!(
            "a {rows}×{cols} board needs {cells} tiles, got {}",
            request.tiles.len()
        )));
    }
    let tiles = request
        .tiles
        .iter()
        .enumerate()
        .map(|(i, code)| {
            code.parse::<Tile>().map_err(|e| {
                let (r, c) = (i as u64 / cols, i as u64 % cols);
                ApiError::bad(format!("tile {i} (row {r}, column {c}) {code:?}: {e}"))
                    .with("tile", i)
                    .with("row", r)
                    .with("col", c)
            })
        })
        .collect::<Result<Vec<Tile>, ApiError>>()?;
    Board::new(rows as usize, cols as usize, tiles).map_err(|e| match e {
        BoardError::TooWide { .. } => ApiError::unprocessable(e.to_string()),
        _ => ApiError::bad(e.to_string()),
    })
}

/// The boards of a judge-text body: a case count, then the cases.
fn text_boards(bytes: &[u8], max_cases: u64) -> Result<Vec<Board>, ApiError> {
    let fail = |e: InputError| match e {
        InputError::Parse(e) => ApiError::parse("body", &e),
        InputError::Io(e) => ApiError::bad(format!("body: {e}")),
    };
    let mut scanner = Scanner::new(bytes);
    let count = carcassonne::read_case_count(&mut scanner).map_err(fail)?;
    if count > max_cases {
        return Err(ApiError::unprocessable(format!(
            "{count} cases: at most {max_cases} a request"
        ))
        .with("max_cases", max_cases));
    }
    let mut boards = Vec::new();
    for case in 1..=count {
        let read = carcassonne::read_case(&mut scanner).map_err(fail);
        boards.push(read.map_err(|e| e.with("case", case))?.board);
    }
    scanner.expect_end().map_err(fail)?;
    Ok(boards)
}

async fn not_found() -> Response {
    // The middleware words it with the method and path.
    StatusCode::NOT_FOUND.into_response()
}

/// Gives every error a JSON body (axum's own 404 and 405 have none), and
/// adds the headers of the API and of the explorer's files.
async fn json_errors(request: Request, next: Next) -> Response {
    let method = request.method().clone();
    let uri = request.uri().clone();
    let path = uri.path();
    let mut response = next.run(request).await;
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if (status.is_client_error() || status.is_server_error()) && !is_json {
        let allow = response.headers().get(header::ALLOW).cloned();
        let message = match status {
            StatusCode::NOT_FOUND => format!("no such route: {method} {path}"),
            StatusCode::METHOD_NOT_ALLOWED => format!(
                "method {method} is not allowed on {path}; allowed: {}",
                allow
                    .as_ref()
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or("none")
            ),
            _ => status
                .canonical_reason()
                .unwrap_or("error")
                .to_ascii_lowercase(),
        };
        let mut replaced = ApiError::new(status, message).into_response();
        if let Some(allow) = allow {
            replaced.headers_mut().insert(header::ALLOW, allow);
        }
        if method == Method::HEAD {
            // The headers of the answer a GET would get, no body.
            *replaced.body_mut() = Body::empty();
        }
        response = replaced;
    }
    let headers = response.headers_mut();
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    if path.starts_with("/api/") {
        // Read-only answers: any page may ask.
        headers.insert(
            header::ACCESS_CONTROL_ALLOW_ORIGIN,
            HeaderValue::from_static("*"),
        );
    } else {
        // The explorer loads nothing from anywhere else.
        headers.insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(
                "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
            ),
        );
    }
    response
}

/// `n` and its noun, `1 row`, `2 rows`.
fn plural(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}
