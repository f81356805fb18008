//! `boardbase gen`: the same bytes for the same arguments, families with
//! the property they promise, and `--answers` equal to oracles written
//! here (not the library's tables or counter).

use crate::common;
use crate::oracle;
use crate::oracle::fliptile;

use std::sync::OnceLock;

use common::{SplitMix, TempFile};
use oracle::carcassonne::Plain;
use oracle::euler;

fn flip_oracle() -> &'static Vec<Option<u8>> {
    static TABLE: OnceLock<Vec<Option<u8>>> = OnceLock::new();
    TABLE.get_or_init(oracle::tables::flip_rounds_4x4)
}

fn euler_oracle() -> &'static (Vec<bool>, Vec<u8>) {
    static TABLE: OnceLock<(Vec<bool>, Vec<u8>)> = OnceLock::new();
    TABLE.get_or_init(|| oracle::tables::solve_euler_4x4(&euler::moves_4x4()))
}

/// The arguments of `boardbase cases ARGS`, `args` given as words
/// separated by white space.
fn gen_args(args: &str) -> Vec<&str> {
    std::iter::once("cases")
        .chain(args.split_whitespace())
        .collect()
}

/// `boardbase cases ARGS`, which must succeed: its output.
fn gen_ok(args: &str) -> String {
    common::ok(&gen_args(args), "")
}

/// `boardbase cases ARGS`: how it ended.
fn gen_run(args: &str) -> common::Run {
    common::run(&gen_args(args), "")
}

/// `boardbase cases ARGS`, which must exit with `code` and say `says` on
/// stderr: how it ended.
fn gen_says(args: &str, code: i32, says: &str) -> common::Run {
    let r = gen_run(args);
    assert_eq!(r.code, code, "{args}: {}", r.stderr);
    assert!(r.stderr.contains(says), "{args}: {}", r.stderr);
    r
}

/// `boardbase cases ARGS --answers FILE`: (input, answers).
fn gen_with_answers(args: &str) -> (String, String) {
    let words = gen_args(args);
    let answers = TempFile::new(
        &format!("answers-{}", words[1..].join("_").replace('/', "-")),
        "",
    );
    let mut all = words;
    all.extend(["--answers", answers.path()]);
    let input = common::ok(&all, "");
    let written = std::fs::read_to_string(answers.path()).expect("answers written");
    (input, written)
}

/// 4×4 grids of `one`/other letters as bits (bit 4r + c).
fn grids(text: &str, one: u8) -> Vec<u16> {
    let rows: Vec<&str> = text.lines().filter(|l| !l.is_empty()).collect();
    rows.chunks(4)
        .map(|g| {
            g.iter().enumerate().fold(0u16, |b, (r, row)| {
                row.bytes()
                    .enumerate()
                    .fold(b, |b, (c, ch)| b | (u16::from(ch == one) << (4 * r + c)))
            })
        })
        .collect()
}

#[test]
fn same_arguments_same_bytes() {
    for args in [
        "flip --cases 500 --seed 5",
        "euler --cases 500 --seed 5",
        "carcassonne --cases 20 --seed 5",
        "fliptile --cases 50 --seed 5 --size 9x7",
        "lightsout --cases 50 --seed 5",
    ] {
        let mut all = gen_args(args);
        let a = common::ok(&all, "");
        let b = common::ok(&all, "");
        assert_eq!(a, b, "{args}");
        all[5] = "6";
        let c = common::ok(&all, "");
        assert_ne!(a, c, "another seed, other cases: {args}");
        assert_eq!(a.len(), c.len());
    }
    // Asking for answers does not change the input.
    let plain = gen_ok("carcassonne --cases 5 --size 3x4");
    let (input, _) = gen_with_answers("carcassonne --cases 5 --size 3x4");
    assert_eq!(plain, input);
    // The stream is a contract, written in the docs: SplitMix64 from the
    // seed, each random Flip board `pool[below(65,536)]` of the ascending
    // pool of all boards, i.e. Lemire's `(x · 65,536) >> 64`: the top 16
    // bits of each output. Recomputed here from that description.
    let mut rng = SplitMix(42);
    let expected: Vec<u16> = (0..50).map(|_| (rng.next() >> 48) as u16).collect();
    let text = gen_ok("flip --cases 50 --seed 42");
    assert_eq!(
        grids(&text, b'b'),
        expected,
        "the generator's stream changed: that breaks its contract"
    );
}

