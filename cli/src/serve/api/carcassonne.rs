//! `POST /api/v1/carcassonne`: one board as JSON, or the judge's text of
//! many, counted on the pool.

use std::time::Instant;

use axum::body::{Body, Bytes};
use axum::http::{HeaderMap, header};
use axum::response::Response;
use boardbase::carcassonne::{self, Board, Tile};
use boardbase::error::Kind;
use boardbase::input::{InputError, Scanner};
use boardbase::report::CarcassonneAnswer;
use http_body_util::BodyExt;
use serde::{Deserialize, Serialize};

use super::error::{ApiError, Internal};
use super::{Ctx, Limits, answer};

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
        Err(ApiError::ContentType(
            value.to_str().unwrap_or("(not text)").to_owned(),
        ))
    }
}

/// Reads the body, at most `limits.body` bytes, within
/// `limits.read_timeout`.
async fn read_body(body: Body, headers: &HeaderMap, limits: &Limits) -> Result<Bytes, ApiError> {
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > limits.body as u64) {
        return Err(ApiError::TooLarge(limits.body));
    }
    let limited = http_body_util::Limited::new(body, limits.body);
    match tokio::time::timeout(limits.read_timeout, limited.collect()).await {
        Ok(Ok(collected)) => Ok(collected.to_bytes()),
        Ok(Err(e)) if e.is::<http_body_util::LengthLimitError>() => {
            Err(ApiError::TooLarge(limits.body))
        }
        Ok(Err(e)) => Err(ApiError::Unreadable(e)),
        Err(_) => Err(ApiError::SlowBody(limits.read_timeout)),
    }
}

pub async fn count(axum::extract::State(state): Ctx, headers: HeaderMap, body: Body) -> Response {
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
            .count(
                state.tablebase.clone(),
                boards,
                deadline,
                state.limits.count_timeout,
            )
            .await?;
        match (kind, answers.pop()) {
            (BodyKind::Json, Some(one)) => Ok(CarcassonneReply::One(one)),
            (BodyKind::Text, last) => {
                answers.extend(last);
                Ok(CarcassonneReply::Cases { cases: answers })
            }
            (BodyKind::Json, None) => Err(ApiError::Internal(Internal::NotCounted)),
        }
    };
    answer(result.await)
}

/// The board of a JSON body.
fn json_board(bytes: &[u8]) -> Result<Board, ApiError> {
    let request: CarcassonneRequest = serde_json::from_slice(bytes).map_err(|e| {
        ApiError::refused(Kind::Syntax, format!("body: {e}"))
            .at("line", e.line())
            .at("column", e.column())
    })?;
    let (rows, cols) = (request.rows, request.cols);
    // The library's limits, said before any tile is read, and in the
    // server's words.
    let size =
        |kind, problem: String| ApiError::refused(kind, format!("{problem} ({rows}×{cols})"));
    if rows == 0 || cols == 0 {
        let problem = "a board needs at least one row and one column".to_owned();
        return Err(size(Kind::Mismatch, problem));
    }
    if rows.min(cols) > carcassonne::MAX_NARROW_SIDE as u64 {
        let max = carcassonne::MAX_NARROW_SIDE;
        let problem = format!("the narrower side of a board may be at most {max}");
        return Err(size(Kind::TooLarge, problem));
    }
    let cells = rows
        .checked_mul(cols)
        .filter(|&n| n <= carcassonne::MAX_TILES)
        .ok_or_else(|| {
            let max = carcassonne::MAX_TILES;
            size(
                Kind::TooLarge,
                format!("a board may have at most {max} tiles"),
            )
        })?;
    let got = request.tiles.len();
    if got as u64 != cells {
        let message = format!("a {rows}×{cols} board needs {cells} tiles, got {got}");
        return Err(ApiError::refused(Kind::Mismatch, message));
    }
    let tiles = request
        .tiles
        .into_iter()
        .enumerate()
        .map(|(index, code)| {
            let (row, col) = (index as u64 / cols, index as u64 % cols);
            code.parse::<Tile>().map_err(|error| {
                let at = format!("tile {index} (row {row}, column {col}) {code:?}");
                ApiError::within(&at, &error)
                    .at("tile", index)
                    .at("row", row)
                    .at("col", col)
            })
        })
        .collect::<Result<Vec<Tile>, ApiError>>()?;
    Board::new(rows as usize, cols as usize, tiles).map_err(|e| ApiError::library(&e))
}

/// The boards of a judge-text body: a case count, then the cases.
fn text_boards(bytes: &[u8], max_cases: u64) -> Result<Vec<Board>, ApiError> {
    let fail = |case| {
        move |e: InputError| match e {
            InputError::Parse(error) => ApiError::syntax("body", &error, case),
            // Bytes in memory always read; were they not to, the body is
            // what could not be read: the client's, as any unreadable body.
            InputError::Io(e) => ApiError::refused(Kind::Syntax, format!("body: {e}")),
        }
    };
    let mut scanner = Scanner::new(bytes);
    let count = carcassonne::read_case_count(&mut scanner).map_err(fail(None))?;
    if count > max_cases {
        let message = format!("{count} cases: at most {max_cases} a request");
        return Err(ApiError::refused(Kind::TooLarge, message).at("max_cases", max_cases));
    }
    let mut boards = Vec::new();
    for case in 1..=count {
        boards.push(
            carcassonne::read_case(&mut scanner)
                .map_err(fail(Some(case)))?
                .board,
        );
    }
    scanner.expect_end().map_err(fail(None))?;
    Ok(boards)
}
