//! Connect Four: two players drop X and O in turn (X first) into the
//! columns of an R×C board, each piece falling to the lowest empty cell,
//! and the first with `k` in a row (4 by default) wins; a full board
//! without one is a draw. The standard game is 6×7.
//!
//! The rules and the text are the model's
//! ([`tables::connect4`](crate::tables::connect4)); this is the game's
//! catalogue entry and its setup. Every position of a board is solved in
//! memory by retrograde analysis (one entry a pair of mirror images) the
//! first time it is asked: up to 4×5 and 5×4 in the default memory; the
//! standard 6×7 indexes 5.3 × 10^14 positions, far past one machine's
//! memory at 12 bytes an index.
//!
//! ```
//! use boardbase::catalogue;
//! use boardbase::tables::game::Value;
//! use boardbase::tables::shape::Shape;
//! use boardbase::tablebase::{Query, Tablebase};
//!
//! let model = catalogue::model("connect4").expect("in the catalogue");
//! let setup = model.setup(Shape::new(4, 4), &[])?;
//! // . . . .
//! // X . . .
//! // X O . .
//! // X O O .     X to move wins at once on the first column.
//! let solved = Tablebase::new().solve(model, &setup, Query::Text("..../X.../XO../XOO."))?;
//! assert_eq!((solved.value, solved.remoteness), (Value::Win, Some(1)));
//! assert_eq!(solved.moves[0].text, "a");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use boardbase_tables::connect4::{self, Connect4};

use crate::catalogue::entry::{Game, GameKind};
use crate::catalogue::model::{AnyGame, GameOption, Model, Setup, SetupError};

/// Connect Four in the [catalogue](crate::catalogue).
pub static GAME: Game = Game {
    name: "connect4",
    title: "Connect Four",
    kind: GameKind::TwoPlayer,
    question: "pieces fall down their column; k in a row wins (4 by default)",
    sizes: "boards up to 4x5 and 5x4 solved in memory by default (more with --make-memory); 6x7 is past one machine",
    tables: true,
    problems: &[],
};

/// How Connect Four is set up: a board (6×7 by default) and `k`.
pub static MODEL: Model = Model {
    game: "connect4",
    default_shape: Model::board(6, 7),
    // The most cells of a board whose positions a u64 indexes: 62x1.
    max_cells: 62,
    options: &[GameOption::in_a_row(4, 1, 62)],
    make,
};

fn make(setup: &Setup) -> Result<Box<dyn AnyGame>, SetupError> {
    let k = setup.options.first().copied().unwrap_or(4) as usize;
    let game = Connect4::new(setup.shape, k).ok_or(SetupError::Shape {
        game: "connect4",
        shape: setup.shape,
        why: if setup.shape.cols() > connect4::MAX_COLS {
            "more than 26 columns (each is named by a letter)"
        } else {
            "more positions than a 64-bit index holds"
        },
    })?;
    Ok(Box::new(game))
}
