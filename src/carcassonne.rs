//! Carcassonne (HDU 4064): count the rotation choices of a board of tiles
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
//! [`boardbase_solvers::carcassonne`].
//!
//! - The profile runs along the narrower side: a board wider than tall is
//!   transposed first, each tile reflected with
//!   [`reflect_transpose`](boardbase_solvers::carcassonne::Tile::reflect_transpose)
//!   so its edges stay in clockwise order. Width `w ≤ 16` means `w + 1`
//!   slots, 34 bits.
//! - The frontier is kept *cyclic* (see [`boardbase_solvers::carcassonne`]):
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
//!   modulo [`MODULUS`] ([`count`]), exact big-integer counts
//!   ([`count_exact`]) and bare reachability, whose stored layers let
//!   [`witness`] walk back one valid placement.
//!
//! # Budgets
//!
//! Memory is bounded by the number of stored groups, checked as they are
//! produced: past the cap the functions return
//! [`CountError::ProfileBudget`] or [`CountError::WitnessBudget`] instead of
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
//! and 32,768 for width 16. [`witness`] also keeps every layer's keys and
//! masks (10 bytes a group), at most [`WITNESS_BUDGET`] groups in all.
//!
//! Time is bounded by the caller: [`count_with_stop`], [`count_exact_with_stop`]
//! and [`witness_with_stop`] ask a `stop` function before each tile and
//! return [`StopError::Stopped`] when it says so (a server uses it for a
//! deadline, a client that went away or a shutdown).

use std::fmt;
use std::io::Read;
use std::str::FromStr;

use boardbase_solvers::carcassonne::{self as packed, NONE, Side};

use crate::error::{Found, ParseError};
use crate::input::{InputError, Scanner};
use num_bigint::BigUint;

pub use boardbase_solvers::carcassonne::Colour;

/// Counts are reported modulo this prime, 1,000,000,007.
pub const MODULUS: u64 = 1_000_000_007;

/// The largest narrower side a board may have.
pub const MAX_NARROW_SIDE: usize = packed::MAX_WIDTH;

/// The default cap on the profile groups reachable after any one cell
/// (`2^20`; a group holds up to 16 profiles, see the module documentation).
///
/// Counting modulo `p` stores 80 bytes a group, so one layer stays within
/// 80 MiB.
pub const GROUP_BUDGET: usize = 1 << 20;

/// The default cap on the profile groups [`witness`] stores over all cells
/// (`2^24`, 10 bytes each: 160 MiB).
pub const WITNESS_BUDGET: usize = 1 << 24;

/// A square tile: four edge colours clockwise from the top.
///
/// Parsed from and printed as its 4-letter code (`"CRFF"`: top City, right
/// Road, bottom and left Field).
///
/// ```
/// use boardbase::carcassonne::Tile;
/// let tile: Tile = "CRFF".parse().unwrap();
/// assert_eq!(tile.rotated(1).to_string(), "FCRF");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Tile(packed::Tile);

impl Tile {
    /// The tile with the given edges.
    pub const fn new(top: Colour, right: Colour, bottom: Colour, left: Colour) -> Tile {
        Tile(packed::Tile::new(top, right, bottom, left))
    }

    /// The edges clockwise from the top: `[top, right, bottom, left]`.
    pub const fn edges(self) -> [Colour; 4] {
        [
            self.0.edge(Side::Top),
            self.0.edge(Side::Right),
            self.0.edge(Side::Bottom),
            self.0.edge(Side::Left),
        ]
    }

    /// The tile turned `turns` quarter turns clockwise (taken mod 4): each
    /// turn moves the top edge to the right, the right edge to the bottom,
    /// the bottom edge to the left and the left edge to the top.
    pub const fn rotated(self, turns: u32) -> Tile {
        Tile(self.0.rotated(turns))
    }

    /// The packed form shared with [`boardbase_solvers::carcassonne`].
    pub const fn packed(self) -> packed::Tile {
        self.0
    }

    /// The tile of a packed tile.
    pub const fn from_packed(tile: packed::Tile) -> Tile {
        Tile(tile)
    }
}

/// Why a tile code was rejected.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TileParseError {
    /// The code is not 4 bytes long.
    #[error("a tile is 4 letters, found {len} bytes")]
    Length {
        /// Length of the code in bytes.
        len: usize,
    },
    /// A byte other than `C`, `R` or `F`.
    #[error("tile edge {position} is {}, expected 'C', 'R' or 'F'", show_byte(*.byte))]
    Letter {
        /// 0-based position in the code (0 top, 1 right, 2 bottom, 3 left).
        position: usize,
        /// The offending byte.
        byte: u8,
    },
}

fn show_byte(byte: u8) -> String {
    if byte.is_ascii() {
        format!("{:?}", byte as char)
    } else {
        format!("byte 0x{byte:02x}")
    }
}

/// A tile code's entry in [`TILE_CODES`]: the tile and its distinct
/// rotations.
#[derive(Clone, Copy, Debug)]
pub struct TileCode {
    /// The tile as written.
    pub tile: Tile,
    /// Its distinct rotations, each with the quarter turns that first give
    /// it and how many of the 4 turns give it (multiplicities add up to 4).
    pub rotations: &'static [packed::Rotation],
}

/// The packed tile of generated, known-valid bits.
const fn packed_tile(bits: u8) -> packed::Tile {
    match packed::Tile::from_bits(bits) {
        Some(tile) => tile,
        None => panic!("the generated tile codes hold valid tiles"),
    }
}

include!(concat!(env!("OUT_DIR"), "/carcassonne_tiles.rs"));

impl TileCode {
    /// Looks up a 4-letter code: one probe of the perfect-hash map.
    ///
    /// ```
    /// use boardbase::carcassonne::TileCode;
    /// let code = TileCode::lookup(b"CFCF").unwrap();
    /// // Two distinct rotations, each reached by 2 of the 4 turns.
    /// assert_eq!(code.rotations.iter().map(|r| r.multiplicity).collect::<Vec<_>>(), [2, 2]);
    /// assert!(TileCode::lookup(b"CFXF").is_none());
    /// ```
    #[inline]
    pub fn lookup(code: &[u8; 4]) -> Option<&'static TileCode> {
        TILE_CODES.get(code)
    }
}

