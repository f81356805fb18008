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
//! A profile DP places the tiles one cell at a time, row by row, keeping for
//! every reachable *profile* (the colours of the open frontier edges: the
//! bottom edge of each column plus the right edge of the last placed tile,
//! packed 2 bits a colour by [`boardbase_tables::carcassonne`]) a weight.
//!
//! - The profile runs along the narrower side: a board wider than tall is
//!   transposed first, each tile reflected with
//!   [`Tile::reflect_transpose`](boardbase_tables::carcassonne::Tile::reflect_transpose)
//!   so its edges stay in clockwise order. Width `w ≤ 16` means `w + 1` slots
//!   in 34 bits.
//! - Only reachable profiles are stored, as a sorted array. The frontier is
//!   kept cyclic so that placing a tile touches only the two lowest slots
//!   (top/left in, right/bottom out); the next cell's slots are brought down
//!   by a one-slot rotation, under which the sorted array splits into at most
//!   four sorted runs, so each cell is one linear merge pass over the runs
//!   with no hashing, no sorting and no scan of the `3^(w+1)` possible
//!   profiles.
//! - Identical rotations of a tile collapse into one transition with a
//!   multiplicity (`CCCC`: one transition ×4; `CFCF`: two ×2).
//! - One generic DP serves every answer, over a weight type: counts modulo
//!   [`MODULUS`] ([`count`]), exact big-integer counts ([`count_exact`]) and
//!   bare reachability, whose stored layers let [`witness`] walk back one
//!   valid placement.
//!
//! # Budgets
//!
//! A profile is 8 bytes plus its weight (4 bytes modulo `p`), and two layers
//! are live at once, so [`PROFILE_BUDGET`] (`2^22` profiles per cell) caps a
//! count near 100 MiB. Boards of random or planted tiles stay far below it
//! (tens to a few thousand profiles for 12×12), and so do boards of two-pair
//! tiles such as `RRFF` (exactly `2^(w+1)`, 8,192 for width 12, 131,072 for
//! width 16); only adversarial boards of width ≥ 14 can reach it. Past it
//! the functions return [`CountError::ProfileBudget`] instead of allocating
//! more. [`witness`] keeps every layer's profiles (8 bytes each), capped by
//! [`WITNESS_BUDGET`] in total.

use std::fmt;
use std::str::FromStr;

use boardbase_tables::carcassonne::{self as packed, NONE, Side};
use num_bigint::BigUint;

pub use boardbase_tables::carcassonne::Colour;

/// Counts are reported modulo this prime, 1,000,000,007.
pub const MODULUS: u64 = 1_000_000_007;

/// The largest narrower side a board may have.
pub const MAX_NARROW_SIDE: usize = packed::MAX_WIDTH;

/// The default cap on the reachable profiles after any one cell (`2^22`).
///
/// Counting modulo `p` stores 12 bytes per profile in each of two layers, so
/// the cap bounds the count's memory near 100 MiB.
pub const PROFILE_BUDGET: usize = 1 << 22;

/// The default cap on the profiles [`witness`] stores over all cells
/// (`2^24`, 8 bytes each: 128 MiB).
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

    /// The packed form shared with [`boardbase_tables::carcassonne`].
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

impl TryFrom<&[u8]> for Tile {
    type Error = TileParseError;

