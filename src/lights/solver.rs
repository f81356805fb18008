//! The solver of [`lights`](super): what a board should become ([`Goal`]),
//! the answers ([`Answer`], [`Routes`], [`ColourMoves`], [`MoveValues`])
//! and their errors ([`LightsError`]), and the [`Solver`] of one shape,
//! which eliminates the light-chasing system over GF(2), finds the quiet
//! patterns and hands the `2^k` press sets of a board to the search.

use core::fmt;
use std::sync::OnceLock;

use boardbase_tables::shape::{MAX_SIDE, Shape};

use super::error::LightsError;
use super::grid::Grid;
use super::search::{Best, NullSpace, Search};
use crate::flip::Colour;

/// The largest nullity whose `2^k` press sets [`Solver::solve`] searches
/// (at most about 30 ms a colour on one core): every answer for a shape of
/// nullity at most this is exact (fewest presses, count, tie rule); above it,
/// [`LightsError::NullityTooLarge`]. [`Solver::solve_within`] takes another
/// limit.
pub const MAX_NULLITY: usize = 24;

/// The 14 shapes (rows, columns) up to 64×64 whose nullity is over
/// [`MAX_NULLITY`], in reading order: the ones [`Solver::solve`] refuses.
pub const PAST_MAX_NULLITY: [(usize, usize); 14] = [
    (27, 35),
    (31, 47),
    (35, 27),
    (35, 55),
    (39, 39),
    (47, 31),
    (47, 47),
    (47, 63),
    (55, 35),
    (61, 61),
    (62, 64),
    (63, 47),
    (64, 62),
    (64, 64),
];

/// What a board should become.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Goal {
    /// Every cell clear (white, or every light off): POJ 3279, POJ 1222.
    White,
    /// Every cell set (black).
    Black,
    /// Either uniform board, whichever takes fewer presses (white on a tie):
    /// Flip Game's goal.
    Either,
}

impl From<Colour> for Goal {
    fn from(c: Colour) -> Goal {
        match c {
            Colour::White => Goal::White,
            Colour::Black => Goal::Black,
        }
    }
}

/// An optimal way to a uniform board.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Answer {
    /// The colour reached.
    pub colour: Colour,
    /// Fewest presses (rounds): `presses.count()`.
    pub rounds: usize,
    /// The optimal press set of the tie rule: the least in reading order
    /// (see the [module documentation](super)).
    pub presses: Grid,
    /// How many distinct press sets reach the goal in `rounds` presses
    /// (both colours' when [`Goal::Either`] ties): exact, at least 1.
    pub optimal_sets: u64,
}

impl Answer {
    /// Whether the optimal press set is the only one.
    pub fn is_unique(&self) -> bool {
        self.optimal_sets == 1
    }
}

/// Both colours' answers for one board: see [`Solver::routes`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Routes {
    /// The optimal way to all white, `None` when it cannot be reached.
    pub white: Option<Answer>,
    /// The optimal way to all black, `None` when it cannot be reached.
    pub black: Option<Answer>,
}

impl Routes {
    /// The answer for [`Goal::Either`]: the colour with fewer presses, white
    /// on a tie, counting both colours' optimal sets on a tie.
    pub fn best(&self) -> Option<Answer> {
        match (&self.white, &self.black) {
            (None, None) => None,
            (Some(w), None) => Some(w.clone()),
            (None, Some(b)) => Some(b.clone()),
            (Some(w), Some(b)) if b.rounds < w.rounds => Some(b.clone()),
            (Some(w), Some(b)) if w.rounds < b.rounds => Some(w.clone()),
            (Some(w), Some(b)) => Some(Answer {
                optimal_sets: w.optimal_sets + b.optimal_sets,
                ..w.clone()
            }),
        }
    }
}

/// What pressing each cell of a board leads to, towards one colour: see
/// [`Solver::move_values`].
///
/// With `m` = [`answer.rounds`](Answer::rounds) the fewest presses from the
/// board, the fewest from the board after pressing a cell is `m − 1` when
/// the cell is in [`in_optimal`](Self::in_optimal), else `m` when it is in
/// [`in_next`](Self::in_next), else `m + 1`
/// ([`rounds_after`](Self::rounds_after)).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ColourMoves {
    /// The board's own answer for this colour, as [`Solver::route`] gives
    /// it.
    pub answer: Answer,
    /// The cells pressed by at least one optimal press set (of
    /// `answer.rounds` presses).
    pub in_optimal: Grid,
    /// The cells pressed by at least one press set of `answer.rounds + 1`
    /// presses that reaches the colour.
    pub in_next: Grid,
}