impl TryFrom<&[u8]> for Tile {
    type Error = TileParseError;

    fn try_from(code: &[u8]) -> Result<Tile, TileParseError> {
        let Ok(letters) = <&[u8; 4]>::try_from(code) else {
            return Err(TileParseError::Length { len: code.len() });
        };
        match TileCode::lookup(letters) {
            Some(entry) => Ok(entry.tile),
            None => {
                // Not one of the 81 codes: name the first bad letter.
                let (position, &byte) = letters
                    .iter()
                    .enumerate()
                    .find(|(_, b)| Colour::from_letter(**b).is_none())
                    .unwrap_or((0, &letters[0]));
                Err(TileParseError::Letter { position, byte })
            }
        }
    }
}

impl FromStr for Tile {
    type Err = TileParseError;

    fn from_str(s: &str) -> Result<Tile, TileParseError> {
        Tile::try_from(s.as_bytes())
    }
}

impl fmt::Display for Tile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let letters = self.0.letters();
        // The letters are ASCII `C`, `R`, `F`.
        f.write_str(std::str::from_utf8(&letters).map_err(|_| fmt::Error)?)
    }
}

/// Why a board was rejected.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// A side is 0.
    #[error("a board needs at least one row and one column, got {rows}x{cols}")]
    EmptySide {
        /// Rows asked for.
        rows: usize,
        /// Columns asked for.
        cols: usize,
    },
    /// Both sides exceed [`MAX_NARROW_SIDE`].
    #[error("a {rows}x{cols} board is too large: its narrower side must be at most {max}")]
    TooWide {
        /// Rows asked for.
        rows: usize,
        /// Columns asked for.
        cols: usize,
        /// [`MAX_NARROW_SIDE`].
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
}

/// Reads a board written on one line, as `boardbase carcassonne --board`
/// takes it: rows separated by `/` (a trailing `/` allowed), the tiles of
/// a row separated by blanks or commas, every row as long as the first.
/// Errors name the column (in bytes) and what was found there.
///
/// ```
/// use boardbase::carcassonne::parse_rows;
///
/// // CRFC RRFF
/// // FFCC CRCR
/// let rows = parse_rows("CRFC RRFF/FFCC,CRCR")?;
/// assert_eq!(rows.len(), 2);
/// assert_eq!(rows[1][1].to_string(), "CRCR");
/// let bad = parse_rows("CRFÉ RRFF").unwrap_err();
/// assert_eq!((bad.line, bad.column), (1, 4));
/// # Ok::<(), boardbase::error::ParseError>(())
/// ```
pub fn parse_rows(text: &str) -> Result<Vec<Vec<Tile>>, ParseError> {
    let error = |column: usize, expected: &'static str, found: Found| ParseError {
        line: 1,
        column: column as u64 + 1,
        expected,
        found,
    };
    let separator = |b: u8| b == b' ' || b == b',' || b == b'\t';
    let bytes = text.as_bytes();
    let mut rows: Vec<Vec<Tile>> = Vec::new();
    let mut start = 0;
    loop {
        let end = bytes[start..]
            .iter()
            .position(|&b| b == b'/')
            .map_or(bytes.len(), |i| start + i);
        let mut row = Vec::new();
        let mut i = start;
        while i < end {
            if separator(bytes[i]) {
                i += 1;
                continue;
            }
            let stop = bytes[i..end]
                .iter()
                .position(|&b| separator(b))
                .map_or(end, |k| i + k);
            let code = &bytes[i..stop];
            // A letter that is no edge is named first, as a character.
            if let Some(k) = code.iter().position(|b| !b"CRF".contains(b)) {
                return Err(error(
                    i + k,
                    "a tile edge 'C', 'R' or 'F'",
                    Found::first_of(&code[k..]),
                ));
            }
            let tile = Tile::try_from(code).map_err(|_| {
                error(
                    i,
                    "a tile of 4 letters 'C', 'R' or 'F'",
                    Found::Word { len: code.len() },
                )
            })?;
            if let Some(first) = rows.first()
                && row.len() == first.len()
            {
                return Err(error(
                    i,
                    "'/' or the end of the board (every row as long as the first)",
                    Found::first_of(&bytes[i..]),
                ));
            }
            row.push(tile);
            i = stop;
        }
        let trailing = row.is_empty() && end == bytes.len() && !rows.is_empty();
        if trailing {
            break;
        }
        let short = rows.first().is_some_and(|f| row.len() < f.len());
        if row.is_empty() || short {
            let expected = if short {
                "another tile (every row as long as the first)"
            } else {
                "a tile of 4 letters 'C', 'R' or 'F'"
            };
            return Err(error(end, expected, Found::first_of(&bytes[end..])));
        }
        rows.push(row);
        if end == bytes.len() {
            break;
        }
        start = end + 1;
    }
    Ok(rows)
}

/// A board of tiles in row-major order (row 0 first).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    rows: usize,
    cols: usize,
    tiles: Vec<Tile>,
}

