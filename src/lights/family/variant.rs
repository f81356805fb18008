//! What a member of the family is: the board's shape, the number of
//! colours, the torus or not, and the pattern a press changes
//! ([`Variant`], [`Pattern`], [`Stencil`]); what a board should become
//! ([`FamilyGoal`]). Their errors are the family's one error,
//! [`LightsError`].

use core::fmt;
use core::str::FromStr;

use boardbase_tables::shape::Shape;

use super::board::ColourGrid;
use crate::lights::error::{
    LightsError, MAX_COLOURS, MAX_STENCIL_SIDE, MIN_COLOURS, StencilErrorKind,
};

/// The cells a press changes, as offsets from the pressed cell.
///
/// Every pattern is centred on the pressed cell; the named ones are 3×3:
///
/// ```text
///   plus      neighbours   x         king
///   . # .     . # .        # . #     # # #
///   # # #     # . #        . # .     # # #
///   . # .     . # .        # . #     # # #
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Pattern {
    /// The cell and its 4 orthogonal neighbours (Lights Out, Flip Game,
    /// Fliptile): the default.
    #[default]
    Plus,
    /// The 4 orthogonal neighbours only, not the cell (the σ game).
    Neighbours,
    /// The cell and its 4 diagonal neighbours.
    X,
    /// The cell and the 8 around it.
    King,
    /// Any stencil of odd height and width (see [`Stencil`]).
    Stencil(Stencil),
}

impl Pattern {
    /// The named patterns, in the order of the documentation.
    pub const NAMED: [Pattern; 4] = [
        Pattern::Plus,
        Pattern::Neighbours,
        Pattern::X,
        Pattern::King,
    ];

    /// The offsets (`row`, `col`) from the pressed cell that a press
    /// changes, in reading order of the stencil, each once.
    pub fn offsets(&self) -> Vec<(isize, isize)> {
        let named: &[(isize, isize)] = match self {
            Pattern::Plus => &[(-1, 0), (0, -1), (0, 0), (0, 1), (1, 0)],
            Pattern::Neighbours => &[(-1, 0), (0, -1), (0, 1), (1, 0)],
            Pattern::X => &[(-1, -1), (-1, 1), (0, 0), (1, -1), (1, 1)],
            Pattern::King => &[
                (-1, -1),
                (-1, 0),
                (-1, 1),
                (0, -1),
                (0, 0),
                (0, 1),
                (1, -1),
                (1, 0),
                (1, 1),
            ],
            Pattern::Stencil(s) => return s.offsets(),
        };
        named.to_vec()
    }

    /// The pattern as a [`Stencil`] (the named ones as their 3×3 stencils).
    pub fn stencil(&self) -> Stencil {
        match self {
            Pattern::Stencil(s) => s.clone(),
            named => Stencil::from_offsets(&named.offsets()),
        }
    }
}

impl fmt::Display for Pattern {
    /// The name (`plus`, `neighbours`, `x`, `king`) or the stencil's rows.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Pattern::Plus => f.write_str("plus"),
            Pattern::Neighbours => f.write_str("neighbours"),
            Pattern::X => f.write_str("x"),
            Pattern::King => f.write_str("king"),
            Pattern::Stencil(s) => write!(f, "{s}"),
        }
    }
}

impl FromStr for Pattern {
    type Err = LightsError;

    /// `plus`, `neighbours`, `x`, `king`, or a stencil's rows (any text
    /// holding `#`, `.` or `/` is read as a stencil, see [`Stencil`]).
    ///
    /// ```
    /// use boardbase::lights::LightsError;
    /// use boardbase::lights::family::{Pattern, StencilErrorKind};
    ///
    /// assert_eq!("king".parse::<Pattern>()?, Pattern::King);
    /// // A stencil that is the plus is still a stencil, printed as its rows:
    /// let p: Pattern = ".#./###/.#.".parse()?;
    /// assert_eq!(p.to_string(), ".#./###/.#.");
    /// assert_eq!(p.offsets(), Pattern::Plus.offsets());
    /// assert!(matches!("plux".parse::<Pattern>(), Err(LightsError::Pattern(_))));
    /// assert_eq!(
    ///     "##/##".parse::<Pattern>(),
    ///     Err(LightsError::Stencil { column: 3, kind: StencilErrorKind::EvenWidth(2) })
    /// );
    /// # Ok::<(), LightsError>(())
    /// ```
    fn from_str(text: &str) -> Result<Pattern, LightsError> {
        match text {
            "plus" => Ok(Pattern::Plus),
            "neighbours" => Ok(Pattern::Neighbours),
            "x" => Ok(Pattern::X),
            "king" => Ok(Pattern::King),
            _ if text.contains(['#', '.', '/']) => Ok(Pattern::Stencil(text.parse()?)),
            _ => Err(LightsError::Pattern(text.to_owned())),
        }
    }
}