impl ColourMoves {
    /// The fewest presses to this colour from the board after pressing
    /// (`row`, `col`).
    pub fn rounds_after(&self, row: usize, col: usize) -> usize {
        let m = self.answer.rounds;
        if self.in_optimal.get(row, col) {
            m - 1
        } else if self.in_next.get(row, col) {
            m
        } else {
            m + 1
        }
    }
}

/// A board's answers for both colours and what pressing each cell leads
/// to: see [`Solver::move_values`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MoveValues {
    /// Towards all white; `None` when white cannot be reached (from the
    /// board, or from any board one press away).
    pub white: Option<ColourMoves>,
    /// Towards all black; `None` when black cannot be reached.
    pub black: Option<ColourMoves>,
}

impl MoveValues {
    /// The board's own answers, as [`Solver::routes`] gives them.
    pub fn routes(&self) -> Routes {
        Routes {
            white: self.white.as_ref().map(|m| m.answer.clone()),
            black: self.black.as_ref().map(|m| m.answer.clone()),
        }
    }

    /// The fewest presses to either colour (Flip Game's goal) from the
    /// board after pressing (`row`, `col`); `None` when neither colour can
    /// be reached.
    pub fn rounds_after(&self, row: usize, col: usize) -> Option<usize> {
        let white = self.white.as_ref().map(|m| m.rounds_after(row, col));
        let black = self.black.as_ref().map(|m| m.rounds_after(row, col));
        match (white, black) {
            (Some(w), Some(b)) => Some(w.min(b)),
            (w, b) => w.or(b),
        }
    }
}

/// Everything about one shape that does not depend on the board: the
/// eliminated light-chasing system and the quiet press patterns.
///
/// Build one with [`Solver::new`] (microseconds to a millisecond, depending
/// on the shape), or borrow the process-wide one with [`Solver::cached`].
/// A solver is immutable, so one can serve any number of threads.
///
/// ```
/// use boardbase::lights::{Goal, Grid, Solver};
/// use boardbase::tables::shape::Shape;
///
/// let solver = Solver::cached(Shape::new(5, 5).unwrap());
/// assert_eq!((solver.nullity(), solver.rank()), (2, 3));
/// // A 5×5 Lights Out with every light on: 15 presses, in 4 ways.
/// let board: Grid = "11111/11111/11111/11111/11111".parse()?;
/// let a = solver.solve(&board, Goal::White)?.expect("solvable");
/// assert_eq!((a.rounds, a.optimal_sets), (15, 4));
/// // The least of the four in reading order:
/// assert_eq!(
///     a.presses.show('x', '.').to_string(),
///     "...xx\nxx.xx\nxxx..\n.xxx.\nx.xx."
/// );
/// assert!(board.apply(&a.presses).is_empty());
/// // One lit corner cannot be put out on 5×5.
/// let corner: Grid = "10000/00000/00000/00000/00000".parse()?;
/// assert_eq!(solver.solve(&corner, Goal::White)?, None);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Solver {
    shape: Shape,
    /// Rank of the `C`×`C` system.
    rank: usize,
    /// Rows of the elimination: for `i < rank`, the pivot bit `pivots[i]`
    /// of the first row is the parity of `elim[i] & residual`; for
    /// `rank <= i < C`, that parity must be 0 for the board to be solvable.
    elim: [u64; MAX_SIDE],
    /// Pivot column of each of the first `rank` rows of `elim`.
    pivots: [u8; MAX_SIDE],
    /// Row 0 of each quiet pattern, in reduced echelon form with respect to
    /// the columns (pivot = lowest bit, set in no other pattern), ordered by
    /// pivot: pattern `i` is coordinate bit `k - 1 - i` of a press set.
    quiet_first: [u64; MAX_SIDE],
    /// The quiet patterns, as the search walks them.
    null: NullSpace,
}

