//! The one error of Flip, Lights Out and the Lights Out family,
//! [`LightsError`]: rows or bits that make no board of the shape, options
//! that make no variant (its size, colours, pattern, stencil, goal), a board
//! or goal that does not fit the variant, and a search past its limit. It
//! stands apart from the solvers and the variants that give it, with the
//! limits its messages name.

use boardbase_tables::shape::{MAX_SIDE, Shape};

use crate::error::kind::{Classify, Kind, SEARCH_HINT};

/// The fewest colours a variant has (the classic game: off and on).
pub const MIN_COLOURS: u8 = 2;

/// The most colours a variant has (one hex digit a cell).
pub const MAX_COLOURS: u8 = 16;

/// The largest height and width of a custom [`Stencil`](super::family::Stencil).
pub const MAX_STENCIL_SIDE: usize = 15;

/// Why a board of Flip, Lights Out or the Lights Out family could not be
/// made or answered: by the GF(2) [`Solver`](super::Solver) or the
/// family's [`FamilySolver`](super::family::FamilySolver), of a
/// [`Grid`](super::Grid) or a [`Variant`](super::family::Variant).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LightsError {
    /// The shape's nullity is above the limit of the search (by default
    /// [`MAX_NULLITY`](super::MAX_NULLITY)): its `2^nullity` press sets per
    /// board were not searched, so no answer is claimed minimal.
    /// [`Solver::any_solution`](super::Solver::any_solution) still gives a
    /// press set.
    #[error(
        "a {shape} board has nullity {nullity} (2^{nullity} press sets reach each colour); the fewest presses are only searched up to nullity {max}"
    )]
    NullityTooLarge {
        /// The board's shape.
        shape: Shape,
        /// Its nullity.
        nullity: usize,
        /// The limit of the search.
        max: usize,
    },
    /// A variant of the family with more quiet patterns than the search's
    /// limit: each goal has that many press vectors, which were not
    /// searched, so no answer is claimed minimal.
    /// [`FamilySolver::any_solution`](super::family::FamilySolver::any_solution)
    /// still gives one.
    #[error(
        "a {variant} board has {quiet} quiet patterns, more than 2^{max_bits}: the fewest presses are only searched up to 2^{max_bits} press vectors a goal"
    )]
    SearchTooLarge {
        /// The variant.
        variant: String,
        /// How many quiet patterns it has, in decimal.
        quiet: String,
        /// The limit of the search, in bits.
        max_bits: usize,
    },
    /// The board's shape is not the solver's (the variant's).
    #[error("a {found} board given to the solver of {expected} boards")]
    ShapeMismatch {
        /// The solver's shape.
        expected: Shape,
        /// The board's.
        found: Shape,
    },
    /// A cell of the board holds a colour the variant does not have.
    #[error("cell ({row}, {col}) holds colour {colour}, but there are {colours} colours (0 to {})", colours - 1)]
    CellColour {
        /// 0-based row.
        row: usize,
        /// 0-based column.
        col: usize,
        /// Its colour.
        colour: u8,
        /// The variant's K.
        colours: u8,
    },
    /// The goal is a colour the variant does not have.
    #[error("goal colour {colour}, but there are {colours} colours (0 to {})", colours - 1)]
    GoalColour {
        /// The goal's colour.
        colour: u8,
        /// The variant's K.
        colours: u8,
    },
    // Rows or bits that make no grid of the shape.
    /// The number of rows given is not the shape's.
    #[error("expected {expected} rows, found {found}")]
    RowCount {
        /// The shape's rows.
        expected: usize,
        /// The rows given.
        found: usize,
    },
    /// A row has a bit set past the shape's last column.
    #[error("row {row} has a cell past column {cols}")]
    RowTooWide {
        /// The 0-based row.
        row: usize,
        /// The shape's columns.
        cols: usize,
    },
    /// The shape has more than 64 cells, or the bits go past its cells.
    #[error("a {shape} board does not hold the bits {bits:#x} (one u64 holds at most 64 cells)")]
    Bits {
        /// The shape.
        shape: Shape,
        /// The bits given.
        bits: u64,
    },
    // Options that make no variant.
    /// A side outside 1 to 64.
    #[error("a {rows}x{cols} board: rows and columns are 1 to {MAX_SIDE}")]
    Size {
        /// The rows asked for.
        rows: usize,
        /// The columns asked for.
        cols: usize,
    },
    /// A number of colours outside 2 to 16.
    #[error("{0} colours: the colours are {MIN_COLOURS} to {MAX_COLOURS}")]
    Colours(u64),
    /// A pattern neither a name nor a stencil.
    #[error(
        "unknown pattern {0:?}: expected plus, neighbours, x, king or a stencil such as .#./###/.#."
    )]
    Pattern(String),
    /// A stencil that could not be read, at a 1-based column (in bytes) of
    /// its text.
    #[error("stencil column {column}: {kind}")]
    Stencil {
        /// 1-based column, in bytes, of the stencil's text.
        column: usize,
        /// What is wrong there.
        kind: StencilErrorKind,
    },
    /// A goal that could not be read: see
    /// [`FamilyGoal`](super::family::FamilyGoal)'s `FromStr`.
    #[error("unknown goal {0:?}: expected a colour 0 to 15 (or a to f) or 'any'")]
    Goal(String),
}

