//! The model of a game: what a game declares so that generic solvers,
//! tables and front ends can work with it without knowing its rules.
//!
//! After GamesmanOne's solver API, a game is a small set of functions over
//! *position indices* `0..positions()`:
//!
//! * [`Rules`], what every game and puzzle declares: how many position
//!   indices there are, which of them are legal, each position's moves in a
//!   fixed order, a move's result, and, optionally, a canonical position
//!   under the board's symmetries and the parents of a position (for
//!   retrograde analysis; without them the solvers build the reverse graph
//!   from the moves).
//! * [`TwoPlayer`]: two players moving in turn, with the start position and
//!   the value of a finished (primitive) position for the player to move:
//!   [`Value::Win`], [`Value::Lose`] or [`Value::Draw`]. Solved by
//!   [`retrograde`] (needs the `alloc` feature): every position's value and
//!   remoteness, the winner hurrying and the loser resisting; positions from
//!   which neither side can force a win are draws, found by counting
//!   undecided children, so games whose positions repeat are solved too.
//! * [`OnePlayer`]: a puzzle, one player moving towards a goal. Solved by
//!   [`search`] (needs the `alloc` feature): the fewest moves from every
//!   position to a goal, breadth first from the goals.
//!
//! The specialised solvers of each game (the bit-parallel Euler passes, the
//! Flip search) are far faster; the generic ones are their oracle, and the
//! way in for a game that has none.
//!
//! # Example: a tiny subtraction game
//!
//! A heap of `n` counters, a move takes one or two, whoever cannot move
//! loses. The position index is the heap's size.
//!
//! ```
//! use boardbase_tables::game::{Outcome, Rules, TwoPlayer, Value};
//!
//! struct Heap(u64);
//!
//! impl Rules for Heap {
//!     type Move = u64;
//!     fn positions(&self) -> u64 {
//!         self.0 + 1
//!     }
//!     fn for_each_move(&self, heap: u64, mut f: impl FnMut(u64)) {
//!         (1..=2).filter(|&take| take <= heap).for_each(&mut f);
//!     }
//!     fn play(&self, heap: u64, take: u64) -> u64 {
//!         heap - take
//!     }
//! }
//!
//! impl TwoPlayer for Heap {
//!     fn start(&self) -> u64 {
//!         self.0
//!     }
//!     fn primitive(&self, heap: u64) -> Option<Value> {
//!         (heap == 0).then_some(Value::Lose)
//!     }
//! }
//!
//! # #[cfg(feature = "alloc")] {
//! let solved = boardbase_tables::game::retrograde::solve(&Heap(7)).unwrap();
//! // Multiples of three are lost; the others are won by taking the rest.
//! assert_eq!(solved.outcome(6), Some(Outcome::Lose(4)));
//! assert_eq!(solved.outcome(7), Some(Outcome::Win(5)));
//! // The best move from 7 takes one counter, to the lost 6.
//! let best = solved.best_move(&Heap(7), 7);
//! assert_eq!(best, Some((1, Outcome::Win(5))));
//! # }
//! ```

#[cfg(feature = "alloc")]
mod graph;
#[cfg(feature = "alloc")]
pub mod retrograde;
#[cfg(feature = "alloc")]
pub mod search;
#[cfg(feature = "alloc")]
pub mod tiers;

use core::cmp::Ordering;
use core::fmt;

use crate::text::{Found, ParseError};

/// The value of a position for the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// The player to move wins with perfect play.
    Win,
    /// The player to move loses against perfect play.
    Lose,
    /// Neither side can force a win.
    Draw,
}

impl Value {
    /// The word boardbase uses for the value: `win`, `lose` or `draw`.
    pub const fn name(self) -> &'static str {
        match self {
            Value::Win => "win",
            Value::Lose => "lose",
            Value::Draw => "draw",
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A solved position's value for the player to move, with its remoteness:
/// the plies to the end of the game with perfect play, the winner hurrying
/// and the loser resisting. A draw has no end, so no remoteness.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Won in this many plies.
    Win(u16),
    /// Lost in this many plies.
    Lose(u16),
    /// Drawn.
    Draw,
}

impl Outcome {
    /// The value, without the remoteness.
    pub const fn value(self) -> Value {
        match self {
            Outcome::Win(_) => Value::Win,
            Outcome::Lose(_) => Value::Lose,
            Outcome::Draw => Value::Draw,
        }
    }

    /// The plies to the end, `None` for a draw.
    pub const fn remoteness(self) -> Option<u16> {
        match self {
            Outcome::Win(r) | Outcome::Lose(r) => Some(r),
            Outcome::Draw => None,
        }
    }

    /// The outcome for the player who moves *into* a position of this
    /// outcome (which is the opponent's): a lost child is a win one ply
    /// longer, a won child a loss one ply longer, a draw a draw.
    ///
    /// Saturates at `u16::MAX` plies.
    pub const fn through_move(self) -> Outcome {
        match self {
            Outcome::Win(r) => Outcome::Lose(r.saturating_add(1)),
            Outcome::Lose(r) => Outcome::Win(r.saturating_add(1)),
            Outcome::Draw => Outcome::Draw,
        }
    }

