//! Checkpoints of the Euler generator: a run stopped after some win/loss
//! layers resumes from them and makes the same tables as a run that was
//! never stopped; a checkpoint that is damaged, torn or of another shape is
//! handled as its module says (`src/generate/checkpoint.rs`).
//!
//! The expected tables are an uninterrupted run's, and the 4×5 ones are
//! checked against the independent oracle by `generate_euler.rs`; what is
//! tested here is that stopping and resuming changes nothing.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use boardbase::generate::{self, EulerOptions, EulerTables, GenerateError, Phase};
use boardbase::progress::Cancel;
use boardbase::tables::euler::winloss::WinLossSolver;
use boardbase::tables::shape::Shape;

/// A fresh directory for one test, removed at the end.
struct Dir(PathBuf);

impl Dir {
    fn new(name: &str) -> Dir {
        let dir = std::env::temp_dir().join(format!(
            "boardbase-checkpoint-{name}-{}",
            std::process::id()
        ));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        Dir(dir)
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

fn options(checkpoint: &Path, cancel: Option<Cancel>) -> EulerOptions {
    EulerOptions {
        checkpoint: Some(checkpoint.to_owned()),
        cancel,
        threads: Some(2),
        ..EulerOptions::default()
    }
}

/// Runs `shape` with a checkpoint, cancelled once `fraction` of the
/// win/loss pass is done (the layer running then is not saved).
fn stop_after(shape: Shape, checkpoint: &Path, fraction: f64) {
    let cancel = Cancel::new();
    let result = generate::euler(shape, &options(checkpoint, Some(cancel.clone())), |p| {
        if p.phase == Phase::WinLoss && p.done as f64 >= p.total as f64 * fraction {
            cancel.cancel();
        }
    });
    assert!(
        matches!(result, Err(GenerateError::Cancelled)),
        "{result:?}"
    );
}

/// Layers recorded in a checkpoint: its records are 40 bytes each after
/// the bitset, which starts at 4 KiB.
fn records(checkpoint: &Path, shape: Shape) -> u64 {
    let data_end = 4096 + (1u64 << shape.cells()) / 8;
    (fs::metadata(checkpoint).unwrap().len() - data_end) / 40
}

/// A run that must succeed, and the phases it went through, in order.
fn with_phases(shape: Shape, options: &EulerOptions) -> (EulerTables, Vec<Phase>) {
    let phases = Mutex::new(Vec::new());
    let tables = generate::euler(shape, options, |p| {
        let mut phases = phases.lock().unwrap();
        if phases.last() != Some(&p.phase) {
            phases.push(p.phase);
        }
    })
    .unwrap();
    (tables, phases.into_inner().unwrap())
}

fn uninterrupted(shape: Shape) -> EulerTables {
    generate::euler(shape, &EulerOptions::default(), |_| {}).unwrap()
}

#[test]
fn a_stopped_run_resumes_from_its_layers_and_makes_the_same_tables() {
    let dir = Dir::new("resume");
    for (rows, cols) in [(4, 5), (5, 4), (3, 7)] {
        let shape = Shape::new(rows, cols).unwrap();
        let checkpoint = dir.0.join(format!("euler-{shape}.bin.checkpoint"));
        stop_after(shape, &checkpoint, 0.5);
        let saved = records(&checkpoint, shape);
        assert!(saved >= 1, "{shape}: {saved} layers saved");
        let (resumed, phases) = with_phases(shape, &options(&checkpoint, None));
        assert_eq!(resumed, uninterrupted(shape), "{shape}");
        assert_eq!(
            phases,
            [Phase::Allocate, Phase::Resume, Phase::WinLoss, Phase::Depth],
            "{shape}"
        );
        // Every layer is saved now: a third run reads them all and solves
        // none.
        let layers = records(&checkpoint, shape);
        assert!(layers > saved, "{shape}");
        let again = generate::euler(shape, &options(&checkpoint, None), |_| {}).unwrap();
        assert_eq!(again, resumed, "{shape}");
        assert_eq!(records(&checkpoint, shape), layers);
    }
}

#[test]
fn a_damaged_checkpoint_is_refused() {
    let dir = Dir::new("damaged");
    // 4×6: 7 layers of 1, 6, 15, 20, 15, 6 and 1 blocks; stopped in the
    // fourth, with three saved.
    let shape = Shape::new(4, 6).unwrap();
    let checkpoint = dir.0.join("euler-4x6.bin.checkpoint");
    stop_after(shape, &checkpoint, 0.5);
    assert_eq!(records(&checkpoint, shape), 3);
    let good = fs::read(&checkpoint).unwrap();
    let refused = |bytes: &[u8]| -> String {
        fs::write(&checkpoint, bytes).unwrap();
        match generate::euler(shape, &options(&checkpoint, None), |_| {}) {
            Err(e @ GenerateError::CheckpointRefused { .. }) => e.to_string(),
            other => panic!("{other:?}"),
        }
    };
    let path = checkpoint.display().to_string();

    // A bit of the first layer (the last block, every top bit set).
    let mut bytes = good.clone();
    let data_end = 4096 + (1usize << 24) / 8;
    bytes[data_end - 100] ^= 0x10;
    assert_eq!(
        refused(&bytes),
        format!(
            "cannot resume from {path}: the data of win/loss layer 0 does not match its CRC (the checkpoint is damaged); remove it to start over"
        )
    );
    // A byte of the header.
    let mut bytes = good.clone();
    bytes[20] ^= 1;
    assert!(refused(&bytes).contains("its header does not match its CRC"));
    // A record followed by another.
    let mut bytes = good.clone();
    bytes[data_end + 16] ^= 1;
    assert!(refused(&bytes).contains("its record 1 is damaged or out of order"));
    // Not a checkpoint.
    assert!(refused(b"not a checkpoint at all").contains("it is not a boardbase checkpoint"));
    // Another shape's checkpoint under this one's name.
    let other = Shape::new(6, 4).unwrap();
    let other_path = dir.0.join("euler-6x4.bin.checkpoint");
    stop_after(other, &other_path, 0.5);
    assert_eq!(
        refused(&fs::read(&other_path).unwrap()),
        format!(
            "cannot resume from {path}: it is for euler 6x4, not this run's euler 4x6; remove it to start over"
        )
    );

    // A torn last record (killed while appending it) is dropped, and the
    // run goes on.
    let mut bytes = good;
    bytes.extend_from_slice(&[7; 13]);
    fs::write(&checkpoint, &bytes).unwrap();
    let t = generate::euler(shape, &options(&checkpoint, None), |_| {}).unwrap();
    assert_eq!(t, uninterrupted(shape));
}

#[test]
fn a_checkpoint_in_use_is_locked() {
    let dir = Dir::new("locked");
    let shape = Shape::new(4, 5).unwrap();
    let checkpoint = dir.0.join("euler-4x5.bin.checkpoint");
    stop_after(shape, &checkpoint, 0.3);
    let held = fs::File::open(&checkpoint).unwrap();
    held.lock().unwrap();
    let err = generate::euler(shape, &options(&checkpoint, None), |_| {}).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "{}: another run is making this table (it holds the checkpoint's lock)",
            checkpoint.display()
        )
    );
    held.unlock().unwrap();
    assert_eq!(
        generate::euler(shape, &options(&checkpoint, None), |_| {}).unwrap(),
        uninterrupted(shape)
    );
}

