//! Connect Four from its rules: two players drop X and O in turn, X first,
//! into the columns of an R×C board, a piece falling to the lowest empty
//! cell; the first with `k` in a row across, down or along a diagonal
//! wins, a full board without one is a draw. Solved by plain memoised game
//! search from the empty board over boards of one byte a cell, every
//! reachable position once; the lines are the m,n,k-games' rule
//! ([`super::mnk::Game::wins`]).

use std::collections::HashMap;

use super::mnk::{EMPTY, Game, Solved};

/// The game on one board.
pub struct Connect4 {
    /// The board and `k`, whose lines win.
    pub board: Game,
}

impl Connect4 {
    /// The cell a piece dropped into `col` lands on, if the column has room.
    pub fn landing(&self, board: &[u8], col: usize) -> Option<usize> {
        (0..self.board.rows)
            .rev()
            .map(|r| r * self.board.cols + col)
            .find(|&i| board[i] == EMPTY)
    }

    /// Every position reachable from the empty board, solved.
    pub fn solve_all(&self) -> HashMap<Vec<u8>, Solved> {
        let mut memo = HashMap::new();
        let cells = self.board.rows * self.board.cols;
        self.solve(&mut vec![EMPTY; cells], &mut memo);
        memo
    }

    fn solve(&self, board: &mut Vec<u8>, memo: &mut HashMap<Vec<u8>, Solved>) -> Solved {
        if let Some(&s) = memo.get(board.as_slice()) {
            return s;
        }
        let mover = Game::to_move(board);
        let other = if mover == b'X' { b'O' } else { b'X' };
        let solved = if self.board.wins(board, other) {
            Solved::Lose(0)
        } else if !board.contains(&EMPTY) {
            Solved::Draw
        } else {
            let (mut fastest_win, mut draw, mut slowest_loss) = (None::<u16>, false, 0u16);
            for col in 0..self.board.cols {
                let Some(i) = self.landing(board, col) else {
                    continue;
                };
                board[i] = mover;
                match self.solve(board, memo) {
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
