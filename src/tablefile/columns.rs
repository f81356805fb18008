//! A table's columns: what the header says of each ([`ColumnInfo`],
//! [`ColumnBlocks`]), their entries held in memory ([`ColumnData`]) or in
//! the file's bytes ([`Storage`]), and how a probe reads an entry
//! ([`ColumnRef`]), a version-3 column's blocks checked against their CRCs
//! as they are first read.

use std::fmt;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

use super::entry::{Fault, read_entry};
use super::format;
use super::packed::PackedColumn;

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
    /// [`Table::write`](super::Table::write) writes them).
    pub block_len: u32,
    /// Number of blocks, `ceil(byte_len / block_len)`.
    pub count: u64,
    /// Where the block-CRC array starts in the file: `count` little-endian
    /// `u32`, a multiple of 64. In a compressed column (version 4), where
    /// its index is: `count + 1` little-endian `u64` offsets of the blocks
    /// from the column's start (the last where it ends), then the CRC-32 of
    /// each compressed block.
    pub crcs_offset: u64,
    /// In a compressed column, the bytes it takes in the file (`None`: its
    /// entries are stored as they are, `byte_len` bytes).
    pub packed: Option<u64>,
}

/// A column's entries held in memory, for [`Table::from_columns`](super::Table::from_columns): the
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
pub(super) enum Storage {
    /// A mapped file.
    Mapped(memmap2::Mmap),
    /// A file's bytes read into memory (version-1 files, [`Table::from_bytes`]).
    Image(Vec<u8>),
    /// Columns built in memory: no file bytes.
    Memory,
}

impl Storage {
    pub(super) fn bytes(&self) -> &[u8] {
        match self {
            Storage::Mapped(map) => map,
            Storage::Image(bytes) => bytes,
            Storage::Memory => &[],
        }
    }
}

/// One column's entries: in the file's bytes, or held in memory.
pub(super) enum Data {
    /// `len` bytes at `start` of the storage.
    File { start: usize, len: usize },
    /// Entries in memory.
    Owned(ColumnData),
}

/// A column: what it is, and where its entries are.
pub(super) struct Column {
    pub(super) info: ColumnInfo,
    pub(super) data: Data,
    /// A version-3 column's blocks (`None` for other versions and in
    /// memory).
    pub(super) blocks: Option<Blocks>,
}

impl Column {
    /// A column of entries held in memory.
    pub(super) fn owned(name: impl Into<String>, data: ColumnData) -> Column {
        Column {
            info: ColumnInfo::in_memory(name, data.width(), data.entries()),
            data: Data::Owned(data),
            blocks: None,
        }
    }
}

/// A version-3 column's blocks as a probe checks them: where their CRCs
/// are, and which blocks were found intact.
pub(super) struct Blocks {
    /// `log2` of the block length.
    pub(super) shift: u32,
    /// Where the column starts in the storage.
    pub(super) start: usize,
    /// The column's length in bytes.
    pub(super) len: usize,
    /// Where the block-CRC array starts in the storage (after the column).
    pub(super) crcs: usize,
    /// Number of blocks.
    pub(super) count: u64,
    /// The array's CRC-32 (the header's `crc`): computed only when a block
    /// does not match, to say whether the block or the array is damaged.
    pub(super) array_crc: u32,
    /// One bit a block, set once its CRC matched: each block is checked the
    /// first time a probe reads it, and never again. Made on the column's
    /// first probe, so that opening a file allocates nothing per block.
    pub(super) checked: OnceLock<Box<[AtomicU64]>>,
    /// A compressed column's stored length and its number in the cache of
    /// decompressed blocks (`None`: stored raw).
    pub(super) packed: Option<(u64, u64)>,
    /// A compressed column's dictionary, digested on first use.
    pub(super) dictionary: super::packed::Dictionary,
}

impl Blocks {
    /// The bitset of blocks found intact, made (all clear) on first use.
    pub(super) fn checked(&self) -> &[AtomicU64] {
        self.checked.get_or_init(|| {
            (0..self.count.div_ceil(64))
                .map(|_| AtomicU64::new(0))
                .collect()
        })
    }
}

/// A column's entries, wherever they are: what a probe reads. Kept small:
/// the probes hold one per column they read, and are copied by value.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ColumnRef<'a> {
    pub(super) entries: u64,
    pub(super) data: RefData<'a>,
}

