//! Typed parse errors shared by every puzzle's parser: the `tables` crate's
//! [`text`](crate::tables::text) types, which the model of a game reads
//! positions and moves with, under the names the library has always had.
//!
//! Every error carries the 1-based line and column (in bytes) where the
//! problem was found, what the parser expected there and what it found, so a
//! front end can print `source:line:column: expected ..., found ...`.
//!
//! Every public error of the library says what it is about through
//! [`Classify`] ([`kind`]), so a front end maps kinds, not variants.

pub mod kind;

pub use boardbase_tables::text::{Found, ParseError};
pub use kind::{Classify, Kind, Side};

impl Classify for ParseError {
    fn kind(&self) -> Kind {
        Kind::Syntax
    }
}
