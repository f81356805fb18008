//! Breadth-first search of any [`OnePlayer`] puzzle: the fewest moves from
//! every position to a goal.
//!
//! The goals are at distance 0; the search runs backwards from them, each
//! position's parents one move further, every position reached first at its
//! distance. Positions never reached cannot reach a goal.

use alloc::vec::Vec;

use super::graph::{Parents, filled, index_len, push};
use super::{OnePlayer, SolveError};

/// The most moves to a goal held (65,534).
pub const MAX_DISTANCE: u16 = u16::MAX - 1;

/// Every position of a puzzle solved: the fewest moves to a goal, one entry
/// (two bytes) a position index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Distances {
    // Distance + 1; 0 where no goal is reached (or not a position).
    cells: Vec<u16>,
}

impl Distances {
    /// The number of position indices.
    pub fn len(&self) -> usize {
        self.cells.len()
    }

    /// Whether there are no positions.
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// The fewest moves from the canonical `position` to a goal, `None`
    /// when no goal can be reached (or it is not a legal canonical
    /// position).
    pub fn distance(&self, position: u64) -> Option<u16> {
        let cell = *self.cells.get(usize::try_from(position).ok()?)?;
        cell.checked_sub(1)
    }

    /// The fewest moves from any position of `puzzle`, through its canonical
    /// one.
    pub fn distance_of<P: OnePlayer>(&self, puzzle: &P, position: u64) -> Option<u16> {
        self.distance(puzzle.canonical(position))
    }

    /// The first move of `position`, in the puzzle's move order, on a
    /// shortest way to a goal, with the moves left after it. `None` at a
    /// goal or where no goal can be reached.
    pub fn best_move<P: OnePlayer>(&self, puzzle: &P, position: u64) -> Option<(P::Move, u16)> {
        let d = self.distance_of(puzzle, position).filter(|&d| d > 0)?;
        let mut best = None;
        puzzle.for_each_move(position, |mv| {
            if best.is_none() && self.distance_of(puzzle, puzzle.play(position, mv)) == Some(d - 1)
            {
                best = Some((mv, d - 1));
            }
        });
        best
    }

    /// The number of positions at each distance: index = moves.
    pub fn histogram(&self) -> Vec<u64> {
        let mut h = Vec::new();
        for &cell in &self.cells {
            if let Some(d) = cell.checked_sub(1) {
                let d = usize::from(d);
                if h.len() <= d {
                    h.resize(d + 1, 0);
                }
                h[d] += 1;
            }
        }
        h
    }
}

/// Solves every legal canonical position of `puzzle`.
///
/// Memory: two bytes a position index for the table and up to eight for the
/// queue; without [`Rules::for_each_parent`] the reverse graph besides.
///
/// [`Rules::for_each_parent`]: super::Rules::for_each_parent
pub fn solve<P: OnePlayer>(puzzle: &P) -> Result<Distances, SolveError> {
    let n = index_len(puzzle.positions())?;
    let mut cells = filled(n, 0u16)?;
    let mut queue: Vec<u64> = Vec::new();
    for p in 0..n as u64 {
        if puzzle.is_legal(p) && puzzle.canonical(p) == p && puzzle.is_goal(p) {
            cells[p as usize] = 1;
            push(&mut queue, p)?;
        }
    }
    let parents = Parents::new(puzzle, |_| true)?;
    let mut head = 0;
    while head < queue.len() {
        let c = queue[head];
        head += 1;
        // Past MAX_DISTANCE only when a parent is given it.
        let next = cells[c as usize].checked_add(1);
        let mut failed = Ok(());
        parents.each(puzzle, c, |p| {
            let Some(cell) = usize::try_from(p).ok().and_then(|i| cells.get_mut(i)) else {
                failed = Err(SolveError::BadMove { position: c });
                return;
            };
            if *cell != 0 || failed.is_err() {
                return;
            }
            match next {
                Some(next) => {
                    *cell = next;
                    failed = push(&mut queue, p);
                }
                None => failed = Err(SolveError::TooDeep),
            }
        });
        failed?;
    }
    Ok(Distances { cells })
}
