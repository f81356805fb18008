//! Flip Game and Game of Euler judge inputs on boards of any size, 4×4
//! included (`boardbase cases flip|euler [--size RxC]`), with answers from
//! a table (the embedded 4×4 ones, a file, one made in memory) or, for
//! Flip, from the GF(2) solver.
//!
//! A board of R×C cells is drawn as a *random grid*: R random rows, row 0
//! first, each `next_u64()` masked to its C low bits (bit `c` = column
//! `c`), as [`fliptile`](super::fliptile) draws them; cell (`r`, `c`) is bit
//! `C·r + c` of the board. What each case draws, in order:
//!
//! - Euler ([`EulerCases`]): random grids until one is an open position
//!   (not the full board) that the [`euler::Filter`] accepts: uniform over
//!   the eligible positions.
//! - Flip ([`FlipCases`]), by [`flip::FlipCategory`]:
//!   - `random`: one random grid;
//!   - `solvable`: `below(2)` (0: white, 1: black), then a random grid of
//!     presses applied to that uniform board: uniform over the boards that
//!     can be made one colour (the boards that reach white are the presses'
//!     span, those that reach black its translate by the full board, of the
//!     same size); with `rounds` K, drawn again until the board takes K
//!     rounds;
//!   - `impossible`: random grids until one reaches neither colour.
//!
//! The judges' own board size, 4×4, is drawn as the 4×4 generator draws it
//! ([`super::CaseWriter`]), whatever table answers it (the embedded one or
//! a file): the eligible boards, as that table answers them, listed in
//! ascending order of their bits (as [`super::Pool`] lists them), and each case is
//! `pool[below(len)]`. `boardbase cases flip|euler` and `check flip|euler`
//! thus send the same 4×4 boards from the embedded tables and from a 4×4
//! table file.
//!
//! The filters are checked beforehand, so that no draw loops for ever: an
//! Euler filter is counted over the whole table when it has at most
//! 2^25 positions or asks for moves left (`Empty` when none passes);
//! Flip's `impossible` needs a shape whose nullity is at least 1 (at least
//! 2 when the full board can be made white), and `rounds` a table, counted.
//!
//! ```
//! use boardbase::cases::{Rng, euler, sized::EulerCases};
//! use boardbase::tablefile::Table;
//! use boardbase::generate::{self, EulerOptions};
//! use boardbase::tables::shape::Shape;
//!
//! // Two losing 3×4 positions, and the judge's answers for them.
//! let shape = Shape::new(3, 4).unwrap();
//! let table = Table::from_euler(shape, generate::euler(shape, &EulerOptions::default(), |_| {})?.into())?;
//! let filter = euler::Filter { category: euler::EulerCategory::Losing, moves_left: None };
//! let cases = EulerCases::new(table.as_euler()?, filter)?;
//! let (mut input, mut answers) = (Vec::new(), Vec::new());
//! cases.write(2, 7, &mut input, Some(&mut answers), &mut |_| {})?;
//! assert_eq!(answers, b"LOSING\nLOSING\n");
//! assert_eq!(input.len(), 2 + 2 * (1 + 3 * 5)); // the count, then a blank line and 3 rows a case
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::io::Write;

use super::fliptile::random_grid;
use super::{CasesError, Rng, euler, flip};
use crate::euler::{Outcome, Position};
use crate::flip::Board;
use crate::lights::{Goal, Grid, Solver};
use crate::tablebase::{self, FlipView, Loaded, MAKE_MAX_CELLS, Tablebase};
use crate::tablefile::{EulerTable, Puzzle};
use crate::tables::shape::Shape;

/// A random grid of `shape` as a board of at most 64 cells.
fn random_board(shape: Shape, rng: &mut Rng) -> u64 {
    (0..shape.rows()).fold(0, |board, r| {
        board | (rng.next_u64() & shape.row_mask()) << (shape.cols() * r)
    })
}

