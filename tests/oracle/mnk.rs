//! m,n,k-games (tic-tac-toe's family) from their rules: two players place X
//! and O in turn, X first, on an R×C board; the first to have `k` in a row
//! across, down or along a diagonal wins, a full board without one is a
//! draw. Solved by plain memoised game search from the empty board over
//! boards of one byte a cell, every reachable position once.

use std::collections::HashMap;

/// A cell: empty, or a player's piece.
pub const EMPTY: u8 = b'.';

/// A position's value for the player to move, with the plies to the end
/// (the winner hurrying, the loser resisting); a draw has none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Solved {
    /// Won in this many plies.
    Win(u16),
    /// Lost in this many plies.
    Lose(u16),
    /// Drawn.
    Draw,
}

/// The game on one board.
pub struct Game {
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// How many in a row win.
    pub k: usize,
}

impl Game {
    /// Whether `player` has `k` in a row on `board` (one byte a cell, row
    /// after row).
    pub fn wins(&self, board: &[u8], player: u8) -> bool {
        let at = |r: isize, c: isize| {
            (0..self.rows as isize).contains(&r)
                && (0..self.cols as isize).contains(&c)
                && board[r as usize * self.cols + c as usize] == player
        };
        (0..self.rows as isize).any(|r| {
            (0..self.cols as isize).any(|c| {
                [(0, 1), (1, 0), (1, 1), (1, -1)]
                    .iter()
                    .any(|&(dr, dc)| (0..self.k as isize).all(|i| at(r + dr * i, c + dc * i)))
            })
        })
    }

    /// The player to move: X when the counts are equal.
    pub fn to_move(board: &[u8]) -> u8 {
        let x = board.iter().filter(|&&b| b == b'X').count();
        let o = board.iter().filter(|&&b| b == b'O').count();
        if x == o { b'X' } else { b'O' }
    }

    /// Every position reachable from the empty board, solved.
    pub fn solve_all(&self) -> HashMap<Vec<u8>, Solved> {
        self.solve_all_with(&|board: &[u8]| {
            (0..board.len()).filter(|&i| board[i] == EMPTY).collect()
        })
    }

    /// [`Game::solve_all`] where a move may take only the cells `cells`
    /// gives (the empty cells here; the lowest of each column in Connect
    /// Four).
    pub fn solve_all_with(&self, cells: &dyn Fn(&[u8]) -> Vec<usize>) -> HashMap<Vec<u8>, Solved> {
        let mut memo = HashMap::new();
        self.solve(&mut vec![EMPTY; self.rows * self.cols], cells, &mut memo);
        memo
    }

    /// The position `board`, solved by the same search from it alone
    /// (with `memo` kept between calls): for boards too large to solve
    /// from the empty one.
    pub fn solve_from(&self, board: &[u8], memo: &mut HashMap<Vec<u8>, Solved>) -> Solved {
        let empty = |board: &[u8]| (0..board.len()).filter(|&i| board[i] == EMPTY).collect();
        self.solve(&mut board.to_vec(), &empty, memo)
    }

    fn solve(
        &self,
        board: &mut Vec<u8>,
        cells: &dyn Fn(&[u8]) -> Vec<usize>,
        memo: &mut HashMap<Vec<u8>, Solved>,
    ) -> Solved {
        if let Some(&s) = memo.get(board.as_slice()) {
            return s;
        }
        let mover = Game::to_move(board);
        let other = if mover == b'X' { b'O' } else { b'X' };
        let solved = if self.wins(board, other) {
            Solved::Lose(0)
        } else if !board.contains(&EMPTY) {
            Solved::Draw
        } else {
            let (mut fastest_win, mut draw, mut slowest_loss) = (None::<u16>, false, 0u16);
            for i in cells(board) {
                board[i] = mover;
                match self.solve(board, cells, memo) {
                    Solved::Lose(r) => {
                        fastest_win = Some(fastest_win.map_or(r + 1, |w| w.min(r + 1)))
                    }
                    Solved::Draw => draw = true,
                    Solved::Win(r) => slowest_loss = slowest_loss.max(r + 1),
                }
                board[i] = EMPTY;
            }
            match (fastest_win, draw) {
                (Some(r), _) => Solved::Win(r),
                (None, true) => Solved::Draw,
                (None, false) => Solved::Lose(slowest_loss),
            }
        };
        memo.insert(board.clone(), solved);
        solved
    }
}
