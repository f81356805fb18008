//! A table file of any two-player game of the catalogue's models: the game
//! set up, solved by retrograde analysis ([`tables::game::retrograde`]),
//! and written as a [`GameTable`], as `boardbase generate mnk 4x4 --k 4`
//! and Python's `boardbase.generate` run it.
//!
//! ```
//! use boardbase::catalogue;
//! use boardbase::generate::{Cancel, GameJob};
//! use boardbase::tablefile::GameTable;
//!
//! let dir = std::env::temp_dir().join(format!("boardbase-doc-game-job-{}", std::process::id()));
//! let mnk = catalogue::model("mnk").expect("in the catalogue");
//! let job = GameJob { dir: dir.clone(), ..GameJob::new(mnk, mnk.setup(None, &[])?) };
//! let plan = job.plan()?;
//! assert!(plan.path.ends_with("mnk-3x3-k3.bin"));
//! let report = plan.run(|_| {}, &Cancel::new())?;
//! // Tic-tac-toe: 3^9 indices; 765 positions up to symmetry, all of them
//! // reachable; the start a draw.
//! assert_eq!((report.positions, report.legal, report.reachable), (19_683, 765, 765));
//! assert_eq!((report.start.value.name(), report.start.remoteness), ("draw", None));
//! assert_eq!(report.run.file_bytes, std::fs::metadata(&plan.path)?.len());
//! assert_eq!(GameTable::open_game(&plan.path)?.game(), "mnk");
//! std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! [`tables::game::retrograde`]: crate::tables::game::retrograde

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use boardbase_tables::game::retrograde::{Resume, Snapshot, Stage, Step};
use boardbase_tables::game::{SolveError, Value};
use serde::Serialize;

use super::checkpoint::checkpoint_path;
use super::game_checkpoint;
use super::game_tiers::{self, Finished, TierJob, count_reachable, solve_error};
use super::job::{
    DEFAULT_CHECKPOINT_EVERY, RunFigures, check_dir, compress_room, compress_written, leftovers,
    seconds, write_table,
};
use super::setting::{LimitFrom, MemoryLimit};
use super::{Cancel, GenerateError, Phase, Progress};
use crate::catalogue::{AnyGame, Model, Setup};
use crate::memory::{available_memory, peak_memory};
use crate::tablefile::{self, GameTable};

/// A table-file job of a game of the model: which game and setup, where
/// the file goes, the memory it may take.
#[derive(Clone, Debug)]
pub struct GameJob {
    /// The game.
    pub model: &'static Model,
    /// Its board and options.
    pub setup: Setup,
    /// The directory the file goes into, created if missing.
    pub dir: PathBuf,
    /// The most memory the job may take, in bytes: `None` for the memory
    /// available.
    pub memory_limit: Option<u64>,
    /// Save the solver's state to the checkpoint beside the table
    /// (`GAME-RxC-kK.bin.checkpoint`, which the same job resumes from) at
    /// most this often, and never sooner than ten times what the last save
    /// took; default [`DEFAULT_CHECKPOINT_EVERY`]. Once the job is
    /// interrupted its state is saved too.
    pub checkpoint_every: Duration,
    /// Compress the table once written, as [`Job::compress`] does.
    ///
    /// [`Job::compress`]: super::Job::compress
    pub compress: bool,
}

impl GameJob {
    /// The job with the defaults: the current directory, the memory
    /// available.
    pub fn new(model: &'static Model, setup: Setup) -> GameJob {
        GameJob {
            model,
            setup,
            dir: PathBuf::from("."),
            memory_limit: None,
            checkpoint_every: DEFAULT_CHECKPOINT_EVERY,
            compress: false,
        }
    }

