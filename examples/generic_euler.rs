//! The Game of Euler solved twice: by the game model's generic retrograde
//! analysis (one thread, one entry a position, or a class of symmetric
//! ones) and by the specialised generator (`boardbase generate`'s,
//! bit-parallel, every core); the time and positions a second of each,
//! and every position's value and moves left compared between them.
//!
//! ```sh
//! cargo run --release --example generic_euler -- 5x5
//! ```

use std::process::ExitCode;
use std::time::Instant;

use boardbase::generate::{self, EulerOptions};
use boardbase::memory::{ByteSize, peak_memory};
use boardbase::tables::euler::game::Euler;
use boardbase::tables::game::{Outcome, retrograde};
use boardbase::tables::shape::Shape;

fn main() -> ExitCode {
    let Some(shape) = std::env::args().nth(1).and_then(|s| Shape::parse(&s)) else {
        eprintln!("usage: generic_euler RxC (at most 30 squares)");
        return ExitCode::from(2);
    };
    if shape.cells() > 30 {
        eprintln!("{shape}: at most 30 squares");
        return ExitCode::from(2);
    }
    let positions = 1u64 << shape.cells();
    let rate = |seconds: f64| positions as f64 / seconds / 1e6;

    let start = Instant::now();
    let special = match generate::euler(shape, &EulerOptions::default(), |_| {}) {
        Ok(tables) => tables,
        Err(e) => {
            eprintln!("specialised: {e}");
            return ExitCode::FAILURE;
        }
    };
    let special_s = start.elapsed().as_secs_f64();
    println!(
        "specialised (every core): {special_s:.3} s, {:.1} M positions/s",
        rate(special_s)
    );

    for symmetric in [false, true] {
        let game = if symmetric {
            Euler::with_symmetry(shape)
        } else {
            Euler::new(shape)
        };
        let start = Instant::now();
        let solved = match retrograde::solve(&game) {
            Ok(solved) => solved,
            Err(e) => {
                eprintln!("generic: {e}");
                return ExitCode::FAILURE;
            }
        };
        let generic_s = start.elapsed().as_secs_f64();
        println!(
            "generic ({}, one thread): {generic_s:.3} s, {:.1} M positions/s, {:.0}x the specialised time; peak memory so far {}",
            if symmetric {
                "a class of symmetric positions"
            } else {
                "every position"
            },
            rate(generic_s),
            generic_s / special_s,
            peak_memory().map_or_else(|| "unknown".to_owned(), |b| ByteSize(b).to_string())
        );
        // Every position: the full board is a win in 0 for the mover in
        // both (covering the last square lost the game for the other).
        let mut differ = 0u64;
        for p in 0..positions {
            let generic = solved.outcome_of(&game, p);
            let plies = special.plies(p).map(u16::from);
            let want = match (special.winning(p), plies) {
                (true, Some(r)) => Some(Outcome::Win(r)),
                (false, Some(r)) => Some(Outcome::Lose(r)),
                _ => None,
            };
            if generic != want {
                differ += 1;
                if differ <= 3 {
                    eprintln!("position {p:#x}: generic {generic:?}, specialised {want:?}");
                }
            }
        }
        if differ > 0 {
            eprintln!("{differ} of {positions} positions differ");
            return ExitCode::FAILURE;
        }
        println!("  every one of {positions} positions agrees (value and moves left)");
    }
    ExitCode::SUCCESS
}
