//! The answer layer's questions (`Tablebase::flip_answers`,
//! `euler_answers`, `lights`, `lights_answer`, `set_table`,
//! `cases::sized::SizedAnswers`)
//! against the oracles of tests/oracle, and its two kinds of error, typed,
//! with their messages.

use boardbase::cases::sized::{SizedAnswers, SizedFilter};
use boardbase::cases::{euler as euler_cases, flip as flip_cases};
use boardbase::error::{Classify, Kind, Side};
use boardbase::euler::Outcome;
use boardbase::lights::family::{ColourGrid, FamilyGoal, Pattern, Variant};
use boardbase::lights::{Goal, Grid, LightsError};
use boardbase::tablebase::{
    Error, LightsQuestion, LightsReply, LightsTowards, NotMade, OptionNames, Origin, Tablebase,
};
use boardbase::tablefile::{Puzzle, Table};
use boardbase::tables::shape::Shape;

use crate::oracle::family::{BruteForce, KING, NEIGHBOURS, PLUS, Rules, X};
use crate::oracle::{Euler, Flip};

fn shape(rows: usize, cols: usize) -> Shape {
    Shape::new(rows, cols).unwrap()
}

/// The fewest rounds of the oracle for `board` (either colour).
fn oracle_rounds(oracle: &Flip, board: u64) -> Option<usize> {
    let b = board as usize;
    let best = oracle.rounds[0][b].min(oracle.rounds[1][b]);
    (best != 255).then_some(usize::from(best))
}

/// A board of `shape` as a `Grid`.
fn grid(shape: Shape, bits: u64) -> Grid {
    Grid::from_u64(shape, bits).unwrap()
}

/// Every board of small shapes, answered as the tablebase chose (the
/// embedded 4×4 table, GF(2) elsewhere), against the exhaustive oracle;
/// the whole answer agrees with the rounds.
#[test]
fn flip_answers_agree_with_every_press_set() {
    let tablebase = Tablebase::new();
    for (rows, cols) in [(1, 1), (2, 3), (3, 3), (3, 4), (4, 4)] {
        let s = shape(rows, cols);
        let oracle = Flip::solve(s);
        let answers = tablebase.flip_answers(s).unwrap();
        assert_eq!(answers.table().is_some(), s == Shape::SQUARE4, "{s}");
        if s == Shape::SQUARE4 {
            assert_eq!(answers.table().unwrap().origin, Origin::Embedded);
        }
        for bits in 0..1u64 << s.cells() {
            let board = grid(s, bits);
            let rounds = answers.rounds(&board).unwrap();
            assert_eq!(rounds, oracle_rounds(&oracle, bits), "{s} {bits:#x}");
            let answer = answers.answer(7, &board).unwrap();
            assert_eq!(answer.case, 7);
            assert_eq!(answer.rounds.map(usize::from), rounds, "{s} {bits:#x}");
        }
    }
}

