//! The model of a game and the exhaustive solvers that make boardbase's tables.
//!
//! This crate is `#![no_std]` and has no dependencies. [`game`] is the model
//! of a game every layer of boardbase works through; its generic solvers
//! need the `alloc` feature (an allocator, still no `std`). boardbase's `build.rs`
//! runs the solvers in it to generate the embedded tables, and the boardbase
//! library uses the very same helpers at run time, so the generator and the
//! lookup can never disagree about the bit layout.
//!
//! # Bit layout
//!
//! A 4×4 board is a `u16`: cell (`row`, `col`) is bit `4 * row + col`, where
//! row 0 is the first line of the textual board and column 0 its first
//! character.
//!
//! ```text
//!         col 0  col 1  col 2  col 3
//! row 0   bit 0  bit 1  bit 2  bit 3     <- first input line
//! row 1   bit 4  bit 5  bit 6  bit 7
//! row 2   bit 8  bit 9  bit 10 bit 11
//! row 3   bit 12 bit 13 bit 14 bit 15    <- last input line
//! ```
//!
//! A row of four cells is therefore one nibble: `(board >> (4 * row)) & 0xF`,
//! with column `c` at bit `c` of the nibble.
//!
//! Boards of other sizes follow the same rule, cell (`row`, `col`) at bit
//! `cols * row + col` of a `u64`: see [`shape`].
#![no_std]
#![warn(missing_docs)]

#[cfg(feature = "alloc")]
extern crate alloc;

pub mod board;
pub mod carcassonne;
#[cfg(feature = "alloc")]
pub mod classes;
pub mod connect4;
pub mod euler;
pub mod flip;
pub mod game;
pub mod lines;
pub mod mnk;
pub mod quixo;
pub mod shape;
pub mod subsets;
pub mod teeko;
pub mod text;
mod turn_text;
