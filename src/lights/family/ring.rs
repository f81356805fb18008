//! Linear algebra over the ring Z_K (K = 2 to 16) for the
//! [`family`](super): the Howell normal form of a matrix (echelon form
//! with every span element reachable greedily, which solves systems and
//! enumerates their solutions exactly whether K is prime or not), the
//! orders of the cyclic factors of a kernel (a diagonal form by unimodular
//! row and column operations), and the invariant factors of a finite
//! abelian group given as a sum of cyclic groups.

/// `(g, s, t)` with `g = gcd(a, b) = s·a + t·b` (`g ≥ 0`).
pub(super) fn ext_gcd(a: i64, b: i64) -> (i64, i64, i64) {
    let (mut r0, mut r1, mut s0, mut s1, mut t0, mut t1) = (a, b, 1i64, 0i64, 0i64, 1i64);
    while r1 != 0 {
        let q = r0 / r1;
        (r0, r1) = (r1, r0 - q * r1);
        (s0, s1) = (s1, s0 - q * s1);
        (t0, t1) = (t1, t0 - q * t1);
    }
    if r0 < 0 {
        (-r0, -s0, -t0)
    } else {
        (r0, s0, t0)
    }
}

/// `gcd(a, k)`, with `gcd(0, k) = k`.
pub(super) fn gcd(a: u32, k: u32) -> u32 {
    let (mut a, mut b) = (a, k);
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// A unit `u` of Z_k with `u·a ≡ gcd(a, k)` (mod k), for `a ≠ 0`.
fn normaliser(a: u32, k: u32) -> u32 {
    let g = gcd(a, k);
    (1..k)
        .find(|&u| gcd(u, k) == 1 && u * a % k == g)
        .unwrap_or(1)
}

/// `REM[k][t] = t mod k` for `t < 256`: reductions without division.
static REM: [[u8; 256]; 17] = {
    let mut table = [[0u8; 256]; 17];
    let mut k = 1;
    while k < 17 {
        let mut t = 0;
        while t < 256 {
            table[k][t] = (t % k) as u8;
            t += 1;
        }
        k += 1;
    }
    table
};

/// `a + f·b` (mod k), element by element, into `a` (entries below k ≤ 16).
#[inline]
pub(super) fn add_scaled(a: &mut [u8], b: &[u8], f: u32, k: u32) {
    let f = (f % k) as u8;
    if f == 0 {
        return;
    }
    let rem = &REM[k as usize];
    for (x, &y) in a.iter_mut().zip(b) {
        // At most 15 + 15·15 = 240.
        *x = rem[usize::from(*x + f * y)];
    }
}

/// `f·a` (mod k), into `a`.
fn scale(a: &mut [u8], f: u32, k: u32) {
    for x in a.iter_mut() {
        *x = (u32::from(*x) * f % k) as u8;
    }
}

/// Replaces rows `a` and `b` (both nonzero at `col`, entries in
/// `0..k`) by a unimodular combination of them: `a` gets
/// `gcd(a[col], b[col])` at `col`, `b` gets 0.
fn combine(a: &mut [u8], b: &mut [u8], col: usize, k: u32) {
    let (x, y) = (i64::from(a[col]), i64::from(b[col]));
    // When the pivot divides, keep row `a` as it is (so that a column
    // operation with a dividing pivot never brings back what it cleared).
    let (g, s, t) = if y % x == 0 { (x, 1, 0) } else { ext_gcd(x, y) };
    let (xg, yg) = (x / g, y / g);
    let k64 = i64::from(k);
    let m = |v: i64| v.rem_euclid(k64) as u32;
    // [a; b] ← [[s, t], [−y/g, x/g]] · [a; b] (determinant 1).
    let (s, t, u, v) = (m(s), m(t), m(-yg), m(xg));
    for (p, q) in a.iter_mut().zip(b.iter_mut()) {
        let (pv, qv) = (u32::from(*p), u32::from(*q));
        *p = ((s * pv + t * qv) % k) as u8;
        *q = ((u * pv + v * qv) % k) as u8;
    }
    debug_assert_eq!(b[col], 0);
}

/// One row of a Howell form: its pivot column, its pivot entry `d` (a
/// divisor of K) and its entries.
#[derive(Clone, Debug)]
pub(super) struct HowellRow {
    /// The first nonzero column.
    pub(super) pivot: usize,
    /// The entry there: a divisor of K, less than K.
    pub(super) d: u32,
    /// The row, `cols` entries in `0..K`.
    pub(super) row: Vec<u8>,
}

/// The Howell form of the rows' span over Z_k, rows in increasing pivot
/// order: each pivot entry `d` divides k, the entries above a pivot are
/// reduced below its `d`, and (the Howell property) every span element
/// whose first `t` entries are 0 is a combination of the rows whose pivot
/// is at least `t`. So every span element is `Σ c_i·row_i` for exactly one
/// choice of `0 ≤ c_i < k / d_i`, and a vector is in the span exactly when
/// reducing it greedily, pivot by pivot, leaves 0.
///
/// Method: column by column, the rows left are merged by unimodular 2×2
/// combinations (extended gcd) into one row with the gcd at the column,
/// which is multiplied by a unit to make it `d | k`; `(k / d)·row`, 0 at the
/// column, goes back among the rows left (what makes the Howell property
/// hold), and the rows above are reduced.
pub(super) fn howell(rows: Vec<Vec<u8>>, cols: usize, k: u32) -> Vec<HowellRow> {
    let mut pool: Vec<Vec<u8>> = rows
        .into_iter()
        .filter(|r| r.iter().any(|&x| x != 0))
        .collect();
    let mut out: Vec<HowellRow> = Vec::new();
    for col in 0..cols {
        let mut pivot: Option<Vec<u8>> = None;
        let mut rest = Vec::with_capacity(pool.len());
        for mut row in pool.drain(..) {
            if row[col] == 0 {
                rest.push(row);
                continue;
            }
            match pivot.as_mut() {
                None => pivot = Some(row),
                Some(p) => {
                    combine(p, &mut row, col, k);
                    if row.iter().any(|&x| x != 0) {
                        rest.push(row);
                    }
                }
            }
        }
        pool = rest;
        let Some(mut p) = pivot else { continue };
        let unit = normaliser(u32::from(p[col]), k);
        scale(&mut p, unit, k);
        let d = u32::from(p[col]);
        let mut annihilated = p.clone();
        scale(&mut annihilated, k / d, k);
        if annihilated.iter().any(|&x| x != 0) {
            pool.push(annihilated);
        }
        for above in &mut out {
            let q = u32::from(above.row[col]) / d;
            if q != 0 {
                add_scaled(&mut above.row, &p, k - q % k, k);
            }
        }
        out.push(HowellRow {
            pivot: col,
            d,
            row: p,
        });
    }
    out
}

/// The orders of the cyclic groups whose sum is the kernel of the
/// `rows`×`cols` matrix `m` (row-major) over Z_k: `cols` orders, each a
/// divisor of k (1 for a trivial factor).
///
/// Method: unimodular row and column operations (extended gcd) bring `m`
/// to a diagonal `s_1, s_2, …`; the kernel of the diagonal matrix is the
/// sum of `{x : s_i·x ≡ 0}`, cyclic of order `gcd(s_i, k)` (`k` where
/// `s_i = 0` or past the diagonal), and the column operations map it onto
/// the kernel of `m`.
pub(super) fn kernel_orders(mut m: Vec<Vec<u8>>, cols: usize, k: u32) -> Vec<u32> {
    let rows = m.len();
    let mut orders = Vec::with_capacity(cols);
    // Columns as rows, for the column operations.
    let mut t = 0;
    while t < rows.min(cols) {
        // A nonzero entry of the submatrix from (t, t), moved to (t, t).
        let Some((r, c)) = (t..rows)
            .flat_map(|r| (t..cols).map(move |c| (r, c)))
            .find(|&(r, c)| m[r][c] != 0)
        else {
            break;
        };
        m.swap(t, r);
        for row in m.iter_mut() {
            row.swap(t, c);
        }
        loop {
            // Clear column t below the pivot.
            for i in t + 1..rows {
                if m[i][t] != 0 {
                    let (top, bottom) = m.split_at_mut(i);
                    combine(&mut top[t], &mut bottom[0], t, k);
                }
            }
            // Clear row t right of the pivot (column operations: the same
            // combination on columns).
            let mut changed = false;
            for j in t + 1..cols {
                if m[t][j] != 0 {
                    let mut a: Vec<u8> = m.iter().map(|row| row[t]).collect();
                    let mut b: Vec<u8> = m.iter().map(|row| row[j]).collect();
                    combine(&mut a, &mut b, t, k);
                    for (row, (&x, &y)) in m.iter_mut().zip(a.iter().zip(&b)) {
                        row[t] = x;
                        row[j] = y;
                    }
                    changed = true;
                }
            }
            if !changed || (t + 1..rows).all(|i| m[i][t] == 0) {
                break;
            }
        }
        orders.push(gcd(u32::from(m[t][t]), k));
        t += 1;
    }
    orders.resize(cols, k);
    orders
}

/// The invariant factors (each dividing the next, none 1) of the sum of
/// cyclic groups of these orders.
pub(super) fn invariant_factors(orders: &[u32]) -> Vec<u32> {
    // The prime-power parts, per prime.
    let mut parts: Vec<(u32, Vec<u32>)> = Vec::new();
    for &o in orders {
        let mut rest = o;
        let mut p = 2;
        while rest > 1 {
            let mut power = 1;
            while rest % p == 0 {
                rest /= p;
                power *= p;
            }
            if power > 1 {
                match parts.iter_mut().find(|(q, _)| *q == p) {
                    Some((_, powers)) => powers.push(power),
                    None => parts.push((p, vec![power])),
                }
            }
            p += 1;
        }
    }
    let len = parts.iter().map(|(_, v)| v.len()).max().unwrap_or(0);
    let mut factors = vec![1u32; len];
    for (_, powers) in &mut parts {
        powers.sort_unstable_by(|a, b| b.cmp(a));
        // The largest powers go to the last (largest) factors.
        for (i, &power) in powers.iter().enumerate() {
            factors[len - 1 - i] *= power;
        }
    }
    factors
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invariant_factors_merge_primes() {
        assert_eq!(invariant_factors(&[2, 3, 1, 4]), vec![2, 12]);
        assert_eq!(invariant_factors(&[6, 6, 2]), vec![2, 6, 6]);
        assert_eq!(invariant_factors(&[1, 1]), Vec::<u32>::new());
        assert_eq!(invariant_factors(&[16, 8, 4]), vec![4, 8, 16]);
    }

    #[test]
    fn howell_spans_exactly() {
        // Over Z_4 the rows (2, 1) and (0, 2) span 8 vectors... check by
        // counting: every span element once.
        for k in [4u32, 6, 8, 12] {
            let rows = vec![vec![2, 1, 3], vec![0, 2, 2], vec![2, 3, 1]];
            let rows: Vec<Vec<u8>> = rows
                .into_iter()
                .map(|r| r.into_iter().map(|x: u32| (x % k) as u8).collect())
                .collect();
            let mut span = std::collections::HashSet::new();
            for a in 0..k {
                for b in 0..k {
                    for c in 0..k {
                        let v: Vec<u8> = (0..3)
                            .map(|j| {
                                ((a * u32::from(rows[0][j])
                                    + b * u32::from(rows[1][j])
                                    + c * u32::from(rows[2][j]))
                                    % k) as u8
                            })
                            .collect();
                        span.insert(v);
                    }
                }
            }
            let h = howell(rows.clone(), 3, k);
            let size: u32 = h.iter().map(|r| k / r.d).product();
            assert_eq!(size as usize, span.len(), "k = {k}");
            let orders = kernel_orders(
                (0..3)
                    .map(|j| rows.iter().map(|r| r[j]).collect())
                    .collect(),
                3,
                k,
            );
            // The kernel of the transpose has k^3 / |span| elements.
            assert_eq!(orders.iter().product::<u32>() * size, k * k * k, "k = {k}");
        }
    }
}