/// SplitMix64 from `seed`, as the docs describe it.
fn splitmix(seed: u64) -> impl FnMut() -> u64 {
    let mut rng = SplitMix(seed);
    move || rng.next()
}

#[test]
fn fliptile_and_lightsout_streams_are_the_documented_ones() {
    // Random Fliptile cases: M = 1 + below(15), N = 1 + below(15) (Lemire:
    // the high word of x · 15, x drawn again while the low word is below
    // 2^64 mod 15 = 1), then per row next() masked to N bits, bit c =
    // column c.
    let mut next = splitmix(77);
    let mut expected = Vec::new();
    for _ in 0..40 {
        let mut below15 = || loop {
            let m = u128::from(next()) * 15;
            if m as u64 >= 1 {
                break 1 + (m >> 64) as usize;
            }
        };
        let (m, n) = (below15(), below15());
        let cells: Vec<u8> = (0..m)
            .flat_map(|_| {
                let row = next();
                (0..n).map(move |c| (row >> c & 1) as u8)
            })
            .collect();
        expected.push((m, n, cells));
    }
    let text = gen_ok("fliptile --cases 40 --seed 77");
    assert_eq!(
        fliptile::fliptile_cases(&text),
        expected,
        "the generator's stream changed: that breaks its contract"
    );
    // Lights Out: the count, then per puzzle five rows of next() & 63.
    let mut next = splitmix(9);
    let mut expected = String::from("3\n");
    for _ in 0..3 * 5 {
        let row = next();
        let cells: Vec<String> = (0..6).map(|c| (row >> c & 1).to_string()).collect();
        expected += &(cells.join(" ") + "\n");
    }
    let text = gen_ok("lightsout --cases 3 --seed 9");
    assert_eq!(text, expected);
}

#[test]
fn fliptile_families_and_answers() {
    for family in ["random", "solvable", "impossible", "ties"] {
        let (input, answers) =
            gen_with_answers(&format!("fliptile --cases 150 --seed 8 --family {family}"));
        let cases = fliptile::fliptile_cases(&input);
        assert_eq!(cases.len(), 150);
        let mut expected = String::new();
        let (mut impossible, mut tied) = (0, 0);
        for (m, n, cells) in &cases {
            assert!((1..=15).contains(m) && (1..=15).contains(n), "{m}x{n}");
            let truth = fliptile::fliptile_truth(*m, *n, cells);
            impossible += usize::from(truth.is_none());
            tied += usize::from(truth.as_ref().is_some_and(|t| t.optimal >= 2));
            expected += &fliptile::fliptile_text(*n, truth.as_ref().map(|t| &t.least[..]));
        }
        assert_eq!(answers, expected, "{family}");
        match family {
            "solvable" => assert_eq!(impossible, 0),
            "impossible" => assert_eq!(impossible, 150),
            "ties" => assert_eq!(tied, 150),
            _ => assert!(impossible > 10 && tied > 0, "{impossible} {tied}"),
        }
    }
    // One size, up to 64×64 (the answers then from the library only: the
    // oracle tries every first row, so it stops at 20 columns).
    let (input, answers) = gen_with_answers("fliptile --cases 30 --size 9x9 --family ties");
    let cases = fliptile::fliptile_cases(&input);
    let mut expected = String::new();
    for (m, n, cells) in &cases {
        assert_eq!((*m, *n), (9, 9));
        let t = fliptile::fliptile_truth(9, 9, cells).expect("solvable");
        assert!(t.optimal >= 2);
        expected += &fliptile::fliptile_text(9, Some(&t.least));
    }
    assert_eq!(answers, expected);
    let r = gen_run("fliptile --cases 2 --size 64x63");
    assert_eq!(r.code, 0);
    let cases = fliptile::fliptile_cases(&r.stdout);
    assert_eq!(cases.len(), 2);
    assert!(
        cases
            .iter()
            .all(|(m, n, c)| (*m, *n, c.len()) == (64, 63, 64 * 63))
    );
}

