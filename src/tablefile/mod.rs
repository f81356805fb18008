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
//! **Version 4** ([`Table::compress`]) adds a `codec` (`u8`) to each
//! column's header entry: 0 for a column stored as in version 3, 1 for a
//! column whose blocks of `block_len` bytes of entries are each a Zstandard
//! frame, after the column's dictionary, with an index at
//! `block_crcs_offset` of where each block starts and each block's CRC-32
//! (docs/table-format.md has the whole layout).
//!
//! **Version 5** (one entry a class of positions under the board's
//! symmetries, Euler and Flip tables) is version 4's layout with one
//! more header field after `columns`, `index`: the symmetries (`u64` count,
//! then per symmetry a `u64` length and the cell each cell maps to, one
//! `u8` each, the identity first, in the order of
//! [`Classes::symmetries`](crate::tables::classes::Classes::symmetries))
//! and the key cells (`u64` length, then one `u8` each, in key-bit order).
//! `winning` and `plies` (Flip: every column) then have [`Classes::entries`](crate::tables::classes::Classes::entries)
//! entries in the order of [`Classes::index`](crate::tables::classes::Classes::index),
//! and the `classes` column (32 bits) each class's canonical key pattern,
//! in increasing order ([`Table::classes`]; docs/table-format.md says how
//! to find a position's entry from another language).
//!
//! **Version 6** (a game of the model's table with one entry a class,
//! [`GameTable`]) is version 4's layout with no more header fields, and
//! three columns: `canonical` (1 bit a position index: whether it has an
//! entry), `canonical_rank` (64 bits a span of 512 indices: the entries
//! before it) and `outcome`, the entries of the indices that have one, in
//! order ([`game`] and docs/table-format.md have the details).
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
//! | `flip` | `presses_white`, `presses_black` | 8, 16 or 32: the least ≥ cells | 2^cells | the first optimal press set to that colour (of two, the one holding the lowest cell in which they differ), 0 when unreachable; by class, the set of the board the entry holds, which a probe maps to the board asked about |
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
//! refused, never answered: [`TableError::DamagedBlock`] names the column,
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

mod atomic;
mod columns;
mod compress;
pub(crate) mod direct;
mod entry;
mod error;
mod format;
pub mod game;
mod index;
mod layout;
mod packed;
pub(crate) mod parts;
mod probe;
mod puzzle;
mod puzzle_columns;
mod ranked;
mod table;
pub mod v1;
mod verify;
mod write;

pub use atomic::{AtomicFile, Destination, destination, remove_temporary_files, write_atomically};
pub(crate) use columns::ColumnRef;
pub use columns::{ColumnBlocks, ColumnData, ColumnInfo};
use columns::{Data, RefData, Storage};
pub use compress::{COMPRESS_MEMORY, PACKED_BLOCK_LEN, ZSTD_LEVEL};
use entry::read_entry;
pub use error::{ContentsError, TableError};
pub use game::{GameId, GameTable};
use layout::check_widths;
pub(crate) use layout::layout_infos;
pub use layout::{
    Kernel, Layout, Subject, expected_class_file_len, expected_file_len, presses_width,
};
pub use probe::{EulerEntry, EulerTable, FlipSolution, FlipTable, MoveValue, TableRoute};
pub use puzzle::{Puzzle, TooManyCells};
pub use puzzle_columns::{EulerColumns, FlipColumns};
pub use table::Table;
pub use verify::{Checked, DEFAULT_SAMPLE, Verified, VerifyOptions};
pub(crate) use write::bits_bytes;
pub use write::{WRITE_MEMORY, write_memory};

/// The first 8 bytes of every table file, of every version.
pub const MAGIC: [u8; 8] = *b"BRDBASE\0";

/// The layout version [`Table::write`] writes: 3, with a CRC-32 per block
/// of each column (5 for a table of one entry a class of symmetric
/// positions). [`Table::open`] also reads version 4 (compressed, by
/// [`Table::compress`]) and versions 2 and 1.
pub const VERSION: u32 = 3;

/// The largest encoded header accepted (64 KiB).
pub const MAX_HEADER_LEN: u32 = 1 << 16;

/// The value of `best_move` (Euler) for the full board: the solvers' own
/// value, written to the files as it is.
pub use crate::tables::euler::depth::NO_MOVE;

/// The value of the `rounds` columns (Flip) for a colour that cannot be
/// reached: the solvers' own value, written to the files as it is.
pub use crate::tables::flip::UNREACHABLE;

pub use crate::progress::{Phase, Progress};
