//! Why a table could not be opened, built, written or verified, or a
//! probe of it could not answer: one error, [`TableError`], for every
//! fault of a table file, its [`Kind`](crate::error::Kind) said once.

use std::io;

use boardbase_tables::shape::Shape;

use super::Puzzle;
use crate::error::{Classify, Kind};

/// Why a table file was refused, could not be written, or failed
/// [`Table::verify`](super::Table::verify); a version-1 file's own checks
/// ([`TableFile::read`](super::v1::TableFile::read)) are the `V1` variants,
/// with those of every version (the magic, the puzzle, the columns).
///
/// Errors found when opening come in the order of the checks: the magic,
/// the version, the header's length and CRC, its decoding, the file's
/// length, the puzzle and shape, the column layout, the required columns.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TableError {
    /// Reading, mapping or writing the file failed.
    #[error("{0}")]
    Io(#[from] io::Error),
    /// The first 8 bytes are not [`MAGIC`](super::MAGIC): not a boardbase
    /// table file (a file shorter than 8 bytes is compared as far as it
    /// goes, and `found` is padded with zeros).
    #[error(
        "bad magic: not a boardbase table file (expected \"BRDBASE\\x00\", found \"{}\")",
        found.escape_ascii()
    )]
    BadMagic {
        /// The first 8 bytes.
        found: [u8; 8],
    },
    /// A layout version this library does not read (it reads 1 to 5).
    #[error("unsupported version {0} (this library reads versions 1 to 6)")]
    Version(u32),
    /// The file is shorter than its header says (or too short to hold the
    /// header itself).
    #[error("truncated file: {len} bytes, the header says {expected}")]
    Truncated {
        /// The file's length.
        len: u64,
        /// The length the header requires.
        expected: u64,
    },
    /// The file is longer than its header says.
    #[error("{} unexpected bytes after the end of the table ({len} bytes, the header says {expected})", len - expected)]
    TrailingBytes {
        /// The file's length.
        len: u64,
        /// The length the header gives.
        expected: u64,
    },
    /// The header length field is over [`MAX_HEADER_LEN`](super::MAX_HEADER_LEN).
    #[error("header too large: {len} bytes, at most {max}")]
    HeaderTooLarge {
        /// The length field.
        len: u64,
        /// The largest accepted.
        max: u64,
    },
    /// The header's CRC-32 does not match: the header is damaged.
    #[error(
        "header CRC mismatch: stored {stored:#010x}, computed {computed:#010x} (the header is damaged)"
    )]
    HeaderCrc {
        /// The CRC in the file.
        stored: u32,
        /// The CRC of the header bytes.
        computed: u32,
    },
    /// The header is not a valid encoding.
    #[error("cannot decode the header: {0}")]
    HeaderDecode(String),
    /// The header has bytes after its last field.
    #[error("{0} unexpected bytes at the end of the header")]
    HeaderTrailing(usize),
    /// The puzzle is not `flip` or `euler`.
    #[error("unknown puzzle {0:?} (expected \"flip\" or \"euler\")")]
    UnknownPuzzle(String),
    /// The board shape is not valid for the puzzle.
    #[error(
        "bad shape {rows}x{cols} for {puzzle} (sides from 1, at most {} cells)",
        puzzle.max_cells()
    )]
    BadShape {
        /// The puzzle.
        puzzle: Puzzle,
        /// Rows in the header.
        rows: u8,
        /// Columns in the header.
        cols: u8,
    },
    /// The board of a game's table is not a board.
    #[error("bad shape {rows}x{cols} for {game} (sides from 1)")]
    BadGameShape {
        /// The game.
        game: String,
        /// Rows in the header.
        rows: u8,
        /// Columns in the header.
        cols: u8,
    },
    /// Two columns have the same name.
    #[error("duplicate column {0:?}")]
    DuplicateColumn(String),
    /// A column's entry width is not one of 1, 8, 16, 32 or 64 bits.
    #[error("column {column:?} has entries of {width} bits (widths are 1, 8, 16, 32 or 64)")]
    BadWidth {
        /// The column.
        column: String,
        /// Its width in bits.
        width: u8,
    },
    /// A known column has the wrong entry width.
    #[error("column {column:?} has entries of {width} bits, expected {expected}")]
    ColumnWidth {
        /// The column.
        column: String,
        /// Its width in bits.
        width: u8,
        /// The width it must have.
        expected: u8,
    },
    /// A known column has the wrong number of entries.
    #[error("column {column:?} has {entries} entries, expected {expected}")]
    ColumnEntries {
        /// The column.
        column: String,
        /// Its entry count.
        entries: u64,
        /// The count it must have.
        expected: u64,
    },
    /// A column's byte length does not match its entries and width.
    #[error("column {column:?} holds {len} bytes, expected {expected}")]
    ColumnLength {
        /// The column.
        column: String,
        /// Its length in bytes.
        len: u64,
        /// `ceil(entries × width / 8)`.
        expected: u64,
    },
    /// A column starts at an offset that is not a multiple of 64, or
    /// before the end of the header or of the column before it.
    #[error("column {column:?} starts at byte {offset}: expected a multiple of 64, at least {min}")]
    ColumnOffset {
        /// The column.
        column: String,
        /// Its offset.
        offset: u64,
        /// The end of what comes before it.
        min: u64,
    },
    /// A column (its bytes, or in version 3 its block-CRC array) ends past
    /// the file length the header gives.
    #[error("column {column:?} ends at byte {end}, past the end of the file ({file_len} bytes)")]
    ColumnEnd {
        /// The column.
        column: String,
        /// Its end (offset + length, or the end of its block-CRC array),
        /// saturated.
        end: u64,
        /// The file length of the header.
        file_len: u64,
    },
    /// The header's file length is not where the last column ends.
    #[error(
        "the header gives a file length of {file_len} bytes, but its last column ends at {end}"
    )]
    FileEnd {
        /// The file length of the header.
        file_len: u64,
        /// Where the last column ends.
        end: u64,
    },
    /// A version-3 column's block length is not a power of two from 64
    /// bytes to 1 MiB.
    #[error(
        "column {column:?} has blocks of {block_len} bytes (a power of two from 64 to 1048576 expected)"
    )]
    BlockLen {
        /// The column.
        column: String,
        /// Its block length in bytes.
        block_len: u32,
    },
    /// A version-4 column stored with a codec this library does not know.
    #[error(
        "column {column:?} is stored with codec {codec}, which this library does not read (0 raw, 1 zstd)"
    )]
    Codec {
        /// The column.
        column: String,
        /// The header's code.
        codec: u8,
    },
    /// A compressed column whose index is not in order, or whose block
    /// does not decompress to the bytes of entries it holds.
    #[error("column {column:?}, block {block}: {problem} (the file is damaged)")]
    Packed {
        /// The column.
        column: String,
        /// The block.
        block: u64,
        /// What is wrong.
        problem: String,
    },
    /// A version-3 column's block-CRC array starts at an offset that is not
    /// a multiple of 64, or before the end of the column.
    #[error(
        "column {column:?}: its block CRCs start at byte {offset}: expected a multiple of 64, at least {min}"
    )]
    BlockCrcsOffset {
        /// The column.
        column: String,
        /// Where the array starts.
        offset: u64,
        /// The end of what comes before it.
        min: u64,
    },
    /// A version-5 table's index of positions up to the board's symmetries
    /// cannot be used: its symmetries are not the board's own, its key
    /// cells make no index, or the table is not one that has an index.
    #[error("the symmetric index is not valid: {0}")]
    Index(String),
    /// A table of one entry a class of positions with a best-move column:
    /// its best moves are found from its moves left.
    #[error(
        "a table of one entry a class of symmetric positions has no best_move column: its best moves are found from the plies column"
    )]
    SymmetricDepth,
    /// A column the puzzle requires is absent.
    #[error("missing column {0:?}")]
    MissingColumn(String),
    /// The `moves` column of an Euler table is not the shape's move list
    /// (`boardbase_tables::euler::moves`).
    #[error(
        "column \"moves\" differs from the moves of the {shape} board at index {index}: {found:#x}, expected {expected:#x}"
    )]
    Moves {
        /// The board shape.
        shape: Shape,
        /// The first differing move.
        index: usize,
        /// The mask in the file.
        found: u64,
        /// The mask of the shape's move list.
        expected: u64,
    },
    /// A column's CRC-32 does not match its bytes: the column is damaged.
    #[error(
        "column {column:?}: CRC mismatch: stored {stored:#010x}, computed {computed:#010x} (the column is damaged)"
    )]
    ColumnCrc {
        /// The column.
        column: String,
        /// The CRC in the header.
        stored: u32,
        /// The CRC of its bytes.
        computed: u32,
    },
    /// A block of a version-3 column does not match its CRC-32 in the
    /// column's block-CRC array: the block is damaged.
    #[error(
        "column {column:?}, block {block} (bytes {start}..{end}): CRC mismatch: stored {stored:#010x}, computed {computed:#010x} (the block is damaged)"
    )]
    BlockCrc {
        /// The column.
        column: String,
        /// The block's index in the column.
        block: u64,
        /// Where the block starts in the file.
        start: u64,
        /// Where it ends (excluded).
        end: u64,
        /// Its CRC in the block-CRC array.
        stored: u32,
        /// The CRC of its bytes.
        computed: u32,
    },
    /// A version-3 column's block-CRC array does not match the CRC-32 the
    /// header gives for it: the array is damaged, so no block of the
    /// column can be checked.
    #[error(
        "column {column:?}: its block-CRC array (bytes {start}..{end}) does not match its CRC: stored {stored:#010x}, computed {computed:#010x} (the array is damaged)"
    )]
    BlockCrcs {
        /// The column.
        column: String,
        /// Where the array starts in the file.
        start: u64,
        /// Where it ends (excluded).
        end: u64,
        /// The CRC in the header.
        stored: u32,
        /// The CRC of the array's bytes.
        computed: u32,
    },
    /// A byte outside every column, block-CRC array and the header
    /// (padding, or the unused bits of a 1-bit column's last byte) is not
    /// zero.
    #[error("nonzero padding at byte {offset}")]
    Padding {
        /// Its offset in the file.
        offset: u64,
    },
    /// An entry differs from the embedded 4×4 tables.
    #[error(transparent)]
    Contents(#[from] ContentsError),
    /// An entry contradicts the puzzle's rules given its neighbours (the
    /// structural checks of [`Table::verify`](super::Table::verify)).
    #[error("column {column:?}, entry {index} (board {index:#x}): {detail}")]
    Inconsistent {
        /// The column.
        column: String,
        /// The entry (the board's bits).
        index: u64,
        /// What is wrong with it.
        detail: String,
    },
    /// A version-1 file shorter than the magic, the version and the CRC.
    #[error("file too short: {len} bytes, a table file has at least {min}")]
    V1TooShort {
        /// Length of the file.
        len: usize,
        /// The least a file can have.
        min: usize,
    },
    /// A version-1 file longer than [`MAX_FILE_LEN`](super::v1::MAX_FILE_LEN).
    #[error("file too large: {len} bytes, a table file has at most {max}")]
    V1TooLarge {
        /// Length of the file.
        len: usize,
        /// [`MAX_FILE_LEN`](super::v1::MAX_FILE_LEN).
        max: usize,
    },
    /// A layout version other than 1, the only one
    /// [`TableFile::read`](super::v1::TableFile::read) reads (newer files
    /// are [`Table::open`](super::Table::open)'s).
    #[error("unsupported version {0} (this library reads version 1)")]
    V1Version(u32),
    /// A version-1 file whose stored CRC-32 does not match its body: the
    /// file is damaged.
    #[error("CRC mismatch: stored {stored:#010x}, computed {computed:#010x} (the file is damaged)")]
    V1Crc {
        /// The CRC-32 in the last 4 bytes.
        stored: u32,
        /// The CRC-32 of the body.
        computed: u32,
    },
    /// A version-1 body that is not a valid encoding of
    /// [`TableFile`](super::v1::TableFile).
    #[error("cannot decode the body: {0}")]
    V1Decode(String),
    /// Bytes follow the encoded [`TableFile`](super::v1::TableFile) before
    /// the CRC.
    #[error("{0} unexpected bytes after the table")]
    V1Trailing(usize),
    /// A version-1 board shape that is not the puzzle's.
    #[error("bad shape {rows}x{cols} for {puzzle} (expected 4x4)")]
    V1Shape {
        /// The puzzle.
        puzzle: String,
        /// Rows in the file.
        rows: u8,
        /// Columns in the file.
        cols: u8,
    },
    /// A version-1 column's entry width is wrong (or 0, or over 8).
    #[error("column {column:?} has width {width}, expected {expected}")]
    V1ColumnWidth {
        /// The column.
        column: String,
        /// Its width.
        width: u8,
        /// The width it must have.
        expected: u8,
    },
    /// The file is another setup's table than its name says.
    #[error("the file holds the table {found}, not {expected}")]
    OtherGame {
        /// The usual name of the table it holds.
        found: String,
        /// The usual name of the table asked for.
        expected: String,
    },
    /// A game's table whose board or options the game is not played with.
    #[error(transparent)]
    Setup(crate::catalogue::SetupError),

    // Why a probe could not answer: the board or position asked is not
    // one of the table's, or the entry that answers it cannot be read.
    /// A probe of a table of another puzzle than asked.
    #[error("the table is for {found}, not {expected}")]
    WrongPuzzle {
        /// The puzzle asked for.
        expected: Puzzle,
        /// The table's puzzle.
        found: Puzzle,
    },
    /// The board has bits outside the table's shape.
    #[error("board {board:#x} has bits outside the {shape} board (at most {:#x})", shape.full())]
    OutOfRange {
        /// The board given.
        board: u64,
        /// The table's shape.
        shape: Shape,
    },
    /// A game's position index past the table's positions.
    #[error("position {position} is past the table's {positions} positions")]
    NoSuchPosition {
        /// The position index given.
        position: u64,
        /// The table's positions.
        positions: u64,
    },
    /// The table lacks a column this probe needs (a version-1 Flip table has
    /// no per-colour columns).
    #[error("the table has no column {0:?}")]
    NoColumn(&'static str),
    /// A stored value that cannot be right (the file is damaged: run
    /// [`Table::verify`](super::Table::verify)).
    #[error(
        "column {column:?}, entry {index:#x} holds {value}, which cannot be right (the table is damaged)"
    )]
    BadEntry {
        /// The column.
        column: &'static str,
        /// The entry.
        index: u64,
        /// The stored value.
        value: u64,
    },
    /// The block of a version-3 file that holds the entry does not match
    /// its CRC-32 (or the column's block-CRC array, which holds that CRC,
    /// is itself damaged): the entry is not read, never answered. The other
    /// blocks still answer; [`Table::verify`](super::Table::verify) checks
    /// them all.
    #[error(
        "column {column:?}, block {block} (bytes {start}..{end} of the file) {}",
        if *array_damaged {
            "cannot be checked: the column's block-CRC array is damaged"
        } else {
            "does not match its CRC: the table is damaged"
        }
    )]
    DamagedBlock {
        /// The column.
        column: &'static str,
        /// The block's index in the column.
        block: u64,
        /// Where the block starts in the file.
        start: u64,
        /// Where it ends (excluded).
        end: u64,
        /// Whether the column's block-CRC array is what is damaged (its own
        /// CRC-32, in the header, does not match it).
        array_damaged: bool,
    },
}

impl Classify for TableError {
    /// [`Kind::Io`] for reading or writing that failed;
    /// [`Kind::Mismatch`] for a probe of what the table does not hold
    /// (another puzzle's table, a board with bits outside its shape, a
    /// position past its positions): the question's; [`Kind::Table`] for
    /// the rest, a file that cannot be used or a table found damaged.
    fn kind(&self) -> Kind {
        match self {
            TableError::Io(_) => Kind::Io,
            TableError::WrongPuzzle { .. }
            | TableError::OutOfRange { .. }
            | TableError::NoSuchPosition { .. } => Kind::Mismatch,
            _ => Kind::Table,
        }
    }
}

/// An entry of a 4×4 table file that differs from the embedded tables: the
/// first one found, in a file of either format version.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "contents differ from the tables: column {column:?}, entry {index} \
     (board {index:#06x}) is {found}, expected {expected}"
)]
pub struct ContentsError {
    /// The column.
    pub column: String,
    /// The first differing entry (the board's bits).
    pub index: u64,
    /// The value in the file.
    pub found: u64,
    /// The value of the tables.
    pub expected: u64,
}
