//! `lights::Solver::move_values` (every press's value from one search of
//! the press sets, by the coset argument in its docs) against oracles that
//! solve the `R·C` boards one press away one by one:
//!
//! - every board of every shape with R·C ≤ 12, and every 4×4 board, against
//!   an exhaustive table of press sets written here (each of the 2^(R·C)
//!   press sets applied cell by cell and filed under the board it makes
//!   white or black), for each search the solver has (Gray code, and the
//!   Walsh–Hadamard transforms in blocks of 2 and 4 coordinates, so that
//!   several blocks are summed);
//! - every board of 4×5 against the generated Flip tables (rounds to each
//!   colour of each board one press away);
//! - random boards of shapes up to 32×32 (nullity up to 20: the transform
//!   path) against separate solves of the pressed boards with
//!   `Solver::route`, the boards one press away made with the press rule of
//!   `tests/oracle`.

use crate::oracle::{press, tables};

use boardbase::flip::Colour;
use boardbase::generate::{self, FlipOptions};
use boardbase::lights::{self, ColourMoves, Grid, MAX_NULLITY, Search, Solver};
use boardbase::tables::shape::Shape;

fn shape(rows: usize, cols: usize) -> Shape {
    Shape::new(rows, cols).expect("valid shape")
}

/// The board after a press at (`r`, `c`), by the oracle's press rule (on
/// coordinates: boards go up to 32×32 here).
fn after_press(board: &Grid, r: usize, c: usize) -> Grid {
    let s = board.shape();
    let mut out = board.clone();
    for (rr, cc) in press::flips(s.rows(), s.cols(), r, c) {
        out.set(rr, cc, !board.get(rr, cc));
    }
    out
}

/// Fewest presses to white per board (bit `C·r + c`), 255 when white
/// cannot be reached: the whole table of `tests/oracle/tables.rs` (every
/// press set applied cell by cell).
fn white_table(s: Shape) -> Vec<u8> {
    let [white, _] = tables::Flip::solve(s).rounds;
    white
}

fn grid_of(s: Shape, bits: u64) -> Grid {
    Grid::from_u64(s, bits).expect("fits the shape")
}

fn as_option(rounds: u8) -> Option<usize> {
    (rounds != 255).then_some(usize::from(rounds))
}

/// The searches of one colour's move values, all of which must agree.
const SEARCHES: [Search; 4] = [
    Search::Auto,
    Search::Gray,
    Search::Walsh { block_bits: 2 },
    Search::Walsh { block_bits: 4 },
];

fn check_against_table(s: Shape, white: &[u8]) {
    let solver = Solver::new(s);
    let full = s.full();
    for bits in 0..1u64 << s.cells() {
        let board = grid_of(s, bits);
        let values = solver.move_values(&board).expect("small nullity");
        assert_eq!(
            values.routes(),
            solver.routes(&board).unwrap(),
            "{s} {bits:#x}"
        );
        for (colour, mine) in [
            (Colour::White, &values.white),
            (Colour::Black, &values.black),
        ] {
            let lookup = |b: u64| match colour {
                Colour::White => as_option(white[b as usize]),
                Colour::Black => as_option(white[(b ^ full) as usize]),
            };
            assert_eq!(
                mine.as_ref().map(|m| m.answer.rounds),
                lookup(bits),
                "{s} {bits:#x}"
            );
            for search in SEARCHES {
                let other = solver
                    .colour_moves_by(&board, colour, MAX_NULLITY, search)
                    .unwrap();
                assert_eq!(&other, mine, "{s} {bits:#x} {colour:?} {search:?}");
            }
            for r in 0..s.rows() {
                for c in 0..s.cols() {
                    let after = after_press(&board, r, c).to_u64().unwrap();
                    let got = mine.as_ref().map(|m| m.rounds_after(r, c));
                    assert_eq!(
                        got,
                        lookup(after),
                        "{s} {bits:#x} {colour:?} press ({r}, {c})"
                    );
                }
            }
        }
        for r in 0..s.rows() {
            for c in 0..s.cols() {
                let after = after_press(&board, r, c).to_u64().unwrap();
                let either = match (
                    as_option(white[after as usize]),
                    as_option(white[(after ^ full) as usize]),
                ) {
                    (Some(w), Some(b)) => Some(w.min(b)),
                    (w, b) => w.or(b),
                };
                assert_eq!(
                    values.rounds_after(r, c),
                    either,
                    "{s} {bits:#x} ({r}, {c})"
                );
            }
        }
    }
}

#[test]
fn every_board_of_every_shape_up_to_12_cells() {
    for rows in 1..=12 {
        for cols in 1..=12 / rows {
            let s = shape(rows, cols);
            check_against_table(s, &white_table(s));
        }
    }
}

#[test]
fn every_4x4_board() {
    // Nullity 4: the transforms in blocks of 2 coordinates sum 4 blocks.
    let s = shape(4, 4);
    check_against_table(s, &white_table(s));
}

