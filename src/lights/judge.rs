//! The judges' text formats of [`lights`](super): POJ 3279 ("Fliptile")
//! cases, POJ 1222 / UVA 1560 (Extended Lights Out) puzzles, and the rows
//! of `0`/`1` both print.

use std::io::{self, Read, Write};
use std::time::Duration;

use boardbase_tables::shape::{MAX_SIDE, Shape};

use super::grid::Grid;
use crate::catalogue::entry::{MB, Problem};
use crate::error::{Found, ParseError};
use crate::grid::Alphabet;
use crate::input::{InputError, Scanner};

/// The cells of both judges' boards: `0` white (off), `1` black (on).
pub const CELLS: Alphabet = Alphabet::new(b'0', b'1', "'0' or '1'");

/// One case of POJ 3279's input, with the line where its `M N` stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FliptileCase {
    /// The tiles, set = black (`1`).
    pub board: Grid,
    /// 1-based line of `M N`.
    pub line: u64,
}

/// What an input without a single Fliptile case lacks (for the error).
pub const NO_FLIPTILE_CASE: &str = "a case: the numbers of rows M and columns N";

/// POJ 3279 ("Fliptile"): one board an input, the fewest flips as a grid of
/// presses or `IMPOSSIBLE`.
pub static POJ_3279: Problem = Problem {
    command: "fliptile",
    judge: "POJ 3279",
    time_limit: Duration::from_secs(2),
    memory_limit: 64 * MB,
    noun: ("board", "boards"),
    max_cases: 1,
    limits: "allows 1 ≤ M, N ≤ 15",
};

/// POJ 1222 (Extended Lights Out, also UVA 1560): 5×6 puzzles after a
/// count, the presses of each. Its memory limit is 10,000 KB.
pub static POJ_1222: Problem = Problem {
    command: "lightsout",
    judge: "POJ 1222",
    time_limit: Duration::from_secs(1),
    memory_limit: 10_000 * 1024,
    noun: ("puzzle", "puzzles"),
    max_cases: usize::MAX,
    limits: "",
};

/// Reads one case of POJ 3279 ("Fliptile"): `M N` on one line (each 1 to
/// 64; blank lines before it are skipped), then M rows of N cells `0`/`1`,
/// one row a line, cells separated by blanks (blank lines before the first
/// row are skipped; see [`Scanner::read_spaced_row`]). `Ok(None)` when only
/// whitespace is left. The sizes are checked before any row is read, and the
/// board is a fixed-size [`Grid`]: nothing is allocated.
///
/// ```
/// use boardbase::input::Scanner;
/// use boardbase::lights::{self, Goal};
///
/// let mut input = Scanner::new("2 3\n1 1 0\n1 0 0\n".as_bytes());
/// let case = lights::read_fliptile_case(&mut input)?.expect("one case");
/// assert_eq!((case.board.to_string(), case.line), ("bbw\nbww".to_owned(), 1));
/// let a = lights::solve(&case.board, Goal::White)?.expect("solvable");
/// assert_eq!(a.presses.show('1', '0').to_string(), "100\n000");
/// assert!(lights::read_fliptile_case(&mut input)?.is_none());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn read_fliptile_case<R: Read>(
    scanner: &mut Scanner<R>,
) -> Result<Option<FliptileCase>, InputError> {
    if !scanner.skip_blank_lines()? {
        return Ok(None);
    }
    let line = scanner.position().0;
    let rows = read_side(scanner, "a number of rows M from 1 to 64", false)?;
    let cols = read_side(scanner, "a number of columns N from 1 to 64", true)?;
    scanner.end_of_line("the end of the line after M and N")?;
    let shape = Shape::new(rows, cols).expect("sides checked");
    let mut board = Grid::new(shape);
    scanner.skip_blank_lines()?;
    for row in board.rows_mut() {
        *row = scanner.read_spaced_row(&CELLS, cols, "a row of N cells, '0' or '1'")?;
    }
    Ok(Some(FliptileCase { board, line }))
}

/// Reads M or N: from 1 to 64, N on the line of M.
fn read_side<R: Read>(
    scanner: &mut Scanner<R>,
    what: &'static str,
    on_line: bool,
) -> Result<usize, InputError> {
    if on_line {
        scanner.skip_inline_blanks()?;
    } else {
        scanner.skip_whitespace()?;
    }
    let (line, column) = scanner.position();
    let n = scanner.read_unsigned_on_line(what, u64::MAX)?;
    if (1..=MAX_SIDE as u64).contains(&n) {
        return Ok(n as usize);
    }
    Err(ParseError {
        line,
        column,
        expected: what,
        found: Found::Number(n),
    }
    .into())
}

