//! One entry a class of positions: a dense index of a bitboard's classes
//! under a group of cell permutations (a board's symmetries), as Syzygy's
//! tables and GamesmanOne's canonical positions keep one entry for all
//! the positions that are images of each other.
//!
//! # The index
//!
//! The cells are split in two sets that every symmetry maps onto
//! themselves (unions of the cells' orbits): the *key* cells and the
//! *rest*. A position's key pattern (its key cells, key bit `i` being cell
//! `key[i]`) falls in a class of patterns; the classes are numbered in the
//! order of their canonical pattern, the smallest of its images as a
//! number. A position's index is
//!
//! ```text
//! index = class(key pattern) · 2^rest_bits + rest pattern of g(position)
//! ```
//!
//! where `g` is the first symmetry that maps the key pattern onto its
//! canonical one and rest bit `j` is cell `rest[j]`. Every position of the
//! class of a key pattern whose images are all distinct has one index for
//! its whole class of positions; a key pattern that some symmetry maps onto
//! itself keeps an entry for every rest pattern, so a few positions are
//! stored more than once (with equal values). With 20 key cells of 6×6's
//! 36 that leaves 1/7.95 of the entries; see [`Classes::of_shape`].
//!
//! ```text
//! 6×6 key cells (K), the rest (.):
//!   K K K K K K
//!   K . . . . K
//!   K . . . . K        the corners and the two orbits of 8 on the edge
//!   K . . . . K
//!   K . . . . K
//!   K K K K K K
//! ```
//!
//! The index is the solver's layout too: the key pattern picks a block of
//! `2^rest_bits` positions, so that a generator solving block by block
//! solves one block a class of key patterns (see
//! [`euler::classes`](crate::euler::classes)).

use alloc::vec::Vec;

use crate::shape::Shape;

/// The most symmetries a [`Classes`] takes (a square board has 8).
pub const MAX_SYMMETRIES: usize = 8;

/// The most key cells: `2^22` key patterns, 20 MiB of tables.
pub const MAX_KEY_CELLS: usize = 22;

/// The dense index of a board's positions up to its symmetries (see the
/// [module](self)).
///
/// ```
/// use boardbase_tables::classes::Classes;
/// use boardbase_tables::shape::Shape;
///
/// let six = Shape::new(6, 6).unwrap();
/// let classes = Classes::of_shape(six);
/// assert_eq!((classes.key().len(), classes.rest().len()), (20, 16));
/// // 2^36 positions in 8.6 G entries: 7.95 times fewer.
/// assert_eq!(classes.entries(), 131_976 << 16);
///
/// // A position and its mirror image share their entry.
/// //   X X . . . .      . . . . X X
/// //   X . . . . .      . . . . . X
/// //   . . . . . .  =   . . . . . .
/// //   . . . . . .      . . . . . .
/// //   . . . . . .      . . . . . .
/// //   . . . . . .      . . . . . .
/// let left = six.bit(0, 0) | six.bit(0, 1) | six.bit(1, 0);
/// let right = six.bit(0, 5) | six.bit(0, 4) | six.bit(1, 5);
/// assert_eq!(classes.index(left), classes.index(right));
/// assert_eq!(classes.index(0), 0);
/// ```
#[derive(Clone, Debug)]
pub struct Classes {
    cells: usize,
    /// `images[g][c]`: the cell that symmetry `g` takes cell `c` to.
    images: Vec<[u8; 64]>,
    key: Vec<u8>,
    rest: Vec<u8>,
    /// Per key pattern: the class of its canonical pattern (empty in an
    /// index made of its canonical patterns, which computes it).
    class_of: Vec<u32>,
    /// Per key pattern: the first symmetry taking it to its canonical one
    /// (empty likewise).
    symmetry_of: Vec<u8>,
    /// The images of key patterns, as `rest_map` for the rest.
    key_map: Vec<u64>,
    key_chunks: usize,
    /// Per class: its canonical key pattern (increasing).
    canonical: Vec<u32>,
    /// `rest_map[(g * chunks + k) * 256 + byte]`: the image under `g` of
    /// the rest pattern `byte << 8k`.
    rest_map: Vec<u64>,
    rest_chunks: usize,
}

