//! The search of [`lights`](super) over the `2^k` press sets that reach a
//! colour from a board: one particular press set plus every combination of
//! the shape's `k` quiet patterns ([`NullSpace`]), walked by Gray code or
//! sized all at once by Walsh–Hadamard transforms (see the module
//! documentation of [`lights`](super)), keeping the fewest presses, how many
//! sets take them and the tie rule's set ([`Best`]); and the same search
//! that also finds the cells pressed by those sets, for the move values.

use std::cell::RefCell;

use boardbase_tables::shape::{MAX_SIDE, Shape};

use super::grid::Grid;
use super::wht::walsh_hadamard;

/// The largest nullity whose move values
/// ([`Solver::move_values`](super::Solver::move_values)) are
/// found by Gray code; larger ones by Walsh–Hadamard transforms.
const GRAY_MOVES_MAX_NULLITY: usize = 12;

/// Coordinates of one block of the indicator transforms of
/// [`Solver::move_values`](super::Solver::move_values): 2^14, so that no
/// value leaves `i16`.
const INDICATOR_BITS: usize = 14;

/// Coordinates searched by one Walsh–Hadamard block: 2^20 lanes of 16 bits
/// (2 MiB, which fits the L2 cache of most machines).
const BLOCK_BITS: usize = 20;

/// Which exhaustive search a query uses (internal; public for the tests).
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Search {
    /// The cheaper of the two for the shape.
    Auto,
    /// Gray code over the `2^k` press sets.
    Gray,
    /// Walsh–Hadamard transform in blocks of 2^`block_bits` (at most
    /// [`BLOCK_BITS`]) coordinates.
    Walsh {
        /// Coordinates transformed together.
        block_bits: usize,
    },
}

/// The outcome of the search over one colour's `2^k` press sets.
pub(super) struct Best {
    /// The fewest presses.
    pub(super) rounds: usize,
    /// Coordinates of the first optimal set (the tie rule's).
    pub(super) coords: u64,
    /// How many sets take `rounds` presses.
    pub(super) count: u64,
}

/// The quiet patterns of one shape, as the search walks them: the press
/// sets that reach a colour from a board are one particular set `x0` plus
/// any combination of these. A combination is named by `k` coordinate bits,
/// pattern `i` at bit `k - 1 - i`: with the patterns in reduced echelon
/// form in reading order, the numeric order of the coordinates is the
/// reading order of the press sets (the tie rule of the
/// [module documentation](super)).
pub(super) struct NullSpace {
    shape: Shape,
    /// The nullity `k`: the number of patterns.
    k: usize,
    /// The quiet patterns, `R` rows each, pattern `i` at `i * R`.
    quiet: Vec<u64>,
    /// For each cell (row-major), the coordinate bits of the patterns that
    /// press it; empty unless the Walsh search can be used.
    cell_coords: Vec<u64>,
}

impl NullSpace {
    /// The search over `k` quiet patterns of `shape`, `R` rows each, in
    /// reduced echelon form in reading order, pattern `i` at `i * R` of
    /// `quiet`.
    pub(super) fn new(shape: Shape, k: usize, quiet: Vec<u64>) -> NullSpace {
        let (rows, cols) = (shape.rows(), shape.cols());
        debug_assert_eq!(quiet.len(), k * rows);
        let mut cell_coords = Vec::new();
        if k > 0 {
            cell_coords = vec![0u64; shape.cells()];
            for (i, pattern) in quiet.chunks_exact(rows).enumerate() {
                let bit = 1u64 << (k - 1 - i);
                for (r, &bits) in pattern.iter().enumerate() {
                    let mut rest = bits;
                    while rest != 0 {
                        let c = rest.trailing_zeros() as usize;
                        rest &= rest - 1;
                        cell_coords[r * cols + c] |= bit;
                    }
                }
            }
        }
        NullSpace {
            shape,
            k,
            quiet,
            cell_coords,
        }
    }

    /// The nullity `k`.
    #[inline]
    fn nullity(&self) -> usize {
        self.k
    }

    /// Quiet pattern `i`: its rows, row 0 first.
    pub(super) fn pattern(&self, i: usize) -> &[u64] {
        let rows = self.shape.rows();
        &self.quiet[i * rows..(i + 1) * rows]
    }

