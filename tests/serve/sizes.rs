//! `boardbase serve` on board sizes other than 4×4, over a real socket:
//! Flip from table files made by `boardbase generate` (found through
//! `--tables`) and from the GF(2) solver; Euler from table files (full and
//! win/loss only, one found through `BOARDBASE_TABLES`) and from tables
//! made in memory on first use; the 422s; `/api/v1/sizes`.
//!
//! Every answer and every move list is checked against oracles written in
//! `tests/`, with methods of their own: Flip by light chasing from every
//! first row (`oracle/fliptile.rs`), with the press rule of `oracle/press.rs`
//! for the boards one press away; Euler by the memoized recursion over the
//! moves of `oracle/euler.rs` (`oracle/tables.rs`). The answer objects are also compared
//! with `boardbase flip|euler --size RxC --format json` on the same boards.
#![cfg(feature = "serve")]

use crate::common;
use crate::http;
use crate::oracle;
use crate::oracle::fliptile;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use boardbase::tables::shape::Shape;
use fliptile::fliptile_truth;
use http::{Conn, Server};
use oracle::tables::Euler;
use oracle::{euler, press};
use serde_json::{Value, json};

fn shape(rows: usize, cols: usize) -> Shape {
    Shape::new(rows, cols).expect("a shape")
}

/// Runs `boardbase ARGS` on `stdin` (no `BOARDBASE_TABLES`), which must
/// succeed; stdout.
fn run(args: &[&str], stdin: &str) -> String {
    let r = common::run_env(args, stdin, None);
    assert_eq!(r.code, 0, "boardbase {args:?}: {}", r.stderr);
    r.stdout
}

/// The directories of table files, made once for every test of this file
/// by `boardbase generate`:
/// - `main`: flip-4x5, flip-5x5, euler-3x4, euler-4x5 (full tables);
/// - `env`: euler-3x5, win/loss only (given through `BOARDBASE_TABLES`);
/// - `broken`: flip-3x3.bin and euler-2x3.bin that are not table files.
struct Dirs {
    main: PathBuf,
    env: PathBuf,
    broken: PathBuf,
}

fn dirs() -> &'static Dirs {
    static DIRS: OnceLock<Dirs> = OnceLock::new();
    DIRS.get_or_init(|| {
        let root = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("serve-sizes-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let d = Dirs {
            main: root.join("main"),
            env: root.join("env"),
            broken: root.join("broken"),
        };
        let main = d.main.to_str().unwrap();
        for (puzzle, size) in [
            ("flip", "4x5"),
            ("flip", "5x5"),
            ("euler", "3x4"),
            ("euler", "4x5"),
        ] {
            run(&["generate", puzzle, size, "--dir", main], "");
        }
        run(
            &[
                "generate",
                "euler",
                "3x5",
                "--wdl-only",
                "--dir",
                d.env.to_str().unwrap(),
            ],
            "",
        );
        std::fs::create_dir_all(&d.broken).unwrap();
        std::fs::write(d.broken.join("flip-3x3.bin"), b"not a table").unwrap();
        std::fs::write(d.broken.join("euler-2x3.bin"), b"BRDBASE\0 nor this").unwrap();
        d
    })
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The entry of the Euler `size` in an answer of `/api/v1/sizes`.
fn euler_entry(sizes: &Value, size: &str) -> Option<Value> {
    sizes["euler"]
        .as_array()
        .expect("the Euler sizes")
        .iter()
        .find(|e| e["size"] == size)
        .cloned()
}

