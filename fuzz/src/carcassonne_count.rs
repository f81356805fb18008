//! `carcassonne_count`: the Carcassonne counter on boards made from the fuzz
//! bytes, checked against code written here from scratch on plain letter
//! arrays (tile turns, edge matching, whole-board turns), sharing nothing
//! with the library but `Board`'s constructor.
//!
//! Input: a shape byte, a flags byte, then the bytes the tiles are made of.
//! Flags: bits 0-1 the letters used (`CRF`, `CF`, `RF` or only `C`), bit 2
//! *planted* (the tiles of one valid placement, each then turned at random,
//! so that valid placements exist), bit 3 a *medium* board (up to 6 × 6)
//! instead of a small one (at most 8 tiles), bits 4-7 a memory budget.
//!
//! - Small boards: `count`, `count_exact` and `witness` against a brute force
//!   over all `4^tiles` rotation choices; the same counts with a tiny
//!   budget, which must either agree or report the budget.
//! - Medium boards: `count_exact` mod p is `count`; `witness` exists exactly
//!   when the exact count is not 0, and is a valid placement; the count does
//!   not change when the whole board is turned a quarter or transposed.

use boardbase::carcassonne::{
    Board, Budget, CountError, MODULUS, Tile, count, count_exact, count_with_budget, witness,
    witness_with_budget,
};
use num_bigint::BigUint;

/// A tile as its letters clockwise from the top: top, right, bottom, left.
type Edges = [u8; 4];

const TOP: usize = 0;
const RIGHT: usize = 1;
const BOTTOM: usize = 2;
const LEFT: usize = 3;

/// The largest board the brute force counts (`4^8` rotation choices).
pub const SMALL_TILES: usize = 8;

/// Every small shape: `rows × cols ≤ SMALL_TILES`.
const SMALL_SHAPES: [(usize, usize); 20] = [
    (1, 1),
    (1, 2),
    (1, 3),
    (1, 4),
    (1, 5),
    (1, 6),
    (1, 7),
    (1, 8),
    (2, 1),
    (2, 2),
    (2, 3),
    (2, 4),
    (3, 1),
    (3, 2),
    (4, 1),
    (4, 2),
    (5, 1),
    (6, 1),
    (7, 1),
    (8, 1),
];

/// The letter sets tiles are drawn from.
const ALPHABETS: [&[u8]; 4] = [b"CRF", b"CF", b"RF", b"C"];

/// One quarter turn clockwise: the top edge moves to the right, so the new
/// top is the old left.
fn turn_cw(e: Edges) -> Edges {
    [e[LEFT], e[TOP], e[RIGHT], e[BOTTOM]]
}

fn turn(e: Edges, k: u8) -> Edges {
    (0..k % 4).fold(e, |e, _| turn_cw(e))
}

/// A board as this target sees it: rows, cols, row-major letter tiles.
#[derive(Clone, Debug)]
pub struct Plain {
    rows: usize,
    cols: usize,
    tiles: Vec<Edges>,
}

impl Plain {
    fn board(&self) -> Board {
        let tiles = self
            .tiles
            .iter()
            .map(|e| Tile::try_from(&e[..]).expect("valid letters"))
            .collect();
        Board::new(self.rows, self.cols, tiles).expect("a valid shape")
    }

    /// Whether turning tile `i` by `turns[i]` quarter turns clockwise makes
    /// every shared edge match.
    fn valid(&self, turns: &[u8]) -> bool {
        assert_eq!(turns.len(), self.tiles.len(), "one turn per tile");
        assert!(turns.iter().all(|&k| k < 4), "turns are 0..=3: {turns:?}");
        let turned = self.turned_tiles();
        self.matches(|i| turned[i][usize::from(turns[i])])
    }

    /// Every tile turned 0, 1, 2 and 3 quarter turns clockwise.
    fn turned_tiles(&self) -> Vec<[Edges; 4]> {
        self.tiles
            .iter()
            .map(|&e| std::array::from_fn(|k| turn(e, k as u8)))
            .collect()
    }

    /// Whether every shared edge matches when tile `i` shows `placed(i)`.
    fn matches(&self, placed: impl Fn(usize) -> Edges) -> bool {
        let (n, cols) = (self.tiles.len(), self.cols);
        (0..n).all(|i| {
            (i % cols + 1 == cols || placed(i)[RIGHT] == placed(i + 1)[LEFT])
                && (i + cols >= n || placed(i)[BOTTOM] == placed(i + cols)[TOP])
        })
    }

