//! Game of Euler tables made in memory for shapes no table file holds.
//!
//! A shape of at most [`MAKE_MAX_CELLS`] squares (25: 2^25 positions) with
//! no file is made on its first request, by the library's generator
//! ([`generate::euler`], the full tables: outcome, moves left, best move),
//! and kept for the requests after it:
//!
//! - **once per shape, single-flight**: the first request
//!   ([`Tablebase::begin_made`](super::Tablebase::begin_made)) gets the
//!   [`MakeJob`]; every request for the shape
//!   meanwhile gets a [`Pending`] that completes with that one result (a
//!   `Pending` is a [`Future`] for async callers and has a blocking
//!   [`Pending::wait`]);
//! - **one at a time**: [`MakeJob::run`] makes one table at a time, on the
//!   calling thread (the generator itself runs on every core);
//! - **within a memory budget** ([`DEFAULT_MAKE_MEMORY`]): before a table
//!   is made, the memory its generation needs ([`generate::euler_memory`]:
//!   about 82 MiB for 25 squares) is reserved against the budget, evicting
//!   the least recently used tables made before; a shape whose generation
//!   alone needs more than the budget is not made. A table held by a
//!   caller when it is evicted lives until that caller drops it.
//!
//! Sizes, on the generator's own figures: 2^20 positions (20 squares, 4×5)
//! hold 2.1 MiB and take milliseconds; 2^25 (5×5) hold 68 MiB and take
//! about 0.6 s on two cores.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::task::{Context, Poll, Waker};
use std::time::{Duration, Instant};

use boardbase_tables::shape::Shape;

use super::Error;
use super::find::{Missing, NotMade};
use super::source::TableEuler;
use crate::generate::{self, EulerOptions, Progress};
use crate::tablefile::{EulerColumns, Puzzle, Table};

/// The most squares of an Euler board whose table is made in memory when no
/// file holds it: 25 (2^25 positions, the full tables, about 100 MiB and a
/// second on two cores). A request waits for what is made on the spot, so
/// larger shapes (5×6: 2.5 GiB and 40 s) are left to `boardbase generate`.
pub const MAKE_MAX_CELLS: usize = 25;
/// The default memory budget of tables made in memory: 512 MiB (five 5×5
/// tables and room to make a sixth).
pub const DEFAULT_MAKE_MEMORY: u64 = 512 << 20;

/// What happened to the tables made in memory, for a log.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum MakeEvent {
    /// A table was made.
    Made {
        /// Its shape.
        shape: Shape,
        /// How long making it took.
        elapsed: Duration,
        /// The memory it holds.
        bytes: u64,
    },
    /// A table was dropped to make room (least recently used).
    Dropped {
        /// Its shape.
        shape: Shape,
        /// The memory it held.
        bytes: u64,
    },
    /// Making a table failed.
    Failed {
        /// Its shape.
        shape: Shape,
        /// Why: the generator's message.
        error: String,
    },
}

/// A table made in memory, with its probes' source set up once.
pub type Made = Arc<TableEuler>;

/// How making one table ended, kept for every caller waiting for it: each
/// gets its own [`Error`] of it ([`Signal::answer`]), since the answer
/// layer's errors are not shared.
#[derive(Clone)]
enum Outcome {
    /// Made.
    Made(Made),
    /// Not made for want of room: the job was dropped before it ran.
    Busy,
    /// The generator failed: its message.
    Failed(String),
}

/// A one-shot result that many callers wait for: blocking
/// ([`Pending::wait`]) or as a future. It knows the table's shape and the
/// command that makes its file, which its errors name.
struct Signal {
    shape: Shape,
    command: String,
    state: Mutex<SignalState>,
    done: Condvar,
}

#[derive(Default)]
struct SignalState {
    result: Option<Outcome>,
    wakers: Vec<Waker>,
}

