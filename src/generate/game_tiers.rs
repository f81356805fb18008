//! A game's table job tier by tier, for the games that declare tiers
//! ([`AnyGame::tiers`]): the solver holds one tier's working arrays, and
//! the entries of the tiers solved are kept in a mapped file beside the
//! table, its entries file (`GAME-RxC-kK.bin.tiers`, two bytes a position
//! index, as the table stores them), which the kernel's page cache holds
//! where memory allows and the disk where not. Between two tiers the job
//! may save, and it saves when stopped (within a tier too), and once every
//! tier is solved: the entries file synced, then a checkpoint naming the
//! tiers still to solve ([`game_checkpoint::save_tiers`]); the same command
//! resumes from the first tier not saved. The table is written from the
//! entries file once every tier is solved, byte for byte the table of a
//! whole-game solve, and the entries file and the checkpoint are removed.

use std::fs::{File, OpenOptions, TryLockError};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use boardbase_tables::game::retrograde::decode;
use boardbase_tables::game::{Outcome, SolveError};
use memmap2::MmapMut;

use super::checkpoint::{LOCK_WAIT, checkpoint_path};
use super::game_checkpoint;
use super::{Cancel, GenerateError, Phase, Progress};
use crate::catalogue::{AnyGame, AnyTiers, Model, Setup};
use crate::tablefile::{GameTable, TableError};

/// The entries file of the table at `table`: its name and `.tiers`.
pub(super) fn entries_path(table: &Path) -> PathBuf {
    let mut name = table.as_os_str().to_owned();
    name.push(".tiers");
    PathBuf::from(name)
}

/// What a game's table job found and wrote, solved whole or tier by tier.
pub(super) struct Finished {
    /// Legal canonical positions won, lost, drawn.
    pub(super) legal: [u64; 3],
    /// Reachable ones won, lost, drawn.
    pub(super) reachable: [u64; 3],
    /// The start's outcome.
    pub(super) start: Outcome,
    /// When the solve and the counts ended.
    pub(super) generated: Duration,
    /// The table file's length.
    pub(super) file_bytes: u64,
}

/// The classes reachable from the start, counted by `count` with the
/// job's `progress` ([`Phase::Reachable`], of the `legal` classes: the
/// walk reaches some of them, and ends with a report of them all) and its
/// `cancel` ([`SolveError::Cancelled`]).
pub(super) fn count_reachable(
    legal: u64,
    progress: &(impl Fn(Progress) + Sync),
    cancel: &Cancel,
    count: impl FnOnce(&mut dyn FnMut(u64) -> bool) -> Result<[u64; 3], SolveError>,
) -> Result<[u64; 3], SolveError> {
    let report = |done: u64| {
        progress(Progress {
            phase: Phase::Reachable,
            done: done.min(legal),
            total: legal,
        })
    };
    let counts = count(&mut |done| {
        report(done);
        !cancel.is_cancelled()
    })?;
    report(legal);
    Ok(counts)
}

/// A job's error for its solver's `error`: a stop is the failed save
/// that stopped it (`failed`) or else the job's cancel (`cancelled`).
pub(super) fn solve_error(
    error: SolveError,
    failed: Option<GenerateError>,
    cancelled: impl FnOnce() -> GenerateError,
) -> GenerateError {
    match error {
        SolveError::Cancelled => failed.unwrap_or_else(cancelled),
        SolveError::OutOfMemory { bytes } => GenerateError::Allocation { bytes },
        error => GenerateError::Solve(error),
    }
}

/// The job a run tier by tier is for.
pub(super) struct TierJob<'a> {
    /// The table file.
    pub(super) path: &'a Path,
    /// The game.
    pub(super) model: &'static Model,
    /// Its board and options.
    pub(super) setup: &'a Setup,
    /// Its position indices.
    pub(super) positions: u64,
    /// Save at most this often (and never sooner than ten times what the
    /// last save took).
    pub(super) every: Duration,
}

