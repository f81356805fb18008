//! Quixo from its rules (GamesmanOne's `src/games/quixo/`): every cell of
//! an R×C board holds a cube, blank at the start; the player to move takes
//! a border cube that is blank or their own, and puts it back, showing
//! their symbol, at an end of its row or column other than where it was,
//! the cubes between sliding one cell towards the hole. X moves first. A
//! player who has `k` in a row when it is their turn has won (even if the
//! other has one too); one who does not, facing the other's line, has
//! lost. Lines are those of the m,n,k-games ([`super::mnk`]).
//!
//! Solved by plain value iteration over the positions reachable from the
//! empty board, one remoteness a round: a position is won in `n` when a
//! move reaches one lost in `n − 1`, lost in `n` when every move reaches a
//! won one and the longest is won in `n − 1`; what no round decides is a
//! draw. A position is one byte a cell, row after row (`.`, `X`, `O`),
//! then the player to move's byte.

use std::collections::HashMap;

use super::mnk::{EMPTY, Game, Solved};

/// Quixo on one board.
pub struct Quixo {
    /// Rows, columns and the `k` in a row that wins.
    pub board: Game,
}

impl Quixo {
    fn cells(&self) -> usize {
        self.board.rows * self.board.cols
    }

    /// The start: every cube blank, X to move.
    pub fn start(&self) -> Vec<u8> {
        let mut p = vec![EMPTY; self.cells()];
        p.push(b'X');
        p
    }

    /// The value of a finished position, `None` while it goes on.
    pub fn over(&self, position: &[u8]) -> Option<Solved> {
        let (board, mover) = position.split_at(self.cells());
        let mover = mover[0];
        let other = if mover == b'X' { b'O' } else { b'X' };
        if self.board.wins(board, mover) {
            Some(Solved::Win(0))
        } else if self.board.wins(board, other) {
            Some(Solved::Lose(0))
        } else {
            None
        }
    }

    /// Every move of `position` (none when it is over): the cube's cell,
    /// the cell it goes back in at, and the position after it.
    pub fn moves(&self, position: &[u8]) -> Vec<(usize, usize, Vec<u8>)> {
        if self.over(position).is_some() {
            return Vec::new();
        }
        let (rows, cols) = (self.board.rows, self.board.cols);
        let mover = position[self.cells()];
        let other = if mover == b'X' { b'O' } else { b'X' };
        let mut out = Vec::new();
        for r in 0..rows {
            for c in 0..cols {
                let on_border = r == 0 || c == 0 || r == rows - 1 || c == cols - 1;
                if !on_border || position[r * cols + c] == other {
                    continue;
                }
                let mut ends = vec![(r, 0), (r, cols - 1), (0, c), (rows - 1, c)];
                ends.retain(|&e| e != (r, c));
                ends.sort();
                ends.dedup();
                for (er, ec) in ends {
                    // The cells from the cube to the end, in that order.
                    let path: Vec<usize> = if er == r {
                        if ec > c {
                            (c..=ec).map(|j| r * cols + j).collect()
                        } else {
                            (ec..=c).rev().map(|j| r * cols + j).collect()
                        }
                    } else if er > r {
                        (r..=er).map(|i| i * cols + c).collect()
                    } else {
                        (er..=r).rev().map(|i| i * cols + c).collect()
                    };
                    let mut after = position.to_vec();
                    for w in path.windows(2) {
                        after[w[0]] = position[w[1]];
                    }
                    after[*path.last().unwrap()] = mover;
                    after[self.cells()] = other;
                    out.push((r * cols + c, er * cols + ec, after));
                }
            }
        }
        out
    }

    /// Every position reachable from the start, solved.
    pub fn solve_all(&self) -> HashMap<Vec<u8>, Solved> {
        // Reachable positions and their children.
        let mut children: HashMap<Vec<u8>, Vec<Vec<u8>>> = HashMap::new();
        let mut stack = vec![self.start()];
        while let Some(p) = stack.pop() {
            if children.contains_key(&p) {
                continue;
            }
            let next: Vec<Vec<u8>> = self.moves(&p).into_iter().map(|m| m.2).collect();
            stack.extend(next.iter().filter(|c| !children.contains_key(*c)).cloned());
            children.insert(p, next);
        }
        let mut solved: HashMap<Vec<u8>, Solved> = children
            .keys()
            .filter_map(|p| Some((p.clone(), self.over(p)?)))
            .collect();
        for n in 1u16.. {
            let mut decided = Vec::new();
            for (p, next) in &children {
                if solved.contains_key(p) {
                    continue;
                }
                let lost_child = next
                    .iter()
                    .any(|c| solved.get(c) == Some(&Solved::Lose(n - 1)));
                let won: Option<Vec<u16>> = next
                    .iter()
                    .map(|c| match solved.get(c) {
                        Some(Solved::Win(r)) => Some(*r),
                        _ => None,
                    })
                    .collect();
                if lost_child {
                    decided.push((p.clone(), Solved::Win(n)));
                } else if won.and_then(|w| w.into_iter().max()) == Some(n - 1) {
                    decided.push((p.clone(), Solved::Lose(n)));
                }
            }
            if decided.is_empty() {
                break;
            }
            solved.extend(decided);
        }
        for p in children.keys() {
            solved.entry(p.clone()).or_insert(Solved::Draw);
        }
        solved
    }
}