/// Runs `shape` with a checkpoint saving every layer and every step,
/// cancelled once `fraction` of the moves-left pass is done (the step
/// running then is not saved).
fn stop_in_depth(shape: Shape, checkpoint: &Path, fraction: f64) {
    let cancel = Cancel::new();
    let result = generate::euler(shape, &options(checkpoint, Some(cancel.clone())), |p| {
        if p.phase == Phase::Depth && p.done as f64 >= p.total as f64 * fraction {
            cancel.cancel();
        }
    });
    assert!(
        matches!(result, Err(GenerateError::Cancelled)),
        "{result:?}"
    );
}

/// Where a checkpoint's moves-left section ends and its step records
/// start: past the bitset and the room of a 40-byte record a win/loss
/// layer, from the next 4 KiB, the two byte columns.
fn depth_end(shape: Shape) -> u64 {
    let positions = 1u64 << shape.cells();
    let layers = u64::from(WinLossSolver::new(shape).top_bits()) + 1;
    let records_end = 4096 + positions / 8 + 40 * layers;
    records_end.next_multiple_of(4096) + 2 * positions
}

/// Steps of the moves-left pass a checkpoint records (40 bytes each).
fn steps(checkpoint: &Path, shape: Shape) -> u64 {
    fs::metadata(checkpoint)
        .unwrap()
        .len()
        .saturating_sub(depth_end(shape))
        / 40
}

