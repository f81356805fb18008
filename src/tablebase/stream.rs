//! A judge's whole input answered board by board, in the judge's format,
//! through fixed buffers: the hot path of `boardbase flip` and `boardbase
//! euler`, for every source the tablebase chose. The embedded 4×4 tables
//! are one source among the others: the one answered without a table's
//! checks, straight from the judges' layout ([`Scanner::read_grid`], which
//! [`Scanner::read_rows`] uses for every 4×4 board).
//!
//! Each answer goes to the caller as one line padded with zeros to
//! [`LINE`] bytes, with its length, so that the caller copies a fixed-size
//! block (the answers are gathered branch-free).
//!
//! ```
//! use boardbase::input::Scanner;
//! use boardbase::tables::shape::Shape;
//! use boardbase::tablebase::Tablebase;
//!
//! // The judge's sample, then Timus 1060's board that no rounds can solve.
//! //   b w w b     b w b w
//! //   b b w b     w w w w
//! //   b w w b     b b w b
//! //   b w w w     b w w b
//! let input = "bwwb\nbbwb\nbwwb\nbwww\n\nbwbw\nwwww\nbbwb\nbwwb\n";
//! let answers = Tablebase::new().flip_answers(Shape::SQUARE4)?;
//! let mut out = Vec::new();
//! answers.judge_lines(&mut Scanner::new(input.as_bytes()), |line, len| {
//!     out.extend_from_slice(&line[..len]);
//!     Ok::<(), ()>(())
//! })?;
//! assert_eq!(out, b"4\nImpossible\n");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::io::Read;

use boardbase_tables::shape::MAX_SIDE;

use super::answers::{EulerAnswers, FlipAnswers, FlipView, probe_error};
use super::error::Error;
use crate::error::Found;
use crate::euler::{self, Position};
use crate::flip::{self, Board};
use crate::input::{InputError, Scanner};
use crate::lights::Grid;

/// The width every answer line is padded to.
pub const LINE: usize = 16;

/// What the Game of Euler's input lacks when its case count promises more
/// boards than it holds.
pub const ANOTHER_BOARD: &str = "another board (the case count asks for more)";

