//! The files in examples/ that the docs use: each judge's sample gives the
//! judge's published sample output (`tests/oracle/samples.rs`, written
//! from the problem statements), and examples/flip.c is the guide's wrong solution (docs/guide.md).

use std::path::PathBuf;

use crate::common::ok;
use crate::oracle::samples;

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
        ("flip", "flip-sample.txt", samples::FLIP_ANSWER),
        ("euler", "euler-sample.txt", samples::EULER_ANSWER),
        (
            "carcassonne",
            "carcassonne-sample.txt",
            samples::CARCASSONNE_ANSWER,
        ),
        ("fliptile", "fliptile-sample.txt", samples::FLIPTILE_ANSWER),
        (
            "lightsout",
            "lightsout-sample.txt",
            samples::LIGHTS_OUT_ANSWER,
        ),
    ];
    for (sub, file, expected) in cases {
        assert_eq!(ok(&[sub, &example(file)], ""), expected, "{sub} {file}");
    }
}

#[test]
fn the_guide_shows_the_wrong_solution() {
    let source = std::fs::read_to_string(example("flip.c")).expect("examples/flip.c");
    assert!(source.contains("int main(void)"));
    let guide = std::fs::read_to_string(example("../docs/guide.md")).expect("docs/guide.md");
    assert!(
        guide.contains(&format!("```c\n{source}```\n")),
        "docs/guide.md shows examples/flip.c verbatim in a ```c block"
    );
}
