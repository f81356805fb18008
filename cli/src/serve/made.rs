//! Game of Euler tables made in memory for shapes no table file holds.
//!
//! A shape of at most [`MAKE_MAX_CELLS`] squares (25: 2^25 positions) with
//! no file is made on its first request, by the library's generator
//! ([`generate::euler`], the full tables: outcome, moves left, best move),
//! and kept for the requests after it:
//!
//! - **once per shape, single-flight**: the first request starts the work
//!   on a detached task; every request for the shape meanwhile waits for
//!   that one result (a client that goes away does not cancel it);
//! - **one at a time, off the async threads**: the generator runs on the
//!   server's blocking workers ([`Pool::run`]), one table at a time;
//! - **within a memory budget** (`--make-memory`, [`DEFAULT_BUDGET`]):
//!   before a table is made, the memory its generation needs
//!   ([`generate::euler_memory`]: about 82 MiB for 25 squares) is reserved
//!   against the budget, evicting the least recently used tables made
//!   before; a shape whose generation alone needs more than the budget is
//!   refused (422, with the `boardbase generate` command that makes its
//!   file). A table held by a request in flight when it is evicted lives
//!   until that request ends.
//!
//! Sizes, on the generator's own figures: 2^20 positions (20 squares, 4×5)
//! hold 2.1 MiB and take milliseconds; 2^25 (5×5) hold 68 MiB and take
//! about 0.6 s on two cores.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

use boardbase::generate::{self, ByteSize, EulerOptions};
use boardbase::tablefile::{EulerColumns, MAKE_MAX_CELLS, Table};
use boardbase::tables::shape::Shape;
use tokio::sync::watch;

use super::answers::TableEuler;
use super::count::{CountFailure, Pool};

/// The default memory budget of tables made in memory: 512 MiB (five 5×5
/// tables and room to make a sixth).
pub const DEFAULT_BUDGET: u64 = 512 << 20;

/// Why no table was made.
#[derive(Clone, Debug)]
pub enum MakeError {
    /// The shape has more squares than are made on the spot, or its
    /// generation alone needs more than the budget.
    NotMade,
    /// Every worker stayed busy until the deadline.
    Busy {
        /// The number of workers.
        workers: usize,
    },
    /// The generator failed (it could not allocate, or a worker crashed).
    Failed(String),
}

/// What a made table answers from: the table with its probes' source, set
/// up once when it is made.
type Made = Arc<TableEuler>;

/// A table ready, or being made.
enum Slot {
    Making(watch::Receiver<Option<Result<Made, MakeError>>>),
    Ready {
        table: Made,
        bytes: u64,
        last_used: u64,
    },
}

struct Slots {
    slots: HashMap<Shape, Slot>,
    /// Bytes of the ready tables, plus the reservation of the one being
    /// made.
    held: u64,
    /// A clock for least-recently-used eviction.
    tick: u64,
}

/// The tables made in memory, and the rules for making more.
pub struct Maker {
    budget: u64,
    max_cells: usize,
    slots: Mutex<Slots>,
    /// One table made at a time.
    one_at_a_time: tokio::sync::Semaphore,
}

