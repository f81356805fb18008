//! The Flip Game generator (`boardbase::generate::flip`) against an
//! independent oracle, for every board shape of at most 20 cells.
//!
//! The generator searches breadth-first from each uniform board. The oracle
//! never searches: it chases the lights (POJ 1753's classic method). Choose
//! which cells of the first line to press; then each cell of the next line
//! must be pressed exactly when the cell above it is still wrong, and so on
//! down; the choice works when the last line comes out right. Every press
//! set that works arises this way from exactly one first-line choice, so
//! enumerating the `2^width` choices (along the shorter side) finds the
//! fewest rounds and counts the optimal press sets. Chasing is linear over
//! GF(2), so each board is chased once with no first-line presses and
//! combined with each choice chased on the empty board.
//!
//! The tables keep, of a board's optimal press sets, the one holding the
//! lowest cell in which any two differ; the oracle picks it among all the
//! sets it enumerates. Tables by class (one entry a class of boards under
//! the board's symmetries) are written to a file, verified, and probed at
//! every board against the oracle.

use crate::common::TempDir;
use crate::oracle::press;

use std::sync::Mutex;

use boardbase::flip::{Colour, raw};
use boardbase::generate::{self, FlipOptions, FlipTables, GenerateError, Phase};
use boardbase::tablefile::{
    Checked, ColumnData, FlipColumns, Puzzle, Table, VerifyOptions, expected_class_file_len,
};
use boardbase::tables::classes::Classes;
use boardbase::tables::shape::Shape;

const IMPOSSIBLE: u8 = 255;

/// Every shape of at most `max` cells.
fn shapes(max: usize) -> impl Iterator<Item = Shape> {
    (1..=max)
        .flat_map(move |rows| (1..=max / rows).map(move |cols| Shape::new(rows, cols).unwrap()))
}

/// Light chasing on a `rows`×`cols` board, along the rows when the rows are
/// at most as wide as the columns are long, else along the columns.
struct Chaser {
    rows: usize,
    cols: usize,
    /// The cells each press flips (the oracle's press rule), by cell.
    effects: Vec<u64>,
    /// Lines along which to chase: each a list of cells (bit indices), the
    /// first line first.
    lines: Vec<Vec<usize>>,
    /// For each first-line choice: (press set, the wrong cells left) when
    /// chasing the empty board.
    choices: Vec<(u64, u64)>,
}

impl Chaser {
    fn new(shape: Shape) -> Chaser {
        let (rows, cols) = (shape.rows(), shape.cols());
        let lines: Vec<Vec<usize>> = if cols <= rows {
            (0..rows)
                .map(|r| (0..cols).map(|c| r * cols + c).collect())
                .collect()
        } else {
            (0..cols)
                .map(|c| (0..rows).map(|r| r * cols + c).collect())
                .collect()
        };
        let mut chaser = Chaser {
            rows,
            cols,
            effects: press::masks(rows, cols),
            lines,
            choices: Vec::new(),
        };
        let width = chaser.lines[0].len();
        chaser.choices = (0..1u64 << width)
            .map(|f| {
                let first: u64 = (0..width)
                    .filter(|k| f >> k & 1 == 1)
                    .map(|k| 1u64 << chaser.lines[0][k])
                    .sum();
                chaser.chase(0, first)
            })
            .collect();
        chaser
    }

    /// Presses `first`, then every cell below (beside) a wrong cell, line
    /// after line; returns the presses and the wrong cells left (only the
    /// last line can hold any).
    fn chase(&self, wrong: u64, first: u64) -> (u64, u64) {
        let mut presses = first;
        let mut wrong = press::apply(self.rows, self.cols, wrong, first);
        for pair in self.lines.windows(2) {
            for (&above, &here) in pair[0].iter().zip(&pair[1]) {
                if wrong >> above & 1 == 1 {
                    presses |= 1 << here;
                    wrong ^= self.effects[here];
                }
            }
        }
        (presses, wrong)
    }

    /// Fewest rounds to make `board` all `colour`, how many press sets of
    /// that size do it, and the first of them: the one holding the lowest
    /// cell in which it differs from each other (0 when there is none).
    fn solve(&self, board: u64, colour: Colour) -> (u8, u8, u64) {
        let full = (1u64 << (self.rows * self.cols)) - 1;
        let wrong = match colour {
            Colour::White => board,
            Colour::Black => board ^ full,
        };
        let (base, left) = self.chase(wrong, 0);
        let mut best = (IMPOSSIBLE, 0u8, 0u64);
        for &(presses, residue) in &self.choices {
            if left ^ residue != 0 {
                continue;
            }
            let set = base ^ presses;
            let rounds = set.count_ones() as u8;
            if rounds < best.0 {
                best = (rounds, 1, set);
            } else if rounds == best.0 {
                best.1 += 1;
                let lowest_difference = (set ^ best.2).trailing_zeros();
                if set >> lowest_difference & 1 == 1 {
                    best.2 = set;
                }
            }
        }
        best
    }
}

