//! Which columns a table must have: the columns of each puzzle's files on
//! each shape, the checks of a file's columns, and the columns the probes
//! read ([`Layout`]), found once.

use std::fmt;
use std::sync::Arc;

use boardbase_tables::classes::{Classes, IndexSizes};
use boardbase_tables::euler::{MoveList, moves};
use boardbase_tables::flip::search::kernel;
use boardbase_tables::shape::Shape;

use super::format::VERSION_6;
use super::index::{CLASSES, CLASSES_WIDTH, IndexHeader, VERSION_5};
use super::{ColumnInfo, Puzzle, TableError, VERSION, format};

/// The columns a table's probes read, found once.
#[doc(hidden)]
#[derive(Clone, Debug)]
pub enum Layout {
    /// A game of the model: `outcome`, 16 bits an entry, one entry a
    /// position index, or in version 6 one a legal canonical position.
    Game {
        /// The `outcome` column.
        outcome: usize,
        /// Version 6: the `canonical` and `canonical_rank` columns, which
        /// say where each position index's entry is.
        ranked: Option<(usize, usize)>,
    },
    /// Euler: `winning`, and `plies` and `best_move` unless WDL-only; in
    /// version 5, the index whose entries `winning` and `plies` have (one a
    /// class of positions), and no `best_move` (found from `plies`).
    Euler {
        winning: usize,
        full: Option<(usize, Option<usize>)>,
        moves: Box<MoveList>,
        classes: Option<Arc<Classes>>,
    },
    /// Flip, version 2 to 5: every column; in version 5, the index whose
    /// entries the columns have (one a class of boards).
    Flip {
        rounds: usize,
        /// Per colour (white, black): rounds, presses, optimal sets.
        colours: [(usize, usize, usize); 2],
        classes: Option<Arc<Classes>>,
        /// With `classes`: the press sets that change nothing, which map a
        /// class's press set to each of its boards.
        kernel: Option<Box<Kernel>>,
    },
    /// Flip from a version-1 file: `rounds`, `presses` (to the closer
    /// colour) and `optimal_sets` (both colours' on ties).
    FlipV1 {
        rounds: usize,
        presses: usize,
        optimal_sets: usize,
    },
}

impl Layout {
    /// The version a table of this layout is written in, stored raw: 5
    /// with one entry a class of Euler or Flip positions, 6 with one a
    /// class of a game's, else 3.
    pub(crate) fn version(&self) -> u32 {
        match self {
            Layout::Euler {
                classes: Some(_), ..
            }
            | Layout::Flip {
                classes: Some(_), ..
            } => VERSION_5,
            Layout::Game {
                ranked: Some(_), ..
            } => VERSION_6,
            _ => VERSION,
        }
    }
}

/// What a table is for, as its header names it: a [`Puzzle`] of the first
/// table files, or a game of the model ([`GameId`](super::GameId)). It says which
/// columns a table of its kind must have.
pub trait Subject: Clone + fmt::Debug + Send + Sync + 'static {
    /// The header's `puzzle` field: `euler`, `flip`, or the game's name.
    fn header_name(&self) -> String;

    /// What a header's name and board say the table is for, checked
    /// against the kind's limits.
    fn identify(name: &str, rows: u8, cols: u8) -> Result<(Self, Shape), TableError>;

    /// Checks a table's columns (names, widths, lengths, the required
    /// ones) and finds the ones its probes read; `classes` is a version-5
    /// table's index, whose entries its per-position columns have.
    #[doc(hidden)]
    fn check(
        &self,
        shape: Shape,
        columns: &[ColumnInfo],
        classes: Option<&Arc<Classes>>,
    ) -> Result<Layout, TableError>;
}

impl Subject for Puzzle {
    fn header_name(&self) -> String {
        self.name().to_owned()
    }

    fn identify(name: &str, rows: u8, cols: u8) -> Result<(Puzzle, Shape), TableError> {
        format::puzzle_and_shape(name, rows, cols)
    }

    fn check(
        &self,
        shape: Shape,
        columns: &[ColumnInfo],
        classes: Option<&Arc<Classes>>,
    ) -> Result<Layout, TableError> {
        check_columns(*self, shape, columns, classes)
    }
}

/// The least of 8, 16 and 32 bits that holds a press set of `shape`.
pub fn presses_width(shape: Shape) -> u8 {
    match shape.cells() {
        0..=8 => 8,
        9..=16 => 16,
        _ => 32,
    }
}

