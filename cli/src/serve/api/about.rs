//! `GET /api/v1/health`, `GET /api/v1/sizes` and `GET /api/v1/games`:
//! whether the server is up, what it answers, and the catalogue of games.

use axum::response::Response;
use boardbase::carcassonne;
use boardbase::report::GameEntry;
use boardbase::tablebase::Sizes;
use serde::Serialize;

use super::{Ctx, answer};

/// `GET /api/v1/health`.
#[derive(Serialize)]
struct Health {
    status: &'static str,
}

pub async fn health() -> Response {
    answer(Ok(Health { status: "ok" }))
}

/// `GET /api/v1/games`: the array `boardbase games --format json` prints.
pub async fn games() -> Response {
    answer(Ok(GameEntry::all()))
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

pub async fn sizes(axum::extract::State(state): Ctx) -> Response {
    let limits = &state.limits;
    answer(Ok(Capabilities {
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
    }))
}
