//! In-process tests of the server: random requests through the whole
//! router, and a full pool. (Every board through the answer layer is the
//! library's test, tests/library/tablebase.rs.)

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use boardbase::tablebase::Tablebase;
use http_body_util::BodyExt;
use proptest::prelude::*;
use tower::ServiceExt;

use super::api::pool::Pool;
use super::api::{Limits, State, router};

/// The embedded tables and GF(2), nothing made in memory.
fn embedded() -> Tablebase {
    let mut tablebase = Tablebase::new();
    tablebase.set_make_memory(0);
    tablebase
}

fn app(limits: Limits) -> axum::Router {
    router(Arc::new(State::new(embedded(), Pool::new(1), limits)))
}

/// Sends one request through the router; the status and the body.
fn send(
    runtime: &tokio::runtime::Runtime,
    app: &axum::Router,
    request: Request<Body>,
) -> (StatusCode, Vec<u8>) {
    runtime.block_on(async {
        let response = app
            .clone()
            .oneshot(request)
            .await
            .expect("the router never fails");
        let status = response.status();
        let body = response
            .into_body()
            .collect()
            .await
            .expect("the body is read")
            .to_bytes();
        (status, body.to_vec())
    })
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime")
}

/// Every answer is below 500, and every error a JSON object with a message.
fn check_reply(status: StatusCode, body: &[u8], what: &str) {
    assert!(
        status.as_u16() < 500,
        "{status} for {what}: {}",
        String::from_utf8_lossy(body)
    );
    if status.is_client_error() {
        let v: serde_json::Value = serde_json::from_slice(body)
            .unwrap_or_else(|e| panic!("{e}: {what}: {}", String::from_utf8_lossy(body)));
        assert!(
            v["error"].as_str().is_some_and(|m| !m.is_empty()),
            "{what}: {v}"
        );
    }
}

fn query_text() -> impl Strategy<Value = String> {
    prop_oneof![
        // Anything at all.
        ".{0,60}",
        // Board-like text with noise, percent escapes and parameters.
        "(board=|size=|board=[bwX./ ]{0,30}&size=)[bwX./%0-9AFaxX&=+ ]{0,40}",
        proptest::collection::vec(
            prop_oneof![
                Just("b"),
                Just("w"),
                Just("X"),
                Just("."),
                Just("/"),
                Just("%0A"),
                Just("%FF"),
                Just("&size=4x4"),
                Just("&"),
                Just("x")
            ],
            0..40
        )
        .prop_map(|parts| format!("board={}", parts.concat())),
        // The Lights Out family's parameters, small boards and shapes (the
        // structure of every shape up to 2^25 boards is exhaustive).
        "(board=[0-9a-f/ ]{0,12}&)?(colours=[0-9x]?&)?(wrap=(true|false|1)&)?(pattern=(plus|king|x|[#./]{0,9})&)?(goal=(any|[0-9a-z]{0,2}))?",
        "(size=[12]x[1-3x]&)?(colours=[0-9x]?&)?(wrap=(true|false)&)?(pattern=(neighbours|[#./]{0,9})&)?(goal=1)?",
    ]
}

