//! Reading a compressed column of a version-4 file ([`PackedColumn`]): an
//! entry's block is found through the column's index, checked against its
//! CRC and decompressed whole, and kept in a small cache of the thread's
//! last blocks, so that probes near one another decompress a block once.

use std::cell::RefCell;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

use zstd::zstd_safe::{DCtx, DDict};

use super::entry::{Fault, read_entry};
use super::format::{BLOCK_CRC_LEN, INDEX_ENTRY_LEN};

/// Blocks each thread keeps decompressed (1 MiB of 4 KiB blocks): a
/// position's every move valued reads about a hundred blocks of a 5×6
/// table, some of them twice.
const CACHED_BLOCKS: usize = 256;

/// Numbers the compressed columns of every table opened, so that a cached
/// block is never taken for another column's (a column's address could be
/// reused by a table opened after another was dropped).
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// A fresh number for a compressed column.
pub(super) fn column_id() -> u64 {
    NEXT_ID.fetch_add(1, Ordering::Relaxed)
}

/// One block decompressed, and whose it is (`id` 0: none yet).
#[derive(Default)]
struct Cached {
    id: u64,
    block: u64,
    bytes: Vec<u8>,
}

/// The slot of block `block` of column `id` in the cache: direct-mapped,
/// so that a probe looks in one place.
fn slot(id: u64, block: u64) -> usize {
    let h = (id.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ block).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    (h >> 56) as usize % CACHED_BLOCKS
}

thread_local! {
    /// The thread's last blocks, each in its [`slot`].
    static CACHE: RefCell<Vec<Cached>> = const { RefCell::new(Vec::new()) };
    /// The thread's decompression context: made once, since making one
    /// allocates and clears its window, which costs more than a block.
    static CONTEXT: RefCell<Option<DCtx<'static>>> = const { RefCell::new(None) };
}

/// A compressed column's dictionary, digested once for every thread: `None`
/// when the column has none.
pub(super) type Dictionary = OnceLock<Result<Option<DDict<'static>>, Fault>>;

/// A compressed column as a probe reads it.
#[derive(Clone, Copy)]
pub(crate) struct PackedColumn<'a> {
    /// The file's bytes from the column's start to the end of its block
    /// CRCs.
    pub(super) bytes: &'a [u8],
    /// Where the index starts in `bytes`.
    pub(super) index_at: usize,
    /// The column's compressed length (where its index says it ends).
    pub(super) stored_len: u64,
    /// Where the column starts in the file, for the errors.
    pub(super) start: u64,
    /// The bytes of entries (uncompressed).
    pub(super) byte_len: u64,
    /// `log2` of the bytes of entries a block holds.
    pub(super) shift: u32,
    /// Number of blocks.
    pub(super) count: u64,
    /// Bits per entry.
    pub(super) width: u8,
    /// The column's number in the cache ([`column_id`]).
    pub(super) id: u64,
    /// Its dictionary, digested on the first block read.
    pub(super) dictionary: &'a Dictionary,
}