/// The 5×6 board of Extended Lights Out (POJ 1222, UVA 1560): nullity 0,
/// so every board has exactly one solution.
pub const LIGHTS_OUT: Shape = match Shape::new(5, 6) {
    Some(s) => s,
    None => panic!("5×6 is a shape"),
};

/// Reads the puzzle count of Extended Lights Out, alone on its line.
pub fn read_lights_out_count<R: Read>(scanner: &mut Scanner<R>) -> Result<u64, InputError> {
    let count = scanner.read_unsigned("a puzzle count", u64::MAX)?;
    scanner.end_of_line("the end of the line after the puzzle count")?;
    Ok(count)
}

/// Reads one puzzle of Extended Lights Out: 5 rows of six lights `0`/`1`
/// separated by blanks, blank lines before it skipped. Running out of input
/// is an error: the count promised one more.
///
/// ```
/// use boardbase::input::Scanner;
/// use boardbase::lights::{self, Goal};
///
/// let text = "1\n0 1 1 0 1 0\n1 0 0 1 1 1\n0 0 1 0 0 1\n1 0 0 1 0 1\n0 1 1 1 0 0\n";
/// let mut input = Scanner::new(text.as_bytes());
/// assert_eq!(lights::read_lights_out_count(&mut input)?, 1);
/// let board = lights::read_lights_out_puzzle(&mut input)?;
/// let a = lights::solve(&board, Goal::White)?.expect("5×6 is always solvable");
/// assert_eq!(a.presses.show('1', '0').to_string().lines().next(), Some("101001"));
/// assert!(a.is_unique());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn read_lights_out_puzzle<R: Read>(scanner: &mut Scanner<R>) -> Result<Grid, InputError> {
    if !scanner.skip_blank_lines()? {
        return Err(scanner.error_here(
            "another puzzle (the puzzle count asks for more)",
            Found::EndOfInput,
        ));
    }
    let mut board = Grid::new(LIGHTS_OUT);
    for row in board.rows_mut() {
        *row = scanner.read_spaced_row(&CELLS, 6, "a row of six lights, '0' or '1'")?;
    }
    Ok(board)
}

/// Writes `grid` as the judges' text: one line a row, its cells `1` (set)
/// and `0` (clear) separated by single spaces. That is a board of POJ 3279's
/// and POJ 1222's inputs (without the sizes or the count) and the press set
/// of their answers; `boardbase fliptile` and `boardbase lightsout` print
/// their answers with it, and `boardbase cases` their inputs and answers.
/// A row is written with one `write_all`, from a fixed buffer.
///
/// ```
/// use boardbase::lights::{self, Grid};
///
/// let presses: Grid = "0000/1001".parse()?;
/// let mut out = Vec::new();
/// lights::write_judge_rows(&mut out, &presses)?;
/// assert_eq!(out, b"0 0 0 0\n1 0 0 1\n");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write_judge_rows<W: Write + ?Sized>(out: &mut W, grid: &Grid) -> io::Result<()> {
    let cols = grid.shape().cols();
    let mut line = [b' '; 2 * MAX_SIDE];
    line[2 * cols - 1] = b'\n';
    for &bits in grid.rows() {
        for (c, cell) in line[..2 * cols].iter_mut().step_by(2).enumerate() {
            *cell = b'0' + (bits >> c & 1) as u8;
        }
        out.write_all(&line[..2 * cols])?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(r: usize, c: usize) -> Shape {
        Shape::new(r, c).unwrap()
    }

    #[test]
    fn judge_rows_read_back_through_the_fliptile_reader() {
        for (r, c) in [(1, 1), (2, 3), (5, 6), (15, 15), (64, 64)] {
            let s = shape(r, c);
            let mut g = Grid::new(s);
            for row in 0..r {
                for col in 0..c {
                    g.set(row, col, (row * 7 + col * 3) % 5 < 2);
                }
            }
            let mut text = format!("{r} {c}\n").into_bytes();
            write_judge_rows(&mut text, &g).unwrap();
            assert_eq!(text.iter().filter(|&&b| b == b'\n').count(), r + 1);
            assert!(
                text.split(|&b| b == b'\n')
                    .skip(1)
                    .take(r)
                    .all(|l| l.len() == 2 * c - 1)
            );
            let mut scanner = Scanner::new(&text[..]);
            let case = read_fliptile_case(&mut scanner).unwrap().unwrap();
            assert_eq!(case.board, g, "{r}x{c}");
        }
        let mut out = Vec::new();
        write_judge_rows(&mut out, &Grid::filled(shape(1, 3))).unwrap();
        assert_eq!(out, b"1 1 1\n");
    }
}