/// A custom press pattern: rows of `#` (a cell the press changes) and `.`
/// (a cell it leaves), separated by `/` (or newlines), of odd height and
/// width (at most [`MAX_STENCIL_SIDE`]), centred on the pressed cell, with
/// at least one `#`.
///
/// ```
/// use boardbase::lights::family::Stencil;
///
/// // The knight's moves:
/// let knight: Stencil = Stencil::KNIGHT.parse()?;
/// assert_eq!((knight.height(), knight.width()), (5, 5));
/// assert_eq!(knight.offsets().len(), 8);
/// assert_eq!(knight.offsets()[0], (-2, -1));
/// assert_eq!(knight.to_string(), Stencil::KNIGHT);
/// # Ok::<(), boardbase::lights::LightsError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Stencil {
    height: usize,
    width: usize,
    /// Row-major, `true` = `#`.
    cells: Vec<bool>,
}

impl Stencil {
    /// The knight's moves, a 5×5 stencil.
    pub const KNIGHT: &'static str = ".#.#./#...#/...../#...#/.#.#.";

    /// The stencil's height (odd).
    pub fn height(&self) -> usize {
        self.height
    }

    /// The stencil's width (odd).
    pub fn width(&self) -> usize {
        self.width
    }

    /// Whether the stencil changes the cell at offset (`dr`, `dc`).
    pub fn get(&self, dr: isize, dc: isize) -> bool {
        let (hr, hc) = ((self.height / 2) as isize, (self.width / 2) as isize);
        if dr.abs() > hr || dc.abs() > hc {
            return false;
        }
        self.cells[(dr + hr) as usize * self.width + (dc + hc) as usize]
    }

    /// The offsets of its `#` cells from the centre, in reading order.
    pub fn offsets(&self) -> Vec<(isize, isize)> {
        let (hr, hc) = ((self.height / 2) as isize, (self.width / 2) as isize);
        (0..self.height * self.width)
            .filter(|&i| self.cells[i])
            .map(|i| {
                (
                    (i / self.width) as isize - hr,
                    (i % self.width) as isize - hc,
                )
            })
            .collect()
    }

    /// The smallest square stencil holding these offsets.
    fn from_offsets(offsets: &[(isize, isize)]) -> Stencil {
        let h = offsets
            .iter()
            .map(|&(r, c)| r.unsigned_abs().max(c.unsigned_abs()))
            .max()
            .unwrap_or(0);
        let side = 2 * h + 1;
        let mut cells = vec![false; side * side];
        for &(r, c) in offsets {
            cells[(r + h as isize) as usize * side + (c + h as isize) as usize] = true;
        }
        Stencil {
            height: side,
            width: side,
            cells,
        }
    }
}

impl fmt::Display for Stencil {
    /// The rows, separated by `/`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, row) in self.cells.chunks(self.width).enumerate() {
            if i > 0 {
                f.write_str("/")?;
            }
            for &on in row {
                f.write_str(if on { "#" } else { "." })?;
            }
        }
        Ok(())
    }
}

impl FromStr for Stencil {
    type Err = LightsError;

    fn from_str(text: &str) -> Result<Stencil, LightsError> {
        fn err<T>(column: usize, kind: StencilErrorKind) -> Result<T, LightsError> {
            Err(LightsError::Stencil { column, kind })
        }
        let mut cells = Vec::new();
        let (mut width, mut height, mut in_row) = (None::<usize>, 0usize, 0usize);
        let mut end_row = |column: usize, in_row: &mut usize| -> Result<(), LightsError> {
            match width {
                _ if *in_row == 0 => return err(column, StencilErrorKind::EmptyRow),
                None => width = Some(*in_row),
                Some(w) if w != *in_row => {
                    return err(
                        column,
                        StencilErrorKind::RaggedRow {
                            expected: w,
                            found: *in_row,
                        },
                    );
                }
                Some(_) => {}
            }
            height += 1;
            *in_row = 0;
            Ok(())
        };
        let mut column = 0;
        for (i, ch) in text.char_indices() {
            column = i + 1;
            match ch {
                '#' | '.' => {
                    cells.push(ch == '#');
                    in_row += 1;
                    if in_row > MAX_STENCIL_SIDE {
                        return err(column, StencilErrorKind::TooWide);
                    }
                }
                '/' | '\n' => end_row(column, &mut in_row)?,
                '\r' if text[i + 1..].starts_with('\n') => {}
                other => return err(column, StencilErrorKind::Char(other)),
            }
        }
        let end = column + 1;
        end_row(end, &mut in_row)?;
        let width = width.unwrap_or(0);
        if width % 2 == 0 {
            // The column where the first row ends: a centre needs one more.
            return err(width + 1, StencilErrorKind::EvenWidth(width));
        }
        if height % 2 == 0 {
            return err(end, StencilErrorKind::EvenHeight(height));
        }
        if height > MAX_STENCIL_SIDE {
            return err(end, StencilErrorKind::TooTall(height));
        }
        if !cells.contains(&true) {
            return err(1, StencilErrorKind::NoCell);
        }
        Ok(Stencil {
            height,
            width,
            cells,
        })
    }
}