impl Board {
    /// A `rows × cols` board of `tiles`, row-major. Both sides must be at
    /// least 1, the narrower at most [`MAX_NARROW_SIDE`] (the other is
    /// unbounded), and there must be exactly `rows × cols` tiles.
    ///
    /// ```
    /// use boardbase::carcassonne::{Board, BoardError, Tile};
    /// let t: Tile = "RRRF".parse().unwrap();
    /// assert!(Board::new(1, 2, vec![t, t]).is_ok());
    /// assert!(matches!(Board::new(1, 3, vec![t, t]), Err(BoardError::TileCount { .. })));
    /// ```
    pub fn new(rows: usize, cols: usize, tiles: Vec<Tile>) -> Result<Board, BoardError> {
        if rows == 0 || cols == 0 {
            return Err(BoardError::EmptySide { rows, cols });
        }
        if rows.min(cols) > MAX_NARROW_SIDE {
            return Err(BoardError::TooWide {
                rows,
                cols,
                max: MAX_NARROW_SIDE,
            });
        }
        if rows.checked_mul(cols) != Some(tiles.len()) {
            return Err(BoardError::TileCount {
                rows,
                cols,
                tiles: tiles.len(),
            });
        }
        Ok(Board { rows, cols, tiles })
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Number of columns.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// The tiles, row-major.
    pub fn tiles(&self) -> &[Tile] {
        &self.tiles
    }

    /// The tile at (`row`, `col`). Panics out of range.
    pub fn tile(&self, row: usize, col: usize) -> Tile {
        assert!(row < self.rows && col < self.cols, "cell out of range");
        self.tiles[row * self.cols + col]
    }

    /// The board mirrored in its main diagonal (cell (r, c) moves to (c, r)),
    /// every tile reflected so its edges stay clockwise. It has the same
    /// number of valid placements; turning a tile `k` times clockwise here
    /// corresponds to `(4 - k) % 4` turns on the transposed board.
    pub fn transposed(&self) -> Board {
        let tiles = (0..self.cols)
            .flat_map(|c| (0..self.rows).map(move |r| (r, c)))
            .map(|(r, c)| Tile(self.tile(r, c).0.reflect_transpose()))
            .collect();
        Board {
            rows: self.cols,
            cols: self.rows,
            tiles,
        }
    }
}

/// Why a count could not be completed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CountError {
    /// More profile groups became reachable after one cell than the budget
    /// allows.
    #[error(
        "over {budget} groups of frontier profiles reachable after {placed} of {cells} tiles \
         (the narrower side is too wide for these tiles)"
    )]
    ProfileBudget {
        /// Groups produced when the count stopped (more than `budget`).
        groups: usize,
        /// The budget ([`GROUP_BUDGET`] unless set otherwise).
        budget: usize,
        /// Tiles placed when it was exceeded, in the DP's cell order.
        placed: usize,
        /// Tiles on the board.
        cells: usize,
    },
    /// [`witness`] would store more profile groups over all cells than its
    /// budget.
    #[error("finding a witness would store over {budget} groups of frontier profiles")]
    WitnessBudget {
        /// The budget ([`WITNESS_BUDGET`] unless set otherwise).
        budget: usize,
    },
}

/// Memory caps for the DP, in profile groups (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Cap on the groups reachable after any one cell.
    pub groups: usize,
    /// Cap on the groups [`witness`] stores over all cells.
    pub witness_groups: usize,
}

impl Budget {
    /// [`GROUP_BUDGET`] and [`WITNESS_BUDGET`].
    pub const DEFAULT: Budget = Budget {
        groups: GROUP_BUDGET,
        witness_groups: WITNESS_BUDGET,
    };
}

impl Default for Budget {
    fn default() -> Budget {
        Budget::DEFAULT
    }
}

/// Number of valid placements of `board`, modulo [`MODULUS`].
///
/// ```
/// use boardbase::carcassonne::{count, Board};
/// let tiles = ["RRRF", "FCCC"].map(|s| s.parse().unwrap()).to_vec();
/// assert_eq!(count(&Board::new(1, 2, tiles).unwrap()), Ok(1));
/// ```
pub fn count(board: &Board) -> Result<u64, CountError> {
    count_with_budget(board, Budget::DEFAULT)
}

/// [`count`] with explicit memory caps.
pub fn count_with_budget(board: &Board, budget: Budget) -> Result<u64, CountError> {
    count_checked(board, budget, |_| Ok(()))
}

/// [`count_with_budget`] that asks `stop` before each tile whether to give
/// up, for callers that bound the time a count may take (a deadline, a
/// client that went away, a shutdown).
///
/// ```
/// use std::time::{Duration, Instant};
/// use boardbase::carcassonne::{count_with_stop, Board, Budget, StopError};
///
/// let tiles = ["RRRF", "FCCC"].map(|s| s.parse().unwrap()).to_vec();
/// let board = Board::new(1, 2, tiles).unwrap();
/// let deadline = Instant::now() + Duration::from_secs(10);
/// assert_eq!(count_with_stop(&board, Budget::DEFAULT, || Instant::now() > deadline), Ok(1));
/// // Asked to stop at once: nothing is counted.
/// assert_eq!(
///     count_with_stop(&board, Budget::DEFAULT, || true),
///     Err(StopError::Stopped { placed: 0, cells: 2 })
/// );
/// ```
pub fn count_with_stop(
    board: &Board,
    budget: Budget,
    stop: impl FnMut() -> bool,
) -> Result<u64, StopError> {
    count_checked(board, budget, stopper(board, stop))
}

fn count_checked<E: From<CountError>>(
    board: &Board,
    budget: Budget,
    mut check: impl FnMut(usize) -> Result<(), E>,
) -> Result<u64, E> {
    let mut cell = 0;
    let last = run::<ModP, E>(board, budget.groups, |_| {
        cell += 1;
        check(cell - 1)
    })?;
    Ok(last.weights().fold(0, |s, &v| (s + u64::from(v)) % MODULUS))
}

/// Why a count given a `stop` check ([`count_with_stop`],
/// [`count_exact_with_stop`], [`witness_with_stop`]) did not finish.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StopError {
    /// The count went past its memory budget.
    #[error(transparent)]
    Count(#[from] CountError),
    /// `stop` returned `true` before all the tiles were placed.
    #[error("stopped after {placed} of {cells} tiles")]
    Stopped {
        /// Tiles placed when the count stopped, in the DP's cell order.
        placed: usize,
        /// Tiles on the board.
        cells: usize,
    },
}

/// The check before each cell that turns `stop` into [`StopError::Stopped`].
fn stopper(
    board: &Board,
    mut stop: impl FnMut() -> bool,
) -> impl FnMut(usize) -> Result<(), StopError> {
    let cells = board.tiles.len();
    move |placed| {
        if stop() {
            Err(StopError::Stopped { placed, cells })
        } else {
            Ok(())
        }
    }
}

