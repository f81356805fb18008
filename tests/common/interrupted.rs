//! A game's table job stopped part way through the library, leaving its
//! checkpoint: where the tests of resuming (the library's and the
//! command line's) start from.
#![allow(dead_code)]

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use boardbase::catalogue::{self, Model, Setup};
use boardbase::generate::{Cancel, GameJob, GenerateError};
use boardbase::tables::shape::Shape;

/// Quixo on 3×4 with `k` in a row: a small game whose positions repeat.
pub fn quixo_3x4(k: u64) -> (&'static Model, Setup) {
    let quixo = catalogue::model("quixo").unwrap();
    let setup = quixo
        .setup(Some(Shape::new(3, 4).unwrap()), &[("k", k)])
        .unwrap();
    (quixo, setup)
}

/// Runs the job of `model` and `setup` in `dir`, saving at every snapshot
/// offered, and cancels it once it is `fraction` of the way through its
/// solve: its error, the checkpoint left in `dir`.
pub fn interrupted(
    dir: &Path,
    model: &'static Model,
    setup: Setup,
    fraction: f64,
) -> GenerateError {
    interrupted_within(dir, model, setup, fraction, None)
}

/// [`interrupted`] with the job's memory limit `memory_limit` (`None`:
/// the memory available).
pub fn interrupted_within(
    dir: &Path,
    model: &'static Model,
    setup: Setup,
    fraction: f64,
    memory_limit: Option<u64>,
) -> GenerateError {
    let plan = GameJob {
        dir: dir.to_path_buf(),
        checkpoint_every: Duration::ZERO,
        memory_limit,
        ..GameJob::new(model, setup)
    }
    .plan()
    .unwrap();
    let cancel = Cancel::new();
    let past = AtomicBool::new(false);
    let e = plan
        .run(
            |p| {
                if p.total > 0 && p.done as f64 >= fraction * p.total as f64 {
                    past.store(true, Ordering::Relaxed);
                    cancel.cancel();
                }
            },
            &cancel,
        )
        .unwrap_err();
    assert!(
        past.load(Ordering::Relaxed),
        "cancelled before {fraction} of the way: {e:?}"
    );
    e
}
