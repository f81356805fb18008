//! A table file written by the ranks of a job at once (see
//! [`crate::ranks`]): each rank writes its own ranges of the columns in
//! place and hashes their blocks; rank 0 makes the file, and writes the
//! header and the block-CRC arrays from every rank's CRCs. The bytes are
//! those [`Table::write`](super::Table::write) writes for the same table.

use std::fs::{File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};

use boardbase_solvers::shape::Shape;

use super::write::{Destination, TempFile, destination, dir_and_name};
use super::{ColumnInfo, Puzzle, TableError, VERSION, format, layout_infos};
use crate::ranks::{Ranks, first_failed};

/// The length of the blocks the writer checksums: 4 KiB.
pub(crate) const BLOCK_LEN: u32 = format::BLOCK_LEN;

#[cfg(unix)]
pub(crate) use std::os::unix::fs::FileExt;

/// Positioned reads and writes where the platform has no `FileExt` with
/// them (it is Unix's): through the file's own offset, which nothing else
/// uses. Each file they are used on is read or written by one thread at a
/// time, so no two of these calls interleave.
#[cfg(not(unix))]
pub(crate) trait FileExt {
    fn read_exact_at(&self, buf: &mut [u8], offset: u64) -> io::Result<()>;
    fn write_all_at(&self, buf: &[u8], offset: u64) -> io::Result<()>;
}

#[cfg(not(unix))]
impl FileExt for File {
    fn read_exact_at(&self, buf: &mut [u8], offset: u64) -> io::Result<()> {
        use std::io::{Read, Seek, SeekFrom};
        let mut file = self;
        file.seek(SeekFrom::Start(offset))?;
        file.read_exact(buf)
    }

    fn write_all_at(&self, buf: &[u8], offset: u64) -> io::Result<()> {
        use std::io::{Seek, SeekFrom, Write};
        let mut file = self;
        file.seek(SeekFrom::Start(offset))?;
        file.write_all(buf)
    }
}

/// One rank's writer of its ranges of the columns.
pub(crate) struct Parts<'a> {
    file: &'a File,
    infos: &'a [ColumnInfo],
    offsets: Vec<u64>,
    /// (column, block, CRC) of every block written.
    crcs: Vec<u8>,
}

impl Parts<'_> {
    /// Writes `bytes` (as the file stores them) at byte `start` of column
    /// `column`: whole 4 KiB blocks, the last possibly short where the
    /// column ends.
    pub(crate) fn put(&mut self, column: usize, start: u64, bytes: &[u8]) -> io::Result<()> {
        let block = u64::from(format::BLOCK_LEN);
        let len = self.infos.get(column).map_or(0, |c| c.byte_len);
        let end = start + bytes.len() as u64;
        if !start.is_multiple_of(block) || end > len || !(end.is_multiple_of(block) || end == len) {
            return Err(io::Error::other(format!(
                "bytes {start}..{end} of column {column} are not whole blocks of it"
            )));
        }
        self.file
            .write_all_at(bytes, self.offsets[column] + start)?;
        for (k, piece) in bytes.chunks(block as usize).enumerate() {
            self.crcs.extend_from_slice(&(column as u32).to_le_bytes());
            self.crcs
                .extend_from_slice(&(start / block + k as u64).to_le_bytes());
            self.crcs
                .extend_from_slice(&crc32fast::hash(piece).to_le_bytes());
        }
        Ok(())
    }
}

/// Bytes of one block's entry in the CRCs gathered: column, block, CRC.
const ENTRY: usize = 4 + 8 + 4;

