//! Property tests (proptest) of the tables, the Carcassonne counter and the
//! command line.
//!
//! - Flip and Euler answers are invariant under the 8 symmetries of the
//!   square, written here on (row, col) rather than taken from
//!   `boardbase_tables::board`.
//! - Every Flip press set the tables give makes the board uniform, pressed
//!   with the press rule of `tests/oracle`, and is as short as any press
//!   set.
//! - Carcassonne counts (mod p and exact) are invariant under transposing
//!   the whole board and turning it by quarter turns, each tile turned with
//!   it by the tile turning of `tests/oracle`.
//! - Any bytes given to `flip`, `euler` or `carcassonne` end in well-formed
//!   answers (exit 0) or in the answers so far plus one error line naming a
//!   line and column that point at what it says was found (exit 1): never a
//!   panic (exit 101) or a signal.

use crate::common;
use crate::oracle;

use std::collections::BTreeSet;
use std::sync::OnceLock;

use boardbase::carcassonne::{self, CountOptions, MODULUS};
use boardbase::euler::{self, Move, Outcome, Position};
use boardbase::flip::{self, Board, Colour, Presses};
use num_bigint::BigUint;
use oracle::carcassonne::{Plain, turn_cw};
use oracle::press;
use proptest::prelude::*;
use proptest::sample::Index;

// ---------------------------------------------------------------------------
// The 8 symmetries of the 4×4 square.

const SIDE: usize = 4;

/// Where symmetry `s` (0..8) sends cell (`r`, `c`): `s % 4` quarter turns
/// clockwise, then a mirror in the vertical axis when `s >= 4`.
fn map_cell(s: usize, r: usize, c: usize) -> (usize, usize) {
    let (mut r, mut c) = (r, c);
    for _ in 0..s % 4 {
        // A quarter turn clockwise: row r becomes column 3 - r.
        (r, c) = (c, SIDE - 1 - r);
    }
    if s >= 4 {
        c = SIDE - 1 - c;
    }
    (r, c)
}

/// The 16-bit set `bits` (bit `4 * row + col`) under symmetry `s`.
fn map_bits(s: usize, bits: u16) -> u16 {
    let mut out = 0;
    for r in 0..SIDE {
        for c in 0..SIDE {
            if bits >> (SIDE * r + c) & 1 == 1 {
                let (r2, c2) = map_cell(s, r, c);
                out |= 1 << (SIDE * r2 + c2);
            }
        }
    }
    out
}

#[test]
fn the_eight_symmetries_are_distinct_permutations() {
    let images: BTreeSet<Vec<u16>> = (0..8)
        .map(|s| (0..16).map(|i| map_bits(s, 1 << i)).collect())
        .collect();
    assert_eq!(images.len(), 8);
    for image in &images {
        assert_eq!(image.iter().fold(0, |a, &b| a | b), u16::MAX);
    }
    // Each is an involution or has an inverse among them: four quarter
    // turns are the identity.
    for bits in [0x0001, 0x1234, 0xF00F] {
        let mut b = bits;
        for _ in 0..4 {
            b = map_bits(1, b);
        }
        assert_eq!(b, bits);
    }
}

// ---------------------------------------------------------------------------
// Flip Game, pressed by the oracle's rule (`press::apply_4x4`).

/// Per change of board (`start ^ end`): the fewest presses making it and how
/// many press sets of that size do, over all 65,536 press sets; `None` for
/// changes no press set makes.
fn fewest_presses() -> &'static [Option<(u8, u8)>] {
    static TABLE: OnceLock<Vec<Option<(u8, u8)>>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table: Vec<Option<(u8, u8)>> = vec![None; 1 << 16];
        for presses in 0..=u16::MAX {
            let size = presses.count_ones() as u8;
            let entry = &mut table[usize::from(press::apply_4x4(0, presses))];
            *entry = match *entry {
                Some((best, n)) if best == size => Some((best, n + 1)),
                Some((best, n)) if best < size => Some((best, n)),
                _ => Some((size, 1)),
            };
        }
        table
    })
}