/// A cell permutation's image of a pattern over some cells, by bytes:
/// `map[(g * chunks + k) * 256 + byte]` is the image of `byte << 8k`.
fn byte_maps(images: &[[u8; 64]], cells: &[u8], place: &[u8; 64]) -> (Vec<u64>, usize) {
    let chunks = cells.len().div_ceil(8).max(1);
    let mut map = alloc::vec![0u64; images.len() * chunks * 256];
    for (g, image) in images.iter().enumerate() {
        for k in 0..chunks {
            let base = (g * chunks + k) * 256;
            // A byte's image is its lowest bit's and the rest's, found
            // before it: opening a table file makes these maps.
            for byte in 1..256usize {
                let bit = 8 * k + byte.trailing_zeros() as usize;
                let lowest = cells
                    .get(bit)
                    .map_or(0, |&c| 1u64 << place[image[c as usize] as usize]);
                map[base + byte] = map[base + (byte & (byte - 1))] | lowest;
            }
        }
    }
    (map, chunks)
}

#[inline(always)]
fn apply(map: &[u64], chunks: usize, g: usize, pattern: u64) -> u64 {
    let mut out = 0;
    for k in 0..chunks {
        out |= map[(g * chunks + k) * 256 + (pattern >> (8 * k) & 0xFF) as usize];
    }
    out
}

impl Classes {
    /// The index of `shape`'s positions under its symmetries
    /// ([`Shape::symmetries`]), with the key cells chosen as follows: the
    /// orbits of the cells (those of more than one cell), largest first and
    /// then by their first cell, each taken while the key stays within
    /// `max(cells − 14, min(cells − 8, 8))` cells (so that a solver's block
    /// of `2^rest_bits` positions holds at least 2^8 positions).
    ///
    /// | shape | key cells | classes | entries ÷ positions |
    /// | --- | ---: | ---: | ---: |
    /// | 4×4 | 8 | 43 | 1 / 5.95 |
    /// | 5×6 | 16 | 16,576 | 1 / 3.95 |
    /// | 6×6 | 20 | 131,976 | 1 / 7.95 |
    ///
    /// # Panics
    ///
    /// Panics if the shape has more than 64 cells.
    pub fn of_shape(shape: Shape) -> Classes {
        let images = Classes::board_symmetries(shape);
        let key = Classes::key_of(shape, &images);
        Classes::with_key(shape.cells(), &images, &key)
    }

    /// The sizes of [`of_shape`](Self::of_shape)'s index, its classes
    /// counted rather than enumerated: what a plan of memory or disk
    /// reads before anything is made.
    ///
    /// ```
    /// use boardbase_tables::classes::Classes;
    /// use boardbase_tables::shape::Shape;
    ///
    /// for (rows, cols) in [(4, 4), (5, 6), (6, 6), (2, 18)] {
    ///     let shape = Shape::new(rows, cols).unwrap();
    ///     let sizes = Classes::sizes_of_shape(shape);
    ///     if shape.cells() <= 30 {
    ///         assert_eq!(sizes, Classes::of_shape(shape).sizes());
    ///     }
    /// }
    /// let six = Classes::sizes_of_shape(Shape::new(6, 6).unwrap());
    /// assert_eq!((six.classes, six.rest_bits), (131_976, 16));
    /// ```
    ///
    /// # Panics
    ///
    /// Panics if the shape has more than 64 cells.
    pub fn sizes_of_shape(shape: Shape) -> IndexSizes {
        let images = Classes::board_symmetries(shape);
        let key = Classes::key_of(shape, &images);
        IndexSizes {
            classes: layer_counts(&images, &key).iter().sum(),
            key_cells: key.len(),
            rest_bits: (shape.cells() - key.len()) as u32,
            symmetries: images.len(),
        }
    }

