//! Checks of the Lights Out family's answers (`boardbase lights solve`,
//! `/api/v1/lights`) against the brute force of `tests/oracle/family.rs`,
//! shared by the CLI's and the server's tests: the variants tested, the
//! boards drawn, and one function that checks an answer object field by
//! field and replays its presses under the oracle's rules.
#![allow(dead_code)]

use serde_json::Value;

use crate::common::SplitMix;
use crate::oracle::family::{self as rules, BruteForce, Rules, Solution};

/// One variant: its shape, colours, torus or not, the `--pattern` of the
/// command line and the same pattern as the oracle's stencil.
#[derive(Clone, Copy, Debug)]
pub struct Variant {
    pub rows: usize,
    pub cols: usize,
    pub k: u8,
    pub wrap: bool,
    pub pattern: &'static str,
    pub stencil: &'static str,
}

impl Variant {
    pub const fn new(
        rows: usize,
        cols: usize,
        k: u8,
        wrap: bool,
        pattern: &'static str,
        stencil: &'static str,
    ) -> Variant {
        Variant {
            rows,
            cols,
            k,
            wrap,
            pattern,
            stencil,
        }
    }

    /// The oracle's rules.
    pub fn rules(&self) -> Rules {
        Rules::new(self.rows, self.cols, self.k, self.wrap, self.stencil)
    }

    /// `RxC`.
    pub fn size(&self) -> String {
        format!("{}x{}", self.rows, self.cols)
    }

    /// The variant's options of `boardbase lights`, `--size` included.
    pub fn args(&self) -> Vec<String> {
        let mut args = vec![
            "--size".to_owned(),
            self.size(),
            "--colours".to_owned(),
            self.k.to_string(),
            "--pattern".to_owned(),
            self.pattern.to_owned(),
        ];
        if self.wrap {
            args.push("--wrap".to_owned());
        }
        args
    }

    /// The variant's query parameters of `/api/v1/lights`.
    pub fn query(&self) -> String {
        format!(
            "colours={}&wrap={}&pattern={}",
            self.k,
            self.wrap,
            self.pattern.replace('#', "%23")
        )
    }
}

/// The variants tested: every preset pattern with and without wrap, K = 2
/// to 6, the knight and a lopsided stencil (the cell, the one to its right
/// and the one below-left: not symmetric, so a stencil read upside down
/// fails); each small enough for the brute force.
pub const VARIANTS: [Variant; 14] = [
    Variant::new(3, 3, 2, false, "plus", rules::PLUS),
    Variant::new(3, 4, 2, true, "plus", rules::PLUS),
    Variant::new(2, 3, 3, false, "plus", rules::PLUS),
    Variant::new(3, 3, 3, true, "neighbours", rules::NEIGHBOURS),
    Variant::new(2, 4, 4, false, "x", rules::X),
    Variant::new(3, 3, 2, true, "x", rules::X),
    Variant::new(2, 3, 4, true, "king", rules::KING),
    Variant::new(3, 3, 3, false, "king", rules::KING),
    Variant::new(1, 6, 5, false, "neighbours", rules::NEIGHBOURS),
    Variant::new(2, 2, 6, true, "plus", rules::PLUS),
    Variant::new(2, 3, 6, false, "neighbours", rules::NEIGHBOURS),
    Variant::new(
        3,
        4,
        2,
        false,
        ".#.#./#...#/...../#...#/.#.#.",
        rules::KNIGHT,
    ),
    Variant::new(3, 3, 3, false, ".../.##/#..", ".../.##/#.."),
    Variant::new(4, 4, 2, false, "plus", rules::PLUS),
];

/// Up to `n` boards of the variant: every board when there are at most
/// `n`, else `n` drawn (the all-0 board and the all-(K−1) board first).
pub fn boards(v: &Variant, n: usize, seed: u64) -> Vec<Vec<u8>> {
    let cells = v.rows * v.cols;
    let total = u64::from(v.k).checked_pow(cells as u32).unwrap_or(u64::MAX);
    if total <= n as u64 {
        return (0..total)
            .map(|mut i| {
                (0..cells)
                    .map(|_| {
                        let d = (i % u64::from(v.k)) as u8;
                        i /= u64::from(v.k);
                        d
                    })
                    .collect()
            })
            .collect();
    }
    let mut rng = SplitMix(seed);
    let mut out = vec![vec![0; cells], vec![v.k - 1; cells]];
    while out.len() < n {
        out.push(
            (0..cells)
                .map(|_| (rng.next() % u64::from(v.k)) as u8)
                .collect(),
        );
    }
    out
}

