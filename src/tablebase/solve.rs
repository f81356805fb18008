//! The one question every two-player game of the model is asked: the value
//! of a position for the player to move, its remoteness, and every move
//! valued, best first ([`Tablebase::solve`]), whatever the game. The answer
//! layer chooses where the values come from: the Game of Euler's own
//! tables (embedded, a file, made in memory), and for the other games a
//! table file of the setup in the table directories (`mnk-4x4-k4.bin`, as
//! `boardbase generate` writes them), else the generic retrograde analysis,
//! made in memory once a setup and kept.

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use boardbase_tables::game::retrograde::Solved;
use boardbase_tables::game::{Outcome, Value};
use serde::Serialize;

use super::{Error, EulerSource, Origin, Tablebase};
use crate::catalogue::{AnyGame, Model, Setup};
use crate::euler;
use crate::tablefile::{GameTable, Puzzle, TableError};

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
    #[serde(serialize_with = "crate::catalogue::model::value_name")]
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
    #[serde(serialize_with = "crate::catalogue::model::value_name")]
    pub value: Value,
    /// Its remoteness (`None` for a draw, or where the source holds
    /// values only).
    pub remoteness: Option<u16>,
}

/// One setup's values: empty until found. Its own lock makes the setup
/// solved (or its file opened) once however many ask at a time, while
/// other setups go on.
type Slot = Arc<Mutex<Option<Held>>>;

/// A setup's values as kept: solved in memory, or a table file mapped.
#[derive(Clone)]
enum Held {
    Solved(Arc<Solved>),
    File(Arc<GameTable>, PathBuf),
}

impl Held {
    /// The memory it takes (a mapped file takes none of the budget).
    fn bytes(&self) -> u64 {
        match self {
            Held::Solved(solved) => solved.len() as u64 * 2,
            Held::File(..) => 0,
        }
    }
}