/// Runs `job` tier by tier: solve (resuming from the checkpoint where there
/// is one), count, write, clean up.
pub(super) fn run(
    job: &TierJob<'_>,
    game: &dyn AnyGame,
    tiers: &dyn AnyTiers,
    progress: &(impl Fn(Progress) + Sync),
    cancel: &Cancel,
    started: Instant,
) -> Result<Finished, GenerateError> {
    let table = GameTable::file_name_of(job.model, job.setup);
    let checkpoint = checkpoint_path(job.path);
    let entries_at = entries_path(job.path);
    let positions = job.positions;
    let kept = || checkpoint.exists().then(|| checkpoint.clone());
    let len = positions
        .checked_mul(2)
        .and_then(|n| usize::try_from(n).ok())
        .ok_or(GenerateError::Allocation { bytes: u64::MAX })?;
    let entries_error = |error| GenerateError::Checkpoint {
        path: entries_at.clone(),
        error,
    };
    let left = game_checkpoint::load_tiers(&checkpoint, &table, positions, tiers.tier_count())?;
    if left.is_some() && !entries_at.exists() {
        return Err(refused(&checkpoint, &entries_at, "it is missing"));
    }
    // Entries no checkpoint vouches for are of no use to a rerun: removed
    // on the way out unless a checkpoint stands by then.
    let mut guard = Unvouched {
        entries: &entries_at,
        checkpoint: &checkpoint,
        armed: true,
    };
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&entries_at)
        .map_err(entries_error)?;
    lock(&file, &entries_at)?;
    match left {
        Some(_) => {
            let found = file.metadata().map_err(entries_error)?.len();
            if found != 2 * positions {
                guard.armed = false;
                return Err(refused(
                    &checkpoint,
                    &entries_at,
                    &format!("it has {found} bytes, not {}", 2 * positions),
                ));
            }
        }
        None => {
            // A run killed before its first save left entries that no
            // checkpoint vouches for: start from zeros, the room taken now
            // so that a full disk is an error here, not a fault of the map.
            file.set_len(0).map_err(entries_error)?;
            file.set_len(2 * positions).map_err(entries_error)?;
            preallocate(&file, 2 * positions).map_err(entries_error)?;
        }
    }
    // SAFETY: the entries file is this job's own, beside its checkpoint,
    // and the job holds its lock: no other run writes it while the job
    // runs. Every access goes through the slice's bounds checks.
    let mut map = unsafe { MmapMut::map_mut(&file) }.map_err(entries_error)?;
    if map.len() != len {
        return Err(GenerateError::Allocation {
            bytes: 2 * positions,
        });
    }

    let mut saver = TierSaver {
        file: &file,
        entries: &entries_at,
        checkpoint: &checkpoint,
        table: &table,
        positions,
        every: job.every,
        last: Instant::now(),
        took: Duration::ZERO,
        failed: None,
    };
    let begun = left.unwrap_or(tiers.tier_count());
    let solved = tiers.solve_into(&mut map, begun, &mut |step| {
        progress(Progress {
            phase: Phase::Solve,
            done: step.done,
            total: step.total,
        });
        if step.done == step.total {
            return true;
        }
        // Every tier after `step.tier` is in the entries file. Within a
        // tier nothing was added since it began: saved only when stopped.
        let left = step.tier + 1;
        let cancelled = cancel.is_cancelled();
        let due = cancelled || (step.begins && saver.due());
        if left < begun && due && !saver.save(left) {
            return false;
        }
        !cancelled
    });
    if let Err(error) = solved {
        return Err(solve_error(error, saver.failed.take(), || {
            GenerateError::NotWritten {
                path: job.path.to_owned(),
                removed_temporary: false,
                checkpoint: kept(),
            }
        }));
    }
    // Every tier solved: saved as such, so that a run killed while it
    // counts or writes does not solve again.
    if begun > 0 && !saver.save(0) {
        return Err(saver
            .failed
            .take()
            .unwrap_or(GenerateError::Solve(SolveError::Cancelled)));
    }

    let mut legal = [0u64; 3];
    for pair in map.chunks_exact(2) {
        match decode(u16::from_le_bytes([pair[0], pair[1]])) {
            Some(Outcome::Win(_)) => legal[0] += 1,
            Some(Outcome::Lose(_)) => legal[1] += 1,
            Some(Outcome::Draw) => legal[2] += 1,
            None => {}
        }
    }
    let reachable = count_reachable(legal.iter().sum(), progress, cancel, |step| {
        tiers.reachable_counts(&map, step)
    })
    .map_err(|error| {
        solve_error(error, None, || GenerateError::NotWritten {
            path: job.path.to_owned(),
            removed_temporary: false,
            checkpoint: kept(),
        })
    })?;
    let start = usize::try_from(game.canonical(game.start()))
        .ok()
        .and_then(|i| map.get(2 * i..2 * i + 2))
        .and_then(|b| decode(u16::from_le_bytes([b[0], b[1]])))
        .ok_or(GenerateError::Solve(SolveError::BadMove {
            position: game.start(),
        }))?;
    let generated = started.elapsed();

    let stopped = || {
        cancel.is_cancelled().then(|| GenerateError::NotWritten {
            path: job.path.to_owned(),
            removed_temporary: true,
            checkpoint: kept(),
        })
    };
    let file_bytes = GameTable::write_outcomes(
        job.path,
        job.model,
        job.setup,
        &map,
        legal.iter().sum(),
        &mut |p| progress(p),
        &stopped,
        |error: TableError| GenerateError::writing(job.path, error),
    )?;
    drop(map);
    drop(file);
    guard.armed = false;
    // The table is whole: what it was made from is not needed.
    for leftover in [&checkpoint, &entries_at] {
        match std::fs::remove_file(leftover) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(GenerateError::Checkpoint {
                    path: leftover.clone(),
                    error: e,
                });
            }
            _ => {}
        }
    }
    Ok(Finished {
        legal,
        reachable,
        start,
        generated,
        file_bytes,
    })
}