/// A server with every table directory: `--tables main --tables broken`,
/// `BOARDBASE_TABLES=env`.
fn with_tables() -> Server {
    let d = dirs();
    Server::start_env(
        &["--tables", path(&d.main), "--tables", path(&d.broken)],
        path(&d.env),
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

    /// `R·C` random cells, 0 or 1, row-major.
    fn cells(&mut self, s: Shape) -> Vec<u8> {
        (0..s.cells())
            .map(|_| (self.next() >> 17 & 1) as u8)
            .collect()
    }
}

/// A board's text: rows of `zero`/`one` separated by `/`.
fn text(s: Shape, cells: &[u8], zero: char, one: char) -> String {
    cells
        .chunks(s.cols())
        .map(|row| {
            row.iter()
                .map(|&x| if x == 1 { one } else { zero })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// The text of the Euler position `bits` of `s` (bit `C·r + c` set: the
/// square (r, c) covered, `X`).
fn euler_text(s: Shape, bits: u64) -> String {
    let cells: Vec<u8> = (0..s.cells()).map(|i| (bits >> i & 1) as u8).collect();
    text(s, &cells, '.', 'X')
}

// ----------------------------------------------------------------- Flip --

/// The board of one byte a cell after a press at (`r`, `c`), by the
/// oracle's press rule.
fn after_press(s: Shape, cells: &[u8], r: usize, c: usize) -> Vec<u8> {
    press::pressed_cells(s.rows(), s.cols(), cells, r, c)
}

/// Fewest presses and optimal sets to white and to black, by light chasing.
fn flip_truth(s: Shape, cells: &[u8]) -> [Option<(usize, usize)>; 2] {
    let inverse: Vec<u8> = cells.iter().map(|x| 1 - x).collect();
    [cells, &inverse[..]]
        .map(|b| fliptile_truth(s.rows(), s.cols(), b).map(|t| (t.fewest, t.optimal)))
}

fn fewest(truth: &[Option<(usize, usize)>; 2]) -> Option<usize> {
    match truth {
        [Some(w), Some(b)] => Some(w.0.min(b.0)),
        [w, b] => w.or(*b).map(|t| t.0),
    }
}

/// Whether pressing `presses` (a JSON list of cells) turns `cells` all
/// `colour`, in that many presses.
fn reaches(s: Shape, cells: &[u8], presses: &Value, colour: u8) -> usize {
    let list = presses.as_array().expect("a list of cells");
    let mut board = cells.to_vec();
    for p in list {
        board = after_press(
            s,
            &board,
            p[0].as_u64().unwrap() as usize,
            p[1].as_u64().unwrap() as usize,
        );
    }
    assert!(
        board.iter().all(|&x| x == colour),
        "{presses} reaches the colour"
    );
    list.len()
}

/// Checks a Flip lookup of `cells` against the oracle: the answer, and
/// every press with the fewest rounds after it, best first.
fn check_flip(s: Shape, cells: &[u8], v: &Value) {
    let board = text(s, cells, 'w', 'b');
    assert_eq!(v["board"], board);
    let truth = flip_truth(s, cells);
    match fewest(&truth) {
        None => {
            assert_eq!(v["answer"], "Impossible", "{board}");
            assert_eq!(
                (v["solvable"].clone(), v["optimal_sets"].clone()),
                (json!(false), json!(0))
            );
            assert!(v["rounds"].is_null() && v["to_white"].is_null() && v["to_black"].is_null());
        }
        Some(best) => {
            assert_eq!(v["answer"], best.to_string(), "{board}");
            assert_eq!(v["rounds"], best);
            let [w, b] = truth;
            let (colour, sets) = match (w, b) {
                (Some(w), Some(b)) if w.0 == b.0 => ("white", w.1 + b.1),
                (Some(w), _) if w.0 == best => ("white", w.1),
                (_, Some(b)) => ("black", b.1),
                _ => unreachable!(),
            };
            assert_eq!(
                (v["colour"].clone(), v["optimal_sets"].clone()),
                (json!(colour), json!(sets)),
                "{board}"
            );
            assert_eq!(
                reaches(s, cells, &v["presses"], u8::from(colour == "black")),
                best
            );
            for (key, t, c) in [("to_white", w, 0), ("to_black", b, 1)] {
                match t {
                    None => assert!(v[key].is_null(), "{board} {key}"),
                    Some((rounds, sets)) => {
                        assert_eq!(v[key]["rounds"], rounds, "{board} {key}");
                        assert_eq!(v[key]["optimal_sets"], sets, "{board} {key}");
                        assert_eq!(reaches(s, cells, &v[key]["presses"], c), rounds);
                    }
                }
            }
        }
    }
    // Every press, best first: fewest rounds after it, impossible last,
    // ties in reading order.
    let moves = v["moves"].as_array().expect("moves");
    let mut expected: Vec<(usize, Option<usize>, Vec<u8>)> = (0..s.cells())
        .map(|i| {
            let after = after_press(s, cells, i / s.cols(), i % s.cols());
            (i, fewest(&flip_truth(s, &after)), after)
        })
        .collect();
    expected.sort_by_key(|e| (e.1.unwrap_or(usize::MAX), e.0));
    assert_eq!(moves.len(), expected.len());
    for (m, (i, rounds, after)) in moves.iter().zip(&expected) {
        let (r, c) = (i / s.cols(), i % s.cols());
        assert_eq!(m["cell"], json!([r, c]), "{board}: order of the presses");
        assert_eq!(m["rounds"], json!(rounds), "{board}: press ({r}, {c})");
        assert_eq!(m["solvable"], rounds.is_some());
        if s.cells() <= 64 {
            assert_eq!(m["board"], text(s, after, 'w', 'b'));
        } else {
            assert!(
                m.get("board").is_none(),
                "boards of more than 64 cells leave it out"
            );
        }
    }
}

/// The answer object without `moves`.
fn without_moves(v: &Value) -> Value {
    let mut v = v.clone();
    v.as_object_mut().unwrap().remove("moves").expect("moves");
    v
}

/// The answer to `GET path` on `conn`, which must be a 200.
fn answer(conn: &mut Conn, path: &str) -> Value {
    let r = conn.get(path);
    assert_eq!(r.status, 200, "{}", r.text());
    r.json()
}

/// The `error` message of a refusal.
fn error(v: &Value) -> &str {
    v["error"].as_str().expect("a message")
}

/// The first `limit` boards of a run of lookups and the server's answers
/// to them, to be compared with what `boardbase PUZZLE --size RxC --format
/// json` says of the same boards.
struct AgainstCli {
    limit: usize,
    input: String,
    answers: Vec<Value>,
}

impl AgainstCli {
    /// Nothing kept yet; the CLI's input starts with `head`.
    fn new(limit: usize, head: String) -> AgainstCli {
        AgainstCli {
            limit,
            input: head,
            answers: Vec::new(),
        }
    }

    /// Keeps `board` (rows separated by `/`) and the server's answer `v`
    /// (without `moves`, which the CLI does not list), while fewer than
    /// `limit` are kept.
    fn keep(&mut self, board: &str, v: &Value) {
        if self.answers.len() < self.limit {
            self.input.push_str(&board.replace('/', "\n"));
            self.input.push('\n');
            self.answers.push(without_moves(v));
        }
    }

    /// Runs `boardbase PUZZLE --size S --format json` with `--tables` for
    /// each of `tables` on the kept boards: one object a board, each the
    /// server's answer.
    fn check(self, puzzle: &str, s: Shape, tables: &[&str]) {
        let size = s.to_string();
        let mut args = vec![puzzle, "--size", &size, "--format", "json"];
        for t in tables {
            args.extend(["--tables", t]);
        }
        let out = run(&args, &self.input);
        for (line, answer) in out.lines().zip(&self.answers) {
            let mut v: Value = serde_json::from_str(line).unwrap();
            // The CLI numbers its cases; the server's answer is case 1.
            v["case"] = json!(1);
            assert_eq!(&v, answer, "the object of boardbase {puzzle} --size {size}");
        }
        assert_eq!(out.lines().count(), self.answers.len());
    }
}

/// Asks for `boards` of `s` and checks each; the first `cli` of them are
/// also compared with `boardbase flip --size` under the same `tables`.
fn flip_boards(conn: &mut Conn, s: Shape, boards: &[Vec<u8>], cli: usize, tables: &[&str]) {
    let mut against = AgainstCli::new(cli, String::new());
    for cells in boards {
        let board = text(s, cells, 'w', 'b');
        let v = answer(conn, &format!("/api/v1/flip?board={board}"));
        check_flip(s, cells, &v);
        against.keep(&board, &v);
    }
    against.check("flip", s, tables);
}

fn random_boards(rng: &mut Rng, s: Shape, n: usize) -> Vec<Vec<u8>> {
    let mut boards: Vec<Vec<u8>> = (0..n).map(|_| rng.cells(s)).collect();
    boards.push(vec![0; s.cells()]);
    boards.push(vec![1; s.cells()]);
    // A few presses from white: solvable, with short answers.
    for k in 1..4 {
        let mut b = vec![0; s.cells()];
        for _ in 0..k {
            let i = rng.next() as usize % s.cells();
            b = after_press(s, &b, i / s.cols(), i % s.cols());
        }
        boards.push(b);
    }
    boards
}

#[test]
fn flip_4x5_and_5x5_from_generated_tables() {
    let server = with_tables();
    let mut conn = server.connect();
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let main = path(&dirs().main);
    for (s, n) in [(shape(4, 5), 600), (shape(5, 5), 400)] {
        flip_boards(&mut conn, s, &random_boards(&mut rng, s, n), 60, &[main]);
    }
}

#[test]
fn flip_of_any_size_by_gf2() {
    let server = Server::start(&[]);
    let mut conn = server.connect();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    // Nullities 2 and 2, 0, 8, 0, 4 (5x5, 4x5, 6x7, 9x9, 12x12, 11x14).
    for (s, n, cli) in [
        (shape(5, 5), 300, 40),
        (shape(4, 5), 300, 40),
        (shape(6, 7), 40, 10),
        (shape(9, 9), 12, 4),
        (shape(12, 12), 4, 2),
        (shape(11, 14), 3, 1),
    ] {
        flip_boards(&mut conn, s, &random_boards(&mut rng, s, n), cli, &[]);
    }
}

#[test]
fn flip_of_large_nullity_and_large_boards() {
    let server = Server::start(&[]);
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    // 19×19 has nullity 16: answered on the blocking workers by the
    // Walsh–Hadamard transforms. The oracle (2^19 first rows a board)
    // checks the board and a few of its presses.
    let s = shape(19, 19);
    let mut b = vec![0u8; s.cells()];
    for _ in 0..40 {
        let i = rng.next() as usize % s.cells();
        b = after_press(s, &b, i / s.cols(), i % s.cols());
    }
    for cells in [b, rng.cells(s)] {
        // A connection a request: the oracle's work between two requests
        // (seconds in a debug build on a loaded machine) may outlast the
        // server's wait for the next request on a kept-alive connection,
        // after which it closes the connection, as it should.
        let mut conn = server.connect();
        let v = answer(
            &mut conn,
            &format!("/api/v1/flip?board={}", text(s, &cells, 'w', 'b')),
        );
        assert_eq!(v["rounds"], json!(fewest(&flip_truth(s, &cells))));
        let moves = v["moves"].as_array().unwrap();
        assert_eq!(moves.len(), 361);
        let cells_listed: BTreeSet<(u64, u64)> = moves
            .iter()
            .map(|m| {
                (
                    m["cell"][0].as_u64().unwrap(),
                    m["cell"][1].as_u64().unwrap(),
                )
            })
            .collect();
        assert_eq!(cells_listed.len(), 361);
        let key = |m: &Value| {
            (
                m["rounds"].as_u64().unwrap_or(u64::MAX),
                m["cell"][0].as_u64().unwrap() * 19 + m["cell"][1].as_u64().unwrap(),
            )
        };
        assert!(
            moves.windows(2).all(|w| key(&w[0]) < key(&w[1])),
            "best first"
        );
        for m in moves.iter().step_by(90).chain(moves.last()) {
            let (r, c) = (
                m["cell"][0].as_u64().unwrap() as usize,
                m["cell"][1].as_u64().unwrap() as usize,
            );
            let after = after_press(s, &cells, r, c);
            assert_eq!(
                m["rounds"],
                json!(fewest(&flip_truth(s, &after))),
                "press ({r}, {c})"
            );
            assert!(m.get("board").is_none());
        }
    }
    // 64×63 (nullity 0): the largest boards answer, every press listed.
    let s = shape(64, 63);
    let r = server.connect().get(&format!(
        "/api/v1/flip?board={}",
        text(s, &rng.cells(s), 'w', 'b')
    ));
    assert_eq!(r.status, 200);
    let v = r.json();
    assert_eq!(v["moves"].as_array().unwrap().len(), 64 * 63);
    assert_eq!(v["solvable"], true);
}

// ---------------------------------------------------------------- Euler --

/// Checks an Euler lookup of position `p` against the oracle: the answer
/// and every legal move, best first (winning moves first, the fastest win
/// first; then losing ones, the longest resistance first; ties in the
/// solver's move order). `wdl`: from a win/loss-only table.
fn check_euler(o: &Euler, p: u64, v: &Value, wdl: bool) {
    let s = o.shape;
    let cells_of = |mask: u64| -> Value {
        json!(
            (0..s.cells())
                .filter(|i| mask >> i & 1 == 1)
                .map(|i| [i / s.cols(), i % s.cols()])
                .collect::<Vec<_>>()
        )
    };
    let board = |bits: u64| euler_text(s, bits);
    let i = p as usize;
    assert_eq!(v["board"], board(p));
    assert_eq!(v["answer"], if o.wins[i] { "WINNING" } else { "LOSING" });
    assert_eq!(v["outcome"], if o.wins[i] { "win" } else { "loss" });
    let legal: Vec<u64> = o.order.iter().copied().filter(|m| m & p == 0).collect();
    let own: BTreeSet<u64> = euler::moves(s.rows(), s.cols())
        .into_iter()
        .filter(|m| m & p == 0)
        .collect();
    assert_eq!(legal.iter().copied().collect::<BTreeSet<_>>(), own);
    assert_eq!(v["legal_moves"], legal.len());
    let winning = legal.iter().filter(|&&m| !o.wins[(p | m) as usize]).count();
    assert_eq!(v["winning_moves"], winning);
    if wdl {
        assert!(v["moves_left"].is_null());
        assert_eq!(v["wdl_only"], true);
    } else {
        assert_eq!(v["moves_left"], o.plies[i]);
        assert!(v.get("wdl_only").is_none());
    }
    // The expected list: a stable sort of the solver's order.
    let mut expected = legal.clone();
    expected.sort_by_key(|&m| {
        let child = (p | m) as usize;
        let plies = if wdl { 0 } else { i32::from(o.plies[child]) };
        if o.wins[child] {
            (1, -plies)
        } else {
            (0, plies)
        }
    });
    let moves = v["moves"].as_array().unwrap();
    let masks: Vec<u64> = moves.iter().map(|m| m["mask"].as_u64().unwrap()).collect();
    assert_eq!(masks, expected, "{}: moves best first", board(p));
    for m in moves {
        let mask = m["mask"].as_u64().unwrap();
        let child = (p | mask) as usize;
        assert_eq!(m["cells"], cells_of(mask));
        assert_eq!(m["board"], board(p | mask));
        assert_eq!(m["outcome"], if o.wins[child] { "win" } else { "loss" });
        if wdl {
            assert!(m["moves_left"].is_null());
        } else {
            assert_eq!(m["moves_left"], o.plies[child]);
        }
    }
    if p == s.full() {
        assert!(v["best_move"].is_null());
    } else {
        // The best move heads the list.
        assert_eq!(v["best_move"]["mask"], masks[0]);
        assert_eq!(v["best_move"]["cells"], cells_of(masks[0]));
        if !wdl {
            assert_eq!(masks[0], o.order[usize::from(o.best[i])]);
        }
    }
}

fn euler_oracle(s: Shape) -> &'static Euler {
    static ORACLES: OnceLock<Vec<Euler>> = OnceLock::new();
    let all = ORACLES.get_or_init(|| {
        [shape(3, 4), shape(4, 5), shape(3, 5)]
            .into_iter()
            .map(Euler::solve)
            .collect()
    });
    all.iter()
        .find(|o| o.shape == s)
        .expect("an oracle of the shape")
}

/// Asks for `positions` of `s` and checks each; the first `cli` are also
/// compared with `boardbase euler --size` under the same `tables`.
fn euler_positions(
    conn: &mut Conn,
    s: Shape,
    positions: &[u64],
    wdl: bool,
    cli: usize,
    tables: &[&str],
) {
    let o = euler_oracle(s);
    let mut against = AgainstCli::new(cli, format!("{}\n", cli.min(positions.len())));
    for &p in positions {
        let board = euler_text(s, p);
        let v = answer(conn, &format!("/api/v1/euler?board={board}"));
        check_euler(o, p, &v, wdl);
        against.keep(&board, &v);
    }
    against.check("euler", s, tables);
}

fn sample(rng: &mut Rng, s: Shape, n: usize) -> Vec<u64> {
    let mut p: Vec<u64> = (0..n).map(|_| rng.next() & rng.next() & s.full()).collect();
    p.extend([0, s.full(), s.full() ^ 1]);
    p
}

/// Every 3×4 position and 1,500 sampled 4×5 ones, full tables, checked by
/// [`euler_positions`] (100 of each also against the CLI under `tables`).
fn euler_3x4_and_4x5(conn: &mut Conn, rng: &mut Rng, tables: &[&str]) {
    let every: Vec<u64> = (0..1 << 12).collect();
    euler_positions(conn, shape(3, 4), &every, false, 100, tables);
    let s = shape(4, 5);
    euler_positions(conn, s, &sample(rng, s, 1500), false, 100, tables);
}

#[test]
fn euler_3x4_and_4x5_made_in_memory() {
    let mut server = Server::start(&[]);
    assert_eq!(
        server.stdout_line(),
        "tables: none (no --tables DIR, no BOARDBASE_TABLES)\n"
    );
    let mut conn = server.connect();
    euler_3x4_and_4x5(&mut conn, &mut Rng(0x0123_4567_89AB_CDEF), &[]);
    let sizes = conn.get("/api/v1/sizes").json();
    let entry = |size: &str| euler_entry(&sizes, size);
    let four_five = entry("4x5").unwrap();
    assert!(four_five["make_bytes"].as_u64().unwrap() > 3 << 20);
    assert_eq!(
        four_five,
        json!({"size": "4x5", "rows": 4, "cols": 5, "source": "made on demand", "wdl_only": false, "in_memory": true, "make_bytes": four_five["make_bytes"]})
    );
    assert_eq!(entry("5x5").unwrap()["in_memory"], false);
    assert!(entry("5x6").is_none(), "30 squares are not made in memory");
    let held = sizes["euler_made"]["memory_held_bytes"].as_u64().unwrap();
    // 3x4 and 4x5: a bit and two bytes a position.
    assert_eq!(held, 8 * 64 + 2 * 4096 + 8 * (1 << 14) + 2 * (1 << 20));
}

#[test]
fn euler_from_table_files_full_and_win_loss_only() {
    let mut server = with_tables();
    let d = dirs();
    let mut lines = Vec::new();
    for _ in 0..10 {
        lines.push(server.stdout_line());
    }
    let text = lines.concat();
    assert!(
        text.starts_with(&format!(
            "tables: looked in {}, {}, {}\n",
            path(&d.main),
            path(&d.broken),
            path(&d.env)
        )),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "  {}: euler 3x5 (win/loss only)\n",
            d.env.join("euler-3x5.bin").display()
        )),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "  {}: flip 5x5\n",
            d.main.join("flip-5x5.bin").display()
        )),
        "{text}"
    );
    let mut conn = server.connect();
    euler_3x4_and_4x5(&mut conn, &mut Rng(0xFEDC_BA98_7654_3210), &[path(&d.main)]);
    let every: Vec<u64> = (0..1 << 15).step_by(3).collect();
    euler_positions(&mut conn, shape(3, 5), &every, true, 100, &[path(&d.env)]);
    // The empty 3×5 board from the win/loss-only table: won, and the
    // winning moves first.
    let v = conn.get("/api/v1/euler?board=...../...../.....").json();
    assert_eq!(
        (
            v["outcome"].clone(),
            v["moves_left"].clone(),
            v["wdl_only"].clone()
        ),
        (json!("win"), Value::Null, json!(true))
    );
    let first_loss = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .position(|m| m["outcome"] == "win")
        .unwrap();
    assert_eq!(first_loss, v["winning_moves"].as_u64().unwrap() as usize);
}