impl Solver {
    /// Eliminates the light-chasing system of `shape` and finds its quiet
    /// patterns.
    pub fn new(shape: Shape) -> Solver {
        let (rows, cols, mask) = (shape.rows(), shape.cols(), shape.row_mask());
        let zeros = [0u64; MAX_SIDE];
        // Column j of the system: what stays lit in the last row when only
        // (0, j) is pressed in row 0 and the lights are chased.
        let mut m_rows = [0u64; MAX_SIDE];
        for j in 0..cols {
            let residual = chase_residual(&zeros[..rows], mask, 1 << j);
            for (i, row) in m_rows.iter_mut().enumerate().take(cols) {
                *row |= (residual >> i & 1) << j;
            }
        }
        // Gauss–Jordan on [M | I]: m_rows becomes the reduced echelon form,
        // elim the combination of the original rows each row is.
        let mut elim = [0u64; MAX_SIDE];
        for (i, e) in elim.iter_mut().enumerate().take(cols) {
            *e = 1 << i;
        }
        let mut pivots = [0u8; MAX_SIDE];
        let mut rank = 0;
        for col in 0..cols {
            let Some(p) = (rank..cols).find(|&i| m_rows[i] >> col & 1 == 1) else {
                continue;
            };
            m_rows.swap(p, rank);
            elim.swap(p, rank);
            for i in 0..cols {
                if i != rank && m_rows[i] >> col & 1 == 1 {
                    m_rows[i] ^= m_rows[rank];
                    elim[i] ^= elim[rank];
                }
            }
            pivots[rank] = col as u8;
            rank += 1;
        }
        // The null space of M: one vector per free column.
        let pivot_mask = pivots[..rank].iter().fold(0u64, |m, &p| m | 1 << p);
        let mut basis: Vec<u64> = (0..cols)
            .filter(|&j| pivot_mask >> j & 1 == 0)
            .map(|j| {
                let mut v = 1u64 << j;
                for i in 0..rank {
                    if m_rows[i] >> j & 1 == 1 {
                        v |= 1 << pivots[i];
                    }
                }
                v
            })
            .collect();
        // Reduced echelon form with the lowest bit as pivot, by pivot.
        let k = basis.len();
        let mut quiet_first = [0u64; MAX_SIDE];
        let mut done = 0;
        for bit in 0..cols {
            let Some(p) = (done..k).find(|&i| basis[i] >> bit & 1 == 1) else {
                continue;
            };
            basis.swap(p, done);
            for i in 0..k {
                if i != done && basis[i] >> bit & 1 == 1 {
                    basis[i] ^= basis[done];
                }
            }
            done += 1;
        }
        debug_assert_eq!(done, k);
        quiet_first[..k].copy_from_slice(&basis);
        let mut quiet = vec![0u64; k * rows];
        for (i, pattern) in quiet.chunks_exact_mut(rows.max(1)).enumerate().take(k) {
            let residual = chase(&zeros[..rows], mask, quiet_first[i], pattern);
            debug_assert_eq!(residual, 0, "a quiet pattern leaves nothing lit");
        }
        Solver {
            shape,
            rank,
            elim,
            pivots,
            quiet_first,
            null: NullSpace::new(shape, k, quiet),
        }
    }

