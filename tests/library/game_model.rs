//! The game model's generic solvers (`boardbase::tables::game`): the
//! retrograde analysis against the specialised Euler generator, the
//! breadth-first search against the specialised Flip generator, on every
//! shape both can do up to 16 cells (and 4×5), with and without symmetry,
//! with the game's parents and with the reverse graph built from its moves;
//! and both against oracles written here by another method (rounds of
//! sweeps over every position to a fixed point) on seeded random games with
//! cycles and draws.
//!
//! The specialised generators are themselves checked against the rules'
//! oracles in `generate_euler.rs` and `generate_flip.rs`; the sweeps here
//! share nothing with the generic solvers (no queue, no parents, no counts).

use crate::common::SplitMix;

use boardbase::flip::{Colour, UNREACHABLE};
use boardbase::generate::{self, EulerOptions, FlipOptions, NO_MOVE};
use boardbase::tables::euler::game::Euler;
use boardbase::tables::flip::game::{Flip, Goal};
use boardbase::tables::game::{
    OnePlayer, Outcome, Rules, SolveError, TwoPlayer, Value, retrograde, search,
};
use boardbase::tables::shape::Shape;

fn shapes(max_cells: usize) -> impl Iterator<Item = Shape> {
    (1..=max_cells).flat_map(move |r| (1..=max_cells / r).filter_map(move |c| Shape::new(r, c)))
}

/// A game with its parents hidden: the solvers must build the reverse graph.
struct NoParents<G>(G);

impl<G: Rules> Rules for NoParents<G> {
    type Move = G::Move;
    fn positions(&self) -> u64 {
        self.0.positions()
    }
    fn is_legal(&self, p: u64) -> bool {
        self.0.is_legal(p)
    }
    fn for_each_move(&self, p: u64, f: impl FnMut(G::Move)) {
        self.0.for_each_move(p, f)
    }
    fn play(&self, p: u64, mv: G::Move) -> u64 {
        self.0.play(p, mv)
    }
    fn canonical(&self, p: u64) -> u64 {
        self.0.canonical(p)
    }
}

impl<G: TwoPlayer> TwoPlayer for NoParents<G> {
    fn start(&self) -> u64 {
        self.0.start()
    }
    fn primitive(&self, p: u64) -> Option<Value> {
        self.0.primitive(p)
    }
}

impl<G: OnePlayer> OnePlayer for NoParents<G> {
    fn is_goal(&self, p: u64) -> bool {
        self.0.is_goal(p)
    }
}

/// Every Euler position's value, plies and best move from the generic
/// retrograde, against the specialised generator's tables.
fn euler_against_generator(shape: Shape) {
    let options = EulerOptions {
        wdl_only: false,
        ..EulerOptions::default()
    };
    let tables = generate::euler(shape, &options, |_| {}).expect("a small shape generates");
    let depth = tables.depth.as_ref().expect("full tables");
    let game = Euler::new(shape);
    assert_eq!(
        game.moves(),
        &tables.moves[..],
        "{shape}: the same move list"
    );
    let solved = retrograde::solve(&game).expect("solves");
    for p in 0..game.positions() {
        let plies = u16::from(depth.plies[p as usize]);
        let want = if tables.winning(p) {
            Outcome::Win(plies)
        } else {
            Outcome::Lose(plies)
        };
        assert_eq!(solved.outcome(p), Some(want), "{shape} position {p:#x}");
        let best = solved
            .best_move(&game, p)
            .map(|(mv, _)| mv)
            .unwrap_or(NO_MOVE);
        assert_eq!(
            best, depth.best_move[p as usize],
            "{shape} position {p:#x}: best move"
        );
    }
    assert_eq!(solved.counts()[2], 0, "{shape}: Euler has no draw");
}

#[test]
fn euler_retrograde_matches_the_specialised_generator_on_every_shape_up_to_16_cells() {
    for shape in shapes(16).chain([Shape::new(4, 5).unwrap()]) {
        euler_against_generator(shape);
    }
}

