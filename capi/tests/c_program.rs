//! The C interface from C and C++: builds `libboardbase.a`, compiles
//! `tests/check.c` against `include/boardbase.h` with the system C compiler,
//! runs it and compares every answer with the Rust API; `tests/check_table.c`
//! on table files (the 4x4 exports against the 4x4 functions, 3x5 tables
//! against the test-local oracle of `tests/oracle`, a damaged block refused
//! with its name); then compiles and runs
//! `tests/check.cpp` with the C++ compiler, and the C example of docs/library.md.

#[path = "../../tests/oracle/mod.rs"]
mod oracle;

use std::path::{Path, PathBuf};
use std::process::Command;

use boardbase::carcassonne::{self, Board, CountOptions, Tile};
use boardbase::euler::{self, Position};
use boardbase::flip;

/// The workspace root (the parent of this package).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("capi/ has a parent")
        .to_path_buf()
}

/// Builds the static library for this test's profile (a no-op when it is
/// fresh) and returns its path.
fn static_library() -> PathBuf {
    // The test runs from target/<profile>/deps/.
    let exe = std::env::current_exe().expect("the test knows its path");
    let profile_dir = exe
        .parent()
        .and_then(Path::parent)
        .expect("target/<profile>/deps/<test>");
    let profile = profile_dir
        .file_name()
        .and_then(|n| n.to_str())
        .expect("a UTF-8 profile directory");
    let mut cargo = Command::new(env!("CARGO"));
    cargo
        .current_dir(root())
        .args(["build", "--quiet", "-p", "boardbase-capi", "--lib"])
        .env("CARGO_TARGET_DIR", profile_dir.parent().expect("target/"));
    match profile {
        "debug" => {}
        "release" => {
            cargo.arg("--release");
        }
        other => {
            cargo.args(["--profile", other]);
        }
    }
    let status = cargo.status().expect("cargo runs");
    assert!(status.success(), "cargo build -p boardbase-capi failed");
    let lib = profile_dir.join("libboardbase.a");
    assert!(lib.is_file(), "{} was not built", lib.display());
    lib
}

