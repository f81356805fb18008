//! Retrograde analysis of any [`TwoPlayer`] game: the value and remoteness
//! of every position, for games whose positions repeat as well.
//!
//! # Method
//!
//! Every primitive position is decided first (remoteness 0) and queued.
//! Every other position counts its distinct canonical children. Positions
//! leave the queue in order of remoteness; each tells its parents:
//!
//! * a lost child makes an undecided parent won, one ply longer: the first
//!   lost child to leave the queue is the shortest, so the winner hurries;
//! * a won child takes one from the parent's count of children not known to
//!   be won; at zero every child is won and the parent is lost, one ply
//!   longer than the child leaving last, the longest, so the loser resists.
//!
//! What is still undecided when the queue is empty is a draw: no child is
//! lost, and some child is not won. No depth limit is involved, so a game
//! with cycles gets exact draws, as GamesmanOne's loopy solver finds them.
//! A primitive draw is never queued, and so counts as a child not won.

use alloc::vec::Vec;
use core::cmp::Ordering;

use super::graph::{Parents, children, filled, index_len, push, zeroed};
use super::{Outcome, SolveError, TwoPlayer, Value};

/// The deepest remoteness held: 14 bits.
pub const MAX_REMOTENESS: u16 = (1 << 14) - 1;

const WIN: u16 = 1 << 14;
const LOSE: u16 = 2 << 14;
const DRAW: u16 = 3 << 14;
const REMOTENESS: u16 = MAX_REMOTENESS;

/// Every position of a game solved: one entry a position index (two bytes),
/// empty for an index that is not a legal canonical position.
///
/// An entry ([`encode`], [`decode`]) holds the value in its top two bits
/// (1 won, 2 lost, 3 drawn, 0 no position) and the remoteness in the other
/// fourteen; the table files store entries as they are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solved {
    cells: Vec<u16>,
}

/// The entry of `outcome` (`None`: an index that is not a legal canonical
/// position). A remoteness past [`MAX_REMOTENESS`] is cut to it.
pub const fn encode(outcome: Option<Outcome>) -> u16 {
    match outcome {
        None => 0,
        Some(Outcome::Win(r)) => WIN | clamp(r),
        Some(Outcome::Lose(r)) => LOSE | clamp(r),
        Some(Outcome::Draw) => DRAW,
    }
}

const fn clamp(r: u16) -> u16 {
    if r > MAX_REMOTENESS {
        MAX_REMOTENESS
    } else {
        r
    }
}

/// The outcome an entry holds, `None` for an empty one. A draw's entry
/// has no remoteness: one with bits in it is not an entry [`encode`]
/// makes, and is read as `None` too.
pub const fn decode(cell: u16) -> Option<Outcome> {
    let r = cell & REMOTENESS;
    match cell & !REMOTENESS {
        WIN => Some(Outcome::Win(r)),
        LOSE => Some(Outcome::Lose(r)),
        DRAW if r == 0 => Some(Outcome::Draw),
        _ => None,
    }
}

impl Solved {
    /// A solved game from its entries, one a position index, as
    /// [`Solved::cells`] gives them (read back from a table file, say).
    /// Nothing is checked here: [`check`] says whether they are the game's.
    pub fn from_cells(cells: Vec<u16>) -> Solved {
        Solved { cells }
    }

    /// The entries, one a position index ([`decode`] reads one).
    pub fn cells(&self) -> &[u16] {
        &self.cells
    }

    /// The entries, taken.
    pub fn into_cells(self) -> Vec<u16> {
        self.cells
    }

    /// The number of position indices.
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// Whether there are no positions.
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// The outcome of the canonical position `position`, `None` for an
    /// index that is not a legal canonical position (or is out of range).
    pub fn outcome(&self, position: u64) -> Option<Outcome> {
        decode(*self.cells.get(usize::try_from(position).ok()?)?)
    }

    /// The outcome of any position of `game`, through its canonical one.
    pub fn outcome_of<G: TwoPlayer>(&self, game: &G, position: u64) -> Option<Outcome> {
        self.outcome(game.canonical(position))
    }

    /// Calls `f` with each move of `position` and the outcome it gives the
    /// player making it, in the game's move order.
    pub fn for_each_move_value<G: TwoPlayer>(
        &self,
        game: &G,
        position: u64,
        mut f: impl FnMut(G::Move, Option<Outcome>),
    ) {
        game.for_each_move(position, |mv| {
            let child = self.outcome_of(game, game.play(position, mv));
            f(mv, child.map(Outcome::through_move));
        });
    }