/// [`count`] of every board, in parallel (one board per task), in order.
pub fn count_all(boards: &[Board]) -> Vec<Result<u64, CountError>> {
    use rayon::prelude::*;
    boards.par_iter().map(count).collect()
}

/// The exact number of valid placements of `board`.
pub fn count_exact(board: &Board) -> Result<BigUint, CountError> {
    count_exact_with_budget(board, Budget::DEFAULT)
}

/// [`count_exact`] with explicit memory caps.
pub fn count_exact_with_budget(board: &Board, budget: Budget) -> Result<BigUint, CountError> {
    count_exact_checked(board, budget, |_| Ok(()))
}

/// [`count_exact_with_budget`] that asks `stop` before each tile whether to
/// give up (see [`count_with_stop`]).
pub fn count_exact_with_stop(
    board: &Board,
    budget: Budget,
    stop: impl FnMut() -> bool,
) -> Result<BigUint, StopError> {
    count_exact_checked(board, budget, stopper(board, stop))
}

fn count_exact_checked<E: From<CountError>>(
    board: &Board,
    budget: Budget,
    mut check: impl FnMut(usize) -> Result<(), E>,
) -> Result<BigUint, E> {
    let mut cell = 0;
    let last = run::<Exact, E>(board, budget.groups, |_| {
        cell += 1;
        check(cell - 1)
    })?;
    Ok(last.weights().sum())
}

/// One valid placement of `board`, or `None` when there is none.
///
/// The placement lists, row-major, how many quarter turns clockwise
/// (0..=3, see [`Tile::rotated`]) each tile is turned. It is found from
/// reachability alone, so it exists exactly when [`count_exact`] is not 0
/// (even when [`count`] is 0 modulo `p`).
///
/// ```
/// use boardbase::carcassonne::{witness, Board};
/// let tiles = ["RRRF", "FCCC"].map(|s| s.parse().unwrap()).to_vec();
/// // The only placement: RFRR (right edge F) next to CCCF (left edge F).
/// let turns = witness(&Board::new(1, 2, tiles).unwrap()).unwrap();
/// assert_eq!(turns, Some(vec![2, 3]));
/// ```
pub fn witness(board: &Board) -> Result<Option<Vec<u8>>, CountError> {
    witness_with_budget(board, Budget::DEFAULT)
}

/// [`witness`] with explicit memory caps.
pub fn witness_with_budget(board: &Board, budget: Budget) -> Result<Option<Vec<u8>>, CountError> {
    witness_checked(board, budget, |_| Ok(()))
}

/// [`witness_with_budget`] that asks `stop` before each tile whether to give
/// up (see [`count_with_stop`]).
pub fn witness_with_stop(
    board: &Board,
    budget: Budget,
    stop: impl FnMut() -> bool,
) -> Result<Option<Vec<u8>>, StopError> {
    witness_checked(board, budget, stopper(board, stop))
}

fn witness_checked<E: From<CountError>>(
    board: &Board,
    budget: Budget,
    mut check: impl FnMut(usize) -> Result<(), E>,
) -> Result<Option<Vec<u8>>, E> {
    let shape = Shape::of(board);
    // layers[c]: the groups before cell c, keys sorted, reachability masks.
    let mut layers: Vec<(Vec<u64>, Vec<u16>)> = Vec::new();
    let mut stored = 0usize;
    let last = run::<Reach, E>(board, budget.groups, |layer| {
        check(layers.len())?;
        stored = stored.saturating_add(layer.groups());
        if stored > budget.witness_groups {
            return Err(CountError::WitnessBudget {
                budget: budget.witness_groups,
            }
            .into());
        }
        let mut keys = Vec::with_capacity(layer.groups());
        let mut masks = Vec::with_capacity(layer.groups());
        for (k, m) in layer.masks() {
            keys.push(k);
            masks.push(m);
        }
        layers.push((keys, masks));
        Ok(())
    })?;
    let Some((mut key, mut nibble)) = last
        .masks()
        .find_map(|(k, m)| (m != 0).then(|| (k, m.trailing_zeros() as usize)))
    else {
        return Ok(None);
    };
    // Walk back from a reachable profile after the last cell, choosing at
    // each cell a transition whose output is the current profile and whose
    // input profile was reachable.
    let mut turns = vec![0u8; shape.cells];
    for cell in (0..shape.cells).rev() {
        let (r, c) = (cell / shape.width, cell % shape.width);
        let (keys, masks) = &layers[cell];
        let found = shape.transitions(board, r, c).into_iter().find_map(|t| {
            let (prev_key, prev_nibble) = shape.preimage(&t, key, nibble)?;
            let i = keys.binary_search(&prev_key).ok()?;
            (masks[i] >> prev_nibble & 1 == 1).then_some((prev_key, prev_nibble, t.turns))
        });
        let (k, n, t) = found.expect("a reachable profile has a reachable predecessor");
        (key, nibble) = (k, n);
        let (orow, ocol) = shape.original(r, c);
        turns[orow * board.cols + ocol] = if shape.transposed { (4 - t) % 4 } else { t };
    }
    debug_assert_eq!((key, nibble), (0, 0), "the walk ends at the empty frontier");
    Ok(Some(turns))
}

/// How many frontier profiles the DP meets on a board.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProfileStats {
    /// The profile width (the narrower side).
    pub width: usize,
    /// Whether the board was transposed to run along its narrower side.
    pub transposed: bool,
    /// Cells placed before the DP ended: all of them, unless no profile
    /// survived one.
    pub cells: usize,
    /// The most profiles reachable after any one cell.
    pub max: usize,
    /// The mean number of profiles reachable after a cell placed.
    pub mean: f64,
    /// The most profile groups stored after any one cell.
    pub max_groups: usize,
}

