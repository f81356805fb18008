//! A memory cgroup a run: the memory limit held by the kernel on the whole
//! process tree, and its exact peak, as judges (isolate, DMOJ's) do.
//!
//! Each run gets a cgroup of its own, made inside the checker's own memory
//! cgroup (so the machine's limits on the checker still hold), with the
//! limit written into it (`memory.max` on cgroup v2, `memory.limit_in_bytes`
//! on v1, and no swap beyond it). The program joins it between fork and
//! exec, so everything it starts is in it too. Past the limit the kernel
//! reclaims what it can and then kills a process of the cgroup (the OOM
//! killer); the run's peak is the cgroup's (`memory.peak`,
//! `memory.max_usage_in_bytes`): the resident memory of every process of the
//! tree together, at its highest. Unlike `RLIMIT_AS`, address space a
//! program reserves and never touches costs nothing: a Java or Go program
//! is held to what it uses.
//!
//! A cgroup needs a writable cgroup file system with the memory controller
//! (root, or a delegated subtree): where there is none, [`MemoryCgroups::find`]
//! says why, and the checker falls back to `RLIMIT_AS`.

use std::ffi::CString;
use std::fs;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The cgroup file system's version.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Version {
    /// The legacy hierarchies, one a controller (`/sys/fs/cgroup/memory`).
    V1,
    /// The unified hierarchy.
    V2,
}

/// Where this process's runs can have memory cgroups: a directory of the
/// cgroup file system with the memory controller that this process may make
/// cgroups in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemoryCgroups {
    dir: PathBuf,
    version: Version,
}

/// Cgroups made by this process, numbered for their names.
static MADE: AtomicU64 = AtomicU64::new(0);

impl MemoryCgroups {
    /// The memory cgroup this process is in, if it can make cgroups there
    /// with a memory limit: tried by making one (and removing it).
    ///
    /// # Errors
    ///
    /// Why not, in words for a report: no cgroup file system with the
    /// memory controller, not allowed to make cgroups, or the controller not
    /// delegated.
    pub fn find() -> Result<MemoryCgroups, String> {
        let own = fs::read_to_string("/proc/self/cgroup")
            .map_err(|e| format!("cannot read /proc/self/cgroup: {e}"))?;
        let mounts = fs::read_to_string("/proc/self/mountinfo")
            .map_err(|e| format!("cannot read /proc/self/mountinfo: {e}"))?;
        let found = locate(&own, &mounts).ok_or_else(|| {
            "no cgroup file system with the memory controller is mounted".to_owned()
        })?;
        // Only making one tells whether it is allowed.
        let probe = found.make(64 << 20).map_err(|e| {
            format!(
                "cannot make a memory cgroup in {}: {e}",
                found.dir.display()
            )
        })?;
        drop(probe);
        Ok(found)
    }

    /// The cgroup file system's version.
    pub fn version(&self) -> Version {
        self.version
    }

    /// The directory the runs' cgroups are made in.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Makes a cgroup limited to `limit` bytes of memory (swap included),
    /// removed on drop.
    ///
    /// # Errors
    ///
    /// The cgroup cannot be made or limited.
    pub fn make(&self, limit: u64) -> io::Result<MemoryCgroup> {
        let n = MADE.fetch_add(1, Ordering::Relaxed);
        let dir = self
            .dir
            .join(format!("boardbase-check-{}-{n}", std::process::id()));
        fs::create_dir(&dir)?;
        let group = MemoryCgroup {
            procs: CString::new(dir.join("cgroup.procs").as_os_str().as_bytes())
                .map_err(io::Error::other)?,
            dir,
            version: self.version,
        };
        let limit = limit.to_string();
        match self.version {
            Version::V2 => {
                let controllers = fs::read_to_string(group.dir.join("cgroup.controllers"))?;
                if !controllers.split_whitespace().any(|c| c == "memory") {
                    return Err(io::Error::other(
                        "the memory controller is not delegated to it (cgroup.subtree_control)",
                    ));
                }
                fs::write(group.dir.join("memory.max"), &limit)?;
                // Absent where the kernel has no swap accounting.
                let _ = fs::write(group.dir.join("memory.swap.max"), "0");
            }
            Version::V1 => {
                fs::write(group.dir.join("memory.limit_in_bytes"), &limit)?;
                let _ = fs::write(group.dir.join("memory.memsw.limit_in_bytes"), &limit);
            }
        }
        Ok(group)
    }
}

/// One run's cgroup: killed and removed on drop.
#[derive(Debug)]
pub struct MemoryCgroup {
    dir: PathBuf,
    procs: CString,
    version: Version,
}

