//! Carcassonne counting, and the other heavy work, off the async threads,
//! on a bounded pool.
//!
//! A count may take seconds, so it never runs on the threads that answer
//! lookups: each request's boards are counted by one blocking task
//! (tokio's blocking threads), and a semaphore lets at most `workers` of
//! them run at once. Requests beyond that wait for a worker until their
//! deadline; at most [`Pool::MAX_WAITING`] may wait, later ones are turned
//! away at once. Every count runs with the DP's memory budget
//! ([`Budget::DEFAULT`]) and stops at the request's deadline, or as soon
//! as the client goes away. What the pool cannot do is said as the
//! server's own error, [`ApiError`]: its workers busy, a case not counted,
//! a task that failed.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use boardbase::carcassonne::{self, Board, Budget};
use boardbase::error::Classify;
use boardbase::report::CarcassonneAnswer;
use boardbase::tablebase::{CountOptions, Tablebase};
use tokio::sync::Semaphore;

use super::error::{ApiError, Internal, Work};

/// The workers that count.
pub struct Pool {
    workers: usize,
    permits: Arc<Semaphore>,
    waiting: AtomicUsize,
}

/// Sets the flag when dropped: the request's future was dropped (the
/// client went away) or finished.
struct CancelOnDrop(Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Leaves the waiting count when dropped.
struct Waiting<'a>(&'a AtomicUsize);

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

impl Pool {
    /// Most requests waiting for a worker at once.
    pub const MAX_WAITING: usize = 64;

    /// A pool of `workers` (at least 1).
    pub fn new(workers: usize) -> Pool {
        let workers = workers.max(1);
        Pool {
            workers,
            permits: Arc::new(Semaphore::new(workers)),
            waiting: AtomicUsize::new(0),
        }
    }

    /// Takes every worker until the permit is dropped.
    #[cfg(test)]
    pub fn hold_for_test(&self) -> tokio::sync::OwnedSemaphorePermit {
        self.permits
            .clone()
            .try_acquire_many_owned(self.workers as u32)
            .expect("the workers are free")
    }

    /// The number of workers.
    pub fn workers(&self) -> usize {
        self.workers
    }

    /// Waits for a free worker until `deadline`; `None` when every worker
    /// stays busy until then, or too many requests already wait.
    async fn acquire(&self, deadline: Instant) -> Option<tokio::sync::OwnedSemaphorePermit> {
        if self.waiting.fetch_add(1, Ordering::Relaxed) >= Self::MAX_WAITING {
            self.waiting.fetch_sub(1, Ordering::Relaxed);
            return None;
        }
        let _waiting = Waiting(&self.waiting);
        let acquire = self.permits.clone().acquire_owned();
        match tokio::time::timeout_at(deadline.into(), acquire).await {
            Ok(Ok(permit)) => Some(permit),
            Ok(Err(_)) | Err(_) => None,
        }
    }

    /// Runs `job`, the `work` named when every worker stays busy, on a
    /// worker (a blocking thread, off the threads that answer lookups),
    /// waiting for one until `deadline`: the heavy lookups (Flip by GF(2)
    /// on shapes of large nullity, Euler tables made in memory). The job
    /// runs to its end even if the request goes away.
    pub async fn run<T: Send + 'static>(
        &self,
        deadline: Instant,
        work: Work,
        job: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        let Some(permit) = self.acquire(deadline).await else {
            return Err(ApiError::Busy {
                workers: self.workers,
                work,
            });
        };
        let task = tokio::task::spawn_blocking(move || {
            let out = job();
            drop(permit);
            out
        });
        task.await
            .map_err(|_| ApiError::Internal(Internal::Solving))
    }

    /// Counts every board (mod p, exactly, and one witness), numbering the
    /// answers from 1, before `deadline`, the server's time `limit` from
    /// now.
    pub async fn count(
        &self,
        tablebase: Arc<Tablebase>,
        boards: Vec<Board>,
        deadline: Instant,
        limit: Duration,
    ) -> Result<Vec<CarcassonneAnswer>, ApiError> {
        let Some(permit) = self.acquire(deadline).await else {
            return Err(ApiError::Busy {
                workers: self.workers,
                work: Work::Counting,
            });
        };
        let cancel = Arc::new(AtomicBool::new(false));
        let _cancel_on_drop = CancelOnDrop(cancel.clone());
        let task = tokio::task::spawn_blocking(move || {
            let answers = count_boards(&tablebase, &boards, deadline, limit, &cancel);
            drop(permit);
            answers
        });
        task.await
            .unwrap_or(Err(ApiError::Internal(Internal::Counting)))
    }
}

/// Counts each board in turn: the witness first (reachability alone: the
/// cheapest pass, and when no placement exists both counts are 0), then the
/// count mod p, then the exact count.
fn count_boards(
    tablebase: &Tablebase,
    boards: &[Board],
    deadline: Instant,
    limit: Duration,
    cancel: &AtomicBool,
) -> Result<Vec<CarcassonneAnswer>, ApiError> {
    let stop = || cancel.load(Ordering::Relaxed) || Instant::now() >= deadline;
    let mut answers = Vec::with_capacity(boards.len());
    let options = CountOptions {
        exact: true,
        witness: true,
        budget: Budget::DEFAULT,
    };
    for (case, board) in (1..).zip(boards) {
        let counted = tablebase
            .carcassonne(board, &options, stop)
            .map_err(|error| {
                let late = Instant::now() >= deadline;
                let message = format!("case {case}: {}", stop_message(&error, late, limit));
                ApiError::refused(error.kind(), message).at("case", case)
            })?;
        answers.push(counted.answer(case, board));
    }
    Ok(answers)
}

/// Why a case was not counted, in the server's words: its time limit, or
/// the DP's memory budget.
fn stop_message(error: &carcassonne::Error, late: bool, limit: Duration) -> String {
    match error {
        carcassonne::Error::Stopped { placed, cells } if late => format!(
            "not counted within the server's time limit of {} s (stopped after {placed} of {cells} tiles)",
            limit.as_secs_f64()
        ),
        carcassonne::Error::Stopped { .. } => error.to_string(),
        _ => format!("{error}: past the DP's memory budget"),
    }
}
