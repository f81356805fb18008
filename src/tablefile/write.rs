//! Writing a table as a version-3 file (or, for tests, version 2): to a
//! file through the writer of table files ([`super::parts`]) on one rank,
//! or streamed in the file's order through a fixed buffer to a device, a
//! pipe or any [`Write`]; a file is written under a temporary name renamed
//! when complete ([`super::atomic`]).

use std::convert::Infallible;
use std::io::{self, BufWriter, Write};
use std::ops::Range;
use std::path::Path;

use super::atomic::{AtomicFile, Destination, destination};
use super::parts::{FileHeader, write_columns};
use super::{
    ColumnData, ColumnInfo, Data, Phase, Progress, Subject, Table, TableError, VERSION, format,
};
use crate::progress::Cancel;
use crate::ranks::{OtherRank, Solo};

/// Bytes handed over at a time when streaming a column.
const CHUNK: usize = 1 << 20;

/// Memory [`Table::write`] allocates besides the table itself: the file's
/// write buffer and the buffer a column is converted through (1 MiB each),
/// and the header (at most 64 KiB). A file's block CRCs are written in
/// place as they are computed; written to a device or a pipe, the block
/// CRCs are kept from the first pass to the second, 4 bytes a block of
/// 4 KiB: 1/1024 of the table's size.
pub const WRITE_MEMORY: u64 = 2 * CHUNK as u64 + (64 << 10);

/// Memory [`Table::write`] allocates to write a file of `file_bytes` bytes
/// at `path`: [`WRITE_MEMORY`], and for a device or a pipe the block CRCs
/// kept from the first pass to the second (a regular file gets them in
/// place, as they are computed).
pub fn write_memory(path: &Path, file_bytes: u64) -> u64 {
    match destination(path) {
        Destination::InPlace => WRITE_MEMORY + file_bytes / 1024,
        Destination::Replace(_) => WRITE_MEMORY,
    }
}

/// Zero bytes for padding.
pub(super) const ZEROS: [u8; format::ALIGN as usize] = [0; format::ALIGN as usize];

/// The CRC-32 of each block of `block_len` bytes of a column handed over in
/// chunks of any length, the last block possibly short.
pub(super) struct BlockHasher {
    block_len: usize,
    /// Bytes of the current block hashed so far.
    filled: usize,
    hasher: crc32fast::Hasher,
    crcs: Vec<u32>,
}

impl BlockHasher {
    pub(super) fn new(block_len: u32, len: u64) -> BlockHasher {
        let count = format::block_count(len, block_len);
        BlockHasher {
            block_len: block_len as usize,
            filled: 0,
            hasher: crc32fast::Hasher::new(),
            crcs: Vec::with_capacity(usize::try_from(count).unwrap_or(0)),
        }
    }

    pub(super) fn update(&mut self, mut bytes: &[u8]) {
        while !bytes.is_empty() {
            let n = (self.block_len - self.filled).min(bytes.len());
            self.hasher.update(&bytes[..n]);
            self.filled += n;
            bytes = &bytes[n..];
            if self.filled == self.block_len {
                let full = std::mem::replace(&mut self.hasher, crc32fast::Hasher::new());
                self.crcs.push(full.finalize());
                self.filled = 0;
            }
        }
    }

    /// The CRC of every block.
    pub(super) fn finish(mut self) -> Vec<u32> {
        if self.filled > 0 {
            self.crcs.push(self.hasher.finalize());
        }
        self.crcs
    }
}

/// Why a write stopped: the table's error, or the caller's own `C`, given
/// once its cancel was cancelled (a cancel is the caller's, a job's, not a
/// table file's).
pub(super) enum Stop<C> {
    /// The table could not be written.
    Table(TableError),
    /// The caller's error for its cancel.
    Cancelled(C),
}

impl<C> From<TableError> for Stop<C> {
    fn from(error: TableError) -> Stop<C> {
        Stop::Table(error)
    }
}

impl<C> From<io::Error> for Stop<C> {
    fn from(error: io::Error) -> Stop<C> {
        Stop::Table(TableError::Io(error))
    }
}

impl<C> OtherRank for Stop<C> {
    /// Never called: these writes are one process's, the one rank of
    /// [`Solo`]. Were it, an I/O error says so.
    fn other_rank(rank: usize) -> Stop<C> {
        Stop::Table(TableError::Io(io::Error::other(format!(
            "rank {rank} of the job failed"
        ))))
    }
}

