//! What a job is set with that its errors name: a setting
//! ([`JobSetting`], each front end naming it in its own terms) and the
//! memory limit ([`MemoryLimit`]) and where it comes from ([`LimitFrom`]).

use std::fmt;

/// Where a job's memory limit comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LimitFrom {
    /// Given with the job ([`Job::memory_limit`](super::Job::memory_limit); `--memory` on the
    /// command line).
    Given,
    /// The memory available when the job was planned
    /// ([`available_memory`](crate::memory::available_memory)).
    Available,
}

impl fmt::Display for LimitFrom {
    /// `--memory` or `the memory available`, as the limit's error says on
    /// the command line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            LimitFrom::Given => JobSetting::MemoryLimit.flag(),
            LimitFrom::Available => "the memory available",
        })
    }
}

/// A setting of a [`Job`](super::Job) that a [`GenerateError`](super::GenerateError) can be about. Each front end
/// names it in its own terms: `GenerateError`'s `Display` as `boardbase
/// generate` does ([`JobSetting::flag`]), [`GenerateError::message`](super::GenerateError::message) as the
/// caller says (Python: `memory=`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum JobSetting {
    /// [`Job::wdl_only`](super::Job::wdl_only).
    WdlOnly,
    /// [`Job::memory_limit`](super::Job::memory_limit).
    MemoryLimit,
    /// [`Job::checkpoint_every`](super::Job::checkpoint_every).
    CheckpointEvery,
    /// [`Job::symmetry`](super::Job::symmetry).
    Symmetry,
}

impl JobSetting {
    /// The option of `boardbase generate` that gives the setting:
    /// `--wdl-only`, `--memory`, `--checkpoint-every`, `--symmetry`.
    pub const fn flag(self) -> &'static str {
        match self {
            JobSetting::WdlOnly => "--wdl-only",
            JobSetting::MemoryLimit => "--memory",
            JobSetting::CheckpointEvery => "--checkpoint-every",
            JobSetting::Symmetry => "--symmetry",
        }
    }
}

/// A job's memory limit and where it comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemoryLimit {
    /// The limit, in bytes.
    pub bytes: u64,
    /// Where it comes from.
    pub from: LimitFrom,
}
