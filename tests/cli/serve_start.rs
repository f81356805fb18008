//! `boardbase serve` as it starts: the address it refuses and the report
//! of what answers what (the server's answers: tests/serve).

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use crate::common::{TempDir, binary, run, run_env};

#[test]
fn a_port_past_65535_is_said_to_be_out_of_range() {
    for (bind, message) in [
        (
            "127.0.0.1:99999",
            "port 99999 is out of range: a port is a number from 0 to 65535 (0 picks a free port)",
        ),
        (
            "localhost:65536",
            "port 65536 is out of range: a port is a number from 0 to 65535 (0 picks a free port)",
        ),
        (
            "127.0.0.1:http",
            "expected HOST:PORT (e.g. 127.0.0.1:8080 or localhost:8080), found \"127.0.0.1:http\"",
        ),
        (
            "127.0.0.1",
            "expected HOST:PORT (e.g. 127.0.0.1:8080 or localhost:8080), found \"127.0.0.1\"",
        ),
    ] {
        let r = run(&["serve", "--bind", bind], "");
        assert_eq!(r.code, 2, "{bind}: {}", r.stderr);
        assert!(
            r.stderr.starts_with(&format!(
                "error: invalid value '{bind}' for '--bind <HOST:PORT>': {message}\n"
            )),
            "{bind}: {}",
            r.stderr
        );
        assert_eq!(r.stdout, "");
    }
}

/// The lines `boardbase serve ARGS` writes on standard output up to the
/// `euler:` line, which ends its report; the server is then stopped.
fn report(args: &[&str]) -> Vec<String> {
    let mut child = Command::new(binary())
        .arg("serve")
        .args(["--bind", "127.0.0.1:0"])
        .args(args)
        .env_remove("BOARDBASE_TABLES")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the server starts");
    let mut lines = Vec::new();
    for line in BufReader::new(child.stdout.take().expect("piped")).lines() {
        let line = line.expect("a line");
        let last = line.starts_with("euler:");
        lines.push(line);
        if last {
            break;
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    lines
}

#[test]
fn the_report_names_table_files_only_when_there_are_some() {
    let lines = report(&[]);
    assert!(
        lines[0].starts_with("boardbase serve: listening on http://127.0.0.1:"),
        "{lines:?}"
    );
    assert_eq!(
        lines[1..],
        [
            "tables: none (no --tables DIR, no BOARDBASE_TABLES)",
            "flip: 4x4 embedded, any other size up to 64x64 by GF(2) (nullity up to 24)",
            "euler: 4x4 embedded, others of up to 25 squares made in memory on first use (up to 512 MiB)",
        ]
    );
    let lines = report(&["--make-memory", "0", "--max-nullity", "7"]);
    assert_eq!(
        lines[2..],
        [
            "flip: 4x4 embedded, any other size up to 64x64 by GF(2) (nullity up to 7)",
            "euler: 4x4 embedded; none made in memory (--make-memory 0)",
        ]
    );

    // A directory with a Flip 2x3 table and the 4x4 ones (which the
    // embedded tables answer): table files answer Flip, not Euler.
    let dir = TempDir::new("serve-start-tables");
    let r = run_env(&["generate", "flip", "2x3", "--dir", dir.path()], "", None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(run(&["export", dir.path()], "").code, 0);
    let lines = report(&["--tables", dir.path()]);
    let d = dir.path();
    assert_eq!(
        lines[1..],
        [
            format!("tables: looked in {d}"),
            format!("  {d}/flip-2x3.bin: flip 2x3"),
            format!("  {d}/flip-4x4.bin: not used (4x4 is answered by the embedded tables)"),
            format!("  {d}/euler-4x4.bin: not used (4x4 is answered by the embedded tables)"),
            "flip: 4x4 embedded, table files above, any other size up to 64x64 by GF(2) (nullity up to 24)".to_owned(),
            "euler: 4x4 embedded, others of up to 25 squares made in memory on first use (up to 512 MiB)".to_owned(),
        ]
    );
    // An Euler table too: both say so.
    let r = run_env(&["generate", "euler", "2x3", "--dir", dir.path()], "", None);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let lines = report(&["--tables", dir.path()]);
    assert!(
        lines.ends_with(&[
            "flip: 4x4 embedded, table files above, any other size up to 64x64 by GF(2) (nullity up to 24)".to_owned(),
            "euler: 4x4 embedded, table files above, others of up to 25 squares made in memory on first use (up to 512 MiB)".to_owned(),
        ]),
        "{lines:?}"
    );
}
