//! Table generation in memory, on every core of rayon's global pool:
//!
//! - `euler/4x5` and `euler/5x5`: the full tables (win/loss, moves left and
//!   best moves); `euler_wdl/5x5`: the win/loss bits alone;
//! - `flip/4x5`: both colours, press sets and set counts.
//!
//! Run with `cargo bench --bench generate`. The whole-process figures
//! (generating and writing the file; 5×6, 6×6) come from `boardbase
//! generate` itself, under hyperfine and `/usr/bin/time -v` (docs/performance.md,
//! "Generating tables of other sizes").

use std::hint::black_box;

use boardbase::generate::{self, EulerOptions, FlipOptions};
use boardbase::tables::shape::Shape;
use criterion::{Criterion, criterion_group, criterion_main};

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("generate");
    group.sample_size(10);
    for (rows, cols) in [(4, 5), (5, 5)] {
        let shape = Shape::new(rows, cols).unwrap();
        group.bench_function(format!("euler/{shape}"), |b| {
            b.iter(|| {
                let t = generate::euler(black_box(shape), &EulerOptions::default(), |_| {});
                t.unwrap().summary
            })
        });
    }
    let five = Shape::new(5, 5).unwrap();
    let wdl = EulerOptions {
        wdl_only: true,
        ..EulerOptions::default()
    };
    group.bench_function("euler_wdl/5x5", |b| {
        b.iter(|| {
            generate::euler(black_box(five), &wdl, |_| {})
                .unwrap()
                .summary
        })
    });
    let shape = Shape::new(4, 5).unwrap();
    group.bench_function(format!("flip/{shape}"), |b| {
        b.iter(|| {
            generate::flip(black_box(shape), &FlipOptions::default(), |_| {})
                .unwrap()
                .summary
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
