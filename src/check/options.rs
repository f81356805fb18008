//! How to run the program (`Options`), and where a check is (`CheckProgress`).

use std::path::PathBuf;
use std::time::Duration;

use super::presentation::Presentation;
use super::process::{MemoryControl, Program};

/// How to run the program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// The program under test.
    pub program: Program,
    /// CPU time limit per run.
    pub time_limit: Duration,
    /// Wall-clock guard per run (usually [`process::WALL_FACTOR`](super::process::WALL_FACTOR) times
    /// the CPU time limit).
    pub wall_limit: Duration,
    /// Memory limit per run, in bytes; `None`: no limit.
    pub memory_limit: Option<u64>,
    /// How the memory limit is held ([`MemoryControl::best`] is a cgroup
    /// where the machine allows one).
    pub memory_control: MemoryControl,
    /// Runs at once.
    pub jobs: usize,
    /// How many failing cases (and failing runs) the report keeps in full.
    pub keep: usize,
    /// Where to write every failing run's input, expected output, output
    /// and stderr ([`save_run`](super::save_run)); the directory must exist.
    pub save: Option<PathBuf>,
    /// Stop once this many runs failed (the runs under way finish);
    /// `None`: every run.
    pub max_failures: Option<usize>,
    /// How output is compared with the judge's.
    pub presentation: Presentation,
}

/// The default of [`Options::max_failures`]: a hopeless program is
/// stopped within seconds, and a thousand failing runs show its faults.
pub const DEFAULT_MAX_FAILURES: usize = 1000;

/// Where a check is, for a progress bar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CheckProgress {
    /// Runs finished.
    pub runs_done: usize,
    /// Runs in all.
    pub runs: usize,
    /// Cases judged.
    pub cases_done: usize,
    /// Cases not accepted so far.
    pub failed: usize,
}
