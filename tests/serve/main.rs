//! The HTTP API of `boardbase serve`, over a real socket: every route,
//! every error, every board shape, against oracles written here.

#[path = "../common/mod.rs"]
mod common;
#[path = "../common/http.rs"]
mod http;
#[path = "../common/lookups.rs"]
mod lookups;
#[path = "../oracle/mod.rs"]
mod oracle;
#[path = "../support/oracles.rs"]
mod oracles;
#[path = "../support/schema.rs"]
mod schemas;

mod api;
mod options;
mod schema;
mod sizes;
