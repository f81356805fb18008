//! Why a board was not counted, in one [`Error`]: the board or one of its
//! tiles refused (the question's), or the count that did not finish (past
//! its budget or told to stop); its [`Kind`] says which.

use crate::error::{Classify, Kind};

/// Why a board was not made or not counted: its size, its tile count or a
/// tile's code (from [`Board::new`](super::Board::new) and the tiles'
/// parsers), or the count past its memory budget or told to stop (from
/// [`count`](super::count)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// A side is 0.
    #[error("a board needs at least one row and one column, got {rows}x{cols}")]
    EmptySide {
        /// Rows asked for.
        rows: usize,
        /// Columns asked for.
        cols: usize,
    },
    /// Both sides exceed [`MAX_NARROW_SIDE`](super::MAX_NARROW_SIDE).
    #[error("a {rows}x{cols} board is too large: its narrower side must be at most {max}")]
    TooWide {
        /// Rows asked for.
        rows: usize,
        /// Columns asked for.
        cols: usize,
        /// [`MAX_NARROW_SIDE`](super::MAX_NARROW_SIDE).
        max: usize,
    },
    /// The number of tiles is not `rows × cols`.
    #[error("a {rows}x{cols} board needs rows × cols tiles, got {tiles}")]
    TileCount {
        /// Rows asked for.
        rows: usize,
        /// Columns asked for.
        cols: usize,
        /// Tiles given.
        tiles: usize,
    },
    /// A tile's code is not 4 bytes long.
    #[error("a tile is 4 letters, found {len} bytes")]
    TileLength {
        /// Length of the code in bytes.
        len: usize,
    },
    /// A tile's code has a byte other than `C`, `R` or `F`.
    #[error("tile edge {position} is {}, expected 'C', 'R' or 'F'", show_byte(*.byte))]
    TileLetter {
        /// 0-based position in the code (0 top, 1 right, 2 bottom, 3 left).
        position: usize,
        /// The offending byte.
        byte: u8,
    },
    /// More profile groups became reachable after one cell than the budget
    /// allows.
    #[error(
        "over {budget} groups of frontier profiles reachable after {placed} of {cells} tiles \
         (the narrower side is too wide for these tiles)"
    )]
    ProfileBudget {
        /// Groups produced when the count stopped (more than `budget`).
        groups: usize,
        /// The budget ([`GROUP_BUDGET`](super::GROUP_BUDGET) unless set otherwise).
        budget: usize,
        /// Tiles placed when it was exceeded, in the DP's cell order.
        placed: usize,
        /// Tiles on the board.
        cells: usize,
    },
    /// Finding a witness would store more profile groups over all cells
    /// than its budget.
    #[error("finding a witness would store over {budget} groups of frontier profiles")]
    WitnessBudget {
        /// The budget ([`WITNESS_BUDGET`](super::WITNESS_BUDGET) unless set otherwise).
        budget: usize,
    },
    /// [`count`](super::count)'s `stop` returned `true` before all the
    /// tiles were placed.
    #[error("stopped after {placed} of {cells} tiles")]
    Stopped {
        /// Tiles placed when the count stopped, in the DP's cell order.
        placed: usize,
        /// Tiles on the board.
        cells: usize,
    },
}

impl Classify for Error {
    /// Too wide to count ([`Kind::TooLarge`]), a tile's code that does not
    /// read ([`Kind::Syntax`]), not a board ([`Kind::Mismatch`]); past the
    /// DP's budget ([`Kind::Resource`]), or told to stop
    /// ([`Kind::Interrupted`]).
    fn kind(&self) -> Kind {
        match self {
            Error::TooWide { .. } => Kind::TooLarge,
            Error::TileLength { .. } | Error::TileLetter { .. } => Kind::Syntax,
            Error::EmptySide { .. } | Error::TileCount { .. } => Kind::Mismatch,
            Error::ProfileBudget { .. } | Error::WitnessBudget { .. } => Kind::Resource,
            Error::Stopped { .. } => Kind::Interrupted,
        }
    }
}

fn show_byte(byte: u8) -> String {
    if byte.is_ascii() {
        format!("{:?}", byte as char)
    } else {
        format!("byte 0x{byte:02x}")
    }
}