    fn try_from(code: &[u8]) -> Result<Tile, TileParseError> {
        if code.len() != 4 {
            return Err(TileParseError::Length { len: code.len() });
        }
        let mut edges = [Colour::City; 4];
        for (position, (&byte, edge)) in code.iter().zip(&mut edges).enumerate() {
            *edge = Colour::from_letter(byte).ok_or(TileParseError::Letter { position, byte })?;
        }
        let [t, r, b, l] = edges;
        Ok(Tile::new(t, r, b, l))
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
    #[error("a board needs at least one row and one column, got {rows}×{cols}")]
    EmptySide {
        /// Rows asked for.
        rows: usize,
        /// Columns asked for.
        cols: usize,
    },
    /// Both sides exceed [`MAX_NARROW_SIDE`].
    #[error("a {rows}×{cols} board is too large: its narrower side must be at most {max}")]
    TooWide {
        /// Rows asked for.
        rows: usize,
        /// Columns asked for.
        cols: usize,
        /// [`MAX_NARROW_SIDE`].
        max: usize,
    },
    /// The number of tiles is not `rows × cols`.
    #[error("a {rows}×{cols} board needs rows × cols tiles, got {tiles}")]
    TileCount {
        /// Rows asked for.
        rows: usize,
        /// Columns asked for.
        cols: usize,
        /// Tiles given.
        tiles: usize,
    },
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
    /// More profiles became reachable after one cell than the budget allows.
    #[error(
        "{profiles} frontier profiles reachable after {placed} of {cells} tiles, \
         over the budget of {budget}"
    )]
    ProfileBudget {
        /// Reachable profiles seen so far at that cell (at least `budget + 1`).
        profiles: usize,
        /// The budget ([`PROFILE_BUDGET`] unless set otherwise).
        budget: usize,
        /// Tiles placed when it was exceeded, in the DP's cell order.
        placed: usize,
        /// Tiles on the board.
        cells: usize,
    },
    /// [`witness`] would store more profiles over all cells than its budget.
    #[error("finding a witness would store over {budget} frontier profiles")]
    WitnessBudget {
        /// The budget ([`WITNESS_BUDGET`] unless set otherwise).
        budget: usize,
    },
}

/// Memory caps for the DP, in profiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Cap on the reachable profiles after any one cell.
    pub profiles: usize,
    /// Cap on the profiles [`witness`] stores over all cells.
    pub witness_profiles: usize,
}

impl Budget {
    /// [`PROFILE_BUDGET`] and [`WITNESS_BUDGET`].
    pub const DEFAULT: Budget = Budget {
        profiles: PROFILE_BUDGET,
        witness_profiles: WITNESS_BUDGET,
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
    let last = run::<ModP>(board, budget.profiles, |_| Ok(()))?;
    Ok(last
        .vals
        .iter()
        .fold(0, |s, &v| (s + u64::from(v)) % MODULUS))
}

/// [`count`] of every board, in parallel (one board per task).
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
    let last = run::<Exact>(board, budget.profiles, |_| Ok(()))?;
    Ok(last.vals.iter().sum())
}

/// One valid placement of `board`, or `None` when there is none.
///
/// The placement lists, row-major, how many quarter turns clockwise
/// (0..=3, see [`Tile::rotated`]) each tile is turned. It is found from
/// reachability alone, so it exists exactly when [`count_exact`] is not 0
/// (even when [`count`] is 0 modulo `p`).
pub fn witness(board: &Board) -> Result<Option<Vec<u8>>, CountError> {
    witness_with_budget(board, Budget::DEFAULT)
}

/// [`witness`] with explicit memory caps.
pub fn witness_with_budget(board: &Board, budget: Budget) -> Result<Option<Vec<u8>>, CountError> {
    let shape = Shape::of(board);
    let mut layers: Vec<Vec<u64>> = Vec::new();
    let mut stored = 0usize;
    let last = run::<Reach>(board, budget.profiles, |layer| {
        stored = stored.saturating_add(layer.keys.len());
        if stored > budget.witness_profiles {
            return Err(CountError::WitnessBudget {
                budget: budget.witness_profiles,
            });
        }
        layers.push(layer.keys.clone());
        Ok(())
    })?;
    let Some(&end) = last.keys.first() else {
        return Ok(None);
    };
    // `layers[c]` holds the profiles before cell `c` (sorted), and `end` is
    // a profile after the last cell. Walk back, picking at each cell a
    // rotation whose output is the current profile and whose input is
    // reachable.
    let mut turns = vec![0u8; shape.cells];
    let mut state = end;
    for cell in (0..shape.cells).rev() {
        let (r, c) = (cell / shape.width, cell % shape.width);
        let group = state >> 4;
        let out = (state & 15) as u8;
        let prev = &layers[cell];
        let found = shape.transitions(board, r, c).into_iter().find_map(|t| {
            if t.output != out {
                return None;
            }
            let pred = (u64::from(t.input & 3) << (2 * shape.width))
                | (group << 2)
                | u64::from(t.input >> 2);
            prev.binary_search(&pred).ok().map(|_| (pred, t.turns))
        });
        let (pred, k) = found.expect("every stored profile has a reachable predecessor");
        state = pred;
        let (orow, ocol) = shape.original(r, c);
        let k = if shape.transposed { (4 - k) % 4 } else { k };
        turns[orow * board.cols + ocol] = k;
    }
    Ok(Some(turns))
}

