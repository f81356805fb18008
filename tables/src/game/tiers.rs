//! Retrograde analysis tier by tier, for games whose positions fall into
//! tiers that moves never leave except towards tiers solved before them:
//! the working memory is that of one tier, not of the whole game.
//!
//! After GamesmanOne's tier solver. A game declares its tiers through
//! [`Tiers`]: each position index belongs to one tier and has a rank in it,
//! and a move from a position of tier `t` leads to (a position whose
//! canonical one is in) tier `t` or a tier numbered above `t`. The solver
//! takes the tiers from the last to the first. Within a tier it is the
//! retrograde analysis of [`retrograde`](super::retrograde), the positions
//! of later tiers entering as children already solved; moves may cycle
//! within a tier, and what is still undecided at the end is drawn.
//!
//! # Method
//!
//! Positions of the tier are decided in order of remoteness, through one
//! bucket of positions a remoteness. A position with children in later
//! tiers sums them up once: a lost one makes it a candidate win one ply
//! longer than the shortest, queued at that remoteness; a drawn one means
//! it can never be lost; if every child is won, it is lost one ply longer
//! than the longest of them all, those in the tier included, once these
//! are known. The children in the tier then tell their parents as the
//! plain analysis does. The winner hurries and the loser resists, and the
//! entries are exactly those [`retrograde::solve`](super::retrograde::solve)
//! gives (the tests compare them on every position).
//!
//! # Memory
//!
//! Six bytes a rank of the tier being solved, and eight a decided position
//! of it in the buckets; the entries of later tiers are read from the
//! caller's [`TierStore`], which may hold them anywhere (an array, a file).

use alloc::vec::Vec;

use super::graph::{children, index_len, push, zeroed};
use super::retrograde::{MAX_REMOTENESS, decode, encode};
use super::{Outcome, SolveError, Tiers, Value};

/// Where [`solve_tiers`] keeps what it has solved: it reads the entries of
/// later tiers back, and hands over each tier once solved.
pub trait TierStore {
    /// The entry ([`encode`]) of `position`, of a tier handed over before.
    fn entry(&self, position: u64) -> u16;

    /// Takes the entries of `tier`, by rank; 0 where a rank is not a legal
    /// canonical position.
    fn put(&mut self, tier: u64, entries: &[u16]) -> Result<(), SolveError>;
}

/// How far [`solve_tiers`] is: the tier being solved (counted down from
/// the last) and the position indices of the tiers done, and of the tier
/// being solved within it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TierStep {
    /// The tier being solved.
    pub tier: u64,
    /// Position indices of the tiers solved so far, and, within a tier,
    /// half of the tier's ranks scanned so far (the other half counts its
    /// positions decided).
    pub done: u64,
    /// Position indices in all.
    pub total: u64,
    /// Whether the tier is about to begin (every tier after it in the
    /// store), or the solve has ended; `false` for the reports within a
    /// tier, every [`WITHIN_TIER_STEP`] ranks of it.
    pub begins: bool,
}

/// Ranks of a tier scanned, or entries decided, between two reports within
/// the tier: 2^16.
pub const WITHIN_TIER_STEP: u64 = 1 << 16;

/// The undecided count of a position that can never be lost: it has a
/// child in a later tier that is not won.
const NEVER_LOST: u16 = u16::MAX;

/// A bucket entry decided when it was queued; without it, a candidate win
/// decided when it leaves the bucket, unless decided before.
const DECIDED: u64 = 1 << 63;

/// Solves `game` tier by tier, from the last tier down, handing each
/// tier's entries to `store`; `progress` is called before each tier
/// ([`TierStep::begins`]), within a tier every [`WITHIN_TIER_STEP`]
/// positions, and at the end, and returns `false` to stop
/// ([`SolveError::Cancelled`]).
pub fn solve_tiers<G: Tiers>(
    game: &G,
    store: &mut dyn TierStore,
    progress: &mut dyn FnMut(TierStep) -> bool,
) -> Result<(), SolveError> {
    solve_tiers_from(game, store, game.tiers(), progress)
}