impl<C> Stop<C> {
    /// The caller's error: the table's by `error`, the cancel's as it is.
    pub(super) fn in_callers(self, error: impl Fn(TableError) -> C) -> C {
        match self {
            Stop::Table(e) => error(e),
            Stop::Cancelled(e) => e,
        }
    }
}

impl Stop<Infallible> {
    /// The table's error of a write that no cancel stops.
    pub(super) fn table(self) -> TableError {
        match self {
            Stop::Table(error) => error,
            Stop::Cancelled(never) => match never {},
        }
    }
}

/// A write's cancel, and the caller's error once it is cancelled; `None`
/// for a write that is not stopped.
pub(super) type Cancelling<'a, C> = Option<(&'a Cancel, &'a dyn Fn() -> C)>;

/// The caller's error once the write's cancel is cancelled.
pub(super) fn stop<C>(cancel: Cancelling<'_, C>) -> Result<(), Stop<C>> {
    match cancel {
        Some((cancel, cancelled)) if cancel.is_cancelled() => Err(Stop::Cancelled(cancelled())),
        _ => Ok(()),
    }
}

/// The bytes of a block-CRC array: each CRC little-endian.
pub(super) fn crc_array_bytes(crcs: &[u32]) -> Vec<u8> {
    crcs.iter().flat_map(|c| c.to_le_bytes()).collect()
}

impl<I: Subject> Table<I> {
    /// Calls `f` with the bytes of column `column` as the file stores them
    /// (little-endian, 1-bit entries packed, unused bits 0), at most
    /// [`CHUNK`] bytes at a time (a compressed column's: each block checked
    /// and decompressed, failing with a [`TableError`] when it is damaged).
    pub(crate) fn column_chunks<E: From<TableError>>(
        &self,
        column: usize,
        f: &mut dyn FnMut(&[u8]) -> Result<(), E>,
    ) -> Result<(), E> {
        let Some(c) = self.columns.get(column) else {
            return Ok(());
        };
        let data = match &c.data {
            Data::File { .. } if c.blocks.as_ref().is_some_and(|b| b.packed.is_some()) => {
                return self.packed_chunks(column, f);
            }
            Data::File { .. } => {
                let bytes = self.file_bytes(column).unwrap_or(&[]);
                return bytes.chunks(CHUNK).try_for_each(f);
            }
            Data::Owned(data) => data,
        };
        let mut buf = Vec::with_capacity(CHUNK);
        fn each<T: Copy, const N: usize, E>(
            values: &[T],
            le: impl Fn(T) -> [u8; N],
            buf: &mut Vec<u8>,
            f: &mut dyn FnMut(&[u8]) -> Result<(), E>,
        ) -> Result<(), E> {
            for chunk in values.chunks(CHUNK / N) {
                buf.clear();
                for &v in chunk {
                    buf.extend_from_slice(&le(v));
                }
                f(buf)?;
            }
            Ok(())
        }
        match data {
            ColumnData::U8(v) => v.chunks(CHUNK).try_for_each(f),
            ColumnData::U16(v) => each(v, u16::to_le_bytes, &mut buf, f),
            ColumnData::U32(v) => each(v, u32::to_le_bytes, &mut buf, f),
            ColumnData::U64(v) => each(v, u64::to_le_bytes, &mut buf, f),
            ColumnData::Bits { words, entries } => {
                let per = CHUNK / 8;
                for first in (0..words.len()).step_by(per) {
                    bits_bytes(
                        words,
                        first..(first + per).min(words.len()),
                        *entries,
                        &mut buf,
                    );
                    if buf.is_empty() {
                        break;
                    }
                    f(&buf)?;
                }
                Ok(())
            }
        }
    }

