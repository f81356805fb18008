//! Kayles, the rules: a row of pins; a move knocks down one standing pin or
//! two standing neighbours; whoever knocks down the last pin wins (so the
//! player to move with no pin left has lost).
//!
//! Declared once, through boardbase's model of a game, and shared by the
//! build script (which solves it) and the library (which answers from the
//! table the build script made).

use core::fmt;

use boardbase_tables::game::{Outcome, Rules, Text, TwoPlayer, Value};
use boardbase_tables::text::{ParseError, read_board};

/// Pins in the row.
pub const PINS: usize = 16;

/// A move: the first pin knocked down, and whether its right neighbour
/// falls with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Knock {
    /// The pin, 0 the leftmost.
    pub pin: u8,
    /// Two pins: `pin` and `pin + 1`.
    pub pair: bool,
}

impl Knock {
    fn mask(self) -> u64 {
        if self.pair {
            0b11 << self.pin
        } else {
            1 << self.pin
        }
    }
}

/// Kayles on a row of [`PINS`] pins, a position the set of standing pins
/// (bit `i` for pin `i`), the mirror image its symmetry.
#[derive(Clone, Copy, Debug, Default)]
pub struct Kayles;

/// `position` read right to left.
pub fn mirror(position: u64) -> u64 {
    (position as u16).reverse_bits() as u64 >> (16 - PINS)
}

impl Rules for Kayles {
    type Move = Knock;

    fn positions(&self) -> u64 {
        1 << PINS
    }

    fn for_each_move(&self, position: u64, mut f: impl FnMut(Knock)) {
        for pin in 0..PINS as u8 {
            for pair in [false, true] {
                let knock = Knock { pin, pair };
                let mask = knock.mask();
                if mask < 1 << PINS && position & mask == mask {
                    f(knock);
                }
            }
        }
    }

    fn play(&self, position: u64, knock: Knock) -> u64 {
        position & !knock.mask()
    }

    fn canonical(&self, position: u64) -> u64 {
        position.min(mirror(position))
    }
}

impl TwoPlayer for Kayles {
    fn start(&self) -> u64 {
        (1 << PINS) - 1
    }

    fn primitive(&self, position: u64) -> Option<Value> {
        (position == 0).then_some(Value::Lose)
    }
}

/// Text: the row, `I` a standing pin and `.` a fallen one; a move is the
/// pin's number from 1 (`3`), or two (`3-4`).
impl Text for Kayles {
    fn write_position(&self, position: u64, out: &mut dyn fmt::Write) -> fmt::Result {
        (0..PINS).try_for_each(|i| out.write_char(if position >> i & 1 == 1 { 'I' } else { '.' }))
    }

    fn read_position(&self, text: &str) -> Result<u64, ParseError> {
        let mut position = 0;
        read_board(text, 1, PINS, b".I", "'I' or '.'", |_, c, s| {
            position |= (s as u64) << c;
        })?;
        Ok(position)
    }

    fn write_move(&self, _position: u64, knock: Knock, out: &mut dyn fmt::Write) -> fmt::Result {
        match knock.pair {
            false => write!(out, "{}", knock.pin + 1),
            true => write!(out, "{}-{}", knock.pin + 1, knock.pin + 2),
        }
    }
}

/// An outcome as the embedded table holds it: 0 for an index that is not a
/// canonical position, else the value in the top two bits and the
/// remoteness below.
pub fn encode(outcome: Option<Outcome>) -> u16 {
    match outcome {
        None => 0,
        Some(Outcome::Win(r)) => 1 << 14 | r,
        Some(Outcome::Lose(r)) => 2 << 14 | r,
        Some(Outcome::Draw) => 3 << 14,
    }
}

/// The outcome [`encode`] wrote.
pub fn decode(entry: u16) -> Option<Outcome> {
    let r = entry & 0x3FFF;
    match entry >> 14 {
        1 => Some(Outcome::Win(r)),
        2 => Some(Outcome::Lose(r)),
        3 => Some(Outcome::Draw),
        _ => None,
    }
}