    /// The process-wide solver of `shape`, built on first use and kept for
    /// the life of the process (about 1 KiB a shape, plus 8 bytes a cell
    /// and 8 bytes a row per quiet pattern when the nullity is not 0: 48 KiB
    /// for 64×64).
    /// Thread-safe: concurrent first uses build it once.
    pub fn cached(shape: Shape) -> &'static Solver {
        static CACHE: [OnceLock<Box<Solver>>; MAX_SIDE * MAX_SIDE] =
            [const { OnceLock::new() }; MAX_SIDE * MAX_SIDE];
        let slot = &CACHE[(shape.rows() - 1) * MAX_SIDE + shape.cols() - 1];
        slot.get_or_init(|| Box::new(Solver::new(shape)))
    }

    /// The shape this solver answers.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The nullity `k`: the dimension of the press sets that change nothing.
    /// A board that can reach a colour reaches it by exactly `2^k` press
    /// sets, and `2^(cells − k)` boards of the shape can reach white.
    pub fn nullity(&self) -> usize {
        self.shape.cols() - self.rank
    }

    /// The rank of the `C`×`C` light-chasing system (`C − nullity`).
    pub fn rank(&self) -> usize {
        self.rank
    }

    /// Whether [`solve`](Self::solve) answers this shape: nullity at most
    /// [`MAX_NULLITY`]. When `false`, it returns
    /// [`LightsError::NullityTooLarge`]; [`solve_within`](Self::solve_within)
    /// with a higher limit still answers exactly, at the cost of searching
    /// `2^nullity` press sets.
    pub fn is_exact(&self) -> bool {
        self.nullity() <= MAX_NULLITY
    }

    /// A basis of the quiet patterns: the `nullity` press sets, independent
    /// over GF(2), that change nothing, in reduced echelon form in reading
    /// order (each has a first pressed cell in row 0 that no other presses).
    ///
    /// ```
    /// use boardbase::lights::{Grid, Solver};
    /// use boardbase::tables::shape::Shape;
    ///
    /// let solver = Solver::cached(Shape::new(4, 4).unwrap());
    /// let quiet: Vec<_> = solver.quiet_patterns().collect();
    /// assert_eq!(quiet.len(), 4);
    /// // The first: pressing these 8 cells of a 4×4 board changes nothing.
    /// //   x . . .
    /// //   x x . .
    /// //   x . x .
    /// //   . x x x
    /// assert_eq!(quiet[0].show('x', '.').to_string(), "x...\nxx..\nx.x.\n.xxx");
    /// let board: Grid = "bwwb/bbwb/bwwb/bwww".parse()?;
    /// for p in &quiet {
    ///     assert_eq!(board.apply(p), board);
    /// }
    /// # Ok::<(), boardbase::error::ParseError>(())
    /// ```
    pub fn quiet_patterns(&self) -> impl Iterator<Item = Grid> + '_ {
        (0..self.nullity()).map(move |i| {
            let mut g = Grid::new(self.shape);
            g.rows_mut().copy_from_slice(self.null.pattern(i));
            g
        })
    }

    /// The fewest presses from `board` to `goal`, with the tie rule's press
    /// set and the number of optimal sets; `Ok(None)` when the goal cannot be
    /// reached. Shapes of nullity over [`MAX_NULLITY`] are refused.
    pub fn solve(&self, board: &Grid, goal: Goal) -> Result<Option<Answer>, LightsError> {
        self.solve_within(board, goal, MAX_NULLITY)
    }

    /// [`solve`](Self::solve) for shapes of nullity up to `max_nullity`:
    /// the search looks at `2^nullity` press sets a colour, about
    /// `nullity · 2^nullity` 16-bit additions, in blocks of 2^20 shared
    /// among rayon's threads. Measured on 2 shared cores (see docs/performance.md):
    /// nullity 20 (32×32) 2.7 ms, 24 (62×62) 51 ms, 28 (64×64) 0.77 s; so
    /// 32 (39×39) about 15 s and 40 (61×61) about an hour.
    pub fn solve_within(
        &self,
        board: &Grid,
        goal: Goal,
        max_nullity: usize,
    ) -> Result<Option<Answer>, LightsError> {
        match goal {
            Goal::White => self.route_within(board, Colour::White, max_nullity),
            Goal::Black => self.route_within(board, Colour::Black, max_nullity),
            Goal::Either => Ok(self.routes_within(board, max_nullity)?.best()),
        }
    }

    /// Both colours' answers for `board` (nullity up to [`MAX_NULLITY`]).
    pub fn routes(&self, board: &Grid) -> Result<Routes, LightsError> {
        self.routes_within(board, MAX_NULLITY)
    }

    /// [`routes`](Self::routes) for nullity up to `max_nullity` (see
    /// [`solve_within`](Self::solve_within)).
    pub fn routes_within(&self, board: &Grid, max_nullity: usize) -> Result<Routes, LightsError> {
        Ok(Routes {
            white: self.route_within(board, Colour::White, max_nullity)?,
            black: self.route_within(board, Colour::Black, max_nullity)?,
        })
    }

    /// The fewest presses from `board` to all `colour`; `Ok(None)` when it
    /// cannot be reached (nullity up to [`MAX_NULLITY`]).
    pub fn route(&self, board: &Grid, colour: Colour) -> Result<Option<Answer>, LightsError> {
        self.route_within(board, colour, MAX_NULLITY)
    }

    /// [`route`](Self::route) for nullity up to `max_nullity` (see
    /// [`solve_within`](Self::solve_within)).
    pub fn route_within(
        &self,
        board: &Grid,
        colour: Colour,
        max_nullity: usize,
    ) -> Result<Option<Answer>, LightsError> {
        self.route_by(board, colour, max_nullity, Search::Auto)
    }

    /// [`route_within`](Self::route_within) with a chosen search (internal;
    /// for the tests).
    #[doc(hidden)]
    pub fn route_by(
        &self,
        board: &Grid,
        colour: Colour,
        max_nullity: usize,
        search: Search,
    ) -> Result<Option<Answer>, LightsError> {
        let Some(x0) = self.particular_within(board, colour, max_nullity)? else {
            return Ok(None);
        };
        let best = self.null.search(&x0, search);
        Ok(Some(self.answer(colour, x0, &best)))
    }

    /// [`LightsError::NullityTooLarge`] when the nullity is over `max_nullity`.
    fn check_nullity(&self, max_nullity: usize) -> Result<(), LightsError> {
        let k = self.nullity();
        if k > max_nullity {
            return Err(LightsError::NullityTooLarge {
                shape: self.shape,
                nullity: k,
                max: max_nullity,
            });
        }
        Ok(())
    }

    /// The answer of a finished search.
    fn answer(&self, colour: Colour, x0: Grid, best: &Best) -> Answer {
        let presses = self.null.press_set(x0, best.coords);
        debug_assert_eq!(presses.count(), best.rounds);
        Answer {
            colour,
            rounds: best.rounds,
            presses,
            optimal_sets: best.count,
        }
    }

    /// Both colours' answers for `board` and, for every cell, the fewest
    /// presses from the board after pressing it, without solving those
    /// `R·C` boards one by one (nullity up to [`MAX_NULLITY`]).
    ///
    /// # Method
    ///
    /// Let `A` be the press matrix over GF(2), `x` a press set that takes
    /// the board to the colour and `N` the quiet press sets (the null space
    /// of `A`): the press sets that do it are the coset `x + N`. Pressing
    /// cell `i` adds column `i` of `A` to the board, so the press sets of
    /// the new board are `x + e_i + N`: each `v` of the coset gives one,
    /// `v + e_i`, with one press fewer when `v` presses cell `i` and one
    /// more when it does not. With `m` the fewest presses in the coset,
    /// the fewest after pressing `i` is therefore
    ///
    /// - `m − 1` when some press set of `m` presses presses `i`;
    /// - else `m` when some press set of `m + 1` presses presses `i` (one
    ///   of `m` presses without `i` gives `m + 1`, and sets of `m + 2` or
    ///   more give at least `m + 1`);
    /// - else `m + 1`.
    ///
    /// So one search of the `2^k` press sets that ORs together those of
    /// `m` presses ([`ColourMoves::in_optimal`]) and those of `m + 1`
    /// ([`ColourMoves::in_next`]) gives every press's value, per colour; the
    /// value for either colour is the lesser of the two. A press never
    /// changes which colours can be reached (it adds a column of `A`, which
    /// the colour's press sets absorb).
    ///
    /// Small nullities (at most 12) walk the press sets by Gray code, as
    /// the search of [`solve`](Self::solve) does. Larger ones use the
    /// Walsh–Hadamard transform twice over: once for the sizes of all
    /// `2^k` press sets (as `solve`), then, in blocks of 2^14 coordinates,
    /// on the indicator `g` of the sets of `m` presses (and of `m + 1`):
    /// the number of those that press cell `i` is
    /// `(|g| − s_i·G(v_i)) / 2`, where `G` is the transform of `g`, `v_i`
    /// the coordinates of the quiet patterns that press `i`, and `s_i = −1`
    /// when `x` presses `i` (else 1). Blocks holding no such set are
    /// skipped; the cost is at most three times [`solve`](Self::solve)'s.
    ///
    /// ```
    /// use boardbase::lights::{Colour, Grid, Solver};
    /// use boardbase::tables::shape::Shape;
    ///
    /// // 3×3, nullity 0: every board has a single press set per colour.
    /// //   b b w        x . .
    /// //   b w w        . . .    one press, at (0, 0), makes it white
    /// //   w w w        . . .
    /// let board: Grid = "bbw/bww/www".parse()?;
    /// let solver = Solver::cached(board.shape());
    /// let values = solver.move_values(&board)?;
    /// let white = values.white.as_ref().expect("white can be reached");
    /// assert_eq!(white.answer.rounds, 1);
    /// assert_eq!(white.rounds_after(0, 0), 0); // the press that solves it
    /// assert_eq!(white.rounds_after(2, 2), 2); // any other press: one more to undo
    /// // The same as solving the board after each press:
    /// for (r, c) in (0..3).flat_map(|r| (0..3).map(move |c| (r, c))) {
    ///     let after = board.press(r, c);
    ///     let solved = solver.route(&after, Colour::White)?.map(|a| a.rounds);
    ///     assert_eq!(solved, Some(white.rounds_after(r, c)));
    ///     let either = solver.routes(&after)?.best().map(|a| a.rounds);
    ///     assert_eq!(either, values.rounds_after(r, c));
    /// }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn move_values(&self, board: &Grid) -> Result<MoveValues, LightsError> {
        self.move_values_within(board, MAX_NULLITY)
    }

    /// [`move_values`](Self::move_values) for nullity up to `max_nullity`
    /// (see [`solve_within`](Self::solve_within)).
    pub fn move_values_within(
        &self,
        board: &Grid,
        max_nullity: usize,
    ) -> Result<MoveValues, LightsError> {
        Ok(MoveValues {
            white: self.colour_moves_by(board, Colour::White, max_nullity, Search::Auto)?,
            black: self.colour_moves_by(board, Colour::Black, max_nullity, Search::Auto)?,
        })
    }

    /// One colour's part of [`move_values_within`](Self::move_values_within)
    /// with a chosen search (internal; for the tests).
    #[doc(hidden)]
    pub fn colour_moves_by(
        &self,
        board: &Grid,
        colour: Colour,
        max_nullity: usize,
        search: Search,
    ) -> Result<Option<ColourMoves>, LightsError> {
        let Some(x0) = self.particular_within(board, colour, max_nullity)? else {
            return Ok(None);
        };
        let (best, in_optimal, in_next) = self.null.spread(&x0, search);
        Ok(Some(ColourMoves {
            answer: self.answer(colour, x0, &best),
            in_optimal,
            in_next,
        }))
    }

    /// One press set from `board` to all `colour`, with no claim that it is
    /// the fewest (it is the one whose row 0 is clear at every pivot of the
    /// quiet patterns); `Ok(None)` when the colour cannot be reached. Works
    /// for every nullity.
    pub fn any_solution(&self, board: &Grid, colour: Colour) -> Result<Option<Grid>, LightsError> {
        self.check_shape(board)?;
        let mut x0 = Grid::new(self.shape);
        Ok(self.particular(board, colour, &mut x0).then_some(x0))
    }

    /// What every search starts from: the board's shape and the nullity
    /// checked (in that order), then the particular press set to `colour`
    /// ([`any_solution`](Self::any_solution)'s); `Ok(None)` when the colour
    /// cannot be reached.
    fn particular_within(
        &self,
        board: &Grid,
        colour: Colour,
        max_nullity: usize,
    ) -> Result<Option<Grid>, LightsError> {
        self.check_shape(board)?;
        self.check_nullity(max_nullity)?;
        let mut x0 = Grid::new(self.shape);
        Ok(self.particular(board, colour, &mut x0).then_some(x0))
    }

    fn check_shape(&self, board: &Grid) -> Result<(), LightsError> {
        if board.shape() == self.shape {
            Ok(())
        } else {
            Err(LightsError::ShapeMismatch {
                expected: self.shape,
                found: board.shape(),
            })
        }
    }

    /// Writes into `x0` the press set to `colour` whose row 0 is clear at
    /// the quiet patterns' pivots; `false` when there is none.
    fn particular(&self, board: &Grid, colour: Colour, x0: &mut Grid) -> bool {
        let (rows, cols, mask) = (self.shape.rows(), self.shape.cols(), self.shape.row_mask());
        let target = match colour {
            Colour::White => 0,
            Colour::Black => mask,
        };
        let mut d = [0u64; MAX_SIDE];
        for (d, &b) in d.iter_mut().zip(board.rows()) {
            *d = b ^ target;
        }
        let d = &d[..rows];
        let residual = chase_residual(d, mask, 0);
        let mut first = 0u64;
        for i in 0..self.rank {
            first |= u64::from((self.elim[i] & residual).count_ones() & 1) << self.pivots[i];
        }
        for i in self.rank..cols {
            if (self.elim[i] & residual).count_ones() & 1 == 1 {
                return false;
            }
        }
        // Clear the pivots: the press set with all coordinates 0.
        for &q in &self.quiet_first[..self.nullity()] {
            if first & q & q.wrapping_neg() != 0 {
                first ^= q;
            }
        }
        let left = chase(d, mask, first, x0.rows_mut());
        debug_assert_eq!(left, 0, "the particular solution clears the board");
        true
    }
}

