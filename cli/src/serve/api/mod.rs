//! The routes: each file one group of them, [`query`] their query structs,
//! [`error`] the one error type every route answers, [`pool`] the bounded
//! pool of blocking workers the heavy ones run on.
//!
//! | route | answer |
//! | --- | --- |
//! | `GET /api/v1/flip?board=ROWS[&size=RxC]` | the CLI's object and every press ([`flip_json`](boardbase::tablebase::flip_json)) |
//! | `GET /api/v1/euler?board=ROWS[&size=RxC]` | the CLI's object and every legal move ([`euler_json`](boardbase::tablebase::euler_json)) |
//! | `POST /api/v1/carcassonne` (JSON or the judge's text) | [`CarcassonneAnswer`](boardbase::report::CarcassonneAnswer) or `{"cases": [...]}` |
//! | `GET /api/v1/lights?board=ROWS[&colours=K&wrap=B&pattern=P&goal=G]` | [`LightsLookup`](boardbase::report::LightsLookup): the CLI's object and every press valued |
//! | `GET /api/v1/lights/info?size=RxC[&colours=K&wrap=B&pattern=P]` | [`LightsInfo`](boardbase::report::LightsInfo) |
//! | `GET /api/v1/solve?game=G[&board=ROWS&size=RxC&OPTION=N]` | a position of any two-player game of the catalogue's models ([`Solution`](boardbase::tablebase::Solution)): the object of `boardbase solve --format json` |
//! | `GET /api/v1/sizes` | what the server answers |
//! | `GET /api/v1/games` | the catalogue: every game and the judges' problems ([`GameEntry`](boardbase::report::GameEntry)) |
//! | `GET /api/v1/health` | `{"status": "ok"}` |
//! | `GET /` and its files | the explorer |
//!
//! Every error is an [`ApiError`]: a JSON object with an `error` message,
//! plus `line`, `column`, `expected` and `found` where the library located
//! the problem: 400 for a bad board, query or body, 404 for an unknown
//! route, 405 for a method a route does not take, 408 for a body sent too
//! slowly, 413 for a body over [`Limits::body`], 415 for a body that is
//! neither JSON nor text, 422 for a board past the limits, of a size the
//! server has no answers for, or past the DP's budget or the time limit,
//! 429 when every worker stays busy.

mod about;
mod carcassonne;
pub mod error;
mod layer;
mod lights;
mod lookup;
pub mod pool;
pub mod query;
mod solve;

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::http::{HeaderValue, header};
use axum::middleware;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use boardbase::tablebase::Tablebase;
use serde::Serialize;

pub use error::ApiError;

use self::pool::Pool;
use super::assets;

/// Boards whose search visits at most 2^this press sets (Flip by GF(2),
/// the Lights Out family) are answered on the async threads (well under a
/// millisecond); larger ones on the blocking workers.
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

/// The handlers' extractor of the state.
type Ctx = axum::extract::State<Shared>;

/// The whole application: the API, the explorer, and JSON errors for
/// everything else.
pub fn router(state: Shared) -> Router {
    let api = Router::new()
        .route("/api/v1/health", get(about::health))
        .route("/api/v1/sizes", get(about::sizes))
        .route("/api/v1/games", get(about::games))
        .route("/api/v1/flip", get(lookup::flip))
        .route("/api/v1/euler", get(lookup::euler))
        .route("/api/v1/solve", get(solve::solve))
        .route("/api/v1/lights", get(lights::solve))
        .route("/api/v1/lights/info", get(lights::info))
        .route("/api/v1/carcassonne", post(carcassonne::count));
    let app = assets::routes(api)
        .fallback(layer::not_found)
        .with_state(state);
    // Outside the routes, so that it sees the Allow header of a 405.
    Router::new()
        .fallback_service(app)
        .layer(middleware::from_fn(layer::json_errors))
}

/// JSON already written, as a response.
fn json_bytes(body: Vec<u8>) -> Response {
    let mut response = body.into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    response
}

/// An answer type's JSON (serde's), or the error, as a response.
fn answer(result: Result<impl Serialize, ApiError>) -> Response {
    let written = result.and_then(|value| {
        serde_json::to_vec(&value).map_err(|e| ApiError::Internal(error::Internal::Unwritable(e)))
    });
    match written {
        Ok(body) => json_bytes(body),
        Err(e) => e.into_response(),
    }
}
