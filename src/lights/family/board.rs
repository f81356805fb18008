//! The board type of the family: [`ColourGrid`], R×C cells of 0 to K − 1,
//! a board (each cell's colour) or a press vector (each cell's number of
//! presses), with its text form.

use core::fmt;

use boardbase_tables::shape::{MAX_SIDE, Shape};

use crate::error::{Found, ParseError};

/// What the parser expects for a cell of a `K`-colour board, by `K`.
const EXPECTED_DIGIT: [&str; 17] = [
    "a colour",
    "a colour",
    "a colour 0 or 1",
    "a colour 0 to 2",
    "a colour 0 to 3",
    "a colour 0 to 4",
    "a colour 0 to 5",
    "a colour 0 to 6",
    "a colour 0 to 7",
    "a colour 0 to 8",
    "a colour 0 to 9",
    "a colour 0 to 9 or a",
    "a colour 0 to 9, a or b",
    "a colour 0 to 9 or a to c",
    "a colour 0 to 9 or a to d",
    "a colour 0 to 9 or a to e",
    "a colour 0 to 9 or a to f",
];

/// R×C cells, each 0 to K − 1 (at most 15): a board of the
/// [`family`](super) (each cell's colour) or a press vector (how many
/// times each cell is pressed).
///
/// The cells are one byte each, row-major. The text form is a row a line,
/// one digit a cell, `0` to `9` then `a` to `f` for 10 to 15 (read in
/// either case, written in lower case), optionally separated by spaces or
/// tabs: see [`parse`](Self::parse). `Display` writes the digits with no
/// spaces, rows on separate lines (`{:#}`: separated by `/`).
///
/// ```
/// use boardbase::lights::family::ColourGrid;
///
/// let g = ColourGrid::parse("0 1 2\n2 1 0", 3)?;
/// assert_eq!((g.rows(), g.cols()), (2, 3));
/// assert_eq!(g.get(0, 2), 2);
/// assert_eq!(g.cells(), [0, 1, 2, 2, 1, 0]);
/// assert_eq!(format!("{g:#}"), "012/210");
/// // A press vector: its presses are the sum of its cells, listed with
/// // repetition.
/// assert_eq!(g.total(), 6);
/// assert_eq!(g.press_list()[..3], [(0, 1), (0, 2), (0, 2)]);
/// // A digit of K or more is refused, at its line and column.
/// let e = ColourGrid::parse("012\n213", 3).unwrap_err();
/// assert_eq!((e.line, e.column), (2, 3));
/// assert_eq!(e.to_string(), "2:3: expected a colour 0 to 2, found '3'");
/// # Ok::<(), boardbase::error::ParseError>(())
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct ColourGrid {
    shape: Shape,
    cells: Vec<u8>,
}

impl ColourGrid {
    /// The grid of `shape` with every cell 0.
    pub fn new(shape: Shape) -> ColourGrid {
        ColourGrid {
            shape,
            cells: vec![0; shape.cells()],
        }
    }

    /// The grid of `shape` with every cell `colour`.
    pub fn filled(shape: Shape, colour: u8) -> ColourGrid {
        ColourGrid {
            shape,
            cells: vec![colour; shape.cells()],
        }
    }

    /// The grid of `shape` with these cells, row-major; `None` when there
    /// are not `R·C` of them or one is over 15.
    pub fn from_cells(shape: Shape, cells: Vec<u8>) -> Option<ColourGrid> {
        (cells.len() == shape.cells() && cells.iter().all(|&c| c < 16))
            .then_some(ColourGrid { shape, cells })
    }

    /// The shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Rows.
    pub fn rows(&self) -> usize {
        self.shape.rows()
    }

    /// Columns.
    pub fn cols(&self) -> usize {
        self.shape.cols()
    }

    /// The cells, row-major.
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// The cells to write, row-major.
    pub(super) fn cells_mut(&mut self) -> &mut [u8] {
        &mut self.cells
    }

    /// Cell (`row`, `col`).
    ///
    /// # Panics
    ///
    /// Panics if the cell is outside the shape.
    pub fn get(&self, row: usize, col: usize) -> u8 {
        assert!(
            row < self.rows() && col < self.cols(),
            "({row}, {col}) is off the board"
        );
        self.cells[row * self.cols() + col]
    }

