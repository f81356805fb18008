//! m,n,k-games, tic-tac-toe's family: two players place X and O in turn (X
//! first) on an R×C board, and the first with `k` in a row (across, down or
//! along a diagonal) wins; a full board without one is a draw. Tic-tac-toe
//! is 3×3 with k = 3, the default.
//!
//! The rules and the text are the model's
//! ([`tables::mnk`](crate::tables::mnk)); this is the game's catalogue
//! entry and its setup. Every position is solved in memory by retrograde
//! analysis, one entry a class of the board's symmetries.
//!
//! ```
//! use boardbase::catalogue;
//! use boardbase::tables::game::Value;
//! use boardbase::tablebase::{Query, Tablebase};
//!
//! let model = catalogue::model("mnk").expect("in the catalogue");
//! let setup = model.setup(None, &[])?; // 3×3, k = 3: tic-tac-toe
//! // X . .
//! // . O .
//! // . . .     X to move draws whatever it does well.
//! let solved = Tablebase::new().solve(model, &setup, Query::Text("X../.O./..."))?;
//! assert_eq!(solved.value, Value::Draw);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use boardbase_tables::mnk::{self, Mnk};

use crate::catalogue::entry::{Game, GameKind};
use crate::catalogue::model::{AnyGame, GameOption, Model, Setup, SetupError};

/// m,n,k-games in the [catalogue](crate::catalogue).
pub static GAME: Game = Game {
    name: "mnk",
    title: "m,n,k-game",
    kind: GameKind::TwoPlayer,
    question: "k in a row wins (tic-tac-toe is 3x3, k = 3)",
    sizes: "any board up to 40 cells, solved in memory (3^cells positions) or from a table file",
    tables: true,
    problems: &[],
};

/// How an m,n,k-game is set up: a board (3×3 by default) and `k`.
pub static MODEL: Model = Model {
    game: "mnk",
    default_shape: Model::board(3, 3),
    max_cells: mnk::MAX_CELLS,
    options: &[GameOption::in_a_row(3, 1, mnk::MAX_CELLS as u64)],
    make,
};

fn make(setup: &Setup) -> Result<Box<dyn AnyGame>, SetupError> {
    let k = setup.options.first().copied().unwrap_or(3) as usize;
    let game = Mnk::new(setup.shape, k).ok_or(SetupError::Shape {
        game: "mnk",
        shape: setup.shape,
        why: "more cells than its positions can be indexed by",
    })?;
    Ok(Box::new(game.with_symmetry()))
}