    /// The number of classes of [`of_shape`](Self::of_shape)'s index whose
    /// key patterns have `k` cells set, for `k` from 0 to the key cells
    /// (the layers a solver takes them in), counted as
    /// [`sizes_of_shape`](Self::sizes_of_shape) counts them all: by
    /// Burnside's lemma, a symmetry fixing the patterns that set whole
    /// cycles of it.
    ///
    /// ```
    /// use boardbase_tables::classes::Classes;
    /// use boardbase_tables::shape::Shape;
    ///
    /// let four = Shape::new(4, 4).unwrap();
    /// let layers = Classes::layers_of_shape(four);
    /// // 4×4's 8 key cells are the orbit of 8 on the edge: one class of
    /// // patterns with none set, one with one set.
    /// assert_eq!(layers.len(), 9);
    /// assert_eq!((layers[0], layers[1]), (1, 1));
    /// assert_eq!(layers.iter().sum::<usize>(), Classes::of_shape(four).classes());
    /// ```
    ///
    /// # Panics
    ///
    /// Panics if the shape has more than 64 cells.
    pub fn layers_of_shape(shape: Shape) -> Vec<usize> {
        let images = Classes::board_symmetries(shape);
        layer_counts(&images, &Classes::key_of(shape, &images))
    }

    /// The key cells [`of_shape`](Self::of_shape) takes (in increasing
    /// order), `images` being the shape's symmetries.
    fn key_of(shape: Shape, images: &[[u8; 64]]) -> Vec<u8> {
        let cells = shape.cells();
        let limit = cells
            .saturating_sub(14)
            .max(cells.saturating_sub(8).min(8))
            .min(MAX_KEY_CELLS);
        let mut orbits = orbits(cells, images);
        orbits.retain(|o| o.len() > 1);
        orbits.sort_by_key(|o| (core::cmp::Reverse(o.len()), o[0]));
        let mut key = Vec::new();
        for orbit in orbits {
            if key.len() + orbit.len() <= limit {
                key.extend_from_slice(&orbit);
            }
        }
        key.sort_unstable();
        key
    }

    /// The key cells of [`of_shape`](Self::of_shape)'s index, in key-bit
    /// order: with [`board_symmetries`](Self::board_symmetries), what a
    /// table file's index says.
    ///
    /// # Panics
    ///
    /// Panics if the shape has more than 64 cells.
    pub fn key_of_shape(shape: Shape) -> Vec<u8> {
        Classes::key_of(shape, &Classes::board_symmetries(shape))
    }

    /// `shape`'s symmetries ([`Shape::symmetries`], in
    /// [`Shape::symmetric_board`]'s order) as cell permutations:
    /// `images[g][c]` is the cell symmetry `g` takes cell `c` to, entries
    /// past the board's cells 0. What [`of_shape`](Self::of_shape) takes, and
    /// what a table file's index must say.
    ///
    /// # Panics
    ///
    /// Panics if the shape has more than 64 cells.
    pub fn board_symmetries(shape: Shape) -> Vec<[u8; 64]> {
        assert!(shape.fits_u64(), "at most 64 cells");
        (0..shape.symmetries())
            .map(|g| {
                let mut image = [0u8; 64];
                for (c, slot) in image.iter_mut().enumerate().take(shape.cells()) {
                    *slot = shape.symmetric_board(1 << c, g).trailing_zeros() as u8;
                }
                image
            })
            .collect()
    }

    /// The index of positions of `cells` cells under the group of cell
    /// permutations `images` (`images[g][c]`: the cell symmetry `g` takes
    /// cell `c` to; `images[0]` the identity), with `key` as the key cells
    /// (key bit `i` is cell `key[i]`; the rest are the other cells in
    /// increasing order).
    ///
    /// # Panics
    ///
    /// Panics where [`try_with_key`](Self::try_with_key) returns an error.
    pub fn with_key(cells: usize, images: &[[u8; 64]], key: &[u8]) -> Classes {
        match Classes::try_with_key(cells, images, key) {
            Ok(classes) => classes,
            Err(e) => panic!("{e}"),
        }
    }

