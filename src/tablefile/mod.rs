//! Tables of any board shape: memory-mapped table files (format version 3,
//! and 2 and 1 of earlier releases), tables held in memory, typed probes,
//! writing and verifying.
//!
//! A [`Table`] is one puzzle's tables for one board shape, as named
//! *columns* of one entry per board (or position): entry `i` is for the
//! board whose bits are `i`, cell (`row`, `col`) at bit `cols * row + col`.
//! [`Table::open`] maps a file without reading its columns (the time does
//! not depend on the file's size; each block of a column is checked against
//! its CRC the first time a probe reads it); [`Table::from_euler`] and
//! [`Table::from_flip`] hold columns computed in memory behind the same
//! probes; [`Table::write`] writes either to a file; [`Table::verify`] checks
//! a file's CRCs and contents. Which table answers a puzzle and shape
//! (embedded, a file in the table directories, or made in memory) is the
//! [`Tablebase`](crate::tablebase::Tablebase)'s decision. [`v1`] reads and
//! writes the version-1 layout of earlier releases (4×4 only), which
//! [`Table::open`] still reads.
//!
//! ```
//! use boardbase::euler::Outcome;
//! use boardbase::tablefile::{Puzzle, Table};
//!
//! let dir = std::env::temp_dir().join(format!("boardbase-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir)?;
//! let path = dir.join("euler-4x4.bin");
//! Table::embedded(Puzzle::Euler).write(&path, &mut |_| {})?;
//!
//! let table = Table::open(&path)?; // mapped: nothing is read but the header
//! let euler = table.as_euler()?;
//! // The judge's second sample: the player to move wins, 4 moves before the
//! // board is full, by covering the square marked `o`.
//! //
//! //   X X X X        X X X X
//! //   . . . X        . . o X
//! //   X X . X        X X . X
//! //   X X . X        X X . X
//! let covered = 0b1011_1011_1000_1111;
//! let entry = euler.probe(covered)?;
//! assert_eq!(entry.outcome, Outcome::Win);
//! assert_eq!(entry.moves_left, Some(4));
//! assert_eq!(entry.best_move, Some(1 << 6)); // (1, 2): bit 4·1 + 2
//! assert_eq!(euler.winning_moves(covered)?, [1 << 6]);
//! // A position with bits outside the 4×4 board is an error, not a panic.
//! assert!(euler.probe(1 << 16).is_err());
//! table.verify(&mut |_| {})?; // every CRC, and every entry against the built-in tables
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # File layout (version 3)
//!
//! All integers are little-endian. A file is a header, then each column
//! followed by its block-CRC array, each region starting at a multiple of
//! 64 bytes:
//!
//! | offset | bytes | field |
//! | ---: | ---: | --- |
//! | 0 | 8 | magic `BRDBASE\0` ([`MAGIC`]) |
//! | 8 | 4 | version, `u32`: 3 ([`VERSION`]) |
//! | 12 | 4 | `n`, `u32`: the length of the encoded header that follows (at most [`MAX_HEADER_LEN`]) |
//! | 16 | `n` | the header, encoded with bincode 2's `legacy()` configuration (below) |
//! | 16 + `n` | 4 | CRC-32 (IEEE, as zlib's) of bytes 0 to 16 + `n` |
//! | | | zero bytes up to the first column; each column's bytes at its offset, zero bytes up to its block-CRC array, the array, zero bytes up to the next column; the file ends where the last array ends |
//!
//! The encoded header: `u64` lengths before strings and lists, integers at
//! their full width, fields in this order:
//!
//! | field | encoding |
//! | --- | --- |
//! | `puzzle` | `u64` length, then UTF-8: `flip` or `euler` |
//! | `rows`, `cols` | `u8` each |
//! | `file_len` | `u64`: the file's length in bytes |
//! | `columns` | `u64` count, then per column: |
//! | `name` | `u64` length, then UTF-8 |
//! | `width` | `u8`: bits per entry, 1, 8, 16, 32 or 64 |
//! | `entries` | `u64`: number of entries |
//! | `offset` | `u64`: where the column's bytes start, a multiple of 64 |
//! | `len` | `u64`: its bytes, `ceil(entries × width / 8)` |
//! | `crc` | `u32`: the CRC-32 of its block-CRC array's bytes |
//! | `block_len` | `u32`: bytes per block, a power of two from 64 to 1 MiB (4,096 as written here) |
//! | `block_crcs_offset` | `u64`: where the block-CRC array starts, a multiple of 64, at or after the column's end |
//!
//! The block-CRC array holds `ceil(len / block_len)` little-endian `u32`:
//! the CRC-32 of each block of `block_len` bytes of the column, the last
//! block possibly shorter. No entry straddles two blocks.
//!
//! **Version 2** (earlier releases; still read and verified) is the same
//! without the block CRCs: each column's header entry ends with `crc`, the
//! CRC-32 of the column's bytes, and the columns follow one another.
//!
//! Entries of 8 to 64 bits are little-endian integers; 1-bit entries are
//! packed least significant bit first: entry `i` is bit `i % 8` of byte
//! `i / 8` (bit `i % 64` of the little-endian `u64` word `i / 64`), and the
//! unused bits of the last byte are 0. Columns are in header order, each at
//! or after the end of the one before (of its block-CRC array). Readers find
//! columns by name and skip the ones they do not know.
//!
//! | puzzle | column | width | entries | value |
//! | --- | --- | ---: | --- | --- |
//! | `euler` | `winning` | 1 | 2^cells | 1 = the player to move wins; the full board is 1 |
//! | `euler` | `plies` | 8 | 2^cells | moves left with perfect play (winner hurries, loser resists); 0 for the full board. Absent from a WDL-only table |
//! | `euler` | `best_move` | 8 | 2^cells | index into `moves` of one best move (ties to the first); 255 for the full board. Absent from a WDL-only table |
//! | `euler` | `moves` | 64 | moves of the shape | the move masks of `boardbase_tables::euler::moves(shape)`, in that order |
//! | `flip` | `rounds` | 8 | 2^cells | fewest rounds to the closer colour, 255 when neither can be reached |
//! | `flip` | `rounds_white`, `rounds_black` | 8 | 2^cells | fewest rounds to all white (board 0) / all black, 255 when unreachable |
//! | `flip` | `presses_white`, `presses_black` | 8, 16 or 32: the least ≥ cells | 2^cells | one optimal press set to that colour, 0 when unreachable |
//! | `flip` | `optimal_sets_white`, `optimal_sets_black` | 8 | 2^cells | how many optimal press sets reach that colour, 0 when unreachable |
//!
//! Euler tables exist for R·C ≤ 36, Flip tables for R·C ≤ 25
//! ([`Puzzle::max_cells`]).
//!
//! # Opening, damage and verification
//!
//! [`Table::open`] checks, in this order: the magic, the version, the
//! header's length and CRC, its decoding, the file's length against the
//! header's (a truncated file is [`TableError::Truncated`], never a crash),
//! the puzzle and shape, the column layout (alignment, order, bounds), the
//! puzzle's required columns (presence, width, entry count), and for Euler
//! that `moves` is the shape's move list (at most 160 words). Then it maps
//! the file: no column is read or copied. In version 3 no CRC but the
//! header's is read by `open`: each block is checked against its CRC the
//! first time a probe reads an entry of it (a bit per block remembers the
//! blocks found intact, so a block is checked once), and a damaged block is
//! refused, never answered: [`ProbeError::DamagedBlock`] names the column,
//! the block and its bytes, while the other blocks still answer. In version
//! 2 the column CRCs are *not* checked by `open`, which would read the whole
//! file: the [`Tablebase`](crate::tablebase::Tablebase) checks them for
//! version-2 files of at most 256 MiB before it answers from them.
//! [`Table::verify_crcs`] and [`Table::verify`] check every CRC of either
//! version.
//! As with any memory-mapped file, a file truncated or rewritten by another
//! process *after* it was opened can still make a probe fault (`SIGBUS`);
//! files written by [`Table::write`] are never changed in place (a new file
//! replaces the old name).
//!
//! Version-1 files (the 4×4 exports of earlier releases, see
//! [`v1`]) are still read, into memory, and verified.

