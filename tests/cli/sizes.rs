//! `boardbase euler --size RxC` and `boardbase flip --size RxC` end to end:
//! every board of small shapes against the oracles of `tests/oracle` (a
//! memoized recursion over its own Euler move generator; Flip by trying
//! every press set), in all three output formats; where tables come from
//! (`--table`, `--tables`, `BOARDBASE_TABLES`, made on the spot, missing);
//! boards of the wrong shape; the 4×4 answers, cases and checks through a
//! table file equal to the embedded ones.

use crate::common;
use crate::oracle;

use common::{Run, SplitMix, TempDir, run_env};

use boardbase::tables::shape::Shape;
use oracle::press;
use oracle::tables::{Euler, Flip};
use serde_json::Value;

/// Runs `boardbase ARGS` on `stdin` without `BOARDBASE_TABLES`.
fn run(args: &[&str], stdin: &str) -> Run {
    run_env(args, stdin, None)
}

/// A board of `shape` as text: rows of `one`/`zero`, one a line.
fn board_text(shape: Shape, bits: u64, zero: char, one: char) -> String {
    let mut s = String::new();
    for r in 0..shape.rows() {
        for c in 0..shape.cols() {
            s.push(if shape.get(bits, r, c) { one } else { zero });
        }
        s.push('\n');
    }
    s
}

/// The Euler judge input of every position of `shape`, full board included.
fn euler_input(shape: Shape) -> String {
    let n = 1u64 << shape.cells();
    let mut s = format!("{n}\n");
    for p in 0..n {
        s.push_str(&board_text(shape, p, '.', 'X'));
        if p % 2 == 0 {
            s.push('\n'); // blank lines between boards are optional
        }
    }
    s
}

/// Every Flip board of `shape`, one after another.
fn flip_input(shape: Shape) -> String {
    (0..1u64 << shape.cells())
        .map(|b| board_text(shape, b, 'w', 'b'))
        .collect()
}

fn cells(shape: Shape, mask: u64) -> Value {
    Value::Array(
        shape
            .cells_of(mask)
            .map(|(r, c)| Value::from(vec![r, c]))
            .collect(),
    )
}

fn lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

#[test]
fn euler_every_position_of_small_shapes_against_the_oracle() {
    for (rows, cols) in [(2, 3), (3, 3), (1, 5), (3, 2)] {
        let shape = Shape::new(rows, cols).unwrap();
        let oracle = Euler::solve(shape);
        let size = shape.to_string();
        let input = euler_input(shape);

        let judge = run(&["euler", "--size", &size], &input);
        assert_eq!(judge.code, 0, "{}", judge.stderr);
        assert!(
            judge
                .stderr
                .contains(&format!("made the euler {size} table in memory")),
            "{}",
            judge.stderr
        );
        let expected: String = oracle
            .wins
            .iter()
            .map(|&w| if w { "WINNING\n" } else { "LOSING\n" })
            .collect();
        assert_eq!(judge.stdout, expected, "{size}");

        let json = run(&["euler", "--size", &size, "--format", "json"], &input);
        assert_eq!(json.code, 0, "{}", json.stderr);
        let answers = lines(&json.stdout);
        assert_eq!(answers.len(), oracle.wins.len());
        for (p, a) in answers.iter().enumerate() {
            let p64 = p as u64;
            let legal: Vec<u64> = oracle
                .order
                .iter()
                .copied()
                .filter(|m| m & p64 == 0)
                .collect();
            let winning = legal
                .iter()
                .filter(|&&m| !oracle.wins[(p64 | m) as usize])
                .count();
            assert_eq!(a["case"], p + 1);
            assert_eq!(
                a["board"],
                board_text(shape, p64, '.', 'X')
                    .trim_end()
                    .replace('\n', "/")
            );
            assert_eq!(a["outcome"], if oracle.wins[p] { "win" } else { "loss" });
            assert_eq!(a["moves_left"], oracle.plies[p]);
            assert_eq!(a["legal_moves"], legal.len());
            assert_eq!(a["winning_moves"], winning);
            assert!(a.get("wdl_only").is_none());
            if p64 == shape.full() {
                assert!(a["best_move"].is_null());
            } else {
                let m = oracle.order[usize::from(oracle.best[p])];
                assert_eq!(a["best_move"]["mask"], m, "{size} position {p}");
                assert_eq!(a["best_move"]["cells"], cells(shape, m));
            }
        }

        let pretty = run(&["euler", "--size", &size, "--format", "pretty"], &input);
        assert_eq!(pretty.code, 0);
        let blocks: Vec<&str> = pretty
            .stdout
            .split("\n\n")
            .filter(|b| !b.is_empty())
            .collect();
        assert_eq!(blocks.len(), oracle.wins.len());
        // The empty board's block: the answer, the drawing, the best move.
        let left = oracle.plies[0];
        let answer = if oracle.wins[0] { "WINNING" } else { "LOSING" };
        assert!(
            blocks[0].starts_with(&format!(
                "Board 1: {answer}, {left} moves left with perfect play\n  board"
            )),
            "{}",
            blocks[0]
        );
        assert_eq!(blocks[0].lines().count(), 3 + rows);
    }
}

