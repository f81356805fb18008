//! The writer of table files: a file written in place, in parts, the
//! header last. Each rank of a job (see [`crate::ranks`]) writes its own
//! ranges of the columns in place, and the CRCs of their blocks in place
//! in the block-CRC arrays; then each hashes its share of every block-CRC
//! array, read back, and rank 0 combines the shares into the columns' CRCs
//! and writes the header. One process is the job of one rank
//! ([`Solo`](crate::ranks::Solo)): [`Table::write`](super::Table::write)
//! writes a file through this writer too, so that a file's bytes come from
//! one place however many processes made it. No rank holds more than a
//! few buffers, whatever the table's size.

use std::fs::{File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};

use boardbase_tables::classes::Classes;
use boardbase_tables::shape::Shape;

use super::atomic::{Destination, TempFile, destination, dir_and_name};
use super::direct::DirectWrites;
use super::index::{IndexHeader, VERSION_5};
use super::{ColumnInfo, Puzzle, TableError, VERSION, format, layout_infos};
use crate::ranks::{self, OtherRank, Ranks};

/// The length of the blocks the writer checksums: 4 KiB.
pub(crate) const BLOCK_LEN: u32 = format::BLOCK_LEN;

pub(crate) use super::direct::FileExt;

/// The CRC-32 of a run of bytes and their count: what a rank tells the
/// others of its share of some bytes, to be combined in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PartCrc {
    /// CRC-32 of the bytes.
    pub(crate) crc: u32,
    /// How many bytes.
    pub(crate) len: u64,
}

impl PartCrc {
    /// The CRC-32 of the parts' bytes one after the other.
    pub(crate) fn combine(parts: &[PartCrc]) -> u32 {
        let mut all = crc32fast::Hasher::new();
        for part in parts {
            all.combine(&crc32fast::Hasher::new_with_initial_len(part.crc, part.len));
        }
        all.finalize()
    }

    /// Bytes of [`to_bytes`](PartCrc::to_bytes).
    pub(crate) const LEN: usize = 12;

    /// The CRC and the count, little-endian: what a rank sends.
    pub(crate) fn to_bytes(self) -> [u8; PartCrc::LEN] {
        let mut b = [0u8; PartCrc::LEN];
        b[..4].copy_from_slice(&self.crc.to_le_bytes());
        b[4..].copy_from_slice(&self.len.to_le_bytes());
        b
    }

    /// A part read back from [`to_bytes`](PartCrc::to_bytes).
    pub(crate) fn from_bytes(b: &[u8]) -> PartCrc {
        PartCrc {
            crc: u32::from_le_bytes(b[..4].try_into().unwrap_or_default()),
            len: u64::from_le_bytes(b[4..12].try_into().unwrap_or_default()),
        }
    }
}

/// One rank's writer of its ranges of the columns.
pub(crate) struct Parts<'a> {
    file: &'a File,
    infos: &'a [ColumnInfo],
    offsets: Vec<u64>,
    /// Where each column's block-CRC array starts.
    crc_offsets: Vec<Option<u64>>,
    /// Blocks of each column written.
    written: Vec<u64>,
    /// The CRCs of one piece's blocks.
    crcs: Vec<u8>,
    /// The columns' bytes go past the page cache where they can.
    direct: DirectWrites,
}

