//! The library's integration tests: every solver and table against
//! oracles written here with other methods.

#[path = "../common/mod.rs"]
mod common;
#[path = "../oracle/mod.rs"]
mod oracle;

mod carcassonne_bruteforce;
mod euler_oracle;
mod flip_oracle;
mod fuzz_regressions;
mod generate_euler;
mod generate_flip;
mod generate_job;
mod lights_family;
mod lights_input;
mod lights_moves;
mod lights_oracle;
mod lights_tables;
mod table_file;
mod tablebase;
mod tablebase_questions;