    /// All `4^tiles` rotation choices, counted one by one.
    fn brute_force(&self) -> u64 {
        let n = self.tiles.len();
        assert!(n <= SMALL_TILES, "brute force is for small boards");
        let turned = self.turned_tiles();
        let mut turns = [0usize; SMALL_TILES];
        let mut total = 0;
        loop {
            total += u64::from(self.matches(|i| turned[i][turns[i]]));
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

    /// The whole board turned a quarter clockwise: cell (r, c) moves to
    /// (c, rows - 1 - r) and every tile turns with it.
    fn turned_cw(&self) -> Plain {
        let (rows, cols) = (self.cols, self.rows);
        let mut tiles = vec![[0; 4]; rows * cols];
        for r in 0..self.rows {
            for c in 0..self.cols {
                tiles[c * cols + (self.rows - 1 - r)] = turn_cw(self.tiles[r * self.cols + c]);
            }
        }
        Plain { rows, cols, tiles }
    }
}

/// The fuzz bytes, read one at a time (zeros once they run out).
struct Bytes<'a>(std::slice::Iter<'a, u8>);

impl Bytes<'_> {
    fn next(&mut self) -> usize {
        self.0.next().copied().map_or(0, usize::from)
    }
}

/// The board the fuzz bytes describe, and the budget byte.
pub fn board_of(data: &[u8]) -> (Plain, bool, usize) {
    let mut bytes = Bytes(data.iter());
    let shape = bytes.next();
    let flags = bytes.next();
    let letters = ALPHABETS[flags & 3];
    let planted = flags & 4 != 0;
    let medium = flags & 8 != 0;
    let (rows, cols) = if medium {
        (1 + shape % 6, 1 + shape / 6 % 6)
    } else {
        SMALL_SHAPES[shape % SMALL_SHAPES.len()]
    };
    let letter = |bytes: &mut Bytes| letters[bytes.next() % letters.len()];
    let mut tiles: Vec<Edges> = Vec::with_capacity(rows * cols);
    for i in 0..rows * cols {
        let (r, c) = (i / cols, i % cols);
        let tile = if planted {
            let top = if r > 0 {
                tiles[i - cols][BOTTOM]
            } else {
                letter(&mut bytes)
            };
            let left = if c > 0 {
                tiles[i - 1][RIGHT]
            } else {
                letter(&mut bytes)
            };
            [top, letter(&mut bytes), letter(&mut bytes), left]
        } else {
            std::array::from_fn(|_| letter(&mut bytes))
        };
        tiles.push(tile);
    }
    if planted {
        // Hide the placement: turn every tile at random.
        for tile in &mut tiles {
            *tile = turn(*tile, bytes.next() as u8);
        }
    }
    (Plain { rows, cols, tiles }, medium, flags >> 4)
}

/// Checks a witness: one turn per tile, a valid placement.
fn check_witness(plain: &Plain, found: Option<Vec<u8>>, exists: bool) {
    match found {
        Some(turns) => {
            assert!(exists, "a witness {turns:?} where no placement exists");
            assert!(plain.valid(&turns), "invalid witness {turns:?}");
        }
        None => assert!(!exists, "no witness where placements exist"),
    }
}

/// The target.
pub fn check(data: &[u8]) {
    let (plain, medium, budget) = board_of(data);
    let board = plain.board();
    let exact = count_exact(&board).expect("small boards fit the budget");
    let modular = count(&board).expect("small boards fit the budget");
    assert_eq!(
        BigUint::from(modular),
        &exact % MODULUS,
        "count vs count_exact"
    );
    check_witness(
        &plain,
        witness(&board).expect("small boards fit the budget"),
        exact != BigUint::ZERO,
    );
    let turned = plain.turned_cw();
    assert_eq!(
        count_exact(&turned.board()),
        Ok(exact.clone()),
        "turned board"
    );
    assert_eq!(
        count_exact(&board.transposed()),
        Ok(exact.clone()),
        "transposed"
    );
    if medium {
        return;
    }

    let brute = plain.brute_force();
    assert_eq!(exact, BigUint::from(brute), "count_exact vs brute force");
    assert_eq!(modular, brute % MODULUS, "count vs brute force");

    // Tiny budgets: the right answer, or the budget reported.
    let budget = Budget {
        groups: budget % 4,
        witness_groups: budget,
    };
    match count_with_budget(&board, budget) {
        Ok(n) => assert_eq!(n, brute),
        Err(CountError::ProfileBudget {
            groups,
            budget: cap,
            placed,
            cells,
        }) => {
            assert_eq!(cap, budget.groups);
            assert!(groups > cap && placed >= 1 && placed <= cells && cells == plain.tiles.len());
        }
        Err(e) => panic!("count_with_budget: {e:?}"),
    }
    match witness_with_budget(&board, budget) {
        Ok(found) => check_witness(&plain, found, brute > 0),
        Err(CountError::ProfileBudget { budget: cap, .. }) => assert_eq!(cap, budget.groups),
        Err(CountError::WitnessBudget { budget: cap }) => assert_eq!(cap, budget.witness_groups),
    }
}