/// [`solve_tiers`] resumed: the tiers from `left` on are in `store`
/// already, the tiers below `left` are solved. A call to `progress` before
/// tier `t` says that every tier after `t` is in `store`: a caller may
/// save its store then, and resume from `t + 1`.
pub fn solve_tiers_from<G: Tiers>(
    game: &G,
    store: &mut dyn TierStore,
    left: u64,
    progress: &mut dyn FnMut(TierStep) -> bool,
) -> Result<(), SolveError> {
    let total = game.positions();
    let left = left.min(game.tiers());
    let mut done: u64 = (left..game.tiers()).map(|t| game.tier_size(t)).sum();
    for tier in (0..left).rev() {
        let step = |done, begins| TierStep {
            tier,
            done,
            total,
            begins,
        };
        if !progress(step(done, true)) {
            return Err(SolveError::Cancelled);
        }
        let entries = solve_tier(game, &*store, tier, &mut |within| {
            progress(step(done + within, false))
        })?;
        store.put(tier, &entries)?;
        done += entries.len() as u64;
    }
    if !progress(TierStep {
        tier: 0,
        done: total,
        total,
        begins: true,
    }) {
        return Err(SolveError::Cancelled);
    }
    Ok(())
}

/// The entries of one tier, the tiers after it in `store`. `within` is
/// told how far the tier is (half its ranks once they are all scanned,
/// the other half as its positions are decided, of at most its ranks)
/// every [`WITHIN_TIER_STEP`] ranks scanned or entries decided, and returns
/// `false` to stop ([`SolveError::Cancelled`]).
fn solve_tier<G: Tiers>(
    game: &G,
    store: &dyn TierStore,
    tier: u64,
    within: &mut dyn FnMut(u64) -> bool,
) -> Result<Vec<u16>, SolveError> {
    let n = index_len(game.tier_size(tier))?;
    let half = n as u64 / 2;
    let mut stopped = false;
    let mut report = |at: u64, count: u64| -> bool {
        if count > 0 && count.is_multiple_of(WITHIN_TIER_STEP) && !stopped {
            stopped = !within(at);
        }
        stopped
    };
    let mut cells = zeroed(n)?;
    // Children in the tier not known to be won (NEVER_LOST: a child of a
    // later tier is not won); 0 for a rank that is not waiting.
    let mut waiting = zeroed(n)?;
    // The longest remoteness among the won children of later tiers.
    let mut later_max = zeroed(n)?;
    let mut buckets: Vec<Vec<u64>> = Vec::new();
    let mut in_tier: Vec<(u64, u64)> = Vec::new();
    let mut buf = Vec::new();
    let mut scan = |rank: u64, p: u64| -> Result<(), SolveError> {
        if !game.is_legal(p) || game.canonical(p) != p {
            return Ok(());
        }
        let r = rank as usize;
        match game.primitive(p) {
            Some(Value::Draw) => {
                cells[r] = encode(Some(Outcome::Draw));
                return Ok(());
            }
            Some(value) => {
                cells[r] = encode(Some(if value == Value::Win {
                    Outcome::Win(0)
                } else {
                    Outcome::Lose(0)
                }));
                queue(&mut buckets, 0, rank | DECIDED)?;
                return Ok(());
            }
            None => {}
        }
        children(game, p, &mut buf)?;
        if buf.is_empty() {
            return Err(SolveError::BadMove { position: p });
        }
        let (mut count, mut shortest_lost, mut longest_won, mut not_won) =
            (0u32, None, 0u16, false);
        for &c in &buf {
            let t = game.tier_of(c);
            if t == tier {
                count += 1;
                if !G::PARENTS {
                    let (_, child_rank) = game.tier_rank(c);
                    in_tier
                        .try_reserve(1)
                        .map_err(|_| SolveError::OutOfMemory {
                            bytes: 16 * (in_tier.len() as u64 + 1),
                        })?;
                    in_tier.push((child_rank, rank));
                }
                continue;
            }
            if t < tier {
                return Err(SolveError::BadMove { position: p });
            }
            match decode(store.entry(c)) {
                Some(Outcome::Lose(d)) => {
                    shortest_lost = Some(shortest_lost.map_or(d, |s: u16| s.min(d)));
                }
                Some(Outcome::Win(d)) => longest_won = longest_won.max(d),
                Some(Outcome::Draw) => not_won = true,
                None => return Err(SolveError::BadMove { position: p }),
            }
        }
        if let Some(d) = shortest_lost {
            let d = next_ply(d)?;
            queue(&mut buckets, d, rank)?;
            waiting[r] = NEVER_LOST;
        } else if not_won {
            waiting[r] = NEVER_LOST;
        } else if count == 0 {
            let d = next_ply(longest_won)?;
            cells[r] = encode(Some(Outcome::Lose(d)));
            queue(&mut buckets, d, rank | DECIDED)?;
        } else {
            waiting[r] = u16::try_from(count)
                .ok()
                .filter(|&c| c != NEVER_LOST)
                .ok_or(SolveError::TooManyMoves { position: p })?;
            later_max[r] = longest_won;
        }
        Ok(())
    };
    let mut failed = Ok(());
    let mut scanned = 0u64;
    game.for_each_in_tier(tier, |rank, p| {
        if failed.is_ok() {
            scanned += 1;
            failed = if report(scanned / 2, scanned) {
                Err(SolveError::Cancelled)
            } else {
                scan(rank, p)
            };
        }
    });
    failed?;
    // The parents in the tier, when the game gives none: the in-tier edges
    // sorted by child.
    in_tier.sort_unstable();
    let parents_of = |child_rank: u64, f: &mut dyn FnMut(u64)| {
        if G::PARENTS {
            game.for_each_parent(game.position_at(tier, child_rank), |q| {
                let (t, q_rank) = game.tier_rank(q);
                if t == tier {
                    f(q_rank);
                }
            });
        } else {
            let from = in_tier.partition_point(|&(c, _)| c < child_rank);
            in_tier[from..]
                .iter()
                .take_while(|&&(c, _)| c == child_rank)
                .for_each(|&(_, q)| f(q));
        }
    };
    let mut d = 0usize;
    let mut decided = 0u64;
    while d < buckets.len() {
        let bucket = core::mem::take(&mut buckets[d]);
        for entry in bucket {
            decided += 1;
            if report(half + (decided / 2).min(half), decided) {
                return Err(SolveError::Cancelled);
            }
            let rank = entry & !DECIDED;
            let r = rank as usize;
            if entry & DECIDED == 0 {
                if cells[r] != 0 {
                    continue;
                }
                cells[r] = encode(Some(Outcome::Win(d as u16)));
            }
            let lost = matches!(decode(cells[r]), Some(Outcome::Lose(_)));
            let next = next_ply(d as u16)?;
            let mut failed = Ok(());
            parents_of(rank, &mut |q| {
                let Some(i) = usize::try_from(q).ok().filter(|&i| i < n) else {
                    failed = Err(SolveError::BadMove {
                        position: game.position_at(tier, rank),
                    });
                    return;
                };
                if cells[i] != 0 || waiting[i] == 0 || failed.is_err() {
                    return;
                }
                if lost {
                    cells[i] = encode(Some(Outcome::Win(next)));
                    failed = queue(&mut buckets, next, q | DECIDED);
                } else if waiting[i] != NEVER_LOST {
                    waiting[i] -= 1;
                    if waiting[i] == 0 {
                        let at = next.max(later_max[i].saturating_add(1));
                        if at > MAX_REMOTENESS {
                            failed = Err(SolveError::TooDeep);
                            return;
                        }
                        cells[i] = encode(Some(Outcome::Lose(at)));
                        failed = queue(&mut buckets, at, q | DECIDED);
                    }
                }
            });
            failed?;
        }
        d += 1;
    }
    for (cell, &w) in cells.iter_mut().zip(&waiting) {
        if *cell == 0 && w > 0 {
            *cell = encode(Some(Outcome::Draw));
        }
    }
    Ok(cells)
}

