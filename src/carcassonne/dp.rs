//! The DP: frontier profiles in groups, one linear pass a cell, over a
//! weight semiring (see the [module documentation](super) for the
//! algorithm and its memory).

use boardbase_tables::carcassonne::{self as packed, NONE, Side};
use num_bigint::BigUint;

use super::{Board, Error, MODULUS};

/// The default cap on the profile groups reachable after any one cell
/// (`2^20`; a group holds up to 16 profiles, see the [module
/// documentation](super)).
///
/// Counting modulo `p` stores 80 bytes a group, so one layer stays within
/// 80 MiB.
pub const GROUP_BUDGET: usize = 1 << 20;

/// The default cap on the profile groups a witness stores over all cells
/// (`2^24`, 10 bytes each: 160 MiB).
pub const WITNESS_BUDGET: usize = 1 << 24;

/// Memory caps for the DP, in profile groups (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Cap on the groups reachable after any one cell.
    pub groups: usize,
    /// Cap on the groups a witness stores over all cells.
    pub witness_groups: usize,
}

impl Budget {
    /// [`GROUP_BUDGET`] and [`WITNESS_BUDGET`].
    pub const DEFAULT: Budget = Budget {
        groups: GROUP_BUDGET,
        witness_groups: WITNESS_BUDGET,
    };
}

impl Default for Budget {
    fn default() -> Budget {
        Budget::DEFAULT
    }
}

/// The count modulo [`MODULUS`]; `check` is asked before each cell with
/// the cells placed so far.
pub(super) fn mod_p<E: From<Error>>(
    board: &Board,
    budget: Budget,
    mut check: impl FnMut(usize) -> Result<(), E>,
) -> Result<u64, E> {
    let last = run::<ModP, E>(board, budget.groups, |cell, _| check(cell))?;
    Ok(last.weights().fold(0, |s, &v| (s + u64::from(v)) % MODULUS))
}

/// The exact count; `check` as in [`mod_p`].
pub(super) fn exact<E: From<Error>>(
    board: &Board,
    budget: Budget,
    mut check: impl FnMut(usize) -> Result<(), E>,
) -> Result<BigUint, E> {
    let last = run::<Exact, E>(board, budget.groups, |cell, _| check(cell))?;
    Ok(last.weights().sum())
}

/// One valid placement of `board` (each tile's quarter turns clockwise,
/// row-major), or `None` when there is none; `check` as in [`mod_p`].
///
/// It is found from reachability alone, so it exists exactly when the
/// exact count is not 0 (even when the count modulo `p` is 0): the layers'
/// keys and masks are kept, and the walk goes back from a reachable
/// profile after the last cell.
pub(super) fn witness<E: From<Error>>(
    board: &Board,
    budget: Budget,
    mut check: impl FnMut(usize) -> Result<(), E>,
) -> Result<Option<Vec<u8>>, E> {
    let shape = Shape::of(board);
    // layers[c]: the groups before cell c, keys sorted, reachability masks.
    let mut layers: Vec<(Vec<u64>, Vec<u16>)> = Vec::new();
    let mut stored = 0usize;
    let last = run::<Reach, E>(board, budget.groups, |cell, layer| {
        check(cell)?;
        stored = stored.saturating_add(layer.groups());
        if stored > budget.witness_groups {
            return Err(Error::WitnessBudget {
                budget: budget.witness_groups,
            }
            .into());
        }
        let mut keys = Vec::with_capacity(layer.groups());
        let mut masks = Vec::with_capacity(layer.groups());
        for (k, m) in layer.masks() {
            keys.push(k);
            masks.push(m);
        }
        layers.push((keys, masks));
        Ok(())
    })?;
    let Some((mut key, mut nibble)) = last
        .masks()
        .find_map(|(k, m)| (m != 0).then(|| (k, m.trailing_zeros() as usize)))
    else {
        return Ok(None);
    };
    // Walk back from a reachable profile after the last cell, choosing at
    // each cell a transition whose output is the current profile and whose
    // input profile was reachable.
    let mut turns = vec![0u8; shape.cells];
    for cell in (0..shape.cells).rev() {
        let (r, c) = (cell / shape.width, cell % shape.width);
        let (keys, masks) = &layers[cell];
        let found = shape.transitions(board, r, c).into_iter().find_map(|t| {
            let (prev_key, prev_nibble) = shape.preimage(&t, key, nibble)?;
            let i = keys.binary_search(&prev_key).ok()?;
            (masks[i] >> prev_nibble & 1 == 1).then_some((prev_key, prev_nibble, t.turns))
        });
        let (k, n, t) = found.expect("a reachable profile has a reachable predecessor");
        (key, nibble) = (k, n);
        let (orow, ocol) = shape.original(r, c);
        turns[orow * board.cols() + ocol] = if shape.transposed { (4 - t) % 4 } else { t };
    }
    debug_assert_eq!((key, nibble), (0, 0), "the walk ends at the empty frontier");
    Ok(Some(turns))
}

