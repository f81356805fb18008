//! The answer layer: every 4×4 board and position through
//! [`Tablebase`](boardbase::tablebase::Tablebase)'s sources, each lookup's
//! moves against the tests' press rule and move generator (tests/oracle), their
//! order, and the hand-written JSON byte for byte against serde's; the same
//! JSON check on other shapes (tables generated, and GF(2)).

use std::sync::Arc;

use crate::oracle::press;
use boardbase::euler::{self, Outcome, Position};
use boardbase::flip::{self, Board};
use boardbase::report::{EulerAnswer, FlipAnswer};
use boardbase::tablebase::{
    EmbeddedEuler, EmbeddedFlip, TableEuler, TableFlip, Tablebase, euler_json, euler_lookup,
    flip_json, flip_lights_json, flip_lights_lookup, flip_lookup,
};

#[test]
fn every_flip_board() {
    let source = EmbeddedFlip::new();
    for bits in 0..=u16::MAX {
        let board = Board::from_bits(bits);
        let lookup = flip_lookup(&source, u64::from(bits)).expect("embedded");
        assert_eq!(lookup.answer, FlipAnswer::new(1, board));
        // The API's hand-written JSON (the answer's object written straight
        // from the tables) is serde's JSON of the lookup, on every board.
        let json = flip_json(&source, u64::from(bits)).expect("embedded");
        assert_eq!(
            json,
            serde_json::to_vec(&lookup).expect("JSON"),
            "{board:#}"
        );
        let mut seen = 0u16;
        let mut last = (0u16, 0usize);
        for m in &lookup.moves {
            let [r, c] = m.cell;
            seen |= 1 << (4 * r + c);
            let after = Board::from_bits(press::pressed_4x4(bits, r, c));
            assert_eq!(m.board, Some(format!("{after:#}")));
            assert_eq!(m.rounds, flip::rounds(after).map(u16::from));
            assert_eq!(m.solvable, m.rounds.is_some());
            let key = (m.rounds.map_or(u16::MAX, u16::from), 4 * r + c);
            assert!(
                key > last || (key == last && key == (0, 0)),
                "order of {board:#}"
            );
            last = key;
        }
        assert_eq!(seen, u16::MAX, "all 16 presses of {board:#}");
    }
}

#[test]
fn every_euler_position() {
    let source = EmbeddedEuler::new();
    let all = crate::oracle::euler::moves_4x4();
    for bits in 0..=u16::MAX {
        let position = Position::from_bits(bits);
        let lookup = euler_lookup(&source, u64::from(bits)).expect("embedded");
        assert_eq!(lookup.answer, EulerAnswer::new(1, position));
        let json = euler_json(&source, u64::from(bits)).expect("embedded");
        assert_eq!(
            json,
            serde_json::to_vec(&lookup).expect("JSON"),
            "{position:#}"
        );
        let mut legal: Vec<u16> = all.iter().copied().filter(|m| bits & m == 0).collect();
        let mut listed: Vec<u16> = lookup.moves.iter().map(|m| m.mask as u16).collect();
        legal.sort_unstable();
        listed.sort_unstable();
        assert_eq!(listed, legal, "legal moves of {position:#}");
        let mut last = (0u8, i16::MIN);
        for m in &lookup.moves {
            let child = euler::probe(Position::from_bits(bits | m.mask as u16));
            assert_eq!(
                (m.outcome, m.moves_left),
                (child.outcome, Some(child.moves_left))
            );
            assert_eq!(
                m.board,
                format!("{:#}", Position::from_bits(bits | m.mask as u16))
            );
            let key = match m.outcome {
                Outcome::Loss => (0, i16::from(child.moves_left)),
                Outcome::Win => (1, -i16::from(child.moves_left)),
            };
            assert!(key >= last, "order of {position:#}");
            last = key;
        }
        let best = lookup.answer.best_move.as_ref().map(|b| b.mask);
        assert_eq!(
            lookup.moves.first().map(|m| m.mask),
            best,
            "best move of {position:#}"
        );
    }
}

