//! The tables of the puzzles (Euler, Flip) made of columns in memory: the
//! generator's columns ([`EulerColumns`], [`FlipColumns`]), the embedded
//! 4×4 tables, and a version-1 file's columns converted to those of
//! versions 2 and 3.

use std::sync::Arc;

use boardbase_tables::classes::Classes;
use boardbase_tables::euler::moves;
use boardbase_tables::shape::Shape;

use super::columns::{Column, Data, Storage};
use super::index::{CLASSES, IndexHeader};
use super::layout::check_shape;
use super::v1::TableFile;
use super::{
    ColumnData, ColumnInfo, Layout, NO_MOVE, Puzzle, Table, TableError, UNREACHABLE, format,
};
use crate::euler::{self, Move, Position};
use crate::flip::{self, Board, Colour};

impl Table {
    /// A table of columns computed in memory (at most
    /// [`Puzzle::max_cells`] cells; the columns of the [module
    /// docs](super)), with the checks of [`Table::open`]. Unknown columns
    /// are kept. The vectors are taken as they are.
    pub fn from_columns<S: Into<String>>(
        puzzle: Puzzle,
        shape: Shape,
        columns: impl IntoIterator<Item = (S, ColumnData)>,
    ) -> Result<Table, TableError> {
        Table::from_columns_indexed(puzzle, shape, columns, None)
    }

    /// [`Table::from_columns`], one entry a class of `classes` when given.
    fn from_columns_indexed<S: Into<String>>(
        puzzle: Puzzle,
        shape: Shape,
        columns: impl IntoIterator<Item = (S, ColumnData)>,
        classes: Option<Arc<Classes>>,
    ) -> Result<Table, TableError> {
        check_shape(puzzle, shape)?;
        let mut list = Vec::new();
        for (name, data) in columns {
            let name = name.into();
            let (width, entries) = (data.width(), data.entries());
            let byte_len = format::byte_len(entries, width).unwrap_or(u64::MAX);
            if let ColumnData::Bits { words, .. } = &data {
                let expected = entries.div_ceil(64);
                if words.len() as u64 != expected {
                    return Err(TableError::ColumnLength {
                        column: name,
                        len: words.len() as u64 * 8,
                        expected: expected * 8,
                    });
                }
            }
            list.push(Column {
                info: ColumnInfo {
                    name,
                    width,
                    entries,
                    byte_len,
                    offset: None,
                    crc: None,
                    blocks: None,
                },
                data: Data::Owned(data),
                blocks: None,
            });
        }
        Table::from_list(puzzle, shape, list, classes)
    }

    /// A Game of Euler table from the generator's columns (see the [module
    /// docs](super)): `winning` packed one bit a position, and `plies` and
    /// `best_move` (indices into the shape's moves) unless WDL-only. The
    /// `moves` column is added. With [`EulerColumns::classes`], `winning`
    /// (and `plies`) have one entry an entry of that index and the table is
    /// of version 5 (the `classes` column added), without best moves: a
    /// non-empty `best_move` with it is [`TableError::SymmetricDepth`].
    ///
    /// ```
    /// use boardbase::euler::Outcome;
    /// use boardbase::tablefile::{EulerColumns, Table};
    /// use boardbase::tables::shape::Shape;
    ///
    /// // A 1×3 board, WDL only. Its positions (bit set = covered) that the
    /// // player to move wins: 000, 001, 010, 100 and the full 111.
    /// let shape = Shape::new(1, 3).unwrap();
    /// let winning = vec![0b1001_0111];
    /// let table = Table::from_euler(shape, EulerColumns { winning, full: None, classes: None })?;
    /// let euler = table.as_euler()?;
    /// //   . . .   the empty board: covering two squares wins,
    /// //   o o .   covering one or all three loses
    /// assert_eq!(euler.winning_moves(0)?, [0b011, 0b110]);
    /// let entry = euler.probe(0)?;
    /// assert_eq!(entry.outcome, Outcome::Win);
    /// assert_eq!((entry.moves_left, entry.best_move), (None, None)); // unknown, not guessed
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_euler(shape: Shape, columns: EulerColumns) -> Result<Table, TableError> {
        check_shape(Puzzle::Euler, shape)?;
        if columns.classes.is_some()
            && columns
                .full
                .as_ref()
                .is_some_and(|(_, best_move)| !best_move.is_empty())
        {
            return Err(TableError::SymmetricDepth);
        }
        let classes = columns.classes.map(Arc::new);
        let entries = classes
            .as_ref()
            .map_or(1u64 << shape.cells(), |c| c.entries());
        let mut list = vec![(
            "winning",
            ColumnData::Bits {
                words: columns.winning,
                entries,
            },
        )];
        if let Some((plies, best_move)) = columns.full {
            list.push(("plies", ColumnData::U8(plies)));
            // By class the best moves are found from the moves left.
            if classes.is_none() {
                list.push(("best_move", ColumnData::U8(best_move)));
            }
        }
        list.push(("moves", ColumnData::U64(moves(shape).as_slice().to_vec())));
        push_index(&mut list, shape, classes.as_deref())?;
        Table::from_columns_indexed(Puzzle::Euler, shape, list, classes)
    }

