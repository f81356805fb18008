//! [`Table`]: one table's columns, mapped from a file or held in memory,
//! opened and checked, and its entries read.

use std::fmt;
use std::fs::File;
use std::path::Path;
use std::sync::{Arc, OnceLock};

use boardbase_tables::classes::Classes;
use boardbase_tables::shape::Shape;

use super::columns::{Blocks, CheckedColumn, Column, ColumnRef, Data, RefData, Storage};
use super::index::{CLASSES, IndexHeader};
use super::packed::{self, PackedColumn};
use super::{
    ColumnData, ColumnInfo, EulerTable, FlipTable, GameTable, Kernel, Layout, MAX_HEADER_LEN,
    Puzzle, Subject, TableError, VERSION, format, v1,
};

/// One puzzle's tables for one board shape: a mapped file or columns in
/// memory, with typed probes ([`Table::as_euler`], [`Table::as_flip`]).
/// `I` says what the table is for: a [`Puzzle`] (Flip, Euler), or a game
/// of the model ([`GameTable`], `Table<GameId>`); the columns, their CRCs,
/// writing and mapping are the same for every kind.
///
/// A `Table` is `Send` and `Sync`: probe it from many threads at once.
pub struct Table<I = Puzzle> {
    pub(super) id: I,
    pub(super) shape: Shape,
    pub(super) version: u32,
    pub(super) file_len: u64,
    pub(super) storage: Storage,
    pub(super) columns: Vec<Column>,
    pub(super) layout: Layout,
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

impl Table {
    /// Opens a table file, version 3 or 2 (mapped) or 1 (read into memory),
    /// and checks its structure (see the [module docs](super)): the time does
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
        if !format::is_mapped_version(version) {
            // Version 1 (small: read it) or an unknown version (refused).
            if version != 1 {
                return Err(TableError::Version(version));
            }
            let max = v1::MAX_FILE_LEN;
            if len > max as u64 {
                return Err(TableError::V1TooLarge {
                    len: usize::try_from(len).unwrap_or(usize::MAX),
                    max,
                });
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
            version if format::is_mapped_version(version) => {
                Table::from_storage(Storage::Image(bytes))
            }
            1 => Table::from_v1(bytes),
            version => Err(TableError::Version(version)),
        }
    }

    /// The puzzle.
    pub fn puzzle(&self) -> Puzzle {
        self.id
    }

    /// The probes of a Game of Euler table, or an error for a Flip table.
    pub fn as_euler(&self) -> Result<EulerTable<'_>, TableError> {
        EulerTable::new(self)
    }

    /// The probes of a Flip table, or an error for a Game of Euler table.
    pub fn as_flip(&self) -> Result<FlipTable<'_>, TableError> {
        FlipTable::new(self)
    }

    /// The usual file name of this table: `euler-5x5.bin`.
    pub fn file_name(&self) -> String {
        self.id.file_name(self.shape)
    }
}

impl<I: Subject> Table<I> {
    /// A table of `id` from columns built in memory (one entry a class of
    /// `classes`, when given: a version-5 table): the columns' infos made,
    /// checked as a file's are, and the header's size too.
    pub(super) fn from_list(
        id: I,
        shape: Shape,
        list: Vec<Column>,
        classes: Option<Arc<Classes>>,
    ) -> Result<Table<I>, TableError> {
        let infos: Vec<ColumnInfo> = list.iter().map(|c| c.info.clone()).collect();
        let layout = id.check(shape, &infos, classes.as_ref())?;
        let crcs = vec![0; infos.len()];
        let index = classes.as_deref().map(IndexHeader::of);
        let version = layout.version();
        let (header, _, file_len) = format::encode_header(
            &id.header_name(),
            shape,
            version,
            &infos,
            &crcs,
            index.as_ref(),
        );
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
            version,
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
        classes: Option<Arc<Classes>>,
    ) -> Result<Table<I>, TableError> {
        let list = columns
            .into_iter()
            .map(|(name, data)| Column::owned(name, data))
            .collect();
        Table::from_list(id, shape, list, classes)
    }

