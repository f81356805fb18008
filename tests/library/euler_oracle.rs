//! Checks the embedded Game of Euler tablebase against an independent oracle.
//!
//! The oracle below is written from the rules of UVA 10536 (docs/guide.md)
//! and shares nothing with the generator (`boardbase_tables::euler`): the
//! moves of `tests/oracle/euler.rs` (every pin of length 1 to 3 pushed in
//! from each side of each row and column, plus single squares,
//! deduplicated), the memoized recursive search of `tests/oracle/tables.rs`
//! (top-down, where the generator works bottom-up) and its own symmetries
//! of the square.

use crate::oracle;

use std::collections::BTreeSet;

use boardbase::euler::{self, Move, Outcome, Position, raw};

const FULL: u16 = u16::MAX;

fn cell(row: usize, col: usize) -> u16 {
    1 << (4 * row + col)
}

/// The oracle's value of a position: (player to move wins, plies left).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Value {
    win: bool,
    plies: u8,
}

struct Oracle {
    moves: Vec<u16>,
    wins: Vec<bool>,
    plies: Vec<u8>,
}

impl Oracle {
    /// The whole table of `tests/oracle/tables.rs` (memoized search from
    /// the top down: whoever covers the last square loses, so the full
    /// board is won by the player to move; the winner hurries, the loser
    /// resists) over the oracle's own 48 moves.
    fn new() -> Oracle {
        let moves = oracle::euler::moves_4x4();
        let (wins, plies) = oracle::tables::solve_euler_4x4(&moves);
        Oracle { moves, wins, plies }
    }

    fn legal(&self, p: u16) -> Vec<u16> {
        self.moves.iter().copied().filter(|&m| m & p == 0).collect()
    }

    fn get(&self, p: u16) -> Value {
        Value {
            win: self.wins[p as usize],
            plies: self.plies[p as usize],
        }
    }

    fn winning_moves(&self, p: u16) -> BTreeSet<u16> {
        self.legal(p)
            .into_iter()
            .filter(|&m| !self.get(p | m).win)
            .collect()
    }
}

fn oracle() -> &'static Oracle {
    static ORACLE: std::sync::OnceLock<Oracle> = std::sync::OnceLock::new();
    ORACLE.get_or_init(Oracle::new)
}

/// The eight symmetries of the square, built from a quarter turn and a
/// mirror, as functions on masks.
fn symmetries() -> Vec<Box<dyn Fn(u16) -> u16>> {
    fn map(p: u16, f: impl Fn(usize, usize) -> (usize, usize)) -> u16 {
        let mut out = 0;
        for row in 0..4 {
            for col in 0..4 {
                if p & cell(row, col) != 0 {
                    let (r, c) = f(row, col);
                    out |= cell(r, c);
                }
            }
        }
        out
    }
    fn turn(p: u16, times: usize) -> u16 {
        (0..times).fold(p, |p, _| map(p, |r, c| (c, 3 - r)))
    }
    fn mirror(p: u16) -> u16 {
        map(p, |r, c| (r, 3 - c))
    }
    let mut all: Vec<Box<dyn Fn(u16) -> u16>> = Vec::new();
    for times in 0..4 {
        all.push(Box::new(move |p| turn(p, times)));
        all.push(Box::new(move |p| turn(mirror(p), times)));
    }
    all
}

fn bits(moves: impl Iterator<Item = Move>) -> BTreeSet<u16> {
    moves.map(Move::bits).collect()
}

#[test]
fn the_oracle_knows_48_moves_and_so_does_the_library() {
    let o = oracle();
    assert_eq!(o.moves.len(), 48);
    let library: BTreeSet<u16> = Move::ALL.iter().map(|m| m.bits()).collect();
    assert_eq!(library, o.moves.iter().copied().collect());
    for mask in 0..=FULL {
        assert_eq!(
            Move::from_bits(mask).is_some(),
            o.moves.contains(&mask),
            "{mask:#06x}"
        );
    }
}

#[test]
fn every_position_matches_the_oracle() {
    let o = oracle();
    for p in 0..=FULL {
        let want = o.get(p);
        let e = euler::probe(Position::from_bits(p));
        let outcome = if want.win {
            Outcome::Win
        } else {
            Outcome::Loss
        };
        assert_eq!((e.outcome, e.moves_left), (outcome, want.plies), "{p:#06x}");
        assert_eq!(euler::outcome(Position::from_bits(p)), outcome);
        let i = p as usize;
        assert_eq!(raw::WINNING[i], u8::from(want.win));
        assert_eq!(raw::PLIES[i], want.plies);
        assert_eq!(raw::BEST_MOVE[i], e.best_move.map_or(0, Move::bits));
    }
}

#[test]
fn pinned_counts() {
    let losing = (0..FULL)
        .filter(|&p| euler::outcome(Position::from_bits(p)) == Outcome::Loss)
        .count();
    assert_eq!(losing, 13_802);
    let empty = euler::probe(Position::EMPTY);
    assert_eq!((empty.outcome, empty.moves_left), (Outcome::Loss, 13));
    let full = euler::probe(Position::FULL);
    assert_eq!(
        full,
        euler::Entry {
            outcome: Outcome::Win,
            moves_left: 0,
            best_move: None
        }
    );
    assert_eq!(euler::legal_moves(Position::FULL).count(), 0);
    assert_eq!(euler::winning_moves(Position::FULL).count(), 0);
}