#[test]
fn euler_by_class_and_by_reverse_graph_give_the_same_values() {
    for shape in shapes(14) {
        let plain = retrograde::solve(&Euler::new(shape)).unwrap();
        let game = Euler::with_symmetry(shape);
        let classes = retrograde::solve(&game).unwrap();
        for p in 0..game.positions() {
            assert_eq!(
                classes.outcome_of(&game, p),
                plain.outcome(p),
                "{shape} {p:#x} by class"
            );
            // Entries only for canonical positions.
            assert_eq!(
                classes.outcome(p).is_some(),
                game.canonical(p) == p,
                "{shape} {p:#x}"
            );
        }
        if shape.cells() <= 12 {
            let built = retrograde::solve(&NoParents(Euler::new(shape))).unwrap();
            assert_eq!(built, plain, "{shape}: the reverse graph");
            let built = retrograde::solve(&NoParents(Euler::with_symmetry(shape))).unwrap();
            assert_eq!(built, classes, "{shape}: the reverse graph by class");
        }
    }
    // 4×4 by class: about an eighth of the entries.
    let game = Euler::with_symmetry(Shape::SQUARE4);
    let [w, l, d] = retrograde::solve(&game).unwrap().counts();
    assert_eq!(d, 0);
    assert!(w + l < 65_536 / 7, "{} classes", w + l);
}

/// Every Flip board's fewest rounds from the generic search, against the
/// specialised generator's columns.
fn flip_against_generator(shape: Shape) {
    let tables =
        generate::flip(shape, &FlipOptions::default(), |_| {}).expect("a small shape generates");
    let unreached = |r: u8| (r != UNREACHABLE).then_some(u16::from(r));
    for (goal, column) in [
        (Goal::Either, &tables.rounds),
        (Goal::White, &tables.colour(Colour::White).rounds),
        (Goal::Black, &tables.colour(Colour::Black).rounds),
    ] {
        let puzzle = Flip::new(shape, goal);
        let solved = search::solve(&puzzle).expect("solves");
        for b in 0..puzzle.positions() {
            let want = unreached(column[b as usize]);
            assert_eq!(solved.distance(b), want, "{shape} {goal:?} board {b:#x}");
            // The first press on a shortest way leads one round closer.
            if let Some(d) = want.filter(|&d| d > 0) {
                let (press, left) = solved.best_move(&puzzle, b).expect("a way");
                assert_eq!(left, d - 1);
                assert_eq!(
                    unreached(column[puzzle.play(b, press) as usize]),
                    Some(d - 1)
                );
            } else {
                assert_eq!(solved.best_move(&puzzle, b), None);
            }
        }
    }
}

#[test]
fn flip_search_matches_the_specialised_generator_on_every_shape_up_to_16_cells() {
    for shape in shapes(16).chain([Shape::new(4, 5).unwrap()]) {
        flip_against_generator(shape);
    }
}

#[test]
fn flip_by_class_and_by_reverse_graph_give_the_same_distances() {
    for shape in shapes(14) {
        for goal in [Goal::Either, Goal::White, Goal::Black] {
            let plain = search::solve(&Flip::new(shape, goal)).unwrap();
            let puzzle = Flip::with_symmetry(shape, goal);
            let classes = search::solve(&puzzle).unwrap();
            for b in 0..puzzle.positions() {
                assert_eq!(
                    classes.distance_of(&puzzle, b),
                    plain.distance(b),
                    "{shape} {goal:?} {b:#x}"
                );
            }
            if shape.cells() <= 12 {
                let built = search::solve(&NoParents(Flip::new(shape, goal))).unwrap();
                assert_eq!(built, plain, "{shape} {goal:?}: the reverse graph");
                let built = search::solve(&NoParents(Flip::with_symmetry(shape, goal))).unwrap();
                assert_eq!(
                    built, classes,
                    "{shape} {goal:?}: the reverse graph by class"
                );
            }
        }
    }
    // POJ 1753's 4×4: the boards by rounds, as the generator counts them
    // (the hardest take 6).
    let solved = search::solve(&Flip::new(Shape::SQUARE4, Goal::Either)).unwrap();
    let tables = generate::flip(Shape::SQUARE4, &FlipOptions::default(), |_| {}).unwrap();
    assert_eq!(solved.histogram(), tables.summary.histogram);
    assert_eq!(solved.histogram().len(), 7);
}

