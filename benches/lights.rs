//! Flip and Lights Out by GF(2) elimination, per query, against the
//! classical POJ 3279 solution (every first row, the lights chased row by
//! row with bitmasks) written here.
//!
//! Every board is made by pressing random cells of a white board, so it can
//! be made white and the null-space search really runs (a random board on a
//! singular shape is rarely solvable and would stop at the first check).
//! Run with `cargo bench --bench lights`.

use std::hint::black_box;

// The library's SplitMix64, so the boards are the same on every run.
use boardbase::cases::Rng;
use boardbase::lights::family::{ColourGrid, FamilyGoal, FamilySolver, Pattern, Variant};
use boardbase::lights::{Colour, Goal, Grid, Solver};
use boardbase::tables::shape::Shape;
use criterion::{BatchSize, Criterion, criterion_group, criterion_main};

/// `n` boards of `shape` that can be made white.
fn solvable_boards(rng: &mut Rng, shape: Shape, n: usize) -> Vec<Grid> {
    (0..n)
        .map(|_| {
            let rows: Vec<u64> = (0..shape.rows())
                .map(|_| rng.next_u64() & shape.row_mask())
                .collect();
            let presses = Grid::from_rows(shape, &rows).expect("rows fit");
            Grid::new(shape).apply(&presses)
        })
        .collect()
}

/// The classical judge solution on one board of up to 16 columns: the
/// fewest flips to white (first rows in lexicographic order, a strictly
/// smaller count replaces the best) and the first row of the answer.
fn classical(rows: &[u64], cols: usize) -> Option<(u32, u64)> {
    let full = (1u64 << cols) - 1;
    let mut best: Option<(u32, u64)> = None;
    let mut lit = [0u64; 16];
    for order in 0..1u64 << cols {
        let first = order.reverse_bits() >> (64 - cols);
        lit[..rows.len()].copy_from_slice(rows);
        let mut flips = 0;
        let mut press = first;
        for r in 0..rows.len() {
            if r > 0 {
                press = lit[r - 1];
                lit[r - 1] = 0;
            }
            flips += press.count_ones();
            lit[r] ^= (press ^ (press << 1) ^ (press >> 1)) & full;
            if r + 1 < rows.len() {
                lit[r + 1] ^= press;
            }
        }
        if lit[rows.len() - 1] == 0 && best.is_none_or(|(b, _)| flips < b) {
            best = Some((flips, first));
        }
    }
    best
}

fn per_query(c: &mut Criterion) {
    let mut rng = Rng::new(3279);
    let mut group = c.benchmark_group("lights");

    // POJ 3279's largest board: ours against the classical solution.
    let s15 = Shape::new(15, 15).unwrap();
    let boards = solvable_boards(&mut rng, s15, 64);
    let solver = Solver::cached(s15);
    for b in &boards {
        let ours = solver.route(b, Colour::White).unwrap().unwrap();
        let theirs = classical(b.rows(), 15).unwrap();
        assert_eq!((ours.rounds as u32, ours.presses.row(0)), theirs);
    }
    let mut i = 0;
    group.bench_function("fliptile 15x15 (nullity 0)", |bench| {
        bench.iter(|| {
            i = (i + 1) % boards.len();
            black_box(solver.route(black_box(&boards[i]), Colour::White))
        })
    });
    group.bench_function("classical judge solution 15x15", |bench| {
        bench.iter(|| {
            i = (i + 1) % boards.len();
            black_box(classical(black_box(boards[i].rows()), 15))
        })
    });

    // Other shapes: the white route, or both colours for Goal::Either.
    for (rows, cols, goal) in [
        (5, 6, Goal::White),
        (4, 4, Goal::Either),
        (5, 5, Goal::White),
        (9, 9, Goal::White),
        (19, 19, Goal::White),
        (32, 32, Goal::White),
        (62, 62, Goal::White),
        (64, 63, Goal::White),
    ] {
        let shape = Shape::new(rows, cols).unwrap();
        let solver = Solver::cached(shape);
        let boards = solvable_boards(&mut rng, shape, 16);
        let name = format!("{goal:?} {rows}x{cols} (nullity {})", solver.nullity()).to_lowercase();
        let mut i = 0;
        group.bench_function(name, |bench| {
            bench.iter(|| {
                i = (i + 1) % boards.len();
                black_box(solver.solve(black_box(&boards[i]), goal))
            })
        });
    }

    // 64×64: nullity 28. A press set at once; the proven fewest on request.
    let s64 = Shape::new(64, 64).unwrap();
    let solver = Solver::cached(s64);
    let boards = solvable_boards(&mut rng, s64, 4);
    let mut i = 0;
    group.bench_function("any solution 64x64 (nullity 28)", |bench| {
        bench.iter(|| {
            i = (i + 1) % boards.len();
            black_box(solver.any_solution(black_box(&boards[i]), Colour::White))
        })
    });
    group.sample_size(10);
    group.bench_function("white 64x64 (nullity 28), solve_within 28", |bench| {
        bench.iter(|| {
            i = (i + 1) % boards.len();
            black_box(solver.solve_within(black_box(&boards[i]), Goal::White, 28))
        })
    });
    group.finish();

    // What a shape costs the first time (Solver::cached keeps it).
    let mut group = c.benchmark_group("lights solver");
    for (rows, cols) in [(15, 15), (32, 32), (64, 64)] {
        let shape = Shape::new(rows, cols).unwrap();
        group.bench_function(format!("new {rows}x{cols}"), |bench| {
            bench.iter_batched(
                || shape,
                |s| black_box(Solver::new(s)),
                BatchSize::SmallInput,
            )
        });
    }
    group.finish();
}

