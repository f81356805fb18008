//! Per-query cost of the embedded tables and throughput of the streaming
//! parser. Run with `cargo bench --bench lookup`.
//!
//! Every lookup benchmark answers the same 4,096 pseudo-random boards per
//! iteration (criterion's time / 4,096 = ns a query). Beside the dense
//! tables the library ships, the alternatives one could have chosen
//! instead, built at bench time and checked against the tables first:
//!
//! - Flip (4,096 solvable boards of 65,536): `std` `HashMap` (SipHash and a
//!   multiplicative hash), a sorted `Vec` with binary search, a perfect-hash
//!   map (`phf_generator`, as `phf::Map::get` looks up) and computing the
//!   answer per query by light chasing (16 first-row press sets per colour,
//!   the rest of the presses forced row by row).
//! - Euler (an answer for each of 65,536 positions): the same maps over all
//!   positions, a 8 KiB bitset of the winning positions, and a memoized
//!   search per query (memo cleared between queries).
//!
//! The heap size of each alternative is printed before the timings.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::hint::black_box;

use boardbase::euler::{self, Move, Position};
use boardbase::flip::{self, Board, raw};
use boardbase::input::Scanner;
use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main};

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
            // Every field is used, so no table read can be left out.
            boards
                .iter()
                .filter_map(|&x| flip::solve(Board::from_bits(black_box(x))))
                .map(|s| {
                    u32::from(s.rounds)
                        + u32::from(s.presses.bits())
                        + u32::from(s.optimal_sets)
                        + u32::from(s.to_white.presses.bits())
                        + u32::from(s.to_black.presses.bits())
                })
                .sum::<u32>()
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

/// Benchmarks `f` over every key of `keys` per iteration (monomorphised,
/// so every candidate is inlined the same way).
fn each(g: &mut BenchmarkGroup<'_, WallTime>, name: &str, keys: &[u16], f: impl Fn(u16) -> u32) {
    g.bench_function(name, |b| {
        b.iter(|| keys.iter().map(|&k| f(black_box(k))).sum::<u32>())
    });
}

/// Like [`each`], but every key is XORed with the previous answer spread
/// over all 16 bits (so that no part of the address is known without it):
/// each lookup waits for the one before (latency, not throughput).
fn chained(g: &mut BenchmarkGroup<'_, WallTime>, name: &str, keys: &[u16], f: impl Fn(u16) -> u32) {
    g.bench_function(name, |b| {
        b.iter(|| {
            keys.iter().fold(0u32, |last, &k| {
                f(black_box(k) ^ (last as u16).wrapping_mul(0x9E37))
            })
        })
    });
}

/// A multiplicative (Fibonacci) hash, as FxHash does: no SipHash rounds.
#[derive(Default)]
struct MulHasher(u64);

impl Hasher for MulHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u16(&mut self, x: u16) {
        self.write_u64(u64::from(x));
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0 ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

type MulMap = HashMap<u16, u8, BuildHasherDefault<MulHasher>>;

/// Heap bytes of a `HashMap<u16, u8>` holding `len` entries (hashbrown:
/// a power-of-two number of 4-byte buckets at most 7/8 full, plus one
/// control byte per bucket and 16 more).
fn hash_map_bytes(len: usize) -> usize {
    let buckets = (len * 8).div_ceil(7).next_power_of_two();
    buckets * std::mem::size_of::<(u16, u8)>() + buckets + 16
}

/// A perfect-hash map built at bench time, looked up as `phf::Map::get`
/// does: SipHash-1-3 of the key, one displacement, one key comparison.
struct Phf {
    key: phf_shared::HashKey,
    disps: Vec<(u32, u32)>,
    entries: Vec<(u16, u8)>,
}

impl Phf {
    fn new(pairs: &[(u16, u8)]) -> Phf {
        let keys: Vec<u16> = pairs.iter().map(|p| p.0).collect();
        let state = phf_generator::generate_hash(&keys);
        Phf {
            key: state.key,
            disps: state.disps,
            entries: state.map.iter().map(|&i| pairs[i]).collect(),
        }
    }

    #[inline]
    fn get(&self, key: u16) -> Option<u8> {
        let hashes = phf_shared::hash(&key, &self.key);
        let i = phf_shared::get_index(&hashes, &self.disps, self.entries.len());
        let (k, v) = self.entries[i as usize];
        (k == key).then_some(v)
    }