    /// The best move of `position` and its outcome for the mover: the
    /// fastest win, else a draw, else the longest loss; the first such in
    /// the game's move order. `None` for a position with no move.
    pub fn best_move<G: TwoPlayer>(&self, game: &G, position: u64) -> Option<(G::Move, Outcome)> {
        let mut best: Option<(G::Move, Outcome)> = None;
        self.for_each_move_value(game, position, |mv, outcome| {
            let Some(outcome) = outcome else { return };
            if best.is_none_or(|(_, b)| outcome.preference(b) == Ordering::Greater) {
                best = Some((mv, outcome));
            }
        });
        best
    }

    /// The canonical positions reachable from `game`'s start (the start's
    /// class and every class a sequence of moves leads to, finished ones
    /// included) of each value, by this table: [`reachable_counts`].
    pub fn reachable_counts<G: TwoPlayer>(
        &self,
        game: &G,
        progress: &mut dyn FnMut(u64) -> bool,
    ) -> Result<[u64; 3], SolveError> {
        reachable_counts(game, |p| self.outcome(p), progress)
    }

    /// The number of legal canonical positions of each value: won, lost,
    /// drawn.
    pub fn counts(&self) -> [u64; 3] {
        let mut counts = [0u64; 3];
        for &cell in &self.cells {
            match cell & !REMOTENESS {
                WIN => counts[0] += 1,
                LOSE => counts[1] += 1,
                DRAW => counts[2] += 1,
                _ => {}
            }
        }
        counts
    }
}

/// Positions [`reachable_counts`] counts between two calls of its
/// `progress`: 2^16, a fraction of a millisecond.
pub const REACHABLE_STEP: u64 = 1 << 16;

/// The canonical positions reachable from `game`'s start (finished ones
/// included) of each value, their outcomes read through `outcome`: won,
/// lost, drawn for the player to move. Depth first over canonical
/// children, one bit a position index to mark those seen. `progress` is
/// told the positions counted so far, every [`REACHABLE_STEP`] of them,
/// and returns `false` to stop ([`SolveError::Cancelled`]).
pub fn reachable_counts<G: TwoPlayer>(
    game: &G,
    outcome: impl Fn(u64) -> Option<Outcome>,
    progress: &mut dyn FnMut(u64) -> bool,
) -> Result<[u64; 3], SolveError> {
    let n = index_len(game.positions())?;
    let mut seen = filled(n.div_ceil(64), 0u64)?;
    let mut stack: Vec<u64> = Vec::new();
    let mut counts = [0u64; 3];
    let start = game.canonical(game.start());
    let mut visit = |p: u64, stack: &mut Vec<u64>| -> Result<(), SolveError> {
        let i = usize::try_from(p).map_err(|_| SolveError::BadMove { position: p })?;
        let word = seen
            .get_mut(i / 64)
            .ok_or(SolveError::BadMove { position: p })?;
        if *word >> (i % 64) & 1 == 0 {
            *word |= 1 << (i % 64);
            push(stack, p)?;
        }
        Ok(())
    };
    visit(start, &mut stack)?;
    let mut counted = 0u64;
    while let Some(p) = stack.pop() {
        if counted.is_multiple_of(REACHABLE_STEP) && !progress(counted) {
            return Err(SolveError::Cancelled);
        }
        counted += 1;
        match outcome(p) {
            Some(Outcome::Win(_)) => counts[0] += 1,
            Some(Outcome::Lose(_)) => counts[1] += 1,
            Some(Outcome::Draw) => counts[2] += 1,
            None => return Err(SolveError::BadMove { position: p }),
        }
        let mut failed = Ok(());
        game.for_each_move(p, |mv| {
            if failed.is_ok() {
                failed = visit(game.canonical(game.play(p, mv)), &mut stack);
            }
        });
        failed?;
    }
    Ok(counts)
}

/// Solves every legal canonical position of `game`.
///
/// Memory: two bytes a position index for the table, two for the counts,
/// up to eight for the queue; without [`Rules::for_each_parent`] the
/// reverse graph besides (eight bytes a position and eight a move). The
/// table and the counts are allocated zeroed and written only at legal
/// canonical positions: where a game's symmetry leaves whole pages of
/// indices without one, those pages are never touched and cost nothing.
///
/// [`Rules::for_each_parent`]: super::Rules::for_each_parent
pub fn solve<G: TwoPlayer>(game: &G) -> Result<Solved, SolveError> {
    solve_with(game, &mut |_| true)
}

/// How far [`solve_with`] is: of `total` steps, `done` (each position is
/// one step of the first pass, which decides the primitive ones and counts
/// the others' children, and one of the second, in which it leaves the
/// queue or is found a draw).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// Steps done.
    pub done: u64,
    /// Steps in all.
    pub total: u64,
}

/// The positions between two calls of [`solve_with`]'s callback.
const STRIDE: u64 = 1 << 16;

