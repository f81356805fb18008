//! The server's one error type, [`ApiError`], and its one mapping to HTTP
//! (a status, a JSON object with an `error` message and the fields that
//! locate the problem, and `Retry-After` when the workers are busy).

use std::time::Duration;

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use boardbase::carcassonne::{self, BoardError, CountError};
use boardbase::error::{Classify, Kind, ParseError};
use boardbase::lights::LightsError;
use boardbase::tablebase::{self, OptionNames};
use boardbase::tables::shape::Shape;
use serde_json::{Map, Value};

use super::query::QueryError;

/// Everything a request can fail with, each case with what its message and
/// fields need; [`IntoResponse`] gives each its status and JSON body.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// A query parameter unknown, repeated, missing or of a bad value (400).
    #[error(transparent)]
    Query(#[from] QueryError),
    /// A syntax error in the text of `what` (`board` or `body`), with its
    /// line and column, and in the judge's text the case it is in (400).
    #[error("{what}: {error}")]
    Syntax {
        /// The parameter or the body.
        what: &'static str,
        /// Where and what.
        error: ParseError,
        /// The case of a judge-text body, from 1.
        case: Option<u64>,
    },
    /// Board text of nothing but blanks (400).
    #[error("board: expected the rows of a board separated by '/', found nothing")]
    EmptyBoard,
    /// Board rows of different lengths (400).
    #[error("board: row {row} has {cells} cells, row 1 has {first}: every row needs as many")]
    Ragged {
        /// The row, from 1.
        row: usize,
        /// Its length.
        cells: usize,
        /// The first row's length.
        first: usize,
    },
    /// Board rows that disagree with `size` (400).
    #[error("board: {}, but size={size} was given", rows_of_cells(*.rows, *.cols))]
    NotSize {
        /// The rows given.
        rows: usize,
        /// Their length.
        cols: usize,
        /// The size given.
        size: Shape,
    },
    /// A board past 64 rows or columns (422).
    #[error("board: {}: boards have 1 to 64 rows and columns", rows_of_cells(*.rows, *.cols))]
    BoardTooLarge {
        /// The rows given.
        rows: usize,
        /// Their length.
        cols: usize,
    },
    /// Rows that do not make a GF(2) grid (400).
    #[error("board: {0}")]
    Grid(LightsError),
    /// A board of over 64 cells, which no table holds (422).
    #[error("board: a {0} board has over 64 cells: no table holds it")]
    OverCells(Shape),
    /// The answer layer's refusal of a board of `shape`: a table it does
    /// not hold or cannot use, a damaged table, a shape past the puzzle's
    /// limits or the search's (422); a board that does not fit the
    /// question (400).
    #[error("{}", answer_message(.error, *.shape))]
    Answer {
        /// The board's shape.
        shape: Shape,
        /// The library's error.
        error: tablebase::Error,
    },
    /// A Lights Out variant that cannot be (400).
    #[error(transparent)]
    Variant(#[from] LightsError),
    /// The blocking workers stayed busy (429).
    #[error("all {workers} workers are busy ({work}): try again in a moment")]
    Busy {
        /// How many there are.
        workers: usize,
        /// The work asked for.
        work: Work,
    },
    /// The Carcassonne workers stayed busy (429).
    #[error("all {workers} Carcassonne workers are busy: try again later")]
    CountersBusy {
        /// How many there are.
        workers: usize,
    },
    /// A Carcassonne case went past the DP's budget or the time limit (422).
    #[error("case {case}: {}", stop_message(.error, *.late, *.limit))]
    Case {
        /// The case, from 1.
        case: u64,
        /// What stopped it.
        error: CountError,
        /// Whether the time limit had passed.
        late: bool,
        /// The server's time limit.
        limit: Duration,
    },
    /// A judge-text body of more cases than a request may hold (422).
    #[error("{count} cases: at most {max} a request")]
    TooManyCases {
        /// The case count given.
        count: u64,
        /// The limit.
        max: u64,
    },
    /// A JSON body that is not a Carcassonne request (400).
    #[error("body: {0}")]
    Json(serde_json::Error),
    /// The judge's text could not be read (400).
    #[error("body: {0}")]
    Text(std::io::Error),
    /// A Carcassonne board of a bad size (400, or 422 past the limits).
    #[error("{problem} ({rows}×{cols})")]
    CarcassonneSize {
        /// What is wrong.
        problem: SizeProblem,
        /// The rows given.
        rows: u64,
        /// The columns given.
        cols: u64,
    },
    /// A JSON body whose tile list is not rows × cols long (400).
    #[error("a {rows}×{cols} board needs {cells} tiles, got {got}")]
    TileCount {
        /// The rows.
        rows: u64,
        /// The columns.
        cols: u64,
        /// rows × cols.
        cells: u64,
        /// The tiles given.
        got: usize,
    },
    /// A bad tile code in a JSON body (400).
    #[error("tile {index} (row {row}, column {col}) {code:?}: {error}")]
    Tile {
        /// Its index in the list, from 0.
        index: usize,
        /// Its row, from 0.
        row: u64,
        /// Its column, from 0.
        col: u64,
        /// The code given.
        code: String,
        /// What is wrong with it.
        error: BoardError,
    },
    /// A Carcassonne board the library refused (422 too wide, else 400).
    #[error(transparent)]
    CarcassonneBoard(BoardError),
    /// A body over the limit (413).
    #[error("the body is larger than {0} bytes")]
    TooLarge(usize),
    /// A body sent too slowly (408).
    #[error("the body was not received within {} s", .0.as_secs_f64())]
    SlowBody(Duration),
    /// A body that could not be read (400).
    #[error("cannot read the body: {0}")]
    Unreadable(axum::BoxError),
    /// A body neither JSON nor text (415).
    #[error(
        "unsupported content type {0:?}: send application/json ({{\"rows\": 1, \"cols\": 2, \"tiles\": [\"RRRF\", \"FCCC\"]}}) or text/plain (the judge's input)"
    )]
    ContentType(String),
    /// No route has the path (404).
    #[error("no such route: {method} {path}")]
    NoRoute {
        /// The request's method.
        method: String,
        /// Its path.
        path: String,
    },
    /// The route does not take the method (405).
    #[error("method {method} is not allowed on {path}; allowed: {allow}")]
    Method {
        /// The request's method.
        method: String,
        /// Its path.
        path: String,
        /// The methods it takes.
        allow: String,
    },
    /// Any other error status axum answered without a body.
    #[error("{}", .0.canonical_reason().unwrap_or("error").to_ascii_lowercase())]
    Status(StatusCode),
    /// A bug: a task panicked, or an answer did not serialize (500).
    #[error("{0}")]
    Internal(Internal),
}

