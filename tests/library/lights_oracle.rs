//! `boardbase::lights` against oracles written here, with other methods:
//!
//! - every press set of every shape with R·C ≤ 16 (no algebra at all: each
//!   of the 2^(R·C) press sets is applied cell by cell and filed under the
//!   board it clears), for every board and all three goals;
//! - first-row enumeration (every one of the 2^C first rows, the lights
//!   chased press by press on a grid of bytes) for random boards up to 12×12
//!   and the tie rule on the singular shapes 4×4, 5×5, 9×9, 11×11 and 14×14;
//! - the 4×4 tables of `boardbase::flip`, for all 65,536 boards.
//!
//! Fewest presses, number of optimal sets, the tie rule (the least press set
//! in reading order, `'0'` < `'1'`) and "white on a tie" for `Goal::Either`
//! are all checked. Every press is made by the press rule of `tests/oracle`.

use crate::oracle::{fliptile, press, samples};

use boardbase::flip;
use boardbase::lights::{self, Answer, Colour, Goal, Grid, LightsError, Search, Solver};
use boardbase::tables::shape::Shape;

fn shape(rows: usize, cols: usize) -> Shape {
    Shape::new(rows, cols).expect("valid shape")
}

/// What an oracle says about one colour: fewest presses, number of optimal
/// sets, the least optimal set in reading order (as `0`/`1` rows).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Expected {
    rounds: usize,
    optimal_sets: u64,
    presses: String,
}

/// A press set as the row-major string the tie rule compares.
fn press_string(g: &Grid) -> String {
    let s = g.shape();
    let mut out = String::with_capacity(s.cells());
    for r in 0..s.rows() {
        for c in 0..s.cols() {
            out.push(if g.get(r, c) { '1' } else { '0' });
        }
    }
    out
}

fn got(answer: &Option<Answer>) -> Option<Expected> {
    answer.as_ref().map(|a| Expected {
        rounds: a.rounds,
        optimal_sets: a.optimal_sets,
        presses: press_string(&a.presses),
    })
}

/// Checks one board: the solver's three goals against the oracle's two
/// colours (and that its press sets really reach the colour).
fn check_board(board: &Grid, white: Option<Expected>, black: Option<Expected>) {
    let solver = Solver::cached(board.shape());
    let routes = solver.routes(board).expect("small nullity");
    let (w, b) = (&routes.white, &routes.black);
    assert_eq!(got(w), white, "{board:?} to white");
    assert_eq!(got(b), black, "{board:?} to black");
    for (a, colour) in [(w, Colour::White), (b, Colour::Black)] {
        if let Some(a) = a {
            assert_eq!(a.colour, colour);
            assert_eq!(board.apply(&a.presses).uniform(), Some(colour), "{board:?}");
            assert_eq!(a.presses.count(), a.rounds);
            assert_eq!(a.is_unique(), a.optimal_sets == 1);
        }
    }
    // Either colour: the fewer presses, white on a tie, both counted then.
    let either = routes.best();
    let expected = match (&white, &black) {
        (None, None) => None,
        (Some(w), None) => Some((Colour::White, w.clone())),
        (None, Some(b)) => Some((Colour::Black, b.clone())),
        (Some(w), Some(b)) if b.rounds < w.rounds => Some((Colour::Black, b.clone())),
        (Some(w), Some(b)) if w.rounds < b.rounds => Some((Colour::White, w.clone())),
        (Some(w), Some(b)) => Some((
            Colour::White,
            Expected {
                optimal_sets: w.optimal_sets + b.optimal_sets,
                ..w.clone()
            },
        )),
    };
    assert_eq!(
        either
            .as_ref()
            .map(|a| (a.colour, got(&Some(a.clone())).unwrap())),
        expected,
        "{board:?} to either colour"
    );
}