#[test]
fn a_run_stopped_in_the_moves_left_pass_resumes_from_its_steps() {
    let dir = Dir::new("depth-resume");
    for (rows, cols, fraction) in [(4, 5, 0.5), (5, 4, 0.1), (3, 7, 0.9), (2, 3, 0.5)] {
        let shape = Shape::new(rows, cols).unwrap();
        let checkpoint = dir.0.join(format!("euler-{shape}.bin.checkpoint"));
        stop_in_depth(shape, &checkpoint, fraction);
        let saved = steps(&checkpoint, shape);
        assert!(saved >= 1, "{shape}: {saved} steps saved");
        let (resumed, phases) = with_phases(shape, &options(&checkpoint, None));
        assert_eq!(resumed, uninterrupted(shape), "{shape}");
        // The layers, then the columns at the last step saved.
        assert_eq!(
            phases,
            [
                Phase::Allocate,
                Phase::Resume,
                Phase::WinLoss,
                Phase::Resume,
                Phase::Depth
            ],
            "{shape}"
        );
        // Every step is saved now: a third run reads them and takes in
        // no position.
        let all = steps(&checkpoint, shape);
        assert!(all > saved, "{shape}");
        let again = generate::euler(shape, &options(&checkpoint, None), |_| {}).unwrap();
        assert_eq!(again, resumed, "{shape}");
        assert_eq!(steps(&checkpoint, shape), all, "{shape}");
    }
}

#[test]
fn a_damaged_moves_left_section_is_refused_and_a_torn_one_dropped() {
    let dir = Dir::new("depth-damaged");
    let shape = Shape::new(4, 5).unwrap();
    let checkpoint = dir.0.join("euler-4x5.bin.checkpoint");
    stop_in_depth(shape, &checkpoint, 0.6);
    let saved = steps(&checkpoint, shape);
    assert!(saved >= 2, "{saved} steps saved");
    let good = fs::read(&checkpoint).unwrap();
    let end = depth_end(shape) as usize;
    let run = |bytes: &[u8]| {
        fs::write(&checkpoint, bytes).unwrap();
        generate::euler(shape, &options(&checkpoint, None), |_| {})
    };
    let refused = |bytes: &[u8]| match run(bytes) {
        Err(e @ GenerateError::CheckpointRefused { .. }) => e.to_string(),
        other => panic!("{other:?}"),
    };
    let path = checkpoint.display().to_string();

    // The full board's best move (none), the last byte of the columns.
    let mut bytes = good.clone();
    bytes[end - 1] ^= 1;
    let message = refused(&bytes);
    assert!(
        message.starts_with(&format!(
            "cannot resume from {path}: the data of moves-left step "
        )) && message.ends_with(
            " does not match its record (the checkpoint is damaged); remove it to start over"
        ),
        "{message}"
    );
    // A step record followed by another.
    let mut bytes = good.clone();
    bytes[end + 8] ^= 1;
    assert!(
        refused(&bytes).contains("its moves-left record 1 is damaged or out of order"),
        "{bytes:?}"
    );
    // Cut short in its columns.
    assert!(refused(&good[..end - 4096]).contains("shorter than its moves-left columns"));

    // An entry past the step saved is never read: whatever a save cut off
    // wrote there, the run goes on from the step.
    let mut bytes = good.clone();
    let plies = end - 2 * (1 << 20)..end - (1 << 20);
    let later = plies.clone().find(|&at| bytes[at] == 0).unwrap();
    bytes[later] = 200;
    assert_eq!(run(&bytes).unwrap(), uninterrupted(shape));
    // A torn last step record is dropped, and the run goes on from the
    // step before.
    let mut bytes = good.clone();
    bytes.truncate(end + 40 * saved as usize - 7);
    assert_eq!(run(&bytes).unwrap(), uninterrupted(shape));
    // A section begun before the last win/loss layer was recorded (its
    // record's room still 0) is dropped: the run makes the layer again, and
    // the moves-left pass from its start.
    let mut bytes = good;
    let data_end = 4096 + (1usize << 20) / 8;
    let layers = WinLossSolver::new(shape).top_bits() as usize + 1;
    let last = data_end + 40 * (layers - 1);
    bytes[last..last + 40].fill(0);
    fs::write(&checkpoint, &bytes).unwrap();
    let (t, phases) = with_phases(shape, &options(&checkpoint, None));
    assert_eq!(t, uninterrupted(shape));
    assert_eq!(
        phases,
        [Phase::Allocate, Phase::Resume, Phase::WinLoss, Phase::Depth]
    );
}

