//! Table files, layout version 1: the 4×4 exports of earlier releases,
//! still read and verified.
//!
//! `boardbase export` now writes version 3, memory-mapped and for any board
//! shape (the [`tablefile`](super) module this one belongs to);
//! [`Table::open`](super::Table::open) and `boardbase verify` read every
//! version, and use this module for version 1.
//!
//! # Layout (version 1)
//!
//! A file is a *body* followed by the CRC-32 of the body (IEEE polynomial,
//! as zlib's or Python's `zlib.crc32`) as 4 bytes little-endian. The body is
//! a [`TableFile`] encoded with bincode 2 and `bincode::config::legacy()`:
//! fixed-width little-endian integers, `u64` lengths before strings and
//! vectors, nothing before fixed-size arrays. Field by field:
//!
//! | field | encoding |
//! | --- | --- |
//! | `magic` | 8 bytes, `BRDBASE\0` ([`MAGIC`]) |
//! | `version` | `u32`, 1 ([`VERSION`]) |
//! | `puzzle` | `u64` length, then UTF-8: `flip` or `euler` |
//! | `rows`, `cols` | one `u8` each: 4 and 4 |
//! | `columns` | `u64` count, then per column: `name` (`u64` length, UTF-8), `width` (`u8`, bytes per entry), `data` (`u64` length, then `2^(rows*cols) × width` bytes) |
//!
//! Entry `i` of a column is the value for the board (or position) whose bits
//! are `i` (bit `4 * row + col`), stored as `width` bytes little-endian.
//!
//! | puzzle | column | width | value |
//! | --- | --- | --- | --- |
//! | `flip` | `rounds` | 1 | fewest rounds to a uniform board, 255 when impossible ([`flip::rounds`]) |
//! | `flip` | `presses` | 2 | one optimal set of cells to press, 0 when impossible ([`flip::solve`]) |
//! | `flip` | `optimal_sets` | 1 | how many optimal press sets there are, 0 when impossible |
//! | `euler` | `winning` | 1 | 1 when the player to move wins, else 0 (full board: 1) |
//! | `euler` | `plies` | 1 | moves left with perfect play ([`Entry::moves_left`](crate::euler::Entry::moves_left)) |
//! | `euler` | `best_move` | 2 | the squares the best move covers, 0 for the full board |
//!
//! Readers should find columns by name and ignore columns they do not know:
//! later files of version 1 may add columns, never change these.
//!
//! ```
//! use boardbase::tablefile::v1::TableFile;
//!
//! let bytes = TableFile::flip().to_bytes();
//! let file = TableFile::read(&bytes)?;
//! file.verify_contents()?;
//! let rounds = file.column("rounds").expect("a flip file has rounds");
//! assert_eq!(rounds.get(0b0000_0000_0001_0011), Some(1)); // one press in a corner
//! assert_eq!(rounds.get(1), Some(255)); // a single black piece: impossible
//! # Ok::<(), boardbase::tablefile::TableError>(())
//! ```

use serde::{Deserialize, Serialize};

// The error of this module's reads is the table files' one error: the
// checks of every version (the magic, the puzzle, the columns) are shared,
// version 1's own are its `V1` variants.
use super::error::{ContentsError, TableError};
use crate::euler::{self, Position};
use crate::flip::{self, Board};

/// The first 8 bytes of every table file.
pub const MAGIC: [u8; 8] = *b"BRDBASE\0";

/// The layout version of this module's files (1).
pub const VERSION: u32 = 1;

/// The largest file [`TableFile::read`] accepts (1 MiB). The largest file
/// written today (Euler) is about 256 KiB.
pub const MAX_FILE_LEN: usize = 1 << 20;

/// Bytes of the CRC-32 trailer.
const CRC_LEN: usize = 4;

/// Bytes of the magic and the version, read before anything else.
const HEADER_LEN: usize = 12;