/// Compiles `source` with `compiler` against the header and the static
/// library, or `None` when the compiler is not installed.
fn compile(compiler: &str, source: &str, out_name: &str, lib: &Path) -> Option<PathBuf> {
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join(out_name);
    let result = Command::new(compiler)
        .arg("-Wall")
        .arg("-Werror")
        .arg("-I")
        .arg(root().join("include"))
        .arg(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests")
                .join(source),
        ) // `join` keeps an absolute `source`
        .arg(lib)
        .args(["-lpthread", "-ldl", "-lm", "-o"])
        .arg(&out)
        .output();
    let output = match result {
        Ok(output) => output,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return None,
        Err(e) => panic!("cannot run {compiler}: {e}"),
    };
    assert!(
        output.status.success(),
        "{compiler} failed on {source}:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    Some(out)
}

/// Runs a compiled program and returns its standard output.
fn run(program: &Path) -> String {
    run_in(program, &[], None)
}

/// Runs a compiled program with `args`, in `dir` if given, and returns its
/// standard output.
fn run_in(program: &Path, args: &[&Path], dir: Option<&Path>) -> String {
    let mut command = Command::new(program);
    command.args(args);
    if let Some(dir) = dir {
        command.current_dir(dir);
    }
    let output = command.output().expect("the program runs");
    assert!(
        output.status.success(),
        "{} failed: {}\n{}",
        program.display(),
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("UTF-8 output")
}

/// The Carcassonne count of a board given as in the C interface.
fn rust_count(rows: usize, cols: usize, tiles: &str) -> i64 {
    let tiles: Vec<Tile> = tiles
        .as_bytes()
        .chunks(4)
        .map(|c| Tile::try_from(c).expect("a valid tile"))
        .collect();
    let board = Board::new(rows, cols, tiles).expect("a valid board");
    let counted = carcassonne::count(&board, &CountOptions::default(), || false);
    counted.expect("within budget").count as i64
}

const SAMPLE_8X8: &str = "FCFFRRFCFRCRFRFRRCCRFFCCRRFFCRFR\
                          FRRCFRFRCCCRFCFCCRRCCRRRFRCRFRFR\
                          RRCRFRRRCCCRFFFCRRFFRFCRCCFFFCCC\
                          CFCFRRFFCRFRFFRRFRRFCCRRFFFCCRRF\
                          CFRRFFFFFFFFRRFFRRRRRCRRFFCCRFRF\
                          RRCFFRFRFRRRFRFRRCCRRCCCCFFCRFRF\
                          CFCFFRFFRRFFFFFFCFFFCFFFFRFFRFRR\
                          CCRRFCFCFCCCFCCCFFCCFCCFFFCCRFRF";

#[test]
fn c_program_agrees_with_the_rust_api() {
    let lib = static_library();
    let program = compile("cc", "check.c", "boardbase-check-c", &lib)
        .expect("a C compiler `cc` is needed for this test");
    let stdout = run(&program);
    let mut lines = stdout.lines();

    for bits in 0..=u16::MAX {
        let line = lines.next().expect("a line per 16-bit value");
        let fields: Vec<u32> = line
            .split(' ')
            .map(|f| f.parse().expect("a number"))
            .collect();
        let board = flip::Board::from_bits(bits);
        let solution = flip::solve(board);
        let position = Position::from_bits(bits);
        let entry = euler::probe(position);
        let expected = [
            u32::from(flip::rounds(board).unwrap_or(255)),
            u32::from(solution.map_or(0, |s| s.presses.bits())),
            u32::from(entry.outcome.is_win()),
            u32::from(entry.moves_left),
            u32::from(entry.best_move.map_or(0, |m| m.bits())),
        ];
        assert_eq!(fields, expected, "value {bits:#06x}");
        // The press set really solves the board in that many rounds.
        if let Some(s) = solution {
            assert_eq!(fields[0], u32::from(s.presses.len()));
            let presses = flip::Presses::from_bits(fields[1] as u16);
            assert!(board.apply(presses).uniform().is_some());
        }
    }

    let samples = [
        ("sample-1x1", rust_count(1, 1, "RRRR")),
        ("sample-1x2", rust_count(1, 2, "RRRFFCCC")),
        ("sample-8x8", rust_count(8, 8, SAMPLE_8X8)),
    ];
    // The published answers.
    assert_eq!(samples.map(|(_, n)| n), [4, 1, 1_048_576]);
    let bad = [
        "null",
        "too-short",
        "too-long",
        "separators",
        "bad-letter",
        "lowercase",
        "non-utf8",
        "zero-rows",
        "zero-cols",
        "overflow",
        "huge",
        "too-wide",
    ];
    let expected: Vec<String> = samples
        .iter()
        .map(|(label, n)| format!("carcassonne {label} {n}"))
        .chain(bad.iter().map(|label| format!("carcassonne {label} -1")))
        .chain(["end".to_owned()])
        .collect();
    assert_eq!(lines.collect::<Vec<_>>(), expected);
}

/// A fresh directory under the target directory.
fn temp_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

#[test]
fn c_program_probes_table_files() {
    use boardbase::tablefile::{Puzzle, Table};
    use boardbase::tables::shape::Shape;

    let dir = temp_dir("c-tables");
    let shape = Shape::new(3, 5).unwrap();
    let euler_oracle = oracle::Euler::solve(shape);
    let flip_oracle = oracle::Flip::solve(shape);
    let tables = [
        Table::embedded(Puzzle::Flip),
        Table::embedded(Puzzle::Euler),
        Table::from_flip(shape, flip_oracle.columns()).expect("a flip table"),
        // WDL only: winning and moves.
        Table::from_euler(shape, euler_oracle.columns(true)).expect("an euler table"),
    ];
    let mut paths: Vec<PathBuf> = tables
        .iter()
        .map(|t| {
            let path = dir.join(t.file_name());
            t.write(&path, &mut |_| {}).expect("written");
            path
        })
        .collect();
    let bytes = std::fs::read(&paths[1]).unwrap();
    let truncated = dir.join("truncated.bin");
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).unwrap();
    paths.push(truncated.clone());
    // One byte of block 1 of `winning` (the positions with square (3,3)
    // covered) damaged.
    let winning = Table::open(&paths[1])
        .expect("the export opens")
        .column("winning")
        .and_then(|c| c.offset)
        .expect("a winning column in the file");
    let mut damaged = bytes.clone();
    damaged[winning as usize + 4096 + 3] ^= 1;
    let damaged_path = dir.join("damaged.bin");
    std::fs::write(&damaged_path, &damaged).unwrap();
    paths.push(damaged_path);

    let lib = static_library();
    let program = compile("cc", "check_table.c", "boardbase-check-table-c", &lib)
        .expect("a C compiler `cc` is needed for this test");
    let args: Vec<&Path> = paths.iter().map(PathBuf::as_path).collect();
    let stdout = run_in(&program, &args, None);
    let mut lines = stdout.lines();
    for expected in [
        "open flip4 4 4 flip",
        "open euler4 4 4 euler",
        "open flip35 3 5 flip",
        "open euler35 3 5 euler",
        "4x4 0",
    ] {
        assert_eq!(lines.next(), Some(expected));
    }
    for b in 0..1usize << 15 {
        let rounds = flip_oracle.rounds[0][b].min(flip_oracle.rounds[1][b]);
        let expected = format!("{rounds} {}", i32::from(euler_oracle.wins[b]));
        assert_eq!(lines.next(), Some(expected.as_str()), "3x5 board {b:#x}");
    }
    let truncated_message = format!(
        "cannot open {}: truncated file: {} bytes, the header says {}",
        truncated.display(),
        bytes.len() / 2,
        bytes.len()
    );
    let errors = [
        "error euler-out-of-range -1 boardbase_table_euler_winning: board 0x10000 has bits outside the 4x4 board (at most 0xffff)".to_owned(),
        "error flip-out-of-range -1 boardbase_table_flip_rounds: board 0xffffffffffffffff has bits outside the 3x5 board (at most 0x7fff)".to_owned(),
        "error euler-on-flip -1 boardbase_table_euler_winning: the table is for flip, not euler".to_owned(),
        "error flip-on-euler -1 boardbase_table_flip_rounds: the table is for euler, not flip".to_owned(),
        format!(
            "error damaged-block -1 boardbase_table_euler_winning: column \"winning\", block 1 (bytes {}..{} of the \
             file) does not match its CRC: the table is damaged",
            winning + 4096,
            winning + 8192
        ),
        format!(
            "damaged-other {}",
            i32::from(euler::outcome(Position::from_bits(5)).is_win())
        ),
        "error null-rows -1 boardbase_table_rows: the table is NULL".to_owned(),
        "error null-cols -1 boardbase_table_cols: the table is NULL".to_owned(),
        "error null-euler -1 boardbase_table_euler_winning: the table is NULL".to_owned(),
        "error null-flip -1 boardbase_table_flip_rounds: the table is NULL".to_owned(),
        "error null-puzzle -1 boardbase_table_puzzle: the table is NULL".to_owned(),
        "error open-null -1 boardbase_table_open: path is NULL".to_owned(),
        "error open-missing -1 cannot open /nonexistent/boardbase.bin: No such file or directory (os error 2)".to_owned(),
        format!("error open-truncated -1 {truncated_message}"),
        format!("error after-success 0 {truncated_message}"),
        "end".to_owned(),
    ];
    assert_eq!(lines.collect::<Vec<_>>(), errors);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn header_compiles_as_cpp() {
    let lib = static_library();
    let Some(program) = compile("c++", "check.cpp", "boardbase-check-cpp", &lib) else {
        eprintln!("skipped: no C++ compiler `c++` on this machine");
        return;
    };
    assert_eq!(run(&program), "4 1 0\n");
}

/// The first fenced block of `lang` after `heading` in `text`.
fn fenced_block<'a>(text: &'a str, heading: &str, lang: &str) -> &'a str {
    let section = &text[text.find(heading).expect("the heading")..];
    let open = format!("```{lang}\n");
    let start = section.find(&open).expect("the block") + open.len();
    let len = section[start..].find("```").expect("the block ends");
    &section[start..start + len]
}

#[test]
fn docs_c_example_prints_what_the_docs_say() {
    let readme = std::fs::read_to_string(root().join("docs/library.md")).expect("docs/library.md");
    let code = fenced_block(&readme, "### C and C++", "c");
    let shown = fenced_block(&readme, "### C and C++", "text");
    let source = Path::new(env!("CARGO_TARGET_TMPDIR")).join("boardbase-readme-example.c");
    std::fs::write(&source, code).expect("example written");
    let lib = static_library();
    let program = compile(
        "cc",
        source.to_str().expect("UTF-8"),
        "boardbase-readme-example",
        &lib,
    )
    .expect("a C compiler `cc` is needed for this test");
    // The example reads tables-out/euler-4x4.bin, as `boardbase export
    // --dir tables-out` writes it, from the current directory.
    let dir = temp_dir("readme-example");
    let out = dir.join("tables-out");
    std::fs::create_dir_all(&out).unwrap();
    let table = boardbase::tablefile::Table::embedded(boardbase::tablefile::Puzzle::Euler);
    table
        .write(out.join(table.file_name()), &mut |_| {})
        .expect("written");
    assert_eq!(run_in(&program, &[], Some(&dir)), shown);
    let _ = std::fs::remove_dir_all(&dir);
}