/// `--table FILE`: the one file answers its puzzle, even on 4×4, and a
/// question of another shape or puzzle is the file's error, not a fall
/// back to the embedded tables or GF(2).
#[test]
fn the_table_set_answers_alone() {
    let dir = crate::common::TempDir::new("tablebase-questions-set-table");
    let s = shape(3, 4);
    let oracle = Flip::solve(s);
    let path = dir.0.join("mine.bin");
    Table::from_flip(s, oracle.columns())
        .unwrap()
        .write(&path, &mut |_| {})
        .unwrap();
    let mut tablebase = Tablebase::new();
    tablebase.set_table(&path);
    assert_eq!(tablebase.default_shape(Puzzle::Flip).unwrap(), s);
    let answers = tablebase.flip_answers(s).unwrap();
    assert_eq!(answers.table().unwrap().origin, Origin::File(path.clone()));
    for bits in 0..1u64 << s.cells() {
        let rounds = answers.rounds(&grid(s, bits)).unwrap();
        assert_eq!(rounds, oracle_rounds(&oracle, bits), "{bits:#x}");
    }
    // Another shape, even the embedded one: the file's mismatch.
    for other in [Shape::SQUARE4, shape(5, 5)] {
        match tablebase.flip_answers(other) {
            Err(e @ Error::Mismatch { .. }) => assert_eq!(
                e.to_string(),
                format!(
                    "{}: a Flip 3x4 table, not a Flip {other} table",
                    path.display()
                )
            ),
            other => panic!("{other:?}"),
        }
    }
    // Another puzzle.
    assert!(matches!(
        tablebase.default_shape(Puzzle::Euler),
        Err(Error::Mismatch {
            found_puzzle: Puzzle::Flip,
            ..
        })
    ));
    // A file that is not there.
    let mut gone = Tablebase::new();
    gone.set_table(dir.0.join("gone.bin"));
    match gone.flip_answers(s) {
        Err(Error::Open { path: p, .. }) => {
            assert_eq!(p, dir.0.join("gone.bin"));
        }
        other => panic!("{other:?}"),
    }
}

/// Euler: the table made in memory answers every position as the oracle.
#[test]
fn euler_answers_agree_with_the_oracle() {
    let s = shape(3, 4);
    let oracle = Euler::solve(s);
    let loaded = Tablebase::new().euler_answers(s, |_| {}).unwrap();
    assert_eq!(loaded.origin, Origin::Made);
    let table = loaded.table().as_euler().unwrap();
    for p in 0..1u64 << s.cells() {
        let win = table.outcome(p).unwrap() == Outcome::Win;
        assert_eq!(win, oracle.wins[p as usize], "{p:#x}");
    }
}

/// The family's answers through the tablebase, against the brute force of
/// every press vector: classic (GF(2)), more colours, other patterns, the
/// torus.
#[test]
fn lights_agrees_with_brute_force() {
    let tablebase = Tablebase::new();
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    for (k, rows, cols, wrap, stencil) in [
        (2, 3, 3, false, PLUS),
        (2, 2, 4, true, X),
        (3, 2, 3, false, PLUS),
        (3, 2, 2, true, NEIGHBOURS),
        (4, 2, 2, false, KING),
    ] {
        let rules = Rules::new(rows, cols, k, wrap, stencil);
        let oracle = BruteForce::new(&rules);
        let pattern: Pattern = stencil.parse().unwrap();
        let variant = Variant::new(rows, cols, k)
            .unwrap()
            .with_wrap(wrap)
            .with_pattern(pattern);
        for _ in 0..40 {
            let cells: Vec<u8> = (0..rules.cells())
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    (x % u64::from(k)) as u8
                })
                .collect();
            let board = ColourGrid::from_cells(variant.shape(), cells.clone()).unwrap();
            for goal in (0..k).map(FamilyGoal::Colour).chain([FamilyGoal::Any]) {
                let ours = tablebase.lights(&variant, &board, goal).unwrap();
                let theirs = match goal {
                    FamilyGoal::Colour(d) => oracle.to_colour(&cells, d),
                    FamilyGoal::Any => oracle.to_any(&cells),
                };
                match (ours, theirs) {
                    (None, None) => {}
                    (Some(a), Some(s)) => {
                        assert_eq!(
                            (
                                a.colour,
                                a.rounds,
                                a.optimal_sets,
                                a.presses.cells().to_vec()
                            ),
                            (s.colour, s.rounds, s.count, s.presses),
                            "{variant}: {cells:?} to {goal}"
                        );
                    }
                    (a, s) => panic!("{variant}: {cells:?} to {goal}: {a:?} vs {s:?}"),
                }
            }
        }
    }
}

