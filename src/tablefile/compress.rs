//! Compressed columns whole: a table written as a version-4 file, its large
//! columns compressed in blocks that stay randomly accessible
//! ([`Table::compress`]), and a compressed column read back in order
//! ([`Table::packed_chunks`]): for a write, for `verify`'s check of every
//! block ([`Table::check_packed`]) and into memory ([`Table::unpacked`]).

use std::convert::Infallible;
use std::io::{self, BufWriter, Write};
use std::os::unix::fs::FileExt;
use std::path::Path;

use rayon::prelude::*;
use zstd::zstd_safe::CParameter;

use super::atomic::{AtomicFile, Destination, destination};
use super::columns::{Blocks, ColumnData, RefData};
use super::entry::Fault;
use super::format::{
    self, ALIGN, BLOCK_LEN, CRC_LEN, Codec, ColumnHeaderV4, Header, PRELUDE_LEN, VERSION_4,
};
use super::write::{BlockHasher, Cancelling, Stop, ZEROS, crc_array_bytes, stop};
use super::{Phase, Progress, Subject, Table, TableError};
use crate::progress::Cancel;

/// Bytes of entries in a compressed block: 4 KiB, as a version-3 block, so
/// that a probe decompresses about one page. Small blocks compress poorly
/// alone; with a dictionary trained on the column's own blocks they do as
/// well as blocks of 32 KiB without one (measured on the 5×6 Euler table:
/// docs/performance.md).
pub const PACKED_BLOCK_LEN: u32 = 4 << 10;

/// The Zstandard level: higher levels save little on blocks of 4 KiB with a
/// dictionary, at many times the time.
pub const ZSTD_LEVEL: i32 = 9;

/// The largest dictionary of a column of bytes or wider (256 KiB), and of a
/// 1-bit column (64 KiB: larger ones save nothing there). A column's
/// dictionary is at most a 64th of its entries' bytes.
const DICTIONARY_LEN: usize = 256 << 10;
const BITS_DICTIONARY_LEN: usize = 64 << 10;

/// Columns of fewer bytes than this get no dictionary: too few blocks to
/// learn from, and the dictionary would take much of what it saves.
const DICTIONARY_MIN_COLUMN: u64 = 1 << 20;

/// Blocks a dictionary is trained on, spread evenly over the column (16 MiB
/// of entries at most).
const DICTIONARY_SAMPLES: u64 = 4096;

/// Blocks compressed at once, in parallel, before they are written in order:
/// 1 MiB of entries and their compressed bytes in memory.
const BATCH: usize = 256;

/// Memory [`Table::compress`] needs besides the table: a batch of blocks and
/// their compressed bytes, each thread's compressor, the write buffer, and
/// the index of the column being written (12 bytes a block of 32 KiB).
pub const COMPRESS_MEMORY: u64 = 2 * (BATCH as u64 * PACKED_BLOCK_LEN as u64)
    + DICTIONARY_SAMPLES * PACKED_BLOCK_LEN as u64
    + (8 << 20);

/// What one column becomes in the file.
struct Placed {
    codec: Codec,
    offset: u64,
    len: u64,
    crc: u32,
    block_len: u32,
    index_offset: u64,
}

