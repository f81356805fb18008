//! A game of one's own, solved at build time and built into one's binary:
//! Kayles through boardbase's model of a game.
//!
//! The rules are declared once ([`rules`]: the model's `Rules`,
//! `TwoPlayer` and `Text`); `build.rs` solves every position with the
//! model's generic retrograde analysis and writes the table as Rust source;
//! this library embeds it and answers in O(1).
//!
//! ```
//! use boardbase_tables::game::{Outcome, Text};
//! use kayles::rules::Kayles;
//!
//! // I I I . I I I I I I I I I I I I    pins 1 to 3 standing, 4 down, 5 to 16 up
//! let position = Kayles.read_position("III.IIIIIIIIIIII")?;
//! let (best, outcome) = kayles::best_move(position).expect("pins stand");
//! assert_eq!(outcome, kayles::outcome(position));
//! assert!(matches!(outcome, Outcome::Win(_) | Outcome::Lose(_)));
//! let mut text = String::new();
//! Kayles.write_move(position, best, &mut text)?;
//! println!("{}: {outcome}, best {text}", "III.IIIIIIIIIIII");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![no_std]

pub mod rules;

use core::cmp::Ordering;

use boardbase_tables::game::{Outcome, Rules, TwoPlayer};

mod table {
    include!(concat!(env!("OUT_DIR"), "/kayles_table.rs"));
}

/// The outcome of `position` (its standing pins, bit `i` for pin `i`) for
/// the player to move: one read of the embedded table.
pub fn outcome(position: u64) -> Outcome {
    let canonical = rules::Kayles.canonical(position & ((1 << rules::PINS) - 1));
    // Every canonical position is in the table.
    rules::decode(table::OUTCOMES[canonical as usize]).unwrap_or(Outcome::Draw)
}

/// The best move of `position` and the outcome it gives the mover (the
/// fastest win, else the longest loss; the first such from the left), or
/// `None` when no pin stands.
pub fn best_move(position: u64) -> Option<(rules::Knock, Outcome)> {
    let game = rules::Kayles;
    let mut best: Option<(rules::Knock, Outcome)> = None;
    game.for_each_move(position, |knock| {
        let mine = outcome(game.play(position, knock)).through_move();
        if best.is_none_or(|(_, b)| mine.preference(b) == Ordering::Greater) {
            best = Some((knock, mine));
        }
    });
    best
}

/// The start: every pin standing.
pub fn start() -> u64 {
    rules::Kayles.start()
}
