//! Fliptile (POJ 3279) boards of any size up to 64×64, chosen by answer.
//!
//! A board is a [`Grid`] (set = black, `1`). What each case draws from the
//! [`Rng`], in order:
//!
//! 1. Its size: the fixed size of the [`Spec`], or `M = 1 + below(15)` then
//!    `N = 1 + below(15)` (the judge's `1 ≤ M, N ≤ 15`). For the categories
//!    that need a *singular* size ([`FliptileCategory::Impossible`], [`FliptileCategory::Ties`]),
//!    both are drawn again until the size's nullity is at least 1.
//! 2. Its board. A *random row* is `next_u64()` masked to its `N` low bits
//!    (bit `c` = column `c`); a *random grid* is `M` random rows, row 0
//!    first.
//!    - [`FliptileCategory::Random`]: a random grid.
//!    - [`FliptileCategory::Solvable`]: a random grid of flips, applied to the white
//!      board: uniform over the boards that can be made white (each such
//!      board has `2^nullity` flip sets).
//!    - [`FliptileCategory::Impossible`]: random grids until one cannot be made white
//!      (on a size of nullity `k`, a random board can with probability
//!      `2^-k ≤ 1/2`).
//!    - [`FliptileCategory::Ties`]: boards drawn as [`FliptileCategory::Solvable`] until one has
//!      two or more minimal flip sets, so that the judge's tie rule (the
//!      least in reading order) decides the answer; at most
//!      [`MAX_TRIES`] boards a case.
//!
//! The answer ([`answer`]) is [`lights::solve`]'s for [`Goal::White`]:
//! the fewest flips, and among those the least in reading order, as the
//! judge asks.

use std::fmt;
use std::io::{self, Write};

use super::category::category_names;
use super::{CasesError, Rng};
use crate::lights::{self, Answer, Colour, Goal, Grid, MAX_NULLITY, Solver};
use crate::tables::shape::Shape;

/// The judge's largest side: `1 ≤ M, N ≤ 15`.
pub const JUDGE_MAX_SIDE: usize = 15;

/// Most boards drawn for one case of a category that rejects boards.
pub const MAX_TRIES: usize = 10_000;

/// Which boards, by answer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FliptileCategory {
    /// Every cell black or white at random (on most sizes most boards can
    /// be made white; on 15×15, every one).
    #[default]
    Random,
    /// Boards that can be made white.
    Solvable,
    /// Boards whose answer is `IMPOSSIBLE` (only on singular sizes).
    Impossible,
    /// Solvable boards with two or more minimal flip sets: the answer is
    /// the least in reading order (only on singular sizes).
    Ties,
}

category_names!(FliptileCategory, "Fliptile", [
    "random" => Random,
    "solvable" => Solvable,
    "impossible" => Impossible,
    "ties" => Ties,
]);

impl FliptileCategory {
    /// Whether its boards need a size of nullity at least 1.
    pub fn needs_singular(self) -> bool {
        matches!(self, FliptileCategory::Impossible | FliptileCategory::Ties)
    }
}

/// Boards of one category, of one size or of random sizes up to 15×15.
///
/// ```
/// use boardbase::cases::Rng;
/// use boardbase::cases::fliptile::{FliptileCategory, Spec};
/// use boardbase::lights::{self, Goal};
/// use boardbase::tables::shape::Shape;
///
/// // A 4×4 board with several fewest flip sets, drawn from a seed.
/// let spec = Spec { category: FliptileCategory::Ties, size: Shape::new(4, 4) }.validated()?;
/// let board = spec.board(&mut Rng::new(3))?;
/// let answer = lights::solve(&board, Goal::White)?.expect("solvable");
/// assert!(answer.optimal_sets >= 2);
/// println!("{}", board.show('1', '0')); // 4 lines of 0/1
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Spec {
    /// The category.
    pub category: FliptileCategory,
    /// Every board this size; `None`: sizes drawn from 1×1 to 15×15.
    pub size: Option<Shape>,
}

impl fmt::Display for Spec {
    /// `impossible 15x15 Fliptile board`, `Fliptile board with several
    /// fewest flip sets`, ...
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if matches!(
            self.category,
            FliptileCategory::Solvable | FliptileCategory::Impossible
        ) {
            write!(f, "{} ", self.category)?;
        }
        if let Some(s) = self.size {
            write!(f, "{}x{} ", s.rows(), s.cols())?;
        }
        f.write_str("Fliptile board")?;
        if self.category == FliptileCategory::Ties {
            f.write_str(" with several fewest flip sets")?;
        }
        Ok(())
    }
}

impl Spec {
    /// The spec, if its boards exist and their answers can be proven: a
    /// fixed size must have a nullity of at most [`MAX_NULLITY`] (14 sizes
    /// up to 64×64 do not), and at least 1 for the impossible and ties
    /// categories.
    pub fn validated(&self) -> Result<Spec, CasesError> {
        let Some(shape) = self.size else {
            return Ok(*self);
        };
        let k = Solver::cached(shape).nullity();
        let size = format!("{}x{}", shape.rows(), shape.cols());
        if k > MAX_NULLITY {
            return Err(CasesError::Size(format!(
                "a {size} board has nullity {k}: its fewest flips are only searched up to nullity {MAX_NULLITY}, so its answers cannot be written"
            )));
        }
        if k == 0 && self.category.needs_singular() {
            return Err(CasesError::Empty {
                what: format!(
                    "{self} exists ({size} has nullity 0: every board can be made white, in exactly one way)"
                ),
            });
        }
        Ok(*self)
    }

