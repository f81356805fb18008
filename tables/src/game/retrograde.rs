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

use super::graph::{Parents, children, index_len, push, zeroed};
use super::{Outcome, SolveError, TwoPlayer, Value};

/// The deepest remoteness held: 14 bits.
pub const MAX_REMOTENESS: u16 = (1 << 14) - 1;

const WIN: u16 = 1 << 14;
const LOSE: u16 = 2 << 14;
const DRAW: u16 = 3 << 14;
const REMOTENESS: u16 = MAX_REMOTENESS;

/// Every position of a game solved: one entry a position index (two bytes),
/// empty for an index that is not a legal canonical position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solved {
    cells: Vec<u16>,
}

impl Solved {
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
        let cell = *self.cells.get(usize::try_from(position).ok()?)?;
        let r = cell & REMOTENESS;
        match cell & !REMOTENESS {
            WIN => Some(Outcome::Win(r)),
            LOSE => Some(Outcome::Lose(r)),
            DRAW => Some(Outcome::Draw),
            _ => None,
        }
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
    let n = index_len(game.positions())?;
    let mut cells = zeroed(n)?;
    // Children not yet known to be won; 0 for a position not waiting.
    let mut waiting = zeroed(n)?;
    let mut queue: Vec<u64> = Vec::new();
    let mut buf = Vec::new();
    for p in 0..n as u64 {
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
    let parents = Parents::new(game, |p| game.primitive(p).is_none())?;

    let mut head = 0;
    while head < queue.len() {
        let child = queue[head];
        head += 1;
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
    Ok(Solved { cells })
}