/// A game on a random directed graph: `primitive` positions end the game
/// with a fixed value, the others have one to four moves, cycles allowed.
struct Graph {
    moves: Vec<Vec<u64>>,
    primitive: Vec<Option<Value>>,
    illegal: Vec<bool>,
}

impl Graph {
    fn random(seed: u64, n: u64) -> Graph {
        let mut rng = SplitMix(seed);
        let mut moves = Vec::new();
        let mut primitive = Vec::new();
        let mut illegal = Vec::new();
        for _ in 0..n {
            illegal.push(rng.next().is_multiple_of(11));
        }
        for p in 0..n {
            let end = match rng.next() % 8 {
                0 => Some(Value::Lose),
                1 => Some(Value::Win),
                2 => Some(Value::Draw),
                _ => None,
            };
            let mut list = Vec::new();
            if end.is_none() && !illegal[p as usize] {
                for _ in 0..1 + rng.next() % 4 {
                    let mut c = rng.next() % n;
                    while illegal[c as usize] {
                        c = rng.next() % n;
                    }
                    list.push(c); // a repeated child is two moves to one position
                }
            }
            primitive.push(end);
            moves.push(list);
        }
        Graph {
            moves,
            primitive,
            illegal,
        }
    }

    /// The oracle: outcomes by rounds of sweeps. Round `r` decides, from the
    /// positions decided in rounds before it, every position that is won
    /// through a child lost in `r - 1` plies, or lost with every child won
    /// and the longest in `r - 1` plies; a round deciding nothing ends it,
    /// and what is left is drawn.
    fn sweeps(&self) -> Vec<Option<Outcome>> {
        let n = self.moves.len();
        let mut out: Vec<Option<Outcome>> = (0..n)
            .map(|p| match self.primitive[p] {
                _ if self.illegal[p] => None,
                Some(Value::Win) => Some(Outcome::Win(0)),
                Some(Value::Lose) => Some(Outcome::Lose(0)),
                _ => None,
            })
            .collect();
        for r in 1u16.. {
            let mut decided = Vec::new();
            for p in 0..n {
                if out[p].is_some() || self.illegal[p] || self.primitive[p].is_some() {
                    continue;
                }
                let kids: Vec<Option<Outcome>> =
                    self.moves[p].iter().map(|&c| out[c as usize]).collect();
                if kids.contains(&Some(Outcome::Lose(r - 1))) {
                    decided.push((p, Outcome::Win(r)));
                } else if kids.iter().all(|k| matches!(k, Some(Outcome::Win(_))))
                    && kids.contains(&Some(Outcome::Win(r - 1)))
                {
                    decided.push((p, Outcome::Lose(r)));
                }
            }
            if decided.is_empty() {
                break;
            }
            for (p, o) in decided {
                out[p] = Some(o);
            }
        }
        for (o, &illegal) in out.iter_mut().zip(&self.illegal) {
            if o.is_none() && !illegal {
                *o = Some(Outcome::Draw);
            }
        }
        out
    }
}

impl Rules for Graph {
    type Move = usize;
    fn positions(&self) -> u64 {
        self.moves.len() as u64
    }
    fn is_legal(&self, p: u64) -> bool {
        !self.illegal[p as usize]
    }
    fn for_each_move(&self, p: u64, f: impl FnMut(usize)) {
        (0..self.moves[p as usize].len()).for_each(f);
    }
    fn play(&self, p: u64, mv: usize) -> u64 {
        self.moves[p as usize][mv]
    }
}

