//! One table-file job as every front end runs it (`boardbase generate`,
//! Python's `boardbase.generate`): the checks, the memory plan, the
//! directory, the generation, the file written under a temporary name and
//! renamed, and the summary. A front end parses its arguments into a
//! [`Job`], shows the [`Plan`], runs it with its progress display and a
//! [`Cancel`] handle, and renders the [`Report`].

use std::fs::{self, OpenOptions};

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use boardbase_tables::shape::Shape;
use serde::Serialize;

use super::checkpoint::{Checkpoint, Geometry, Resume, checkpoint_path};
use super::setting::{LimitFrom, MemoryLimit};
use super::{
    Cancel, DEFAULT_EXCHANGE_BYTES, EulerOptions, EulerSummary, EulerTables, FlipOptions,
    GenerateError, Hooks, Progress, Puzzle, RanksOptions, check_cells, euler_classes,
    euler_classes_full_memory, euler_classes_memory, euler_full_memory, euler_full_tables,
    euler_memory, euler_rank_memory, euler_rank_write_memory, euler_ranks, flip_memory, in_pool,
};
use crate::euler::Outcome;
use crate::memory::{available_memory, peak_memory};
use crate::ranks::{Ranks, Solo, agree, any};
use crate::tablefile::{self, Destination, EulerColumns, FlipColumns, Table};

/// A table file to make: which puzzle, which board, where, and how.
///
/// [`plan`](Job::plan) checks the settings and says what the job takes;
/// [`Plan::run`] does it. The file is `DIR/euler-RxC.bin` or
/// `DIR/flip-RxC.bin`, written to a temporary name beside it and renamed
/// once complete: a failed or cancelled job leaves no partial file, and a
/// file of that name is replaced only by a complete new one.
///
/// ```
/// use boardbase::generate::{Job, Puzzle, ReportSummary};
/// use boardbase::progress::Cancel;
/// use boardbase::tables::shape::Shape;
///
/// let dir = std::env::temp_dir().join(format!("boardbase-doc-job-{}", std::process::id()));
/// let job = Job {
///     dir: dir.clone(),
///     ..Job::new(Puzzle::Flip, Shape::new(3, 3).unwrap())
/// };
/// let plan = job.plan()?;
/// assert_eq!(plan.path, dir.join("flip-3x3.bin"));
/// assert_eq!((plan.positions, plan.units()), (512, "boards"));
/// assert!(plan.memory_needed > plan.generate_memory);
///
/// let report = plan.run(|_progress| {}, &Cancel::new())?;
/// let ReportSummary::Flip(flip) = &report.summary else { panic!("a Flip job") };
/// assert_eq!((flip.solvable, flip.max_rounds), (512, 6));
/// assert_eq!(report.run.file_bytes, std::fs::metadata(&plan.path)?.len());
/// // The JSON of `boardbase generate flip 3x3 --format json`.
/// let json = serde_json::to_string(&report)?;
/// assert!(json.starts_with(r#"{"puzzle":"flip","rows":3,"cols":3,"positions":512,"solvable_positions":512,"#));
/// std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Job {
    /// The puzzle.
    pub puzzle: Puzzle,
    /// The board shape.
    pub shape: Shape,
    /// The directory the file goes into, created if missing.
    pub dir: PathBuf,
    /// Euler: the win/loss bits only, even where the full tables fit in
    /// the memory limit (where they do not, the job makes win/loss only
    /// anyway and its [`Plan`] says so). A Flip job refuses it
    /// ([`GenerateError::WdlOnlyFlip`]).
    pub wdl_only: bool,
    /// Threads: `None` for every core (rayon's global pool).
    pub threads: Option<usize>,
    /// The most memory the job may take, in bytes: `None` for the memory
    /// available ([`available_memory`]; no limit where the system does not
    /// say).
    pub memory_limit: Option<u64>,
    /// Euler: how often the finished win/loss layers are saved to the
    /// checkpoint (see [`EulerOptions::checkpoint_every`]); default
    /// [`DEFAULT_CHECKPOINT_EVERY`]. A Flip job saves no checkpoint and
    /// refuses any other value ([`GenerateError::CheckpointFlip`]) rather than
    /// ignore it.
    pub checkpoint_every: Duration,
    /// Processes the job is spread over, the ranks of an MPI job (see
    /// [`Plan::run_ranks`]): 1, this process alone, by default. Each holds
    /// about `1/ranks` of the win/loss bits; the memory figures of the
    /// [`Plan`] are then one rank's. Euler only ([`GenerateError::RanksFlip`]).
    /// [`Ranks::size`](crate::ranks::Ranks::size) of the ranks it runs on.
    pub ranks: usize,
    /// How many of the ranks share this machine: the memory available is
    /// split between them. 1 by default.
    /// [`Ranks::local_size`](crate::ranks::Ranks::local_size).
    pub local_ranks: usize,
    /// Over several ranks, the exchange budget: a rank holds at most this
    /// divided by the number of ranks of other ranks' blocks at once (see
    /// [`RanksOptions::exchange_bytes`]); counted in the plan's memory.
    /// [`DEFAULT_EXCHANGE_BYTES`] by default; unused by one process.
    pub exchange_bytes: u64,
    /// Compress the table once written ([`Table::compress`]: version 4,
    /// its large columns in blocks of Zstandard frames), as `boardbase
    /// compress` would; the disk check counts a second file of the raw
    /// table's length, which the compressed one is written beside before
    /// it replaces it. Cancelled while it compresses, the job keeps the
    /// table as written: [`GenerateError::NotCompressed`]. Its progress
    /// is [`Phase::Compress`](super::Phase::Compress). `false` by default.
    pub compress: bool,
    /// One entry a class of positions under the board's symmetries, a
    /// table of version 5. Euler ([`EulerOptions::symmetry`]): its full
    /// tables hold moves left without best moves; it keeps its checkpoint
    /// and runs over ranks as a run by position does. Flip
    /// ([`FlipOptions::symmetry`]): every column, its press sets mapped to
    /// the board asked about. `false` by default.
    pub symmetry: bool,
}