/// How many frontier profiles the DP meets on a board.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProfileStats {
    /// The profile width (the narrower side).
    pub width: usize,
    /// Whether the board was transposed to run along its narrower side.
    pub transposed: bool,
    /// Cells placed before the DP ended: all of them, unless no profile
    /// survived one.
    pub cells: usize,
    /// The most profiles reachable after any one cell.
    pub max: usize,
    /// The mean number of profiles reachable after a cell placed.
    pub mean: f64,
    /// The most profile groups stored after any one cell.
    pub max_groups: usize,
}

/// Statistics of the reachable profiles per cell.
pub fn profile_stats(board: &Board) -> Result<ProfileStats, Error> {
    let shape = Shape::of(board);
    let mut sizes: Vec<(usize, usize)> = Vec::new();
    let mut record = |layer: &Layer<()>| sizes.push((layer.profiles(), layer.groups()));
    let last = run::<Reach, Error>(board, GROUP_BUDGET, |cell, layer| {
        // Skip the empty frontier before the first cell.
        if cell > 0 {
            record(layer);
        }
        Ok(())
    })?;
    record(&last);
    let placed: Vec<_> = sizes.iter().take_while(|&&(p, _)| p > 0).collect();
    let total: usize = placed.iter().map(|&&(p, _)| p).sum();
    Ok(ProfileStats {
        width: shape.width,
        transposed: shape.transposed,
        cells: placed.len(),
        max: placed.iter().map(|&&(p, _)| p).max().unwrap_or(0),
        mean: if placed.is_empty() {
            0.0
        } else {
            total as f64 / placed.len() as f64
        },
        max_groups: placed.iter().map(|&&(_, g)| g).max().unwrap_or(0),
    })
}

// ---------------------------------------------------------------------------
// The DP.

/// How the DP walks a board: row by row along the narrower side, `width`
/// cells a row.
#[derive(Clone, Copy)]
struct Shape {
    width: usize,
    cells: usize,
    transposed: bool,
}

/// One collapsed transition of a cell: a distinct rotation standing for
/// `multiplicity` of the 4 turns, the fewest being `turns`. `input` is the
/// nibble it reads (left edge in slot 0, top edge in slot 1); `dest` is
/// where it writes in the accumulator of a super-group, `16 * bucket +
/// nibble`, to which the source group's lowest key slot is added in slot 1
/// (see [`step`]).
#[derive(Clone, Copy, Debug)]
struct Transition {
    input: u8,
    dest: u8,
    multiplicity: u8,
    turns: u8,
}

impl Shape {
    fn of(board: &Board) -> Shape {
        let transposed = board.cols() > board.rows();
        let (height, width) = if transposed {
            (board.cols(), board.rows())
        } else {
            (board.rows(), board.cols())
        };
        Shape {
            width,
            cells: width * height,
            transposed,
        }
    }

    /// Bit position of the top slot of a group key (slots `2..=width` of a
    /// profile, so `width - 1` slots).
    fn top_shift(self) -> u32 {
        2 * self.width.saturating_sub(2) as u32
    }

    /// The original cell of DP cell (`r`, `c`).
    fn original(self, r: usize, c: usize) -> (usize, usize) {
        if self.transposed { (c, r) } else { (r, c) }
    }

    /// The tile of DP cell (`r`, `c`), reflected if the board is transposed.
    fn tile(self, board: &Board, r: usize, c: usize) -> packed::Tile {
        if self.transposed {
            board.tile(c, r).packed().reflect_transpose()
        } else {
            board.tile(r, c).packed()
        }
    }