/// How the server names the options a missing table's message points to.
pub const OPTION_NAMES: OptionNames = OptionNames {
    tables: "--tables DIR",
    then: "restart the server with --tables my-tables",
    make_memory: Some("--make-memory"),
};

/// The work a busy worker pool was asked for.
#[derive(Debug, Clone, Copy)]
pub enum Work {
    /// Flip by GF(2), or the Lights Out family, on a large nullity.
    LargeBoards,
    /// The structure of a Lights Out variant.
    Structure,
    /// Making an Euler table in memory.
    Making(Shape),
    /// Solving a game of the model in memory.
    Solving(Shape),
}

impl std::fmt::Display for Work {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Work::LargeBoards => f.write_str("solving large boards"),
            Work::Structure => f.write_str("the structure of variants"),
            Work::Making(shape) => write!(
                f,
                "making tables in memory, the euler {shape} table among them"
            ),
            Work::Solving(shape) => {
                write!(f, "solving games in memory, the {shape} one among them")
            }
        }
    }
}

/// What is wrong with a Carcassonne board's size.
#[derive(Debug, Clone, Copy, thiserror::Error)]
pub enum SizeProblem {
    /// A side is 0 (400).
    #[error("a board needs at least one row and one column")]
    Empty,
    /// Both sides past [`carcassonne::MAX_NARROW_SIDE`] (422).
    #[error(
        "the narrower side of a board may be at most {}",
        carcassonne::MAX_NARROW_SIDE
    )]
    TooWide,
    /// Past [`carcassonne::MAX_TILES`] (422).
    #[error("a board may have at most {} tiles", carcassonne::MAX_TILES)]
    TooManyTiles,
}

/// A bug, which the client is told of.
#[derive(Debug, thiserror::Error)]
pub enum Internal {
    /// A solving task panicked.
    #[error("the solving task failed")]
    Solving,
    /// A counting task panicked.
    #[error("the counting task failed")]
    Counting,
    /// A JSON body's board came back without its answer.
    #[error("the board was not counted")]
    NotCounted,
    /// An answer did not serialize.
    #[error("cannot write the answer: {0}")]
    Unwritable(serde_json::Error),
}

/// The message of the answer layer's error, worded for the server: its
/// options, and, past the search, what refuses the same question on the
/// command line (the family's search counts quiet patterns; GF(2)'s is a
/// nullity, which `flip` refuses).
fn answer_message(error: &tablebase::Error, shape: Shape) -> String {
    let message = error.worded(OPTION_NAMES);
    match error.kind() {
        Kind::Search => {
            let command = match error.quiet_count() {
                Some(_) => "lights solve".to_owned(),
                None => format!("flip --size {shape}"),
            };
            format!(
                "{message}: no answer is claimed minimal past that (boardbase {command} refuses it too)"
            )
        }
        _ => message,
    }
}

fn stop_message(error: &CountError, late: bool, limit: Duration) -> String {
    match error {
        CountError::Stopped { placed, cells } if late => format!(
            "not counted within the server's time limit of {} s (stopped after {placed} of {cells} tiles)",
            limit.as_secs_f64()
        ),
        CountError::Stopped { .. } => error.to_string(),
        _ => format!("{error}: past the DP's memory budget"),
    }
}

