//! Flip Game boards chosen by their answer.
//!
//! A [`Filter`] picks the eligible boards; [`Pool`] lists them in
//! ascending order of their bits (cell (r, c) at bit `4r + c`, set =
//! black), and each case is `pool[rng.below(pool.len())]`: one draw a case.

use std::fmt;
use std::io::{self, Write};

use super::CasesError;
use super::category::category_names;
use crate::flip::{self, Board};

/// Which boards, by answer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FlipCategory {
    /// All 65,536 boards (15 of 16 are impossible).
    #[default]
    Random,
    /// The 4,096 boards that reach a uniform colour.
    Solvable,
    /// The 61,440 boards whose answer is `Impossible`.
    Impossible,
}

category_names!(FlipCategory, "Flip", [
    "random" => Random,
    "solvable" => Solvable,
    "impossible" => Impossible,
]);

/// The boards to draw from: a category, optionally only those taking exactly
/// `rounds` rounds (which implies solvable).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Filter {
    /// Which boards by answer.
    pub category: FlipCategory,
    /// Only boards whose fewest rounds are this.
    pub rounds: Option<u8>,
}

impl Filter {
    /// Whether `board` passes.
    pub fn accepts(&self, board: Board) -> bool {
        let r = flip::rounds(board);
        let in_category = match self.category {
            FlipCategory::Random => true,
            FlipCategory::Solvable => r.is_some(),
            FlipCategory::Impossible => r.is_none(),
        };
        in_category && self.rounds.is_none_or(|k| r == Some(k))
    }
}

impl fmt::Display for Filter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.category {
            FlipCategory::Random => f.write_str("Flip board")?,
            category => write!(f, "{category} Flip board")?,
        }
        if let Some(k) = self.rounds {
            write!(f, " taking {k} round{}", if k == 1 { "" } else { "s" })?;
        }
        Ok(())
    }
}

/// The eligible boards of a [`Filter`], ascending.
pub type Pool = super::Pool<Board>;

impl super::Pool<Board> {
    /// The boards `filter` accepts; an error when there are none (e.g.
    /// impossible boards taking 3 rounds, or 7 rounds: the most is 6).
    pub fn new(filter: Filter) -> Result<Pool, CasesError> {
        Pool::filtered(filter, |b| filter.accepts(b))
    }
}

/// Row `bits` (4 cells, bit `c` set = black) as text with its newline.
const ROWS: [[u8; 5]; 16] = super::rows4(b'w', b'b');

/// Writes `board` as the judge's input: 4 lines of 4 `b`/`w`.
#[inline]
pub fn write_board<W: Write + ?Sized>(out: &mut W, board: Board) -> io::Result<()> {
    super::write4x4(out, board.bits(), &ROWS)
}

/// The judge's answer for `board`: the fewest rounds or `Impossible`.
pub fn answer(board: Board) -> String {
    flip::rounds(board).map_or_else(|| "Impossible".to_owned(), |r| r.to_string())
}

/// Writes the judge's answer line for `board`.
#[inline]
pub fn write_answer<W: Write + ?Sized>(out: &mut W, board: Board) -> io::Result<()> {
    match flip::rounds(board) {
        Some(r) => writeln!(out, "{r}"),
        None => out.write_all(b"Impossible\n"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_text_reads_back() {
        for bits in [0u16, 0x19B9, 0xFFFF, 0x8001] {
            let mut text = Vec::new();
            write_board(&mut text, Board::from_bits(bits)).unwrap();
            let s = String::from_utf8(text).unwrap();
            assert_eq!(s.parse::<Board>().unwrap().bits(), bits, "{s}");
        }
    }

    #[test]
    fn pool_sizes() {
        let all = |category, rounds| Pool::new(Filter { category, rounds }).map(|p| p.len());
        assert_eq!(all(FlipCategory::Random, None).unwrap(), 65_536);
        assert_eq!(all(FlipCategory::Solvable, None).unwrap(), 4_096);
        assert_eq!(all(FlipCategory::Impossible, None).unwrap(), 61_440);
        assert_eq!(all(FlipCategory::Random, Some(6)).unwrap(), 256);
        assert!(all(FlipCategory::Impossible, Some(3)).is_err());
        assert!(all(FlipCategory::Random, Some(7)).is_err());
    }
}