fn uniform(colour: Colour) -> u16 {
    match colour {
        Colour::White => 0,
        Colour::Black => u16::MAX,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2048))]

    /// Rounds, colour and the number of optimal sets are the same for all 8
    /// images of a board, and each colour's press set, mapped the same way,
    /// solves the mapped board.
    #[test]
    fn flip_tables_invariant_under_symmetries(bits in any::<u16>()) {
        let board = Board::from_bits(bits);
        let key = |b: Board| {
            (
                flip::rounds(b),
                flip::solve(b).map(|s| (s.rounds, s.colour, s.optimal_sets)),
                Colour::ALL.map(|c| flip::route(b, c).map(|r| (r.rounds, r.optimal_sets))),
            )
        };
        for s in 1..8 {
            let image = Board::from_bits(map_bits(s, bits));
            prop_assert_eq!(key(image), key(board), "symmetry {}", s);
            for colour in Colour::ALL {
                if let Some(route) = flip::route(board, colour) {
                    let presses = map_bits(s, route.presses.bits());
                    prop_assert_eq!(press::apply_4x4(image.bits(), presses), uniform(colour));
                }
            }
        }
    }

    /// Every press set the tables give makes the board uniform in the
    /// colour they say, with as many presses as the rounds they say, and no
    /// press set does it in fewer; the number of optimal sets is right too.
    #[test]
    fn flip_press_sets_reach_a_uniform_board(bits in any::<u16>()) {
        let board = Board::from_bits(bits);
        for colour in Colour::ALL {
            let oracle = fewest_presses()[usize::from(bits ^ uniform(colour))];
            let route = flip::route(board, colour);
            prop_assert_eq!(route.map(|r| (r.rounds, r.optimal_sets)), oracle);
            if let Some(route) = route {
                prop_assert_eq!(press::apply_4x4(bits, route.presses.bits()), uniform(colour));
                prop_assert_eq!(route.presses.len(), route.rounds);
            }
        }
        match flip::solve(board) {
            Some(s) => {
                prop_assert_eq!(press::apply_4x4(bits, s.presses.bits()), uniform(s.colour));
                prop_assert_eq!(s.presses.len(), s.rounds);
                prop_assert_eq!(flip::rounds(board), Some(s.rounds));
                prop_assert_eq!(board.apply(s.presses).uniform(), Some(s.colour));
            }
            None => prop_assert_eq!(flip::rounds(board), None),
        }
    }

    /// Pressing any set of cells on a uniform board gives a board the
    /// tables solve back in at most that many rounds.
    #[test]
    fn flip_any_press_set_is_undone(presses in any::<u16>(), black in any::<bool>()) {
        let colour = if black { Colour::Black } else { Colour::White };
        let board = Board::from_bits(press::apply_4x4(uniform(colour), presses));
        let route = flip::route(board, colour);
        prop_assert!(route.is_some_and(|r| u32::from(r.rounds) <= presses.count_ones()));
        prop_assert!(flip::rounds(board).is_some_and(|r| u32::from(r) <= presses.count_ones()));
        // Pressing the same set again undoes it.
        prop_assert_eq!(board.apply(Presses::from_bits(presses)).bits(), uniform(colour));
    }
}

// ---------------------------------------------------------------------------
// Game of Euler.

