//! The Lights Out family (`boardbase::lights::family`) against
//! the brute force of `tests/oracle/family.rs`, which applies every press
//! vector press by press: every named pattern, a lopsided stencil and the
//! knight's, with and without wrap, for K = 2, 3, 4, 5, 6, on shapes of at
//! most 2^20 press vectors. For each variant it checks, over every board
//! (or a sample of random and of solvable boards where there are more than
//! 1,024), towards every colour and any colour: solvable or not, the
//! fewest presses, the number of optimal vectors and the tie rule's
//! vector; every vector returned is replayed under the oracle's rules. The
//! move values, the quiet patterns' group, the number of solvable boards
//! and the histogram are checked too; then published facts, bad input,
//! the limit, and the classic game against `lights::solve`.

use boardbase::lights::family::{
    self, ColourGrid, FamilyGoal, FamilySolver, Pattern, Stencil, StencilErrorKind, Variant,
};
use boardbase::lights::{self, Goal, Grid, LightsError};
use boardbase::tables::shape::Shape;

use crate::common::SplitMix;
use crate::oracle::family::{self as rules, BruteForce, Rules, Solution};

/// A stencil with no symmetry: the cell, the one above right and the two
/// below left.
const LOPSIDED: &str = "..#/.#./##.";

/// The patterns checked: the library's, and the oracle's text of each.
fn patterns() -> Vec<(Pattern, &'static str)> {
    vec![
        (Pattern::Plus, rules::PLUS),
        (Pattern::Neighbours, rules::NEIGHBOURS),
        (Pattern::X, rules::X),
        (Pattern::King, rules::KING),
        (LOPSIDED.parse().unwrap(), LOPSIDED),
        (Stencil::KNIGHT.parse().unwrap(), rules::KNIGHT),
    ]
}

/// (K, rows, cols): at most 2^20 press vectors each.
const SHAPES: [(u8, usize, usize); 14] = [
    (2, 3, 3),
    (2, 4, 4),
    (2, 2, 5),
    (2, 4, 5),
    (3, 2, 2),
    (3, 3, 3),
    (3, 3, 4),
    (4, 2, 3),
    (4, 3, 3),
    (5, 2, 2),
    (5, 2, 3),
    (5, 2, 4),
    (6, 2, 2),
    (6, 2, 3),
];

fn answer_of(a: Option<family::FamilyAnswer>) -> Option<Solution> {
    a.map(|a| Solution {
        colour: a.colour,
        rounds: a.rounds,
        count: a.optimal_sets,
        presses: a.presses.cells().to_vec(),
    })
}

/// The boards checked: all of them up to 1,024, else 150 random ones and
/// 150 made by random presses from a uniform board (solvable).
fn boards(rules: &Rules, rng: &mut SplitMix) -> Vec<Vec<u8>> {
    let (n, k) = (rules.cells(), u64::from(rules.k));
    let total = k.pow(n as u32);
    if total <= 1024 {
        return (0..total)
            .map(|mut i| {
                (0..n)
                    .map(|_| {
                        let d = (i % k) as u8;
                        i /= k;
                        d
                    })
                    .collect()
            })
            .collect();
    }
    let mut out = Vec::new();
    for j in 0..300 {
        let random: Vec<u8> = (0..n).map(|_| (rng.next() % k) as u8).collect();
        if j % 2 == 0 {
            out.push(random);
        } else {
            let colour = (rng.next() % k) as u8;
            out.push(rules.apply(&vec![colour; n], &random));
        }
    }
    out
}

