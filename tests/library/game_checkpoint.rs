//! Runs of a game's table that keep their work: the retrograde analysis
//! resumed from every snapshot it offers ends with the entries of a solve
//! that never stopped (Quixo 3×4, whose positions repeat, and m,n,k 3×4);
//! a `GameJob` interrupted part way keeps its checkpoint, and run again
//! resumes from it to a file byte-identical to an uninterrupted run's,
//! leaving no checkpoint; a damaged checkpoint or one of another setup is
//! refused with the reason, never used.

use crate::common::TempDir;
use crate::interrupted::quixo_3x4;
use boardbase::generate::{Cancel, GameJob, GenerateError};
use boardbase::tables::game::TwoPlayer;
use boardbase::tables::game::retrograde::{self, Resume, Stage};
use boardbase::tables::mnk::Mnk;
use boardbase::tables::quixo::Quixo;
use boardbase::tables::shape::Shape;

/// Every snapshot `game`'s solve offers, kept; then the solve resumed from
/// each: the same entries as the solve that never stopped.
/// Returns how many snapshots were offered in each pass.
fn every_snapshot_resumes_to_the_same_entries<G: TwoPlayer>(game: &G) -> (usize, usize) {
    let whole = retrograde::solve(game).unwrap();
    let mut kept = Vec::new();
    let again = retrograde::solve_resumable(game, None, &mut |_| true, &mut |s| {
        kept.push(Resume {
            stage: s.stage,
            cells: s.cells.to_vec(),
            waiting: s.waiting.to_vec(),
            queue: s.queue.to_vec(),
        });
        true
    })
    .unwrap();
    assert_eq!(again, whole);
    let stages = (
        kept.iter()
            .filter(|r| matches!(r.stage, Stage::Scan { .. }))
            .count(),
        kept.iter()
            .filter(|r| matches!(r.stage, Stage::Queue { .. }))
            .count(),
    );
    for resume in kept {
        let stage = resume.stage;
        let resumed =
            retrograde::solve_resumable(game, Some(resume), &mut |_| true, &mut |_| true).unwrap();
        assert!(resumed == whole, "resumed from {stage:?}");
    }
    stages
}

#[test]
fn a_solve_resumed_from_any_snapshot_ends_with_the_same_entries() {
    // Snapshots in both passes (the first offers one every 65,536 of
    // Quixo 3×4's 1,062,882 indices).
    let quixo = Quixo::new(Shape::new(3, 4).unwrap(), 3).unwrap();
    let (scan, queue) = every_snapshot_resumes_to_the_same_entries(&quixo);
    assert!(scan > 1 && queue > 1, "{scan} {queue}");
    let mnk = Mnk::new(Shape::new(3, 4).unwrap(), 3)
        .unwrap()
        .with_symmetry();
    let (scan, queue) = every_snapshot_resumes_to_the_same_entries(&mnk);
    assert!(scan > 1 && queue > 0, "{scan} {queue}");
}

#[test]
fn a_resume_of_another_index_space_is_refused() {
    let game = Mnk::new(Shape::new(3, 3).unwrap(), 3).unwrap();
    let resume = Resume {
        stage: Stage::Scan { next: 0 },
        cells: vec![0; 10],
        waiting: vec![0; 10],
        queue: Vec::new(),
    };
    let e =
        retrograde::solve_resumable(&game, Some(resume), &mut |_| true, &mut |_| true).unwrap_err();
    assert_eq!(
        e.to_string(),
        "the state to resume from is not of this game's positions"
    );
}

/// Quixo 3×4, k = 3, run in `dir` and cancelled once `fraction` of the
/// way through its solve.
fn interrupted(dir: &TempDir, fraction: f64) -> GenerateError {
    let (quixo, setup) = quixo_3x4(3);
    crate::interrupted::interrupted(&dir.0, quixo, setup, fraction)
}

