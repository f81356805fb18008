//! The Fliptile and Lights Out readers (`lights::read_fliptile_case`,
//! `read_lights_out_*`, `Scanner::read_spaced_row`) on generated input:
//!
//! - valid cases with any spacing read back to the boards they were written
//!   from;
//! - any text reads the same through the CLI's 256 KiB buffer and through
//!   the smallest buffer fed 1 to 7 bytes a read (so the fast path for
//!   canonical rows and the general path agree), and every error points at
//!   a line and column where what it says it found is.

use std::io::{self, Read};

use boardbase::error::Found;
use boardbase::input::{InputError, Scanner};
use boardbase::lights::{self, Grid};
use boardbase::tables::shape::Shape;
use proptest::prelude::*;

/// Hands out the input a few bytes a read, sizes cycling through `steps`.
struct Dribble {
    data: Vec<u8>,
    pos: usize,
    steps: Vec<usize>,
    k: usize,
}

impl Read for Dribble {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let step = self.steps[self.k % self.steps.len()];
        self.k += 1;
        let n = step.min(buf.len()).min(self.data.len() - self.pos);
        buf[..n].copy_from_slice(&self.data[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

/// The CLI's loop: cases until the end of the input or an error.
fn read_all<R: Read>(mut s: Scanner<R>) -> (Vec<(Grid, u64)>, Option<String>) {
    let mut cases = Vec::new();
    loop {
        match lights::read_fliptile_case(&mut s) {
            Ok(Some(c)) => cases.push((c.board, c.line)),
            Ok(None) => return (cases, None),
            Err(e) => return (cases, Some(e.to_string())),
        }
    }
}

fn parse_error(text: &[u8]) -> Option<boardbase::error::ParseError> {
    let mut s = Scanner::new(text);
    loop {
        match lights::read_fliptile_case(&mut s) {
            Ok(Some(_)) => {}
            Ok(None) => return None,
            Err(InputError::Parse(e)) => return Some(e),
            Err(e) => panic!("an I/O error from a slice: {e}"),
        }
    }
}

/// Checks that `found` is at (`line`, `column`) of `text`.
fn assert_points_at(text: &[u8], e: &boardbase::error::ParseError) {
    let lines: Vec<&[u8]> = text.split(|&b| b == b'\n').collect();
    let line = lines
        .get(e.line as usize - 1)
        .unwrap_or_else(|| panic!("line {} of {}: {e}", e.line, lines.len()));
    let at = &line[(e.column as usize - 1).min(line.len())..];
    assert!(
        e.column as usize - 1 <= line.len(),
        "{e}: column past the line"
    );
    match e.found {
        Found::Char(c) => {
            let mut buf = [0; 4];
            assert!(at.starts_with(c.encode_utf8(&mut buf).as_bytes()), "{e}");
        }
        Found::EndOfLine => {
            assert!(at.is_empty() || at == b"\r", "{e}: {at:?}");
            assert!((e.line as usize) < lines.len(), "{e}: a line end follows");
        }
        Found::BlankLine => assert!(at.iter().all(|b| b" \t\r".contains(b)), "{e}"),
        Found::EndOfInput => {
            assert_eq!(e.line as usize, lines.len(), "{e}");
            assert!(at.iter().all(|b| b" \t\r".contains(b)), "{e}: {at:?}");
        }
        Found::Number(n) => {
            let digits: String = at
                .iter()
                .take_while(|b| b.is_ascii_digit())
                .map(|&b| char::from(b))
                .collect();
            assert_eq!(digits.parse::<u64>().ok(), Some(n), "{e}");
        }
        Found::NumberTooLarge => assert!(at.first().is_some_and(u8::is_ascii_digit), "{e}"),
        Found::Byte(_) | Found::Word { .. } | Found::Described(_) => {
            panic!("not made by these readers: {e}")
        }
    }
}

/// Pieces of text that make cases, near-cases and garbage.
fn piece() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "0", "1", "0", "1", " ", " ", "  ", "\t", "\n", "\n", "\r\n", "2", "x", "01", "1 1\n",
        "2 3\n", "3 2\n", "1 4\n", "0 ", "1 ", "65 1", "\u{e9}",
    ])
}