#[test]
fn lightsout_answers() {
    let (input, answers) = gen_with_answers("lightsout --cases 400 --seed 3");
    let (count, puzzles) = input.split_once('\n').unwrap();
    assert_eq!(count, "400");
    let cells: Vec<u8> = puzzles
        .split_whitespace()
        .map(|w| w.parse().unwrap())
        .collect();
    assert_eq!(cells.len(), 400 * 30);
    assert_eq!(puzzles.lines().count(), 400 * 5, "no blank lines");
    let mut expected = String::new();
    for (k, puzzle) in cells.chunks(30).enumerate() {
        let t = fliptile::fliptile_truth(5, 6, puzzle).expect("5×6 is always solvable");
        assert_eq!(t.optimal, 1);
        expected += &format!(
            "PUZZLE #{}\n{}",
            k + 1,
            fliptile::fliptile_text(6, Some(&t.least))
        );
    }
    assert_eq!(answers, expected);
}

#[test]
fn flip_families_and_answers() {
    let (input, answers) = gen_with_answers("flip --cases 2000 --seed 1");
    let boards = grids(&input, b'b');
    assert_eq!(boards.len(), 2000);
    assert_eq!(input.len(), 2000 * 20, "4 lines of 4 letters a board");
    let expected: Vec<String> = boards
        .iter()
        .map(|&b| fliptile::flip_answer(flip_oracle()[b as usize]))
        .collect();
    assert_eq!(answers.lines().collect::<Vec<_>>(), expected);
    let solvable = boards
        .iter()
        .filter(|&&b| flip_oracle()[b as usize].is_some())
        .count();
    assert!(
        (60..200).contains(&solvable),
        "about 1 in 16 of random boards: {solvable}"
    );

    let (input, answers) = gen_with_answers("flip --cases 300 --family impossible");
    assert!(
        grids(&input, b'b')
            .iter()
            .all(|&b| flip_oracle()[b as usize].is_none())
    );
    assert!(answers.lines().all(|l| l == "Impossible"));

    let (input, answers) = gen_with_answers("flip --cases 300 --family solvable");
    assert!(
        grids(&input, b'b')
            .iter()
            .all(|&b| flip_oracle()[b as usize].is_some())
    );
    assert!(!answers.contains("Impossible"));

    for k in 0..=6u8 {
        let input = gen_ok(&format!("flip --cases 100 --rounds {k}"));
        let boards = grids(&input, b'b');
        assert!(
            boards.iter().all(|&b| flip_oracle()[b as usize] == Some(k)),
            "{k} rounds"
        );
        if k == 0 {
            let mut distinct = boards.clone();
            distinct.sort_unstable();
            distinct.dedup();
            assert_eq!(distinct, [0, 0xFFFF], "both uniform boards");
        }
    }
}

#[test]
fn euler_families_and_answers() {
    let (win, plies) = euler_oracle();
    let (input, answers) = gen_with_answers("euler --cases 3000 --seed 2");
    let mut lines = input.lines();
    assert_eq!(lines.next(), Some("3000"));
    assert_eq!(input.len(), 5 + 3000 * 21, "a blank line before each board");
    let positions = grids(&input[5..], b'X');
    assert_eq!(positions.len(), 3000);
    assert!(
        positions.iter().all(|&p| p != 0xFFFF),
        "only open positions"
    );
    let expected: Vec<&str> = positions
        .iter()
        .map(|&p| if win[p as usize] { "WINNING" } else { "LOSING" })
        .collect();
    assert_eq!(answers.lines().collect::<Vec<_>>(), expected);

    let (input, answers) = gen_with_answers("euler --cases 200 --moves-left 13");
    let positions = grids(input.split_once('\n').unwrap().1, b'X');
    assert_eq!(positions.len(), 200);
    assert!(positions.iter().all(|&p| plies[p as usize] == 13));
    assert!(
        answers.lines().all(|l| l == "LOSING"),
        "an odd count of moves left loses"
    );
    assert!(positions.contains(&0), "the empty board lasts 13 moves");

    for (family, wins) in [("winning", true), ("losing", false)] {
        let input = gen_ok(&format!("euler --cases 200 --family {family}"));
        let positions = grids(input.split_once('\n').unwrap().1, b'X');
        assert!(
            positions.iter().all(|&p| win[p as usize] == wins),
            "{family}"
        );
    }
}

