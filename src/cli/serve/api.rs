//! The routes, the request parsing and the JSON errors.
//!
//! | route | answer |
//! | --- | --- |
//! | `GET /api/v1/flip?board=ROWS[&size=RxC]` | the CLI's object and every press ([`flip_json`]) |
//! | `GET /api/v1/euler?board=ROWS[&size=RxC]` | the CLI's object and every legal move ([`euler_json`]) |
//! | `POST /api/v1/carcassonne` (JSON or the judge's text) | [`CarcassonneAnswer`] or `{"cases": [...]}` |
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
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{RawQuery, Request};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use boardbase::carcassonne::{self, Board, BoardError, StopError, Tile};
use boardbase::error::{Found, ParseError};
use boardbase::grid::Alphabet;
use boardbase::input::{InputError, Scanner};
use boardbase::report::CarcassonneAnswer;
use boardbase::tables::shape::Shape;
use http_body_util::BodyExt;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::answers::{Catalog, Sizes, euler_json, flip_json};
use super::assets;
use super::count::{CountFailure, Pool};

/// The server's limits.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Largest request body, in bytes.
    pub body: usize,
    /// Longest a client may take to send a body (and, in the connection,
    /// the headers).
    pub read_timeout: Duration,
    /// Longest a Carcassonne request may take, waiting included.
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
    catalog: Catalog,
    pool: Pool,
    limits: Limits,
}

impl State {
    /// The state of a server answering from `catalog`.
    pub fn new(catalog: Catalog, pool: Pool, limits: Limits) -> State {
        State {
            catalog,
            pool,
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
            sizes: state.catalog.sizes(),
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
struct BoardQuery {
    board: String,
    size: Option<Shape>,
}

/// Parses `board=ROWS[&size=RxC]`.
fn board_query(query: Option<&str>) -> Result<BoardQuery, ApiError> {
    let mut board = None;
    let mut size = None;
    for (key, value) in form_urlencoded::parse(query.unwrap_or("").as_bytes()) {
        match &*key {
            "board" if board.is_none() => board = Some(value.into_owned()),
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

/// The shape of a board's text and the text to parse: rows are separated
/// by `/` or new lines, blanks are ignored, and the shape is the number of
/// rows by their length. With `size`, a board may also be given as its R·C
/// cells in one run (`bwwbbbwbbwwbbwww` with `size=4x4`). A character
/// outside the puzzle's `alphabet` is a 400 with its line and column (in
/// bytes, as the library counts them).
fn board_shape<'a>(
    text: &'a str,
    size: Option<Shape>,
    alphabet: &Alphabet,
) -> Result<(Shape, Cow<'a, str>), ApiError> {
    let bytes = text.as_bytes();
    let mut rows: Vec<usize> = vec![0];
    let (mut line, mut line_start) = (1u64, 0usize);
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'/' => rows.push(0),
            b'\n' => {
                rows.push(0);
                line += 1;
                line_start = i + 1;
            }
            b' ' | b'\t' | b'\r' => {}
            _ if alphabet.decode(b).is_some() => *rows.last_mut().unwrap_or(&mut 0) += 1,
            _ => {
                let e = ParseError {
                    line,
                    column: (i - line_start + 1) as u64,
                    expected: alphabet.expected(),
                    found: Found::first_of(&bytes[i..]),
                };
                return Err(ApiError::parse("board", &e));
            }
        }
    }
    let first = rows.iter().position(|&n| n > 0);
    let last = rows.iter().rposition(|&n| n > 0);
    let (Some(first), Some(last)) = (first, last) else {
        return Err(ApiError::bad(
            "board: expected the rows of a board separated by '/', found nothing",
        )
        .with("parameter", "board"));
    };
    let rows = &rows[first..=last];
    let (r, c) = (rows.len(), rows[0]);
    if let Some(k) = rows.iter().position(|&n| n != c) {
        return Err(ApiError::bad(format!(
            "board: row {} has {} cells, row 1 has {c}: every row needs as many",
            k + 1,
            rows[k]
        ))
        .with("parameter", "board"));
    }
    if let Some(size) = size {
        if r == 1 && size.rows() > 1 && c == size.cells() {
            // One run of cells: cut it into rows.
            let cells: Vec<u8> = bytes
                .iter()
                .copied()
                .filter(|&b| alphabet.decode(b).is_some())
                .collect();
            let split: Vec<String> = cells
                .chunks(size.cols())
                .map(|row| row.iter().map(|&b| char::from(b)).collect())
                .collect();
            return Ok((size, Cow::Owned(split.join("/"))));
        }
        if (r, c) != (size.rows(), size.cols()) {
            return Err(ApiError::bad(format!(
                "board: {r} rows of {c} cells, but size={size} was given"
            ))
            .with("parameter", "board"));
        }
        return Ok((size, Cow::Borrowed(text)));
    }
    match Shape::new(r, c) {
        Some(shape) => Ok((shape, Cow::Borrowed(text))),
        None => Err(ApiError::unprocessable(format!(
            "board: {r} rows of {c} cells: boards have 1 to 64 rows and columns"
        ))
        .with("parameter", "board")),
    }
}

/// The 422 for a size no source answers, naming what would answer it.
fn no_source(puzzle: &str, shape: Shape, answered: &[String]) -> ApiError {
    let file = format!("{}-{shape}.bin", puzzle.to_ascii_lowercase());
    ApiError::unprocessable(format!(
        "no {puzzle} answers for {shape} boards on this server: it answers {} (GET /api/v1/sizes). \
         A {shape} board needs a table file {file} (boardbase serve --tables DIR){}, \
         which this version cannot load yet",
        answered.join(", "),
        if puzzle == "Flip" {
            " or the run-time GF(2) solver"
        } else {
            ""
        },
    ))
    .with("size", shape.to_string())
    .with("sizes", answered.to_vec())
}

async fn flip(
    axum::extract::State(state): axum::extract::State<Shared>,
    RawQuery(query): RawQuery,
) -> Response {
    raw_answer(flip_answer(&state, query.as_deref()))
}

fn flip_answer(state: &State, query: Option<&str>) -> Result<Vec<u8>, ApiError> {
    let q = board_query(query)?;
    let (shape, text) = board_shape(&q.board, q.size, &boardbase::flip::ALPHABET)?;
    let Some(source) = state.catalog.flip(shape) else {
        let answered: Vec<String> = state
            .catalog
            .sizes()
            .flip
            .into_iter()
            .map(|s| s.size)
            .collect();
        return Err(no_source("Flip", shape, &answered));
    };
    let board = source
        .parse(&text)
        .map_err(|e| ApiError::parse("board", &e))?;
    Ok(flip_json(source, board))
}

async fn euler(
    axum::extract::State(state): axum::extract::State<Shared>,
    RawQuery(query): RawQuery,
) -> Response {
    raw_answer(euler_answer(&state, query.as_deref()))
}

fn euler_answer(state: &State, query: Option<&str>) -> Result<Vec<u8>, ApiError> {
    let q = board_query(query)?;
    let (shape, text) = board_shape(&q.board, q.size, &boardbase::euler::ALPHABET)?;
    let Some(source) = state.catalog.euler(shape) else {
        let answered: Vec<String> = state
            .catalog
            .sizes()
            .euler
            .into_iter()
            .map(|s| s.size)
            .collect();
        return Err(no_source("Euler", shape, &answered));
    };
    let position = source
        .parse(&text)
        .map_err(|e| ApiError::parse("board", &e))?;
    Ok(euler_json(source, position))
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
        .with("limit", limits.body)
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
            .count(boards, deadline)
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
        .with("limit", max_cases));
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