/// Statistics of the reachable profiles per cell.
pub fn profile_stats(board: &Board) -> Result<ProfileStats, CountError> {
    let shape = Shape::of(board);
    let mut sizes: Vec<(usize, usize)> = Vec::new();
    let mut record = |layer: &Layer<()>| sizes.push((layer.profiles(), layer.groups()));
    let mut first = true;
    let last = run::<Reach, CountError>(board, GROUP_BUDGET, |layer| {
        // Skip the empty frontier before the first cell.
        if !std::mem::take(&mut first) {
            record(layer);
        }
        Ok(())
    })?;
    record(&last);
    let placed: Vec<_> = sizes.iter().take_while(|&&(p, _)| p > 0).collect();
    let total: usize = placed.iter().map(|&&(p, _)| p).sum();
    Ok(ProfileStats {
        width: shape.width,
        transposed: shape.transposed,
        cells: placed.len(),
        max: placed.iter().map(|&&(p, _)| p).max().unwrap_or(0),
        mean: if placed.is_empty() {
            0.0
        } else {
            total as f64 / placed.len() as f64
        },
        max_groups: placed.iter().map(|&&(_, g)| g).max().unwrap_or(0),
    })
}

// ---------------------------------------------------------------------------
// The DP.

/// How the DP walks a board: row by row along the narrower side, `width`
/// cells a row.
#[derive(Clone, Copy)]
struct Shape {
    width: usize,
    cells: usize,
    transposed: bool,
}

/// One collapsed transition of a cell: a distinct rotation standing for
/// `multiplicity` of the 4 turns, the fewest being `turns`. `input` is the
/// nibble it reads (left edge in slot 0, top edge in slot 1); `dest` is
/// where it writes in the accumulator of a super-group, `16 * bucket +
/// nibble`, to which the source group's lowest key slot is added in slot 1
/// (see [`step`]).
#[derive(Clone, Copy, Debug)]
struct Transition {
    input: u8,
    dest: u8,
    multiplicity: u8,
    turns: u8,
}

impl Shape {
    fn of(board: &Board) -> Shape {
        let transposed = board.cols > board.rows;
        let (height, width) = if transposed {
            (board.cols, board.rows)
        } else {
            (board.rows, board.cols)
        };
        Shape {
            width,
            cells: width * height,
            transposed,
        }
    }

    /// Bit position of the top slot of a group key (slots `2..=width` of a
    /// profile, so `width - 1` slots).
    fn top_shift(self) -> u32 {
        2 * self.width.saturating_sub(2) as u32
    }

    /// The original cell of DP cell (`r`, `c`).
    fn original(self, r: usize, c: usize) -> (usize, usize) {
        if self.transposed { (c, r) } else { (r, c) }
    }

    /// The tile of DP cell (`r`, `c`), reflected if the board is transposed.
    fn tile(self, board: &Board, r: usize, c: usize) -> packed::Tile {
        if self.transposed {
            board.tile(c, r).0.reflect_transpose()
        } else {
            board.tile(r, c).0
        }
    }

    /// The collapsed transitions of DP cell (`r`, `c`): one per distinct
    /// rotation, edges on the border replaced by [`NONE`].
    ///
    /// A placement turns the profile's slots 0 and 1 (left, top) into
    /// (bottom, right); the rotation to the next cell then moves the bottom
    /// to the top slot of the group key (the bucket) and the right edge to
    /// slot 0, slot 1 taking the group key's lowest slot. With width 1 the
    /// group key is empty and the bottom edge lands in slot 1 instead.
    fn transitions(self, board: &Board, r: usize, c: usize) -> Transitions {
        let tile = self.tile(board, r, c);
        let mut out = Transitions {
            items: [Transition {
                input: 0,
                dest: 0,
                multiplicity: 0,
                turns: 0,
            }; 4],
            len: 0,
        };
        for rot in tile.rotations().as_slice() {
            let t = rot.tile;
            let top = if r > 0 { t.code(Side::Top) } else { NONE };
            let left = if c > 0 { t.code(Side::Left) } else { NONE };
            let right = if c + 1 < self.width {
                t.code(Side::Right)
            } else {
                NONE
            };
            let bottom = t.code(Side::Bottom);
            let (input, output) = packed::placement_nibbles(top, right, bottom, left);
            let (bottom, right) = (output & 3, output >> 2);
            let dest = if self.width == 1 {
                bottom << 2
            } else {
                16 * bottom + right
            };
            out.items[out.len] = Transition {
                input,
                dest,
                multiplicity: rot.multiplicity,
                turns: rot.turns,
            };
            out.len += 1;
        }
        out
    }

    /// The profile (group key, nibble) before a cell from which transition
    /// `t` leads to profile (`key`, `nibble`) after it, if any.
    fn preimage(self, t: &Transition, key: u64, nibble: usize) -> Option<(u64, usize)> {
        let dest = usize::from(t.dest);
        if self.width == 1 {
            return (dest == nibble).then_some((0, usize::from(t.input)));
        }
        let bucket = (key >> self.top_shift()) & 3;
        if dest >> 4 != bucket as usize || dest & 3 != nibble & 3 {
            return None;
        }
        let low = key & packed::profile_mask(self.width - 2);
        Some((low << 2 | (nibble >> 2) as u64, usize::from(t.input)))
    }
}

struct Transitions {
    items: [Transition; 4],
    len: usize,
}

impl Transitions {
    fn as_slice(&self) -> &[Transition] {
        &self.items[..self.len]
    }
}

impl IntoIterator for Transitions {
    type Item = Transition;
    type IntoIter = std::iter::Take<std::array::IntoIter<Transition, 4>>;

    fn into_iter(self) -> Self::IntoIter {
        self.items.into_iter().take(self.len)
    }
}

/// The weight the DP carries per reachable profile: a commutative semiring
/// restricted to what the DP needs.
///
/// Which profiles are reachable is kept apart, as a mask per group, and the
/// weight of an unreachable profile is unspecified: the DP passes `hit`
/// (whether `v` is reachable) and treats `v` as zero when it is not.
trait Weight {
    /// The weight of one profile.
    type Val: Clone;
    /// The zero.
    fn zero() -> Self::Val;
    /// The weight of the empty board.
    fn one() -> Self::Val;
    /// `acc += v * mult` if `hit`, `mult` being 1, 2 or 4.
    fn mul_add(acc: &mut Self::Val, v: &Self::Val, mult: u8, hit: bool);
    /// `acc = v * mult` if `hit`, else `acc = 0`, `mult` being 1, 2 or 4.
    fn mul_set(acc: &mut Self::Val, v: &Self::Val, mult: u8, hit: bool);
}

