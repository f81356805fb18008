//! The HTTP API of `boardbase serve`, over a real socket: every route,
//! every error, every board shape, against oracles written here.

// Running the built binary, temporary files and directories, a seeded
// generator (tests/common).
#[path = "../common/mod.rs"]
mod common;
// The Lights Out family's answers checked against the brute force.
#[path = "../common/family_answers.rs"]
mod family_answers;
// A `boardbase serve` process and a small HTTP/1.1 client.
#[path = "../common/http.rs"]
mod http;
// What a Flip or Euler lookup must answer.
#[path = "../common/lookups.rs"]
mod lookups;
// The oracles: every puzzle rule written once from the puzzle statements,
// the whole-table solvers on them, the judges' samples (tests/oracle).
#[path = "../oracle/mod.rs"]
mod oracle;
// JSON validated against the schemas of docs/schema/.
#[path = "../common/schema.rs"]
mod schemas;

// Every route and error of the API over a real socket.
mod api;
// `/api/v1/lights` and `/api/v1/lights/info` against the brute force.
mod lights;
// `serve --table FILE` and `serve --max-nullity K`.
mod options;
// The API's JSON against the schemas.
mod schema;
// Board sizes other than 4×4, from table files and GF(2).
mod sizes;
// `/api/v1/solve`: any two-player game, against game search and the CLI.
mod solve;
