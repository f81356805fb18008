//! The tests' oracles: every puzzle rule written once, here, from the
//! puzzle statements (POJ 1753, UVA 10536, POJ 3279, POJ 1222, HDU 4064) and not from the library's code,
//! and the whole-table solvers built on them.
//!
//! Why this layout: one file a rule, so that each rule has exactly one
//! home to read, fix or break on purpose; each in its most general form
//! (any board shape), with thin adapters beside it for the representations
//! tests use (a `u64` mask for boards of at most 64 cells, a `u16` for the
//! 4×4 board, one byte a cell), so that a test adapts data at its call site
//! and never restates a rule. The rules need nothing from the library; the
//! solvers that hand tables over in the library's types live apart from
//! them, in [`tables`]:
//!
//! - [`press`]: the Flip Game / Fliptile / Lights Out press rule;
//! - [`family`]: the Lights Out family (K colours, a torus or
//!   not, any stencil) and the brute force over every press vector;
//! - [`euler`]: the Game of Euler's moves;
//! - [`mnk`]: m,n,k-games (tic-tac-toe's family), solved by memoised game
//!   search from the empty board;
//! - [`connect4`]: Connect Four, the same search with pieces that fall;
//! - [`quixo`]: Quixo, whose positions repeat, solved by value iteration
//!   over the positions reachable from the start;
//! - [`teeko`]: Teeko, dropped then slid pieces, the same value iteration
//!   over 2-D grids;
//! - [`fliptile`]: Fliptile and Lights Out solved by light chasing over
//!   [`press`], and the judges' answer texts;
//! - [`carcassonne`]: Carcassonne tile turning and edge matching, the brute
//!   force over every choice of turns, the board's symmetries and the judge
//!   sample (the library only to hand a board over to it);
//! - [`samples`]: the judges' sample inputs, read from `examples/`, and
//!   their published outputs;
//! - [`tables`]: whole tables of any shape solved over [`euler`] and
//!   [`press`], in the library's table-file column types.
//!
//! One directory module, included once at the root of every crate that
//! checks against it (`#[path = "../oracle/mod.rs"] mod oracle;` in the test
//! binaries, `fuzz/src/lib.rs`, `capi/tests/c_program.rs`): the lookup
//! checks in `tests/common/lookups.rs` reach it as `crate::oracle`, and the
//! fuzz targets check against the very same files.
#![allow(dead_code)]

pub mod carcassonne;
pub mod connect4;
pub mod euler;
pub mod family;
pub mod fliptile;
pub mod mnk;
pub mod press;
pub mod quixo;
pub mod samples;
pub mod tables;
pub mod teeko;

// `capi/tests/c_program.rs` names the table oracles at the root.
#[allow(unused_imports)]
pub use tables::{Euler, Flip};