    /// Hands the bytes of column `column` to `put` chunk by chunk (as
    /// [`column_chunks`](Table::column_chunks)), each with where it starts
    /// in the column: the one loop of every pass of a write. The cancel is
    /// checked before each chunk, and `progress` hears of each, counted on
    /// in `tally` (its phase, the bytes done of its total).
    fn put_column<C>(
        &self,
        column: usize,
        tally: &mut Progress,
        progress: &mut dyn FnMut(Progress),
        cancel: Cancelling<'_, C>,
        mut put: impl FnMut(u64, &[u8]) -> Result<(), Stop<C>>,
    ) -> Result<(), Stop<C>> {
        let mut at = 0u64;
        self.column_chunks(column, &mut |bytes| {
            stop(cancel)?;
            put(at, bytes)?;
            at += bytes.len() as u64;
            tally.done += bytes.len() as u64;
            progress(*tally);
            Ok(())
        })
    }

    /// Writes the table as a version-3 file to `out` (version 5 for a table
    /// of one entry a class), returning its length.
    ///
    /// The block CRCs (4 KiB blocks) of every column and the CRC of each
    /// column's block-CRC array are computed first (one pass over the
    /// columns; a mapped column's stored CRCs are checked on the way, so a
    /// damaged file is never copied under new CRCs), then the header, and
    /// each column followed by its block-CRC array, in order, the columns
    /// streamed through a 1 MiB buffer. `progress` hears of both passes
    /// ([`Phase::Checksum`], [`Phase::Write`]).
    ///
    /// A version-1 Flip table cannot be written: it lacks the per-colour
    /// columns of versions 2 and 3 ([`TableError::MissingColumn`]).
    pub fn write_to(
        &self,
        out: &mut impl Write,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<u64, TableError> {
        self.write_to_cancellable::<Infallible>(out, VERSION, progress, None)
            .map_err(Stop::table)
    }

    /// [`write_to`](Table::write_to) in layout `version`, 3 or 2 (2 has no
    /// block CRCs: for testing that version-2 files are still read; a table
    /// of one entry a class is written as version 5 for 3, and not as 2),
    /// and stopping with the caller's error between chunks of 1 MiB once
    /// `cancel` is cancelled.
    fn write_to_cancellable<C>(
        &self,
        out: &mut impl Write,
        version: u32,
        progress: &mut dyn FnMut(Progress),
        cancel: Cancelling<'_, C>,
    ) -> Result<u64, Stop<C>> {
        let index = self.index_header();
        // Version 3 asked: the version of the table's layout (5 or 6 with
        // one entry a class); version 2 only for one entry a position.
        let version = match (version, self.layout.version()) {
            (VERSION, layout) => layout,
            (format::VERSION_2, VERSION) => version,
            _ => return Err(TableError::Version(version).into()),
        };
        stop(cancel)?;
        let infos: Vec<_> = self.columns().cloned().collect();
        self.id.check(self.shape, &infos, self.index())?;
        let total: u64 = infos.iter().map(|c| c.byte_len).sum();

        // Per column: the header's `crc` field and (version 3) the block CRCs.
        let mut crcs = Vec::with_capacity(infos.len());
        let mut arrays = Vec::with_capacity(infos.len());
        let mut tally = Progress {
            phase: Phase::Checksum,
            done: 0,
            total,
        };
        progress(tally);
        for (i, info) in infos.iter().enumerate() {
            let mut hasher = crc32fast::Hasher::new();
            let mut blocks = BlockHasher::new(format::BLOCK_LEN, info.byte_len);
            let mut source = self.source_crcs(i, false);
            self.put_column(i, &mut tally, progress, cancel, |_, bytes| {
                if version == format::VERSION_2 {
                    hasher.update(bytes);
                }
                blocks.update(bytes);
                source.update(bytes);
                Ok(())
            })?;
            let blocks = blocks.finish();
            source.check(self, i, Some(&blocks))?;
            if version == format::VERSION_2 {
                crcs.push(hasher.finalize());
            } else {
                crcs.push(crc32fast::hash(&crc_array_bytes(&blocks)));
                arrays.push(blocks);
            }
        }

        let (header, placed, file_len) = format::encode_header(
            &self.id.header_name(),
            self.shape,
            version,
            &infos,
            &crcs,
            index.as_ref(),
        );
        out.write_all(&header)?;
        let mut at = header.len() as u64;
        fn pad(out: &mut dyn Write, at: &mut u64, to: u64) -> io::Result<()> {
            while *at < to {
                let n = (to - *at).min(ZEROS.len() as u64) as usize;
                out.write_all(&ZEROS[..n])?;
                *at += n as u64;
            }
            Ok(())
        }
        let mut tally = Progress {
            phase: Phase::Write,
            done: 0,
            total,
        };
        progress(tally);
        for (i, place) in placed.iter().enumerate() {
            pad(out, &mut at, place.offset)?;
            self.put_column(i, &mut tally, progress, cancel, |_, bytes| {
                out.write_all(bytes)?;
                at += bytes.len() as u64;
                Ok(())
            })?;
            if let (Some(offset), Some(array)) = (place.block_crcs, arrays.get(i)) {
                pad(out, &mut at, offset)?;
                let bytes = crc_array_bytes(array);
                out.write_all(&bytes)?;
                at += bytes.len() as u64;
            }
        }
        debug_assert_eq!(at, file_len);
        Ok(file_len)
    }

    /// Checks the block CRCs `computed` of a version-3 file's column
    /// against the ones the file stores: [`TableError::BlockCrcs`] when the
    /// array itself is damaged, else [`TableError::BlockCrc`] for the first
    /// block that differs.
    pub(crate) fn check_block_crcs(
        &self,
        column: usize,
        computed: &[u32],
    ) -> Result<(), TableError> {
        let (Some(c), Some(array)) = (self.columns.get(column), self.block_crcs(column)) else {
            return Ok(());
        };
        let info = &c.info;
        let (Some(blocks), Some(offset)) = (info.blocks, info.offset) else {
            return Ok(());
        };
        let stored_crc = info.crc.unwrap_or(0);
        let array_crc = crc32fast::hash(array);
        if array_crc != stored_crc {
            return Err(TableError::BlockCrcs {
                column: info.name.clone(),
                start: blocks.crcs_offset,
                end: blocks.crcs_offset + array.len() as u64,
                stored: stored_crc,
                computed: array_crc,
            });
        }
        let block_len = u64::from(blocks.block_len);
        for (k, (stored, &computed)) in array.chunks_exact(4).zip(computed).enumerate() {
            let stored = u32::from_le_bytes([stored[0], stored[1], stored[2], stored[3]]);
            if stored != computed {
                let start = k as u64 * block_len;
                return Err(TableError::BlockCrc {
                    column: info.name.clone(),
                    block: k as u64,
                    start: offset + start,
                    end: offset + (start + block_len).min(info.byte_len),
                    stored,
                    computed,
                });
            }
        }
        Ok(())
    }

    /// The table as the bytes of a version-3 file, version 5 for a table of
    /// one entry a class (for small tables; see [`Table::write`] for
    /// files).
    pub fn to_bytes(&self) -> Result<Vec<u8>, TableError> {
        self.to_bytes_version(VERSION)
    }

    /// The table as the bytes of a file of layout `version`: 3, or 2
    /// without the block CRCs (to test that version-2 files are still read;
    /// not for new files).
    #[doc(hidden)]
    pub fn to_bytes_version(&self, version: u32) -> Result<Vec<u8>, TableError> {
        let mut bytes = Vec::with_capacity(usize::try_from(self.file_len).unwrap_or(0));
        self.write_to_cancellable::<Infallible>(&mut bytes, version, &mut |_| {}, None)
            .map_err(Stop::table)?;
        Ok(bytes)
    }

    /// Writes the table as a version-3 file (version 5 for a table of one
    /// entry a class) at `path` and returns its length.
    ///
    /// The file is written to a temporary file in the same directory
    /// (`.NAME.PID-N.tmp`), flushed to disk (`fsync`), then renamed to
    /// `path`, replacing any file of that name: a failed or interrupted
    /// write never leaves a partial table under `path`. On an error the
    /// temporary file is removed; only a process killed outright can leave
    /// one behind, never under the final name. A symbolic link is followed
    /// (the file it names is replaced), and a device, a pipe or a terminal
    /// is written in place: see [`destination`].
    pub fn write(
        &self,
        path: impl AsRef<Path>,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<u64, TableError> {
        self.write_maybe_cancelled::<Infallible>(path.as_ref(), progress, None)
            .map_err(Stop::table)
    }

    /// [`write`](Table::write), stopping once `cancel` is cancelled, in the
    /// caller's errors: the write is checked between chunks of 1 MiB, and a
    /// cancelled write removes its temporary file and returns
    /// `cancelled()`, leaving whatever was under `path` before (a device
    /// written in place keeps what was written); the table's errors are
    /// `error`'s. A cancel is the caller's (a job's), not a table file's:
    /// [`TableError`] has no variant for it.
    ///
    /// ```
    /// use boardbase::progress::Cancel;
    /// use boardbase::tablefile::{Puzzle, Table};
    ///
    /// let dir = std::env::temp_dir().join(format!("boardbase-doc-cancel-{}", std::process::id()));
    /// std::fs::create_dir_all(&dir)?;
    /// let path = dir.join("euler-4x4.bin");
    /// let cancel = Cancel::new();
    /// // Cancelled from the progress callback, at its first report: `None`
    /// // for the cancel, `Some` for the table's errors.
    /// let result = Table::embedded(Puzzle::Euler).write_cancellable(
    ///     &path,
    ///     &mut |_| cancel.cancel(),
    ///     &cancel,
    ///     || None,
    ///     Some,
    /// );
    /// assert!(matches!(result, Err(None)));
    /// assert_eq!(std::fs::read_dir(&dir)?.count(), 0); // no table, no temporary file
    /// std::fs::remove_dir(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn write_cancellable<E>(
        &self,
        path: impl AsRef<Path>,
        progress: &mut dyn FnMut(Progress),
        cancel: &Cancel,
        cancelled: impl Fn() -> E,
        error: impl Fn(TableError) -> E,
    ) -> Result<u64, E> {
        self.write_maybe_cancelled(path.as_ref(), progress, Some((cancel, &cancelled)))
            .map_err(|stopped| stopped.in_callers(error))
    }

    fn write_maybe_cancelled<C>(
        &self,
        path: &Path,
        progress: &mut dyn FnMut(Progress),
        cancel: Cancelling<'_, C>,
    ) -> Result<u64, Stop<C>> {
        if let Destination::Replace(_) = destination(path) {
            return self.write_file(path, progress, cancel);
        }
        // A device or a pipe, written in place: in the file's order.
        let mut file = AtomicFile::create(path)?;
        let mut out = BufWriter::with_capacity(CHUNK, &mut file);
        let len = self.write_to_cancellable(&mut out, VERSION, progress, cancel)?;
        out.flush()?;
        drop(out);
        file.commit()?;
        Ok(len)
    }

    /// Writes the table as the file `path` (a regular file or a new name)
    /// through the writer of table files, as the ranks of a job write
    /// theirs, on one rank ([`Solo`]), in two passes over the columns: the
    /// block CRCs ([`Phase::Checksum`]), written in place in the block-CRC
    /// arrays, then the columns' bytes ([`Phase::Write`]). The CRCs come
    /// first so that a mapped column's stored CRCs are checked before any
    /// of its bytes are copied: a damaged file is never copied under new
    /// CRCs.
    fn write_file<C>(
        &self,
        path: &Path,
        progress: &mut dyn FnMut(Progress),
        cancel: Cancelling<'_, C>,
    ) -> Result<u64, Stop<C>> {
        stop(cancel)?;
        let infos: Vec<ColumnInfo> = self.columns().cloned().collect();
        self.id.check(self.shape, &infos, self.index())?;
        let index = self.index_header();
        let total: u64 = infos.iter().map(|c| c.byte_len).sum();
        let name = self.id.header_name();
        let fill = |parts: &mut super::parts::Parts<'_>| {
            let mut tally = Progress {
                phase: Phase::Checksum,
                done: 0,
                total,
            };
            progress(tally);
            for i in 0..infos.len() {
                let mut source = self.source_crcs(i, true);
                self.put_column(i, &mut tally, progress, cancel, |at, bytes| {
                    source.update(bytes);
                    Ok(parts.put_crcs(i, at, bytes)?)
                })?;
                source.check(self, i, None)?;
            }
            let mut tally = Progress {
                phase: Phase::Write,
                done: 0,
                total,
            };
            progress(tally);
            for i in 0..infos.len() {
                self.put_column(i, &mut tally, progress, cancel, |at, bytes| {
                    Ok(parts.put_bytes(i, at, bytes)?)
                })?;
            }
            // The last moment a cancel is honoured: the file is complete
            // but for its header, and is renamed next.
            stop(cancel)
        };
        let header = FileHeader {
            name: &name,
            shape: self.shape,
            version: self.layout.version(),
            columns: &infos,
            index: index.as_ref(),
        };
        write_columns(path, header, &Solo, fill, Stop::Table)
    }

