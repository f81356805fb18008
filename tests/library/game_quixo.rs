//! Quixo through the game model: the generic retrograde analysis of
//! `boardbase::tables::quixo::Quixo`, with and without symmetry, against
//! the oracle's value iteration (tests/oracle/quixo.rs) on every position
//! reachable from the start; every position's moves against the oracle's;
//! the game's text and GamesmanOne's both ways; the tier solver's entries
//! against the oracle's too, and equal to the whole-game solver's.

use std::collections::{BTreeSet, HashMap};

use crate::oracle::mnk::{Game, Solved};
use crate::oracle::quixo::Quixo as Oracle;
use boardbase::tables::game::tiers::{TierStep, solve_tiers_in_memory};
use boardbase::tables::game::{Outcome, Rules, Text, Tiers, TwoPlayer, Value, retrograde};
use boardbase::tables::quixo::Quixo;
use boardbase::tables::shape::Shape;

/// A cell's name: the column's letter, the row's number from the top.
fn cell(cols: usize, i: usize) -> String {
    format!("{}{}", (b'a' + (i % cols) as u8) as char, i / cols + 1)
}

/// boardbase's text of an oracle position: the rows, then the mover.
fn text(cols: usize, position: &[u8]) -> String {
    let (board, mover) = position.split_at(position.len() - 1);
    let mut lines: Vec<String> = board
        .chunks(cols)
        .map(|row| String::from_utf8_lossy(row).into_owned())
        .collect();
    lines.push((mover[0] as char).to_string());
    lines.join("\n")
}

/// GamesmanOne's string of an oracle position.
fn gamesman(position: &[u8]) -> String {
    let (board, mover) = position.split_at(position.len() - 1);
    let turn = if mover[0] == b'X' { "1_" } else { "2_" };
    turn.to_owned()
        + &board
            .iter()
            .map(|&b| if b == b'.' { '-' } else { b as char })
            .collect::<String>()
}

fn outcome(solved: Solved) -> Outcome {
    match solved {
        Solved::Win(r) => Outcome::Win(r),
        Solved::Lose(r) => Outcome::Lose(r),
        Solved::Draw => Outcome::Draw,
    }
}

/// Every reachable position of one board: its value and remoteness, its
/// moves and their results, its best move's outcome, its text both ways.
fn check(rows: usize, cols: usize, k: usize) -> HashMap<Vec<u8>, Solved> {
    let oracle = Oracle {
        board: Game { rows, cols, k },
    };
    let all = oracle.solve_all();
    let shape = Shape::new(rows, cols).unwrap();
    for symmetric in [false, true] {
        let mut game = Quixo::new(shape, k).unwrap();
        if !symmetric {
            game = game.without_symmetry();
        }
        let solved = retrograde::solve(&game).unwrap();
        let tiered = solve_tiers_in_memory(&game, &mut |_| true).unwrap();
        for (position, &want) in &all {
            let p = game.read_position(&text(cols, position)).unwrap();
            assert_eq!(tiered.outcome_of(&game, p), Some(outcome(want)), "tiers");
        }
        // Not only the positions reachable from the start: every entry.
        assert_eq!(tiered.cells(), solved.cells(), "{rows}x{cols} k={k}");
        for (position, &want) in &all {
            let drawn = text(cols, position);
            let p = game.read_position(&drawn).unwrap();
            assert!(game.is_legal(p), "{drawn}");
            let mut written = String::new();
            game.write_position(p, &mut written).unwrap();
            assert_eq!(written, drawn);
            assert_eq!(game.read_position(&gamesman(position)), Ok(p));
            let mut theirs = String::new();
            game.write_gamesman(p, &mut theirs).unwrap();
            assert_eq!(theirs, gamesman(position));
            let got = solved.outcome_of(&game, p);
            assert_eq!(got, Some(outcome(want)), "{rows}x{cols} k={k}:\n{drawn}");
            // The same moves, to the same positions.
            let mut moves = BTreeSet::new();
            game.for_each_move(p, |mv| {
                let mut name = String::new();
                game.write_move(p, mv, &mut name).unwrap();
                assert_eq!(game.read_move(p, &name), Ok(mv));
                let mut after = String::new();
                game.write_position(game.play(p, mv), &mut after).unwrap();
                moves.insert((name, after));
            });
            let want_moves: BTreeSet<(String, String)> = oracle
                .moves(position)
                .into_iter()
                .map(|(s, d, after)| {
                    (
                        format!("{}-{}", cell(cols, s), cell(cols, d)),
                        text(cols, &after),
                    )
                })
                .collect();
            assert_eq!(moves, want_moves, "{drawn}");
            let best = solved.best_move(&game, p).map(|(_, o)| o);
            let over = oracle.over(position).is_some();
            assert_eq!(best, (!over).then_some(outcome(want)), "{drawn}");
        }
    }
    all
}