/// How often a [`Job`] saves its finished win/loss layers by default: every
/// 10 seconds. A run killed loses at most about that much of its win/loss
/// work, and a run shorter than that (5×6 win/loss: half a second) pays
/// nothing for its checkpoint but creating it.
pub const DEFAULT_CHECKPOINT_EVERY: Duration = Duration::from_secs(10);

impl Job {
    /// The job with the defaults: the current directory, the full tables
    /// where they are made, every core, the memory available.
    pub fn new(puzzle: Puzzle, shape: Shape) -> Job {
        Job {
            puzzle,
            shape,
            dir: PathBuf::from("."),
            wdl_only: false,
            threads: None,
            memory_limit: None,
            checkpoint_every: DEFAULT_CHECKPOINT_EVERY,
            ranks: 1,
            local_ranks: 1,
            exchange_bytes: DEFAULT_EXCHANGE_BYTES,
            compress: false,
            symmetry: false,
        }
    }

    /// Checks the settings and works out what the job takes.
    ///
    /// # Errors
    ///
    /// [`GenerateError::TooManyCells`] past the puzzle's
    /// [`max_cells`](Puzzle::max_cells), [`GenerateError::NoThreads`] for
    /// `threads: Some(0)`,
    /// [`GenerateError::WdlOnlyFlip`] and [`GenerateError::CheckpointFlip`]: the
    /// errors of [`is_usage`](GenerateError::is_usage). Nothing is allocated or
    /// written.
    pub fn plan(&self) -> Result<Plan, GenerateError> {
        let (puzzle, shape) = (self.puzzle, self.shape);
        puzzle.check_cells(shape)?;
        if self.wdl_only && puzzle == Puzzle::Flip {
            return Err(GenerateError::WdlOnlyFlip);
        }
        if self.checkpoint_every != DEFAULT_CHECKPOINT_EVERY && puzzle == Puzzle::Flip {
            return Err(GenerateError::CheckpointFlip);
        }
        if self.threads == Some(0) {
            return Err(GenerateError::NoThreads);
        }
        if self.ranks > 1 && puzzle == Puzzle::Flip {
            return Err(GenerateError::RanksFlip { ranks: self.ranks });
        }
        let memory_limit = match self.memory_limit {
            Some(bytes) => Some(MemoryLimit {
                bytes,
                from: LimitFrom::Given,
            }),
            None => available_memory().map(|bytes| MemoryLimit {
                bytes: bytes / self.local_ranks.max(1) as u64,
                from: LimitFrom::Available,
            }),
        };
        if self.ranks > 1 {
            return self.plan_ranks(memory_limit);
        }
        // The full tables are made when they fit beside the write's buffers.
        let generate_limit = memory_limit.map(|l| l.bytes.saturating_sub(tablefile::WRITE_MEMORY));
        let (generate_memory, full, full_tables_memory) = match puzzle {
            Puzzle::Euler => {
                let options = EulerOptions {
                    memory_limit: Some(generate_limit.unwrap_or(u64::MAX)),
                    ..self.euler_options(None)
                };
                let full = euler_full_tables(shape, &options);
                let full_memory = if self.symmetry {
                    euler_classes_full_memory(shape, self.threads)
                } else {
                    euler_full_memory(shape, self.threads)
                };
                let left_out =
                    (!full && !self.wdl_only).then(|| full_memory + tablefile::WRITE_MEMORY);
                (euler_memory(shape, &options)?, full, left_out)
            }
            Puzzle::Flip => (flip_memory(shape, &self.flip_options(None))?, false, None),
        };
        let name = puzzle.file_name(shape);
        let path = self.dir.join(&name);
        let (checkpoint, resume, checkpoint_bytes) = match puzzle {
            Puzzle::Euler => {
                let checkpoint = checkpoint_path(&path);
                let geometry = self.geometry();
                let resume = Checkpoint::inspect(&checkpoint, &geometry)?;
                (Some(checkpoint), resume, geometry.checkpoint_len(full))
            }
            Puzzle::Flip => (None, None, 0),
        };
        let file_bytes = if self.symmetry {
            tablefile::expected_class_file_len(puzzle, shape, full)
        } else {
            tablefile::expected_file_len(puzzle, shape, full)
        }
        .map_err(|error| GenerateError::Table {
            path: PathBuf::from(&name),
            error,
        })?;
        // The same tables the other way.
        let symmetry_memory = match puzzle {
            Puzzle::Euler => Some(SymmetryMemory {
                with: if full {
                    euler_classes_full_memory(shape, self.threads)
                } else {
                    euler_classes_memory(shape, self.threads)
                },
                without: if full {
                    euler_full_memory(shape, self.threads)
                } else {
                    euler_memory(
                        shape,
                        &EulerOptions {
                            wdl_only: true,
                            symmetry: false,
                            ..self.euler_options(None)
                        },
                    )
                    .unwrap_or(u64::MAX)
                },
            }),
            Puzzle::Flip => {
                let memory = |symmetry| {
                    let options = FlipOptions {
                        symmetry,
                        ..self.flip_options(None)
                    };
                    flip_memory(shape, &options).unwrap_or(u64::MAX)
                };
                Some(SymmetryMemory {
                    with: memory(true),
                    without: memory(false),
                })
            }
        };
        let write_memory = tablefile::write_memory(&path, file_bytes);
        Ok(Plan {
            job: self.clone(),
            path,
            checkpoint,
            checkpoint_bytes,
            resume,
            full,
            full_tables_memory,
            positions: 1u64 << shape.cells(),
            generate_memory,
            symmetry_memory,
            write_memory,
            memory_needed: generate_memory + write_memory,
            file_bytes,
            memory_limit,
        })
    }

