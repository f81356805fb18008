//! Positions of Quixo reachable from the start, drawn by seeded random
//! play, for comparing boardbase's answers with GamesmanOne's: each line
//! is a position in boardbase's text (rows and the player to move joined
//! by `/`) and, after a blank, GamesmanOne's string of it.
//!
//! ```sh
//! cargo run --release --example quixo_sample -- 4x4 200 2026 > samples.txt
//! cargo run --release --example quixo_sample -- 4x4 counts
//! ```
//!
//! Each position ends a walk of its own from the start, of 0 to 40 plies
//! drawn at random, every move drawn among the legal ones, stopping before
//! a move that ends the game; the same size, count and seed give the same
//! positions. The board's side is also `k`, as GamesmanOne's variants
//! have it.
//!
//! With `counts`, it solves the board by the generic retrograde analysis
//! and counts the won, lost and drawn classes (under the board's
//! symmetries and the exchange of X and O, positions taken for the player
//! to move): of every legal position index, and of the positions reachable
//! from the start.

use boardbase::tables::game::{Outcome, Rules, Text, TwoPlayer, retrograde};
use boardbase::tables::quixo::Quixo;
use boardbase::tables::shape::Shape;

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
    let usage = "usage: quixo_sample RxC COUNT SEED, or quixo_sample RxC counts";
    if let [size, counts] = args.as_slice()
        && counts == "counts"
    {
        let Some(game) = Shape::parse(size).and_then(|s| Quixo::new(s, s.rows().min(s.cols())))
        else {
            eprintln!("{usage}");
            std::process::exit(2);
        };
        return count(&game);
    }
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

/// Prints the won, lost and drawn classes of every legal index and of the
/// positions reachable from the start.
fn count(game: &Quixo) {
    let solved = match retrograde::solve(game) {
        Ok(solved) => solved,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    let [win, lose, draw] = solved.counts();
    println!("indices {}", game.positions());
    println!("legal classes: win {win} lose {lose} draw {draw}");
    // Breadth first over classes from the start, one bit an index.
    let mut seen = vec![0u64; game.positions().div_ceil(64) as usize];
    let mut queue = vec![game.start()];
    let mut reached = [0u64; 3];
    while let Some(p) = queue.pop() {
        let (word, bit) = ((p / 64) as usize, p % 64);
        if seen[word] >> bit & 1 == 1 {
            continue;
        }
        seen[word] |= 1 << bit;
        reached[match solved.outcome(p) {
            Some(Outcome::Win(_)) => 0,
            Some(Outcome::Lose(_)) => 1,
            _ => 2,
        }] += 1;
        game.for_each_move(p, |mv| queue.push(game.canonical(game.play(p, mv))));
    }
    let [win, lose, draw] = reached;
    println!("reachable classes: win {win} lose {lose} draw {draw}");
    println!("start {:?}", solved.outcome_of(game, game.start()));
}
