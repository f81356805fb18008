//! The rules of the Lights Out family, written once for every
//! test: a board of R×C cells of K colours; a press at (r, c) adds 1 (mod
//! K) to every cell of its stencil centred on (r, c), clipped at the
//! border or wrapped around on a torus, each cell of the board at most once
//! a press (on a torus smaller than the stencil, two stencil cells that land
//! on one board cell change it once). Nothing here calls the library.
//!
//! The stencils are rows of `#` and `.` separated by `/`, read here
//! ([`Rules::new`]); [`PLUS`], [`NEIGHBOURS`], [`X`], [`KING`] and
//! [`KNIGHT`] are the patterns written out.
//!
//! [`BruteForce`] applies every press vector (each cell pressed 0 to K − 1
//! times) to the all-0 board, one press at a time, in lexicographic order
//! of the row-major press counts, and keeps for each board it makes the
//! fewest presses, how many vectors make it in that few and the first of
//! them (hence the least in that order): for every board and goal, the
//! answer by exhaustion.

use std::collections::BTreeSet;

/// The plus: the cell and its 4 neighbours.
pub const PLUS: &str = ".#./###/.#.";
/// The 4 neighbours, not the cell.
pub const NEIGHBOURS: &str = ".#./#.#/.#.";
/// The cell and its 4 diagonal neighbours.
pub const X: &str = "#.#/.#./#.#";
/// The cell and the 8 around it.
pub const KING: &str = "###/###/###";
/// The knight's moves.
pub const KNIGHT: &str = ".#.#./#...#/...../#...#/.#.#.";

/// One variant's rules.
#[derive(Clone, Debug)]
pub struct Rules {
    pub rows: usize,
    pub cols: usize,
    pub k: u8,
    pub wrap: bool,
    /// The stencil's `#` cells as offsets from its centre.
    offsets: Vec<(isize, isize)>,
}

impl Rules {
    /// The rules of a `rows`×`cols` board of `k` colours with this stencil
    /// (odd height and width, rows separated by `/`).
    pub fn new(rows: usize, cols: usize, k: u8, wrap: bool, stencil: &str) -> Rules {
        let lines: Vec<&str> = stencil.split('/').collect();
        let (h, w) = (lines.len(), lines[0].len());
        assert!(h % 2 == 1 && w % 2 == 1, "an odd stencil: {stencil}");
        let mut offsets = Vec::new();
        for (i, line) in lines.iter().enumerate() {
            assert_eq!(line.len(), w, "a rectangular stencil: {stencil}");
            for (j, ch) in line.chars().enumerate() {
                if ch == '#' {
                    offsets.push((i as isize - (h / 2) as isize, j as isize - (w / 2) as isize));
                }
            }
        }
        Rules {
            rows,
            cols,
            k,
            wrap,
            offsets,
        }
    }

    /// Number of cells.
    pub fn cells(&self) -> usize {
        self.rows * self.cols
    }

    /// The cells (row-major indices) a press at cell `index` changes.
    pub fn changed(&self, index: usize) -> BTreeSet<usize> {
        let (r, c) = ((index / self.cols) as isize, (index % self.cols) as isize);
        let (rows, cols) = (self.rows as isize, self.cols as isize);
        let mut out = BTreeSet::new();
        for &(dr, dc) in &self.offsets {
            let (mut rr, mut cc) = (r + dr, c + dc);
            if self.wrap {
                rr = ((rr % rows) + rows) % rows;
                cc = ((cc % cols) + cols) % cols;
            }
            if rr >= 0 && rr < rows && cc >= 0 && cc < cols {
                out.insert((rr * cols + cc) as usize);
            }
        }
        out
    }

    /// `board` after one press at cell `index`.
    pub fn press(&self, board: &mut [u8], index: usize) {
        for c in self.changed(index) {
            board[c] = (board[c] + 1) % self.k;
        }
    }

    /// `board` after pressing each cell as many times as `presses` says,
    /// one press at a time.
    pub fn apply(&self, board: &[u8], presses: &[u8]) -> Vec<u8> {
        let mut out = board.to_vec();
        for (i, &times) in presses.iter().enumerate() {
            for _ in 0..times {
                self.press(&mut out, i);
            }
        }
        out
    }
}

/// The answer for one board and goal: the colour reached, the fewest
/// presses, how many press vectors take that few (over every colour that
/// does, for "any colour"), and the least such vector in reading order
/// (of the least colour, for "any colour").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    pub colour: u8,
    pub rounds: usize,
    pub count: u64,
    pub presses: Vec<u8>,
}

/// Every press vector of a variant applied (see the module documentation).
pub struct BruteForce {
    pub rules: Rules,
    /// Per board made from all 0 (index Σ cell·K^i): the fewest presses
    /// (`u8::MAX`: no vector makes it).
    fewest: Vec<u8>,
    /// How many vectors make it in that few.
    count: Vec<u32>,
    /// The first of them, as its rank in the enumeration.
    first: Vec<u32>,
    /// Every press vector that changes nothing, by rank.
    quiet: Vec<u32>,
}