    /// What the checkpoint of this Euler job holds: its bitset and columns
    /// by position, or by class ([`symmetry`](Job::symmetry)).
    fn geometry(&self) -> Geometry {
        if self.symmetry {
            Geometry::of_classes(self.shape)
        } else {
            Geometry::of_positions(self.shape)
        }
    }

    /// The plan of an Euler job over several ranks: one rank's memory, and
    /// the checkpoint they share.
    fn plan_ranks(&self, memory_limit: Option<MemoryLimit>) -> Result<Plan, GenerateError> {
        let shape = self.shape;
        let name = self.puzzle.file_name(shape);
        let file_bytes = |full| {
            if self.symmetry {
                tablefile::expected_class_file_len(Puzzle::Euler, shape, full)
            } else {
                tablefile::expected_file_len(Puzzle::Euler, shape, full)
            }
            .map_err(|error| GenerateError::Table {
                path: PathBuf::from(&name),
                error,
            })
        };
        let needs = |full| -> Result<(u64, u64, u64), GenerateError> {
            let options = RanksOptions {
                full,
                exchange_bytes: self.exchange_bytes,
                cancel: None,
                checkpoint: None,
                checkpoint_every: self.checkpoint_every,
            };
            // Every rank of a job by class holds the columns it writes; the
            // ranks by position pass the winning blocks round in windows.
            let (generate, write) = if self.symmetry {
                check_cells(Puzzle::Euler, shape)?;
                (
                    euler_classes::euler_classes_rank_memory(shape, self.ranks, full),
                    euler_classes::euler_classes_rank_write_memory(shape),
                )
            } else {
                (
                    euler_rank_memory(shape, self.ranks, &options)?,
                    euler_rank_write_memory(shape, self.ranks, self.exchange_bytes),
                )
            };
            Ok((generate, write, file_bytes(full)?))
        };
        let fits = |(generate, write, _): (u64, u64, u64)| {
            memory_limit.is_none_or(|l| generate + write <= l.bytes)
        };
        let full_needs = needs(true)?;
        let full = !self.wdl_only && fits(full_needs);
        let (generate_memory, write_memory, file_bytes) =
            if full { full_needs } else { needs(false)? };
        let path = self.dir.join(&name);
        let checkpoint = checkpoint_path(&path);
        let geometry = self.geometry();
        let resume = Checkpoint::inspect(&checkpoint, &geometry)?;
        Ok(Plan {
            job: self.clone(),
            path,
            checkpoint: Some(checkpoint),
            checkpoint_bytes: geometry.checkpoint_len(full),
            resume,
            full,
            full_tables_memory: (!full && !self.wdl_only).then_some(full_needs.0 + full_needs.1),
            positions: 1u64 << shape.cells(),
            generate_memory,
            symmetry_memory: None,
            write_memory,
            memory_needed: generate_memory + write_memory,
            file_bytes,
            memory_limit,
        })
    }

    /// [`plan`](Job::plan), then [`Plan::run`]: the whole job in one call.
    pub fn run(
        &self,
        progress: impl Fn(Progress) + Sync,
        cancel: &Cancel,
    ) -> Result<Report, GenerateError> {
        self.plan()?.run(progress, cancel)
    }

    fn euler_options(&self, cancel: Option<&Cancel>) -> EulerOptions {
        EulerOptions {
            wdl_only: self.wdl_only,
            threads: self.threads,
            memory_limit: None,
            cancel: cancel.cloned(),
            checkpoint: None,
            checkpoint_every: self.checkpoint_every,
            symmetry: self.symmetry,
        }
    }

    fn flip_options(&self, cancel: Option<&Cancel>) -> FlipOptions {
        FlipOptions {
            threads: self.threads,
            memory_limit: None,
            cancel: cancel.cloned(),
            symmetry: self.symmetry,
        }
    }
}

/// The memory of a job's tables both ways ([`Plan::symmetry_memory`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SymmetryMemory {
    /// Bytes with one entry a class of positions
    /// ([`euler_classes_memory`], [`flip_memory`]).
    pub with: u64,
    /// Bytes with one entry a position.
    pub without: u64,
}