/// Every variant of the grid of patterns, wraps and shapes, against the
/// brute force: the answers, their replay, and the structure.
#[test]
fn every_variant_agrees_with_brute_force() {
    let mut rng = SplitMix(19);
    let mut checked = 0usize;
    for (pattern, text) in patterns() {
        for wrap in [false, true] {
            for (k, rows, cols) in SHAPES {
                let rules = Rules::new(rows, cols, k, wrap, text);
                let oracle = BruteForce::new(&rules);
                let variant = Variant::new(rows, cols, k)
                    .unwrap()
                    .with_wrap(wrap)
                    .with_pattern(pattern.clone());
                let mut solvers = vec![FamilySolver::cached(&variant)];
                if variant.is_classic() {
                    assert!(solvers[0].is_gf2());
                    solvers.push(std::sync::Arc::new(FamilySolver::new_ring(&variant)));
                }
                for solver in &solvers {
                    check_structure(solver, &oracle, &variant);
                    for board in boards(&rules, &mut rng) {
                        let grid = ColourGrid::from_cells(variant.shape(), board.clone()).unwrap();
                        for goal in (0..k).map(FamilyGoal::Colour).chain([FamilyGoal::Any]) {
                            let ours = answer_of(solver.solve(&grid, goal).unwrap());
                            let theirs = match goal {
                                FamilyGoal::Colour(d) => oracle.to_colour(&board, d),
                                FamilyGoal::Any => oracle.to_any(&board),
                            };
                            assert_eq!(ours, theirs, "{variant}: {grid:?} to {goal}");
                            if let Some(s) = ours {
                                let after = rules.apply(&board, &s.presses);
                                assert!(after.iter().all(|&c| c == s.colour), "{variant}: replay");
                            }
                            checked += 1;
                        }
                    }
                }
            }
        }
    }
    assert!(checked > 100_000, "{checked} answers checked");
}