// ----------------------------------------------------------------- 422s --

#[test]
fn sizes_past_what_the_server_answers_are_422_naming_why() {
    let server = with_tables();
    let d = dirs();
    let mut conn = server.connect();
    let blank = |r: usize, c: usize, ch: char| vec![ch.to_string().repeat(c); r].join("/");
    let refused = |conn: &mut Conn, puzzle: &str, board: String| {
        let r = conn.get(&format!("/api/v1/{puzzle}?board={board}"));
        assert_eq!(r.status, 422, "{}", r.text());
        r.json()
    };
    // Flip past nullity 24.
    let v = refused(&mut conn, "flip", blank(27, 35, 'w'));
    assert_eq!(
        (
            v["nullity"].clone(),
            v["max_nullity"].clone(),
            v["size"].clone()
        ),
        (json!(27), json!(24), json!("27x35"))
    );
    assert!(error(&v).starts_with("a 27x35 board has nullity 27"), "{v}");
    // Past 64 columns.
    let v = refused(&mut conn, "flip", blank(2, 65, 'w'));
    assert_eq!(
        v["error"],
        "board: 2 rows of 65 cells: boards have 1 to 64 rows and columns"
    );
    // A damaged table file: its shape is not answered, the file is named.
    let v = refused(&mut conn, "flip", blank(3, 3, 'w'));
    let file = d.broken.join("flip-3x3.bin");
    assert_eq!(v["file"], file.display().to_string());
    assert!(error(&v).starts_with(&file.display().to_string()), "{v}");
    let v = refused(&mut conn, "euler", blank(2, 3, '.'));
    assert_eq!(
        v["file"],
        d.broken.join("euler-2x3.bin").display().to_string()
    );
    // Euler: no file and too large to make: the command that makes it.
    let v = refused(&mut conn, "euler", blank(6, 5, '.'));
    let command = format!("boardbase generate euler 6x5 --dir {}", path(&d.main));
    assert_eq!(v["command"], command);
    assert_eq!(
        v["error"],
        format!(
            "no euler 6x5 table: no euler-6x5.bin in {}, {}, {}, and 30 squares are too many to make it in memory (at most 25); make it with: {command}",
            path(&d.main),
            path(&d.broken),
            path(&d.env)
        )
    );
    // Past any table.
    let v = refused(&mut conn, "euler", blank(7, 6, '.'));
    assert_eq!(
        (v["error"].clone(), v["max_cells"].clone()),
        (
            json!("euler tables take at most 36 cells; 7x6 has 42"),
            json!(36)
        )
    );

    // A server whose budget is too small for 5×5 (over 80 MiB to make) makes
    // 3×3 still; with no budget, nothing.
    let small = Server::start(&["--make-memory", "8"]);
    let mut conn = small.connect();
    let v = refused(&mut conn, "euler", blank(5, 5, '.'));
    assert!(error(&v).contains("making it in memory needs 8"), "{v}");
    assert!(error(&v).ends_with(
        "over the budget of 8.00 MiB (--make-memory); make it with: boardbase generate euler 5x5 --dir my-tables, then restart the server with --tables my-tables"
    ), "{v}");
    answer(
        &mut conn,
        &format!("/api/v1/euler?board={}", blank(3, 3, '.')),
    );
    let none = Server::start(&["--make-memory", "0"]);
    let v = refused(&mut none.connect(), "euler", blank(3, 3, '.'));
    assert!(
        error(&v).contains("no tables are made in memory here (--make-memory 0)"),
        "{v}"
    );
}

