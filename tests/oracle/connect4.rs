//! Connect Four from its rules: two players drop X and O in turn, X first,
//! into the columns of an R×C board, a piece falling to the lowest empty
//! cell; the first with `k` in a row across, down or along a diagonal
//! wins, a full board without one is a draw. The m,n,k-games' rule and
//! search ([`super::mnk::Game`]) with the one rule of its own: where a
//! piece lands.

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

    /// Every position reachable from the empty board, solved: the m,n,k
    /// search, a move taking the lowest empty cell of a column.
    pub fn solve_all(&self) -> HashMap<Vec<u8>, Solved> {
        self.board.solve_all_with(&|board: &[u8]| {
            (0..self.board.cols)
                .filter_map(|c| self.landing(board, c))
                .collect()
        })
    }
}