pub(crate) mod direct;
mod error;
mod format;
pub mod game;
pub(crate) mod parts;
mod probe;
pub mod v1;
mod verify;
mod write;

use std::fmt;
use std::fs::File;
use std::path::Path;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

use boardbase_tables::euler::{MoveList, moves};
use boardbase_tables::shape::Shape;

pub use error::{ContentsError, ProbeError, TableError};
pub use game::{GameId, GameTable};
pub use probe::{EulerEntry, EulerTable, FlipSolution, FlipTable, MoveValue, TableRoute};
pub use verify::{Checked, DEFAULT_SAMPLE, Verified, VerifyOptions};
pub(crate) use write::bits_bytes;
pub use write::{
    AtomicFile, Destination, WRITE_MEMORY, destination, remove_temporary_files, write_atomically,
};

use crate::error::{Classify, Kind};
use crate::euler::{self, Move, Position};
use crate::flip::{self, Board, Colour};
use v1::TableFile;

/// The first 8 bytes of every table file, of every version.
pub const MAGIC: [u8; 8] = *b"BRDBASE\0";

/// The layout version [`Table::write`] writes: 3, with a CRC-32 per block
/// of each column. [`Table::open`] also reads versions 2 and 1.
pub const VERSION: u32 = 3;

/// The largest encoded header accepted (64 KiB).
pub const MAX_HEADER_LEN: u32 = 1 << 16;

/// The value of `best_move` (Euler) for the full board: the solvers' own
/// value, written to the files as it is.
pub use crate::tables::euler::depth::NO_MOVE;

/// The value of the `rounds` columns (Flip) for a colour that cannot be
/// reached: the solvers' own value, written to the files as it is.
pub use crate::tables::flip::UNREACHABLE;

/// The puzzle a table is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Puzzle {
    /// Flip Game (and Lights Out's family on other shapes).
    Flip,
    /// Game of Euler.
    Euler,
}

impl Puzzle {
    /// Both puzzles.
    pub const ALL: [Puzzle; 2] = [Puzzle::Flip, Puzzle::Euler];

    /// The name in file headers and file names: `flip` or `euler`.
    pub const fn name(self) -> &'static str {
        match self {
            Puzzle::Flip => "flip",
            Puzzle::Euler => "euler",
        }
    }

    /// The puzzle called `name` (`flip` or `euler`).
    pub fn from_name(name: &str) -> Option<Puzzle> {
        Puzzle::ALL.into_iter().find(|p| p.name() == name)
    }

    /// The most cells of a table of this puzzle: 25 for Flip, 36 for Euler.
    /// These are the solvers' own limits
    /// ([`boardbase_tables::flip::search::MAX_CELLS`],
    /// [`boardbase_tables::euler::winloss::MAX_CELLS`]), and the
    /// generator's ([`generate::FLIP_MAX_CELLS`](crate::generate::FLIP_MAX_CELLS),
    /// [`generate::EULER_MAX_CELLS`](crate::generate::EULER_MAX_CELLS)) are
    /// defined as these: one limit per puzzle.
    pub const fn max_cells(self) -> usize {
        match self {
            Puzzle::Flip => boardbase_tables::flip::search::MAX_CELLS,
            Puzzle::Euler => boardbase_tables::euler::winloss::MAX_CELLS,
        }
    }

    /// The usual file name of its table for `shape`: `euler-5x5.bin`.
    pub fn file_name(self, shape: Shape) -> String {
        format!("{}-{shape}.bin", self.name())
    }
}

impl Puzzle {
    /// The puzzle's name with its article, for messages: `an Euler`, `a
    /// Flip`.
    ///
    /// ```
    /// use boardbase::tablefile::Puzzle;
    /// assert_eq!(Puzzle::Euler.with_article(), "an Euler");
    /// assert_eq!(Puzzle::Flip.with_article(), "a Flip");
    /// ```
    pub const fn with_article(self) -> &'static str {
        match self {
            Puzzle::Euler => "an Euler",
            Puzzle::Flip => "a Flip",
        }
    }
}

