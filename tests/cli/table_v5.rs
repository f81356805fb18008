//! Version-5 table files (one entry a class of symmetric positions) on the
//! command line: `euler --table`, `solve --tables`, `verify` and
//! `compress` answer and report as for the version-3 file of the same
//! shape, every position of it.

use crate::common::{TempDir, run};
use crate::oracle::tables::Euler;

use boardbase::tablefile::{EulerColumns, Table};
use boardbase::tables::classes::Classes;
use boardbase::tables::shape::Shape;

/// The 3×4 table twice, from the oracle: WDL-only version 3 in `v3`,
/// version 5 in `v5`, both named `euler-3x4.bin`.
fn both_files(v3: &TempDir, v5: &TempDir) -> Shape {
    let shape = Shape::new(3, 4).unwrap();
    let oracle = Euler::solve(shape);
    let classes = Classes::of_shape(shape);
    let mut winning = vec![0u64; classes.entries().div_ceil(64) as usize];
    for i in 0..classes.entries() {
        if oracle.wins[classes.position(i).unwrap() as usize] {
            winning[(i / 64) as usize] |= 1 << (i % 64);
        }
    }
    let columns = EulerColumns {
        winning,
        full: None,
        classes: Some(classes),
    };
    Table::from_euler(shape, columns)
        .unwrap()
        .write(v5.join("euler-3x4.bin"), &mut |_| {})
        .unwrap();
    Table::from_euler(shape, oracle.columns(true))
        .unwrap()
        .write(v3.join("euler-3x4.bin"), &mut |_| {})
        .unwrap();
    shape
}

/// Every position of `shape`: as the judge's input (a count, then the
/// rows) and as `solve`'s (one line each, rows joined by `/`).
fn inputs(shape: Shape) -> (String, String) {
    let rows = |p: u64| -> Vec<String> {
        (0..shape.rows())
            .map(|r| {
                (0..shape.cols())
                    .map(|c| {
                        if p >> (r * shape.cols() + c) & 1 == 1 {
                            'X'
                        } else {
                            '.'
                        }
                    })
                    .collect()
            })
            .collect()
    };
    let mut judge = format!("{}\n", 1u64 << shape.cells());
    let mut solve = String::new();
    for p in 0..=shape.full() {
        judge.push_str(&(rows(p).join("\n") + "\n"));
        solve.push_str(&(rows(p).join("/") + "\n"));
    }
    (judge, solve)
}

#[test]
fn every_command_answers_a_version_5_file_as_the_version_3_file() {
    let (v3, v5) = (TempDir::new("cli-v3"), TempDir::new("cli-v5"));
    let shape = both_files(&v3, &v5);
    let (judge, solve) = inputs(shape);
    let answer = |dir: &TempDir, args: &[&str], input: &str| {
        let file = dir.file("euler-3x4.bin");
        let args: Vec<&str> = args
            .iter()
            .map(|&a| match a {
                "FILE" => file.as_str(),
                "DIR" => dir.path(),
                a => a,
            })
            .collect();
        let r = run(&args, input);
        assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
        r.stdout
    };
    let commands: [(&[&str], &str); 4] = [
        (&["euler", "--table", "FILE"], &judge),
        (&["euler", "--table", "FILE", "--format", "json"], &judge),
        (&["euler", "--size", "3x4", "--tables", "DIR"], &judge),
        (
            &[
                "solve", "euler", "--size", "3x4", "--tables", "DIR", "--format", "json",
            ],
            &solve,
        ),
    ];
    for (args, input) in commands {
        let (a, b) = (answer(&v5, args, input), answer(&v3, args, input));
        assert_eq!(a.lines().count(), 1 << shape.cells(), "{args:?}");
        assert!(a == b, "{args:?}: the version-5 file answers otherwise");
    }

    // `verify` checks every entry by the rules, the index's `classes` too.
    let file = v5.file("euler-3x4.bin");
    let r = run(&["verify", &file], "");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("version 5"), "{}", r.stdout);
    assert!(r.stdout.contains("every entry agrees"), "{}", r.stdout);

    // `compress` keeps version 5, and the file answers the same.
    let r = run(&["compress", &file], "");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("version 5;"), "{}", r.stdout);
    assert_eq!(Table::open(&file).unwrap().version(), 5);
    let args: &[&str] = &["euler", "--table", "FILE", "--format", "json"];
    assert!(answer(&v5, args, &judge) == answer(&v3, args, &judge));
    let r = run(&["verify", &file], "");
    assert_eq!(r.code, 0, "{}", r.stderr);
}