/// The options of a run by class (`--symmetry`) with a checkpoint saving
/// every layer and every step.
fn by_class(checkpoint: &Path, cancel: Option<Cancel>) -> EulerOptions {
    EulerOptions {
        symmetry: true,
        ..options(checkpoint, cancel)
    }
}

/// Runs `shape` by class with a checkpoint, cancelled once `fraction` of
/// `phase` is done.
fn stop_by_class(shape: Shape, checkpoint: &Path, phase: Phase, fraction: f64) {
    let cancel = Cancel::new();
    let options = by_class(checkpoint, Some(cancel.clone()));
    let result = generate::euler(shape, &options, |p| {
        if p.phase == phase && p.done as f64 >= p.total as f64 * fraction {
            cancel.cancel();
        }
    });
    assert!(
        matches!(result, Err(GenerateError::Cancelled)),
        "{result:?}"
    );
}

#[test]
fn a_run_by_class_stopped_resumes_from_its_layers_and_steps() {
    let dir = Dir::new("by-class");
    let uninterrupted = |shape| {
        let options = EulerOptions {
            symmetry: true,
            ..EulerOptions::default()
        };
        generate::euler(shape, &options, |_| {}).unwrap()
    };
    for (rows, cols, phase, fraction, resumed_phases) in [
        (
            4,
            5,
            Phase::WinLoss,
            0.5,
            &[Phase::Allocate, Phase::Resume, Phase::WinLoss, Phase::Depth][..],
        ),
        (
            3,
            7,
            Phase::Depth,
            0.5,
            &[
                Phase::Allocate,
                Phase::Resume,
                Phase::WinLoss,
                Phase::Resume,
                Phase::Depth,
            ][..],
        ),
        (
            4,
            6,
            Phase::Depth,
            0.9,
            &[
                Phase::Allocate,
                Phase::Resume,
                Phase::WinLoss,
                Phase::Resume,
                Phase::Depth,
            ][..],
        ),
    ] {
        let shape = Shape::new(rows, cols).unwrap();
        let checkpoint = dir.0.join(format!("euler-{shape}.bin.checkpoint"));
        stop_by_class(shape, &checkpoint, phase, fraction);
        let stopped_len = fs::metadata(&checkpoint).unwrap().len();
        let (resumed, phases) = with_phases(shape, &by_class(&checkpoint, None));
        let expected = uninterrupted(shape);
        assert!(expected.classes.is_some());
        assert_eq!(resumed, expected, "{shape}");
        assert_eq!(phases, resumed_phases, "{shape}");
        // Every step is saved now: a third run reads the lot and makes the
        // same tables.
        assert!(fs::metadata(&checkpoint).unwrap().len() > stopped_len);
        let again = generate::euler(shape, &by_class(&checkpoint, None), |_| {}).unwrap();
        assert_eq!(again, expected, "{shape}");
    }
}

#[test]
fn a_checkpoint_by_position_is_refused_by_a_run_by_class_and_the_other_way() {
    let dir = Dir::new("kinds");
    let shape = Shape::new(4, 5).unwrap();
    let checkpoint = dir.0.join("euler-4x5.bin.checkpoint");
    let path = checkpoint.display().to_string();
    stop_after(shape, &checkpoint, 0.5);
    match generate::euler(shape, &by_class(&checkpoint, None), |_| {}) {
        Err(e @ GenerateError::CheckpointRefused { .. }) => assert_eq!(
            e.to_string(),
            format!(
                "cannot resume from {path}: it is for euler 4x5, not this run's euler by class 4x5; remove it to start over"
            )
        ),
        other => panic!("{other:?}"),
    }
    fs::remove_file(&checkpoint).unwrap();
    stop_by_class(shape, &checkpoint, Phase::Depth, 0.5);
    match generate::euler(shape, &options(&checkpoint, None), |_| {}) {
        Err(e @ GenerateError::CheckpointRefused { .. }) => assert!(
            e.to_string()
                .contains("it is for euler by class 4x5, not this run's euler 4x5"),
            "{e}"
        ),
        other => panic!("{other:?}"),
    }
}