/// Rows and columns of every puzzle's board.
const SIDE: u8 = 4;

/// Entries per column of a 4×4 table: one per board.
const ENTRIES: usize = 1 << 16;

/// One exported table: a puzzle's columns, one entry per board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableFile {
    /// [`MAGIC`].
    pub magic: [u8; 8],
    /// [`VERSION`].
    pub version: u32,
    /// `"flip"` or `"euler"`.
    pub puzzle: String,
    /// Board rows (4).
    pub rows: u8,
    /// Board columns (4).
    pub cols: u8,
    /// The columns, each with one entry per board.
    pub columns: Vec<Column>,
}

/// One column of a [`TableFile`]: `2^(rows*cols)` entries of `width` bytes,
/// little-endian, entry `i` for the board whose bits are `i`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Column {
    /// What the column holds, e.g. `"rounds"`.
    pub name: String,
    /// Bytes per entry (1 to 8).
    pub width: u8,
    /// The entries, each `width` bytes little-endian.
    pub data: Vec<u8>,
}

impl Column {
    /// A column of `width`-byte entries, one per board, from `value(board
    /// bits)`.
    fn build(name: &str, width: u8, value: impl Fn(u16) -> u64) -> Column {
        let w = usize::from(width);
        let mut data = Vec::with_capacity(ENTRIES * w);
        for bits in 0..=u16::MAX {
            data.extend_from_slice(&value(bits).to_le_bytes()[..w]);
        }
        Column {
            name: name.to_owned(),
            width,
            data,
        }
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        match self.width {
            0 => 0,
            w => self.data.len() / usize::from(w),
        }
    }

    /// Whether the column has no entries.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Entry `index`, or `None` past the end (or for a width over 8).
    pub fn get(&self, index: usize) -> Option<u64> {
        let w = usize::from(self.width);
        if !(1..=8).contains(&w) {
            return None;
        }
        let bytes = self.data.get(index.checked_mul(w)?..)?.get(..w)?;
        let mut le = [0u8; 8];
        le[..w].copy_from_slice(bytes);
        Some(u64::from_le_bytes(le))
    }
}

/// The columns a puzzle's file must have: name and width.
fn required_columns(puzzle: &str) -> Option<&'static [(&'static str, u8)]> {
    match puzzle {
        "flip" => Some(&[("rounds", 1), ("presses", 2), ("optimal_sets", 1)]),
        "euler" => Some(&[("winning", 1), ("plies", 1), ("best_move", 2)]),
        _ => None,
    }
}

/// The value the embedded tables give for a known column, `None` for an
/// unknown one.
fn expected_value(puzzle: &str, column: &str, bits: u16) -> Option<u64> {
    let board = Board::from_bits(bits);
    let position = Position::from_bits(bits);
    let value = match (puzzle, column) {
        ("flip", "rounds") => u64::from(flip::rounds(board).unwrap_or(u8::MAX)),
        ("flip", "presses") => u64::from(flip::solve(board).map_or(0, |s| s.presses.bits())),
        ("flip", "optimal_sets") => u64::from(flip::solve(board).map_or(0, |s| s.optimal_sets)),
        ("euler", "winning") => u64::from(euler::outcome(position).is_win()),
        ("euler", "plies") => u64::from(euler::probe(position).moves_left),
        ("euler", "best_move") => {
            u64::from(euler::probe(position).best_move.map_or(0, |m| m.bits()))
        }
        _ => return None,
    };
    Some(value)
}

/// Reads a little-endian `u32` at `at` (the caller checked the length).
fn le_u32(bytes: &[u8], at: usize) -> u32 {
    let mut b = [0u8; 4];
    b.copy_from_slice(&bytes[at..at + 4]);
    u32::from_le_bytes(b)
}