#[test]
fn euler_moves_are_closed_under_symmetries() {
    for mv in Move::ALL {
        for s in 0..8 {
            assert!(
                Move::from_bits(map_bits(s, mv.bits())).is_some(),
                "symmetry {s} of move {mv:#}"
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2048))]

    /// Outcome, moves left and the sets of legal and winning moves are the
    /// same for all 8 images of a position; the best move, mapped, is a
    /// best move of the image.
    #[test]
    fn euler_tables_invariant_under_symmetries(bits in any::<u16>()) {
        let position = Position::from_bits(bits);
        let entry = euler::probe(position);
        prop_assert_eq!(euler::outcome(position), entry.outcome);
        let moves = |p: Position, s: usize, f: fn(Position) -> Vec<Move>| -> BTreeSet<u16> {
            f(p).into_iter().map(|m| map_bits(s, m.bits())).collect()
        };
        let legal: fn(Position) -> Vec<Move> = |p| euler::legal_moves(p).collect();
        let winning: fn(Position) -> Vec<Move> = |p| euler::winning_moves(p).collect();
        for s in 1..8 {
            let image = Position::from_bits(map_bits(s, bits));
            let e = euler::probe(image);
            prop_assert_eq!((e.outcome, e.moves_left), (entry.outcome, entry.moves_left));
            prop_assert_eq!(e.best_move.is_some(), entry.best_move.is_some());
            prop_assert_eq!(moves(position, s, legal), moves(image, 0, legal));
            prop_assert_eq!(moves(position, s, winning), moves(image, 0, winning));
            let i = usize::from(bits);
            let j = usize::from(image.bits());
            prop_assert_eq!(euler::raw::WINNING[j], euler::raw::WINNING[i]);
            prop_assert_eq!(euler::raw::PLIES[j], euler::raw::PLIES[i]);
            if let Some(best) = entry.best_move {
                let mapped = Move::from_bits(map_bits(s, best.bits()));
                prop_assert!(mapped.is_some_and(|m| image.can_play(m)));
                let after = euler::probe(image.play(mapped.unwrap()).unwrap());
                // The winner moves to a lost position, the loser to a won
                // one, and either way one ply is gone.
                let flipped = match entry.outcome {
                    Outcome::Win => Outcome::Loss,
                    Outcome::Loss => Outcome::Win,
                };
                prop_assert_eq!(after.outcome, flipped);
                prop_assert_eq!(after.moves_left + 1, entry.moves_left);
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Carcassonne, with the tests' own tile rotation (tests/oracle/carcassonne.rs).

fn letters(alphabet: &'static [u8]) -> impl Strategy<Value = u8> {
    prop::sample::select(alphabet)
}

/// Boards of at most 12 tiles (so the narrower side is at most 3): random
/// tiles over `CRF` or over `CR` (more of them solvable), planted ones (a
/// valid placement exists: random colours on every grid edge, each tile
/// then shown turned at random) and rotations of `RRFF`.
fn carcassonne_boards() -> impl Strategy<Value = Plain> {
    (1..=12usize)
        .prop_flat_map(|rows| (Just(rows), 1..=12 / rows))
        .prop_flat_map(|(rows, cols)| {
            let n = rows * cols;
            let random3 = prop::collection::vec(prop::array::uniform4(letters(b"CRF")), n);
            let random2 = prop::collection::vec(prop::array::uniform4(letters(b"CR")), n);
            let planted = (
                prop::collection::vec(letters(b"CRF"), (rows + 1) * cols),
                prop::collection::vec(letters(b"CRF"), rows * (cols + 1)),
                prop::collection::vec(0..4u8, n),
            )
                .prop_map(move |(horizontal, vertical, turns)| {
                    let mut tiles = Vec::with_capacity(n);
                    for r in 0..rows {
                        for c in 0..cols {
                            let tile = [
                                horizontal[r * cols + c],
                                vertical[r * (cols + 1) + c + 1],
                                horizontal[(r + 1) * cols + c],
                                vertical[r * (cols + 1) + c],
                            ];
                            tiles.push((0..turns[r * cols + c]).fold(tile, |e, _| turn_cw(e)));
                        }
                    }
                    tiles
                });
            let two_pair = prop::collection::vec(0..4u8, n).prop_map(|turns| {
                turns
                    .into_iter()
                    .map(|k| (0..k).fold(*b"RRFF", |e, _| turn_cw(e)))
                    .collect()
            });
            prop_oneof![random3, random2, planted, two_pair].prop_map(move |tiles| Plain {
                rows,
                cols,
                tiles,
            })
        })
}

/// The count mod p, the exact count, and whether a witness exists and is
/// valid (checked with the oracle's tile turning and edge matching).
fn carcassonne_answers(plain: &Plain) -> Result<(u64, BigUint), TestCaseError> {
    let board = plain.board();
    let options = |exact, witness| CountOptions {
        exact,
        witness,
        ..CountOptions::default()
    };
    // Each answer its own pass: the exact count (beside the count mod p),
    // then the witness alone (which, found first, would skip the counts).
    let counted = carcassonne::count(&board, &options(true, false), || false);
    let counted = counted.expect("within budget");
    let (modp, exact) = (counted.count, counted.exact.expect("asked for"));
    prop_assert_eq!(BigUint::from(modp), &exact % MODULUS);
    let witness = carcassonne::count(&board, &options(false, true), || false);
    match witness.expect("within budget").witness.expect("asked for") {
        Some(turns) => {
            prop_assert!(exact != BigUint::ZERO);
            prop_assert!(plain.valid(&turns), "witness {:?} of {:?}", turns, plain);
        }
        None => prop_assert_eq!(&exact, &BigUint::ZERO),
    }
    Ok((modp, exact))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// The count mod p and the exact count agree on a board, its transposition and its
    /// three quarter turns.
    #[test]
    fn carcassonne_counts_invariant_under_turns_and_transposition(
        plain in carcassonne_boards()
    ) {
        let answers = carcassonne_answers(&plain)?;
        prop_assert_eq!(carcassonne_answers(&plain.transposed())?, answers.clone(), "transposed");
        let mut turned = plain.clone();
        for quarter in 1..4 {
            turned = turned.turned();
            prop_assert_eq!(
                carcassonne_answers(&turned)?, answers.clone(), "turned {}×", quarter
            );
            prop_assert_eq!(
                carcassonne_answers(&turned.transposed())?, answers.clone(),
                "turned {}× and transposed", quarter
            );
        }
        prop_assert_eq!(turned.turned(), plain.clone(), "four quarter turns are the identity");
        prop_assert_eq!(plain.transposed().transposed(), plain);
    }
}

// ---------------------------------------------------------------------------
// Any bytes, to any subcommand.

#[derive(Clone, Copy, Debug)]
enum Sub {
    Flip,
    Euler,
    Carcassonne,
}

impl Sub {
    fn name(self) -> &'static str {
        match self {
            Sub::Flip => "flip",
            Sub::Euler => "euler",
            Sub::Carcassonne => "carcassonne",
        }
    }
}

/// Bytes that make likely-looking input for a subcommand: its symbols,
/// whitespace and digits.
fn alphabet(sub: Sub) -> &'static [u8] {
    match sub {
        Sub::Flip => b"bwbwbwbw\n\n\n\r \t",
        Sub::Euler => b"X.X.X.X.\n\n\n\r \t01234",
        Sub::Carcassonne => b"CRFCRFCRF\n\r \t  0123456789",
    }
}

/// Pieces worth splicing into an input.
const TOKENS: &[&[u8]] = &[
    b"\n",
    b"\r\n",
    b"\n\n",
    b" ",
    b"\t",
    b"\x0B",
    b"0",
    b"1",
    b"-1",
    b"16 ",
    b"17 17\n",
    b"18446744073709551615",
    b"18446744073709551616",
    b"1000000000000000000",
    b"x",
    b"\x00",
    b"\xff",
    "é".as_bytes(),
    b"\xc3",
    b"bwbw\n",
    b"XX..\n",
    b"CRFF ",
    b"CRFFC",
];

/// A valid input for `sub` (a few small cases, with assorted blank lines).
fn valid_input(sub: Sub) -> BoxedStrategy<Vec<u8>> {
    let grid = move |bits: u16, one: char, zero: char| -> String {
        (0..16)
            .map(|i| {
                let cell = if bits >> i & 1 == 1 { one } else { zero };
                if i % 4 == 3 {
                    format!("{cell}\n")
                } else {
                    cell.to_string()
                }
            })
            .collect()
    };
    match sub {
        Sub::Flip => prop::collection::vec((any::<u16>(), any::<bool>()), 1..5)
            .prop_map(move |boards| {
                let mut s = String::new();
                for (bits, blank) in boards {
                    if blank {
                        s.push('\n');
                    }
                    s += &grid(bits, 'b', 'w');
                }
                s.into_bytes()
            })
            .boxed(),
        Sub::Euler => prop::collection::vec(any::<u16>(), 0..5)
            .prop_map(move |boards| {
                let mut s = format!("{}\n", boards.len());
                for bits in boards {
                    s.push('\n');
                    s += &grid(bits, 'X', '.');
                }
                s.into_bytes()
            })
            .boxed(),
        Sub::Carcassonne => {
            let case = (1..=3usize, 1..=4usize).prop_flat_map(|(rows, cols)| {
                prop::collection::vec(prop::array::uniform4(letters(b"CRF")), rows * cols).prop_map(
                    move |tiles| {
                        let mut s = format!("{rows} {cols}\n");
                        for row in tiles.chunks(cols) {
                            let codes: Vec<&str> = row
                                .iter()
                                .map(|t| std::str::from_utf8(t).expect("ASCII"))
                                .collect();
                            s += &codes.join(" ");
                            s.push('\n');
                        }
                        s
                    },
                )
            });
            prop::collection::vec(case, 0..4)
                .prop_map(|cases| format!("{}\n{}", cases.len(), cases.concat()).into_bytes())
                .boxed()
        }
    }
}

/// One change to an input.
#[derive(Clone, Debug)]
enum Mutation {
    Replace(Index, u8),
    Insert(Index, &'static [u8]),
    Delete(Index, usize),
    Truncate(Index),
    Duplicate(Index, usize),
}

impl Mutation {
    fn apply(&self, v: &mut Vec<u8>) {
        let at = |i: &Index, len: usize| i.index(len + 1);
        match self {
            Mutation::Replace(i, b) if !v.is_empty() => {
                let i = i.index(v.len());
                v[i] = *b;
            }
            Mutation::Replace(..) => {}
            Mutation::Insert(i, t) => {
                let i = at(i, v.len());
                v.splice(i..i, t.iter().copied());
            }
            Mutation::Delete(i, n) => {
                let i = at(i, v.len());
                let end = (i + n).min(v.len());
                v.drain(i..end);
            }
            Mutation::Truncate(i) => v.truncate(at(i, v.len())),
            Mutation::Duplicate(i, n) => {
                let i = at(i, v.len());
                let piece = v[i..(i + n).min(v.len())].to_vec();
                v.splice(i..i, piece);
            }
        }
    }
}

fn mutation(sub: Sub) -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (
            any::<Index>(),
            prop_oneof![any::<u8>(), letters(alphabet(sub))]
        )
            .prop_map(|(i, b)| Mutation::Replace(i, b)),
        (any::<Index>(), prop::sample::select(TOKENS)).prop_map(|(i, t)| Mutation::Insert(i, t)),
        (any::<Index>(), 1..8usize).prop_map(|(i, n)| Mutation::Delete(i, n)),
        any::<Index>().prop_map(Mutation::Truncate),
        (any::<Index>(), 1..40usize).prop_map(|(i, n)| Mutation::Duplicate(i, n)),
    ]
}

/// Arbitrary bytes, bytes over the subcommand's alphabet, and valid inputs
/// with a few mutations.
fn any_input(sub: Sub) -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        1 => prop::collection::vec(any::<u8>(), 0..200),
        1 => prop::collection::vec(letters(alphabet(sub)), 0..200),
        4 => (valid_input(sub), prop::collection::vec(mutation(sub), 0..3)).prop_map(
            |(mut input, mutations)| {
                for m in &mutations {
                    m.apply(&mut input);
                }
                input
            }
        ),
    ]
}