#[test]
fn best_moves_are_legal_and_consistent() {
    let o = oracle();
    for p in 0..FULL {
        let position = Position::from_bits(p);
        let e = euler::probe(position);
        let best = e
            .best_move
            .unwrap_or_else(|| panic!("{p:#06x} has no best move"));
        assert!(
            o.moves.contains(&best.bits()) && best.bits() & p == 0,
            "{p:#06x}"
        );
        let next = position.play(best).expect("the best move is legal");
        assert_eq!(next.bits(), p | best.bits());
        let after = euler::probe(next);
        assert_eq!(e.moves_left, after.moves_left + 1, "{p:#06x}");
        let children = o.legal(p).into_iter().map(|m| o.get(p | m));
        match e.outcome {
            Outcome::Win => {
                assert_eq!(
                    after.outcome,
                    Outcome::Loss,
                    "a winner's best move leaves a loss"
                );
                let fastest = children.filter(|c| !c.win).map(|c| c.plies).min();
                assert_eq!(Some(after.moves_left), fastest, "the winner hurries");
            }
            Outcome::Loss => {
                assert_eq!(after.outcome, Outcome::Win);
                assert_eq!(
                    Some(after.moves_left),
                    children.map(|c| c.plies).max(),
                    "the loser resists"
                );
            }
        }
        assert_eq!(e.moves_left.is_multiple_of(2), e.outcome == Outcome::Win);
        assert!(e.moves_left <= position.open_squares());
    }
}

#[test]
fn legal_and_winning_moves_agree_with_the_oracle() {
    let o = oracle();
    for p in 0..=FULL {
        let position = Position::from_bits(p);
        let legal = bits(euler::legal_moves(position));
        assert_eq!(legal, o.legal(p).into_iter().collect(), "{p:#06x}");
        for m in Move::ALL {
            assert_eq!(position.play(m).is_ok(), legal.contains(&m.bits()));
        }
        assert_eq!(
            bits(euler::winning_moves(position)),
            o.winning_moves(p),
            "{p:#06x}"
        );
    }
}

#[test]
fn the_table_is_invariant_under_the_eight_symmetries() {
    let syms = symmetries();
    let images: BTreeSet<u16> = syms.iter().map(|s| s(0b0000_0000_0010_0011)).collect();
    assert_eq!(images.len(), 8, "eight distinct symmetries");
    for p in 0..=FULL {
        let position = Position::from_bits(p);
        let e = euler::probe(position);
        let winning = bits(euler::winning_moves(position));
        for s in &syms {
            let image = Position::from_bits(s(p));
            let f = euler::probe(image);
            assert_eq!(
                (f.outcome, f.moves_left),
                (e.outcome, e.moves_left),
                "{p:#06x}"
            );
            let mapped: BTreeSet<u16> = winning.iter().map(|&m| s(m)).collect();
            assert_eq!(bits(euler::winning_moves(image)), mapped, "{p:#06x}");
            if let Some(best) = e.best_move {
                let moved = Move::from_bits(s(best.bits())).expect("moves map to moves");
                let next = euler::probe(image.play(moved).expect("still legal"));
                assert_eq!(next.moves_left + 1, e.moves_left, "{p:#06x}");
            }
        }
    }
}

#[test]
fn the_judge_sample() {
    let boards = oracle::samples::euler_boards();
    let answers: Vec<Outcome> = oracle::samples::EULER_ANSWER
        .lines()
        .map(|a| {
            if a == "WINNING" {
                Outcome::Win
            } else {
                Outcome::Loss
            }
        })
        .collect();
    assert_eq!(answers, [Outcome::Loss, Outcome::Win, Outcome::Loss]);
    assert_eq!(boards.len(), answers.len());
    for (text, want) in boards.iter().map(String::as_str).zip(answers) {
        let p: Position = text.parse().unwrap();
        assert_eq!(euler::outcome(p), want, "{text}");
        assert_eq!(
            euler::outcome(p).answer(),
            if want == Outcome::Win {
                "WINNING"
            } else {
                "LOSING"
            }
        );
        assert_eq!(p.to_string(), text);
    }
}

#[test]
fn text_round_trips_for_every_position() {
    for p in 0..=FULL {
        let position = Position::from_bits(p);
        let rows: Vec<String> = (0..4)
            .map(|r| {
                (0..4)
                    .map(|c| if p & cell(r, c) != 0 { 'X' } else { '.' })
                    .collect()
            })
            .collect();
        assert_eq!(position.to_string(), rows.join("\n"));
        assert_eq!(format!("{position:#}"), rows.join("/"));
        assert_eq!(rows.join("\r\n").parse::<Position>(), Ok(position));
        assert_eq!(position.open_squares() as u32, p.count_zeros());
    }
}

#[test]
fn parse_errors_have_positions() {
    let e = "XXX./XXY./.XXX/.XXX".parse::<Position>().unwrap_err();
    assert_eq!((e.line, e.column, e.expected), (1, 8, "'X' or '.'"));
    let e = "XXXX\nXXX\nXXXX\nXXXX".parse::<Position>().unwrap_err();
    assert_eq!((e.line, e.column), (2, 4));
}