impl TableFile {
    /// A file of `puzzle`'s 4×4 tables with its required columns.
    fn build(puzzle: &str) -> TableFile {
        let columns = required_columns(puzzle)
            .unwrap_or(&[])
            .iter()
            .map(|&(name, width)| {
                Column::build(name, width, |bits| {
                    expected_value(puzzle, name, bits).unwrap_or(0)
                })
            })
            .collect();
        TableFile {
            magic: MAGIC,
            version: VERSION,
            puzzle: puzzle.to_owned(),
            rows: SIDE,
            cols: SIDE,
            columns,
        }
    }

    /// Flip Game's tables: columns `rounds`, `presses`, `optimal_sets`.
    pub fn flip() -> TableFile {
        TableFile::build("flip")
    }

    /// Game of Euler's tables: columns `winning`, `plies`, `best_move`.
    pub fn euler() -> TableFile {
        TableFile::build("euler")
    }

    /// Every puzzle's file, as `boardbase export` writes them.
    pub fn all() -> [TableFile; 2] {
        [TableFile::flip(), TableFile::euler()]
    }

    /// The file name `boardbase export` gives it: `flip-4x4.bin`,
    /// `euler-4x4.bin`.
    pub fn file_name(&self) -> String {
        format!("{}-{}x{}.bin", self.puzzle, self.rows, self.cols)
    }

    /// The column called `name`.
    pub fn column(&self, name: &str) -> Option<&Column> {
        self.columns.iter().find(|c| c.name == name)
    }