    /// The collapsed transitions of DP cell (`r`, `c`): one per distinct
    /// rotation, edges on the border replaced by [`NONE`].
    ///
    /// A placement turns the profile's slots 0 and 1 (left, top) into
    /// (bottom, right); the rotation to the next cell then moves the bottom
    /// to the top slot of the group key (the bucket) and the right edge to
    /// slot 0, slot 1 taking the group key's lowest slot. With width 1 the
    /// group key is empty and the bottom edge lands in slot 1 instead.
    fn transitions(self, board: &Board, r: usize, c: usize) -> Transitions {
        let tile = self.tile(board, r, c);
        let mut out = Transitions {
            items: [Transition {
                input: 0,
                dest: 0,
                multiplicity: 0,
                turns: 0,
            }; 4],
            len: 0,
        };
        for rot in tile.rotations().as_slice() {
            let t = rot.tile;
            let top = if r > 0 { t.code(Side::Top) } else { NONE };
            let left = if c > 0 { t.code(Side::Left) } else { NONE };
            let right = if c + 1 < self.width {
                t.code(Side::Right)
            } else {
                NONE
            };
            let bottom = t.code(Side::Bottom);
            let (input, output) = packed::placement_nibbles(top, right, bottom, left);
            let (bottom, right) = (output & 3, output >> 2);
            let dest = if self.width == 1 {
                bottom << 2
            } else {
                16 * bottom + right
            };
            out.items[out.len] = Transition {
                input,
                dest,
                multiplicity: rot.multiplicity,
                turns: rot.turns,
            };
            out.len += 1;
        }
        out
    }

    /// The profile (group key, nibble) before a cell from which transition
    /// `t` leads to profile (`key`, `nibble`) after it, if any.
    fn preimage(self, t: &Transition, key: u64, nibble: usize) -> Option<(u64, usize)> {
        let dest = usize::from(t.dest);
        if self.width == 1 {
            return (dest == nibble).then_some((0, usize::from(t.input)));
        }
        let bucket = (key >> self.top_shift()) & 3;
        if dest >> 4 != bucket as usize || dest & 3 != nibble & 3 {
            return None;
        }
        let low = key & packed::profile_mask(self.width - 2);
        Some((low << 2 | (nibble >> 2) as u64, usize::from(t.input)))
    }
}

struct Transitions {
    items: [Transition; 4],
    len: usize,
}

impl Transitions {
    fn as_slice(&self) -> &[Transition] {
        &self.items[..self.len]
    }
}

impl IntoIterator for Transitions {
    type Item = Transition;
    type IntoIter = std::iter::Take<std::array::IntoIter<Transition, 4>>;

    fn into_iter(self) -> Self::IntoIter {
        self.items.into_iter().take(self.len)
    }
}

/// The weight the DP carries per reachable profile: a commutative semiring
/// restricted to what the DP needs.
///
/// Which profiles are reachable is kept apart, as a mask per group, and the
/// weight of an unreachable profile is unspecified: the DP passes `hit`
/// (whether `v` is reachable) and treats `v` as zero when it is not.
trait Weight {
    /// The weight of one profile.
    type Val: Clone;
    /// The zero.
    fn zero() -> Self::Val;
    /// The weight of the empty board.
    fn one() -> Self::Val;
    /// `acc += v * mult` if `hit`, `mult` being 1, 2 or 4.
    fn mul_add(acc: &mut Self::Val, v: &Self::Val, mult: u8, hit: bool);
    /// `acc = v * mult` if `hit`, else `acc = 0`, `mult` being 1, 2 or 4.
    fn mul_set(acc: &mut Self::Val, v: &Self::Val, mult: u8, hit: bool);
}

/// Counts modulo [`MODULUS`], in 32 bits.
struct ModP;

impl ModP {
    /// `v * mult` modulo p if `hit`, else 0, for `v < p`.
    #[inline(always)]
    fn times(v: u32, mult: u8, hit: bool) -> u32 {
        // Every value stays below p < 2^30, so doubling fits in 32 bits and
        // one conditional subtraction reduces it.
        let mut x = v & u32::from(hit).wrapping_neg();
        if mult >= 2 {
            x = Self::reduce(x << 1);
        }
        if mult >= 4 {
            x = Self::reduce(x << 1);
        }
        x
    }

    /// `x mod p` for `x < 2p`.
    #[inline(always)]
    fn reduce(x: u32) -> u32 {
        const P: u32 = MODULUS as u32;
        if x >= P { x - P } else { x }
    }
}

