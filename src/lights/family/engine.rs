//! The one engine of the [`family`](super): [`FamilySolver`], its answers
//! ([`FamilyAnswer`], [`FamilyMoves`], [`PressValue`]); its errors are
//! [`LightsError`], as the GF(2) solver's. The classic game (2 colours,
//! plus, no wrap) is answered by the GF(2) [`Solver`] of
//! [`lights`](crate::lights), every other variant by the [`RingSystem`]
//! over Z_K; both behind the same API.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use boardbase_tables::shape::Shape;
use num_bigint::BigUint;

use super::board::ColourGrid;
use super::info::{QuietGroup, VariantInfo, histogram};
use super::ring::invariant_factors;
use super::search::{Best, search};
use super::system::RingSystem;
use super::variant::{FamilyGoal, Variant};
use crate::flip::Colour;
use crate::lights::{Answer, Goal, Grid, LightsError, MAX_NULLITY, Solver};

/// The default limit of the search, in bits: a goal's press vectors are
/// searched when there are at most `2^MAX_SEARCH_BITS` of them (that is,
/// quiet patterns). For the classic game that is exactly
/// [`MAX_NULLITY`]: `2^k` press vectors, `k` the nullity.
pub const MAX_SEARCH_BITS: usize = MAX_NULLITY;

/// The most bits a search can be given: its counts are `u64`.
pub const SEARCH_BITS_CEILING: usize = 63;

/// An optimal press vector towards a goal.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FamilyAnswer {
    /// The colour every cell shows at the end.
    pub colour: u8,
    /// The fewest presses: `presses.total()`.
    pub rounds: usize,
    /// How many times to press each cell (0 to K − 1): the least optimal
    /// vector in reading order (the tie rule of the
    /// [module documentation](super)).
    pub presses: ColourGrid,
    /// How many press vectors reach the goal in `rounds` presses (for
    /// [`FamilyGoal::Any`], over every colour that takes that few): exact,
    /// at least 1.
    pub optimal_sets: u64,
}

/// What one press leads to: see [`FamilyMoves`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PressValue {
    /// 0-based row of the pressed cell.
    pub row: usize,
    /// 0-based column.
    pub col: usize,
    /// The fewest presses to the goal from the board after this one press.
    pub rounds_after: usize,
}

/// A board's answer and every press valued: see
/// [`FamilySolver::move_values`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FamilyMoves {
    /// The board's own answer, as [`FamilySolver::solve`] gives it.
    pub answer: FamilyAnswer,
    /// Every cell once, best first: by
    /// [`rounds_after`](PressValue::rounds_after), then in reading order.
    pub moves: Vec<PressValue>,
}

/// Which solver answers a variant.
enum Backend {
    /// The GF(2) solver of the shape: the classic game.
    Classic(&'static Solver),
    /// The system over Z_K.
    Ring(Box<RingSystem>),
}

/// Everything about one variant that does not depend on the board, and
/// every question about its boards.
///
/// Build one with [`FamilySolver::new`] or borrow the process-wide one
/// with [`FamilySolver::cached`]. Immutable, so one serves any number of
/// threads.
///
/// ```
/// use boardbase::lights::family::{ColourGrid, FamilyGoal, FamilySolver, Variant};
///
/// // Lights Out 2000: 3 colours, 3×3. Every board is solvable (no quiet
/// // pattern but pressing nothing), so each has one press vector a colour.
/// let solver = FamilySolver::cached(&Variant::new(3, 3, 3)?);
/// assert_eq!(solver.quiet_count(), 1u32.into());
/// let board = ColourGrid::parse("120/000/000", 3)?;
/// let a = solver.solve(&board, FamilyGoal::OFF)?.expect("solvable");
/// assert_eq!((a.rounds, a.optimal_sets), (8, 1));
/// // The press vector, and a check: it takes the board to all 0.
/// assert_eq!(format!("{:#}", a.presses), "202/001/120");
/// assert_eq!(solver.apply(&board, &a.presses).uniform(), Some(0));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct FamilySolver {
    variant: Variant,
    backend: Backend,
}

