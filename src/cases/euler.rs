//! Game of Euler positions chosen by their answer.
//!
//! Only open positions are drawn (the judge's boards have at least one
//! uncovered square). A [`Filter`] picks the eligible ones; [`Pool`] lists
//! them in ascending order of their bits (cell (r, c) at bit `4r + c`, set =
//! covered), and each case is `pool[rng.below(pool.len())]`.

use std::fmt;
use std::io::{self, Write};

use super::CasesError;
use super::category::category_names;
use crate::euler::{self, Outcome, Position};

/// Which positions, by outcome.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EulerCategory {
    /// All 65,535 open positions.
    #[default]
    Random,
    /// Positions the player to move wins.
    Winning,
    /// Positions the player to move loses.
    Losing,
}

category_names!(EulerCategory, "Euler", [
    "random" => Random,
    "winning" => Winning,
    "losing" => Losing,
]);

/// The positions to draw from: a category, optionally only those lasting
/// exactly `moves_left` moves (plies) with perfect play.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Filter {
    /// Which positions by outcome.
    pub category: EulerCategory,
    /// Only positions with this many moves left.
    pub moves_left: Option<u8>,
}

impl Filter {
    /// Whether `position` passes (the full board never does).
    pub fn accepts(&self, position: Position) -> bool {
        if position.is_full() {
            return false;
        }
        let entry = euler::probe(position);
        let in_category = match self.category {
            EulerCategory::Random => true,
            EulerCategory::Winning => entry.outcome == Outcome::Win,
            EulerCategory::Losing => entry.outcome == Outcome::Loss,
        };
        in_category && self.moves_left.is_none_or(|k| entry.moves_left == k)
    }
}

impl fmt::Display for Filter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.category {
            EulerCategory::Random => f.write_str("open Euler position")?,
            category => write!(f, "{category} Euler position")?,
        }
        if let Some(k) = self.moves_left {
            write!(f, " lasting {k} move{}", if k == 1 { "" } else { "s" })?;
        }
        Ok(())
    }
}

/// The eligible positions of a [`Filter`], ascending.
pub type Pool = super::Pool<Position>;

impl super::Pool<Position> {
    /// The positions `filter` accepts; an error when there are none (e.g.
    /// winning positions lasting 13 moves: an odd number of moves left
    /// means the player to move covers the last square and loses).
    pub fn new(filter: Filter) -> Result<Pool, CasesError> {
        Pool::filtered(filter, |p| filter.accepts(p))
    }
}

/// Row `bits` (4 cells, bit `c` set = covered) as text with its newline.
const ROWS: [[u8; 5]; 16] = super::rows4(b'.', b'X');

/// Writes `position` as 4 lines of 4 `X`/`.`.
#[inline]
pub fn write_position<W: Write + ?Sized>(out: &mut W, position: Position) -> io::Result<()> {
    super::write4x4(out, position.bits(), &ROWS)
}

/// Writes the judge's answer line: `WINNING` or `LOSING`.
#[inline]
pub fn write_answer<W: Write + ?Sized>(out: &mut W, position: Position) -> io::Result<()> {
    out.write_all(euler::outcome(position).answer().as_bytes())?;
    out.write_all(b"\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn position_text_reads_back() {
        for bits in [0u16, 0x1234, 0x7FFF] {
            let mut text = Vec::new();
            write_position(&mut text, Position::from_bits(bits)).unwrap();
            let s = String::from_utf8(text).unwrap();
            assert_eq!(s.parse::<Position>().unwrap().bits(), bits, "{s}");
        }
    }

    #[test]
    fn pools() {
        let len = |category, moves_left| {
            Pool::new(Filter {
                category,
                moves_left,
            })
            .map(|p| p.len())
        };
        assert_eq!(len(EulerCategory::Random, None).unwrap(), 65_535);
        let (w, l) = (
            len(EulerCategory::Winning, None).unwrap(),
            len(EulerCategory::Losing, None).unwrap(),
        );
        assert_eq!(w + l, 65_535);
        assert!(len(EulerCategory::Winning, Some(13)).is_err());
        assert!(len(EulerCategory::Losing, Some(13)).unwrap() >= 1);
    }
}
