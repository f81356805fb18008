//! Absurd declared sizes and huge garbage lines fail fast, without
//! allocating for them, after the answers for the cases before them.
//!
//! Every run here is capped at 256 MiB of address space (`ulimit -v`), so a
//! size that decided an allocation (10^9 tiles is a gigabyte) would abort the
//! binary instead of passing, and must finish within [`FAST`] in a debug
//! build (they take milliseconds; the bound only guards against a scan or an
//! allocation proportional to the declared size).

use crate::common;

use std::time::{Duration, Instant};

/// Wall-time bound for every run (they take well under a second in debug).
const FAST: Duration = Duration::from_secs(5);

/// Address-space cap for the binary, in KiB (it needs a few MiB).
const ADDRESS_SPACE_KIB: u32 = 256 * 1024;

/// Runs `boardbase ARGS` under the address-space cap with `stdin` as its
/// input; returns (exit code, stdout, stderr) after checking the time bound.
fn run_capped(args: &[&str], stdin: Vec<u8>) -> (i32, String, String) {
    let start = Instant::now();
    // Killed by a signal (an allocation over the cap aborts): a panic.
    let r = common::run_capped(args, stdin, ADDRESS_SPACE_KIB);
    let elapsed = start.elapsed();
    assert!(elapsed < FAST, "{args:?} took {elapsed:?}");
    (r.code, r.stdout, r.stderr)
}

/// Asserts exit status 1, exactly `answers` on stdout and `error: <stdin>:`
/// followed by `error` on stderr.
fn assert_fails(args: &[&str], stdin: impl Into<Vec<u8>>, answers: &str, error: &str) {
    let (code, stdout, stderr) = run_capped(args, stdin.into());
    assert_eq!(stdout, answers, "{args:?}: stderr {stderr}");
    assert_eq!(stderr, format!("error: <stdin>:{error}\n"), "{args:?}");
    assert_eq!(code, 1, "{args:?}");
}

const FLIP_BOARD: &str = "bwwb\nbbwb\nbwwb\nbwww\n";
const EULER_BOARD: &str = "XXX.\nXXX.\n.XXX\n.XXX\n";
/// One 1×1 case, answering `Case 1: 4`.
const CARC_CASE: &str = "1 1\nRRRR\n";

/// `n` copies of `byte` with no newline: the 10 MB garbage line.
fn garbage(prefix: &str, byte: u8, n: usize) -> Vec<u8> {
    let mut v = prefix.as_bytes().to_vec();
    v.resize(v.len() + n, byte);
    v
}

const TEN_MB: usize = 10_000_000;

#[test]
fn euler_count_of_10_pow_18_with_one_board() {
    assert_fails(
        &["euler"],
        format!("1000000000000000000\n\n{EULER_BOARD}"),
        "LOSING\n",
        "7:1: expected another board (the case count asks for more), found end of input",
    );
    // Past u64: refused at the count itself.
    assert_fails(
        &["euler"],
        format!("18446744073709551616\n{EULER_BOARD}"),
        "",
        "1:1: expected a case count, found a number too large",
    );
}

#[test]
fn carcassonne_case_count_of_10_pow_18() {
    assert_fails(
        &["carcassonne"],
        format!("1000000000000000000\n{CARC_CASE}"),
        "Case 1: 4\n",
        "4:1: expected a number of rows N of at least 1, found end of input",
    );
}

#[test]
fn carcassonne_sides_of_10_pow_9() {
    assert_fails(
        &["carcassonne"],
        format!("2\n{CARC_CASE}1000000000 1000000000\n"),
        "Case 1: 4\n",
        "4:12: expected N and M with the narrower side at most 16, found 1000000000",
    );
    // Both sides just over the limit.
    assert_fails(
        &["carcassonne"],
        format!("2\n{CARC_CASE}17 17\n"),
        "Case 1: 4\n",
        "4:4: expected N and M with the narrower side at most 16, found 17",
    );
}

#[test]
fn carcassonne_10_pow_18_rows_of_one_column() {
    assert_fails(
        &["carcassonne"],
        format!("2\n{CARC_CASE}1000000000000000000 1\n"),
        "Case 1: 4\n",
        "4:21: expected at most 1048576 tiles (N × M), found 1000000000000000000",
    );
    // One tile over the cap.
    assert_fails(
        &["carcassonne"],
        format!("2\n{CARC_CASE}16 65537\n"),
        "Case 1: 4\n",
        "4:4: expected at most 1048576 tiles (N × M), found 1048592",
    );
}

