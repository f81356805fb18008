//! Running one program as a judge does: input on stdin, output from stdout,
//! a CPU time limit (with a wall-clock guard), a memory limit, bounded
//! output, nothing left behind.
//!
//! One thread drives the whole run with `poll(2)`: it writes the input as
//! the program takes it, reads stdout (up to a cap) and stderr (keeping a
//! tail), and waits for the program's exit on a pidfd (Linux 5.3+; elsewhere,
//! or when pidfds are unavailable, it checks every millisecond with
//! `waitid(WNOHANG | WNOWAIT)`). No pipe can deadlock it: a program that
//! never reads its input, or never closes its output, only runs into the
//! limit.
//!
//! The program is the leader of a new process group
//! ([`CommandExt::process_group`]`(0)`). When it exits, or at the limit, or
//! when its output passes the cap, the whole group is sent `SIGKILL`
//! *before* the leader is reaped (so the group's id cannot have been
//! reused), which takes down what it started too (a shell script's
//! children, a forked child holding the pipe). The leader is then reaped
//! with `wait`; the others, orphaned, are reaped by init (or the nearest
//! subreaper). A process that leaves the group on purpose (`setsid`)
//! escapes this, as it would escape most judges; its pipe is abandoned at
//! the limit.
//!
//! # What is measured
//!
//! The CPU time (user + system) and the peak resident memory of a run are
//! those `wait4(2)` reports when the leader is reaped: the leader's own,
//! and those of the descendants it waited for itself (a shell script's
//! commands). Processes of the group still running when it is killed are
//! reaped by init, and their cost is not counted. While the leader runs,
//! its CPU time (with its waited-for children's) is read from
//! `/proc/PID/stat` every [`CPU_TICK`], and it is killed once it reaches
//! the limit; every process of the group also gets `RLIMIT_CPU` a second
//! or two past the limit (set between fork and exec), so one that escapes
//! the polling is killed by the kernel. A program that sleeps or waits
//! uses no CPU time: the wall-clock guard ([`Limits::wall`]) ends it, and
//! that end is told apart ([`End::WallLimit`]). A run that is still gaining
//! CPU time at the guard (at least [`BUSY_SHARE`]'s share of a core) is
//! waiting for a core on a busy machine, not sleeping: the guard moves on,
//! up to [`WALL_CAP_FACTOR`] times its first time, so that the verdict is
//! the CPU time's however loaded the machine is.
//!
//! The memory limit is held by a cgroup a run where the machine allows it
//! ([`MemoryControl::Cgroup`], see [`super::cgroup`]): the kernel kills the
//! tree at the limit, says it did, and gives the tree's exact peak.
//! Elsewhere ([`MemoryControl::AddressSpace`]) it is `RLIMIT_AS`, the
//! address space of each process of the group, set between fork and exec,
//! and the peak is `wait4`'s. A run under `RLIMIT_AS` that then dies (a signal,
//! or a non-zero exit) with its peak resident memory at least half the
//! limit, or with a failed allocation named on its stderr (`bad_alloc`,
//! `MemoryError`, `out of memory`, ...), is [`End::MemoryLimit`]: a
//! failed allocation at the limit rarely leaves the peak at the limit
//! itself (a vector that doubles fails at half of it). Address space is
//! not resident memory: a program may reserve much more than it touches
//! (thread stacks, allocator arenas, the mapped executable), so one that
//! dies otherwise is run again without the limit, and is
//! [`End::MemoryLimit`] too if it then exits normally ([`run`]).

use std::ffi::OsString;
use std::io;
use std::os::fd::OwnedFd;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Child, Command, Stdio};
use std::sync::{Mutex, MutexGuard, PoisonError, RwLock};
use std::time::{Duration, Instant};

use rustix::event::{PollFd, PollFlags, Timespec, poll};
use rustix::io::Errno;
use rustix::process::{
    Pid, Resource, Rlimit, Signal, WaitId, WaitIdOptions, getrlimit, kill_process_group, setrlimit,
    waitid,
};

use super::cgroup::{MemoryCgroup, MemoryCgroups, Version};
use super::error::CheckError;

/// The program under test and its arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// The program, found on `PATH` when it has no `/`.
    pub path: OsString,
    /// Its arguments.
    pub args: Vec<OsString>,
}

/// The wall-clock guard is this many times the CPU time limit.
pub const WALL_FACTOR: u32 = 3;