/// Every press set of one small shape, filed under the board it clears:
/// per board, the fewest presses, how many sets have that many, and the
/// least in reading order.
fn press_table(rows: usize, cols: usize) -> Vec<Option<Expected>> {
    let n = rows * cols;
    // Reading order: cell 0 is the most significant character.
    let key = |p: u32| p.reverse_bits() >> (32 - n);
    let mut best: Vec<Option<(usize, u64, u32)>> = vec![None; 1 << n];
    for p in 0..1u32 << n {
        let board = press::effect(rows, cols, u64::from(p)) as usize;
        let w = p.count_ones() as usize;
        best[board] = Some(match best[board] {
            None => (w, 1, p),
            Some((bw, _, _)) if w < bw => (w, 1, p),
            Some((bw, count, bp)) if w == bw => {
                (bw, count + 1, if key(p) < key(bp) { p } else { bp })
            }
            Some(other) => other,
        });
    }
    best.into_iter()
        .map(|e| {
            e.map(|(rounds, optimal_sets, p)| Expected {
                rounds,
                optimal_sets,
                presses: (0..n)
                    .map(|i| if p >> i & 1 == 1 { '1' } else { '0' })
                    .collect(),
            })
        })
        .collect()
}

fn grid_from_cells(rows: usize, cols: usize, bits: u32) -> Grid {
    let s = shape(rows, cols);
    let row_bits: Vec<u64> = (0..rows)
        .map(|r| u64::from(bits >> (r * cols)) & s.row_mask())
        .collect();
    Grid::from_rows(s, &row_bits).expect("rows fit")
}

#[test]
fn every_board_of_every_shape_up_to_16_cells() {
    let mut shapes = 0;
    for rows in 1..=16 {
        for cols in 1..=16 / rows {
            shapes += 1;
            let n = rows * cols;
            let table = press_table(rows, cols);
            let full = (1u32 << n) - 1;
            // The number of boards that can be cleared is 2^(cells - nullity).
            let solvable = table.iter().filter(|e| e.is_some()).count();
            let k = lights::nullity(shape(rows, cols));
            assert_eq!(solvable, 1 << (n - k), "{rows}x{cols}");
            for bits in 0..=full {
                let board = grid_from_cells(rows, cols, bits);
                check_board(
                    &board,
                    table[bits as usize].clone(),
                    table[(bits ^ full) as usize].clone(),
                );
            }
        }
    }
    assert_eq!(shapes, 50);
}

#[test]
fn agrees_with_the_4x4_tables() {
    let s = Shape::SQUARE4;
    for bits in 0..=u16::MAX {
        let board = Grid::from_u64(s, u64::from(bits)).unwrap();
        let routes = lights::routes(&board).unwrap();
        let table = flip::Board::from_bits(bits);
        for (mine, colour) in [
            (&routes.white, Colour::White),
            (&routes.black, Colour::Black),
        ] {
            let theirs = flip::route(table, colour);
            assert_eq!(
                mine.as_ref().map(|a| (a.rounds, a.optimal_sets)),
                theirs.map(|r| (usize::from(r.rounds), u64::from(r.optimal_sets))),
                "{bits:#06x} to {colour}"
            );
        }
        let mine = routes.best();
        let theirs = flip::solve(table);
        assert_eq!(
            mine.map(|a| (a.colour, a.rounds, a.optimal_sets)),
            theirs.map(|s| (s.colour, usize::from(s.rounds), u64::from(s.optimal_sets))),
            "{bits:#06x}"
        );
    }
}

/// A board as bytes, one a cell, row-major.
struct Lights {
    rows: usize,
    cols: usize,
    cells: Vec<u8>,
}

impl Lights {
    /// A press at (`r`, `c`), by the oracle's press rule.
    fn click(&mut self, r: usize, c: usize) {
        press::press_cells(self.rows, self.cols, &mut self.cells, r, c);
    }
}

