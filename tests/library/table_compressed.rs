//! Compressed table files (version 4, `Table::compress`): every entry as the
//! oracles' tables hold it, the same version-3 bytes written back, `verify`
//! over every block and entry, and damage in a block, the dictionary or the
//! index refused, never answered.

use crate::common;
use crate::table_file::{self, assert_same_entries};

use boardbase::tablefile::{Checked, Puzzle, Table, TableError, VerifyOptions};
use boardbase::tables::shape::Shape;
use common::TempDir;

/// Both puzzles' tables of `rows`×`cols` from the oracles (Euler full).
fn oracle_tables(rows: usize, cols: usize) -> [Table; 2] {
    let (euler, flip) = table_file::oracle_tables(Shape::new(rows, cols).unwrap());
    [euler, flip]
}

/// The byte range of `column`'s stored bytes in a version-4 file, and of
/// its index: read from the header by hand (bincode's legacy layout:
/// fixed-width little-endian integers, `u64` lengths before strings).
fn regions(bytes: &[u8], column: &str) -> (std::ops::Range<usize>, usize, u8) {
    let u64_at = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap()) as usize;
    let mut at = 16;
    at += 8 + u64_at(at); // puzzle
    at += 2 + 8; // rows, cols, file_len
    let count = u64_at(at);
    at += 8;
    for _ in 0..count {
        let len = u64_at(at);
        let name = std::str::from_utf8(&bytes[at + 8..at + 8 + len])
            .unwrap()
            .to_owned();
        at += 8 + len;
        // width u8, entries, offset, len u64, crc u32, block_len u32,
        // index offset u64, codec u8
        let offset = u64_at(at + 9);
        let stored = u64_at(at + 17);
        let index = u64_at(at + 33);
        let codec = bytes[at + 41];
        at += 42;
        if name == column {
            return (offset..offset + stored, index, codec);
        }
    }
    panic!("no column {column}");
}

#[test]
fn compressed_tables_hold_the_oracles_entries_and_write_back_the_same_file() {
    let dir = TempDir::new("compressed-round-trip");
    // 3x3: every column under a block, stored raw; 2x7: compressed without
    // a dictionary; 4x5: columns of 1 MiB, with one.
    for (rows, cols) in [(3, 3), (2, 7), (4, 5)] {
        for table in oracle_tables(rows, cols) {
            let path = dir.0.join(table.file_name());
            let len = table.compress(&path, &mut |_| {}).unwrap();
            let bytes = std::fs::read(&path).unwrap();
            assert_eq!(bytes.len() as u64, len);
            assert_eq!(&bytes[8..12], &4u32.to_le_bytes());
            let packed = Table::open(&path).unwrap();
            assert_eq!((packed.version(), packed.file_len()), (4, len));
            // The compressed table first: its entries past the end are refused too.
            assert_same_entries(&packed, &table);
            // Decompressed, the same version-3 file as the table's own.
            assert_eq!(packed.to_bytes().unwrap(), table.to_bytes().unwrap());
            // Every block and every position checked.
            let verified = packed
                .verify_with(VerifyOptions::all(), &mut |_| {})
                .unwrap();
            assert!(
                matches!(verified.entries, Checked::Consistent { checked, positions } if checked == positions && positions == 1 << (rows * cols)),
                "{:?}",
                verified.entries
            );
            // The same bytes again: the blocks are compressed in parallel,
            // the file is not.
            table.compress(&path, &mut |_| {}).unwrap();
            assert_eq!(std::fs::read(&path).unwrap(), bytes);
            if rows * cols == 20 {
                // Euler's columns to under a quarter; Flip's press sets,
                // 32 bits of nearly random cells, by less.
                let part = if table.puzzle() == Puzzle::Euler {
                    4
                } else {
                    1
                };
                assert!(
                    len * part < table.file_len(),
                    "{len} of {}",
                    table.file_len()
                );
                let (_, _, codec) = regions(&bytes, table.columns().next().unwrap().name.as_str());
                assert_eq!(codec, 1);
            }
        }
    }
}