/// [`solve`], calling `progress` every 65,536 positions or so; it returns
/// `false` to stop the solver, which then returns
/// [`SolveError::Cancelled`].
pub fn solve_with<G: TwoPlayer>(
    game: &G,
    progress: &mut dyn FnMut(Step) -> bool,
) -> Result<Solved, SolveError> {
    solve_resumable(game, None, progress, &mut |_| true)
}

/// Where a solve stands between two of its steps: what a checkpoint holds
/// besides the entries and the counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// The first pass, which decides the primitive positions and counts the
    /// others' children, is done below this index.
    Scan {
        /// The next index to look at.
        next: u64,
    },
    /// The first pass is done, and this many positions have left the
    /// queue.
    Queue {
        /// Positions taken from the queue so far.
        taken: u64,
    },
}

/// A solve's whole state at a [`Stage`], lent to the `save` callback of
/// [`solve_resumable`] (which writes it somewhere, or not), and given back
/// as a [`Resume`] to go on from it. The solve that resumes ends with the
/// very entries of one that never stopped.
#[derive(Debug)]
pub struct Snapshot<'a> {
    /// Where the solve stands.
    pub stage: Stage,
    /// The entries so far, one a position index ([`Solved::cells`]'s
    /// layout; 0 for undecided).
    pub cells: &'a [u16],
    /// For each undecided position, its children not yet known to be won
    /// (0 for a position not waiting).
    pub waiting: &'a [u16],
    /// The decided positions still to tell their parents, in queue order.
    pub queue: &'a [u64],
}

/// A [`Snapshot`] read back: the state a solve goes on from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resume {
    /// Where the solve stood.
    pub stage: Stage,
    /// The entries, one a position index.
    pub cells: Vec<u16>,
    /// The counts of children not known to be won.
    pub waiting: Vec<u16>,
    /// The positions still to leave the queue.
    pub queue: Vec<u64>,
}

/// `len` entries of 0, allocated zeroed, so that pages never written are
/// never touched (as the solver's own arrays are): for the arrays of a
/// [`Resume`] read back.
pub fn zeroed_entries(len: usize) -> Result<Vec<u16>, SolveError> {
    zeroed(len)
}

/// [`solve_with`], from `resume` when given (the state a [`Snapshot`]
/// lent earlier, of the same game), offering `save` a [`Snapshot`] every
/// 65,536 positions or so, at the same points where `progress` is called;
/// `save` returns `false` to stop the solver, as `progress` does. The
/// solver decides nothing by time: the caller says when a snapshot is worth
/// writing.
///
/// A resume whose arrays are not as long as the game's index space is
/// refused ([`SolveError::BadResume`]); one of another game is not found
/// out here, so the caller keeps with the snapshot what it was of.
pub fn solve_resumable<G: TwoPlayer>(
    game: &G,
    resume: Option<Resume>,
    progress: &mut dyn FnMut(Step) -> bool,
    save: &mut dyn FnMut(Snapshot<'_>) -> bool,
) -> Result<Solved, SolveError> {
    let n = index_len(game.positions())?;
    let total = 2 * n as u64;
    let (stage, mut cells, mut waiting, mut queue) = match resume {
        Some(r) => {
            let next_ok = match r.stage {
                Stage::Scan { next } => next <= n as u64,
                Stage::Queue { taken } => taken <= n as u64,
            };
            if r.cells.len() != n || r.waiting.len() != n || !next_ok {
                return Err(SolveError::BadResume);
            }
            (r.stage, r.cells, r.waiting, r.queue)
        }
        None => (
            Stage::Scan { next: 0 },
            zeroed(n)?,
            // Children not yet known to be won; 0 for a position not waiting.
            zeroed(n)?,
            Vec::new(),
        ),
    };
    let mut buf = Vec::new();
    if let Stage::Scan { next: first } = stage {
        for p in first..n as u64 {
            if p.is_multiple_of(STRIDE) {
                let snapshot = Snapshot {
                    stage: Stage::Scan { next: p },
                    cells: &cells,
                    waiting: &waiting,
                    queue: &queue,
                };
                if !progress(Step { done: p, total }) || !save(snapshot) {
                    return Err(SolveError::Cancelled);
                }
            }
            if !game.is_legal(p) || game.canonical(p) != p {
                continue;
            }
            match game.primitive(p) {
                Some(Value::Win) => cells[p as usize] = WIN,
                Some(Value::Lose) => cells[p as usize] = LOSE,
                Some(Value::Draw) => {
                    cells[p as usize] = DRAW;
                    continue;
                }
                None => {
                    children(game, p, &mut buf)?;
                    if buf.is_empty() {
                        return Err(SolveError::BadMove { position: p });
                    }
                    waiting[p as usize] = u16::try_from(buf.len())
                        .map_err(|_| SolveError::TooManyMoves { position: p })?;
                    continue;
                }
            }
            push(&mut queue, p)?;
        }
    }
    let parents = Parents::new(game, |p| game.primitive(p).is_none())?;

    // Positions never queued are the draws and the indices that are no
    // positions: counted as done at the end. A snapshot lends only the
    // queue's part still to be taken.
    let mut taken = match stage {
        Stage::Queue { taken } => taken,
        Stage::Scan { .. } => 0,
    };
    let mut head = 0;
    while head < queue.len() {
        if taken.is_multiple_of(STRIDE) {
            let snapshot = Snapshot {
                stage: Stage::Queue { taken },
                cells: &cells,
                waiting: &waiting,
                queue: &queue[head..],
            };
            if !progress(Step {
                done: n as u64 + taken,
                total,
            }) || !save(snapshot)
            {
                return Err(SolveError::Cancelled);
            }
        }
        let child = queue[head];
        head += 1;
        taken += 1;
        let cell = cells[child as usize];
        // Past MAX_REMOTENESS only when a parent is given it.
        let next = (cell & REMOTENESS) + 1;
        let child_lost = cell & !REMOTENESS == LOSE;
        let mut failed = Ok(());
        parents.each(game, child, |p| {
            let Some(i) = usize::try_from(p).ok().filter(|&i| i < n) else {
                failed = Err(SolveError::BadMove { position: child });
                return;
            };
            if cells[i] != 0 || waiting[i] == 0 || failed.is_err() {
                return;
            }
            if !child_lost {
                waiting[i] -= 1;
                if waiting[i] > 0 {
                    return;
                }
            }
            if next > MAX_REMOTENESS {
                failed = Err(SolveError::TooDeep);
                return;
            }
            cells[i] = if child_lost { WIN } else { LOSE } | next;
            failed = push(&mut queue, p);
        });
        failed?;
    }
    drop(queue);
    for (cell, &w) in cells.iter_mut().zip(&waiting) {
        if *cell == 0 && w > 0 {
            *cell = DRAW;
        }
    }
    if !progress(Step { done: total, total }) {
        return Err(SolveError::Cancelled);
    }
    Ok(Solved { cells })
}

/// A position whose entry [`check`] found wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Inconsistent {
    /// The position index.
    pub position: u64,
    /// Its entry.
    pub found: Option<Outcome>,
    /// The entry its children (or, finished, the game) give it.
    pub expected: Option<Outcome>,
}