/// A run still gaining CPU time when the wall-clock guard comes is not
/// sleeping but waiting for a core on a busy machine: the guard moves on by
/// another [`Limits::wall`] as long as the run got at least this share of a
/// core since the last guard (1/20), so that its verdict is its CPU time's,
/// whatever the load.
pub const BUSY_SHARE: u32 = 20;

/// However busy the machine, a run ends at this many times
/// [`Limits::wall`] of wall-clock time.
pub const WALL_CAP_FACTOR: u32 = 10;

/// Bytes in a megabyte as judges count it (POJ's `65536K` is 64 MB): the
/// catalogue's.
pub use crate::catalogue::MB;

/// Address space a process may take beyond the memory limit: 64 MB. A
/// program's address space holds more than the memory it uses (the mapped
/// executable and libraries, thread stacks, allocator arenas): a small
/// Rust or C++ program reserves 10 to 20 MB, POJ 1222's whole limit. The
/// limit itself is held against the peak resident memory measured
/// ([`End::OverMemory`]); `RLIMIT_AS` at the limit plus this stops a
/// program that allocates without end. DMOJ's judge does the same (an
/// "address grace" a language).
pub const ADDRESS_GRACE: u64 = 64 * MB;

/// How a memory limit is held.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemoryControl {
    /// A cgroup a run, limited to the memory limit: the kernel kills the
    /// program (the whole tree's memory counts) at the limit; the peak is
    /// the cgroup's. Address space reserved and not used costs nothing.
    Cgroup,
    /// `RLIMIT_AS` of each process at the limit plus [`ADDRESS_GRACE`],
    /// the peak (`wait4`'s) held against the limit. A language that
    /// reserves much address space (Java, Go) may fail at start.
    AddressSpace,
}

impl MemoryControl {
    /// A cgroup where this process can make one ([`memory_cgroups`]),
    /// otherwise the address space.
    pub fn best() -> MemoryControl {
        if memory_cgroups().is_ok() {
            MemoryControl::Cgroup
        } else {
            MemoryControl::AddressSpace
        }
    }

    /// The name in reports: `cgroup_v2`, `cgroup_v1` or `address_space`.
    pub fn kind(self) -> &'static str {
        match (self, memory_cgroups()) {
            (MemoryControl::Cgroup, Ok(c)) if c.version() == Version::V2 => "cgroup_v2",
            (MemoryControl::Cgroup, _) => "cgroup_v1",
            (MemoryControl::AddressSpace, _) => "address_space",
        }
    }
}

/// Where the runs' memory cgroups are made, found once: or why there is
/// no such place (no cgroup file system with the memory controller, or no
/// right to make cgroups in it).
///
/// # Errors
///
/// Why no cgroup can be made, in words for a report.
pub fn memory_cgroups() -> Result<&'static MemoryCgroups, &'static str> {
    static FOUND: std::sync::OnceLock<Result<MemoryCgroups, String>> = std::sync::OnceLock::new();
    FOUND
        .get_or_init(MemoryCgroups::find)
        .as_ref()
        .map_err(String::as_str)
}

/// The limits of one run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// CPU time (user + system) of the program and the processes it
    /// waited for.
    pub cpu: Duration,
    /// Wall-clock time from the start until the program exits, whatever
    /// its CPU time (for a program that sleeps or waits); usually
    /// [`WALL_FACTOR`] times [`cpu`](Limits::cpu).
    pub wall: Duration,
    /// Memory, in bytes; `None`: no limit.
    pub memory: Option<u64>,
    /// How [`memory`](Limits::memory) is held.
    pub memory_control: MemoryControl,
    /// Most bytes of stdout kept; one more ends the run (output limit).
    pub stdout_bytes: usize,
    /// Bytes of the end of stderr kept for the report.
    pub stderr_tail: usize,
}

/// How a program died by itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Death {
    /// It exited with this (non-zero) status.
    Exited(i32),
    /// It was killed by this signal (not ours).
    Signaled(i32),
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// The program exited with this status.
    Exited(i32),
    /// The program was killed by this signal (not ours).
    Signaled(i32),
    /// It used its CPU time limit: killed there, or it finished past it.
    TimeLimit,
    /// Killed at the wall-clock guard with less CPU time than the limit:
    /// it was sleeping or waiting.
    WallLimit,
    /// It died (as said) at its memory limit: killed there by the kernel
    /// (a cgroup), or of a failed allocation.
    MemoryLimit(Death),
    /// It finished, but its peak resident memory passed the memory limit
    /// (the address space it may take is larger: [`ADDRESS_GRACE`]).
    OverMemory,
    /// Killed for writing more than the output cap.
    OutputLimit,
}