/// `lights_answer` as a front end asks it (board text, the variant but for
/// its shape, a goal named or the family's): the classic game towards a
/// named colour gets the GF(2) lookup (reading `w`/`b` too), everything
/// else the family's; both agree with the brute force.
#[test]
fn lights_answer_chooses_the_engine_and_agrees_with_brute_force() {
    let tablebase = Tablebase::new();
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    for (k, rows, cols, wrap, stencil) in [
        (2, 3, 3, false, PLUS),
        (2, 2, 3, true, X),
        (3, 2, 3, false, PLUS),
    ] {
        let rules = Rules::new(rows, cols, k, wrap, stencil);
        let oracle = BruteForce::new(&rules);
        let pattern: Pattern = stencil.parse().unwrap();
        let classic = k == 2 && !wrap && pattern == Pattern::Plus;
        for _ in 0..20 {
            let cells: Vec<u8> = (0..rules.cells())
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    (x % u64::from(k)) as u8
                })
                .collect();
            let digits: Vec<String> = cells
                .chunks(cols)
                .map(|row| row.iter().map(|d| char::from(b'0' + d)).collect())
                .collect();
            let text = digits.join("/");
            let mut asked = vec![
                (LightsTowards::Family(FamilyGoal::Any), None),
                (LightsTowards::Family(FamilyGoal::Colour(0)), Some(0)),
            ];
            if k == 2 {
                asked.extend([
                    (LightsTowards::Named(Goal::White), Some(0)),
                    (LightsTowards::Named(Goal::Black), Some(1)),
                    (LightsTowards::Named(Goal::Either), None),
                ]);
            }
            for (towards, colour) in asked {
                let question = LightsQuestion {
                    board: &text,
                    colours: k,
                    wrap,
                    pattern: pattern.clone(),
                    towards,
                };
                let truth = match colour {
                    Some(d) => oracle.to_colour(&cells, d),
                    None => oracle.to_any(&cells),
                }
                .map(|s| s.rounds);
                let reply = tablebase.lights_answer(&question, 24).unwrap();
                let rounds = match (&reply, towards) {
                    (LightsReply::Classic(lookup), LightsTowards::Named(_)) if classic => {
                        // The same board in `w`/`b` reads the same.
                        let letters = text.replace('0', "w").replace('1', "b");
                        let again = LightsQuestion {
                            board: &letters,
                            ..question.clone()
                        };
                        assert_eq!(tablebase.lights_answer(&again, 24).unwrap(), reply);
                        lookup.answer.rounds
                    }
                    (LightsReply::Family(lookup), _) => lookup.answer.rounds,
                    (reply, towards) => panic!("{text} {towards:?}: {reply:?}"),
                };
                assert_eq!(
                    rounds, truth,
                    "{k} colours {stencil} wrap {wrap}: {text} {towards:?}"
                );
            }
        }
    }
    // Each reading's error, typed; the limit is the call's.
    fn ask(board: &str, colours: u8, towards: LightsTowards) -> LightsQuestion<'_> {
        LightsQuestion {
            board,
            colours,
            wrap: false,
            pattern: Pattern::Plus,
            towards,
        }
    }
    let white = LightsTowards::Named(Goal::White);
    let off = LightsTowards::Family(FamilyGoal::Colour(0));
    assert!(matches!(
        tablebase.lights_answer(&ask("wb/b", 2, white), 24),
        Err(Error::Rows(_))
    ));
    assert!(matches!(
        tablebase.lights_answer(&ask("wb/bw", 2, off), 24),
        Err(Error::Board(_))
    ));
    // 4×4 has nullity 4: past a limit of 3 by either engine.
    for towards in [white, off] {
        match tablebase.lights_answer(&ask("0000/0000/0000/0000", 2, towards), 3) {
            Err(Error::Lights(LightsError::NullityTooLarge { shape: s, .. })) => {
                assert_eq!(s, shape(4, 4))
            }
            Err(Error::Lights(LightsError::SearchTooLarge { variant, .. })) => {
                assert!(variant.starts_with("4x4,"), "{variant}")
            }
            other => panic!("{towards:?}: {other:?}"),
        }
    }
}