    /// Sets cell (`row`, `col`).
    ///
    /// # Panics
    ///
    /// Panics if the cell is outside the shape or `value` is over 15.
    pub fn set(&mut self, row: usize, col: usize, value: u8) {
        assert!(
            row < self.rows() && col < self.cols(),
            "({row}, {col}) is off the board"
        );
        assert!(value < 16, "a cell holds 0 to 15");
        let cols = self.cols();
        self.cells[row * cols + col] = value;
    }

    /// The sum of the cells: for a press vector, its number of presses.
    pub fn total(&self) -> usize {
        self.cells.iter().map(|&c| usize::from(c)).sum()
    }

    /// The largest cell.
    pub fn max(&self) -> u8 {
        self.cells.iter().copied().max().unwrap_or(0)
    }

    /// The colour every cell shows, if the board is uniform.
    pub fn uniform(&self) -> Option<u8> {
        let first = self.cells[0];
        self.cells.iter().all(|&c| c == first).then_some(first)
    }

    /// A press vector as a list of presses: (`row`, `col`) in reading
    /// order, a cell pressed `j` times listed `j` times (so the list's
    /// length is [`total`](Self::total)).
    pub fn press_list(&self) -> Vec<(usize, usize)> {
        let cols = self.cols();
        self.cells
            .iter()
            .enumerate()
            .flat_map(|(i, &n)| core::iter::repeat_n((i / cols, i % cols), n.into()))
            .collect()
    }

    /// Reads a board of `colours` colours (2 to 16): rows on separate lines
    /// (LF or CRLF) or separated by `/`, one digit a cell (`0` to `9`, then
    /// `a` to `f` or `A` to `F` for 10 to 15), every digit below
    /// `colours`, optionally separated by spaces or tabs; every row as long
    /// as the first; at most 64 rows of 64 cells; blanks around the rows
    /// and blank lines around the board are skipped. The shape is what the
    /// text holds. Errors carry the 1-based line and column (in bytes).
    pub fn parse(text: &str, colours: u8) -> Result<ColourGrid, ParseError> {
        let mut cells = Vec::new();
        let (mut rows, mut width) = (0usize, None::<usize>);
        let (mut started, mut ended) = (false, false);
        let mut last_line = 1;
        for (index, raw) in text.split('\n').enumerate() {
            let line_no = index as u64 + 1;
            last_line = line_no;
            let line = raw.strip_suffix('\r').unwrap_or(raw);
            let blank = line.trim_matches([' ', '\t']);
            if blank.is_empty() {
                ended |= started;
                continue;
            }
            if ended {
                let at = line.len() - line.trim_start_matches([' ', '\t']).len();
                return Err(ParseError {
                    line: line_no,
                    column: at as u64 + 1,
                    expected: "the end of the board",
                    found: Found::first_of(&line.as_bytes()[at..]),
                });
            }
            started = true;
            let mut offset = 0;
            let segments = line.split('/').count();
            for (s, segment) in line.split('/').enumerate() {
                let after = if s + 1 < segments {
                    Found::Char('/')
                } else {
                    Found::EndOfLine
                };
                if rows == MAX_SIDE {
                    let at = offset + segment.len() - segment.trim_start_matches([' ', '\t']).len();
                    return Err(ParseError {
                        line: line_no,
                        column: at as u64 + 1,
                        expected: "at most 64 rows",
                        found: Found::first_of(&line.as_bytes()[at..]),
                    });
                }
                let n = read_cells(segment, line_no, offset, width, colours, after, &mut cells)?;
                width = Some(n);
                rows += 1;
                offset += segment.len() + 1;
            }
        }
        let shape = width.and_then(|w| Shape::new(rows, w)).ok_or(ParseError {
            line: last_line,
            column: text.rsplit('\n').next().map_or(0, str::len) as u64 + 1,
            expected: EXPECTED_DIGIT[usize::from(colours.clamp(2, 16))],
            found: Found::EndOfInput,
        })?;
        Ok(ColourGrid { shape, cells })
    }

