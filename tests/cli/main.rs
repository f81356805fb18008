//! The tests that run the `boardbase` binary: every subcommand on real
//! and broken input, against oracles written here.

#[path = "../common/mod.rs"]
mod common;
#[path = "../common/family_answers.rs"]
mod family_answers;
#[path = "../oracle/mod.rs"]
mod oracle;
#[path = "../common/programs.rs"]
mod programs;
#[path = "../common/schema.rs"]
mod schemas;

mod carcassonne;
mod check;
mod euler;
mod examples;
mod export;
mod export_python;
mod flip;
mod gen_cases;
mod generate;
mod lights;
mod lights_family;
mod limits;
mod options;
mod properties;
mod schema;
#[cfg(feature = "serve")]
mod serve_start;
mod shell;
mod sizes;
mod streams;
