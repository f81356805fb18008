//! Writing a table as a version-2 file: the columns streamed through a
//! fixed buffer, to a temporary file renamed when complete.

use std::ffi::OsStr;
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use super::{ColumnData, Data, Phase, Progress, Table, TableError, check_columns, format};
use crate::progress::Cancel;

/// Bytes handed over at a time when streaming a column.
const CHUNK: usize = 1 << 20;

/// Memory [`Table::write`] allocates besides the table itself: the file's
/// write buffer and the buffer a column is converted through (1 MiB each),
/// and the header (at most 64 KiB).
pub const WRITE_MEMORY: u64 = 2 * CHUNK as u64 + (64 << 10);

/// Zero bytes for padding.
const ZEROS: [u8; format::ALIGN as usize] = [0; format::ALIGN as usize];

impl Table {
    /// Calls `f` with the bytes of column `column` as the file stores them
    /// (little-endian, 1-bit entries packed, unused bits 0), at most
    /// [`CHUNK`] bytes at a time.
    pub(crate) fn column_chunks(
        &self,
        column: usize,
        f: &mut dyn FnMut(&[u8]) -> Result<(), TableError>,
    ) -> Result<(), TableError> {
        let Some(c) = self.columns.get(column) else {
            return Ok(());
        };
        let data = match &c.data {
            Data::File { .. } => {
                let bytes = self.file_bytes(column).unwrap_or(&[]);
                return bytes.chunks(CHUNK).try_for_each(f);
            }
            Data::Owned(data) => data,
        };
        let mut buf = Vec::with_capacity(CHUNK);
        fn each<T: Copy, const N: usize>(
            values: &[T],
            le: impl Fn(T) -> [u8; N],
            buf: &mut Vec<u8>,
            f: &mut dyn FnMut(&[u8]) -> Result<(), TableError>,
        ) -> Result<(), TableError> {
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
                let len = c.info.byte_len as usize;
                let mut left = len;
                for chunk in words.chunks(CHUNK / 8) {
                    buf.clear();
                    for &w in chunk {
                        buf.extend_from_slice(&w.to_le_bytes());
                    }
                    buf.truncate(left);
                    left -= buf.len();
                    if left == 0 && entries % 8 != 0 {
                        if let Some(last) = buf.last_mut() {
                            *last &= (1u8 << (entries % 8)) - 1;
                        }
                    }
                    f(&buf)?;
                    if left == 0 {
                        break;
                    }
                }
                Ok(())
            }
        }
    }

    /// Writes the table as a version-2 file to `out`, returning its length.
    ///
    /// The column CRCs are computed first (one pass over the columns; a
    /// mapped column's stored CRC is checked on the way, so a damaged file
    /// is never copied under a new CRC), then the header and the columns
    /// are written in order, streamed through a 1 MiB buffer. `progress`
    /// hears of both passes ([`Phase::Checksum`], [`Phase::Write`]).
    ///
    /// A version-1 Flip table cannot be written: it lacks the per-colour
    /// columns of version 2 ([`TableError::MissingColumn`]).
    pub fn write_to(
        &self,
        out: &mut impl Write,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<u64, TableError> {
        self.write_to_cancellable(out, progress, None)
    }

    /// [`write_to`](Table::write_to), stopping with
    /// [`TableError::Cancelled`] between chunks of 1 MiB once `cancel` is
    /// cancelled.
    fn write_to_cancellable(
        &self,
        out: &mut impl Write,
        progress: &mut dyn FnMut(Progress),
        cancel: Option<&Cancel>,
    ) -> Result<u64, TableError> {
        let stop = || match cancel {
            Some(cancel) if cancel.is_cancelled() => Err(TableError::Cancelled),
            _ => Ok(()),
        };
        stop()?;
        let infos: Vec<_> = self.columns().cloned().collect();
        check_columns(self.puzzle, self.shape, &infos)?;
        let total: u64 = infos.iter().map(|c| c.byte_len).sum();

        let mut crcs = Vec::with_capacity(infos.len());
        let mut done = 0u64;
        for (i, info) in infos.iter().enumerate() {
            let mut hasher = crc32fast::Hasher::new();
            self.column_chunks(i, &mut |bytes| {
                stop()?;
                hasher.update(bytes);
                done += bytes.len() as u64;
                progress(Progress {
                    phase: Phase::Checksum,
                    done,
                    total,
                });
                Ok(())
            })?;
            let computed = hasher.finalize();
            if let (Data::File { .. }, Some(stored)) = (&self.columns[i].data, info.crc) {
                if stored != computed {
                    return Err(TableError::ColumnCrc {
                        column: info.name.clone(),
                        stored,
                        computed,
                    });
                }
            }
            crcs.push(computed);
        }

        let (header, offsets, file_len) =
            format::encode_header(self.puzzle, self.shape, &infos, &crcs);
        out.write_all(&header)?;
        let mut at = header.len() as u64;
        let mut done = 0u64;
        for (i, &offset) in offsets.iter().enumerate() {
            while at < offset {
                let n = (offset - at).min(ZEROS.len() as u64) as usize;
                out.write_all(&ZEROS[..n])?;
                at += n as u64;
            }
            self.column_chunks(i, &mut |bytes| {
                stop()?;
                out.write_all(bytes)?;
                at += bytes.len() as u64;
                done += bytes.len() as u64;
                progress(Progress {
                    phase: Phase::Write,
                    done,
                    total,
                });
                Ok(())
            })?;
        }
        debug_assert_eq!(at, file_len);
        Ok(file_len)
    }

    /// The table as the bytes of a version-2 file (for small tables; see
    /// [`Table::write`] for files).
    pub fn to_bytes(&self) -> Result<Vec<u8>, TableError> {
        let mut bytes = Vec::with_capacity(usize::try_from(self.file_len).unwrap_or(0));
        self.write_to(&mut bytes, &mut |_| {})?;
        Ok(bytes)
    }

    /// Writes the table as a version-2 file at `path` and returns its
    /// length.
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
        self.write_maybe_cancelled(path.as_ref(), progress, None)
    }

    /// [`write`](Table::write), stopping once `cancel` is cancelled: the
    /// write is checked between chunks of 1 MiB, and a cancelled write
    /// removes its temporary file and returns [`TableError::Cancelled`],
    /// leaving whatever was under `path` before (a device written in place
    /// keeps what was written).
    ///
    /// ```
    /// use boardbase::progress::Cancel;
    /// use boardbase::tablefile::{Puzzle, Table, TableError};
    ///
    /// let dir = std::env::temp_dir().join(format!("boardbase-doc-cancel-{}", std::process::id()));
    /// std::fs::create_dir_all(&dir)?;
    /// let path = dir.join("euler-4x4.bin");
    /// let cancel = Cancel::new();
    /// // Cancelled from the progress callback, at its first report.
    /// let result = Table::embedded(Puzzle::Euler).write_cancellable(&path, &mut |_| cancel.cancel(), &cancel);
    /// assert!(matches!(result, Err(TableError::Cancelled)));
    /// assert_eq!(std::fs::read_dir(&dir)?.count(), 0); // no table, no temporary file
    /// std::fs::remove_dir(&dir)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn write_cancellable(
        &self,
        path: impl AsRef<Path>,
        progress: &mut dyn FnMut(Progress),
        cancel: &Cancel,
    ) -> Result<u64, TableError> {
        self.write_maybe_cancelled(path.as_ref(), progress, Some(cancel))
    }

    fn write_maybe_cancelled(
        &self,
        path: &Path,
        progress: &mut dyn FnMut(Progress),
        cancel: Option<&Cancel>,
    ) -> Result<u64, TableError> {
        let path = match destination(path) {
            Destination::InPlace => {
                let file = OpenOptions::new().write(true).open(path)?;
                let mut out = BufWriter::with_capacity(CHUNK, file);
                let len = self.write_to_cancellable(&mut out, progress, cancel)?;
                out.flush()?;
                return Ok(len);
            }
            Destination::Replace(path) => path,
        };
        let path = path.as_path();
        let name = path.file_name().ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("{} is not a file name", path.display()),
            )
        })?;
        let dir = match path.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir,
            _ => Path::new("."),
        };
        let mut temp = TempFile::create(dir, name)?;
        let mut out = BufWriter::with_capacity(CHUNK, &temp.file);
        let len = self.write_to_cancellable(&mut out, progress, cancel)?;
        out.flush()?;
        drop(out);
        temp.file.sync_all()?;
        // The last moment a cancel is honoured: after the rename the table
        // is complete under its name.
        if cancel.is_some_and(Cancel::is_cancelled) {
            return Err(TableError::Cancelled);
        }
        fs::rename(&temp.path, path)?;
        temp.renamed = true;
        // Make the rename itself durable; not every system can open a
        // directory, and the table is complete either way.
        if let Ok(dir) = File::open(dir) {
            let _ = dir.sync_all();
        }
        Ok(len)
    }
}