impl End {
    /// Whether the run ended any other way than `exit(0)`.
    pub fn is_abnormal(self) -> bool {
        self != End::Exited(0)
    }

    /// Whether it was ended at a limit of time or memory (where output
    /// still buffered in the program is lost).
    pub fn is_limit(self) -> bool {
        matches!(self, End::TimeLimit | End::WallLimit | End::MemoryLimit(_))
    }
}

/// What one run produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// How it ended.
    pub end: End,
    /// Its stdout, at most [`Limits::stdout_bytes`].
    pub stdout: Vec<u8>,
    /// The last bytes of its stderr.
    pub stderr_tail: Vec<u8>,
    /// From the start to its exit (or to the kill), wall clock.
    pub elapsed: Duration,
    /// CPU time, user + system (see the module's notes for what it
    /// covers).
    pub cpu: Duration,
    /// Peak resident memory, in bytes: the cgroup's (every process of the
    /// run together) where the limit is held by one, else `ru_maxrss`.
    pub peak_memory: u64,
    /// Ended at the wall-clock guard's last time ([`WALL_CAP_FACTOR`])
    /// while still gaining CPU time: the machine was too busy for the run,
    /// which was not sleeping.
    pub busy: bool,
}

/// How often the exit is checked when no pidfd is available.
const TICK: Duration = Duration::from_millis(1);

/// How often a running program's CPU time is read.
pub const CPU_TICK: Duration = Duration::from_millis(10);

/// Bytes read from a pipe at a time.
const CHUNK: usize = 64 * 1024;

/// Whether [`kill_running`] was called. Starting a program holds it for
/// reading (starts run side by side); `kill_running` takes it for writing,
/// so it waits for the starts under way, which have registered their
/// groups by then, and no program starts after it.
static STOPPED: RwLock<bool> = RwLock::new(false);

/// The process groups of the programs started and not yet reaped.
static GROUPS: Mutex<Vec<i32>> = Mutex::new(Vec::new());

fn groups() -> MutexGuard<'static, Vec<i32>> {
    // The list stays consistent even if a holder panicked.
    GROUPS.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Kills the process group of every program [`run`] has started and not
/// yet reaped, and stops [`run`] from starting any more (it then returns
/// [`CheckError::Start`]): for a front end's signal handler (Ctrl-C) before
/// it exits, since the programs' own process groups do not get the
/// terminal's signals.
pub fn kill_running() {
    let mut stopped = STOPPED.write().unwrap_or_else(PoisonError::into_inner);
    *stopped = true;
    for &pgid in groups().iter() {
        if let Some(pid) = Pid::from_raw(pgid) {
            let _ = kill_process_group(pid, Signal::KILL);
        }
    }
}

/// Whether [`kill_running`] was called: the runs ending after it were cut
/// short by it, not by their programs. It stays so for the rest of the
/// process (a front end calls it to stop, then exits): a
/// [`check`](super::check) after it runs nothing and says it was
/// interrupted.
pub fn is_stopped() -> bool {
    *STOPPED.read().unwrap_or_else(PoisonError::into_inner)
}

/// The started program: killed (its whole group) and reaped on drop, so no
/// early return or panic leaves it behind.
struct Running {
    child: Child,
    pid: Pid,
    reaped: bool,
}

impl Running {
    /// Starts `command` and registers its group for [`kill_running`].
    fn start(command: &mut Command) -> io::Result<Running> {
        let stopped = STOPPED.read().unwrap_or_else(PoisonError::into_inner);
        if *stopped {
            return Err(io::Error::other("interrupted"));
        }
        let child = command.spawn()?;
        let pid = Pid::from_child(&child);
        groups().push(pid.as_raw_pid());
        drop(stopped);
        Ok(Running {
            child,
            pid,
            reaped: false,
        })
    }

    fn kill_group(&self) {
        // ESRCH (nothing left in the group) is the common, harmless case.
        let _ = kill_process_group(self.pid, Signal::KILL);
    }