    /// Checks the setup and works out what the job takes. Nothing is
    /// allocated or written.
    pub fn plan(&self) -> Result<GamePlan, GenerateError> {
        let game = self.model.make(&self.setup).map_err(GenerateError::Setup)?;
        let positions = game.positions();
        let name = GameTable::file_name_of(self.model, &self.setup);
        // The most the file can take: the legal canonical positions are
        // counted once the game is solved.
        let file_bytes =
            GameTable::expected_file_len(self.model, &self.setup, positions, positions);
        let path = self.dir.join(&name);
        let write_memory = tablefile::write_memory(&path, file_bytes);
        let memory_limit = match self.memory_limit {
            Some(bytes) => Some(MemoryLimit {
                bytes,
                from: LimitFrom::Given,
            }),
            None => available_memory().map(|bytes| MemoryLimit {
                bytes,
                from: LimitFrom::Available,
            }),
        };
        // A game is solved whole where that fits: it is the faster way. One
        // that declares tiers is otherwise solved a tier at a time, the
        // entries in a mapped file (counted: the page cache holds them
        // where it can), its reachable positions counted a bit each.
        // A run resumed goes on the way its checkpoint was saved.
        let whole = game.solve_memory();
        let over =
            |bytes: u64| memory_limit.is_some_and(|l| bytes.saturating_add(write_memory) > l.bytes);
        let saved = game_checkpoint::saved_tier_by_tier(&checkpoint_path(&path), &name, positions);
        let by_tiers = saved.unwrap_or_else(|| over(whole));
        let (generate_memory, entries_bytes) = match game.tiers() {
            Some(tiers) if by_tiers => (
                tiers
                    .tier_memory()
                    .saturating_add(positions.saturating_mul(2))
                    .saturating_add(positions.div_ceil(8)),
                positions.saturating_mul(2),
            ),
            _ => (whole, 0),
        };
        Ok(GamePlan {
            path,
            job: self.clone(),
            positions,
            generate_memory,
            write_memory,
            memory_needed: generate_memory + write_memory,
            file_bytes,
            entries_bytes,
            memory_limit,
        })
    }
}

/// What a [`GameJob`] takes, worked out before anything is allocated.
#[derive(Clone, Debug)]
pub struct GamePlan {
    job: GameJob,
    /// The table file: the job's directory and the table's usual name
    /// (`mnk-4x4-k4.bin`).
    pub path: PathBuf,
    /// The game's position indices (the table has an entry for each legal
    /// canonical one).
    pub positions: u64,
    /// Bytes the solve takes at most: the retrograde analysis's arrays,
    /// or solving tier by tier, the largest tier's arrays, the mapped
    /// entries and a bit an index for the reachable count.
    pub generate_memory: u64,
    /// Bytes the write allocates besides the table.
    pub write_memory: u64,
    /// Bytes the job needs: `generate_memory + write_memory`.
    pub memory_needed: u64,
    /// The most the file's length can be, in bytes: its table's entries
    /// are those of the legal canonical positions, known once the game is
    /// solved; the plan counts one entry a position index.
    pub file_bytes: u64,
    /// The length of the entries file a game is solved into tier by tier,
    /// beside the table while the job runs (`GAME-RxC-kK.bin.tiers`, two
    /// bytes a position index); 0 for a game solved whole, in memory. A
    /// game that declares tiers is solved tier by tier when its whole solve
    /// would need more than the memory limit.
    pub entries_bytes: u64,
    /// The limit the job is held to, if any.
    pub memory_limit: Option<MemoryLimit>,
}

/// The summary of a [`GameJob`]: the game, what its table holds, and how
/// the run went. Its JSON is the object of `boardbase generate GAME
/// --format json` for a game of the model.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameReport {
    /// The game's name.
    pub game: &'static str,
    /// Rows of the board.
    pub rows: usize,
    /// Columns of the board.
    pub cols: usize,
    /// The game's options by name.
    pub options: BTreeMap<&'static str, u64>,
    /// The game's position indices: the index space.
    pub positions: u64,
    /// Legal positions up to the board's symmetries: the table's
    /// entries.
    pub legal: u64,
    /// Positions reachable from the start up to the board's symmetries,
    /// finished ones included.
    pub reachable: u64,
    /// Reachable positions won by the player to move.
    pub win: u64,
    /// Reachable positions lost by the player to move.
    pub lose: u64,
    /// Reachable positions drawn.
    pub draw: u64,
    /// The start: its value for the first player and its remoteness.
    pub start: StartValue,
    /// Time, memory and the file written.
    #[serde(flatten)]
    pub run: RunFigures,
}