/// A board with more cells than a puzzle's tables allow: the one refusal
/// of a shape too large, for the generator and the answer layer alike.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{puzzle} tables take at most {} cells; {shape} has {}", puzzle.max_cells(), shape.cells())]
pub struct TooManyCells {
    /// The puzzle.
    pub puzzle: Puzzle,
    /// The shape asked for.
    pub shape: Shape,
}

impl Classify for TooManyCells {
    fn kind(&self) -> Kind {
        Kind::TooLarge
    }
}

impl Puzzle {
    /// [`TooManyCells`] unless `shape` is within the puzzle's tables'
    /// limit ([`Puzzle::max_cells`]).
    pub fn check_cells(self, shape: Shape) -> Result<(), TooManyCells> {
        if shape.cells() > self.max_cells() {
            return Err(TooManyCells {
                puzzle: self,
                shape,
            });
        }
        Ok(())
    }
}

impl fmt::Display for Puzzle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

pub use crate::progress::{Phase, Progress};

/// What a table says about one of its columns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ColumnInfo {
    /// The column's name, e.g. `winning`.
    pub name: String,
    /// Bits per entry: 1, 8, 16, 32 or 64.
    pub width: u8,
    /// Number of entries.
    pub entries: u64,
    /// Bytes the entries take, `ceil(entries × width / 8)`.
    pub byte_len: u64,
    /// Where the column starts in the file (`None` in memory).
    pub offset: Option<u64>,
    /// The `crc` field of the file's header: in version 3 the CRC-32 of the
    /// column's block-CRC array, in version 2 that of the column's bytes
    /// (`None` in memory and for version-1 files).
    pub crc: Option<u32>,
    /// Where the column's block CRCs are (version 3 only).
    pub blocks: Option<ColumnBlocks>,
}

impl ColumnInfo {
    /// A column of `entries` entries of `width` bits held in memory (no
    /// offset, CRC or blocks yet).
    pub(crate) fn in_memory(name: impl Into<String>, width: u8, entries: u64) -> ColumnInfo {
        ColumnInfo {
            name: name.into(),
            width,
            entries,
            byte_len: format::byte_len(entries, width).unwrap_or(u64::MAX),
            offset: None,
            crc: None,
            blocks: None,
        }
    }
}

/// A version-3 column's blocks: the column's bytes cut in blocks of
/// `block_len` bytes (the last one possibly shorter), each with its CRC-32
/// in the column's block-CRC array.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ColumnBlocks {
    /// Bytes per block: a power of two from 64 to 1 MiB (4,096 as
    /// [`Table::write`] writes them).
    pub block_len: u32,
    /// Number of blocks, `ceil(byte_len / block_len)`.
    pub count: u64,
    /// Where the block-CRC array starts in the file: `count` little-endian
    /// `u32`, a multiple of 64.
    pub crcs_offset: u64,
}

/// A column's entries held in memory, for [`Table::from_columns`]: the
/// generator's own vectors, taken as they are (nothing is copied).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ColumnData {
    /// 1-bit entries: entry `i` is bit `i % 64` of `words[i / 64]`; `words`
    /// holds `ceil(entries / 64)` words. Bits past `entries` are ignored.
    Bits {
        /// The packed entries.
        words: Vec<u64>,
        /// Number of entries.
        entries: u64,
    },
    /// 8-bit entries.
    U8(Vec<u8>),
    /// 16-bit entries.
    U16(Vec<u16>),
    /// 32-bit entries.
    U32(Vec<u32>),
    /// 64-bit entries.
    U64(Vec<u64>),
}

impl ColumnData {
    /// Bits per entry.
    pub fn width(&self) -> u8 {
        match self {
            ColumnData::Bits { .. } => 1,
            ColumnData::U8(_) => 8,
            ColumnData::U16(_) => 16,
            ColumnData::U32(_) => 32,
            ColumnData::U64(_) => 64,
        }
    }

    /// Entry `i`, widened to a `u64` (a press set: the mask in the board
    /// layout).
    ///
    /// # Panics
    ///
    /// Panics if `i` is not below [`ColumnData::entries`].
    pub fn get(&self, i: u64) -> u64 {
        assert!(i < self.entries(), "entry {i} of {}", self.entries());
        let i = i as usize;
        match self {
            ColumnData::Bits { words, .. } => words[i / 64] >> (i % 64) & 1,
            ColumnData::U8(v) => u64::from(v[i]),
            ColumnData::U16(v) => u64::from(v[i]),
            ColumnData::U32(v) => u64::from(v[i]),
            ColumnData::U64(v) => v[i],
        }
    }

    /// Number of entries.
    pub fn entries(&self) -> u64 {
        match self {
            ColumnData::Bits { entries, .. } => *entries,
            ColumnData::U8(v) => v.len() as u64,
            ColumnData::U16(v) => v.len() as u64,
            ColumnData::U32(v) => v.len() as u64,
            ColumnData::U64(v) => v.len() as u64,
        }
    }
}

/// Where a table's bytes live.
enum Storage {
    /// A mapped file.
    Mapped(memmap2::Mmap),
    /// A file's bytes read into memory (version-1 files, [`Table::from_bytes`]).
    Image(Vec<u8>),
    /// Columns built in memory: no file bytes.
    Memory,
}

impl Storage {
    fn bytes(&self) -> &[u8] {
        match self {
            Storage::Mapped(map) => map,
            Storage::Image(bytes) => bytes,
            Storage::Memory => &[],
        }
    }
}

/// One column's entries: in the file's bytes, or held in memory.
enum Data {
    /// `len` bytes at `start` of the storage.
    File { start: usize, len: usize },
    /// Entries in memory.
    Owned(ColumnData),
}

/// A column: what it is, and where its entries are.
struct Column {
    info: ColumnInfo,
    data: Data,
    /// A version-3 column's blocks (`None` for other versions and in
    /// memory).
    blocks: Option<Blocks>,
}

