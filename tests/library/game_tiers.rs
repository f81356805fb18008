//! A game's table job tier by tier: a game that declares tiers (Quixo),
//! held to less memory than its whole solve needs, is solved one tier at a
//! time into an entries file beside the table, to the very file and
//! summary of the whole solve (which tests/library/game_quixo.rs holds to
//! value iteration); interrupted between tiers it keeps its checkpoint and
//! entries file, and run again resumes to the same file, leaving neither;
//! a run resumed goes on the way its checkpoint was saved, whatever the
//! memory now; a checkpoint whose entries file is gone or cut short is
//! refused with the reason.

use crate::common::TempDir;
use crate::interrupted::{interrupted, interrupted_within, quixo_3x4};
use boardbase::catalogue::{self, Model, Setup};
use boardbase::generate::{Cancel, GameJob, GamePlan, GameReport, GenerateError};
use boardbase::tables::shape::Shape;

/// The plan of `model` set up as `setup` in `dir`, held to `memory_limit`.
fn plan(dir: &TempDir, model: &'static Model, setup: &Setup, limit: Option<u64>) -> GamePlan {
    GameJob {
        dir: dir.0.clone(),
        memory_limit: limit,
        ..GameJob::new(model, setup.clone())
    }
    .plan()
    .unwrap()
}

/// A limit under the whole solve's need that the tiers fit in.
fn tier_limit(whole: &GamePlan) -> Option<u64> {
    Some(whole.memory_needed - 1)
}

/// What a summary says of the game, not of the run.
fn found(r: &GameReport) -> String {
    format!(
        "{} {:?} {} {} {} {} {} {} {:?}",
        r.game, r.options, r.positions, r.legal, r.reachable, r.win, r.lose, r.draw, r.start
    )
}

#[test]
fn a_job_over_the_memory_limit_is_solved_tier_by_tier_to_the_same_file() {
    let quixo = catalogue::model("quixo").unwrap();
    for (rows, cols, k) in [(3, 3, 3), (3, 4, 3), (4, 3, 3), (3, 4, 4), (2, 4, 2)] {
        let setup = quixo.setup(Shape::new(rows, cols), &[("k", k)]).unwrap();
        let name = format!("quixo-{rows}x{cols}-k{k}.bin");
        let whole_dir = TempDir::new("game-tiers-whole");
        let whole = plan(&whole_dir, quixo, &setup, None);
        assert_eq!(whole.entries_bytes, 0, "{name}: solved whole where it fits");
        let whole_report = whole.run(|_| {}, &Cancel::new()).unwrap();

        let dir = TempDir::new("game-tiers");
        let tiered = plan(&dir, quixo, &setup, tier_limit(&whole));
        assert_eq!(tiered.entries_bytes, 2 * tiered.positions, "{name}");
        assert!(tiered.memory_needed < whole.memory_needed, "{name}");
        let report = tiered.run(|_| {}, &Cancel::new()).unwrap();
        assert_eq!(found(&report), found(&whole_report), "{name}");
        assert_eq!(
            std::fs::read(&tiered.path).unwrap(),
            std::fs::read(&whole.path).unwrap(),
            "{name}"
        );
        // The entries file and the checkpoint are gone.
        assert_eq!(dir.names(), [name]);
    }
}

