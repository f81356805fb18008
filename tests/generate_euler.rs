//! The Game of Euler generator (`boardbase::generate::euler`) against an
//! independent oracle, for every board shape of at most 20 squares.
//!
//! The oracle is written from the rules in `shared/problems/euler.md` and
//! shares nothing with the generator: its own move generator (every pin of
//! length 1 to 3 pushed in from each end of each row and column, and every
//! single square, as a set), and a memoized recursion from the top down
//! (the generator is bottom-up and bit-parallel). It knows who wins and how
//! long the game lasts; the generator's best move must be a legal move that
//! achieves that value, and the first such in the generator's move list.

use std::collections::BTreeSet;
use std::sync::Mutex;

use boardbase::euler::{self as euler4, Outcome, raw};
use boardbase::generate::{self, EulerOptions, EulerTables, GenerateError, NO_MOVE, Phase};
use boardbase::tables::shape::Shape;

/// Every shape of at most `max` cells.
fn shapes(max: usize) -> impl Iterator<Item = Shape> {
    (1..=max)
        .flat_map(move |rows| (1..=max / rows).map(move |cols| Shape::new(rows, cols).unwrap()))
}

/// The moves of a `rows`×`cols` board, from the rules: a pin pushed onto
/// any square, or a pin of 1, 2 or 3 squares slid in from one of the four
/// sides, covering that many squares from the border (when the line is
/// long enough).
fn oracle_moves(rows: usize, cols: usize) -> BTreeSet<u64> {
    let cell = |r: usize, c: usize| 1u64 << (cols * r + c);
    let mut moves = BTreeSet::new();
    for r in 0..rows {
        for c in 0..cols {
            moves.insert(cell(r, c));
        }
    }
    for len in 1..=3 {
        if len <= cols {
            for r in 0..rows {
                moves.insert((0..len).map(|k| cell(r, k)).fold(0, |a, b| a | b));
                moves.insert(
                    (0..len)
                        .map(|k| cell(r, cols - 1 - k))
                        .fold(0, |a, b| a | b),
                );
            }
        }
        if len <= rows {
            for c in 0..cols {
                moves.insert((0..len).map(|k| cell(k, c)).fold(0, |a, b| a | b));
                moves.insert(
                    (0..len)
                        .map(|k| cell(rows - 1 - k, c))
                        .fold(0, |a, b| a | b),
                );
            }
        }
    }
    moves
}

/// The oracle's values: bit 7 set when the player to move wins, the low
/// bits the plies left (winner hurries, loser resists); 0 = not yet known.
struct Oracle {
    moves: Vec<u64>,
    full: u64,
    memo: Vec<u8>,
}

const KNOWN: u8 = 0x40;
const WIN: u8 = 0x80;

impl Oracle {
    fn new(shape: Shape) -> Oracle {
        let cells = shape.cells();
        let mut oracle = Oracle {
            moves: oracle_moves(shape.rows(), shape.cols())
                .into_iter()
                .collect(),
            full: (1u64 << cells) - 1,
            memo: vec![0; 1 << cells],
        };
        for p in 0..=oracle.full {
            oracle.value(p);
        }
        oracle
    }

    /// (wins, plies) of `p`, by recursion: the full board is won with 0
    /// plies; otherwise a move to a lost position wins, the fastest such
    /// one; else the longest move loses.
    fn value(&mut self, p: u64) -> (bool, u8) {
        let v = self.memo[p as usize];
        if v & KNOWN != 0 {
            return (v & WIN != 0, v & 0x3F);
        }
        let result = if p == self.full {
            (true, 0)
        } else {
            let mut fastest_win: Option<u8> = None;
            let mut longest: Option<u8> = None;
            for i in 0..self.moves.len() {
                let m = self.moves[i];
                if m & p != 0 {
                    continue;
                }
                let (wins, plies) = self.value(p | m);
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
        self.memo[p as usize] = KNOWN | if result.0 { WIN } else { 0 } | result.1;
        result
    }

    fn get(&self, p: u64) -> (bool, u8) {
        let v = self.memo[p as usize];
        assert!(v & KNOWN != 0);
        (v & WIN != 0, v & 0x3F)
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
    assert_eq!(
        listed,
        oracle.moves.iter().copied().collect(),
        "{shape}: moves"
    );

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
    for shape in shapes(20) {
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
            matches!(err, GenerateError::TooManyCells { cells, max: 36, .. } if cells == rows * cols),
            "{err:?}"
        );
        let err = generate::euler(shape, &EulerOptions::default(), |_| {}).unwrap_err();
        assert!(matches!(err, GenerateError::TooManyCells { .. }), "{err:?}");
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
    // Past 25 squares the default is win/loss only.
    let six = Shape::new(5, 6).unwrap();
    assert!(!generate::euler_full_tables(six, &EulerOptions::default()));
    assert!(generate::euler_full_tables(shape, &EulerOptions::default()));
    assert!(!generate::euler_full_tables(shape, &wdl_options));

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