    /// A Flip table from the generator's columns (see the [module
    /// docs](super)); with [`FlipColumns::classes`], a table of version 5,
    /// one entry a class of boards.
    pub fn from_flip(shape: Shape, columns: FlipColumns) -> Result<Table, TableError> {
        check_shape(Puzzle::Flip, shape)?;
        let classes = columns.classes.map(Arc::new);
        let mut list = vec![
            ("rounds", ColumnData::U8(columns.rounds)),
            ("rounds_white", ColumnData::U8(columns.rounds_white)),
            ("rounds_black", ColumnData::U8(columns.rounds_black)),
            ("presses_white", columns.presses_white),
            ("presses_black", columns.presses_black),
            (
                "optimal_sets_white",
                ColumnData::U8(columns.optimal_sets_white),
            ),
            (
                "optimal_sets_black",
                ColumnData::U8(columns.optimal_sets_black),
            ),
        ];
        push_index(&mut list, shape, classes.as_deref())?;
        Table::from_columns_indexed(Puzzle::Flip, shape, list, classes)
    }

    /// The embedded 4×4 tables as a table in memory, with the columns of
    /// versions 2 and 3: what `boardbase export` writes.
    pub fn embedded(puzzle: Puzzle) -> Table {
        let built = match puzzle {
            Puzzle::Euler => {
                let mut winning = vec![0u64; 1 << 10];
                let mut plies = Vec::with_capacity(1 << 16);
                let mut best_move = Vec::with_capacity(1 << 16);
                for bits in 0..=u16::MAX {
                    let entry = euler::probe(Position::from_bits(bits));
                    let i = usize::from(bits);
                    winning[i / 64] |= u64::from(entry.outcome.is_win()) << (i % 64);
                    plies.push(entry.moves_left);
                    best_move.push(entry.best_move.map_or(NO_MOVE, move_index));
                }
                Table::from_euler(
                    Shape::SQUARE4,
                    EulerColumns {
                        winning,
                        full: Some((plies, best_move)),
                        classes: None,
                    },
                )
            }
            Puzzle::Flip => {
                let route = |colour: Colour| {
                    let mut rounds = Vec::with_capacity(1 << 16);
                    let mut presses = Vec::with_capacity(1 << 16);
                    let mut sets = Vec::with_capacity(1 << 16);
                    for bits in 0..=u16::MAX {
                        let r = flip::route(Board::from_bits(bits), colour);
                        rounds.push(r.map_or(UNREACHABLE, |r| r.rounds));
                        presses.push(r.map_or(0, |r| r.presses.bits()));
                        sets.push(r.map_or(0, |r| r.optimal_sets));
                    }
                    (rounds, presses, sets)
                };
                let (rounds_white, presses_white, optimal_sets_white) = route(Colour::White);
                let (rounds_black, presses_black, optimal_sets_black) = route(Colour::Black);
                let rounds = (0..=u16::MAX)
                    .map(|b| flip::rounds(Board::from_bits(b)).unwrap_or(UNREACHABLE))
                    .collect();
                Table::from_flip(
                    Shape::SQUARE4,
                    FlipColumns {
                        rounds,
                        rounds_white,
                        rounds_black,
                        presses_white: ColumnData::U16(presses_white),
                        presses_black: ColumnData::U16(presses_black),
                        optimal_sets_white,
                        optimal_sets_black,
                        classes: None,
                    },
                )
            }
        };
        built.expect("the embedded tables have the required columns")
    }