#[test]
fn quixo_3x3_every_reachable_position_against_value_iteration() {
    let all = check(3, 3, 3);
    // As GamesmanOne's variant 2 has it: X wins from the start in 7.
    let start = Oracle {
        board: Game {
            rows: 3,
            cols: 3,
            k: 3,
        },
    }
    .start();
    assert_eq!(all[&start], Solved::Win(7));
    let counts = all.values().fold([0; 3], |mut c, s| {
        c[match s {
            Solved::Win(_) => 0,
            Solved::Lose(_) => 1,
            Solved::Draw => 2,
        }] += 1;
        c
    });
    // 32,027 positions reachable, none drawn: the cycles all end.
    assert_eq!(counts, [20_247, 11_780, 0]);
}

#[test]
fn quixo_other_boards_against_value_iteration() {
    for (rows, cols, k) in [(2, 2, 2), (2, 3, 2), (3, 2, 3), (3, 3, 2), (2, 4, 3)] {
        check(rows, cols, k);
    }
}

#[test]
fn quixo_parents_are_every_position_with_a_move_here() {
    // For every canonical reachable position, the parents the game gives
    // are exactly the canonical positions with a move into its class.
    let shape = Shape::new(3, 3).unwrap();
    let game = Quixo::new(shape, 3).unwrap();
    let oracle = Oracle {
        board: Game {
            rows: 3,
            cols: 3,
            k: 3,
        },
    };
    let all = oracle.solve_all();
    let mut into: HashMap<u64, BTreeSet<u64>> = HashMap::new();
    for position in all.keys() {
        let p = game.canonical(game.read_position(&text(3, position)).unwrap());
        into.entry(p).or_default();
        game.for_each_move(p, |mv| {
            into.entry(game.canonical(game.play(p, mv)))
                .or_default()
                .insert(p);
        });
    }
    for (&child, parents) in &into {
        let mut given = BTreeSet::new();
        game.for_each_parent(child, |p| {
            assert!(given.insert(p), "{p} given twice");
        });
        // Parents the search does not reach (positions the rules allow
        // but no game from the start does) may be given besides.
        assert!(given.is_superset(parents), "{child}");
        for &p in &given {
            assert!(game.is_legal(p) && game.canonical(p) == p && game.primitive(p).is_none());
            let mut reaches = false;
            game.for_each_move(p, |mv| reaches |= game.canonical(game.play(p, mv)) == child);
            assert!(reaches, "{p} does not reach {child}");
        }
    }
}