/// What a [`Job`] takes, worked out before anything is allocated or
/// written (what `boardbase generate` says on its first line), and the
/// job itself, ready to [`run`](Plan::run).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    job: Job,
    /// The table file: the job's directory and `euler-RxC.bin` or
    /// `flip-RxC.bin`.
    pub path: PathBuf,
    /// Euler: the checkpoint beside the table (`euler-RxC.bin.checkpoint`),
    /// where the run saves each win/loss layer as it completes and which
    /// it removes once the table is written. Flip: `None` (a Flip job is a
    /// breadth-first search of at most 2^25 boards, and starts over).
    pub checkpoint: Option<PathBuf>,
    /// The most bytes the checkpoint takes on disk while the job runs.
    pub checkpoint_bytes: u64,
    /// What an earlier run left in the checkpoint, which this run resumes
    /// from.
    pub resume: Option<Resume>,
    /// Euler: whether the full tables are made (moves left and best
    /// moves besides win/loss): unless win/loss only is asked, whenever
    /// they fit in the memory limit. Flip: `false`.
    pub full: bool,
    /// Euler, win/loss only although not asked: the bytes the full tables
    /// would need, over the memory limit (what the plan says to explain
    /// it). `None` otherwise.
    pub full_tables_memory: Option<u64>,
    /// Positions (Euler) or boards (Flip): `2^cells`.
    pub positions: u64,
    /// Bytes the generation allocates ([`euler_memory`],
    /// [`flip_memory`]).
    pub generate_memory: u64,
    /// In one process: the bytes the generation of the same tables
    /// allocates with one entry a class of positions and with one entry a
    /// position ([`Job::symmetry`] on and off), what the plan says of
    /// both. `None` over several ranks.
    pub symmetry_memory: Option<SymmetryMemory>,
    /// Bytes the write allocates besides the table: in one process
    /// [`tablefile::write_memory`] (to a device or a pipe, the block CRCs
    /// too, which it holds between its two passes); on each rank
    /// of a job over several, [`euler_rank_write_memory`] (each rank writes
    /// its blocks' CRCs in place, and the win/loss column in windows), or
    /// by class a few buffers and the `classes` column (every rank holds
    /// the columns it writes).
    pub write_memory: u64,
    /// Bytes the job needs: `generate_memory + write_memory`.
    pub memory_needed: u64,
    /// The file's length in bytes.
    pub file_bytes: u64,
    /// The limit the job is held to, if any.
    pub memory_limit: Option<MemoryLimit>,
}

impl Plan {
    /// The job planned.
    pub fn job(&self) -> &Job {
        &self.job
    }