/// Counts modulo [`MODULUS`], in 32 bits.
struct ModP;

impl ModP {
    /// `v * mult` modulo p if `hit`, else 0, for `v < p`.
    #[inline(always)]
    fn times(v: u32, mult: u8, hit: bool) -> u32 {
        // Every value stays below p < 2^30, so doubling fits in 32 bits and
        // one conditional subtraction reduces it.
        let mut x = v & u32::from(hit).wrapping_neg();
        if mult >= 2 {
            x = Self::reduce(x << 1);
        }
        if mult >= 4 {
            x = Self::reduce(x << 1);
        }
        x
    }

    /// `x mod p` for `x < 2p`.
    #[inline(always)]
    fn reduce(x: u32) -> u32 {
        const P: u32 = MODULUS as u32;
        if x >= P { x - P } else { x }
    }
}

impl Weight for ModP {
    type Val = u32;
    #[inline(always)]
    fn zero() -> u32 {
        0
    }
    #[inline(always)]
    fn one() -> u32 {
        1
    }
    #[inline(always)]
    fn mul_add(acc: &mut u32, v: &u32, mult: u8, hit: bool) {
        *acc = ModP::reduce(*acc + ModP::times(*v, mult, hit));
    }
    #[inline(always)]
    fn mul_set(acc: &mut u32, v: &u32, mult: u8, hit: bool) {
        *acc = ModP::times(*v, mult, hit);
    }
}

/// Exact counts.
struct Exact;

impl Weight for Exact {
    type Val = BigUint;
    fn zero() -> BigUint {
        BigUint::ZERO
    }
    fn one() -> BigUint {
        BigUint::from(1u8)
    }
    fn mul_add(acc: &mut BigUint, v: &BigUint, mult: u8, hit: bool) {
        if hit {
            *acc += v * u32::from(mult);
        }
    }
    fn mul_set(acc: &mut BigUint, v: &BigUint, mult: u8, hit: bool) {
        *acc = BigUint::ZERO;
        Exact::mul_add(acc, v, mult, hit);
    }
}

/// Reachability alone: no weight, the group masks say it all.
struct Reach;

impl Weight for Reach {
    type Val = ();
    #[inline(always)]
    fn zero() {}
    #[inline(always)]
    fn one() {}
    #[inline(always)]
    fn mul_add(_: &mut (), _: &(), _: u8, _: bool) {}
    #[inline(always)]
    fn mul_set(_: &mut (), _: &(), _: u8, _: bool) {}
}

/// The reachable profiles sharing slots `2..=width`.
#[derive(Clone)]
struct Group<V> {
    /// Slots `2..=width` of the profiles, slot `i` at bits `2 * (i - 2)`.
    key: u64,
    /// Bit `n` set when the profile whose slots 0 and 1 are the nibble
    /// `n = slot0 | slot1 << 2` is reachable.
    mask: u16,
    /// The weights of the 16 profiles; unspecified where the mask is clear.
    rec: [V; 16],
}

/// The reachable profiles between two cells, in groups: `buckets[b]` holds
/// the groups whose key has `b` in its top slot, sorted by key, so the
/// buckets in order are sorted by key.
struct Layer<V> {
    buckets: [Vec<Group<V>>; 4],
}

impl<V> Layer<V> {
    fn new() -> Layer<V> {
        Layer {
            buckets: Default::default(),
        }
    }

    fn clear(&mut self) {
        self.buckets.iter_mut().for_each(Vec::clear);
    }

    fn groups(&self) -> usize {
        self.buckets.iter().map(Vec::len).sum()
    }

    /// Every group, in key order.
    fn iter(&self) -> impl Iterator<Item = &Group<V>> {
        self.buckets.iter().flatten()
    }

    fn profiles(&self) -> usize {
        self.iter().map(|g| g.mask.count_ones() as usize).sum()
    }

    /// Every group's key and mask, in key order.
    fn masks(&self) -> impl Iterator<Item = (u64, u16)> {
        self.iter().map(|g| (g.key, g.mask))
    }

    /// Every reachable profile's weight.
    fn weights(&self) -> impl Iterator<Item = &V> {
        self.iter()
            .flat_map(|g| (0..16).filter(|&n| g.mask >> n & 1 == 1).map(|n| &g.rec[n]))
    }
}

/// Runs the DP over every cell and returns the last layer (empty when no
/// placement exists). `visit` sees the layer before each cell.
fn run<W: Weight, E: From<CountError>>(
    board: &Board,
    budget: usize,
    mut visit: impl FnMut(&Layer<W::Val>) -> Result<(), E>,
) -> Result<Layer<W::Val>, E> {
    let shape = Shape::of(board);
    let mut cur = Layer::new();
    let mut next = Layer::new();
    let mut rec: [W::Val; 16] = std::array::from_fn(|_| W::zero());
    rec[0] = W::one();
    cur.buckets[0].push(Group {
        key: 0,
        mask: 1,
        rec,
    });
    let mut acc: [[W::Val; 64]; 2] = std::array::from_fn(|_| std::array::from_fn(|_| W::zero()));
    for cell in 0..shape.cells {
        visit(&cur)?;
        let (r, c) = (cell / shape.width, cell % shape.width);
        let transitions = shape.transitions(board, r, c);
        next.clear();
        // Monomorphised by the number of distinct rotations (1, 2 or 4), so
        // the transition loop unrolls with a constant multiplicity (4, 2, 1).
        let t = transitions.as_slice();
        let distinct = (0..t.len()).all(|i| (0..i).all(|j| t[i].dest != t[j].dest));
        let within = match (t, distinct) {
            (&[a], _) => step::<W, 1, true>(&cur, &mut next, shape, &[a], &mut acc, budget),
            (&[a, b], true) => {
                step::<W, 2, true>(&cur, &mut next, shape, &[a, b], &mut acc, budget)
            }
            (&[a, b], false) => {
                step::<W, 2, false>(&cur, &mut next, shape, &[a, b], &mut acc, budget)
            }
            (&[a, b, c, d], true) => {
                step::<W, 4, true>(&cur, &mut next, shape, &[a, b, c, d], &mut acc, budget)
            }
            (&[a, b, c, d], false) => {
                step::<W, 4, false>(&cur, &mut next, shape, &[a, b, c, d], &mut acc, budget)
            }
            _ => unreachable!("a tile has 1, 2 or 4 distinct rotations"),
        };
        if !within {
            return Err(CountError::ProfileBudget {
                groups: next.groups(),
                budget,
                placed: cell + 1,
                cells: shape.cells,
            }
            .into());
        }
        std::mem::swap(&mut cur, &mut next);
        if cur.groups() == 0 {
            break;
        }
    }
    Ok(cur)
}