    /// Checks a version-2 to 5 file's structure (and version 5's index)
    /// and finds its columns.
    pub(super) fn from_storage(storage: Storage) -> Result<Table<I>, TableError> {
        let parsed = format::parse(storage.bytes())?;
        let (id, shape) = I::identify(&parsed.name, parsed.rows, parsed.cols)?;
        // The columns are checked against an index of as many classes as
        // the `classes` column has; its patterns are read once the columns
        // can be.
        let index = parsed.index.clone();
        let classes = match &index {
            Some(index) => {
                let count = parsed
                    .columns
                    .iter()
                    .find(|c| c.name == CLASSES)
                    .map_or(0, |c| c.entries);
                Some(index.provisional(shape, count)?)
            }
            None => None,
        };
        let layout = id.check(shape, &parsed.columns, classes.as_ref())?;
        // A file's version says how its entries are found: one a position
        // (3, 4), one a class by the index in the header (5) or by the
        // `canonical` column (6). Columns that say otherwise are refused.
        let found = match parsed.version {
            format::VERSION_4 | format::VERSION_2 => VERSION,
            version => version,
        };
        if layout.version() != found {
            return Err(TableError::Index(format!(
                "a table of version {} cannot have the columns of a table of version {}",
                parsed.version,
                layout.version()
            )));
        }
        let columns = parsed
            .columns
            .into_iter()
            .map(|info| {
                // Within the file (checked by `parse`), so within `usize`.
                let start = info.offset.unwrap_or(0) as usize;
                // A compressed column's stored bytes, else its entries'.
                let len = info.blocks.and_then(|b| b.packed).unwrap_or(info.byte_len) as usize;
                let blocks = info.blocks.map(|b| Blocks {
                    shift: b.block_len.trailing_zeros(),
                    start,
                    len,
                    crcs: b.crcs_offset as usize,
                    count: b.count,
                    array_crc: info.crc.unwrap_or(0),
                    checked: OnceLock::new(),
                    packed: b.packed.map(|stored| (stored, packed::column_id())),
                    dictionary: OnceLock::new(),
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
        let mut table = table;
        if let Some(index) = &index {
            table.read_classes(index)?;
        }
        Ok(table)
    }

    /// Reads a version-5 table's `classes` column (its blocks checked) and
    /// makes the index of its patterns the table's.
    fn read_classes(&mut self, index: &IndexHeader) -> Result<(), TableError> {
        let unreadable = || TableError::Index("its classes column cannot be read (damaged)".into());
        let i = self
            .column_index(CLASSES)
            .ok_or(TableError::MissingColumn(CLASSES.into()))?;
        let column = self.column_ref(i).ok_or_else(unreadable)?;
        let canonical = column.u32_entries().map_err(|_| unreadable())?;
        let listed = index.listed(self.shape, canonical)?;
        match &mut self.layout {
            Layout::Euler { classes, .. } => *classes = Some(listed),
            Layout::Flip {
                classes, kernel, ..
            } => {
                *classes = Some(listed);
                // Found with the classes the header listed, if it was.
                if kernel.is_none() {
                    *kernel = Some(Box::new(Kernel::of(self.shape)));
                }
            }
            _ => {}
        }
        Ok(())
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

    /// The file's layout version: 3, 4 compressed, 5 with one entry a
    /// class of symmetric positions, 2 for a file of earlier releases, or 1
    /// for an old 4×4 export (a table built in memory says the version
    /// [`Table::write`] writes: 3, or 5 with one entry a class).
    pub fn version(&self) -> u32 {
        self.version
    }

    /// The index of a version-5 table's entries (one a class of positions
    /// under the board's symmetries): entry [`Classes::index`] of a
    /// position answers it. `None` for a table of one entry a board.
    pub fn classes(&self) -> Option<&Classes> {
        self.index().map(|c| &**c)
    }

    /// [`Table::classes`], shared.
    pub(super) fn index(&self) -> Option<&Arc<Classes>> {
        match &self.layout {
            Layout::Euler { classes, .. } | Layout::Flip { classes, .. } => classes.as_ref(),
            _ => None,
        }
    }

    /// The header's `index` field of a version-5 table.
    pub(super) fn index_header(&self) -> Option<IndexHeader> {
        self.classes().map(IndexHeader::of)
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
    pub(super) fn column_ref_with(&self, column: usize, checked: bool) -> Option<ColumnRef<'_>> {
        let c = self.columns.get(column)?;
        let data = match &c.data {
            Data::File { start, .. } if c.blocks.as_ref().is_some_and(|b| b.packed.is_some()) => {
                let blocks = c.blocks.as_ref()?;
                let (stored_len, id) = blocks.packed?;
                let index_len = usize::try_from(format::packed_index_len(blocks.count)).ok()?;
                RefData::Packed(PackedColumn {
                    bytes: self
                        .storage
                        .bytes()
                        .get(*start..blocks.crcs.checked_add(index_len)?)?,
                    index_at: blocks.crcs - start,
                    stored_len,
                    start: *start as u64,
                    byte_len: c.info.byte_len,
                    shift: blocks.shift,
                    count: blocks.count,
                    width: c.info.width,
                    id,
                    dictionary: &blocks.dictionary,
                })
            }
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
    pub(super) fn block_crcs(&self, column: usize) -> Option<&[u8]> {
        let blocks = self.columns.get(column)?.blocks.as_ref()?;
        let len = usize::try_from(blocks.count.checked_mul(format::BLOCK_CRC_LEN)?).ok()?;
        self.storage
            .bytes()
            .get(blocks.crcs..)
            .and_then(|rest| rest.get(..len))
    }

    /// The bytes of column `column` as stored in the file, `None` for a
    /// column held in memory.
    pub(super) fn file_bytes(&self, column: usize) -> Option<&[u8]> {
        match self.columns.get(column)?.data {
            Data::File { start, len } => self.storage.bytes().get(start..start + len),
            Data::Owned(_) => None,
        }
    }
}