    /// As [`with_key`](Self::with_key), or why the arguments make no index
    /// (a reader of a table file checks what the file says with it).
    ///
    /// # Errors
    ///
    /// [`IndexError`]: `cells` over 64 (or 64 cells with no key cells),
    /// no symmetries or more than
    /// [`MAX_SYMMETRIES`], a first symmetry that is not the identity, one
    /// that is not a permutation of the cells or does not map `key` onto
    /// itself, or a `key` of cells out of range, repeated or more than
    /// [`MAX_KEY_CELLS`].
    pub fn try_with_key(
        cells: usize,
        images: &[[u8; 64]],
        key: &[u8],
    ) -> Result<Classes, IndexError> {
        let mut classes = Classes::unnumbered(cells, images, key)?;
        let patterns = 1usize << key.len();
        let mut class_of = alloc::vec![0u32; patterns];
        let mut symmetry_of = alloc::vec![0u8; patterns];
        let mut canonical = Vec::new();
        for t in 0..patterns {
            let (best, first) = classes.canonical_of(t as u64);
            symmetry_of[t] = first as u8;
            if best == t as u64 {
                class_of[t] = canonical.len() as u32;
                canonical.push(t as u32);
            } else {
                // Smaller, so numbered already.
                class_of[t] = class_of[best as usize];
            }
        }
        classes.class_of = class_of;
        classes.symmetry_of = symmetry_of;
        classes.canonical = canonical;
        Ok(classes)
    }

    /// The index of [`try_with_key`](Self::try_with_key) made of its list
    /// of canonical key patterns (a table file's `classes` column) instead
    /// of the enumeration of every key pattern: a position's class is then
    /// found by a binary search in the list, at no cost when made (6×6:
    /// 2^20 key patterns). A pattern whose canonical one is not in the list
    /// falls in class [`classes`](Self::classes), past every entry.
    ///
    /// # Errors
    ///
    /// Those of [`try_with_key`](Self::try_with_key), and
    /// [`IndexError::Canonical`] unless `canonical` is in increasing order,
    /// of key patterns.
    pub fn try_with_canonical(
        cells: usize,
        images: &[[u8; 64]],
        key: &[u8],
        canonical: Vec<u32>,
    ) -> Result<Classes, IndexError> {
        let mut classes = Classes::unnumbered(cells, images, key)?;
        let patterns = 1u64 << key.len();
        if canonical.windows(2).any(|w| w[0] >= w[1])
            || canonical.last().is_some_and(|&c| u64::from(c) >= patterns)
        {
            return Err(IndexError::Canonical);
        }
        classes.canonical = canonical;
        Ok(classes)
    }

    /// The smallest image of key pattern `t` and the first symmetry giving
    /// it.
    #[inline]
    fn canonical_of(&self, t: u64) -> (u64, usize) {
        let mut best = t;
        let mut first = 0;
        for g in 1..self.images.len() {
            let image = apply(&self.key_map, self.key_chunks, g, t);
            if image < best {
                best = image;
                first = g;
            }
        }
        (best, first)
    }

    /// Everything but the classes' numbers, checked.
    fn unnumbered(cells: usize, images: &[[u8; 64]], key: &[u8]) -> Result<Classes, IndexError> {
        if cells > 64 {
            return Err(IndexError::Cells);
        }
        if images.is_empty() || images.len() > MAX_SYMMETRIES {
            return Err(IndexError::Symmetries);
        }
        if (0..cells).any(|c| images[0][c] as usize != c) {
            return Err(IndexError::NotIdentity);
        }
        for image in images {
            let mut seen = 0u64;
            for &c in &image[..cells] {
                if c as usize >= cells || seen >> c & 1 == 1 {
                    return Err(IndexError::NotPermutation);
                }
                seen |= 1 << c;
            }
        }
        if key.len() > MAX_KEY_CELLS {
            return Err(IndexError::KeyCells);
        }
        let mut in_key = 0u64;
        for &c in key {
            if c as usize >= cells || in_key >> c & 1 == 1 {
                return Err(IndexError::KeyCells);
            }
            in_key |= 1 << c;
        }
        for image in images {
            for &c in key {
                if in_key >> image[c as usize] & 1 == 0 {
                    return Err(IndexError::KeyNotOrbits);
                }
            }
        }
        let rest: Vec<u8> = (0..cells as u8).filter(|&c| in_key >> c & 1 == 0).collect();
        if rest.len() >= 64 {
            // An entry is a class times 2^rest_bits: it must fit a u64.
            return Err(IndexError::Cells);
        }
        let mut place = [0u8; 64];
        for (i, &c) in key.iter().enumerate() {
            place[c as usize] = i as u8;
        }
        for (j, &c) in rest.iter().enumerate() {
            place[c as usize] = j as u8;
        }
        let (key_map, key_chunks) = byte_maps(images, key, &place);
        let (rest_map, rest_chunks) = byte_maps(images, &rest, &place);

        Ok(Classes {
            cells,
            images: images.to_vec(),
            key: key.to_vec(),
            rest,
            class_of: Vec::new(),
            symmetry_of: Vec::new(),
            key_map,
            key_chunks,
            canonical: Vec::new(),
            rest_map,
            rest_chunks,
        })
    }

