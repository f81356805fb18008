//! Quixo solved tier by tier ([`boardbase::tables::game::tiers`]) with
//! only the tiers still needed in memory: the value and remoteness of the
//! start, and the won, lost and drawn classes of every legal position, for
//! boards whose whole table does not fit in memory or on disk.
//!
//! ```sh
//! cargo run --release --example quixo_tiers -- 4x4
//! cargo run --release --example quixo_tiers -- 4x5
//! ```
//!
//! The arguments are the board and `k` (by default the shorter side, as
//! `boardbase solve quixo` takes it). Cubes
//! are never taken off the board, so a move keeps the number of cubes
//! turned or adds one: the tiers of `n` cubes read only those of `n` and
//! `n + 1`, and the tiers of `n + 2` are dropped once those of `n` begin.
//! Memory: two bytes a position index of two totals of cubes, with X to
//! move (the classes' least members), plus the tier being solved; no table
//! is written.

use std::collections::BTreeMap;
use std::process::ExitCode;
use std::time::Instant;

use boardbase::tables::game::tiers::{TierStep, TierStore, solve_tiers};
use boardbase::tables::game::{Outcome, Rules, SolveError, Tiers, TwoPlayer};
use boardbase::tables::quixo::Quixo;
use boardbase::tables::shape::Shape;

/// The entries of the tiers still needed, by tier, each by rank.
struct Levels<'g> {
    game: &'g Quixo,
    tiers: BTreeMap<u64, Vec<u16>>,
    /// The won, lost and drawn classes of the tiers solved.
    counts: [u64; 3],
    /// The start's entry, once its tier is solved.
    start: Option<u16>,
    /// The most bytes of entries held at once.
    peak_bytes: u64,
}

impl Levels<'_> {
    /// The cubes on the board in `tier`'s positions.
    fn cubes(&self, tier: u64) -> u32 {
        let (x, o, _) = self.game.pieces(self.game.position_at(tier, 0));
        (x | o).count_ones()
    }
}

impl TierStore for Levels<'_> {
    fn entry(&self, position: u64) -> u16 {
        let (tier, rank) = self.game.tier_rank(position);
        self.tiers
            .get(&tier)
            .and_then(|entries| entries.get(rank as usize))
            .copied()
            .unwrap_or(0)
    }

    fn put(&mut self, tier: u64, entries: &[u16]) -> Result<(), SolveError> {
        let cubes = self.cubes(tier);
        let game = self.game;
        self.tiers.retain(|&t, _| {
            let (x, o, _) = game.pieces(game.position_at(t, 0));
            (x | o).count_ones() <= cubes + 1
        });
        for &cell in entries {
            match boardbase::tables::game::retrograde::decode(cell) {
                Some(Outcome::Win(_)) => self.counts[0] += 1,
                Some(Outcome::Lose(_)) => self.counts[1] += 1,
                Some(Outcome::Draw) => self.counts[2] += 1,
                None => {}
            }
        }
        let (start_tier, start_rank) = self.game.tier_rank(self.game.start());
        if start_tier == tier {
            self.start = entries.get(start_rank as usize).copied();
        }
        // The ranks past the last entry (O to move) are never canonical.
        let used = entries.iter().rposition(|&c| c != 0).map_or(0, |i| i + 1);
        self.tiers.insert(tier, entries[..used].to_vec());
        let held: u64 = self.tiers.values().map(|e| 2 * e.len() as u64).sum();
        self.peak_bytes = self.peak_bytes.max(held);
        Ok(())
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let shape = args.first().and_then(|s| {
        let (r, c) = s.split_once('x')?;
        Shape::new(r.parse().ok()?, c.parse().ok()?)
    });
    let Some(shape) = shape else {
        eprintln!("usage: quixo_tiers RxC [K]");
        return ExitCode::from(2);
    };
    let k = match args.get(1).map(|k| k.parse::<usize>()) {
        None => shape.rows().min(shape.cols()),
        Some(Ok(k)) => k,
        Some(Err(_)) => {
            eprintln!("usage: quixo_tiers RxC [K]");
            return ExitCode::from(2);
        }
    };
    let Some(game) = Quixo::new(shape, k) else {
        eprintln!("no Quixo of {}x{} with k = {k}", shape.rows(), shape.cols());
        return ExitCode::from(2);
    };
    let mut levels = Levels {
        game: &game,
        tiers: BTreeMap::new(),
        counts: [0; 3],
        start: None,
        peak_bytes: 0,
    };
    let began = Instant::now();
    let tiers = game.tiers();
    let solved = solve_tiers(&game, &mut levels, &mut |step: TierStep| {
        eprint!(
            "\rtier {:>4} of {tiers}: {:>5.1} % of the indices, {:.0?}   ",
            tiers - step.tier,
            100.0 * step.done as f64 / step.total as f64,
            began.elapsed()
        );
        true
    });
    eprintln!();
    if let Err(e) = solved {
        eprintln!("quixo_tiers: {e}");
        return ExitCode::FAILURE;
    }
    let start = levels
        .start
        .and_then(boardbase::tables::game::retrograde::decode);
    let [won, lost, drawn] = levels.counts;
    println!(
        "quixo {}x{} k={k}: start {}; classes won {won}, lost {lost}, drawn {drawn}; \
         {} tiers, {} indices, entries held at most {} bytes, {:.1} s",
        shape.rows(),
        shape.cols(),
        start.map_or("unsolved".to_string(), |o| o.to_string()),
        tiers,
        game.positions(),
        levels.peak_bytes,
        began.elapsed().as_secs_f64()
    );
    ExitCode::SUCCESS
}