impl TwoPlayer for Graph {
    fn start(&self) -> u64 {
        0
    }
    fn primitive(&self, p: u64) -> Option<Value> {
        self.primitive[p as usize]
    }
}

impl OnePlayer for Graph {
    fn is_goal(&self, p: u64) -> bool {
        self.primitive[p as usize] == Some(Value::Win)
    }
}

#[test]
fn random_games_with_cycles_match_the_sweeps() {
    let mut draws = 0;
    for seed in 0..300 {
        let game = Graph::random(seed, 2 + seed % 60);
        let solved = retrograde::solve(&game).expect("solves");
        let want = game.sweeps();
        for p in 0..game.positions() {
            assert_eq!(
                solved.outcome(p),
                want[p as usize],
                "seed {seed} position {p}"
            );
            // The best move gives the position's own outcome.
            if let (Some(o), None) = (want[p as usize], game.primitive[p as usize]) {
                let (_, best) = solved.best_move(&game, p).expect("a move");
                assert_eq!(best, o, "seed {seed} position {p}: best move");
            }
        }
        draws += solved.counts()[2];
    }
    assert!(draws > 100, "the random games hold draws ({draws})");
}

#[test]
fn random_puzzles_match_a_sweep_of_distances() {
    for seed in 0..300 {
        let game = Graph::random(1000 + seed, 2 + seed % 60);
        let solved = search::solve(&game).expect("solves");
        // The oracle: distance d + 1 for a position not yet reached with a
        // move to one at d, round by round.
        let n = game.moves.len();
        let mut want: Vec<Option<u16>> = (0..n)
            .map(|p| (game.is_goal(p as u64) && !game.illegal[p]).then_some(0))
            .collect();
        for d in 0u16.. {
            let next: Vec<usize> = (0..n)
                .filter(|&p| want[p].is_none() && !game.illegal[p])
                .filter(|&p| game.moves[p].iter().any(|&c| want[c as usize] == Some(d)))
                .collect();
            if next.is_empty() {
                break;
            }
            next.into_iter().for_each(|p| want[p] = Some(d + 1));
        }
        for (p, &want) in want.iter().enumerate() {
            assert_eq!(solved.distance(p as u64), want, "seed {seed} position {p}");
        }
    }
}

#[test]
fn outcomes_rank_as_the_winner_hurries_and_the_loser_resists() {
    use std::cmp::Ordering::*;
    assert_eq!(Outcome::Win(1).preference(Outcome::Win(3)), Greater);
    assert_eq!(Outcome::Lose(5).preference(Outcome::Lose(2)), Greater);
    assert_eq!(Outcome::Draw.preference(Outcome::Lose(50)), Greater);
    assert_eq!(Outcome::Win(90).preference(Outcome::Draw), Greater);
    assert_eq!(Outcome::Lose(4).through_move(), Outcome::Win(5));
    assert_eq!(Outcome::Win(0).through_move(), Outcome::Lose(1));
    assert_eq!(Outcome::Draw.through_move(), Outcome::Draw);
    assert_eq!(Outcome::Win(3).to_string(), "win in 3");
    assert_eq!(Value::Draw.to_string(), "draw");
}

/// A non-primitive position with no move is the game's fault, said so.
#[test]
fn a_position_with_no_move_that_is_not_over_is_refused() {
    let game = Graph {
        moves: vec![vec![1], vec![2], vec![0, 3], vec![]],
        primitive: vec![None; 4],
        illegal: vec![false; 4],
    };
    assert_eq!(
        retrograde::solve(&game),
        Err(SolveError::BadMove { position: 3 })
    );
}