/// Where a [`ColumnRef`]'s entries are.
#[derive(Clone, Copy)]
pub(super) enum RefData<'a> {
    /// A file's bytes from the column's start, entries of the given width
    /// in bits, read as they are (version 2, or a version-3 column read
    /// without its checks).
    File(&'a [u8], u8),
    /// A version-3 column, its blocks checked as they are first read.
    Checked(CheckedColumn<'a>),
    /// A compressed column (version 4), its blocks checked and
    /// decompressed as they are read.
    Packed(PackedColumn<'a>),
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
pub(super) struct CheckedColumn<'a> {
    /// The file's bytes from the column's start to the end of its
    /// block-CRC array.
    pub(super) bytes: &'a [u8],
    /// Bits per entry.
    pub(super) width: u8,
    /// `log2` of the entries a block holds: entry `i` is in block `i >>
    /// entry_shift` (blocks and widths are powers of two).
    pub(super) entry_shift: u8,
    /// One bit a block, set once it matched its CRC.
    pub(super) bits: &'a [AtomicU64],
    pub(super) blocks: &'a Blocks,
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
            RefData::Packed(c) => f
                .debug_struct("Packed")
                .field("bytes", &c.stored_len)
                .field("width", &c.width)
                .field("blocks", &c.count)
                .finish(),
            RefData::Bits(v) => f.debug_tuple("Bits").field(&v.len()).finish(),
            RefData::U8(v) => f.debug_tuple("U8").field(&v.len()).finish(),
            RefData::U16(v) => f.debug_tuple("U16").field(&v.len()).finish(),
            RefData::U32(v) => f.debug_tuple("U32").field(&v.len()).finish(),
            RefData::U64(v) => f.debug_tuple("U64").field(&v.len()).finish(),
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
    /// Every entry of a column of 32-bit entries, read in bulk (a checked
    /// column's blocks each checked once): what opening a table reads of
    /// its index. [`Fault::Past`] for entries wider than 32 bits.
    pub(crate) fn u32_entries(&self) -> Result<Vec<u32>, Fault> {
        let len = usize::try_from(self.entries).map_err(|_| Fault::Past)?;
        if let RefData::Checked(c) = self.data
            && c.width == 32
        {
            for k in (0..len).step_by(1 << c.entry_shift) {
                c.check(k)?;
            }
            let bytes = c.bytes.get(..len.checked_mul(4).ok_or(Fault::Past)?);
            return Ok(bytes
                .ok_or(Fault::Past)?
                .chunks_exact(4)
                .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect());
        }
        (0..self.entries)
            .map(|i| u32::try_from(self.get(i)?).map_err(|_| Fault::Past))
            .collect()
    }

    /// Entries `64 w` to `64 w + 63` of a column of 1-bit entries as one
    /// word, entry `64 w` its lowest bit, the bits past the last entry 0:
    /// what counting the set entries of a range reads. [`Fault::Past`]
    /// past the end and for a column of wider entries, [`Fault::Block`]
    /// when the word's block is damaged.
    #[inline]
    pub(crate) fn word(&self, w: u64) -> Result<u64, Fault> {
        let first = w.checked_mul(64).ok_or(Fault::Past)?;
        if first >= self.entries {
            return Err(Fault::Past);
        }
        let len = usize::try_from(self.entries.div_ceil(8)).map_err(|_| Fault::Past)?;
        let at = usize::try_from(w * 8).map_err(|_| Fault::Past)?;
        let from = |bytes: &[u8]| {
            let bytes = bytes.get(at..len.min(bytes.len()))?;
            let mut le = [0u8; 8];
            let n = bytes.len().min(8);
            le[..n].copy_from_slice(&bytes[..n]);
            Some(u64::from_le_bytes(le))
        };
        let word = match self.data {
            RefData::File(bytes, 1) => from(bytes),
            RefData::Checked(c) if c.width == 1 => {
                c.check(at * 8)?;
                from(c.bytes)
            }
            RefData::Packed(c) if c.width == 1 => Some(c.word(w)?),
            RefData::Bits(words) => words.get(at / 8).copied(),
            _ => None,
        };
        let left = self.entries - first;
        let mask = if left >= 64 {
            u64::MAX
        } else {
            (1 << left) - 1
        };
        word.map(|word| word & mask).ok_or(Fault::Past)
    }

    /// The 1 bits of words `from..to` of a column of 1-bit entries (as
    /// [`word`](ColumnRef::word) reads them), which must lie in one
    /// aligned run of 64 bytes, so in one block: a span of the index a
    /// probe counts in one read. [`Fault::Past`] past the end and for a
    /// column of wider entries.
    #[inline]
    pub(crate) fn ones(&self, from: u64, to: u64) -> Result<u64, Fault> {
        if from >= to {
            return Ok(0);
        }
        debug_assert!(from / 8 == (to - 1) / 8, "one run of 64 bytes");
        if (to - 1)
            .checked_mul(64)
            .is_none_or(|last| last >= self.entries)
        {
            return Err(Fault::Past);
        }
        let len = usize::try_from(self.entries.div_ceil(8)).map_err(|_| Fault::Past)?;
        let (at, end) = (from as usize * 8, to as usize * 8);
        // Bits past the last entry are 0 in a file (the format says so),
        // and the last word is masked where the column ends mid-word.
        // `bytes` hold the column's bytes from its byte `base` on.
        let count = |bytes: &[u8], base: usize| -> Option<u64> {
            let bytes = bytes.get(at.checked_sub(base)?..(end.min(len) - base).min(bytes.len()))?;
            let mut ones = 0;
            for (k, chunk) in bytes.chunks(8).enumerate() {
                let mut le = [0u8; 8];
                le[..chunk.len()].copy_from_slice(chunk);
                let first = (from + k as u64) * 64;
                let left = self.entries - first;
                let mask = if left >= 64 {
                    u64::MAX
                } else {
                    (1 << left) - 1
                };
                ones += u64::from((u64::from_le_bytes(le) & mask).count_ones());
            }
            Some(ones)
        };
        let ones = match self.data {
            RefData::File(bytes, 1) => count(bytes, 0),
            RefData::Checked(c) if c.width == 1 => {
                c.check(at * 8)?;
                count(c.bytes, 0)
            }
            RefData::Packed(c) if c.width == 1 => Some(c.ones(from * 8, &count)?),
            RefData::Bits(words) => words
                .get(from as usize..to as usize)
                .map(|w| w.iter().map(|w| u64::from(w.count_ones())).sum()),
            _ => None,
        };
        ones.ok_or(Fault::Past)
    }

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
            RefData::Packed(c) => return c.get(i),
            RefData::Bits(words) => words.get(k / 64).map(|w| w >> (k % 64) & 1),
            RefData::U8(v) => v.get(k).map(|&x| u64::from(x)),
            RefData::U16(v) => v.get(k).map(|&x| u64::from(x)),
            RefData::U32(v) => v.get(k).map(|&x| u64::from(x)),
            RefData::U64(v) => v.get(k).copied(),
        };
        value.ok_or(Fault::Past)
    }
}
