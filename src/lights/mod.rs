//! Flip and Lights Out on any board up to 64×64, solved at run time by
//! linear algebra over GF(2).
//!
//! Pressing a cell flips it and its orthogonal neighbours. Presses commute
//! and pressing twice undoes a press, so a press set is a vector over GF(2)
//! and its effect is linear: the boards one press set can clear form a
//! linear space, and every question here is a linear system.
//!
//! # Method
//!
//! *Light chasing*: once the presses of row 0 are chosen, every later row is
//! forced (press under each cell still lit in the row above), and what stays
//! lit in the last row is an affine function of row 0. So a board of `R`
//! rows and `C` columns reduces to a `C`×`C` system over GF(2). A
//! [`Solver`] does the Gaussian elimination of that system once per shape
//! (bit rows, one `u64` a row); [`Solver::cached`] keeps one per shape for
//! the life of the process, shared by every thread. A query then chases the
//! lights twice (`2·R` word operations), solves the system (`C` parity
//! checks), and has `2^k` press sets that reach the goal, `k` being the
//! shape's **nullity** (the dimension of the press sets that change
//! nothing). The fewest presses is the lightest of them, found by looking at
//! all `2^k`:
//!
//! - by Gray code (each step XORs one pattern of `R` words and counts the
//!   presses) when `2^k · R` is small;
//! - otherwise by a Walsh–Hadamard transform: with `v(cell)` the `k` bits
//!   saying which quiet patterns press the cell, the number of presses of
//!   every one of the `2^k` sets is `(cells − W(y)) / 2`, where `W` is the
//!   transform of the signed count of cells per `v`: `k · 2^k` additions on
//!   16-bit lanes, in blocks of at most 2^20 (2 MiB, one buffer a thread).
//!
//! # Exactness
//!
//! Every answer is exact: the fewest presses, the number of optimal press
//! sets and the tie rule below are computed over all `2^k` press sets.
//! [`Solver::solve`] does this whenever the nullity is at most
//! [`MAX_NULLITY`] (24), which covers every board up to 32×32 (the largest
//! nullity there is 20, at 30×30 and 32×32) and 4,082 of the 4,096 shapes up
//! to 64×64. The other 14 are 27×35 (nullity 27), 31×47 (31), 35×55 (31),
//! 39×39 (32), 47×47 (30), 47×63 (32), 61×61 (40), 62×64 (36), 64×64 (28) and
//! their transposes. For them `solve` returns
//! [`LightsError::NullityTooLarge`], never a press set it has not proven
//! minimal; [`Solver::solve_within`] searches them anyway when the caller
//! accepts the cost (`k · 2^k` additions: under a second for 64×64),
//! and [`Solver::any_solution`] gives a press set that reaches the goal at
//! once, without any claim of minimality.
//!
//! # Tie rule
//!
//! Among the optimal press sets of a colour, the one reported is the least in
//! lexicographic order of its row-major string (`'0'` < `'1'`, row 0 first,
//! column 0 first): the earliest cell where two optimal sets differ is left
//! unpressed. This is the rule of POJ 3279 ("Fliptile"), applied to every
//! goal. For [`Goal::Either`], the colour with fewer presses wins; when both
//! take equally many, the answer is the white one (as Flip Game's 4×4 tables
//! do), and [`Answer::optimal_sets`] counts both colours' sets.
//!
//! The rule costs nothing: the quiet patterns are kept in reduced echelon
//! form over the cells in reading order, so the order of the press sets is
//! the numeric order of their `k` coordinates, and the search keeps the first
//! optimum it meets.
//!
//! # The family
//!
//! [`family`] is the general engine of the whole family: K colours (2 to 16), the
//! torus, the other press patterns and custom stencils, solved over Z_K
//! with the same promises (proven fewest presses, the number of optimal
//! vectors, a documented tie rule, a limit). It answers the classic game
//! (2 colours, plus, no wrap) with the [`Solver`] of this module, so the two
//! are one engine and cannot disagree.
//!
//! # Example
//!
//! ```
//! use boardbase::lights::{self, Colour, Goal, Grid};
//!
//! // POJ 3279's sample (1 = black):
//! //   b w w b
//! //   w b b w
//! //   w b b w
//! //   b w w b
//! let board: Grid = "1001/0110/0110/1001".parse()?;
//! let answer = lights::solve(&board, Goal::White)?.expect("solvable");
//! assert_eq!(answer.rounds, 4);
//! assert_eq!(answer.optimal_sets, 2);
//! // The lesser of the two in reading order (the other presses the
//! // middle two cells of rows 0 and 3):
//! //   . . . .
//! //   x . . x
//! //   x . . x
//! //   . . . .
//! assert_eq!(answer.presses.show('x', '.').to_string(), "....\nx..x\nx..x\n....");
//! assert_eq!(board.apply(&answer.presses).uniform(), Some(Colour::White));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

// One job a file: `grid.rs` the board type, its errors and its text form;
// `solver.rs` the solver of a shape (the linear algebra), the goals,
// answers and errors, and the functions on the process-wide solvers;
// `search.rs` the search over the `2^k` press sets of a board (Gray code,
// Walsh–Hadamard blocks, the move values' spread); `wht.rs` the
// Walsh–Hadamard transform it runs; `judge.rs` the judges' text formats
// (POJ 3279, POJ 1222). Only `mod.rs` reaches into all of them; `grid.rs`
// and `wht.rs` use none, `search.rs` uses those two, `judge.rs` the grid,
// `solver.rs` the grid and the search. `family/` (K colours, any pattern)
// uses the public API of the rest (the Solver, Grid), which uses nothing
// of it.
use crate::catalogue::entry::{Game, GameKind};

mod error;
pub mod family;
mod grid;
mod judge;
mod search;
mod solver;
mod wht;

pub use crate::flip::Colour;
pub use error::LightsError;
pub use grid::{ALPHABET, Grid, Show};
pub use judge::{
    CELLS, FliptileCase, LIGHTS_OUT, NO_FLIPTILE_CASE, POJ_1222, POJ_3279, read_fliptile_case,
    read_lights_out_count, read_lights_out_puzzle, write_judge_rows,
};
pub use search::Search;

pub use solver::{
    Answer, ColourMoves, Goal, MAX_NULLITY, MoveValues, PAST_MAX_NULLITY, Routes, Solver,
    move_values, nullity, routes, solve,
};

/// Lights Out, with Fliptile and Flip on any board, in the
/// [catalogue](crate::catalogue).
pub static GAME: Game = Game {
    name: "lights",
    title: "Lights Out",
    kind: GameKind::OnePlayer,
    question: "fewest presses to a uniform board, K colours, tori, any pattern",
    sizes: "any board up to 64x64",
    tables: false,
    problems: &[&judge::POJ_3279, &judge::POJ_1222, &family::LIGHTS],
};