/// One runtime and router for all the cases of a property.
fn shared() -> &'static (tokio::runtime::Runtime, axum::Router) {
    static SHARED: std::sync::OnceLock<(tokio::runtime::Runtime, axum::Router)> =
        std::sync::OnceLock::new();
    SHARED.get_or_init(|| (runtime(), app(Limits::default())))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn any_query_gets_an_answer_or_a_json_error(
        path in prop_oneof![Just("/api/v1/flip"), Just("/api/v1/euler"), Just("/api/v1/health"), Just("/api/v1/sizes"), Just("/"), Just("/api/v1/x"), Just("/api/v1/carcassonne"), Just("/api/v1/lights"), Just("/api/v1/lights/info")],
        query in query_text(),
        method in prop_oneof![Just("GET"), Just("HEAD"), Just("POST"), Just("PUT"), Just("OPTIONS")],
    ) {
        let (rt, app) = shared();
        let encoded: String = query
            .bytes()
            .map(|b| if b.is_ascii_graphic() && b != b'#' { (b as char).to_string() } else { format!("%{b:02X}") })
            .collect();
        let uri = format!("{path}?{encoded}");
        let Ok(request) = Request::builder().method(method).uri(&uri).body(Body::empty()) else {
            return Ok(()); // not a URI hyper would hand over
        };
        let (status, body) = send(rt, app, request);
        if method == "HEAD" {
            // No body, by definition.
            prop_assert!(status.as_u16() < 500 && body.is_empty(), "{status} for HEAD {uri}");
        } else {
            check_reply(status, &body, &format!("{method} {uri}"));
        }
    }

    #[test]
    fn any_body_gets_an_answer_or_a_json_error(
        body in prop_oneof![
            proptest::collection::vec(any::<u8>(), 0..200),
            "[0-9 \\n]{0,10}[CRFX \\n]{0,40}".prop_map(String::into_bytes),
            (0u8..4, 0u8..4, proptest::collection::vec("[CRFX]{3,5}", 0..12))
                .prop_map(|(r, c, tiles)| serde_json::json!({"rows": r, "cols": c, "tiles": tiles}).to_string().into_bytes()),
            "\\{\"rows\": ?[0-9-]{1,3}, ?\"cols\": ?[0-9e.]{1,3}, ?\"tiles\": ?\\[\"[CRF]{4}\"(, ?\"[CRF]{4}\"){0,3}\\]\\}".prop_map(String::into_bytes),
        ],
        kind in prop_oneof![Just(None), Just(Some("application/json")), Just(Some("text/plain")), Just(Some("text/html")), Just(Some("application/json; charset=utf-8"))],
    ) {
        let (rt, app) = shared();
        let mut request = Request::builder().method("POST").uri("/api/v1/carcassonne");
        if let Some(kind) = kind {
            request = request.header("content-type", kind);
        }
        let request = request.body(Body::from(body.clone())).expect("a request");
        let (status, reply) = send(rt, app, request);
        check_reply(status, &reply, &String::from_utf8_lossy(&body));
    }
}

#[test]
fn a_full_pool_turns_requests_away_with_429() {
    let rt = runtime();
    let limits = Limits {
        count_timeout: std::time::Duration::from_millis(200),
        ..Limits::default()
    };
    let state = Arc::new(State::new(embedded(), Pool::new(1), limits));
    let app = router(state.clone());
    // Hold the only worker.
    let held = state.hold_worker_for_test();
    let request = Request::builder()
        .method("POST")
        .uri("/api/v1/carcassonne")
        .body(Body::from("1\n1 1\nCCCC\n"))
        .expect("a request");
    let (status, body) = send(&rt, &app, request);
    assert_eq!(
        (status, String::from_utf8_lossy(&body).as_ref()),
        (
            StatusCode::TOO_MANY_REQUESTS,
            r#"{"error":"all 1 Carcassonne workers are busy: try again later"}"#
        )
    );
    drop(held);
    let request = Request::builder()
        .method("POST")
        .uri("/api/v1/carcassonne")
        .body(Body::from("1\n1 1\nCCCC\n"))
        .expect("a request");
    let (status, _) = send(&rt, &app, request);
    assert_eq!(status, StatusCode::OK);
}

/// Both pools' busy answers: 429, their words, and when to ask again.
#[test]
fn busy_answers_say_when_to_ask_again() {
    use axum::response::IntoResponse;

    use super::api::error::{ApiError, Work};
    for (work, message) in [
        (
            Work::Counting,
            "all 2 Carcassonne workers are busy: try again later",
        ),
        (
            Work::LargeBoards,
            "all 2 workers are busy (solving large boards): try again in a moment",
        ),
    ] {
        let response = ApiError::Busy { workers: 2, work }.into_response();
        assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
        let retry = response.headers().get(axum::http::header::RETRY_AFTER);
        assert_eq!(retry.and_then(|v| v.to_str().ok()), Some("1"));
        let body = ApiError::Busy { workers: 2, work }.body();
        assert_eq!(body["error"], message);
    }
}