/// A chain: position k moves to k - 1 only, 0 is lost for the player to
/// move (as a game) or the goal (as a puzzle).
fn chain(len: u64) -> Graph {
    Graph {
        moves: (0..=len)
            .map(|k| if k == 0 { vec![] } else { vec![k - 1] })
            .collect(),
        primitive: (0..=len).map(|k| (k == 0).then_some(Value::Lose)).collect(),
        illegal: vec![false; len as usize + 1],
    }
}

#[test]
fn the_deepest_remoteness_and_distance_are_held_and_one_more_is_refused() {
    let max = u64::from(retrograde::MAX_REMOTENESS);
    let solved = retrograde::solve(&chain(max)).expect("the deepest game fits");
    // k plies from the end: lost when k is even, won when odd.
    assert_eq!(
        solved.outcome(max),
        Some(Outcome::Win(retrograde::MAX_REMOTENESS))
    );
    assert_eq!(
        solved.outcome(max - 1),
        Some(Outcome::Lose(retrograde::MAX_REMOTENESS - 1))
    );
    assert_eq!(retrograde::solve(&chain(max + 1)), Err(SolveError::TooDeep));

    // As a puzzle: the Graph's goals are its won ends, so 0 becomes one.
    let puzzle = |len: u64| {
        let mut g = chain(len);
        g.primitive[0] = Some(Value::Win);
        g
    };
    let max = u64::from(search::MAX_DISTANCE);
    let solved = search::solve(&puzzle(max)).expect("the farthest puzzle fits");
    assert_eq!(solved.distance(max), Some(search::MAX_DISTANCE));
    assert_eq!(search::solve(&puzzle(max + 1)), Err(SolveError::TooDeep));
}

#[test]
fn a_move_outside_the_positions_or_into_an_illegal_one_is_refused() {
    let outside = Graph {
        moves: vec![vec![], vec![5], vec![0]],
        primitive: vec![Some(Value::Lose), None, None],
        illegal: vec![false; 3],
    };
    assert_eq!(
        retrograde::solve(&outside),
        Err(SolveError::BadMove { position: 1 })
    );
    let illegal = Graph {
        moves: vec![vec![], vec![0], vec![1, 3], vec![]],
        primitive: vec![Some(Value::Lose), None, None, None],
        illegal: vec![false, false, false, true],
    };
    assert_eq!(
        retrograde::solve(&illegal),
        Err(SolveError::BadMove { position: 2 })
    );
}

/// The images of a board under the rectangle's symmetries, cell by cell:
/// mirrored left to right, top to bottom, both, and on a square the same
/// four transposed.
fn images(shape: Shape, board: u64) -> Vec<u64> {
    let (rows, cols) = (shape.rows(), shape.cols());
    let map = |f: &dyn Fn(usize, usize) -> (usize, usize)| {
        (0..rows * cols)
            .filter(|&i| board >> i & 1 == 1)
            .map(|i| {
                let (r, c) = f(i / cols, i % cols);
                1u64 << (r * cols + c)
            })
            .sum::<u64>()
    };
    let mut out = vec![
        board,
        map(&|r, c| (r, cols - 1 - c)),
        map(&|r, c| (rows - 1 - r, c)),
        map(&|r, c| (rows - 1 - r, cols - 1 - c)),
    ];
    if rows == cols {
        out.extend([
            map(&|r, c| (c, r)),
            map(&|r, c| (cols - 1 - c, r)),
            map(&|r, c| (c, rows - 1 - r)),
            map(&|r, c| (cols - 1 - c, rows - 1 - r)),
        ]);
    }
    out
}

#[test]
fn a_canonical_board_is_the_least_of_its_images() {
    let mut rng = SplitMix(37);
    for shape in shapes(20) {
        for _ in 0..50 {
            let board = rng.next() & shape.full();
            let images = images(shape, board);
            let least = *images.iter().min().unwrap();
            assert_eq!(shape.canonical_board(board), least, "{shape} {board:#x}");
            for &image in &images {
                assert_eq!(shape.canonical_board(image), least, "{shape} {image:#x}");
            }
        }
    }
}