impl Column {
    /// A column of entries held in memory.
    fn owned(name: impl Into<String>, data: ColumnData) -> Column {
        Column {
            info: ColumnInfo::in_memory(name, data.width(), data.entries()),
            data: Data::Owned(data),
            blocks: None,
        }
    }
}

/// A version-3 column's blocks as a probe checks them: where their CRCs
/// are, and which blocks were found intact.
struct Blocks {
    /// `log2` of the block length.
    shift: u32,
    /// Where the column starts in the storage.
    start: usize,
    /// The column's length in bytes.
    len: usize,
    /// Where the block-CRC array starts in the storage (after the column).
    crcs: usize,
    /// Number of blocks.
    count: u64,
    /// The array's CRC-32 (the header's `crc`): computed only when a block
    /// does not match, to say whether the block or the array is damaged.
    array_crc: u32,
    /// One bit a block, set once its CRC matched: each block is checked the
    /// first time a probe reads it, and never again. Made on the column's
    /// first probe, so that opening a file allocates nothing per block.
    checked: OnceLock<Box<[AtomicU64]>>,
}

impl Blocks {
    /// The bitset of blocks found intact, made (all clear) on first use.
    fn checked(&self) -> &[AtomicU64] {
        self.checked.get_or_init(|| {
            (0..self.count.div_ceil(64))
                .map(|_| AtomicU64::new(0))
                .collect()
        })
    }
}

/// The columns a table's probes read, found once.
#[doc(hidden)]
#[derive(Clone, Debug)]
pub enum Layout {
    /// A game of the model: `outcome`, one 16-bit entry a position index.
    Game {
        /// The `outcome` column.
        outcome: usize,
    },
    /// Euler: `winning`, and `plies` and `best_move` unless WDL-only.
    Euler {
        winning: usize,
        full: Option<(usize, usize)>,
        moves: Box<MoveList>,
    },
    /// Flip, version 2 or 3: every column.
    Flip {
        rounds: usize,
        /// Per colour (white, black): rounds, presses, optimal sets.
        colours: [(usize, usize, usize); 2],
    },
    /// Flip from a version-1 file: `rounds`, `presses` (to the closer
    /// colour) and `optimal_sets` (both colours' on ties).
    FlipV1 {
        rounds: usize,
        presses: usize,
        optimal_sets: usize,
    },
}

/// What a table is for, as its header names it: a [`Puzzle`] of the first
/// table files, or a game of the model ([`GameId`]). It says which
/// columns a table of its kind must have.
pub trait Subject: Clone + fmt::Debug + Send + Sync + 'static {
    /// The header's `puzzle` field: `euler`, `flip`, or the game's name.
    fn header_name(&self) -> String;

    /// What a header's name and board say the table is for, checked
    /// against the kind's limits.
    fn identify(name: &str, rows: u8, cols: u8) -> Result<(Self, Shape), TableError>;

    /// Checks a table's columns (names, widths, lengths, the required
    /// ones) and finds the ones its probes read.
    #[doc(hidden)]
    fn check(&self, shape: Shape, columns: &[ColumnInfo]) -> Result<Layout, TableError>;
}

impl Subject for Puzzle {
    fn header_name(&self) -> String {
        self.name().to_owned()
    }

    fn identify(name: &str, rows: u8, cols: u8) -> Result<(Puzzle, Shape), TableError> {
        format::puzzle_and_shape(name, rows, cols)
    }

    fn check(&self, shape: Shape, columns: &[ColumnInfo]) -> Result<Layout, TableError> {
        check_columns(*self, shape, columns)
    }
}

/// One puzzle's tables for one board shape: a mapped file or columns in
/// memory, with typed probes ([`Table::as_euler`], [`Table::as_flip`]).
/// `I` says what the table is for: a [`Puzzle`] (Flip, Euler), or a game
/// of the model ([`GameTable`], `Table<GameId>`); the columns, their CRCs,
/// writing and mapping are the same for every kind.
///
/// A `Table` is `Send` and `Sync`: probe it from many threads at once.
pub struct Table<I = Puzzle> {
    id: I,
    shape: Shape,
    version: u32,
    file_len: u64,
    storage: Storage,
    columns: Vec<Column>,
    layout: Layout,
}

// Probing from many threads at once (the C library promises it) needs this.
const _: () = {
    const fn send_and_sync<T: Send + Sync>() {}
    send_and_sync::<Table>();
    send_and_sync::<GameTable>();
};

impl<I: Subject> fmt::Debug for Table<I> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Table")
            .field("id", &self.id)
            .field("shape", &self.shape)
            .field("version", &self.version)
            .field("file_len", &self.file_len)
            .field("mapped", &self.is_mapped())
            .field("columns", &self.columns().collect::<Vec<_>>())
            .finish()
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

/// The length of the file [`Table::write`] makes of `puzzle`'s table on
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
    let infos = layout_infos(puzzle, shape, full)?;
    let crcs = vec![0; infos.len()];
    Ok(format::encode_header(puzzle.name(), shape, VERSION, &infos, &crcs).2)
}

/// The columns of `puzzle`'s table file on `shape` (Euler's with `plies`
/// and `best_move` when `full`), in file order, as in memory (no offsets).
pub(crate) fn layout_infos(
    puzzle: Puzzle,
    shape: Shape,
    full: bool,
) -> Result<Vec<ColumnInfo>, TableError> {
    if shape.cells() > puzzle.max_cells() {
        return Err(TableError::BadShape {
            puzzle,
            rows: shape.rows() as u8,
            cols: shape.cols() as u8,
        });
    }
    let per_board = 1u64 << shape.cells();
    let mut columns = required(puzzle, shape);
    if puzzle == Puzzle::Euler && full {
        columns.insert(1, ("plies", 8, per_board));
        columns.insert(2, ("best_move", 8, per_board));
    }
    Ok(columns
        .into_iter()
        .map(|(name, width, entries)| ColumnInfo::in_memory(name, width, entries))
        .collect())
}