/// The hand-written JSON of table and GF(2) lookups of other shapes is
/// serde's JSON of the lookup (their values are checked against oracles
/// in tests/serve/sizes.rs).
#[test]
fn other_shapes_write_the_same_json_as_serde() {
    use boardbase::generate::{self, EulerOptions, FlipOptions};
    use boardbase::lights::{Grid, Solver};
    use boardbase::tablefile::{EulerColumns, FlipColumns, Table};
    use boardbase::tables::shape::Shape;

    for (rows, cols) in [(3, 4), (2, 5), (1, 3)] {
        let shape = Shape::new(rows, cols).unwrap();
        for wdl_only in [false, true] {
            let options = EulerOptions {
                wdl_only,
                ..EulerOptions::default()
            };
            let tables = generate::euler(shape, &options, |_| {}).unwrap();
            let table = Table::from_euler(shape, EulerColumns::from(tables)).unwrap();
            let source = TableEuler::new(Arc::new(table)).unwrap();
            for p in 0..1u64 << shape.cells() {
                let json = euler_json(&source, p).unwrap();
                let lookup = euler_lookup(&source, p).unwrap();
                assert_eq!(lookup.answer.wdl_only, wdl_only);
                assert_eq!(json, serde_json::to_vec(&lookup).unwrap(), "{shape} {p}");
            }
        }
        let tables = generate::flip(shape, &FlipOptions::default(), |_| {}).unwrap();
        let table = Table::from_flip(shape, FlipColumns::from(tables)).unwrap();
        let source = TableFlip::new(Arc::new(table));
        for b in 0..1u64 << shape.cells() {
            let json = flip_json(&source, b).unwrap();
            assert_eq!(
                json,
                serde_json::to_vec(&flip_lookup(&source, b).unwrap()).unwrap(),
                "{shape} {b}"
            );
        }
    }
    // GF(2): boards of up to 64 cells list the board after each press,
    // larger ones leave it out.
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    for (rows, cols) in [(5, 5), (8, 8), (9, 9), (13, 17), (3, 40)] {
        let shape = Shape::new(rows, cols).unwrap();
        let solver = Solver::cached(shape);
        for _ in 0..4 {
            let cells: Vec<u64> = (0..rows)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    x & shape.row_mask()
                })
                .collect();
            let board = Grid::from_rows(shape, &cells).unwrap();
            let json = flip_lights_json(solver, &board).unwrap();
            let lookup = flip_lights_lookup(solver, &board).unwrap();
            assert_eq!(lookup.moves.len(), shape.cells());
            assert_eq!(
                lookup.moves.iter().all(|m| m.board.is_some()),
                shape.cells() <= 64
            );
            assert_eq!(json, serde_json::to_vec(&lookup).unwrap(), "{shape}");
        }
    }
}

/// A scratch directory, removed at the end.
fn scratch(name: &str) -> crate::common::TempDir {
    crate::common::TempDir::new(&format!("tablebase-{name}"))
}