    /// The file's bytes: the encoded body, then its CRC-32 little-endian.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = bincode::serde::encode_to_vec(self, bincode::config::legacy())
            .expect("encoding into a Vec cannot fail");
        let crc = crc32fast::hash(&bytes);
        bytes.extend_from_slice(&crc.to_le_bytes());
        bytes
    }

    /// Reads a file: checks, in this order, the size, the magic, the
    /// version, the CRC, the encoding, the puzzle, the shape, and every
    /// column's presence, width and length. The contents are not compared
    /// with the tables: see [`TableFile::verify_contents`].
    ///
    /// Decoding never allocates more than the file's size allows.
    pub fn read(bytes: &[u8]) -> Result<TableFile, TableError> {
        let len = bytes.len();
        if len < HEADER_LEN + CRC_LEN {
            return Err(TableError::V1TooShort {
                len,
                min: HEADER_LEN + CRC_LEN,
            });
        }
        if len > MAX_FILE_LEN {
            return Err(TableError::V1TooLarge {
                len,
                max: MAX_FILE_LEN,
            });
        }
        let (body, trailer) = bytes.split_at(len - CRC_LEN);
        let mut found = [0u8; 8];
        found.copy_from_slice(&body[..8]);
        if found != MAGIC {
            return Err(TableError::BadMagic { found });
        }
        let version = le_u32(body, 8);
        if version != VERSION {
            return Err(TableError::V1Version(version));
        }
        let stored = le_u32(trailer, 0);
        let computed = crc32fast::hash(body);
        if stored != computed {
            return Err(TableError::V1Crc { stored, computed });
        }
        let config = bincode::config::legacy().with_limit::<MAX_FILE_LEN>();
        let (file, used): (TableFile, usize) = bincode::serde::decode_from_slice(body, config)
            .map_err(|e| TableError::V1Decode(e.to_string()))?;
        if used != body.len() {
            return Err(TableError::V1Trailing(body.len() - used));
        }
        file.check_structure()?;
        Ok(file)
    }

    /// Checks the puzzle, the shape and the columns' presence, widths and
    /// lengths (everything but the contents).
    pub fn check_structure(&self) -> Result<(), TableError> {
        if self.magic != MAGIC {
            return Err(TableError::BadMagic { found: self.magic });
        }
        if self.version != VERSION {
            return Err(TableError::V1Version(self.version));
        }
        let required = required_columns(&self.puzzle)
            .ok_or_else(|| TableError::UnknownPuzzle(self.puzzle.clone()))?;
        if (self.rows, self.cols) != (SIDE, SIDE) {
            return Err(TableError::V1Shape {
                puzzle: self.puzzle.clone(),
                rows: self.rows,
                cols: self.cols,
            });
        }
        for (i, column) in self.columns.iter().enumerate() {
            if self.columns[..i].iter().any(|c| c.name == column.name) {
                return Err(TableError::DuplicateColumn(column.name.clone()));
            }
        }
        for &(name, width) in required {
            let column = self
                .column(name)
                .ok_or_else(|| TableError::MissingColumn(name.to_owned()))?;
            if column.width != width {
                return Err(TableError::V1ColumnWidth {
                    column: name.to_owned(),
                    width: column.width,
                    expected: width,
                });
            }
        }
        for column in &self.columns {
            if !(1..=8).contains(&column.width) {
                return Err(TableError::V1ColumnWidth {
                    column: column.name.clone(),
                    width: column.width,
                    expected: 1,
                });
            }
            let expected = ENTRIES * usize::from(column.width);
            if column.data.len() != expected {
                return Err(TableError::ColumnLength {
                    column: column.name.clone(),
                    len: column.data.len() as u64,
                    expected: expected as u64,
                });
            }
        }
        Ok(())
    }

    /// Checks the structure ([`TableFile::check_structure`]) and that every
    /// entry of every known column equals the embedded tables; columns this
    /// library does not know are not compared.
    pub fn verify_contents(&self) -> Result<(), TableError> {
        self.check_structure()?;
        for column in &self.columns {
            for bits in 0..=u16::MAX {
                let Some(expected) = expected_value(&self.puzzle, &column.name, bits) else {
                    break; // an unknown column
                };
                let index = usize::from(bits);
                let found = column.get(index).unwrap_or(u64::MAX);
                if found != expected {
                    return Err(ContentsError {
                        column: column.name.clone(),
                        index: index as u64,
                        found,
                        expected,
                    }
                    .into());
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_layout_starts_as_documented() {
        let bytes = TableFile::flip().to_bytes();
        assert_eq!(&bytes[..8], b"BRDBASE\0");
        assert_eq!(&bytes[8..12], &1u32.to_le_bytes());
        assert_eq!(&bytes[12..20], &4u64.to_le_bytes());
        assert_eq!(&bytes[20..24], b"flip");
        assert_eq!(&bytes[24..26], &[4, 4]);
        assert_eq!(&bytes[26..34], &3u64.to_le_bytes());
        // Body: 34 + per column (8 + name + 1 + 8 + data); then the CRC.
        let columns: usize = [("rounds", 1), ("presses", 2), ("optimal_sets", 1)]
            .iter()
            .map(|(n, w)| 8 + n.len() + 1 + 8 + w * ENTRIES)
            .sum();
        assert_eq!(bytes.len(), 34 + columns + 4);
        assert!(TableFile::euler().to_bytes().len() < MAX_FILE_LEN);
    }

    #[test]
    fn a_version_error_names_the_version_read() {
        // The message is written with the other table-file errors, which
        // do not look into this module: it must still name `VERSION`.
        let message = TableError::V1Version(VERSION + 1).to_string();
        assert!(
            message.ends_with(&format!("reads version {VERSION})")),
            "{message}"
        );
    }

    #[test]
    fn a_hostile_length_is_refused_without_allocating() {
        // A valid header, CRC and then a puzzle name claiming 2^62 bytes.
        let mut body = Vec::new();
        body.extend_from_slice(&MAGIC);
        body.extend_from_slice(&VERSION.to_le_bytes());
        body.extend_from_slice(&(1u64 << 62).to_le_bytes());
        body.extend_from_slice(b"flip");
        let crc = crc32fast::hash(&body);
        body.extend_from_slice(&crc.to_le_bytes());
        assert!(matches!(
            TableFile::read(&body),
            Err(TableError::V1Decode(_))
        ));
    }
}