impl FamilySolver {
    /// The solver of `variant`: the GF(2) [`Solver`] for the classic game
    /// (shared with [`lights::solve`](crate::lights::solve)), else the
    /// system over Z_K, chased and reduced (`O(m³)` for `m` free unknowns:
    /// about `C` for the plus pattern, `2C` on a torus, `R + C` for `x` and
    /// `king`).
    pub fn new(variant: &Variant) -> FamilySolver {
        let backend = if variant.is_classic() {
            Backend::Classic(Solver::cached(variant.shape()))
        } else {
            Backend::Ring(Box::new(RingSystem::new(variant)))
        };
        FamilySolver {
            variant: variant.clone(),
            backend,
        }
    }

    /// The solver over Z_K even for the classic game (internal; for the
    /// tests that check the two against each other).
    #[doc(hidden)]
    pub fn new_ring(variant: &Variant) -> FamilySolver {
        FamilySolver {
            variant: variant.clone(),
            backend: Backend::Ring(Box::new(RingSystem::new(variant))),
        }
    }

    /// The process-wide solver of `variant`, built on first use and kept
    /// (up to 1,024 variants; past that the table starts afresh, the
    /// solvers handed out living on). Thread-safe; two threads asking for a
    /// new variant at once may both build it, and one is kept.
    pub fn cached(variant: &Variant) -> Arc<FamilySolver> {
        static CACHE: OnceLock<Mutex<HashMap<Variant, Arc<FamilySolver>>>> = OnceLock::new();
        let cache = CACHE.get_or_init(Default::default);
        let lock = || {
            cache
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner())
        };
        if let Some(s) = lock().get(variant) {
            return Arc::clone(s);
        }
        let built = Arc::new(FamilySolver::new(variant));
        let mut map = lock();
        if map.len() >= 1024 {
            map.clear();
        }
        Arc::clone(map.entry(variant.clone()).or_insert(built))
    }

    /// The variant answered.
    pub fn variant(&self) -> &Variant {
        &self.variant
    }

    /// Whether the classic GF(2) solver answers (internal; for the tests).
    #[doc(hidden)]
    pub fn is_gf2(&self) -> bool {
        matches!(self.backend, Backend::Classic(_))
    }

    /// The orders of the enumeration: every quiet pattern is
    /// `Σ c_i·g_i` for exactly one choice of `0 ≤ c_i < orders_i`, the
    /// `g_i` being [`VariantInfo::quiet_generators`].
    fn orders(&self) -> Vec<u32> {
        match &self.backend {
            Backend::Classic(s) => vec![2; s.nullity()],
            Backend::Ring(r) => r.orders().to_vec(),
        }
    }

    /// How many quiet patterns (press vectors that change nothing) there
    /// are: also how many press vectors reach a goal from a board that can
    /// reach it.
    pub fn quiet_count(&self) -> BigUint {
        self.orders().iter().map(|&o| BigUint::from(o)).product()
    }

    /// Whether [`solve`](Self::solve) answers this variant: at most
    /// `2^MAX_SEARCH_BITS` quiet patterns.
    pub fn is_exact(&self) -> bool {
        self.check_limit(MAX_SEARCH_BITS).is_ok()
    }

    /// [`LightsError::SearchTooLarge`] past `2^max_bits` quiet patterns.
    fn check_limit(&self, max_bits: usize) -> Result<(), LightsError> {
        let max_bits = max_bits.min(SEARCH_BITS_CEILING);
        let orders = self.orders();
        let mut count = 1u128;
        let within = orders.iter().all(|&o| {
            count = count.saturating_mul(u128::from(o));
            count <= 1u128 << max_bits
        });
        if within {
            Ok(())
        } else {
            Err(LightsError::SearchTooLarge {
                variant: self.variant.to_string(),
                quiet: self.quiet_count().to_string(),
                max_bits,
            })
        }
    }

    /// The board after pressing each cell as many times as `presses` says:
    /// [`Variant::apply`] of the solver's variant.
    ///
    /// # Panics
    ///
    /// Panics if a grid is not of the variant's shape.
    pub fn apply(&self, board: &ColourGrid, presses: &ColourGrid) -> ColourGrid {
        self.variant.apply(board, presses)
    }

    /// The board's shape and colours checked, and the goal's colour.
    fn check(&self, board: &ColourGrid, goal: FamilyGoal) -> Result<(), LightsError> {
        let expected = self.variant.shape();
        if board.shape() != expected {
            return Err(LightsError::ShapeMismatch {
                expected,
                found: board.shape(),
            });
        }
        let k = self.variant.colours();
        if let Some(i) = board.cells().iter().position(|&c| c >= k) {
            return Err(LightsError::CellColour {
                row: i / expected.cols(),
                col: i % expected.cols(),
                colour: board.cells()[i],
                colours: k,
            });
        }
        match goal {
            FamilyGoal::Colour(d) if d >= k => Err(LightsError::GoalColour {
                colour: d,
                colours: k,
            }),
            _ => Ok(()),
        }
    }

    /// The fewest presses from `board` to `goal`, the tie rule's press
    /// vector and the number of optimal vectors; `Ok(None)` when the goal
    /// cannot be reached. Refused past `2^MAX_SEARCH_BITS` quiet patterns.
    pub fn solve(
        &self,
        board: &ColourGrid,
        goal: FamilyGoal,
    ) -> Result<Option<FamilyAnswer>, LightsError> {
        self.solve_within(board, goal, MAX_SEARCH_BITS)
    }

    /// [`solve`](Self::solve) with another limit: up to `2^max_bits` quiet
    /// patterns (at most 2^63), every one of them visited per colour.
    pub fn solve_within(
        &self,
        board: &ColourGrid,
        goal: FamilyGoal,
        max_bits: usize,
    ) -> Result<Option<FamilyAnswer>, LightsError> {
        self.check(board, goal)?;
        match &self.backend {
            Backend::Classic(solver) => {
                let grid = to_grid(board);
                let answer = solver
                    .solve_within(&grid, classic_goal(goal), max_bits)
                    .map_err(|e| self.classic_error(e))?;
                Ok(answer.map(from_answer))
            }
            Backend::Ring(system) => {
                self.check_limit(max_bits)?;
                let best = |d: u8| {
                    system.particular(board, d).map(|x0| {
                        let b = search(
                            x0,
                            system.quiet(),
                            system.negated(),
                            system.orders(),
                            self.k(),
                            None,
                        );
                        (d, b)
                    })
                };
                Ok(pick(self.colours_of(goal).filter_map(best), board.shape()))
            }
        }
    }

    /// The colours a goal stands for.
    fn colours_of(&self, goal: FamilyGoal) -> impl Iterator<Item = u8> + use<> {
        match goal {
            FamilyGoal::Colour(d) => d..d + 1,
            FamilyGoal::Any => 0..self.variant.colours(),
        }
    }

    fn k(&self) -> u8 {
        self.variant.colours()
    }

    /// The classic solver's error in the family's terms: past the search,
    /// the variant's quiet patterns rather than the shape's nullity.
    fn classic_error(&self, e: LightsError) -> LightsError {
        match e {
            LightsError::NullityTooLarge { max, .. } => LightsError::SearchTooLarge {
                variant: self.variant.to_string(),
                quiet: self.quiet_count().to_string(),
                max_bits: max,
            },
            e => e,
        }
    }

    /// The board's answer and, for every cell, the fewest presses to the
    /// goal after pressing it once, best first; `Ok(None)` when the goal
    /// cannot be reached (a press never changes that). Refused past
    /// `2^MAX_SEARCH_BITS` quiet patterns.
    ///
    /// # Method
    ///
    /// The press vectors from the board are a coset `x + N` (`N` the quiet
    /// patterns). Pressing cell `i` once adds `i`'s pattern to the board, so
    /// the vectors after it are `v − e_i` for `v` in the coset: one press
    /// fewer when `v` presses `i`, `K − 1` more when it does not. With `m`
    /// the fewest presses, the value of pressing `i` is therefore the least
    /// of `m + K − 1` and `w − 1`, `w` the fewest presses of a vector of the
    /// coset that presses `i`; the search finds every such `w` below
    /// `m + K` on its way. For [`FamilyGoal::Any`], the least over the
    /// colours. (The classic game: [`Solver::move_values`].)
    ///
    /// ```
    /// use boardbase::lights::family::{ColourGrid, FamilyGoal, FamilySolver, Variant};
    ///
    /// let variant = Variant::new(3, 3, 3)?;
    /// let solver = FamilySolver::cached(&variant);
    /// let board = ColourGrid::parse("100/020/000", 3)?;
    /// let values = solver.move_values(&board, FamilyGoal::OFF)?.expect("solvable");
    /// // The same as solving the board after each press:
    /// for v in &values.moves {
    ///     let mut press = ColourGrid::new(variant.shape());
    ///     press.set(v.row, v.col, 1);
    ///     let after = solver.apply(&board, &press);
    ///     let a = solver.solve(&after, FamilyGoal::OFF)?.expect("still solvable");
    ///     assert_eq!(a.rounds, v.rounds_after);
    /// }
    /// assert!(values.moves.windows(2).all(|w| w[0].rounds_after <= w[1].rounds_after));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn move_values(
        &self,
        board: &ColourGrid,
        goal: FamilyGoal,
    ) -> Result<Option<FamilyMoves>, LightsError> {
        self.move_values_within(board, goal, MAX_SEARCH_BITS)
    }

    /// [`move_values`](Self::move_values) with another limit (see
    /// [`solve_within`](Self::solve_within)).
    pub fn move_values_within(
        &self,
        board: &ColourGrid,
        goal: FamilyGoal,
        max_bits: usize,
    ) -> Result<Option<FamilyMoves>, LightsError> {
        self.check(board, goal)?;
        let shape = board.shape();
        let (answer, values): (FamilyAnswer, Vec<usize>) = match &self.backend {
            Backend::Classic(solver) => {
                let values = solver
                    .move_values_within(&to_grid(board), max_bits)
                    .map_err(|e| self.classic_error(e))?;
                let cells = (0..shape.rows()).flat_map(|r| (0..shape.cols()).map(move |c| (r, c)));
                let (answer, values): (Option<Answer>, Vec<Option<usize>>) = match goal {
                    FamilyGoal::Any => (
                        values.routes().best(),
                        cells.map(|(r, c)| values.rounds_after(r, c)).collect(),
                    ),
                    FamilyGoal::Colour(d) => {
                        let moves = if d == 0 { &values.white } else { &values.black };
                        (
                            moves.as_ref().map(|m| m.answer.clone()),
                            cells
                                .map(|(r, c)| moves.as_ref().map(|m| m.rounds_after(r, c)))
                                .collect(),
                        )
                    }
                };
                let Some(answer) = answer else {
                    return Ok(None);
                };
                (
                    from_answer(answer),
                    values
                        .into_iter()
                        .map(|v| v.unwrap_or(usize::MAX))
                        .collect(),
                )
            }
            Backend::Ring(system) => {
                self.check_limit(max_bits)?;
                let k = usize::from(self.k());
                let mut values = vec![usize::MAX; shape.cells()];
                let mut found = Vec::new();
                for d in self.colours_of(goal) {
                    let Some(x0) = system.particular(board, d) else {
                        continue;
                    };
                    let mut low = vec![usize::MAX; shape.cells()];
                    let b = search(
                        x0,
                        system.quiet(),
                        system.negated(),
                        system.orders(),
                        self.k(),
                        Some(&mut low),
                    );
                    for (v, &l) in values.iter_mut().zip(&low) {
                        let after = (b.rounds + k - 1).min(l.saturating_sub(1));
                        *v = (*v).min(after);
                    }
                    found.push((d, b));
                }
                let Some(answer) = pick(found.into_iter(), shape) else {
                    return Ok(None);
                };
                (answer, values)
            }
        };
        let cols = shape.cols();
        let mut moves: Vec<PressValue> = values
            .into_iter()
            .enumerate()
            .map(|(i, rounds_after)| PressValue {
                row: i / cols,
                col: i % cols,
                rounds_after,
            })
            .collect();
        moves.sort_by_key(|m| (m.rounds_after, m.row, m.col));
        Ok(Some(FamilyMoves { answer, moves }))
    }

    /// One press vector from `board` to every cell `colour`, with no claim
    /// that it is the fewest; `Ok(None)` when there is none. Works past any
    /// limit.
    pub fn any_solution(
        &self,
        board: &ColourGrid,
        colour: u8,
    ) -> Result<Option<ColourGrid>, LightsError> {
        self.check(board, FamilyGoal::Colour(colour))?;
        Ok(match &self.backend {
            Backend::Classic(solver) => {
                let c = if colour == 0 {
                    Colour::White
                } else {
                    Colour::Black
                };
                solver
                    .any_solution(&to_grid(board), c)
                    .map_err(|e| self.classic_error(e))?
                    .map(|g| from_grid(&g))
            }
            Backend::Ring(system) => system
                .particular(board, colour)
                .and_then(|x| ColourGrid::from_cells(board.shape(), x)),
        })
    }

    /// The structure of the variant: its quiet patterns, how many boards
    /// are solvable and, for at most 2^25 boards, the histogram of the
    /// fewest presses to all 0 (see [`VariantInfo`]).
    pub fn info(&self) -> VariantInfo {
        let shape = self.variant.shape();
        let k = self.variant.colours();
        let (factors, generators, orders) = match &self.backend {
            Backend::Classic(solver) => (
                vec![2; solver.nullity()],
                solver.quiet_patterns().map(|g| from_grid(&g)).collect(),
                vec![2; solver.nullity()],
            ),
            Backend::Ring(system) => (
                invariant_factors(&system.cyclic_orders()),
                system
                    .quiet()
                    .iter()
                    .filter_map(|q| ColourGrid::from_cells(shape, q.clone()))
                    .collect(),
                system.orders().to_vec(),
            ),
        };
        let group = QuietGroup::new(factors);
        let count = self.quiet_count();
        debug_assert_eq!(group.order(), count, "the two counts of the quiet patterns");
        let prime = (2..k).all(|p| !k.is_multiple_of(p));
        let nullity = prime.then(|| group.invariant_factors().len());
        let boards = BigUint::from(k).pow(shape.cells() as u32);
        let histogram = histogram(&self.variant);
        VariantInfo {
            variant: self.variant.clone(),
            free_unknowns: match &self.backend {
                Backend::Classic(_) => shape.cols(),
                Backend::Ring(system) => system.free_unknowns(),
            },
            nullity,
            quiet_group: group,
            quiet_generators: generators,
            generator_orders: orders,
            solvable_boards: boards / count,
            max_presses: histogram.as_ref().map(|h| h.len().saturating_sub(1)),
            histogram,
        }
    }
}

