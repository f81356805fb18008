//! A judge's whole input answered through the answer layer
//! (`FlipAnswers::judge_lines`, `EulerAnswers::judge_lines`), from every
//! source (the embedded tables, a table file written from the oracle's
//! columns, a table made in memory, the GF(2) solver), against the
//! oracle's tables: every 4×4 board, every board of smaller shapes, and
//! the errors that stop a stream after the answers before them.

use boardbase::input::Scanner;
use boardbase::tablebase::{EulerAnswers, FlipAnswers, Origin, StreamError, Tablebase};
use boardbase::tablefile::Table;
use boardbase::tables::shape::Shape;

use crate::common::TempDir;
use crate::oracle::euler;
use crate::oracle::tables::{Euler, Flip, solve_euler};

/// `board` (cell (r, c) at bit `C·r + c`) as the judge writes it.
fn board_text(shape: Shape, board: u64, zero: char, one: char, out: &mut String) {
    for r in 0..shape.rows() {
        for c in 0..shape.cols() {
            out.push(if board >> (r * shape.cols() + c) & 1 == 1 {
                one
            } else {
                zero
            });
        }
        out.push('\n');
    }
}

/// The answers of `input`'s boards, as text, and the stream's end.
fn flip_lines(answers: &FlipAnswers, input: &str) -> (String, Result<u64, StreamError<()>>) {
    let mut out = Vec::new();
    let end = answers.judge_lines(&mut Scanner::new(input.as_bytes()), |line, len| {
        out.extend_from_slice(&line[..len]);
        Ok(())
    });
    (String::from_utf8(out).expect("ASCII"), end)
}

/// The oracle's judge answers of every board of `shape`, in order.
fn flip_oracle_lines(shape: Shape) -> String {
    Flip::solve(shape)
        .fewest()
        .iter()
        .map(|r| match r {
            Some(r) => format!("{r}\n"),
            None => "Impossible\n".to_owned(),
        })
        .collect()
}

/// Every board of `shape`, in order, some after a blank line (the judges'
/// separator).
fn every_flip_board(shape: Shape) -> String {
    let mut input = String::new();
    for board in 0..=shape.full() {
        if board % 3 == 0 {
            input.push('\n');
        }
        board_text(shape, board, 'w', 'b', &mut input);
    }
    input
}

#[test]
fn flip_every_4x4_board_from_the_embedded_tables_and_from_a_file() {
    let s = Shape::SQUARE4;
    let (input, want) = (every_flip_board(s), flip_oracle_lines(s));
    let embedded = Tablebase::new().flip_answers(s).unwrap();
    assert_eq!(embedded.table().unwrap().origin, Origin::Embedded);
    let (got, end) = flip_lines(&embedded, &input);
    assert_eq!(end.unwrap(), 1 << 16);
    assert!(
        got == want,
        "embedded: the answers differ from the oracle's"
    );

    // A table file written from the oracle's own columns.
    let dir = TempDir::new("stream-flip-4x4");
    let path = dir.join("flip-4x4.bin");
    Table::from_flip(s, Flip::solve(s).columns())
        .unwrap()
        .write(&path, &mut |_| {})
        .unwrap();
    let mut tablebase = Tablebase::new();
    tablebase.set_table(&path);
    let file = tablebase.flip_answers(s).unwrap();
    assert_eq!(file.table().unwrap().origin, Origin::File(path.clone()));
    let (got, end) = flip_lines(&file, &input);
    assert_eq!(end.unwrap(), 1 << 16);
    assert!(got == want, "file: the answers differ from the oracle's");
}

#[test]
fn flip_every_board_of_smaller_shapes_by_gf2() {
    for s in [(1, 1), (2, 3), (3, 3), (3, 4), (2, 7), (1, 12)] {
        let s = Shape::new(s.0, s.1).unwrap();
        let answers = Tablebase::new().flip_answers(s).unwrap();
        assert!(answers.table().is_none(), "{s}: the GF(2) solver answers");
        let (got, end) = flip_lines(&answers, &every_flip_board(s));
        assert_eq!(end.unwrap(), 1 << s.cells(), "{s}");
        assert_eq!(got, flip_oracle_lines(s), "{s}");
    }
}

