//! Carcassonne counting: 50 cases of 12×12 (the judge's largest input) for
//! three families of boards.
//!
//! - `random`: uniformly random tiles over `C`, `R`, `F`.
//! - `planted`: random colours on every grid edge (so a valid placement
//!   exists), every tile then shown in a random rotation.
//! - `two_pair`: rotations of `RRFF`; every rotation is fixed by its top
//!   and left edges, so all `2^13 = 8,192` profiles stay reachable.
//!
//! Before timing, the reachable profiles per cell of each family are
//! printed once. Run with `cargo bench --bench carcassonne`.

use std::hint::black_box;

use boardbase::carcassonne::{Board, Tile, count, count_all, count_exact, profile_stats};
use criterion::{Criterion, criterion_group, criterion_main};

const CASES: usize = 50;
const SIDE: usize = 12;

/// SplitMix64, so the boards are the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn colour(&mut self) -> u8 {
        b"CRF"[self.below(3)]
    }
}

fn tile(code: [u8; 4]) -> Tile {
    Tile::try_from(&code[..]).expect("valid letters")
}

fn board(tiles: Vec<Tile>) -> Board {
    Board::new(SIDE, SIDE, tiles).expect("12×12")
}

fn random(rng: &mut Rng) -> Board {
    board(
        (0..SIDE * SIDE)
            .map(|_| tile([rng.colour(), rng.colour(), rng.colour(), rng.colour()]))
            .collect(),
    )
}

fn planted(rng: &mut Rng) -> Board {
    let horizontal: Vec<u8> = (0..(SIDE + 1) * SIDE).map(|_| rng.colour()).collect();
    let vertical: Vec<u8> = (0..SIDE * (SIDE + 1)).map(|_| rng.colour()).collect();
    let mut tiles = Vec::with_capacity(SIDE * SIDE);
    for r in 0..SIDE {
        for c in 0..SIDE {
            let t = tile([
                horizontal[r * SIDE + c],
                vertical[r * (SIDE + 1) + c + 1],
                horizontal[(r + 1) * SIDE + c],
                vertical[r * (SIDE + 1) + c],
            ]);
            tiles.push(t.rotated(rng.below(4) as u32));
        }
    }
    board(tiles)
}

fn two_pair(rng: &mut Rng) -> Board {
    let rrff = tile(*b"RRFF");
    board(
        (0..SIDE * SIDE)
            .map(|_| rrff.rotated(rng.below(4) as u32))
            .collect(),
    )
}

type Family = (&'static str, fn(&mut Rng) -> Board);

const FAMILIES: [Family; 3] = [
    ("random", random),
    ("planted", planted),
    ("two_pair", two_pair),
];

fn cases(make: fn(&mut Rng) -> Board) -> Vec<Board> {
    let mut rng = Rng(0x4064);
    (0..CASES).map(|_| make(&mut rng)).collect()
}

fn report(name: &str, boards: &[Board]) {
    let (mut max, mut mean, mut cells, mut solvable) = (0usize, 0f64, 0f64, 0usize);
    let n = boards.len() as f64;
    for b in boards {
        let s = profile_stats(b).expect("within budget");
        max = max.max(s.max);
        mean += s.mean / n;
        cells += s.cells as f64 / n;
        let exact = count_exact(b).expect("within budget");
        solvable += usize::from(exact != num_bigint::BigUint::ZERO);
    }
    println!(
        "carcassonne {name}: {CASES} cases of {SIDE}×{SIDE}; reachable profiles per cell: \
         max {max}, mean {mean:.1} (over the {cells:.1} cells placed on average before \
         none was left); {solvable} of {CASES} solvable"
    );
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("carcassonne_12x12_50_cases");
    for (name, make) in FAMILIES {
        let boards = cases(make);
        report(name, &boards);
        group.bench_function(name, |b| {
            b.iter(|| {
                for board in &boards {
                    black_box(count(black_box(board)).expect("within budget"));
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