/// First-row enumeration: for each of the 2^C first rows, press it, then
/// press under every cell still differing from `target` row by row; keep
/// the press sets that leave the last row right. Returns every solution as
/// its row-major `0`/`1` string.
fn first_row_solutions(board: &Grid, target: u8) -> Vec<String> {
    let (rows, cols) = (board.shape().rows(), board.shape().cols());
    let start: Vec<u8> = (0..rows * cols)
        .map(|i| u8::from(board.get(i / cols, i % cols)))
        .collect();
    let mut l = Lights {
        rows,
        cols,
        cells: start.clone(),
    };
    let mut presses = vec![b'0'; rows * cols];
    let mut solutions = Vec::new();
    for first in 0..1u64 << cols {
        l.cells.copy_from_slice(&start);
        presses.fill(b'0');
        for (c, p) in presses.iter_mut().enumerate().take(cols) {
            if first >> c & 1 == 1 {
                l.click(0, c);
                *p = b'1';
            }
        }
        for r in 1..rows {
            for c in 0..cols {
                if l.cells[(r - 1) * cols + c] != target {
                    l.click(r, c);
                    presses[r * cols + c] = b'1';
                }
            }
        }
        if l.cells[(rows - 1) * cols..].iter().all(|&x| x == target) {
            assert!(l.cells.iter().all(|&x| x == target));
            solutions.push(String::from_utf8(presses.clone()).unwrap());
        }
    }
    solutions
}

/// The oracle's answer from its list of solutions.
fn best_of(solutions: &[String]) -> Option<Expected> {
    let weight = |s: &String| s.bytes().filter(|&b| b == b'1').count();
    let rounds = solutions.iter().map(weight).min()?;
    let optimal: Vec<&String> = solutions.iter().filter(|s| weight(s) == rounds).collect();
    Some(Expected {
        rounds,
        optimal_sets: optimal.len() as u64,
        presses: optimal.iter().min().map(|s| s.to_string()).unwrap(),
    })
}

fn first_row_oracle(board: &Grid) -> (Option<Expected>, Option<Expected>) {
    (
        best_of(&first_row_solutions(board, 0)),
        best_of(&first_row_solutions(board, 1)),
    )
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

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn grid(&mut self, s: Shape) -> Grid {
        let rows: Vec<u64> = (0..s.rows()).map(|_| self.next() & s.row_mask()).collect();
        Grid::from_rows(s, &rows).unwrap()
    }
}

/// Random boards: uniform ones (most cannot be solved on singular shapes),
/// ones made by pressing random cells of a uniform board (solvable), and
/// sparse ones (few presses, so few-press answers).
fn sample_boards(rng: &mut Rng, s: Shape, n: usize) -> Vec<Grid> {
    let mut boards = Vec::new();
    for i in 0..n {
        let board = match i % 3 {
            0 => rng.grid(s),
            1 => {
                let start = if rng.next() & 1 == 1 {
                    Grid::filled(s)
                } else {
                    Grid::new(s)
                };
                start.apply(&rng.grid(s))
            }
            _ => {
                let mut presses = Grid::new(s);
                for _ in 0..=rng.below(4) {
                    let (r, c) = (rng.below(s.rows() as u64), rng.below(s.cols() as u64));
                    presses.set(r as usize, c as usize, true);
                }
                Grid::new(s).apply(&presses)
            }
        };
        boards.push(board);
    }
    boards
}

#[test]
fn random_boards_up_to_12x12_against_first_row_enumeration() {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let mut checked = 0;
    let mut solvable = 0;
    for _ in 0..60 {
        let s = shape(1 + rng.below(12) as usize, 1 + rng.below(12) as usize);
        for board in sample_boards(&mut rng, s, 3) {
            let (white, black) = first_row_oracle(&board);
            solvable += usize::from(white.is_some());
            check_board(&board, white, black);
            checked += 1;
        }
    }
    // The largest shape always, all three kinds of board.
    for board in sample_boards(&mut rng, shape(12, 12), 6) {
        let (white, black) = first_row_oracle(&board);
        check_board(&board, white, black);
        checked += 1;
    }
    assert_eq!(checked, 186);
    assert!(solvable > 100, "{solvable} of the boards reach white");
}