#[test]
fn sizes_lists_what_the_server_answers() {
    let server = with_tables();
    let d = dirs();
    let v = server.get("/api/v1/sizes").json();
    let file = |dir: &Path, name: &str| dir.join(name).display().to_string();
    assert_eq!(
        v["flip"][0],
        json!({"size": "4x4", "rows": 4, "cols": 4, "source": "embedded"})
    );
    assert_eq!(v["flip"][1]["size"], "3x3");
    assert_eq!(v["flip"][1]["file"], file(&d.broken, "flip-3x3.bin"));
    assert!(v["flip"][1]["error"].is_string());
    assert_eq!(
        v["flip"][2],
        json!({"size": "4x5", "rows": 4, "cols": 5, "source": "file", "file": file(&d.main, "flip-4x5.bin")})
    );
    assert_eq!(v["flip"][3]["size"], "5x5");
    assert_eq!(v["flip"].as_array().unwrap().len(), 4);
    assert_eq!(v["flip_gf2"]["max_rows"], 64);
    assert_eq!(v["flip_gf2"]["max_nullity"], 24);
    assert_eq!(v["flip_gf2"]["beyond"].as_array().unwrap().len(), 14);
    assert_eq!(v["flip_gf2"]["beyond"][0], "27x35");
    let euler = v["euler"].as_array().unwrap();
    let find = |size: &str| euler_entry(&v, size).unwrap_or(Value::Null);
    assert_eq!(find("4x4")["source"], "embedded");
    assert_eq!(
        find("3x5"),
        json!({"size": "3x5", "rows": 3, "cols": 5, "source": "file", "file": file(&d.env, "euler-3x5.bin"), "wdl_only": true})
    );
    assert_eq!(find("4x5")["wdl_only"], false);
    assert!(find("2x3")["error"].is_string());
    let five = find("5x5");
    // About 82 MiB on two cores, a little more with more.
    let make = five["make_bytes"].as_u64().unwrap();
    assert!((80 << 20..120 << 20).contains(&make), "{make}");
    assert_eq!(
        five,
        json!({"size": "5x5", "rows": 5, "cols": 5, "source": "made on demand", "wdl_only": false, "in_memory": false, "make_bytes": make})
    );
    // Every shape of at most 25 squares but 4×4 and the 4 files is made
    // on demand: 87 shapes in all.
    let made = euler
        .iter()
        .filter(|e| e["source"] == "made on demand")
        .count();
    assert_eq!(made, 87 - 5);
    assert_eq!(v["euler_made"]["max_cells"], 25);
    assert_eq!(v["euler_made"]["memory_budget_bytes"], 512u64 << 20);
}

