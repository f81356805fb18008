//! Quixo's tiers, for the tier solver ([`Tiers`]): cubes are
//! never taken off, so a move keeps the counts of X's and O's cubes or
//! adds one to the mover's. Tier `{a, b}` holds every position with `a`
//! cubes of one player and `b` of the other (`a ≤ b`), either player to
//! move; tiers are numbered by `a + b`, then `a`, so a move leads to its
//! own tier or one of the next total.
//!
//! Within a tier the ranks run: X to move before O to move; within a turn,
//! `a` X's before `b` X's (when `a ≠ b`); within those, X's cells by colex
//! rank, then O's among the cells X leaves ([`crate::subsets`]).

use super::Quixo;
use crate::game::Tiers;
use crate::subsets::{binomial, rank, spread, squeeze, unrank};

impl Quixo {
    /// The first tier of `n` cubes in all: tiers of `m` cubes are
    /// `m / 2 + 1`, which sum to `n + ⌊(n - 1)² / 4⌋` below `n`.
    #[inline]
    fn tier_base(n: usize) -> u64 {
        match n {
            0 => 0,
            _ => (n + (n - 1) * (n - 1) / 4) as u64,
        }
    }

    /// The total and the smaller count of `tier`.
    #[inline]
    fn tier_counts(&self, tier: u64) -> (usize, usize) {
        let mut n = 0;
        while n < self.shape.cells() && Quixo::tier_base(n + 1) <= tier {
            n += 1;
        }
        (n, (tier - Quixo::tier_base(n)) as usize)
    }

    /// The boards of `a` cubes of one player and `b` of the other, given
    /// which.
    fn boards(&self, a: usize, b: usize) -> u64 {
        let cells = self.shape.cells();
        binomial(cells, a) * binomial(cells - a, b)
    }
}

impl Tiers for Quixo {
    fn tiers(&self) -> u64 {
        Quixo::tier_base(self.shape.cells() + 1)
    }

    fn tier_size(&self, tier: u64) -> u64 {
        let (n, a) = self.tier_counts(tier);
        let orders = if 2 * a == n { 1 } else { 2 };
        2 * orders * self.boards(a, n - a)
    }

    fn tier_rank(&self, position: u64) -> (u64, u64) {
        let (x, o, o_to_move) = self.pieces(position);
        let (nx, no) = (x.count_ones() as usize, o.count_ones() as usize);
        let (a, b) = (nx.min(no), nx.max(no));
        let orders = if a == b { 1 } else { 2 };
        let boards = self.boards(a, b);
        let order = u64::from(nx != a);
        let within = rank(x) * binomial(self.shape.cells() - nx, no) + rank(squeeze(o, x));
        let block = u64::from(o_to_move) * orders + order;
        (Quixo::tier_base(a + b) + a as u64, block * boards + within)
    }

    fn tier_of(&self, position: u64) -> u64 {
        let (x, o, _) = self.pieces(position);
        let (nx, no) = (x.count_ones() as usize, o.count_ones() as usize);
        Quixo::tier_base(nx + no) + nx.min(no) as u64
    }

    fn position_at(&self, tier: u64, r: u64) -> u64 {
        let cells = self.shape.cells();
        let (n, a) = self.tier_counts(tier);
        let b = n - a;
        let orders = if a == b { 1 } else { 2 };
        let boards = self.boards(a, b);
        let (block, within) = (r / boards, r % boards);
        let (o_to_move, order) = (block / orders == 1, block % orders);
        let (nx, no) = if order == 0 { (a, b) } else { (b, a) };
        let o_ways = binomial(cells - nx, no);
        let x = unrank(within / o_ways, nx, cells);
        let o = spread(unrank(within % o_ways, no, cells - nx), x);
        self.position(x, o, o_to_move)
    }

    fn for_each_in_tier(&self, tier: u64, mut f: impl FnMut(u64, u64)) {
        let cells = self.shape.cells();
        let (n, a) = self.tier_counts(tier);
        let b = n - a;
        let orders = if a == b { 1 } else { 2 };
        let boards = self.boards(a, b);
        // With symmetry every class has its least member with X to move:
        // the ranks of O to move are never canonical.
        let turns = if self.symmetric { 1 } else { 2 };
        let mut free = [0u8; 64];
        for block in 0..turns * orders {
            let (o_to_move, order) = (block / orders == 1, block % orders);
            let (nx, no) = if order == 0 { (a, b) } else { (b, a) };
            let mut r = block * boards;
            // X's cells, then O's among the rest, each in colex order:
            // the next set of as many cells is the next larger mask.
            let mut x = low_bits(nx);
            loop {
                let mut len = 0;
                for c in 0..cells {
                    if x >> c & 1 == 0 {
                        free[len] = c as u8;
                        len += 1;
                    }
                }
                let mut s = low_bits(no);
                loop {
                    let mut o = 0u64;
                    let mut rest = s;
                    while rest != 0 {
                        o |= 1 << free[rest.trailing_zeros() as usize];
                        rest &= rest - 1;
                    }
                    f(r, self.position(x, o, o_to_move));
                    r += 1;
                    match next_set(s, cells - nx) {
                        Some(next) => s = next,
                        None => break,
                    }
                }
                match next_set(x, cells) {
                    Some(next) => x = next,
                    None => break,
                }
            }
        }
    }
}

/// The `k` lowest cells.
fn low_bits(k: usize) -> u64 {
    if k == 64 { u64::MAX } else { (1u64 << k) - 1 }
}

/// The next larger set of as many cells as `set`, all below `below`
/// (Gosper's step): `None` after the last. The empty set is the only one
/// of its size.
fn next_set(set: u64, below: usize) -> Option<u64> {
    if set == 0 {
        return None;
    }
    let low = set & set.wrapping_neg();
    let ripple = set.checked_add(low)?;
    let next = (((ripple ^ set) >> 2) / low) | ripple;
    (below >= 64 || next >> below == 0).then_some(next)
}