/// The name, width and entry count of each column `puzzle` requires on
/// `shape` (Euler's `plies` and `best_move` are optional, checked apart).
fn required(puzzle: Puzzle, shape: Shape) -> Vec<(&'static str, u8, u64)> {
    let per_board = 1u64 << shape.cells();
    match puzzle {
        Puzzle::Euler => vec![
            ("winning", 1, per_board),
            ("moves", 64, moves(shape).len() as u64),
        ],
        Puzzle::Flip => {
            let pw = presses_width(shape);
            vec![
                ("rounds", 8, per_board),
                ("rounds_white", 8, per_board),
                ("rounds_black", 8, per_board),
                ("presses_white", pw, per_board),
                ("presses_black", pw, per_board),
                ("optimal_sets_white", 8, per_board),
                ("optimal_sets_black", 8, per_board),
            ]
        }
    }
}

/// Checks the columns of a version-2 or 3 table (names, widths, lengths, the
/// required columns) and finds the ones the probes read. The contents of
/// `moves` are checked apart, once the data is reachable.
fn check_columns(
    puzzle: Puzzle,
    shape: Shape,
    columns: &[ColumnInfo],
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
    for (name, width, entries) in required(puzzle, shape) {
        found.push(find(name, width, entries)?.ok_or(TableError::MissingColumn(name.into()))?);
    }
    Ok(match puzzle {
        Puzzle::Euler => {
            let per_board = 1u64 << shape.cells();
            let plies = find("plies", 8, per_board)?;
            let best = find("best_move", 8, per_board)?;
            let full = match (plies, best) {
                (Some(p), Some(b)) => Some((p, b)),
                (None, None) => None,
                (Some(_), None) => return Err(TableError::MissingColumn("best_move".into())),
                (None, Some(_)) => return Err(TableError::MissingColumn("plies".into())),
            };
            Layout::Euler {
                winning: found[0],
                full,
                moves: Box::new(moves(shape)),
            }
        }
        Puzzle::Flip => Layout::Flip {
            rounds: found[0],
            colours: [
                (found[1], found[3], found[5]),
                (found[2], found[4], found[6]),
            ],
        },
    })
}

/// Checks what every table's columns must be, whatever the table is for:
/// distinct names, widths of 1, 8, 16, 32 or 64 bits, and byte lengths
/// that hold the entries.
fn check_widths(columns: &[ColumnInfo]) -> Result<(), TableError> {
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

/// A column's entries, wherever they are: what a probe reads. Kept small:
/// the probes hold one per column they read, and are copied by value.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ColumnRef<'a> {
    entries: u64,
    data: RefData<'a>,
}

/// Where a [`ColumnRef`]'s entries are.
#[derive(Clone, Copy)]
enum RefData<'a> {
    /// A file's bytes from the column's start, entries of the given width
    /// in bits, read as they are (version 2, or a version-3 column read
    /// without its checks).
    File(&'a [u8], u8),
    /// A version-3 column, its blocks checked as they are first read.
    Checked(CheckedColumn<'a>),
    Bits(&'a [u64]),
    U8(&'a [u8]),
    U16(&'a [u16]),
    U32(&'a [u32]),
    U64(&'a [u64]),
}

/// A version-3 column as a probe reads it: everything the check of an
/// entry's block needs at hand, so that a block found intact before costs
/// one load and a bit test.
#[derive(Clone, Copy)]
struct CheckedColumn<'a> {
    /// The file's bytes from the column's start to the end of its
    /// block-CRC array.
    bytes: &'a [u8],
    /// Bits per entry.
    width: u8,
    /// `log2` of the entries a block holds: entry `i` is in block `i >>
    /// entry_shift` (blocks and widths are powers of two).
    entry_shift: u8,
    /// One bit a block, set once it matched its CRC.
    bits: &'a [AtomicU64],
    blocks: &'a Blocks,
}

impl fmt::Debug for RefData<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The lengths, not the entries: a column can hold gigabytes.
        match self {
            RefData::File(bytes, width) => f
                .debug_struct("File")
                .field("bytes", &bytes.len())
                .field("width", width)
                .finish(),
            RefData::Checked(c) => f
                .debug_struct("Checked")
                .field("bytes", &c.bytes.len())
                .field("width", &c.width)
                .field("blocks", &c.blocks.count)
                .finish(),
            RefData::Bits(v) => f.debug_tuple("Bits").field(&v.len()).finish(),
            RefData::U8(v) => f.debug_tuple("U8").field(&v.len()).finish(),
            RefData::U16(v) => f.debug_tuple("U16").field(&v.len()).finish(),
            RefData::U32(v) => f.debug_tuple("U32").field(&v.len()).finish(),
            RefData::U64(v) => f.debug_tuple("U64").field(&v.len()).finish(),
        }
    }
}

/// Why a [`ColumnRef`] gave no entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fault {
    /// Past the column's end (or not within the file's bytes).
    Past,
    /// The entry's block does not match its CRC (a version-3 file).
    Block {
        /// The block's index in the column.
        block: u64,
        /// Where it starts in the file.
        start: u64,
        /// Where it ends (excluded).
        end: u64,
        /// Whether the column's block-CRC array is damaged itself.
        array_damaged: bool,
    },
}

impl Fault {
    /// The probe error of this fault at entry `index` of `column`.
    pub(crate) fn probe_error(self, column: &'static str, index: u64) -> ProbeError {
        match self {
            Fault::Past => ProbeError::BadEntry {
                column,
                index,
                value: 0,
            },
            Fault::Block {
                block,
                start,
                end,
                array_damaged,
            } => ProbeError::DamagedBlock {
                column,
                block,
                start,
                end,
                array_damaged,
            },
        }
    }
}

impl CheckedColumn<'_> {
    /// `Ok` when the block holding entry `k` was found intact, now or
    /// before.
    #[inline]
    fn check(&self, k: usize) -> Result<(), Fault> {
        let block = k >> self.entry_shift;
        match self.bits.get(block / 64) {
            Some(word) if word.load(Ordering::Relaxed) >> (block % 64) & 1 != 0 => Ok(()),
            _ => self.blocks.check_block(self.bytes, block),
        }
    }
}

impl Blocks {
    /// Checks block `block` against its CRC, and marks it when it matches.
    /// Reached once a block when the file is intact. `bytes` run from the
    /// column's start to the end of its block-CRC array.
    #[cold]
    #[inline(never)]
    fn check_block(&self, bytes: &[u8], block: usize) -> Result<(), Fault> {
        let start = block << self.shift;
        let end = start.saturating_add(1 << self.shift).min(self.len);
        let data = bytes.get(start..end).ok_or(Fault::Past)?;
        let array = bytes
            .get(self.crcs - self.start..)
            .and_then(|rest| rest.get(..usize::try_from(self.count).ok()?.checked_mul(4)?))
            .ok_or(Fault::Past)?;
        let stored = array
            .get(block * 4..)
            .and_then(|rest| rest.get(..4))
            .ok_or(Fault::Past)?;
        if u32::from_le_bytes([stored[0], stored[1], stored[2], stored[3]]) == crc32fast::hash(data)
        {
            let word = self.checked().get(block / 64).ok_or(Fault::Past)?;
            // Relaxed: the bit only says the file's bytes were checked;
            // nothing this thread wrote is published by it.
            word.fetch_or(1 << (block % 64), Ordering::Relaxed);
            return Ok(());
        }
        Err(Fault::Block {
            block: block as u64,
            start: (self.start + start) as u64,
            end: (self.start + end) as u64,
            array_damaged: crc32fast::hash(array) != self.array_crc,
        })
    }
}

impl ColumnRef<'_> {
    /// Entry `i`: [`Fault::Past`] past the end, [`Fault::Block`] when its
    /// block is damaged.
    #[inline]
    pub(crate) fn get(&self, i: u64) -> Result<u64, Fault> {
        if i >= self.entries {
            return Err(Fault::Past);
        }
        let k = usize::try_from(i).map_err(|_| Fault::Past)?;
        let value = match self.data {
            RefData::File(bytes, width) => read_entry(bytes, width, i),
            RefData::Checked(c) => {
                c.check(k)?;
                read_entry(c.bytes, c.width, i)
            }
            RefData::Bits(words) => words.get(k / 64).map(|w| w >> (k % 64) & 1),
            RefData::U8(v) => v.get(k).map(|&x| u64::from(x)),
            RefData::U16(v) => v.get(k).map(|&x| u64::from(x)),
            RefData::U32(v) => v.get(k).map(|&x| u64::from(x)),
            RefData::U64(v) => v.get(k).copied(),
        };
        value.ok_or(Fault::Past)
    }
}