impl MemoryCgroup {
    /// What moves the calling process into the cgroup, for between fork
    /// and exec (system calls only, no allocation; its error: the kernel
    /// refused).
    pub fn joiner(&self) -> impl Fn() -> io::Result<()> + Send + Sync + 'static {
        let procs = self.procs.clone();
        move || {
            // SAFETY: a NUL-terminated path; open, write and close are
            // async-signal-safe.
            unsafe {
                let fd = libc::open(procs.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC);
                if fd < 0 {
                    return Err(io::Error::last_os_error());
                }
                // "0" is the writing process.
                let written = libc::write(fd, b"0".as_ptr().cast(), 1);
                let error = io::Error::last_os_error();
                libc::close(fd);
                if written != 1 {
                    return Err(error);
                }
            }
            Ok(())
        }
    }

    /// The highest memory use of the cgroup's processes together, in
    /// bytes (v2 kernels before 5.19 have no `memory.peak`: `None`).
    pub fn peak(&self) -> Option<u64> {
        let file = match self.version {
            Version::V2 => "memory.peak",
            Version::V1 => "memory.max_usage_in_bytes",
        };
        fs::read_to_string(self.dir.join(file))
            .ok()?
            .trim()
            .parse()
            .ok()
    }

    /// Whether the kernel killed a process of the cgroup for memory.
    pub fn oom_killed(&self) -> bool {
        let (file, key) = match self.version {
            Version::V2 => ("memory.events", "oom_kill"),
            Version::V1 => ("memory.oom_control", "oom_kill"),
        };
        let Ok(text) = fs::read_to_string(self.dir.join(file)) else {
            return false;
        };
        text.lines().any(|line| {
            let mut words = line.split_whitespace();
            words.next() == Some(key) && words.next().is_some_and(|n| n != "0")
        })
    }

    /// Kills every process left in the cgroup (one that left the
    /// program's process group included).
    pub fn kill_all(&self) {
        if self.version == Version::V2 && fs::write(self.dir.join("cgroup.kill"), "1").is_ok() {
            return;
        }
        let Ok(pids) = fs::read_to_string(self.dir.join("cgroup.procs")) else {
            return;
        };
        for pid in pids.lines().filter_map(|p| p.trim().parse::<i32>().ok()) {
            // SAFETY: kill has no memory-safety preconditions.
            unsafe {
                libc::kill(pid, libc::SIGKILL);
            }
        }
    }
}

impl Drop for MemoryCgroup {
    fn drop(&mut self) {
        // A cgroup is removed once its processes are gone: killed ones take
        // a moment to exit.
        for attempt in 0..100 {
            match fs::remove_dir(&self.dir) {
                Err(e) if e.raw_os_error() == Some(libc::EBUSY) => {
                    self.kill_all();
                    std::thread::sleep(std::time::Duration::from_millis(attempt.min(10)));
                }
                _ => return,
            }
        }
    }
}

/// The memory cgroup directory of the process whose `/proc/self/cgroup` is
/// `own`, from the mounts of `/proc/self/mountinfo`: v1's memory hierarchy
/// when one is mounted, or else the unified hierarchy.
fn locate(own: &str, mountinfo: &str) -> Option<MemoryCgroups> {
    // "ID:controllers:path"; v2's line is "0::path".
    let path_of = |wanted: &dyn Fn(&str, &str) -> bool| {
        own.lines().find_map(|line| {
            let mut parts = line.splitn(3, ':');
            let (id, controllers, path) = (parts.next()?, parts.next()?, parts.next()?);
            wanted(id, controllers).then(|| path.to_owned())
        })
    };
    // mountinfo: "ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS ... - TYPE SOURCE SUPER".
    let mount_of = |fs_type: &str, needs_memory: bool| {
        mountinfo.lines().find_map(|line| {
            let (fields, tail) = line.split_once(" - ")?;
            let fields: Vec<&str> = fields.split(' ').collect();
            let tail: Vec<&str> = tail.split(' ').collect();
            let ok = tail.first() == Some(&fs_type)
                && (!needs_memory
                    || tail
                        .get(2)
                        .is_some_and(|o| o.split(',').any(|o| o == "memory")));
            ok.then_some((unescape(fields.get(3)?), unescape(fields.get(4)?)))
        })
    };
    let v1 = path_of(&|_, c| c.split(',').any(|c| c == "memory"))
        .zip(mount_of("cgroup", true))
        .map(|(path, mount)| (path, mount, Version::V1));
    let (path, (root, point), version) = v1.or_else(|| {
        path_of(&|id, c| id == "0" && c.is_empty())
            .zip(mount_of("cgroup2", false))
            .map(|(path, mount)| (path, mount, Version::V2))
    })?;
    // The mount shows the hierarchy from `root` down.
    let inside = Path::new(&path).strip_prefix(&root).ok()?;
    Some(MemoryCgroups {
        dir: Path::new(&point).join(inside),
        version,
    })
}

/// A mountinfo field with its octal escapes (`\040` for a space) undone.
fn unescape(field: &str) -> String {
    let bytes = field.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        // At most \377: one byte.
        let octal = bytes.get(i + 1..i + 4).filter(|d| {
            (b'0'..=b'3').contains(&d[0]) && d[1..].iter().all(|d| (b'0'..=b'7').contains(d))
        });
        if bytes[i] == b'\\'
            && let Some(d) = octal
        {
            out.push((d[0] - b'0') << 6 | (d[1] - b'0') << 3 | (d[2] - b'0'));
            i += 4;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    const MOUNTS_V1: &str = "\
31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
36 31 0:33 / /sys/fs/cgroup/devices rw,relatime - cgroup cgroup rw,devices
41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
";

    #[test]
    fn v1_memory_hierarchy_first() {
        let own = "5:devices:/\n4:memory:/jobs/a b\n0::/\n";
        assert_eq!(
            locate(own, MOUNTS_V1),
            Some(MemoryCgroups {
                dir: PathBuf::from("/sys/fs/cgroup/memory/jobs/a b"),
                version: Version::V1
            })
        );
    }

    #[test]
    fn v2_unified_and_a_container_s_root() {
        let mounts = "25 1 0:22 /user.slice /sys/fs/cgroup rw - cgroup2 cgroup2 rw,nsdelegate\n";
        let own = "0::/user.slice/user-1000.slice/session-2.scope\n";
        assert_eq!(
            locate(own, mounts),
            Some(MemoryCgroups {
                dir: PathBuf::from("/sys/fs/cgroup/user-1000.slice/session-2.scope"),
                version: Version::V2
            })
        );
        assert_eq!(locate(own, "1 0 8:1 / / rw - ext4 /dev/sda1 rw\n"), None);
    }

    #[test]
    fn mountinfo_escapes() {
        assert_eq!(unescape(r"/mnt/a\040b"), "/mnt/a b");
        assert_eq!(unescape(r"/x\\"), r"/x\\");
    }
}