    fn bytes(&self) -> usize {
        self.disps.len() * 8 + self.entries.len() * std::mem::size_of::<(u16, u8)>()
    }
}

/// Fewest rounds to a uniform board computed per query, by light chasing:
/// for each colour and each of the 16 press sets of the first row, every
/// later row's presses are forced (press under each cell of the row above
/// that is not yet the colour); keep the fewest that end uniform.
fn chase_rounds(board: u16) -> Option<u8> {
    let mut best = u32::MAX;
    for target in [0u16, u16::MAX] {
        for first in 0..16u16 {
            let (mut b, mut presses, mut row) = (board, 0u32, first);
            for r in 0..4 {
                // Pressing the cells `row` of row r flips them and their
                // neighbours in the row, and the same cells above and below.
                let within = (row ^ (row << 1) ^ (row >> 1)) & 0xF;
                b ^= within << (4 * r);
                if r > 0 {
                    b ^= row << (4 * (r - 1));
                }
                if r < 3 {
                    b ^= row << (4 * (r + 1));
                }
                presses += row.count_ones();
                row = ((b ^ target) >> (4 * r)) & 0xF;
            }
            if b == target {
                best = best.min(presses);
            }
        }
    }
    (best != u32::MAX).then_some(best as u8)
}

fn flip_alternatives(c: &mut Criterion) {
    let boards = boards();
    let solvable: Vec<(u16, u8)> = (0..=u16::MAX)
        .filter_map(|b| flip::rounds(Board::from_bits(b)).map(|r| (b, r)))
        .collect();
    assert_eq!(solvable.len(), 4096);
    let sip: HashMap<u16, u8> = solvable.iter().copied().collect();
    let mul: MulMap = solvable.iter().copied().collect();
    let keys: Vec<u16> = solvable.iter().map(|p| p.0).collect();
    let values: Vec<u8> = solvable.iter().map(|p| p.1).collect();
    let phf = Phf::new(&solvable);
    for &b in &boards {
        let want = flip::rounds(Board::from_bits(b));
        assert_eq!(sip.get(&b).copied(), want);
        assert_eq!(mul.get(&b).copied(), want);
        assert_eq!(keys.binary_search(&b).ok().map(|i| values[i]), want);
        assert_eq!(phf.get(b), want);
        assert_eq!(chase_rounds(b), want);
    }
    println!(
        "flip rounds, heap bytes: packed table {} (static), two u8 tables {} (static), \
         HashMap of the 4,096 solvable boards {}, sorted Vec {}, phf {}, light chasing 0",
        raw::PACKED_ROUNDS.len(),
        std::mem::size_of_val(&raw::ROUNDS),
        hash_map_bytes(sip.len()),
        keys.len() * 2 + values.len(),
        phf.bytes(),
    );
    let mut g = c.benchmark_group("flip_lookup");
    g.throughput(Throughput::Elements(boards.len() as u64));
    let judge = |r: Option<u8>| u32::from(r.unwrap_or(9));
    each(
        &mut g,
        "rounds (HashMap, SipHash, 4,096 keys)",
        &boards,
        |x| judge(sip.get(&x).copied()),
    );
    each(
        &mut g,
        "rounds (HashMap, multiplicative hash)",
        &boards,
        |x| judge(mul.get(&x).copied()),
    );
    each(&mut g, "rounds (sorted Vec, binary search)", &boards, |x| {
        judge(keys.binary_search(&x).ok().map(|i| values[i]))
    });
    each(&mut g, "rounds (phf perfect hash)", &boards, |x| {
        judge(phf.get(x))
    });
    each(&mut g, "rounds (computed: light chasing)", &boards, |x| {
        judge(chase_rounds(x))
    });
    // Latency rather than throughput: each query's board depends on the
    // answer before it, so the loads cannot overlap.
    chained(
        &mut g,
        "rounds chained (packed 32 KiB table)",
        &boards,
        |x| judge(flip::rounds(Board::from_bits(x))),
    );
    chained(
        &mut g,
        "rounds chained (min of two 64 KiB tables)",
        &boards,
        |x| {
            let i = usize::from(x);
            u32::from(raw::ROUNDS[0][i].min(raw::ROUNDS[1][i]))
        },
    );
    g.finish();
}

/// Whether the player to move wins, by a memoized search; `memo[p]` is
/// `stamp * 2 + win` once `p` is solved in the current query.
fn search_wins(p: u16, memo: &mut [u32], stamp: u32, moves: &[u16]) -> bool {
    if p == u16::MAX {
        // The opponent covered the last square.
        return true;
    }
    let m = memo[usize::from(p)];
    if m >> 1 == stamp {
        return m & 1 == 1;
    }
    let win = moves
        .iter()
        .any(|&mv| p & mv == 0 && !search_wins(p | mv, memo, stamp, moves));
    memo[usize::from(p)] = stamp << 1 | u32::from(win);
    win
}

fn euler_lookup(c: &mut Criterion) {
    let positions = boards();
    let all: Vec<(u16, u8)> = (0..=u16::MAX)
        .map(|p| (p, euler::raw::WINNING[usize::from(p)]))
        .collect();
    let sip: HashMap<u16, u8> = all.iter().copied().collect();
    let mul: MulMap = all.iter().copied().collect();
    let phf = Phf::new(&all);
    let mut bitset = vec![0u64; 1 << 10];
    for &(p, w) in &all {
        bitset[usize::from(p >> 6)] |= u64::from(w) << (p & 63);
    }
    let moves: Vec<u16> = Move::ALL.iter().map(|m| m.bits()).collect();
    let mut memo = vec![0u32; 1 << 16];
    let mut stamp = 0u32;
    for &p in &positions {
        let want = u8::from(euler::outcome(Position::from_bits(p)).is_win());
        assert_eq!(sip[&p], want);
        assert_eq!(mul[&p], want);
        assert_eq!(phf.get(p), Some(want));
        assert_eq!((bitset[usize::from(p >> 6)] >> (p & 63) & 1) as u8, want);
        stamp += 1;
        assert_eq!(u8::from(search_wins(p, &mut memo, stamp, &moves)), want);
    }
    println!(
        "euler outcome, heap bytes: u8 table {} (static; probe reads {} more), \
         bitset {}, HashMap {}, phf {}, memoized search {} (memo)",
        euler::raw::WINNING.len(),
        std::mem::size_of_val(&euler::raw::PLIES) + std::mem::size_of_val(&euler::raw::BEST_MOVE),
        bitset.len() * 8,
        hash_map_bytes(sip.len()),
        phf.bytes(),
        memo.len() * 4,
    );
    let mut g = c.benchmark_group("euler_lookup");
    g.throughput(Throughput::Elements(positions.len() as u64));
    g.bench_function("outcome (dense 64 KiB table)", |b| {
        b.iter(|| {
            positions
                .iter()
                .filter(|&&p| euler::outcome(Position::from_bits(black_box(p))).is_win())
                .count()
        })
    });
    g.bench_function("probe (outcome, moves left, best move)", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|&p| {
                    let e = euler::probe(Position::from_bits(black_box(p)));
                    u32::from(e.moves_left) + u32::from(e.best_move.map_or(0, Move::bits))
                })
                .sum::<u32>()
        })
    });
    each(&mut g, "outcome (bitset 8 KiB)", &positions, |p| {
        (bitset[usize::from(p >> 6)] >> (p & 63) & 1) as u32
    });
    chained(
        &mut g,
        "outcome chained (dense 64 KiB table)",
        &positions,
        |p| u32::from(euler::outcome(Position::from_bits(p)).is_win()),
    );
    chained(&mut g, "outcome chained (bitset 8 KiB)", &positions, |p| {
        (bitset[usize::from(p >> 6)] >> (p & 63) & 1) as u32
    });
    each(
        &mut g,
        "outcome (HashMap, SipHash, 65,536 keys)",
        &positions,
        |p| u32::from(sip[&p]),
    );
    each(
        &mut g,
        "outcome (HashMap, multiplicative hash)",
        &positions,
        |p| u32::from(mul[&p]),
    );
    each(&mut g, "outcome (phf perfect hash)", &positions, |p| {
        u32::from(phf.get(p).unwrap_or(0))
    });
    g.sample_size(20);
    g.bench_function("outcome (memoized search per query)", |b| {
        b.iter(|| {
            positions
                .iter()
                .filter(|&&p| {
                    stamp += 1;
                    search_wins(black_box(p), &mut memo, stamp, &moves)
                })
                .count()
        })
    });
    g.finish();
}

criterion_group!(
    benches,
    flip_lookup,
    flip_alternatives,
    euler_lookup,
    flip_parse
);
criterion_main!(benches);