/// Reads entry `i` of `width` bits from a column's bytes.
#[inline]
fn read_entry(bytes: &[u8], width: u8, i: u64) -> Option<u64> {
    let i = usize::try_from(i).ok()?;
    match width {
        1 => Some(u64::from(*bytes.get(i / 8)? >> (i % 8) & 1)),
        8 => bytes.get(i).map(|&b| u64::from(b)),
        16 => {
            let b = bytes.get(i.checked_mul(2)?..)?.get(..2)?;
            Some(u64::from(u16::from_le_bytes([b[0], b[1]])))
        }
        32 => {
            let b = bytes.get(i.checked_mul(4)?..)?.get(..4)?;
            Some(u64::from(u32::from_le_bytes([b[0], b[1], b[2], b[3]])))
        }
        64 => {
            let b = bytes.get(i.checked_mul(8)?..)?.get(..8)?;
            let mut le = [0u8; 8];
            le.copy_from_slice(b);
            Some(u64::from_le_bytes(le))
        }
        _ => None,
    }
}

impl Table {
    /// Opens a table file, version 3 or 2 (mapped) or 1 (read into memory),
    /// and checks its structure (see the [module docs](self)): the time does
    /// not depend on the file's size. In version 3 each block's CRC is
    /// checked by the first probe that reads it; every CRC and the contents
    /// are checked by [`Table::verify`].
    pub fn open(path: impl AsRef<Path>) -> Result<Table, TableError> {
        let file = File::open(path.as_ref())?;
        let len = file.metadata()?.len();
        // Enough to tell the version without mapping (an empty file cannot
        // be mapped on every system).
        let mut head = [0u8; 12];
        let n = usize::try_from(len).unwrap_or(usize::MAX).min(head.len());
        std::io::Read::read_exact(&mut &file, &mut head[..n])?;
        let version = format::version(&head[..n])?;
        if version != VERSION && version != format::VERSION_2 {
            // Version 1 (small: read it) or an unknown version (refused).
            if version != 1 {
                return Err(TableError::Version(version));
            }
            let max = v1::MAX_FILE_LEN;
            if len > max as u64 {
                return Err(v1::TableFileError::TooLarge {
                    len: usize::try_from(len).unwrap_or(usize::MAX),
                    max,
                }
                .into());
            }
            return Table::from_bytes(std::fs::read(path.as_ref())?);
        }
        // SAFETY: the map is read-only. Its contents can still change if
        // another process writes the file while it is mapped; every read
        // of it is bounds-checked against the length checked here, so such
        // a change gives wrong answers (or SIGBUS for a file cut short
        // after this point, as documented), never reads outside the map.
        let map = unsafe { memmap2::Mmap::map(&file)? };
        Table::from_storage(Storage::Mapped(map))
    }

    /// A table from a whole file's bytes, version 1, 2 or 3, held in memory
    /// with the same checks as [`Table::open`] (and, in version 3, the same
    /// checks of each block at its first probe).
    pub fn from_bytes(bytes: Vec<u8>) -> Result<Table, TableError> {
        match format::version(&bytes)? {
            VERSION | format::VERSION_2 => Table::from_storage(Storage::Image(bytes)),
            1 => Table::from_v1(bytes),
            version => Err(TableError::Version(version)),
        }
    }

    /// A table of columns computed in memory (at most
    /// [`Puzzle::max_cells`] cells; the columns of the [module
    /// docs](self)), with the checks of [`Table::open`]. Unknown columns
    /// are kept. The vectors are taken as they are.
    pub fn from_columns<S: Into<String>>(
        puzzle: Puzzle,
        shape: Shape,
        columns: impl IntoIterator<Item = (S, ColumnData)>,
    ) -> Result<Table, TableError> {
        if shape.cells() > puzzle.max_cells() {
            return Err(TableError::BadShape {
                puzzle,
                rows: shape.rows() as u8,
                cols: shape.cols() as u8,
            });
        }
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
        Table::from_list(puzzle, shape, list)
    }