    /// Kills the group and reaps the leader, with what it cost. The group
    /// leaves the registry and is killed under its lock, before the leader
    /// is reaped, so [`kill_running`] never signals a group id that may
    /// have been reused.
    fn finish(&mut self) -> io::Result<(std::process::ExitStatus, Usage)> {
        {
            let mut groups = groups();
            let raw = self.pid.as_raw_pid();
            groups.retain(|&p| p != raw);
            self.kill_group();
        }
        let (status, usage) = wait4(self.pid)?;
        self.reaped = true;
        Ok((status, usage))
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if !self.reaped {
            let _ = self.finish();
        }
    }
}

/// What a reaped process cost.
#[derive(Clone, Copy, Debug, Default)]
struct Usage {
    cpu: Duration,
    peak_memory: u64,
}

/// Reaps `pid` with `wait4(2)`, for its resource usage (std's `wait` does
/// not give it).
fn wait4(pid: Pid) -> io::Result<(std::process::ExitStatus, Usage)> {
    let mut status: libc::c_int = 0;
    // SAFETY: rusage is plain data; all zeros is a valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: the pointers are to live locals of the right types.
        let r = unsafe { libc::wait4(pid.as_raw_pid(), &mut status, 0, &mut usage) };
        if r >= 0 {
            break;
        }
        let e = io::Error::last_os_error();
        if e.kind() != io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
    let time = |t: libc::timeval| {
        Duration::from_secs(t.tv_sec.max(0) as u64) + Duration::from_micros(t.tv_usec.max(0) as u64)
    };
    Ok((
        std::process::ExitStatus::from_raw(status),
        Usage {
            cpu: time(usage.ru_utime) + time(usage.ru_stime),
            // Kilobytes on Linux.
            peak_memory: (usage.ru_maxrss.max(0) as u64) * 1024,
        },
    ))
}

/// Clock ticks a second, the unit of `/proc/PID/stat`'s times.
fn clock_ticks() -> u64 {
    static TICKS: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *TICKS.get_or_init(|| {
        // SAFETY: sysconf has no preconditions.
        let t = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
        if t > 0 { t as u64 } else { 100 }
    })
}

/// CPU time of a running process and of the children it waited for
/// (`utime + stime + cutime + cstime` of `/proc/PID/stat`), or `None`
/// when it cannot be read.
fn running_cpu(pid: Pid) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{}/stat", pid.as_raw_pid())).ok()?;
    // "pid (comm) state ...": comm may hold spaces and parentheses.
    let (_, rest) = stat.rsplit_once(')')?;
    let ticks: u64 = rest
        .split_whitespace()
        .skip(11)
        .take(4)
        .map(|f| f.parse::<u64>().unwrap_or(0))
        .sum();
    let hz = clock_ticks();
    Some(Duration::from_secs(ticks / hz) + Duration::from_nanos((ticks % hz) * 1_000_000_000 / hz))
}

/// Sets `resource` to at most `soft` (and `hard`), never above the hard
/// limit the checker itself has. Runs between fork and exec: system calls
/// only.
fn lower_limit(resource: Resource, soft: u64, hard: u64) -> io::Result<()> {
    let old = getrlimit(resource);
    let maximum = old.maximum.map_or(hard, |m| m.min(hard));
    setrlimit(
        resource,
        Rlimit {
            current: Some(soft.min(maximum)),
            maximum: Some(maximum),
        },
    )?;
    Ok(())
}

/// Words on stderr that say an allocation failed (C++, Python, Java, Go,
/// Rust, glibc).
const ALLOCATION_FAILED: [&str; 6] = [
    "bad_alloc",
    "memoryerror",
    "out of memory",
    "outofmemoryerror",
    "cannot allocate memory",
    "memory allocation of",
];

/// Whether a run that died did so of a failed allocation at `limit`.
fn died_of_memory(limit: u64, peak: u64, stderr_tail: &[u8]) -> bool {
    let said = String::from_utf8_lossy(stderr_tail).to_lowercase();
    peak.saturating_mul(2) >= limit || ALLOCATION_FAILED.iter().any(|w| said.contains(w))
}

/// One pipe end of ours, nonblocking, until it is closed.
fn nonblocking(fd: impl Into<OwnedFd>) -> io::Result<OwnedFd> {
    let fd = fd.into();
    rustix::io::ioctl_fionbio(&fd, true)?;
    Ok(fd)
}