impl Signal {
    fn new(shape: Shape, command: String) -> Signal {
        Signal {
            shape,
            command,
            state: Mutex::default(),
            done: Condvar::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, SignalState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The table, or the answer layer's error of how making it ended.
    fn answer(&self, outcome: &Outcome) -> Result<Made, Error> {
        match outcome {
            Outcome::Made(table) => Ok(table.clone()),
            Outcome::Busy => Err(busy(self.shape, self.command.clone())),
            Outcome::Failed(reason) => Err(Error::Make {
                puzzle: Puzzle::Euler,
                shape: self.shape,
                reason: reason.clone(),
                command: self.command.clone(),
            }),
        }
    }

    fn send(&self, result: Outcome) {
        let wakers = {
            let mut state = self.lock();
            if state.result.is_some() {
                return;
            }
            state.result = Some(result);
            std::mem::take(&mut state.wakers)
        };
        self.done.notify_all();
        for waker in wakers {
            waker.wake();
        }
    }
}

/// The result of a table being made: [`Pending::wait`] blocks for it, and
/// a `Pending` is a [`Future`] of it.
#[derive(Clone)]
pub struct Pending {
    signal: Arc<Signal>,
}

impl Pending {
    /// Waits for the table: [`Error::Busy`] or [`Error::Make`] when it
    /// was not made.
    pub fn wait(&self) -> Result<Made, Error> {
        let mut state = self.signal.lock();
        loop {
            if let Some(result) = &state.result {
                return self.signal.answer(result);
            }
            state = self
                .signal
                .done
                .wait(state)
                .unwrap_or_else(|e| e.into_inner());
        }
    }

    /// The error of a caller that stops waiting before the table is made
    /// ([`Error::Busy`]): it goes on being made for whoever asks next.
    pub fn busy(&self) -> Error {
        busy(self.signal.shape, self.signal.command.clone())
    }

    /// Waits for the table until `deadline`: `None` if it is not made by
    /// then (it goes on being made for whoever asks next).
    pub fn wait_until(&self, deadline: Instant) -> Option<Result<Made, Error>> {
        let mut state = self.signal.lock();
        loop {
            if let Some(result) = &state.result {
                return Some(self.signal.answer(result));
            }
            let left = deadline.checked_duration_since(Instant::now())?;
            state = self
                .signal
                .done
                .wait_timeout(state, left)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }
}

impl Future for Pending {
    type Output = Result<Made, Error>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let mut state = self.signal.lock();
        if let Some(result) = &state.result {
            return Poll::Ready(self.signal.answer(result));
        }
        if !state.wakers.iter().any(|w| w.will_wake(cx.waker())) {
            state.wakers.push(cx.waker().clone());
        }
        Poll::Pending
    }
}

/// A table ready, or being made.
enum Slot {
    Making(Pending),
    Ready {
        table: Made,
        bytes: u64,
        last_used: u64,
    },
}

struct Slots {
    slots: HashMap<Shape, Slot>,
    /// Bytes of the ready tables, plus the reservations of those being
    /// made.
    held: u64,
    /// A clock for least-recently-used eviction.
    tick: u64,
}

/// A log of [`MakeEvent`]s.
type Log = Box<dyn Fn(&MakeEvent) + Send + Sync>;

/// The tables made in memory, and the rules for making more.
pub struct Maker {
    budget: u64,
    max_cells: usize,
    slots: Mutex<Slots>,
    /// One table made at a time.
    one_at_a_time: Mutex<()>,
    log: Option<Log>,
}

/// What is made, for a list of the sizes answered.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MadeInfo {
    /// The shapes whose tables are in memory now.
    pub ready: Vec<Shape>,
    /// Bytes held (ready tables, plus the reservations of those being
    /// made).
    pub held: u64,
}

/// Where a table stands when it is asked for
/// ([`Tablebase::begin_made`](super::Tablebase::begin_made)).
pub enum Begin {
    /// In memory: here it is.
    Ready(Made),
    /// Being made for another caller: wait for it.
    Waiting(Pending),
    /// To be made by this caller: run the job (on a thread that may block
    /// for a second or so), and every caller's `Pending` completes.
    Start(MakeJob, Pending),
}

/// Bytes a ready full table holds: the win/loss bits, then a byte of
/// moves left and a byte of best move per position.
fn table_bytes(shape: Shape) -> u64 {
    let positions = 1u64 << shape.cells();
    positions.div_ceil(64).max(1) * 8 + 2 * positions
}

impl Maker {
    /// A maker with `budget` bytes, making shapes of at most
    /// [`MAKE_MAX_CELLS`] squares (none when the budget is 0).
    pub fn new(budget: u64) -> Maker {
        Maker {
            budget,
            max_cells: if budget == 0 { 0 } else { MAKE_MAX_CELLS },
            slots: Mutex::new(Slots {
                slots: HashMap::new(),
                held: 0,
                tick: 0,
            }),
            one_at_a_time: Mutex::new(()),
            log: None,
        }
    }

    /// This maker, telling `log` what it makes and drops.
    pub fn with_log(mut self, log: impl Fn(&MakeEvent) + Send + Sync + 'static) -> Maker {
        self.log = Some(Box::new(log));
        self
    }

