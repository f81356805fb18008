//! Sets of cells ranked in colexicographic order: the index of a board
//! within the boards of as many pieces, dense, as tiered solvers and
//! tables index them.
//!
//! A set of `k` cells `c_1 < c_2 < … < c_k` has the colex rank
//! `C(c_1, 1) + C(c_2, 2) + … + C(c_k, k)`, which runs through
//! `0..C(n, k)` over the sets of `k` cells below `n`.
//!
//! ```
//! use boardbase_tables::subsets::{binomial, rank, unrank};
//!
//! // The 3-cell sets of 5 cells: C(5, 3) = 10 of them, ranks 0 to 9.
//! assert_eq!(binomial(5, 3), 10);
//! assert_eq!(rank(0b00111), 0);
//! assert_eq!(rank(0b11100), 9);
//! assert_eq!(unrank(rank(0b10101), 3, 5), 0b10101);
//! ```

/// The most cells of a set: a `u64`'s bits.
pub const MAX_CELLS: usize = 64;

/// `TABLE[n][k]` = C(n, k) for `n ≤ 64` (0 for `k > n`); C(64, 32) is
/// below 2^61, so no entry overflows.
static TABLE: [[u64; MAX_CELLS + 1]; MAX_CELLS + 1] = {
    let mut t = [[0u64; MAX_CELLS + 1]; MAX_CELLS + 1];
    let mut n = 0;
    while n <= MAX_CELLS {
        t[n][0] = 1;
        let mut k = 1;
        while k <= n {
            t[n][k] = t[n - 1][k - 1] + t[n - 1][k];
            k += 1;
        }
        n += 1;
    }
    t
};

/// C(n, k): 0 for `k > n`.
///
/// # Panics
///
/// When `n` or `k` is above 64.
#[inline]
pub fn binomial(n: usize, k: usize) -> u64 {
    TABLE[n][k]
}

/// The colex rank of the set of cells `mask` among the sets of as many
/// cells.
#[inline]
pub fn rank(mut mask: u64) -> u64 {
    let mut r = 0;
    let mut k = 1;
    while mask != 0 {
        r += TABLE[mask.trailing_zeros() as usize][k];
        mask &= mask - 1;
        k += 1;
    }
    r
}

/// The set of `k` cells below cell `below` of colex rank `r` (below
/// C(`below`, `k`)).
#[inline]
pub fn unrank(mut r: u64, k: usize, below: usize) -> u64 {
    let mut mask = 0;
    let mut c = below;
    for i in (1..=k).rev() {
        // The largest cell c with C(c, i) ≤ r; cells fall as i does.
        c -= 1;
        while TABLE[c][i] > r {
            c -= 1;
        }
        r -= TABLE[c][i];
        mask |= 1 << c;
    }
    mask
}

/// The cells of `mask` (none of them in `taken`) numbered among the cells
/// not in `taken`: cell `c` becomes `c` less the taken cells below it.
#[inline]
pub fn squeeze(mut mask: u64, taken: u64) -> u64 {
    let mut out = 0;
    while mask != 0 {
        let c = mask.trailing_zeros();
        let below = (taken & ((1u64 << c) - 1)).count_ones();
        out |= 1 << (c - below);
        mask &= mask - 1;
    }
    out
}

/// The inverse of [`squeeze`]: cells numbered among the cells not in
/// `taken` put back among all the cells.
#[inline]
pub fn spread(mut mask: u64, taken: u64) -> u64 {
    let mut out = 0;
    while mask != 0 {
        let mut c = mask.trailing_zeros();
        // Step over each taken cell at or below the cell found so far, in
        // order: the cells of `taken` rise, so one pass does.
        let mut t = taken;
        while t != 0 && t.trailing_zeros() <= c {
            c += 1;
            t &= t - 1;
        }
        out |= 1 << c;
        mask &= mask - 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_run_through_every_set_once() {
        for n in 0..=10usize {
            for k in 0..=n {
                let mut seen = [false; 252];
                for mask in 0u64..1 << n {
                    if mask.count_ones() as usize == k {
                        let r = rank(mask) as usize;
                        assert!(r < binomial(n, k) as usize && !seen[r]);
                        seen[r] = true;
                        assert_eq!(unrank(r as u64, k, n), mask);
                    }
                }
            }
        }
    }

    #[test]
    fn squeeze_and_spread_are_inverse() {
        let taken = 0b0110_1001u64;
        for mask in 0u64..1 << 8 {
            if mask & taken == 0 {
                let s = squeeze(mask, taken);
                assert!(s < 1 << 4);
                assert_eq!(spread(s, taken), mask);
            }
        }
    }
}