#[test]
fn quixo_text_errors_say_where() {
    let game = Quixo::new(Shape::new(3, 3).unwrap(), 3).unwrap();
    let err = |t: &str| game.read_position(t).unwrap_err().to_string();
    assert_eq!(
        err("XX./OO./.../Z"),
        "1:13: expected the player to move ('X' or 'O') on a line after the board, found 'Z'"
    );
    assert_eq!(
        err("XX.\nOO.\n...\n"),
        "3:1: expected the player to move ('X' or 'O') on a line after the board, found '.'"
    );
    assert_eq!(
        err("XX.\nOY.\n...\nX"),
        "2:2: expected '.', 'X' or 'O', found 'Y'"
    );
    assert_eq!(
        err("1_--X-Y----"),
        "1:7: expected '-', 'X' or 'O', found 'Y'"
    );
    assert_eq!(err("1_--X--"), "1:8: expected a cell, found end of input");
    assert_eq!(
        err(".../.../.../O"),
        "1:1: expected a position of the game, found O to move on an empty board (X moves first)"
    );
    assert_eq!(
        err(".../.X./.../O"),
        "1:1: expected a position of the game, found no cube of the player who moved last on the border (a push leaves one there)"
    );
    // Moves: boardbase's and GamesmanOne's.
    let p = game.read_position("XX./OO./.../X").unwrap();
    assert_eq!(game.read_move(p, "a1-c1"), game.read_move(p, "1 R"));
    assert!(game.read_move(p, "a2-c2").is_err()); // O's cube
    assert!(game.read_move(p, "b2-b3").is_err()); // not on the border
}

/// Quixo with its parents hidden: the tier solver then finds the parents
/// within a tier from the moves.
struct NoParents(Quixo);

impl Rules for NoParents {
    type Move = u8;
    fn positions(&self) -> u64 {
        self.0.positions()
    }
    fn is_legal(&self, position: u64) -> bool {
        self.0.is_legal(position)
    }
    fn for_each_move(&self, position: u64, f: impl FnMut(u8)) {
        self.0.for_each_move(position, f)
    }
    fn play(&self, position: u64, mv: u8) -> u64 {
        self.0.play(position, mv)
    }
    fn canonical(&self, position: u64) -> u64 {
        self.0.canonical(position)
    }
}

impl TwoPlayer for NoParents {
    fn start(&self) -> u64 {
        self.0.start()
    }
    fn primitive(&self, position: u64) -> Option<Value> {
        self.0.primitive(position)
    }
}

impl Tiers for NoParents {
    fn tiers(&self) -> u64 {
        self.0.tiers()
    }
    fn tier_size(&self, tier: u64) -> u64 {
        self.0.tier_size(tier)
    }
    fn tier_rank(&self, position: u64) -> (u64, u64) {
        self.0.tier_rank(position)
    }
    fn position_at(&self, tier: u64, rank: u64) -> u64 {
        self.0.position_at(tier, rank)
    }
}

#[test]
fn quixo_tiers_number_every_position_once() {
    for (rows, cols, k) in [(2, 2, 2), (2, 3, 2), (3, 3, 3)] {
        let game = Quixo::new(Shape::new(rows, cols).unwrap(), k).unwrap();
        let sizes: Vec<u64> = (0..game.tiers()).map(|t| game.tier_size(t)).collect();
        assert_eq!(sizes.iter().sum::<u64>(), game.positions());
        let mut seen = vec![false; game.positions() as usize];
        for p in 0..game.positions() {
            let (tier, rank) = game.tier_rank(p);
            assert!(rank < sizes[tier as usize], "{p}: tier {tier} rank {rank}");
            assert_eq!(game.position_at(tier, rank), p);
            seen[p as usize] = true;
            // A move stays in the tier or goes to a later one.
            game.for_each_move(p, |mv| {
                let (t, _) = game.tier_rank(game.canonical(game.play(p, mv)));
                assert!(t >= tier, "{p} moves to tier {t} from {tier}");
            });
        }
        assert!(seen.iter().all(|&s| s));
        for tier in 0..game.tiers() {
            // The walk of a tier gives each rank's position, in order, and
            // skips only ranks with O to move (never canonical).
            let mut walked = Vec::new();
            game.for_each_in_tier(tier, |rank, p| walked.push((rank, p)));
            assert!(walked.windows(2).all(|w| w[0].0 < w[1].0));
            for &(rank, p) in &walked {
                assert_eq!(game.position_at(tier, rank), p);
                assert_eq!(game.tier_of(p), tier);
            }
            let with_x_to_move = (0..sizes[tier as usize])
                .filter(|&r| !game.pieces(game.position_at(tier, r)).2)
                .count();
            assert_eq!(walked.len(), with_x_to_move, "tier {tier}");
        }
    }
}