#[test]
fn a_table_made_in_memory_is_made_once_and_lookups_go_on_meanwhile() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    let mut server = Server::start(&[]);
    let first_answer = AtomicUsize::new(usize::MAX);
    let done = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        // Eight clients ask for 5×5 positions at once: one table is made
        // (about half a second), all of them get its answers.
        for t in 0..8u64 {
            let (server, first_answer, done) = (&server, &first_answer, &done);
            scope.spawn(move || {
                let board = if t == 0 {
                    "...../...../...../...../.....".to_owned()
                } else {
                    let c: Vec<u8> = (0..25).map(|i| u8::from((i * 7 + t) % 5 == 0)).collect();
                    text(shape(5, 5), &c, '.', 'X')
                };
                let r = server.get(&format!("/api/v1/euler?board={board}"));
                first_answer.fetch_min(done.load(Ordering::SeqCst), Ordering::SeqCst);
                assert_eq!(r.status, 200, "{}", r.text());
                let v = r.json();
                if t == 0 {
                    // The empty 5×5 board: won, in 18 moves.
                    assert_eq!(
                        (v["outcome"].clone(), v["moves_left"].clone()),
                        (json!("win"), json!(18))
                    );
                    assert_eq!(v["legal_moves"], 25 + 4 * 5 * 2);
                }
            });
        }
        // Meanwhile 4×4 lookups go on.
        std::thread::sleep(Duration::from_millis(20));
        let mut conn = server.connect();
        for bits in (0..=u16::MAX).step_by(97) {
            let board: Vec<u8> = (0..16).map(|i| (bits >> i & 1) as u8).collect();
            let r = conn.get(&format!(
                "/api/v1/flip?board={}",
                text(shape(4, 4), &board, 'w', 'b')
            ));
            assert_eq!(r.status, 200);
            done.fetch_add(1, Ordering::SeqCst);
        }
    });
    let before = first_answer.load(Ordering::SeqCst);
    assert!(
        before >= 10,
        "only {before} lookups answered while the 5x5 table was made"
    );
    server.signal("TERM");
    let (status, stderr) = server.wait(Duration::from_secs(30));
    assert!(status.success());
    assert_eq!(
        stderr.matches("made the euler 5x5 table in memory").count(),
        1,
        "{stderr}"
    );
}