/// A cell's digit (`a` to `f` past 9).
pub fn digit(d: u8) -> char {
    char::from_digit(u32::from(d), 16).expect("a colour below 16")
}

/// A board as the input's lines (one digit a cell, `\n` after each row).
pub fn lines(board: &[u8], cols: usize) -> String {
    let mut s = String::new();
    for row in board.chunks(cols) {
        s.extend(row.iter().map(|&d| digit(d)));
        s.push('\n');
    }
    s
}

/// The boards of `text`, input as [`lines`] writes it (blank lines
/// skipped), `v.rows` lines a board.
pub fn parse_boards(text: &str, v: &Variant) -> Vec<Vec<u8>> {
    let rows: Vec<&str> = text.lines().filter(|l| !l.is_empty()).collect();
    assert_eq!(rows.len() % v.rows, 0, "{text}");
    rows.chunks(v.rows)
        .map(|b| {
            b.iter()
                .flat_map(|r| r.chars().map(|c| c.to_digit(16).expect("a digit") as u8))
                .collect()
        })
        .collect()
}

/// A board as one string, rows separated by `/`.
pub fn rows(board: &[u8], cols: usize) -> String {
    board
        .chunks(cols)
        .map(|row| row.iter().map(|&d| digit(d)).collect::<String>())
        .collect::<Vec<_>>()
        .join("/")
}

/// The goals tested and the oracle's answer for each.
pub fn oracle_answer(brute: &BruteForce, board: &[u8], goal: &str) -> Option<Solution> {
    match goal {
        "any" => brute.to_any(board),
        d => brute.to_colour(board, d.parse().expect("a colour")),
    }
}

/// The press vector of a `presses` list (a cell listed once a press).
pub fn press_counts(presses: &Value, v: &Variant) -> Vec<u8> {
    let mut counts = vec![0u8; v.rows * v.cols];
    for cell in presses.as_array().expect("presses is a list") {
        let (r, c) = (
            cell[0].as_u64().expect("row") as usize,
            cell[1].as_u64().expect("col") as usize,
        );
        assert!(r < v.rows && c < v.cols, "{cell} is off the board");
        counts[r * v.cols + c] += 1;
    }
    counts
}

/// Asserts that a solve object (a line of `lights solve --format json`,
/// or `/api/v1/lights` without `moves`) answers `board` towards `goal`
/// as the brute force does, and that its presses, replayed under the
/// oracle's rules, reach the colour it names.
pub fn check_answer(
    object: &Value,
    v: &Variant,
    brute: &BruteForce,
    case: u64,
    board: &[u8],
    goal: &str,
) {
    let what = format!("{v:?} board {} goal {goal}", rows(board, v.cols));
    assert_eq!(object["case"], case, "{what}");
    assert_eq!(object["board"], rows(board, v.cols), "{what}");
    assert_eq!(object["colours"], v.k, "{what}");
    assert_eq!(object["wrap"], v.wrap, "{what}");
    assert_eq!(object["pattern"], v.pattern, "{what}");
    let expected_goal: Value = match goal {
        "any" => "any".into(),
        d => d.parse::<u8>().expect("a colour").into(),
    };
    assert_eq!(object["goal"], expected_goal, "{what}");
    match oracle_answer(brute, board, goal) {
        None => {
            assert_eq!(object["solvable"], false, "{what}");
            assert_eq!(object["rounds"], Value::Null, "{what}");
            assert_eq!(object["presses"], Value::Null, "{what}");
            assert_eq!(object["optimal_sets"], 0, "{what}");
            assert_eq!(object["colour"], Value::Null, "{what}");
        }
        Some(s) => {
            assert_eq!(object["solvable"], true, "{what}");
            assert_eq!(object["rounds"], s.rounds, "{what}");
            assert_eq!(object["optimal_sets"], s.count, "{what}");
            assert_eq!(object["colour"], s.colour, "{what}");
            let list = object["presses"].as_array().expect("presses");
            assert_eq!(list.len(), s.rounds, "{what}: one entry a press");
            let counts = press_counts(&object["presses"], v);
            // In reading order, a cell pressed j times listed j times.
            let mut sorted = list.clone();
            sorted.sort_by_key(|c| (c[0].as_u64(), c[1].as_u64()));
            assert_eq!(&sorted, list, "{what}: presses in reading order");
            assert_eq!(counts, s.presses, "{what}: the tie rule's vector");
            let after = v.rules().apply(board, &counts);
            assert!(
                after.iter().all(|&c| c == s.colour),
                "{what}: replayed, the presses leave {after:?}"
            );
        }
    }
}
