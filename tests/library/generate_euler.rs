//! The Game of Euler generator (`boardbase::generate::euler`) against an
//! independent oracle, for every board shape of at most 20 squares.
//!
//! The oracle (`tests/oracle`, shared with the table-file and CLI tests) is
//! written from the rules of UVA 10536 (docs/guide.md) and
//! shares nothing with the generator: its move generator
//! (`tests/oracle/euler.rs`: every pin of length 1 to 3 pushed in from each
//! end of each row and column, and every single square, as a set), and a
//! memoized recursion from the top down
//! (the generator is bottom-up and bit-parallel). It knows who wins and how
//! long the game lasts; the generator's best move must be a legal move that
//! achieves that value, and the first such in the generator's move list.

use crate::oracle;

use std::collections::BTreeSet;
use std::sync::Mutex;

use boardbase::euler::{self as euler4, Outcome, raw};
use boardbase::generate::{self, EulerOptions, EulerTables, GenerateError, NO_MOVE, Phase};
use boardbase::tables::shape::Shape;

/// The oracle's values of every position of a shape.
struct Oracle {
    /// The moves, from the rules.
    moves: BTreeSet<u64>,
    full: u64,
    wins: Vec<bool>,
    plies: Vec<u8>,
}

impl Oracle {
    fn new(shape: Shape) -> Oracle {
        let moves = oracle::euler::moves(shape.rows(), shape.cols());
        let list: Vec<u64> = moves.iter().copied().collect();
        let (wins, plies) = oracle::tables::solve_euler(shape, &list);
        Oracle {
            moves,
            full: shape.full(),
            wins,
            plies,
        }
    }

    /// (wins, plies) of `p`.
    fn get(&self, p: u64) -> (bool, u8) {
        (self.wins[p as usize], self.plies[p as usize])
    }
}

fn generate(shape: Shape, wdl_only: bool) -> EulerTables {
    let options = EulerOptions {
        wdl_only,
        ..EulerOptions::default()
    };
    generate::euler(shape, &options, |_| {}).expect("a small shape generates")
}

/// Every entry of the generated tables against the oracle.
fn check_against_oracle(shape: Shape, tables: &EulerTables, oracle: &Oracle) {
    let positions = 1u64 << shape.cells();
    let depth = tables.depth.as_ref().expect("full tables up to 25 squares");
    assert_eq!(depth.plies.len(), positions as usize);
    assert_eq!(depth.best_move.len(), positions as usize);
    // The move list is the rules' set of moves, each once.
    let listed: BTreeSet<u64> = tables.moves.iter().copied().collect();
    assert_eq!(
        listed.len(),
        tables.moves.len(),
        "{shape}: a move listed twice"
    );
    assert_eq!(listed, oracle.moves, "{shape}: moves");

    let (mut winning, mut losing) = (0, 0);
    for p in 0..positions {
        let (wins, plies) = oracle.get(p);
        assert_eq!(tables.winning(p), wins, "{shape} position {p:#x}: outcome");
        assert_eq!(
            depth.plies[p as usize], plies,
            "{shape} position {p:#x}: plies"
        );
        let best = depth.best_move[p as usize];
        if p == oracle.full {
            assert_eq!(best, NO_MOVE);
            continue;
        }
        if wins {
            winning += 1;
        } else {
            losing += 1;
        }
        // The best move is legal, reaches the other outcome in one ply
        // fewer, and no earlier move in the list does.
        let achieves = |m: u64| m & p == 0 && oracle.get(p | m) == (!wins, plies - 1);
        let best = usize::from(best);
        assert!(
            best < tables.moves.len(),
            "{shape} position {p:#x}: move index"
        );
        assert!(
            achieves(tables.moves[best]),
            "{shape} position {p:#x}: best move {best}"
        );
        assert!(
            !tables.moves[..best].iter().any(|&m| achieves(m)),
            "{shape} position {p:#x}: an earlier move is as good"
        );
    }
    let s = &tables.summary;
    assert_eq!(
        (s.positions, s.winning, s.losing),
        (positions, winning, losing),
        "{shape}"
    );
    let (empty_wins, empty_plies) = oracle.get(0);
    assert_eq!(
        s.empty,
        if empty_wins {
            Outcome::Win
        } else {
            Outcome::Loss
        }
    );
    assert_eq!(s.empty_moves_left, Some(empty_plies));
}

#[test]
fn every_shape_up_to_20_squares_matches_the_oracle() {
    let mut checked = 0;
    for shape in oracle::tables::shapes(20) {
        let oracle = Oracle::new(shape);
        let full = generate(shape, false);
        check_against_oracle(shape, &full, &oracle);
        // Win/loss only: the same bits, no depth columns.
        let wdl = generate(shape, true);
        assert!(wdl.depth.is_none(), "{shape}");
        assert_eq!(wdl.winning, full.winning, "{shape}: win/loss only");
        assert_eq!(wdl.moves, full.moves);
        assert_eq!(wdl.summary.empty_moves_left, None);
        assert_eq!(
            (wdl.summary.winning, wdl.summary.losing, wdl.summary.empty),
            (
                full.summary.winning,
                full.summary.losing,
                full.summary.empty
            )
        );
        checked += 1;
    }
    assert_eq!(checked, 66);
}