/// One member of the family: an R×C board of K colours, played on a
/// rectangle or a torus, a press changing the cells of a [`Pattern`].
///
/// Built by [`Variant::new`], which checks the shape and the colours,
/// then [`with_wrap`](Self::with_wrap) and [`with_pattern`](Self::with_pattern):
///
/// ```
/// use boardbase::lights::LightsError;
/// use boardbase::lights::family::{Pattern, Variant};
///
/// let classic = Variant::new(5, 5, 2)?;
/// assert_eq!((classic.rows(), classic.cols(), classic.colours()), (5, 5, 2));
/// assert!(!classic.wrap() && classic.pattern() == &Pattern::Plus);
/// let torus = Variant::new(6, 6, 3)?.with_wrap(true).with_pattern(Pattern::King);
/// assert_eq!(torus.to_string(), "6x6, 3 colours, king, torus");
/// assert_eq!(Variant::new(5, 5, 17), Err(LightsError::Colours(17)));
/// assert_eq!(Variant::new(0, 5, 2), Err(LightsError::Size { rows: 0, cols: 5 }));
/// # Ok::<(), LightsError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Variant {
    shape: Shape,
    colours: u8,
    wrap: bool,
    pattern: Pattern,
}

impl Variant {
    /// The plus pattern on a `rows`×`cols` rectangle (1 to 64 each) of
    /// `colours` colours ([`MIN_COLOURS`] to [`MAX_COLOURS`]).
    pub fn new(rows: usize, cols: usize, colours: u8) -> Result<Variant, LightsError> {
        let shape = Shape::new(rows, cols).ok_or(LightsError::Size { rows, cols })?;
        Variant::of_shape(shape, colours)
    }

    /// [`new`](Self::new) for a shape.
    pub fn of_shape(shape: Shape, colours: u8) -> Result<Variant, LightsError> {
        if !(MIN_COLOURS..=MAX_COLOURS).contains(&colours) {
            return Err(LightsError::Colours(colours.into()));
        }
        Ok(Variant {
            shape,
            colours,
            wrap: false,
            pattern: Pattern::Plus,
        })
    }

    /// [`new`](Self::new) for a number of colours given as any integer
    /// (from an option or a query), refused out of range.
    pub fn with_colours(rows: usize, cols: usize, colours: u64) -> Result<Variant, LightsError> {
        let k = u8::try_from(colours).map_err(|_| LightsError::Colours(colours))?;
        Variant::new(rows, cols, k).map_err(|e| match e {
            LightsError::Colours(_) => LightsError::Colours(colours),
            other => other,
        })
    }

    /// The same variant on a torus (`true`: the pattern wraps around the
    /// edges) or a rectangle (`false`: it is clipped at the border).
    pub fn with_wrap(mut self, wrap: bool) -> Variant {
        self.wrap = wrap;
        self
    }

    /// The same variant with another press pattern.
    pub fn with_pattern(mut self, pattern: Pattern) -> Variant {
        self.pattern = pattern;
        self
    }

    /// The board's shape.
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

    /// The number of colours `K`: a cell holds 0 to `K − 1`.
    pub fn colours(&self) -> u8 {
        self.colours
    }

    /// Whether the board is a torus.
    pub fn wrap(&self) -> bool {
        self.wrap
    }

    /// The press pattern.
    pub fn pattern(&self) -> &Pattern {
        &self.pattern
    }