    /// What the table holds: `full tables (win/loss, moves left, best
    /// move)`, `win/loss only`, or (Flip) `rounds, press sets and optimal
    /// set counts to each colour`.
    pub fn holds(&self) -> &'static str {
        match (self.job.puzzle, self.full) {
            (Puzzle::Euler, false) if self.job.symmetry => {
                "win/loss only, one entry a class of the board's symmetries"
            }
            (Puzzle::Euler, true) if self.job.symmetry => {
                "full tables (win/loss, moves left), one entry a class of the board's symmetries"
            }
            (Puzzle::Euler, true) => "full tables (win/loss, moves left, best move)",
            (Puzzle::Euler, false) => "win/loss only",
            (Puzzle::Flip, _) if self.job.symmetry => {
                "rounds, press sets and optimal set counts to each colour, one entry a class of the board's symmetries"
            }
            (Puzzle::Flip, _) => "rounds, press sets and optimal set counts to each colour",
        }
    }

    /// What [`positions`](Plan::positions) counts: `positions` (Euler) or
    /// `boards` (Flip).
    pub fn units(&self) -> &'static str {
        match self.job.puzzle {
            Puzzle::Euler => "positions",
            Puzzle::Flip => "boards",
        }
    }

    /// Temporary files of this table left in the directory by runs that
    /// were killed outright (`.NAME.PID-N.tmp` whose process is gone;
    /// Linux, where `/proc` says), for a note: they are never removed
    /// here, nor ever read as tables.
    pub fn leftovers(&self) -> Vec<PathBuf> {
        leftovers(&self.job.dir, &self.job.puzzle.file_name(self.job.shape))
    }

    /// The checks made before hours of work can be lost: the memory
    /// limit, then the directory (created if missing, a file can be made in
    /// it, and, where the system says (Unix, with the `check` feature), the
    /// file system has room for the file). [`run`](Plan::run) makes them
    /// again; a front end calls this first to say what is wrong before it
    /// shows anything else.
    ///
    /// # Errors
    ///
    /// [`GenerateError::JobOverMemoryLimit`], [`GenerateError::Write`] (the directory),
    /// [`GenerateError::DiskSpace`].
    pub fn check(&self) -> Result<(), GenerateError> {
        let job = &self.job;
        if let Some(limit) = self.memory_limit
            && self.memory_needed > limit.bytes
        {
            return Err(GenerateError::JobOverMemoryLimit {
                what: format!("{} {}", job.puzzle, job.shape),
                needed: self.memory_needed,
                limit,
            });
        }
        // A checkpoint already there has its room.
        let checkpoint = match &self.checkpoint {
            Some(c) if !c.exists() => self.checkpoint_bytes,
            _ => 0,
        };
        check_dir(
            &job.dir,
            &job.puzzle.file_name(job.shape),
            &self.path,
            self.file_bytes + checkpoint + compress_room(job.compress, self.file_bytes),
        )
    }

    /// The checkpoint of a job that stopped, kept when it holds a layer to
    /// resume from (every layer finished is saved as the job stops) and
    /// removed when it holds none: the message then says nothing was kept.
    fn keep_checkpoint(&self) -> Option<PathBuf> {
        let checkpoint = self.checkpoint.as_ref()?;
        match Checkpoint::inspect(checkpoint, &self.job.geometry()) {
            Ok(Some(resume)) if resume.layers_done == 0 => {
                let _ = fs::remove_file(checkpoint);
                None
            }
            Ok(None) => None,
            _ => Some(checkpoint.clone()),
        }
    }

    /// Runs the job: [`check`](Plan::check), the generation on every core
    /// (or [`Job::threads`]), the table written to a temporary file beside
    /// [`path`](Plan::path) and renamed to it, and the summary.
    ///
    /// `progress` hears of every phase, from the worker threads: those of
    /// the generation, then [`Phase::Checksum`](super::Phase::Checksum)
    /// and [`Phase::Write`](super::Phase::Write) (bytes), and with
    /// [`Job::compress`] [`Phase::Compress`](super::Phase::Compress). Once `cancel` is
    /// cancelled (from the callback, another thread, a signal handler) the
    /// job stops within a fraction of a second and returns
    /// [`GenerateError::NotWritten`]: nothing is left under the final name (a file
    /// already there stays as it was) and the temporary file is removed.
    ///
    /// # Errors
    ///
    /// Those of [`check`](Plan::check); the generator's errors (the
    /// memory could not be had, the threads could not start);
    /// [`GenerateError::Table`], [`GenerateError::Write`] (writing the file);
    /// [`GenerateError::NotWritten`].
    pub fn run(
        &self,
        progress: impl Fn(Progress) + Sync,
        cancel: &Cancel,
    ) -> Result<Report, GenerateError> {
        match self.job.puzzle {
            // One process is the job of one rank.
            Puzzle::Euler => self.run_on(&Solo, progress, cancel).map(|r| r.report),
            Puzzle::Flip => self.run_flip(progress, cancel),
        }
    }

    /// [`run`](Plan::run) of a Flip job: a breadth-first search in one
    /// process, written through [`Table::write`].
    fn run_flip(
        &self,
        progress: impl Fn(Progress) + Sync,
        cancel: &Cancel,
    ) -> Result<Report, GenerateError> {
        let start = Instant::now();
        let job = &self.job;
        let shape = job.shape;
        self.check()?;
        let options = FlipOptions {
            memory_limit: self.memory_limit.map(|l| l.bytes),
            ..job.flip_options(Some(cancel))
        };
        let made = super::flip(shape, &options, &progress).map_err(|e| self.stopped(e))?;
        let mut s = made.summary.clone();
        let table = Table::from_flip(shape, FlipColumns::from(made)).map_err(|error| {
            GenerateError::Table {
                path: self.path.clone(),
                error,
            }
        })?;
        s.histogram.truncate(usize::from(s.max_rounds) + 1);
        let summary = ReportSummary::Flip(FlipReport {
            positions: s.boards,
            solvable: s.solvable,
            impossible: s.boards - s.solvable,
            reach_white: s.reach[0],
            reach_black: s.reach[1],
            histogram: s.histogram,
            max_rounds: s.max_rounds,
        });
        self.write_one(table, summary, start, &progress, cancel)
    }

    /// The end of a job of one process of its own (Flip), its `table`
    /// made from `start` on: the file written, its
    /// checkpoint removed (of no more use), the file compressed when asked,
    /// and the report.
    fn write_one(
        &self,
        table: Table,
        summary: ReportSummary,
        start: Instant,
        progress: &(impl Fn(Progress) + Sync),
        cancel: &Cancel,
    ) -> Result<Report, GenerateError> {
        let generated = start.elapsed();
        let cancelled = |removed_temporary| self.not_written(removed_temporary);
        let file_bytes = write_table(&table, &self.path, progress, cancel, cancelled)?;
        drop(table);
        if let Some(checkpoint) = &self.checkpoint {
            fs::remove_file(checkpoint).map_err(|error| GenerateError::Write {
                path: checkpoint.clone(),
                error,
            })?;
        }
        let written =
            compress_written(&self.path, self.job.compress, file_bytes, progress, cancel)?;
        Ok(self.report(summary, start.elapsed(), generated, peak_memory(), written))
    }

    /// A job of one process of its own, stopped: nothing written (the
    /// temporary file removed or not), its checkpoint kept when it holds
    /// work.
    fn not_written(&self, removed_temporary: bool) -> GenerateError {
        GenerateError::NotWritten {
            path: self.path.clone(),
            removed_temporary,
            checkpoint: self.keep_checkpoint(),
        }
    }

    /// A generation's error in a job of one process of its own: a cancel
    /// is the job stopped before its file.
    fn stopped(&self, error: GenerateError) -> GenerateError {
        match error {
            GenerateError::Cancelled => self.not_written(false),
            error => error,
        }
    }

    /// The summary of a job that took `total` (`generated` of it to
    /// generate), with the peak memory given and the file's length.
    fn report(
        &self,
        summary: ReportSummary,
        total: Duration,
        generated: Duration,
        peak_memory: Option<u64>,
        (file_bytes, uncompressed_bytes): (u64, Option<u64>),
    ) -> Report {
        let shape = self.job.shape;
        Report {
            puzzle: self.job.puzzle,
            rows: shape.rows(),
            cols: shape.cols(),
            summary,
            run: RunFigures {
                seconds: seconds(total),
                generate_seconds: seconds(generated),
                write_seconds: seconds(total.saturating_sub(generated)),
                memory_needed: self.memory_needed,
                peak_memory,
                file: self.path.display().to_string(),
                file_bytes,
                uncompressed_bytes,
            },
        }
    }

    /// Runs the job over the ranks of `ranks`, every rank calling this
    /// with the same plan (see [`crate::ranks`]): the checks, each rank's
    /// share of the generation, the file written by every rank in parts
    /// (the same bytes as [`run`](Plan::run) writes) and renamed, and the
    /// summary (the same on every rank; its figures of time and memory are
    /// the largest of any rank). A failure on any rank stops every rank:
    /// the failing rank returns its error, the others
    /// [`GenerateError::OtherRank`]. The ranks save the win/loss layers to the
    /// plan's [`checkpoint`](Plan::checkpoint), which every rank must see
    /// (a directory they share), and resume from it as one process does;
    /// either resumes the other's.
    ///
    /// # Errors
    ///
    /// Those of [`run`](Plan::run), and [`GenerateError::RankCount`] when the
    /// job was planned for another number of ranks.
    pub fn run_ranks(
        &self,
        ranks: &dyn Ranks,
        progress: impl Fn(Progress) + Sync,
        cancel: &Cancel,
    ) -> Result<RanksReport, GenerateError> {
        let job = &self.job;
        if ranks.size() != job.ranks || job.puzzle != Puzzle::Euler {
            return Err(GenerateError::RankCount {
                planned: job.ranks,
                running: ranks.size(),
            });
        }
        self.run_on(ranks, progress, cancel)
    }

    /// The one run of an Euler job, on each rank of `ranks` (one process:
    /// [`Solo`]).
    fn run_on(
        &self,
        ranks: &dyn Ranks,
        progress: impl Fn(Progress) + Sync,
        cancel: &Cancel,
    ) -> Result<RanksReport, GenerateError> {
        let start = Instant::now();
        let job = &self.job;
        let shape = job.shape;
        agree(ranks, self.check())?;
        // Each rank planned with its own memory: they must agree on what the
        // table holds, or they would make different calls and files.
        let full = ranks.sum(u64::from(self.full));
        if full != 0 && full != ranks.size() as u64 {
            return Err(GenerateError::RanksDisagree {
                full: full as usize,
                ranks: ranks.size(),
            });
        }
        let options = RanksOptions {
            full: self.full,
            exchange_bytes: job.exchange_bytes,
            cancel: Some(cancel.clone()),
            checkpoint: self.checkpoint.clone(),
            checkpoint_every: job.checkpoint_every,
        };
        // Rank 0 looks after the checkpoint (the others only write into it).
        let root = ranks.rank() == 0;
        let cancelled = |removed_temporary| GenerateError::NotWritten {
            path: self.path.clone(),
            removed_temporary,
            checkpoint: if root { self.keep_checkpoint() } else { None },
        };
        let table_error = |error| GenerateError::writing(&self.path, error);
        let hooks = Hooks {
            progress: &progress,
            cancel: Some(cancel),
        };
        // Cancelled before it began: nothing made, not even the checkpoint.
        let make = |ranks: &dyn Ranks| {
            if job.symmetry {
                euler_classes::make(shape, &options, ranks, &hooks).map(Made::Classes)
            } else {
                euler_ranks::make(shape, &options, ranks, &hooks).map(Made::Positions)
            }
        };
        let made = if any(ranks, cancel.is_cancelled()) {
            Err(GenerateError::Cancelled)
        } else if ranks.size() == 1 {
            // One process on a pool of its threads; the ranks on the pool
            // their front end built (only the thread that called `ranks`
            // before may call it: MPI's "funneled" threading).
            in_pool(job.threads, || make(&Solo))
        } else {
            make(ranks)
        };
        let made = made.map_err(|error| match error {
            GenerateError::Cancelled => cancelled(false),
            error => error,
        })?;
        let (summary, exchanged) = (made.summary(), made.exchanged());
        let (generated, file_bytes) = if ranks.size() == 1 {
            // One process holds the whole table: it writes it as any table
            // is written, its progress heard and its cancel honoured.
            let table = Table::from_euler(shape, EulerColumns::from(made.into_tables()))
                .map_err(table_error)?;
            let generated = start.elapsed();
            let written = write_table(&table, &self.path, &progress, cancel, cancelled)?;
            (generated, written)
        } else {
            let generated = start.elapsed();
            let written = made.write(&self.path, ranks)?;
            (generated, written)
        };
        // The table is complete under its name (rank 0 renamed it after
        // every rank had written its part): the layers saved for a rerun
        // are of no more use.
        let removed = match &self.checkpoint {
            Some(checkpoint) if root => {
                fs::remove_file(checkpoint).map_err(|error| GenerateError::Write {
                    path: checkpoint.clone(),
                    error,
                })
            }
            _ => Ok(()),
        };
        agree(ranks, removed)?;
        // Rank 0 compresses the file the ranks wrote (its checkpoint gone:
        // the table is whole whatever happens to the compression); the
        // others wait for it, and every rank reports rank 0's lengths.
        let written = if root {
            compress_written(&self.path, job.compress, file_bytes, &progress, cancel)
        } else {
            Ok((file_bytes, None))
        };
        let encoded = written.map(|(len, before)| {
            [len, before.unwrap_or(u64::MAX)]
                .iter()
                .flat_map(|v| v.to_le_bytes())
                .collect()
        });
        let lens = crate::ranks::agree_gather(ranks, encoded)?;
        let word = |i: usize| {
            lens.first()
                .and_then(|b| b.get(8 * i..8 * i + 8))
                .map_or(0, |b| u64::from_le_bytes(b.try_into().unwrap_or_default()))
        };
        let written = (word(0), Some(word(1)).filter(|&v| v != u64::MAX));
        let total = start.elapsed();
        let largest = |d: Duration| Duration::from_nanos(ranks.max(d.as_nanos() as u64));
        let (total, generated) = (largest(total), largest(generated));
        let peak = Some(ranks.max(peak_memory().unwrap_or(0))).filter(|&p| p > 0);
        Ok(RanksReport {
            report: self.report(summary, total, generated, peak, written),
            exchanged,
        })
    }
}