/// (rows, cols, tile codes) of each case of a Carcassonne input.
fn carcassonne_cases(text: &str) -> Vec<(usize, usize, Vec<[u8; 4]>)> {
    let mut words = text.split_whitespace();
    let t: usize = words.next().unwrap().parse().unwrap();
    (0..t)
        .map(|_| {
            let rows: usize = words.next().unwrap().parse().unwrap();
            let cols: usize = words.next().unwrap().parse().unwrap();
            let tiles = (0..rows * cols)
                .map(|_| <[u8; 4]>::try_from(words.next().unwrap().as_bytes()).unwrap())
                .collect();
            (rows, cols, tiles)
        })
        .collect()
}

#[test]
fn carcassonne_families_and_answers() {
    for (family, size) in [
        ("random", "2x3"),
        ("planted", "3x3"),
        ("two-pair", "2x4"),
        ("uniform", "3x2"),
    ] {
        let (input, answers) = gen_with_answers(&format!(
            "carcassonne --cases 12 --seed 9 --family {family} --size {size}"
        ));
        let cases = carcassonne_cases(&input);
        assert_eq!(cases.len(), 12);
        let answers: Vec<&str> = answers.lines().collect();
        for (k, (rows, cols, tiles)) in cases.iter().enumerate() {
            assert_eq!(format!("{rows}x{cols}"), size);
            let count = Plain {
                rows: *rows,
                cols: *cols,
                tiles: tiles.clone(),
            }
            .brute_force();
            assert_eq!(answers[k], format!("Case {}: {count}", k + 1), "{family}");
            match family {
                "planted" | "two-pair" => assert!(count > 0, "{family} boards have a placement"),
                _ => {}
            }
            let distinct = |t: &[u8; 4]| {
                let mut v = t.to_vec();
                v.sort_unstable();
                v
            };
            if family == "uniform" {
                // One tile everywhere, each in some turn.
                assert!(tiles.iter().all(|t| distinct(t) == distinct(&tiles[0])));
            }
            if family == "two-pair" {
                assert!(tiles.iter().all(|t| {
                    let d = distinct(t);
                    d[0] == d[1] && d[2] == d[3] && d[1] != d[2]
                }));
            }
        }
    }
    // The default size is the judge's largest, 12×12.
    let cases = carcassonne_cases(&gen_ok("carcassonne --cases 2"));
    assert!(cases.iter().all(|(r, c, _)| (*r, *c) == (12, 12)));
}

#[test]
fn generated_inputs_read_back_through_the_solvers() {
    for (puzzle, args) in [
        ("flip", "flip --cases 400 --seed 3"),
        ("euler", "euler --cases 400 --seed 3"),
        (
            "carcassonne",
            "carcassonne --cases 8 --seed 3 --family planted",
        ),
        ("fliptile", "fliptile --cases 300 --seed 3"),
        ("fliptile", "fliptile --cases 40 --size 14x14 --family ties"),
        ("lightsout", "lightsout --cases 300 --seed 3"),
    ] {
        let (input, answers) = gen_with_answers(args);
        assert_eq!(common::ok(&[puzzle], &input), answers, "{puzzle}");
    }
}