fn generate(shape: Shape) -> FlipTables {
    generate::flip(shape, &FlipOptions::default(), |_| {}).expect("a small shape generates")
}

fn check_against_oracle(shape: Shape, t: &FlipTables) {
    let chaser = Chaser::new(shape);
    let boards = 1u64 << shape.cells();
    let full = boards - 1;
    let width = match shape.cells() {
        0..=8 => 8,
        9..=16 => 16,
        _ => 32,
    };
    assert_eq!(t.rounds.len(), boards as usize);
    let mut histogram = vec![0u64; 26];
    for colour in Colour::ALL {
        let c = t.colour(colour);
        assert_eq!(
            u32::from(c.presses.width()),
            width,
            "{shape}: press set width"
        );
        assert_eq!(
            (c.rounds.len(), c.presses.entries() as usize),
            (boards as usize, boards as usize)
        );
    }
    for b in 0..boards {
        let mut closer = IMPOSSIBLE;
        for colour in Colour::ALL {
            let (rounds, sets, first) = chaser.solve(b, colour);
            let c = t.colour(colour);
            let i = b as usize;
            assert_eq!(
                c.rounds[i], rounds,
                "{shape} board {b:#x} to {colour}: rounds"
            );
            assert_eq!(
                c.optimal_sets[i], sets,
                "{shape} board {b:#x} to {colour}: sets"
            );
            let presses = c.presses.get(b);
            assert_eq!(
                presses, first,
                "{shape} board {b:#x} to {colour}: the first set"
            );
            if rounds == IMPOSSIBLE {
                assert_eq!(presses, 0, "{shape} board {b:#x} to {colour}");
            } else {
                assert_eq!(presses.count_ones(), u32::from(rounds), "{shape} {b:#x}");
                let target = if colour == Colour::White { 0 } else { full };
                assert_eq!(
                    press::apply(chaser.rows, chaser.cols, b, presses),
                    target,
                    "{shape} {b:#x} {colour}"
                );
            }
            closer = closer.min(rounds);
        }
        assert_eq!(
            t.rounds[b as usize], closer,
            "{shape} board {b:#x}: closer colour"
        );
        if closer != IMPOSSIBLE {
            histogram[usize::from(closer)] += 1;
        }
    }
    let max = histogram.iter().rposition(|&n| n > 0).unwrap();
    histogram.truncate(max + 1);
    let s = &t.summary;
    assert_eq!(s.boards, boards);
    assert_eq!(s.solvable, histogram.iter().sum::<u64>(), "{shape}");
    assert_eq!(s.histogram, histogram, "{shape}");
    assert_eq!(usize::from(s.max_rounds), max, "{shape}");
    // The boards reaching each colour: a power of two, the same for both.
    assert!(
        s.reach[0].is_power_of_two() && s.reach[0] == s.reach[1],
        "{shape}"
    );
    let white = t
        .colour(Colour::White)
        .rounds
        .iter()
        .filter(|&&r| r != IMPOSSIBLE)
        .count();
    assert_eq!(white as u64, s.reach[0], "{shape}");
}

#[test]
fn every_shape_up_to_20_cells_matches_light_chasing() {
    let mut checked = 0;
    for shape in shapes(20) {
        check_against_oracle(shape, &generate(shape));
        checked += 1;
    }
    assert_eq!(checked, 66);
}

#[test]
fn the_4x4_tables_are_the_embedded_ones_byte_for_byte() {
    let t = generate(Shape::SQUARE4);
    for colour in Colour::ALL {
        let c = t.colour(colour);
        let k = colour.index();
        assert_eq!(c.rounds[..], raw::ROUNDS[k][..], "{colour}");
        assert_eq!(c.optimal_sets[..], raw::OPTIMAL_SETS[k][..], "{colour}");
        match &c.presses {
            ColumnData::U16(p) => assert_eq!(p[..], raw::PRESSES[k][..], "{colour}"),
            other => panic!("4×4 press sets are u16, not {} bits", other.width()),
        }
    }
    for b in 0..1 << 16 {
        let packed = raw::PACKED_ROUNDS[b / 2] >> (4 * (b % 2)) & 0xF;
        let closer = if packed == 0xF { IMPOSSIBLE } else { packed };
        assert_eq!(t.rounds[b], closer, "{b:#06x}");
    }
    // All-black is a sum of press masks: both colours are reached from the same 4,096 boards.
    assert_eq!(t.summary.solvable, 4096);
    assert_eq!(t.summary.max_rounds, 6);
}