/// What a rank of an Euler job made: tables by position or by class.
enum Made {
    Positions(euler_ranks::RankTables),
    Classes(euler_classes::ClassRankTables),
}

impl Made {
    /// The summary of the whole table, the same on every rank.
    fn summary(&self) -> ReportSummary {
        match self {
            Made::Positions(made) => EulerReport::of(&made.summary, !made.full()),
            Made::Classes(made) => EulerReport::of(&made.summary, !made.full()),
        }
    }

    /// The bytes of blocks the ranks exchanged a layer: none by class,
    /// where every rank holds the whole win/loss bitset.
    fn exchanged(&self) -> Vec<u64> {
        match self {
            Made::Positions(made) => made.exchanged.clone(),
            Made::Classes(_) => Vec::new(),
        }
    }

    /// The tables of a job of one process, which holds them whole.
    fn into_tables(self) -> EulerTables {
        match self {
            Made::Positions(made) => made.into_tables(),
            Made::Classes(made) => made.into_tables(),
        }
    }

    /// Writes this rank's part of the table file with the other ranks.
    fn write(&self, path: &Path, ranks: &dyn Ranks) -> Result<u64, GenerateError> {
        match self {
            Made::Positions(made) => made.write(path, ranks),
            Made::Classes(made) => made.write(path, ranks),
        }
    }
}