impl<I: Subject> Table<I> {
    /// Writes the table as a version-4 file at `path` (version 5, its index
    /// kept, for a table of one entry a class): each column of at least
    /// [`PACKED_BLOCK_LEN`] bytes compressed in blocks of that many bytes of
    /// entries, each block on its own (Zstandard, with the CRC-32 of its
    /// compressed bytes), the smaller ones as in version 3. Returns
    /// the file's length. The file is written under a temporary name and
    /// renamed when complete; its header is written last, so `path` must be
    /// a regular file (or a new name), not a pipe or a device. Every block
    /// of the source is checked against its CRC as it is read, so a damaged
    /// table is never compressed into an intact-looking one.
    ///
    /// ```
    /// use boardbase::tablefile::{Puzzle, Table};
    ///
    /// let dir = std::env::temp_dir().join(format!("boardbase-doc-compress-{}", std::process::id()));
    /// std::fs::create_dir_all(&dir)?;
    /// let path = dir.join("euler-4x4.bin");
    /// let table = Table::embedded(Puzzle::Euler);
    /// let len = table.compress(&path, &mut |_| {})?;
    /// let packed = Table::open(&path)?;
    /// assert_eq!((packed.version(), packed.file_len()), (4, len));
    /// assert!(len < table.file_len());
    /// // XXXX/...X/XX.X/XX.X, the judge's second sample: won, 4 moves left,
    /// // the best move covering (1, 2); as the table it was made from says.
    /// let entry = packed.as_euler()?.probe(0xBB8F)?;
    /// assert_eq!((entry.moves_left, entry.best_move), (Some(4), Some(0x40)));
    /// assert_eq!(entry, table.as_euler()?.probe(0xBB8F)?);
    /// std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn compress(
        &self,
        path: impl AsRef<Path>,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<u64, TableError> {
        self.compress_maybe_cancelled::<Infallible>(path.as_ref(), progress, None)
            .map_err(Stop::table)
    }