#[test]
fn flip_answers_before_a_bad_board_are_given_then_its_place() {
    for (size, boards) in [
        ("4x4", "bwwb\nbbwb\nbwwb\nbwww\n\nbwbw\nwwww\nbbxb\nbwwb\n"),
        ("3x3", "bbb\nwww\nbbb\n\nbwb\nwxw\n"),
    ] {
        let s = Shape::parse(size).unwrap();
        let answers = Tablebase::new().flip_answers(s).unwrap();
        let (got, end) = flip_lines(&answers, boards);
        let first = &flip_oracle_lines(s);
        let first_board = if size == "4x4" { 0x19B9 } else { 0b111_000_111 };
        let want = first.lines().nth(first_board).unwrap();
        assert_eq!(got, format!("{want}\n"), "{size}");
        match end {
            Err(StreamError::Input(e)) => {
                let at = if size == "4x4" { "8:3" } else { "6:2" };
                assert!(e.to_string().starts_with(at), "{size}: {e}");
                assert!(e.to_string().contains("found 'x'"), "{size}: {e}");
            }
            other => panic!("{size}: {other:?}"),
        }
    }
}

/// The answers of `count` positions of `input`, as text, and the end.
fn euler_lines(
    answers: &EulerAnswers<'_>,
    count: u64,
    input: &str,
) -> (String, Result<(), StreamError<()>>) {
    let mut out = Vec::new();
    let end = answers.judge_lines(count, &mut Scanner::new(input.as_bytes()), |line, len| {
        out.extend_from_slice(&line[..len]);
        Ok(())
    });
    (String::from_utf8(out).expect("ASCII"), end)
}

/// Every position of `shape` after a blank line, and the oracle's answers.
fn every_euler_position(shape: Shape) -> (String, String) {
    let moves: Vec<u64> = euler::moves(shape.rows(), shape.cols())
        .into_iter()
        .collect();
    let (wins, _) = solve_euler(shape, &moves);
    let mut input = String::new();
    for position in 0..=shape.full() {
        input.push('\n');
        board_text(shape, position, '.', 'X', &mut input);
    }
    let want = wins
        .iter()
        .map(|&w| if w { "WINNING\n" } else { "LOSING\n" })
        .collect();
    (input, want)
}

#[test]
fn euler_every_position_from_the_embedded_tables_a_file_and_a_table_made() {
    let tablebase = Tablebase::new();
    for (s, origin) in [
        (Shape::SQUARE4, Origin::Embedded),
        (Shape::new(3, 4).unwrap(), Origin::Made),
    ] {
        let (input, want) = every_euler_position(s);
        let found = tablebase.euler_answers(s, |_| {}).unwrap();
        assert_eq!(found.origin, origin, "{s}");
        let (got, end) = euler_lines(&EulerAnswers::new(&found).unwrap(), 1 << s.cells(), &input);
        end.unwrap();
        assert!(
            got == want,
            "{s} {origin}: the answers differ from the oracle's"
        );
    }
    // A win/loss file of 2×5 written from the oracle's own columns.
    let s = Shape::new(2, 5).unwrap();
    let dir = TempDir::new("stream-euler-2x5");
    let path = dir.join("euler-2x5.bin");
    Table::from_euler(s, Euler::solve(s).columns(true))
        .unwrap()
        .write(&path, &mut |_| {})
        .unwrap();
    let mut tablebase = Tablebase::new();
    tablebase.set_table(&path);
    let found = tablebase.euler_answers(s, |_| {}).unwrap();
    let (input, want) = every_euler_position(s);
    let (got, end) = euler_lines(&EulerAnswers::new(&found).unwrap(), 1 << s.cells(), &input);
    end.unwrap();
    assert_eq!(got, want);
}

#[test]
fn euler_a_count_past_the_positions_is_an_error_after_their_answers() {
    let tablebase = Tablebase::new();
    for s in [Shape::SQUARE4, Shape::new(3, 4).unwrap()] {
        let found = tablebase.euler_answers(s, |_| {}).unwrap();
        let answers = EulerAnswers::new(&found).unwrap();
        let mut input = String::from("\n");
        board_text(s, s.full(), '.', 'X', &mut input);
        let (got, end) = euler_lines(&answers, 2, &input);
        // The full board: the opponent covered the last square.
        assert_eq!(got, "WINNING\n", "{s}");
        match end {
            Err(StreamError::Input(e)) => assert!(
                e.to_string().ends_with(
                    "expected another board (the case count asks for more), found end of input"
                ),
                "{s}: {e}"
            ),
            other => panic!("{s}: {other:?}"),
        }
    }
}

#[test]
fn euler_answers_refuse_a_flip_table() {
    let flip = Tablebase::new().flip_answers(Shape::SQUARE4).unwrap();
    let found = flip.table().unwrap();
    match EulerAnswers::new(found) {
        Err(e) => assert!(e.to_string().contains("flip"), "{e}"),
        Ok(_) => panic!("a Flip table read as Euler's"),
    }
}