#[test]
fn usage_errors() {
    for (args, says) in [
        (
            "flip --cases 1 --size 64x64",
            "a 64x64 board has nullity 28",
        ),
        (
            "euler --cases 1 --size 6x7",
            "euler tables take at most 36 cells; 6x7 has 42",
        ),
        (
            "flip --cases 1 --rounds 7",
            "no Flip board taking 7 rounds exists",
        ),
        (
            "flip --cases 1 --family impossible --rounds 2",
            "no impossible Flip board taking 2 rounds exists",
        ),
        (
            "flip --cases 1 --family planted",
            "unknown Flip family 'planted'",
        ),
        (
            "euler --cases 1 --rounds 2",
            "--rounds is for flip, not euler",
        ),
        (
            "flip --cases 1 --moves-left 2",
            "--moves-left is for euler, not flip",
        ),
        (
            "carcassonne --cases 1 --size 17x17",
            "narrower side must be at most 16",
        ),
        (
            "carcassonne --cases 1 --size 0x3",
            "both sides must be at least 1",
        ),
        ("carcassonne --cases 1 --size 12", "not a size like 12x12"),
        (
            "fliptile --cases 1 --size 64x64",
            "a 64x64 board has nullity 28",
        ),
        (
            "fliptile --cases 1 --size 65x3",
            "Fliptile sides are 1 to 64",
        ),
        (
            "fliptile --cases 1 --size 15x15 --family impossible",
            "no impossible 15x15 Fliptile board exists (15x15 has nullity 0",
        ),
        (
            "fliptile --cases 1 --family planted",
            "unknown Fliptile family 'planted'",
        ),
        (
            "fliptile --cases 1 --rounds 2",
            "--rounds is for flip, not fliptile",
        ),
        (
            "lightsout --cases 1 --family ties",
            "lightsout has only random puzzles",
        ),
        (
            "lightsout --cases 1 --size 5x5",
            "Extended Lights Out boards are 5x6",
        ),
    ] {
        assert_eq!(gen_says(args, 2, says).stdout, "");
    }
    // --help names random as the default: it is accepted, the same bytes as
    // without it.
    let plain = common::ok(&["cases", "lightsout", "--cases", "3", "--seed", "7"], "");
    let random = common::ok(
        &[
            "cases",
            "lightsout",
            "--cases",
            "3",
            "--seed",
            "7",
            "--family",
            "random",
        ],
        "",
    );
    assert_eq!(plain, random);
    assert!(plain.starts_with("3\n"), "{plain}");
    // Past the judge's limits: written anyway, with a note.
    gen_says(
        "carcassonne --cases 51 --size 1x1",
        0,
        "HDU 4064 allows T ≤ 50",
    );
    gen_says(
        "fliptile --cases 1 --size 16x2",
        0,
        "16x2: POJ 3279 allows 1 ≤ M, N ≤ 15",
    );
    // An answers file that cannot be written: an error, and no stray file.
    gen_says(
        "flip --cases 1 --answers /nonexistent/dir/answers",
        1,
        "cannot write /nonexistent/dir/answers: No such file or directory",
    );
}

#[test]
fn answers_file_appears_only_when_complete() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("gen-answers-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("answers.txt");
    common::ok(
        &[
            "cases",
            "euler",
            "--cases",
            "10",
            "--answers",
            path.to_str().unwrap(),
        ],
        "",
    );
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["answers.txt"], "the temporary file was renamed");
    assert_eq!(std::fs::read_to_string(&path).unwrap().lines().count(), 10);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(unix)]
#[test]
fn answers_to_a_pipe_or_through_a_link() {
    use std::os::unix::fs::FileTypeExt;
    let dir = common::TempDir::new("gen-answers-destinations");
    let args = "euler --cases 10 --seed 3";
    let (input, expected) = gen_with_answers(args);

    // `--answers >(...)` or `/dev/stdout` on a pipe: written down the pipe,
    // which stays a pipe (a rename would have put a file in its place).
    let fifo = dir.join("pipe");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.expect("mkfifo runs").success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).expect("read from the FIFO"))
    };
    let mut words = gen_args(args);
    words.extend(["--answers", fifo.to_str().unwrap()]);
    assert_eq!(common::ok(&words, ""), input);
    // Checked first: had the FIFO been replaced, the reader would wait for
    // a writer for ever.
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
    assert_eq!(reader.join().unwrap(), expected);

    // Through a symbolic link: the file it names gets the answers, the
    // link stays a link.
    let target = dir.join("real.txt");
    std::fs::write(&target, "old").unwrap();
    let link = dir.join("link.txt");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let mut words = gen_args(args);
    words.extend(["--answers", link.to_str().unwrap()]);
    assert_eq!(common::ok(&words, ""), input);
    assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
    assert_eq!(std::fs::read_to_string(&target).unwrap(), expected);
    assert_eq!(dir.names(), ["link.txt", "pipe", "real.txt"]);
}

