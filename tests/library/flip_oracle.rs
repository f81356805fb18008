//! Every Flip Game table entry against an independent oracle.
//!
//! The build script solves boards by breadth-first search from each uniform
//! board. The oracle (`tests/oracle/tables.rs`'s `Flip`, on the 4×4 shape)
//! never searches: it enumerates all 65,536 press sets, computes each one's
//! effect by the press rule of `tests/oracle`, and keeps, for each board and
//! target colour, the fewest presses that make the board uniform and how
//! many sets share that size.

use crate::oracle::{press, samples, tables};

use boardbase::flip::{self, Board, Colour, Presses, raw};
use boardbase::tables::shape::Shape;

const IMPOSSIBLE: u8 = u8::MAX;

/// What pressing every cell of `set` does (bit 4r + c), by the oracle's rule.
fn effect(set: u32) -> u16 {
    press::apply_4x4(0, u16::try_from(set).expect("16 cells"))
}

/// `[colour][board]` → (fewest rounds or IMPOSSIBLE, number of optimal sets).
struct Oracle {
    best: Vec<[(u8, u8); 2]>,
}

fn oracle() -> Oracle {
    let flip = tables::Flip::solve(Shape::new(4, 4).expect("4x4"));
    let best = (0..1 << 16)
        .map(|b| std::array::from_fn(|colour| (flip.rounds[colour][b], flip.sets[colour][b])))
        .collect();
    Oracle { best }
}

#[test]
fn every_board_matches_the_oracle() {
    let oracle = oracle();
    for bits in 0..=u16::MAX {
        let b = usize::from(bits);
        let board = Board::from_bits(bits);
        for (c, colour) in Colour::ALL.into_iter().enumerate() {
            let (rounds, sets) = oracle.best[b][c];
            assert_eq!(raw::ROUNDS[c][b], rounds, "rounds of {board:#} to {colour}");
            assert_eq!(
                raw::OPTIMAL_SETS[c][b],
                sets,
                "optimal sets of {board:#} to {colour}"
            );
            match flip::route(board, colour) {
                None => assert_eq!(rounds, IMPOSSIBLE),
                Some(route) => {
                    assert_eq!(route.rounds, rounds);
                    assert_eq!(route.optimal_sets, sets);
                    assert_eq!(route.presses.len(), rounds, "press set size is the rounds");
                    assert_eq!(
                        bits ^ effect(u32::from(route.presses.bits())),
                        colour.uniform_board().bits()
                    );
                }
            }
        }
        let [(w, ws), (k, ks)] = oracle.best[b];
        let closer = w.min(k);
        assert_eq!(
            flip::rounds(board),
            (closer != IMPOSSIBLE).then_some(closer),
            "{board:#}"
        );
        match flip::solve(board) {
            None => assert_eq!(closer, IMPOSSIBLE),
            Some(s) => {
                assert_eq!(s.rounds, closer);
                let expected_sets = if w == k {
                    ws + ks
                } else if w < k {
                    ws
                } else {
                    ks
                };
                assert_eq!(s.optimal_sets, expected_sets);
                assert_eq!(board.apply(s.presses).uniform(), Some(s.colour));
                assert_eq!(s.presses.len(), s.rounds);
                assert_eq!(s.colour, if k < w { Colour::Black } else { Colour::White });
            }
        }
    }
}

#[test]
fn known_facts() {
    let mut histogram = [0u32; 8];
    let mut impossible = 0;
    let mut worst_fixed = 0;
    for bits in 0..=u16::MAX {
        let board = Board::from_bits(bits);
        match flip::rounds(board) {
            Some(r) => histogram[usize::from(r)] += 1,
            None => impossible += 1,
        }
        for colour in Colour::ALL {
            if let Some(route) = flip::route(board, colour) {
                worst_fixed = worst_fixed.max(route.rounds);
            }
        }
    }
    assert_eq!(histogram, [2, 32, 228, 880, 1562, 1136, 256, 0]);
    assert_eq!(histogram.iter().sum::<u32>(), 4096);
    assert_eq!(impossible, 61_440);
    assert_eq!(worst_fixed, 7);
}

#[test]
fn published_samples() {
    let poj: Board = samples::FLIP.parse().unwrap();
    assert_eq!(flip::rounds(poj), Some(4));
    let timus: Board = "bwbw/wwww/bbwb/bwwb".parse().unwrap();
    assert_eq!(flip::rounds(timus), None);
    assert_eq!(flip::solve(timus), None);
}

#[test]
fn the_spec_example_round() {
    // Choosing row 3, column 1 (1-based) flips it and its neighbours.
    let before: Board = "bwbw/wwww/bbwb/bwwb".parse().unwrap();
    let after: Board = "bwbw/bwww/wwwb/wwwb".parse().unwrap();
    assert_eq!(before.press(2, 0), after);
    assert_eq!(before.apply(Presses::from_bits(1 << 8)), after);
}

/// The eight symmetries of the square, written here on coordinates.
fn transform(bits: u16, s: usize) -> u16 {
    let mut out = 0;
    for r in 0..4 {
        for c in 0..4 {
            if bits >> (r * 4 + c) & 1 == 1 {
                let (r2, c2) = match s {
                    0 => (r, c),
                    1 => (c, 3 - r),
                    2 => (3 - r, 3 - c),
                    3 => (3 - c, r),
                    4 => (r, 3 - c),
                    5 => (3 - r, c),
                    6 => (c, r),
                    _ => (3 - c, 3 - r),
                };
                out |= 1 << (r2 * 4 + c2);
            }
        }
    }
    out
}

#[test]
fn tables_are_invariant_under_the_symmetries_of_the_square() {
    for bits in 0..=u16::MAX {
        for s in 0..8 {
            let t = transform(bits, s);
            for c in 0..2 {
                assert_eq!(
                    raw::ROUNDS[c][usize::from(bits)],
                    raw::ROUNDS[c][usize::from(t)]
                );
                assert_eq!(
                    raw::OPTIMAL_SETS[c][usize::from(bits)],
                    raw::OPTIMAL_SETS[c][usize::from(t)]
                );
            }
            // The transformed press set solves the transformed board.
            if let Some(s1) = flip::solve(Board::from_bits(bits)) {
                let moved = Presses::from_bits(transform(s1.presses.bits(), s));
                assert_eq!(Board::from_bits(t).apply(moved).uniform(), Some(s1.colour));
            }
        }
    }
}

#[test]
fn table_sizes_are_pinned() {
    assert_eq!(size_of_val(&raw::ROUNDS), 2 * 65_536);
    assert_eq!(size_of_val(&raw::PRESSES), 2 * 2 * 65_536);
    assert_eq!(size_of_val(&raw::OPTIMAL_SETS), 2 * 65_536);
    assert_eq!(size_of_val(&raw::PACKED_ROUNDS), 32_768);
}

#[test]
fn board_text_round_trips() {
    for bits in (0..=u16::MAX).step_by(97) {
        let board = Board::from_bits(bits);
        assert_eq!(board.to_string().parse::<Board>(), Ok(board));
        assert_eq!(format!("{board:#}").parse::<Board>(), Ok(board));
    }
}
