//! A two-player game of the model as front ends and the answer layer see
//! it, whatever its rules: set up on a board with its options ([`Model`],
//! [`Setup`]), then played through position indices and the game's own
//! text ([`AnyGame`], implemented for every game of
//! [`tables::game`](crate::tables::game) that has [`Text`], and for a game
//! with [`Tiers`] made as [`Tiered`]).

use std::fmt;

use boardbase_tables::game::retrograde::{self, Inconsistent, Resume, Snapshot, Solved, Step};
use boardbase_tables::game::{Outcome, Rules, SolveError, Text, Tiers, TwoPlayer, Value};
use boardbase_tables::shape::Shape;

use super::tiered::AnyTiers;
use crate::error::ParseError;

/// Serializes a [`Value`] as its name (`win`, `lose`, `draw`), for the
/// answers and summaries that carry one (`#[serde(serialize_with)]`).
pub(crate) fn value_name<S: serde::Serializer>(value: &Value, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(value.name())
}

/// A numeric option of a game (`k`, the stones in a row that win).
#[derive(Debug, PartialEq, Eq)]
pub struct GameOption {
    /// Its name on the command line (`--k`), in the server's queries and
    /// in Python.
    pub name: &'static str,
    /// What it means, in a few words.
    pub help: &'static str,
    /// Its value when not given.
    pub default: u64,
    /// The least value taken.
    pub min: u64,
    /// The greatest value taken.
    pub max: u64,
    /// Whether 0 stands for the board's shorter side (Quixo's `k`, whose
    /// boards GamesmanOne plays with k the side): [`Model::setup`] puts the
    /// side in its place, so that a game set up either way is one setup,
    /// with one table file's name.
    pub zero_is_side: bool,
}

impl GameOption {
    /// `k`, how many in a row win, from `min` to `max`: the option of the
    /// games of lines (m,n,k-games, Connect Four, Quixo).
    pub const fn in_a_row(default: u64, min: u64, max: u64) -> GameOption {
        GameOption {
            name: "k",
            help: "how many in a row win",
            default,
            min,
            max,
            zero_is_side: false,
        }
    }

    /// `k`, how many in a row win, from 0 to `max`, 0 (the default) for
    /// the board's shorter side.
    pub const fn in_a_row_or_side(max: u64) -> GameOption {
        GameOption {
            zero_is_side: true,
            ..GameOption::in_a_row(0, 0, max)
        }
    }
}

/// A game set up: its board and the value of each of its options, in the
/// order of [`Model::options`].
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Setup {
    /// The board.
    pub shape: Shape,
    /// The options' values.
    pub options: Vec<u64>,
}

impl Setup {
    /// `model`'s default board with every option at its default.
    pub fn default_of(model: &Model) -> Setup {
        Setup {
            shape: model.default_shape,
            options: model.options.iter().map(|o| o.default).collect(),
        }
    }

    /// The options' values by name, `model`'s options in order.
    pub fn named(&self, model: &Model) -> std::collections::BTreeMap<&'static str, u64> {
        model
            .options
            .iter()
            .map(|o| o.name)
            .zip(self.options.iter().copied())
            .collect()
    }

    /// The value of the option called `name`, if `model` has it.
    pub fn option(&self, model: &Model, name: &str) -> Option<u64> {
        let i = model.options.iter().position(|o| o.name == name)?;
        self.options.get(i).copied()
    }
}

/// Why a game cannot be set up as asked.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// The board is not one the game is played on.
    #[error("{game} is not played on a {shape} board: {why}")]
    Shape {
        /// The game.
        game: &'static str,
        /// The board asked for.
        shape: Shape,
        /// Why, in words.
        why: &'static str,
    },
    /// An option's value is out of its range.
    #[error("{name} = {value}: {game} takes {name} from {min} to {max}")]
    Option {
        /// The game.
        game: &'static str,
        /// The option.
        name: &'static str,
        /// The value given.
        value: u64,
        /// The least value taken.
        min: u64,
        /// The greatest value taken.
        max: u64,
    },
    /// An option the game does not have.
    #[error("{game} has no option {name}")]
    Unknown {
        /// The game.
        game: &'static str,
        /// The option named.
        name: String,
    },
}

/// How a two-player game of the model is set up: its options, its default
/// board, and the game itself made for a [`Setup`].
pub struct Model {
    /// The game's name, as in its catalogue entry.
    pub game: &'static str,
    /// The board when none is asked for.
    pub default_shape: Shape,
    /// The most cells of a board it is played on.
    pub max_cells: usize,
    /// Its options, with their defaults.
    pub options: &'static [GameOption],
    /// The game on a board with its options (already checked against
    /// their ranges and `max_cells`).
    pub make: fn(&Setup) -> Result<Box<dyn AnyGame>, SetupError>,
}

impl fmt::Debug for Model {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Model")
            .field("game", &self.game)
            .field("default_shape", &self.default_shape)
            .field("options", &self.options)
            .finish()
    }
}

