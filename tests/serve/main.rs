//! The HTTP API of `boardbase serve`, over a real socket: every route,
//! every error, every board shape, against oracles written here.

#[path = "../common/mod.rs"]
mod common;
#[path = "../common/family_answers.rs"]
mod family_answers;
#[path = "../common/http.rs"]
mod http;
#[path = "../common/lookups.rs"]
mod lookups;
#[path = "../oracle/mod.rs"]
mod oracle;
#[path = "../common/schema.rs"]
mod schemas;

mod api;
mod lights;
mod options;
mod schema;
mod sizes;