#[test]
fn an_interrupted_tier_by_tier_job_resumes_to_the_same_file() {
    let (quixo, setup) = quixo_3x4(3);
    let whole_dir = TempDir::new("game-tiers-resume-whole");
    let whole = plan(&whole_dir, quixo, &setup, None);
    whole.run(|_| {}, &Cancel::new()).unwrap();
    let want = std::fs::read(&whole.path).unwrap();
    let limit = tier_limit(&whole);

    let dir = TempDir::new("game-tiers-resumed");
    let kept = [
        "quixo-3x4-k3.bin.checkpoint".to_owned(),
        "quixo-3x4-k3.bin.tiers".to_owned(),
    ];
    for fraction in [0.3, 0.7] {
        match interrupted_within(&dir.0, quixo, setup.clone(), fraction, limit) {
            GenerateError::NotWritten { checkpoint, .. } => {
                assert_eq!(checkpoint, Some(dir.0.join(&kept[0])));
            }
            e => panic!("{e:?}"),
        }
        assert_eq!(dir.names(), kept);
    }
    let plan = plan(&dir, quixo, &setup, limit);
    assert!(plan.checkpoint().is_some());
    // The resumed solve starts from the tiers saved: its first report is
    // at least 70 % of the way.
    let first = std::sync::Mutex::new(None);
    plan.run(
        |p| {
            first.lock().unwrap().get_or_insert((p.done, p.total));
        },
        &Cancel::new(),
    )
    .unwrap();
    let (done, total) = first.lock().unwrap().unwrap();
    assert!(done as f64 >= 0.7 * total as f64, "{done} of {total}");
    assert_eq!(std::fs::read(&plan.path).unwrap(), want);
    assert_eq!(dir.names(), ["quixo-3x4-k3.bin"]);
}

#[test]
fn a_job_stopped_while_it_counts_the_reachable_classes_keeps_its_solve() {
    use boardbase::generate::Phase;
    let (quixo, setup) = quixo_3x4(3);
    let whole_dir = TempDir::new("game-reachable-whole");
    let whole = plan(&whole_dir, quixo, &setup, None);
    // Whole: the phases in order, each ending at its total.
    let seen = std::sync::Mutex::new(Vec::new());
    whole
        .run(|p| seen.lock().unwrap().push(p), &Cancel::new())
        .unwrap();
    let seen = seen.into_inner().unwrap();
    let mut phases: Vec<Phase> = seen.iter().map(|p| p.phase).collect();
    phases.dedup();
    assert_eq!(
        phases,
        [
            Phase::Solve,
            Phase::Reachable,
            Phase::Checksum,
            Phase::Write
        ]
    );
    let reachable: Vec<_> = seen
        .iter()
        .filter(|p| p.phase == Phase::Reachable)
        .collect();
    let report = whole.run(|_| {}, &Cancel::new()).unwrap();
    let legal = report.legal;
    assert_eq!((reachable[0].done, reachable[0].total), (0, legal));
    assert_eq!(reachable.last().map(|p| p.done), Some(legal));
    let want = std::fs::read(&whole.path).unwrap();

    // Tier by tier, cancelled as the count starts: the tiers stay solved.
    let dir = TempDir::new("game-reachable-tiers");
    let limit = tier_limit(&whole);
    let tiered = plan(&dir, quixo, &setup, limit);
    let cancel = Cancel::new();
    let stop = cancel.clone();
    match tiered
        .run(
            move |p| {
                if p.phase == Phase::Reachable {
                    stop.cancel();
                }
            },
            &cancel,
        )
        .unwrap_err()
    {
        GenerateError::NotWritten { checkpoint, .. } => {
            assert_eq!(checkpoint, Some(dir.0.join("quixo-3x4-k3.bin.checkpoint")));
        }
        e => panic!("{e:?}"),
    }
    assert_eq!(
        dir.names(),
        ["quixo-3x4-k3.bin.checkpoint", "quixo-3x4-k3.bin.tiers"]
    );
    // Run again: no tier solved again, the count made, the same file.
    let again = plan(&dir, quixo, &setup, limit);
    let first = std::sync::Mutex::new(None);
    again
        .run(
            |p| {
                first.lock().unwrap().get_or_insert((p.done, p.total));
            },
            &Cancel::new(),
        )
        .unwrap();
    let (done, total) = first.lock().unwrap().unwrap();
    assert_eq!(done, total, "every tier was saved");
    assert_eq!(std::fs::read(&again.path).unwrap(), want);
    assert_eq!(dir.names(), ["quixo-3x4-k3.bin"]);
}