/// The start's value in a [`GameReport`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct StartValue {
    /// `win`, `lose` or `draw` for the first player.
    #[serde(serialize_with = "crate::catalogue::model::value_name")]
    pub value: Value,
    /// Plies to the end with perfect play; `None` for a draw.
    pub remoteness: Option<u16>,
}

impl GamePlan {
    /// The job planned.
    pub fn job(&self) -> &GameJob {
        &self.job
    }

    /// Temporary files of this table left by runs that were killed
    /// outright, for a note (never removed here).
    pub fn leftovers(&self) -> Vec<PathBuf> {
        leftovers(
            &self.job.dir,
            &GameTable::file_name_of(self.job.model, &self.job.setup),
        )
    }

    /// The checkpoint this job would resume from, where it stands, read
    /// whole (its CRCs checked): `Ok(None)` when there is none.
    fn resume(&self) -> Result<Option<Resume>, GenerateError> {
        game_checkpoint::load(
            &checkpoint_path(&self.path),
            &GameTable::file_name_of(self.job.model, &self.job.setup),
            self.positions,
        )
    }

    /// The checkpoint beside the table, if there is one: the job resumes
    /// from it ([`GamePlan::run`] reads and checks it).
    pub fn checkpoint(&self) -> Option<PathBuf> {
        let checkpoint = checkpoint_path(&self.path);
        checkpoint.exists().then_some(checkpoint)
    }

    /// The checks made before the work can be lost: the memory limit, the
    /// directory, the room for the file (and for the entries file of a run
    /// tier by tier, unless a checkpoint left it, and for the compressed
    /// copy with [`GameJob::compress`]).
    pub fn check(&self) -> Result<(), GenerateError> {
        if let Some(limit) = self.memory_limit
            && self.memory_needed > limit.bytes
        {
            return Err(GenerateError::JobOverMemoryLimit {
                what: format!("{} {}", self.job.model.game, self.job.setup.shape),
                needed: self.memory_needed,
                limit,
            });
        }
        // Entries a checkpoint left already have their room.
        let entries_there = std::fs::metadata(game_tiers::entries_path(&self.path))
            .is_ok_and(|m| m.len() == self.entries_bytes);
        let entries_room = if entries_there { 0 } else { self.entries_bytes };
        check_dir(
            &self.job.dir,
            &GameTable::file_name_of(self.job.model, &self.job.setup),
            &self.path,
            self.file_bytes
                .saturating_add(entries_room)
                .saturating_add(compress_room(self.job.compress, self.file_bytes)),
        )
    }

    /// Runs the job: [`check`](GamePlan::check), the retrograde analysis
    /// ([`Phase::Solve`]), the table written to a temporary file beside
    /// [`path`](GamePlan::path) and renamed to it
    /// ([`Phase::Checksum`], [`Phase::Write`]), compressed where
    /// [`GameJob::compress`] says ([`Phase::Compress`]), and the summary. Once
    /// `cancel` is cancelled the job stops and returns
    /// [`GenerateError::NotWritten`], leaving nothing under the final name.
    pub fn run(
        &self,
        progress: impl Fn(Progress) + Sync,
        cancel: &Cancel,
    ) -> Result<GameReport, GenerateError> {
        let start = Instant::now();
        self.check()?;
        let (model, setup) = (self.job.model, &self.job.setup);
        let game = model.make(setup).map_err(GenerateError::Setup)?;
        let run = match game.tiers().filter(|_| self.entries_bytes > 0) {
            Some(tiers) => {
                let job = TierJob {
                    path: &self.path,
                    model,
                    setup,
                    positions: self.positions,
                    every: self.job.checkpoint_every,
                };
                game_tiers::run(&job, &*game, tiers, &progress, cancel, start)?
            }
            None => self.run_whole(&*game, &progress, cancel, start)?,
        };
        let Finished {
            legal: [won, lost, drawn],
            reachable: [win, lose, draw],
            start: first,
            generated,
            file_bytes,
        } = run;
        let (file_bytes, uncompressed_bytes) =
            compress_written(&self.path, self.job.compress, file_bytes, &progress, cancel)?;
        let total = start.elapsed();
        Ok(GameReport {
            game: model.game,
            rows: setup.shape.rows(),
            cols: setup.shape.cols(),
            options: setup.named(model),
            positions: self.positions,
            legal: won + lost + drawn,
            reachable: win + lose + draw,
            win,
            lose,
            draw,
            start: StartValue {
                value: first.value(),
                remoteness: first.remoteness(),
            },
            run: RunFigures {
                seconds: seconds(total),
                generate_seconds: seconds(generated),
                write_seconds: seconds(total - generated),
                memory_needed: self.memory_needed,
                peak_memory: peak_memory(),
                file: self.path.display().to_string(),
                file_bytes,
                uncompressed_bytes,
            },
        })
    }

