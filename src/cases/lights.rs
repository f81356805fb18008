//! Boards of the Lights Out family (`boardbase lights solve`): one variant
//! (its size, K colours, a torus or not, its press pattern) and one goal,
//! chosen by answer.
//!
//! A board is a [`ColourGrid`] (cells 0 to K − 1). What each case draws
//! from the [`Rng`], in order:
//!
//! - [`LightsCategory::Random`]: every cell `below(K)`, in reading order.
//! - [`LightsCategory::Solvable`]: a press vector, every cell `below(K)` in
//!   reading order, applied to the board all of the goal's colour (colour
//!   0 for the goal `any`): uniform over the boards that reach that colour.
//! - [`LightsCategory::Impossible`]: random boards until one has no answer
//!   towards the goal, at most [`MAX_TRIES`] boards a case. Refused before
//!   any draw when there is no such board: towards a colour, when the
//!   variant has no quiet pattern (every board reaches every colour);
//!   towards `any`, when the boards that reach colour 0 and the uniform
//!   boards together make up every board (the uniform boards reach `K / s`
//!   classes of the presses' image, `s` of them reaching colour 0, and the
//!   image has `K^cells / quiet` boards).
//!
//! The answer is [`FamilySolver`]'s, searched up to the limit given: the
//! fewest presses and the least optimal press vector in reading order, as
//! `boardbase lights solve` prints them.

use std::fmt;
use std::io::{self, Write};
use std::sync::Arc;

use super::category::category_names;
use super::{CasesError, Rng};
use crate::lights::family::{ColourGrid, FamilyAnswer, FamilyGoal, FamilySolver, Variant};

/// Most boards drawn for one case of [`LightsCategory::Impossible`].
pub const MAX_TRIES: usize = 10_000;

/// Which boards, by answer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LightsCategory {
    /// Every cell a colour at random.
    #[default]
    Random,
    /// Boards that reach the goal.
    Solvable,
    /// Boards that never reach the goal (only on variants with quiet
    /// patterns).
    Impossible,
}

category_names!(LightsCategory, "lights", [
    "random" => Random,
    "solvable" => Solvable,
    "impossible" => Impossible,
]);

/// The boards of one variant and goal, and the search's limit.
///
/// ```
/// use boardbase::cases::Rng;
/// use boardbase::cases::lights::{LightsCategory, Spec};
/// use boardbase::lights::family::{FamilyGoal, Variant};
/// use boardbase::tables::shape::Shape;
///
/// // 3 colours on 3x3: a board that can be made all 0.
/// let variant = Variant::of_shape(Shape::new(3, 3).unwrap(), 3)?;
/// let spec = Spec::new(LightsCategory::Solvable, variant, FamilyGoal::Colour(0), 24)?;
/// let board = spec.board(&mut Rng::new(7))?;
/// println!("{board}"); // 3 lines of digits 0 to 2
/// assert!(spec.answer(&board)?.is_some());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct Spec {
    category: LightsCategory,
    goal: FamilyGoal,
    max_nullity: usize,
    solver: Arc<FamilySolver>,
}

impl fmt::Debug for Spec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Spec")
            .field("category", &self.category)
            .field("variant", self.solver.variant())
            .field("goal", &self.goal)
            .field("max_nullity", &self.max_nullity)
            .finish()
    }
}

impl PartialEq for Spec {
    fn eq(&self, other: &Spec) -> bool {
        (self.category, self.goal, self.max_nullity)
            == (other.category, other.goal, other.max_nullity)
            && self.variant() == other.variant()
    }
}

impl Eq for Spec {}