/// One ply more than `d`, refused past [`MAX_REMOTENESS`].
fn next_ply(d: u16) -> Result<u16, SolveError> {
    Some(d + 1)
        .filter(|&n| n <= MAX_REMOTENESS)
        .ok_or(SolveError::TooDeep)
}

/// Puts `entry` in the bucket of remoteness `d`.
fn queue(buckets: &mut Vec<Vec<u64>>, d: u16, entry: u64) -> Result<(), SolveError> {
    let d = usize::from(d);
    if buckets.len() <= d {
        let more = d + 1 - buckets.len();
        buckets
            .try_reserve(more)
            .map_err(|_| SolveError::OutOfMemory {
                bytes: 24 * more as u64,
            })?;
        buckets.resize_with(d + 1, Vec::new);
    }
    push(&mut buckets[d], entry)
}

/// A [`TierStore`] holding every entry in memory, one a position index:
/// what [`solve_tiers_in_memory`] solves into.
#[derive(Debug)]
pub struct MemoryStore<'g, G> {
    game: &'g G,
    cells: Vec<u16>,
}

impl<G: Tiers> TierStore for MemoryStore<'_, G> {
    fn entry(&self, position: u64) -> u16 {
        usize::try_from(position)
            .ok()
            .and_then(|i| self.cells.get(i))
            .copied()
            .unwrap_or(0)
    }

    fn put(&mut self, tier: u64, entries: &[u16]) -> Result<(), SolveError> {
        let cells = &mut self.cells;
        scatter(self.game, tier, entries, |i, cell| {
            cells.get_mut(i).map(|slot| *slot = cell)
        })
    }
}