impl Parts<'_> {
    /// How far into a page of the file column `column` starts: bytes put
    /// from as far into a page of memory go to the disk without a copy.
    pub(crate) fn page_offset(&self, column: usize) -> usize {
        let page = self.direct.page() as u64;
        self.offsets
            .get(column)
            .map_or(0, |&at| (at % page) as usize)
    }

    /// Writes `bytes` (as the file stores them) at byte `start` of column
    /// `column`, and the CRCs of their blocks in the column's block-CRC
    /// array: whole 4 KiB blocks, the last possibly short where the column
    /// ends.
    pub(crate) fn put(&mut self, column: usize, start: u64, bytes: &[u8]) -> io::Result<()> {
        self.put_bytes(column, start, bytes)?;
        self.put_crcs(column, start, bytes)
    }

    /// The bytes of [`put`](Parts::put) alone, their block CRCs put apart
    /// ([`put_crcs`](Parts::put_crcs)): each block must be put once.
    pub(crate) fn put_bytes(&mut self, column: usize, start: u64, bytes: &[u8]) -> io::Result<()> {
        self.whole_blocks(column, start, bytes)?;
        self.direct
            .write_all_at(self.file, bytes, self.offsets[column] + start)?;
        self.written[column] += bytes.len().div_ceil(format::BLOCK_LEN as usize) as u64;
        Ok(())
    }

    /// The block CRCs of [`put`](Parts::put) alone: the CRCs of the blocks
    /// of `bytes`, the bytes at byte `start` of column `column`, written in
    /// place in the column's block-CRC array.
    pub(crate) fn put_crcs(&mut self, column: usize, start: u64, bytes: &[u8]) -> io::Result<()> {
        self.whole_blocks(column, start, bytes)?;
        let block = u64::from(format::BLOCK_LEN);
        // The CRCs of 256 blocks (1 MiB) at a time: a buffer of 1 KiB,
        // however large the piece.
        let run = 256 * block as usize;
        for (k, bytes) in bytes.chunks(run).enumerate() {
            self.crcs.clear();
            for piece in bytes.chunks(block as usize) {
                self.crcs
                    .extend_from_slice(&crc32fast::hash(piece).to_le_bytes());
            }
            if let Some(at) = self.crc_offsets[column] {
                let first = start / block + (k * 256) as u64;
                self.file.write_all_at(&self.crcs, at + first * 4)?;
            }
        }
        Ok(())
    }

    /// An error unless `bytes` at byte `start` of column `column` are whole
    /// blocks of it (the last possibly short where the column ends).
    fn whole_blocks(&self, column: usize, start: u64, bytes: &[u8]) -> io::Result<()> {
        let block = u64::from(format::BLOCK_LEN);
        let len = self.infos.get(column).map_or(0, |c| c.byte_len);
        let end = start + bytes.len() as u64;
        if !start.is_multiple_of(block) || end > len || !(end.is_multiple_of(block) || end == len) {
            return Err(io::Error::other(format!(
                "bytes {start}..{end} of column {column} are not whole blocks of it"
            )));
        }
        Ok(())
    }
}

/// Bytes of block CRCs read back at a time: 1 MiB.
const READ_BACK: usize = 1 << 20;

/// Writes the table file `path` of `puzzle` on `shape` (the full Euler
/// tables or not; by class of `classes`, version 5, when given) with the
/// other ranks of `ranks`, each writing its own ranges through `fill`:
/// [`write_columns`] with the puzzle's columns.
///
/// # Errors
///
/// Those of [`write_columns`], `fill`'s errors as `error` of
/// [`TableError::Io`].
#[allow(clippy::too_many_arguments)]
pub(crate) fn write_parts<E: OtherRank>(
    path: &Path,
    puzzle: Puzzle,
    shape: Shape,
    full: bool,
    classes: Option<&Classes>,
    ranks: &dyn Ranks,
    fill: impl FnOnce(&mut Parts<'_>) -> io::Result<()>,
    error: impl Fn(TableError) -> E,
) -> Result<u64, E> {
    let infos = layout_infos(puzzle, shape, full, classes.map(Classes::sizes)).map_err(&error)?;
    let index = classes.map(IndexHeader::of);
    let header = FileHeader {
        name: puzzle.name(),
        shape,
        version: if index.is_some() { VERSION_5 } else { VERSION },
        columns: &infos,
        index: index.as_ref(),
    };
    write_columns(
        path,
        header,
        ranks,
        |parts| fill(parts).map_err(|e| error(TableError::Io(e))),
        &error,
    )
}

/// What the header of a file [`write_columns`] writes says.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FileHeader<'a> {
    /// The header's `puzzle` field: what the table is for.
    pub(crate) name: &'a str,
    /// The board.
    pub(crate) shape: Shape,
    /// The columns, in file order.
    pub(crate) columns: &'a [ColumnInfo],
    /// The layout version: 3, 5 or 6 ([`Layout::version`](super::Layout::version)).
    pub(crate) version: u32,
    /// Version 5's `index` field; `None` for the other versions.
    pub(crate) index: Option<&'a IndexHeader>,
}