#[test]
fn quixo_tiers_without_the_games_parents() {
    for (rows, cols, k) in [(2, 3, 2), (3, 3, 3), (3, 3, 2)] {
        let game = Quixo::new(Shape::new(rows, cols).unwrap(), k).unwrap();
        let want = retrograde::solve(&game).unwrap();
        let mut steps = Vec::new();
        let got = solve_tiers_in_memory(&NoParents(game.clone()), &mut |s: TierStep| {
            steps.push(s);
            true
        })
        .unwrap();
        assert_eq!(got.cells(), want.cells(), "{rows}x{cols} k={k}");
        // Called before each tier, last tier first, and once at the end.
        assert_eq!(steps.len() as u64, game.tiers() + 1);
        assert_eq!(steps[0].tier, game.tiers() - 1);
        assert_eq!(steps.last().map(|s| s.done), Some(game.positions()));
    }
}

#[test]
fn quixo_tiers_stop_when_told() {
    let game = Quixo::new(Shape::new(3, 3).unwrap(), 3).unwrap();
    let mut calls = 0;
    let stopped = solve_tiers_in_memory(&game, &mut |_| {
        calls += 1;
        calls < 5
    });
    assert_eq!(
        stopped.err(),
        Some(boardbase::tables::game::SolveError::Cancelled)
    );
}

#[test]
fn quixo_tiers_report_and_stop_within_a_large_tier() {
    // 4×4: the tiers of 15 pieces hold 102,960 ranks and more, so the
    // solver reports within them, and stops there when told.
    let game = Quixo::new(Shape::new(4, 4).unwrap(), 4).unwrap();
    let mut steps: Vec<TierStep> = Vec::new();
    let stopped = solve_tiers_in_memory(&game, &mut |s| {
        steps.push(s);
        s.begins
    });
    assert_eq!(
        stopped.err(),
        Some(boardbase::tables::game::SolveError::Cancelled)
    );
    let (within, began) = (steps[steps.len() - 1], steps[steps.len() - 2]);
    assert!(!within.begins && began.begins, "{steps:?}");
    assert_eq!(within.tier, began.tier);
    assert!(game.tier_size(within.tier) >= 1 << 16);
    // Half the tier is its scan: the first report within it is past its
    // start, and within the tier.
    assert!(within.done > began.done, "{steps:?}");
    assert!(within.done - began.done <= game.tier_size(within.tier) / 2);
    assert!(steps.iter().all(|s| s.total == game.positions()));
}

#[test]
fn quixo_k_0_is_the_shorter_side_one_setup_one_file_name() {
    let model = boardbase::catalogue::model("quixo").unwrap();
    for (rows, cols, side) in [(3, 3, 3), (3, 4, 3), (4, 4, 4), (5, 4, 4), (4, 5, 4)] {
        let shape = Shape::new(rows, cols);
        let given = model.setup(shape, &[("k", side)]).unwrap();
        assert_eq!(given.options, vec![side]);
        assert_eq!(model.setup(shape, &[("k", 0)]).unwrap(), given);
        assert_eq!(model.setup(shape, &[]).unwrap(), given);
        assert_eq!(
            boardbase::tablefile::GameTable::file_name_of(model, &given),
            format!("quixo-{rows}x{cols}-k{side}.bin")
        );
    }
    // Another k is another game.
    let three = model.setup(Shape::new(4, 4), &[("k", 3)]).unwrap();
    assert_eq!(three.options, vec![3]);
}