    /// Draws one case's board (see the [module documentation](self) for
    /// what is drawn, in order). The spec must be [validated](Self::validated).
    pub fn board(&self, rng: &mut Rng) -> Result<Grid, CasesError> {
        let shape = self.shape(rng);
        let solver = Solver::cached(shape);
        match self.category {
            FliptileCategory::Random => Ok(random_grid(rng, shape)),
            FliptileCategory::Solvable => Ok(solvable(rng, shape)),
            FliptileCategory::Impossible => {
                for _ in 0..MAX_TRIES {
                    let board = random_grid(rng, shape);
                    if solver.any_solution(&board, Colour::White)?.is_none() {
                        return Ok(board);
                    }
                }
                Err(self.not_found(shape))
            }
            FliptileCategory::Ties => {
                for _ in 0..MAX_TRIES {
                    let board = solvable(rng, shape);
                    let answer = solver.route(&board, Colour::White)?;
                    if answer.is_some_and(|a| a.optimal_sets >= 2) {
                        return Ok(board);
                    }
                }
                Err(self.not_found(shape))
            }
        }
    }

    /// Step 1 of a case: its size.
    fn shape(&self, rng: &mut Rng) -> Shape {
        if let Some(shape) = self.size {
            return shape;
        }
        loop {
            let rows = 1 + rng.index(JUDGE_MAX_SIDE);
            let cols = 1 + rng.index(JUDGE_MAX_SIDE);
            let shape = Shape::new(rows, cols).unwrap_or_else(|| unreachable!("1 to 15 a side"));
            if !self.category.needs_singular() || Solver::cached(shape).nullity() > 0 {
                return shape;
            }
        }
    }

    fn not_found(&self, shape: Shape) -> CasesError {
        CasesError::Empty {
            what: format!(
                "{} found in {MAX_TRIES} tries",
                Spec {
                    size: Some(shape),
                    ..*self
                }
            ),
        }
    }
}

/// `M` random rows: `next_u64()` masked to the `N` low bits, row 0 first.
pub fn random_grid(rng: &mut Rng, shape: Shape) -> Grid {
    let mut rows = [0u64; crate::tables::shape::MAX_SIDE];
    for row in &mut rows[..shape.rows()] {
        *row = rng.next_u64() & shape.row_mask();
    }
    Grid::from_rows(shape, &rows[..shape.rows()])
        .unwrap_or_else(|_| unreachable!("rows masked to the shape"))
}

/// The white board with a random grid of flips applied.
fn solvable(rng: &mut Rng, shape: Shape) -> Grid {
    Grid::new(shape).apply(&random_grid(rng, shape))
}

/// Writes one case in the judge's format: `M N`, then M lines of N `0`/`1`
/// separated by single spaces.
pub fn write_case<W: Write + ?Sized>(out: &mut W, board: &Grid) -> io::Result<()> {
    let s = board.shape();
    writeln!(out, "{} {}", s.rows(), s.cols())?;
    lights::write_judge_rows(out, board)
}

/// The judge's answer for `board`: the fewest flips making every tile
/// white, the least in reading order among several; `None` for
/// `IMPOSSIBLE`. An error only for sizes whose nullity is over
/// [`MAX_NULLITY`].
pub fn answer(board: &Grid) -> Result<Option<Answer>, CasesError> {
    Ok(lights::solve(board, Goal::White)?)
}

/// Writes the judge's expected output for `board`: exactly what
/// `boardbase fliptile` prints (M lines of `0`/`1`, or `IMPOSSIBLE`).
pub fn write_answer<W: Write + ?Sized>(out: &mut W, board: &Grid) -> Result<(), CasesError> {
    match answer(board)? {
        Some(a) => lights::write_judge_rows(out, &a.presses)?,
        None => out.write_all(b"IMPOSSIBLE\n")?,
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(r: usize, c: usize) -> Shape {
        Shape::new(r, c).unwrap()
    }

    #[test]
    fn categories_keep_their_promise() {
        let mut rng = Rng::new(11);
        for category in [
            FliptileCategory::Solvable,
            FliptileCategory::Impossible,
            FliptileCategory::Ties,
        ] {
            let spec = Spec {
                category,
                size: None,
            };
            for _ in 0..200 {
                let board = spec.board(&mut rng).unwrap();
                let a = answer(&board).unwrap();
                match category {
                    FliptileCategory::Solvable => assert!(a.is_some()),
                    FliptileCategory::Impossible => assert!(a.is_none()),
                    _ => assert!(a.unwrap().optimal_sets >= 2),
                }
                let s = board.shape();
                assert!(s.rows() <= 15 && s.cols() <= 15);
            }
        }
    }

    #[test]
    fn sizes_are_checked() {
        let spec = |category, r, c| {
            Spec {
                category,
                size: Some(shape(r, c)),
            }
            .validated()
        };
        assert!(spec(FliptileCategory::Random, 64, 63).is_ok());
        assert!(matches!(
            spec(FliptileCategory::Random, 64, 64),
            Err(CasesError::Size(_))
        ));
        let e = spec(FliptileCategory::Impossible, 15, 15)
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "no impossible 15x15 Fliptile board exists (15x15 has nullity 0: every board can be made white, in exactly one way)"
        );
        assert!(spec(FliptileCategory::Ties, 5, 6).is_err());
        assert!(spec(FliptileCategory::Ties, 1, 2).is_ok());
    }

    #[test]
    fn case_text_reads_back() {
        let mut rng = Rng::new(2);
        let spec = Spec::default();
        for _ in 0..20 {
            let board = spec.board(&mut rng).unwrap();
            let mut text = Vec::new();
            write_case(&mut text, &board).unwrap();
            let mut scanner = crate::input::Scanner::new(&text[..]);
            let case = lights::read_fliptile_case(&mut scanner).unwrap().unwrap();
            assert_eq!(case.board, board);
        }
    }
}