#[test]
fn euler_from_a_wdl_only_table() {
    let dir = TempDir::new("wdl");
    let shape = Shape::new(3, 3).unwrap();
    let oracle = Euler::solve(shape);
    let r = run(
        &[
            "generate",
            "euler",
            "3x3",
            "--wdl-only",
            "--dir",
            dir.path(),
        ],
        "",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let input = euler_input(shape);
    let table = dir.file("euler-3x3.bin");
    let json = run(
        &[
            "euler", "--size", "3x3", "--table", &table, "--format", "json",
        ],
        &input,
    );
    assert_eq!(json.code, 0, "{}", json.stderr);
    assert_eq!(json.stderr, "");
    for (p, a) in lines(&json.stdout).iter().enumerate() {
        let p64 = p as u64;
        assert!(a["moves_left"].is_null(), "unknown, never guessed");
        assert_eq!(a["wdl_only"], true);
        assert_eq!(a["outcome"], if oracle.wins[p] { "win" } else { "loss" });
        let legal: Vec<u64> = oracle
            .order
            .iter()
            .copied()
            .filter(|m| m & p64 == 0)
            .collect();
        // Shown: the first winning move in the moves' order, or for a lost
        // position the first legal one.
        let shown = legal
            .iter()
            .copied()
            .find(|&m| !oracle.wins[(p64 | m) as usize])
            .or(legal.first().copied());
        match shown {
            Some(m) => assert_eq!(a["best_move"]["mask"], m, "position {p}"),
            None => assert!(a["best_move"].is_null()),
        }
    }
    let pretty = run(
        &["euler", "--table", &table, "--format", "pretty"],
        "2\n...\n...\n...\nXXX\nX.X\nXXX\n",
    );
    assert_eq!(pretty.code, 0, "{}", pretty.stderr);
    // The empty 3×3 board is won (the oracle says by how many moves, and
    // the first of them in the moves' order covers the centre); one open
    // square is lost (covering it covers the last square).
    let legal: Vec<u64> = oracle.order.clone();
    let wins: Vec<u64> = legal
        .iter()
        .copied()
        .filter(|&m| !oracle.wins[m as usize])
        .collect();
    assert!(oracle.wins[0]);
    let marked = board_text(shape, 0, '.', 'X');
    let marked: Vec<char> = marked.chars().collect();
    let marked: String = (0..3)
        .map(|r| {
            (0..3)
                .map(|c| {
                    if wins[0] >> (3 * r + c) & 1 == 1 {
                        'o'
                    } else {
                        marked[4 * r + c]
                    }
                })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n");
    let marked: Vec<&str> = marked.lines().collect();
    let covers: Vec<String> = shape
        .cells_of(wins[0])
        .map(|(r, c)| format!("({r},{c})"))
        .collect();
    assert_eq!(
        pretty.stdout,
        format!(
            "Board 1: WINNING (moves left unknown: the table holds win/loss only)\n\
         \x20 board  winning move\n\
         \x20 ...    {}\n\
         \x20 ...    {}\n\
         \x20 ...    {}\n\
         \x20 a winning move covers {} (the first of {} winning of {} legal moves)\n\n\
         Board 2: LOSING (moves left unknown: the table holds win/loss only)\n\
         \x20 board  a move\n\
         \x20 XXX    XXX\n\
         \x20 X.X    XoX\n\
         \x20 XXX    XXX\n\
         \x20 the only legal move loses; shown: the first, covering (1,1) (which resists longest is unknown)\n\n",
            marked[0],
            marked[1],
            marked[2],
            covers.join(" "),
            wins.len(),
            legal.len()
        )
    );
}

/// Fewest presses of each colour, with the number of optimal sets.
fn flip_truth(oracle: &Flip, board: usize) -> [(u8, u8); 2] {
    [0, 1].map(|c| (oracle.rounds[c][board], oracle.sets[c][board]))
}

/// Checks one Flip JSON answer against the oracle; the press sets must
/// reach their colour in the optimal number of presses (they may be any
/// optimal set: the table's and the solver's can differ).
fn check_flip_answer(shape: Shape, oracle: &Flip, board: usize, a: &Value) {
    let [(rw, sw), (rb, sb)] = flip_truth(oracle, board);
    let reach = |cells: &Value, colour: u64| {
        let presses: u64 = cells
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                1u64 << (shape.cols() as u64 * c[0].as_u64().unwrap() + c[1].as_u64().unwrap())
            })
            .sum();
        let after = press::apply(shape.rows(), shape.cols(), board as u64, presses);
        assert_eq!(
            after, colour,
            "board {board:#b}: presses {cells} reach the colour"
        );
        presses.count_ones()
    };
    let best = rw.min(rb);
    if best == 255 {
        assert_eq!(a["answer"], "Impossible");
        assert_eq!(a["solvable"], false);
        assert!(a["rounds"].is_null() && a["to_white"].is_null() && a["to_black"].is_null());
        assert_eq!(a["optimal_sets"], 0);
        return;
    }
    assert_eq!(a["answer"], best.to_string());
    assert_eq!(a["rounds"], best);
    let (colour, sets) = match rw.cmp(&rb) {
        std::cmp::Ordering::Less => ("white", u64::from(sw)),
        std::cmp::Ordering::Greater => ("black", u64::from(sb)),
        std::cmp::Ordering::Equal => ("white", u64::from(sw) + u64::from(sb)),
    };
    assert_eq!(a["colour"], colour, "board {board}");
    assert_eq!(a["optimal_sets"], sets, "board {board}");
    let target = if colour == "white" { 0 } else { shape.full() };
    assert_eq!(reach(&a["presses"], target), u32::from(best));
    for (key, rounds, sets, target) in [("to_white", rw, sw, 0), ("to_black", rb, sb, shape.full())]
    {
        if rounds == 255 {
            assert!(a[key].is_null());
        } else {
            assert_eq!(a[key]["rounds"], rounds);
            assert_eq!(a[key]["optimal_sets"], sets);
            assert_eq!(reach(&a[key]["presses"], target), u32::from(rounds));
        }
    }
}

#[test]
fn flip_every_board_of_small_shapes_from_lights_and_from_tables() {
    let dir = TempDir::new("flip");
    for (rows, cols) in [(2, 3), (3, 3), (2, 4), (1, 5)] {
        let shape = Shape::new(rows, cols).unwrap();
        let size = shape.to_string();
        let oracle = Flip::solve(shape);
        let input = flip_input(shape);
        let expected: String = (0..1usize << shape.cells())
            .map(|b| {
                let best = oracle.rounds[0][b].min(oracle.rounds[1][b]);
                if best == 255 {
                    "Impossible\n".to_owned()
                } else {
                    format!("{best}\n")
                }
            })
            .collect();
        let r = run(&["generate", "flip", &size, "--dir", dir.path()], "");
        assert_eq!(r.code, 0, "{}", r.stderr);
        // Without a table directory: the GF(2) solver; with one: the table.
        for tables in [None, Some(dir.path())] {
            let mut args = vec!["flip", "--size", &size];
            if let Some(d) = tables {
                args.extend(["--tables", d]);
            }
            let judge = run(&args, &input);
            assert_eq!(judge.code, 0, "{}", judge.stderr);
            assert_eq!(judge.stderr, "");
            assert_eq!(judge.stdout, expected, "{size} {tables:?}");
            args.extend(["--format", "json"]);
            let json = run(&args, &input);
            assert_eq!(json.code, 0, "{}", json.stderr);
            for (b, a) in lines(&json.stdout).iter().enumerate() {
                assert_eq!(a["case"], b + 1);
                assert_eq!(
                    a["board"],
                    board_text(shape, b as u64, 'w', 'b')
                        .trim_end()
                        .replace('\n', "/")
                );
                check_flip_answer(shape, &oracle, b, a);
            }
        }
    }
}

#[test]
fn flip_pretty_and_board_option() {
    // The first 2x3 board (in numeric order) taking 2 rounds, by the oracle.
    let shape = Shape::new(2, 3).unwrap();
    let oracle = Flip::solve(shape);
    let board = (0..64)
        .find(|&b| oracle.rounds[0][b].min(oracle.rounds[1][b]) == 2)
        .expect("a board taking 2 rounds");
    let text = board_text(shape, board as u64, 'w', 'b')
        .trim_end()
        .replace('\n', "/");
    let r = run(
        &[
            "flip", "--size", "2x3", "--format", "pretty", "--board", &text,
        ],
        "",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let [(rw, _), (rb, _)] = flip_truth(&oracle, board);
    let colour = if rw <= rb { "white" } else { "black" };
    let out: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(out[0], format!("Board 1: 2 rounds to all {colour}"));
    assert_eq!(out[1], "  board  press  after");
    // The board as given, two presses, and the colour after them.
    let rows: Vec<&str> = text.split('/').collect();
    assert_eq!([&out[2][2..5], &out[3][2..5]], [rows[0], rows[1]]);
    let presses = out[2][9..12].matches('x').count() + out[3][9..12].matches('x').count();
    assert_eq!(presses, 2, "{}", r.stdout);
    let after = if colour == "white" { "www" } else { "bbb" };
    assert_eq!(
        [&out[2][16..], &out[3][16..]],
        [after, after],
        "{}",
        r.stdout
    );
    assert!(out[4].contains(&format!("to all white: {rw} rounds")) || rw == 255);

    // The board's shape must be --size's (4x4 by default).
    let r = run(&["flip", "--board", "bwb/wbw"], "");
    assert_eq!(r.code, 2);
    let r = run(&["flip", "--size", "3x3", "--board", "bwb/wbw"], "");
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("a 2x3 board, not 3x3"), "{}", r.stderr);
}

#[test]
fn four_by_four_through_table_files_equals_the_embedded_tables() {
    let dir = TempDir::new("four");
    let r = run(&["export", "--dir", dir.path()], "");
    assert_eq!(r.code, 0, "{}", r.stderr);
    let flip_boards = "bwwb\nbbwb\nbwwb\nbwww\nbwbw\nwwww\nbbwb\nbwwb\nbbbb\nbbbb\nbbbb\nbbbb\nwwww\nwwww\nwwww\nwwwb\n";
    let euler_boards = "4\nXXX.\nXXX.\n.XXX\n.XXX\n\nXXXX\n...X\nXX.X\nXX.X\n\n....\n....\n....\n....\n\nXXXX\nXXXX\nXXXX\nXXXX\n";
    for format in ["judge", "pretty", "json"] {
        for (puzzle, boards) in [("flip", flip_boards), ("euler", euler_boards)] {
            let embedded = run(&[puzzle, "--format", format], boards);
            let table = dir.file(&format!("{puzzle}-4x4.bin"));
            let file = run(&[puzzle, "--format", format, "--table", &table], boards);
            assert_eq!(
                (file.code, &file.stdout),
                (0, &embedded.stdout),
                "{puzzle} {format}"
            );
        }
    }
}

/// `below(n)` as `boardbase::cases` documents it: Lemire's method, the
/// high word of `x · n`, `x` drawn again while the low word is below
/// `2^64 mod n`.
fn below(rng: &mut SplitMix, n: u64) -> u64 {
    let threshold = n.wrapping_neg() % n;
    loop {
        let m = u128::from(rng.next()) * u128::from(n);
        if m as u64 >= threshold {
            return (m >> 64) as u64;
        }
    }
}

/// A 4×4 table file given by `--table` is one source among others: `cases`
/// draws the boards it draws from the embedded tables (each case
/// `pool[below(len)]` of the eligible boards, ascending, as the oracle
/// finds them) and `check` sends and judges the same boards.
#[test]
fn four_by_four_cases_and_check_through_table_files_equal_the_embedded_tables() {
    let dir = TempDir::new("four-cases");
    let r = run(&["export", "--dir", dir.path()], "");
    assert_eq!(r.code, 0, "{}", r.stderr);
    let flip = oracle::tables::flip_rounds_4x4();
    let (wins, _) = oracle::tables::solve_euler_4x4(&oracle::euler::moves_4x4());
    let flip_answer = |b: u64| flip[b as usize].map_or("Impossible".to_owned(), |r| r.to_string());
    let euler_answer = |p: u64| {
        if wins[p as usize] {
            "WINNING"
        } else {
            "LOSING"
        }
        .to_owned()
    };
    let answers = dir.file("answers.txt");
    for (puzzle, family) in [
        ("flip", "solvable"),
        ("flip", "impossible"),
        ("euler", "winning"),
        ("euler", "losing"),
    ] {
        let pool: Vec<u64> = match puzzle {
            "flip" => (0..1 << 16)
                .filter(|&b| flip[b as usize].is_some() == (family == "solvable"))
                .collect(),
            _ => (0..(1 << 16) - 1)
                .filter(|&p| wins[p as usize] == (family == "winning"))
                .collect(),
        };
        let mut rng = SplitMix(11);
        let drawn: Vec<u64> = (0..300)
            .map(|_| pool[below(&mut rng, pool.len() as u64) as usize])
            .collect();
        let truth: String = drawn
            .iter()
            .map(|&b| match puzzle {
                "flip" => flip_answer(b) + "\n",
                _ => euler_answer(b) + "\n",
            })
            .collect();
        let table = dir.file(&format!("{puzzle}-4x4.bin"));
        for from_file in [false, true] {
            let mut args = vec![
                "cases",
                puzzle,
                "--cases",
                "300",
                "--seed",
                "11",
                "--family",
                family,
                "--answers",
                &answers,
            ];
            if from_file {
                args.extend(["--table", &table]);
            }
            let r = run(&args, "");
            assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
            let (boards, one) = match puzzle {
                "flip" => (r.stdout.as_str(), 'b'),
                _ => (r.stdout.split_once('\n').unwrap().1, 'X'),
            };
            assert_eq!(boards_of(boards, Shape::SQUARE4, one), drawn, "{args:?}");
            assert_eq!(
                std::fs::read_to_string(&answers).unwrap(),
                truth,
                "{args:?}"
            );
        }
    }

    // `check`: a sample of every board, the same from either source, each
    // failure a board the oracle answers otherwise than the program.
    let euler_losing = "read n; i=0; while [ $i -lt $n ]; do echo LOSING; i=$((i+1)); done";
    for (puzzle, program, said) in [
        ("flip", "echo Impossible", "Impossible"),
        ("euler", euler_losing, "LOSING"),
    ] {
        let table = dir.file(&format!("{puzzle}-4x4.bin"));
        let mut reports = Vec::new();
        for from_file in [false, true] {
            let mut args = vec![
                "check", puzzle, "--sample", "120", "--seed", "3", "--show", "1000", "--format",
                "json",
            ];
            if from_file {
                args.extend(["--table", &table]);
            }
            args.extend(["--", "sh", "-c", program]);
            let r = run(&args, "");
            assert_eq!(r.code, 1, "{args:?}: {}", r.stderr);
            let report: Value = serde_json::from_str(&r.stdout).unwrap();
            assert_eq!(
                (report["cases"].as_u64(), report["sampled"].as_bool()),
                (Some(120), Some(true))
            );
            let failures = report["failures"].as_array().unwrap().clone();
            assert_eq!(
                report["case_verdicts"]["wrong_answer"].as_u64(),
                Some(failures.len() as u64)
            );
            assert!(!failures.is_empty());
            for f in &failures {
                let board = f["view"]["key"].as_u64().unwrap();
                let truth = match puzzle {
                    "flip" => flip_answer(board),
                    _ => euler_answer(board),
                };
                assert_ne!(truth, said);
                assert_eq!(f["expected"].as_str(), Some(truth.as_str()));
            }
            let seen: Vec<(Value, Value, Value)> = failures
                .iter()
                .map(|f| (f["view"].clone(), f["what"].clone(), f["expected"].clone()))
                .collect();
            reports.push((
                report["case_verdicts"].clone(),
                report["groups"].clone(),
                seen,
            ));
        }
        assert_eq!(reports[0], reports[1], "{puzzle}");
    }
}

#[test]
fn where_tables_come_from() {
    let a = TempDir::new("tables-a");
    let b = TempDir::new("tables-b");
    let make = |puzzle: &str, size: &str, dir: &TempDir| {
        let r = run(&["generate", puzzle, size, "--dir", dir.path()], "");
        assert_eq!(r.code, 0, "{}", r.stderr);
    };
    make("euler", "3x3", &a);
    // A damaged "euler-3x3.bin" in b: a Flip table under Euler's name.
    make("flip", "3x3", &b);
    std::fs::rename(b.file("flip-3x3.bin"), b.file("euler-3x3.bin")).unwrap();
    let input = "1\n...\n...\n...\n";

    // --tables first, then BOARDBASE_TABLES: a finds it, b is never looked at.
    let r = run_env(
        &["euler", "--size", "3x3", "--tables", a.path()],
        input,
        Some(b.path()),
    );
    assert_eq!(
        (r.code, r.stdout.as_str(), r.stderr.as_str()),
        (0, "WINNING\n", "")
    );
    // BOARDBASE_TABLES alone, colon-separated, empty entries skipped.
    let env = format!(":/nonexistent/boardbase:{}", a.path());
    let r = run_env(&["euler", "--size", "3x3"], input, Some(&env));
    assert_eq!(
        (r.code, r.stdout.as_str(), r.stderr.as_str()),
        (0, "WINNING\n", "")
    );
    // The first file of the name wins, and a wrong one is an error, not
    // skipped for the next.
    let env = format!("{}:{}", b.path(), a.path());
    let r = run_env(&["euler", "--size", "3x3"], input, Some(&env));
    assert_eq!(r.code, 1);
    assert_eq!(r.stdout, "");
    assert!(
        r.stderr
            .contains("euler-3x3.bin: a Flip 3x3 table, not an Euler 3x3 table"),
        "{}",
        r.stderr
    );
    // --table: the file given, its puzzle and shape checked; the shape
    // comes from the file when --size is absent.
    let r = run(&["euler", "--table", &a.file("euler-3x3.bin")], input);
    assert_eq!((r.code, r.stdout.as_str()), (0, "WINNING\n"));
    let r = run(
        &[
            "euler",
            "--size",
            "3x4",
            "--table",
            &a.file("euler-3x3.bin"),
        ],
        input,
    );
    assert_eq!(r.code, 1);
    assert!(
        r.stderr
            .contains("an Euler 3x3 table, not an Euler 3x4 table"),
        "{}",
        r.stderr
    );
    let r = run(
        &["flip", "--table", &a.file("euler-3x3.bin")],
        "www\nwww\nwww\n",
    );
    assert_eq!(r.code, 1);
    let r = run(&["euler", "--table", &a.file("nothing.bin")], input);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("nothing.bin"), "{}", r.stderr);

    // Nothing found, at most 2^25 positions: made on the spot, said on stderr.
    let r = run_env(
        &["euler", "--size", "3x4", "--tables", b.path()],
        "1\n....\n....\n....\n",
        None,
    );
    assert_eq!((r.code, r.stdout.as_str()), (0, "LOSING\n"));
    assert!(
        r.stderr.starts_with("note: no euler-3x4.bin in "),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains("made the euler 3x4 table in memory"),
        "{}",
        r.stderr
    );

    // Past 2^25 positions: exit 1 with the command that makes the table.
    let r = run(&["euler", "--size", "5x6", "--tables", a.path()], "1\n");
    assert_eq!(r.code, 1);
    assert_eq!(r.stdout, "");
    assert!(
        r.stderr.contains(&format!(
            "make it with: boardbase generate euler 5x6 --dir {}",
            a.path()
        )),
        "{}",
        r.stderr
    );
    let r = run(&["euler", "--size", "6x6"], "1\n");
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.contains(
            "make it with: boardbase generate euler 6x6 --dir my-tables, then pass --tables my-tables"
        ),
        "{}",
        r.stderr
    );
}