/// A well-formed case with random spacing: its text and its board.
fn valid_case() -> impl Strategy<Value = (String, Grid)> {
    (1usize..=7, 1usize..=7, any::<u64>(), any::<u64>()).prop_map(|(rows, cols, bits, style)| {
        let shape = Shape::new(rows, cols).unwrap();
        let row_bits: Vec<u64> = (0..rows)
            .map(|r| (bits >> (r * 7 % 57)) & shape.row_mask())
            .collect();
        let board = Grid::from_rows(shape, &row_bits).unwrap();
        let gap = |i: usize| match (style >> (i % 60)) & 3 {
            0 | 1 => " ",
            2 => "  ",
            _ => "\t",
        };
        let end = if style & 1 == 1 { "\r\n" } else { "\n" };
        let mut text = format!("{}{rows}{}{cols}{end}", gap(1).trim(), gap(2));
        for (r, &b) in row_bits.iter().enumerate() {
            let cells: Vec<String> = (0..cols).map(|c| (b >> c & 1).to_string()).collect();
            let mut line = String::new();
            for (c, cell) in cells.iter().enumerate() {
                if c > 0 {
                    line.push_str(gap(r * 8 + c));
                }
                line.push_str(cell);
            }
            text.push_str(&line);
            text.push_str(end);
        }
        (text, board)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn valid_cases_read_back(cases in prop::collection::vec(valid_case(), 1..6), blank in 0usize..3) {
        let text: String = cases
            .iter()
            .map(|(t, _)| format!("{t}{}", "\n".repeat(blank)))
            .collect();
        let (read, error) = read_all(Scanner::new(text.as_bytes()));
        prop_assert_eq!(error, None);
        let boards: Vec<&Grid> = read.iter().map(|(b, _)| b).collect();
        let expected: Vec<&Grid> = cases.iter().map(|(_, b)| b).collect();
        prop_assert_eq!(boards, expected);
    }

    #[test]
    fn any_text_reads_alike_through_any_buffer(
        pieces in prop::collection::vec(piece(), 0..80),
        steps in prop::collection::vec(1usize..8, 1..5),
    ) {
        let text: String = pieces.concat();
        let big = read_all(Scanner::new(text.as_bytes()));
        let small = read_all(Scanner::with_capacity(
            Dribble { data: text.clone().into_bytes(), pos: 0, steps, k: 0 },
            1,
        ));
        prop_assert_eq!(&big, &small);
        if let Some(e) = parse_error(text.as_bytes()) {
            assert_points_at(text.as_bytes(), &e);
        }
        // Every board read prints back as a case that reads to it.
        for (board, _) in &big.0 {
            let s = board.shape();
            let mut again = format!("{} {}\n", s.rows(), s.cols());
            for line in board.show('1', '0').to_string().lines() {
                let cells: Vec<String> = line.chars().map(String::from).collect();
                again.push_str(&cells.join(" "));
                again.push('\n');
            }
            let (one, error) = read_all(Scanner::new(again.as_bytes()));
            prop_assert_eq!(error, None);
            prop_assert_eq!(&one[0].0, board);
        }
    }

    #[test]
    fn lights_out_puzzles_read_alike_through_any_buffer(
        pieces in prop::collection::vec(piece(), 0..80),
        steps in prop::collection::vec(1usize..8, 1..5),
    ) {
        let text = format!("3\n{}", pieces.concat());
        let run = |mut s: Scanner<Box<dyn Read>>| {
            let mut out = Vec::new();
            let mut count = match lights::read_lights_out_count(&mut s) {
                Ok(n) => n,
                Err(e) => return (out, Some(e.to_string())),
            };
            while count > 0 {
                match lights::read_lights_out_puzzle(&mut s) {
                    Ok(b) => out.push(b),
                    Err(e) => return (out, Some(e.to_string())),
                }
                count -= 1;
            }
            (out, s.expect_end().err().map(|e| e.to_string()))
        };
        let big = run(Scanner::new(Box::new(io::Cursor::new(text.clone().into_bytes()))));
        let small = run(Scanner::with_capacity(
            Box::new(Dribble { data: text.into_bytes(), pos: 0, steps, k: 0 }),
            1,
        ));
        prop_assert_eq!(big, small);
    }
}

#[test]
fn a_spaced_row_of_64_cells() {
    let row: Vec<&str> = (0..64)
        .map(|c| if c % 3 == 0 { "1" } else { "0" })
        .collect();
    let text = format!("1 64\n{}\n", row.join(" "));
    for capacity in [1, 200, 1 << 18] {
        let mut s = Scanner::with_capacity(text.as_bytes(), capacity);
        let case = lights::read_fliptile_case(&mut s).unwrap().unwrap();
        let expected = (0..64).filter(|c| c % 3 == 0).fold(0u64, |m, c| m | 1 << c);
        assert_eq!(case.board.rows(), [expected], "capacity {capacity}");
    }
}
