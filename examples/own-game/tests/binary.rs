//! The `kayles` binary as docs/library.md shows it: the start, a position,
//! and a bad one (exit 2, its column).

use std::process::Command;

fn kayles(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_kayles"))
        .args(args)
        .output()
        .expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn the_runs_of_the_docs() {
    assert_eq!(
        kayles(&[]),
        (
            0,
            "IIIIIIIIIIIIIIII: win in 13, best move 2-3\n".into(),
            String::new()
        )
    );
    assert_eq!(
        kayles(&["III.IIIIIIIIIIII"]),
        (
            0,
            "III.IIIIIIIIIIII: win in 13, best move 6\n".into(),
            String::new()
        )
    );
    assert_eq!(
        kayles(&["................"]),
        (0, "................: lose in 0\n".into(), String::new())
    );
    assert_eq!(
        kayles(&["III-"]),
        (
            2,
            String::new(),
            "error: position:1:4: expected 'I' or '.', found '-'\n".into()
        )
    );
}