#[test]
fn the_4x4_tables_are_the_embedded_ones_byte_for_byte() {
    let t = generate(Shape::SQUARE4, false);
    let depth = t.depth.as_ref().unwrap();
    let moves: Vec<u64> = euler4::Move::ALL
        .iter()
        .map(|m| u64::from(m.bits()))
        .collect();
    assert_eq!(t.moves, moves);
    for p in 0..1 << 16 {
        assert_eq!(u8::from(t.winning(p as u64)), raw::WINNING[p], "{p:#06x}");
        assert_eq!(depth.plies[p], raw::PLIES[p], "{p:#06x}");
        let best = match depth.best_move[p] {
            NO_MOVE => 0,
            i => t.moves[usize::from(i)] as u16,
        };
        assert_eq!(best, raw::BEST_MOVE[p], "{p:#06x}");
    }
    // The summary: 13,802 losing positions, the empty board lost in 13.
    assert_eq!(
        (t.summary.losing, t.summary.winning),
        (13_802, 65_535 - 13_802)
    );
    assert_eq!(
        (t.summary.empty, t.summary.empty_moves_left),
        (Outcome::Loss, Some(13))
    );
}

#[test]
fn transposed_shapes_give_transposed_answers_and_mirrors_the_same() {
    for (rows, cols) in [(1, 7), (2, 5), (3, 4), (3, 6), (2, 9)] {
        let shape = Shape::new(rows, cols).unwrap();
        let t = generate(shape, false);
        let tt = generate(shape.transpose(), false);
        let (d, dt) = (t.depth.as_ref().unwrap(), tt.depth.as_ref().unwrap());
        for p in 0..=shape.full() {
            let q = shape.transpose_board(p);
            assert_eq!(t.winning(p), tt.winning(q), "{shape} {p:#x}");
            assert_eq!(d.plies[p as usize], dt.plies[q as usize], "{shape} {p:#x}");
            for m in [shape.mirror_cols(p), shape.mirror_rows(p)] {
                assert_eq!(t.winning(m), t.winning(p), "{shape} {p:#x} mirrored");
                assert_eq!(d.plies[m as usize], d.plies[p as usize], "{shape} {p:#x}");
            }
        }
        assert_eq!(t.summary.losing, tt.summary.losing);
    }
}

#[test]
fn a_dedicated_pool_gives_the_same_tables() {
    let shape = Shape::new(4, 5).unwrap();
    let all = generate(shape, false);
    for threads in [1, 3] {
        let options = EulerOptions {
            threads: Some(threads),
            ..EulerOptions::default()
        };
        let t = generate::euler(shape, &options, |_| {}).unwrap();
        assert_eq!(t, all, "{threads} threads");
    }
    let none = EulerOptions {
        threads: Some(0),
        ..EulerOptions::default()
    };
    assert!(matches!(
        generate::euler(shape, &none, |_| {}),
        Err(GenerateError::NoThreads)
    ));
}

#[test]
fn shapes_past_36_squares_are_refused() {
    for (rows, cols) in [(6, 7), (1, 37), (37, 1), (8, 8)] {
        let shape = Shape::new(rows, cols).unwrap();
        let err = generate::euler_memory(shape, &EulerOptions::default()).unwrap_err();
        assert!(
            matches!(err, GenerateError::TooManyCells(e) if e.shape == shape && e.puzzle.max_cells() == 36),
            "{err:?}"
        );
        let err = generate::euler(shape, &EulerOptions::default(), |_| {}).unwrap_err();
        assert!(matches!(err, GenerateError::TooManyCells(_)), "{err:?}");
        assert_eq!(
            err.to_string(),
            format!(
                "euler tables take at most 36 cells; {rows}x{cols} has {}",
                rows * cols
            )
        );
    }
    // 36 squares are allowed (the memory is only computed here).
    for (rows, cols) in [(6, 6), (4, 9), (1, 36)] {
        let bytes =
            generate::euler_memory(Shape::new(rows, cols).unwrap(), &EulerOptions::default());
        assert!(bytes.unwrap() >= 8 << 30);
    }
}

