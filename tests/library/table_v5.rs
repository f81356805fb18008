//! Version-5 table files (one entry a class of positions under the board's
//! symmetries): written from win/loss bits the oracle computes (never the
//! library's solver), opened and probed at every position against the
//! oracle and the version-3 file of the same shape, through the answer
//! layer too; a damaged index refused; `verify` passing on a good file and
//! failing on a wrong entry; compressed and read back.

use crate::common::{TempDir, crc32};
use crate::oracle::tables::Euler;

use boardbase::euler::Outcome;
use boardbase::tablebase::Tablebase;
use boardbase::tablefile::{Checked, EulerColumns, Table, TableError, VerifyOptions};
use boardbase::tables::classes::Classes;
use boardbase::tables::shape::Shape;

/// Shapes of every kind: squares (8 symmetries), rectangles (4), one row.
const SHAPES: [(usize, usize); 6] = [(3, 3), (3, 4), (4, 4), (2, 5), (1, 6), (4, 5)];

fn shape(rows: usize, cols: usize) -> Shape {
    Shape::new(rows, cols).unwrap()
}

/// The oracle's win/loss bits in the index's order: entry `i` is the
/// oracle's value of the position `classes.position(i)`.
fn class_words(oracle: &Euler, classes: &Classes) -> Vec<u64> {
    let n = classes.entries();
    let mut words = vec![0u64; n.div_ceil(64) as usize];
    for i in 0..n {
        let p = classes.position(i).unwrap();
        if oracle.wins[p as usize] {
            words[(i / 64) as usize] |= 1 << (i % 64);
        }
    }
    words
}

/// The version-5 table of `shape` held in memory, from the oracle.
fn class_table(shape: Shape, oracle: &Euler) -> Table {
    let classes = Classes::of_shape(shape);
    let columns = EulerColumns {
        winning: class_words(oracle, &classes),
        full: None,
        classes: Some(classes),
    };
    Table::from_euler(shape, columns).unwrap()
}

#[test]
fn every_position_of_a_version_5_file_answers_as_the_oracle_and_the_version_3_file() {
    let dir = TempDir::new("table-v5-probe");
    for (rows, cols) in SHAPES {
        let s = shape(rows, cols);
        let oracle = Euler::solve(s);
        let made = class_table(s, &oracle);
        assert_eq!(made.version(), 5);
        let path = dir.join(format!("v5-{s}.bin"));
        let len = made.write(&path, &mut |_| {}).unwrap();
        assert_eq!(len, made.file_len());
        // The file writer and the streamed writer make the same bytes.
        assert_eq!(std::fs::read(&path).unwrap(), made.to_bytes().unwrap());

        let table = Table::open(&path).unwrap();
        assert_eq!(table.version(), 5, "{s}");
        let classes = table.classes().expect("an index");
        let own = Classes::of_shape(s);
        assert_eq!(classes.key(), own.key());
        assert_eq!(table.column("winning").unwrap().entries, own.entries());
        assert_eq!(
            table.column("classes").unwrap().entries,
            own.classes() as u64
        );
        for k in 0..own.classes() {
            assert_eq!(table.get("classes", k as u64), Some(own.canonical(k)));
        }

        let dense = Table::from_euler(s, oracle.columns(true)).unwrap();
        let (v5, v3) = (table.as_euler().unwrap(), dense.as_euler().unwrap());
        for p in 0..1u64 << s.cells() {
            let wins = v5.outcome(p).unwrap() == Outcome::Win;
            assert_eq!(wins, oracle.wins[p as usize], "{s} {p:#x}");
            assert_eq!(v5.probe(p).unwrap(), v3.probe(p).unwrap(), "{s} {p:#x}");
            // The children's probes: every position of the small shapes,
            // one in 7 of 4×5.
            if s.cells() < 20 || p % 7 == 0 {
                assert_eq!(
                    v5.winning_moves(p).unwrap(),
                    v3.winning_moves(p).unwrap(),
                    "{s} {p:#x}"
                );
            }
        }
        assert!(v5.outcome(1 << s.cells()).is_err(), "outside the board");
    }
}

#[test]
fn the_answer_layer_answers_a_version_5_file_as_the_version_3_file() {
    let s = shape(3, 4);
    let oracle = Euler::solve(s);
    let (v5_dir, v3_dir) = (TempDir::new("table-v5-dir"), TempDir::new("table-v3-dir"));
    let name = format!("euler-{s}.bin");
    class_table(s, &oracle)
        .write(v5_dir.join(&name), &mut |_| {})
        .unwrap();
    Table::from_euler(s, oracle.columns(true))
        .unwrap()
        .write(v3_dir.join(&name), &mut |_| {})
        .unwrap();
    let mut v5 = Tablebase::new();
    assert_eq!(v5.add_directory(&v5_dir.0).unwrap(), 1);
    let mut v3 = Tablebase::new();
    assert_eq!(v3.add_directory(&v3_dir.0).unwrap(), 1);
    for p in 0..1u64 << s.cells() {
        let (a, b) = (
            v5.euler_lookup(s, p).unwrap(),
            v3.euler_lookup(s, p).unwrap(),
        );
        assert_eq!(a.answer, b.answer, "{p:#x}");
        assert_eq!(a.moves, b.moves, "{p:#x}");
    }
}

