//! Teeko from its rules (GamesmanOne's `src/games/teeko/teeko.c`, on any
//! board): X and O, four pieces each, X first; while pieces are in hand
//! the player to move drops one on an empty cell, then slides one of
//! theirs to an empty cell next to it (eight directions). Four in a row
//! (across, down, diagonal) or on the corners of a 2×2 square (with the
//! advanced rule, of any square) ends the game, lost for the player to
//! move; so does, on the small boards boardbase adds, having no slide.
//!
//! Solved by plain value iteration over the positions reachable from the
//! empty board, one remoteness a round, as [`super::quixo`] does; what no
//! round decides is a draw. A position is a 2-D grid of bytes (`.`, `X`,
//! `O`) and the player to move; patterns are checked on the grid, cell by
//! cell.

use std::collections::HashMap;

use super::mnk::Solved;

/// Teeko on one board.
pub struct Teeko {
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// Whether the corners of squares larger than 2×2 win too.
    pub advanced: bool,
}

/// A position: the grid, row after row, then the player to move.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Position {
    /// `grid[r][c]`: `.`, `X` or `O`.
    pub grid: Vec<Vec<u8>>,
    /// `X` or `O`.
    pub mover: u8,
}

fn other(player: u8) -> u8 {
    if player == b'X' { b'O' } else { b'X' }
}

impl Teeko {
    /// The start: an empty board, X to move.
    pub fn start(&self) -> Position {
        Position {
            grid: vec![vec![b'.'; self.cols]; self.rows],
            mover: b'X',
        }
    }

    /// Whether `player` has four in a row or four on a square's corners.
    pub fn wins(&self, grid: &[Vec<u8>], player: u8) -> bool {
        let (rows, cols) = (self.rows as isize, self.cols as isize);
        let at = |r: isize, c: isize| {
            (0..rows).contains(&r)
                && (0..cols).contains(&c)
                && grid[r as usize][c as usize] == player
        };
        for r in 0..rows {
            for c in 0..cols {
                for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                    if (0..4).all(|i| at(r + dr * i, c + dc * i)) {
                        return true;
                    }
                }
                let largest = if self.advanced { rows.min(cols) } else { 2 };
                for side in 2..=largest {
                    let d = side - 1;
                    if at(r, c) && at(r, c + d) && at(r + d, c) && at(r + d, c + d) {
                        return true;
                    }
                }
            }
        }
        false
    }

    fn count(grid: &[Vec<u8>], player: u8) -> usize {
        grid.iter().flatten().filter(|&&b| b == player).count()
    }

    /// Every move of `position` (none when it is over): the cell dropped
    /// on (`None` for a slide's source, then the cell slid to) as (row,
    /// column) pairs, and the position after it.
    #[allow(clippy::type_complexity)]
    pub fn moves(
        &self,
        position: &Position,
    ) -> Vec<(Option<(usize, usize)>, (usize, usize), Position)> {
        let grid = &position.grid;
        if self.wins(grid, b'X') || self.wins(grid, b'O') {
            return Vec::new();
        }
        let mover = position.mover;
        let mut out = Vec::new();
        let next = |grid: Vec<Vec<u8>>| Position {
            grid,
            mover: other(mover),
        };
        if Self::count(grid, mover) < 4 {
            for r in 0..self.rows {
                for c in 0..self.cols {
                    if grid[r][c] == b'.' {
                        let mut g = grid.clone();
                        g[r][c] = mover;
                        out.push((None, (r, c), next(g)));
                    }
                }
            }
            return out;
        }
        for r in 0..self.rows {
            for c in 0..self.cols {
                if grid[r][c] != mover {
                    continue;
                }
                for dr in -1isize..=1 {
                    for dc in -1isize..=1 {
                        let (nr, nc) = (r as isize + dr, c as isize + dc);
                        if (dr, dc) == (0, 0)
                            || !(0..self.rows as isize).contains(&nr)
                            || !(0..self.cols as isize).contains(&nc)
                        {
                            continue;
                        }
                        let (nr, nc) = (nr as usize, nc as usize);
                        if grid[nr][nc] == b'.' {
                            let mut g = grid.clone();
                            g[r][c] = b'.';
                            g[nr][nc] = mover;
                            out.push((Some((r, c)), (nr, nc), next(g)));
                        }
                    }
                }
            }
        }
        out
    }

    /// The value of a finished position, `None` while it goes on.
    pub fn over(&self, position: &Position) -> Option<Solved> {
        if self.wins(&position.grid, b'X') || self.wins(&position.grid, b'O') {
            return Some(Solved::Lose(0));
        }
        if self.moves(position).is_empty() {
            return Some(Solved::Lose(0));
        }
        None
    }

    /// Every position reachable from the start, solved.
    pub fn solve_all(&self) -> HashMap<Position, Solved> {
        // Reachable positions, numbered, and their children's numbers.
        let mut ids: HashMap<Position, usize> = HashMap::new();
        let mut positions = vec![self.start()];
        ids.insert(self.start(), 0);
        let mut children: Vec<Vec<usize>> = Vec::new();
        while children.len() < positions.len() {
            let p = positions[children.len()].clone();
            let mut next = Vec::new();
            for (_, _, child) in self.moves(&p) {
                let id = *ids.entry(child.clone()).or_insert_with(|| {
                    positions.push(child);
                    positions.len() - 1
                });
                next.push(id);
            }
            children.push(next);
        }
        let mut solved: Vec<Option<Solved>> = positions.iter().map(|p| self.over(p)).collect();
        for n in 1u16.. {
            let mut decided = Vec::new();
            for (i, next) in children.iter().enumerate() {
                if solved[i].is_some() {
                    continue;
                }
                let lost_child = next.iter().any(|&c| solved[c] == Some(Solved::Lose(n - 1)));
                let won: Option<Vec<u16>> = next
                    .iter()
                    .map(|&c| match solved[c] {
                        Some(Solved::Win(r)) => Some(r),
                        _ => None,
                    })
                    .collect();
                if lost_child {
                    decided.push((i, Solved::Win(n)));
                } else if won.and_then(|w| w.into_iter().max()) == Some(n - 1) {
                    decided.push((i, Solved::Lose(n)));
                }
            }
            if decided.is_empty() {
                break;
            }
            for (i, s) in decided {
                solved[i] = Some(s);
            }
        }
        positions
            .into_iter()
            .zip(solved)
            .map(|(p, s)| (p, s.unwrap_or(Solved::Draw)))
            .collect()
    }
}