/// Where a file that is written to a temporary name and renamed when
/// complete really goes: see [`destination`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Destination {
    /// A device (`/dev/null`), a pipe (`>(...)`, a FIFO), a terminal or a
    /// socket, symbolic links followed: written in place. A rename would
    /// put a regular file where the device was (as root, over `/dev/null`
    /// itself).
    InPlace,
    /// A regular file, or a name that does not exist yet: written to a
    /// temporary file beside this path and renamed to it. Symbolic links
    /// are resolved first, so that the file they point to is replaced and
    /// the links stay (`tables/latest.bin` linked to `euler-5x6.bin`
    /// replaces `euler-5x6.bin`; `/dev/stdout` redirected to a file replaces
    /// that file, as a new file, not the link in `/dev`).
    Replace(PathBuf),
}

/// Where a write to `path` goes (see [`Destination`]).
pub fn destination(path: &Path) -> Destination {
    match fs::metadata(path) {
        Ok(m) if !m.is_file() && !m.is_dir() => Destination::InPlace,
        _ => Destination::Replace(fs::canonicalize(path).unwrap_or_else(|_| path.to_owned())),
    }
}

/// The name of a temporary file of [`Table::write`] for `name`, in this
/// process: `.NAME.PID-N.tmp`.
fn temporary_name(name: &OsStr, n: u64) -> String {
    format!(".{}.{}-{n}.tmp", name.to_string_lossy(), std::process::id())
}