impl Weight for ModP {
    type Val = u32;
    #[inline(always)]
    fn zero() -> u32 {
        0
    }
    #[inline(always)]
    fn one() -> u32 {
        1
    }
    #[inline(always)]
    fn mul_add(acc: &mut u32, v: &u32, mult: u8, hit: bool) {
        *acc = ModP::reduce(*acc + ModP::times(*v, mult, hit));
    }
    #[inline(always)]
    fn mul_set(acc: &mut u32, v: &u32, mult: u8, hit: bool) {
        *acc = ModP::times(*v, mult, hit);
    }
}

/// Exact counts.
struct Exact;

impl Weight for Exact {
    type Val = BigUint;
    fn zero() -> BigUint {
        BigUint::ZERO
    }
    fn one() -> BigUint {
        BigUint::from(1u8)
    }
    fn mul_add(acc: &mut BigUint, v: &BigUint, mult: u8, hit: bool) {
        if hit {
            *acc += v * u32::from(mult);
        }
    }
    fn mul_set(acc: &mut BigUint, v: &BigUint, mult: u8, hit: bool) {
        *acc = BigUint::ZERO;
        Exact::mul_add(acc, v, mult, hit);
    }
}

/// Reachability alone: no weight, the group masks say it all.
struct Reach;

impl Weight for Reach {
    type Val = ();
    #[inline(always)]
    fn zero() {}
    #[inline(always)]
    fn one() {}
    #[inline(always)]
    fn mul_add(_: &mut (), _: &(), _: u8, _: bool) {}
    #[inline(always)]
    fn mul_set(_: &mut (), _: &(), _: u8, _: bool) {}
}

/// The reachable profiles sharing slots `2..=width`.
#[derive(Clone)]
struct Group<V> {
    /// Slots `2..=width` of the profiles, slot `i` at bits `2 * (i - 2)`.
    key: u64,
    /// Bit `n` set when the profile whose slots 0 and 1 are the nibble
    /// `n = slot0 | slot1 << 2` is reachable.
    mask: u16,
    /// The weights of the 16 profiles; unspecified where the mask is clear.
    rec: [V; 16],
}

/// The reachable profiles between two cells, in groups: `buckets[b]` holds
/// the groups whose key has `b` in its top slot, sorted by key, so the
/// buckets in order are sorted by key.
struct Layer<V> {
    buckets: [Vec<Group<V>>; 4],
}

impl<V> Layer<V> {
    fn new() -> Layer<V> {
        Layer {
            buckets: Default::default(),
        }
    }

    fn clear(&mut self) {
        self.buckets.iter_mut().for_each(Vec::clear);
    }

    fn groups(&self) -> usize {
        self.buckets.iter().map(Vec::len).sum()
    }

    /// Every group, in key order.
    fn iter(&self) -> impl Iterator<Item = &Group<V>> {
        self.buckets.iter().flatten()
    }

    fn profiles(&self) -> usize {
        self.iter().map(|g| g.mask.count_ones() as usize).sum()
    }

    /// Every group's key and mask, in key order.
    fn masks(&self) -> impl Iterator<Item = (u64, u16)> {
        self.iter().map(|g| (g.key, g.mask))
    }

    /// Every reachable profile's weight.
    fn weights(&self) -> impl Iterator<Item = &V> {
        self.iter()
            .flat_map(|g| (0..16).filter(|&n| g.mask >> n & 1 == 1).map(|n| &g.rec[n]))
    }
}