impl Spec {
    /// The boards of `category` on `variant` towards `goal`, answered by a
    /// search of at most `2^max_nullity` press vectors. A goal colour past
    /// the variant's colours, and a variant whose search is past the limit
    /// (no answer would be proven minimal), are the answer layer's errors
    /// ([`CasesError::Answer`]: `LightsError::GoalColour`,
    /// `LightsError::SearchTooLarge`), as `boardbase lights solve` says
    /// them; the impossible category of a variant that has no impossible
    /// board is [`CasesError::Empty`].
    pub fn new(
        category: LightsCategory,
        variant: Variant,
        goal: FamilyGoal,
        max_nullity: usize,
    ) -> Result<Spec, CasesError> {
        let spec = Spec {
            category,
            goal,
            max_nullity,
            solver: FamilySolver::cached(&variant),
        };
        // The empty board answers at once, or says that the goal is not a
        // colour of the variant or that the variant is past the search's
        // limit: refused before any case is drawn.
        spec.answer(&ColourGrid::new(variant.shape()))?;
        if category == LightsCategory::Impossible {
            let quiet = spec.solver.quiet_count();
            let why = match goal {
                FamilyGoal::Colour(_) if quiet == 1u32.into() => {
                    Some("it has no quiet pattern, so every board reaches every colour")
                }
                FamilyGoal::Colour(_) => None,
                FamilyGoal::Any => {
                    // The uniform boards that reach colour 0 (`s` of the K):
                    // the uniform boards meet K / s classes of the image.
                    let mut reach = 0u32;
                    for d in 0..variant.colours() {
                        let uniform = ColourGrid::filled(variant.shape(), d);
                        if spec.solve(&uniform, FamilyGoal::Colour(0))?.is_some() {
                            reach += 1;
                        }
                    }
                    let classes = u32::from(variant.colours()) / reach.max(1);
                    (quiet == num_bigint::BigUint::from(classes))
                        .then_some("every board reaches some colour")
                }
            };
            if let Some(why) = why {
                return Err(CasesError::Empty {
                    what: format!("impossible board of the {variant} variant: {why}"),
                });
            }
        }
        Ok(spec)
    }

    /// The variant.
    pub fn variant(&self) -> &Variant {
        self.solver.variant()
    }

    /// The goal the answers reach.
    pub fn goal(&self) -> FamilyGoal {
        self.goal
    }

    /// The category of the boards.
    pub fn category(&self) -> LightsCategory {
        self.category
    }

    /// The board after pressing each cell of `board` as many times as
    /// `presses` says (both of the variant's shape).
    pub fn apply(&self, board: &ColourGrid, presses: &ColourGrid) -> ColourGrid {
        self.solver.apply(board, presses)
    }

    /// One board, drawn as the [module documentation](self) says.
    pub fn board(&self, rng: &mut Rng) -> Result<ColourGrid, CasesError> {
        let variant = self.variant();
        let k = u64::from(variant.colours());
        let random = |rng: &mut Rng| {
            let cells = (0..variant.shape().cells())
                .map(|_| rng.below(k) as u8)
                .collect();
            ColourGrid::from_cells(variant.shape(), cells).unwrap_or_else(|| unreachable!())
        };
        match self.category {
            LightsCategory::Random => Ok(random(rng)),
            LightsCategory::Solvable => {
                let colour = match self.goal {
                    FamilyGoal::Colour(d) => d,
                    FamilyGoal::Any => 0,
                };
                let presses = random(rng);
                let start = ColourGrid::filled(variant.shape(), colour);
                Ok(self.solver.apply(&start, &presses))
            }
            LightsCategory::Impossible => {
                for _ in 0..MAX_TRIES {
                    let board = random(rng);
                    if self.answer(&board)?.is_none() {
                        return Ok(board);
                    }
                }
                Err(CasesError::Empty {
                    what: format!("impossible board of the {variant} variant in {MAX_TRIES} draws"),
                })
            }
        }
    }

    /// The answer to `board`: the fewest presses and the least optimal
    /// press vector, `None` when the goal cannot be reached.
    pub fn answer(&self, board: &ColourGrid) -> Result<Option<FamilyAnswer>, CasesError> {
        self.solve(board, self.goal)
    }

    /// The answer to `board` towards `goal`, within the search's limit.
    fn solve(
        &self,
        board: &ColourGrid,
        goal: FamilyGoal,
    ) -> Result<Option<FamilyAnswer>, CasesError> {
        Ok(self
            .solver
            .solve_within(board, goal, self.max_nullity)
            .map_err(crate::tablebase::Error::from)?)
    }
}

/// Writes one board as `boardbase lights solve` reads it: its rows of
/// digits (`a` to `f` past 9), then a blank line.
pub fn write_board<W: Write + ?Sized>(out: &mut W, board: &ColourGrid) -> io::Result<()> {
    writeln!(out, "{board}\n")
}

/// Writes the expected output of `boardbase lights solve` for one board:
/// the fewest presses, then the press vector's rows; or `Impossible`.
pub fn write_answer<W: Write + ?Sized>(
    out: &mut W,
    answer: Option<&FamilyAnswer>,
) -> io::Result<()> {
    match answer {
        Some(a) => writeln!(out, "{}\n{}", a.rounds, a.presses),
        None => out.write_all(b"Impossible\n"),
    }
}