/// The nullity limit set on the tablebase bounds both GF(2) and the
/// family: past it, an error about the question.
#[test]
fn the_limit_set_is_the_question_error() {
    let mut tablebase = Tablebase::new();
    // 64×64 has nullity 28, past the default 24.
    match tablebase.flip_answers(shape(64, 64)) {
        Err(Error::Lights(LightsError::NullityTooLarge {
            nullity: 28,
            max: 24,
            ..
        })) => {}
        other => panic!("{other:?}"),
    }
    // 4×4 has nullity 4: a limit of 3 refuses it, for Flip (on a shape
    // without a table) and for the family.
    tablebase.set_max_nullity(3);
    assert!(tablebase.flip_answers(shape(5, 5)).is_ok()); // nullity 2
    let variant = Variant::new(4, 4, 2).unwrap();
    let board = ColourGrid::new(variant.shape());
    match tablebase.lights(&variant, &board, FamilyGoal::Colour(0)) {
        Err(Error::Lights(LightsError::SearchTooLarge { max_bits: 3, .. })) => {}
        other => panic!("{other:?}"),
    }
    tablebase.set_max_nullity(4);
    let answer = tablebase.lights(&variant, &board, FamilyGoal::Colour(0));
    assert_eq!(answer.unwrap().unwrap().rounds, 0);
}

/// Each error says what it is about (its kind and side), its hint and the
/// facts a front end shows beside the message, so that no front end
/// matches its variants.
#[test]
fn errors_say_their_kind_hint_and_facts() {
    let mut tablebase = Tablebase::new();
    // Past the search, GF(2)'s: the question's, with the hint.
    let e = tablebase.flip_answers(shape(64, 64)).err().unwrap();
    assert_eq!((e.kind(), e.kind().side()), (Kind::Search, Side::Question));
    assert_eq!(e.hint(), Some("--max-nullity raises the limit"));
    assert_eq!((e.nullity(), e.max_nullity()), (Some(28), Some(24)));
    assert_eq!((e.quiet_count(), e.file(), e.command()), (None, None, None));
    // Past the search, the family's: its quiet patterns.
    tablebase.set_max_nullity(3);
    let variant = Variant::new(4, 4, 2).unwrap();
    let board = ColourGrid::new(variant.shape());
    let e = tablebase
        .lights(&variant, &board, FamilyGoal::Colour(0))
        .err()
        .unwrap();
    assert_eq!(e.kind(), Kind::Search);
    assert_eq!((e.quiet_count(), e.max_nullity()), (Some("16"), Some(3)));
    // No table: the tablebase's, with the puzzle and the command.
    let e = tablebase.euler_answers(shape(6, 6), |_| {}).err().unwrap();
    assert_eq!(
        (e.kind(), e.kind().side()),
        (Kind::Missing, Side::Tablebase)
    );
    assert_eq!(e.hint(), None);
    assert_eq!(e.puzzle(), Some(Puzzle::Euler));
    assert_eq!(
        e.command().as_deref(),
        Some("boardbase generate euler 6x6 --dir my-tables")
    );
    assert_eq!(e.worded(OptionNames::CLI), e.to_string());
    // Past the puzzle's cells: the question's, with the limit.
    let e = tablebase.euler_answers(shape(6, 7), |_| {}).err().unwrap();
    assert_eq!((e.kind(), e.max_cells()), (Kind::TooLarge, Some(36)));
}

