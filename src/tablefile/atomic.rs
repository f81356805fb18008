//! Files written whole or not at all: to a temporary name beside the
//! target (`.NAME.PID-N.tmp`), renamed when complete, or in place when the
//! target is a device, a pipe or a terminal; and the removal of this
//! process's temporary files when it is interrupted. Every writer of
//! table files and checkpoints goes through it.

use std::ffi::OsStr;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

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

/// The name of a temporary file of [`Table::write`](super::Table::write) for `name`, in this
/// process: `.NAME.PID-N.tmp`.
fn temporary_name(name: &OsStr, n: u64) -> String {
    format!(".{}.{}-{n}.tmp", name.to_string_lossy(), std::process::id())
}

/// Removes the temporary files this process's [`Table::write`](super::Table::write) (or an
/// [`AtomicFile`]) has made for `path` and not renamed yet (`.NAME.PID-N.tmp` in its directory), and
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

/// The directory of `path` (`.` for a bare name) and its file name.
pub(crate) fn dir_and_name(path: &Path) -> io::Result<(&Path, &OsStr)> {
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
    Ok((dir, name))
}

/// A temporary file in the target's directory, removed on drop unless it
/// was renamed.
pub(crate) struct TempFile {
    pub(crate) path: PathBuf,
    pub(crate) file: File,
    pub(crate) renamed: bool,
}

impl TempFile {
    /// Creates `.NAME.PID-N.tmp` in `dir`, a name no other file has.
    pub(crate) fn create(dir: &Path, name: &OsStr) -> io::Result<TempFile> {
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

/// A file written whole or not at all, as [`Table::write`](super::Table::write) writes a table:
/// to a temporary file beside it (`.NAME.PID-N.tmp`, which
/// [`remove_temporary_files`] finds again), renamed to its name by
/// [`commit`](Self::commit) and removed if dropped before; or, when the
/// path is a device, a pipe or a terminal (see [`destination`]), the path
/// itself, written in place. Symbolic links are followed: the file they
/// point to is replaced.
pub struct AtomicFile {
    target: Target,
}

/// Where an [`AtomicFile`]'s bytes go.
enum Target {
    /// The device or pipe itself.
    InPlace(File),
    /// A temporary file, and the file it is renamed to.
    Replace(TempFile, PathBuf),
}

impl AtomicFile {
    /// Creates the temporary file for `path` (or opens `path` itself, a
    /// device or a pipe, for writing).
    pub fn create(path: &Path) -> io::Result<AtomicFile> {
        let target = match destination(path) {
            Destination::InPlace => Target::InPlace(OpenOptions::new().write(true).open(path)?),
            Destination::Replace(real) => {
                let (dir, name) = dir_and_name(&real)?;
                Target::Replace(TempFile::create(dir, name)?, real)
            }
        };
        Ok(AtomicFile { target })
    }

    /// The file being written.
    pub fn file(&self) -> &File {
        match &self.target {
            Target::InPlace(file) => file,
            Target::Replace(temp, _) => &temp.file,
        }
    }

    /// Syncs the temporary file to the disk, renames it to its name and
    /// syncs the directory (written in place: nothing to do).
    pub fn commit(self) -> io::Result<()> {
        self.finish(true)
    }

    /// Renames the temporary file to its name, syncing it first when
    /// `sync` (a small file a crash may lose is not synced: each sync
    /// waits for the disk).
    fn finish(mut self, sync: bool) -> io::Result<()> {
        if let Target::Replace(temp, real) = &mut self.target {
            if sync {
                temp.file.sync_all()?;
            }
            fs::rename(&temp.path, &*real)?;
            temp.renamed = true;
            // Make the rename itself durable; not every system can open a
            // directory, and the file is complete either way.
            if sync
                && let Some(dir) = real.parent()
                && let Ok(dir) = File::open(if dir.as_os_str().is_empty() {
                    Path::new(".")
                } else {
                    dir
                })
            {
                let _ = dir.sync_all();
            }
        }
        Ok(())
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.file().write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file().flush()
    }
}

/// Writes `bytes` to `path` whole or not at all through an
/// [`AtomicFile`], without waiting for the disk: for small files such as a
/// saved run of `check`.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut file = AtomicFile::create(path)?;
    file.write_all(bytes)?;
    file.finish(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A directory of its own for one test.
    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("boardbase-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).expect("scratch directory");
        dir
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .expect("listed")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn an_atomic_file_appears_whole_at_its_commit_and_not_before() {
        let dir = scratch("atomic-file");
        let path = dir.join("answers.txt");
        fs::write(&path, "old\n").expect("written");
        let mut file = AtomicFile::create(&path).expect("created");
        file.write_all(b"new\n").expect("written");
        // Until the commit: the old file, and one temporary file that
        // `remove_temporary_files` knows.
        assert_eq!(fs::read_to_string(&path).expect("read"), "old\n");
        let listed = names(&dir);
        assert_eq!(listed.len(), 2, "{listed:?}");
        let temporary = format!(".answers.txt.{}-", std::process::id());
        assert!(listed[0].starts_with(&temporary), "{listed:?}");
        assert!(listed[0].ends_with(".tmp"), "{listed:?}");
        file.commit().expect("committed");
        assert_eq!(fs::read_to_string(&path).expect("read"), "new\n");
        assert_eq!(names(&dir), ["answers.txt"]);
        // Dropped before its commit: nothing is left, the old file stays.
        let mut file = AtomicFile::create(&path).expect("created");
        file.write_all(b"lost\n").expect("written");
        drop(file);
        assert_eq!(names(&dir), ["answers.txt"]);
        assert_eq!(fs::read_to_string(&path).expect("read"), "new\n");
        // A small file in one call; a temporary file left by a killed
        // write is found again.
        write_atomically(&dir.join("run-1.in"), b"1\n").expect("written");
        assert_eq!(fs::read(dir.join("run-1.in")).expect("read"), b"1\n");
        let file = AtomicFile::create(&path).expect("created");
        std::mem::forget(file);
        assert_eq!(remove_temporary_files(&path), 1);
        assert_eq!(names(&dir), ["answers.txt", "run-1.in"]);
        let _ = fs::remove_dir_all(&dir);
    }

    #[cfg(unix)]
    #[test]
    fn an_atomic_file_on_a_device_writes_the_device() {
        let mut file = AtomicFile::create(Path::new("/dev/null")).expect("opened");
        file.write_all(b"nothing\n").expect("written");
        file.commit().expect("committed");
        assert!(Path::new("/dev/null").exists());
        write_atomically(Path::new("/dev/null"), b"x").expect("written");
    }
}