/// Writes the table file `path` of `puzzle` on `shape` (the full Euler
/// tables or not) with the other ranks of `ranks`, each writing its own
/// ranges through `fill`; every block of every column must be written by
/// exactly one rank. The file is made under a temporary name beside `path`
/// and renamed once complete, as [`Table::write`](super::Table::write)
/// does (a symbolic link is followed); `path` must be a regular file or a
/// new name, on a file system every rank sees. Returns the file's length
/// on every rank.
///
/// # Errors
///
/// A failing rank's I/O error ([`TableError::Io`], also when the blocks
/// written do not cover the columns or `path` is a device or a pipe), and
/// [`TableError::OtherRank`] on the other ranks.
pub(crate) fn write_parts(
    path: &Path,
    puzzle: Puzzle,
    shape: Shape,
    full: bool,
    ranks: &dyn Ranks,
    fill: impl FnOnce(&mut Parts<'_>) -> io::Result<()>,
) -> Result<u64, TableError> {
    let infos = layout_infos(puzzle, shape, full)?;
    let (_, placed, file_len) =
        format::encode_header(puzzle, shape, VERSION, &infos, &vec![0; infos.len()]);
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
    let name = match &temp {
        Some(Ok((temp, _))) => path_bytes(&temp.path),
        _ => Vec::new(),
    };
    let names = ranks.gather_bytes(&name);
    let temp = match temp {
        Some(made) => Some(agree(ranks, made)?),
        None => {
            agree(ranks, Ok(()))?;
            None
        }
    };
    let temp_path = bytes_path(&names[0]);

    // Every rank writes its ranges.
    // The ranks of one machine write in turn: at once, they would contend
    // for the file's lock in the kernel (measured on ext4: a third of the
    // write's time spinning on it) for no more bandwidth. Machines write
    // at once, and every rank syncs its part after the turns.
    let mut fill = Some(fill);
    let mut written = Err(io::Error::other("no turn to write"));
    let turns = ranks.max(ranks.local_size() as u64) as usize;
    for turn in 0..turns {
        if turn == ranks.local_rank()
            && let Some(fill) = fill.take()
        {
            written = (|| {
                let file = OpenOptions::new().write(true).open(&temp_path)?;
                let mut parts = Parts {
                    file: &file,
                    infos: &infos,
                    offsets: placed.iter().map(|p| p.offset).collect(),
                    crcs: Vec::new(),
                };
                fill(&mut parts)?;
                let crcs = parts.crcs;
                Ok((file, crcs))
            })();
        }
        ranks.sum(0);
    }
    let written = written.and_then(|(file, crcs)| file.sync_all().map(|()| crcs));
    let crcs = agree(ranks, written)?;
    let gathered = ranks.gather_bytes(&crcs);
    drop(crcs);

    // Rank 0 writes the header and the block-CRC arrays, then renames.
    let finished = match temp {
        Some((mut temp, path)) => (|| {
            let mut arrays: Vec<Vec<Option<u32>>> = infos
                .iter()
                .map(|c| vec![None; format::block_count(c.byte_len, format::BLOCK_LEN) as usize])
                .collect();
            for entry in gathered.iter().flat_map(|bytes| bytes.chunks_exact(ENTRY)) {
                let column = u32::from_le_bytes(entry[..4].try_into().unwrap_or_default());
                let block = u64::from_le_bytes(entry[4..12].try_into().unwrap_or_default());
                let crc = u32::from_le_bytes(entry[12..].try_into().unwrap_or_default());
                let slot = arrays
                    .get_mut(column as usize)
                    .and_then(|a| a.get_mut(block as usize));
                match slot {
                    Some(slot @ None) => *slot = Some(crc),
                    _ => {
                        return Err(io::Error::other(format!(
                            "block {block} of column {column} written twice or out of range"
                        )));
                    }
                }
            }
            let mut bytes = Vec::with_capacity(arrays.len());
            for (c, array) in infos.iter().zip(&arrays) {
                let mut b = Vec::with_capacity(array.len() * 4);
                for (k, crc) in array.iter().enumerate() {
                    let crc = crc.ok_or_else(|| {
                        io::Error::other(format!("block {k} of column {} not written", c.name))
                    })?;
                    b.extend_from_slice(&crc.to_le_bytes());
                }
                bytes.push(b);
            }
            let column_crcs: Vec<u32> = bytes.iter().map(|b| crc32fast::hash(b)).collect();
            let (header, placed_again, len) =
                format::encode_header(puzzle, shape, VERSION, &infos, &column_crcs);
            debug_assert_eq!((placed_again.len(), len), (placed.len(), file_len));
            temp.file.write_all_at(&header, 0)?;
            for (place, b) in placed.iter().zip(&bytes) {
                if let Some(at) = place.block_crcs {
                    temp.file.write_all_at(b, at)?;
                }
            }
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
    agree(ranks, finished)?;
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

/// Every rank's outcome of a step, agreed: this rank's value when every
/// rank succeeded, its own error where it failed, and where another rank
/// failed, [`TableError::OtherRank`] naming the first that did.
fn agree<T>(ranks: &dyn Ranks, result: io::Result<T>) -> Result<T, TableError> {
    match (first_failed(ranks, result.is_err()), result) {
        (_, Err(e)) => Err(TableError::Io(e)),
        (Some(rank), Ok(_)) => Err(TableError::OtherRank { rank }),
        (None, Ok(value)) => Ok(value),
    }
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