impl fmt::Debug for Solver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Solver")
            .field("shape", &self.shape)
            .field("rank", &self.rank)
            .field("nullity", &self.nullity())
            .finish_non_exhaustive()
    }
}

/// Chases the lights of `d` (one word a row) with `first` pressed in row 0:
/// writes every row's presses into `x` and returns what stays lit in the
/// last row.
#[inline]
fn chase(d: &[u64], mask: u64, first: u64, x: &mut [u64]) -> u64 {
    let (mut prev, mut cur) = (0u64, first);
    for (x, &d) in x.iter_mut().zip(d) {
        *x = cur;
        let next = (d ^ cur ^ (cur << 1) ^ (cur >> 1) ^ prev) & mask;
        prev = cur;
        cur = next;
    }
    cur
}

/// [`chase`] without writing the presses.
#[inline]
fn chase_residual(d: &[u64], mask: u64, first: u64) -> u64 {
    let (mut prev, mut cur) = (0u64, first);
    for &d in d {
        let next = (d ^ cur ^ (cur << 1) ^ (cur >> 1) ^ prev) & mask;
        prev = cur;
        cur = next;
    }
    cur
}

/// [`Solver::solve`] with the process-wide solver of the board's shape
/// ([`Solver::cached`]).
pub fn solve(board: &Grid, goal: Goal) -> Result<Option<Answer>, LightsError> {
    Solver::cached(board.shape()).solve(board, goal)
}