    /// The search over the `2^k` press sets `x0 + quiet`, by `search`.
    pub(super) fn search(&self, x0: &Grid, search: Search) -> Best {
        match search {
            Search::Gray => self.search_gray(x0),
            Search::Walsh { block_bits } if self.nullity() > 0 => {
                self.search_walsh(x0, block_bits.clamp(1, BLOCK_BITS))
            }
            _ if self.gray_is_cheaper() => self.search_gray(x0),
            _ => self.search_walsh(x0, BLOCK_BITS),
        }
    }

    /// The press set at coordinates `coords` of the search: `x0` plus the
    /// quiet patterns the coordinates pick.
    pub(super) fn press_set(&self, x0: Grid, coords: u64) -> Grid {
        let (rows, k) = (self.shape.rows(), self.nullity());
        let mut presses = x0;
        for i in 0..k {
            if coords >> (k - 1 - i) & 1 == 1 {
                for (p, q) in presses
                    .rows_mut()
                    .iter_mut()
                    .zip(&self.quiet[i * rows..(i + 1) * rows])
                {
                    *p ^= q;
                }
            }
        }
        presses
    }

    /// The search of [`search`](Self::search) that also finds the cells
    /// pressed by some press set of the fewest presses, and by some of one
    /// more (see [`Solver::move_values`](super::Solver::move_values)): Gray
    /// code for nullities up to 12, else Walsh–Hadamard transforms.
    pub(super) fn spread(&self, x0: &Grid, search: Search) -> (Best, Grid, Grid) {
        let k = self.nullity();
        let gray = match search {
            Search::Gray => true,
            Search::Walsh { .. } => k == 0,
            Search::Auto => k <= GRAY_MOVES_MAX_NULLITY,
        };
        if gray {
            self.spread_gray(x0)
        } else {
            let block_bits = match search {
                Search::Walsh { block_bits } => block_bits.clamp(1, INDICATOR_BITS),
                _ => INDICATOR_BITS,
            };
            let best = self.search(x0, search);
            let (in_optimal, in_next) = self.spread_walsh(x0, best.rounds, block_bits);
            (best, in_optimal, in_next)
        }
    }

    /// The Gray-code search of [`search_gray`](Self::search_gray), also
    /// ORing together the press sets of the fewest presses and of one more.
    fn spread_gray(&self, x0: &Grid) -> (Best, Grid, Grid) {
        let (rows, k) = (self.shape.rows(), self.nullity());
        let mut x = [0u64; MAX_SIDE];
        x[..rows].copy_from_slice(x0.rows());
        let x = &mut x[..rows];
        let weight = |x: &[u64]| x.iter().map(|r| r.count_ones() as usize).sum::<usize>();
        let mut best = Best {
            rounds: weight(x),
            coords: 0,
            count: 1,
        };
        let mut optimal = Grid::new(self.shape);
        optimal.rows_mut().copy_from_slice(x);
        let mut next = Grid::new(self.shape);
        let or_into = |grid: &mut Grid, x: &[u64]| {
            for (a, b) in grid.rows_mut().iter_mut().zip(x) {
                *a |= b;
            }
        };
        let mut g = 0u64;
        for step in 1..1u64 << k {
            let j = step.trailing_zeros() as usize;
            g ^= 1 << j;
            let i = k - 1 - j;
            for (a, b) in x.iter_mut().zip(&self.quiet[i * rows..(i + 1) * rows]) {
                *a ^= b;
            }
            let w = weight(x);
            if w < best.rounds {
                next = if w + 1 == best.rounds {
                    optimal.clone()
                } else {
                    Grid::new(self.shape)
                };
                optimal.rows_mut().copy_from_slice(x);
                best = Best {
                    rounds: w,
                    coords: g,
                    count: 1,
                };
            } else if w == best.rounds {
                or_into(&mut optimal, x);
                best.count += 1;
                best.coords = best.coords.min(g);
            } else if w == best.rounds + 1 {
                or_into(&mut next, x);
            }
        }
        (best, optimal, next)
    }