#[cfg(target_os = "linux")]
fn open_pidfd(pid: Pid) -> Option<OwnedFd> {
    rustix::process::pidfd_open(pid, rustix::process::PidfdFlags::empty()).ok()
}

#[cfg(not(target_os = "linux"))]
fn open_pidfd(_pid: Pid) -> Option<OwnedFd> {
    None
}

/// Whether the leader has exited (not reaping it).
fn has_exited(pid: Pid) -> io::Result<bool> {
    match waitid(
        WaitId::Pid(pid),
        WaitIdOptions::EXITED | WaitIdOptions::NOHANG | WaitIdOptions::NOWAIT,
    ) {
        Ok(status) => Ok(status.is_some()),
        Err(Errno::INTR) => Ok(false),
        Err(e) => Err(e.into()),
    }
}

fn timespec(d: Duration) -> Timespec {
    Timespec {
        tv_sec: d.as_secs().min(i64::MAX as u64) as i64,
        tv_nsec: i64::from(d.subsec_nanos()),
    }
}

/// Reads what `fd` has now. `Ok(None)`: end of file; `Ok(Some(0))`: nothing
/// yet.
fn read_some(fd: &OwnedFd, buf: &mut [u8]) -> io::Result<Option<usize>> {
    match rustix::io::read(fd, buf) {
        Ok(0) => Ok(None),
        Ok(n) => Ok(Some(n)),
        Err(Errno::AGAIN | Errno::INTR) => Ok(Some(0)),
        Err(e) => Err(e.into()),
    }
}

/// Runs `program` with `input` on its stdin under `limits`.
///
/// Only a program that cannot be started, or a failing system call on its
/// pipes, is an error; everything the program does (crash, hang, flood,
/// garbage) is an [`Outcome`].
///
/// A run that dies under a memory limit, not recognised as dying of it by
/// its peak memory or its stderr (see the module's notes), is run once
/// more without the memory limit: if it then exits with status 0, it died
/// of the limit ([`End::MemoryLimit`]). The first run's outcome is kept.
pub fn run(program: &Program, input: &[u8], limits: &Limits) -> Result<Outcome, CheckError> {
    let mut outcome = run_once(program, input, limits)?;
    let death = match outcome.end {
        End::Exited(code) if code != 0 => Death::Exited(code),
        End::Signaled(signal) => Death::Signaled(signal),
        _ => return Ok(outcome),
    };
    // A cgroup says whether it killed for memory: no second run.
    if limits.memory.is_some() && limits.memory_control == MemoryControl::AddressSpace {
        let free = Limits {
            memory: None,
            ..*limits
        };
        if run_once(program, input, &free)?.end == End::Exited(0) {
            outcome.end = End::MemoryLimit(death);
        }
    }
    Ok(outcome)
}

