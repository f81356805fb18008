//! Version 5: one entry a class of positions under the board's symmetries
//! ([`Classes`]). The header's `index` field (the symmetries and the key
//! cells), its check against the board, and the `classes` column (each
//! class's canonical key pattern) that lets a reader in another language
//! find a position's class by binary search.

use std::sync::Arc;

use boardbase_tables::classes::Classes;
use boardbase_tables::shape::Shape;
use serde::{Deserialize, Serialize};

use super::TableError;

/// The layout version of a table with one entry a class: version 4's
/// columns, and the header's `index` field after them.
pub(crate) const VERSION_5: u32 = 5;

/// The name of the column of each class's canonical key pattern.
pub(crate) const CLASSES: &str = "classes";

/// Bits of an entry of the `classes` column: a key pattern has at most
/// [`MAX_KEY_CELLS`](boardbase_tables::classes::MAX_KEY_CELLS) bits.
pub(crate) const CLASSES_WIDTH: u8 = 32;

/// The header's `index` field, as encoded (bincode's legacy configuration:
/// `u64` lengths before each list).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct IndexHeader {
    /// Per symmetry, in [`Classes::symmetries`] order (the identity first):
    /// the cell each cell maps to, one byte a cell.
    pub(crate) symmetries: Vec<Vec<u8>>,
    /// The key cells, in key-bit order.
    pub(crate) key: Vec<u8>,
}

impl IndexHeader {
    /// What a file says of `classes`.
    pub(crate) fn of(classes: &Classes) -> IndexHeader {
        IndexHeader::new(classes.cells(), classes.symmetries(), classes.key())
    }

    /// What a file says of [`Classes::of_shape`]'s index, without making
    /// it.
    pub(crate) fn of_shape(shape: Shape) -> IndexHeader {
        let images = Classes::board_symmetries(shape);
        IndexHeader::new(shape.cells(), &images, &Classes::key_of_shape(shape))
    }

    fn new(cells: usize, images: &[[u8; 64]], key: &[u8]) -> IndexHeader {
        IndexHeader {
            symmetries: images.iter().map(|image| image[..cells].to_vec()).collect(),
            key: key.to_vec(),
        }
    }

    /// The encoded field, appended to the rest of the header: bincode
    /// writes a struct's fields one after the other, so the header of
    /// version 5 is version 4's with these bytes after `columns`.
    pub(crate) fn encode(&self) -> Vec<u8> {
        bincode::serde::encode_to_vec(self, bincode::config::legacy())
            .expect("encoding into a Vec cannot fail")
    }

    /// The index a file of `shape` describes with `count` classes whose
    /// canonical patterns are not read yet: what its columns' entry counts
    /// are checked against before [`listed`](Self::listed) reads them.
    pub(crate) fn provisional(&self, shape: Shape, count: u64) -> Result<Arc<Classes>, TableError> {
        let patterns = 1u64 << self.key.len().min(63);
        if count == 0 || count > patterns {
            return Err(TableError::Index(format!(
                "its classes column has {count} entries, for {patterns} key patterns"
            )));
        }
        self.listed(shape, (0..count as u32).collect())
    }

    /// The index a file of `shape` describes, its classes' canonical key
    /// patterns `canonical` (its `classes` column, in order): made at no
    /// cost, a position's class found by a binary search in them
    /// ([`Classes::try_with_canonical`]). That they are the classes of the
    /// key patterns is `verify`'s to check.
    pub(crate) fn listed(
        &self,
        shape: Shape,
        canonical: Vec<u32>,
    ) -> Result<Arc<Classes>, TableError> {
        let expected = self.check_symmetries(shape)?;
        Classes::try_with_canonical(shape.cells(), &expected, &self.key, canonical)
            .map(Arc::new)
            .map_err(|e| TableError::Index(e.to_string()))
    }

    /// The board's symmetries, or an error unless they are the ones the
    /// index says, in the same order.
    pub(crate) fn check_symmetries(&self, shape: Shape) -> Result<Vec<[u8; 64]>, TableError> {
        // Only Euler and Flip boards (at most 36 squares) have one; the symmetries
        // of a board past 64 cells cannot even be drawn.
        let most = super::Puzzle::Euler.max_cells();
        if shape.cells() > most {
            return Err(TableError::Index(format!(
                "the {shape} board has {} cells: an index is for boards of at most {most}",
                shape.cells()
            )));
        }
        let expected = Classes::board_symmetries(shape);
        if self.symmetries.len() != expected.len()
            || self
                .symmetries
                .iter()
                .zip(&expected)
                .any(|(found, own)| found.as_slice() != &own[..shape.cells()])
        {
            return Err(TableError::Index(format!(
                "its {} symmetries are not the {} symmetries of the {shape} board, in their order",
                self.symmetries.len(),
                expected.len()
            )));
        }
        Ok(expected)
    }
}