    /// [`compress`](Table::compress), stopping once `cancel` is cancelled,
    /// in the caller's errors, as [`write_cancellable`](Table::write_cancellable)
    /// does: checked between batches of blocks (1 MiB of entries), a
    /// cancelled compression removes its temporary file and returns
    /// `cancelled()`, leaving the file under `path` as it was; the table's
    /// errors are `error`'s.
    ///
    /// ```
    /// use boardbase::progress::Cancel;
    /// use boardbase::tablefile::{Puzzle, Table};
    ///
    /// let dir = std::env::temp_dir().join(format!("boardbase-doc-stop-{}", std::process::id()));
    /// std::fs::create_dir_all(&dir)?;
    /// let path = dir.join("euler-4x4.bin");
    /// let table = Table::embedded(Puzzle::Euler);
    /// table.write(&path, &mut |_| {})?;
    /// let before = std::fs::read(&path)?;
    /// let cancel = Cancel::new();
    /// // Cancelled from the progress callback, at its first report.
    /// let result = Table::open(&path)?.compress_cancellable(
    ///     &path,
    ///     &mut |_| cancel.cancel(),
    ///     &cancel,
    ///     || None,
    ///     Some,
    /// );
    /// assert!(matches!(result, Err(None)));
    /// assert_eq!(std::fs::read(&path)?, before); // the table as it was
    /// assert_eq!(std::fs::read_dir(&dir)?.count(), 1); // no temporary file
    /// std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn compress_cancellable<E>(
        &self,
        path: impl AsRef<Path>,
        progress: &mut dyn FnMut(Progress),
        cancel: &Cancel,
        cancelled: impl Fn() -> E,
        error: impl Fn(TableError) -> E,
    ) -> Result<u64, E> {
        self.compress_maybe_cancelled(path.as_ref(), progress, Some((cancel, &cancelled)))
            .map_err(|stopped| stopped.in_callers(error))
    }

    fn compress_maybe_cancelled<C>(
        &self,
        path: &Path,
        progress: &mut dyn FnMut(Progress),
        cancel: Cancelling<'_, C>,
    ) -> Result<u64, Stop<C>> {
        if let Destination::InPlace = destination(path) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "a compressed table is written to a regular file: its header comes last",
            )
            .into());
        }
        stop(cancel)?;
        let mut header = Header {
            puzzle: self.id.header_name(),
            rows: self.shape.rows() as u8,
            cols: self.shape.cols() as u8,
            file_len: 0,
            columns: self
                .columns
                .iter()
                .map(|c| ColumnHeaderV4 {
                    name: c.info.name.clone(),
                    width: c.info.width,
                    entries: c.info.entries,
                    offset: 0,
                    len: 0,
                    crc: 0,
                    block_len: 0,
                    block_crcs_offset: 0,
                    codec: 0,
                })
                .collect(),
        };
        // Version 5's `index` field follows the columns: bincode encodes
        // a struct's fields one after the other.
        let index = self.index_header().map(|i| i.encode());
        // Version 3 becomes 4; 5 and 6 keep their numbers, their layouts
        // having codecs already.
        let version = match self.layout.version() {
            super::VERSION => VERSION_4,
            version => version,
        };
        // The legacy configuration encodes integers at a fixed width: the
        // header's length does not depend on the values filled in last.
        let encode = |h: &Header<ColumnHeaderV4>| {
            let mut bytes = bincode::serde::encode_to_vec(h, bincode::config::legacy())
                .expect("encoding into a Vec cannot fail");
            bytes.extend(index.iter().flatten());
            bytes
        };
        let header_len = encode(&header).len();
        let total: u64 = self.columns.iter().map(|c| c.info.byte_len).sum();
        // The phase begins before the temporary file exists: whoever hears
        // it knows the file it may find is this compression's.
        progress(Progress {
            phase: Phase::Compress,
            done: 0,
            total,
        });
        let mut file = AtomicFile::create(path)?;
        let mut out = Out {
            writer: BufWriter::with_capacity(1 << 20, &mut file),
            at: 0,
        };
        out.write(&vec![0u8; PRELUDE_LEN + header_len + CRC_LEN])?;
        let mut done = 0u64;
        for (column, c) in header.columns.iter_mut().enumerate() {
            stop(cancel)?;
            let placed = if self.columns[column].info.byte_len >= u64::from(PACKED_BLOCK_LEN) {
                self.write_packed(column, &mut out, &mut |n| {
                    done += n;
                    progress(Progress {
                        phase: Phase::Compress,
                        done,
                        total,
                    });
                    stop(cancel)
                })?
            } else {
                let placed = self.write_raw(column, &mut out)?;
                done += self.columns[column].info.byte_len;
                progress(Progress {
                    phase: Phase::Compress,
                    done,
                    total,
                });
                placed
            };
            c.offset = placed.offset;
            c.len = placed.len;
            c.crc = placed.crc;
            c.block_len = placed.block_len;
            c.block_crcs_offset = placed.index_offset;
            c.codec = placed.codec.code();
        }
        header.file_len = out.at;
        let body = encode(&header);
        debug_assert_eq!(body.len(), header_len);
        let head = format::sealed(version, &body);
        let file_len = out.at;
        out.writer.flush()?;
        drop(out);
        file.file().write_all_at(&head, 0)?;
        file.commit()?;
        Ok(file_len)
    }

    /// Writes column `column` as version 3 does: its bytes, then its
    /// block-CRC array.
    fn write_raw(&self, column: usize, out: &mut Out<'_>) -> Result<Placed, TableError> {
        let info = &self.columns[column].info;
        out.align()?;
        let offset = out.at;
        let mut hasher = BlockHasher::new(BLOCK_LEN, info.byte_len);
        let mut source = self.source_crcs(column, true);
        self.column_chunks::<TableError>(column, &mut |bytes| {
            source.update(bytes);
            hasher.update(bytes);
            out.write(bytes)
        })?;
        source.check(self, column, None)?;
        let len = out.at - offset;
        out.align()?;
        let index_offset = out.at;
        let array = crc_array_bytes(&hasher.finish());
        out.write(&array)?;
        Ok(Placed {
            codec: Codec::Raw,
            offset,
            len,
            crc: crc32fast::hash(&array),
            block_len: BLOCK_LEN,
            index_offset,
        })
    }

    /// Writes column `column` compressed: its blocks, then the index of
    /// where each starts and the CRC-32 of each.
    /// `progress` is told the bytes of entries each batch took, and stops
    /// the write by its error.
    fn write_packed<C>(
        &self,
        column: usize,
        out: &mut Out<'_>,
        progress: &mut dyn FnMut(u64) -> Result<(), Stop<C>>,
    ) -> Result<Placed, Stop<C>> {
        let info = &self.columns[column].info;
        let block_len = PACKED_BLOCK_LEN as usize;
        let dictionary = self.train(column, progress)?;
        out.align()?;
        let offset = out.at;
        out.write(&dictionary)?;
        let count = format::block_count(info.byte_len, PACKED_BLOCK_LEN);
        let mut starts = Vec::with_capacity(usize::try_from(count + 1).unwrap_or(0));
        let mut crcs = Vec::with_capacity(usize::try_from(count + 1).unwrap_or(0));
        let prepared = zstd::dict::EncoderDictionary::copy(&dictionary, ZSTD_LEVEL);
        let mut source = self.source_crcs(column, true);
        let mut batch = Vec::with_capacity(BATCH * block_len);
        let mut flush = |batch: &mut Vec<u8>, out: &mut Out<'_>| -> Result<(), Stop<C>> {
            let packed: Vec<io::Result<Vec<u8>>> = batch
                .par_chunks(block_len)
                .map_init(
                    || {
                        let mut c = if dictionary.is_empty() {
                            zstd::bulk::Compressor::new(ZSTD_LEVEL)?
                        } else {
                            zstd::bulk::Compressor::with_prepared_dictionary(&prepared)?
                        };
                        // The index says each block's length and place, and
                        // its CRC guards it: the frame repeats none of that.
                        c.set_parameter(CParameter::ContentSizeFlag(false))?;
                        c.set_parameter(CParameter::ChecksumFlag(false))?;
                        c.set_parameter(CParameter::DictIdFlag(false))?;
                        Ok::<_, io::Error>(c)
                    },
                    |compressor, block| match compressor {
                        Ok(c) => c.compress(block),
                        Err(e) => Err(io::Error::new(e.kind(), e.to_string())),
                    },
                )
                .collect();
            for block in packed {
                let block = block?;
                starts.push(out.at - offset);
                crcs.push(crc32fast::hash(&block));
                out.write(&block)?;
            }
            let n = batch.len() as u64;
            batch.clear();
            progress(n)
        };
        self.column_chunks::<Stop<C>>(column, &mut |mut bytes| {
            source.update(bytes);
            while !bytes.is_empty() {
                let n = (batch.capacity() - batch.len()).min(bytes.len());
                batch.extend_from_slice(&bytes[..n]);
                bytes = &bytes[n..];
                if batch.len() == batch.capacity() {
                    flush(&mut batch, out)?;
                }
            }
            Ok(())
        })?;
        if !batch.is_empty() {
            flush(&mut batch, out)?;
        }
        source.check(self, column, None)?;
        let len = out.at - offset;
        starts.push(len);
        crcs.push(crc32fast::hash(&dictionary));
        out.align()?;
        let index_offset = out.at;
        let mut index: Vec<u8> = starts.iter().flat_map(|s| s.to_le_bytes()).collect();
        index.extend(crc_array_bytes(&crcs));
        out.write(&index)?;
        Ok(Placed {
            codec: Codec::Zstd,
            offset,
            len,
            crc: crc32fast::hash(&index),
            block_len: PACKED_BLOCK_LEN,
            index_offset,
        })
    }

    /// A dictionary for column `column`'s blocks, trained on up to
    /// [`DICTIONARY_SAMPLES`] of them spread evenly over it; empty for a
    /// small column, or when training finds nothing to learn.
    ///
    /// Training reads the whole column: `progress` is told nothing done
    /// after each chunk, and stops it by its error.
    fn train<C>(
        &self,
        column: usize,
        progress: &mut dyn FnMut(u64) -> Result<(), Stop<C>>,
    ) -> Result<Vec<u8>, Stop<C>> {
        let info = &self.columns[column].info;
        if info.byte_len < DICTIONARY_MIN_COLUMN {
            return Ok(Vec::new());
        }
        let block_len = PACKED_BLOCK_LEN as usize;
        let count = format::block_count(info.byte_len, PACKED_BLOCK_LEN);
        let every = count.div_ceil(DICTIONARY_SAMPLES).max(1);
        let mut samples: Vec<Vec<u8>> = Vec::new();
        let (mut at, mut block) = (0u64, Vec::with_capacity(block_len));
        self.column_chunks::<Stop<C>>(column, &mut |mut bytes| {
            progress(0)?;
            while !bytes.is_empty() {
                let k = at / PACKED_BLOCK_LEN as u64;
                let n = (block_len - (at % PACKED_BLOCK_LEN as u64) as usize).min(bytes.len());
                // Blocks at a fixed stride would share the bits of their
                // index, and so their positions' pattern: a hash spreads
                // the choice.
                if mix(k).is_multiple_of(every) {
                    block.extend_from_slice(&bytes[..n]);
                    if block.len() == block_len {
                        samples.push(std::mem::replace(&mut block, Vec::with_capacity(block_len)));
                    }
                }
                at += n as u64;
                bytes = &bytes[n..];
            }
            Ok(())
        })?;
        let max = if info.width == 1 {
            BITS_DICTIONARY_LEN
        } else {
            DICTIONARY_LEN
        };
        let len = max.min(usize::try_from(info.byte_len / 64).unwrap_or(max));
        // Training fails on samples with nothing in common (or too few):
        // the blocks are then compressed alone.
        Ok(zstd::dict::from_samples(&samples, len).unwrap_or_default())
    }

    /// Calls `f` with the bytes of entries of compressed column `column`,
    /// a block at a time, each checked against its CRC and decompressed.
    pub(super) fn packed_chunks<E: From<TableError>>(
        &self,
        column: usize,
        f: &mut dyn FnMut(&[u8]) -> Result<(), E>,
    ) -> Result<(), E> {
        let Some(RefData::Packed(packed)) = self.column_ref_with(column, true).map(|c| c.data)
        else {
            return Ok(());
        };
        let name = &self.columns[column].info.name;
        for block in 0..packed.count {
            let bytes = packed.block(block).map_err(|fault| match fault {
                Fault::Block {
                    start,
                    end,
                    array_damaged: false,
                    ..
                } => TableError::Packed {
                    column: name.clone(),
                    block,
                    problem: format!("bytes {start}..{end} of the file do not match their CRC"),
                },
                Fault::Block { .. } => TableError::Packed {
                    column: name.clone(),
                    block,
                    problem: "does not decompress to its length".into(),
                },
                Fault::Past => TableError::Packed {
                    column: name.clone(),
                    block,
                    problem: "the index points outside the column".into(),
                },
            });
            let bytes = bytes.map_err(E::from)?;
            f(&bytes)?;
        }
        Ok(())
    }
}

