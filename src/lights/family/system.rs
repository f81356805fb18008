//! The system of one variant over Z_K ([`RingSystem`]): light chasing
//! generalised to any pattern, the Howell form of what is left, the quiet
//! patterns, and a board's particular press vector.
//!
//! # Chasing
//!
//! Cell `e`'s equation says that the presses reaching it add up to the
//! colour it lacks: `Σ x_p = goal − b_e` over the cells `p` whose pattern
//! covers `e`, each with coefficient 1 (a unit of Z_K). Taken in reading
//! order, each equation *determines* the last (in reading order) of its
//! unknowns not yet known, the others it still has are declared *free*,
//! and an equation whose unknowns are all known already is a *residual*
//! one. Every determined unknown is then an affine function of the free
//! ones, and the board's press vectors are exactly the choices of the free
//! unknowns `f` that zero the residual equations: `L·f = c(board)`. For the
//! plus pattern without wrap this is classic light chasing (row 0 free, the
//! last row's equations residual: `C` unknowns); for the torus, the first
//! two rows; for `x` and `king` one more unknown a row (`R + C − 1` in
//! all); any pattern works (in the worst case more unknowns stay free).
//!
//! # The residual system
//!
//! `L` is `m`×`m` (as many residual equations as free unknowns). The
//! Howell form of `[Lᵀ | I]` over Z_K ([`howell`]) gives at once what
//! solves `L·f = c` (its rows with a pivot in the left part: greedy
//! reduction, with the combination read off the right part) and the
//! kernel of `L` (its rows with a zero left part: a Howell basis
//! `h_1 … h_r` with pivot entries `d_i`, so that every `f` with `L·f = 0`
//! is `Σ c_i·h_i` for exactly one choice of `0 ≤ c_i < K / d_i`). Chased
//! through, the `h_i` give the quiet patterns' generators.

use super::board::ColourGrid;
use super::ring::{HowellRow, add_scaled, howell, kernel_orders};
use super::variant::Variant;

/// One determined unknown: `x[unknown] = rhs[eq] − Σ x[others]`.
struct Step {
    eq: u32,
    unknown: u32,
    /// Range of the equation's other unknowns in `RingSystem::flat`.
    others: (u32, u32),
}

/// One residual equation: `rhs[eq] − Σ x[unknowns]` must be 0.
struct Residual {
    eq: u32,
    unknowns: (u32, u32),
}

/// The eliminated system of one variant over Z_K: see the
/// [module documentation](self).
pub(super) struct RingSystem {
    variant: Variant,
    k: u32,
    /// The free unknowns (cells), in the order of `f`.
    free: Vec<u32>,
    steps: Vec<Step>,
    residual: Vec<Residual>,
    flat: Vec<u32>,
    /// `L`, residual equation by free unknown.
    l: Vec<Vec<u8>>,
    /// The rows of the Howell form of `[Lᵀ | I]` with a pivot in the left
    /// part.
    solve_rows: Vec<HowellRow>,
    /// The quiet patterns' generators, chased from the kernel's Howell
    /// basis, `R·C` cells each.
    quiet: Vec<Vec<u8>>,
    /// Their negatives, `−quiet_i` mod K.
    negated: Vec<Vec<u8>>,
    /// Their orders in the enumeration: `K / d_i`.
    orders: Vec<u32>,
}

impl RingSystem {
    /// Chases the variant's equations and reduces what is left.
    pub(super) fn new(variant: &Variant) -> RingSystem {
        let n = variant.shape().cells();
        let k = u32::from(variant.colours());
        let offsets = variant.pattern().offsets();
        const UNKNOWN: u8 = 0;
        const KNOWN: u8 = 1;
        let mut state = vec![UNKNOWN; n];
        let (mut free, mut steps, mut residual, mut flat) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for e in 0..n {
            let unknowns = variant.reached_by(e, &offsets);
            let last = unknowns
                .iter()
                .rev()
                .copied()
                .find(|&p| state[p] == UNKNOWN);
            let start = flat.len() as u32;
            for &p in &unknowns {
                if Some(p) == last {
                    continue;
                }
                if state[p] == UNKNOWN {
                    state[p] = KNOWN;
                    free.push(p as u32);
                }
                flat.push(p as u32);
            }
            let range = (start, flat.len() as u32);
            match last {
                Some(u) => {
                    state[u] = KNOWN;
                    steps.push(Step {
                        eq: e as u32,
                        unknown: u as u32,
                        others: range,
                    });
                }
                None => residual.push(Residual {
                    eq: e as u32,
                    unknowns: range,
                }),
            }
        }
        for (p, s) in state.iter().enumerate() {
            if *s == UNKNOWN {
                free.push(p as u32);
            }
        }
        let mut system = RingSystem {
            variant: variant.clone(),
            k,
            free,
            steps,
            residual,
            flat,
            l: Vec::new(),
            solve_rows: Vec::new(),
            quiet: Vec::new(),
            negated: Vec::new(),
            orders: Vec::new(),
        };
        let (m, res) = (system.free.len(), system.residual.len());
        // Column v of L: each residual equation's sum of presses with only
        // f_v = 1 and no board (chasing is linear in f and the board, so
        // the sums with f are those with f = 0 plus L·f).
        let zeros = vec![0u8; n];
        let mut l = vec![vec![0u8; m]; res];
        let mut f = vec![0u8; m];
        let mut x = vec![0u8; n];
        for v in 0..m {
            f[v] = 1;
            system.chase(&f, &zeros, &mut x);
            for (i, r) in system.residual.iter().enumerate() {
                l[i][v] = system.sum(&x, r.unknowns);
            }
            f[v] = 0;
        }
        // [Lᵀ | I], a row per free unknown.
        let rows: Vec<Vec<u8>> = (0..m)
            .map(|v| {
                let mut row = vec![0u8; res + m];
                for (i, li) in l.iter().enumerate() {
                    row[i] = li[v];
                }
                row[res + v] = 1;
                row
            })
            .collect();
        let form = howell(rows, res + m, k);
        let (solve_rows, kernel): (Vec<_>, Vec<_>) =
            form.into_iter().partition(|row| row.pivot < res);
        for h in kernel {
            system.chase(&h.row[res..], &zeros, &mut x);
            system.quiet.push(x.clone());
            let k8 = variant.colours();
            system
                .negated
                .push(x.iter().map(|&v| (k8 - v) % k8).collect());
            system.orders.push(k / h.d);
        }
        system.solve_rows = solve_rows;
        system.l = l;
        system
    }

