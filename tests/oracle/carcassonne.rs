//! The Carcassonne rules of HDU 4064, written once for every test on plain
//! letter arrays, sharing no code with the library: a tile's four edge
//! letters clockwise from the top, turning a tile by quarter turns
//! ([`turn_cw`], [`turn`], [`turn_code`]), and edge matching
//! ([`first_mismatch`], [`edges_match`]): every edge two tiles share shows
//! the same letter on both. Built on them: whether a choice of turns is a
//! valid placement ([`Plain::valid`]), the brute force over every choice
//! ([`Plain::brute_force`]), the whole board's transposition and quarter
//! turn, and the judge's sample input. The library appears only in
//! [`Plain::board`], which hands the same tiles to it.
use boardbase::carcassonne::{Board, Tile};

/// HDU 4064's sample input (`examples/carcassonne-sample.txt`): three
/// cases, whose answers are 4, 1 and 1,048,576.
pub const SAMPLE: &str = super::samples::CARCASSONNE;

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

/// The first shared edge whose two letters differ when the tiles lie as
/// `placed` (row-major, `rows`×`cols`), in reading order of the tiles and
/// for each its right edge before its bottom edge: (row, col, side), side
/// [`RIGHT`] (against the tile's right neighbour's [`LEFT`]) or [`BOTTOM`]
/// (against the [`TOP`] of the tile below). `None`: every edge matches.
pub fn first_mismatch(rows: usize, cols: usize, placed: &[Edges]) -> Option<(usize, usize, usize)> {
    assert_eq!(placed.len(), rows * cols, "one tile a cell");
    let at = |r: usize, c: usize| placed[r * cols + c];
    (0..rows)
        .flat_map(|r| (0..cols).map(move |c| (r, c)))
        .find_map(|(r, c)| {
            if c + 1 < cols && at(r, c)[RIGHT] != at(r, c + 1)[LEFT] {
                Some((r, c, RIGHT))
            } else if r + 1 < rows && at(r, c)[BOTTOM] != at(r + 1, c)[TOP] {
                Some((r, c, BOTTOM))
            } else {
                None
            }
        })
}

/// Whether every shared edge matches when the tiles lie as `placed`.
pub fn edges_match(rows: usize, cols: usize, placed: &[Edges]) -> bool {
    first_mismatch(rows, cols, placed).is_none()
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
        edges_match(self.rows, self.cols, &placed)
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
        let mut turns = vec![0usize; n];
        let mut placed: Vec<Edges> = turned.iter().map(|t| t[0]).collect();
        let mut total = 0;
        loop {
            for (i, &k) in turns.iter().enumerate() {
                placed[i] = turned[i][k];
            }
            total += u64::from(edges_match(self.rows, self.cols, &placed));
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
