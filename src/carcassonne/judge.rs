//! The judge's input: the case count and the cases, read from a
//! [`Scanner`] with every size checked before any tile is stored.

use std::io::Read;

use crate::error::{Found, ParseError};
use crate::input::{InputError, Scanner};

use super::{Board, Colour, MAX_NARROW_SIDE, TileCode};

/// Most tiles one board of the judge's input may declare (`2^20`, e.g.
/// 65,536 rows of 16): a larger `N × M` is refused before any tile is read.
pub const MAX_TILES: u64 = 1 << 20;

/// One case of the judge's input, with where it starts.
#[derive(Clone, Debug)]
pub struct Case {
    /// The board.
    pub board: Board,
    /// 1-based line of the case's `N`.
    pub line: u64,
}

/// Reads the judge's case count `T`.
pub fn read_case_count<R: Read>(scanner: &mut Scanner<R>) -> Result<u64, InputError> {
    scanner.read_unsigned("a case count", u64::MAX)
}

/// Reads one case of the judge's input: `N M`, then `N × M` four-letter tile
/// codes in row-major order, all separated by any whitespace.
///
/// The sizes are checked before any tile is read (each at least 1, the
/// narrower at most [`MAX_NARROW_SIDE`], at most [`MAX_TILES`] tiles), and
/// the tiles are stored only as they arrive, so a declared size never
/// decides an allocation. Each code is one lookup in [`TILE_CODES`](super::TILE_CODES); an
/// unknown one is an error at its first bad letter.
///
/// ```
/// use boardbase::carcassonne::{count, read_case, CountOptions};
/// use boardbase::input::Scanner;
///
/// let mut input = Scanner::new("1 2\nRRRF FCCC\n".as_bytes());
/// let case = read_case(&mut input)?;
/// assert_eq!((case.board.rows(), case.board.cols(), case.line), (1, 2, 1));
/// assert_eq!(count(&case.board, &CountOptions::default(), || false)?.count, 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn read_case<R: Read>(scanner: &mut Scanner<R>) -> Result<Case, InputError> {
    const SIZES: &str = "N and M with the narrower side at most 16";
    let size = |scanner: &mut Scanner<R>, what: &'static str| {
        scanner.skip_whitespace()?;
        let (line, column) = scanner.position();
        let n = scanner.read_unsigned(what, u64::MAX)?;
        if n == 0 {
            return Err(ParseError {
                line,
                column,
                expected: what,
                found: Found::Number(0),
            }
            .into());
        }
        Ok::<_, InputError>((n, line, column))
    };
    let (rows, line, _) = size(scanner, "a number of rows N of at least 1")?;
    let (cols, m_line, m_column) = size(scanner, "a number of columns M of at least 1")?;
    let at_m = |expected, found| ParseError {
        line: m_line,
        column: m_column,
        expected,
        found,
    };
    let narrow = rows.min(cols);
    if narrow > MAX_NARROW_SIDE as u64 {
        return Err(at_m(SIZES, Found::Number(narrow)).into());
    }
    let cells = rows.checked_mul(cols).filter(|&c| c <= MAX_TILES);
    let Some(cells) = cells else {
        let found = rows
            .checked_mul(cols)
            .map_or(Found::NumberTooLarge, Found::Number);
        return Err(at_m("at most 1048576 tiles (N × M)", found).into());
    };
    let mut tiles = Vec::with_capacity(cells.min(1024) as usize);
    for _ in 0..cells {
        let Some(word) = scanner.read_word::<4>("a tile code (4 of 'C', 'R', 'F')")? else {
            return Err(scanner.error_here("another tile (N × M in all)", Found::EndOfInput));
        };
        match TileCode::lookup(&word.bytes) {
            Some(code) => tiles.push(code.tile),
            None => {
                let bad = word
                    .bytes
                    .iter()
                    .position(|&b| Colour::from_letter(b).is_none())
                    .unwrap_or(0);
                return Err(ParseError {
                    line: word.line,
                    column: word.column + bad as u64,
                    expected: "a tile edge 'C', 'R' or 'F'",
                    found: Found::first_of(&word.bytes[bad..]),
                }
                .into());
            }
        }
    }
    // The checks above make every size valid; report rather than panic anyway.
    let board = Board::new(rows as usize, cols as usize, tiles)
        .map_err(|_| InputError::from(at_m(SIZES, Found::Number(narrow))))?;
    Ok(Case { board, line })
}