/// Whether `passes` holds for any of `items` (stopping at the first).
fn exists(
    items: impl IntoIterator<Item = u64>,
    mut passes: impl FnMut(u64) -> Result<bool, CasesError>,
) -> Result<bool, CasesError> {
    for item in items {
        if passes(item)? {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Writes a board of `shape` as R lines of C cells, `one` where set.
fn write_rows<W: Write + ?Sized>(
    out: &mut W,
    rows: &[u64],
    cols: usize,
    zero: u8,
    one: u8,
) -> std::io::Result<()> {
    let mut line = [b'\n'; 65];
    for &bits in rows {
        for (c, cell) in line[..cols].iter_mut().enumerate() {
            *cell = if bits >> c & 1 == 1 { one } else { zero };
        }
        out.write_all(&line[..=cols])?;
    }
    Ok(())
}

/// Whether boards of `shape` are drawn from the list of every eligible
/// board ([`Listed`]) rather than as random grids: the judges' own 4×4.
fn listed(shape: Shape) -> bool {
    shape == Shape::SQUARE4
}

/// Every eligible 4×4 board, ascending by its bits, with its answer; each
/// case is `list[below(len)]`, as the 4×4 generator's [`Pool`] draws.
#[derive(Clone, Debug)]
struct Listed<A> {
    bits: Vec<u16>,
    answers: Vec<A>,
}

impl<A> Listed<A> {
    /// The boards of 4×4 bits that `answer` answers (`None`: not
    /// eligible); [`CasesError::Empty`] saying `no {what} exists` when none
    /// is (the words of the 4×4 generator's pools).
    fn of(
        what: impl std::fmt::Display,
        mut answer: impl FnMut(u64) -> Result<Option<A>, CasesError>,
    ) -> Result<Listed<A>, CasesError> {
        let (mut bits, mut answers) = (Vec::new(), Vec::new());
        for b in 0..=u16::MAX {
            if let Some(a) = answer(u64::from(b))? {
                bits.push(b);
                answers.push(a);
            }
        }
        if bits.is_empty() {
            return Err(CasesError::Empty {
                what: format!("{what} exists"),
            });
        }
        Ok(Listed { bits, answers })
    }

    /// The index of one board, uniformly: `below(len)`.
    fn pick(&self, rng: &mut Rng) -> usize {
        rng.index(self.bits.len())
    }
}

/// Game of Euler positions of a table's shape, chosen by answer.
#[derive(Clone, Debug)]
pub struct EulerCases<'a> {
    table: EulerTable<'a>,
    filter: euler::Filter,
    /// Every eligible position and its outcome, for the 4×4 board
    /// ([`listed`]).
    every: Option<Listed<Outcome>>,
}

impl<'a> EulerCases<'a> {
    /// Positions of `table`'s shape that `filter` accepts. `moves_left`
    /// needs a full table ([`CasesError::Size`] for a win/loss-only one); a
    /// filter no position passes is [`CasesError::Empty`].
    pub fn new(table: EulerTable<'a>, filter: euler::Filter) -> Result<EulerCases<'a>, CasesError> {
        let shape = table.shape();
        if filter.moves_left.is_some() && table.is_wdl_only() {
            return Err(CasesError::Size(format!(
                "--moves-left needs moves left, and the euler {shape} table holds win/loss only"
            )));
        }
        let mut cases = EulerCases {
            table,
            filter,
            every: None,
        };
        if listed(shape) {
            let list = Listed::of(filter, |p| {
                Ok(match cases.accepts(p)? {
                    true => Some(table.outcome(p)?),
                    false => None,
                })
            })?;
            cases.every = Some(list);
            return Ok(cases);
        }
        let count = shape.cells() <= MAKE_MAX_CELLS || filter.moves_left.is_some();
        // Larger shapes (at least 26 squares) have open positions of both
        // outcomes: one open square is lost, two in a row are won.
        if count && !exists(0..shape.full(), |p| cases.accepts(p))? {
            return Err(CasesError::Empty {
                what: format!("{} on {shape} exists", cases.describe()),
            });
        }
        Ok(cases)
    }

    /// `open Euler position`, `losing Euler position lasting 7 moves`, ...
    fn describe(&self) -> String {
        self.filter.to_string()
    }

    /// Whether the open position `p` passes the filter.
    fn accepts(&self, p: u64) -> Result<bool, CasesError> {
        if p == self.table.shape().full() {
            return Ok(false);
        }
        let in_category = match self.filter.category {
            euler::EulerCategory::Random => true,
            euler::EulerCategory::Winning => self.table.outcome(p)? == Outcome::Win,
            euler::EulerCategory::Losing => self.table.outcome(p)? == Outcome::Loss,
        };
        if !in_category {
            return Ok(false);
        }
        Ok(match self.filter.moves_left {
            Some(k) => self.table.probe(p)?.moves_left == Some(k),
            None => true,
        })
    }

    /// The board shape.
    pub fn shape(&self) -> Shape {
        self.table.shape()
    }

    /// One position: from the list of every eligible one on 4×4, else
    /// random grids until one passes.
    pub fn pick(&self, rng: &mut Rng) -> Result<u64, CasesError> {
        if let Some(list) = &self.every {
            return Ok(u64::from(list.bits[list.pick(rng)]));
        }
        loop {
            let p = random_board(self.table.shape(), rng);
            if self.accepts(p)? {
                return Ok(p);
            }
        }
    }

    /// Writes `cases` positions drawn from `Rng::new(seed)` as the judge's
    /// input (the count, then each position after a blank line, R lines of
    /// C `X`/`.`), and their answers (`WINNING`/`LOSING`) when asked.
    pub fn write<W: Write + ?Sized, A: Write + ?Sized>(
        &self,
        cases: u64,
        seed: u64,
        input: &mut W,
        mut answers: Option<&mut A>,
        progress: &mut dyn FnMut(u64),
    ) -> Result<(), CasesError> {
        let shape = self.table.shape();
        let mut rng = Rng::new(seed);
        writeln!(input, "{cases}")?;
        let mut rows = [0u64; 64];
        super::each_case(cases, progress, |_| {
            if let Some(list) = &self.every {
                // A 4×4 position and its outcome, from the list.
                let i = list.pick(&mut rng);
                input.write_all(b"\n")?;
                euler::write_position(input, Position::from_bits(list.bits[i]))?;
                if let Some(a) = answers.as_deref_mut() {
                    a.write_all(list.answers[i].answer().as_bytes())?;
                    a.write_all(b"\n")?;
                }
                return Ok(());
            }
            let p = self.pick(&mut rng)?;
            for (r, row) in rows[..shape.rows()].iter_mut().enumerate() {
                *row = shape.row_bits(p, r);
            }
            input.write_all(b"\n")?;
            write_rows(input, &rows[..shape.rows()], shape.cols(), b'.', b'X')?;
            if let Some(a) = answers.as_deref_mut() {
                a.write_all(self.table.outcome(p)?.answer().as_bytes())?;
                a.write_all(b"\n")?;
            }
            Ok(())
        })
    }
}

/// Flip Game boards of any shape, chosen by answer.
#[derive(Clone, Debug)]
pub struct FlipCases<'a> {
    answers: FlipView<'a>,
    filter: flip::Filter,
    /// Every eligible board and its rounds, for the 4×4 board
    /// ([`listed`]).
    every: Option<Listed<Option<u16>>>,
}

impl<'a> FlipCases<'a> {
    /// Boards that `filter` accepts, answered by `answers`. `rounds` needs
    /// a table ([`CasesError::Size`] otherwise); a filter no board passes is
    /// [`CasesError::Empty`]; the solver of a shape whose nullity is over its
    /// limit is [`CasesError::Lights`].
    pub fn new(answers: FlipView<'a>, filter: flip::Filter) -> Result<FlipCases<'a>, CasesError> {
        let shape = answers.shape();
        if let FlipView::Solver(s, max) = answers
            && s.nullity() > max
        {
            // The solver's own error, with its nullity.
            s.solve_within(&Grid::new(shape), Goal::Either, max)?;
        }
        let mut cases = FlipCases {
            answers,
            filter,
            every: None,
        };
        if listed(shape) {
            let list = Listed::of(filter, |b| {
                let board =
                    Grid::from_u64(shape, b).map_err(|e| CasesError::Size(e.to_string()))?;
                let r = answers.rounds(&board)?;
                let in_category = match filter.category {
                    flip::FlipCategory::Random => true,
                    flip::FlipCategory::Solvable => r.is_some(),
                    flip::FlipCategory::Impossible => r.is_none(),
                };
                let rounds = filter.rounds.is_none_or(|k| r == Some(usize::from(k)));
                Ok((in_category && rounds).then(|| r.map(rounds16)))
            })?;
            cases.every = Some(list);
            return Ok(cases);
        }
        let empty = || CasesError::Empty {
            what: format!("{filter} on {shape} exists"),
        };
        if let Some(k) = filter.rounds {
            let FlipView::Table(t) = answers else {
                return Err(CasesError::Size(format!(
                    "--rounds on {shape} needs its table: make it with `boardbase generate flip {shape} --dir DIR` and pass --tables DIR"
                )));
            };
            if filter.category == flip::FlipCategory::Impossible {
                return Err(empty());
            }
            if !exists(0..=shape.full(), |b| Ok(t.rounds(b)? == Some(k)))? {
                return Err(empty());
            }
        }
        if filter.category == flip::FlipCategory::Impossible {
            // Impossible boards exist unless white's and black's boards
            // cover them all: nullity 0, or 1 with all black unreachable
            // from white.
            let solver = Solver::cached(shape);
            let full_is_white = solver
                .any_solution(&Grid::filled(shape), crate::lights::Colour::White)?
                .is_some();
            let covered = match solver.nullity() {
                0 => true,
                1 => !full_is_white,
                _ => false,
            };
            if covered {
                return Err(empty());
            }
        }
        Ok(cases)
    }

    /// The board shape.
    pub fn shape(&self) -> Shape {
        self.answers.shape()
    }

    /// One board: from the list of every eligible one on 4×4, else as
    /// the module's documentation says.
    pub fn pick(&self, rng: &mut Rng) -> Result<Grid, CasesError> {
        let shape = self.answers.shape();
        if let Some(list) = &self.every {
            let bits = u64::from(list.bits[list.pick(rng)]);
            return Grid::from_u64(shape, bits).map_err(|e| CasesError::Size(e.to_string()));
        }
        loop {
            let board = match self.filter.category {
                flip::FlipCategory::Random if self.filter.rounds.is_none() => {
                    return Ok(random_grid(rng, shape));
                }
                flip::FlipCategory::Impossible => {
                    let g = random_grid(rng, shape);
                    if self.answers.rounds(&g)?.is_none() {
                        return Ok(g);
                    }
                    continue;
                }
                // Solvable, or any category with a number of rounds.
                _ => {
                    let start = if rng.below(2) == 0 {
                        Grid::new(shape)
                    } else {
                        Grid::filled(shape)
                    };
                    start.apply(&random_grid(rng, shape))
                }
            };
            match self.filter.rounds {
                Some(k) if self.answers.rounds(&board)? != Some(usize::from(k)) => continue,
                _ => return Ok(board),
            }
        }
    }

    /// Writes `cases` boards drawn from `Rng::new(seed)` as the judge's
    /// input (R lines of C `b`/`w` each, one after another), and their
    /// answers (the rounds, or `Impossible`) when asked.
    pub fn write<W: Write + ?Sized, A: Write + ?Sized>(
        &self,
        cases: u64,
        seed: u64,
        input: &mut W,
        mut answers: Option<&mut A>,
        progress: &mut dyn FnMut(u64),
    ) -> Result<(), CasesError> {
        let mut rng = Rng::new(seed);
        let write_answer = |a: &mut A, rounds: Option<usize>| match rounds {
            Some(r) => writeln!(a, "{r}"),
            None => a.write_all(b"Impossible\n"),
        };
        super::each_case(cases, progress, |_| {
            if let Some(list) = &self.every {
                // A 4×4 board and its rounds, from the list.
                let i = list.pick(&mut rng);
                flip::write_board(input, Board::from_bits(list.bits[i]))?;
                if let Some(a) = answers.as_deref_mut() {
                    write_answer(a, list.answers[i].map(usize::from))?;
                }
                return Ok(());
            }
            let board = self.pick(&mut rng)?;
            write_rows(input, board.rows(), board.shape().cols(), b'w', b'b')?;
            if let Some(a) = answers.as_deref_mut() {
                write_answer(a, self.answers.rounds(&board)?)?;
            }
            Ok(())
        })
    }
}

/// The cases of either puzzle, of any size, as `boardbase cases
/// flip|euler` and `boardbase check flip|euler` draw them.
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)] // one per run, never in a collection
pub enum SizedCases<'a> {
    /// Flip Game boards.
    Flip(FlipCases<'a>),
    /// Game of Euler positions.
    Euler(EulerCases<'a>),
}

/// Rounds of a board of at most 64×64 cells: at most 4,096.
fn rounds16(rounds: usize) -> u16 {
    u16::try_from(rounds).unwrap_or(u16::MAX)
}

/// The judge's answer to one board of [`SizedCases`], as `check` keeps
/// it (a few bytes: the 65,536 of a 4×4 check are held while programs
/// are started, whose peak memory counts the parent's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SizedAnswer {
    /// Flip: the fewest rounds, `None` when neither colour can be reached.
    Rounds(Option<u16>),
    /// Euler: who wins, and the moves left with perfect play when the
    /// table holds them.
    Outcome(Outcome, Option<u8>),
}

impl SizedAnswer {
    /// The judge's answer: the rounds or `Impossible`, `WINNING` or
    /// `LOSING`.
    pub fn text(&self) -> String {
        match self {
            SizedAnswer::Rounds(Some(r)) => r.to_string(),
            SizedAnswer::Rounds(None) => "Impossible".to_owned(),
            SizedAnswer::Outcome(outcome, _) => outcome.answer().to_owned(),
        }
    }
}

impl SizedCases<'_> {
    /// The board shape.
    pub fn shape(&self) -> Shape {
        match self {
            SizedCases::Flip(c) => c.shape(),
            SizedCases::Euler(c) => c.shape(),
        }
    }

    /// Whether the cases are drawn as random grids (every shape but 4×4)
    /// rather than from the list of every eligible board
    /// ([`SizedCases::listed`]).
    pub fn is_drawn(&self) -> bool {
        match self {
            SizedCases::Flip(c) => c.every.is_none(),
            SizedCases::Euler(c) => c.every.is_none(),
        }
    }

    /// Every eligible board's bits (cell (r, c) at bit `C·r + c`),
    /// ascending, when the cases are drawn from such a list (4×4:
    /// `boardbase check` sends them all); `None` for the shapes whose
    /// cases are random grids.
    pub fn listed(&self) -> Option<Vec<u64>> {
        let bits = match self {
            SizedCases::Flip(c) => &c.every.as_ref()?.bits,
            SizedCases::Euler(c) => &c.every.as_ref()?.bits,
        };
        Some(bits.iter().map(|&b| u64::from(b)).collect())
    }

    /// `count` boards drawn from `Rng::new(seed)`: those
    /// [`SizedCases::write`] writes.
    pub fn draw(&self, count: usize, seed: u64) -> Result<Vec<Grid>, CasesError> {
        let mut rng = Rng::new(seed);
        let shape = self.shape();
        (0..count)
            .map(|_| match self {
                SizedCases::Flip(c) => c.pick(&mut rng),
                SizedCases::Euler(c) => Grid::from_u64(shape, c.pick(&mut rng)?)
                    .map_err(|e| CasesError::Size(e.to_string())),
            })
            .collect()
    }

    /// The judge's answer to `board`, from the table or solver that
    /// answers these cases.
    pub fn answer(&self, board: &Grid) -> Result<SizedAnswer, CasesError> {
        match self {
            SizedCases::Flip(c) => Ok(SizedAnswer::Rounds(c.answers.rounds(board)?.map(rounds16))),
            SizedCases::Euler(c) => {
                let p = board.to_u64().ok_or_else(|| {
                    CasesError::Size(format!("a {} board is not a position", board.shape()))
                })?;
                let entry = c.table.probe(p)?;
                Ok(SizedAnswer::Outcome(entry.outcome, entry.moves_left))
            }
        }
    }

    /// [`FlipCases::write`] or [`EulerCases::write`]: `cases` judge cases
    /// drawn from `seed` into `input`, their answers into `answers`.
    pub fn write<W: Write + ?Sized, A: Write + ?Sized>(
        &self,
        cases: u64,
        seed: u64,
        input: &mut W,
        answers: Option<&mut A>,
        progress: &mut dyn FnMut(u64),
    ) -> Result<(), CasesError> {
        match self {
            SizedCases::Flip(c) => c.write(cases, seed, input, answers, progress),
            SizedCases::Euler(c) => c.write(cases, seed, input, answers, progress),
        }
    }
}