    /// Cells of the board.
    pub fn cells(&self) -> usize {
        self.cells
    }

    /// The symmetries: `symmetries()[g][c]` is the cell symmetry `g` takes
    /// cell `c` to (entries past [`cells`](Self::cells) are 0).
    pub fn symmetries(&self) -> &[[u8; 64]] {
        &self.images
    }

    /// The key cells: key bit `i` is cell `key()[i]`.
    pub fn key(&self) -> &[u8] {
        &self.key
    }

    /// The other cells: rest bit `j` is cell `rest()[j]`.
    pub fn rest(&self) -> &[u8] {
        &self.rest
    }

    /// Bits of the rest pattern: an index's low bits.
    pub fn rest_bits(&self) -> u32 {
        self.rest.len() as u32
    }

    /// Number of classes of key patterns.
    pub fn classes(&self) -> usize {
        self.canonical.len()
    }

    /// The index's sizes.
    pub fn sizes(&self) -> IndexSizes {
        IndexSizes {
            classes: self.canonical.len(),
            key_cells: self.key.len(),
            rest_bits: self.rest_bits(),
            symmetries: self.images.len(),
        }
    }

    /// Entries of a table with one a class of positions:
    /// [`classes`](Self::classes) · 2^[`rest_bits`](Self::rest_bits).
    pub fn entries(&self) -> u64 {
        (self.canonical.len() as u64) << self.rest.len()
    }

    /// Entries of one class, 2^[`rest_bits`](Self::rest_bits): class `c`'s
    /// are the entries from `c` times this.
    pub fn class_entries(&self) -> u64 {
        1 << self.rest.len()
    }

    /// Class `class`'s canonical key pattern.
    pub fn canonical(&self, class: usize) -> u64 {
        u64::from(self.canonical[class])
    }

    /// Every class's canonical key pattern, in increasing order: a table
    /// file's `classes` column.
    pub fn canonical_patterns(&self) -> &[u32] {
        &self.canonical
    }

    /// The class of key pattern `pattern` and the first symmetry that maps
    /// it onto the class's canonical pattern.
    #[inline]
    pub fn class_of(&self, pattern: u64) -> (usize, usize) {
        if self.class_of.is_empty() {
            let (best, first) = self.canonical_of(pattern);
            let class = u32::try_from(best)
                .ok()
                .and_then(|b| self.canonical.binary_search(&b).ok())
                .unwrap_or(self.canonical.len());
            return (class, first);
        }
        (
            self.class_of[pattern as usize] as usize,
            usize::from(self.symmetry_of[pattern as usize]),
        )
    }

    /// Positions an entry of class `class` stands for: the number of
    /// distinct images of its canonical key pattern (each entry is one
    /// position of the canonical pattern, and its images have the other
    /// patterns of the class).
    pub fn weight(&self, class: usize) -> u64 {
        let t = self.canonical(class);
        let mut seen = [u64::MAX; MAX_SYMMETRIES];
        let mut distinct = 0;
        for g in 0..self.images.len() {
            let image = apply(&self.key_map, self.key_chunks, g, t);
            if !seen[..distinct].contains(&image) {
                seen[distinct] = image;
                distinct += 1;
            }
        }
        distinct as u64
    }

    /// The image under symmetry `g` of a rest pattern.
    #[inline]
    pub fn rest_image(&self, g: usize, pattern: u64) -> u64 {
        apply(&self.rest_map, self.rest_chunks, g, pattern)
    }

    /// The key pattern of a board (bit `c` for cell `c`).
    pub fn key_pattern(&self, board: u64) -> u64 {
        gather(board, &self.key)
    }

    /// The rest pattern of a board.
    pub fn rest_pattern(&self, board: u64) -> u64 {
        gather(board, &self.rest)
    }

    /// The board of a key pattern and a rest pattern.
    pub fn board(&self, key: u64, rest: u64) -> u64 {
        scatter(key, &self.key) | scatter(rest, &self.rest)
    }

