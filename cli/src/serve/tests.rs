//! In-process tests of the server: every 4×4 board through the answer
//! interface, and random requests through the whole router.

use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use boardbase::euler::{self, Outcome, Position};
use boardbase::flip::{self, Board};
use boardbase::report::{EulerAnswer, FlipAnswer};
use http_body_util::BodyExt;
use proptest::prelude::*;
use tower::ServiceExt;

use super::answers::{
    Catalog, EmbeddedEuler, EmbeddedFlip, TableEuler, TableFlip, euler_json, euler_lookup,
    flip_json, flip_lights_json, flip_lights_lookup, flip_lookup,
};
use super::api::{Limits, State, router};
use super::count::Pool;

/// The press rule, written apart from the library: the cell and its
/// orthogonal neighbours flip.
fn pressed(bits: u16, r: usize, c: usize) -> u16 {
    let mut out = bits ^ 1 << (4 * r + c);
    if r > 0 {
        out ^= 1 << (4 * (r - 1) + c);
    }
    if r < 3 {
        out ^= 1 << (4 * (r + 1) + c);
    }
    if c > 0 {
        out ^= 1 << (4 * r + c - 1);
    }
    if c < 3 {
        out ^= 1 << (4 * r + c + 1);
    }
    out
}

#[test]
fn every_flip_board() {
    let source = EmbeddedFlip::new();
    for bits in 0..=u16::MAX {
        let board = Board::from_bits(bits);
        let lookup = flip_lookup(&source, u64::from(bits));
        assert_eq!(lookup.answer, FlipAnswer::new(1, board));
        // The API's hand-written JSON (the answer's object written straight
        // from the tables) is serde's JSON of the lookup, on every board.
        let json = flip_json(&source, u64::from(bits)).expect("embedded");
        assert_eq!(
            json,
            serde_json::to_vec(&lookup).expect("JSON"),
            "{board:#}"
        );
        let mut seen = 0u16;
        let mut last = (0u16, 0usize);
        for m in &lookup.moves {
            let [r, c] = m.cell;
            seen |= 1 << (4 * r + c);
            let after = Board::from_bits(pressed(bits, r, c));
            assert_eq!(m.board, Some(format!("{after:#}")));
            assert_eq!(m.rounds, flip::rounds(after).map(u16::from));
            assert_eq!(m.solvable, m.rounds.is_some());
            let key = (m.rounds.map_or(u16::MAX, u16::from), 4 * r + c);
            assert!(
                key > last || (key == last && key == (0, 0)),
                "order of {board:#}"
            );
            last = key;
        }
        assert_eq!(seen, u16::MAX, "all 16 presses of {board:#}");
    }
}

/// The 48 moves, generated apart from the library.
fn euler_moves() -> Vec<u16> {
    let mut moves: Vec<u16> = (0..16).map(|i| 1 << i).collect();
    for line in 0..4 {
        for len in [2usize, 3] {
            let (mut left, mut right, mut top, mut bottom) = (0u16, 0u16, 0u16, 0u16);
            for k in 0..len {
                left |= 1 << (4 * line + k);
                right |= 1 << (4 * line + 3 - k);
                top |= 1 << (4 * k + line);
                bottom |= 1 << (4 * (3 - k) + line);
            }
            moves.extend([left, right, top, bottom]);
        }
    }
    moves
}

#[test]
fn every_euler_position() {
    let source = EmbeddedEuler::new();
    let all = euler_moves();
    for bits in 0..=u16::MAX {
        let position = Position::from_bits(bits);
        let lookup = euler_lookup(&source, u64::from(bits));
        assert_eq!(lookup.answer, EulerAnswer::new(1, position));
        let json = euler_json(&source, u64::from(bits)).expect("embedded");
        assert_eq!(
            json,
            serde_json::to_vec(&lookup).expect("JSON"),
            "{position:#}"
        );
        let mut legal: Vec<u16> = all.iter().copied().filter(|m| bits & m == 0).collect();
        let mut listed: Vec<u16> = lookup.moves.iter().map(|m| m.mask as u16).collect();
        legal.sort_unstable();
        listed.sort_unstable();
        assert_eq!(listed, legal, "legal moves of {position:#}");
        let mut last = (0u8, i16::MIN);
        for m in &lookup.moves {
            let child = euler::probe(Position::from_bits(bits | m.mask as u16));
            assert_eq!(
                (m.outcome, m.moves_left),
                (child.outcome, Some(child.moves_left))
            );
            assert_eq!(
                m.board,
                format!("{:#}", Position::from_bits(bits | m.mask as u16))
            );
            let key = match m.outcome {
                Outcome::Loss => (0, i16::from(child.moves_left)),
                Outcome::Win => (1, -i16::from(child.moves_left)),
            };
            assert!(key >= last, "order of {position:#}");
            last = key;
        }
        let best = lookup.answer.best_move.as_ref().map(|b| b.mask);
        assert_eq!(
            lookup.moves.first().map(|m| m.mask),
            best,
            "best move of {position:#}"
        );
    }
}