#[test]
fn sizes_past_the_limits_are_usage_errors() {
    for args in [
        &["euler", "--size", "6x7"][..],
        &["euler", "--size", "0x4"],
        &["euler", "--size", "65x1"],
        &["euler", "--size", "4by4"],
        &["flip", "--size", "64x64"], // nullity 28: no answer proven minimal
        &["flip", "--size", "39x39"],
    ] {
        let r = run(args, "");
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert_eq!(r.stdout, "");
    }
    let r = run(&["flip", "--size", "64x64"], "");
    assert!(r.stderr.contains("nullity 28"), "{}", r.stderr);
    // 62x62 (nullity 24) is answered exactly: all white is 0 rounds.
    let board: String = (0..62).map(|_| "w".repeat(62) + "\n").collect();
    let r = run(&["flip", "--size", "62x62"], &board);
    assert_eq!((r.code, r.stdout.as_str()), (0, "0\n"), "{}", r.stderr);
}

#[test]
fn boards_of_the_wrong_shape_are_input_errors_after_earlier_answers() {
    // (arguments, input, the answers before the error, how stderr ends)
    for (args, input, answers, error) in [
        // Euler 3x3: the second board has a row of 4.
        (
            &["euler", "--size", "3x3"][..],
            "3\nXXX\nX.X\nXXX\n\n...\n....\n...\n\n...\n...\n...\n",
            "LOSING\n",
            "error: <stdin>:7:4: expected the end of the row after 3 cells, found '.'\n",
        ),
        // A short row, CRLF line ends around it.
        (
            &["euler", "--size", "2x3"],
            "2\r\nXXX\r\n..X\r\n\r\nXX\r\nXXX\r\n",
            "WINNING\n",
            "error: <stdin>:5:3: expected 'X' or '.', found end of line\n",
        ),
        // Flip 2x3: the third board is missing its second row.
        (
            &["flip", "--size", "2x3"],
            "www\nwww\nbbb\nbbb\nbwb\n\nwww\n",
            "0\n0\n",
            "error: <stdin>:6:1: expected row 2 of a board, found a blank line\n",
        ),
        // 4x4 boards given to --size 3x3.
        (
            &["flip", "--size", "3x3"],
            "bwwb\nbbwb\nbwwb\nbwww\n",
            "",
            "error: <stdin>:1:4: expected the end of the row after 3 cells, found 'b'\n",
        ),
    ] {
        let r = run(args, input);
        assert_eq!(r.code, 1, "{args:?}");
        assert_eq!(r.stdout, answers, "{args:?}");
        assert!(r.stderr.ends_with(error), "{args:?}: {}", r.stderr);
    }
    // No board at all: no answer (what `cases flip --cases 0` writes).
    let r = run(&["flip", "--size", "2x2"], "\n\n");
    assert_eq!((r.code, r.stdout.as_str(), r.stderr.as_str()), (0, "", ""));
    // Tolerant input: blanks around rows, CRLF, no final newline.
    let r = run(&["flip", "--size", "2x2"], "  bb \r\nbb\r\n\r\nwb\nbb");
    assert_eq!((r.code, r.stdout.as_str()), (0, "0\n1\n"), "{}", r.stderr);
}

