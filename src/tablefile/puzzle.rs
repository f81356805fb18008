//! The puzzle a table is for ([`Puzzle`]: Flip or Euler), its names and
//! its limit of cells ([`TooManyCells`]).

use std::fmt;

use boardbase_tables::shape::Shape;

use crate::error::{Classify, Kind};

/// The puzzle a table is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Puzzle {
    /// Flip Game (and Lights Out's family on other shapes).
    Flip,
    /// Game of Euler.
    Euler,
}

impl Puzzle {
    /// Both puzzles.
    pub const ALL: [Puzzle; 2] = [Puzzle::Flip, Puzzle::Euler];

    /// The name in file headers and file names: `flip` or `euler`.
    pub const fn name(self) -> &'static str {
        match self {
            Puzzle::Flip => "flip",
            Puzzle::Euler => "euler",
        }
    }

    /// The puzzle called `name` (`flip` or `euler`).
    pub fn from_name(name: &str) -> Option<Puzzle> {
        Puzzle::ALL.into_iter().find(|p| p.name() == name)
    }

    /// The most cells of a table of this puzzle: 25 for Flip, 36 for Euler.
    /// These are the solvers' own limits
    /// ([`boardbase_tables::flip::search::MAX_CELLS`],
    /// [`boardbase_tables::euler::winloss::MAX_CELLS`]), and the
    /// generator's ([`generate::FLIP_MAX_CELLS`](crate::generate::FLIP_MAX_CELLS),
    /// [`generate::EULER_MAX_CELLS`](crate::generate::EULER_MAX_CELLS)) are
    /// defined as these: one limit per puzzle.
    pub const fn max_cells(self) -> usize {
        match self {
            Puzzle::Flip => boardbase_tables::flip::search::MAX_CELLS,
            Puzzle::Euler => boardbase_tables::euler::winloss::MAX_CELLS,
        }
    }

    /// The usual file name of its table for `shape`: `euler-5x5.bin`.
    pub fn file_name(self, shape: Shape) -> String {
        format!("{}-{shape}.bin", self.name())
    }
}

impl Puzzle {
    /// The puzzle's name with its article, for messages: `an Euler`, `a
    /// Flip`.
    ///
    /// ```
    /// use boardbase::tablefile::Puzzle;
    /// assert_eq!(Puzzle::Euler.with_article(), "an Euler");
    /// assert_eq!(Puzzle::Flip.with_article(), "a Flip");
    /// ```
    pub const fn with_article(self) -> &'static str {
        match self {
            Puzzle::Euler => "an Euler",
            Puzzle::Flip => "a Flip",
        }
    }
}

/// A board with more cells than a puzzle's tables allow: the one refusal
/// of a shape too large, for the generator and the answer layer alike.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{puzzle} tables take at most {} cells; {shape} has {}", puzzle.max_cells(), shape.cells())]
pub struct TooManyCells {
    /// The puzzle.
    pub puzzle: Puzzle,
    /// The shape asked for.
    pub shape: Shape,
}

impl Classify for TooManyCells {
    fn kind(&self) -> Kind {
        Kind::TooLarge
    }
}

impl Puzzle {
    /// [`TooManyCells`] unless `shape` is within the puzzle's tables'
    /// limit ([`Puzzle::max_cells`]).
    pub fn check_cells(self, shape: Shape) -> Result<(), TooManyCells> {
        if shape.cells() > self.max_cells() {
            return Err(TooManyCells {
                puzzle: self,
                shape,
            });
        }
        Ok(())
    }
}

impl fmt::Display for Puzzle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