/// Where the header's `index` field's last bytes are: the key (its
/// length, then its cells) ends the encoded header.
fn key_at(bytes: &[u8], key_len: usize) -> usize {
    let n = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    16 + n - key_len
}

fn reseal_header(bytes: &mut [u8]) {
    let n = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    let crc = crc32(&bytes[..16 + n]);
    bytes[16 + n..20 + n].copy_from_slice(&crc.to_le_bytes());
}

#[test]
fn a_damaged_index_is_refused_with_its_reason() {
    let s = shape(4, 4);
    let oracle = Euler::solve(s);
    let table = class_table(s, &oracle);
    let bytes = table.to_bytes().unwrap();
    let classes = Classes::of_shape(s);
    let key_len = classes.key().len();
    let at = key_at(&bytes, key_len);
    assert_eq!(
        &bytes[at..at + key_len],
        classes.key(),
        "the key ends the header"
    );
    let refused = |edit: &dyn Fn(&mut Vec<u8>)| {
        let mut b = bytes.clone();
        edit(&mut b);
        reseal_header(&mut b);
        match Table::from_bytes(b) {
            Err(e @ TableError::Index(_)) => e.to_string(),
            Err(e) => panic!("another error: {e}"),
            Ok(_) => panic!("a damaged index was accepted"),
        }
    };
    // A key cell off the board.
    assert_eq!(
        refused(&|b| b[at + key_len - 1] = 200),
        "the symmetric index is not valid: a key cell is out of range or repeated, or there are more than 22"
    );
    // A key cell repeated.
    assert!(refused(&|b| b[at + 1] = b[at]).contains("out of range or repeated"));
    // A key that is not a union of orbits: a rest cell for a key cell.
    let rest = classes.rest()[0];
    assert_eq!(
        refused(&|b| b[at] = rest),
        "the symmetric index is not valid: a symmetry maps a key cell outside the key"
    );
    // Symmetries other than the board's: the last two cells of the last
    // symmetry swapped (just before the key's length).
    let last = at - 8 - 1;
    let message = refused(&|b| b.swap(last, last - 1));
    assert_eq!(
        message,
        "the symmetric index is not valid: its 8 symmetries are not the 8 symmetries of the 4x4 board, in their order"
    );
    // The board's symmetries in another order: the first two swapped (the
    // field: a count, then per symmetry its length and its 16 cells).
    let sym0 = at - 8 - 8 * (8 + 16) + 8;
    let sym1 = sym0 + 8 + 16;
    let mut b = bytes.clone();
    for k in 0..16 {
        b.swap(sym0 + k, sym1 + k);
    }
    reseal_header(&mut b);
    assert!(matches!(Table::from_bytes(b), Err(TableError::Index(_))));
    // Intact, it opens.
    assert!(Table::from_bytes(bytes).is_ok());
}

#[test]
fn depth_columns_with_an_index_are_refused() {
    let s = shape(3, 4);
    let oracle = Euler::solve(s);
    let classes = Classes::of_shape(s);
    let n = classes.entries() as usize;
    let columns = EulerColumns {
        winning: class_words(&oracle, &classes),
        full: Some((vec![0; n], vec![0; n])),
        classes: Some(classes),
    };
    let error = Table::from_euler(s, columns).unwrap_err();
    assert!(matches!(error, TableError::SymmetricDepth), "{error}");
    // Bits of the wrong length for the index.
    let columns = EulerColumns {
        winning: vec![0; 1 << 6],
        full: None,
        classes: Some(Classes::of_shape(s)),
    };
    assert!(matches!(
        Table::from_euler(s, columns),
        Err(TableError::ColumnLength { .. })
    ));
    // Another board's index of as many cells: its symmetries are not 3×4's.
    let other = Classes::of_shape(shape(2, 6));
    let columns = EulerColumns {
        winning: vec![0; other.entries().div_ceil(64) as usize],
        full: None,
        classes: Some(other),
    };
    assert!(matches!(
        Table::from_euler(s, columns),
        Err(TableError::Index(_))
    ));
}

