//! Every Lights Out: boards of up to 64×64 cells of K colours (2 to 16), on
//! a rectangle or a torus, a press changing any pattern of cells; the
//! proven fewest presses, how many press vectors take them, and the
//! structure behind them, by linear algebra over Z_K.
//!
//! # Rules
//!
//! A [`Variant`] is an R×C board (1 ≤ R, C ≤ 64) whose cells each hold a
//! colour 0 to K − 1 ([`ColourGrid`]). A press at a cell adds 1 (mod K) to
//! every cell of its [`Pattern`] centred on the pressed cell: `plus` (the
//! default: the cell and its 4 neighbours), `neighbours` (the 4 neighbours
//! only, the σ game), `x` (the cell and its 4 diagonal neighbours), `king`
//! (all 9) or any [`Stencil`] of odd height and width (the knight's moves
//! are [`Stencil::KNIGHT`]). The pattern is clipped at the border, or wraps
//! around on a torus ([`Variant::with_wrap`]); each cell of the pattern
//! changes once, even where a torus smaller than the pattern maps two of
//! its offsets onto one cell. The goal ([`FamilyGoal`]) is every cell one
//! colour `d` (`Colour(0)` by default: every light off), or any one colour
//! (the fewest over all colours). Pressing a cell `j` times
//! (0 ≤ `j` < K) counts as `j` presses; presses commute, and K presses of
//! a cell do nothing, so an answer is a press vector: each cell's number of
//! presses.
//!
//! The classic game, 2 colours, plus, no wrap, is Flip Game, Fliptile and
//! Extended Lights Out; [`FamilySolver`] answers it with the GF(2)
//! [`Solver`](crate::lights::Solver) of [`lights`](crate::lights) (the one
//! behind `boardbase flip --size`, `fliptile` and `lightsout`), so the two
//! cannot disagree: there is one engine, with a fast path.
//!
//! # Method
//!
//! Pressing is addition in Z_K, so the press vectors that take a board to
//! a goal are the solutions of a linear system over Z_K, one equation a
//! cell: one particular solution plus any *quiet pattern* (a press vector
//! that changes nothing), and the quiet patterns form a group.
//!
//! - *Chasing*, generalised: taken in reading order, each cell's equation
//!   determines the last of its unknowns still open (its coefficient is 1,
//!   a unit), so most unknowns follow from a few free ones (for the plus
//!   pattern the first row, `C` of them; on a torus the first two rows;
//!   for `x` and `king` the first row and one a row after). What is left
//!   is an `m`×`m` system in the free unknowns.
//! - *Howell form*, over Z_K itself (K prime or not, no CRT): the Howell
//!   normal form of `[Lᵀ | I]` solves the left system greedily and gives
//!   the quiet patterns as generators `g_i` with orders `o_i`, every quiet
//!   pattern being `Σ c_i·g_i` for exactly one choice of `0 ≤ c_i < o_i`.
//!   So the quiet patterns are enumerated exactly, composite K included.
//!   The group's invariant factors come from a diagonal form of the same
//!   system ([`QuietGroup`]). The reduced system is built once per variant
//!   and kept ([`FamilySolver::cached`]).
//! - *Search*: the fewest presses is the lightest of the `Π o_i` press
//!   vectors a goal, each visited once in reflected mixed-radix Gray code
//!   order: a step adds or removes one generator, updating the number of
//!   presses over the cells it presses.
//!
//! # Tie rule
//!
//! Among the optimal press vectors, the answer is the least in
//! lexicographic order of the row-major string of press counts (row 0
//! first, column 0 first, fewer presses first): the earliest cell where
//! two optimal vectors differ is pressed fewer times. For 2 colours this is
//! the rule of [`lights`](crate::lights) (and POJ 3279). For
//! [`FamilyGoal::Any`], the colour that takes the fewest presses wins, the
//! least colour on a tie, and [`FamilyAnswer::optimal_sets`] counts the
//! optimal vectors of every colour that takes that few (for 2 colours:
//! [`Goal::Either`](crate::lights::Goal::Either)).
//!
//! # Limit and exactness
//!
//! Every answer is exact: the fewest presses, the number of optimal
//! vectors (`u64`) and the tie rule's vector come from every press vector
//! of the goal. There are as many of those as quiet patterns; the search
//! is refused ([`LightsError::SearchTooLarge`]) when there are more than
//! `2^max_bits`, by default [`MAX_SEARCH_BITS`] = 24, the unit and the
//! default of [`MAX_NULLITY`](crate::lights::MAX_NULLITY) (for 2 colours,
//! `2^nullity` press vectors). [`FamilySolver::solve_within`] takes another
//! limit (up to 63); [`FamilySolver::any_solution`] gives a press vector at
//! once, without a claim of minimality. [`FamilySolver::info`] gives the
//! structure: the quiet patterns, the number of solvable boards (exact, a
//! [`BigUint`](num_bigint::BigUint)) and, up to 2^25 boards, the histogram
//! of the fewest presses over every board (exhaustive, see [`histogram`]).
//!
//! # Example
//!
//! ```
//! use boardbase::lights::family::{self, ColourGrid, FamilyGoal, Pattern, Variant};
//!
//! // Three colours on a 3×4 board, a press changing the cell and the 8
//! // around it (the king's pattern):
//! //   0 1 2 0
//! //   2 2 0 1
//! //   1 0 0 0
//! let variant = Variant::new(3, 4, 3)?.with_pattern(Pattern::King);
//! let board = ColourGrid::parse("0120/2201/1000", 3)?;
//! // Any one colour: every cell 2 in 7 presses, and only so.
//! let answer = family::solve(&variant, &board, FamilyGoal::Any)?.expect("solvable");
//! assert_eq!((answer.colour, answer.rounds, answer.optimal_sets), (2, 7, 1));
//! // How many times to press each cell:
//! //   1 1 2 0
//! //   0 0 0 0
//! //   1 0 1 1
//! assert_eq!(answer.presses.to_string(), "1120\n0000\n1011");
//! // All 0 takes 9.
//! let off = family::solve(&variant, &board, FamilyGoal::OFF)?.expect("solvable");
//! assert_eq!(off.rounds, 9);
//! let solver = family::FamilySolver::cached(&variant);
//! assert_eq!(solver.apply(&board, &answer.presses).uniform(), Some(answer.colour));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

