//! The catalogue: every game boardbase answers, each declared in its own
//! place and listed here once, and the problems the online judges set on
//! them. Front ends read it for names, titles, the judges' limits and what
//! is answered, instead of writing them again.
//!
//! A [`Game`] is a game or puzzle with its rules (the model of the
//! `boardbase-tables` crate's [`game`](crate::tables::game) module, or a
//! counter); a [`Problem`] is one judge's problem on it, with the format's
//! limits: Flip Game has one, Lights Out three (POJ 3279, POJ 1222 and
//! boardbase's own).
//!
//! ```
//! use boardbase::catalogue::{self, GameKind};
//!
//! let euler = catalogue::game("euler").expect("in the catalogue");
//! assert_eq!(euler.title, "Game of Euler");
//! assert_eq!(euler.kind, GameKind::TwoPlayer);
//! assert_eq!(euler.problems[0].command, "euler");
//! assert_eq!(euler.problems[0].time_limit.as_secs(), 3);
//! ```

pub mod entry;
#[cfg(feature = "std")]
pub mod model;
#[cfg(feature = "std")]
pub mod tiered;

pub use entry::{Game, GameKind, MB, Problem};
#[cfg(feature = "std")]
pub use model::{AnyGame, GameOption, Model, Setup, SetupError, Tiered};
#[cfg(feature = "std")]
pub use tiered::AnyTiers;

/// Every game of the catalogue, in the order front ends list them.
#[cfg(feature = "std")]
pub static GAMES: &[&Game] = &[
    &crate::flip::GAME,
    &crate::lights::GAME,
    &crate::euler::GAME,
    &crate::carcassonne::GAME,
    &crate::mnk::GAME,
    &crate::connect4::GAME,
    &crate::quixo::GAME,
    &crate::teeko::GAME,
];

/// The two-player games the answer layer solves through the game model
/// ([`Tablebase::solve`](crate::tablebase::Tablebase::solve)), each set up
/// by its own module.
#[cfg(feature = "std")]
pub static MODELS: &[&Model] = &[
    &crate::euler::MODEL,
    &crate::mnk::MODEL,
    &crate::connect4::MODEL,
    &crate::quixo::MODEL,
    &crate::teeko::MODEL,
];

/// The model of the game named `name`, or `None`.
#[cfg(feature = "std")]
pub fn model(name: &str) -> Option<&'static Model> {
    MODELS.iter().copied().find(|m| m.game == name)
}

/// The game named `name`, or `None`.
#[cfg(feature = "std")]
pub fn game(name: &str) -> Option<&'static Game> {
    GAMES.iter().copied().find(|g| g.name == name)
}