/// Runs the DP over every cell and returns the last layer (empty when no
/// placement exists). `visit` sees each cell's index (row-major, from 0)
/// and the layer before it.
fn run<W: Weight, E: From<Error>>(
    board: &Board,
    budget: usize,
    mut visit: impl FnMut(usize, &Layer<W::Val>) -> Result<(), E>,
) -> Result<Layer<W::Val>, E> {
    let shape = Shape::of(board);
    let mut cur = Layer::new();
    let mut next = Layer::new();
    let mut rec: [W::Val; 16] = std::array::from_fn(|_| W::zero());
    rec[0] = W::one();
    cur.buckets[0].push(Group {
        key: 0,
        mask: 1,
        rec,
    });
    let mut acc: [[W::Val; 64]; 2] = std::array::from_fn(|_| std::array::from_fn(|_| W::zero()));
    for cell in 0..shape.cells {
        visit(cell, &cur)?;
        let (r, c) = (cell / shape.width, cell % shape.width);
        let transitions = shape.transitions(board, r, c);
        next.clear();
        // Monomorphised by the number of distinct rotations (1, 2 or 4), so
        // the transition loop unrolls with a constant multiplicity (4, 2, 1).
        let t = transitions.as_slice();
        let distinct = (0..t.len()).all(|i| (0..i).all(|j| t[i].dest != t[j].dest));
        let within = match (t, distinct) {
            (&[a], _) => step::<W, 1, true>(&cur, &mut next, shape, &[a], &mut acc, budget),
            (&[a, b], true) => {
                step::<W, 2, true>(&cur, &mut next, shape, &[a, b], &mut acc, budget)
            }
            (&[a, b], false) => {
                step::<W, 2, false>(&cur, &mut next, shape, &[a, b], &mut acc, budget)
            }
            (&[a, b, c, d], true) => {
                step::<W, 4, true>(&cur, &mut next, shape, &[a, b, c, d], &mut acc, budget)
            }
            (&[a, b, c, d], false) => {
                step::<W, 4, false>(&cur, &mut next, shape, &[a, b, c, d], &mut acc, budget)
            }
            _ => unreachable!("a tile has 1, 2 or 4 distinct rotations"),
        };
        if !within {
            return Err(Error::ProfileBudget {
                groups: next.groups(),
                budget,
                placed: cell + 1,
                cells: shape.cells,
            }
            .into());
        }
        std::mem::swap(&mut cur, &mut next);
        if cur.groups() == 0 {
            break;
        }
    }
    Ok(cur)
}

/// Places one cell: reads `prev` (the groups before the cell) and fills
/// `next` (the groups after it, rotated for the next cell). Returns `false`
/// as soon as `next` holds more than `budget` groups.
///
/// A group with key `g` feeds, through each transition, the new group with
/// key `g >> 2` plus the tile's bottom edge as top slot (the bucket), at
/// nibble `right | (g & 3) << 2`. So the groups sharing `g >> 2` (a
/// *super-group*: consecutive, as the buckets are sorted) together fill one
/// record per bucket, accumulated in `acc` (64 weights: `16 * bucket +
/// nibble`) with the masks in one `u64` of the same layout, and emitted when
/// the super-group is done, in increasing key order within each bucket.
///
/// Two accumulators alternate and each is emitted one super-group late, so
/// that its stores have landed before they are read back.
#[inline(never)]
fn step<W: Weight, const N: usize, const DISTINCT: bool>(
    prev: &Layer<W::Val>,
    next: &mut Layer<W::Val>,
    shape: Shape,
    trans: &[Transition; N],
    acc: &mut [[W::Val; 64]; 2],
    budget: usize,
) -> bool {
    let top_shift = shape.top_shift();
    // Each of the N distinct rotations stands for 4 / N of the 4 turns.
    let mult = const { 4 / N as u8 };
    debug_assert!(trans.iter().all(|t| t.multiplicity == mult));
    let input: [usize; N] = std::array::from_fn(|i| usize::from(trans[i].input));
    let dest: [usize; N] = std::array::from_fn(|i| usize::from(trans[i].dest));
    let input_bit: [u16; N] = std::array::from_fn(|i| 1 << trans[i].input);
    let dest_bit: [u64; N] = std::array::from_fn(|i| 1 << trans[i].dest);
    let written = trans.iter().fold(0u8, |w, t| w | 1 << (t.dest >> 4));
    if !DISTINCT {
        // Adding needs zeroed accumulators (emit re-zeroes them).
        acc.iter_mut().flatten().for_each(|v| *v = W::zero());
    }
    // Per accumulator: its super-group key (u64::MAX: none) and its masks.
    let mut sup = [u64::MAX; 2];
    let mut out = [0u64; 2];
    let mut cur = 0;
    let mut groups = 0usize;
    for group in prev.iter() {
        let key = group.key;
        if key >> 2 != sup[cur] {
            if sup[cur] != u64::MAX {
                cur ^= 1;
                if sup[cur] != u64::MAX {
                    groups += emit::<W, DISTINCT>(
                        &mut acc[cur],
                        out[cur],
                        written,
                        sup[cur],
                        top_shift,
                        next,
                    );
                    if groups > budget {
                        return false;
                    }
                }
            }
            sup[cur] = key >> 2;
            out[cur] = 0;
        }
        let low = ((key & 3) << 2) as usize;
        let a = &mut acc[cur];
        // The output mask before the shift by `low`: each transition whose
        // input is reachable makes its destination reachable.
        let mut reached = 0u64;
        for i in 0..N {
            let pos = (dest[i] + low) & 63;
            let v = &group.rec[input[i] & 15];
            let hit = group.mask & input_bit[i] != 0;
            if DISTINCT {
                W::mul_set(&mut a[pos], v, mult, hit);
            } else {
                W::mul_add(&mut a[pos], v, mult, hit);
            }
            reached |= dest_bit[i] & u64::from(hit).wrapping_neg();
        }
        out[cur] |= reached << low;
    }
    for _ in 0..2 {
        cur ^= 1;
        if sup[cur] != u64::MAX {
            groups +=
                emit::<W, DISTINCT>(&mut acc[cur], out[cur], written, sup[cur], top_shift, next);
        }
    }
    groups <= budget
}

