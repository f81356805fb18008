//! The checks behind boardbase's fuzz targets, one module per target.
//!
//! Each `check(data)` takes the fuzz input and panics when an invariant
//! breaks; the files in `fuzz_targets/` only hand the input over. Keeping the
//! logic in a library lets the targets share helpers (error positions, a
//! reader that hands the input over in awkward pieces).

/// The tests' oracles (`tests/oracle`): the puzzle rules, written once.
#[path = "../../tests/oracle/mod.rs"]
pub mod oracle;

pub mod carcassonne_count;
pub mod carcassonne_input;
pub mod edit;
pub mod euler_input;
pub mod flip_input;
pub mod table_file;
pub mod table_v2;
pub mod text;