#[test]
fn tie_rule_on_singular_shapes() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for (n, nullity) in [(4, 4), (5, 2), (9, 8), (11, 6), (14, 4)] {
        let s = shape(n, n);
        assert_eq!(lights::nullity(s), nullity);
        // The quiet press sets (solutions for an already white board), as
        // the oracle finds them.
        let quiet = first_row_solutions(&Grid::new(s), 0);
        assert_eq!(quiet.len(), 1 << nullity, "{n}x{n}");
        let mut boards = sample_boards(&mut rng, s, 3);
        // Boards with several optimal answers: press half the cells of a
        // quiet set; pressing the other half does the same.
        for q in quiet.iter().skip(1).take(4) {
            let mut presses = Grid::new(s);
            let mut toggle = false;
            for (i, ch) in q.bytes().enumerate() {
                if ch == b'1' {
                    toggle = !toggle;
                    presses.set(i / n, i % n, toggle);
                }
            }
            boards.push(Grid::new(s).apply(&presses));
        }
        let mut ties = 0;
        let solver = Solver::cached(s);
        for board in &boards {
            let (white, black) = first_row_oracle(board);
            ties += usize::from(white.as_ref().is_some_and(|e| e.optimal_sets > 1));
            // Both searches, the transform also in small blocks (as it runs
            // past nullity 20), say the same as the oracle.
            for search in [
                Search::Gray,
                Search::Walsh { block_bits: 20 },
                Search::Walsh { block_bits: 2 },
            ] {
                let w = solver.route_by(board, Colour::White, 24, search).unwrap();
                assert_eq!(got(&w), white, "{board:?} {search:?}");
            }
            check_board(board, white, black);
        }
        assert!(
            ties >= 2,
            "{n}x{n}: only {ties} boards with several optimal answers"
        );
    }
}

#[test]
fn solve_answers_each_goal_as_routes_do() {
    let mut rng = Rng(0x0123_4567_89AB_CDEF);
    for n in [1, 2, 4, 5, 7, 9, 16] {
        let s = shape(n, n + n % 3);
        for board in sample_boards(&mut rng, s, 9) {
            let routes = lights::routes(&board).unwrap();
            assert_eq!(lights::solve(&board, Goal::White).unwrap(), routes.white);
            assert_eq!(lights::solve(&board, Goal::Black).unwrap(), routes.black);
            assert_eq!(lights::solve(&board, Goal::Either).unwrap(), routes.best());
            assert_eq!(
                lights::solve(&board, Goal::from(Colour::Black)).unwrap(),
                routes.black
            );
        }
    }
}

#[test]
fn poj3279_sample() {
    // The sample's one case, as rows of `0`/`1` joined by `/`.
    let [(rows, cols, cells)] = &fliptile::fliptile_cases(samples::FLIPTILE)[..] else {
        panic!("one case in the sample");
    };
    assert_eq!((*rows, *cols), (4, 4));
    let text: Vec<String> = cells
        .chunks(*cols)
        .map(|row| row.iter().map(|x| x.to_string()).collect())
        .collect();
    let board: Grid = text.join("/").parse().unwrap();
    let a = lights::solve(&board, Goal::White).unwrap().unwrap();
    assert_eq!(
        a.presses.show('1', '0').to_string(),
        "0000\n1001\n1001\n0000"
    );
    assert_eq!((a.rounds, a.optimal_sets), (4, 2));
}

