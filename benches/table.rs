//! Table files: the cost of `Table::open` for a small and a large file (it
//! reads the header and maps the file, so it should not depend on the
//! size), of a probe through a mapped table against the embedded arrays,
//! and of `verify`'s CRC pass. Run with `cargo bench --bench table`.
//!
//! The large file is a 5×5 Flip table (2^25 boards, 7 columns, 436 MB)
//! with every entry 0: its contents do not matter to opening or to the CRC
//! pass, and writing a real one needs the generator. It is written once
//! into the target directory and removed at the end.

use std::hint::black_box;
use std::path::{Path, PathBuf};

use boardbase::euler::{self, Position};
use boardbase::tablefile::{ColumnData, FlipColumns, Puzzle, Table};
use boardbase::tables::shape::Shape;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

/// 4,096 pseudo-random boards of `cells` cells (xorshift).
fn random_boards(cells: usize) -> Vec<u64> {
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    (0..4096)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x & ((1 << cells) - 1)
        })
        .collect()
}

fn dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("bench-table");
    std::fs::create_dir_all(&dir).expect("bench directory");
    dir
}

/// Writes the 4×4 Euler export and a 5×5 Flip table of zeros.
fn files() -> (PathBuf, PathBuf) {
    let dir = dir();
    let small = dir.join("euler-4x4.bin");
    Table::embedded(Puzzle::Euler)
        .write(&small, &mut |_| {})
        .expect("written");
    let large = dir.join("flip-5x5.bin");
    if !large.exists() {
        let n = 1 << 25;
        let zeros = || vec![0u8; n];
        let table = Table::from_flip(
            Shape::new(5, 5).expect("5x5"),
            FlipColumns {
                rounds: zeros(),
                rounds_white: zeros(),
                rounds_black: zeros(),
                presses_white: ColumnData::U32(vec![0; n]),
                presses_black: ColumnData::U32(vec![0; n]),
                optimal_sets_white: zeros(),
                optimal_sets_black: zeros(),
                classes: None,
            },
        )
        .expect("a valid table");
        table.write(&large, &mut |_| {}).expect("written");
    }
    (small, large)
}

fn bench(c: &mut Criterion) {
    let (small, large) = files();
    let mut g = c.benchmark_group("table_open");
    for path in [&small, &large] {
        let len = std::fs::metadata(path).expect("written").len();
        g.bench_function(format!("open {len} bytes"), |b| {
            b.iter(|| Table::open(black_box(path)).expect("opens"))
        });
    }
    g.finish();

    let mut g = c.benchmark_group("table_probe");
    let boards = random_boards(16);
    g.throughput(Throughput::Elements(boards.len() as u64));
    let mapped = Table::open(&small).expect("opens");
    let e = mapped.as_euler().expect("Euler");
    g.bench_function("euler outcome, mapped file", |b| {
        b.iter(|| {
            boards
                .iter()
                .map(|&x| u32::from(e.outcome(black_box(x)).expect("in range").is_win()))
                .sum::<u32>()
        })
    });
    g.bench_function("euler probe, mapped file", |b| {
        b.iter(|| {
            boards
                .iter()
                .map(|&x| {
                    u32::from(
                        e.probe(black_box(x))
                            .expect("in range")
                            .moves_left
                            .unwrap_or(0),
                    )
                })
                .sum::<u32>()
        })
    });
    g.bench_function("euler outcome, embedded array", |b| {
        b.iter(|| {
            boards
                .iter()
                .map(|&x| {
                    u32::from(euler::outcome(Position::from_bits(black_box(x) as u16)).is_win())
                })
                .sum::<u32>()
        })
    });
    let big = Table::open(&large).expect("opens");
    let f = big.as_flip().expect("Flip");
    let boards = random_boards(25);
    g.bench_function("flip rounds, mapped 436 MB file", |b| {
        b.iter(|| {
            boards
                .iter()
                .map(|&x| u32::from(f.rounds(black_box(x)).expect("in range").unwrap_or(9)))
                .sum::<u32>()
        })
    });
    g.finish();

    let mut g = c.benchmark_group("table_verify");
    g.sample_size(10);
    // The CRC pass of the large file (its entries, all 0, fail the
    // contents check right after: the time is the CRC pass).
    g.throughput(Throughput::Bytes(
        std::fs::metadata(&large).expect("written").len(),
    ));
    g.bench_function("crc pass, 436 MB mapped", |b| {
        b.iter(|| big.verify(&mut |_| {}).is_err())
    });
    g.finish();
    let _ = std::fs::remove_dir_all(dir());
}

criterion_group!(benches, bench);
criterion_main!(benches);