#[test]
fn transposed_shapes_give_transposed_answers_and_mirrors_the_same() {
    for (rows, cols) in [(1, 7), (2, 5), (3, 4), (3, 6), (2, 9), (4, 5)] {
        let shape = Shape::new(rows, cols).unwrap();
        let t = generate(shape);
        let tt = generate(shape.transpose());
        for b in 0..=shape.full() {
            let q = shape.transpose_board(b);
            for colour in Colour::ALL {
                let (c, ct) = (t.colour(colour), tt.colour(colour));
                let (i, j) = (b as usize, q as usize);
                assert_eq!(c.rounds[i], ct.rounds[j], "{shape} {b:#x} {colour}");
                assert_eq!(
                    c.optimal_sets[i], ct.optimal_sets[j],
                    "{shape} {b:#x} {colour}"
                );
                for m in [shape.mirror_cols(b), shape.mirror_rows(b)] {
                    let m = m as usize;
                    assert_eq!(c.rounds[m], c.rounds[i], "{shape} {b:#x} mirrored");
                    assert_eq!(c.optimal_sets[m], c.optimal_sets[i], "{shape} {b:#x}");
                }
            }
        }
        assert_eq!(t.summary, tt.summary, "{shape}");
    }
}

#[test]
fn a_dedicated_pool_gives_the_same_tables() {
    let shape = Shape::new(4, 5).unwrap();
    let all = generate(shape);
    let one = FlipOptions {
        threads: Some(1),
        ..FlipOptions::default()
    };
    assert_eq!(generate::flip(shape, &one, |_| {}).unwrap(), all);
    let none = FlipOptions {
        threads: Some(0),
        ..FlipOptions::default()
    };
    assert!(matches!(
        generate::flip(shape, &none, |_| {}),
        Err(GenerateError::NoThreads)
    ));
}

#[test]
fn shapes_past_25_cells_are_refused() {
    for (rows, cols) in [(5, 6), (1, 26), (26, 1), (6, 6)] {
        let shape = Shape::new(rows, cols).unwrap();
        let err = generate::flip_memory(shape, &FlipOptions::default()).unwrap_err();
        assert!(
            matches!(err, GenerateError::TooManyCells(e) if e.shape == shape && e.puzzle.max_cells() == 25),
            "{err:?}"
        );
        assert!(generate::flip(shape, &FlipOptions::default(), |_| {}).is_err());
        assert_eq!(
            err.to_string(),
            format!(
                "flip tables take at most 25 cells; {rows}x{cols} has {}",
                rows * cols
            )
        );
    }
    assert!(generate::flip_memory(Shape::new(5, 5).unwrap(), &FlipOptions::default()).is_ok());
    assert!(generate::flip_memory(Shape::new(1, 25).unwrap(), &FlipOptions::default()).is_ok());
}