/// Writes the table file `path` (what `header` says: version 3, or 5 with
/// the header's `index` field when it has one) with the other ranks of
/// `ranks`, each writing its own ranges through `fill`; every block of
/// every column must be written by exactly one rank. Every rank calls
/// `fill` at once, once every rank has the file open: it may exchange data
/// with the other ranks, and must make the same collective calls on every
/// rank whatever fails. The file is made under a temporary name beside
/// `path` and renamed once complete (a symbolic link is followed); `path`
/// must be a regular file or a new name, on a file system every rank sees.
/// Returns the file's length on every rank.
///
/// The errors are the caller's `E`: a job's own (its cancel, its other
/// ranks' failure) are not a table file's, so the writer hands its I/O
/// errors to `error` as [`TableError::Io`] and says another rank failed by
/// [`OtherRank::other_rank`].
///
/// # Errors
///
/// A failing rank's error: `fill`'s, or `error` of an I/O error (also when
/// the blocks written do not cover the columns or `path` is a device or a
/// pipe); [`OtherRank::other_rank`] on the other ranks.
pub(crate) fn write_columns<E: OtherRank>(
    path: &Path,
    header: FileHeader<'_>,
    ranks: &dyn Ranks,
    fill: impl FnOnce(&mut Parts<'_>) -> Result<(), E>,
    error: impl Fn(TableError) -> E,
) -> Result<u64, E> {
    let FileHeader {
        name: header_name,
        shape,
        version,
        columns: infos,
        index,
    } = header;
    let io = |e: io::Error| error(TableError::Io(e));
    let (_, placed, file_len) = format::encode_header(
        header_name,
        shape,
        version,
        infos,
        &vec![0; infos.len()],
        index,
    );
    let root = ranks.rank() == 0;

    // Rank 0 makes the file at its full length, beside the file a symbolic
    // link names (as `Table::write` does); every rank learns its absolute
    // name.
    let temp = root.then(|| match destination(path) {
        Destination::Replace(target) => create(&target, file_len).map(|temp| (temp, target)),
        Destination::InPlace => Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "{} is not a regular file: the ranks of a job write a table file in parts, under a \
                 temporary name renamed once complete",
                path.display()
            ),
        )),
    });
    let (temp, name) = match temp {
        Some(Ok((temp, target))) => {
            let name = path_bytes(&temp.path);
            (Some((temp, target)), Ok(name))
        }
        Some(Err(e)) => (None, Err(e)),
        None => (None, Ok(Vec::new())),
    };
    let names = ranks::agree_gather(ranks, name.map_err(io))?;
    let temp_path = bytes_path(&names[0]);

    // Every rank writes its ranges at once (`fill` may exchange data with
    // the other ranks), the columns' bytes past the page cache where the
    // file system allows it: through the cache, the ranks of one machine
    // contended for the file's lock in the kernel (measured on ext4: a
    // third of the write's time spinning on it), and each page cost an
    // allocation and a copy.
    let file = OpenOptions::new().write(true).open(&temp_path);
    let file = ranks::agree(ranks, file.map_err(io))?;
    let written = (|| -> Result<Vec<u64>, E> {
        let mut parts = Parts {
            file: &file,
            infos,
            offsets: placed.iter().map(|p| p.offset).collect(),
            crc_offsets: placed.iter().map(|p| p.block_crcs).collect(),
            written: vec![0; infos.len()],
            crcs: Vec::new(),
            direct: DirectWrites::open(&temp_path),
        };
        fill(&mut parts)?;
        let written = parts.written;
        file.sync_all().map_err(io)?;
        Ok(written)
    })();
    // Every block of every column written once (a block written twice and
    // one missed would pass this count; the byte-identical tests catch
    // such a fill).
    let counts = written.map(|w| w.iter().flat_map(|w| w.to_le_bytes()).collect());
    let counts = ranks::agree_gather(ranks, counts)?;

    // Every rank hashes its share of each block-CRC array, synced by every
    // rank above, read back; rank 0 combines the shares.
    let shares = (|| -> io::Result<Vec<u8>> {
        let file = File::open(&temp_path)?;
        let mut buf = vec![0u8; READ_BACK];
        let mut mine = Vec::new();
        for (c, place) in infos.iter().zip(&placed) {
            let blocks = format::block_count(c.byte_len, format::BLOCK_LEN) as usize;
            let share = crate::ranks::share(blocks, ranks.rank(), ranks.size());
            let mut hasher = crc32fast::Hasher::new();
            if let Some(at) = place.block_crcs {
                let (mut from, to) = (at + share.start as u64 * 4, at + share.end as u64 * 4);
                while from < to {
                    let n = ((to - from) as usize).min(READ_BACK);
                    file.read_exact_at(&mut buf[..n], from)?;
                    hasher.update(&buf[..n]);
                    from += n as u64;
                }
            }
            let part = PartCrc {
                crc: hasher.finalize(),
                len: share.len() as u64 * 4,
            };
            mine.extend_from_slice(&part.to_bytes());
        }
        Ok(mine)
    })();
    let shares = ranks::agree_gather(ranks, shares.map_err(io))?;

    // Rank 0 writes the header, then renames.
    let finished = match temp {
        Some((mut temp, path)) => (|| -> io::Result<()> {
            for (k, c) in infos.iter().enumerate() {
                let blocks = format::block_count(c.byte_len, format::BLOCK_LEN);
                let done: u64 = counts
                    .iter()
                    .map(|b| u64::from_le_bytes(b[k * 8..][..8].try_into().unwrap_or_default()))
                    .sum();
                if done != blocks {
                    return Err(io::Error::other(format!(
                        "{done} blocks of column {} written, of {blocks}",
                        c.name
                    )));
                }
            }
            let column_crcs: Vec<u32> = (0..infos.len())
                .map(|k| {
                    let parts: Vec<PartCrc> = shares
                        .iter()
                        .map(|b| PartCrc::from_bytes(&b[k * PartCrc::LEN..][..PartCrc::LEN]))
                        .collect();
                    PartCrc::combine(&parts)
                })
                .collect();
            let (header, placed_again, len) =
                format::encode_header(header_name, shape, version, infos, &column_crcs, index);
            debug_assert_eq!((placed_again.len(), len), (placed.len(), file_len));
            temp.file.write_all_at(&header, 0)?;
            temp.file.sync_all()?;
            std::fs::rename(&temp.path, &path)?;
            temp.renamed = true;
            if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty())
                && let Ok(dir) = File::open(dir)
            {
                let _ = dir.sync_all();
            }
            Ok(())
        })(),
        None => Ok(()),
    };
    ranks::agree(ranks, finished.map_err(io))?;
    Ok(file_len)
}

