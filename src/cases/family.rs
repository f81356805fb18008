//! Boards of the Lights Out family (`boardbase lights solve`): one variant
//! (its size, K colours, a torus or not, its press pattern) and one goal,
//! chosen by answer.
//!
//! A board is a [`ColourGrid`] (cells 0 to K − 1). What each case draws
//! from the [`Rng`], in order:
//!
//! - [`LightsFamily::Random`]: every cell `below(K)`, in reading order.
//! - [`LightsFamily::Solvable`]: a press vector, every cell `below(K)` in
//!   reading order, applied to the board all of the goal's colour (colour
//!   0 for the goal `any`): uniform over the boards that reach that colour.
//! - [`LightsFamily::Impossible`]: random boards until one has no answer
//!   towards the goal, at most [`MAX_TRIES`] boards a case (a variant with
//!   no quiet pattern has none: every board is solvable).
//!
//! The answer is [`FamilySolver`]'s, searched up to the limit given: the
//! fewest presses and the least optimal press vector in reading order, as
//! `boardbase lights solve` prints them.

use std::fmt;
use std::io::{self, Write};
use std::str::FromStr;
use std::sync::Arc;

use super::{GenError, Rng};
use crate::lights::family::{ColourGrid, FamilyAnswer, FamilyGoal, FamilySolver, Variant};

/// Most boards drawn for one case of [`LightsFamily::Impossible`].
pub const MAX_TRIES: usize = 10_000;

/// Which boards, by answer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LightsFamily {
    /// Every cell a colour at random.
    #[default]
    Random,
    /// Boards that reach the goal.
    Solvable,
    /// Boards that never reach the goal (only on variants with quiet
    /// patterns).
    Impossible,
}

impl LightsFamily {
    /// Every family, with its name.
    pub const ALL: [(&'static str, LightsFamily); 3] = [
        ("random", LightsFamily::Random),
        ("solvable", LightsFamily::Solvable),
        ("impossible", LightsFamily::Impossible),
    ];

    /// Its name (`solvable`, ...).
    pub fn name(self) -> &'static str {
        super::family_name(&LightsFamily::ALL, &self)
    }
}

impl FromStr for LightsFamily {
    type Err = String;

    fn from_str(s: &str) -> Result<LightsFamily, String> {
        super::family_named(&LightsFamily::ALL, "Lights Out", s)
    }
}

impl fmt::Display for LightsFamily {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The boards of one variant and goal, and the search's limit.
///
/// ```
/// use boardbase::cases::Rng;
/// use boardbase::cases::family::{LightsFamily, Spec};
/// use boardbase::lights::family::{FamilyGoal, Variant};
/// use boardbase::solvers::shape::Shape;
///
/// // 3 colours on 3x3: a board that can be made all 0.
/// let variant = Variant::of_shape(Shape::new(3, 3).unwrap(), 3)?;
/// let spec = Spec::new(LightsFamily::Solvable, variant, FamilyGoal::Colour(0), 24)?;
/// let board = spec.board(&mut Rng::new(7))?;
/// println!("{board}"); // 3 lines of digits 0 to 2
/// assert!(spec.answer(&board)?.is_some());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct Spec {
    family: LightsFamily,
    goal: FamilyGoal,
    max_nullity: usize,
    solver: Arc<FamilySolver>,
}

impl fmt::Debug for Spec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Spec")
            .field("family", &self.family)
            .field("variant", self.solver.variant())
            .field("goal", &self.goal)
            .field("max_nullity", &self.max_nullity)
            .finish()
    }
}

impl PartialEq for Spec {
    fn eq(&self, other: &Spec) -> bool {
        (self.family, self.goal, self.max_nullity) == (other.family, other.goal, other.max_nullity)
            && self.variant() == other.variant()
    }
}

impl Eq for Spec {}

impl Spec {
    /// The boards of `family` on `variant` towards `goal`, answered by a
    /// search of at most `2^max_nullity` press vectors. A goal colour past
    /// the variant's colours, and a variant whose search is past the limit
    /// (no answer would be proven minimal), are [`GenError::Size`].
    pub fn new(
        family: LightsFamily,
        variant: Variant,
        goal: FamilyGoal,
        max_nullity: usize,
    ) -> Result<Spec, GenError> {
        if let FamilyGoal::Colour(d) = goal
            && d >= variant.colours()
        {
            return Err(GenError::Size(format!(
                "goal {d}: there are {} colours (0 to {})",
                variant.colours(),
                variant.colours() - 1
            )));
        }
        let solver = FamilySolver::cached(&variant);
        // The empty board answers at once or says that the variant is past
        // the search's limit: refused before any case is drawn.
        solver
            .solve_within(&ColourGrid::new(variant.shape()), goal, max_nullity)
            .map_err(|e| GenError::Size(e.to_string()))?;
        if family == LightsFamily::Impossible && solver.quiet_count() == 1u32.into() {
            return Err(GenError::Empty {
                what: format!(
                    "impossible board of the {} variant: it has no quiet pattern, so every board reaches every colour",
                    describe(&variant)
                ),
            });
        }
        Ok(Spec {
            family,
            goal,
            max_nullity,
            solver,
        })
    }

    /// The variant.
    pub fn variant(&self) -> &Variant {
        self.solver.variant()
    }

    /// One board, drawn as the [module documentation](self) says.
    pub fn board(&self, rng: &mut Rng) -> Result<ColourGrid, GenError> {
        let variant = self.variant();
        let k = u64::from(variant.colours());
        let random = |rng: &mut Rng| {
            let cells = (0..variant.shape().cells())
                .map(|_| rng.below(k) as u8)
                .collect();
            ColourGrid::from_cells(variant.shape(), cells).unwrap_or_else(|| unreachable!())
        };
        match self.family {
            LightsFamily::Random => Ok(random(rng)),
            LightsFamily::Solvable => {
                let colour = match self.goal {
                    FamilyGoal::Colour(d) => d,
                    FamilyGoal::Any => 0,
                };
                let presses = random(rng);
                let start = ColourGrid::filled(variant.shape(), colour);
                Ok(self.solver.apply(&start, &presses))
            }
            LightsFamily::Impossible => {
                for _ in 0..MAX_TRIES {
                    let board = random(rng);
                    if self.answer(&board)?.is_none() {
                        return Ok(board);
                    }
                }
                Err(GenError::Empty {
                    what: format!(
                        "impossible board of the {} variant in {MAX_TRIES} draws",
                        describe(variant)
                    ),
                })
            }
        }
    }

    /// The answer to `board`: the fewest presses and the least optimal
    /// press vector, `None` when the goal cannot be reached.
    pub fn answer(&self, board: &ColourGrid) -> Result<Option<FamilyAnswer>, GenError> {
        self.solver
            .solve_within(board, self.goal, self.max_nullity)
            .map_err(|e| GenError::Size(e.to_string()))
    }
}

/// `3x3, 3 colours, plus`.
fn describe(variant: &Variant) -> String {
    format!(
        "{}, {} colours, {}{}",
        variant.shape(),
        variant.colours(),
        variant.pattern(),
        if variant.wrap() { ", wrapped" } else { "" }
    )
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