#[test]
fn damage_in_a_compressed_column_is_refused_and_the_other_blocks_answer() {
    let dir = TempDir::new("compressed-damage");
    let [euler, _] = oracle_tables(4, 5);
    let path = dir.0.join("euler-4x5.bin");
    euler.compress(&path, &mut |_| {}).unwrap();
    let good = std::fs::read(&path).unwrap();
    let (plies, index, codec) = regions(&good, "plies");
    assert_eq!(codec, 1);
    // The dictionary comes first, up to the first block's start.
    let first = u64::from_le_bytes(good[index..index + 8].try_into().unwrap()) as usize;
    assert!(first > 0, "a column of 1 MiB has a dictionary");
    let second = u64::from_le_bytes(good[index + 8..index + 16].try_into().unwrap()) as usize;

    // A byte of the first block: the positions it holds (bytes 0..4096 of
    // `plies`, positions 0..4096) are refused, those of the next block
    // answer as before.
    let mut bad = good.clone();
    bad[plies.start + (first + second) / 2] ^= 0x40;
    let damaged = dir.0.join("damaged.bin");
    std::fs::write(&damaged, &bad).unwrap();
    let table = Table::open(&damaged).unwrap();
    let probe = table.as_euler().unwrap();
    assert!(matches!(
        probe.probe(5),
        Err(TableError::DamagedBlock {
            column: "plies",
            block: 0,
            ..
        })
    ));
    assert_eq!(
        probe.probe(4096 + 5).unwrap(),
        euler.as_euler().unwrap().probe(4096 + 5).unwrap()
    );
    let error = table.verify(&mut |_| {}).unwrap_err();
    assert!(
        matches!(&error, TableError::Packed { column, block: 0, .. } if column == "plies"),
        "{error:?}"
    );

    // A byte of the dictionary: no block of the column answers.
    let mut bad = good.clone();
    bad[plies.start + first / 2] ^= 0x01;
    std::fs::write(&damaged, &bad).unwrap();
    let table = Table::open(&damaged).unwrap();
    assert!(matches!(
        table.as_euler().unwrap().probe(4096 + 5),
        Err(TableError::DamagedBlock {
            column: "plies",
            ..
        })
    ));
    assert!(table.verify(&mut |_| {}).is_err());

    // A byte of the index: its CRC, in the header, does not match.
    let mut bad = good.clone();
    bad[index + 3] ^= 0x10;
    std::fs::write(&damaged, &bad).unwrap();
    let table = Table::open(&damaged).unwrap();
    let error = table.verify(&mut |_| {}).unwrap_err();
    assert!(
        matches!(&error, TableError::BlockCrcs { column, .. } if column == "plies"),
        "{error:?}"
    );

    // An intact copy of the same file verifies.
    std::fs::write(&damaged, &good).unwrap();
    Table::open(&damaged).unwrap().verify(&mut |_| {}).unwrap();
}

#[test]
fn compressed_probes_answer_as_the_tables_they_were_made_from() {
    let dir = TempDir::new("compressed-tablebase");
    let [euler, flip] = oracle_tables(4, 5);
    for table in [&euler, &flip] {
        table
            .compress(dir.0.join(table.file_name()), &mut |_| {})
            .unwrap();
    }
    let opened = Table::open(dir.0.join("flip-4x5.bin")).unwrap();
    assert_eq!(opened.puzzle(), Puzzle::Flip);
    let (a, b) = (opened.as_flip().unwrap(), flip.as_flip().unwrap());
    for board in (0..1u64 << 20).step_by(997) {
        assert_eq!(
            a.solve(board).unwrap(),
            b.solve(board).unwrap(),
            "board {board:#x}"
        );
    }
    let opened = Table::open(dir.0.join("euler-4x5.bin")).unwrap();
    let (a, b) = (opened.as_euler().unwrap(), euler.as_euler().unwrap());
    for position in (0..1u64 << 20).step_by(991) {
        assert_eq!(
            a.move_values(position).unwrap(),
            b.move_values(position).unwrap(),
            "position {position:#x}"
        );
    }
}