    /// The entry of `board` (bit `c` for cell `c`).
    pub fn index(&self, board: u64) -> u64 {
        self.index_with_symmetry(board).0
    }

    /// The entry of `board` and the symmetry that takes `board` to the
    /// position the entry holds ([`position`](Self::position)).
    pub fn index_with_symmetry(&self, board: u64) -> (u64, usize) {
        let (class, g) = self.class_of(self.key_pattern(board));
        let entry =
            ((class as u64) << self.rest.len()) | self.rest_image(g, self.rest_pattern(board));
        (entry, g)
    }

    /// The position entry `index` holds: the canonical key pattern of its
    /// class with its rest pattern. `None` past [`entries`](Self::entries).
    pub fn position(&self, index: u64) -> Option<u64> {
        if index >= self.entries() {
            return None;
        }
        let class = (index >> self.rest.len()) as usize;
        let rest = index & ((1u64 << self.rest.len()) - 1);
        Some(self.board(self.canonical(class), rest))
    }

    /// The board `board` under symmetry `g`.
    pub fn image(&self, g: usize, board: u64) -> u64 {
        let mut out = 0u64;
        for c in 0..self.cells {
            if board >> c & 1 == 1 {
                out |= 1 << self.images[g][c];
            }
        }
        out
    }
}

/// The sizes of an index ([`Classes::sizes`]), which
/// [`Classes::sizes_of_shape`] finds without making it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IndexSizes {
    /// Classes of key patterns.
    pub classes: usize,
    /// Key cells.
    pub key_cells: usize,
    /// Cells outside the key: a class's entries are `2^rest_bits`.
    pub rest_bits: u32,
    /// Symmetries, the identity included.
    pub symmetries: usize,
}

impl IndexSizes {
    /// Entries of a table with one a class of positions, as
    /// [`Classes::entries`].
    pub fn entries(&self) -> u64 {
        (self.classes as u64) << self.rest_bits
    }

    /// Entries of one class, as [`Classes::class_entries`].
    pub fn class_entries(&self) -> u64 {
        1 << self.rest_bits
    }
}

/// The number of classes of patterns over the cells `key` under the group
/// `images` with `k` cells set, for `k` from 0 to `key.len()`, by
/// Burnside's lemma: the average over the symmetries of the patterns each
/// fixes, whose cycles on the key cells are all set or all clear. A
/// symmetry fixes, by cells set, the product over its cycles of
/// `(1 + x^length)`; their sum is the number of classes.
fn layer_counts(images: &[[u8; 64]], key: &[u8]) -> Vec<usize> {
    let mut total = alloc::vec![0u64; key.len() + 1];
    for image in images {
        let mut fixed = alloc::vec![0u64; key.len() + 1];
        fixed[0] = 1;
        let mut seen = 0u64;
        for &c in key {
            if seen >> c & 1 == 1 {
                continue;
            }
            let mut len = 0;
            let mut x = c;
            while seen >> x & 1 == 0 {
                seen |= 1 << x;
                x = image[x as usize];
                len += 1;
            }
            for k in (len..fixed.len()).rev() {
                fixed[k] += fixed[k - len];
            }
        }
        for (t, f) in total.iter_mut().zip(fixed) {
            *t += f;
        }
    }
    total
        .into_iter()
        .map(|t| (t / images.len() as u64) as usize)
        .collect()
}

/// Why a [`Classes`] cannot be made of what it was given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IndexError {
    /// More than 64 cells, or 64 outside the key.
    Cells,
    /// No symmetries, or more than [`MAX_SYMMETRIES`].
    Symmetries,
    /// The first symmetry is not the identity.
    NotIdentity,
    /// A symmetry is not a permutation of the cells.
    NotPermutation,
    /// A key cell is out of range or repeated, or there are more than
    /// [`MAX_KEY_CELLS`].
    KeyCells,
    /// A symmetry maps a key cell to a cell outside the key.
    KeyNotOrbits,
    /// A list of canonical key patterns out of order or past the key.
    Canonical,
}