impl<I: Subject> Table<I> {
    /// Checks compressed column `column` for `verify`: its index against
    /// the header's CRC, the zero bytes between the column and its index,
    /// then every block against its CRC and its length decompressed (the
    /// unused bits of a 1-bit column's last byte 0). Adds the bytes of
    /// entries to `done`; returns where the index ends.
    pub(super) fn check_packed(
        &self,
        column: usize,
        blocks: &Blocks,
        done: &mut u64,
        total: u64,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<usize, TableError> {
        let c = &self.columns[column];
        let name = &c.info.name;
        let (stored_len, _) = blocks.packed.unwrap_or_default();
        let file = self.storage.bytes();
        let index_len =
            usize::try_from(format::packed_index_len(blocks.count)).unwrap_or(usize::MAX);
        let index = blocks
            .crcs
            .checked_add(index_len)
            .and_then(|end| file.get(blocks.crcs..end))
            .unwrap_or_default();
        let stored = c.info.crc.unwrap_or(0);
        let computed = crc32fast::hash(index);
        if stored != computed {
            return Err(TableError::BlockCrcs {
                column: name.clone(),
                start: blocks.crcs as u64,
                end: (blocks.crcs + index.len()) as u64,
                stored,
                computed,
            });
        }
        let column_end = blocks.start + stored_len as usize;
        if let Some(at) = file
            .get(column_end..blocks.crcs)
            .and_then(|gap| gap.iter().position(|&b| b != 0))
        {
            return Err(TableError::Padding {
                offset: (column_end + at) as u64,
            });
        }
        let last = usize::try_from(blocks.count).unwrap_or(usize::MAX) * 8;
        let ends = index
            .get(last..last + 8)
            .map(|b| u64::from_le_bytes(b.try_into().unwrap_or_default()));
        if ends != Some(stored_len) {
            return Err(TableError::Packed {
                column: name.clone(),
                block: blocks.count,
                problem: format!("the index ends at {ends:?}, the column at {stored_len}"),
            });
        }
        let used = c.info.entries % 8;
        let mut left = c.info.byte_len;
        self.packed_chunks::<TableError>(column, &mut |bytes| {
            left -= bytes.len() as u64;
            *done += bytes.len() as u64;
            progress(Progress {
                phase: Phase::Crc,
                done: *done,
                total,
            });
            if left == 0
                && c.info.width == 1
                && used != 0
                && bytes.last().is_some_and(|b| b >> used != 0)
            {
                return Err(TableError::Packed {
                    column: name.clone(),
                    block: blocks.count - 1,
                    problem: "bits past the last entry are not 0".into(),
                });
            }
            Ok(())
        })?;
        Ok(blocks.crcs + index_len)
    }

    /// The table with its compressed columns decompressed into memory, or
    /// `None` when it has none. Needs the bytes of their entries.
    pub(super) fn unpacked(&self) -> Result<Option<Table<I>>, TableError> {
        let packed =
            |c: &super::columns::Column| c.blocks.as_ref().is_some_and(|b| b.packed.is_some());
        if !self.columns.iter().any(packed) {
            return Ok(None);
        }
        let mut columns = Vec::with_capacity(self.columns.len());
        for (column, c) in self.columns.iter().enumerate() {
            let info = &c.info;
            let mut bytes = Vec::with_capacity(usize::try_from(info.byte_len).unwrap_or(0));
            self.column_chunks::<TableError>(column, &mut |chunk| {
                bytes.extend_from_slice(chunk);
                Ok(())
            })?;
            let data = match info.width {
                1 => ColumnData::Bits {
                    words: words_of(&bytes),
                    entries: info.entries,
                },
                8 => ColumnData::U8(bytes),
                16 => ColumnData::U16(
                    bytes
                        .chunks_exact(2)
                        .map(|b| u16::from_le_bytes([b[0], b[1]]))
                        .collect(),
                ),
                32 => ColumnData::U32(
                    bytes
                        .chunks_exact(4)
                        .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                        .collect(),
                ),
                _ => ColumnData::U64(words_of(&bytes)),
            };
            columns.push((info.name.clone(), data));
        }
        Table::from_owned(self.id.clone(), self.shape, columns, self.index().cloned()).map(Some)
    }
}

/// SplitMix64's finaliser: a well-spread hash of a block's index.
fn mix(k: u64) -> u64 {
    let mut z = k.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Little-endian bytes as `u64` words, the last one padded with zeros.
pub(super) fn words_of(bytes: &[u8]) -> Vec<u64> {
    bytes
        .chunks(8)
        .map(|b| {
            let mut le = [0u8; 8];
            le[..b.len()].copy_from_slice(b);
            u64::from_le_bytes(le)
        })
        .collect()
}

/// The file being written, and where the next byte goes.
struct Out<'a> {
    writer: BufWriter<&'a mut AtomicFile>,
    at: u64,
}

impl Out<'_> {
    fn write(&mut self, bytes: &[u8]) -> Result<(), TableError> {
        self.writer.write_all(bytes)?;
        self.at += bytes.len() as u64;
        Ok(())
    }

    /// Zero bytes up to the next multiple of [`ALIGN`].
    fn align(&mut self) -> Result<(), TableError> {
        let pad = format::align_up(self.at) - self.at;
        debug_assert!(pad < ALIGN);
        self.write(&ZEROS[..pad as usize])
    }
}
