//! Teeko, John Scarne's game of four pieces a side, as GamesmanOne's
//! `src/games/teeko/teeko.c` plays it: on a 5×5 board Black (`X`, first)
//! and Red (`O`) drop their four pieces in turn on empty cells, then slide
//! one piece a move to an empty cell next to it (in any of the eight
//! directions); four in a row (across, down, diagonal) or on the corners
//! of a 2×2 square wins, and with `--advanced 1` (GamesmanOne's
//! "Advanced" winning rule) on the corners of any larger square too.
//!
//! The rules and the text are the model's
//! ([`tables::teeko`](crate::tables::teeko)); this is the game's catalogue
//! entry and its setup. Positions repeat once the pieces slide: the
//! retrograde analysis finds the draws by counting undecided children.
//! 5×5 has 172 million position indices (ranks of X's and O's cells,
//! phase by phase), solved in memory with `--make-memory 2G` or made into
//! a table file by `boardbase generate teeko 5x5` (about four minutes of
//! CPU time): the start is a draw, as Guy Steele found, and 21,500,830
//! classes of the board's symmetries are reachable from it. Boards other than 5×5
//! (9 to 64 cells) are boardbase's own, small ones solved in milliseconds.
//!
//! ```
//! use boardbase::catalogue;
//! use boardbase::tables::game::Value;
//! use boardbase::tables::shape::Shape;
//! use boardbase::tablebase::{Query, Tablebase};
//!
//! let model = catalogue::model("teeko").expect("in the catalogue");
//! let setup = model.setup(Shape::new(3, 4), &[])?;
//! // X X X .
//! // O O O .
//! // . X . .    every piece placed but O's fourth, O to move: the drop
//! //            on d2 wins (four in a row), and so does none other.
//! let solved = Tablebase::new().solve(model, &setup, Query::Text("XXX./OOO./.X../O"))?;
//! assert_eq!((solved.value, solved.remoteness), (Value::Win, Some(1)));
//! // GamesmanOne's position strings are read too.
//! let same = Tablebase::new().solve(model, &setup, Query::Text("2_XXX-OOO--X--"))?;
//! assert_eq!(same.remoteness, Some(1));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use boardbase_tables::teeko::{self, Teeko};

use crate::catalogue::entry::{Game, GameKind};
use crate::catalogue::model::{AnyGame, GameOption, Model, Setup, SetupError};

/// Teeko in the [catalogue](crate::catalogue).
pub static GAME: Game = Game {
    name: "teeko",
    title: "Teeko",
    kind: GameKind::TwoPlayer,
    question: "drop four pieces each, then slide one to a neighbouring cell; four in a row or on a 2x2 square's corners wins",
    sizes: "5x5 (172 million indices) solved in memory with --make-memory 2G or from a table file; other boards of 9 to 64 cells",
    tables: true,
    problems: &[],
};

/// How Teeko is set up: a board (5×5 by default) and the winning rule
/// (`advanced`: 0 standard, 1 the larger squares' corners win too).
pub static MODEL: Model = Model {
    game: "teeko",
    default_shape: Model::board(5, 5),
    max_cells: teeko::MAX_CELLS,
    options: &[GameOption {
        name: "advanced",
        help: "1: the corners of any square win, not only of a 2x2 one",
        default: 0,
        min: 0,
        max: 1,
        zero_is_side: false,
    }],
    make,
};

fn make(setup: &Setup) -> Result<Box<dyn AnyGame>, SetupError> {
    let advanced = setup.options.first().copied().unwrap_or(0) == 1;
    let game = Teeko::new(setup.shape, advanced).ok_or(SetupError::Shape {
        game: "teeko",
        shape: setup.shape,
        why: "fewer than 9 cells leave the eight pieces no cell to slide to",
    })?;
    Ok(Box::new(game))
}