#[test]
fn a_run_goes_on_the_way_its_checkpoint_was_saved() {
    let (quixo, setup) = quixo_3x4(3);
    let whole_dir = TempDir::new("game-tiers-way-whole");
    let whole = plan(&whole_dir, quixo, &setup, None);
    whole.run(|_| {}, &Cancel::new()).unwrap();
    let want = std::fs::read(&whole.path).unwrap();
    let limit = tier_limit(&whole);

    // Saved tier by tier, resumed with memory enough for the whole solve:
    // tier by tier still, to the same file.
    let dir = TempDir::new("game-tiers-way");
    interrupted_within(&dir.0, quixo, setup.clone(), 0.5, limit);
    let resumed = plan(&dir, quixo, &setup, None);
    assert_eq!(resumed.entries_bytes, 2 * resumed.positions);
    resumed.run(|_| {}, &Cancel::new()).unwrap();
    assert_eq!(std::fs::read(&resumed.path).unwrap(), want);
    assert_eq!(dir.names(), ["quixo-3x4-k3.bin"]);

    // Saved by a whole solve, resumed under a limit the whole solve is
    // over: whole still, and refused for its memory, the checkpoint kept.
    let dir = TempDir::new("game-tiers-way-other");
    interrupted(&dir.0, quixo, setup.clone(), 0.5);
    let resumed = plan(&dir, quixo, &setup, limit);
    assert_eq!(resumed.entries_bytes, 0);
    match resumed.run(|_| {}, &Cancel::new()).unwrap_err() {
        GenerateError::JobOverMemoryLimit { .. } => {}
        e => panic!("{e:?}"),
    }
    assert_eq!(dir.names(), ["quixo-3x4-k3.bin.checkpoint"]);
}

#[test]
fn a_checkpoint_without_its_entries_is_refused() {
    let (quixo, setup) = quixo_3x4(3);
    let whole_dir = TempDir::new("game-tiers-entries-whole");
    let limit = tier_limit(&plan(&whole_dir, quixo, &setup, None));
    let refused = |plan: &GamePlan| match plan.run(|_| {}, &Cancel::new()).unwrap_err() {
        e @ GenerateError::CheckpointRefused { .. } => e.to_string(),
        e => panic!("{e:?}"),
    };
    let dir = TempDir::new("game-tiers-entries");
    interrupted_within(&dir.0, quixo, setup.clone(), 0.5, limit);
    let name = dir.0.join("quixo-3x4-k3.bin.checkpoint");
    // Its entries file cut short, then gone.
    let entries = dir.0.join("quixo-3x4-k3.bin.tiers");
    let bytes = std::fs::read(&entries).unwrap();
    std::fs::write(&entries, &bytes[..bytes.len() - 2]).unwrap();
    let tiered = plan(&dir, quixo, &setup, limit);
    let cannot = |why: &str| {
        format!(
            "cannot resume from {}: its entries file {} cannot be used: {why}; remove it to start over",
            name.display(),
            entries.display(),
        )
    };
    assert_eq!(
        refused(&tiered),
        cannot(&format!(
            "it has {} bytes, not {}",
            bytes.len() - 2,
            bytes.len()
        ))
    );
    std::fs::remove_file(&entries).unwrap();
    assert_eq!(refused(&tiered), cannot("it is missing"));
    // Nothing written, nothing removed.
    assert_eq!(dir.names(), ["quixo-3x4-k3.bin.checkpoint"]);
}

#[test]
fn a_tier_by_tier_job_stopped_before_its_first_tier_leaves_nothing() {
    let (quixo, setup) = quixo_3x4(3);
    let whole_dir = TempDir::new("game-tiers-stopped-whole");
    let limit = tier_limit(&plan(&whole_dir, quixo, &setup, None));
    let dir = TempDir::new("game-tiers-stopped");
    let tiered = plan(&dir, quixo, &setup, limit);
    let cancel = Cancel::new();
    cancel.cancel();
    match tiered.run(|_| {}, &cancel).unwrap_err() {
        GenerateError::NotWritten { checkpoint, .. } => assert_eq!(checkpoint, None),
        e => panic!("{e:?}"),
    }
    assert!(dir.names().is_empty(), "{:?}", dir.names());
}