impl BruteForce {
    /// Applies all `K^(R·C)` press vectors (at most 2^22).
    pub fn new(rules: &Rules) -> BruteForce {
        let n = rules.cells();
        let k = u64::from(rules.k);
        let total = k.pow(n as u32);
        assert!(total <= 1 << 22, "too many press vectors for the oracle");
        let mut fewest = vec![u8::MAX; total as usize];
        let mut count = vec![0u32; total as usize];
        let mut first = vec![0u32; total as usize];
        let mut quiet = Vec::new();
        let changed: Vec<BTreeSet<usize>> = (0..n).map(|i| rules.changed(i)).collect();
        let mut presses = vec![0u8; n];
        let mut board = vec![0u8; n];
        let mut presses_total = 0usize;
        for rank in 0..total as u32 {
            let index = board
                .iter()
                .rev()
                .fold(0u64, |acc, &v| acc * k + u64::from(v)) as usize;
            let w = presses_total as u8;
            if w < fewest[index] {
                fewest[index] = w;
                count[index] = 1;
                first[index] = rank;
            } else if w == fewest[index] {
                count[index] += 1;
            }
            if board.iter().all(|&v| v == 0) {
                quiet.push(rank);
            }
            // The next vector in lexicographic order: the last cell gets
            // one press more, carrying into the cells before it (K presses
            // of a cell are no press).
            let mut i = n;
            while i > 0 {
                i -= 1;
                for &c in &changed[i] {
                    board[c] = (board[c] + 1) % rules.k;
                }
                presses[i] += 1;
                presses_total += 1;
                if presses[i] < rules.k {
                    break;
                }
                presses[i] = 0;
                presses_total -= usize::from(rules.k);
            }
        }
        BruteForce {
            rules: rules.clone(),
            fewest,
            count,
            first,
            quiet,
        }
    }

    /// The press vector of a rank of the enumeration.
    pub fn presses_of(&self, rank: u32) -> Vec<u8> {
        let n = self.rules.cells();
        let k = u32::from(self.rules.k);
        let mut out = vec![0u8; n];
        let mut rest = rank;
        for i in (0..n).rev() {
            out[i] = (rest % k) as u8;
            rest /= k;
        }
        out
    }

    /// The index of a board.
    fn index(&self, board: &[u8]) -> usize {
        let k = u64::from(self.rules.k);
        board
            .iter()
            .rev()
            .fold(0u64, |acc, &v| acc * k + u64::from(v)) as usize
    }

    /// The answer from `board` to every cell `colour`.
    pub fn to_colour(&self, board: &[u8], colour: u8) -> Option<Solution> {
        let k = self.rules.k;
        // The vectors that take `board` to `colour` make `colour − board`
        // from all 0.
        let needed: Vec<u8> = board.iter().map(|&b| (colour + k - b) % k).collect();
        let i = self.index(&needed);
        (self.fewest[i] != u8::MAX).then(|| Solution {
            colour,
            rounds: usize::from(self.fewest[i]),
            count: u64::from(self.count[i]),
            presses: self.presses_of(self.first[i]),
        })
    }

    /// The answer from `board` to any one colour: the fewest presses, the
    /// least colour on a tie, counting every colour that takes that few.
    pub fn to_any(&self, board: &[u8]) -> Option<Solution> {
        let mut best: Option<Solution> = None;
        for d in 0..self.rules.k {
            let Some(s) = self.to_colour(board, d) else {
                continue;
            };
            match best.as_mut() {
                Some(b) if b.rounds < s.rounds => {}
                Some(b) if b.rounds == s.rounds => b.count += s.count,
                _ => best = Some(s),
            }
        }
        best
    }

    /// Every press vector that changes nothing.
    pub fn quiet(&self) -> Vec<Vec<u8>> {
        self.quiet.iter().map(|&r| self.presses_of(r)).collect()
    }

    /// How many boards can be made all 0 (as many as can be made from it).
    pub fn solvable_boards(&self) -> u64 {
        self.fewest.iter().filter(|&&f| f != u8::MAX).count() as u64
    }

    /// How many boards need exactly `n` presses to become all 0, for each
    /// `n` (unsolvable boards not counted).
    pub fn histogram(&self) -> Vec<u64> {
        let mut h = Vec::new();
        // Board B needs the fewest presses of the vectors making −B.
        for &f in &self.fewest {
            if f != u8::MAX {
                if h.len() <= usize::from(f) {
                    h.resize(usize::from(f) + 1, 0);
                }
                h[usize::from(f)] += 1;
            }
        }
        h
    }
}
