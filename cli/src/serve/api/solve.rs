//! `GET /api/v1/solve?game=G[&board=ROWS][&size=RxC][&OPTION=N][&positions=true]`:
//! a position of any two-player game of the catalogue's models (the start
//! without `board`), its value, remoteness and every move valued, from
//! `Tablebase::solve`: the object `boardbase solve --format json` prints;
//! with `positions=true`, each move also gives the `position` after it (what
//! the explorer draws when a move is played). The games and their options
//! are the catalogue's: nothing here names one.

use std::time::Instant;

use axum::extract::Request;
use axum::response::{IntoResponse, Response};
use boardbase::catalogue::{self, Model, Setup};
use boardbase::tablebase::{self, Query, Solution, Tablebase};
use boardbase::tables::shape::Shape;
use serde::Serialize;

use super::error::{ApiError, Internal, Work};
use super::query::{invalid, missing, repeated, unknown};
use super::{Ctx, answer};

/// What the query asks: the game, its setup, the position's text.
struct Asked {
    model: &'static Model,
    setup: Setup,
    board: Option<String>,
    /// Whether each move gives the position after it.
    positions: bool,
}

/// What the route takes, for the unknown-parameter error.
const EXPECTED: &str = "game, and optionally board (rows separated by '/'), size (RxC), \
     positions (true or false) and the game's options";

/// Reads the query: each parameter at most once; options by the game's
/// names.
fn asked(query: Option<&str>) -> Result<Asked, ApiError> {
    let (mut game, mut board, mut size, mut positions) = (None, None, None, None);
    let mut options: Vec<(String, String)> = Vec::new();
    for (key, value) in form_urlencoded::parse(query.unwrap_or("").as_bytes()) {
        let slot = match key.as_ref() {
            "game" => &mut game,
            "board" => &mut board,
            "size" => &mut size,
            "positions" => &mut positions,
            _ => {
                if options.iter().any(|(k, _)| *k == key) {
                    return Err(repeated(static_name(&key)));
                }
                options.push((key.into_owned(), value.trim().to_owned()));
                continue;
            }
        };
        if slot.is_some() {
            return Err(repeated(static_name(&key)));
        }
        *slot = Some(value.into_owned());
    }
    let positions = match positions.as_deref().map(str::trim) {
        None | Some("false") => false,
        Some("true") => true,
        Some(other) => {
            let reason = format!("expected true or false, found {other:?}");
            return Err(invalid("positions", reason));
        }
    };
    let game = game.ok_or_else(|| missing("game"))?;
    let model = catalogue::model(game.trim()).ok_or_else(|| {
        let names: Vec<&str> = catalogue::MODELS.iter().map(|m| m.game).collect();
        let names = names.join(", ");
        invalid("game", format!("expected one of {names}, found {game:?}"))
    })?;
    let shape = size
        .map(|text| {
            Shape::parse(text.trim()).ok_or_else(|| {
                invalid(
                    "size",
                    format!(
                        "expected RxC with 1 to 64 rows and columns (e.g. 4x4), found {text:?}"
                    ),
                )
            })
        })
        .transpose()?;
    let mut given = Vec::new();
    for (key, value) in &options {
        let Some(option) = model.options.iter().find(|o| o.name == key) else {
            return Err(unknown(key, EXPECTED));
        };
        let n = value
            .parse::<u64>()
            .map_err(|_| invalid(key, format!("expected a whole number, found {value:?}")))?;
        given.push((option.name, n));
    }
    let setup = model.setup(shape, &given).map_err(|e| {
        let shape = shape.unwrap_or(model.default_shape);
        ApiError::answer(shape, &tablebase::Error::Setup(e))
    })?;
    Ok(Asked {
        model,
        setup,
        board,
        positions,
    })
}

