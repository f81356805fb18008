//! Whole tables of any shape solved over the rules of [`euler`] and
//! [`press`], with methods of their own (not the library's solvers): the
//! Game of Euler by memoized recursion from the top down, Flip by
//! enumerating every press set. They hand their columns over in the
//! library's table-file types, for the tests that build, write, read and
//! probe table files and for those of the generator and the command line.

use std::collections::BTreeSet;

use boardbase::tablefile::{ColumnData, EulerColumns, FlipColumns, presses_width};
use boardbase::tables::shape::Shape;

use super::{euler, press};

/// Per position of `shape`: whether the player to move wins, and the
/// plies left with perfect play, by memoized recursion over `moves`: the
/// full board is won with 0 plies; otherwise a move to a lost position
/// wins, the fastest such one; else the longest move loses.
pub fn solve_euler(shape: Shape, moves: &[u64]) -> (Vec<bool>, Vec<u8>) {
    const KNOWN: u8 = 0x40;
    const WIN: u8 = 0x80;
    fn value(p: u64, full: u64, moves: &[u64], memo: &mut [u8]) -> (bool, u8) {
        let v = memo[p as usize];
        if v & KNOWN != 0 {
            return (v & WIN != 0, v & 0x3F);
        }
        let result = if p == full {
            (true, 0)
        } else {
            let mut fastest_win: Option<u8> = None;
            let mut longest: Option<u8> = None;
            for &m in moves.iter().filter(|&&m| m & p == 0) {
                let (wins, plies) = value(p | m, full, moves, memo);
                if !wins {
                    fastest_win = Some(fastest_win.map_or(plies, |f| f.min(plies)));
                }
                longest = Some(longest.map_or(plies, |l| l.max(plies)));
            }
            match fastest_win {
                Some(f) => (true, f + 1),
                None => (false, longest.expect("an open position has a move") + 1),
            }
        };
        memo[p as usize] = KNOWN | if result.0 { WIN } else { 0 } | result.1;
        result
    }
    let full = shape.full();
    let mut memo = vec![0u8; 1 << shape.cells()];
    (0..=full).map(|p| value(p, full, moves, &mut memo)).unzip()
}

/// [`solve_euler`] on the 4×4 board (bit 4r + c), its moves as `u16`
/// masks: [`euler::moves_4x4`], or a short list such as
/// [`euler::moves_4x4_up_to`]`(2)` for the plausible bug of a program.
pub fn solve_euler_4x4(moves: &[u16]) -> (Vec<bool>, Vec<u8>) {
    let moves: Vec<u64> = moves.iter().map(|&m| u64::from(m)).collect();
    solve_euler(Shape::new(4, 4).expect("4x4"), &moves)
}

/// The solved Game of Euler: per position, whether the player to move
/// wins, the moves left with perfect play, and the index (in the library's
/// move order, which must hold the same moves) of the first best move.
pub struct Euler {
    pub shape: Shape,
    pub wins: Vec<bool>,
    pub plies: Vec<u8>,
    pub best: Vec<u8>,
    /// The library's move order (`boardbase_tables::euler::moves`).
    pub order: Vec<u64>,
}

impl Euler {
    pub fn solve(shape: Shape) -> Euler {
        let own = euler::moves(shape.rows(), shape.cols());
        let order = boardbase::tables::euler::moves(shape).as_slice().to_vec();
        assert_eq!(
            own,
            order.iter().copied().collect::<BTreeSet<_>>(),
            "the library's moves of {shape} are the oracle's"
        );
        let (wins, plies) = solve_euler(shape, &own.into_iter().collect::<Vec<_>>());
        let (full, n) = (shape.full(), 1usize << shape.cells());
        let best = (0..n as u64)
            .map(|p| {
                if p == full {
                    return 255;
                }
                let target = plies[p as usize] - 1;
                order
                    .iter()
                    .position(|&m| {
                        let c = (p | m) as usize;
                        m & p == 0 && wins[c] != wins[p as usize] && plies[c] == target
                    })
                    .expect("a best move") as u8
            })
            .collect();
        Euler {
            shape,
            wins,
            plies,
            best,
            order,
        }
    }