#[test]
fn carcassonne_tile_count_overflowing_u64() {
    assert_fails(
        &["carcassonne"],
        format!("2\n{CARC_CASE}18446744073709551615 16\n"),
        "Case 1: 4\n",
        "4:22: expected at most 1048576 tiles (N × M), found a number too large",
    );
    // A side past u64 is refused where it is read.
    assert_fails(
        &["carcassonne"],
        format!("2\n{CARC_CASE}3 18446744073709551616\n"),
        "Case 1: 4\n",
        "4:3: expected a number of columns M of at least 1, found a number too large",
    );
}

#[test]
fn carcassonne_largest_declared_board_without_its_tiles() {
    // 2^20 tiles is allowed; declaring it allocates nothing in proportion.
    assert_fails(
        &["carcassonne"],
        format!("2\n{CARC_CASE}16 65536\nRRRR"),
        "Case 1: 4\n",
        "5:5: expected another tile (N × M in all), found end of input",
    );
}

#[test]
fn flip_ten_megabyte_garbage_line() {
    assert_fails(
        &["flip"],
        garbage(FLIP_BOARD, b'x', TEN_MB),
        "4\n",
        "5:1: expected 'b' or 'w', found 'x'",
    );
    // A row that never ends.
    assert_fails(
        &["flip"],
        garbage(FLIP_BOARD, b'b', TEN_MB),
        "4\n",
        "5:5: expected the end of the row after 4 cells, found 'b'",
    );
    // Blanks are skipped all the way to the end: no board, no answer.
    let (code, stdout, stderr) = run_capped(&["flip"], garbage("", b' ', TEN_MB));
    assert_eq!((code, stdout.as_str(), stderr.as_str()), (0, "", ""));
    // And the column after them is exact.
    let mut input = garbage("", b' ', TEN_MB);
    input.push(b'x');
    assert_fails(
        &["flip"],
        input,
        "",
        "1:10000001: expected 'b' or 'w', found 'x'",
    );
}

#[test]
fn euler_ten_megabyte_garbage_line() {
    // A count of ten million digits overflows at the 20th.
    assert_fails(
        &["euler"],
        garbage("", b'7', TEN_MB),
        "",
        "1:1: expected a case count, found a number too large",
    );
    assert_fails(
        &["euler"],
        garbage(&format!("2\n{EULER_BOARD}"), b'X', TEN_MB),
        "LOSING\n",
        "6:5: expected the end of the row after 4 cells, found 'X'",
    );
    assert_fails(
        &["euler"],
        garbage(&format!("1\n{EULER_BOARD}"), b'X', TEN_MB),
        "LOSING\n",
        "6:1: expected the end of the input after the last case, found 'X'",
    );
}

#[test]
fn carcassonne_ten_megabyte_garbage_line() {
    assert_fails(
        &["carcassonne"],
        garbage(&format!("2\n{CARC_CASE}"), b' ', TEN_MB),
        "Case 1: 4\n",
        "4:10000001: expected a number of rows N of at least 1, found end of input",
    );
    assert_fails(
        &["carcassonne"],
        garbage(&format!("2\n{CARC_CASE}"), b'R', TEN_MB),
        "Case 1: 4\n",
        "4:1: expected a number of rows N of at least 1, found 'R'",
    );
    // One tile code ten million letters long.
    let (code, stdout, stderr) = run_capped(
        &["carcassonne"],
        garbage(&format!("2\n{CARC_CASE}1 1\n"), b'C', TEN_MB),
    );
    assert_eq!((code, stdout.as_str()), (1, "Case 1: 4\n"), "{stderr}");
    let found = stderr
        .strip_prefix("error: <stdin>:5:1: expected a tile code (4 of 'C', 'R', 'F'), found ")
        .and_then(|s| s.strip_suffix(" characters\n"))
        .unwrap_or_else(|| panic!("{stderr}"));
    assert!(found.parse::<usize>().is_ok_and(|n| n > 4), "{stderr}");
}