/// it is not made.
#[test]
fn a_missing_table_is_one_typed_error() {
    let tablebase = Tablebase::new();
    match tablebase.euler_answers(shape(6, 6), |_| {}) {
        Err(Error::Missing(m)) => {
            assert_eq!(m.not_made, NotMade::TooManyCells { max: 25 });
            assert_eq!(
                m.to_string(),
                "no euler 6x6 table: no table directory given (--tables DIR, or \
                 BOARDBASE_TABLES), and 36 squares are too many to make it in memory \
                 (at most 25); make it with: boardbase generate euler 6x6 --dir my-tables, then pass \
                 --tables my-tables"
            );
            // Another front end's words for the same message.
            let words = OptionNames {
                tables: "tables=DIR",
                then: "pass tables=\"my-tables\"",
                make_memory: Some("make_memory="),
            };
            let worded = m.worded(words).to_string();
            assert!(
                worded.contains("(tables=DIR, or BOARDBASE_TABLES)"),
                "{worded}"
            );
            assert!(
                worded.ends_with("--dir my-tables, then pass tables=\"my-tables\""),
                "{worded}"
            );
        }
        other => panic!("{other:?}"),
    }
    // Past Euler's 36 squares: the question's error.
    match tablebase.euler_answers(shape(6, 7), |_| {}) {
        Err(e @ Error::TooManyCells(_)) => {
            assert_eq!(
                e.to_string(),
                "euler tables take at most 36 cells; 6x7 has 42"
            );
        }
        other => panic!("{other:?}"),
    }
    // No memory to make tables: said so.
    let mut none = Tablebase::new();
    none.set_make_memory(0);
    match none.euler_answers(shape(3, 4), |_| {}) {
        Err(Error::Missing(m)) => {
            assert_eq!(m.not_made, NotMade::NoMemory);
            assert!(
                m.to_string()
                    .contains(", and no tables are made in memory here; make it with: "),
                "{m}"
            );
            let worded = m.worded(OptionNames {
                tables: "--tables DIR",
                then: "restart",
                make_memory: Some("--make-memory"),
            });
            assert!(
                worded.to_string().contains(
                    ", and no tables are made in memory here (--make-memory 0); make it with: "
                ),
                "{worded}"
            );
        }
        other => panic!("{other:?}"),
    }
}

/// A board's text that does not parse is the question's error, with its
/// line and column.
#[test]
fn a_bad_board_is_the_question_error_with_its_place() {
    let e = "wwb/wxw".parse::<Grid>().unwrap_err();
    let error = Error::from(e);
    match &error {
        Error::Board(p) => assert_eq!((p.line, p.column), (1, 6)),
        other => panic!("{other:?}"),
    }
    assert!(error.to_string().starts_with("1:6: expected "), "{error}");
}

/// `cases --size` through the tablebase: every case's answer is the
/// oracle's.
#[test]
fn sized_cases_come_through_the_tablebase() {
    let tablebase = Tablebase::new();
    let s = shape(3, 3);
    let oracle = Flip::solve(s);
    let answers = SizedAnswers::new(&tablebase, Puzzle::Flip, s).unwrap();
    assert!(answers.table().is_none());
    let filter = flip_cases::Filter {
        category: flip_cases::FlipCategory::Random,
        rounds: None,
    };
    let (mut input, mut expected) = (Vec::new(), Vec::new());
    answers
        .cases(SizedFilter::Flip(filter))
        .unwrap()
        .write(50, 3, &mut input, Some(&mut expected), &mut |_| {})
        .unwrap();
    let input = String::from_utf8(input).unwrap();
    let expected = String::from_utf8(expected).unwrap();
    let lines: Vec<&str> = input.lines().collect();
    for (case, answer) in expected.lines().enumerate() {
        let rows = &lines[3 * case..3 * case + 3];
        let bits = rows
            .iter()
            .flat_map(|r| r.bytes())
            .enumerate()
            .fold(0u64, |b, (i, c)| b | u64::from(c == b'b') << i);
        let expected =
            oracle_rounds(&oracle, bits).map_or("Impossible".to_owned(), |r| r.to_string());
        assert_eq!(answer, expected, "case {case}");
    }
    // A filter of the other puzzle is refused.
    let euler = euler_cases::Filter {
        category: euler_cases::EulerCategory::Random,
        moves_left: None,
    };
    assert!(answers.cases(SizedFilter::Euler(euler)).is_err());
}