#[test]
fn memory_is_said_beforehand_and_a_limit_refuses_the_job() {
    let shape = Shape::new(5, 5).unwrap();
    let full = generate::euler_memory(shape, &EulerOptions::default()).unwrap();
    let wdl_options = EulerOptions {
        wdl_only: true,
        ..EulerOptions::default()
    };
    let wdl = generate::euler_memory(shape, &wdl_options).unwrap();
    // Full tables: two bytes a position besides the bitset.
    assert!(full >= wdl + (2 << 25), "{full} {wdl}");
    assert!((4 << 20..16 << 20).contains(&wdl), "{wdl}");
    // The memory limit decides: full tables wherever they fit, at any
    // number of squares (5×6: 2.5 bytes a position, 2.5 GiB).
    let six = Shape::new(5, 6).unwrap();
    let within = |bytes: u64| EulerOptions {
        memory_limit: Some(bytes),
        ..EulerOptions::default()
    };
    let six_full = generate::euler_full_memory(six, None);
    assert!(
        (5 << 29..(5 << 29) + (64 << 20)).contains(&six_full),
        "{six_full}"
    );
    assert!(generate::euler_full_tables(six, &within(six_full)));
    assert!(!generate::euler_full_tables(six, &within(six_full - 1)));
    assert!(generate::euler_full_tables(shape, &EulerOptions::default()));
    assert!(!generate::euler_full_tables(shape, &wdl_options));
    // A limit under the full tables' memory makes win/loss only, not an
    // error.
    let t = generate::euler(shape, &within(full - 1), |_| {}).unwrap();
    assert!(t.depth.is_none());
    assert_eq!(t.summary.losing, 7_934_752);

    let limited = EulerOptions {
        memory_limit: Some(wdl - 1),
        ..wdl_options.clone()
    };
    let called = Mutex::new(0);
    let err = generate::euler(shape, &limited, |_| *called.lock().unwrap() += 1).unwrap_err();
    match err {
        GenerateError::OverMemoryLimit { needed, limit, .. } => {
            assert_eq!((needed, limit), (wdl, wdl - 1));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(*called.lock().unwrap(), 0, "nothing started");
    assert!(err.to_string().starts_with("euler 5x5 needs "), "{err}");
    // Exactly the limit is enough.
    let exact = EulerOptions {
        memory_limit: Some(wdl),
        ..wdl_options
    };
    assert!(generate::euler(Shape::new(3, 3).unwrap(), &exact, |_| {}).is_ok());
    let t = generate::euler(shape, &exact, |_| {}).unwrap();
    assert_eq!(t.summary.positions, 1 << 25);
}

#[test]
fn progress_reaches_the_total_of_every_phase() {
    let reports = Mutex::new(Vec::new());
    let shape = Shape::new(4, 5).unwrap();
    generate::euler(shape, &EulerOptions::default(), |p| {
        reports.lock().unwrap().push(p)
    })
    .unwrap();
    let reports = reports.into_inner().unwrap();
    let phases: Vec<Phase> = reports
        .iter()
        .filter(|p| p.done == 0)
        .map(|p| p.phase)
        .collect();
    assert_eq!(phases, [Phase::Allocate, Phase::WinLoss, Phase::Depth]);
    for phase in phases {
        let of: Vec<_> = reports.iter().filter(|p| p.phase == phase).collect();
        assert!(of.iter().all(|p| p.total == 1 << 20), "{phase}");
        assert!(
            of.windows(2).all(|w| w[0].done <= w[1].done),
            "{phase}: monotone"
        );
        assert_eq!(
            of.last().unwrap().done,
            1 << 20,
            "{phase}: reaches the total"
        );
    }
}

#[test]
fn every_shape_up_to_20_squares_by_class_matches_the_oracle() {
    let mut smaller = 0;
    for shape in oracle::tables::shapes(20) {
        let oracle = Oracle::new(shape);
        for wdl_only in [false, true] {
            let options = EulerOptions {
                wdl_only,
                symmetry: true,
                ..EulerOptions::default()
            };
            let t = generate::euler(shape, &options, |_| {}).expect("a small shape generates");
            let classes = t.classes.as_ref().expect("one entry a class");
            assert_eq!(
                t.winning.len() as u64,
                classes.entries().div_ceil(64).max(1)
            );
            assert_eq!(t.depth.is_none(), wdl_only, "{shape}");
            let (mut winning, mut losing) = (0, 0);
            for p in 0..=shape.full() {
                let (wins, plies) = oracle.get(p);
                assert_eq!(t.winning(p), wins, "{shape} position {p:#x}");
                if p != shape.full() {
                    if wins {
                        winning += 1;
                    } else {
                        losing += 1;
                    }
                }
                if wdl_only {
                    assert_eq!((t.plies(p), t.best_move(p)), (None, None));
                    continue;
                }
                assert_eq!(t.plies(p), Some(plies), "{shape} position {p:#x}: plies");
                // The best move: the first in the list to reach the other
                // outcome in one ply fewer, as the tables by position store.
                let achieves =
                    |m: u64| m & p == 0 && oracle.get(p | m) == (!wins, plies.wrapping_sub(1));
                let first = t.moves.iter().copied().find(|&m| achieves(m));
                assert_eq!(t.best_move(p), first, "{shape} position {p:#x}: best move");
                assert_eq!(first.is_none(), p == shape.full());
            }
            let s = &t.summary;
            assert_eq!((s.winning, s.losing), (winning, losing), "{shape}: counts");
            assert_eq!(
                s.empty == Outcome::Win,
                oracle.get(0).0,
                "{shape}: the empty board"
            );
            let moves_left = (!wdl_only).then(|| oracle.get(0).1);
            assert_eq!(s.empty_moves_left, moves_left, "{shape}");
            if classes.entries() < 1 << shape.cells() {
                smaller += 1;
            }
        }
    }
    // Every shape of 12 squares or more keeps fewer entries than positions.
    assert!(smaller >= 80, "{smaller} tables smaller by class");
}