    /// A version-1 file, read into memory and its columns converted to
    /// those of versions 2 and 3 where they carry the same values.
    pub(super) fn from_v1(bytes: Vec<u8>) -> Result<Table, TableError> {
        let file = TableFile::read(&bytes)?;
        let column = |name: &str| {
            file.column(name)
                .ok_or_else(|| TableError::MissingColumn(name.into()))
        };
        let entries = |name: &str| -> Result<Vec<u64>, TableError> {
            let c = column(name)?;
            Ok((0..c.len()).map(|i| c.get(i).unwrap_or(0)).collect())
        };
        let bad = |column: &str, index: usize, detail: String| TableError::Inconsistent {
            column: column.into(),
            index: index as u64,
            detail,
        };
        let (puzzle, columns): (Puzzle, Vec<(&str, ColumnData)>) = match file.puzzle.as_str() {
            "euler" => {
                let mut winning = vec![0u64; 1 << 10];
                for (i, w) in entries("winning")?.into_iter().enumerate() {
                    if w > 1 {
                        return Err(bad("winning", i, format!("{w} is neither 0 nor 1")));
                    }
                    winning[i / 64] |= w << (i % 64);
                }
                let plies = entries("plies")?.into_iter().map(|p| p as u8).collect();
                let mut best = Vec::with_capacity(1 << 16);
                for (i, mask) in entries("best_move")?.into_iter().enumerate() {
                    best.push(match mask {
                        0 => NO_MOVE,
                        m => Move::from_bits(m as u16).map(move_index).ok_or_else(|| {
                            bad("best_move", i, format!("{m:#06x} is not a move"))
                        })?,
                    });
                }
                let moves = moves(Shape::SQUARE4).as_slice().to_vec();
                (
                    Puzzle::Euler,
                    vec![
                        (
                            "winning",
                            ColumnData::Bits {
                                words: winning,
                                entries: 1 << 16,
                            },
                        ),
                        ("plies", ColumnData::U8(plies)),
                        ("best_move", ColumnData::U8(best)),
                        ("moves", ColumnData::U64(moves)),
                    ],
                )
            }
            _ => {
                let narrow = |name| -> Result<Vec<u8>, TableError> {
                    Ok(entries(name)?.into_iter().map(|v| v as u8).collect())
                };
                let presses = entries("presses")?.into_iter().map(|v| v as u16).collect();
                (
                    Puzzle::Flip,
                    vec![
                        ("rounds", ColumnData::U8(narrow("rounds")?)),
                        ("presses", ColumnData::U16(presses)),
                        ("optimal_sets", ColumnData::U8(narrow("optimal_sets")?)),
                    ],
                )
            }
        };
        let find = |name: &str| columns.iter().position(|(n, _)| *n == name).unwrap_or(0);
        let layout = match puzzle {
            Puzzle::Euler => Layout::Euler {
                winning: find("winning"),
                full: Some((find("plies"), Some(find("best_move")))),
                moves: Box::new(moves(Shape::SQUARE4)),
                classes: None,
            },
            Puzzle::Flip => Layout::FlipV1 {
                rounds: find("rounds"),
                presses: find("presses"),
                optimal_sets: find("optimal_sets"),
            },
        };
        let columns = columns
            .into_iter()
            .map(|(name, data)| Column::owned(name, data))
            .collect();
        Ok(Table {
            id: puzzle,
            shape: Shape::SQUARE4,
            version: 1,
            file_len: bytes.len() as u64,
            storage: Storage::Image(bytes),
            columns,
            layout,
        })
    }
}

/// The index of a 4×4 move in [`Move::ALL`] (the `moves` column's order).
fn move_index(mv: Move) -> u8 {
    Move::ALL.iter().position(|&m| m == mv).unwrap_or(0) as u8
}

/// A Game of Euler table's columns, as the generator computes them, for
/// [`Table::from_euler`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EulerColumns {
    /// One bit a position (bit `i % 64` of word `i / 64`): 1 when the player
    /// to move wins; `ceil(2^cells / 64)` words.
    pub winning: Vec<u64>,
    /// `plies` and `best_move`, one byte a position, or `None` for a
    /// WDL-only table.
    pub full: Option<(Vec<u8>, Vec<u8>)>,
    /// One entry a class of positions under the board's symmetries: when
    /// given, `winning` holds [`Classes::entries`] bits in the order of
    /// [`Classes::index`] (`ceil(entries / 64)` words), `full`'s plies an
    /// entry each and its best moves none (empty), and the table is
    /// written as version 5.
    pub classes: Option<Classes>,
}

/// The `classes` column of a table of one entry a class of `classes`,
/// pushed onto `list`, once the index's symmetries are found to be
/// `shape`'s: the probes map positions (and Flip's press sets) by them, and
/// another board's (of as many cells) would give wrong answers.
fn push_index(
    list: &mut Vec<(&'static str, ColumnData)>,
    shape: Shape,
    classes: Option<&Classes>,
) -> Result<(), TableError> {
    if let Some(classes) = classes {
        IndexHeader::of(classes).check_symmetries(shape)?;
        list.push((
            CLASSES,
            ColumnData::U32(classes.canonical_patterns().to_vec()),
        ));
    }
    Ok(())
}

/// A Flip table's columns, as the generator computes them, for
/// [`Table::from_flip`]: one entry a board each, or one a class of boards
/// ([`classes`](FlipColumns::classes)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FlipColumns {
    /// Fewest rounds to the closer colour, [`UNREACHABLE`] when neither.
    pub rounds: Vec<u8>,
    /// Fewest rounds to all white, [`UNREACHABLE`] when it cannot be reached.
    pub rounds_white: Vec<u8>,
    /// Fewest rounds to all black, [`UNREACHABLE`] when it cannot be reached.
    pub rounds_black: Vec<u8>,
    /// One optimal press set to white (0 when unreachable), of
    /// [`presses_width`](super::presses_width) bits: `U8`, `U16` or `U32`.
    pub presses_white: ColumnData,
    /// One optimal press set to black, as `presses_white`.
    pub presses_black: ColumnData,
    /// How many optimal press sets reach white, 0 when unreachable.
    pub optimal_sets_white: Vec<u8>,
    /// How many optimal press sets reach black, 0 when unreachable.
    pub optimal_sets_black: Vec<u8>,
    /// One entry a class of boards under the board's symmetries: when
    /// given, every column has [`Classes::entries`] entries in the order of
    /// [`Classes::index`], entry `i` holding what the board
    /// [`Classes::position`] of `i` has (its press sets the least optimal
    /// ones of that board), and the table is written as version 5.
    pub classes: Option<Classes>,
}
