//! What a [`Tablebase`](super::Tablebase) answers, shape by shape: the
//! object of the server's `GET /api/v1/sizes`.

use boardbase_tables::shape::Shape;
use serde::Serialize;

/// The board shapes answered, per puzzle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Sizes {
    /// Flip shapes with tables: the embedded 4×4 and the table files.
    pub flip: Vec<SizeEntry>,
    /// Every other Flip shape: the GF(2) solver.
    pub flip_gf2: Gf2Range,
    /// Euler shapes: the embedded 4×4, the table files, and the shapes
    /// made in memory on first use.
    pub euler: Vec<SizeEntry>,
    /// The rules of the Euler tables made in memory.
    pub euler_made: MadeRange,
}

/// One shape answered from a table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SizeEntry {
    /// `RxC`, as the `size` parameter takes it.
    pub size: String,
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// `embedded`, `file` or `made on demand`.
    pub source: &'static str,
    /// The table file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// Euler: whether the table holds win/loss only (`moves_left` null).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wdl_only: Option<bool>,
    /// Made on demand: whether the table is in memory now.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub in_memory: Option<bool>,
    /// Made on demand: the memory making it takes (reserved against the
    /// budget while it is made).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub make_bytes: Option<u64>,
    /// A file that cannot be used: why (its lookups answer 422).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl SizeEntry {
    pub(crate) fn new(shape: Shape, source: &'static str) -> SizeEntry {
        SizeEntry {
            size: shape.to_string(),
            rows: shape.rows(),
            cols: shape.cols(),
            source,
            file: None,
            wdl_only: None,
            in_memory: None,
            make_bytes: None,
            error: None,
        }
    }
}

/// Flip boards answered by GF(2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Gf2Range {
    /// Most rows.
    pub max_rows: usize,
    /// Most columns.
    pub max_cols: usize,
    /// The largest nullity searched exactly.
    pub max_nullity: usize,
    /// The shapes within the sides whose nullity is past it (422).
    pub beyond: Vec<String>,
}

/// Euler tables made in memory.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MadeRange {
    /// Most squares of a shape made on demand (0: none).
    pub max_cells: usize,
    /// The memory they may take (`--make-memory`).
    pub memory_budget_bytes: u64,
    /// The memory they take now.
    pub memory_held_bytes: u64,
}
