//! `GET /api/v1/lights` and `GET /api/v1/lights/info`: the Lights Out
//! family, a board solved and a variant's structure.

use std::time::Instant;

use axum::extract::Request;
use axum::response::Response;
use boardbase::lights::family::{ColourGrid, Variant};
use boardbase::report::{LightsInfo, LightsLookup};
use boardbase::tables::shape::Shape;

use super::error::{ApiError, Work};
use super::query::{self, LightsInfoQuery, LightsQuery, VariantParams};
use super::{Ctx, INLINE_NULLITY, State, answer};

/// The variant `params` asks for, of boards of `shape`.
fn variant(shape: Shape, params: VariantParams) -> Result<Variant, ApiError> {
    let variant = Variant::of_shape(shape, params.colours).map_err(|e| ApiError::library(&e))?;
    Ok(variant.with_wrap(params.wrap).with_pattern(params.pattern))
}

/// `GET /api/v1/lights`.
pub async fn solve(axum::extract::State(state): Ctx, request: Request) -> Response {
    answer(solve_answer(&state, request.uri().query()).await)
}

/// `GET /api/v1/lights`'s answer: on the async threads when the search
/// visits at most 2^12 press vectors a colour, else on a blocking worker.
async fn solve_answer(state: &State, query: Option<&str>) -> Result<LightsLookup, ApiError> {
    let q: LightsQuery = query::parse(query)?;
    let (text, params, goal) = q.checked()?;
    let board = ColourGrid::parse(&text, params.colours)
        .map_err(|error| ApiError::syntax("board", &error, None))?;
    let shape = board.shape();
    let variant = variant(shape, params)?;
    // Where the answer comes from is the tablebase's choice; the quiet
    // group's size only decides which thread asks it.
    let inline = state
        .tablebase
        .lights_is_quick(&variant, INLINE_NULLITY as u32);
    let lookup = if inline {
        state.tablebase.lights_lookup(&variant, &board, goal)
    } else {
        let deadline = Instant::now() + state.limits.count_timeout;
        let tablebase = state.tablebase.clone();
        state
            .pool
            .run(deadline, Work::LargeBoards, move || {
                tablebase.lights_lookup(&variant, &board, goal)
            })
            .await?
    };
    // The query was checked: the board has the variant's shape and
    // colours, the goal is one of them; what is left is the family's
    // refusal of a variant past the nullity limit.
    lookup.map_err(|error| ApiError::answer(shape, &error))
}

/// `GET /api/v1/lights/info`: on a blocking worker (the histogram visits
/// up to 2^25 boards).
pub async fn info(axum::extract::State(state): Ctx, request: Request) -> Response {
    let query: Result<LightsInfoQuery, _> = query::parse(request.uri().query());
    drop(request);
    let result = async {
        let (size, params) = query?.variant();
        let variant = variant(size, params)?;
        let deadline = Instant::now() + state.limits.count_timeout;
        let tablebase = state.tablebase.clone();
        state
            .pool
            .run(deadline, Work::Structure, move || {
                LightsInfo::new(&tablebase.lights_info(&variant))
            })
            .await
    };
    answer(result.await)
}