fn run_once(program: &Program, input: &[u8], limits: &Limits) -> Result<Outcome, CheckError> {
    let name = || program.path.to_string_lossy().into_owned();
    let io_error = |error: io::Error| CheckError::Io {
        program: name(),
        error,
    };
    let start = Instant::now();
    let mut command = Command::new(&program.path);
    command
        .args(&program.args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    // The kernel's backstop for what the polling does not see (children
    // running beside the leader): whole seconds, one past the limit.
    let cpu_backstop = limits.cpu.as_secs() + 2;
    let group = match (limits.memory, limits.memory_control) {
        (Some(bytes), MemoryControl::Cgroup) => {
            let cgroups = memory_cgroups().map_err(|e| io_error(io::Error::other(e)))?;
            Some(cgroups.make(bytes).map_err(io_error)?)
        }
        _ => None,
    };
    let join = group.as_ref().map(MemoryCgroup::joiner);
    let space = match limits.memory_control {
        MemoryControl::AddressSpace => limits.memory.map(|m| m.saturating_add(ADDRESS_GRACE)),
        MemoryControl::Cgroup => None,
    };
    // SAFETY: the closure runs between fork and exec, and makes system
    // calls only (getrlimit, setrlimit, open, write, close): no
    // allocation, no lock.
    unsafe {
        command.pre_exec(move || {
            lower_limit(Resource::Cpu, cpu_backstop, cpu_backstop + 1)?;
            if let Some(join) = &join {
                join()?;
            }
            if let Some(space) = space {
                lower_limit(Resource::As, space, space)?;
            }
            Ok(())
        });
    }
    let mut running = Running::start(&mut command).map_err(|error| CheckError::Start {
        program: name(),
        error,
    })?;
    let pid = running.pid;
    let pipes = (
        running.child.stdin.take(),
        running.child.stdout.take(),
        running.child.stderr.take(),
    );
    let (Some(stdin), Some(stdout), Some(stderr)) = pipes else {
        return Err(io_error(io::Error::other("the pipes were not created")));
    };
    let mut stdin = Some(nonblocking(stdin).map_err(io_error)?);
    let mut stdout = Some(nonblocking(stdout).map_err(io_error)?);
    let mut stderr = Some(nonblocking(stderr).map_err(io_error)?);
    let pidfd = open_pidfd(pid);
    let mut deadline = start + limits.wall;
    let cap = start + limits.wall * WALL_CAP_FACTOR;
    // The CPU time at the last guard, and when that was.
    let mut guarded = (start, Duration::ZERO);
    // Whether the run was still gaining CPU time when the guard ended it.
    let mut busy = false;
    let mut next_cpu_read = start + CPU_TICK;

    let mut written = 0;
    if input.is_empty() {
        stdin = None;
    }
    let mut out = Vec::new();
    let mut err_tail = Vec::new();
    let mut buf = vec![0u8; CHUNK];
    let mut exited: Option<Instant> = None;
    let mut end = None;

    loop {
        let now = Instant::now();
        if exited.is_none() && now >= deadline {
            // Still at work, though slowly: a busy machine, not a sleep.
            let cpu = running_cpu(pid).unwrap_or(Duration::ZERO);
            let gained = cpu.saturating_sub(guarded.1);
            let gaining = gained * BUSY_SHARE >= now - guarded.0;
            if now < cap && gaining {
                guarded = (now, cpu);
                deadline = (now + limits.wall).min(cap);
            } else {
                end = Some(End::WallLimit);
                busy = gaining;
                break;
            }
        }
        if exited.is_none() && now >= next_cpu_read {
            next_cpu_read = now + CPU_TICK;
            if running_cpu(pid).is_some_and(|cpu| cpu >= limits.cpu) {
                end = Some(End::TimeLimit);
                break;
            }
        }
        if exited.is_some() && (stdout.is_none() && stderr.is_none() || now >= deadline) {
            // Exited and the pipes are closed, or a process that left the
            // group still holds them at the limit: stop reading.
            break;
        }
        let mut fds = Vec::with_capacity(4);
        let (mut i_in, mut i_out, mut i_err, mut i_pid) = (None, None, None, None);
        if let Some(fd) = &stdin {
            i_in = Some(fds.len());
            fds.push(PollFd::new(fd, PollFlags::OUT));
        }
        if let Some(fd) = &stdout {
            i_out = Some(fds.len());
            fds.push(PollFd::new(fd, PollFlags::IN));
        }
        if let Some(fd) = &stderr {
            i_err = Some(fds.len());
            fds.push(PollFd::new(fd, PollFlags::IN));
        }
        if exited.is_none()
            && let Some(fd) = &pidfd
        {
            i_pid = Some(fds.len());
            fds.push(PollFd::new(fd, PollFlags::IN));
        }
        let mut wait = deadline.saturating_duration_since(now);
        if exited.is_none() {
            wait = wait.min(next_cpu_read.saturating_duration_since(now));
            if pidfd.is_none() {
                wait = wait.min(TICK);
            }
        }
        match poll(&mut fds, Some(&timespec(wait))) {
            Ok(_) | Err(Errno::INTR) => {}
            Err(e) => return Err(io_error(e.into())),
        }
        let ready = |i: Option<usize>| i.map(|i| fds[i].revents());
        let (r_in, r_out, r_err, r_pid) = (ready(i_in), ready(i_out), ready(i_err), ready(i_pid));
        drop(fds);

        if let (Some(r), Some(fd)) = (r_in, &stdin)
            && !r.is_empty()
        {
            match rustix::io::write(fd, &input[written..]) {
                Ok(n) => {
                    written += n;
                    if written == input.len() {
                        stdin = None; // closed: the program sees the end of its input
                    }
                }
                Err(Errno::AGAIN | Errno::INTR) => {}
                // EPIPE and the like: the program does not read any more.
                Err(_) => stdin = None,
            }
        }
        if let (Some(r), Some(fd)) = (r_out, &stdout)
            && !r.is_empty()
        {
            let room = limits.stdout_bytes + 1 - out.len();
            match read_some(fd, &mut buf[..room.min(CHUNK)]).map_err(io_error)? {
                None => stdout = None,
                Some(n) => {
                    out.extend_from_slice(&buf[..n]);
                    if out.len() > limits.stdout_bytes {
                        out.truncate(limits.stdout_bytes);
                        end = Some(End::OutputLimit);
                        break;
                    }
                }
            }
        }
        if let (Some(r), Some(fd)) = (r_err, &stderr)
            && !r.is_empty()
        {
            match read_some(fd, &mut buf).map_err(io_error)? {
                None => stderr = None,
                Some(n) => {
                    err_tail.extend_from_slice(&buf[..n]);
                    if err_tail.len() > 2 * limits.stderr_tail.max(1) {
                        err_tail.drain(..err_tail.len() - limits.stderr_tail);
                    }
                }
            }
        }
        if exited.is_none() {
            let gone = match r_pid {
                Some(r) => !r.is_empty(),
                None if pidfd.is_none() => has_exited(pid).map_err(io_error)?,
                None => false,
            };
            if gone {
                exited = Some(Instant::now());
                // What the program started dies with it, so the pipes close.
                running.kill_group();
            }
        }
    }

    let killed_at = Instant::now();
    let (status, mut usage) = running.finish().map_err(io_error)?;
    // What left the process group is still in the cgroup.
    let oom_killed = group.as_ref().is_some_and(|g| {
        g.kill_all();
        if let Some(peak) = g.peak() {
            usage.peak_memory = peak;
        }
        g.oom_killed()
    });
    let in_cgroup = group.is_some();
    drop(group);
    let elapsed = match exited {
        Some(at) => at - start,
        None => killed_at - start,
    };
    if err_tail.len() > limits.stderr_tail {
        err_tail.drain(..err_tail.len() - limits.stderr_tail);
    }
    let end = end.unwrap_or_else(|| match (status.code(), status.signal()) {
        (Some(code), _) => End::Exited(code),
        (None, Some(signal)) => End::Signaled(signal),
        // Neither an exit code nor a signal cannot happen on Unix.
        (None, None) => End::Exited(-1),
    });
    let over_cpu = usage.cpu >= limits.cpu;
    let end = match end {
        // Past the CPU limit, however it ended (RLIMIT_CPU's SIGXCPU or
        // SIGKILL included), except at the output cap, which came first.
        End::OutputLimit => End::OutputLimit,
        // The kernel killed a process of the tree at the memory limit:
        // whatever followed (the program exiting by itself, or waiting
        // for the killed one until a time limit) came of it.
        End::Exited(code) if oom_killed && code != 0 => End::MemoryLimit(Death::Exited(code)),
        End::Signaled(signal) if oom_killed => End::MemoryLimit(Death::Signaled(signal)),
        _ if oom_killed => End::MemoryLimit(Death::Signaled(Signal::KILL.as_raw())),
        _ if over_cpu => End::TimeLimit,
        End::Signaled(signal) if signal == Signal::XCPU.as_raw() => End::TimeLimit,
        _ if in_cgroup => end,
        End::Exited(code)
            if code != 0
                && limits
                    .memory
                    .is_some_and(|m| died_of_memory(m, usage.peak_memory, &err_tail)) =>
        {
            End::MemoryLimit(Death::Exited(code))
        }
        End::Signaled(signal)
            if limits
                .memory
                .is_some_and(|m| died_of_memory(m, usage.peak_memory, &err_tail)) =>
        {
            End::MemoryLimit(Death::Signaled(signal))
        }
        End::Exited(0) if limits.memory.is_some_and(|m| usage.peak_memory > m) => End::OverMemory,
        end => end,
    };
    Ok(Outcome {
        busy: end == End::WallLimit && busy,
        end,
        stdout: out,
        stderr_tail: err_tail,
        elapsed,
        cpu: usage.cpu,
        peak_memory: usage.peak_memory,
    })
}

/// The name and description of signal `number` (`SIGSEGV`, `segmentation
/// fault`), or `signal N`.
pub fn signal_name(number: i32) -> (String, &'static str) {
    const KNOWN: [(Signal, &str, &str); 20] = [
        (Signal::HUP, "SIGHUP", "hangup"),
        (Signal::INT, "SIGINT", "interrupt"),
        (Signal::QUIT, "SIGQUIT", "quit"),
        (Signal::ILL, "SIGILL", "illegal instruction"),
        (Signal::TRAP, "SIGTRAP", "trace trap"),
        (Signal::ABORT, "SIGABRT", "aborted"),
        (Signal::BUS, "SIGBUS", "bus error"),
        (
            Signal::FPE,
            "SIGFPE",
            "arithmetic exception, e.g. division by zero",
        ),
        (Signal::KILL, "SIGKILL", "killed"),
        (Signal::USR1, "SIGUSR1", "user signal 1"),
        (Signal::SEGV, "SIGSEGV", "segmentation fault"),
        (Signal::USR2, "SIGUSR2", "user signal 2"),
        (Signal::PIPE, "SIGPIPE", "broken pipe"),
        (Signal::ALARM, "SIGALRM", "alarm clock"),
        (Signal::TERM, "SIGTERM", "terminated"),
        (Signal::XCPU, "SIGXCPU", "CPU time limit exceeded"),
        (Signal::XFSZ, "SIGXFSZ", "file size limit exceeded"),
        (Signal::SYS, "SIGSYS", "bad system call"),
        (Signal::VTALARM, "SIGVTALRM", "virtual alarm clock"),
        (Signal::PROF, "SIGPROF", "profiling timer expired"),
    ];
    KNOWN
        .iter()
        .find(|(s, _, _)| s.as_raw() == number)
        .map_or_else(
            || (format!("signal {number}"), "unknown signal"),
            |&(_, name, what)| (name.to_owned(), what),
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str) -> Program {
        Program {
            path: "sh".into(),
            args: vec!["-c".into(), script.into()],
        }
    }

    const LIMITS: Limits = Limits {
        cpu: Duration::from_millis(500),
        wall: Duration::from_millis(1500),
        memory: None,
        memory_control: MemoryControl::AddressSpace,
        stdout_bytes: 1 << 16,
        stderr_tail: 64,
    };

    #[test]
    fn echo_input() {
        let o = run(&sh("cat"), b"hello\n", &LIMITS).unwrap();
        assert_eq!(
            (o.end, o.stdout.as_slice()),
            (End::Exited(0), &b"hello\n"[..])
        );
    }

    #[test]
    fn exit_status_signal_and_stderr_tail() {
        let o = run(&sh("echo oops >&2; exit 3"), b"", &LIMITS).unwrap();
        assert_eq!(
            (o.end, o.stderr_tail.as_slice()),
            (End::Exited(3), &b"oops\n"[..])
        );
        let o = run(&sh("kill -SEGV $$"), b"", &LIMITS).unwrap();
        assert_eq!(o.end, End::Signaled(Signal::SEGV.as_raw()));
        assert_eq!(signal_name(Signal::SEGV.as_raw()).0, "SIGSEGV");
    }

    #[test]
    fn hang_output_flood_and_unread_input() {
        let o = run(&sh("sleep 10"), b"", &LIMITS).unwrap();
        assert_eq!(o.end, End::WallLimit);
        assert!(o.cpu < Duration::from_millis(100), "{:?}", o.cpu);
        assert!(o.elapsed >= LIMITS.wall, "{:?}", o.elapsed);
        // Spinning: ended by its CPU time, well before the wall guard.
        let o = run(&sh("while :; do :; done"), b"", &LIMITS).unwrap();
        assert_eq!(o.end, End::TimeLimit);
        assert!(o.cpu >= LIMITS.cpu && o.cpu < LIMITS.cpu * 2, "{:?}", o.cpu);
        let o = run(&sh("yes"), b"", &LIMITS).unwrap();
        assert_eq!((o.end, o.stdout.len()), (End::OutputLimit, 1 << 16));
        // 4 MB of input the program never reads: no deadlock.
        let o = run(&sh("echo done"), &vec![b'x'; 4 << 20], &LIMITS).unwrap();
        assert_eq!(
            (o.end, o.stdout.as_slice()),
            (End::Exited(0), &b"done\n"[..])
        );
    }

    #[test]
    fn cannot_start() {
        let p = Program {
            path: "/nonexistent/program".into(),
            args: vec![],
        };
        assert!(matches!(
            run(&p, b"", &LIMITS),
            Err(CheckError::Start { .. })
        ));
    }
}