#[test]
fn every_4x5_board_against_the_generated_tables() {
    let s = shape(4, 5);
    let tables = generate::flip(s, &FlipOptions::default(), |_| {}).expect("4x5 tables");
    for bits in 0..1u64 << s.cells() {
        let board = grid_of(s, bits);
        let values = lights::move_values(&board).unwrap();
        for r in 0..s.rows() {
            for c in 0..s.cols() {
                let after = after_press(&board, r, c).to_u64().unwrap() as usize;
                let rounds = tables.rounds(after as u64).map(usize::from);
                assert_eq!(values.rounds_after(r, c), rounds, "{bits:#x} ({r}, {c})");
                for (colour, mine) in [
                    (Colour::White, &values.white),
                    (Colour::Black, &values.black),
                ] {
                    let stored = as_option(tables.colour(colour).rounds[after]);
                    assert_eq!(
                        mine.as_ref().map(|m| m.rounds_after(r, c)),
                        stored,
                        "{bits:#x} {colour:?}"
                    );
                }
            }
        }
    }
}

/// xorshift64: deterministic test data.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn grid(&mut self, s: Shape) -> Grid {
        let rows: Vec<u64> = (0..s.rows()).map(|_| self.next() & s.row_mask()).collect();
        Grid::from_rows(s, &rows).unwrap()
    }

    /// A board that can reach `colour`: that colour with random presses.
    fn solvable(&mut self, s: Shape, sparse: bool) -> Grid {
        let start = if self.next() & 1 == 1 {
            Grid::filled(s)
        } else {
            Grid::new(s)
        };
        let mut presses = self.grid(s);
        if sparse {
            // Few presses: answers of few rounds, with many press sets of
            // one more.
            let keep = self.grid(s);
            let also = self.grid(s);
            for r in 0..s.rows() {
                for c in 0..s.cols() {
                    let on = presses.get(r, c) && keep.get(r, c) && also.get(r, c);
                    presses.set(r, c, on);
                }
            }
        }
        start.apply(&presses)
    }
}

/// Checks every press of `board` (or every `step`-th cell) against a
/// separate solve of the pressed board.
fn check_against_solves(solver: &Solver, board: &Grid, step: usize) {
    let s = board.shape();
    let values = solver.move_values(board).unwrap();
    assert_eq!(values.routes(), solver.routes(board).unwrap());
    for i in (0..s.cells()).step_by(step) {
        let (r, c) = (i / s.cols(), i % s.cols());
        let after = after_press(board, r, c);
        for (colour, mine) in [
            (Colour::White, &values.white),
            (Colour::Black, &values.black),
        ] {
            let solved = solver.route(&after, colour).unwrap().map(|a| a.rounds);
            let got = mine.as_ref().map(|m: &ColourMoves| m.rounds_after(r, c));
            assert_eq!(got, solved, "{s} press ({r}, {c}) to {colour:?}");
        }
        let either = solver.routes(&after).unwrap().best().map(|a| a.rounds);
        assert_eq!(values.rounds_after(r, c), either, "{s} press ({r}, {c})");
    }
}

#[test]
fn random_boards_against_separate_solves() {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    // Nullities 2, 0, 8, 6, 8, 16 (the transforms), 4, 20 and 20.
    for (r, c, boards, step) in [
        (5, 5, 40, 1),
        (6, 9, 20, 1),
        (9, 9, 20, 1),
        (11, 11, 12, 1),
        (16, 16, 6, 1),
        (19, 19, 4, 3),
        (24, 24, 2, 7),
        (30, 30, 1, 29),
        (32, 32, 1, 31),
    ] {
        let s = shape(r, c);
        let solver = Solver::cached(s);
        for i in 0..boards {
            let board = match i % 3 {
                0 => rng.grid(s),
                1 => rng.solvable(s, false),
                _ => rng.solvable(s, true),
            };
            check_against_solves(solver, &board, step);
        }
    }
}

#[test]
fn gray_and_transforms_agree_on_larger_nullities() {
    // 19×19 has nullity 16: Auto takes the transforms; Gray is still cheap
    // enough to compare with, and so are blocks of 4 coordinates.
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for (r, c) in [(19, 19), (14, 14), (9, 9)] {
        let s = shape(r, c);
        let solver = Solver::cached(s);
        for i in 0..4 {
            let board = rng.solvable(s, i % 2 == 0);
            for colour in Colour::ALL {
                let gray = solver
                    .colour_moves_by(&board, colour, MAX_NULLITY, Search::Gray)
                    .unwrap();
                for search in [
                    Search::Auto,
                    Search::Walsh { block_bits: 4 },
                    Search::Walsh { block_bits: 14 },
                ] {
                    let other = solver
                        .colour_moves_by(&board, colour, MAX_NULLITY, search)
                        .unwrap();
                    assert_eq!(other, gray, "{s} {colour:?} {search:?}");
                }
            }
        }
    }
}

#[test]
fn past_the_nullity_limit_is_an_error() {
    let s = shape(27, 35);
    let board = Grid::new(s);
    let e = Solver::cached(s).move_values(&board).unwrap_err();
    assert_eq!(
        e.to_string(),
        "a 27x35 board has nullity 27 (2^27 press sets reach each colour); the fewest presses are only searched up to nullity 24"
    );
}
