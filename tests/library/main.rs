//! The library's integration tests: every solver and table against
//! oracles written here with other methods.

// Helpers shared by every test binary: temporary files and directories,
// a seeded generator, CRC-32 (tests/common).
#[path = "../common/mod.rs"]
mod common;
// The oracles: every puzzle rule written once from the puzzle statements,
// the whole-table solvers on them, the judges' samples (tests/oracle).
#[path = "../oracle/mod.rs"]
mod oracle;
// A game's table job stopped part way, leaving its checkpoint.
#[path = "../common/interrupted.rs"]
mod interrupted;

// A judge's whole input answered through the answer layer, from every
// source, against the oracle's tables.
mod answer_streams;
// The Carcassonne counter against a brute force over every choice of turns.
mod carcassonne_bruteforce;
// The embedded 4×4 Euler table, every position, against the oracle.
mod euler_oracle;
// The embedded 4×4 Flip tables, every board, against the oracle.
mod flip_oracle;
// The game model's generic solvers against the specialised generators
// and against sweeps over random games with cycles.
mod game_model;
// m,n,k-games (tic-tac-toe) solved through the model, against game search.
mod game_mnk;
// Connect Four solved through the model, against game search.
mod game_connect4;
// Table files of the games of the model: generated, mapped, answered and
// verified, against game search; damage and wrong entries refused.
mod game_table;
// Quixo solved through the model, against value iteration.
mod game_quixo;
// Teeko solved through the model, against value iteration over grids.
mod game_teeko;
// A game's solve resumed from each of its snapshots, and a table job
// interrupted and run again: the same entries, the same file.
mod game_checkpoint;
// A game solved tier by tier into a file beside its table: the same file,
// resumed between tiers.
mod game_tiers;
// Inputs the fuzz targets found, kept as plain tests.
mod fuzz_regressions;
// The Euler generator on every shape of at most 20 squares.
mod generate_euler;
// Stopping the Euler generator and resuming it from its checkpoint.
mod generate_checkpoint;
// The Flip generator on every shape of at most 20 cells.
mod generate_flip;
// A whole table-file job: its report, JSON and file.
mod generate_job;
// The Lights Out family against the brute force over press vectors.
mod lights_family;
// The Fliptile and Lights Out readers on generated input.
mod lights_input;
// Every press's value (`move_values`) against boards solved one by one.
mod lights_moves;
// The GF(2) solver against press-set tables and light chasing.
mod lights_oracle;
// The GF(2) solver against the generated Flip tables.
mod lights_tables;
// Table files (version 3, and 2 still read): layout, round trips, probes, damage.
mod table_file;
// Compressed table files (version 4): entries, round trips, damage.
mod table_compressed;
// Table files of one entry a class of symmetric positions (version 5):
// every position against the oracle, the index's damage, verify, compress.
mod table_v5;
// The answer layer (`Tablebase`): every source of every answer.
mod tablebase;
mod tablebase_questions;