    /// The budget, in bytes.
    pub fn budget(&self) -> u64 {
        self.budget
    }

    /// The most squares of a shape made on the spot (0: none).
    pub fn max_cells(&self) -> usize {
        self.max_cells
    }

    /// The bytes the generation of `shape` needs.
    pub fn needed(shape: Shape) -> u64 {
        generate::euler_memory(shape, &full_tables()).unwrap_or(u64::MAX)
    }

    /// Whether `shape` would be made (it is small enough, and fits the
    /// budget).
    pub fn would_make(&self, shape: Shape) -> bool {
        shape.cells() <= self.max_cells && Maker::needed(shape) <= self.budget
    }

    /// Why this maker does not make the table of `puzzle` on `shape`, for
    /// the error of a missing table.
    pub fn not_made(&self, puzzle: Puzzle, shape: Shape) -> NotMade {
        match puzzle {
            Puzzle::Flip => NotMade::Flip,
            _ if self.max_cells == 0 => NotMade::NoMemory,
            _ if shape.cells() > self.max_cells => NotMade::TooManyCells {
                max: self.max_cells,
            },
            _ => NotMade::OverBudget {
                needed: Maker::needed(shape),
                budget: self.budget,
            },
        }
    }

    fn lock(&self) -> MutexGuard<'_, Slots> {
        // A panic while holding the lock leaves the map consistent: every
        // change under it is a single insert or remove.
        self.slots.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn log(&self, event: MakeEvent) {
        if let Some(log) = &self.log {
            log(&event);
        }
    }

    /// What is in memory now.
    pub fn info(&self) -> MadeInfo {
        let slots = self.lock();
        let mut ready: Vec<Shape> = slots
            .slots
            .iter()
            .filter(|(_, s)| matches!(s, Slot::Ready { .. }))
            .map(|(&shape, _)| shape)
            .collect();
        ready.sort();
        MadeInfo {
            ready,
            held: slots.held,
        }
    }

    /// The table of `shape` if it is in memory now (marked as used),
    /// without the checks of [`Tablebase::begin_made`](super::Tablebase::begin_made).
    pub fn ready(&self, shape: Shape) -> Option<Made> {
        touch(&mut self.lock(), shape)
    }

    /// The table of `missing.shape`: in memory already, being made, or to
    /// be made by the caller (its memory reserved now, evicting the least
    /// recently used tables). `missing` is the tablebase's error for the
    /// table, given when it is not made here (too many squares, or over
    /// the budget); its command is the one the errors of making it name.
    pub(crate) fn begin(self: &Arc<Self>, missing: Missing) -> Result<Begin, Error> {
        let shape = missing.shape;
        if shape.cells() > self.max_cells {
            return Err(missing.into());
        }
        let mut slots = self.lock();
        if let Some(table) = touch(&mut slots, shape) {
            return Ok(Begin::Ready(table));
        }
        if let Some(Slot::Making(pending)) = slots.slots.get(&shape) {
            return Ok(Begin::Waiting(pending.clone()));
        }
        let needed = Maker::needed(shape);
        if needed > self.budget {
            return Err(missing.into());
        }
        let command = missing.command();
        let dropped = evict(&mut slots, self.budget - needed);
        let busy = slots.held + needed > self.budget;
        let begin = if busy {
            // Tables being made hold the rest of the budget.
            Err(self::busy(shape, command))
        } else {
            slots.held += needed;
            let pending = Pending {
                signal: Arc::new(Signal::new(shape, command)),
            };
            slots.slots.insert(shape, Slot::Making(pending.clone()));
            let job = MakeJob {
                maker: self.clone(),
                shape,
                needed,
                pending: pending.clone(),
                done: false,
            };
            Ok(Begin::Start(job, pending))
        };
        drop(slots);
        for (shape, bytes) in dropped {
            self.log(MakeEvent::Dropped { shape, bytes });
        }
        begin
    }

    /// The table of `missing.shape`, made now on this thread if need be
    /// (waiting for another caller that is making it): the blocking form
    /// of [`Maker::begin`]. `progress` hears of the generator's phases when
    /// this call makes the table.
    pub(crate) fn get<F: Fn(Progress) + Sync>(
        self: &Arc<Self>,
        missing: Missing,
        progress: F,
    ) -> Result<Made, Error> {
        match self.begin(missing)? {
            Begin::Ready(table) => Ok(table),
            Begin::Waiting(pending) => pending.wait(),
            Begin::Start(job, pending) => {
                job.run(progress);
                pending.wait()
            }
        }
    }