    /// The check of column `column`'s stored CRCs, where it is a mapped
    /// file's, fed its bytes as they are read for a write. Its own block
    /// CRCs are computed here when they are not of the writer's block
    /// length, or (`own_blocks`) whatever their length, when the writer's
    /// are not kept.
    pub(super) fn source_crcs(&self, column: usize, own_blocks: bool) -> SourceCrcs {
        let Some(c) = self.columns.get(column) else {
            return SourceCrcs::default();
        };
        let (Data::File { .. }, Some(_)) = (&c.data, c.info.crc) else {
            return SourceCrcs::default();
        };
        if c.info.blocks.is_some_and(|b| b.packed.is_some()) {
            // Each compressed block is checked as it is decompressed.
            return SourceCrcs::default();
        }
        match c.info.blocks {
            None => SourceCrcs {
                whole: Some(crc32fast::Hasher::new()),
                blocks: None,
            },
            Some(b) => SourceCrcs {
                whole: None,
                blocks: (own_blocks || b.block_len != format::BLOCK_LEN)
                    .then(|| BlockHasher::new(b.block_len, c.info.byte_len)),
            },
        }
    }
}

/// The CRCs of a mapped column's bytes as a write reads them, to check
/// against the ones its file stores (see [`Table::source_crcs`]); nothing
/// for a column held in memory.
#[derive(Default)]
pub(super) struct SourceCrcs {
    /// The CRC of the whole column (a version-2 file's).
    whole: Option<crc32fast::Hasher>,
    /// Its block CRCs, at the file's block length (version 3), where the
    /// writer's own are not those.
    blocks: Option<BlockHasher>,
}