/// A random grid of `shape` as `boardbase::cases` documents it: one
/// `next()` a row, masked to the row's bits.
fn random_grid(rng: &mut SplitMix, shape: Shape) -> u64 {
    (0..shape.rows()).fold(0, |b, r| {
        b | (rng.next() & ((1 << shape.cols()) - 1)) << (shape.cols() * r)
    })
}

/// The boards of a `gen` input of `shape` (after the count, for Euler).
fn boards_of(text: &str, shape: Shape, one: char) -> Vec<u64> {
    let rows: Vec<&str> = text.lines().filter(|l| !l.is_empty()).collect();
    rows.chunks(shape.rows())
        .map(|rows| {
            rows.iter().enumerate().fold(0, |b, (r, row)| {
                row.chars().enumerate().fold(b, |b, (c, ch)| {
                    b | u64::from(ch == one) << (shape.cols() * r + c)
                })
            })
        })
        .collect()
}

#[test]
fn gen_euler_and_flip_of_other_sizes() {
    let dir = TempDir::new("gen");
    let answers = dir.file("answers.txt");
    let shape = Shape::new(3, 3).unwrap();
    let oracle = Euler::solve(shape);

    // Euler, random family: the stream is the documented one.
    let r = run(
        &[
            "cases",
            "euler",
            "--size",
            "3x3",
            "--cases",
            "50",
            "--seed",
            "9",
            "--answers",
            &answers,
        ],
        "",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let (count, rest) = r.stdout.split_once('\n').unwrap();
    assert_eq!(count, "50");
    let positions = boards_of(rest, shape, 'X');
    let mut rng = SplitMix(9);
    let expected: Vec<u64> = (0..50)
        .map(|_| {
            loop {
                let p = random_grid(&mut rng, shape);
                if p != shape.full() {
                    break p;
                }
            }
        })
        .collect();
    assert_eq!(positions, expected);
    let said = std::fs::read_to_string(&answers).unwrap();
    let truth: String = positions
        .iter()
        .map(|&p| {
            if oracle.wins[p as usize] {
                "WINNING\n"
            } else {
                "LOSING\n"
            }
        })
        .collect();
    assert_eq!(said, truth);
    // The same arguments, the same bytes; and `euler --size` agrees.
    let again = run(
        &[
            "cases", "euler", "--size", "3x3", "--cases", "50", "--seed", "9",
        ],
        "",
    );
    assert_eq!(again.stdout, r.stdout);
    let solved = run(&["euler", "--size", "3x3"], &r.stdout);
    assert_eq!(solved.stdout, truth);

    // Filters: losing positions lasting 3 moves, by the oracle.
    let r = run(
        &[
            "cases",
            "euler",
            "--size",
            "3x3",
            "--cases",
            "40",
            "--family",
            "losing",
            "--moves-left",
            "3",
        ],
        "",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    for p in boards_of(r.stdout.split_once('\n').unwrap().1, shape, 'X') {
        assert!(
            !oracle.wins[p as usize] && oracle.plies[p as usize] == 3,
            "{p:#b}"
        );
    }
    let r = run(
        &[
            "cases",
            "euler",
            "--size",
            "3x3",
            "--cases",
            "1",
            "--family",
            "winning",
            "--moves-left",
            "5",
        ],
        "",
    );
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .contains("no winning Euler position lasting 5 moves on 3x3 exists"),
        "{}",
        r.stderr
    );

    // Flip 3x5 (nullity 3: impossible boards exist): families by the oracle,
    // answers by the oracle; without a table (GF(2)) and with one.
    let fshape = Shape::new(3, 5).unwrap();
    let flip = Flip::solve(fshape);
    let best = |b: u64| flip.rounds[0][b as usize].min(flip.rounds[1][b as usize]);
    let r = run(&["generate", "flip", "3x5", "--dir", dir.path()], "");
    assert_eq!(r.code, 0, "{}", r.stderr);
    for tables in [None, Some(dir.path())] {
        for family in ["random", "solvable", "impossible"] {
            let mut args = vec![
                "cases",
                "flip",
                "--size",
                "3x5",
                "--cases",
                "300",
                "--family",
                family,
                "--answers",
                &answers,
            ];
            if let Some(d) = tables {
                args.extend(["--tables", d]);
            }
            let r = run(&args, "");
            assert_eq!(r.code, 0, "{family}: {}", r.stderr);
            let boards = boards_of(&r.stdout, fshape, 'b');
            assert_eq!(boards.len(), 300);
            let said = std::fs::read_to_string(&answers).unwrap();
            let truth: String = boards
                .iter()
                .map(|&b| match best(b) {
                    255 => "Impossible\n".to_owned(),
                    n => format!("{n}\n"),
                })
                .collect();
            assert_eq!(said, truth, "{family}");
            match family {
                "solvable" => assert!(boards.iter().all(|&b| best(b) != 255)),
                "impossible" => assert!(boards.iter().all(|&b| best(b) == 255)),
                _ => {}
            }
        }
    }
    // --rounds needs the table, and then gives exactly those boards.
    let r = run(
        &[
            "cases", "flip", "--size", "3x5", "--cases", "20", "--rounds", "4",
        ],
        "",
    );
    assert_eq!(r.code, 2);
    let r = run(
        &[
            "cases",
            "flip",
            "--size",
            "3x5",
            "--cases",
            "20",
            "--rounds",
            "4",
            "--tables",
            dir.path(),
        ],
        "",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        boards_of(&r.stdout, fshape, 'b')
            .iter()
            .all(|&b| best(b) == 4)
    );
    // Sizes past the limits, and shapes without impossible boards.
    let r = run(&["cases", "flip", "--size", "64x64", "--cases", "1"], "");
    assert_eq!(r.code, 2, "{}", r.stderr);
    let r = run(
        &[
            "cases",
            "flip",
            "--size",
            "4x5",
            "--cases",
            "1",
            "--family",
            "impossible",
        ],
        "",
    );
    assert_eq!(r.code, 2, "4x5 has nullity 0: {}", r.stderr);
    let r = run(&["cases", "euler", "--size", "6x7", "--cases", "1"], "");
    assert_eq!(r.code, 2);
}

/// A `--tables` directory that does not exist is a usage error on every
/// subcommand that takes it (exit status 2), as `serve` already had it;
/// before, `euler` made the table in memory and `flip` used GF(2) without
/// a word.
#[test]
fn a_missing_tables_directory_is_a_usage_error_everywhere() {
    for args in [
        &["euler", "--size", "3x3", "--tables", "/no/such/dir"][..],
        &["flip", "--size", "3x3", "--tables", "/no/such/dir"],
        &[
            "cases",
            "flip",
            "--size",
            "3x3",
            "--cases",
            "1",
            "--tables",
            "/no/such/dir",
        ],
        &["serve", "--tables", "/no/such/dir"],
    ] {
        let r = run(args, "");
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert_eq!(r.stdout, "", "{args:?}");
        assert!(
            r.stderr.contains("/no/such/dir is not a directory"),
            "{args:?}: {}",
            r.stderr
        );
    }
}

#[test]
fn board_option_of_the_stated_size_and_of_another() {
    // `--board` with `--size RxC`: a board of that shape is answered as the
    // oracle answers it; one of another shape says which it is.
    const WHY: &str = "(--size gives the board size; the default is 4x4)";
    for (rows, cols) in [(2, 3), (3, 2), (1, 5)] {
        let shape = Shape::new(rows, cols).unwrap();
        let size = shape.to_string();
        let other = Shape::new(cols, rows + 1).unwrap();
        let slash = |text: String| text.trim_end().replace('\n', "/");
        let euler = Euler::solve(shape);
        let flip = Flip::solve(shape).fewest();
        for p in [0u64, 1, 5, (1 << shape.cells()) - 2] {
            let board = slash(board_text(shape, p, '.', 'X'));
            let r = run(&["euler", "--size", &size, "--board", &board], "");
            assert_eq!(r.code, 0, "{size} {board}: {}", r.stderr);
            let win = if euler.wins[p as usize] {
                "WINNING\n"
            } else {
                "LOSING\n"
            };
            assert_eq!(r.stdout, win, "{size} {board}");

            let board = slash(board_text(shape, p, 'w', 'b'));
            let r = run(&["flip", "--size", &size, "--board", &board], "");
            assert_eq!(r.code, 0, "{size} {board}: {}", r.stderr);
            let rounds = flip[p as usize].map_or("Impossible".to_owned(), |n| n.to_string());
            assert_eq!(r.stdout, format!("{rounds}\n"), "{size} {board}");
        }
        for (game, zero, one) in [("euler", '.', 'X'), ("flip", 'w', 'b')] {
            let board = slash(board_text(other, 0, zero, one));
            let r = run(&[game, "--size", &size, "--board", &board], "");
            assert_eq!(r.code, 2, "{game} {size} {board}");
            assert_eq!(
                r.stderr,
                format!("error: --board {board}: a {other} board, not {size} {WHY}\n"),
                "{game}"
            );
        }
    }
}