/// Emits the records of `acc` with a non-empty mask in `out` (one per
/// bucket in `written`) as the groups with key `sup` plus the bucket as top
/// slot, zeroing them for the next super-group unless the transitions
/// assign (`DISTINCT`). Returns the number of groups emitted.
#[inline(always)]
fn emit<W: Weight, const DISTINCT: bool>(
    acc: &mut [W::Val; 64],
    out: u64,
    written: u8,
    sup: u64,
    top_shift: u32,
    next: &mut Layer<W::Val>,
) -> usize {
    let mut emitted = 0;
    let mut buckets = written;
    while buckets != 0 {
        let b = (buckets.trailing_zeros() & 3) as usize;
        buckets &= buckets - 1;
        let mask = (out >> (16 * b)) as u16;
        if mask == 0 {
            continue;
        }
        let slot = &mut acc[16 * b..16 * b + 16];
        next.buckets[b].push(Group {
            key: sup | (b as u64) << top_shift,
            mask,
            // Transitions to distinct destinations assign, so the slot
            // needs no zeroing; its unreachable entries are left as they
            // are (unspecified, never read unmasked).
            rec: if DISTINCT {
                std::array::from_fn(|i| slot[i].clone())
            } else {
                std::array::from_fn(|i| std::mem::replace(&mut slot[i], W::zero()))
            },
        });
        emitted += 1;
    }
    emitted
}

#[cfg(test)]
mod tests {
    use super::*;
    use boardbase_tables::carcassonne::{rotate_slots, with_slot};

    /// The group/nibble arithmetic of `step` and `preimage` is the packed
    /// profile's placement followed by `rotate_slots`.
    #[test]
    fn step_layout_is_a_slot_rotation() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for width in 1..=packed::MAX_WIDTH {
            let shape = Shape {
                width,
                cells: width,
                transposed: false,
            };
            let slots = width + 1;
            for _ in 0..2000 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let profile = x & packed::profile_mask(slots);
                let (key, nibble) = (profile >> 4, (profile & 15) as usize);
                let bottom = (x >> 40) as u8 & 3;
                let right = if width == 1 {
                    NONE
                } else {
                    (x >> 42) as u8 & 3
                };
                let placed = with_slot(with_slot(profile, 0, bottom), 1, right);
                let rotated = rotate_slots(placed, slots);
                // What step computes.
                let dest = if width == 1 {
                    usize::from(bottom) << 2
                } else {
                    16 * usize::from(bottom) + usize::from(right)
                };
                let low = if width == 1 {
                    0
                } else {
                    ((key & 3) << 2) as usize
                };
                let new_key = (key >> 2) | ((dest >> 4) as u64) << shape.top_shift();
                let new_nibble = (dest & 15) + low;
                assert_eq!(new_key, rotated >> 4, "width {width}, profile {profile:#x}");
                assert_eq!(new_nibble as u64, rotated & 15);
                // And preimage inverts it.
                let t = Transition {
                    input: nibble as u8,
                    dest: dest as u8,
                    multiplicity: 1,
                    turns: 0,
                };
                assert_eq!(shape.preimage(&t, new_key, new_nibble), Some((key, nibble)));
            }
        }
    }

    #[test]
    fn group_sizes() {
        assert_eq!(std::mem::size_of::<Group<u32>>(), 80);
        assert_eq!(std::mem::size_of::<Group<()>>(), 16);
    }
}