#[test]
fn a_memory_limit_refuses_the_job_before_it_starts() {
    let shape = Shape::new(4, 5).unwrap();
    let needed = generate::flip_memory(shape, &FlipOptions::default()).unwrap();
    // 2^20 boards, 4-byte press sets: 13 bytes a board and the bitsets.
    assert!((13 << 20..16 << 20).contains(&needed), "{needed}");
    let limited = FlipOptions {
        memory_limit: Some(needed - 1),
        ..FlipOptions::default()
    };
    let called = Mutex::new(0);
    match generate::flip(shape, &limited, |_| *called.lock().unwrap() += 1) {
        Err(GenerateError::OverMemoryLimit {
            needed: n, limit, ..
        }) => {
            assert_eq!((n, limit), (needed, needed - 1));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(*called.lock().unwrap(), 0);
    let exact = FlipOptions {
        memory_limit: Some(needed),
        ..FlipOptions::default()
    };
    assert!(generate::flip(shape, &exact, |_| {}).is_ok());
}

#[test]
fn progress_reaches_the_total_of_every_phase() {
    let reports = Mutex::new(Vec::new());
    let shape = Shape::new(4, 4).unwrap();
    generate::flip(shape, &FlipOptions::default(), |p| {
        reports.lock().unwrap().push(p)
    })
    .unwrap();
    let reports = reports.into_inner().unwrap();
    let starts: Vec<Phase> = reports
        .iter()
        .filter(|p| p.done == 0)
        .map(|p| p.phase)
        .collect();
    assert_eq!(starts, [Phase::Search, Phase::Summary]);
    for (phase, total) in [(Phase::Search, 4096), (Phase::Summary, 1 << 16)] {
        let of: Vec<_> = reports.iter().filter(|p| p.phase == phase).collect();
        assert!(of.iter().all(|p| p.total == total), "{phase}");
        assert!(of.windows(2).all(|w| w[0].done <= w[1].done), "{phase}");
        assert_eq!(of.last().unwrap().done, total, "{phase}");
    }
}

#[test]
fn tables_by_class_answer_every_board_as_light_chasing() {
    let dir = TempDir::new("flip-by-class");
    let by_class = FlipOptions {
        symmetry: true,
        ..FlipOptions::default()
    };
    // Every shape of up to 16 cells, and two larger: squares (8
    // symmetries), rectangles (4), single rows; nullity 0 to 4.
    let larger = [Shape::new(4, 5).unwrap(), Shape::new(3, 6).unwrap()];
    for shape in shapes(16).chain(larger) {
        let made = generate::flip(shape, &by_class, |_| {}).unwrap();
        let classes = Classes::of_shape(shape);
        assert_eq!(made.classes.as_ref(), Some(&classes), "{shape}");
        assert_eq!(made.rounds.len() as u64, classes.entries(), "{shape}");
        // The summary counts every board, as the tables by board say.
        assert_eq!(made.summary, generate(shape).summary, "{shape}");

        let path = dir.join(format!("flip-{shape}.bin"));
        let len = Table::from_flip(shape, FlipColumns::from(made))
            .unwrap()
            .write(&path, &mut |_| {})
            .unwrap();
        assert_eq!(
            len,
            expected_class_file_len(Puzzle::Flip, shape, true).unwrap(),
            "{shape}"
        );
        let table = Table::open(&path).unwrap();
        assert_eq!(table.version(), 5, "{shape}");
        let verified = table
            .verify_with(VerifyOptions::all(), &mut |_| {})
            .unwrap();
        assert_eq!(
            verified.entries,
            Checked::Consistent {
                checked: classes.entries(),
                positions: classes.entries(),
            },
            "{shape}"
        );

        let flip = table.as_flip().unwrap();
        let chaser = Chaser::new(shape);
        for b in 0..1u64 << shape.cells() {
            let mut closer = None;
            for colour in Colour::ALL {
                let (rounds, sets, first) = chaser.solve(b, colour);
                let route = flip.route(b, colour).unwrap();
                if rounds == IMPOSSIBLE {
                    assert_eq!(route, None, "{shape} {b:#x} {colour}");
                    continue;
                }
                let route = route.unwrap();
                assert_eq!(
                    (route.rounds, route.optimal_sets, route.presses),
                    (rounds, sets, first),
                    "{shape} board {b:#x} to {colour}"
                );
                closer = Some(closer.map_or(rounds, |c: u8| c.min(rounds)));
            }
            assert_eq!(flip.rounds(b).unwrap(), closer, "{shape} {b:#x}");
        }
    }
}

#[test]
fn a_table_by_class_takes_less_memory_and_a_wrong_entry_fails_verify() {
    let shape = Shape::new(4, 4).unwrap();
    let by_class = FlipOptions {
        symmetry: true,
        ..FlipOptions::default()
    };
    let with = generate::flip_memory(shape, &by_class).unwrap();
    let without = generate::flip_memory(shape, &FlipOptions::default()).unwrap();
    assert!(with < without, "{with} {without}");

    let made = generate::flip(shape, &by_class, |_| {}).unwrap();
    let entries = made.rounds.len();
    // A board that reaches white, whose set count its neighbours' check.
    let reaching = (entries / 3..entries)
        .find(|&i| made.colour(Colour::White).rounds[i] != IMPOSSIBLE)
        .unwrap();
    let dir = TempDir::new("flip-by-class-wrong");
    for (column, entry) in [("optimal_sets_white", reaching), ("rounds", entries - 1)] {
        let mut columns = FlipColumns::from(made.clone());
        match column {
            "rounds" => columns.rounds[entry] ^= 1,
            _ => columns.optimal_sets_white[entry] += 1,
        }
        let path = dir.join(format!("bad-{column}.bin"));
        Table::from_flip(shape, columns)
            .unwrap()
            .write(&path, &mut |_| {})
            .unwrap();
        let error = Table::open(&path)
            .unwrap()
            .verify_with(VerifyOptions::all(), &mut |_| {})
            .unwrap_err()
            .to_string();
        // The first board in the entries' order whose check fails: the
        // entry itself, or one whose neighbours it is.
        assert!(error.contains(column), "{error}");
        assert!(error.contains(" of the symmetric index)"), "{error}");
    }
}