/// The leading unsigned number of `input` after whitespace, as the case
/// count reader sees it; 0 for an input of only whitespace, which has no
/// cases.
fn leading_count(input: &[u8]) -> Option<u64> {
    let Some(start) = input.iter().position(|b| !b" \t\r\n\x0B\x0C".contains(b)) else {
        return Some(0);
    };
    let digits: &[u8] = &input[start..];
    let len = digits.iter().take_while(|b| b.is_ascii_digit()).count();
    std::str::from_utf8(&digits[..len]).ok()?.parse().ok()
}

/// Checks one answer line; `answers` is how many came before it.
fn check_answer(sub: Sub, line: &str, answers: u64) -> Result<(), TestCaseError> {
    match sub {
        Sub::Flip => prop_assert!(
            line == "Impossible" || matches!(line.as_bytes(), [b'0'..=b'6']),
            "flip answer {:?}",
            line
        ),
        Sub::Euler => prop_assert!(line == "WINNING" || line == "LOSING", "{:?}", line),
        Sub::Carcassonne => {
            let rest = line.strip_prefix("Case ");
            let (k, n) = rest
                .and_then(|r| r.split_once(": "))
                .ok_or_else(|| TestCaseError::fail(format!("answer {line:?}")))?;
            prop_assert_eq!(k.parse::<u64>().ok(), Some(answers + 1), "{:?}", line);
            prop_assert!(n.parse::<u64>().is_ok_and(|n| n < MODULUS), "{:?}", line);
        }
    }
    Ok(())
}

