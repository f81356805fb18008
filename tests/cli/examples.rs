//! The files in examples/ that the docs use: each judge's sample gives the
//! judge's published sample output (written here from the problem
//! statements), and examples/flip.c is the README's wrong solution.

use std::path::PathBuf;

use crate::common::ok;

/// A file of examples/.
fn example(name: &str) -> String {
    let path: PathBuf = [env!("CARGO_MANIFEST_DIR"), "..", "examples", name]
        .iter()
        .collect();
    path.to_str().expect("a UTF-8 path").to_owned()
}

#[test]
fn the_samples_give_the_judges_outputs() {
    let cases = [
        ("flip", "flip-sample.txt", "4\n"),
        ("euler", "euler-sample.txt", "LOSING\nWINNING\nLOSING\n"),
        (
            "carcassonne",
            "carcassonne-sample.txt",
            "Case 1: 4\nCase 2: 1\nCase 3: 1048576\n",
        ),
        (
            "fliptile",
            "fliptile-sample.txt",
            "0 0 0 0\n1 0 0 1\n1 0 0 1\n0 0 0 0\n",
        ),
        (
            "lightsout",
            "lightsout-sample.txt",
            "PUZZLE #1\n1 0 1 0 0 1\n1 1 0 1 0 1\n0 0 1 0 1 1\n1 0 0 1 0 0\n0 1 0 0 0 0\n\
             PUZZLE #2\n1 0 0 1 1 1\n1 1 0 0 0 0\n0 0 0 1 0 0\n1 1 0 1 0 1\n1 0 1 1 0 1\n",
        ),
    ];
    for (sub, file, expected) in cases {
        assert_eq!(ok(&[sub, &example(file)], ""), expected, "{sub} {file}");
    }
}

#[test]
fn the_wrong_solution_fails_as_the_readme_says() {
    let source = std::fs::read_to_string(example("flip.c")).expect("examples/flip.c");
    assert!(source.contains("int main(void)"));
    let readme = std::fs::read_to_string(example("../README.md")).expect("README.md");
    assert!(
        readme.contains(&source),
        "README.md shows examples/flip.c verbatim in a ```c block"
    );
}
