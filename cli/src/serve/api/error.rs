//! The server's one error type, [`ApiError`], and its one mapping to HTTP
//! (a status, a JSON object with an `error` message and the fields that
//! locate the problem, and `Retry-After` when the workers are busy).
//!
//! What the question's sender can fix is an [`ApiError::Parameter`] (the
//! query) or an [`ApiError::Refused`] (the library's refusal of the board
//! or the body, and the server's own limits on them): both carry the
//! [`Kind`] their status is mapped from, once, in [`kind_status`]; the
//! library's errors are worded and located where they are met and never
//! matched again here. The other variants are HTTP's own: the workers
//! busy, the body's transport, the routes, a bug.

use std::time::Duration;

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use boardbase::error::{Classify, Kind, ParseError};
use boardbase::tablebase::{self, OptionNames};
use boardbase::tables::shape::Shape;
use serde_json::{Map, Value};

/// Everything a request can fail with; [`IntoResponse`] gives each its
/// status and JSON body.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// A query parameter unknown, repeated, missing or of a bad value, or a
    /// board that is not one (rows of no board, of another size, past
    /// 64×64): the body names the parameter (400, 422 past a limit).
    #[error("{message}")]
    Parameter {
        /// The parameter at fault.
        key: String,
        /// What the fault is about: it gives the status.
        kind: Kind,
        /// The whole message.
        message: String,
    },
    /// The library's refusal of the board or the body, or the server's
    /// own limit on them: its status by its kind, its message worded and
    /// its locating fields (line and column, the case, the tile, the size)
    /// given where it was met.
    #[error("{message}")]
    Refused {
        /// What the refusal is about: it gives the status.
        kind: Kind,
        /// The whole message.
        message: String,
        /// The fields after `error`, in the order clients have always
        /// seen them.
        fields: Vec<(&'static str, Value)>,
    },
    /// The blocking workers stayed busy (429, with `Retry-After`).
    #[error("{}", busy_message(*.workers, *.work))]
    Busy {
        /// How many there are.
        workers: usize,
        /// The work asked for.
        work: Work,
    },
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
    /// Counting Carcassonne boards, on the counters' own pool.
    Counting,
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
            Work::Counting => f.write_str("counting Carcassonne boards"),
        }
    }
}