    /// Files the result of making `shape` (its `needed` bytes were
    /// reserved) and tells the waiting callers.
    fn finish(&self, shape: Shape, needed: u64, pending: &Pending, result: Outcome) {
        {
            let mut slots = self.lock();
            slots.held -= needed;
            slots.slots.remove(&shape);
            if let Outcome::Made(table) = &result {
                let bytes = table_bytes(shape);
                slots.held += bytes;
                slots.tick += 1;
                let last_used = slots.tick;
                slots.slots.insert(
                    shape,
                    Slot::Ready {
                        table: table.clone(),
                        bytes,
                        last_used,
                    },
                );
            }
        }
        pending.signal.send(result);
    }
}

/// The job of making one table, got by the caller that asked for it first
/// ([`Begin::Start`]). Dropped without being run, it frees its reservation
/// and its waiting callers get [`Error::Busy`].
pub struct MakeJob {
    maker: Arc<Maker>,
    shape: Shape,
    needed: u64,
    pending: Pending,
    done: bool,
}

impl MakeJob {
    /// The shape to make.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Makes the table (one at a time, on this thread and the generator's
    /// pool), files it and tells every waiting caller.
    pub fn run<F: Fn(Progress) + Sync>(mut self, progress: F) {
        let maker = self.maker.clone();
        let start = Instant::now();
        let result = {
            let _turn = maker
                .one_at_a_time
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            make_table(self.shape, progress)
        };
        self.done = true;
        maker.finish(self.shape, self.needed, &self.pending, result.clone());
        maker.log(match result {
            Outcome::Failed(error) => MakeEvent::Failed {
                shape: self.shape,
                error,
            },
            _ => MakeEvent::Made {
                shape: self.shape,
                elapsed: start.elapsed(),
                bytes: table_bytes(self.shape),
            },
        });
    }
}

impl Drop for MakeJob {
    fn drop(&mut self) {
        if !self.done {
            self.maker
                .finish(self.shape, self.needed, &self.pending, Outcome::Busy);
        }
    }
}

/// The table of `shape` if it is ready, marked as used now (the clock
/// ticks either way).
fn touch(slots: &mut Slots, shape: Shape) -> Option<Made> {
    slots.tick += 1;
    let now = slots.tick;
    match slots.slots.get_mut(&shape) {
        Some(Slot::Ready {
            table, last_used, ..
        }) => {
            *last_used = now;
            Some(table.clone())
        }
        _ => None,
    }
}

/// Evicts the least recently used ready tables until at most `room` bytes
/// are held; returns those dropped.
fn evict(slots: &mut Slots, room: u64) -> Vec<(Shape, u64)> {
    let mut dropped = Vec::new();
    while slots.held > room {
        let oldest = slots
            .slots
            .iter()
            .filter_map(|(&shape, s)| match s {
                Slot::Ready {
                    last_used, bytes, ..
                } => Some((*last_used, shape, *bytes)),
                Slot::Making(_) => None,
            })
            .min();
        let Some((_, shape, bytes)) = oldest else {
            break;
        };
        slots.slots.remove(&shape);
        slots.held -= bytes;
        dropped.push((shape, bytes));
    }
    dropped
}

/// The error of a table not made for want of room.
fn busy(shape: Shape, command: String) -> Error {
    Error::Busy {
        puzzle: Puzzle::Euler,
        shape,
        command,
    }
}

/// The generator's full tables of `shape`, as a table in memory and the
/// source the lookups probe ([`Outcome::Made`], or [`Outcome::Failed`]
/// with the generator's message).
fn make_table<F: Fn(Progress) + Sync>(shape: Shape, progress: F) -> Outcome {
    let made = (|| -> Result<Made, String> {
        let tables = generate::euler(shape, &full_tables(), progress).map_err(|e| e.to_string())?;
        let table =
            Table::from_euler(shape, EulerColumns::from(tables)).map_err(|e| e.to_string())?;
        let source = TableEuler::new(Arc::new(table)).map_err(|e| e.to_string())?;
        Ok(Arc::new(source))
    })();
    made.map_or_else(Outcome::Failed, Outcome::Made)
}

/// The generator's options here: always the full tables, since the memory
/// is the maker's own budget, reserved before a table is made, not the
/// generator's limit.
fn full_tables() -> EulerOptions {
    EulerOptions {
        memory_limit: Some(u64::MAX),
        ..EulerOptions::default()
    }
}