/// Makes the temporary file of `path`, `len` bytes of zeros.
fn create(path: &Path, len: u64) -> io::Result<TempFile> {
    let (dir, name) = dir_and_name(path)?;
    // Absolute, for ranks whose working directory differs.
    let dir = std::fs::canonicalize(dir)?;
    let temp = TempFile::create(&dir, name)?;
    temp.file.set_len(len)?;
    Ok(temp)
}

/// A path as bytes, to send to other ranks, and back.
#[cfg(unix)]
fn path_bytes(path: &Path) -> Vec<u8> {
    use std::os::unix::ffi::OsStrExt;
    path.as_os_str().as_bytes().to_vec()
}

#[cfg(unix)]
fn bytes_path(bytes: &[u8]) -> PathBuf {
    use std::os::unix::ffi::OsStrExt;
    PathBuf::from(std::ffi::OsStr::from_bytes(bytes))
}

#[cfg(not(unix))]
fn path_bytes(path: &Path) -> Vec<u8> {
    path.to_string_lossy().into_owned().into_bytes()
}

#[cfg(not(unix))]
fn bytes_path(bytes: &[u8]) -> PathBuf {
    PathBuf::from(String::from_utf8_lossy(bytes).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_combine_to_the_crc_of_the_whole() {
        let bytes: Vec<u8> = (0..10_000u32).map(|i| (i * 7 + i / 13) as u8).collect();
        let whole = crc32fast::hash(&bytes);
        for cuts in [&[][..], &[0], &[1, 4096], &[3, 3, 9_999], &[5_000, 10_000]] {
            let mut parts = Vec::new();
            let mut from = 0;
            for &to in cuts.iter().chain([&bytes.len()]) {
                parts.push(PartCrc {
                    crc: crc32fast::hash(&bytes[from..to]),
                    len: (to - from) as u64,
                });
                from = to;
            }
            assert_eq!(PartCrc::combine(&parts), whole, "{cuts:?}");
        }
    }
}