    /// Whether this is the classic game (2 colours, plus, no wrap), the one
    /// the GF(2) [`Solver`](crate::lights::Solver) answers.
    pub fn is_classic(&self) -> bool {
        self.colours == 2 && !self.wrap && self.pattern == Pattern::Plus
    }

    /// The board after pressing each cell as many times as `presses` says
    /// (the variant's rule; presses commute).
    ///
    /// # Panics
    ///
    /// Panics if a grid is not of the variant's shape.
    pub fn apply(&self, board: &ColourGrid, presses: &ColourGrid) -> ColourGrid {
        assert_eq!(board.shape(), self.shape(), "a board of another shape");
        assert_eq!(presses.shape(), self.shape(), "presses of another shape");
        let k = self.colours();
        let mut out = board.clone();
        for (p, &times) in presses.cells().iter().enumerate() {
            if times % k != 0 {
                for c in self.reach(p) {
                    let cell = &mut out.cells_mut()[c];
                    *cell = ((u32::from(*cell) + u32::from(times)) % u32::from(k)) as u8;
                }
            }
        }
        out
    }

    /// The cells (row-major indices) a press at cell `index` changes: the
    /// pattern's offsets clipped at the border or wrapped around, each cell
    /// once (on a torus smaller than the pattern, offsets that land on the
    /// same cell change it once), in increasing order.
    pub fn reach(&self, index: usize) -> Vec<usize> {
        self.cells_at(index, &self.pattern.offsets(), 1)
    }

    /// The cells whose press changes cell `index`, in increasing order.
    pub(super) fn reached_by(&self, index: usize, offsets: &[(isize, isize)]) -> Vec<usize> {
        self.cells_at(index, offsets, -1)
    }

    /// The cells at `sign` × each offset from `index`, clipped or wrapped,
    /// sorted, each once.
    pub(super) fn cells_at(
        &self,
        index: usize,
        offsets: &[(isize, isize)],
        sign: isize,
    ) -> Vec<usize> {
        let (rows, cols) = (self.rows() as isize, self.cols() as isize);
        let (r, c) = (
            (index / self.cols()) as isize,
            (index % self.cols()) as isize,
        );
        let mut out: Vec<usize> = offsets
            .iter()
            .filter_map(|&(dr, dc)| {
                let (mut rr, mut cc) = (r + sign * dr, c + sign * dc);
                if self.wrap {
                    rr = rr.rem_euclid(rows);
                    cc = cc.rem_euclid(cols);
                } else if !(0..rows).contains(&rr) || !(0..cols).contains(&cc) {
                    return None;
                }
                Some((rr * cols + cc) as usize)
            })
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }
}

impl fmt::Display for Variant {
    /// `RxC, K colours, pattern[, torus]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}, {} colours, {}",
            self.shape, self.colours, self.pattern
        )?;
        if self.wrap {
            f.write_str(", torus")?;
        }
        Ok(())
    }
}

/// What a board should become.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FamilyGoal {
    /// Every cell this colour (0 to K − 1). `Colour(0)` is the default:
    /// every light off.
    Colour(u8),
    /// Every cell one colour, any: the fewest presses over all colours
    /// (the least colour on a tie).
    Any,
}

impl Default for FamilyGoal {
    /// `Colour(0)`: every light off.
    fn default() -> FamilyGoal {
        FamilyGoal::OFF
    }
}

impl FamilyGoal {
    /// Every light off: `Colour(0)`.
    pub const OFF: FamilyGoal = FamilyGoal::Colour(0);
}

impl fmt::Display for FamilyGoal {
    /// The colour's digit (`a` to `f` for 10 to 15) or `any`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            FamilyGoal::Colour(d) => write!(f, "{d:x}"),
            FamilyGoal::Any => f.write_str("any"),
        }
    }
}

impl FromStr for FamilyGoal {
    type Err = LightsError;

    /// `any`, or a colour as a decimal number (0 to 15) or one hex digit
    /// (`a` to `f`); whether it is below the variant's K is checked when
    /// solving.
    fn from_str(text: &str) -> Result<FamilyGoal, LightsError> {
        if text == "any" {
            return Ok(FamilyGoal::Any);
        }
        let d = match text.parse::<u8>() {
            Ok(d) => d,
            Err(_) if text.len() == 1 => {
                u8::from_str_radix(text, 16).map_err(|_| LightsError::Goal(text.to_owned()))?
            }
            Err(_) => return Err(LightsError::Goal(text.to_owned())),
        };
        if d >= MAX_COLOURS {
            return Err(LightsError::Goal(text.to_owned()));
        }
        Ok(FamilyGoal::Colour(d))
    }
}
