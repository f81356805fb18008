//! Per-query cost of the embedded tables and throughput of the streaming
//! parser. Run with `cargo bench --bench lookup`.

use std::hint::black_box;

use boardbase::flip::{self, Board, raw};
use boardbase::input::Scanner;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

/// 4,096 pseudo-random boards (xorshift), so lookups are not all cache hits
/// on one line.
fn boards() -> Vec<u16> {
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    (0..4096)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u16
        })
        .collect()
}

fn flip_lookup(c: &mut Criterion) {
    let boards = boards();
    let mut g = c.benchmark_group("flip_lookup");
    g.throughput(Throughput::Elements(boards.len() as u64));
    g.bench_function("rounds (packed 32 KiB table)", |b| {
        b.iter(|| {
            boards
                .iter()
                .map(|&x| u32::from(flip::rounds(Board::from_bits(black_box(x))).unwrap_or(9)))
                .sum::<u32>()
        })
    });
    g.bench_function("rounds (min of two 64 KiB tables)", |b| {
        b.iter(|| {
            boards
                .iter()
                .map(|&x| {
                    let i = usize::from(black_box(x));
                    u32::from(raw::ROUNDS[0][i].min(raw::ROUNDS[1][i]))
                })
                .sum::<u32>()
        })
    });
    g.bench_function("solve (full solution)", |b| {
        b.iter(|| {
            boards
                .iter()
                .filter_map(|&x| flip::solve(Board::from_bits(black_box(x))))
                .count()
        })
    });
    g.finish();
}

fn flip_parse(c: &mut Criterion) {
    let text: String = boards()
        .iter()
        .map(|&b| Board::from_bits(b).to_string() + "\n")
        .collect();
    let mut g = c.benchmark_group("flip_parse");
    g.throughput(Throughput::Bytes(text.len() as u64));
    g.bench_function("scanner canonical", |b| {
        b.iter(|| {
            let mut s = Scanner::new(text.as_bytes());
            let mut n = 0u32;
            while let Some(board) = s.read_grid(&flip::ALPHABET).unwrap() {
                n = n.wrapping_add(u32::from(board));
            }
            n
        })
    });
    let crlf = text.replace('\n', "\r\n");
    g.bench_function("scanner CRLF (general path)", |b| {
        b.iter(|| {
            let mut s = Scanner::new(crlf.as_bytes());
            let mut n = 0u32;
            while let Some(board) = s.read_grid(&flip::ALPHABET).unwrap() {
                n = n.wrapping_add(u32::from(board));
            }
            n
        })
    });
    g.finish();
}

criterion_group!(benches, flip_lookup, flip_parse);
criterion_main!(benches);