impl PackedColumn<'_> {
    /// Entry `i` (below the column's entries, checked by the caller).
    #[inline]
    pub(super) fn get(&self, i: u64) -> Result<u64, Fault> {
        // The entry's first byte: entries of 8 bits or more lie at
        // multiples of their width, so no entry straddles two blocks.
        let byte = if self.width == 1 {
            i / 8
        } else {
            i.checked_mul(u64::from(self.width / 8))
                .ok_or(Fault::Past)?
        };
        let first = ((byte >> self.shift) << self.shift) * 8 / u64::from(self.width);
        self.read(byte, |block| read_entry(block, self.width, i - first))
    }

    /// Bits `64 w` to `64 w + 63` of a column of 1-bit entries, entry
    /// `64 w` the lowest; 0 past the column's bytes. Eight bytes at a
    /// multiple of eight never straddle two blocks (a block is at least
    /// 64 bytes).
    #[inline]
    pub(super) fn word(&self, w: u64) -> Result<u64, Fault> {
        let byte = w.checked_mul(8).ok_or(Fault::Past)?;
        let at = usize::try_from(byte & ((1 << self.shift) - 1)).map_err(|_| Fault::Past)?;
        self.read(byte, |block| {
            let bytes = block.get(at..)?;
            let mut le = [0u8; 8];
            let n = bytes.len().min(8);
            le[..n].copy_from_slice(&bytes[..n]);
            Some(u64::from_le_bytes(le))
        })
    }

    /// `count` of the decompressed block holding the column's byte `byte`
    /// and of the column's byte its first byte is.
    #[inline]
    pub(super) fn ones(
        &self,
        byte: u64,
        count: &dyn Fn(&[u8], usize) -> Option<u64>,
    ) -> Result<u64, Fault> {
        let first = usize::try_from((byte >> self.shift) << self.shift).map_err(|_| Fault::Past)?;
        self.read(byte, |block| count(block, first))
    }

    /// `read` of the decompressed block holding the column's byte `byte`,
    /// from the thread's cache of blocks.
    #[inline]
    fn read(&self, byte: u64, read: impl FnOnce(&[u8]) -> Option<u64>) -> Result<u64, Fault> {
        let block = byte >> self.shift;
        CACHE.with(|cache| {
            let mut cache = cache.borrow_mut();
            if cache.is_empty() {
                cache.resize_with(CACHED_BLOCKS, Cached::default);
            }
            let cached = &mut cache[slot(self.id, block)];
            if cached.id != self.id || cached.block != block {
                // The slot's buffer is reused: a fresh one would cost the
                // system a page fault every 4 KiB.
                let spare = std::mem::take(&mut cached.bytes);
                cached.id = 0;
                cached.bytes = self.block_into(block, spare)?;
                (cached.id, cached.block) = (self.id, block);
            }
            read(&cached.bytes).ok_or(Fault::Past)
        })
    }

    /// Block `block` decompressed, after its compressed bytes matched their
    /// CRC.
    #[cold]
    #[inline(never)]
    pub(super) fn block(&self, block: u64) -> Result<Vec<u8>, Fault> {
        self.block_into(block, Vec::new())
    }

    /// [`PackedColumn::block`], decompressed into `out` (its bytes
    /// replaced).
    fn block_into(&self, block: u64, mut out: Vec<u8>) -> Result<Vec<u8>, Fault> {
        let (range, stored) = self.stored(block).ok_or(Fault::Past)?;
        let damaged = |array_damaged| Fault::Block {
            block,
            start: self.start + range.start as u64,
            end: self.start + range.end as u64,
            array_damaged,
        };
        let data = self.bytes.get(range.clone()).ok_or(Fault::Past)?;
        if crc32fast::hash(data) != stored {
            return Err(damaged(false));
        }
        let len = self.block_len(block);
        out.resize(len, 0);
        let dictionary = self.dictionary.get_or_init(|| self.digest()).as_ref();
        let dictionary = dictionary.map_err(|&fault| fault)?;
        let done = CONTEXT.with(|context| {
            let mut context = context.borrow_mut();
            let context = context.get_or_insert_with(DCtx::create);
            match dictionary {
                Some(d) => context.decompress_using_ddict(&mut out[..], data, d),
                None => context.decompress(&mut out[..], data),
            }
        });
        match done {
            Ok(n) if n == len => Ok(out),
            // A block whose CRC matched yet does not decompress to its
            // length: the index or the writer is at fault, never answered.
            _ => Err(damaged(true)),
        }
    }

    /// The column's dictionary, checked against its CRC and digested: the
    /// bytes before its first block (none: no dictionary).
    #[cold]
    fn digest(&self) -> Result<Option<DDict<'static>>, Fault> {
        let (from, crc) = self
            .index(0)
            .zip(self.index_crc(self.count))
            .ok_or(Fault::Past)?;
        let from = usize::try_from(from).map_err(|_| Fault::Past)?;
        let bytes = self.bytes.get(..from).ok_or(Fault::Past)?;
        let damaged = |array_damaged| Fault::Block {
            block: self.count,
            start: self.start,
            end: self.start + from as u64,
            array_damaged,
        };
        if crc32fast::hash(bytes) != crc {
            return Err(damaged(false));
        }
        if bytes.is_empty() {
            return Ok(None);
        }
        DDict::try_create(bytes).map(Some).ok_or(damaged(true))
    }

    /// Entry `k` of the index: where block `k` starts, from the column's
    /// start (`k` = `count`: where the column ends).
    fn index(&self, k: u64) -> Option<u64> {
        let at = self.index_at + usize::try_from(k.checked_mul(INDEX_ENTRY_LEN)?).ok()?;
        Some(u64::from_le_bytes(
            self.bytes.get(at..at + 8)?.try_into().ok()?,
        ))
    }

    /// The stored CRC of block `k` (`k` = `count`: of the dictionary).
    fn index_crc(&self, k: u64) -> Option<u32> {
        let crcs = self.index_at + usize::try_from((self.count + 1) * INDEX_ENTRY_LEN).ok()?;
        let at = crcs + usize::try_from(k.checked_mul(BLOCK_CRC_LEN)?).ok()?;
        Some(u32::from_le_bytes(
            self.bytes.get(at..at + 4)?.try_into().ok()?,
        ))
    }

    /// The bytes of entries block `block` holds (the last one possibly
    /// shorter).
    pub(super) fn block_len(&self, block: u64) -> usize {
        let start = block << self.shift;
        (self.byte_len.saturating_sub(start)).min(1 << self.shift) as usize
    }

    /// Where block `block`'s compressed bytes are in `bytes`, and their
    /// stored CRC; `None` when the index points outside the column.
    pub(super) fn stored(&self, block: u64) -> Option<(std::ops::Range<usize>, u32)> {
        if block >= self.count {
            return None;
        }
        let (from, to) = (self.index(block)?, self.index(block + 1)?);
        if from > to || to > self.stored_len {
            return None;
        }
        let crc = self.index_crc(block)?;
        Some((usize::try_from(from).ok()?..usize::try_from(to).ok()?, crc))
    }
}
