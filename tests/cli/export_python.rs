//! Table files from another language: `boardbase export` (and tables of
//! other shapes written by the library) are read by `tests/read_table.py`
//! (Python 3, standard library only, shown in docs/table-format.md), which maps a
//! version-3 file (or a version-2 or 5 one) and checks its CRCs (every block's);
//! every entry must equal the Rust API's answer, or the test-local oracle's
//! on other shapes.

use crate::common;
use crate::oracle;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use boardbase::euler::{self, Move, Position};
use boardbase::flip::{self, Board, Colour};
use boardbase::tablefile::v1::TableFile;
use boardbase::tablefile::{Puzzle, Table};
use boardbase::tables::shape::Shape;

const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/read_table.py");

/// The Rust API's value of `column` for the board or position `bits`.
fn expected(puzzle: &str, column: &str, bits: u16) -> u64 {
    let board = Board::from_bits(bits);
    let entry = euler::probe(Position::from_bits(bits));
    let route = |colour| flip::route(board, colour);
    match (puzzle, column) {
        ("flip", "rounds") => flip::rounds(board).map_or(255, u64::from),
        ("flip", "rounds_white") => route(Colour::White).map_or(255, |r| u64::from(r.rounds)),
        ("flip", "rounds_black") => route(Colour::Black).map_or(255, |r| u64::from(r.rounds)),
        ("flip", "presses_white") => {
            route(Colour::White).map_or(0, |r| u64::from(r.presses.bits()))
        }
        ("flip", "presses_black") => {
            route(Colour::Black).map_or(0, |r| u64::from(r.presses.bits()))
        }
        ("flip", "optimal_sets_white") => {
            route(Colour::White).map_or(0, |r| u64::from(r.optimal_sets))
        }
        ("flip", "optimal_sets_black") => {
            route(Colour::Black).map_or(0, |r| u64::from(r.optimal_sets))
        }
        // Version 1's Flip columns.
        ("flip", "presses") => flip::solve(board).map_or(0, |s| u64::from(s.presses.bits())),
        ("flip", "optimal_sets") => flip::solve(board).map_or(0, |s| u64::from(s.optimal_sets)),
        ("euler", "winning") => u64::from(entry.outcome.is_win()),
        ("euler", "plies") => u64::from(entry.moves_left),
        ("euler", "best_move") => entry.best_move.map_or(255, |m| {
            Move::ALL.iter().position(|&x| x == m).expect("a move") as u64
        }),
        ("euler", "moves") => u64::from(Move::ALL[usize::from(bits)].bits()),
        _ => panic!("unexpected column {puzzle} {column}"),
    }
}

/// Runs `read_table.py` on `files`.
fn python(files: &[PathBuf]) -> Output {
    match Command::new("python3").arg(SCRIPT).args(files).output() {
        Ok(output) => output,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => panic!(
            "this test needs `python3` on PATH (Python 3, standard library only) \
             to read the exported table files: install it (e.g. apt-get install python3)"
        ),
        Err(e) => panic!("cannot run python3: {e}"),
    }
}

