//! A board of the Lights Out family asked as a front end asks it (the
//! board's text, the variant but for its shape, the goal): the tablebase
//! chooses the engine that answers, and the board text it reads with it.

use serde::Serialize;

use super::{Error, FliptileLookup, Tablebase, fliptile_lookup};
use crate::grid::Expect;
use crate::lights::family::{ColourGrid, FamilyGoal, Pattern, Variant};
use crate::lights::{self, Goal, Grid, Solver};
use crate::report::LightsLookup;

/// Where a board is asked to go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LightsTowards {
    /// A colour of the classic game by its name (`white`, `black`,
    /// `either`): on the classic game (2 colours, plus, no wrap) answered
    /// with both colours' routes and every press's board; on another
    /// variant the family's goal it stands for (colour 0, colour 1, any).
    Named(Goal),
    /// A goal of the family: a colour number or any.
    Family(FamilyGoal),
}

impl LightsTowards {
    /// The family's goal this stands for.
    pub fn family_goal(self) -> FamilyGoal {
        match self {
            LightsTowards::Named(Goal::White) => FamilyGoal::Colour(0),
            LightsTowards::Named(Goal::Black) => FamilyGoal::Colour(1),
            LightsTowards::Named(Goal::Either) => FamilyGoal::Any,
            LightsTowards::Family(goal) => goal,
        }
    }
}

/// A board of the Lights Out family as a front end asks it: its text, the
/// variant's colours, wrap and press pattern (its shape is the board's),
/// and where it should go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LightsQuestion<'a> {
    /// The board: rows of `0`/`1` or `w`/`b` for a named colour of the
    /// classic game, else rows of digits (`a`-`f` past 9).
    pub board: &'a str,
    /// Colours, 2 to 16.
    pub colours: u8,
    /// Whether the board is a torus.
    pub wrap: bool,
    /// The press pattern.
    pub pattern: Pattern,
    /// Where the board should go.
    pub towards: LightsTowards,
}

impl LightsQuestion<'_> {
    /// Whether the classic game is asked for a named colour: the GF(2)
    /// solver's lookup answers it.
    fn is_classic_named(&self) -> Option<Goal> {
        match self.towards {
            LightsTowards::Named(goal)
                if self.colours == 2 && !self.wrap && self.pattern == Pattern::Plus =>
            {
                Some(goal)
            }
            _ => None,
        }
    }
}

/// [`Tablebase::lights_answer`]'s answer; serialized as the lookup it
/// holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
#[allow(clippy::large_enum_variant)] // one a question, never in a collection
pub enum LightsReply {
    /// The classic game towards a named colour: the colour reached, both
    /// colours' routes, every press valued with its board (the object of
    /// `boardbase fliptile --format json`).
    Classic(FliptileLookup),
    /// Any other variant or goal: the family's lookup (the object of the
    /// server's `/api/v1/lights`).
    Family(LightsLookup),
}

impl Tablebase {
    /// A board of the Lights Out family as a front end asks it, searching
    /// up to 2^`max_nullity` press vectors a goal (a front end that takes
    /// the limit per call; [`Tablebase::lights_lookup`] takes the
    /// tablebase's). The one place that chooses the engine and the board
    /// text it reads: the classic game (2 colours, plus, no wrap) towards a
    /// named colour reads rows of `0`/`1` or `w`/`b` and answers by GF(2)
    /// with both colours' routes ([`LightsReply::Classic`]); any other
    /// variant or goal reads rows of digits and answers by the family's
    /// engine ([`LightsReply::Family`]). Its errors: the classic game's rows
    /// that do not read ([`Error::Rows`]), the family's ([`Error::Board`]),
    /// a board or options that make no variant, a search past the limit
    /// ([`Error::Lights`]).
    ///
    /// ```
    /// use boardbase::lights::Goal;
    /// use boardbase::lights::family::{FamilyGoal, Pattern};
    /// use boardbase::tablebase::{LightsQuestion, LightsReply, LightsTowards, Tablebase};
    ///
    /// // The classic game towards white: pressing the centre clears it.
    /// //   w b w        w w w
    /// //   b b b   ->   w w w
    /// //   w b w        w w w
    /// let question = LightsQuestion {
    ///     board: "wbw/bbb/wbw",
    ///     colours: 2,
    ///     wrap: false,
    ///     pattern: Pattern::Plus,
    ///     towards: LightsTowards::Named(Goal::White),
    /// };
    /// let LightsReply::Classic(lookup) = Tablebase::new().lights_answer(&question, 24)? else {
    ///     panic!("the classic game towards a named colour");
    /// };
    /// assert_eq!(lookup.answer.rounds, Some(1));
    /// assert_eq!(lookup.moves[0].cell, [1, 1]);
    ///
    /// // 3 colours: pressing the top-left cell once makes this board all 0
    /// // (a press adds 1 mod 3 to the cell and its neighbours).
    /// //   2 2        0 0
    /// //   2 0   ->   0 0
    /// let question = LightsQuestion {
    ///     board: "22/20",
    ///     colours: 3,
    ///     towards: LightsTowards::Family(FamilyGoal::Colour(0)),
    ///     ..question
    /// };
    /// let LightsReply::Family(lookup) = Tablebase::new().lights_answer(&question, 24)? else {
    ///     panic!("3 colours: the family's engine");
    /// };
    /// assert_eq!(lookup.answer.rounds, Some(1));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn lights_answer(
        &self,
        question: &LightsQuestion<'_>,
        max_nullity: usize,
    ) -> Result<LightsReply, Error> {
        if let Some(goal) = question.is_classic_named() {
            let rows = lights::ALPHABET
                .parse_board(question.board, Expect::Any)
                .map_err(Error::Rows)?;
            let shape = rows.shape();
            let grid = Grid::from_rows(shape, rows.rows())?;
            let lookup = fliptile_lookup(Solver::cached(shape), &grid, goal, max_nullity)?;
            return Ok(LightsReply::Classic(lookup));
        }
        let k = question.colours;
        let grid = ColourGrid::parse(question.board, k)?;
        let variant = Variant::new(grid.rows(), grid.cols(), k)?
            .with_wrap(question.wrap)
            .with_pattern(question.pattern.clone());
        let goal = question.towards.family_goal();
        let lookup = LightsLookup::new(&variant, &grid, goal, max_nullity)?;
        Ok(LightsReply::Family(lookup))
    }
}