/// `4 rows of 4 cells`, `1 row of 69 cells`.
fn rows_of_cells(rows: usize, cols: usize) -> String {
    format!("{} of {}", plural(rows, "row"), plural(cols, "cell"))
}

/// `n` and its noun, `1 row`, `2 rows`.
fn plural(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

impl ApiError {
    /// The status of the answer.
    pub fn status(&self) -> StatusCode {
        use ApiError as E;
        match self {
            E::Query(_)
            | E::Syntax { .. }
            | E::Grid(_)
            | E::Variant(_)
            | E::Json(_)
            | E::Text(_)
            | E::TileCount { .. }
            | E::Tile { .. }
            | E::Unreadable(_) => StatusCode::BAD_REQUEST,
            E::EmptyBoard | E::Ragged { .. } | E::NotSize { .. } => StatusCode::BAD_REQUEST,
            E::BoardTooLarge { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            E::Answer { error, .. } => kind_status(error.kind()),
            E::CarcassonneSize {
                problem: SizeProblem::Empty,
                ..
            } => StatusCode::BAD_REQUEST,
            E::CarcassonneBoard(error) => kind_status(error.kind()),
            E::OverCells(_)
            | E::Case { .. }
            | E::TooManyCases { .. }
            | E::CarcassonneSize { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            E::Busy { .. } | E::CountersBusy { .. } => StatusCode::TOO_MANY_REQUESTS,
            E::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            E::SlowBody(_) => StatusCode::REQUEST_TIMEOUT,
            E::ContentType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            E::NoRoute { .. } => StatusCode::NOT_FOUND,
            E::Method { .. } => StatusCode::METHOD_NOT_ALLOWED,
            E::Status(status) => *status,
            E::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The JSON object: the message, then the fields that locate the
    /// problem, in the order clients have always seen them.
    pub fn body(&self) -> Map<String, Value> {
        use ApiError as E;
        let mut body = Map::new();
        let mut put = |key: &str, value: Value| {
            body.insert(key.to_owned(), value);
        };
        put("error", self.to_string().into());
        match self {
            E::Query(e) => put("parameter", e.parameter().into()),
            E::Syntax { error, case, .. } => {
                put("line", error.line.into());
                put("column", error.column.into());
                put("expected", error.expected.into());
                put("found", error.found.to_string().into());
                if let Some(case) = case {
                    put("case", (*case).into());
                }
            }
            E::EmptyBoard | E::Ragged { .. } | E::NotSize { .. } | E::BoardTooLarge { .. } => {
                put("parameter", "board".into())
            }
            E::Answer { shape, error } => answer_fields(error, *shape, &mut put),
            E::Case { case, .. } => put("case", (*case).into()),
            E::TooManyCases { max, .. } => put("max_cases", (*max).into()),
            E::Json(e) => {
                put("line", e.line().into());
                put("column", e.column().into());
            }
            E::Tile {
                index, row, col, ..
            } => {
                put("tile", (*index).into());
                put("row", (*row).into());
                put("col", (*col).into());
            }
            E::TooLarge(limit) => put("body_limit_bytes", (*limit).into()),
            _ => {}
        }
        body
    }

    /// Seconds to wait before asking again, for the busy answers.
    fn retry_after(&self) -> Option<u64> {
        matches!(self, ApiError::Busy { .. } | ApiError::CountersBusy { .. }).then_some(1)
    }
}

/// The status of the library's errors, by their kind: a board or options
/// that do not make the question are the client's (400); what is past a
/// limit, and the tablebase's failures, are unprocessable (422).
fn kind_status(kind: Kind) -> StatusCode {
    match kind {
        Kind::Syntax | Kind::Mismatch | Kind::Option => StatusCode::BAD_REQUEST,
        _ => StatusCode::UNPROCESSABLE_ENTITY,
    }
}

/// The fields of the answer layer's error: what locates the problem or
/// fixes it, and the size.
fn answer_fields(error: &tablebase::Error, shape: Shape, put: &mut impl FnMut(&str, Value)) {
    let size = shape.to_string();
    if error.kind() == Kind::Missing {
        // The size first here, as clients have always seen it.
        put("size", size.into());
        if let Some(command) = error.command() {
            put("command", command.into());
        }
        return;
    }
    // A file to replace: where it is and the command that makes it.
    if let (Some(file), Some(command)) = (error.file(), error.command()) {
        put("file", file.display().to_string().into());
        put("command", command.into());
    }
    if let Some(nullity) = error.nullity() {
        put("nullity", nullity.into());
    }
    if let Some(quiet) = error.quiet_count() {
        put("quiet_count", quiet.into());
    }
    if let Some(max) = error.max_nullity() {
        put("max_nullity", max.into());
    }
    if let Some(max) = error.max_cells() {
        put("max_cells", max.into());
    }
    put("size", size.into());
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        // A JSON object of strings and numbers: its text cannot fail.
        let body = Value::Object(self.body()).to_string();
        let mut response = (self.status(), body).into_response();
        let headers = response.headers_mut();
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
        if let Some(seconds) = self.retry_after() {
            headers.insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        response
    }
}