/// What [`Plan::run_ranks`] returns: the job's summary, and what the ranks
/// sent one another.
#[derive(Clone, Debug, PartialEq)]
pub struct RanksReport {
    /// The summary, as a job of one process gives it.
    pub report: Report,
    /// Bytes of blocks the ranks received from one another in each layer
    /// of the win/loss pass, all ranks together: layer `i` holds the
    /// blocks with `i` fewer top cells covered than the full board's.
    /// Empty for a job by class ([`Job::symmetry`]): every rank holds the
    /// whole win/loss bitset, and the ranks OR each layer together.
    pub exchanged: Vec<u64>,
}

/// The summary of a job: the board, what the table holds, and how the run
/// went. Its JSON (serde) is the object of `boardbase generate --format
/// json` (docs/json.md, docs/schema/generate.schema.json).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    /// The puzzle.
    pub puzzle: Puzzle,
    /// Rows of the board.
    pub rows: usize,
    /// Columns of the board.
    pub cols: usize,
    /// What the table holds.
    #[serde(flatten)]
    pub summary: ReportSummary,
    /// Time, memory and the file written.
    #[serde(flatten)]
    pub run: RunFigures,
}

/// What a table holds, by puzzle (in JSON, the fields of one or the
/// other).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum ReportSummary {
    /// An Euler table.
    Euler(EulerReport),
    /// A Flip table.
    Flip(FlipReport),
}

/// What an Euler table holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EulerReport {
    /// Whether the table is win/loss only.
    pub wdl_only: bool,
    /// Positions: `2^cells`.
    pub positions: u64,
    /// Open positions won by the player to move.
    pub winning: u64,
    /// Open positions lost by the player to move.
    pub losing: u64,
    /// Who wins the empty board.
    pub empty: Outcome,
    /// Moves left from the empty board with perfect play (full tables
    /// only).
    pub empty_moves_left: Option<u8>,
}

impl EulerReport {
    /// The summary of the tables a job made, win/loss only or not.
    fn of(s: &EulerSummary, wdl_only: bool) -> ReportSummary {
        ReportSummary::Euler(EulerReport {
            wdl_only,
            positions: s.positions,
            winning: s.winning,
            losing: s.losing,
            empty: s.empty,
            empty_moves_left: s.empty_moves_left,
        })
    }
}

/// What a Flip table holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FlipReport {
    /// Boards: `2^cells`.
    pub positions: u64,
    /// Boards that reach a colour (`solvable_positions`: `solvable` is a
    /// yes/no in every answer).
    #[serde(rename = "solvable_positions")]
    pub solvable: u64,
    /// Boards that reach neither colour (`impossible_positions`).
    #[serde(rename = "impossible_positions")]
    pub impossible: u64,
    /// Boards that reach all white.
    pub reach_white: u64,
    /// Boards that reach all black.
    pub reach_black: u64,
    /// Solvable boards by fewest rounds: index = rounds, up to the most.
    pub histogram: Vec<u64>,
    /// The most rounds any solvable board needs.
    pub max_rounds: u8,
}

/// Time, memory and the file a job wrote.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunFigures {
    /// Seconds in all (to the millisecond).
    pub seconds: f64,
    /// Seconds generating.
    pub generate_seconds: f64,
    /// Seconds writing the file.
    pub write_seconds: f64,
    /// Bytes the job needed ([`Plan::memory_needed`];
    /// `memory_needed_bytes`).
    #[serde(rename = "memory_needed_bytes")]
    pub memory_needed: u64,
    /// The process's peak resident memory, where the system says
    /// ([`peak_memory`]; `peak_memory_bytes`).
    #[serde(rename = "peak_memory_bytes")]
    pub peak_memory: Option<u64>,
    /// The file written, as given (the directory joined with its name).
    pub file: String,
    /// Its length in bytes.
    pub file_bytes: u64,
    /// Its length before it was compressed, when the job compressed it
    /// ([`Job::compress`]); absent from the JSON otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub uncompressed_bytes: Option<u64>,
}

