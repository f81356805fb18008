//! Positions of Quixo reachable from the start, drawn by seeded random
//! play, for comparing boardbase's answers with GamesmanOne's: each line
//! is a position in boardbase's text (rows and the player to move joined
//! by `/`) and, after a blank, GamesmanOne's string of it.
//!
//! ```sh
//! cargo run --release --example quixo_sample -- 4x4 200 2026 > samples.txt
//! ```
//!
//! Each position ends a walk of its own from the start, of 0 to 40 plies
//! drawn at random, every move drawn among the legal ones, stopping before
//! a move that ends the game; the same size, count and seed give the same
//! positions. The board's side is also `k`, as GamesmanOne's variants
//! have it.

use boardbase::solvers::game::{Rules, Text, TwoPlayer};
use boardbase::solvers::quixo::Quixo;
use boardbase::solvers::shape::Shape;

/// SplitMix64: a small seeded generator, enough for drawing positions.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: quixo_sample RxC COUNT SEED";
    let [size, count, seed] = args.as_slice() else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let (Some(shape), Ok(count), Ok(seed)) = (
        Shape::parse(size),
        count.parse::<usize>(),
        seed.parse::<u64>(),
    ) else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let Some(game) = Quixo::new(shape, shape.rows().min(shape.cols())) else {
        eprintln!("no Quixo on {shape}");
        std::process::exit(2);
    };
    let mut rng = SplitMix(seed);
    for _ in 0..count {
        let mut p = game.start();
        for _ in 0..rng.below(41) {
            let mut moves = Vec::new();
            game.for_each_move(p, |mv| moves.push(mv));
            let next = game.play(p, moves[rng.below(moves.len() as u64) as usize]);
            // A finished position ends the walk one ply early: most random
            // games end soon, and positions still in play say more.
            if game.primitive(next).is_some() {
                break;
            }
            p = next;
        }
        let mut text = String::new();
        let mut theirs = String::new();
        // Writing into a String cannot fail.
        let _ = game.write_position(p, &mut text);
        let _ = game.write_gamesman(p, &mut theirs);
        println!("{} {theirs}", text.replace('\n', "/"));
    }
}