/// The quiet patterns, the solvable boards and the histogram of a variant
/// against the brute force.
fn check_structure(solver: &FamilySolver, oracle: &BruteForce, variant: &Variant) {
    let info = solver.info();
    let quiet = oracle.quiet();
    let k = u32::from(variant.colours());
    assert_eq!(
        info.quiet_group.order(),
        (quiet.len() as u64).into(),
        "{variant}"
    );
    // The group is fixed by how many of its elements each m | K kills.
    for m in (1..=k).filter(|m| k % m == 0) {
        let killed = quiet
            .iter()
            .filter(|q| q.iter().all(|&v| u32::from(v) * m % k == 0))
            .count() as u64;
        let expected: u64 = info
            .quiet_group
            .invariant_factors()
            .iter()
            .map(|&n| u64::from(gcd(m, n)))
            .product();
        assert_eq!(
            killed, expected,
            "{variant}: {} killed by {m}",
            info.quiet_group
        );
    }
    if (2..k).all(|p| k % p != 0) {
        let nullity = info.nullity.expect("a prime K has a nullity");
        assert_eq!(
            u64::from(k).pow(nullity as u32),
            quiet.len() as u64,
            "{variant}"
        );
    } else {
        assert_eq!(info.nullity, None);
    }
    // The generators are quiet, and their combinations with coefficients
    // below the orders are every quiet pattern once.
    let zero = vec![0u8; oracle.rules.cells()];
    let mut combos = vec![zero.clone()];
    for (g, &o) in info.quiet_generators.iter().zip(&info.generator_orders) {
        assert_eq!(
            oracle.rules.apply(&zero, g.cells()),
            zero,
            "{variant}: {g:?} is quiet"
        );
        combos = combos
            .iter()
            .flat_map(|c| {
                (0..o).map(move |j| {
                    c.iter()
                        .zip(g.cells())
                        .map(|(&a, &b)| ((u32::from(a) + j * u32::from(b)) % k) as u8)
                        .collect::<Vec<u8>>()
                })
            })
            .collect();
    }
    combos.sort();
    let mut quiet_sorted = quiet.clone();
    quiet_sorted.sort();
    assert_eq!(
        combos, quiet_sorted,
        "{variant}: the generators' combinations"
    );
    assert_eq!(
        info.solvable_boards,
        oracle.solvable_boards().into(),
        "{variant}"
    );
    let histogram = oracle.histogram();
    assert_eq!(info.histogram.as_ref(), Some(&histogram), "{variant}");
    assert_eq!(info.max_presses, Some(histogram.len() - 1), "{variant}");
}

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// Every press valued: the fewest presses after it, as the brute force
/// answers the board after that press; best first.
#[test]
fn move_values_agree_with_brute_force() {
    let mut rng = SplitMix(1222);
    for (pattern, text) in patterns() {
        for wrap in [false, true] {
            for (k, rows, cols) in [
                (2, 3, 4),
                (3, 3, 3),
                (4, 2, 3),
                (5, 2, 3),
                (6, 2, 3),
                (2, 4, 4),
            ] {
                let rules = Rules::new(rows, cols, k, wrap, text);
                let oracle = BruteForce::new(&rules);
                let variant = Variant::new(rows, cols, k)
                    .unwrap()
                    .with_wrap(wrap)
                    .with_pattern(pattern.clone());
                let mut solvers = vec![FamilySolver::cached(&variant)];
                if variant.is_classic() {
                    solvers.push(std::sync::Arc::new(FamilySolver::new_ring(&variant)));
                }
                for solver in &solvers {
                    for board in boards(&rules, &mut rng).into_iter().take(40) {
                        let grid = ColourGrid::from_cells(variant.shape(), board.clone()).unwrap();
                        for goal in [
                            FamilyGoal::Colour((rng.next() % u64::from(k)) as u8),
                            FamilyGoal::Any,
                        ] {
                            let ours = solver.move_values(&grid, goal).unwrap();
                            let direct = answer_of(solver.solve(&grid, goal).unwrap());
                            let Some(ours) = ours else {
                                assert_eq!(direct, None, "{variant}");
                                continue;
                            };
                            assert_eq!(answer_of(Some(ours.answer.clone())), direct, "{variant}");
                            assert_eq!(ours.moves.len(), rules.cells());
                            let mut last = (0, 0, 0);
                            for (i, v) in ours.moves.iter().enumerate() {
                                let mut after = board.clone();
                                rules.press(&mut after, v.row * cols + v.col);
                                let theirs = match goal {
                                    FamilyGoal::Colour(d) => oracle.to_colour(&after, d),
                                    FamilyGoal::Any => oracle.to_any(&after),
                                };
                                let theirs = theirs.expect("a press keeps the goal reachable");
                                assert_eq!(
                                    v.rounds_after, theirs.rounds,
                                    "{variant}: {grid:?} to {goal}, press ({}, {})",
                                    v.row, v.col
                                );
                                let key = (v.rounds_after, v.row, v.col);
                                assert!(i == 0 || key > last, "best first");
                                last = key;
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Published facts: the classic n×n nullities (4×4: 4, 5×5: 2, 9×9: 8,
/// 19×19: 16), by the GF(2) fast path and by the ring engine alike.
#[test]
fn classic_nullities() {
    for (n, nullity) in [(4, 4), (5, 5 - 3), (9, 8), (19, 16), (6, 0), (11, 6)] {
        let variant = Variant::new(n, n, 2).unwrap();
        let fast = family::info(&variant);
        let ring = FamilySolver::new_ring(&variant).info();
        assert_eq!(fast.nullity, Some(nullity), "{n}x{n}");
        assert_eq!(ring.nullity, Some(nullity), "{n}x{n} over the ring");
        assert_eq!(ring.quiet_group, fast.quiet_group);
        assert_eq!(
            fast.solvable_boards,
            num_bigint::BigUint::from(2u32).pow((n * n - nullity) as u32)
        );
    }
}

/// Published facts: God's number for the classic 5×5 to all off is 15,
/// over the 2^23 solvable of its 2^25 boards (the first counts are C(25, n):
/// up to 3 presses, no two press sets make the same board, the lightest
/// quiet pattern pressing 8 cells); and the 4×4 histogram agrees with the
/// brute force.
#[test]
fn gods_number_of_the_classic_5x5() {
    let info = family::info(&Variant::new(5, 5, 2).unwrap());
    assert_eq!(info.max_presses, Some(15));
    let histogram = info.histogram.unwrap();
    assert_eq!(histogram.iter().sum::<u64>(), 1 << 23);
    assert_eq!(histogram[..4], [1, 25, 300, 2300]);
    let oracle = BruteForce::new(&Rules::new(4, 4, 2, false, rules::PLUS));
    let info = family::info(&Variant::new(4, 4, 2).unwrap());
    assert_eq!(info.histogram, Some(oracle.histogram()));
}

/// The classic game through the family is the GF(2) solver's answer
/// (`lights::solve`), and so is the ring engine's, on random boards of
/// several shapes, for both colours and either.
#[test]
fn classic_game_equals_lights_solve() {
    let mut rng = SplitMix(3279);
    for (rows, cols) in [
        (1, 1),
        (3, 7),
        (4, 4),
        (5, 5),
        (6, 5),
        (9, 9),
        (12, 10),
        (16, 16),
        (19, 19),
        (20, 20),
    ] {
        let shape = Shape::new(rows, cols).unwrap();
        let variant = Variant::new(rows, cols, 2).unwrap();
        let ring = FamilySolver::new_ring(&variant);
        for i in 0..12 {
            let mut cells: Vec<u8> = (0..shape.cells()).map(|_| (rng.next() & 1) as u8).collect();
            if i % 2 == 1 {
                // Solvable: a white board after random presses.
                let presses = ColourGrid::from_cells(shape, cells).unwrap();
                cells = ring
                    .apply(&ColourGrid::new(shape), &presses)
                    .cells()
                    .to_vec();
            }
            let board = ColourGrid::from_cells(shape, cells.clone()).unwrap();
            let mut grid = Grid::new(shape);
            for (j, &c) in cells.iter().enumerate() {
                grid.set(j / cols, j % cols, c == 1);
            }
            for (goal, classic) in [
                (FamilyGoal::Colour(0), Goal::White),
                (FamilyGoal::Colour(1), Goal::Black),
                (FamilyGoal::Any, Goal::Either),
            ] {
                let theirs = lights::solve(&grid, classic).unwrap().map(|a| {
                    let presses = (0..rows * cols)
                        .map(|j| u8::from(a.presses.get(j / cols, j % cols)))
                        .collect::<Vec<u8>>();
                    Solution {
                        colour: a.colour as u8,
                        rounds: a.rounds,
                        count: a.optimal_sets,
                        presses,
                    }
                });
                let fast = answer_of(family::solve(&variant, &board, goal).unwrap());
                assert_eq!(fast, theirs, "{rows}x{cols} {goal}");
                let slow = answer_of(ring.solve(&board, goal).unwrap());
                assert_eq!(slow, theirs, "{rows}x{cols} {goal} over the ring");
            }
        }
    }
}

/// Large boards: press vectors that reach the goal under the oracle's
/// rules, for several variants of small quiet groups up to 64×64.
#[test]
fn large_boards_replay() {
    let mut rng = SplitMix(64);
    for (rows, cols, k, wrap, pattern, text) in [
        (64, 64, 3, false, Pattern::Plus, rules::PLUS),
        (64, 63, 5, true, Pattern::Plus, rules::PLUS),
        (40, 64, 7, false, Pattern::King, rules::KING),
        (33, 31, 4, true, Pattern::X, rules::X),
        (30, 30, 6, false, Pattern::Neighbours, rules::NEIGHBOURS),
    ] {
        let variant = Variant::new(rows, cols, k)
            .unwrap()
            .with_wrap(wrap)
            .with_pattern(pattern);
        let solver = FamilySolver::cached(&variant);
        let rules = Rules::new(rows, cols, k, wrap, text);
        for _ in 0..3 {
            let presses: Vec<u8> = (0..rows * cols)
                .map(|_| (rng.next() % u64::from(k)) as u8)
                .collect();
            let colour = (rng.next() % u64::from(k)) as u8;
            let board = rules.apply(&vec![colour; rows * cols], &presses);
            let grid = ColourGrid::from_cells(variant.shape(), board.clone()).unwrap();
            let found = solver
                .any_solution(&grid, colour)
                .unwrap()
                .expect("made from a uniform board");
            assert!(
                rules
                    .apply(&board, found.cells())
                    .iter()
                    .all(|&c| c == colour),
                "{variant}"
            );
            if solver.is_exact() {
                let a = solver
                    .solve(&grid, FamilyGoal::Colour(colour))
                    .unwrap()
                    .unwrap();
                assert!(
                    rules
                        .apply(&board, a.presses.cells())
                        .iter()
                        .all(|&c| c == colour)
                );
                assert!(a.rounds <= found.total());
            }
        }
    }
}

/// Bad input: digits of K or more, malformed and even stencils, K out of
/// range, goals and cells past K, the shape; each a typed error with its
/// place.
#[test]
fn bad_input_is_refused_with_its_place() {
    let e = ColourGrid::parse("012\n213", 3).unwrap_err();
    assert_eq!((e.line, e.column, e.expected), (2, 3, "a colour 0 to 2"));
    let e = ColourGrid::parse("0 1\n2 a", 10).unwrap_err();
    assert_eq!((e.line, e.column, e.expected), (2, 3, "a colour 0 to 9"));
    let g = ColourGrid::parse("0 f\nA 9", 16).unwrap();
    assert_eq!(g.cells(), [0, 15, 10, 9]);
    let e = ColourGrid::parse("01/0", 2).unwrap_err();
    assert_eq!((e.line, e.column), (1, 5));
    let e = ColourGrid::parse("01\n011", 2).unwrap_err();
    assert_eq!((e.line, e.column), (2, 3));
    let e = ColourGrid::parse("01\n\n01", 2).unwrap_err();
    assert_eq!(
        (e.line, e.column, e.expected),
        (3, 1, "the end of the board")
    );
    assert!(ColourGrid::parse("", 2).is_err());

    let stencil = |s: &str| s.parse::<Stencil>().unwrap_err();
    assert_eq!(
        stencil(".#./#x#/.#."),
        LightsError::Stencil {
            column: 6,
            kind: StencilErrorKind::Char('x')
        }
    );
    assert_eq!(
        stencil(".#./##/.#."),
        LightsError::Stencil {
            column: 7,
            kind: StencilErrorKind::RaggedRow {
                expected: 3,
                found: 2
            }
        }
    );
    assert_eq!(
        stencil("##/##"),
        LightsError::Stencil {
            column: 3,
            kind: StencilErrorKind::EvenWidth(2)
        }
    );
    assert_eq!(
        stencil("###/###"),
        LightsError::Stencil {
            column: 8,
            kind: StencilErrorKind::EvenHeight(2)
        }
    );
    let kind = |s: &str| match stencil(s) {
        LightsError::Stencil { kind, .. } => kind,
        e => panic!("{e:?}"),
    };
    assert_eq!(kind("..."), StencilErrorKind::NoCell);
    assert_eq!(kind(""), StencilErrorKind::EmptyRow);
    assert_eq!(kind("#//#"), StencilErrorKind::EmptyRow);
    assert!(matches!(
        "plux".parse::<Pattern>(),
        Err(LightsError::Pattern(_))
    ));

    assert_eq!(Variant::new(3, 3, 1), Err(LightsError::Colours(1)));
    assert_eq!(Variant::new(3, 3, 17), Err(LightsError::Colours(17)));
    assert_eq!(
        Variant::with_colours(3, 3, 300),
        Err(LightsError::Colours(300))
    );
    assert_eq!(
        Variant::new(65, 3, 2),
        Err(LightsError::Size { rows: 65, cols: 3 })
    );
    assert!("16".parse::<FamilyGoal>().is_err());
    assert_eq!("f".parse::<FamilyGoal>(), Ok(FamilyGoal::Colour(15)));

    let variant = Variant::new(2, 2, 3).unwrap();
    let board = ColourGrid::parse("01/20", 3).unwrap();
    assert_eq!(
        family::solve(&variant, &board, FamilyGoal::Colour(3)),
        Err(LightsError::GoalColour {
            colour: 3,
            colours: 3
        })
    );
    let four = ColourGrid::parse("01/23", 4).unwrap();
    assert_eq!(
        family::solve(&variant, &four, FamilyGoal::Any),
        Err(LightsError::CellColour {
            row: 1,
            col: 1,
            colour: 3,
            colours: 3
        })
    );
    let wide = ColourGrid::parse("012/201", 3).unwrap();
    assert!(matches!(
        family::solve(&variant, &wide, FamilyGoal::Any),
        Err(LightsError::ShapeMismatch { .. })
    ));
}

/// The limit: past 2^max_bits quiet patterns no answer is claimed; a raised
/// limit answers, and agrees with the brute force.
#[test]
fn the_search_limit_refuses_and_can_be_raised() {
    // 4×4 classic: 2^4 quiet patterns (the GF(2) path).
    let variant = Variant::new(4, 4, 2).unwrap();
    let board = ColourGrid::parse("1000/0000/0000/0000", 2).unwrap();
    let e = family::solve_within(&variant, &board, FamilyGoal::OFF, 3).unwrap_err();
    assert!(
        matches!(e, LightsError::SearchTooLarge { ref quiet, max_bits: 3, .. } if quiet == "16")
    );
    assert!(family::solve_within(&variant, &board, FamilyGoal::OFF, 4).is_ok());
    // 4×4 over Z_4: 2^6 quiet patterns (the ring path).
    let variant = Variant::new(4, 4, 4).unwrap();
    let solver = FamilySolver::cached(&variant);
    let board = ColourGrid::parse("1230/0000/0000/0000", 4).unwrap();
    let e = solver.solve_within(&board, FamilyGoal::Any, 5).unwrap_err();
    assert!(
        matches!(e, LightsError::SearchTooLarge { ref quiet, max_bits: 5, .. } if quiet == "64")
    );
    assert!(e.to_string().contains("64 quiet patterns"), "{e}");
    let e = solver
        .move_values_within(&board, FamilyGoal::Any, 5)
        .unwrap_err();
    assert!(matches!(e, LightsError::SearchTooLarge { .. }));
    assert!(solver.solve_within(&board, FamilyGoal::Any, 6).is_ok());
}