/// Why a stream of answers stopped: the answers before it were given.
#[derive(Debug, thiserror::Error)]
pub enum StreamError<E> {
    /// The input is not a judge's input (with the line and column).
    #[error(transparent)]
    Input(#[from] InputError),
    /// The tablebase could not answer a board (a damaged table block,
    /// with where the table came from).
    #[error(transparent)]
    Answer(Error),
    /// The caller could not take an answer.
    #[error("the answers could not be written")]
    Write(E),
}

/// Flip's answer lines of 0 to 16 rounds (a 4×4 board's most), then
/// `Impossible` (index 17).
const FLIP_LINES: [([u8; LINE], usize); 18] = {
    let mut lines = [([0u8; LINE], 0usize); 18];
    let mut r = 0;
    while r < 17 {
        if r < 10 {
            lines[r].0[0] = b'0' + r as u8;
            lines[r].0[1] = b'\n';
            lines[r].1 = 2;
        } else {
            lines[r].0[0] = b'1';
            lines[r].0[1] = b'0' + (r - 10) as u8;
            lines[r].0[2] = b'\n';
            lines[r].1 = 3;
        }
        r += 1;
    }
    let impossible = b"Impossible\n";
    let mut i = 0;
    while i < impossible.len() {
        lines[17].0[i] = impossible[i];
        i += 1;
    }
    lines[17].1 = impossible.len();
    lines
};

/// The Flip answer line of `rounds` (`None`: impossible), any number of
/// rounds (a 64×64 board needs up to 4,096).
#[inline]
fn flip_line(rounds: Option<usize>) -> ([u8; LINE], usize) {
    match rounds {
        Some(r) if r < 17 => FLIP_LINES[r],
        None => FLIP_LINES[17],
        Some(r) => {
            let mut line = [0u8; LINE];
            let mut digits = [0u8; 20];
            let (mut n, mut len) = (r, 0);
            while n > 0 {
                digits[len] = b'0' + (n % 10) as u8;
                len += 1;
                n /= 10;
            }
            for (i, d) in digits[..len].iter().rev().enumerate() {
                line[i] = *d;
            }
            line[len] = b'\n';
            (line, len + 1)
        }
    }
}

/// The Game of Euler's answer lines, losing then winning.
const EULER_LINES: [([u8; LINE], usize); 2] = {
    let mut lines = [([0u8; LINE], 0usize); 2];
    let words: [&[u8]; 2] = [b"LOSING\n", b"WINNING\n"];
    let mut w = 0;
    while w < 2 {
        let mut i = 0;
        while i < words[w].len() {
            lines[w].0[i] = words[w][i];
            i += 1;
        }
        lines[w].1 = words[w].len();
        w += 1;
    }
    lines
};

impl FlipAnswers {
    /// Answers every board of `input` (boards of this shape, one after
    /// another, blank lines between them allowed) in the judge's format:
    /// the fewest rounds, or `Impossible`, one line a board, each given to
    /// `push` as soon as its board is read. Returns the number of boards.
    /// An error stops the stream after the answers of the boards before it.
    pub fn judge_lines<R: Read, E>(
        &self,
        input: &mut Scanner<R>,
        mut push: impl FnMut(&[u8; LINE], usize) -> Result<(), E>,
    ) -> Result<u64, StreamError<E>> {
        let shape = self.shape();
        let mut cases = 0u64;
        // The embedded tables, with the judge's layout read at once.
        if self.is_embedded() {
            while let Some(bits) = input.read_grid(&flip::ALPHABET)? {
                // At most 16 rounds on 16 cells: a line of the table.
                let r = usize::from(flip::rounds(Board::from_bits(bits)).unwrap_or(17));
                let (line, len) = &FLIP_LINES[r];
                push(line, *len).map_err(StreamError::Write)?;
                cases += 1;
            }
            return Ok(cases);
        }
        let view = self.view().map_err(StreamError::Answer)?;
        let mut rows = [0u64; MAX_SIDE];
        loop {
            let rounds = match &view {
                FlipView::Table(table) => {
                    if !input.read_rows(&flip::ALPHABET, shape, &mut rows)? {
                        return Ok(cases);
                    }
                    table
                        .rounds(shape.board_of_rows(&rows))
                        .map_err(|e| StreamError::Answer(self.probe_error(e)))?
                        .map(usize::from)
                }
                FlipView::Solver(..) => {
                    if !input.read_rows(&flip::ALPHABET, shape, &mut rows)? {
                        return Ok(cases);
                    }
                    let grid = Grid::from_rows(shape, &rows[..shape.rows()])
                        .unwrap_or_else(|_| unreachable!("rows read within the shape"));
                    view.rounds(&grid).map_err(StreamError::Answer)?
                }
            };
            let (line, len) = flip_line(rounds);
            push(&line, len).map_err(StreamError::Write)?;
            cases += 1;
        }
    }
}

impl EulerAnswers<'_> {
    /// Answers `count` positions of `input` (each after any blank lines;
    /// the count already read) in the judge's format: `WINNING` or
    /// `LOSING`, one line a position, each given to `push` as soon as its
    /// position is read. Running out of positions is an error at the end
    /// of the input. An error stops the stream after the answers of the
    /// positions before it.
    ///
    /// ```
    /// use boardbase::input::Scanner;
    /// use boardbase::tables::shape::Shape;
    /// use boardbase::tablebase::{EulerAnswers, Tablebase};
    ///
    /// // The judge's first two sample positions (the count already read):
    /// //   X X X .     X X X X
    /// //   X X X .     . . . X
    /// //   . X X X     X X . X
    /// //   . X X X     X X . X
    /// let found = Tablebase::new().euler_answers(Shape::SQUARE4, |_| {})?;
    /// let mut out = Vec::new();
    /// let input = "\nXXX.\nXXX.\n.XXX\n.XXX\n\nXXXX\n...X\nXX.X\nXX.X\n";
    /// let mut input = Scanner::new(input.as_bytes());
    /// EulerAnswers::new(&found)?.judge_lines(2, &mut input, |line, len| {
    ///     out.extend_from_slice(&line[..len]);
    ///     Ok::<(), ()>(())
    /// })?;
    /// assert_eq!(out, b"LOSING\nWINNING\n");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn judge_lines<R: Read, E>(
        &self,
        count: u64,
        input: &mut Scanner<R>,
        mut push: impl FnMut(&[u8; LINE], usize) -> Result<(), E>,
    ) -> Result<(), StreamError<E>> {
        let missing = |input: &Scanner<R>| input.error_here(ANOTHER_BOARD, Found::EndOfInput);
        let Some(table) = &self.table else {
            // The embedded tables, with the judge's layout read at once.
            for _ in 0..count {
                let Some(bits) = input.read_grid(&euler::ALPHABET)? else {
                    return Err(missing(input).into());
                };
                let win = usize::from(euler::outcome(Position::from_bits(bits)).is_win());
                let (line, len) = &EULER_LINES[win];
                push(line, *len).map_err(StreamError::Write)?;
            }
            return Ok(());
        };
        let shape = table.shape();
        let mut rows = [0u64; MAX_SIDE];
        for _ in 0..count {
            if !input.read_rows(&euler::ALPHABET, shape, &mut rows)? {
                return Err(missing(input).into());
            }
            let outcome = table
                .outcome(shape.board_of_rows(&rows))
                .map_err(|e| StreamError::Answer(probe_error(self.found, e)))?;
            let (line, len) = &EULER_LINES[usize::from(outcome.is_win())];
            push(line, *len).map_err(StreamError::Write)?;
        }
        Ok(())
    }
}
