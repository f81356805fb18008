//! `carcassonne_count`: the Carcassonne counter on boards made from the fuzz
//! bytes, checked against the tests' own code on plain letter arrays (tile
//! turns, edge matching, the brute force, whole-board turns:
//! `tests/oracle/carcassonne.rs`), sharing nothing with the library but
//! `Board`'s constructor.
//!
//! Input: a shape byte, a flags byte, then the bytes the tiles are made of.
//! Flags: bits 0-1 the letters used (`CRF`, `CF`, `RF` or only `C`), bit 2
//! *planted* (the tiles of one valid placement, each then turned at random,
//! so that valid placements exist), bit 3 a *medium* board (up to 6 × 6)
//! instead of a small one (at most 8 tiles), bits 4-7 a memory budget.
//!
//! - Small boards: the count mod p, the exact count and the witness (each
//!   its own pass of `count`) against a brute force over all `4^tiles`
//!   rotation choices; the same counts with a tiny budget, which must either
//!   agree or report the budget.
//! - Medium boards: the exact count mod p is the count; a witness exists exactly
//!   when the exact count is not 0, and is a valid placement; the count does
//!   not change when the whole board is turned a quarter or transposed.

use boardbase::carcassonne::{Board, Budget, CountOptions, Counted, Error, MODULUS, count};
use num_bigint::BigUint;

use crate::oracle::carcassonne::{BOTTOM, Edges, Plain, RIGHT, turn};

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

/// The counter's one entry asked for one answer, run to the end.
fn run(board: &Board, exact: bool, witness: bool, budget: Budget) -> Result<Counted, Error> {
    let options = CountOptions {
        exact,
        witness,
        budget,
    };
    let counted = count(board, &options, || false);
    assert!(
        !matches!(counted, Err(Error::Stopped { .. })),
        "never asked to stop"
    );
    counted
}

/// The count modulo p.
fn mod_p(board: &Board, budget: Budget) -> Result<u64, Error> {
    run(board, false, false, budget).map(|c| c.count)
}

/// The exact count.
fn exact_count(board: &Board) -> Result<BigUint, Error> {
    run(board, true, false, Budget::DEFAULT).map(|c| c.exact.expect("asked for"))
}

/// A witness, or `None` where no placement exists.
fn witness(board: &Board, budget: Budget) -> Result<Option<Vec<u8>>, Error> {
    run(board, false, true, budget).map(|c| c.witness.expect("asked for"))
}

/// The target.
pub fn check(data: &[u8]) {
    let (plain, medium, budget) = board_of(data);
    let board = plain.board();
    let exact = exact_count(&board).expect("small boards fit the budget");
    let modular = mod_p(&board, Budget::DEFAULT).expect("small boards fit the budget");
    assert_eq!(
        BigUint::from(modular),
        &exact % MODULUS,
        "count vs count_exact"
    );
    check_witness(
        &plain,
        witness(&board, Budget::DEFAULT).expect("small boards fit the budget"),
        exact != BigUint::ZERO,
    );
    let turned = plain.turned();
    assert_eq!(
        exact_count(&turned.board()),
        Ok(exact.clone()),
        "turned board"
    );
    assert_eq!(
        exact_count(&board.transposed()),
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
    match mod_p(&board, budget) {
        Ok(n) => assert_eq!(n, brute),
        Err(Error::ProfileBudget {
            groups,
            budget: cap,
            placed,
            cells,
        }) => {
            assert_eq!(cap, budget.groups);
            assert!(groups > cap && placed >= 1 && placed <= cells && cells == plain.tiles.len());
        }
        Err(e) => panic!("count within {budget:?}: {e:?}"),
    }
    match witness(&board, budget) {
        Ok(found) => check_witness(&plain, found, brute > 0),
        Err(Error::ProfileBudget { budget: cap, .. }) => assert_eq!(cap, budget.groups),
        Err(Error::WitnessBudget { budget: cap }) => assert_eq!(cap, budget.witness_groups),
        Err(e @ Error::Stopped { .. }) => panic!("never asked to stop: {e}"),
        // The board was made: the count never refuses it.
        Err(e) => panic!("a board made refused by the count: {e}"),
    }
}
