//! The structure of a variant ([`VariantInfo`]): the group of quiet
//! patterns ([`QuietGroup`]), how many boards are solvable and the
//! histogram of the fewest presses over every board ([`histogram`]).

use core::fmt;

use num_bigint::BigUint;

use super::board::ColourGrid;
use super::search::GrayWalk;
use super::variant::Variant;

/// The most boards ([`HISTOGRAM_MAX_BITS`] bits' worth) a histogram is
/// computed for: `K^(R·C) ≤ 2^25` (32 MiB of distances).
pub const HISTOGRAM_MAX_BITS: u32 = 25;

/// The group the quiet patterns form under addition mod K, as its
/// invariant factors: `Z_{n_1} × Z_{n_2} × …` with each `n_i` dividing the
/// next (none of them 1; none at all for the trivial group). For a prime K
/// every factor is K and their number is the nullity.
///
/// ```
/// use boardbase::lights::family::{FamilySolver, Variant};
///
/// // 4×4 Lights Out over Z_4: 64 quiet patterns.
/// let info = FamilySolver::cached(&Variant::new(4, 4, 4)?).info();
/// assert_eq!(info.quiet_group.to_string(), "Z_2^2 × Z_4^2");
/// assert_eq!(info.quiet_group.order(), 64u32.into());
/// assert_eq!(info.nullity, None); // 4 is not prime
/// # Ok::<(), boardbase::lights::LightsError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct QuietGroup {
    factors: Vec<u32>,
}

impl QuietGroup {
    /// The group of these invariant factors (each dividing the next).
    pub(super) fn new(factors: Vec<u32>) -> QuietGroup {
        QuietGroup { factors }
    }

    /// The invariant factors, each dividing the next; empty for the
    /// trivial group.
    pub fn invariant_factors(&self) -> &[u32] {
        &self.factors
    }

    /// The number of its elements, the quiet patterns.
    pub fn order(&self) -> BigUint {
        self.factors.iter().map(|&f| BigUint::from(f)).product()
    }

    /// Whether the only quiet pattern is pressing nothing: every board that
    /// can reach a goal reaches it by one press vector.
    pub fn is_trivial(&self) -> bool {
        self.factors.is_empty()
    }
}

impl fmt::Display for QuietGroup {
    /// `Z_2^3 × Z_4`, factors in increasing order with their multiplicity
    /// as a power; `trivial` for the trivial group.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.factors.is_empty() {
            return f.write_str("trivial");
        }
        let mut first = true;
        let mut i = 0;
        while i < self.factors.len() {
            let n = self.factors[i];
            let run = self.factors[i..].iter().take_while(|&&m| m == n).count();
            if !first {
                f.write_str(" × ")?;
            }
            first = false;
            write!(f, "Z_{n}")?;
            if run > 1 {
                write!(f, "^{run}")?;
            }
            i += run;
        }
        Ok(())
    }
}

/// The structure of a variant: see [`FamilySolver::info`](super::FamilySolver::info).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantInfo {
    /// The variant.
    pub variant: Variant,
    /// The number of free unknowns left after chasing (the size of the
    /// system that was reduced).
    pub free_unknowns: usize,
    /// For a prime K, the dimension of the quiet patterns over GF(K):
    /// there are `K^nullity` of them. `None` for a composite K (see
    /// [`quiet_group`](Self::quiet_group)).
    pub nullity: Option<usize>,
    /// The group the quiet patterns form.
    pub quiet_group: QuietGroup,
    /// Generators of the quiet patterns: for a prime K a basis (as many as
    /// the nullity), in general the Howell basis, every quiet pattern being
    /// `Σ c_i·g_i` (mod K) for exactly one choice of
    /// `0 ≤ c_i <` [`generator_orders`](Self::generator_orders)`[i]`.
    pub quiet_generators: Vec<ColourGrid>,
    /// The ranges of the coefficients of the generators (see above).
    pub generator_orders: Vec<u32>,
    /// How many boards can be taken to all 0 (and as many to each other
    /// uniform colour they can reach): `K^(R·C)` over the number of quiet
    /// patterns, exact.
    pub solvable_boards: BigUint,
    /// Where `K^(R·C) ≤ 2^25`: entry `n` is how many boards need exactly `n`
    /// presses to become all 0. Boards that cannot are not counted, so the
    /// entries add up to [`solvable_boards`](Self::solvable_boards).
    pub histogram: Option<Vec<u64>>,
    /// The last index of the histogram: the most presses any solvable board
    /// needs to become all 0 ("God's number").
    pub max_presses: Option<usize>,
}

impl VariantInfo {
    /// [`solvable_boards`](Self::solvable_boards) in decimal.
    pub fn solvable_boards_text(&self) -> String {
        self.solvable_boards.to_string()
    }
}

/// For a variant of at most 2^25 boards, how many boards need exactly `n`
/// presses to become all 0, for each `n` (unsolvable boards not counted);
/// `None` for more boards.
///
/// Method: every press vector is visited once, in reflected Gray code
/// order (one cell's presses move by one a step, so the board it makes
/// and its number of presses are updated over that cell's pattern), and
/// each board keeps the fewest presses of the vectors that make it. A
/// vector that makes board `B` from all 0 takes `−B` to all 0 in as many
/// presses, and `B ↦ −B` is one to one, so the counts are the histogram.
/// Exhaustive, and independent of the linear algebra (the tests check it,
/// and the solver, against a brute force of their own).
pub fn histogram(variant: &Variant) -> Option<Vec<u64>> {
    let n = variant.shape().cells();
    let k = u64::from(variant.colours());
    let total = k
        .checked_pow(n as u32)
        .filter(|&t| t <= 1 << HISTOGRAM_MAX_BITS)?;
    let k8 = variant.colours();
    let powers: Vec<u32> = (0..n).map(|i| k.pow(i as u32) as u32).collect();
    let reach: Vec<Vec<usize>> = (0..n).map(|i| variant.reach(i)).collect();
    let mut board = vec![0u8; n];
    let mut index = 0u32;
    let mut dist = vec![u8::MAX; total as usize];
    dist[0] = 0;
    let mut w = 0u8;
    let mut walk = GrayWalk::new(vec![u32::from(k8); n]);
    while let Some((j, up)) = walk.step() {
        if up {
            w += 1;
            for &c in &reach[j] {
                if board[c] + 1 == k8 {
                    board[c] = 0;
                    index -= (k8 as u32 - 1) * powers[c];
                } else {
                    board[c] += 1;
                    index += powers[c];
                }
            }
        } else {
            w -= 1;
            for &c in &reach[j] {
                if board[c] == 0 {
                    board[c] = k8 - 1;
                    index += (k8 as u32 - 1) * powers[c];
                } else {
                    board[c] -= 1;
                    index -= powers[c];
                }
            }
        }
        let d = &mut dist[index as usize];
        if w < *d {
            *d = w;
        }
    }
    let mut counts = Vec::new();
    for &d in &dist {
        if d != u8::MAX {
            let d = usize::from(d);
            if counts.len() <= d {
                counts.resize(d + 1, 0u64);
            }
            counts[d] += 1;
        }
    }
    Some(counts)
}