    /// A Game of Euler table from the generator's columns (see the [module
    /// docs](self)): `winning` packed one bit a position, and `plies` and
    /// `best_move` (indices into the shape's moves) unless WDL-only. The
    /// `moves` column is added.
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
    /// let table = Table::from_euler(shape, EulerColumns { winning, full: None })?;
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
        if shape.cells() > Puzzle::Euler.max_cells() {
            return Err(TableError::BadShape {
                puzzle: Puzzle::Euler,
                rows: shape.rows() as u8,
                cols: shape.cols() as u8,
            });
        }
        let entries = 1u64 << shape.cells();
        let mut list = vec![(
            "winning",
            ColumnData::Bits {
                words: columns.winning,
                entries,
            },
        )];
        if let Some((plies, best_move)) = columns.full {
            list.push(("plies", ColumnData::U8(plies)));
            list.push(("best_move", ColumnData::U8(best_move)));
        }
        list.push(("moves", ColumnData::U64(moves(shape).as_slice().to_vec())));
        Table::from_columns(Puzzle::Euler, shape, list)
    }

    /// A Flip table from the generator's columns (see the [module
    /// docs](self)).
    pub fn from_flip(shape: Shape, columns: FlipColumns) -> Result<Table, TableError> {
        Table::from_columns(
            Puzzle::Flip,
            shape,
            [
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
            ],
        )
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
                    },
                )
            }
        };
        built.expect("the embedded tables have the required columns")
    }

    /// A version-1 file, read into memory and its columns converted to
    /// those of versions 2 and 3 where they carry the same values.
    fn from_v1(bytes: Vec<u8>) -> Result<Table, TableError> {
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
                full: Some((find("plies"), find("best_move"))),
                moves: Box::new(moves(Shape::SQUARE4)),
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

    /// The puzzle.
    pub fn puzzle(&self) -> Puzzle {
        self.id
    }

    /// The probes of a Game of Euler table, or an error for a Flip table.
    pub fn as_euler(&self) -> Result<EulerTable<'_>, ProbeError> {
        EulerTable::new(self)
    }

    /// The probes of a Flip table, or an error for a Game of Euler table.
    pub fn as_flip(&self) -> Result<FlipTable<'_>, ProbeError> {
        FlipTable::new(self)
    }

    /// The usual file name of this table: `euler-5x5.bin`.
    pub fn file_name(&self) -> String {
        self.id.file_name(self.shape)
    }
}

impl<I: Subject> Table<I> {
    /// A table of `id` from columns built in memory: the columns' infos
    /// made, checked as a file's are, and the header's size too.
    fn from_list(id: I, shape: Shape, list: Vec<Column>) -> Result<Table<I>, TableError> {
        let infos: Vec<ColumnInfo> = list.iter().map(|c| c.info.clone()).collect();
        let layout = id.check(shape, &infos)?;
        let crcs = vec![0; infos.len()];
        let (header, _, file_len) =
            format::encode_header(&id.header_name(), shape, VERSION, &infos, &crcs);
        let header_len = (header.len() - format::PRELUDE_LEN - format::CRC_LEN) as u64;
        if header_len > u64::from(MAX_HEADER_LEN) {
            return Err(TableError::HeaderTooLarge {
                len: header_len,
                max: u64::from(MAX_HEADER_LEN),
            });
        }
        let table = Table {
            id,
            shape,
            version: VERSION,
            file_len,
            storage: Storage::Memory,
            columns: list,
            layout,
        };
        table.check_moves()?;
        Ok(table)
    }

    /// A table of `id` from named columns held in memory (the vectors are
    /// taken as they are).
    pub(crate) fn from_owned(
        id: I,
        shape: Shape,
        columns: Vec<(String, ColumnData)>,
    ) -> Result<Table<I>, TableError> {
        let list = columns
            .into_iter()
            .map(|(name, data)| Column::owned(name, data))
            .collect();
        Table::from_list(id, shape, list)
    }

    /// Checks a version-2 or 3 file's structure and finds its columns.
    fn from_storage(storage: Storage) -> Result<Table<I>, TableError> {
        let parsed = format::parse(storage.bytes())?;
        let (id, shape) = I::identify(&parsed.name, parsed.rows, parsed.cols)?;
        let layout = id.check(shape, &parsed.columns)?;
        let columns = parsed
            .columns
            .into_iter()
            .map(|info| {
                // Within the file (checked by `parse`), so within `usize`.
                let start = info.offset.unwrap_or(0) as usize;
                let len = info.byte_len as usize;
                let blocks = info.blocks.map(|b| Blocks {
                    shift: b.block_len.trailing_zeros(),
                    start,
                    len,
                    crcs: b.crcs_offset as usize,
                    count: b.count,
                    array_crc: info.crc.unwrap_or(0),
                    checked: OnceLock::new(),
                });
                Column {
                    info,
                    data: Data::File { start, len },
                    blocks,
                }
            })
            .collect();
        let table = Table {
            id,
            shape,
            version: parsed.version,
            file_len: parsed.file_len,
            storage,
            columns,
            layout,
        };
        table.check_moves()?;
        Ok(table)
    }

    /// Checks that an Euler table's `moves` column is the shape's move list.
    fn check_moves(&self) -> Result<(), TableError> {
        let Layout::Euler { moves, .. } = &self.layout else {
            return Ok(());
        };
        let Some(i) = self.column_index("moves") else {
            return Err(TableError::MissingColumn("moves".into()));
        };
        // Read without the block checks: every entry is compared with the
        // shape's move list, which tells more than a CRC, and opening a file
        // reads no CRC but the header's.
        let column = self.column_ref_with(i, false);
        for (index, &expected) in moves.as_slice().iter().enumerate() {
            let found = column
                .and_then(|c| c.get(index as u64).ok())
                .unwrap_or(!expected);
            if found != expected {
                return Err(TableError::Moves {
                    shape: self.shape,
                    index,
                    found,
                    expected,
                });
            }
        }
        Ok(())
    }