/// How many frontier profiles the DP meets on a board.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProfileStats {
    /// The profile width (the narrower side).
    pub width: usize,
    /// Whether the board was transposed to run along its narrower side.
    pub transposed: bool,
    /// Cells placed before the DP ended (all of them unless no profile
    /// survived).
    pub cells: usize,
    /// The most profiles reachable after any one cell.
    pub max: usize,
    /// The mean number of profiles reachable after a cell.
    pub mean: f64,
    /// Profiles summed over all cells (the DP's work).
    pub total: usize,
}

/// Statistics of the reachable profiles per cell.
pub fn profile_stats(board: &Board) -> Result<ProfileStats, CountError> {
    let shape = Shape::of(board);
    let (mut cells, mut max, mut total) = (0usize, 0usize, 0usize);
    let mut first = true;
    run::<Reach>(board, PROFILE_BUDGET, |layer| {
        // The first layer is the single empty profile before any tile.
        if !std::mem::take(&mut first) {
            cells += 1;
            max = max.max(layer.keys.len());
            total += layer.keys.len();
        }
        Ok(())
    })
    .map(|last| {
        if !last.keys.is_empty() {
            cells += 1;
            max = max.max(last.keys.len());
            total += last.keys.len();
        }
    })?;
    Ok(ProfileStats {
        width: shape.width,
        transposed: shape.transposed,
        cells,
        max,
        mean: if cells == 0 {
            0.0
        } else {
            total as f64 / cells as f64
        },
        total,
    })
}

// ---------------------------------------------------------------------------
// The DP.

/// How the DP walks a board: along the narrower side, `width` columns.
#[derive(Clone, Copy)]
struct Shape {
    width: usize,
    cells: usize,
    transposed: bool,
}