/// Places one cell: reads `prev` (the groups before the cell) and fills
/// `next` (the groups after it, rotated for the next cell). Returns `false`
/// as soon as `next` holds more than `budget` groups.
///
/// A group with key `g` feeds, through each transition, the new group with
/// key `g >> 2` plus the tile's bottom edge as top slot (the bucket), at
/// nibble `right | (g & 3) << 2`. So the groups sharing `g >> 2` (a
/// *super-group*: consecutive, as the buckets are sorted) together fill one
/// record per bucket, accumulated in `acc` (64 weights: `16 * bucket +
/// nibble`) with the masks in one `u64` of the same layout, and emitted when
/// the super-group is done, in increasing key order within each bucket.
///
/// Two accumulators alternate and each is emitted one super-group late, so
/// that its stores have landed before they are read back.
#[inline(never)]
fn step<W: Weight, const N: usize, const DISTINCT: bool>(
    prev: &Layer<W::Val>,
    next: &mut Layer<W::Val>,
    shape: Shape,
    trans: &[Transition; N],
    acc: &mut [[W::Val; 64]; 2],
    budget: usize,
) -> bool {
    let top_shift = shape.top_shift();
    // Each of the N distinct rotations stands for 4 / N of the 4 turns.
    let mult = const { 4 / N as u8 };
    debug_assert!(trans.iter().all(|t| t.multiplicity == mult));
    let input: [usize; N] = std::array::from_fn(|i| usize::from(trans[i].input));
    let dest: [usize; N] = std::array::from_fn(|i| usize::from(trans[i].dest));
    let input_bit: [u16; N] = std::array::from_fn(|i| 1 << trans[i].input);
    let dest_bit: [u64; N] = std::array::from_fn(|i| 1 << trans[i].dest);
    let written = trans.iter().fold(0u8, |w, t| w | 1 << (t.dest >> 4));
    if !DISTINCT {
        // Adding needs zeroed accumulators (emit re-zeroes them).
        acc.iter_mut().flatten().for_each(|v| *v = W::zero());
    }
    // Per accumulator: its super-group key (u64::MAX: none) and its masks.
    let mut sup = [u64::MAX; 2];
    let mut out = [0u64; 2];
    let mut cur = 0;
    let mut groups = 0usize;
    for group in prev.iter() {
        let key = group.key;
        if key >> 2 != sup[cur] {
            if sup[cur] != u64::MAX {
                cur ^= 1;
                if sup[cur] != u64::MAX {
                    groups += emit::<W, DISTINCT>(
                        &mut acc[cur],
                        out[cur],
                        written,
                        sup[cur],
                        top_shift,
                        next,
                    );
                    if groups > budget {
                        return false;
                    }
                }
            }
            sup[cur] = key >> 2;
            out[cur] = 0;
        }
        let low = ((key & 3) << 2) as usize;
        let a = &mut acc[cur];
        // The output mask before the shift by `low`: each transition whose
        // input is reachable makes its destination reachable.
        let mut reached = 0u64;
        for i in 0..N {
            let pos = (dest[i] + low) & 63;
            let v = &group.rec[input[i] & 15];
            let hit = group.mask & input_bit[i] != 0;
            if DISTINCT {
                W::mul_set(&mut a[pos], v, mult, hit);
            } else {
                W::mul_add(&mut a[pos], v, mult, hit);
            }
            reached |= dest_bit[i] & u64::from(hit).wrapping_neg();
        }
        out[cur] |= reached << low;
    }
    for _ in 0..2 {
        cur ^= 1;
        if sup[cur] != u64::MAX {
            groups +=
                emit::<W, DISTINCT>(&mut acc[cur], out[cur], written, sup[cur], top_shift, next);
        }
    }
    groups <= budget
}

/// Emits the records of `acc` with a non-empty mask in `out` (one per
/// bucket in `written`) as the groups with key `sup` plus the bucket as top
/// slot, zeroing them for the next super-group unless the transitions
/// assign (`DISTINCT`). Returns the number of groups emitted.
#[inline(always)]
fn emit<W: Weight, const DISTINCT: bool>(
    acc: &mut [W::Val; 64],
    out: u64,
    written: u8,
    sup: u64,
    top_shift: u32,
    next: &mut Layer<W::Val>,
) -> usize {
    let mut emitted = 0;
    let mut buckets = written;
    while buckets != 0 {
        let b = (buckets.trailing_zeros() & 3) as usize;
        buckets &= buckets - 1;
        let mask = (out >> (16 * b)) as u16;
        if mask == 0 {
            continue;
        }
        let slot = &mut acc[16 * b..16 * b + 16];
        next.buckets[b].push(Group {
            key: sup | (b as u64) << top_shift,
            mask,
            // Transitions to distinct destinations assign, so the slot
            // needs no zeroing; its unreachable entries are left as they
            // are (unspecified, never read unmasked).
            rec: if DISTINCT {
                std::array::from_fn(|i| slot[i].clone())
            } else {
                std::array::from_fn(|i| std::mem::replace(&mut slot[i], W::zero()))
            },
        });
        emitted += 1;
    }
    emitted
}