    /// How the player to move ranks outcomes: a win beats a draw beats a
    /// loss; among wins the shorter is better (the winner hurries), among
    /// losses the longer (the loser resists). `Greater` is better.
    pub fn preference(self, other: Outcome) -> Ordering {
        fn key(o: Outcome) -> (u8, i32) {
            match o {
                Outcome::Win(r) => (2, -i32::from(r)),
                Outcome::Draw => (1, 0),
                Outcome::Lose(r) => (0, i32::from(r)),
            }
        }
        key(self).cmp(&key(other))
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win(r) | Outcome::Lose(r) => write!(f, "{} in {r}", self.value()),
            Outcome::Draw => f.write_str("draw"),
        }
    }
}

/// What every game and puzzle declares: its positions and its moves.
///
/// Positions are indices `0..positions()`. Not every index need be a
/// position ([`is_legal`](Self::is_legal)); the solvers hold one entry an
/// index, as GamesmanOne's do, so an index should be dense enough for that.
pub trait Rules {
    /// A move, as the game names it (an index into a move list, a mask, a
    /// cell).
    type Move: Copy;

    /// The number of position indices: positions are `0..positions()`.
    fn positions(&self) -> u64;

    /// Whether `position` can occur. `false` only for an index that is
    /// certainly not a position; the solvers skip those.
    fn is_legal(&self, position: u64) -> bool {
        let _ = position;
        true
    }

    /// Calls `f` with each move of `position`, in the game's move order (the
    /// order that breaks ties between equally good moves). A finished
    /// position has none.
    fn for_each_move(&self, position: u64, f: impl FnMut(Self::Move));

    /// The position after `mv` from `position`.
    fn play(&self, position: u64, mv: Self::Move) -> u64;

    /// The canonical position of `position`'s class under the game's
    /// symmetries (the smallest index, by convention): positions of one
    /// class have the same value, and solvers store one entry a class. The
    /// default is the position itself (no symmetry used).
    fn canonical(&self, position: u64) -> u64 {
        position
    }

    /// Whether [`for_each_parent`](Self::for_each_parent) is given. Without
    /// it the solvers build the reverse graph from the moves, in memory.
    const PARENTS: bool = false;

    /// Calls `f` once with each distinct canonical legal position that has a
    /// move to (a position of the class of) the canonical `position`. Only
    /// called when [`PARENTS`](Self::PARENTS) is `true`.
    fn for_each_parent(&self, position: u64, f: impl FnMut(u64)) {
        let _ = (position, f);
    }
}

/// A game of two players moving in turn: the start, and who has won when
/// the game is over.
pub trait TwoPlayer: Rules {
    /// The position the game starts from.
    fn start(&self) -> u64;

    /// The value of `position` for the player to move when the game is over
    /// there (a *primitive* position, which has no moves), `None` while it
    /// goes on. A position that is not primitive has at least one move.
    fn primitive(&self, position: u64) -> Option<Value>;
}

/// A game's tiers, for the tier solver ([`tiers`], with the `alloc`
/// feature): every position index belongs to one tier, in which it has a
/// rank, and a move leads to (a position whose canonical one is in) the
/// same tier or a tier numbered above it. The solver holds one tier at a
/// time, as GamesmanOne's tier solver does.
pub trait Tiers: TwoPlayer {
    /// The number of tiers: they are `0..tiers()`.
    fn tiers(&self) -> u64;

    /// The number of position indices of `tier`: its ranks are
    /// `0..tier_size(tier)`.
    fn tier_size(&self, tier: u64) -> u64;

    /// The tier of `position` and its rank there.
    fn tier_rank(&self, position: u64) -> (u64, u64);

    /// The tier of `position`: [`tier_rank`](Self::tier_rank)'s tier, which
    /// a game may find faster than the rank.
    fn tier_of(&self, position: u64) -> u64 {
        self.tier_rank(position).0
    }

    /// The position of `tier` with `rank`: the inverse of
    /// [`tier_rank`](Self::tier_rank).
    fn position_at(&self, tier: u64, rank: u64) -> u64;

    /// Calls `f` with the rank and the position of each index of `tier`
    /// that may be a legal canonical position, in the order of rank. The
    /// default takes every rank through [`position_at`](Self::position_at);
    /// a game can walk its tier faster, and skip ranks that are never
    /// canonical.
    fn for_each_in_tier(&self, tier: u64, mut f: impl FnMut(u64, u64)) {
        for rank in 0..self.tier_size(tier) {
            f(rank, self.position_at(tier, rank));
        }
    }
}

/// A puzzle: one player moving towards a goal, in as few moves as possible.
pub trait OnePlayer: Rules {
    /// Whether `position` is solved.
    fn is_goal(&self, position: u64) -> bool;
}