/// The length of the file [`Table::write`](super::Table::write) makes of `puzzle`'s table on
/// `shape` as the generator makes it (for Euler, `full` with the `plies`
/// and `best_move` columns, else WDL only), known before the table is:
/// the command line checks the disk's free space with it.
///
/// ```
/// use boardbase::tablefile::{Puzzle, Table, expected_file_len};
/// use boardbase::tables::shape::Shape;
///
/// let four = Shape::SQUARE4;
/// assert_eq!(expected_file_len(Puzzle::Euler, four, true)?, 140_164);
/// assert_eq!(expected_file_len(Puzzle::Flip, four, true)?, Table::embedded(Puzzle::Flip).file_len());
/// // 6×6, WDL only: a bitset of 2^36 bits and the header.
/// let six = Shape::new(6, 6).unwrap();
/// assert!(expected_file_len(Puzzle::Euler, six, false)? > 8 << 30);
/// # Ok::<(), boardbase::tablefile::TableError>(())
/// ```
pub fn expected_file_len(puzzle: Puzzle, shape: Shape, full: bool) -> Result<u64, TableError> {
    let infos = layout_infos(puzzle, shape, full, None)?;
    let crcs = vec![0; infos.len()];
    Ok(format::encode_header(puzzle.name(), shape, VERSION, &infos, &crcs, None).2)
}

/// The length of `puzzle`'s table file of `shape` with one entry a class
/// of its positions ([`Classes::of_shape`], version 5), for Euler with
/// moves left when `full`, as the generator writes it.
///
/// ```
/// use boardbase::tablefile::{Puzzle, expected_class_file_len, expected_file_len};
/// use boardbase::tables::shape::Shape;
///
/// // Euler on 6×6, win/loss only: 8.65 G entries, 1.01 GiB instead of 8 GiB.
/// let six = Shape::new(6, 6).unwrap();
/// let by_class = expected_class_file_len(Puzzle::Euler, six, false)?;
/// assert!(by_class > 1 << 30 && by_class < (1 << 30) + (16 << 20));
/// assert!(expected_file_len(Puzzle::Euler, six, false)? > 7 * by_class);
/// // Flip on 5×5: 13 bytes an entry, 5.6 M entries instead of 2^25.
/// let five = Shape::new(5, 5).unwrap();
/// let by_class = expected_class_file_len(Puzzle::Flip, five, true)?;
/// assert!(expected_file_len(Puzzle::Flip, five, true)? > 5 * by_class);
/// # Ok::<(), boardbase::tablefile::TableError>(())
/// ```
pub fn expected_class_file_len(
    puzzle: Puzzle,
    shape: Shape,
    full: bool,
) -> Result<u64, TableError> {
    check_shape(puzzle, shape)?;
    let sizes = Classes::sizes_of_shape(shape);
    let infos = layout_infos(puzzle, shape, full, Some(sizes))?;
    let crcs = vec![0; infos.len()];
    let index = IndexHeader::of_shape(shape);
    Ok(format::encode_header(puzzle.name(), shape, VERSION_5, &infos, &crcs, Some(&index)).2)
}

/// An error unless `puzzle` has tables of `shape`'s cells.
pub(crate) fn check_shape(puzzle: Puzzle, shape: Shape) -> Result<(), TableError> {
    if shape.cells() > puzzle.max_cells() {
        return Err(TableError::BadShape {
            puzzle,
            rows: shape.rows() as u8,
            cols: shape.cols() as u8,
        });
    }
    Ok(())
}

/// The columns of `puzzle`'s table file on `shape` (Euler's with `plies`
/// and `best_move` when `full`; by class, version 5, its `plies` and no
/// `best_move`), in file order, as in memory (no offsets).
pub(crate) fn layout_infos(
    puzzle: Puzzle,
    shape: Shape,
    full: bool,
    classes: Option<IndexSizes>,
) -> Result<Vec<ColumnInfo>, TableError> {
    check_shape(puzzle, shape)?;
    let mut columns = required(puzzle, shape, classes);
    if puzzle == Puzzle::Euler && full {
        match classes {
            Some(classes) => columns.insert(1, ("plies", 8, classes.entries())),
            None => {
                let per_board = 1u64 << shape.cells();
                columns.insert(1, ("plies", 8, per_board));
                columns.insert(2, ("best_move", 8, per_board));
            }
        }
    }
    Ok(columns
        .into_iter()
        .map(|(name, width, entries)| ColumnInfo::in_memory(name, width, entries))
        .collect())
}

/// The name, width and entry count of each column `puzzle` requires on
/// `shape` (Euler's `plies` and `best_move` are optional, checked apart),
/// with one entry a board, or (`classes`, version 5) one entry a class of
/// positions and the `classes` column.
fn required(
    puzzle: Puzzle,
    shape: Shape,
    classes: Option<IndexSizes>,
) -> Vec<(&'static str, u8, u64)> {
    let per_board = 1u64 << shape.cells();
    match puzzle {
        Puzzle::Euler => match classes {
            None => vec![
                ("winning", 1, per_board),
                ("moves", 64, moves(shape).len() as u64),
            ],
            Some(classes) => vec![
                ("winning", 1, classes.entries()),
                ("moves", 64, moves(shape).len() as u64),
                (CLASSES, CLASSES_WIDTH, classes.classes as u64),
            ],
        },
        Puzzle::Flip => {
            let pw = presses_width(shape);
            let entries = classes.map_or(per_board, |c| c.entries());
            let mut columns = vec![
                ("rounds", 8, entries),
                ("rounds_white", 8, entries),
                ("rounds_black", 8, entries),
                ("presses_white", pw, entries),
                ("presses_black", pw, entries),
                ("optimal_sets_white", 8, entries),
                ("optimal_sets_black", 8, entries),
            ];
            if let Some(classes) = classes {
                columns.push((CLASSES, CLASSES_WIDTH, classes.classes as u64));
            }
            columns
        }
    }
}