impl core::fmt::Display for IndexError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            IndexError::Cells => "more than 64 cells, or 64 outside the key",
            IndexError::Symmetries => "no symmetries, or more than 8",
            IndexError::NotIdentity => "the first symmetry is not the identity",
            IndexError::NotPermutation => "a symmetry is not a permutation of the cells",
            IndexError::KeyCells => {
                "a key cell is out of range or repeated, or there are more than 22"
            }
            IndexError::KeyNotOrbits => "a symmetry maps a key cell outside the key",
            IndexError::Canonical => "the canonical key patterns are out of order or past the key",
        })
    }
}

/// Indices of one definition: the same cells, symmetries and key, and the
/// same classes (however they are found).
impl PartialEq for Classes {
    fn eq(&self, other: &Classes) -> bool {
        self.cells == other.cells
            && self.images == other.images
            && self.key == other.key
            && self.canonical == other.canonical
    }
}

impl Eq for Classes {}

fn gather(board: u64, cells: &[u8]) -> u64 {
    let mut out = 0;
    for (i, &c) in cells.iter().enumerate() {
        out |= (board >> c & 1) << i;
    }
    out
}

fn scatter(pattern: u64, cells: &[u8]) -> u64 {
    let mut out = 0;
    for (i, &c) in cells.iter().enumerate() {
        out |= (pattern >> i & 1) << c;
    }
    out
}

/// The orbits of the cells, each in increasing order, by their first cell.
fn orbits(cells: usize, images: &[[u8; 64]]) -> Vec<Vec<u8>> {
    let mut done = 0u64;
    let mut out = Vec::new();
    for c in 0..cells {
        if done >> c & 1 == 1 {
            continue;
        }
        let mut orbit = 0u64;
        for image in images {
            orbit |= 1 << image[c];
        }
        done |= orbit;
        out.push((0..cells as u8).filter(|&x| orbit >> x & 1 == 1).collect());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_counted_are_the_classes_enumerated() {
        // Up to 30 cells (2^16 key patterns): quick unoptimised too.
        for rows in 1..=5 {
            for cols in rows..=30 / rows {
                let shape = Shape::new(rows, cols).unwrap();
                let counted = Classes::sizes_of_shape(shape);
                let made = Classes::of_shape(shape);
                assert_eq!(counted, made.sizes(), "{shape}");
                assert_eq!(counted.entries(), made.entries(), "{shape}");
                let mut layers = alloc::vec![0; made.key().len() + 1];
                for class in 0..made.classes() {
                    layers[made.canonical(class).count_ones() as usize] += 1;
                }
                assert_eq!(Classes::layers_of_shape(shape), layers, "{shape}");
            }
        }
    }

    #[test]
    fn every_position_reaches_an_entry_holding_one_of_its_images() {
        for (r, c) in [(2, 2), (3, 3), (2, 4), (3, 4), (4, 4)] {
            let shape = Shape::new(r, c).unwrap();
            let classes = Classes::of_shape(shape);
            let mut hit = alloc::vec![false; classes.entries() as usize];
            for p in 0..1u64 << shape.cells() {
                let i = classes.index(p);
                let held = classes.position(i).unwrap();
                assert!(
                    (0..shape.symmetries()).any(|g| shape.symmetric_board(p, g) == held),
                    "{shape} {p:b}"
                );
                hit[i as usize] = true;
                assert_eq!(classes.index(held), i);
            }
            assert!(
                hit.iter().all(|&h| h),
                "{shape}: every entry is some position's"
            );
            assert_eq!(Classes::sizes_of_shape(shape), classes.sizes());
            // The weights count every position once.
            let total: u64 = (0..classes.classes())
                .map(|k| classes.weight(k) << classes.rest_bits())
                .sum();
            assert_eq!(total, 1 << shape.cells());
            // Made of its canonical patterns, the index is the same.
            let list = (0..classes.classes())
                .map(|k| classes.canonical(k) as u32)
                .collect();
            let cells = shape.cells();
            let listed =
                Classes::try_with_canonical(cells, classes.symmetries(), classes.key(), list)
                    .unwrap();
            assert_eq!(listed, classes);
            for p in 0..1u64 << cells {
                assert_eq!(listed.index(p), classes.index(p), "{shape} {p:b}");
            }
            let bad = alloc::vec![3, 2];
            assert_eq!(
                Classes::try_with_canonical(cells, classes.symmetries(), classes.key(), bad),
                Err(IndexError::Canonical)
            );
        }
    }
}
