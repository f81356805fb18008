//! boardbase: a tablebase and solver for small grid puzzles.
//!
//! - [`flip`]: Flip Game (POJ 1753), fewest rounds to a uniform 4×4 board.
//! - [`euler`]: Game of Euler (UVA 10536), who wins a misère pin-placing game.
//! - `carcassonne`: Carcassonne (HDU 4064), counting the tile rotations that
//!   match every shared edge (needs the `std` feature).
//! - `table`: tables of any board shape as memory-mapped files any language
//!   can read (format version 2), or held in memory, with typed probes,
//!   writing and verification (`boardbase export`, `boardbase verify`;
//!   needs the `std` feature). `export` is the version-1 layout of earlier
//!   releases, still read.
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
//! - `cli` (default): what the `boardbase` binary needs.
#![cfg_attr(not(feature = "std"), no_std)]
#![warn(missing_docs)]

#[cfg(feature = "std")]
pub mod carcassonne;
pub mod error;
pub mod euler;
#[cfg(feature = "std")]
pub mod export;
pub mod flip;
pub mod grid;
#[cfg(feature = "std")]
pub mod input;
#[cfg(feature = "std")]
pub mod table;

pub use boardbase_tables as tables;

/// The README's Rust examples, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