/// The filter of the cases of one puzzle: [`SizedAnswers::cases`].
#[derive(Clone, Copy, Debug)]
pub enum SizedFilter {
    /// Flip Game boards.
    Flip(flip::Filter),
    /// Game of Euler positions.
    Euler(euler::Filter),
}

/// What answers the cases of one puzzle and shape that `boardbase cases
/// flip|euler` writes and `boardbase check flip|euler` judges, as the tablebase
/// finds it ([`Tablebase::flip_answers`], [`Tablebase::euler_answers`]):
/// a table, or for Flip the GF(2) solver.
///
/// ```
/// use boardbase::cases::{flip, sized::{SizedAnswers, SizedFilter}};
/// use boardbase::tables::shape::Shape;
/// use boardbase::tablebase::Tablebase;
/// use boardbase::tablefile::Puzzle;
///
/// // Three solvable 5×5 Flip boards, answered by GF(2).
/// let answers = SizedAnswers::new(&Tablebase::new(), Puzzle::Flip, Shape::new(5, 5).unwrap())?;
/// let filter = flip::Filter { category: flip::FlipCategory::Solvable, rounds: None };
/// let (mut input, mut expected) = (Vec::new(), Vec::new());
/// answers.cases(SizedFilter::Flip(filter))?.write(3, 1, &mut input, Some(&mut expected), &mut |_| {})?;
/// assert_eq!(input.len(), 3 * 5 * 6); // 5 rows of 5 cells and a newline, a board
/// assert!(!String::from_utf8(expected)?.contains("Impossible"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub enum SizedAnswers {
    /// Flip boards: a table or the GF(2) solver.
    Flip(tablebase::FlipAnswers),
    /// Euler positions: a table (a file, the embedded one, or made in
    /// memory).
    Euler(Loaded),
}