#[test]
fn verify_passes_a_good_file_and_finds_a_wrong_entry() {
    let dir = TempDir::new("table-v5-verify");
    for (rows, cols) in [(3, 4), (4, 4), (2, 5), (4, 5)] {
        let s = shape(rows, cols);
        let oracle = Euler::solve(s);
        let classes = Classes::of_shape(s);
        let path = dir.join(format!("good-{s}.bin"));
        class_table(s, &oracle).write(&path, &mut |_| {}).unwrap();
        let table = Table::open(&path).unwrap();
        let verified = table
            .verify_with(VerifyOptions::all(), &mut |_| {})
            .unwrap();
        assert_eq!(
            verified.entries,
            Checked::Consistent {
                checked: classes.entries(),
                positions: classes.entries(),
            },
            "{s}"
        );
        // A sample: the first and the last entry, and others.
        let sampled = table
            .verify_with(VerifyOptions { sample: 100 }, &mut |_| {})
            .unwrap();
        assert_eq!(
            sampled.entries,
            Checked::Consistent {
                checked: 100,
                positions: classes.entries(),
            }
        );

        // One entry flipped, the file's CRCs right: the rules find it.
        for i in [0, classes.entries() / 3, classes.entries() - 1] {
            let mut words = class_words(&oracle, &classes);
            words[(i / 64) as usize] ^= 1 << (i % 64);
            let bad = Table::from_euler(
                s,
                EulerColumns {
                    winning: words,
                    full: None,
                    classes: Some(classes.clone()),
                },
            )
            .unwrap();
            let path = dir.join(format!("bad-{s}.bin"));
            bad.write(&path, &mut |_| {}).unwrap();
            let error = Table::open(&path)
                .unwrap()
                .verify_with(VerifyOptions::all(), &mut |_| {})
                .unwrap_err();
            assert!(
                matches!(&error, TableError::Inconsistent { column, .. } if column == "winning"),
                "{s} {i}: {error}"
            );
            assert!(
                error.to_string().contains(" of the symmetric index)"),
                "{error}"
            );
        }

        // A bit flipped in the file: its block's CRC refuses it.
        let mut bytes = std::fs::read(&path).unwrap();
        let offset = table.column("winning").unwrap().offset.unwrap() as usize;
        bytes[offset] ^= 1;
        let error = Table::from_bytes(bytes)
            .unwrap()
            .verify(&mut |_| {})
            .unwrap_err();
        assert!(matches!(error, TableError::BlockCrc { .. }), "{error}");
    }
}

#[test]
fn a_wrong_classes_column_fails_verify() {
    // A file whose `classes` column is not the index's, its CRCs made
    // right: a reader in another language would be misled by it.
    let s = shape(3, 4);
    let oracle = Euler::solve(s);
    let table = class_table(s, &oracle);
    let mut bytes = table.to_bytes().unwrap();
    let opened = Table::from_bytes(bytes.clone()).unwrap();
    let c = opened.column("classes").unwrap().clone();
    let (offset, blocks) = (c.offset.unwrap() as usize, c.blocks.unwrap());
    // Entry 1's low byte, then the block's CRC and the array's CRC in the
    // header made right again.
    bytes[offset + 4] ^= 1;
    let crc = crc32(&bytes[offset..offset + c.byte_len as usize]);
    let at = blocks.crcs_offset as usize;
    bytes[at..at + 4].copy_from_slice(&crc.to_le_bytes());
    let array_crc = crc32(&bytes[at..at + 4]);
    let old = c.crc.unwrap().to_le_bytes();
    let n = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    let field = bytes[16..16 + n]
        .windows(4)
        .position(|w| w == old)
        .expect("the CRC in the header")
        + 16;
    bytes[field..field + 4].copy_from_slice(&array_crc.to_le_bytes());
    reseal_header(&mut bytes);
    // Opening reads the list (its order checked); `verify` checks that it
    // is the list of the key patterns' classes.
    let listed: Vec<u64> = (0..c.entries)
        .map(|k| opened.get("classes", k).unwrap() ^ u64::from(k == 1))
        .collect();
    let in_order = listed.windows(2).all(|w| w[0] < w[1]);
    match Table::from_bytes(bytes) {
        Ok(table) => {
            assert!(in_order, "a list out of order is refused at open");
            match table.verify(&mut |_| {}).unwrap_err() {
                TableError::Inconsistent { column, index, .. } => {
                    assert_eq!((column.as_str(), index), ("classes", 1));
                }
                e => panic!("{e}"),
            }
        }
        Err(TableError::Index(message)) => {
            assert!(!in_order && message.contains("out of order"), "{message}");
        }
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn compressed_keeps_version_5_and_its_index() {
    let dir = TempDir::new("table-v5-compress");
    for (rows, cols) in [(3, 4), (4, 5)] {
        let s = shape(rows, cols);
        let oracle = Euler::solve(s);
        let table = class_table(s, &oracle);
        let path = dir.join(format!("packed-{s}.bin"));
        let len = table.compress(&path, &mut |_| {}).unwrap();
        let packed = Table::open(&path).unwrap();
        assert_eq!((packed.version(), packed.file_len()), (5, len));
        assert_eq!(packed.classes().unwrap().key(), Classes::of_shape(s).key());
        let winning = packed.column("winning").unwrap();
        // 4×5's bits are over a block: compressed (codec 1).
        assert_eq!(
            winning.blocks.unwrap().packed.is_some(),
            winning.byte_len >= 4096,
            "{s}"
        );
        let euler = packed.as_euler().unwrap();
        for p in 0..1u64 << s.cells() {
            assert_eq!(
                euler.outcome(p).unwrap() == Outcome::Win,
                oracle.wins[p as usize],
                "{s} {p:#x}"
            );
        }
        let verified = packed
            .verify_with(VerifyOptions::all(), &mut |_| {})
            .unwrap();
        assert!(verified.entries.is_complete());
        // Written back uncompressed: the bytes of the table it was made of.
        assert_eq!(packed.to_bytes().unwrap(), table.to_bytes().unwrap());
    }
}