/// The script's output on `files`: per line, puzzle, column and entries.
fn read(files: &[PathBuf]) -> Vec<(String, String, Vec<u64>)> {
    let output = python(files);
    assert!(
        output.status.success(),
        "read_table.py failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout)
        .expect("UTF-8 output")
        .lines()
        .map(|line| {
            let mut fields = line.split(' ');
            let puzzle = fields.next().expect("a puzzle").to_owned();
            let column = fields.next().expect("a column").to_owned();
            let values = fields.map(|v| v.parse().expect("a number")).collect();
            (puzzle, column, values)
        })
        .collect()
}

/// A fresh directory under the target directory.
fn temp_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("{}-python-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

#[test]
fn python_maps_every_entry_of_an_export() {
    let dir = temp_dir("export");
    let dir_str = dir.to_str().expect("UTF-8 path");
    common::ok(&["export", "--dir", dir_str], "");
    let lines = read(&[dir.join("flip-4x4.bin"), dir.join("euler-4x4.bin")]);
    let _ = std::fs::remove_dir_all(&dir);
    let mut seen = Vec::new();
    for (puzzle, column, values) in lines {
        let count = if column == "moves" { 48 } else { 65_536 };
        assert_eq!(values.len(), count, "{puzzle} {column}");
        for (bits, &value) in (0..=u16::MAX).zip(&values) {
            assert_eq!(
                value,
                expected(&puzzle, &column, bits),
                "{puzzle} {column} entry {bits:#06x}"
            );
        }
        seen.push(format!("{puzzle} {column}"));
    }
    assert_eq!(
        seen,
        [
            "flip rounds",
            "flip rounds_white",
            "flip rounds_black",
            "flip presses_white",
            "flip presses_black",
            "flip optimal_sets_white",
            "flip optimal_sets_black",
            "euler winning",
            "euler plies",
            "euler best_move",
            "euler moves",
        ]
    );
}

#[test]
fn python_reads_other_shapes() {
    let dir = temp_dir("shapes");
    let flip_shape = Shape::new(3, 5).unwrap();
    let euler_shape = Shape::new(2, 5).unwrap();
    let flip_oracle = oracle::tables::Flip::solve(flip_shape);
    let euler_oracle = oracle::tables::Euler::solve(euler_shape);
    let tables = [
        Table::from_flip(flip_shape, flip_oracle.columns()).unwrap(),
        Table::from_euler(euler_shape, euler_oracle.columns(false)).unwrap(),
    ];
    let paths: Vec<PathBuf> = tables
        .iter()
        .map(|t| {
            let path = dir.join(t.file_name());
            t.write(&path, &mut |_| {}).unwrap();
            path
        })
        .collect();
    let lines = read(&paths);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(lines.len(), 7 + 4);
    for (puzzle, column, values) in lines {
        let expected: Vec<u64> = match (puzzle.as_str(), column.as_str()) {
            ("flip", "rounds") => (0..1 << 15)
                .map(|b| u64::from(flip_oracle.rounds[0][b].min(flip_oracle.rounds[1][b])))
                .collect(),
            ("flip", c) => {
                let colour = usize::from(c.ends_with("black"));
                if c.starts_with("rounds") {
                    flip_oracle.rounds[colour]
                        .iter()
                        .map(|&v| u64::from(v))
                        .collect()
                } else if c.starts_with("presses") {
                    flip_oracle.presses[colour].clone()
                } else {
                    flip_oracle.sets[colour]
                        .iter()
                        .map(|&v| u64::from(v))
                        .collect()
                }
            }
            ("euler", "winning") => euler_oracle.wins.iter().map(|&w| u64::from(w)).collect(),
            ("euler", "plies") => euler_oracle.plies.iter().map(|&v| u64::from(v)).collect(),
            ("euler", "best_move") => euler_oracle.best.iter().map(|&v| u64::from(v)).collect(),
            ("euler", "moves") => euler_oracle.order.clone(),
            _ => panic!("unexpected column {puzzle} {column}"),
        };
        assert_eq!(values, expected, "{puzzle} {column}");
    }
}

#[test]
fn python_reads_version_1() {
    let dir = temp_dir("v1");
    let path = dir.join("euler-4x4.bin");
    std::fs::write(&path, TableFile::euler().to_bytes()).unwrap();
    let lines = read(std::slice::from_ref(&path));
    let _ = std::fs::remove_dir_all(&dir);
    let columns: Vec<&str> = lines.iter().map(|l| l.1.as_str()).collect();
    assert_eq!(columns, ["winning", "plies", "best_move"]);
    for (bits, &value) in (0..=u16::MAX).zip(&lines[1].2) {
        assert_eq!(value, expected("euler", "plies", bits));
    }
    // Version 1 stores the best move as its mask.
    for (bits, &value) in (0..=u16::MAX).zip(&lines[2].2) {
        let best = euler::probe(Position::from_bits(bits)).best_move;
        assert_eq!(value, best.map_or(0, |m| u64::from(m.bits())));
    }
}

#[test]
fn python_reads_version_2() {
    let dir = temp_dir("v2");
    let path = dir.join("euler-4x4.bin");
    let table = Table::embedded(Puzzle::Euler);
    std::fs::write(&path, table.to_bytes_version(2).unwrap()).unwrap();
    let v2 = read(std::slice::from_ref(&path));
    std::fs::write(&path, table.to_bytes().unwrap()).unwrap();
    let v3 = read(std::slice::from_ref(&path));
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(v2.len(), 4);
    assert_eq!(v2, v3);
}

/// Version 5 (one entry a class of symmetric positions), written from the
/// oracle's bits: the columns as stored, and every board's entry found
/// through the index as the oracle says.
#[test]
fn python_reads_version_5() {
    use boardbase::tablefile::EulerColumns;
    use boardbase::tables::classes::Classes;

    let dir = temp_dir("v5");
    for (rows, cols) in [(3, 4), (2, 5), (3, 3)] {
        let shape = Shape::new(rows, cols).unwrap();
        let oracle = oracle::tables::Euler::solve(shape);
        let classes = Classes::of_shape(shape);
        let entries: Vec<u64> = (0..classes.entries())
            .map(|i| u64::from(oracle.wins[classes.position(i).unwrap() as usize]))
            .collect();
        let mut winning = vec![0u64; entries.len().div_ceil(64)];
        for (i, &w) in entries.iter().enumerate() {
            winning[i / 64] |= w << (i % 64);
        }
        let canonical: Vec<u64> = (0..classes.classes())
            .map(|k| classes.canonical(k))
            .collect();
        let table = Table::from_euler(
            shape,
            EulerColumns {
                winning,
                full: None,
                classes: Some(classes),
            },
        )
        .unwrap();
        let path = dir.join(table.file_name());
        table.write(&path, &mut |_| {}).unwrap();
        let lines = read(std::slice::from_ref(&path));
        let by_board: Vec<u64> = oracle.wins.iter().map(|&w| u64::from(w)).collect();
        let expected = [
            ("winning", entries),
            ("moves", oracle.order.clone()),
            ("classes", canonical),
            ("winning_by_board", by_board),
        ];
        assert_eq!(lines.len(), expected.len(), "{shape}");
        for ((puzzle, column, values), (name, want)) in lines.into_iter().zip(expected) {
            assert_eq!((puzzle.as_str(), column.as_str()), ("euler", name));
            assert_eq!(values, want, "{shape} {column}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn python_reads_flip_by_class() {
    use boardbase::tablefile::{ColumnData, FlipColumns};
    use boardbase::tables::classes::Classes;

    let dir = temp_dir("flip-v5");
    // Shapes of 9 to 16 cells: press sets of 16 bits.
    for (rows, cols) in [(3, 4), (4, 4), (2, 5)] {
        let shape = Shape::new(rows, cols).unwrap();
        let oracle = oracle::tables::Flip::solve(shape);
        let classes = Classes::of_shape(shape);
        // Each column's entries in the index's order: entry i holds what
        // the board the index keeps there takes.
        let held: Vec<usize> = (0..classes.entries())
            .map(|i| classes.position(i).unwrap() as usize)
            .collect();
        let by_entry = |v: &[u8]| -> Vec<u8> { held.iter().map(|&b| v[b]).collect() };
        let presses = |colour: usize| -> Vec<u16> {
            held.iter()
                .map(|&b| oracle.presses[colour][b] as u16)
                .collect()
        };
        let fewest: Vec<u8> = oracle
            .fewest()
            .into_iter()
            .map(|r| r.unwrap_or(255))
            .collect();
        let columns = FlipColumns {
            rounds: by_entry(&fewest),
            rounds_white: by_entry(&oracle.rounds[0]),
            rounds_black: by_entry(&oracle.rounds[1]),
            presses_white: ColumnData::U16(presses(0)),
            presses_black: ColumnData::U16(presses(1)),
            optimal_sets_white: by_entry(&oracle.sets[0]),
            optimal_sets_black: by_entry(&oracle.sets[1]),
            classes: Some(classes.clone()),
        };
        let rounds: Vec<u64> = columns.rounds.iter().map(|&r| u64::from(r)).collect();
        let table = Table::from_flip(shape, columns).unwrap();
        let path = dir.join(table.file_name());
        table.write(&path, &mut |_| {}).unwrap();
        let lines = read(std::slice::from_ref(&path));
        let names: Vec<&str> = lines.iter().map(|(_, c, _)| c.as_str()).collect();
        assert_eq!(
            names,
            [
                "rounds",
                "rounds_white",
                "rounds_black",
                "presses_white",
                "presses_black",
                "optimal_sets_white",
                "optimal_sets_black",
                "classes",
                "rounds_by_board"
            ]
        );
        assert_eq!(lines[0].2, rounds, "{shape}");
        let by_board: Vec<u64> = fewest.iter().map(|&r| u64::from(r)).collect();
        assert_eq!(lines[8].2, by_board, "{shape}: every board's rounds");
        assert!(lines.iter().all(|(puzzle, _, _)| puzzle == "flip"));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn python_refuses_damaged_and_truncated_files() {
    let bytes = Table::embedded(Puzzle::Euler).to_bytes().unwrap();
    let len = bytes.len();
    let winning = Table::from_bytes(bytes.clone())
        .unwrap()
        .column("winning")
        .and_then(|c| c.blocks)
        .unwrap();
    let v2 = Table::embedded(Puzzle::Euler).to_bytes_version(2).unwrap();
    let cases: [(&str, Vec<u8>, &str); 6] = [
        (
            "block",
            {
                let mut b = bytes.clone();
                b[5_000] ^= 1;
                b
            },
            "column winning, block 1: CRC mismatch (the block is damaged)",
        ),
        (
            "block-crcs",
            {
                let mut b = bytes.clone();
                b[winning.crcs_offset as usize + 1] ^= 1;
                b
            },
            "column winning: block-CRC array CRC mismatch",
        ),
        (
            "v2-column",
            {
                let mut b = v2.clone();
                b[5_000] ^= 1;
                b
            },
            "column winning: CRC mismatch",
        ),
        (
            "header",
            {
                let mut b = bytes.clone();
                b[40] ^= 1;
                b
            },
            "header CRC mismatch",
        ),
        ("truncated", bytes[..len - 10].to_vec(), "the header says"),
        ("tiny", bytes[..5].to_vec(), "truncated (5 bytes)"),
    ];
    for (name, damaged, message) in cases {
        let file = common::TempFile::new(&format!("python-{name}.bin"), damaged);
        let output = python(&[PathBuf::from(file.path())]);
        assert!(!output.status.success(), "{name}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(message), "{name}: {stderr}");
    }
}

#[test]
fn the_docs_show_the_tested_script() {
    let readme = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/table-format.md"),
    )
    .expect("docs/table-format.md");
    let script = std::fs::read_to_string(SCRIPT).expect("tests/read_table.py");
    assert!(
        readme.contains(&format!("```python\n{script}```\n")),
        "docs/table-format.md must show tests/read_table.py verbatim in a ```python block"
    );
}

#[test]
fn the_docs_python_usage_prints_what_it_says() {
    let readme = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/table-format.md"),
    )
    .expect("docs/table-format.md");
    let usage = readme
        .split("```python\n")
        .nth(2)
        .and_then(|rest| rest.split("```").next())
        .expect("a second ```python block: the usage example");
    let dir = temp_dir("usage");
    // The example reads tables-out/*.bin from the current directory.
    let out = dir.join("tables-out");
    common::ok(&["export", "--dir", out.to_str().expect("UTF-8 path")], "");
    let output = Command::new("python3")
        .arg("-c")
        .arg(usage)
        .current_dir(&dir)
        .env(
            "PYTHONPATH",
            concat!(env!("CARGO_MANIFEST_DIR"), "/../tests"),
        )
        .output();
    let _ = std::fs::remove_dir_all(&dir);
    let output = output.expect("python3 runs (see python_maps_every_entry_of_an_export)");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // The comment on each print line gives its output.
    let promised: Vec<&str> = usage
        .lines()
        .filter_map(|l| {
            l.strip_prefix("print(")
                .and_then(|l| l.split("  # ").nth(1))
        })
        .collect();
    assert!(!promised.is_empty(), "the print lines say what they print");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(stdout.lines().collect::<Vec<_>>(), promised);
}

#[test]
fn python_reads_a_game_table_of_version_6() {
    use boardbase::catalogue;
    use boardbase::tablefile::GameTable;
    use boardbase::tables::game::retrograde::encode;

    // Tic-tac-toe and connect three on 3×4, as `generate` writes them.
    let dir = temp_dir("v6");
    let dir_str = dir.to_str().expect("UTF-8 path");
    for args in [
        &["generate", "mnk", "3x3", "--dir", dir_str][..],
        &["generate", "connect4", "3x4", "--k", "3", "--dir", dir_str],
    ] {
        let r = common::run(args, "");
        assert_eq!(r.code, 0, "{}", r.stderr);
    }
    for (name, game, options) in [
        ("mnk-3x3-k3.bin", "mnk", [("k", 3)]),
        ("connect4-3x4-k3.bin", "connect4", [("k", 3)]),
    ] {
        let path = dir.join(name);
        let table = GameTable::open_game(&path).unwrap();
        assert_eq!(table.version(), 6);
        let model = catalogue::model(game).unwrap();
        let setup = model.setup(Some(table.shape()), &options).unwrap();
        let made = model.make(&setup).unwrap();
        let lines = read(std::slice::from_ref(&path));
        let columns: Vec<&str> = lines.iter().map(|(_, c, _)| c.as_str()).collect();
        assert_eq!(
            columns,
            [
                "canonical",
                "canonical_rank",
                "outcome",
                "option_k",
                "outcome_by_index"
            ]
        );
        // Every index's outcome as the Rust API answers it (the canonical
        // position's, 0 where an index is no legal canonical position).
        let by_index = &lines[4].2;
        assert_eq!(by_index.len() as u64, made.positions());
        for (p, &found) in by_index.iter().enumerate() {
            let p = p as u64;
            let want = if made.canonical(p) == p {
                table.canonical_outcome(p).unwrap()
            } else {
                None
            };
            assert_eq!(found, u64::from(encode(want)), "{name} index {p}");
        }
        // The entries are the positions that have one, in order.
        let entries = by_index.iter().filter(|&&e| e != 0);
        assert!(entries.eq(lines[2].2.iter()), "{name}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
