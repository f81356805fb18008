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

criterion_group!(benches, per_query);
criterion_main!(benches);