/// Checks that `outcome` (an entry a position index) is `game` solved, by
/// the rules alone and not by solving again: every index that is not a
/// legal canonical position is empty; a finished position holds the
/// game's value in 0 plies; every other one holds the best of its moves'
/// outcomes ([`Outcome::through_move`] of each child's, the best by
/// [`Outcome::preference`]). Calls `progress` as [`solve_with`] does.
///
/// Entries that all agree with their children are the solution: the
/// remoteness makes every win and loss rest on finished positions (a win
/// in `r` has a child lost in `r - 1`, a loss in `r` only children won in
/// at most `r - 1`), and a draw holding a position that either side can
/// force would, at the least remoteness where that happens, have a child
/// that disagrees.
pub fn check<G: TwoPlayer>(
    game: &G,
    outcome: &mut dyn FnMut(u64) -> Option<Outcome>,
    progress: &mut dyn FnMut(Step) -> bool,
) -> Result<Result<(), Inconsistent>, SolveError> {
    let n = game.positions();
    let total = n;
    for p in 0..n {
        if p.is_multiple_of(STRIDE) && !progress(Step { done: p, total }) {
            return Err(SolveError::Cancelled);
        }
        let found = outcome(p);
        let expected = if !game.is_legal(p) || game.canonical(p) != p {
            None
        } else if let Some(value) = game.primitive(p) {
            Some(match value {
                Value::Win => Outcome::Win(0),
                Value::Lose => Outcome::Lose(0),
                Value::Draw => Outcome::Draw,
            })
        } else {
            let mut best: Option<Option<Outcome>> = None;
            game.for_each_move(p, |mv| {
                let child = outcome(game.canonical(game.play(p, mv))).map(Outcome::through_move);
                best = Some(match (best, child) {
                    // A move to no position: the entry cannot be right.
                    (Some(None), _) | (_, None) => None,
                    (None, Some(c)) => Some(c),
                    (Some(Some(b)), Some(c)) => Some(if c.preference(b) == Ordering::Greater {
                        c
                    } else {
                        b
                    }),
                });
            });
            best.flatten()
        };
        if found != expected {
            return Ok(Err(Inconsistent {
                position: p,
                found,
                expected,
            }));
        }
    }
    if !progress(Step { done: total, total }) {
        return Err(SolveError::Cancelled);
    }
    Ok(Ok(()))
}