impl Classify for LightsError {
    /// Past the search's limit ([`Kind::Search`]); rows, bits or a board of
    /// another shape than the solver's ([`Kind::Mismatch`]); a stencil's
    /// text that does not read ([`Kind::Syntax`]); options that make no
    /// variant, a board or goal of a colour the variant does not have
    /// ([`Kind::Option`]).
    fn kind(&self) -> Kind {
        match self {
            LightsError::NullityTooLarge { .. } | LightsError::SearchTooLarge { .. } => {
                Kind::Search
            }
            LightsError::ShapeMismatch { .. }
            | LightsError::RowCount { .. }
            | LightsError::RowTooWide { .. }
            | LightsError::Bits { .. } => Kind::Mismatch,
            LightsError::Stencil { .. } => Kind::Syntax,
            LightsError::CellColour { .. }
            | LightsError::GoalColour { .. }
            | LightsError::Size { .. }
            | LightsError::Colours(_)
            | LightsError::Pattern(_)
            | LightsError::Goal(_) => Kind::Option,
        }
    }

    fn hint(&self) -> Option<&'static str> {
        (self.kind() == Kind::Search).then_some(SEARCH_HINT)
    }
}

/// What is wrong with a stencil, at a column of its text: see
/// [`LightsError::Stencil`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StencilErrorKind {
    /// A character other than `#`, `.`, `/` and a newline.
    #[error("expected '#', '.' or '/', found {0:?}")]
    Char(char),
    /// A row with no cell (an empty stencil, or two `/` in a row).
    #[error("expected '#' or '.', found the end of a row with no cell")]
    EmptyRow,
    /// A row longer or shorter than the first.
    #[error("a row of {found} cells where the first has {expected}")]
    RaggedRow {
        /// The first row's width.
        expected: usize,
        /// This row's.
        found: usize,
    },
    /// A row of more than [`MAX_STENCIL_SIDE`] cells.
    #[error("a row of more than {MAX_STENCIL_SIDE} cells")]
    TooWide,
    /// More than [`MAX_STENCIL_SIDE`] rows.
    #[error("{0} rows, more than {MAX_STENCIL_SIDE}")]
    TooTall(usize),
    /// An even number of columns: no centre column.
    #[error("{0} columns: a stencil has an odd width, centred on the pressed cell")]
    EvenWidth(usize),
    /// An even number of rows: no centre row.
    #[error("{0} rows: a stencil has an odd height, centred on the pressed cell")]
    EvenHeight(usize),
    /// No `#`: a press would change nothing.
    #[error("no '#': a press would change nothing")]
    NoCell,
}
