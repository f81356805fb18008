//! What a game declares of itself for the catalogue: its name, kind and
//! question ([`Game`]), and the judges' problems on it ([`Problem`]). The
//! games' modules import these; the catalogue's list imports the games.

use core::time::Duration;

/// What kind of question a game asks: two players', one player's, or a
/// count (what an error is about is another idea,
/// [`error::Kind`](crate::error::Kind)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameKind {
    /// Two players moving in turn: who wins, in how many moves, the best
    /// move ([`TwoPlayer`](crate::tables::game::TwoPlayer)).
    TwoPlayer,
    /// One player towards a goal: the fewest moves
    /// ([`OnePlayer`](crate::tables::game::OnePlayer)).
    OnePlayer,
    /// A count of arrangements, computed on request.
    Count,
}

impl GameKind {
    /// The word for the kind: `two-player`, `puzzle` or `count`.
    pub const fn name(self) -> &'static str {
        match self {
            GameKind::TwoPlayer => "two-player",
            GameKind::OnePlayer => "puzzle",
            GameKind::Count => "count",
        }
    }
}

/// A game or puzzle of the catalogue.
#[derive(Debug)]
pub struct Game {
    /// Its name on the command line and in table files (`flip`).
    pub name: &'static str,
    /// Its title (`Flip Game`).
    pub title: &'static str,
    /// The kind of question.
    pub kind: GameKind,
    /// The question answered, in a few words.
    pub question: &'static str,
    /// The board sizes answered, in words.
    pub sizes: &'static str,
    /// Whether shapes past the embedded ones are answered from table files
    /// (`boardbase generate`).
    pub tables: bool,
    /// The judges' problems on it, the original first.
    pub problems: &'static [&'static Problem],
}

/// One judge's problem: who sets it, its limits, its input's size.
#[derive(Debug, PartialEq, Eq)]
pub struct Problem {
    /// The subcommand that answers its input and checks solutions (`flip`).
    pub command: &'static str,
    /// The judge and problem (`POJ 3279`), or `no original judge`.
    pub judge: &'static str,
    /// The time limit of one run, in CPU time.
    pub time_limit: Duration,
    /// The memory limit of one run, in bytes.
    pub memory_limit: u64,
    /// A case in words, singular and plural (`board`, `boards`).
    pub noun: (&'static str, &'static str),
    /// The most cases one input holds.
    pub max_cases: usize,
    /// The limits its statement puts on the input, in words after the
    /// judge's name (`allows T ≤ 50 and N, M ≤ 12`); empty when it puts
    /// none past the format.
    pub limits: &'static str,
}

/// A megabyte as the judges count memory limits (2^20 bytes).
pub const MB: u64 = 1 << 20;