/// The name of a parameter given twice, as clients have always seen it: an
/// option no game has is `an option`.
fn static_name(key: &str) -> &'static str {
    match key {
        "game" => "game",
        "board" => "board",
        "size" => "size",
        "positions" => "positions",
        _ => catalogue::MODELS
            .iter()
            .flat_map(|m| m.options)
            .find(|o| o.name == key)
            .map_or("an option", |o| o.name),
    }
}

/// The answer layer's error for a position of `shape`: a position's text
/// that does not read is a 400 with its line and column.
fn refused(shape: Shape) -> impl FnOnce(tablebase::Error) -> ApiError {
    move |error| match error.parse_error() {
        Some(at) => ApiError::syntax("board", at, None),
        None => ApiError::answer(shape, &error),
    }
}

/// The answer: the solution, as `boardbase solve --format json` writes it,
/// or with each move's position after it.
#[derive(Serialize)]
#[serde(untagged)]
enum Answer {
    Solution(Solution),
    WithPositions(serde_json::Value),
}

/// `asked` solved (see [`Tablebase::solve`]), each move with the position
/// after it when asked for.
fn solved(tablebase: &Tablebase, asked: &Asked) -> Result<Answer, ApiError> {
    let shape = asked.setup.shape;
    let query = asked.board.as_deref().map_or(Query::Start, Query::Text);
    let solution = tablebase
        .solve(asked.model, &asked.setup, query)
        .map_err(refused(shape))?;
    if !asked.positions {
        return Ok(Answer::Solution(solution));
    }
    // The moves again, from the position's own text, for the positions
    // they lead to (the solution names each move by its text, which is
    // unique among a position's moves).
    let after = asked
        .model
        .make(&asked.setup)
        .ok()
        .and_then(|game| {
            let position = game.read_position(&solution.position).ok()?;
            Some(
                game.moves(position)
                    .into_iter()
                    .map(|(text, next)| (text, game.position_text(next)))
                    .collect::<std::collections::HashMap<_, _>>(),
            )
        })
        .ok_or(ApiError::Internal(Internal::Solving))?;
    let mut value =
        serde_json::to_value(&solution).map_err(|e| ApiError::Internal(Internal::Unwritable(e)))?;
    if let Some(moves) = value.get_mut("moves").and_then(|m| m.as_array_mut()) {
        for (object, solved) in moves.iter_mut().zip(&solution.moves) {
            let position = after
                .get(&solved.text)
                .ok_or(ApiError::Internal(Internal::Solving))?;
            if let Some(object) = object.as_object_mut() {
                object.insert("position".to_owned(), position.clone().into());
            }
        }
    }
    Ok(Answer::WithPositions(value))
}

pub async fn solve(axum::extract::State(state): Ctx, request: Request) -> Response {
    let asked = match asked(request.uri().query()) {
        Ok(asked) => asked,
        Err(e) => return e.into_response(),
    };
    let shape = asked.setup.shape;
    // At once when the game's values are at hand; a game to solve in
    // memory first is solved on a blocking worker.
    if state.tablebase.solve_is_ready(asked.model, &asked.setup) {
        return answer(solved(&state.tablebase, &asked));
    }
    let deadline = Instant::now() + state.limits.count_timeout;
    let tablebase = state.tablebase.clone();
    let work = move || solved(&tablebase, &asked);
    // The solve runs to its end on its worker, detached: a request that
    // stops waiting at its deadline leaves it solved for the next one.
    let pool = state.pool.clone();
    let job = tokio::spawn(async move { pool.run(deadline, Work::Solving(shape), work).await });
    let solved = match tokio::time::timeout_at(deadline.into(), job).await {
        Ok(Ok(Ok(solved))) => solved,
        Ok(Ok(Err(e))) => Err(e),
        Ok(Err(_)) => Err(ApiError::Internal(Internal::Solving)),
        Err(_) => Err(ApiError::Busy {
            workers: state.pool.workers(),
            work: Work::Solving(shape),
        }),
    };
    answer(solved)
}