/// Where the tablebase answers from, in its order: embedded 4×4, the first
/// file of a name in the directories (a damaged one is its error, not
/// skipped), tables made in memory, GF(2); every value against the oracle.
#[test]
fn the_tablebase_answers_from_the_right_place() {
    use boardbase::tablebase::{Error, FlipFrom, Origin};
    use boardbase::tablefile::Table;
    use boardbase::tables::shape::Shape;

    let shape = Shape::new(3, 4).unwrap();
    let oracle = crate::oracle::Euler::solve(shape);
    let good = scratch("good");
    let bad = scratch("bad");
    // A good 3×4 file in `good`; a damaged one of the same name in `bad`.
    let table = Table::from_euler(shape, oracle.columns(false)).unwrap();
    table
        .write(good.0.join("euler-3x4.bin"), &mut |_| {})
        .unwrap();
    std::fs::write(bad.0.join("euler-3x4.bin"), b"not a table").unwrap();

    // Nothing added: made in memory, every position as the oracle says.
    let tablebase = Tablebase::new();
    assert!(matches!(tablebase.euler(shape), Ok(None)));
    let loaded = tablebase.euler_answers(shape, |_| {}).unwrap();
    assert_eq!(loaded.origin, Origin::Made);
    for p in 0..1u64 << shape.cells() {
        let lookup = tablebase.euler_lookup(shape, p).unwrap();
        let i = p as usize;
        assert_eq!(lookup.answer.outcome == Outcome::Win, oracle.wins[i], "{p}");
        assert_eq!(lookup.answer.moves_left, Some(oracle.plies[i]), "{p}");
        let legal = oracle.order.iter().filter(|&&m| m & p == 0).count();
        assert_eq!(lookup.moves.len(), legal, "{p}");
    }
    assert!(
        tablebase.euler_lookup(shape, 1 << 12).is_err(),
        "a bit outside 3×4"
    );

    // The good directory first: its file answers.
    let mut tablebase = Tablebase::new();
    assert_eq!(tablebase.add_directory(&good.0).unwrap(), 1);
    tablebase.add_directory(&bad.0).unwrap();
    let loaded = tablebase.euler_answers(shape, |_| {}).unwrap();
    assert_eq!(loaded.origin, Origin::File(good.0.join("euler-3x4.bin")));
    assert_eq!(
        tablebase.euler_lookup(shape, 0).unwrap().answer.outcome == Outcome::Win,
        oracle.wins[0]
    );

    // The damaged file first: its error, never the good one behind it.
    let mut tablebase = Tablebase::new();
    tablebase.add_directory(&bad.0).unwrap();
    tablebase.add_directory(&good.0).unwrap();
    let unusable = |result: Result<_, Error>| match result {
        Err(Error::Unusable { error, path, .. }) => {
            assert!(matches!(*error, Error::Open { .. }), "{error}");
            assert_eq!(path, bad.0.join("euler-3x4.bin"));
        }
        Err(e) => panic!("{e}"),
        Ok(_) => panic!("the damaged file answered"),
    };
    unusable(tablebase.euler(shape).map(|_| ()));
    unusable(tablebase.euler_answers(shape, |_| {}).map(|_| ()));
    unusable(tablebase.euler_lookup(shape, 0).map(|_| ()));
    let error = tablebase.euler_answers(shape, |_| {}).unwrap_err();
    assert!(error.to_string().contains("euler-3x4.bin"), "{error}");
    assert!(
        error
            .to_string()
            .contains("until the file is replaced; make it with: boardbase generate euler 3x4"),
        "{error}"
    );

    // A directory that cannot be read is an error, and is named in the
    // errors for missing tables.
    let mut tablebase = Tablebase::new();
    tablebase.set_make_memory(0);
    let missing = good.0.join("no such directory");
    assert!(tablebase.add_directory(&missing).is_err());
    let error = tablebase.euler_answers(shape, |_| {}).unwrap_err();
    assert!(matches!(error, Error::Missing(_)), "{error}");
    assert!(error.to_string().contains("no such directory"), "{error}");
    assert!(
        error.to_string().contains("boardbase generate euler 3x4"),
        "{error}"
    );

    // Flip: 4×4 embedded, 3×4 by GF(2) (no file), answers as the oracle's.
    let tablebase = Tablebase::new();
    assert!(matches!(
        tablebase.flip(Shape::SQUARE4),
        Ok(FlipFrom::Table(_))
    ));
    assert!(matches!(tablebase.flip(shape), Ok(FlipFrom::Lights(_))));
    let flip = crate::oracle::Flip::solve(shape);
    for b in 0..1u64 << shape.cells() {
        let lookup = tablebase.flip_lookup(shape, b).unwrap();
        let best = (0..2)
            .map(|c| flip.rounds[c][b as usize])
            .filter(|&r| r != 255)
            .min();
        assert_eq!(
            lookup.answer.rounds.map(u64::from),
            best.map(u64::from),
            "{b}"
        );
        assert_eq!(lookup.moves.len(), 12);
    }
    let by_bits = tablebase.flip_lookup(Shape::SQUARE4, 0b1001).unwrap();
    assert_eq!(by_bits, flip_lookup(&EmbeddedFlip::new(), 0b1001).unwrap());
}

