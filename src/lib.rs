//! boardbase: a tablebase and solver for small grid puzzles.
//!
//! - [`flip`]: Flip Game, fewest rounds to a uniform 4×4 board.
//! - [`euler`]: Game of Euler, who wins a misère pin-placing game.
//! - `carcassonne`: Carcassonne, counting the tile rotations that
//!   match every shared edge (needs the `std` feature).
//! - `lights`: Flip and Lights Out on any board up to 64×64, solved at run
//!   time by linear algebra over GF(2) (needs the `std` feature).
//! - `memory`: memory sizes as every option takes and shows them
//!   (`ByteSize`), and what the system says about memory (needs the `std`
//!   feature).
//! - `progress`: the progress reports of long jobs (generating, writing and
//!   verifying tables), and the handle that cancels them.
//! - `ranks`: a job spread over several processes (the ranks of an MPI
//!   job): the collective operations it needs, behind one trait (needs the
//!   `std` feature).
//! - `report`: the JSON answers of every puzzle, as the CLI prints them with
//!   `--format json` and the server returns them (needs the `std` feature).
//! - [`catalogue`]: every game answered, declared in its own module and
//!   listed once, with the judges' problems on it and their limits.
//! - `cases`: judge inputs with known answers, seeded and streamed
//!   (`boardbase cases`; needs the `std` feature).
//! - `check`: run a solution as a judge does and say which cases it gets
//!   wrong and why (`boardbase check`; needs the `check` feature, Unix).
//! - `tables`: the `boardbase-tables` crate (`tables/`), re-exported:
//!   the `no_std` board layout and the exhaustive solvers that `build.rs`
//!   runs to make the embedded tables.
//! - `generate`: Euler and Flip tables of other board sizes, made in memory
//!   on every core (needs the `std` feature).
//! - `tablebase`: the answer layer, the one place that decides where an
//!   answer comes from (the embedded tables, table files, tables made in
//!   memory, GF(2), the Lights Out family's engine, the Carcassonne
//!   counter), with typed answers and every move valued (needs the `std`
//!   feature).
//! - `tablefile`: tables of any board shape as memory-mapped files any language
//!   can read (format version 3, with a CRC per block checked as probes
//!   first read it), or held in memory, with typed probes,
//!   writing and verification (`boardbase export`, `boardbase verify`;
//!   needs the `std` feature). Its `tablefile::v1` is the version-1 layout
//!   of earlier releases, still read.
//!
//! The 4×4 puzzles are answered from dense tables that `build.rs` computes
//! once with the exhaustive solvers of the `boardbase-tables` crate and
//! embeds as `static` arrays: a query is one or two array reads, and nothing
//! is decoded or computed at start-up. A 4×4 board is a `u16` with cell
//! (`row`, `col`) at bit `4 * row + col`, row 0 being the first input line.
//!
//! # Features
//!
//! - `std` (default): the streaming [`input`] scanner and the serde output
//!   types. Without it the crate is `no_std` and needs no allocator; the
//!   board types, their parsers and every table query still work.
//! - `check`: running programs under a time limit as a judge does, for the
//!   `check` module (Unix only; adds `rustix`). The `boardbase` binary (the
//!   `boardbase-cli` package) turns it on.
//!
//! The default features pull in no command-line or server crate: the
//! `boardbase` command and `boardbase serve` are the `boardbase-cli`
//! package of this workspace.
#![cfg_attr(not(feature = "std"), no_std)]
#![warn(missing_docs)]

#[cfg(feature = "std")]
pub mod carcassonne;
#[cfg(feature = "std")]
pub mod cases;
pub mod catalogue;
#[cfg(all(feature = "check", unix))]
pub mod check;
#[cfg(feature = "std")]
pub mod connect4;
pub mod error;
pub mod euler;
pub mod flip;
#[cfg(feature = "std")]
pub mod generate;
pub mod grid;
#[cfg(feature = "std")]
pub mod input;
#[cfg(feature = "std")]
pub mod lights;
#[cfg(feature = "std")]
pub mod memory;
#[cfg(feature = "std")]
pub mod mnk;
#[cfg(feature = "std")]
pub mod progress;
#[cfg(feature = "std")]
pub mod quixo;
#[cfg(feature = "std")]
pub mod ranks;
#[cfg(feature = "std")]
pub mod report;
#[cfg(feature = "std")]
pub mod tablebase;
#[cfg(feature = "std")]
pub mod tablefile;
#[cfg(feature = "std")]
pub mod teeko;

pub use boardbase_tables as tables;

/// The README's Rust examples, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

/// The Rust examples of docs/library.md, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../docs/library.md")]
struct LibraryDocDoctests;