    /// The cells pressed by some press set of `m` presses, and by some of
    /// `m + 1`, by Walsh–Hadamard transforms of their indicators in blocks
    /// of 2^`block_bits` coordinates (see [`Solver::move_values`](super::Solver::move_values)).
    fn spread_walsh(&self, x0: &Grid, m: usize, block_bits: usize) -> (Grid, Grid) {
        let (cols, cells, k) = (self.shape.cols(), self.shape.cells(), self.nullity());
        let low = k.min(block_bits);
        let blocks = 1u64 << (k - low);
        // A set of w presses leaves cells − 2w more cells unpressed than
        // pressed: the value the first transform gives it.
        let top = cells as i16 - 2 * m as i16;
        use rayon::prelude::*;
        let sums = (0..blocks)
            .into_par_iter()
            .fold(
                || Spread::new(cells, low),
                |mut spread, hi| {
                    self.spread_block(x0, low, hi, [top, top - 2], &mut spread);
                    spread
                },
            )
            .reduce(|| Spread::new(cells, 0), Spread::merge);
        let mut optimal = Grid::new(self.shape);
        let mut next = Grid::new(self.shape);
        for (i, s) in sums.sums.iter().enumerate() {
            let (r, c) = (i / cols, i % cols);
            let sign = if x0.get(r, c) { -1 } else { 1 };
            for (t, grid) in [&mut optimal, &mut next].into_iter().enumerate() {
                // Of the sets counted, how many press cell i.
                if (sums.count[t] - sign * s[t]) / 2 > 0 {
                    grid.set(r, c, true);
                }
            }
        }
        (optimal, next)
    }

    /// One block of [`spread_walsh`](Self::spread_walsh): the press sets
    /// whose high coordinates are `hi`.
    fn spread_block(&self, x0: &Grid, low: usize, hi: u64, targets: [i16; 2], spread: &mut Spread) {
        let cols = self.shape.cols();
        let low_mask = (1u64 << low) - 1;
        let Spread { f, g, count, sums } = spread;
        f.fill(0);
        for (coords, &pressed) in self.cell_coords.chunks_exact(cols).zip(x0.rows()) {
            for (c, &v) in coords.iter().enumerate() {
                let flip = ((v >> low) & hi).count_ones() as u64;
                let sign = 1 - 2 * ((pressed >> c ^ flip) & 1) as i16;
                let slot = &mut f[(v & low_mask) as usize];
                *slot = slot.wrapping_add(sign);
            }
        }
        walsh_hadamard(f);
        for (t, &target) in targets.iter().enumerate() {
            let mut n = 0i64;
            for (g, &w) in g.iter_mut().zip(f.iter()) {
                *g = i16::from(w == target);
                n += i64::from(*g);
            }
            if n == 0 {
                continue;
            }
            count[t] += n;
            // At most 2^14 ones: no value of the transform leaves i16.
            walsh_hadamard(g);
            for (sum, &v) in sums.iter_mut().zip(&self.cell_coords) {
                let value = i64::from(g[(v & low_mask) as usize]);
                let odd = ((v >> low) & hi).count_ones() & 1 == 1;
                sum[t] += if odd { -value } else { value };
            }
        }
    }

    /// Whether the Gray-code search costs less than the Walsh one here.
    fn gray_is_cheaper(&self) -> bool {
        let k = self.nullity();
        if k == 0 {
            return true;
        }
        if k > 16 {
            return false;
        }
        // Gray: 2^k steps of R words (XOR and popcount). Walsh: a pass over
        // the cells, then k·2^k additions 8 to 16 at a time.
        let gray = (1usize << k) * 2 * self.shape.rows();
        let walsh = 3 * self.shape.cells() + (k << k) / 4 + 64;
        gray <= walsh
    }

    /// Every press set by Gray code: coordinates `g` visit all `2^k` values,
    /// one pattern toggled a step.
    fn search_gray(&self, x0: &Grid) -> Best {
        let (rows, k) = (self.shape.rows(), self.nullity());
        let mut x = [0u64; MAX_SIDE];
        x[..rows].copy_from_slice(x0.rows());
        let x = &mut x[..rows];
        let weight = |x: &[u64]| x.iter().map(|r| r.count_ones() as usize).sum::<usize>();
        let mut best = Best {
            rounds: weight(x),
            coords: 0,
            count: 1,
        };
        let mut g = 0u64;
        for step in 1..1u64 << k {
            let j = step.trailing_zeros() as usize;
            g ^= 1 << j;
            let i = k - 1 - j;
            for (a, b) in x.iter_mut().zip(&self.quiet[i * rows..(i + 1) * rows]) {
                *a ^= b;
            }
            let w = weight(x);
            if w < best.rounds {
                best = Best {
                    rounds: w,
                    coords: g,
                    count: 1,
                };
            } else if w == best.rounds {
                best.count += 1;
                best.coords = best.coords.min(g);
            }
        }
        best
    }