/// One collapsed transition of a cell: from the input nibble (top in slot
/// 0, left in slot 1) to the output nibble (right in slot 0, bottom in slot
/// 1), `multiplicity` of the 4 turns, the fewest being `turns`.
#[derive(Clone, Copy, Debug)]
struct Transition {
    input: u8,
    output: u8,
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
    fn transitions(self, board: &Board, r: usize, c: usize) -> Transitions {
        let tile = self.tile(board, r, c);
        let mut out = Transitions {
            items: [Transition {
                input: 0,
                output: 0,
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
            let (input, output) = packed::placement_nibbles(top, right, t.code(Side::Bottom), left);
            out.items[out.len] = Transition {
                input,
                output,
                multiplicity: rot.multiplicity,
                turns: rot.turns,
            };
            out.len += 1;
        }
        out
    }
}

struct Transitions {
    items: [Transition; 4],
    len: usize,
}

impl IntoIterator for Transitions {
    type Item = Transition;
    type IntoIter = std::iter::Take<std::array::IntoIter<Transition, 4>>;

    fn into_iter(self) -> Self::IntoIter {
        self.items.into_iter().take(self.len)
    }
}

/// The weight the DP carries per profile: a commutative semiring restricted
/// to what the DP needs (sums of weights times small multiplicities).
trait Weight {
    /// The weight stored per profile.
    type Val;
    /// The accumulator of one output profile.
    type Acc;
    /// The weight of the empty board.
    fn one() -> Self::Val;
    /// A fresh accumulator (the zero).
    fn zero() -> Self::Acc;
    /// `acc = v * mult` (the first contribution).
    fn set(acc: &mut Self::Acc, v: &Self::Val, mult: u8);
    /// `acc += v * mult`.
    fn add(acc: &mut Self::Acc, v: &Self::Val, mult: u8);
    /// The stored weight of an accumulator, leaving it reusable.
    fn finish(acc: &mut Self::Acc) -> Self::Val;
}

/// Counts modulo [`MODULUS`]: 32-bit weights, 64-bit accumulators (at most
/// 4 contributions of `4 * p` each, far below `2^64`).
struct ModP;

impl Weight for ModP {
    type Val = u32;
    type Acc = u64;
    #[inline(always)]
    fn one() -> u32 {
        1
    }
    #[inline(always)]
    fn zero() -> u64 {
        0
    }
    #[inline(always)]
    fn set(acc: &mut u64, v: &u32, mult: u8) {
        *acc = u64::from(*v) * u64::from(mult);
    }
    #[inline(always)]
    fn add(acc: &mut u64, v: &u32, mult: u8) {
        *acc += u64::from(*v) * u64::from(mult);
    }
    #[inline(always)]
    fn finish(acc: &mut u64) -> u32 {
        (*acc % MODULUS) as u32
    }
}

/// Exact counts.
struct Exact;

impl Weight for Exact {
    type Val = BigUint;
    type Acc = BigUint;
    fn one() -> BigUint {
        BigUint::from(1u8)
    }
    fn zero() -> BigUint {
        BigUint::ZERO
    }
    fn set(acc: &mut BigUint, v: &BigUint, mult: u8) {
        acc.clone_from(v);
        if mult != 1 {
            *acc *= u32::from(mult);
        }
    }
    fn add(acc: &mut BigUint, v: &BigUint, mult: u8) {
        if mult == 1 {
            *acc += v;
        } else {
            *acc += v * u32::from(mult);
        }
    }
    fn finish(acc: &mut BigUint) -> BigUint {
        std::mem::take(acc)
    }
}

/// Reachability: no weight at all, a profile is stored or not.
struct Reach;

impl Weight for Reach {
    type Val = ();
    type Acc = ();
    fn one() {}
    fn zero() {}
    fn set(_: &mut (), _: &(), _: u8) {}
    fn add(_: &mut (), _: &(), _: u8) {}
    fn finish(_: &mut ()) {}
}

/// The reachable profiles between two cells, sorted by key, with weights.
///
/// A key is the cyclic profile of `width + 1` slots (see
/// [`boardbase_tables::carcassonne`]): before a cell is placed, slot 0 holds
/// its top edge and slot 1 its left edge; after it is placed (before the
/// rotation to the next cell) slot 0 holds its right edge and slot 1 its
/// bottom edge.
struct Layer<V> {
    keys: Vec<u64>,
    vals: Vec<V>,
}

impl<V> Layer<V> {
    fn new() -> Layer<V> {
        Layer {
            keys: Vec::new(),
            vals: Vec::new(),
        }
    }

    fn clear(&mut self) {
        self.keys.clear();
        self.vals.clear();
    }
}

/// Runs the DP over every cell and returns the last layer (empty when no
/// placement exists). `visit` sees the layer before each cell.
fn run<W: Weight>(
    board: &Board,
    budget: usize,
    mut visit: impl FnMut(&Layer<W::Val>) -> Result<(), CountError>,
) -> Result<Layer<W::Val>, CountError> {
    let shape = Shape::of(board);
    let mut cur = Layer::new();
    let mut next = Layer::new();
    cur.keys.push(0);
    cur.vals.push(W::one());
    let mut acc: [W::Acc; 16] = std::array::from_fn(|_| W::zero());
    for cell in 0..shape.cells {
        visit(&cur)?;
        let (r, c) = (cell / shape.width, cell % shape.width);
        let transitions = shape.transitions(board, r, c);
        let trans = &transitions.items[..transitions.len];
        next.clear();
        if !step::<W>(&cur, &mut next, shape.width, trans, &mut acc, budget) {
            return Err(CountError::ProfileBudget {
                profiles: next.keys.len(),
                budget,
                placed: cell + 1,
                cells: shape.cells,
            });
        }
        std::mem::swap(&mut cur, &mut next);
        if cur.keys.is_empty() {
            break;
        }
    }
    Ok(cur)
}

/// Places one cell: reads `prev` (sorted, in the previous cell's output
/// layout) and appends to `next` (sorted, this cell's output layout).
/// Returns `false` as soon as `next` holds more than `budget` profiles.
///
/// Rotating every key of `prev` by one slot ([`packed::rotate_slots`]) gives
/// this cell's input layout. The rotation moves the top slot (`width`) to
/// slot 0, so `prev` splits into at most 4 runs by that slot, each still
/// sorted after the rotation. A *group* is the set of input profiles equal
/// outside slots 0 and 1: they share the output's upper slots, so the
/// output is produced in sorted order by merging the runs group by group,
/// applying the ≤ 4 transitions within each group and emitting its ≤ 16
/// output nibbles in increasing order.
#[inline(never)]
fn step<W: Weight>(
    prev: &Layer<W::Val>,
    next: &mut Layer<W::Val>,
    width: usize,
    trans: &[Transition],
    acc: &mut [W::Acc; 16],
    budget: usize,
) -> bool {
    let keys = &prev.keys[..];
    let vals = &prev.vals[..];
    let top_shift = 2 * width as u32;
    // Group id of a previous key: its slots 1..width (exclusive of the top
    // slot), i.e. the rotated key's slots 2..=width.
    let group_mask = packed::profile_mask(width - 1);
    // Run boundaries by the top slot.
    let mut pos = [0usize; 4];
    let mut end = [0usize; 4];
    let mut start = 0;
    for a in 0..4u64 {
        let stop = start + keys[start..].partition_point(|&k| k >> top_shift <= a);
        pos[a as usize] = start;
        end[a as usize] = stop;
        start = stop;
    }
    debug_assert_eq!(start, keys.len());
    let mut active_runs = [0usize; 4];
    let mut runs = 0;
    for a in 0..4 {
        if pos[a] < end[a] {
            active_runs[runs] = a;
            runs += 1;
        }
    }
    let active = &active_runs[..runs];
    let mut index = [0usize; 16];
    loop {
        // The smallest group id among the runs' heads.
        let mut group = u64::MAX;
        for &a in active {
            if pos[a] < end[a] {
                group = group.min((keys[pos[a]] >> 2) & group_mask);
            }
        }
        if group == u64::MAX {
            break;
        }
        // Gather the group: input nibble = old top slot in slot 0, old slot
        // 0 in slot 1.
        let mut present = 0u16;
        for &a in active {
            let mut p = pos[a];
            while p < end[a] && (keys[p] >> 2) & group_mask == group {
                let nibble = a | ((keys[p] & 3) << 2) as usize;
                index[nibble] = p;
                present |= 1 << nibble;
                p += 1;
            }
            pos[a] = p;
        }
        let mut produced = 0u16;
        for t in trans {
            if present & (1 << t.input) != 0 {
                let v = &vals[index[t.input as usize]];
                let o = t.output as usize;
                if produced & (1 << o) != 0 {
                    W::add(&mut acc[o], v, t.multiplicity);
                } else {
                    W::set(&mut acc[o], v, t.multiplicity);
                    produced |= 1 << o;
                }
            }
        }
        while produced != 0 {
            let o = produced.trailing_zeros() as usize;
            produced &= produced - 1;
            next.keys.push((group << 4) | o as u64);
            next.vals.push(W::finish(&mut acc[o]));
        }
        if next.keys.len() > budget {
            return false;
        }
    }
    true
}