/// [`Solver::routes`] with the process-wide solver of the board's shape.
pub fn routes(board: &Grid) -> Result<Routes, LightsError> {
    Solver::cached(board.shape()).routes(board)
}

/// [`Solver::move_values`] with the process-wide solver of the board's
/// shape.
pub fn move_values(board: &Grid) -> Result<MoveValues, LightsError> {
    Solver::cached(board.shape()).move_values(board)
}

/// The nullity of `shape` (see [`Solver::nullity`]), from the cached solver.
///
/// ```
/// use boardbase::lights::nullity;
/// use boardbase::tables::shape::Shape;
///
/// let n = |r, c| nullity(Shape::new(r, c).unwrap());
/// assert_eq!((n(4, 4), n(5, 5), n(5, 6), n(9, 9), n(19, 19)), (4, 2, 0, 8, 16));
/// ```
pub fn nullity(shape: Shape) -> usize {
    Solver::cached(shape).nullity()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(r: usize, c: usize) -> Shape {
        Shape::new(r, c).unwrap()
    }

    #[test]
    fn quiet_patterns_change_nothing_and_are_echelon() {
        for (r, c) in [
            (4, 4),
            (5, 5),
            (9, 9),
            (1, 1),
            (1, 5),
            (2, 3),
            (16, 16),
            (64, 64),
        ] {
            let s = Solver::new(shape(r, c));
            let mut seen_pivots = 0u64;
            for p in s.quiet_patterns() {
                let board = Grid::filled(shape(r, c));
                assert_eq!(board.apply(&p), board);
                let first = p.row(0);
                assert_ne!(first, 0);
                let pivot = first & first.wrapping_neg();
                assert_eq!(seen_pivots & first, 0, "pivot of an earlier pattern");
                seen_pivots |= pivot;
            }
        }
    }

    #[test]
    fn gray_and_walsh_agree() {
        for (r, c) in [(4, 4), (5, 5), (9, 9), (11, 11), (16, 16), (2, 5), (17, 17)] {
            let s = Solver::new(shape(r, c));
            let mut x = 0x9E37_79B9_7F4A_7C15u64;
            for _ in 0..6 {
                let mut rows = [0u64; 64];
                for row in rows.iter_mut().take(r) {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    *row = x & shape(r, c).row_mask();
                }
                // Pressing random cells of a white board gives a board that
                // can reach white (a random board rarely can).
                let presses = Grid::from_rows(shape(r, c), &rows[..r]).unwrap();
                let b = Grid::new(shape(r, c)).apply(&presses);
                assert!(s.route(&b, Colour::White).unwrap().is_some());
                for colour in Colour::ALL {
                    let g = s.route_by(&b, colour, 64, Search::Gray).unwrap();
                    for block_bits in [20, 3, 1] {
                        let w = s.route_by(&b, colour, 64, Search::Walsh { block_bits });
                        assert_eq!(w.unwrap(), g, "{r}x{c} {b:?} {colour} {block_bits}");
                    }
                }
            }
        }
    }
}
