//! The Walsh–Hadamard transform on 16-bit lanes, the kernel of the
//! null-space search of [`lights`](super) (see its module documentation):
//! in place, cache-friendly, compiled for the baseline target and for AVX2.

/// The unnormalised Walsh–Hadamard transform in place:
/// `f[y] = Σ_u f[u] · (-1)^popcount(u & y)`, for a length that is a power
/// of two. The inputs here are signed counts of at most 4,096 cells in all,
/// so no sum leaves `i16`.
///
/// Compiled twice: for the baseline target and with AVX2, chosen at run
/// time (16 lanes of 16 bits instead of 8: about 1.5 to 2 times faster).
pub(super) fn walsh_hadamard(f: &mut [i16]) {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU supports AVX2, checked just above.
            unsafe { walsh_hadamard_avx2(f) };
            return;
        }
    }
    walsh_hadamard_any(f);
}

/// [`walsh_hadamard_any`] compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn walsh_hadamard_avx2(f: &mut [i16]) {
    walsh_hadamard_any(f);
}

/// Levels transformed within one cache-sized piece: 2^12 lanes, 8 KiB.
const PIECE_BITS: usize = 12;

/// The transform, cache-friendly: the first three levels eight lanes at a
/// time in registers, the next ones within 8 KiB pieces (L1), the rest over
/// the whole buffer; two levels a pass from the fourth on.
#[inline(always)]
fn walsh_hadamard_any(f: &mut [i16]) {
    let bits = f.len().trailing_zeros() as usize;
    debug_assert!(f.len().is_power_of_two());
    if bits < 3 {
        levels(f, 0, bits);
        return;
    }
    for piece in f.chunks_mut(1 << PIECE_BITS) {
        for eight in piece.chunks_exact_mut(8) {
            walsh8(eight);
        }
        levels(piece, 3, bits.min(PIECE_BITS));
    }
    if bits > PIECE_BITS {
        levels(f, PIECE_BITS, bits);
    }
}

/// Levels `from..to` of the transform (the butterflies of distance
/// 2^`from` to 2^(`to` − 1)), two a pass.
#[inline(always)]
fn levels(f: &mut [i16], from: usize, to: usize) {
    let mut level = from;
    while level + 2 <= to {
        let half = 1 << level;
        for block in f.chunks_exact_mut(4 * half) {
            let (ab, cd) = block.split_at_mut(2 * half);
            let (a, b) = ab.split_at_mut(half);
            let (c, d) = cd.split_at_mut(half);
            for (((a, b), c), d) in a.iter_mut().zip(b).zip(c).zip(d) {
                let (s0, s1) = (a.wrapping_add(*b), a.wrapping_sub(*b));
                let (s2, s3) = (c.wrapping_add(*d), c.wrapping_sub(*d));
                *a = s0.wrapping_add(s2);
                *b = s1.wrapping_add(s3);
                *c = s0.wrapping_sub(s2);
                *d = s1.wrapping_sub(s3);
            }
        }
        level += 2;
    }
    if level < to {
        let half = 1 << level;
        for block in f.chunks_exact_mut(2 * half) {
            let (a, b) = block.split_at_mut(half);
            for (x, y) in a.iter_mut().zip(b) {
                let (s, t) = (*x, *y);
                *x = s.wrapping_add(t);
                *y = s.wrapping_sub(t);
            }
        }
    }
}

/// The first three levels on eight lanes.
#[inline(always)]
fn walsh8(c: &mut [i16]) {
    let a: [i16; 8] = [c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]];
    let mut b = [0i16; 8];
    for i in 0..4 {
        b[2 * i] = a[2 * i].wrapping_add(a[2 * i + 1]);
        b[2 * i + 1] = a[2 * i].wrapping_sub(a[2 * i + 1]);
    }
    let mut d = [0i16; 8];
    for i in [0, 1, 4, 5] {
        d[i] = b[i].wrapping_add(b[i + 2]);
        d[i + 2] = b[i].wrapping_sub(b[i + 2]);
    }
    for i in 0..4 {
        c[i] = d[i].wrapping_add(d[i + 4]);
        c[i + 4] = d[i].wrapping_sub(d[i + 4]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walsh_hadamard_is_the_transform() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut random = |n: usize| -> Vec<i16> {
            (0..n)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    (x % 5) as i16 - 2
                })
                .collect()
        };
        // The definition, for every length up to 2^9.
        for bits in 0..=9 {
            let f = random(1 << bits);
            let mut fast = f.clone();
            walsh_hadamard(&mut fast);
            let mut portable = f.clone();
            walsh_hadamard_any(&mut portable);
            for (y, (&w, &p)) in fast.iter().zip(&portable).enumerate() {
                let want: i32 = f
                    .iter()
                    .enumerate()
                    .map(|(u, &v)| {
                        i32::from(v) * if (u & y).count_ones() % 2 == 0 { 1 } else { -1 }
                    })
                    .sum();
                assert_eq!(
                    (i32::from(w), i32::from(p)),
                    (want, want),
                    "2^{bits} at {y}"
                );
            }
        }
        // Past one piece (2^12), with an even and an odd number of levels
        // left: each level's butterflies one pass at a time.
        for bits in [14, 15] {
            let f = random(1 << bits);
            let mut slow = f.clone();
            let mut half = 1;
            while half < slow.len() {
                for i in 0..slow.len() {
                    if i & half == 0 {
                        let (s, t) = (slow[i], slow[i + half]);
                        slow[i] = s.wrapping_add(t);
                        slow[i + half] = s.wrapping_sub(t);
                    }
                }
                half *= 2;
            }
            let mut fast = f;
            walsh_hadamard(&mut fast);
            assert_eq!(fast, slow, "2^{bits}");
        }
    }
}