/// Removes the temporary files this process's [`Table::write`] has made for
/// `path` and not renamed yet (`.NAME.PID-N.tmp` in its directory), and
/// returns how many it removed: for a signal handler, so that an
/// interrupted write leaves nothing behind. Only this process's files are
/// touched.
pub fn remove_temporary_files(path: &Path) -> usize {
    let path = match destination(path) {
        Destination::InPlace => return 0,
        Destination::Replace(path) => path,
    };
    let (Some(name), dir) = (path.file_name(), path.parent()) else {
        return 0;
    };
    let dir = match dir {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let prefix = temporary_name(name, 0);
    let prefix = &prefix[..prefix.len() - "0.tmp".len()];
    let Ok(entries) = fs::read_dir(dir) else {
        return 0;
    };
    entries
        .filter_map(Result::ok)
        .filter(|e| {
            e.file_name().to_str().is_some_and(|n| {
                n.strip_prefix(prefix)
                    .and_then(|rest| rest.strip_suffix(".tmp"))
                    .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
            })
        })
        .filter(|e| fs::remove_file(e.path()).is_ok())
        .count()
}

/// A temporary file in the target's directory, removed on drop unless it
/// was renamed.
struct TempFile {
    path: PathBuf,
    file: File,
    renamed: bool,
}

impl TempFile {
    /// Creates `.NAME.PID-N.tmp` in `dir`, a name no other file has.
    fn create(dir: &Path, name: &OsStr) -> io::Result<TempFile> {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let mut attempts = 0;
        loop {
            let n = COUNTER.fetch_add(1, Ordering::Relaxed);
            let path = dir.join(temporary_name(name, n));
            match OpenOptions::new().write(true).create_new(true).open(&path) {
                Ok(file) => {
                    return Ok(TempFile {
                        path,
                        file,
                        renamed: false,
                    });
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists && attempts < 100 => {
                    attempts += 1;
                }
                Err(e) => return Err(e),
            }
        }
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        if !self.renamed {
            let _ = fs::remove_file(&self.path);
        }
    }
}