/// Byte offset of 1-based (`line`, `column`) in `input`, which must be on
/// that line or at its end.
fn offset_of(input: &[u8], line: u64, column: u64) -> Result<usize, TestCaseError> {
    prop_assert!(line >= 1 && column >= 1);
    let mut start = 0;
    for _ in 1..line {
        let nl = input[start..].iter().position(|&b| b == b'\n');
        let nl = nl.ok_or_else(|| TestCaseError::fail(format!("no line {line}")))?;
        start += nl + 1;
    }
    let end = input[start..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(input.len(), |n| start + n);
    let offset = start + (column - 1) as usize;
    prop_assert!(
        offset <= end,
        "column {} past the end of line {}",
        column,
        line
    );
    Ok(offset)
}

/// Checks that `found` (as the error message prints it) describes the
/// input at `offset`.
fn check_found(input: &[u8], offset: usize, found: &str) -> Result<(), TestCaseError> {
    let rest = &input[offset..];
    match found {
        "end of input" => prop_assert!(rest.is_empty()),
        "end of line" => prop_assert!(rest.starts_with(b"\n") || rest.starts_with(b"\r\n")),
        "a blank line" => prop_assert!(rest.starts_with(b"\n")),
        "a number too large" => prop_assert!(rest.first().is_some_and(u8::is_ascii_digit)),
        _ if found.starts_with("byte 0x") => {
            let byte = u8::from_str_radix(&found[7..], 16).ok();
            prop_assert_eq!(rest.first().copied(), byte);
        }
        _ if found.starts_with("U+") => {
            // A character that does not print, by its code point.
            let code = u32::from_str_radix(&found[2..], 16).ok();
            let c = (1..=4).find_map(|w| {
                let s = std::str::from_utf8(rest.get(..w)?).ok()?;
                s.chars().next()
            });
            prop_assert_eq!(c.map(u32::from), code);
        }
        _ if found.starts_with('\'') => {
            // A character, printed as Rust's `{:?}` does.
            let shown = (1..=4).find_map(|w| {
                let s = std::str::from_utf8(rest.get(..w)?).ok()?;
                let c = s.chars().next()?;
                Some(format!("{c:?}"))
            });
            prop_assert_eq!(shown.as_deref(), Some(found));
        }
        _ if found.ends_with(" characters") => {
            prop_assert!(rest.first().is_some_and(u8::is_ascii_graphic))
        }
        _ => {
            prop_assert!(found.parse::<u64>().is_ok(), "found {:?}", found);
            prop_assert!(rest.first().is_some_and(u8::is_ascii_digit));
        }
    }
    Ok(())
}

/// Runs `sub` on `input` and checks the outcome.
fn check_run(sub: Sub, input: &[u8]) -> Result<(), TestCaseError> {
    // `run` panics (failing the case) if the binary dies by a signal.
    let r = common::run(&[sub.name()], input);
    prop_assert!(r.code == 0 || r.code == 1, "exit {}: {}", r.code, r.stderr);
    prop_assert!(
        r.stdout.is_empty() || r.stdout.ends_with('\n'),
        "a cut line"
    );
    let mut answers = 0u64;
    for line in r.stdout.lines() {
        check_answer(sub, line, answers)?;
        answers += 1;
    }
    if r.code == 0 {
        prop_assert_eq!(r.stderr.as_str(), "");
        match sub {
            // Any number of boards, none included.
            Sub::Flip => {}
            Sub::Euler | Sub::Carcassonne => {
                prop_assert_eq!(Some(answers), leading_count(input))
            }
        }
        return Ok(());
    }
    // A board read as 4x4 whose first row has another width: the error,
    // then a line of its own saying how to give the size.
    let stderr = match r.stderr.split_once("\nhint: ") {
        Some((error, hint)) => {
            prop_assert!(matches!(sub, Sub::Flip | Sub::Euler), "{:?}", r.stderr);
            prop_assert_eq!(
                hint,
                "--size RxC answers other board sizes (a board read as 4x4 for want of it)\n"
            );
            format!("{error}\n")
        }
        None => r.stderr.clone(),
    };
    let message = stderr
        .strip_prefix("error: <stdin>:")
        .and_then(|m| m.strip_suffix('\n'))
        .filter(|m| !m.contains('\n'))
        .ok_or_else(|| TestCaseError::fail(format!("stderr {:?}", r.stderr)))?;
    let (line, rest) = message
        .split_once(':')
        .ok_or_else(|| TestCaseError::fail(format!("no line in {message:?}")))?;
    let line: u64 = line
        .parse()
        .map_err(|_| TestCaseError::fail(format!("line in {message:?}")))?;
    prop_assert!(line >= 1);
    // A Carcassonne case over the memory budget: `LINE: case K: ...`.
    if let (Sub::Carcassonne, Some(case)) = (sub, rest.strip_prefix(" case ")) {
        let k = case
            .split_once(": ")
            .and_then(|(k, _)| k.parse::<u64>().ok());
        prop_assert_eq!(k, Some(answers + 1), "{:?}", message);
        return Ok(());
    }
    let (column, rest) = rest
        .split_once(": expected ")
        .ok_or_else(|| TestCaseError::fail(format!("no column in {message:?}")))?;
    let column: u64 = column
        .parse()
        .map_err(|_| TestCaseError::fail(format!("column in {message:?}")))?;
    let (expected, found) = rest
        .rsplit_once(", found ")
        .ok_or_else(|| TestCaseError::fail(format!("no 'found' in {message:?}")))?;
    prop_assert!(!expected.is_empty() && !found.is_empty(), "{:?}", message);
    let offset = offset_of(input, line, column)?;
    check_found(input, offset, found).map_err(|e| {
        TestCaseError::fail(format!(
            "{message:?} does not describe the input there: {e}"
        ))
    })?;
    if let (Sub::Euler, Some(count)) = (sub, leading_count(input)) {
        prop_assert!(answers <= count);
    }
    Ok(())
}

proptest! {
    // Each case starts the binary: keep the count modest.
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn flip_any_bytes_answer_or_fail_cleanly(input in any_input(Sub::Flip)) {
        check_run(Sub::Flip, &input)?;
    }

    #[test]
    fn euler_any_bytes_answer_or_fail_cleanly(input in any_input(Sub::Euler)) {
        check_run(Sub::Euler, &input)?;
    }

    #[test]
    fn carcassonne_any_bytes_answer_or_fail_cleanly(input in any_input(Sub::Carcassonne)) {
        check_run(Sub::Carcassonne, &input)?;
    }
}

#[test]
fn the_cli_checker_accepts_known_outcomes() {
    // Guard the checker itself against accepting nothing or everything.
    check_run(Sub::Flip, oracle::samples::FLIP.as_bytes()).unwrap();
    check_run(Sub::Flip, b"bwwb\nbbwb\nbwxb\nbwww\n").unwrap();
    check_run(Sub::Euler, b"1\n....\n....\n....\n....\n").unwrap();
    check_run(Sub::Euler, b"2\n....\n....\n....\n....\n").unwrap();
    check_run(Sub::Carcassonne, b"2\n1 1\nRRRR\n1 2\nRRRF FCCC\n").unwrap();
    check_run(Sub::Carcassonne, b"2\n1 1\nRRRR\n1 2\nRRRF FCXC\n").unwrap();
    check_run(Sub::Carcassonne, "1\n1 1\nRRé\n".as_bytes()).unwrap();
    // A wrong position is caught.
    assert!(check_found(b"abc", 1, "'a'").is_err());
    assert!(check_found(b"abc", 0, "'a'").is_ok());
}