    /// `Σ x` over `flat[range]`, mod K.
    #[inline]
    fn sum(&self, x: &[u8], (a, b): (u32, u32)) -> u8 {
        let k = self.k as u8;
        self.flat[a as usize..b as usize].iter().fold(0u8, |s, &p| {
            let t = s + x[p as usize];
            t.min(t.wrapping_sub(k))
        })
    }

    /// The press vector `x` with the free unknowns `f` and every other
    /// unknown determined by its equation for the right-hand side `rhs`
    /// (what each cell lacks of the goal).
    fn chase(&self, f: &[u8], rhs: &[u8], x: &mut [u8]) {
        for (&p, &v) in self.free.iter().zip(f) {
            x[p as usize] = v;
        }
        for step in &self.steps {
            let t = rhs[step.eq as usize] + (self.k as u8 - self.sum(x, step.others));
            x[step.unknown as usize] = t.min(t.wrapping_sub(self.k as u8));
        }
    }

    /// The number of free unknowns `m` (the size of the residual system).
    pub(super) fn free_unknowns(&self) -> usize {
        self.free.len()
    }

    /// The quiet patterns' generators (full press vectors, row-major).
    pub(super) fn quiet(&self) -> &[Vec<u8>] {
        &self.quiet
    }

    /// Their negatives.
    pub(super) fn negated(&self) -> &[Vec<u8>] {
        &self.negated
    }

    /// Their orders in the enumeration: every quiet pattern is
    /// `Σ c_i·quiet_i` for exactly one choice of `0 ≤ c_i < orders_i`.
    pub(super) fn orders(&self) -> &[u32] {
        &self.orders
    }

    /// The orders of cyclic groups whose sum is the group of quiet
    /// patterns (a divisor of K each; 1 for nothing).
    pub(super) fn cyclic_orders(&self) -> Vec<u32> {
        kernel_orders(self.l.clone(), self.free.len(), self.k)
    }

    /// A press vector taking `board` to every cell `colour` (`None` when
    /// there is none): the one with the kernel's coordinates 0 in the
    /// Howell reduction. The board's cells and `colour` are below K.
    pub(super) fn particular(&self, board: &ColourGrid, colour: u8) -> Option<Vec<u8>> {
        let k = self.k;
        let n = board.cells().len();
        debug_assert_eq!(board.shape(), self.variant.shape());
        let rhs: Vec<u8> = board
            .cells()
            .iter()
            .map(|&b| ((u32::from(colour) + k - u32::from(b)) % k) as u8)
            .collect();
        let m = self.free.len();
        let res = self.residual.len();
        let mut x = vec![0u8; n];
        self.chase(&vec![0u8; m], &rhs, &mut x);
        // c = what the residual equations lack with f = 0; L·f must be c.
        let mut c: Vec<u8> = self
            .residual
            .iter()
            .map(|r| {
                let s = u32::from(self.sum(&x, r.unknowns));
                ((u32::from(rhs[r.eq as usize]) + k - s) % k) as u8
            })
            .collect();
        let mut f = vec![0u8; m];
        for row in &self.solve_rows {
            let y = u32::from(c[row.pivot]);
            if y % row.d != 0 {
                return None;
            }
            let q = y / row.d;
            if q != 0 {
                add_scaled(&mut c, &row.row[..res], k - q, k);
                add_scaled(&mut f, &row.row[res..], q, k);
            }
        }
        if c.iter().any(|&v| v != 0) {
            return None;
        }
        self.chase(&f, &rhs, &mut x);
        debug_assert!(
            self.residual
                .iter()
                .all(|r| { u32::from(self.sum(&x, r.unknowns)) == u32::from(rhs[r.eq as usize]) }),
            "the particular press vector solves the residual equations"
        );
        Some(x)
    }
}