#[cfg(test)]
mod tests {
    use super::*;
    use boardbase_solvers::carcassonne::{rotate_slots, with_slot};

    /// The group/nibble arithmetic of `step` and `preimage` is the packed
    /// profile's placement followed by `rotate_slots`.
    #[test]
    fn step_layout_is_a_slot_rotation() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for width in 1..=packed::MAX_WIDTH {
            let shape = Shape {
                width,
                cells: width,
                transposed: false,
            };
            let slots = width + 1;
            for _ in 0..2000 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let profile = x & packed::profile_mask(slots);
                let (key, nibble) = (profile >> 4, (profile & 15) as usize);
                let bottom = (x >> 40) as u8 & 3;
                let right = if width == 1 {
                    NONE
                } else {
                    (x >> 42) as u8 & 3
                };
                let placed = with_slot(with_slot(profile, 0, bottom), 1, right);
                let rotated = rotate_slots(placed, slots);
                // What step computes.
                let dest = if width == 1 {
                    usize::from(bottom) << 2
                } else {
                    16 * usize::from(bottom) + usize::from(right)
                };
                let low = if width == 1 {
                    0
                } else {
                    ((key & 3) << 2) as usize
                };
                let new_key = (key >> 2) | ((dest >> 4) as u64) << shape.top_shift();
                let new_nibble = (dest & 15) + low;
                assert_eq!(new_key, rotated >> 4, "width {width}, profile {profile:#x}");
                assert_eq!(new_nibble as u64, rotated & 15);
                // And preimage inverts it.
                let t = Transition {
                    input: nibble as u8,
                    dest: dest as u8,
                    multiplicity: 1,
                    turns: 0,
                };
                assert_eq!(shape.preimage(&t, new_key, new_nibble), Some((key, nibble)));
            }
        }
    }

    #[test]
    fn group_sizes() {
        assert_eq!(std::mem::size_of::<Group<u32>>(), 80);
        assert_eq!(std::mem::size_of::<Group<()>>(), 16);
    }
}

/// Most tiles one board of the judge's input may declare (`2^20`, e.g.
/// 65,536 rows of 16): a larger `N × M` is refused before any tile is read.
pub const MAX_TILES: u64 = 1 << 20;

/// One case of the judge's input, with where it starts.
#[derive(Clone, Debug)]
pub struct Case {
    /// The board.
    pub board: Board,
    /// 1-based line of the case's `N`.
    pub line: u64,
}

/// Reads the judge's case count `T`.
pub fn read_case_count<R: Read>(scanner: &mut Scanner<R>) -> Result<u64, InputError> {
    scanner.read_unsigned("a case count", u64::MAX)
}

/// Reads one case of the judge's input: `N M`, then `N × M` four-letter tile
/// codes in row-major order, all separated by any whitespace.
///
/// The sizes are checked before any tile is read (each at least 1, the
/// narrower at most [`MAX_NARROW_SIDE`], at most [`MAX_TILES`] tiles), and
/// the tiles are stored only as they arrive, so a declared size never
/// decides an allocation. Each code is one lookup in [`TILE_CODES`]; an
/// unknown one is an error at its first bad letter.
///
/// ```
/// use boardbase::carcassonne::{count, read_case};
/// use boardbase::input::Scanner;
///
/// let mut input = Scanner::new("1 2\nRRRF FCCC\n".as_bytes());
/// let case = read_case(&mut input)?;
/// assert_eq!((case.board.rows(), case.board.cols(), case.line), (1, 2, 1));
/// assert_eq!(count(&case.board)?, 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn read_case<R: Read>(scanner: &mut Scanner<R>) -> Result<Case, InputError> {
    const SIZES: &str = "N and M with the narrower side at most 16";
    let size = |scanner: &mut Scanner<R>, what: &'static str| {
        scanner.skip_whitespace()?;
        let (line, column) = scanner.position();
        let n = scanner.read_unsigned(what, u64::MAX)?;
        if n == 0 {
            return Err(ParseError {
                line,
                column,
                expected: what,
                found: Found::Number(0),
            }
            .into());
        }
        Ok::<_, InputError>((n, line, column))
    };
    let (rows, line, _) = size(scanner, "a number of rows N of at least 1")?;
    let (cols, m_line, m_column) = size(scanner, "a number of columns M of at least 1")?;
    let at_m = |expected, found| ParseError {
        line: m_line,
        column: m_column,
        expected,
        found,
    };
    let narrow = rows.min(cols);
    if narrow > MAX_NARROW_SIDE as u64 {
        return Err(at_m(SIZES, Found::Number(narrow)).into());
    }
    let cells = rows.checked_mul(cols).filter(|&c| c <= MAX_TILES);
    let Some(cells) = cells else {
        let found = rows
            .checked_mul(cols)
            .map_or(Found::NumberTooLarge, Found::Number);
        return Err(at_m("at most 1048576 tiles (N × M)", found).into());
    };
    let mut tiles = Vec::with_capacity(cells.min(1024) as usize);
    for _ in 0..cells {
        let Some(word) = scanner.read_word::<4>("a tile code (4 of 'C', 'R', 'F')")? else {
            return Err(scanner.error_here("another tile (N × M in all)", Found::EndOfInput));
        };
        match TileCode::lookup(&word.bytes) {
            Some(code) => tiles.push(code.tile),
            None => {
                let bad = word
                    .bytes
                    .iter()
                    .position(|&b| Colour::from_letter(b).is_none())
                    .unwrap_or(0);
                return Err(ParseError {
                    line: word.line,
                    column: word.column + bad as u64,
                    expected: "a tile edge 'C', 'R' or 'F'",
                    found: Found::first_of(&word.bytes[bad..]),
                }
                .into());
            }
        }
    }
    // The checks above make every size valid; report rather than panic anyway.
    let board = Board::new(rows as usize, cols as usize, tiles)
        .map_err(|_| InputError::from(at_m(SIZES, Found::Number(narrow))))?;
    Ok(Case { board, line })
}