    /// Every press set's size by Walsh–Hadamard transform, in blocks of at
    /// most 2^`block_bits` coordinates: the high coordinates pick the
    /// block, the low ones are transformed. Blocks run on rayon's threads;
    /// the result does not depend on their order.
    fn search_walsh(&self, x0: &Grid, block_bits: usize) -> Best {
        let k = self.nullity();
        let low = k.min(block_bits);
        let blocks = 1u64 << (k - low);
        if blocks == 1 {
            return self.walsh_block(x0, low, 0);
        }
        use rayon::prelude::*;
        (0..blocks)
            .into_par_iter()
            .map(|hi| self.walsh_block(x0, low, hi))
            .reduce(
                || Best {
                    rounds: usize::MAX,
                    coords: 0,
                    count: 0,
                },
                Best::merge,
            )
    }

    /// The press sets whose high coordinates are `hi`.
    fn walsh_block(&self, x0: &Grid, low: usize, hi: u64) -> Best {
        let (cols, cells) = (self.shape.cols(), self.shape.cells());
        let low_mask = (1u64 << low) - 1;
        debug_assert!(low <= BLOCK_BITS);
        SCRATCH.with(|scratch| {
            let mut scratch = scratch.borrow_mut();
            let f = scratch.walsh(1 << low);
            f.fill(0);
            // The signed count of cells by low coordinates: +1 where the
            // cell ends unpressed at low coordinates 0, -1 where pressed.
            for (coords, &pressed) in self.cell_coords.chunks_exact(cols).zip(x0.rows()) {
                for (c, &v) in coords.iter().enumerate() {
                    let flip = ((v >> low) & hi).count_ones() as u64;
                    let sign = 1 - 2 * ((pressed >> c ^ flip) & 1) as i16;
                    let slot = &mut f[(v & low_mask) as usize];
                    *slot = slot.wrapping_add(sign);
                }
            }
            walsh_hadamard(f);
            // The most cells left unpressed = the fewest presses.
            let top = f.iter().copied().max().unwrap_or(0);
            let first = f.iter().position(|&w| w == top).unwrap_or(0);
            Best {
                rounds: ((cells as i64 - i64::from(top)) / 2) as usize,
                coords: hi << low | first as u64,
                count: f.iter().filter(|&&w| w == top).count() as u64,
            }
        })
    }
}

impl Best {
    /// The better of two disjoint parts of a search: fewer presses, or on a
    /// tie the lower coordinates, with both counts.
    fn merge(a: Best, b: Best) -> Best {
        match a.rounds.cmp(&b.rounds) {
            core::cmp::Ordering::Less => a,
            core::cmp::Ordering::Greater => b,
            core::cmp::Ordering::Equal => Best {
                rounds: a.rounds,
                coords: a.coords.min(b.coords),
                count: a.count + b.count,
            },
        }
    }
}

/// The sums of one thread's blocks in [`NullSpace::spread_walsh`]: for the
/// press sets of the fewest presses (`[0]`) and of one more (`[1]`), how
/// many there are and, per cell `i`, the transform of their indicator at
/// the cell's coordinates.
struct Spread {
    f: Vec<i16>,
    g: Vec<i16>,
    count: [i64; 2],
    sums: Vec<[i64; 2]>,
}

impl Spread {
    fn new(cells: usize, low: usize) -> Spread {
        Spread {
            f: vec![0; 1 << low],
            g: vec![0; 1 << low],
            count: [0; 2],
            sums: vec![[0; 2]; cells],
        }
    }

    fn merge(mut a: Spread, b: Spread) -> Spread {
        for t in 0..2 {
            a.count[t] += b.count[t];
        }
        for (x, y) in a.sums.iter_mut().zip(&b.sums) {
            x[0] += y[0];
            x[1] += y[1];
        }
        a
    }
}

/// Per-thread scratch space for the Walsh search, kept between queries so
/// that a stream of boards does not allocate.
struct Scratch {
    walsh: Vec<i16>,
}

impl Scratch {
    fn walsh(&mut self, len: usize) -> &mut [i16] {
        if self.walsh.len() < len {
            self.walsh.resize(len, 0);
        }
        &mut self.walsh[..len]
    }
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = const { RefCell::new(Scratch { walsh: Vec::new() }) };
}
