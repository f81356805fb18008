//! Table files from another language: `boardbase export` writes them and
//! `tests/read_table.py` (Python 3, standard library only, shown in the
//! README) reads them; every entry must equal the Rust API's answer.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use boardbase::euler::{self, Position};
use boardbase::flip::{self, Board};

const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/read_table.py");

/// The Rust API's value of `column` for the board or position `bits`.
fn expected(puzzle: &str, column: &str, bits: u16) -> u64 {
    let board = Board::from_bits(bits);
    let entry = euler::probe(Position::from_bits(bits));
    match (puzzle, column) {
        ("flip", "rounds") => flip::rounds(board).map_or(255, u64::from),
        ("flip", "presses") => flip::solve(board).map_or(0, |s| u64::from(s.presses.bits())),
        ("flip", "optimal_sets") => flip::solve(board).map_or(0, |s| u64::from(s.optimal_sets)),
        ("euler", "winning") => u64::from(entry.outcome.is_win()),
        ("euler", "plies") => u64::from(entry.moves_left),
        ("euler", "best_move") => entry.best_move.map_or(0, |m| u64::from(m.bits())),
        _ => panic!("unexpected column {puzzle} {column}"),
    }
}

#[test]
fn python_reads_every_entry_of_an_export() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("{}-python-export", std::process::id()));
    let dir_str = dir.to_str().expect("UTF-8 path");
    common::ok(&["export", "--dir", dir_str], "");
    let files = [dir.join("flip-4x4.bin"), dir.join("euler-4x4.bin")];

    let output = match Command::new("python3").arg(SCRIPT).args(&files).output() {
        Ok(output) => output,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => panic!(
            "this test needs `python3` on PATH (Python 3, standard library only) \
             to read the exported table files: install it (e.g. apt-get install python3)"
        ),
        Err(e) => panic!("cannot run python3: {e}"),
    };
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        output.status.success(),
        "read_table.py failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let stdout = String::from_utf8(output.stdout).expect("UTF-8 output");

    let mut seen = Vec::new();
    for line in stdout.lines() {
        let mut fields = line.split(' ');
        let puzzle = fields.next().expect("a puzzle");
        let column = fields.next().expect("a column");
        let values: Vec<u64> = fields.map(|v| v.parse().expect("a number")).collect();
        assert_eq!(values.len(), 65_536, "{puzzle} {column}");
        for (bits, &value) in (0..=u16::MAX).zip(&values) {
            assert_eq!(
                value,
                expected(puzzle, column, bits),
                "{puzzle} {column} entry {bits:#06x}"
            );
        }
        seen.push(format!("{puzzle} {column}"));
    }
    assert_eq!(
        seen,
        [
            "flip rounds",
            "flip presses",
            "flip optimal_sets",
            "euler winning",
            "euler plies",
            "euler best_move"
        ]
    );
}

#[test]
fn python_refuses_a_damaged_file() {
    let mut bytes = boardbase::export::TableFile::euler().to_bytes();
    bytes[5000] ^= 1;
    let file = common::TempFile::new("python-damaged.bin", bytes);
    let output = Command::new("python3")
        .arg(SCRIPT)
        .arg(file.path())
        .output()
        .expect("python3 runs (see python_reads_every_entry_of_an_export)");
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("CRC mismatch"));
}

#[test]
fn the_readme_shows_the_tested_script() {
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
        .expect("README.md");
    let script = std::fs::read_to_string(SCRIPT).expect("tests/read_table.py");
    assert!(
        readme.contains(&format!("```python\n{script}```\n")),
        "README.md must show tests/read_table.py verbatim in a ```python block"
    );
}

#[test]
fn the_readme_python_usage_prints_what_it_says() {
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
        .expect("README.md");
    let usage = readme
        .split("```python\n")
        .nth(2)
        .and_then(|rest| rest.split("```").next())
        .expect("a second ```python block: the usage example");
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("{}-python-usage", std::process::id()));
    // The example reads tables-out/flip-4x4.bin from the current directory.
    let out = dir.join("tables-out");
    common::ok(&["export", "--dir", out.to_str().expect("UTF-8 path")], "");
    let output = Command::new("python3")
        .arg("-c")
        .arg(usage)
        .current_dir(&dir)
        .env("PYTHONPATH", concat!(env!("CARGO_MANIFEST_DIR"), "/tests"))
        .output();
    let _ = std::fs::remove_dir_all(&dir);
    let output = output.expect("python3 runs (see python_reads_every_entry_of_an_export)");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // The comment on the print line gives its output.
    let promised = usage
        .lines()
        .find_map(|l| {
            l.strip_prefix("print(")
                .and_then(|l| l.split("  # ").nth(1))
        })
        .expect("the print line says what it prints");
    assert_eq!(String::from_utf8_lossy(&output.stdout).trim_end(), promised);
}