#[test]
fn tables_made_in_memory_stay_within_the_budget() {
    // Room for one table of 2^20 positions (2.1 MiB held) and the making
    // of another: the second evicts the first.
    let probe = Server::start(&[]);
    let sizes = probe.get("/api/v1/sizes").json();
    let needed = |size: &str| {
        euler_entry(&sizes, size)
            .and_then(|e| e["make_bytes"].as_u64())
            .unwrap()
    };
    let (first, second) = if needed("4x5") <= needed("2x10") {
        ("4x5", "2x10")
    } else {
        ("2x10", "4x5")
    };
    let budget_mib = needed(second).div_ceil(1 << 20) + 1;
    let mut server = Server::start(&["--make-memory", &budget_mib.to_string()]);
    let mut conn = server.connect();
    let empty = |size: &str| {
        let s = Shape::parse(size).unwrap();
        vec![".".repeat(s.cols()); s.rows()].join("/")
    };
    let in_memory = |conn: &mut Conn| -> Vec<String> {
        let v = conn.get("/api/v1/sizes").json();
        v["euler"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["in_memory"] == true)
            .map(|e| e["size"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(
        conn.get(&format!("/api/v1/euler?board={}", empty(first)))
            .status,
        200
    );
    assert_eq!(in_memory(&mut conn), [first]);
    assert_eq!(
        conn.get(&format!("/api/v1/euler?board={}", empty(second)))
            .status,
        200
    );
    assert_eq!(in_memory(&mut conn), [second]);
    let held = conn.get("/api/v1/sizes").json()["euler_made"]["memory_held_bytes"]
        .as_u64()
        .unwrap();
    assert_eq!(held, (1 << 17) + 2 * (1 << 20));
    // Asked again, the first is made again.
    assert_eq!(
        conn.get(&format!("/api/v1/euler?board={}", empty(first)))
            .status,
        200
    );
    server.signal("TERM");
    let (_, stderr) = server.wait(std::time::Duration::from_secs(30));
    assert_eq!(
        stderr
            .matches(&format!("made the euler {first} table"))
            .count(),
        2,
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!(
            "dropped the euler {first} table made in memory (least recently used"
        )),
        "{stderr}"
    );
}