// One job a file: `variant.rs` what a variant and a goal are (and their
// parsers); `board.rs` the board type and its text; `ring.rs` linear
// algebra over Z_K (Howell form, the kernel's cyclic orders, invariant
// factors); `system.rs` the chased and reduced system of a variant;
// `search.rs` the walk over the press vectors of a goal; `engine.rs` the
// solver, its answers and errors, and the dispatch to the GF(2) solver;
// `info.rs` the structure of a variant and the histogram.
use std::time::Duration;

use crate::catalogue::entry::{MB, Problem};
use crate::lights::LightsError;

mod board;
mod engine;
mod info;
mod ring;
mod search;
mod system;
mod variant;

pub use crate::lights::error::{MAX_COLOURS, MAX_STENCIL_SIDE, MIN_COLOURS, StencilErrorKind};
pub use board::{ColourGrid, ShowColours};
pub use engine::{
    FamilyAnswer, FamilyMoves, FamilySolver, MAX_SEARCH_BITS, PressValue, SEARCH_BITS_CEILING,
};
pub use info::{HISTOGRAM_MAX_BITS, QuietGroup, VariantInfo, histogram};
pub use variant::{FamilyGoal, Pattern, Stencil, Variant};

/// The Lights Out family as `boardbase check lights` sets it: no judge sets
/// this problem, so the limits are boardbase's own. 1 s a run of 100 boards
/// (`boardbase lights solve` answers a small variant's board in
/// microseconds), and 64 MB, the figure of the other puzzles' judges.
pub static LIGHTS: Problem = Problem {
    command: "lights",
    judge: "no original judge",
    time_limit: Duration::from_secs(1),
    memory_limit: 64 * MB,
    noun: ("board", "boards"),
    max_cases: 100,
    limits: "",
};

/// [`FamilySolver::solve`] with the process-wide solver of the variant.
pub fn solve(
    variant: &Variant,
    board: &ColourGrid,
    goal: FamilyGoal,
) -> Result<Option<FamilyAnswer>, LightsError> {
    FamilySolver::cached(variant).solve(board, goal)
}

/// [`FamilySolver::solve_within`] with the process-wide solver of the
/// variant.
pub fn solve_within(
    variant: &Variant,
    board: &ColourGrid,
    goal: FamilyGoal,
    max_bits: usize,
) -> Result<Option<FamilyAnswer>, LightsError> {
    FamilySolver::cached(variant).solve_within(board, goal, max_bits)
}

/// [`FamilySolver::move_values`] with the process-wide solver of the
/// variant.
pub fn move_values(
    variant: &Variant,
    board: &ColourGrid,
    goal: FamilyGoal,
) -> Result<Option<FamilyMoves>, LightsError> {
    FamilySolver::cached(variant).move_values(board, goal)
}

/// [`FamilySolver::info`] with the process-wide solver of the variant.
///
/// ```
/// use boardbase::lights::family::{self, Variant};
///
/// // The classic 5×5: nullity 2, and every solvable board is cleared in
/// // at most 15 presses ("God's number").
/// let info = family::info(&Variant::new(5, 5, 2)?);
/// assert_eq!(info.nullity, Some(2));
/// assert_eq!(info.solvable_boards, (1u32 << 23).into());
/// assert_eq!(info.max_presses, Some(15));
/// # Ok::<(), boardbase::lights::LightsError>(())
/// ```
pub fn info(variant: &Variant) -> VariantInfo {
    FamilySolver::cached(variant).info()
}