impl Model {
    /// The board of `rows` × `cols` cells, for a model's
    /// [`default_shape`](Model::default_shape): in a `static`, sizes that
    /// make no board stop the build.
    pub const fn board(rows: usize, cols: usize) -> Shape {
        match Shape::new(rows, cols) {
            Some(shape) => shape,
            None => panic!("not a board's size"),
        }
    }

    /// A setup of this game: `shape` (the default board when `None`) and
    /// the options given by name (the others at their defaults), checked.
    pub fn setup(&self, shape: Option<Shape>, given: &[(&str, u64)]) -> Result<Setup, SetupError> {
        let mut setup = Setup::default_of(self);
        if let Some(shape) = shape {
            setup.shape = shape;
        }
        for &(name, value) in given {
            let Some(i) = self.options.iter().position(|o| o.name == name) else {
                return Err(SetupError::Unknown {
                    game: self.game,
                    name: name.to_owned(),
                });
            };
            setup.options[i] = value;
        }
        let side = setup.shape.rows().min(setup.shape.cols()) as u64;
        for (option, value) in self.options.iter().zip(&mut setup.options) {
            if option.zero_is_side && *value == 0 {
                *value = side;
            }
        }
        self.check(&setup)?;
        Ok(setup)
    }

    /// Whether `setup` is one this game is played with.
    pub fn check(&self, setup: &Setup) -> Result<(), SetupError> {
        if setup.shape.cells() > self.max_cells {
            return Err(SetupError::Shape {
                game: self.game,
                shape: setup.shape,
                why: "more cells than its positions can be indexed by",
            });
        }
        for (option, &value) in self.options.iter().zip(&setup.options) {
            if !(option.min..=option.max).contains(&value) {
                return Err(SetupError::Option {
                    game: self.game,
                    name: option.name,
                    value,
                    min: option.min,
                    max: option.max,
                });
            }
        }
        Ok(())
    }

    /// The game set up as `setup` says.
    pub fn make(&self, setup: &Setup) -> Result<Box<dyn AnyGame>, SetupError> {
        self.check(setup)?;
        (self.make)(setup)
    }
}