/// Checks the columns of a version-2 to 5 table (names, widths, lengths,
/// the required columns; `classes` the index of version 5) and finds the
/// ones the probes read. The contents of `moves` are checked apart, once
/// the data is reachable, and those of `classes` by `verify`.
fn check_columns(
    puzzle: Puzzle,
    shape: Shape,
    columns: &[ColumnInfo],
    classes: Option<&Arc<Classes>>,
) -> Result<Layout, TableError> {
    check_widths(columns)?;
    let find = |name: &str, width: u8, entries: u64| -> Result<Option<usize>, TableError> {
        let Some(i) = columns.iter().position(|c| c.name == name) else {
            return Ok(None);
        };
        let c = &columns[i];
        if c.width != width {
            return Err(TableError::ColumnWidth {
                column: name.into(),
                width: c.width,
                expected: width,
            });
        }
        if c.entries != entries {
            return Err(TableError::ColumnEntries {
                column: name.into(),
                entries: c.entries,
                expected: entries,
            });
        }
        Ok(Some(i))
    };
    let mut found = Vec::new();
    for (name, width, entries) in required(puzzle, shape, classes.map(|c| c.sizes())) {
        found.push(find(name, width, entries)?.ok_or(TableError::MissingColumn(name.into()))?);
    }
    Ok(match puzzle {
        Puzzle::Euler => {
            let full = match classes {
                // By class: moves left an entry, best moves found from them.
                Some(classes) => {
                    if columns.iter().any(|c| c.name == "best_move") {
                        return Err(TableError::SymmetricDepth);
                    }
                    find("plies", 8, classes.entries())?.map(|p| (p, None))
                }
                None => {
                    let per_board = 1u64 << shape.cells();
                    let plies = find("plies", 8, per_board)?;
                    let best = find("best_move", 8, per_board)?;
                    match (plies, best) {
                        (Some(p), Some(b)) => Some((p, Some(b))),
                        (None, None) => None,
                        (Some(_), None) => {
                            return Err(TableError::MissingColumn("best_move".into()));
                        }
                        (None, Some(_)) => return Err(TableError::MissingColumn("plies".into())),
                    }
                }
            };
            Layout::Euler {
                winning: found[0],
                full,
                moves: Box::new(moves(shape)),
                classes: classes.cloned(),
            }
        }
        Puzzle::Flip => Layout::Flip {
            rounds: found[0],
            colours: [
                (found[1], found[3], found[5]),
                (found[2], found[4], found[6]),
            ],
            classes: classes.cloned(),
            kernel: classes.map(|_| Box::new(Kernel::of(shape))),
        },
    })
}

/// Checks what every table's columns must be, whatever the table is for:
/// distinct names, widths of 1, 8, 16, 32 or 64 bits, and byte lengths
/// that hold the entries.
pub(super) fn check_widths(columns: &[ColumnInfo]) -> Result<(), TableError> {
    for (i, c) in columns.iter().enumerate() {
        if columns[..i].iter().any(|d| d.name == c.name) {
            return Err(TableError::DuplicateColumn(c.name.clone()));
        }
        if ![1, 8, 16, 32, 64].contains(&c.width) {
            return Err(TableError::BadWidth {
                column: c.name.clone(),
                width: c.width,
            });
        }
        let expected = format::byte_len(c.entries, c.width).unwrap_or(u64::MAX);
        if c.byte_len != expected {
            return Err(TableError::ColumnLength {
                column: c.name.clone(),
                len: c.byte_len,
                expected,
            });
        }
    }
    Ok(())
}

/// The press sets of a Flip shape that change nothing (see
/// [`kernel`](boardbase_tables::flip::search::kernel)): a basis and its
/// size. A Flip table by class finds them once, when it is opened.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct Kernel {
    /// The basis, in its first `nullity` words.
    pub(super) basis: [u64; 64],
    /// The basis's size.
    pub(super) nullity: usize,
}

impl Kernel {
    /// The press sets of `shape` that change nothing.
    pub(super) fn of(shape: Shape) -> Kernel {
        let (basis, nullity) = kernel(shape);
        Kernel { basis, nullity }
    }
}
