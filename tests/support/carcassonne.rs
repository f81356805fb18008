//! Carcassonne boards as the tests see them, written from scratch on plain
//! letter arrays and sharing no code with the library: tile turning, edge
//! matching, a brute force over every rotation choice, the board's
//! transposition and quarter turn, and the judge's sample input. Included
//! by `tests/carcassonne_bruteforce.rs`, `tests/properties.rs`,
//! `tests/cli_carcassonne.rs`, `tests/serve_api.rs` and the fuzz target
//! `carcassonne_count` (`fuzz/src/carcassonne_count.rs`).
#![allow(dead_code)]

use boardbase::carcassonne::{Board, Tile};

/// HDU 4064's sample input: three cases, whose answers are 4, 1 and
/// 1,048,576.
pub const SAMPLE: &str = "3
1 1
RRRR
1 2
RRRF FCCC
8 8
FCFF RRFC FRCR FRFR RCCR FFCC RRFF CRFR
FRRC FRFR CCCR FCFC CRRC CRRR FRCR FRFR
RRCR FRRR CCCR FFFC RRFF RFCR CCFF FCCC
CFCF RRFF CRFR FFRR FRRF CCRR FFFC CRRF
CFRR FFFF FFFF RRFF RRRR RCRR FFCC RFRF
RRCF FRFR FRRR FRFR RCCR RCCC CFFC RFRF
CFCF FRFF RRFF FFFF CFFF CFFF FRFF RFRR
CCRR FCFC FCCC FCCC FFCC FCCF FFCC RFRF
";

/// A tile as its letters, clockwise from the top: top, right, bottom, left.
pub type Edges = [u8; 4];

pub const TOP: usize = 0;
pub const RIGHT: usize = 1;
pub const BOTTOM: usize = 2;
pub const LEFT: usize = 3;

/// One quarter turn clockwise: the top edge moves to the right, so the new
/// top is the old left.
pub fn turn_cw(e: Edges) -> Edges {
    [e[LEFT], e[TOP], e[RIGHT], e[BOTTOM]]
}

/// `k` quarter turns clockwise.
pub fn turn(e: Edges, k: u8) -> Edges {
    (0..k % 4).fold(e, |e, _| turn_cw(e))
}

/// A tile code (4 letters) turned `k` quarter turns clockwise, as text.
pub fn turn_code(code: &str, k: u64) -> String {
    let e: Edges = code.as_bytes().try_into().expect("a 4-letter code");
    String::from_utf8(turn(e, (k % 4) as u8).to_vec()).expect("letters")
}

/// A board: rows, cols, row-major letter tiles.
#[derive(Clone, Debug, PartialEq)]
pub struct Plain {
    pub rows: usize,
    pub cols: usize,
    pub tiles: Vec<Edges>,
}

impl Plain {
    pub fn at(&self, r: usize, c: usize) -> Edges {
        self.tiles[r * self.cols + c]
    }

    /// The library's board of the same tiles.
    pub fn board(&self) -> Board {
        let tiles = self
            .tiles
            .iter()
            .map(|e| Tile::try_from(&e[..]).expect("C, R and F"))
            .collect();
        Board::new(self.rows, self.cols, tiles).expect("a valid board")
    }

    /// Whether turning tile `i` by `turns[i]` quarter turns clockwise makes
    /// every shared edge match.
    pub fn valid(&self, turns: &[u8]) -> bool {
        assert_eq!(turns.len(), self.tiles.len(), "one turn per tile");
        assert!(turns.iter().all(|&k| k < 4), "turns are 0..=3: {turns:?}");
        let placed: Vec<Edges> = self
            .tiles
            .iter()
            .zip(turns)
            .map(|(&e, &k)| turn(e, k))
            .collect();
        let at = |r: usize, c: usize| placed[r * self.cols + c];
        (0..self.rows).all(|r| {
            (0..self.cols).all(|c| {
                (c + 1 == self.cols || at(r, c)[RIGHT] == at(r, c + 1)[LEFT])
                    && (r + 1 == self.rows || at(r, c)[BOTTOM] == at(r + 1, c)[TOP])
            })
        })
    }

    /// All 4^(rows·cols) rotation choices, counted one by one.
    pub fn brute_force(&self) -> u64 {
        let n = self.tiles.len();
        assert!(n <= 10, "brute force is for small boards");
        // turned[i][k]: tile i turned k quarter turns clockwise.
        let turned: Vec<[Edges; 4]> = self
            .tiles
            .iter()
            .map(|&e| std::array::from_fn(|k| turn(e, k as u8)))
            .collect();
        let cols = self.cols;
        let mut turns = vec![0usize; n];
        let mut total = 0;
        loop {
            let at = |i: usize| turned[i][turns[i]];
            let ok = (0..n).all(|i| {
                (i % cols + 1 == cols || at(i)[RIGHT] == at(i + 1)[LEFT])
                    && (i + cols >= n || at(i)[BOTTOM] == at(i + cols)[TOP])
            });
            total += u64::from(ok);
            // Odometer over base-4 digits.
            let mut i = 0;
            loop {
                if i == n {
                    return total;
                }
                turns[i] += 1;
                if turns[i] < 4 {
                    break;
                }
                turns[i] = 0;
                i += 1;
            }
        }
    }

    /// Mirrored in the main diagonal: cell (r, c) goes to (c, r), and a
    /// tile's top and left swap, right and bottom swap.
    pub fn transposed(&self) -> Plain {
        let mut tiles = Vec::with_capacity(self.tiles.len());
        for c in 0..self.cols {
            for r in 0..self.rows {
                let e = self.at(r, c);
                tiles.push([e[LEFT], e[BOTTOM], e[RIGHT], e[TOP]]);
            }
        }
        Plain {
            rows: self.cols,
            cols: self.rows,
            tiles,
        }
    }

    /// The whole board turned a quarter turn clockwise: cell (r, c) goes to
    /// (c, rows - 1 - r) and every tile turns with it.
    pub fn turned(&self) -> Plain {
        let (rows, cols) = (self.cols, self.rows);
        let mut tiles = vec![[0u8; 4]; rows * cols];
        for r in 0..self.rows {
            for c in 0..self.cols {
                tiles[c * cols + (self.rows - 1 - r)] = turn_cw(self.at(r, c));
            }
        }
        Plain { rows, cols, tiles }
    }
}