    /// The board shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The file's layout version: 3, 2 for a file of earlier releases, or 1
    /// for an old 4×4 export (a table built in memory says 3, the version
    /// [`Table::write`] writes).
    pub fn version(&self) -> u32 {
        self.version
    }

    /// The file's size in bytes; for a table built in memory, the size of
    /// the file [`Table::write`] makes of it.
    pub fn file_len(&self) -> u64 {
        self.file_len
    }

    /// Whether the table is a mapped file (not held in memory).
    pub fn is_mapped(&self) -> bool {
        matches!(self.storage, Storage::Mapped(_))
    }

    /// Whether an Euler table holds win/loss only (no `plies` and
    /// `best_move`); `false` for Flip.
    pub fn is_wdl_only(&self) -> bool {
        matches!(self.layout, Layout::Euler { full: None, .. })
    }

    /// The columns, in file order. For a version-1 file, the version-3
    /// columns its columns were converted to (Euler) or its own (Flip).
    pub fn columns(&self) -> impl ExactSizeIterator<Item = &ColumnInfo> {
        self.columns.iter().map(|c| &c.info)
    }

    /// The column called `name`.
    pub fn column(&self, name: &str) -> Option<&ColumnInfo> {
        self.columns().find(|c| c.name == name)
    }

    /// The index of the column called `name`.
    fn column_index(&self, name: &str) -> Option<usize> {
        self.columns.iter().position(|c| c.info.name == name)
    }

    /// Entry `i` of the column called `name` (any column, known or not), or
    /// `None` when there is no such column, `i` is past its end, or (version
    /// 3) the block holding it does not match its CRC: a damaged entry is
    /// never returned. The probes ([`Table::as_euler`], [`Table::as_flip`])
    /// say which block is damaged.
    pub fn get(&self, name: &str, i: u64) -> Option<u64> {
        self.entry(self.column_index(name)?, i)
    }

    /// Entry `i` of column `column` (`None` past its end or in a damaged
    /// block).
    #[inline]
    pub(crate) fn entry(&self, column: usize, i: u64) -> Option<u64> {
        self.column_ref(column)?.get(i).ok()
    }

    /// A view of column `column`'s entries, resolved once for the probes: a
    /// version-3 column's blocks are checked as they are first read.
    pub(crate) fn column_ref(&self, column: usize) -> Option<ColumnRef<'_>> {
        self.column_ref_with(column, true)
    }

    /// [`Table::column_ref`], the blocks checked or (`checked` false) not.
    fn column_ref_with(&self, column: usize, checked: bool) -> Option<ColumnRef<'_>> {
        let c = self.columns.get(column)?;
        let data = match &c.data {
            Data::File { start, len } => match (&c.blocks, checked) {
                (Some(blocks), true) => {
                    // The column and, after it, its block-CRC array.
                    let end = blocks
                        .crcs
                        .checked_add(usize::try_from(blocks.count).ok()?.checked_mul(4)?)?;
                    // Entries a block: 8 × block bytes / width, as a shift
                    // (at least 64 bytes a block, at most 64 bits an entry).
                    let entry_shift =
                        (blocks.shift + 3).checked_sub(c.info.width.trailing_zeros())?;
                    RefData::Checked(CheckedColumn {
                        bytes: self.storage.bytes().get(*start..end)?,
                        width: c.info.width,
                        entry_shift: u8::try_from(entry_shift).ok()?,
                        bits: blocks.checked(),
                        blocks,
                    })
                }
                _ => RefData::File(self.storage.bytes().get(*start..start + len)?, c.info.width),
            },
            Data::Owned(ColumnData::Bits { words, .. }) => RefData::Bits(words),
            Data::Owned(ColumnData::U8(v)) => RefData::U8(v),
            Data::Owned(ColumnData::U16(v)) => RefData::U16(v),
            Data::Owned(ColumnData::U32(v)) => RefData::U32(v),
            Data::Owned(ColumnData::U64(v)) => RefData::U64(v),
        };
        Some(ColumnRef {
            entries: c.info.entries,
            data,
        })
    }

    /// The block-CRC array of a version-3 column, as stored in the file.
    fn block_crcs(&self, column: usize) -> Option<&[u8]> {
        let blocks = self.columns.get(column)?.blocks.as_ref()?;
        let len = usize::try_from(blocks.count.checked_mul(format::BLOCK_CRC_LEN)?).ok()?;
        self.storage
            .bytes()
            .get(blocks.crcs..)
            .and_then(|rest| rest.get(..len))
    }

    /// The bytes of column `column` as stored in the file, `None` for a
    /// column held in memory.
    fn file_bytes(&self, column: usize) -> Option<&[u8]> {
        match self.columns.get(column)?.data {
            Data::File { start, len } => self.storage.bytes().get(start..start + len),
            Data::Owned(_) => None,
        }
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
}

/// A Flip table's columns, as the generator computes them, for
/// [`Table::from_flip`]; one entry a board each.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FlipColumns {
    /// Fewest rounds to the closer colour, [`UNREACHABLE`] when neither.
    pub rounds: Vec<u8>,
    /// Fewest rounds to all white, [`UNREACHABLE`] when it cannot be reached.
    pub rounds_white: Vec<u8>,
    /// Fewest rounds to all black, [`UNREACHABLE`] when it cannot be reached.
    pub rounds_black: Vec<u8>,
    /// One optimal press set to white (0 when unreachable), of
    /// [`presses_width`] bits: `U8`, `U16` or `U32`.
    pub presses_white: ColumnData,
    /// One optimal press set to black, as `presses_white`.
    pub presses_black: ColumnData,
    /// How many optimal press sets reach white, 0 when unreachable.
    pub optimal_sets_white: Vec<u8>,
    /// How many optimal press sets reach black, 0 when unreachable.
    pub optimal_sets_black: Vec<u8>,
}