    /// Reads one row of a board of `shape` from `line` (the 1-based line
    /// number `line_no` of its input), appending its cells to `out`: `C`
    /// digits below `colours`, optionally separated by spaces or tabs,
    /// blanks around them skipped (a CR at the end too). For readers of
    /// boards back to back, `R` lines a board.
    pub fn parse_row(
        line: &str,
        line_no: u64,
        cols: usize,
        colours: u8,
        out: &mut Vec<u8>,
    ) -> Result<(), ParseError> {
        let line = line.strip_suffix('\r').unwrap_or(line);
        read_cells(line, line_no, 0, Some(cols), colours, Found::EndOfLine, out).map(|_| ())
    }

    /// Draws the grid with these characters for 0, 1, …: a cell `v` is
    /// `symbols[v]` (its hex digit when `symbols` is too short).
    pub fn show<'a>(&'a self, symbols: &'a [char]) -> ShowColours<'a> {
        ShowColours {
            grid: self,
            symbols,
        }
    }
}

/// Reads the cells of one row, `segment` starting at byte `offset` of line
/// `line_no`: digits below `colours` with blanks between and around them,
/// exactly `width` of them when it is known, at most 64, `after` being
/// what follows the segment. Returns how many.
fn read_cells(
    segment: &str,
    line_no: u64,
    offset: usize,
    width: Option<usize>,
    colours: u8,
    after: Found,
    out: &mut Vec<u8>,
) -> Result<usize, ParseError> {
    let colours = colours.clamp(2, 16);
    let expected = EXPECTED_DIGIT[usize::from(colours)];
    let bytes = segment.as_bytes();
    let error = |i: usize, expected, found| ParseError {
        line: line_no,
        column: (offset + i) as u64 + 1,
        expected,
        found,
    };
    let mut n = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let digit = match b {
            b' ' | b'\t' => continue,
            b'0'..=b'9' => Some(b - b'0'),
            b'a'..=b'f' => Some(b - b'a' + 10),
            b'A'..=b'F' => Some(b - b'A' + 10),
            _ => None,
        };
        let found = Found::first_of(&bytes[i..]);
        let Some(d) = digit.filter(|&d| d < colours) else {
            let expected = if width == Some(n) {
                "the end of the row"
            } else {
                expected
            };
            return Err(error(i, expected, found));
        };
        if width == Some(n) {
            let expected = "the end of the row (every row as long as the first)";
            return Err(error(i, expected, found));
        }
        if n == MAX_SIDE {
            return Err(error(i, "at most 64 cells a row", found));
        }
        out.push(d);
        n += 1;
    }
    let end = segment.trim_end_matches([' ', '\t']).len();
    match width {
        _ if n == 0 => Err(error(end, expected, after)),
        Some(w) if n < w => Err(error(
            end,
            "another cell (every row as long as the first)",
            after,
        )),
        _ => Ok(n),
    }
}

/// A grid drawn with chosen characters: see [`ColourGrid::show`].
pub struct ShowColours<'a> {
    grid: &'a ColourGrid,
    symbols: &'a [char],
}

impl fmt::Display for ShowColours<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let separator = if f.alternate() { '/' } else { '\n' };
        for (r, row) in self.grid.cells.chunks(self.grid.cols()).enumerate() {
            if r > 0 {
                fmt::Write::write_char(f, separator)?;
            }
            for &v in row {
                let c = self
                    .symbols
                    .get(usize::from(v))
                    .copied()
                    .unwrap_or_else(|| char::from_digit(u32::from(v), 16).unwrap_or('?'));
                fmt::Write::write_char(f, c)?;
            }
        }
        Ok(())
    }
}

impl fmt::Display for ColourGrid {
    /// Digits (`a` to `f` for 10 to 15), rows on separate lines (`{:#}`:
    /// separated by `/`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let shown = self.show(&[]);
        if f.alternate() {
            write!(f, "{shown:#}")
        } else {
            write!(f, "{shown}")
        }
    }
}

impl fmt::Debug for ColourGrid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ColourGrid({}, \"{self:#}\")", self.shape)
    }
}