    /// The job for a game solved whole, in memory, from its checkpoint
    /// where there is one.
    fn run_whole(
        &self,
        game: &dyn AnyGame,
        progress: &(impl Fn(Progress) + Sync),
        cancel: &Cancel,
        start: Instant,
    ) -> Result<Finished, GenerateError> {
        let (model, setup) = (self.job.model, &self.job.setup);
        let checkpoint = checkpoint_path(&self.path);
        let cancelled = |removed_temporary| GenerateError::NotWritten {
            path: self.path.clone(),
            removed_temporary,
            checkpoint: self.checkpoint(),
        };
        let resume = self.resume()?;
        let mut saver = Saver {
            path: &checkpoint,
            table: &GameTable::file_name_of(model, setup),
            every: self.job.checkpoint_every,
            last: Instant::now(),
            took: Duration::ZERO,
            failed: None,
            cancel,
        };
        let solved = game
            .solve_resumable(
                resume,
                &mut |step: Step| {
                    progress(Progress {
                        phase: Phase::Solve,
                        done: step.done,
                        total: step.total,
                    });
                    true
                },
                &mut |snapshot| saver.offer(&snapshot),
            )
            .map_err(|error| solve_error(error, saver.failed.take(), || cancelled(false)))?;
        let legal = solved.counts();
        let reachable = count_reachable(legal.iter().sum(), progress, cancel, |step| {
            game.reachable_counts(&solved, step)
        })
        .map_err(|error| solve_error(error, None, || cancelled(false)))?;
        let first = solved
            .outcome(game.canonical(game.start()))
            .ok_or(GenerateError::Solve(SolveError::BadMove {
                position: game.start(),
            }))?;
        let table_error = |error| GenerateError::Table {
            path: self.path.clone(),
            error,
        };
        let table = GameTable::from_solved(model, setup, solved).map_err(table_error)?;
        let generated = start.elapsed();
        let file_bytes = write_table(&table, &self.path, progress, cancel, cancelled)?;
        // The table is whole: the state it was made from is not needed, nor
        // the entries a run tier by tier killed before its first save left.
        for leftover in [checkpoint, game_tiers::entries_path(&self.path)] {
            match std::fs::remove_file(&leftover) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                    return Err(GenerateError::Checkpoint {
                        path: leftover,
                        error: e,
                    });
                }
                _ => {}
            }
        }
        Ok(Finished {
            legal,
            reachable,
            start: first,
            generated,
            file_bytes,
        })
    }
}

/// When and where a job saves the solver's snapshots.
struct Saver<'a> {
    path: &'a Path,
    table: &'a str,
    every: Duration,
    /// When the last save ended (or the solve started).
    last: Instant,
    /// What the last save took.
    took: Duration,
    /// The save that failed, which stops the job.
    failed: Option<GenerateError>,
    cancel: &'a Cancel,
}

impl Saver<'_> {
    /// Saves `snapshot` when it is time to, or when the job is cancelled
    /// (then the solver is told to stop). `false` stops the solver.
    fn offer(&mut self, snapshot: &Snapshot<'_>) -> bool {
        let cancelled = self.cancel.is_cancelled();
        // Nothing is worth keeping before the first pass has begun.
        let begun = snapshot.stage != Stage::Scan { next: 0 };
        let due = self.last.elapsed() >= self.every.max(10 * self.took);
        if begun && (cancelled || due) {
            let start = Instant::now();
            if let Err(error) = game_checkpoint::save(self.path, self.table, snapshot) {
                self.failed = Some(error);
                return false;
            }
            self.last = Instant::now();
            self.took = self.last - start;
        }
        !cancelled
    }
}