/// The usual way (the Gauss solutions to POJ 1222, generalised to Z_p):
/// dense Gaussian elimination of the (R·C)×(R·C) press system with the
/// board as its right-hand side, over GF(p) for a prime `p`; one press
/// vector to all 0 (no search of the quiet patterns), `None` when there is
/// none.
fn dense_gauss(variant: &Variant, board: &[u8]) -> Option<Vec<u8>> {
    let n = board.len();
    let p = u32::from(variant.colours());
    let inverse = |a: u32| (1..p).find(|&b| a * b % p == 1).unwrap_or(1);
    // Row i: which presses change cell i, then what cell i lacks.
    let mut m = vec![vec![0u32; n + 1]; n];
    let reach: Vec<Vec<usize>> = (0..n).map(|j| variant.reach(j)).collect();
    for (j, cells) in reach.iter().enumerate() {
        for &i in cells {
            m[i][j] = 1;
        }
    }
    for (i, &b) in board.iter().enumerate() {
        m[i][n] = (p - u32::from(b)) % p;
    }
    let mut pivots = Vec::new();
    let mut row = 0;
    for col in 0..n {
        let Some(r) = (row..n).find(|&r| m[r][col] != 0) else {
            continue;
        };
        m.swap(row, r);
        let inv = inverse(m[row][col]);
        for v in m[row].iter_mut() {
            *v = *v * inv % p;
        }
        for r in 0..n {
            if r != row && m[r][col] != 0 {
                let f = m[r][col];
                let (pivot_row, other) = if r < row {
                    let (a, b) = m.split_at_mut(row);
                    (&b[0], &mut a[r])
                } else {
                    let (a, b) = m.split_at_mut(r);
                    (&a[row], &mut b[0])
                };
                for (x, &y) in other.iter_mut().zip(pivot_row.iter()) {
                    *x = (*x + p * p - f * y) % p;
                }
            }
        }
        pivots.push(col);
        row += 1;
    }
    if m[row..].iter().any(|r| r[n] != 0) {
        return None;
    }
    let mut x = vec![0u8; n];
    for (r, &c) in pivots.iter().enumerate() {
        x[c] = m[r][n] as u8;
    }
    Some(x)
}

/// `n` boards of a variant that can be made all 0 (random presses applied
/// to the all-0 board).
fn family_boards(rng: &mut Rng, solver: &FamilySolver, n: usize) -> Vec<ColourGrid> {
    let variant = solver.variant();
    let k = u64::from(variant.colours());
    (0..n)
        .map(|_| {
            let cells = (0..variant.shape().cells())
                .map(|_| (rng.next_u64() % k) as u8)
                .collect();
            let presses = ColourGrid::from_cells(variant.shape(), cells).expect("digits below K");
            solver.apply(&ColourGrid::new(variant.shape()), &presses)
        })
        .collect()
}

/// The family engine (`lights::family`) against dense Gaussian elimination
/// of the whole system, and on 64×64 boards of small quiet groups.
fn family(c: &mut Criterion) {
    let mut rng = Rng::new(19);
    let mut group = c.benchmark_group("lights family");
    group.sample_size(10);
    for k in [2u8, 3] {
        let variant = Variant::new(20, 20, k).expect("a variant");
        let solver = FamilySolver::cached(&variant);
        // The ring engine too for K = 2 (the family answers the classic
        // game with the GF(2) solver).
        let ring = FamilySolver::new_ring(&variant);
        let boards = family_boards(&mut rng, &solver, 8);
        for b in &boards {
            let x = dense_gauss(&variant, b.cells()).expect("solvable");
            let x = ColourGrid::from_cells(variant.shape(), x).expect("digits below K");
            assert_eq!(solver.apply(b, &x).uniform(), Some(0));
        }
        let quiet = solver.quiet_count();
        let mut i = 0;
        group.bench_function(format!("family 20x20 K={k} ({quiet} quiet)"), |bench| {
            bench.iter(|| {
                i = (i + 1) % boards.len();
                black_box(solver.solve(black_box(&boards[i]), FamilyGoal::OFF))
            })
        });
        if k == 2 {
            group.bench_function("family 20x20 K=2 over the ring", |bench| {
                bench.iter(|| {
                    i = (i + 1) % boards.len();
                    black_box(ring.solve(black_box(&boards[i]), FamilyGoal::OFF))
                })
            });
        }
        group.bench_function(format!("dense gauss 20x20 K={k}"), |bench| {
            bench.iter(|| {
                i = (i + 1) % boards.len();
                black_box(dense_gauss(&variant, black_box(boards[i].cells())))
            })
        });
    }
    for (k, wrap, pattern) in [
        (3u8, false, Pattern::Plus),
        (5, true, Pattern::Plus),
        (7, false, Pattern::King),
        (3, false, Pattern::X),
        (4, true, Pattern::King),
    ] {
        let variant = Variant::new(64, 64, k)
            .expect("a variant")
            .with_wrap(wrap)
            .with_pattern(pattern);
        let solver = FamilySolver::cached(&variant);
        let boards = family_boards(&mut rng, &solver, 4);
        let name = format!("family 64x64 {variant} ({} quiet)", solver.quiet_count());
        let mut i = 0;
        group.bench_function(name, |bench| {
            bench.iter(|| {
                i = (i + 1) % boards.len();
                black_box(solver.solve(black_box(&boards[i]), FamilyGoal::OFF))
            })
        });
    }
    group.finish();
}

criterion_group!(benches, per_query, family);
criterion_main!(benches);