    /// The winning bits, packed as the generator hands them over.
    pub fn winning_words(&self) -> Vec<u64> {
        let mut words = vec![0u64; self.wins.len().div_ceil(64)];
        for (i, &w) in self.wins.iter().enumerate() {
            words[i / 64] |= u64::from(w) << (i % 64);
        }
        words
    }

    pub fn columns(&self, wdl_only: bool) -> EulerColumns {
        EulerColumns {
            winning: self.winning_words(),
            full: (!wdl_only).then(|| (self.plies.clone(), self.best.clone())),
            classes: None,
        }
    }
}

/// Flip solved by enumerating all 2^cells press sets: per colour and
/// board, fewest rounds (255 unreachable), the first optimal set in
/// numeric order, and the number of optimal sets.
pub struct Flip {
    pub shape: Shape,
    /// `[white, black]`.
    pub rounds: [Vec<u8>; 2],
    pub presses: [Vec<u64>; 2],
    pub sets: [Vec<u8>; 2],
}

impl Flip {
    pub fn solve(shape: Shape) -> Flip {
        let n = 1usize << shape.cells();
        let mut rounds = [vec![255u8; n], vec![255u8; n]];
        let mut presses = [vec![0u64; n], vec![0u64; n]];
        let mut sets = [vec![0u8; n], vec![0u8; n]];
        for x in 0..n as u64 {
            let effect = press::effect(shape.rows(), shape.cols(), x);
            let k = x.count_ones() as u8;
            for (colour, board) in [effect, effect ^ shape.full()].into_iter().enumerate() {
                let b = board as usize;
                if k < rounds[colour][b] {
                    rounds[colour][b] = k;
                    presses[colour][b] = x;
                    sets[colour][b] = 1;
                } else if k == rounds[colour][b] {
                    sets[colour][b] += 1;
                }
            }
        }
        Flip {
            shape,
            rounds,
            presses,
            sets,
        }
    }

    /// Per board, the fewest rounds to either colour, `None` when neither
    /// can be reached.
    pub fn fewest(&self) -> Vec<Option<u8>> {
        self.rounds[0]
            .iter()
            .zip(&self.rounds[1])
            .map(|(&w, &b)| Some(w.min(b)).filter(|&r| r != 255))
            .collect()
    }

    fn presses_column(&self, colour: usize) -> ColumnData {
        let p = &self.presses[colour];
        match presses_width(self.shape) {
            8 => ColumnData::U8(p.iter().map(|&x| x as u8).collect()),
            16 => ColumnData::U16(p.iter().map(|&x| x as u16).collect()),
            _ => ColumnData::U32(p.iter().map(|&x| x as u32).collect()),
        }
    }

    pub fn columns(&self) -> FlipColumns {
        FlipColumns {
            rounds: self.rounds[0]
                .iter()
                .zip(&self.rounds[1])
                .map(|(&w, &b)| w.min(b))
                .collect(),
            rounds_white: self.rounds[0].clone(),
            rounds_black: self.rounds[1].clone(),
            presses_white: self.presses_column(0),
            presses_black: self.presses_column(1),
            optimal_sets_white: self.sets[0].clone(),
            optimal_sets_black: self.sets[1].clone(),
            classes: None,
        }
    }
}

/// [`Flip::fewest`] of the 4×4 board (bit 4r + c set = black), the Flip
/// Game's whole table.
pub fn flip_rounds_4x4() -> Vec<Option<u8>> {
    Flip::solve(Shape::new(4, 4).expect("4x4")).fewest()
}

/// Every shape with at most `cells` cells.
pub fn shapes(cells: usize) -> Vec<Shape> {
    let mut all = Vec::new();
    for rows in 1..=cells {
        for cols in 1..=cells / rows {
            all.push(Shape::new(rows, cols).unwrap());
        }
    }
    all
}
