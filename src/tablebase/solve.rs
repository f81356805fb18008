//! The one question every two-player game of the model is asked: the value
//! of a position for the player to move, its remoteness, and every move
//! valued, best first ([`Tablebase::solve`]), whatever the game. The answer
//! layer chooses where the values come from: the Game of Euler's own
//! tables (embedded, a file, made in memory), and for the other games the
//! generic retrograde analysis, made in memory once a setup and kept.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};

use boardbase_solvers::game::retrograde::Solved;
use boardbase_solvers::game::{Outcome, Value};
use serde::{Serialize, Serializer};

use super::{Error, EulerSource, QuestionError, Tablebase, TablebaseError};
use crate::catalogue::{AnyGame, Model, Setup};
use crate::euler;
use crate::tablefile::{ProbeError, Puzzle};

/// Which position a [`Tablebase::solve`] asks about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Query<'a> {
    /// The game's start.
    Start,
    /// A position in the game's text.
    Text(&'a str),
}

/// A position solved: its value for the player to move, the remoteness,
/// and every move valued, best first (the object of `boardbase solve
/// --format json`, `/api/v1/solve` and Python's `solve()`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Solution {
    /// The game's name.
    pub game: &'static str,
    /// The board, `RxC`.
    pub size: String,
    /// The game's options by name (`k`).
    pub options: BTreeMap<&'static str, u64>,
    /// The position's text, rows joined by `/`.
    pub position: String,
    /// Its value for the player to move.
    #[serde(serialize_with = "value_name")]
    pub value: Value,
    /// Plies to the end with perfect play (the winner hurrying, the loser
    /// resisting); `None` for a draw, or where the source holds values
    /// only.
    pub remoteness: Option<u16>,
    /// Every move, best first for the player to move (ties in the game's
    /// move order).
    pub moves: Vec<SolvedMove>,
}

/// A move valued: the value and remoteness of the position after it,
/// for the player to move there (the opponent).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SolvedMove {
    /// The move's text.
    #[serde(rename = "move")]
    pub text: String,
    /// The value of the position after it for the player to move there.
    #[serde(serialize_with = "value_name")]
    pub value: Value,
    /// Its remoteness (`None` for a draw, or where the source holds
    /// values only).
    pub remoteness: Option<u16>,
}

fn value_name<S: Serializer>(value: &Value, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(value.name())
}

