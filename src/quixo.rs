//! Quixo, the game of pushed cubes GamesmanOne solves: on an R×C board of
//! blank cubes, a player takes a border cube that is blank or shows their
//! symbol, turns it to their symbol and pushes it back in at an end of its
//! row or column; `k` in a row wins (by default the board's side, as on
//! GamesmanOne's 3×3, 4×4 and 5×5 boards), and a push that makes a line
//! for both players loses for the player who made it. The standard game is
//! 5×5.
//!
//! The rules and the text are the model's
//! ([`tables::quixo`](crate::tables::quixo)); this is the game's
//! catalogue entry and its setup. Positions repeat: the retrograde
//! analysis finds the draws by counting undecided children. Every position
//! of a board is solved in memory, one entry a class of the board's
//! symmetries and the exchange of X and O: 3×3 in milliseconds, 4×4 (86
//! million position indices) in seconds with `--make-memory 2G`. Quixo
//! declares its tiers (the counts of each player's cubes), so `boardbase
//! generate` solves a board whose whole solve is over the memory limit one
//! tier at a time into a file: 4×5 (7 × 10^9 indices) in 81 minutes, 14 GiB
//! at its peak. 5×5 has 1.7 × 10^12 indices, past one machine.
//!
//! ```
//! use boardbase::catalogue;
//! use boardbase::tables::game::Value;
//! use boardbase::tables::shape::Shape;
//! use boardbase::tablebase::{Query, Tablebase};
//!
//! let model = catalogue::model("quixo").expect("in the catalogue");
//! let setup = model.setup(Shape::new(3, 3), &[])?; // k = 3
//! // The start is won for X, in 7 plies, as GamesmanOne finds it.
//! let solved = Tablebase::new().solve(model, &setup, Query::Start)?;
//! assert_eq!((solved.value, solved.remoteness), (Value::Win, Some(7)));
//! // GamesmanOne's position strings are read too.
//! let same = Tablebase::new().solve(model, &setup, Query::Text("1_---------"))?;
//! assert_eq!(same.remoteness, Some(7));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use boardbase_tables::quixo::{self, Quixo};

use crate::catalogue::entry::{Game, GameKind};
use crate::catalogue::model::{AnyGame, GameOption, Model, Setup, SetupError, Tiered};

/// Quixo in the [catalogue](crate::catalogue).
pub static GAME: Game = Game {
    name: "quixo",
    title: "Quixo",
    kind: GameKind::TwoPlayer,
    question: "push a border cube back in at an end of its line; k in a row wins (k = 0: the shorter side)",
    sizes: "3x3 solved in memory by default, 4x4 with --make-memory 2G or from a table file; generate writes 4x5's table tier by tier; 5x5 is past one machine",
    tables: true,
    problems: &[],
};

/// How Quixo is set up: a board (5×5 by default) and `k` (0 for the
/// board's shorter side).
pub static MODEL: Model = Model {
    game: "quixo",
    default_shape: Model::board(5, 5),
    max_cells: quixo::MAX_CELLS,
    options: &[GameOption::in_a_row_or_side(19)],
    make,
};

fn make(setup: &Setup) -> Result<Box<dyn AnyGame>, SetupError> {
    let shape = setup.shape;
    let k = match setup.options.first().copied().unwrap_or(0) as usize {
        0 => shape.rows().min(shape.cols()),
        k => k,
    };
    let game = Quixo::new(shape, k).ok_or(SetupError::Shape {
        game: "quixo",
        shape,
        why: if shape.rows() < 2 || shape.cols() < 2 {
            "a side shorter than 2 has no row or column to push along"
        } else if k > shape.rows().max(shape.cols()) {
            "k is longer than both sides"
        } else {
            "more cells than its positions can be indexed by"
        },
    })?;
    Ok(Box::new(Tiered(game)))
}