impl std::fmt::Debug for FamilySolver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FamilySolver")
            .field("variant", &self.variant.to_string())
            .field("gf2", &self.is_gf2())
            .finish_non_exhaustive()
    }
}

/// The best of the colours' searches: the fewest presses, the least colour
/// on a tie, counting every colour that takes that few.
fn pick(found: impl Iterator<Item = (u8, Best)>, shape: Shape) -> Option<FamilyAnswer> {
    let mut answer: Option<FamilyAnswer> = None;
    for (d, b) in found {
        match answer.as_mut() {
            Some(a) if a.rounds < b.rounds => {}
            Some(a) if a.rounds == b.rounds => a.optimal_sets += b.count,
            _ => {
                answer = Some(FamilyAnswer {
                    colour: d,
                    rounds: b.rounds,
                    presses: ColourGrid::from_cells(shape, b.presses)?,
                    optimal_sets: b.count,
                })
            }
        }
    }
    answer
}

/// The classic goal of a family goal of 2 colours.
fn classic_goal(goal: FamilyGoal) -> Goal {
    match goal {
        FamilyGoal::Colour(0) => Goal::White,
        FamilyGoal::Colour(_) => Goal::Black,
        FamilyGoal::Any => Goal::Either,
    }
}

/// A board of 2 colours as a [`Grid`] (1 = set).
fn to_grid(board: &ColourGrid) -> Grid {
    let mut g = Grid::new(board.shape());
    for (i, &c) in board.cells().iter().enumerate() {
        if c != 0 {
            g.set(i / board.cols(), i % board.cols(), true);
        }
    }
    g
}

/// A [`Grid`] as a board of 2 colours.
fn from_grid(grid: &Grid) -> ColourGrid {
    let mut out = ColourGrid::new(grid.shape());
    for (r, c) in grid.cells() {
        out.set(r, c, 1);
    }
    out
}

/// A classic answer in the family's terms.
fn from_answer(a: Answer) -> FamilyAnswer {
    FamilyAnswer {
        colour: match a.colour {
            Colour::White => 0,
            Colour::Black => 1,
        },
        rounds: a.rounds,
        presses: from_grid(&a.presses),
        optimal_sets: a.optimal_sets,
    }
}