/// The games solved in memory, by setup: each solved once, then kept while
/// the tablebase's memory for made tables holds them.
#[derive(Default)]
pub(super) struct Solutions {
    solved: Mutex<HashMap<(&'static str, Setup), Arc<Solved>>>,
}

/// Where the values of one setup's positions come from.
enum Values {
    Euler(Arc<dyn EulerSource>),
    Solved(Arc<Solved>),
}

impl Values {
    /// The outcome of `position` of `game` (`None`: not a position).
    fn outcome(&self, game: &dyn AnyGame, position: u64) -> Result<Option<Outcome>, ProbeError> {
        match self {
            Values::Solved(solved) => Ok(solved.outcome(game.canonical(position))),
            Values::Euler(source) => {
                let (outcome, left) = source.value(position)?;
                // A table of values only: the remoteness is unknown.
                let left = left.map_or(UNKNOWN, u16::from);
                Ok(Some(match outcome {
                    euler::Outcome::Win => Outcome::Win(left),
                    euler::Outcome::Loss => Outcome::Lose(left),
                }))
            }
        }
    }
}

/// The remoteness of a source that holds values only: past any a solver
/// gives (16,383 plies at most), so never a real one.
const UNKNOWN: u16 = u16::MAX;

impl Tablebase {
    /// Solves a position of a two-player game of the model (any of
    /// [`catalogue::MODELS`](crate::catalogue::MODELS)) set up as `setup`
    /// says: its value for the player to move, its remoteness, and every
    /// move valued, best first.
    ///
    /// The Game of Euler is answered from its own tables (embedded for
    /// 4×4, a file, or made in memory, as [`Tablebase::euler_made`] has
    /// them); every other game is solved in memory by retrograde analysis
    /// the first time a setup is asked, within the memory for tables made
    /// in memory ([`Tablebase::set_make_memory`]), and kept.
    ///
    /// ```
    /// use boardbase::catalogue;
    /// use boardbase::solvers::game::Value;
    /// use boardbase::tablebase::{Query, Tablebase};
    ///
    /// let euler = catalogue::model("euler").expect("in the catalogue");
    /// let setup = euler.setup(None, &[])?; // 4×4
    /// // X X X X
    /// // X X X X
    /// // X X X X
    /// // X X X .     one square left: covering it loses.
    /// let solved = Tablebase::new().solve(euler, &setup, Query::Text("XXXX/XXXX/XXXX/XXX."))?;
    /// assert_eq!((solved.value, solved.remoteness), (Value::Lose, Some(1)));
    /// assert_eq!(solved.moves[0].text, "d4");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn solve(&self, model: &Model, setup: &Setup, query: Query) -> Result<Solution, Error> {
        let game = model.make(setup).map_err(QuestionError::Setup)?;
        let position = match query {
            Query::Start => game.start(),
            Query::Text(text) => game.read_position(text).map_err(QuestionError::Board)?,
        };
        let values = self.values(model, setup, &*game)?;
        let damaged = |e: ProbeError| self.damaged(Puzzle::Euler, setup.shape, e);
        let remoteness = |o: Outcome| o.remoteness().filter(|&r| r != UNKNOWN);
        let outcome = values
            .outcome(&*game, position)
            .map_err(damaged)?
            .ok_or(QuestionError::NotAPosition)?;
        let mut moves = Vec::new();
        for (text, after) in game.moves(position) {
            let child = values
                .outcome(&*game, after)
                .map_err(damaged)?
                .ok_or(QuestionError::NotAPosition)?;
            moves.push((child, text));
        }
        // Best first for the mover; a stable sort keeps the game's order
        // among equals.
        moves.sort_by(|(a, _), (b, _)| b.through_move().preference(a.through_move()));
        Ok(Solution {
            game: model.game,
            size: setup.shape.to_string(),
            options: model
                .options
                .iter()
                .map(|o| o.name)
                .zip(setup.options.iter().copied())
                .collect(),
            position: game.position_text(position),
            value: outcome.value(),
            remoteness: remoteness(outcome),
            moves: moves
                .into_iter()
                .map(|(child, text)| SolvedMove {
                    text,
                    value: child.value(),
                    remoteness: remoteness(child),
                })
                .collect(),
        })
    }

    /// Where the values of `setup`'s positions come from: Euler's tables,
    /// or the game solved in memory (now, if it was not before).
    fn values(&self, model: &Model, setup: &Setup, game: &dyn AnyGame) -> Result<Values, Error> {
        if model.game == crate::euler::MODEL.game {
            return Ok(Values::Euler(self.euler_made(setup.shape, |_| {})?));
        }
        let key = (model.game, setup.clone());
        let mut solved = self
            .solutions
            .solved
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(found) = solved.get(&key) {
            return Ok(Values::Solved(found.clone()));
        }
        let needed = game.solve_memory();
        let budget = self.maker.budget();
        if needed > budget {
            return Err(TablebaseError::TooLarge {
                game: model.game,
                shape: setup.shape,
                needed,
                budget,
            }
            .into());
        }
        // One game in memory at a time past the first: the budget is for
        // each table made, as Euler's.
        let held: u64 = solved.values().map(|s| s.len() as u64 * 2).sum();
        if held + needed > budget {
            solved.clear();
        }
        let made = Arc::new(game.solve().map_err(|error| TablebaseError::Solve {
            game: model.game,
            shape: setup.shape,
            error,
        })?);
        solved.insert(key, made.clone());
        Ok(Values::Solved(made))
    }
}
