//! Carcassonne counting: 50 cases of 12×12 (the judge's largest input) for
//! three categories of boards, drawn by `boardbase::cases::carcassonne`
//! (the generator `boardbase gen` uses) from seed 0x4064.
//!
//! - `random`: uniformly random tiles over `C`, `R`, `F`.
//! - `planted`: random colours on every grid edge (so a valid placement
//!   exists), every tile then shown in a random rotation.
//! - `two_pair`: rotations of one two-pair tile (`RRFF`, `CCFF` or `CCRR`);
//!   every rotation is fixed by its top and left edges, so all
//!   `2^13 = 8,192` two-colour profiles stay reachable.
//!
//! Before timing, the reachable profiles per cell of each category are
//! printed once. Run with `cargo bench --bench carcassonne`.

use std::hint::black_box;

use boardbase::carcassonne::{Board, CountOptions, count, count_all, profile_stats};
use boardbase::cases::Rng;
use boardbase::cases::carcassonne::CarcassonneCategory;
use criterion::{Criterion, criterion_group, criterion_main};

const CASES: usize = 50;
const SIDE: usize = 12;

const CATEGORIES: [(&str, CarcassonneCategory); 3] = [
    ("random", CarcassonneCategory::Random),
    ("planted", CarcassonneCategory::Planted),
    ("two_pair", CarcassonneCategory::TwoPair),
];

fn cases(category: CarcassonneCategory) -> Vec<Board> {
    let mut rng = Rng::new(0x4064);
    (0..CASES)
        .map(|_| category.board(&mut rng, SIDE, SIDE).expect("12×12"))
        .collect()
}

fn report(name: &str, boards: &[Board]) {
    let (mut max, mut mean, mut cells, mut solvable) = (0usize, 0f64, 0f64, 0usize);
    let n = boards.len() as f64;
    for b in boards {
        let s = profile_stats(b).expect("within budget");
        max = max.max(s.max);
        mean += s.mean / n;
        cells += s.cells as f64 / n;
        let exact = CountOptions {
            exact: true,
            ..CountOptions::default()
        };
        let counted = count(b, &exact, || false).expect("within budget");
        solvable += usize::from(counted.exact != Some(num_bigint::BigUint::ZERO));
    }
    println!(
        "carcassonne {name}: {CASES} cases of {SIDE}×{SIDE}; reachable profiles per cell: \
         max {max}, mean {mean:.1} (over the {cells:.1} cells placed on average before \
         none was left); {solvable} of {CASES} solvable"
    );
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("carcassonne_12x12_50_cases");
    for (name, category) in CATEGORIES {
        let boards = cases(category);
        report(name, &boards);
        let options = CountOptions::default();
        group.bench_function(name, |b| {
            b.iter(|| {
                for board in &boards {
                    let counted = count(black_box(board), &options, || false);
                    black_box(counted.expect("within budget"));
                }
            })
        });
        group.bench_function(format!("{name}_parallel"), |b| {
            b.iter(|| black_box(count_all(black_box(&boards))))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
