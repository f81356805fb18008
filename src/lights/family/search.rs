//! The search of the [`family`](super) over the press vectors that reach a
//! goal: one particular vector plus every quiet pattern, each visited
//! exactly once, keeping the fewest presses, how many vectors take them and
//! the least of those in reading order (the tie rule), and, for the move
//! values, the fewest presses among the vectors that press each cell.
//!
//! The quiet patterns are `Σ c_i·q_i` with `0 ≤ c_i < o_i`, each once
//! (the Howell basis of [`system`](super::system)). The walk is the
//! reflected mixed-radix Gray code over the `c_i`: each step moves one
//! coordinate by ±1, so the press vector changes by ±`q_i` and its number
//! of presses is updated over the cells `q_i` presses only.

/// The reflected mixed-radix Gray code over coordinates `0 ≤ c_i <
/// radix_i`, coordinate 0 the fastest: from all 0, each step moves one
/// coordinate by ±1, and every combination is visited exactly once.
pub(super) struct GrayWalk {
    radices: Vec<u32>,
    digits: Vec<u32>,
    up: Vec<bool>,
}

impl GrayWalk {
    /// The walk over `radices`, at all 0.
    pub(super) fn new(radices: Vec<u32>) -> GrayWalk {
        let n = radices.len();
        GrayWalk {
            radices,
            digits: vec![0; n],
            up: vec![true; n],
        }
    }

    /// The next step: the coordinate that moves and whether it goes up
    /// (+1) or down (−1); `None` once every combination has been visited.
    #[inline]
    pub(super) fn step(&mut self) -> Option<(usize, bool)> {
        // The first coordinate that can move on in its direction; the ones
        // before it turn round.
        let mut j = 0;
        while j < self.radices.len() {
            let can = if self.up[j] {
                self.digits[j] + 1 < self.radices[j]
            } else {
                self.digits[j] > 0
            };
            if can {
                break;
            }
            self.up[j] = !self.up[j];
            j += 1;
        }
        let up = *self.up.get(j)?;
        if up {
            self.digits[j] += 1;
        } else {
            self.digits[j] -= 1;
        }
        Some((j, up))
    }
}

/// The outcome of a search.
pub(super) struct Best {
    /// The fewest presses.
    pub(super) rounds: usize,
    /// The least optimal press vector in reading order.
    pub(super) presses: Vec<u8>,
    /// How many press vectors take `rounds` presses.
    pub(super) count: u64,
}

/// Every press vector `x0 + Σ c_i·quiet_i` (`0 ≤ c_i < orders_i`), over
/// Z_`k`, `negated` holding each `−quiet_i`. With `spread`, also writes for each cell the fewest presses of
/// a visited vector that presses it, for every vector of fewer than
/// `rounds + k` presses (others are left `usize::MAX`).
pub(super) fn search(
    x0: Vec<u8>,
    quiet: &[Vec<u8>],
    negated: &[Vec<u8>],
    orders: &[u32],
    k: u8,
    mut spread: Option<&mut Vec<usize>>,
) -> Best {
    // The fastest-moving coordinate first.
    let plus: Vec<&[u8]> = quiet.iter().rev().map(Vec::as_slice).collect();
    let minus: Vec<&[u8]> = negated.iter().rev().map(Vec::as_slice).collect();
    let orders: Vec<u32> = orders.iter().rev().copied().collect();
    let weight = |x: &[u8]| x.iter().map(|&v| u32::from(v)).sum::<u32>() as usize;
    let mut x = x0;
    let mut w = weight(&x);
    let mut best = Best {
        rounds: w,
        presses: x.clone(),
        count: 1,
    };
    let mut note = |x: &[u8], w: usize, best: &Best| {
        if w >= best.rounds + usize::from(k) {
            return;
        }
        if let Some(low) = spread.as_deref_mut() {
            for (l, &v) in low.iter_mut().zip(x) {
                if v != 0 && w < *l {
                    *l = w;
                }
            }
        }
    };
    note(&x, w, &best);
    let mut walk = GrayWalk::new(orders);
    while let Some((j, up)) = walk.step() {
        // Adding `q_j` or `−q_j` to every cell, branch-free (`t` is below
        // 2K, and `t − K` wraps round above it when `t < K`), then
        // counting the presses: both vectorise.
        let step = if up { plus[j] } else { minus[j] };
        for (v, &a) in x.iter_mut().zip(step) {
            let t = *v + a;
            *v = t.min(t.wrapping_sub(k));
        }
        w = weight(&x);
        if w < best.rounds {
            best.rounds = w;
            best.presses.copy_from_slice(&x);
            best.count = 1;
        } else if w == best.rounds {
            best.count += 1;
            if x < best.presses {
                best.presses.copy_from_slice(&x);
            }
        }
        note(&x, w, &best);
    }
    best
}