/// A two-player game on one board, whatever its rules: what the answer
/// layer and the front ends need of it. Every game of the model with
/// [`Text`] is one.
pub trait AnyGame: Send + Sync {
    /// The number of position indices.
    fn positions(&self) -> u64;
    /// The position the game starts from.
    fn start(&self) -> u64;
    /// The canonical position of `position`'s class.
    fn canonical(&self, position: u64) -> u64;
    /// Whether `position` can occur.
    fn is_legal(&self, position: u64) -> bool;
    /// The value of a finished position for the player to move, `None`
    /// while the game goes on.
    fn primitive(&self, position: u64) -> Option<Value>;
    /// Reads a position of the game's text.
    fn read_position(&self, text: &str) -> Result<u64, ParseError>;
    /// The position's text, rows joined by `/`.
    fn position_text(&self, position: u64) -> String;
    /// How many lines a position's text takes written one row a line,
    /// `None` for one a row of the board ([`Text::position_lines`]).
    fn position_lines(&self) -> Option<usize>;
    /// Every move of `position` in the game's order: its text and the
    /// position after it.
    fn moves(&self, position: u64) -> Vec<(String, u64)>;
    /// Every position solved by retrograde analysis.
    fn solve(&self) -> Result<Solved, SolveError> {
        self.solve_with(&mut |_| true)
    }
    /// [`solve`](Self::solve), reporting to `progress`, which returns
    /// `false` to stop it ([`retrograde::solve_with`]).
    fn solve_with(&self, progress: &mut dyn FnMut(Step) -> bool) -> Result<Solved, SolveError>;
    /// [`solve_with`](Self::solve_with) from a saved state, offering
    /// snapshots to `save` ([`retrograde::solve_resumable`]).
    fn solve_resumable(
        &self,
        resume: Option<Resume>,
        progress: &mut dyn FnMut(Step) -> bool,
        save: &mut dyn FnMut(Snapshot<'_>) -> bool,
    ) -> Result<Solved, SolveError>;
    /// The canonical positions reachable from the start, of each value
    /// (won, lost, drawn): [`Solved::reachable_counts`], `progress` told
    /// the positions counted so far.
    fn reachable_counts(
        &self,
        solved: &Solved,
        progress: &mut dyn FnMut(u64) -> bool,
    ) -> Result<[u64; 3], SolveError>;
    /// Checks a table of outcomes, one a position index, by the rules
    /// ([`retrograde::check`]).
    fn check(
        &self,
        outcome: &mut dyn FnMut(u64) -> Option<Outcome>,
        progress: &mut dyn FnMut(Step) -> bool,
    ) -> Result<Result<(), Inconsistent>, SolveError>;
    /// The bytes [`solve`](Self::solve) needs at most: two a position index
    /// for the values, two for the counts and up to eight for its queue.
    fn solve_memory(&self) -> u64 {
        self.positions().saturating_mul(12)
    }
    /// The game's tiers, where it declares them ([`Tiers`]): the
    /// generator then solves one tier at a time. `None` by default; a
    /// catalogue entry makes a game with tiers as [`Tiered`].
    ///
    /// [`Tiers`]: boardbase_tables::game::Tiers
    fn tiers(&self) -> Option<&dyn AnyTiers> {
        None
    }
}

impl<G> AnyGame for G
where
    G: TwoPlayer + Text + Send + Sync,
{
    fn positions(&self) -> u64 {
        Rules::positions(self)
    }

    fn start(&self) -> u64 {
        TwoPlayer::start(self)
    }

    fn canonical(&self, position: u64) -> u64 {
        Rules::canonical(self, position)
    }

    fn is_legal(&self, position: u64) -> bool {
        Rules::is_legal(self, position)
    }

    fn primitive(&self, position: u64) -> Option<Value> {
        TwoPlayer::primitive(self, position)
    }

    fn read_position(&self, text: &str) -> Result<u64, ParseError> {
        Text::read_position(self, text)
    }

    fn position_text(&self, position: u64) -> String {
        let mut text = String::new();
        // Writing into a String cannot fail.
        let _ = self.write_position(position, &mut text);
        text.replace('\n', "/")
    }

    fn position_lines(&self) -> Option<usize> {
        Text::position_lines(self)
    }

    fn moves(&self, position: u64) -> Vec<(String, u64)> {
        let mut moves = Vec::new();
        self.for_each_move(position, |mv| {
            let mut text = String::new();
            let _ = self.write_move(position, mv, &mut text);
            moves.push((text, self.play(position, mv)));
        });
        moves
    }

    fn solve_with(&self, progress: &mut dyn FnMut(Step) -> bool) -> Result<Solved, SolveError> {
        retrograde::solve_with(self, progress)
    }

    fn solve_resumable(
        &self,
        resume: Option<Resume>,
        progress: &mut dyn FnMut(Step) -> bool,
        save: &mut dyn FnMut(Snapshot<'_>) -> bool,
    ) -> Result<Solved, SolveError> {
        retrograde::solve_resumable(self, resume, progress, save)
    }

    fn reachable_counts(
        &self,
        solved: &Solved,
        progress: &mut dyn FnMut(u64) -> bool,
    ) -> Result<[u64; 3], SolveError> {
        solved.reachable_counts(self, progress)
    }

    fn check(
        &self,
        outcome: &mut dyn FnMut(u64) -> Option<Outcome>,
        progress: &mut dyn FnMut(Step) -> bool,
    ) -> Result<Result<(), Inconsistent>, SolveError> {
        retrograde::check(self, outcome, progress)
    }
}

/// A game of the model that declares tiers, as its catalogue entry makes
/// it: an [`AnyGame`] like any other, whose [`tiers`](AnyGame::tiers) are
/// the game's.
#[derive(Clone, Debug)]
pub struct Tiered<G>(pub G);

impl<G> AnyGame for Tiered<G>
where
    G: Tiers + Text + Send + Sync,
{
    fn positions(&self) -> u64 {
        AnyGame::positions(&self.0)
    }

    fn start(&self) -> u64 {
        AnyGame::start(&self.0)
    }

    fn canonical(&self, position: u64) -> u64 {
        AnyGame::canonical(&self.0, position)
    }

    fn is_legal(&self, position: u64) -> bool {
        AnyGame::is_legal(&self.0, position)
    }

    fn primitive(&self, position: u64) -> Option<Value> {
        AnyGame::primitive(&self.0, position)
    }

    fn read_position(&self, text: &str) -> Result<u64, ParseError> {
        AnyGame::read_position(&self.0, text)
    }

    fn position_text(&self, position: u64) -> String {
        AnyGame::position_text(&self.0, position)
    }

    fn position_lines(&self) -> Option<usize> {
        AnyGame::position_lines(&self.0)
    }

    fn moves(&self, position: u64) -> Vec<(String, u64)> {
        AnyGame::moves(&self.0, position)
    }

    fn solve_with(&self, progress: &mut dyn FnMut(Step) -> bool) -> Result<Solved, SolveError> {
        AnyGame::solve_with(&self.0, progress)
    }

    fn solve_resumable(
        &self,
        resume: Option<Resume>,
        progress: &mut dyn FnMut(Step) -> bool,
        save: &mut dyn FnMut(Snapshot<'_>) -> bool,
    ) -> Result<Solved, SolveError> {
        AnyGame::solve_resumable(&self.0, resume, progress, save)
    }

    fn reachable_counts(
        &self,
        solved: &Solved,
        progress: &mut dyn FnMut(u64) -> bool,
    ) -> Result<[u64; 3], SolveError> {
        AnyGame::reachable_counts(&self.0, solved, progress)
    }

    fn check(
        &self,
        outcome: &mut dyn FnMut(u64) -> Option<Outcome>,
        progress: &mut dyn FnMut(Step) -> bool,
    ) -> Result<Result<(), Inconsistent>, SolveError> {
        AnyGame::check(&self.0, outcome, progress)
    }

    fn solve_memory(&self) -> u64 {
        AnyGame::solve_memory(&self.0)
    }

    fn tiers(&self) -> Option<&dyn AnyTiers> {
        Some(&self.0)
    }
}