#[test]
fn large_boards_are_really_cleared() {
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    // 32×32: nullity 20, searched exactly.
    let s = shape(32, 32);
    let solver = Solver::cached(s);
    assert_eq!(solver.nullity(), 20);
    let board = Grid::new(s).apply(&rng.grid(s));
    let routes = solver.routes(&board).unwrap();
    let white = routes.white.as_ref().expect("made from presses");
    assert!(board.apply(&white.presses).is_empty());
    assert_eq!(white.presses.count(), white.rounds);
    // No quiet pattern makes the chosen set lighter.
    for q in solver.quiet_patterns() {
        let other = Grid::new(s).apply(&white.presses).apply(&q);
        assert_eq!(other, board, "a quiet pattern changes nothing");
        let mut x = white.presses.clone();
        for (r, c) in q.cells() {
            x.set(r, c, !x.get(r, c));
        }
        assert!(x.count() >= white.rounds);
    }
    // Black is reachable exactly when some press set reaches it.
    let any_black = solver.any_solution(&board, Colour::Black).unwrap();
    assert_eq!(routes.black.is_some(), any_black.is_some());
    if let Some(black) = &routes.black {
        assert_eq!(board.apply(&black.presses).uniform(), Some(Colour::Black));
    }

    // 64×64: nullity 28, over the default limit: refused, never guessed.
    let s = shape(64, 64);
    let solver = Solver::cached(s);
    assert_eq!(solver.nullity(), 28);
    let board = Grid::new(s).apply(&rng.grid(s));
    assert_eq!(
        solver.solve(&board, Goal::White),
        Err(LightsError::NullityTooLarge {
            shape: s,
            nullity: 28,
            max: 24
        })
    );
    let any = solver.any_solution(&board, Colour::White).unwrap().unwrap();
    assert!(board.apply(&any).is_empty());

    // 64×63 and 63×64: nullity 0, exact, every board solvable.
    for s in [shape(64, 63), shape(63, 64)] {
        assert_eq!(lights::nullity(s), 0);
        let board = rng.grid(s);
        let a = lights::solve(&board, Goal::Either).unwrap().unwrap();
        assert_eq!(board.apply(&a.presses).uniform(), Some(a.colour));
        assert!(a.is_unique() || a.optimal_sets == 2);
    }
}

#[test]
fn nullities_of_square_boards() {
    // The facts of lights-out.md, and the largest up to 32×32.
    let expected = [
        (4, 4),
        (5, 2),
        (9, 8),
        (11, 6),
        (19, 16),
        (30, 20),
        (32, 20),
        (39, 32),
        (61, 40),
        (15, 0),
    ];
    for (n, k) in expected {
        assert_eq!(lights::nullity(shape(n, n)), k, "{n}x{n}");
    }
    assert_eq!(lights::nullity(shape(5, 6)), 0);
    let largest = (1..=32)
        .flat_map(|r| (1..=32).map(move |c| lights::nullity(shape(r, c))))
        .max();
    assert_eq!(largest, Some(20));
    // Up to 64×64 only 14 shapes pass the default limit of 24.
    let over: Vec<(usize, usize)> = (1..=64)
        .flat_map(|r| (1..=64).map(move |c| (r, c)))
        .filter(|&(r, c)| lights::nullity(shape(r, c)) > lights::MAX_NULLITY)
        .collect();
    assert_eq!(
        over,
        [
            (27, 35),
            (31, 47),
            (35, 27),
            (35, 55),
            (39, 39),
            (47, 31),
            (47, 47),
            (47, 63),
            (55, 35),
            (61, 61),
            (62, 64),
            (63, 47),
            (64, 62),
            (64, 64)
        ]
    );
    assert_eq!(over, lights::PAST_MAX_NULLITY);
}

#[test]
fn shape_mismatch_is_an_error() {
    let solver = Solver::cached(shape(4, 4));
    let board = Grid::new(shape(5, 5));
    assert_eq!(
        solver.solve(&board, Goal::White),
        Err(LightsError::ShapeMismatch {
            expected: shape(4, 4),
            found: shape(5, 5)
        })
    );
}
