//! A bounded load test of `boardbase serve` on loopback: 32 keep-alive
//! clients send 200,000 lookups, every answer is checked, and the server's
//! memory must stay flat.
//!
//! Not part of the default test run (`#[ignore]`): it is meant for a
//! release build, and `.ci/run` runs it with the browser suite:
//!
//! ```sh
//! cargo test --release --test serve_load -- --ignored
//! ```
#![cfg(feature = "serve")]

#[path = "common/http.rs"]
mod http;
#[path = "common/lookups.rs"]
mod lookups;
#[path = "oracle/mod.rs"]
mod oracle;

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use http::Server;
use lookups::{check_euler, check_flip, rows_of};

const CLIENTS: usize = 32;
const REQUESTS: usize = 200_000;
const WARM_UP: usize = 20_000;
/// The whole run stops (and fails) past this.
const TIME_LIMIT: Duration = Duration::from_secs(600);
/// The most the server's resident memory may grow after the warm-up.
const RSS_GROWTH_KIB: u64 = 8 * 1024;

/// Sends `total` requests from `CLIENTS` keep-alive connections, checking
/// every answer; returns how many were sent.
fn run(server: &Server, total: usize, seed: u32, moves: &[u16], deadline: Instant) -> u64 {
    let sent = AtomicU64::new(0);
    std::thread::scope(|scope| {
        for client in 0..CLIENTS {
            let sent = &sent;
            scope.spawn(move || {
                let mut conn = server.connect();
                let mut x = seed ^ (client as u32 + 1).wrapping_mul(0x9E37_79B9);
                for i in 0..total / CLIENTS {
                    assert!(Instant::now() < deadline, "past the time limit");
                    x ^= x << 13;
                    x ^= x >> 17;
                    x ^= x << 5;
                    let bits = x as u16;
                    match i % 10 {
                        0 => {
                            let r = conn.get("/api/v1/health");
                            assert_eq!((r.status, r.text()), (200, r#"{"status":"ok"}"#));
                        }
                        1..=5 => {
                            let r = conn
                                .get(&format!("/api/v1/flip?board={}", rows_of(bits, 'w', 'b')));
                            assert_eq!(r.status, 200, "{}", r.text());
                            check_flip(bits, &r.json());
                        }
                        _ => {
                            let r = conn
                                .get(&format!("/api/v1/euler?board={}", rows_of(bits, '.', 'X')));
                            assert_eq!(r.status, 200, "{}", r.text());
                            check_euler(bits, moves, &r.json());
                        }
                    }
                    sent.fetch_add(1, Ordering::Relaxed);
                }
            });
        }
    });
    sent.into_inner()
}

#[test]
#[ignore = "a load test for release builds; run by .ci/run"]
fn two_hundred_thousand_lookups_right_and_memory_flat() {
    let server = Server::start(&[]);
    let moves = oracle::euler::moves_4x4();
    let deadline = Instant::now() + TIME_LIMIT;
    let rss_start = server.rss_kib();
    run(&server, WARM_UP, 1, &moves, deadline);
    let rss_warm = server.rss_kib();
    let start = Instant::now();
    let sent = run(&server, REQUESTS, 2, &moves, deadline);
    let elapsed = start.elapsed();
    let rss_end = server.rss_kib();
    println!(
        "{sent} requests from {CLIENTS} clients in {:.1} s ({:.0} a second, each answer parsed and checked); \
         server RSS {rss_start} KiB at start, {rss_warm} KiB after {WARM_UP} requests, {rss_end} KiB at the end",
        elapsed.as_secs_f64(),
        sent as f64 / elapsed.as_secs_f64()
    );
    assert_eq!(sent, REQUESTS as u64);
    assert!(
        rss_end <= rss_warm + RSS_GROWTH_KIB,
        "memory grew from {rss_warm} KiB to {rss_end} KiB"
    );
    // Still answering.
    assert_eq!(server.get("/api/v1/health").status, 200);
}
