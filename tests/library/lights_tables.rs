//! A cross-check of two methods: the GF(2) solver (`boardbase::lights`, linear
//! algebra over the light-chasing system) against the generated Flip tables
//! (`boardbase::generate::flip`, a breadth-first search over press sets),
//! two methods that share nothing but the rules: on every 4×5 board and on
//! a large random sample of 5×5 boards, the fewest rounds to each colour,
//! the number of optimal press sets to each colour, and POJ 1753's answer
//! (the closer colour, white on ties, both colours' sets counted on ties).
//! The press sets themselves may differ (the solver gives the least in
//! reading order, the table one of its own choosing): each must reach its
//! colour in the optimal number of presses.

use crate::oracle::press;

use boardbase::flip::Colour;
use boardbase::generate::{self, FlipOptions, FlipTables};
use boardbase::lights::{self, Grid};
use boardbase::tables::shape::Shape;

/// The board after pressing every cell of `presses`, by the press rule of
/// `tests/oracle` (not the library's press masks).
fn after_presses(shape: Shape, board: u64, presses: u64) -> u64 {
    press::apply(shape.rows(), shape.cols(), board, presses)
}

fn check_board(tables: &FlipTables, board: u64) {
    let shape = tables.shape;
    let grid = Grid::from_u64(shape, board).unwrap();
    let routes = lights::routes(&grid).unwrap();
    for (colour, answer) in [
        (Colour::White, &routes.white),
        (Colour::Black, &routes.black),
    ] {
        let columns = tables.colour(colour);
        let rounds = columns.rounds[board as usize];
        let target = match colour {
            Colour::White => 0,
            Colour::Black => shape.full(),
        };
        match answer {
            None => assert_eq!(rounds, 255, "{shape} board {board:#x} {colour:?}"),
            Some(a) => {
                assert_eq!(
                    a.rounds,
                    usize::from(rounds),
                    "{shape} board {board:#x} {colour:?}"
                );
                assert_eq!(
                    a.optimal_sets,
                    u64::from(columns.optimal_sets[board as usize]),
                    "{shape} board {board:#x} {colour:?}"
                );
                let presses = a.presses.to_u64().unwrap();
                assert_eq!(presses.count_ones() as usize, a.rounds);
                assert_eq!(after_presses(shape, board, presses), target);
                let stored = columns.presses.get(board);
                assert_eq!(stored.count_ones(), u32::from(rounds));
                assert_eq!(after_presses(shape, board, stored), target);
            }
        }
    }
    // POJ 1753's answer.
    let best = routes.best();
    let rounds = tables.rounds[board as usize];
    match best {
        None => assert_eq!(rounds, 255),
        Some(a) => {
            assert_eq!(a.rounds, usize::from(rounds), "{shape} board {board:#x}");
            let (w, b) = (
                tables.colour(Colour::White).rounds[board as usize],
                tables.colour(Colour::Black).rounds[board as usize],
            );
            let colour = if b < w { Colour::Black } else { Colour::White };
            assert_eq!(a.colour, colour);
            let sets = |c: Colour| u64::from(tables.colour(c).optimal_sets[board as usize]);
            let expected = if w == b {
                sets(Colour::White) + sets(Colour::Black)
            } else {
                sets(colour)
            };
            assert_eq!(a.optimal_sets, expected, "{shape} board {board:#x}");
        }
    }
}

#[test]
fn every_4x5_board() {
    let shape = Shape::new(4, 5).unwrap();
    let tables = generate::flip(shape, &FlipOptions::default(), |_| {}).unwrap();
    // 4×5 has nullity 0 (every board reaches both colours, one way each):
    // the interesting counts are elsewhere, but every board is compared.
    for board in 0..1u64 << 20 {
        check_board(&tables, board);
    }
}

#[test]
fn every_3x5_and_4x4_board() {
    // 3×5 (nullity 3) and 4×4 (nullity 4): several optimal sets and
    // impossible boards; 2×8 (nullity 0): one press set a colour.
    for shape in [
        Shape::new(3, 5).unwrap(),
        Shape::SQUARE4,
        Shape::new(2, 8).unwrap(),
    ] {
        let tables = generate::flip(shape, &FlipOptions::default(), |_| {}).unwrap();
        for board in 0..1u64 << shape.cells() {
            check_board(&tables, board);
        }
    }
}

#[test]
fn a_random_sample_of_5x5_boards() {
    let shape = Shape::new(5, 5).unwrap();
    let tables = generate::flip(shape, &FlipOptions::default(), |_| {}).unwrap();
    // 5×5 has nullity 2: a quarter of the boards reach white. Half the
    // sample is uniform (mostly impossible boards), half made solvable by
    // pressing random cells of a uniform board.
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let (mut solvable, mut impossible) = (0, 0);
    for i in 0..400_000 {
        let board = if i % 2 == 0 {
            next() & shape.full()
        } else {
            let start = if next() & 1 == 0 { 0 } else { shape.full() };
            after_presses(shape, start, next() & shape.full())
        };
        if tables.rounds[board as usize] == 255 {
            impossible += 1;
        } else {
            solvable += 1;
        }
        check_board(&tables, board);
    }
    assert!(
        solvable > 200_000 && impossible > 100_000,
        "{solvable} {impossible}"
    );
}
