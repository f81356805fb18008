//! Carcassonne: count the rotation choices of a board of tiles
//! that make every shared edge match.
//!
//! Each tile may be turned 0, 1, 2 or 3 quarter turns *clockwise* (a quarter
//! turn clockwise moves the top edge to the right, see [`Tile::rotated`]);
//! tiles keep their positions and are never flipped. All 4 turns of a tile
//! count, even when some look alike (a 1×1 `CCCC` board has 4 placements).
//!
//! # Algorithm
//!
//! A profile DP places the tiles one cell at a time, row by row, keeping a
//! weight for every reachable *profile*: the colours of the open frontier
//! edges, i.e. the bottom edge of each column plus the right edge of the
//! last placed tile, packed 2 bits a colour by the helpers of
//! [`boardbase_tables::carcassonne`].
//!
//! - The profile runs along the narrower side: a board wider than tall is
//!   transposed first, each tile reflected with
//!   [`reflect_transpose`](boardbase_tables::carcassonne::Tile::reflect_transpose)
//!   so its edges stay in clockwise order. Width `w ≤ 16` means `w + 1`
//!   slots, 34 bits.
//! - The frontier is kept *cyclic* (see [`boardbase_tables::carcassonne`]):
//!   placing a tile reads and writes only slots 0 and 1 (left/top in,
//!   bottom/right out), and a one-slot rotation brings the next cell's edges
//!   down to slots 0 and 1, across row ends too.
//! - Only reachable profiles are stored, in *groups*: the profiles sharing
//!   slots `2..=w` (the group key) form one record of 16 weights indexed by
//!   slots 0 and 1, with a 16-bit mask of the reachable ones. Groups are
//!   kept sorted by key, in four buckets by the key's top slot. Placing a
//!   tile and rotating maps the (up to four, consecutive) groups whose keys
//!   differ only in their lowest slot onto up to four new groups, one per
//!   bucket, each emitted in sorted order: a cell is one linear pass, with no
//!   hashing, no sorting, no merging and no scan of the `3^(w+1)` possible
//!   profiles.
//! - Identical rotations of a tile collapse into one transition with a
//!   multiplicity (`CCCC`: one transition ×4; `CFCF`: two ×2).
//! - One generic DP serves every answer, over a weight semiring: counts
//!   modulo [`MODULUS`], exact big-integer counts and bare reachability,
//!   whose stored layers let the witness walk back one valid placement.
//!   [`count`] is the one entry: [`CountOptions`] say which of them to
//!   give.
//!
//! # Budgets
//!
//! Memory is bounded by the number of stored groups, checked as they are
//! produced: past the cap [`count`] returns [`Error::ProfileBudget`]
//! or [`Error::WitnessBudget`] instead of
//! allocating more. Nothing is allocated in proportion to the board before
//! the DP runs.
//!
//! [`GROUP_BUDGET`] (`2^20` groups, up to `2^24` profiles) caps one layer of
//! counts modulo `p` at 80 MiB (80 bytes a group: key, mask and 16 × 4-byte
//! weights; two layers are live at once); exact counts take 400 bytes a
//! group plus the digits. A width-`w` board has at most `3^(w-1)` groups,
//! so only widths of 14 or more can reach the cap, and only with
//! adversarial tiles: random or planted 12×12 boards stay at a few hundred
//! groups, and boards of two-pair tiles such as `RRFF`, which keep all
//! `2^(w+1)` two-colour profiles reachable, need 2,048 groups for width 12
//! and 32,768 for width 16. A witness also keeps every layer's keys and
//! masks (10 bytes a group), at most [`WITNESS_BUDGET`] groups in all.
//!
//! Time is bounded by the caller: [`count`] asks a `stop` function before
//! each tile and returns [`Error::Stopped`] when it says so (a server
//! uses it for a deadline, a client that went away or a shutdown).
//!
//! # Files
//!
//! `tile.rs` the tiles and their codes, `board.rs` the board and its
//! one-line text, `count.rs` the entry and its options, `dp.rs` the DP and
//! its budgets, `error.rs` the one error (the board's refusals and the count's),
//! `judge.rs` the judge's input.

use std::time::Duration;

use boardbase_tables::carcassonne as packed;

use crate::catalogue::entry::{Game, GameKind, MB, Problem};

mod board;
mod count;
mod dp;
mod error;
mod judge;
mod tile;

pub use board::{Board, parse_rows};
pub use boardbase_tables::carcassonne::Colour;
pub use count::{CountOptions, Counted, count, count_all};
pub use dp::{Budget, GROUP_BUDGET, ProfileStats, WITNESS_BUDGET, profile_stats};
pub use error::Error;
pub use judge::{Case, MAX_TILES, read_case, read_case_count};
pub use tile::{TILE_CODES, Tile, TileCode};

/// Carcassonne in the [catalogue](crate::catalogue).
pub static GAME: Game = Game {
    name: "carcassonne",
    title: "Carcassonne",
    kind: GameKind::Count,
    question: "tile rotations that match every shared edge",
    sizes: "any board with a side of at most 16 tiles",
    tables: false,
    problems: &[&HDU_4064],
};

/// HDU 4064: boards of four-letter tiles, the count modulo 1,000,000,007.
pub static HDU_4064: Problem = Problem {
    command: "carcassonne",
    judge: "HDU 4064",
    time_limit: Duration::from_secs(1),
    memory_limit: 64 * MB,
    noun: ("board", "boards"),
    max_cases: 50,
    limits: "allows T ≤ 50 and N, M ≤ 12",
};

/// Counts are reported modulo this prime, 1,000,000,007.
pub const MODULUS: u64 = 1_000_000_007;

/// The largest narrower side a board may have.
pub const MAX_NARROW_SIDE: usize = packed::MAX_WIDTH;