impl SourceCrcs {
    pub(super) fn update(&mut self, bytes: &[u8]) {
        if let Some(whole) = &mut self.whole {
            whole.update(bytes);
        }
        if let Some(blocks) = &mut self.blocks {
            blocks.update(bytes);
        }
    }

    /// Checks the CRCs computed against column `column`'s stored ones;
    /// `written` are the writer's block CRCs of the column, where they are
    /// kept, for a file whose blocks are of the writer's length.
    pub(super) fn check<I: Subject>(
        self,
        table: &Table<I>,
        column: usize,
        written: Option<&[u32]>,
    ) -> Result<(), TableError> {
        let Some(c) = table.columns.get(column) else {
            return Ok(());
        };
        let (Data::File { .. }, Some(stored)) = (&c.data, c.info.crc) else {
            return Ok(());
        };
        if c.info.blocks.is_some_and(|b| b.packed.is_some()) {
            // Each compressed block was checked as it was decompressed.
            return Ok(());
        }
        match (self.whole, self.blocks, written) {
            (Some(whole), _, _) => {
                let computed = whole.finalize();
                if stored != computed {
                    return Err(TableError::ColumnCrc {
                        column: c.info.name.clone(),
                        stored,
                        computed,
                    });
                }
                Ok(())
            }
            (None, Some(blocks), _) => table.check_block_crcs(column, &blocks.finish()),
            (None, None, Some(written)) => table.check_block_crcs(column, written),
            (None, None, None) => Ok(()),
        }
    }
}

/// The bytes a file stores of words `range` of a bitset column of
/// `entries` entries, into `buf` (emptied first): little-endian, cut at the
/// column's end (`entries` bits, rounded up to a byte), the bits past the
/// last entry cleared. Empty when the range starts past the end.
pub(crate) fn bits_bytes(words: &[u64], range: Range<usize>, entries: u64, buf: &mut Vec<u8>) {
    buf.clear();
    let len = entries.div_ceil(8);
    let from = range.start as u64 * 8;
    if from >= len {
        return;
    }
    for &w in &words[range] {
        buf.extend_from_slice(&w.to_le_bytes());
    }
    buf.truncate((len - from).min(buf.len() as u64) as usize);
    if from + buf.len() as u64 == len
        && !entries.is_multiple_of(8)
        && let Some(last) = buf.last_mut()
    {
        *last &= (1u8 << (entries % 8)) - 1;
    }
}