#[test]
fn an_interrupted_job_resumes_from_its_checkpoint_to_the_same_file() {
    let (quixo, setup) = quixo_3x4(3);
    let whole_dir = TempDir::new("game-checkpoint-whole");
    let whole = GameJob {
        dir: whole_dir.0.clone(),
        ..GameJob::new(quixo, setup.clone())
    }
    .plan()
    .unwrap();
    whole.run(|_| {}, &Cancel::new()).unwrap();
    let want = std::fs::read(&whole.path).unwrap();
    assert_eq!(whole_dir.names(), ["quixo-3x4-k3.bin"]);

    // Stopped in the first pass, then in the queue's: each time the
    // checkpoint is kept and named, and no table is written.
    let dir = TempDir::new("game-checkpoint-resumed");
    for fraction in [0.3, 0.7] {
        match interrupted(&dir, fraction) {
            GenerateError::NotWritten { checkpoint, .. } => {
                assert_eq!(checkpoint, Some(dir.0.join("quixo-3x4-k3.bin.checkpoint")));
            }
            e => panic!("{e:?}"),
        }
        assert_eq!(dir.names(), ["quixo-3x4-k3.bin.checkpoint"]);
    }
    let plan = GameJob {
        dir: dir.0.clone(),
        ..GameJob::new(quixo, setup)
    }
    .plan()
    .unwrap();
    assert!(plan.checkpoint().is_some());
    // The resumed solve starts where the checkpoint stands: its first
    // report is past the start.
    let first = std::sync::Mutex::new(None);
    plan.run(
        |p| {
            first.lock().unwrap().get_or_insert(p.done);
        },
        &Cancel::new(),
    )
    .unwrap();
    assert!(first.lock().unwrap().unwrap() > 0);
    assert_eq!(std::fs::read(&plan.path).unwrap(), want);
    assert_eq!(dir.names(), ["quixo-3x4-k3.bin"]);
}

#[test]
fn a_damaged_checkpoint_or_one_of_another_setup_is_refused() {
    let (quixo, setup) = quixo_3x4(3);
    let dir = TempDir::new("game-checkpoint-damaged");
    interrupted(&dir, 0.5);
    let checkpoint = dir.0.join("quixo-3x4-k3.bin.checkpoint");
    let good = std::fs::read(&checkpoint).unwrap();
    let plan = GameJob {
        dir: dir.0.clone(),
        ..GameJob::new(quixo, setup)
    }
    .plan()
    .unwrap();
    let refused = |bytes: &[u8]| {
        std::fs::write(&checkpoint, bytes).unwrap();
        match plan.run(|_| {}, &Cancel::new()).unwrap_err() {
            e @ (GenerateError::Checkpoint { .. }
            | GenerateError::CheckpointLocked { .. }
            | GenerateError::CheckpointRefused { .. }) => e.to_string(),
            e => panic!("{e:?}"),
        }
    };
    let name = checkpoint.display();
    let mut data = good.clone();
    let middle = data.len() / 2;
    data[middle] ^= 1;
    assert_eq!(
        refused(&data),
        format!(
            "cannot resume from {name}: its data is damaged (CRC mismatch); remove it to start over"
        )
    );
    assert_eq!(
        refused(&good[..good.len() - 5]),
        format!("cannot resume from {name}: it is cut short; remove it to start over")
    );
    let mut header = good.clone();
    header[20] ^= 1;
    assert_eq!(
        refused(&header),
        format!(
            "cannot resume from {name}: its header is damaged (CRC mismatch); remove it to start over"
        )
    );
    // Another setup's checkpoint under this one's name: k = 4 on 3×4.
    let other = TempDir::new("game-checkpoint-other");
    let (quixo, setup) = quixo_3x4(4);
    crate::interrupted::interrupted(&other.0, quixo, setup, 0.5);
    let theirs = std::fs::read(other.0.join("quixo-3x4-k4.bin.checkpoint")).unwrap();
    assert_eq!(
        refused(&theirs),
        format!(
            "cannot resume from {name}: it is of quixo-3x4-k4.bin (1062882 position indices), not of quixo-3x4-k3.bin (1062882); remove it to start over"
        )
    );
    // Nothing was written under the table's name, and the checkpoint is
    // left for the reader to remove.
    assert_eq!(dir.names(), ["quixo-3x4-k3.bin.checkpoint"]);
}