#[cfg(unix)]
#[test]
fn answers_to_the_standard_output_are_refused() {
    // Through a pipe (how the tests read stdout): the two streams would
    // interleave by buffers.
    let r = gen_says(
        "euler --cases 3 --answers /dev/stdout",
        2,
        "--answers /dev/stdout is the standard output too",
    );
    assert_eq!(r.stdout, "");

    // Redirected to a file, named by /dev/stdout or by its own name: the
    // answers would have replaced (or overwritten) the cases.
    let dir = common::TempDir::new("gen-answers-stdout");
    let out = dir.join("out.txt");
    for answers in ["/dev/stdout", out.to_str().unwrap()] {
        let status = std::process::Command::new(env!("CARGO_BIN_EXE_boardbase"))
            .args(["cases", "euler", "--cases", "3", "--answers", answers])
            .stdout(std::fs::File::create(&out).unwrap())
            .stderr(std::process::Stdio::null())
            .status()
            .expect("runs");
        assert_eq!(status.code(), Some(2), "{answers}");
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "", "{answers}");
    }
    assert_eq!(dir.names(), ["out.txt"]);
}

/// Notes count cases in the plural only when there are several.
#[test]
fn one_case_is_one_case() {
    let r = gen_run("carcassonne --cases 1 --size 13x13");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("note: 1 case of 13x13: HDU 4064 allows T ≤ 50 and N, M ≤ 12"),
        "{}",
        r.stderr
    );
    let r = gen_run("carcassonne --cases 51 --size 2x2");
    assert!(r.stderr.contains("note: 51 cases of 2x2:"), "{}", r.stderr);
}

/// Every solver reads what `gen` writes for it, `--cases 0` included:
/// every family of every puzzle (and other sizes of Flip and Euler), piped
/// through its solver, answers exactly what `--answers` wrote (whose
/// values the tests above check against oracles).
#[test]
fn every_family_of_every_puzzle_goes_through_its_solver() {
    let families: &[(&str, &[&str], &[&str])] = &[
        ("flip", &["random", "solvable", "impossible"], &[]),
        ("flip", &["random"], &["--size", "3x4"]),
        ("euler", &["random", "winning", "losing"], &[]),
        ("euler", &["random"], &["--size", "3x4"]),
        (
            "carcassonne",
            &["random", "planted", "two-pair", "uniform"],
            &[],
        ),
        (
            "fliptile",
            &["random", "solvable", "impossible", "ties"],
            &[],
        ),
        ("lightsout", &["random"], &[]),
    ];
    let mut checked = 0;
    for &(puzzle, fams, extra) in families {
        for family in fams {
            for cases in ["0", "5"] {
                let mut args = format!("{puzzle} --cases {cases} --seed 3 --family {family}");
                for word in extra {
                    args.push(' ');
                    args.push_str(word);
                }
                let answers = TempFile::new(&format!("pipe-{checked}"), "");
                let mut words = gen_args(&args);
                words.extend(["--answers", answers.path()]);
                let generated = common::run(&words, "");
                assert_eq!(generated.code, 0, "{args}: {}", generated.stderr);
                let input = generated.stdout;
                let answers = std::fs::read_to_string(answers.path()).expect("answers written");
                let mut solve = vec![puzzle];
                solve.extend(extra);
                let r = common::run(&solve, &input);
                assert_eq!(r.code, 0, "{args}: {}", r.stderr);
                assert_eq!(r.stdout, answers, "{args}");
                if cases == "0" {
                    assert_eq!(r.stdout, "", "{args}");
                }
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 34);
}
