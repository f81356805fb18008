//! The tests that run the `boardbase` binary: every subcommand on real
//! and broken input, against oracles written here.

// Running the built binary, temporary files and directories, a seeded
// generator (tests/common).
#[path = "../common/mod.rs"]
mod common;
// The Lights Out family's answers checked against the brute force.
#[path = "../common/family_answers.rs"]
mod family_answers;
// A game's table job stopped part way, leaving its checkpoint.
#[path = "../common/interrupted.rs"]
mod interrupted;
// The oracles: every puzzle rule written once from the puzzle statements,
// the whole-table solvers on them, the judges' samples (tests/oracle).
#[path = "../oracle/mod.rs"]
mod oracle;
// Small C programs and shell scripts for `check`.
#[path = "../common/programs.rs"]
mod programs;
// JSON validated against the schemas of docs/schema/.
#[path = "../common/schema.rs"]
mod schemas;

// `boardbase carcassonne`: formats, options, input rules, errors.
mod carcassonne;
// `boardbase check` on programs with known faults.
mod check;
// `boardbase euler`: judge input, layouts, formats, bad input.
mod euler;
// The files of examples/ give the judges' outputs.
mod examples;
// Version-1 table files, `boardbase export` and `verify`.
mod export;
// Table files read by tests/read_table.py (Python 3).
mod export_python;
// `boardbase flip`: formats, input rules, errors, exit codes.
mod flip;
// `boardbase games`: the catalogue, against the problem statements.
mod games;
// `boardbase solve`: every position of small m,n,k and Euler boards
// against the oracles' game searches.
mod solve;
// `boardbase cases` (`gen`): reproducible families and their answers.
mod gen_cases;
// `boardbase generate`: the summary, the file, the memory limit.
mod generate;
// `boardbase fliptile` and `lightsout`: samples, formats, input, errors.
mod lights;
// `boardbase lights solve|info` against the brute force.
mod lights_family;
// Absurd declared sizes and huge lines fail fast.
mod limits;
// The option groups every subcommand shares.
mod options;
// Property tests of the tables, the counter and the command line.
mod properties;
// Every JSON output against the schemas of docs/schema/.
mod schema;
// `boardbase serve` as it starts: refused addresses, its report.
#[cfg(feature = "serve")]
mod serve_start;
// `boardbase completions` and `boardbase man`.
mod shell;
// `--size RxC`: every board of small shapes against the oracles.
mod sizes;
// Version-5 table files (one entry a class) answered, verified and
// compressed by the command line as the version-3 file.
mod table_v5;
// Closed pipes and input with no cases.
mod streams;