/// What a made table is, for `/api/v1/sizes`.
pub struct MadeInfo {
    /// The shapes whose tables are in memory now.
    pub ready: Vec<Shape>,
    /// Bytes held (ready tables, plus the reservation of one being made).
    pub held: u64,
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
            one_at_a_time: tokio::sync::Semaphore::new(1),
        }
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
        generate::euler_memory(shape, &EulerOptions::default()).unwrap_or(u64::MAX)
    }

    /// Whether `shape` would be made (it is small enough, and fits the
    /// budget).
    pub fn would_make(&self, shape: Shape) -> bool {
        shape.cells() <= self.max_cells && Maker::needed(shape) <= self.budget
    }

    fn lock(&self) -> MutexGuard<'_, Slots> {
        // A panic while holding the lock leaves the map consistent: every
        // change under it is a single insert or remove.
        self.slots.lock().unwrap_or_else(|e| e.into_inner())
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

    /// The table of `shape` if it is in memory now (marked as used): the
    /// lookups' path once a table is made, without the checks of
    /// [`Maker::get`].
    pub fn ready(&self, shape: Shape) -> Option<Made> {
        let mut slots = self.lock();
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

    /// The table of `shape`: in memory already, or made now (waiting for
    /// the one request that makes it), within `deadline` for the waiting.
    pub async fn get(
        self: &Arc<Self>,
        shape: Shape,
        pool: &Arc<Pool>,
        deadline: Instant,
    ) -> Result<Made, MakeError> {
        if shape.cells() > self.max_cells {
            return Err(MakeError::NotMade);
        }
        let mut rx = {
            let mut slots = self.lock();
            slots.tick += 1;
            let now = slots.tick;
            match slots.slots.get_mut(&shape) {
                Some(Slot::Ready {
                    table, last_used, ..
                }) => {
                    *last_used = now;
                    return Ok(table.clone());
                }
                Some(Slot::Making(rx)) => rx.clone(),
                None => {
                    let needed = Maker::needed(shape);
                    if needed > self.budget {
                        return Err(MakeError::NotMade);
                    }
                    evict(&mut slots, self.budget - needed);
                    if slots.held + needed > self.budget {
                        // Tables being made hold the rest of the budget.
                        return Err(MakeError::Busy {
                            workers: pool.workers(),
                        });
                    }
                    slots.held += needed;
                    let (tx, rx) = watch::channel(None);
                    slots.slots.insert(shape, Slot::Making(rx.clone()));
                    let (maker, pool) = (self.clone(), pool.clone());
                    tokio::spawn(async move { maker.make(shape, needed, &pool, tx).await });
                    rx
                }
            }
        };
        let waited = tokio::time::timeout_at(deadline.into(), rx.wait_for(Option::is_some)).await;
        match waited {
            Ok(Ok(done)) => done
                .clone()
                .unwrap_or_else(|| Err(MakeError::Failed("no result".into()))),
            Ok(Err(_)) => Err(MakeError::Failed("the task making the table ended".into())),
            Err(_) => Err(MakeError::Busy {
                workers: pool.workers(),
            }),
        }
    }

    /// Makes the table of `shape` (its `needed` bytes reserved), files it,
    /// and tells the waiting requests.
    async fn make(
        &self,
        shape: Shape,
        needed: u64,
        pool: &Pool,
        tx: watch::Sender<Option<Result<Made, MakeError>>>,
    ) {
        let start = Instant::now();
        let result = match self.one_at_a_time.acquire().await {
            Ok(_turn) => {
                // Not bound by a request's deadline: once started, the table
                // is made for whoever asks next.
                let far = Instant::now() + std::time::Duration::from_secs(24 * 3600);
                match pool.run(far, move || make_table(shape)).await {
                    Ok(made) => made,
                    Err(CountFailure::Busy { workers }) => Err(MakeError::Busy { workers }),
                    Err(_) => Err(MakeError::Failed("the worker making it crashed".into())),
                }
            }
            Err(_) => Err(MakeError::Failed("the server is stopping".into())),
        };
        {
            let mut slots = self.lock();
            slots.held -= needed;
            slots.slots.remove(&shape);
            if let Ok(table) = &result {
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
        match &result {
            Ok(_) => eprintln!(
                "boardbase serve: made the euler {shape} table in memory ({:.2} s, {})",
                start.elapsed().as_secs_f64(),
                ByteSize(table_bytes(shape))
            ),
            Err(e) => eprintln!("boardbase serve: could not make the euler {shape} table: {e:?}"),
        }
        // Nobody may be waiting any more: that is fine.
        let _ = tx.send(Some(result));
    }
}

/// Evicts the least recently used ready tables until at most `room` bytes
/// are held.
fn evict(slots: &mut Slots, room: u64) {
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
            return;
        };
        slots.slots.remove(&shape);
        slots.held -= bytes;
        eprintln!(
            "boardbase serve: dropped the euler {shape} table made in memory (least recently used, {})",
            ByteSize(bytes)
        );
    }
}

/// The generator's full tables of `shape`, as a table in memory and the
/// source the lookups probe.
fn make_table(shape: Shape) -> Result<Made, MakeError> {
    let tables = generate::euler(shape, &EulerOptions::default(), |_| {})
        .map_err(|e| MakeError::Failed(e.to_string()))?;
    let table = Table::from_euler(shape, EulerColumns::from(tables))
        .map_err(|e| MakeError::Failed(e.to_string()))?;
    let source = TableEuler::new(Arc::new(table)).map_err(|e| MakeError::Failed(e.to_string()))?;
    Ok(Arc::new(source))
}