/// The room on disk a job's compression takes besides the table: a second
/// file, at most the raw table's length, until it replaces the first.
pub(super) fn compress_room(compress: bool, file_bytes: u64) -> u64 {
    if compress { file_bytes } else { 0 }
}

/// The table just written at `path` (`file_bytes` long), compressed in
/// place when `compress` says: its length then, and its length before
/// when it was compressed. Once `cancel` is cancelled the compression
/// stops, the table kept as written: [`GenerateError::NotCompressed`].
pub(super) fn compress_written(
    path: &Path,
    compress: bool,
    file_bytes: u64,
    progress: &(impl Fn(Progress) + Sync),
    cancel: &Cancel,
) -> Result<(u64, Option<u64>), GenerateError> {
    if !compress {
        return Ok((file_bytes, None));
    }
    let error = |error| GenerateError::writing(path, error);
    let cancelled = || GenerateError::NotCompressed {
        path: path.to_owned(),
    };
    let compressed = match Table::open(path) {
        Ok(table) => {
            table.compress_cancellable(path, &mut |p| progress(p), cancel, cancelled, error)
        }
        // A game of the model's table: the same columns, another header.
        Err(tablefile::TableError::UnknownPuzzle(_)) => tablefile::GameTable::open_game(path)
            .map_err(error)?
            .compress_cancellable(path, &mut |p| progress(p), cancel, cancelled, error),
        Err(e) => return Err(error(e)),
    };
    Ok((compressed?, Some(file_bytes)))
}

/// Writes `table` at `path` (a temporary file renamed), a job's errors for
/// the write's: `cancelled(removed_temporary)` once `cancel` stops it.
pub(super) fn write_table<I: tablefile::Subject>(
    table: &Table<I>,
    path: &Path,
    progress: &(impl Fn(Progress) + Sync),
    cancel: &Cancel,
    cancelled: impl Fn(bool) -> GenerateError,
) -> Result<u64, GenerateError> {
    table.write_cancellable(
        path,
        &mut |p| progress(p),
        cancel,
        // Its temporary file was removed where there was one: not on a
        // device or a pipe, written in place.
        || {
            cancelled(matches!(
                tablefile::destination(path),
                Destination::Replace(_)
            ))
        },
        |error| GenerateError::writing(path, error),
    )
}

/// The checks of a table's directory before the work: `dir` created if
/// missing, a file (named after the table's `name`) can be made in it, and,
/// where the system says, it has `needed` bytes free for the table at
/// `path`.
pub(super) fn check_dir(
    dir: &Path,
    name: &str,
    path: &Path,
    needed: u64,
) -> Result<(), GenerateError> {
    let dir_error = |error| GenerateError::Write {
        path: dir.to_owned(),
        error,
    };
    if dir.exists() && !dir.is_dir() {
        // create_dir_all says only "File exists" of a file in the way.
        return Err(dir_error(std::io::Error::other(
            "not a directory (--dir names a directory to write the table into)",
        )));
    }
    fs::create_dir_all(dir).map_err(dir_error)?;
    let probe = dir.join(format!(".{}.{}-probe.tmp", name, std::process::id()));
    OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)
        .map_err(dir_error)?;
    let _ = fs::remove_file(&probe);
    if let Some(free) = free_space(dir) {
        // A file being replaced gives its space back only after the
        // rename.
        if free < needed {
            return Err(GenerateError::DiskSpace {
                path: path.to_owned(),
                needed,
                free,
            });
        }
    }
    Ok(())
}

/// Seconds to the millisecond.
pub(super) fn seconds(d: Duration) -> f64 {
    (d.as_secs_f64() * 1000.0).round() / 1000.0
}

/// Free bytes for an unprivileged user on the file system of `dir`.
#[cfg(all(unix, feature = "check"))]
fn free_space(dir: &Path) -> Option<u64> {
    let s = rustix::fs::statvfs(dir).ok()?;
    s.f_bavail.checked_mul(s.f_frsize)
}

#[cfg(not(all(unix, feature = "check")))]
fn free_space(_dir: &Path) -> Option<u64> {
    None
}

/// Temporary files of `name` in `dir` left by runs that were killed
/// outright (`.NAME.PID-N.tmp` whose process is gone).
pub(super) fn leftovers(dir: &Path, name: &str) -> Vec<PathBuf> {
    let prefix = format!(".{name}.");
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut found: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .filter(|e| {
            let Some(file) = e.file_name().to_str().map(str::to_owned) else {
                return false;
            };
            let Some(rest) = file
                .strip_prefix(&prefix)
                .and_then(|r| r.strip_suffix(".tmp"))
            else {
                return false;
            };
            let Some((pid, n)) = rest.split_once('-') else {
                return false;
            };
            let (Ok(pid), true) = (
                pid.parse::<u32>(),
                !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()),
            ) else {
                return false;
            };
            pid != std::process::id()
                && Path::new("/proc/self").exists()
                && !Path::new(&format!("/proc/{pid}")).exists()
        })
        .map(|e| e.path())
        .collect();
    found.sort();
    found
}