/// A game's own text: how its positions and moves are written and read.
/// Front ends show and take positions and moves only through it, so a game
/// declares its alphabet once, here.
pub trait Text: Rules {
    /// Writes `position`.
    fn write_position(&self, position: u64, out: &mut dyn fmt::Write) -> fmt::Result;

    /// Reads a position as [`write_position`](Self::write_position) writes
    /// it (and in any other form the game accepts), with the line and
    /// column of what does not fit.
    fn read_position(&self, text: &str) -> Result<u64, ParseError>;

    /// How many lines a position's text takes, one row of the board a
    /// line, for a reader of many positions to count them off: `None` for
    /// one a row of the board, as most games write it. A game whose text
    /// says more than its rows (whose turn it is) says how many.
    fn position_lines(&self) -> Option<usize> {
        None
    }

    /// Writes `mv`, a move of `position`.
    fn write_move(&self, position: u64, mv: Self::Move, out: &mut dyn fmt::Write) -> fmt::Result;

    /// Reads a move of `position`: by default the move whose text
    /// ([`write_move`](Self::write_move)) is `text`, blanks around it
    /// ignored.
    fn read_move(&self, position: u64, text: &str) -> Result<Self::Move, ParseError> {
        read_written_move(self, position, text, "a move of the position")
    }
}

/// The move of `position` whose text ([`Text::write_move`]) is `text`,
/// blanks around it ignored; `expected` says what was wanted when no move
/// has that text (a game that also reads another form of moves names it
/// there).
pub(crate) fn read_written_move<G: Text + ?Sized>(
    game: &G,
    position: u64,
    text: &str,
    expected: &'static str,
) -> Result<G::Move, ParseError> {
    let wanted = text.trim();
    let mut found = None;
    game.for_each_move(position, |mv| {
        let mut written = Fixed::default();
        if found.is_none()
            && game.write_move(position, mv, &mut written).is_ok()
            && written.as_str() == Some(wanted)
        {
            found = Some(mv);
        }
    });
    found.ok_or(ParseError {
        line: 1,
        column: (text.len() - text.trim_start().len() + 1) as u64,
        expected,
        found: if wanted.is_empty() {
            Found::EndOfInput
        } else {
            Found::Word {
                len: wanted.chars().count(),
            }
        },
    })
}

/// A move's text, written into a fixed buffer (moves' texts are short).
struct Fixed {
    bytes: [u8; 64],
    len: usize,
    overflow: bool,
}

impl Default for Fixed {
    fn default() -> Fixed {
        Fixed {
            bytes: [0; 64],
            len: 0,
            overflow: false,
        }
    }
}

impl Fixed {
    fn as_str(&self) -> Option<&str> {
        if self.overflow {
            return None;
        }
        core::str::from_utf8(&self.bytes[..self.len]).ok()
    }
}

impl fmt::Write for Fixed {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.len + s.len();
        if end > self.bytes.len() {
            self.overflow = true;
            return Err(fmt::Error);
        }
        self.bytes[self.len..end].copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

/// Calls `f` once with each distinct value of `found` (sorting it): a
/// game's [`Rules::for_each_parent`] gives each parent once with it.
pub fn each_distinct(found: &mut [u64], mut f: impl FnMut(u64)) {
    found.sort_unstable();
    let mut last = None;
    for &p in found.iter() {
        if last != Some(p) {
            f(p);
            last = Some(p);
        }
    }
}

/// Why a generic solver could not solve a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolveError {
    /// The game has more position indices than this machine can index.
    TooManyPositions(u64),
    /// The memory for the solver's arrays could not be had.
    OutOfMemory {
        /// What was asked for, in bytes.
        bytes: u64,
    },
    /// A position that is not primitive has no move, or a move leads
    /// outside the positions.
    BadMove {
        /// The position.
        position: u64,
    },
    /// A position has more distinct children than the solver counts
    /// (65,535).
    TooManyMoves {
        /// The position.
        position: u64,
    },
    /// A game or puzzle deeper than the solver's table holds (16,383 plies
    /// of a two-player game, 65,534 moves of a puzzle).
    TooDeep,
    /// Stopped by its caller before the end.
    Cancelled,
    /// A state to resume from that is not of the game's index space.
    BadResume,
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::TooManyPositions(n) => {
                write!(f, "{n} positions are more than this machine can index")
            }
            SolveError::OutOfMemory { bytes } => write!(f, "could not allocate {bytes} bytes"),
            SolveError::BadMove { position } => write!(
                f,
                "position {position} has no move but is not over, or a move leads outside the positions"
            ),
            SolveError::TooManyMoves { position } => {
                write!(f, "position {position} has more than 65,535 distinct moves")
            }
            SolveError::TooDeep => f.write_str("deeper than the solver's table holds"),
            SolveError::Cancelled => f.write_str("cancelled"),
            SolveError::BadResume => {
                f.write_str("the state to resume from is not of this game's positions")
            }
        }
    }
}

impl core::error::Error for SolveError {}