/// A version-2 file whose column was damaged after it was written is
/// refused when it is opened to answer (its CRCs are checked: it is small),
/// by the tablebase and by `open_as` (`--table FILE`), never used.
#[test]
fn a_damaged_version_2_column_is_refused_at_open() {
    use boardbase::tablebase::{Error, open_as};
    use boardbase::tablefile::{Puzzle, Table, TableError};
    use boardbase::tables::shape::Shape;

    let shape = Shape::new(3, 4).unwrap();
    let oracle = crate::oracle::Euler::solve(shape);
    let dir = scratch("damaged");
    let path = dir.0.join("euler-3x4.bin");
    let v2 = Table::from_euler(shape, oracle.columns(false))
        .unwrap()
        .to_bytes_version(2)
        .unwrap();
    std::fs::write(&path, v2).unwrap();
    assert_eq!(Table::open(&path).unwrap().version(), 2);
    assert!(open_as(&path, Puzzle::Euler, Some(shape)).is_ok());
    // Flip one bit of the first byte of the `plies` column (moves left):
    // nothing but its CRC says the file is wrong.
    let plies = Table::open(&path)
        .unwrap()
        .columns()
        .find(|c| c.name == "plies")
        .and_then(|c| c.offset)
        .expect("a plies column in the file");
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[plies as usize] ^= 1;
    std::fs::write(&path, bytes).unwrap();
    let error = open_as(&path, Puzzle::Euler, Some(shape)).unwrap_err();
    assert!(
        matches!(
            error,
            Error::Open {
                error: TableError::ColumnCrc { .. },
                ..
            }
        ),
        "{error}"
    );
    let mut tablebase = Tablebase::new();
    tablebase.add_directory(&dir.0).unwrap();
    let error = tablebase.euler_answers(shape, |_| {}).unwrap_err();
    assert!(error.to_string().contains("CRC"), "{error}");
    assert!(tablebase.euler_lookup(shape, 0).is_err());
    let lines = tablebase.open_all();
    assert_eq!(lines.len(), 1);
    assert!(lines[0].contains("not used"), "{lines:?}");
}

/// A version-3 file with a damaged block opens (no column is read at
/// open), and answers every position but those whose probes read the
/// block: those are refused with the damaged-table error naming the file,
/// the column and the block, through the tablebase and `open_as` alike.
#[test]
fn a_damaged_block_is_refused_at_probe_and_the_rest_answers() {
    use boardbase::tablebase::{Error, Origin, open_as};
    use boardbase::tablefile::{Puzzle, Table, TableError};
    use boardbase::tables::shape::Shape;

    // 3×5: `plies` and `best_move` are 8 blocks of 4,096 positions each.
    let shape = Shape::new(3, 5).unwrap();
    let oracle = crate::oracle::Euler::solve(shape);
    let table = Table::from_euler(shape, oracle.columns(false)).unwrap();
    let intact = TableEuler::new(Arc::new(table)).unwrap();
    let dir = scratch("damaged-block");
    let path = dir.0.join("euler-3x5.bin");
    intact.table().write(&path, &mut |_| {}).unwrap();
    let plies = Table::open(&path)
        .unwrap()
        .column("plies")
        .and_then(|c| c.offset)
        .expect("a plies column in the file");
    // Position 5 (block 0 of `plies`): one more move left than stored.
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[plies as usize + 5] ^= 1;
    std::fs::write(&path, bytes).unwrap();

    let loaded = open_as(&path, Puzzle::Euler, Some(shape)).expect("opens: no block is read");
    let source = TableEuler::new(loaded.into_table()).unwrap();
    let mut tablebase = Tablebase::new();
    tablebase.add_directory(&dir.0).unwrap();
    let expected = TableError::DamagedBlock {
        column: "plies",
        block: 0,
        start: plies,
        end: plies + 4096,
        array_damaged: false,
    };
    for position in [5, 0, 4095] {
        // In full, as text: `TableError` has no `==` (it holds I/O errors).
        let expected = format!("{expected:?}");
        assert_eq!(
            format!("{:?}", euler_lookup(&source, position).unwrap_err()),
            expected
        );
        let error = tablebase.euler_lookup(shape, position).unwrap_err();
        match &error {
            Error::Probe {
                origin: Origin::File(p),
                error,
            } => assert_eq!((p, format!("{error:?}")), (&path, expected)),
            e => panic!("{e:?}"),
        }
        assert_eq!(
            error.to_string(),
            format!(
                "{}: column \"plies\", block 0 (bytes {plies}..{} of the file) does not match its CRC: \
                 the table is damaged (boardbase verify checks the file)",
                path.display(),
                plies + 4096
            )
        );
    }
    // Positions of the other blocks, and every position after them (all of
    // their moves' positions are too), answer as the intact table does.
    for position in (4096..1 << 15).step_by(97) {
        let want = euler_lookup(&intact, position).unwrap();
        assert_eq!(euler_lookup(&source, position).unwrap(), want);
        assert_eq!(tablebase.euler_lookup(shape, position).unwrap(), want);
    }
    // The file is not set aside: the damage is the block's, said per probe.
    let lines = tablebase.open_all();
    assert_eq!(lines, [format!("{}: euler 3x5", path.display())]);
}