/// The games solved in memory, by setup: each solved once, then kept while
/// the memory for games solved in memory holds them. The map's lock is
/// held only to find a slot, never while a game is solved.
#[derive(Default)]
pub(super) struct Solutions {
    solved: Mutex<HashMap<(&'static str, Setup), Slot>>,
}

/// A lock, whether or not a thread panicked holding it (what it guards is
/// whole between statements).
fn locked<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Where the values of one setup's positions come from.
enum Values {
    Euler(Arc<dyn EulerSource>),
    Held(Held),
}

impl Values {
    /// The outcome of `position` of `game` (`None`: not a position).
    fn outcome(&self, game: &dyn AnyGame, position: u64) -> Result<Option<Outcome>, TableError> {
        match self {
            Values::Held(Held::Solved(solved)) => Ok(solved.outcome(game.canonical(position))),
            Values::Held(Held::File(table, _)) => table.outcome(game, position),
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
    /// them); every other game from the setup's table file in the table
    /// directories ([`GameTable::file_name_of`]: `mnk-4x4-k4.bin`, mapped,
    /// each block checked at its first read), else solved in memory by
    /// retrograde analysis the first time a setup is asked, within the
    /// memory for tables made in memory ([`Tablebase::set_make_memory`]),
    /// and kept.
    ///
    /// ```
    /// use boardbase::catalogue;
    /// use boardbase::tables::game::Value;
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
        let game = model.make(setup).map_err(Error::Setup)?;
        let position = match query {
            Query::Start => game.start(),
            Query::Text(text) => game.read_position(text).map_err(Error::Board)?,
        };
        let values = self.values(model, setup, &*game)?;
        let damaged = |e: TableError| match &values {
            Values::Held(Held::File(_, path)) => Error::Probe {
                origin: Origin::File(path.clone()),
                error: e,
            },
            _ => self.damaged(Puzzle::Euler, setup.shape, e),
        };
        let remoteness = |o: Outcome| o.remoteness().filter(|&r| r != UNKNOWN);
        let outcome = values
            .outcome(&*game, position)
            .map_err(damaged)?
            .ok_or(Error::NotAPosition)?;
        let mut moves = Vec::new();
        for (text, after) in game.moves(position) {
            let child = values
                .outcome(&*game, after)
                .map_err(damaged)?
                .ok_or(Error::NotAPosition)?;
            moves.push((child, text));
        }
        // Best first for the mover; a stable sort keeps the game's order
        // among equals.
        moves.sort_by(|(a, _), (b, _)| b.through_move().preference(a.through_move()));
        Ok(Solution {
            game: model.game,
            size: setup.shape.to_string(),
            options: setup.named(model),
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

    /// Whether [`Tablebase::solve`] answers `setup` at once: its values are
    /// at hand (Euler's table is, or the game was solved before), or the
    /// question is refused before any work. A server answers these on the
    /// thread that asks, and solves the others on a worker.
    pub fn solve_is_ready(&self, model: &Model, setup: &Setup) -> bool {
        if model.check(setup).is_err() {
            return true;
        }
        if model.game == crate::euler::MODEL.game {
            return !matches!(self.euler(setup.shape), Ok(None));
        }
        // Never waits: a slot being solved, or a map another thread holds,
        // is not ready. A setup's file is looked for only when no values
        // are held (a question answered before costs no file system call).
        let held = self.solutions.solved.try_lock().is_ok_and(|map| {
            map.get(&(model.game, setup.clone()))
                .is_some_and(|slot| slot.try_lock().is_ok_and(|solved| solved.is_some()))
        });
        held || self.game_file(model, setup).is_some()
    }

    /// Where the values of `setup`'s positions come from: Euler's tables,
    /// or the game solved in memory (now, if it was not before).
    fn values(&self, model: &Model, setup: &Setup, game: &dyn AnyGame) -> Result<Values, Error> {
        if model.game == crate::euler::MODEL.game {
            return Ok(Values::Euler(self.euler_made(setup.shape, |_| {})?));
        }
        let key = (model.game, setup.clone());
        // Values held already: no file system call on the way.
        let known = locked(&self.solutions.solved).get(&key).cloned();
        if let Some(found) = known.and_then(|slot| locked(&slot).clone()) {
            return Ok(Values::Held(found));
        }
        if let Some(path) = self.game_file(model, setup) {
            let slot = locked(&self.solutions.solved)
                .entry(key)
                .or_default()
                .clone();
            let mut held = locked(&slot);
            if let Some(found) = &*held {
                return Ok(Values::Held(found.clone()));
            }
            let open = |error| Error::Open {
                path: path.clone(),
                error,
            };
            let table = GameTable::open_game(&path).map_err(open)?;
            if !table.is_of(model, setup, game) {
                return Err(open(TableError::OtherGame {
                    found: table.file_name(),
                    expected: GameTable::file_name_of(model, setup),
                }));
            }
            let found = Held::File(Arc::new(table), path);
            *held = Some(found.clone());
            return Ok(Values::Held(found));
        }
        let needed = game.solve_memory();
        let budget = self.maker.budget();
        if needed > budget {
            return Err(Error::TooLarge {
                game: model.game,
                shape: setup.shape,
                needed,
                budget,
            });
        }
        let slot = {
            let mut map = locked(&self.solutions.solved);
            if !map.contains_key(&key) {
                // Room for this one: the games solved before are dropped
                // when they and it would pass the budget (one at a time past
                // the first, as Euler's tables made in memory).
                let held: u64 = map
                    .values()
                    .filter_map(|slot| slot.try_lock().ok()?.as_ref().map(Held::bytes))
                    .sum();
                if held + needed > budget {
                    map.retain(|_, slot| slot.try_lock().is_err());
                }
            }
            map.entry(key).or_default().clone()
        };
        let mut solution = locked(&slot);
        if let Some(found) = &*solution {
            return Ok(Values::Held(found.clone()));
        }
        let made = Arc::new(game.solve().map_err(|error| Error::Solve {
            game: model.game,
            shape: setup.shape,
            error,
        })?);
        *solution = Some(Held::Solved(made.clone()));
        Ok(Values::Held(Held::Solved(made)))
    }

    /// The table file of `setup` in the table directories (the first
    /// directory that has one), not opened.
    fn game_file(&self, model: &Model, setup: &Setup) -> Option<PathBuf> {
        let name = GameTable::file_name_of(model, setup);
        self.dirs()
            .iter()
            .map(|dir| dir.join(&name))
            .find(|path| path.is_file())
    }
}