/// The busy answer: the counters' pool words it as it always has.
fn busy_message(workers: usize, work: Work) -> String {
    match work {
        Work::Counting => format!("all {workers} Carcassonne workers are busy: try again later"),
        work => format!("all {workers} workers are busy ({work}): try again in a moment"),
    }
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

impl ApiError {
    /// The parameter `key` at fault, about `kind`, in `message`.
    pub fn parameter(key: impl Into<String>, kind: Kind, message: impl Into<String>) -> ApiError {
        ApiError::Parameter {
            key: key.into(),
            kind,
            message: message.into(),
        }
    }

    /// A refusal about `kind` in `message`, located by no field yet.
    pub fn refused(kind: Kind, message: impl Into<String>) -> ApiError {
        ApiError::Refused {
            kind,
            message: message.into(),
            fields: Vec::new(),
        }
    }

    /// The library's `error` met in `what` (the parameter or the body):
    /// its kind, its message after `what`'s name.
    pub fn within(what: &str, error: &impl Classify) -> ApiError {
        ApiError::refused(error.kind(), format!("{what}: {error}"))
    }

    /// The library's `error` as it words it, by its kind.
    pub fn library(error: &impl Classify) -> ApiError {
        ApiError::refused(error.kind(), error.to_string())
    }

    /// The refusal with one more field that locates the problem, after
    /// those already given (other variants have their fields fixed).
    pub fn at(mut self, key: &'static str, value: impl Into<Value>) -> ApiError {
        if let ApiError::Refused { fields, .. } = &mut self {
            fields.push((key, value.into()));
        }
        self
    }

    /// A syntax error in the text of `what` (`board` or `body`), at its
    /// line and column, and in the judge's text in its case.
    pub fn syntax(what: &str, error: &ParseError, case: Option<u64>) -> ApiError {
        let refused = ApiError::within(what, error)
            .at("line", error.line)
            .at("column", error.column)
            .at("expected", error.expected)
            .at("found", error.found.to_string());
        match case {
            Some(case) => refused.at("case", case),
            None => refused,
        }
    }

    /// The answer layer's refusal of a board of `shape`: a table it does
    /// not hold or cannot use, a damaged table, a shape past the puzzle's
    /// limits or the search's, a board that does not fit the question.
    pub fn answer(shape: Shape, error: &tablebase::Error) -> ApiError {
        let message = answer_message(error, shape);
        let size = shape.to_string();
        let mut refused = ApiError::refused(error.kind(), message);
        if error.kind() == Kind::Missing {
            // The size first here, as clients have always seen it.
            refused = refused.at("size", size);
            if let Some(command) = error.command() {
                refused = refused.at("command", command);
            }
            return refused;
        }
        // A file to replace: where it is and the command that makes it.
        if let (Some(file), Some(command)) = (error.file(), error.command()) {
            refused = refused
                .at("file", file.display().to_string())
                .at("command", command);
        }
        let facts = [
            ("nullity", error.nullity().map(Value::from)),
            ("quiet_count", error.quiet_count().map(Value::from)),
            ("max_nullity", error.max_nullity().map(Value::from)),
            ("max_cells", error.max_cells().map(Value::from)),
        ];
        for (key, value) in facts {
            if let Some(value) = value {
                refused = refused.at(key, value);
            }
        }
        refused.at("size", size)
    }

    /// The status of the answer.
    pub fn status(&self) -> StatusCode {
        use ApiError as E;
        match self {
            E::Parameter { kind, .. } | E::Refused { kind, .. } => kind_status(*kind),
            E::Busy { .. } => StatusCode::TOO_MANY_REQUESTS,
            E::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            E::SlowBody(_) => StatusCode::REQUEST_TIMEOUT,
            E::Unreadable(_) => StatusCode::BAD_REQUEST,
            E::ContentType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            E::NoRoute { .. } => StatusCode::NOT_FOUND,
            E::Method { .. } => StatusCode::METHOD_NOT_ALLOWED,
            E::Status(status) => *status,
            E::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The JSON object: the message, then the fields that locate the
    /// problem.
    pub fn body(&self) -> Map<String, Value> {
        let mut body = Map::new();
        body.insert("error".to_owned(), self.to_string().into());
        match self {
            ApiError::Parameter { key, .. } => {
                body.insert("parameter".to_owned(), key.as_str().into());
            }
            ApiError::Refused { fields, .. } => {
                for (key, value) in fields {
                    body.insert((*key).to_owned(), value.clone());
                }
            }
            ApiError::TooLarge(limit) => {
                body.insert("body_limit_bytes".to_owned(), (*limit).into());
            }
            _ => {}
        }
        body
    }
}

/// The status of a kind: a board or options that do not make the question
/// are the client's (400); what is past a limit, and the tablebase's
/// failures, are unprocessable (422).
fn kind_status(kind: Kind) -> StatusCode {
    match kind {
        Kind::Syntax | Kind::Mismatch | Kind::Option => StatusCode::BAD_REQUEST,
        _ => StatusCode::UNPROCESSABLE_ENTITY,
    }
}

/// The message of the answer layer's error, worded for the server: its
/// options, and, past the search, what refuses the same question on the
/// command line (the family's search counts quiet patterns; GF(2)'s is a
/// nullity, which `flip` refuses).
fn answer_message(error: &tablebase::Error, shape: Shape) -> String {
    let message = error.worded(OPTION_NAMES);
    if error.kind() != Kind::Search {
        return message;
    }
    let command = match error.quiet_count() {
        Some(_) => "lights solve".to_owned(),
        None => format!("flip --size {shape}"),
    };
    format!(
        "{message}: no answer is claimed minimal past that (boardbase {command} refuses it too)"
    )
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
        if matches!(self, ApiError::Busy { .. }) {
            // Seconds to wait before asking again.
            headers.insert(header::RETRY_AFTER, HeaderValue::from(1u64));
        }
        response
    }
}