/// The checkpoint refused because its entries file is missing or wrong.
fn refused(checkpoint: &Path, entries: &Path, why: &str) -> GenerateError {
    GenerateError::CheckpointRefused {
        path: checkpoint.to_owned(),
        reason: format!(
            "its entries file {} cannot be used: {why}",
            entries.display()
        ),
    }
}

/// When a run tier by tier saves: as a whole-game run does, at most every
/// `every` and never sooner than ten times what the last save took.
struct TierSaver<'a> {
    file: &'a File,
    entries: &'a Path,
    checkpoint: &'a Path,
    table: &'a str,
    positions: u64,
    every: Duration,
    /// When the last save ended (or the solve started).
    last: Instant,
    /// What the last save took.
    took: Duration,
    /// The save that failed, which stops the job.
    failed: Option<GenerateError>,
}

impl TierSaver<'_> {
    /// Whether it is time to save.
    fn due(&self) -> bool {
        self.last.elapsed() >= self.every.max(10 * self.took)
    }

    /// Syncs the entries file, then saves that the tiers below `left` are
    /// still to solve; `false` (the error kept) when either fails.
    fn save(&mut self, left: u64) -> bool {
        let start = Instant::now();
        let saved = self
            .file
            .sync_data()
            .map_err(|error| GenerateError::Checkpoint {
                path: self.entries.to_owned(),
                error,
            })
            .and_then(|()| {
                game_checkpoint::save_tiers(self.checkpoint, self.table, self.positions, left)
            });
        if let Err(error) = saved {
            self.failed = Some(error);
            return false;
        }
        self.last = Instant::now();
        self.took = self.last - start;
        true
    }
}

/// Removes the entries file when dropped armed, unless a checkpoint vouches
/// for it by then.
struct Unvouched<'a> {
    entries: &'a Path,
    checkpoint: &'a Path,
    armed: bool,
}

impl Drop for Unvouched<'_> {
    fn drop(&mut self) {
        if self.armed && !self.checkpoint.exists() {
            let _ = std::fs::remove_file(self.entries);
        }
    }
}

/// Takes the entries file's lock, waiting a moment for a run killed just
/// before (as the Euler checkpoint's lock does): another run holding it is
/// making the same table.
fn lock(file: &File, path: &Path) -> Result<(), GenerateError> {
    let deadline = Instant::now() + LOCK_WAIT;
    loop {
        match file.try_lock() {
            Ok(()) => return Ok(()),
            Err(TryLockError::WouldBlock) if Instant::now() < deadline => {
                std::thread::sleep(LOCK_WAIT / 40);
            }
            Err(TryLockError::WouldBlock) => {
                return Err(GenerateError::CheckpointLocked {
                    path: path.to_owned(),
                });
            }
            Err(TryLockError::Error(error)) => {
                return Err(GenerateError::Checkpoint {
                    path: path.to_owned(),
                    error,
                });
            }
        }
    }
}

/// Gives the file its `len` bytes on the disk now, where the system can:
/// a mapped file's pages are written back later, and a disk found full
/// then stops the process with a fault rather than an error.
fn preallocate(file: &File, len: u64) -> std::io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        let len = libc::off_t::try_from(len).map_err(std::io::Error::other)?;
        // SAFETY: the descriptor is the open file's, which outlives the
        // call; no memory is passed.
        let rc = unsafe { libc::posix_fallocate(file.as_raw_fd(), 0, len) };
        // Some file systems have no such call (EOPNOTSUPP, EINVAL): the
        // file stays sparse there, as on other systems.
        if rc != 0 && rc != libc::EOPNOTSUPP && rc != libc::EINVAL {
            return Err(std::io::Error::from_raw_os_error(rc));
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (file, len);
    Ok(())
}