/// The hand-written JSON of table and GF(2) lookups of other shapes is
/// serde's JSON of the lookup (their values are checked against oracles
/// in tests/serve_sizes.rs).
#[test]
fn other_shapes_write_the_same_json_as_serde() {
    use boardbase::generate::{self, EulerOptions, FlipOptions};
    use boardbase::lights::{Grid, Solver};
    use boardbase::tablefile::{EulerColumns, FlipColumns, Table};
    use boardbase::tables::shape::Shape;

    for (rows, cols) in [(3, 4), (2, 5), (1, 3)] {
        let shape = Shape::new(rows, cols).unwrap();
        for wdl_only in [false, true] {
            let options = EulerOptions {
                wdl_only,
                ..EulerOptions::default()
            };
            let tables = generate::euler(shape, &options, |_| {}).unwrap();
            let table = Table::from_euler(shape, EulerColumns::from(tables)).unwrap();
            let source = TableEuler::new(Arc::new(table)).unwrap();
            for p in 0..1u64 << shape.cells() {
                let json = euler_json(&source, p).unwrap();
                let lookup = euler_lookup(&source, p);
                assert_eq!(lookup.answer.wdl_only, wdl_only);
                assert_eq!(json, serde_json::to_vec(&lookup).unwrap(), "{shape} {p}");
            }
        }
        let tables = generate::flip(shape, &FlipOptions::default(), |_| {}).unwrap();
        let table = Table::from_flip(shape, FlipColumns::from(tables)).unwrap();
        let source = TableFlip::new(Arc::new(table));
        for b in 0..1u64 << shape.cells() {
            let json = flip_json(&source, b).unwrap();
            assert_eq!(
                json,
                serde_json::to_vec(&flip_lookup(&source, b)).unwrap(),
                "{shape} {b}"
            );
        }
    }
    // GF(2): boards of up to 64 cells list the board after each press,
    // larger ones leave it out.
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    for (rows, cols) in [(5, 5), (8, 8), (9, 9), (13, 17), (3, 40)] {
        let shape = Shape::new(rows, cols).unwrap();
        let solver = Solver::cached(shape);
        for _ in 0..4 {
            let cells: Vec<u64> = (0..rows)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    x & shape.row_mask()
                })
                .collect();
            let board = Grid::from_rows(shape, &cells).unwrap();
            let json = flip_lights_json(solver, &board).unwrap();
            let lookup = flip_lights_lookup(solver, &board);
            assert_eq!(lookup.moves.len(), shape.cells());
            assert_eq!(
                lookup.moves.iter().all(|m| m.board.is_some()),
                shape.cells() <= 64
            );
            assert_eq!(json, serde_json::to_vec(&lookup).unwrap(), "{shape}");
        }
    }
}

fn app(limits: Limits) -> axum::Router {
    router(Arc::new(State::new(
        Catalog::embedded(),
        Pool::new(1),
        limits,
    )))
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
        path in prop_oneof![Just("/api/v1/flip"), Just("/api/v1/euler"), Just("/api/v1/health"), Just("/api/v1/sizes"), Just("/"), Just("/api/v1/x"), Just("/api/v1/carcassonne")],
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
    let state = Arc::new(State::new(Catalog::embedded(), Pool::new(1), limits));
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
        status,
        StatusCode::TOO_MANY_REQUESTS,
        "{}",
        String::from_utf8_lossy(&body)
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