/// Hands each entry of `tier` that holds something (by rank) to `put` with
/// its position's index: `None` from `put` (no such index) is an error.
fn scatter<G: Tiers>(
    game: &G,
    tier: u64,
    entries: &[u16],
    mut put: impl FnMut(usize, u16) -> Option<()>,
) -> Result<(), SolveError> {
    for (rank, &cell) in entries.iter().enumerate() {
        if cell != 0 {
            let p = game.position_at(tier, rank as u64);
            usize::try_from(p)
                .ok()
                .and_then(|i| put(i, cell))
                .ok_or(SolveError::BadMove { position: p })?;
        }
    }
    Ok(())
}

/// A [`TierStore`] over bytes: two a position index, each entry
/// little-endian, as a table file stores them (a mapped file, say). Bytes
/// of ranks that are no legal canonical position are left as they are.
#[derive(Debug)]
pub struct ByteStore<'a, G> {
    game: &'a G,
    bytes: &'a mut [u8],
}

impl<'a, G: Tiers> ByteStore<'a, G> {
    /// The store of `game` over `bytes`, two a position index.
    pub fn new(game: &'a G, bytes: &'a mut [u8]) -> ByteStore<'a, G> {
        ByteStore { game, bytes }
    }
}

impl<G: Tiers> TierStore for ByteStore<'_, G> {
    fn entry(&self, position: u64) -> u16 {
        usize::try_from(position)
            .ok()
            .and_then(|i| self.bytes.get(2 * i..2 * i + 2))
            .map_or(0, |b| u16::from_le_bytes([b[0], b[1]]))
    }

    fn put(&mut self, tier: u64, entries: &[u16]) -> Result<(), SolveError> {
        let bytes = &mut *self.bytes;
        scatter(self.game, tier, entries, |i, cell| {
            let slot = bytes.get_mut(2 * i..2 * i + 2)?;
            slot.copy_from_slice(&cell.to_le_bytes());
            Some(())
        })
    }
}

/// Solves `game` tier by tier into one array of entries, the layout of
/// [`retrograde::Solved`](super::retrograde::Solved), which it returns.
pub fn solve_tiers_in_memory<G: Tiers>(
    game: &G,
    progress: &mut dyn FnMut(TierStep) -> bool,
) -> Result<super::retrograde::Solved, SolveError> {
    let n = index_len(game.positions())?;
    let mut store = MemoryStore {
        game,
        cells: zeroed(n)?,
    };
    solve_tiers(game, &mut store, progress)?;
    Ok(super::retrograde::Solved::from_cells(store.cells))
}