impl SizedAnswers {
    /// What answers `puzzle` on `shape` in `tablebase` (Euler tables made in
    /// memory now, on this thread).
    pub fn new(
        tablebase: &Tablebase,
        puzzle: Puzzle,
        shape: Shape,
    ) -> Result<SizedAnswers, tablebase::Error> {
        Ok(match puzzle {
            Puzzle::Flip => SizedAnswers::Flip(tablebase.flip_answers(shape)?),
            Puzzle::Euler => SizedAnswers::Euler(tablebase.euler_answers(shape, |_| {})?),
        })
    }

    /// The table answering, with where it came from (`None`: the GF(2)
    /// solver).
    pub fn table(&self) -> Option<&Loaded> {
        match self {
            SizedAnswers::Flip(answers) => answers.table(),
            SizedAnswers::Euler(loaded) => Some(loaded),
        }
    }

    /// The cases `filter` accepts ([`FlipCases::new`], [`EulerCases::new`]);
    /// a filter of the other puzzle is [`CasesError::Size`].
    pub fn cases(&self, filter: SizedFilter) -> Result<SizedCases<'_>, CasesError> {
        Ok(match (self, filter) {
            (SizedAnswers::Flip(answers), SizedFilter::Flip(filter)) => {
                SizedCases::Flip(FlipCases::new(answers.view()?, filter)?)
            }
            (SizedAnswers::Euler(loaded), SizedFilter::Euler(filter)) => {
                SizedCases::Euler(EulerCases::new(loaded.table().as_euler()?, filter)?)
            }
            _ => return Err(CasesError::Size("a filter of the other puzzle".to_owned())),
        })
    }
}
