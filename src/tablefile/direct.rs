//! Table files written past the page cache (Linux's `O_DIRECT`) where the
//! file system allows it. A table is written once, whole, and read later
//! by mapping it; caching its pages as they are written only costs: a page
//! of the cache allocated, filled and written back for every 4 KiB. On the
//! 2-core machine of docs/performance.md, the 6x6 table's write (8 GiB,
//! the generator's 8 GiB held) took 8 to 10 s this way, 34 to 39 s
//! through the cache.
//! The whole pages of a write go straight to the disk; the partial pages
//! at its ends, and everything where the file system refuses (tmpfs) or
//! the platform has no such writes, go through the cache as before. A page
//! is written one way only: a write covers it whole or it does not.

use std::fs::File;
use std::io;
use std::path::Path;

use memmap2::MmapMut;

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

/// The system's page, 4 KiB at least: what a direct write's memory, offset
/// and length are multiples of (it covers every device's logical block),
/// and what a write covers whole or not at all. With larger pages (64 KiB
/// on some aarch64 and ppc64le systems) a page shared by two writes must
/// not be written directly in part: the cache's copy of the rest would be
/// stale.
fn page() -> usize {
    #[cfg(unix)]
    {
        // SAFETY: sysconf reads a constant of the system; no memory is
        // passed.
        let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
        if page > 4096 {
            return page as usize;
        }
    }
    4096
}

/// Bytes of the aligned buffer writes are copied through (or streamed into).
pub(crate) const BUFFER: usize = 1 << 20;

/// A second descriptor of a file, opened for direct writes, and an aligned
/// buffer to copy unaligned bytes through. Writes fall back to the cache
/// for good at the first direct write the file system refuses.
pub(crate) struct DirectWrites {
    direct: Option<File>,
    buffer: Option<MmapMut>,
    page: usize,
}

impl DirectWrites {
    /// Direct writes to the file at `path`, where it can be opened for
    /// them; otherwise every write goes through the cache.
    pub(crate) fn open(path: &Path) -> DirectWrites {
        DirectWrites {
            direct: open_direct(path),
            buffer: None,
            page: page(),
        }
    }

    /// The page writes are aligned to (see [`page`]).
    pub(crate) fn page(&self) -> usize {
        self.page
    }

    /// Writes `bytes` at `offset` of `file` (the file this was opened on):
    /// its whole pages directly, the partial pages at either end through
    /// `file`.
    pub(crate) fn write_all_at(
        &mut self,
        file: &File,
        bytes: &[u8],
        offset: u64,
    ) -> io::Result<()> {
        let page = self.page as u64;
        let end = offset + bytes.len() as u64;
        let first = offset.next_multiple_of(page);
        let last = end / page * page;
        if self.direct.is_none() || first >= last {
            return file.write_all_at(bytes, offset);
        }
        let (head, rest) = bytes.split_at((first - offset) as usize);
        let (whole, tail) = rest.split_at((last - first) as usize);
        file.write_all_at(head, offset)?;
        self.write_pages(file, whole, first)?;
        file.write_all_at(tail, last)
    }

    /// Writes whole pages `bytes` at `offset`, a page boundary: straight
    /// from `bytes` when they are aligned in memory, else through the
    /// buffer.
    fn write_pages(&mut self, file: &File, bytes: &[u8], offset: u64) -> io::Result<()> {
        if (bytes.as_ptr() as usize).is_multiple_of(self.page) {
            for (k, piece) in bytes.chunks(8 * BUFFER).enumerate() {
                self.write_direct(file, piece, offset + (k * 8 * BUFFER) as u64)?;
            }
            return Ok(());
        }
        if self.buffer.is_none() {
            // Without its buffer (no memory for 1 MiB), through the cache.
            self.buffer = MmapMut::map_anon(BUFFER).ok();
        }
        let Some(mut buffer) = self.buffer.take() else {
            return file.write_all_at(bytes, offset);
        };
        let mut written = Ok(());
        for (k, piece) in bytes.chunks(BUFFER).enumerate() {
            buffer[..piece.len()].copy_from_slice(piece);
            written = self.write_direct(file, &buffer[..piece.len()], offset + (k * BUFFER) as u64);
            if written.is_err() {
                break;
            }
        }
        self.buffer = Some(buffer);
        written
    }

    /// One direct write of aligned whole pages; through the cache, from
    /// now on, if the file system refuses it.
    fn write_direct(&mut self, file: &File, pages: &[u8], offset: u64) -> io::Result<()> {
        let Some(direct) = &self.direct else {
            return file.write_all_at(pages, offset);
        };
        match direct.write_all_at(pages, offset) {
            Err(e) if e.kind() == io::ErrorKind::InvalidInput => {
                self.direct = None;
                file.write_all_at(pages, offset)
            }
            written => written,
        }
    }
}

#[cfg(target_os = "linux")]
fn open_direct(path: &Path) -> Option<File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .write(true)
        .custom_flags(libc::O_DIRECT)
        .open(path)
        .ok()
}

#[cfg(not(target_os = "linux"))]
fn open_direct(_: &Path) -> Option<File> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bytes written at every alignment, in memory and in the file, read
    /// back as written, on the temporary directory's file system (direct
    /// or not).
    #[test]
    fn writes_at_any_offset_read_back() {
        let dir = std::env::temp_dir().join(format!("boardbase-direct-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("scratch directory");
        let path = dir.join("f");
        let file = File::create(&path).expect("file");
        let len = 3 * BUFFER + 5000;
        file.set_len(len as u64).expect("length");
        let data: Vec<u8> = (0..len).map(|i| (i * 7 + i / 4096) as u8).collect();
        let mut writes = DirectWrites::open(&path);
        // Pieces of awkward lengths from awkward offsets, covering the file.
        let mut at = 0;
        for (k, piece) in [1, 4095, 4097, 100, BUFFER + 3, 8192, BUFFER]
            .iter()
            .enumerate()
        {
            let end = (at + piece).min(len);
            // Unaligned in memory too: copied from a shifted vector.
            let shifted: Vec<u8> = std::iter::repeat_n(0, k % 3)
                .chain(data[at..end].iter().copied())
                .collect();
            writes
                .write_all_at(&file, &shifted[k % 3..], at as u64)
                .expect("write");
            at = end;
        }
        writes
            .write_all_at(&file, &data[at..], at as u64)
            .expect("write");
        drop(writes);
        assert!(std::fs::read(&path).expect("read") == data);

        std::fs::remove_dir_all(&dir).expect("clean up");
    }
}
