//! Version-1 table files (`boardbase::tablefile::v1`, still read): round trips,
//! every class of damage mapped to its error; and `boardbase export` /
//! `boardbase verify` from the command line (version 3, and versions 2 and
//! 1), and a damaged block met by a query. Versions 2 and 3 themselves:
//! `tests/library/table_file.rs`.

use crate::common;

use boardbase::tablefile::v1::{Column, MAGIC, MAX_FILE_LEN, TableFile, VERSION};
use boardbase::tablefile::{Puzzle, Table, TableError};
use common::{TempDir, TempFile, crc32, names_in, run};

/// Replaces the CRC-32 trailer of `bytes` with the CRC of its body.
fn reseal(mut bytes: Vec<u8>) -> Vec<u8> {
    let body = bytes.len() - 4;
    let crc = crc32(&bytes[..body]);
    bytes[body..].copy_from_slice(&crc.to_le_bytes());
    bytes
}

/// `file` modified by `edit`, encoded with a correct CRC, read back.
fn read_edited(edit: impl FnOnce(&mut TableFile)) -> Result<TableFile, TableError> {
    let mut file = TableFile::flip();
    edit(&mut file);
    TableFile::read(&file.to_bytes())
}

#[test]
fn files_round_trip_and_verify() {
    for file in TableFile::all() {
        let bytes = file.to_bytes();
        assert!(bytes.len() < MAX_FILE_LEN);
        let back = TableFile::read(&bytes).expect("an intact file reads");
        assert_eq!(back, file);
        back.verify_contents()
            .expect("the contents are the tables'");
        // The documented trailer: the CRC-32 of the body, little-endian.
        let body = bytes.len() - 4;
        assert_eq!(bytes[body..], crc32(&bytes[..body]).to_le_bytes());
    }
    assert_eq!(TableFile::flip().file_name(), "flip-4x4.bin");
    assert_eq!(TableFile::euler().file_name(), "euler-4x4.bin");
}

#[test]
fn columns_hold_the_documented_values() {
    let flip = TableFile::flip();
    let names: Vec<_> = flip.columns.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["rounds", "presses", "optimal_sets"]);
    let sample = 0b0001_1001_1011_1001; // bwwb/bbwb/bwwb/bwww
    assert_eq!(flip.column("rounds").unwrap().get(sample), Some(4));
    assert_eq!(flip.column("rounds").unwrap().get(1), Some(255));
    assert_eq!(flip.column("presses").unwrap().get(1), Some(0));
    assert_eq!(flip.column("presses").unwrap().get(65_536), None);

    let euler = TableFile::euler();
    let names: Vec<_> = euler.columns.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["winning", "plies", "best_move"]);
    let full = usize::from(u16::MAX);
    assert_eq!(euler.column("winning").unwrap().get(full), Some(1));
    assert_eq!(euler.column("plies").unwrap().get(full), Some(0));
    assert_eq!(euler.column("best_move").unwrap().get(full), Some(0));
    assert_eq!(euler.column("winning").unwrap().get(0), Some(0));
    assert_eq!(euler.column("plies").unwrap().get(0), Some(13));
}

#[test]
fn one_changed_byte_is_a_crc_error() {
    let mut bytes = TableFile::flip().to_bytes();
    let at = bytes.len() / 2;
    bytes[at] ^= 0x01;
    assert!(matches!(
        TableFile::read(&bytes),
        Err(TableError::V1Crc { stored, computed }) if stored != computed
    ));
    // So is a changed CRC.
    let mut bytes = TableFile::euler().to_bytes();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x80;
    assert!(matches!(
        TableFile::read(&bytes),
        Err(TableError::V1Crc { .. })
    ));
}

#[test]
fn truncated_files_are_refused() {
    let bytes = TableFile::flip().to_bytes();
    assert!(matches!(
        TableFile::read(&bytes[..10]),
        Err(TableError::V1TooShort { len: 10, .. })
    ));
    assert!(matches!(
        TableFile::read(&[]),
        Err(TableError::V1TooShort { len: 0, .. })
    ));
    // Cut anywhere: the last 4 bytes are no longer the body's CRC.
    assert!(matches!(
        TableFile::read(&bytes[..bytes.len() - 100]),
        Err(TableError::V1Crc { .. })
    ));
    // Cut, with a CRC that matches what is left: the body ends early.
    let cut = reseal(bytes[..bytes.len() - 100].to_vec());
    assert!(matches!(
        TableFile::read(&cut),
        Err(TableError::V1Decode(_))
    ));
}

#[test]
fn extra_and_oversized_files_are_refused() {
    let mut bytes = TableFile::flip().to_bytes();
    bytes.splice(bytes.len() - 4..bytes.len() - 4, [0u8; 3]);
    assert!(matches!(
        TableFile::read(&reseal(bytes)),
        Err(TableError::V1Trailing(3))
    ));
    let mut huge = TableFile::flip().to_bytes();
    huge.resize(MAX_FILE_LEN + 1, 0);
    assert!(matches!(
        TableFile::read(&huge),
        Err(TableError::V1TooLarge { .. })
    ));
}

#[test]
fn hostile_lengths_do_not_allocate() {
    // Offsets in a flip file: magic 8, version 4, puzzle length 8 + 4,
    // rows, cols, then the column count (u64) at 26, the first column's
    // name length at 34.
    for (at, value) in [
        (12, 1u64 << 62),
        (26, u64::MAX),
        (26, 1 << 40),
        (34, 1 << 50),
    ] {
        let mut bytes = TableFile::flip().to_bytes();
        bytes[at..at + 8].copy_from_slice(&value.to_le_bytes());
        assert!(
            matches!(
                TableFile::read(&reseal(bytes)),
                Err(TableError::V1Decode(_))
            ),
            "length {value} at {at}"
        );
    }
    // The first column's data length (after name "rounds" and the width).
    let mut bytes = TableFile::flip().to_bytes();
    let at = 34 + 8 + 6 + 1;
    assert_eq!(bytes[at..at + 8], 65_536u64.to_le_bytes());
    bytes[at..at + 8].copy_from_slice(&(1u64 << 61).to_le_bytes());
    assert!(matches!(
        TableFile::read(&reseal(bytes)),
        Err(TableError::V1Decode(_))
    ));
}

#[test]
fn header_errors_are_named() {
    // Byte-level, with the CRC fixed.
    let mut bytes = TableFile::flip().to_bytes();
    bytes[0] = b'X';
    assert!(matches!(
        TableFile::read(&reseal(bytes)),
        Err(TableError::BadMagic { found }) if &found == b"XRDBASE\0"
    ));
    let mut bytes = TableFile::euler().to_bytes();
    bytes[8..12].copy_from_slice(&7u32.to_le_bytes());
    assert!(matches!(
        TableFile::read(&reseal(bytes)),
        Err(TableError::V1Version(7))
    ));
    // The magic and the version are checked before the CRC: a foreign file
    // is named as such.
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    png.resize(64, 0);
    assert!(matches!(
        TableFile::read(&png),
        Err(TableError::BadMagic { .. })
    ));
    assert!(matches!(
        read_edited(|f| f.magic = *b"BRDBASE1"),
        Err(TableError::BadMagic { found }) if &found == b"BRDBASE1"
    ));
    assert!(matches!(
        read_edited(|f| f.version = VERSION + 1),
        Err(TableError::V1Version(v)) if v == VERSION + 1
    ));
}

#[test]
fn structure_errors_are_named() {
    assert!(matches!(
        read_edited(|f| f.puzzle = "chess".into()),
        Err(TableError::UnknownPuzzle(p)) if p == "chess"
    ));
    assert!(matches!(
        read_edited(|f| f.rows = 3),
        Err(TableError::V1Shape {
            puzzle,
            rows: 3,
            cols: 4
        }) if puzzle == "flip"
    ));
    assert!(matches!(
        read_edited(|f| {
            f.columns.remove(1);
        }),
        Err(TableError::MissingColumn(c)) if c == "presses"
    ));
    assert!(matches!(
        read_edited(|f| {
            let copy = f.columns[0].clone();
            f.columns.push(copy);
        }),
        Err(TableError::DuplicateColumn(c)) if c == "rounds"
    ));
    assert!(matches!(
        read_edited(|f| f.columns[1].width = 1),
        Err(TableError::V1ColumnWidth {
            column,
            width: 1,
            expected: 2
        }) if column == "presses"
    ));
    assert!(matches!(
        read_edited(|f| {
            f.columns[0].data.pop();
        }),
        Err(TableError::ColumnLength {
            column,
            len: 65_535,
            expected: 65_536
        }) if column == "rounds"
    ));
    // An extra column is allowed (readers skip what they do not know), but
    // it must still hold one entry per board.
    let file = read_edited(|f| {
        f.columns.push(Column {
            name: "notes".into(),
            width: 1,
            data: vec![0; 65_536],
        })
    })
    .expect("an extra column is fine");
    file.verify_contents()
        .expect("unknown columns are not compared");
    assert!(matches!(
        read_edited(|f| f.columns.push(Column {
            name: "notes".into(),
            width: 0,
            data: vec![],
        })),
        Err(TableError::V1ColumnWidth { .. })
    ));
    assert!(matches!(
        read_edited(|f| f.columns.push(Column {
            name: "notes".into(),
            width: 1,
            data: vec![0; 10],
        })),
        Err(TableError::ColumnLength { .. })
    ));
}

#[test]
fn changed_contents_are_found() {
    for (column, index) in [("rounds", 0), ("presses", 12_345), ("optimal_sets", 65_535)] {
        let mut file = TableFile::flip();
        let c = file.columns.iter_mut().find(|c| c.name == column).unwrap();
        let at = index * usize::from(c.width);
        c.data[at] ^= 0x04;
        let read = TableFile::read(&file.to_bytes()).expect("the structure is intact");
        assert!(
            matches!(
                read.verify_contents(),
                Err(TableError::Contents(ref e))
                    if e.column == column && e.index == index as u64
            ),
            "{column} {index}"
        );
    }
    let mut file = TableFile::euler();
    file.columns[2].data[2 * 40_000 + 1] ^= 0x10;
    assert!(matches!(
        file.verify_contents(),
        Err(TableError::Contents(ref e)) if e.column == "best_move" && e.index == 40_000
    ));
}

#[test]
fn magic_and_version_constants_match_the_layout() {
    assert_eq!(&MAGIC, b"BRDBASE\0");
    assert_eq!(VERSION, 1);
}

#[test]
fn cli_export_writes_both_files_and_verify_accepts_them() {
    let dir = TempDir::absent("export-ok");
    let nested = dir.file("a/b");
    let r = run(&["export", "--dir", &nested], "");
    assert_eq!(r.code, 0, "stderr: {}", r.stderr);
    assert_eq!(r.stderr, "");
    let flip = format!("{nested}/flip-4x4.bin");
    let euler = format!("{nested}/euler-4x4.bin");
    let flip_bytes = Table::embedded(Puzzle::Flip).to_bytes().unwrap();
    let euler_bytes = Table::embedded(Puzzle::Euler).to_bytes().unwrap();
    assert_eq!(
        r.stdout,
        format!(
            "wrote {flip} (flip 4x4, version 3, columns rounds, rounds_white, rounds_black, \
             presses_white, presses_black, optimal_sets_white, optimal_sets_black, {} bytes)\n\
             wrote {euler} (euler 4x4, version 3, columns winning, plies, best_move, moves, {} bytes)\n",
            flip_bytes.len(),
            euler_bytes.len()
        )
    );
    assert_eq!(std::fs::read(&flip).unwrap(), flip_bytes);
    assert_eq!(std::fs::read(&euler).unwrap(), euler_bytes);
    // Only the two files: no temporary file is left.
    let mut names: Vec<_> = std::fs::read_dir(&nested)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["euler-4x4.bin", "flip-4x4.bin"]);

    let r = run(&["verify", &flip], "");
    assert_eq!((r.code, r.stderr.as_str()), (0, ""));
    assert_eq!(
        r.stdout,
        format!(
            "{flip}: ok (flip 4x4, version 3, columns rounds, rounds_white, rounds_black, \
             presses_white, presses_black, optimal_sets_white, optimal_sets_black; \
             144 block CRCs ok over 589,824 bytes; every entry equals the built-in tables)\n"
        )
    );
    let r = run(&["verify", &euler], "");
    assert_eq!((r.code, r.stderr.as_str()), (0, ""));
    assert_eq!(
        r.stdout,
        format!(
            "{euler}: ok (euler 4x4, version 3, columns winning, plies, best_move, moves; \
             35 block CRCs ok over 139,648 bytes; every entry equals the built-in tables)\n"
        )
    );

    // Version-2 files (earlier releases' `generate` and `export`) still
    // verify, by their column CRCs.
    let v2 = TempFile::new(
        "verify-v2.bin",
        Table::embedded(Puzzle::Euler).to_bytes_version(2).unwrap(),
    );
    let r = run(&["verify", v2.path()], "");
    assert_eq!((r.code, r.stderr.as_str()), (0, ""));
    assert_eq!(
        r.stdout,
        format!(
            "{}: ok (euler 4x4, version 2, columns winning, plies, best_move, moves; \
             4 column CRCs ok over 139,648 bytes; every entry equals the built-in tables)\n",
            v2.path()
        )
    );

    // Exporting again replaces the files.
    assert_eq!(run(&["export", "--dir", &nested], "").code, 0);

    // Version-1 files (earlier releases' exports) still verify.
    let v1 = TempFile::new("verify-v1.bin", TableFile::euler().to_bytes());
    let r = run(&["verify", v1.path()], "");
    assert_eq!((r.code, r.stderr.as_str()), (0, ""));
    assert_eq!(
        r.stdout,
        format!(
            "{}: ok (euler 4x4, version 1, columns winning, plies, best_move, moves; \
             file CRC ok; every entry equals the built-in tables)\n",
            v1.path()
        )
    );
}

#[test]
fn cli_export_defaults_to_the_current_directory_and_verify_takes_several_files() {
    let dir = TempDir::new("export-here");
    let out = std::process::Command::new(crate::common::binary())
        .arg("export")
        .current_dir(&dir.0)
        .output()
        .expect("the binary runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.starts_with("wrote ./flip-4x4.bin (flip 4x4"),
        "{stdout}"
    );
    let flip = dir.file("flip-4x4.bin");
    let euler = dir.file("euler-4x4.bin");
    assert_eq!(
        std::fs::read(&flip).unwrap(),
        Table::embedded(Puzzle::Flip).to_bytes().unwrap()
    );

    // Two good files: a line each, in order.
    let r = run(&["verify", &flip, &euler], "");
    assert_eq!((r.code, r.stderr.as_str()), (0, ""));
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{}", r.stdout);
    assert!(lines[0].starts_with(&format!("{flip}: ok (flip 4x4")));
    assert!(lines[1].starts_with(&format!("{euler}: ok (euler 4x4")));

    // A damaged file between them: the others are still checked, its
    // error names it, exit status 1.
    let mut bytes = std::fs::read(&euler).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    let bad = dir.file("bad.bin");
    std::fs::write(&bad, bytes).unwrap();
    let r = run(&["verify", &flip, &bad, &euler], "");
    assert_eq!(r.code, 1, "{}", r.stderr);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{}", r.stdout);
    assert!(lines[0].starts_with(&format!("{flip}: ok")));
    assert!(lines[1].starts_with(&format!("{euler}: ok")));
    let errors: Vec<&str> = r.stderr.lines().collect();
    assert_eq!(errors.len(), 2, "{}", r.stderr);
    assert!(
        errors[0].starts_with(&format!("error: {bad}: ")),
        "{}",
        r.stderr
    );
    assert_eq!(errors[1], "error: not intact: 1 of 3 files");

    // Files that do not exist: each named.
    let r = run(&["verify", "no-such-a", "no-such-b"], "");
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("error: no-such-a: "), "{}", r.stderr);
    assert!(r.stderr.contains("error: no-such-b: "), "{}", r.stderr);
}

/// `bytes` with every CRC made right again (version 3: each block's and
/// each block-CRC array's; version 2: each column's), then the header's
/// (the header's layout: see docs/table-format.md).
fn reseal_columns(mut bytes: Vec<u8>) -> Vec<u8> {
    let version = u32::from_le_bytes(bytes[8..12].try_into().unwrap());
    let n = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    let mut at = 16;
    let mut take = |k: usize| {
        at += k;
        at - k
    };
    let u64_at = |b: &[u8], i: usize| u64::from_le_bytes(b[i..i + 8].try_into().unwrap());
    let len = u64_at(&bytes, take(8)) as usize;
    take(len + 2 + 8);
    let count = u64_at(&bytes, take(8));
    for _ in 0..count {
        let len = u64_at(&bytes, take(8)) as usize;
        take(len + 1 + 8);
        let offset = u64_at(&bytes, take(8)) as usize;
        let len = u64_at(&bytes, take(8)) as usize;
        let crc_at = take(4);
        let data = offset..offset + len;
        let crc = if version == 3 {
            let block_len = u32::from_le_bytes(bytes[take(4)..][..4].try_into().unwrap()) as usize;
            let crcs = u64_at(&bytes, take(8)) as usize;
            let array: Vec<u8> = bytes[data]
                .chunks(block_len)
                .flat_map(|block| crc32(block).to_le_bytes())
                .collect();
            bytes[crcs..crcs + array.len()].copy_from_slice(&array);
            crc32(&array)
        } else {
            crc32(&bytes[data])
        };
        bytes[crc_at..crc_at + 4].copy_from_slice(&crc.to_le_bytes());
    }
    let crc = crc32(&bytes[..16 + n]);
    bytes[16 + n..20 + n].copy_from_slice(&crc.to_le_bytes());
    bytes
}

#[test]
fn cli_verify_names_what_is_wrong() {
    let good = TableFile::flip().to_bytes();
    let v2 = Table::embedded(Puzzle::Flip).to_bytes_version(2).unwrap();
    let v3 = Table::embedded(Puzzle::Flip).to_bytes().unwrap();
    // The last column, `optimal_sets_black`: 16 blocks, then its array,
    // which ends the file.
    let sets = Table::from_bytes(v3.clone())
        .unwrap()
        .column("optimal_sets_black")
        .cloned()
        .unwrap();
    let first_column = Table::from_bytes(v3.clone())
        .unwrap()
        .columns()
        .next()
        .and_then(|c| c.offset)
        .unwrap() as usize;
    let (sets_end, array) = {
        let blocks = sets.blocks.unwrap();
        (
            (sets.offset.unwrap() + sets.byte_len) as usize,
            blocks.crcs_offset..blocks.crcs_offset + 4 * blocks.count,
        )
    };
    let cases: Vec<(&str, Vec<u8>, String)> = vec![
        (
            "crc",
            {
                let mut b = good.clone();
                b[1000] ^= 1;
                b
            },
            ": CRC mismatch: stored 0x".into(),
        ),
        (
            "magic",
            {
                let mut b = good.clone();
                b[..4].copy_from_slice(b"GIF8");
                reseal(b)
            },
            ": bad magic: not a boardbase table file (expected \"BRDBASE\\x00\", found \"GIF8ASE\\x00\")".into(),
        ),
        (
            "version",
            {
                let mut b = good.clone();
                b[8] = 7;
                reseal(b)
            },
            ": unsupported version 7 (this library reads versions 1 to 6)".into(),
        ),
        (
            "shape",
            {
                let mut f = TableFile::flip();
                f.cols = 5;
                f.to_bytes()
            },
            ": bad shape 4x5 for flip (expected 4x4)".into(),
        ),
        (
            "contents",
            {
                let mut f = TableFile::flip();
                f.columns[0].data[0] = 1;
                f.to_bytes()
            },
            ": contents differ from the tables: column \"rounds\", entry 0 (board 0x0000) is 1, expected 0".into(),
        ),
        ("short", good[..8].to_vec(), ": truncated file: 8 bytes, the header says 12".into()),
        (
            "v2-truncated",
            v2[..v2.len() - 1].to_vec(),
            format!(": truncated file: {} bytes, the header says {}", v2.len() - 1, v2.len()),
        ),
        (
            "v2-header",
            {
                let mut b = v2.clone();
                b[30] ^= 1;
                b
            },
            ": header CRC mismatch: stored 0x".into(),
        ),
        (
            "v2-column-crc",
            {
                let mut b = v2.clone();
                let last = b.len() - 1;
                b[last] ^= 1;
                b
            },
            ": column \"optimal_sets_black\": CRC mismatch: stored 0x".into(),
        ),
        (
            "v2-contents",
            {
                let mut b = v2.clone();
                let last = b.len() - 1;
                b[last] ^= 1;
                reseal_columns(b)
            },
            ": contents differ from the tables: column \"optimal_sets_black\", entry 65535 (board 0xffff) is 0, expected 1".into(),
        ),
        (
            "v3-truncated",
            v3[..v3.len() - 1].to_vec(),
            format!(": truncated file: {} bytes, the header says {}", v3.len() - 1, v3.len()),
        ),
        (
            "v3-header",
            {
                let mut b = v3.clone();
                b[30] ^= 1;
                b
            },
            ": header CRC mismatch: stored 0x".into(),
        ),
        (
            "v3-block",
            {
                let mut b = v3.clone();
                b[sets_end - 1] ^= 1;
                b
            },
            format!(
                ": column \"optimal_sets_black\", block 15 (bytes {}..{sets_end}): CRC mismatch: stored 0x",
                sets_end - 4096
            ),
        ),
        (
            "v3-block-crcs",
            {
                let mut b = v3.clone();
                let last = b.len() - 1;
                b[last] ^= 1;
                b
            },
            format!(
                ": column \"optimal_sets_black\": its block-CRC array (bytes {}..{}) does not match its CRC: stored 0x",
                array.start, array.end
            ),
        ),
        (
            "v3-padding",
            {
                // The zero bytes between the header and the first column.
                let mut b = v3.clone();
                b[first_column - 1] ^= 1;
                b
            },
            format!(": nonzero padding at byte {}", first_column - 1),
        ),
        (
            "v3-contents",
            {
                let mut b = v3.clone();
                b[sets_end - 1] ^= 1;
                reseal_columns(b)
            },
            ": contents differ from the tables: column \"optimal_sets_black\", entry 65535 (board 0xffff) is 0, expected 1".into(),
        ),
    ];
    for (name, bytes, message) in cases {
        let file = TempFile::new(&format!("verify-{name}.bin"), bytes);
        let r = run(&["verify", file.path()], "");
        assert_eq!(r.code, 1, "{name}: {}", r.stderr);
        assert_eq!(r.stdout, "", "{name}");
        let expected = format!("error: {}{message}", file.path());
        assert!(
            r.stderr.starts_with(&expected) && r.stderr.ends_with('\n'),
            "{name}: {:?} does not start with {expected:?}",
            r.stderr
        );
    }

    let missing = TempDir::absent("verify-missing");
    let path = missing.file("nothing.bin");
    let r = run(&["verify", &path], "");
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.starts_with(&format!("error: {path}: ")),
        "{}",
        r.stderr
    );
}

#[test]
fn cli_usage_and_write_errors() {
    assert_eq!(run(&["verify"], "").code, 2);
    // DIR is an existing file: it cannot be a directory.
    let file = TempFile::new("export-not-a-dir", "x");
    let r = run(&["export", "--dir", file.path()], "");
    assert_eq!(r.code, 1);
    assert!(
        r.stderr
            .starts_with(&format!("error: cannot write {}: ", file.path())),
        "{}",
        r.stderr
    );
}

/// A version-2 table file whose column was damaged is refused when the
/// CLI opens it to answer (`--table` and `--tables`), with the CRC named. A
/// version-3 file opens, and a query refuses the damaged block when it
/// reads it: the judge's answer (`winning` only) is given, the JSON answer
/// (which reads `plies`) is refused with the block named.
#[test]
fn cli_refuses_a_damaged_column_at_open_or_its_block_at_probe() {
    let dir = TempDir::new("damaged-column");
    let r = run(&["generate", "euler", "3x4", "--dir", dir.path()], "");
    assert_eq!(r.code, 0, "{}", r.stderr);
    let path = dir.file("euler-3x4.bin");
    let table = Table::open(&path).unwrap();
    assert_eq!(table.version(), 3);
    let plies = table
        .column("plies")
        .and_then(|c| c.offset)
        .expect("a plies column");
    let v3 = std::fs::read(&path).unwrap();
    let v2 = table.to_bytes_version(2).unwrap();
    let plies_v2 = Table::from_bytes(v2.clone())
        .unwrap()
        .column("plies")
        .and_then(|c| c.offset)
        .unwrap();
    let input = "1\n....\n....\n....\n";
    let both = [
        vec!["euler", "--table", path.as_str()],
        vec!["euler", "--size", "3x4", "--tables", dir.path()],
    ];

    let mut bytes = v2;
    bytes[plies_v2 as usize] ^= 1;
    std::fs::write(&path, bytes).unwrap();
    for args in both.clone() {
        let r = run(&args, input);
        assert_eq!(r.code, 1, "{args:?}: {}", r.stderr);
        assert_eq!(r.stdout, "");
        assert!(
            r.stderr.contains("euler-3x4.bin")
                && r.stderr.contains("column \"plies\": CRC mismatch"),
            "{args:?}: {}",
            r.stderr
        );
    }

    let mut bytes = v3;
    bytes[plies as usize] ^= 1;
    std::fs::write(&path, bytes).unwrap();
    for args in both.clone() {
        let r = run(&args, input);
        assert_eq!(
            (r.code, r.stdout.as_str()),
            (0, "LOSING\n"),
            "{args:?}: {}",
            r.stderr
        );
        let mut json = args.clone();
        json.extend(["--format", "json"]);
        let r = run(&json, input);
        assert_eq!(r.code, 1, "{json:?}: {}", r.stderr);
        assert_eq!(r.stdout, "");
        assert_eq!(
            r.stderr,
            format!(
                "error: {path}: column \"plies\", block 0 (bytes {plies}..{} of the file) does not match its CRC: \
                 the table is damaged (boardbase verify checks the file)\n",
                plies + 4096
            )
        );
    }
}

#[test]
fn cli_export_takes_the_directory_as_its_help_says_or_as_dir() {
    // `boardbase export DIR`, as the help's "in DIR" says, and `--dir DIR`
    // as `generate` takes it: the same files, the same report.
    let help = run(&["export", "--help"], "");
    assert_eq!(help.code, 0);
    assert!(
        help.stdout
            .contains("Usage: boardbase export [OPTIONS] [DIR]"),
        "{}",
        help.stdout
    );
    let flip_bytes = Table::embedded(Puzzle::Flip).to_bytes().unwrap();
    let euler_bytes = Table::embedded(Puzzle::Euler).to_bytes().unwrap();
    for how in ["positional", "option"] {
        let dir = TempDir::absent(&format!("export-{how}"));
        let target = dir.file("made/here");
        let args: Vec<&str> = match how {
            "positional" => vec!["export", &target],
            _ => vec!["export", "--dir", &target],
        };
        let r = run(&args, "");
        assert_eq!((r.code, r.stderr.as_str()), (0, ""), "{how}");
        assert!(
            r.stdout
                .starts_with(&format!("wrote {target}/flip-4x4.bin (flip 4x4, version 3")),
            "{how}: {}",
            r.stdout
        );
        assert!(
            r.stdout
                .contains(&format!("\nwrote {target}/euler-4x4.bin (euler 4x4"))
        );
        assert_eq!(
            std::fs::read(format!("{target}/flip-4x4.bin")).unwrap(),
            flip_bytes
        );
        assert_eq!(
            std::fs::read(format!("{target}/euler-4x4.bin")).unwrap(),
            euler_bytes
        );
    }
    // Both at once is ambiguous: a usage error, nothing written.
    let dir = TempDir::absent("export-both");
    let (one, two) = (dir.file("one"), dir.file("two"));
    let r = run(&["export", &one, "--dir", &two], "");
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("cannot be used with"), "{}", r.stderr);
    assert!(!std::path::Path::new(&one).exists() && !std::path::Path::new(&two).exists());
}

/// A query that meets a damaged block of a version-3 file: the answers
/// before it are printed, then the error naming the file, the column and
/// the block, exit status 1; `verify` names the block too.
#[test]
fn a_damaged_block_stops_a_query_after_the_answers_before_it() {
    let dir = TempDir::new("damaged-block");
    let path = dir.file("euler-4x4.bin");
    let table = Table::embedded(Puzzle::Euler);
    let bytes = table.to_bytes().unwrap();
    std::fs::write(&path, &bytes).unwrap();
    let winning = Table::open(&path)
        .unwrap()
        .column("winning")
        .unwrap()
        .clone();
    let offset = winning.offset.unwrap();
    // Block 0 of `winning`: the positions with square (3,3) open.
    let mut damaged = bytes.clone();
    damaged[offset as usize + 100] ^= 1;
    std::fs::write(&path, &damaged).unwrap();
    let message = format!(
        "error: {path}: column \"winning\", block 0 (bytes {offset}..{} of the file) does not match its CRC: \
         the table is damaged (boardbase verify checks the file)\n",
        offset + 4096
    );
    // The judge's second sample, square (3,3) covered (block 1, as every
    // position after it: its answer reads no other block), then the empty
    // board (block 0).
    let first = "XXXX\n...X\nXX.X\nXX.X\n";
    let input = format!("3\n{first}....\n....\n....\n....\nXXX.\nXXX.\n.XXX\n.XXX\n");
    for format in ["judge", "json"] {
        let r = run(&["euler", "--table", &path, "--format", format], &input);
        assert_eq!(r.code, 1, "{format}: {}", r.stderr);
        assert_eq!(r.stderr, message, "{format}");
        // The first board's answer, as the built-in tables give it.
        let want = run(&["euler", "--format", format], format!("1\n{first}"));
        assert_eq!(want.code, 0);
        assert_eq!(r.stdout, want.stdout, "{format}");
    }
    let r = run(&["verify", &path], "");
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.starts_with(&format!(
            "error: {path}: column \"winning\", block 0 (bytes {offset}..{}): CRC mismatch: stored ",
            offset + 4096
        )),
        "{}",
        r.stderr
    );
    // Flip: the same through its answers (board 1, in block 0 of `rounds`,
    // answered; then board 0x19B9, in block 1, refused).
    let path = dir.file("flip-4x4.bin");
    let bytes = Table::embedded(Puzzle::Flip).to_bytes().unwrap();
    std::fs::write(&path, &bytes).unwrap();
    let rounds = Table::open(&path)
        .unwrap()
        .column("rounds")
        .unwrap()
        .offset
        .unwrap();
    let mut damaged = bytes.clone();
    damaged[rounds as usize + 0x19B9] ^= 1;
    std::fs::write(&path, &damaged).unwrap();
    let r = run(
        &["flip", "--table", &path],
        "bwww\nwwww\nwwww\nwwww\nbwwb\nbbwb\nbwwb\nbwww\n",
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert_eq!(r.stdout, "Impossible\n");
    assert!(
        r.stderr.contains(&format!(
            "column \"rounds\", block 1 (bytes {}..{} of the file) does not match its CRC",
            rounds + 4096,
            rounds + 8192
        )),
        "{}",
        r.stderr
    );
}

/// `verify --sample N` and `--all`: how many positions the contents check
/// reads, and an entry damaged (its CRCs resealed) that only `--all` finds.
#[test]
fn cli_verify_sample_and_all() {
    let dir = TempDir::new("verify-all");
    let r = run(&["generate", "euler", "3x5", "--dir", dir.path()], "");
    assert_eq!(r.code, 0, "{}", r.stderr);
    let path = dir.file("euler-3x5.bin");

    let r = run(&["verify", "--sample", "100", &path], "");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.ends_with(
            "; entries agree with their neighbours at 100 of 32,768 positions (a spot check))\n"
        ),
        "{}",
        r.stdout
    );
    for args in [&["verify", "--all", &path][..], &["verify", &path]] {
        let r = run(args, "");
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert!(
            r.stdout
                .ends_with("; every entry agrees with its neighbours (32,768 positions))\n"),
            "{}",
            r.stdout
        );
    }
    for bad in [
        &["verify", "--all", "--sample", "5", &path][..],
        &["verify", "--sample", "1", &path],
        &["verify", "--sample", "many", &path],
    ] {
        let r = run(bad, "");
        assert_eq!(r.code, 2, "{bad:?}: {}", r.stderr);
    }

    // Moves left of one position with ten of fifteen squares covered made
    // wrong, every CRC made to match: a sample of the empty and the full
    // board reads neither it nor a position one move from it; --all does.
    let mut bytes = std::fs::read(&path).unwrap();
    let plies = Table::from_bytes(bytes.clone())
        .unwrap()
        .column("plies")
        .cloned()
        .unwrap();
    let at = plies.offset.unwrap() as usize + 0x3ff;
    bytes[at] ^= 0x10;
    let damaged = TempFile::new("verify-all-damaged.bin", reseal_columns(bytes));
    let r = run(&["verify", "--sample", "2", damaged.path()], "");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains("at 2 of 32,768 positions"),
        "{}",
        r.stdout
    );
    let r = run(&["verify", "--all", damaged.path()], "");
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert_eq!(r.stdout, "");
    let expected = format!("error: {}: ", damaged.path());
    assert!(
        r.stderr.starts_with(&expected) && r.stderr.contains("moves left"),
        "{}",
        r.stderr
    );
}

#[test]
fn cli_compress_rewrites_files_as_version_4_and_they_answer_as_before() {
    let dir = TempDir::new("compress-cli");
    let r = run(&["export", "--dir", &dir.0.display().to_string()], "");
    assert_eq!(r.code, 0, "stderr: {}", r.stderr);
    let euler = dir.file("euler-4x4.bin");
    let flip = dir.file("flip-4x4.bin");
    let before = std::fs::metadata(&euler).unwrap().len();
    let r = run(&["compress", &euler, &flip], "");
    assert_eq!((r.code, r.stderr.as_str()), (0, ""));
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{}", r.stdout);
    // "FILE: BEFORE bytes to AFTER (P %), version 4; COLUMN P % | raw, ..."
    let after = std::fs::metadata(&euler).unwrap().len();
    let thousands = crate::common::thousands;
    let head = format!(
        "{euler}: {} bytes to {} ({:.1} %), version 4; winning ",
        thousands(before),
        thousands(after),
        after as f64 * 100.0 / before as f64
    );
    assert!(
        lines[0].starts_with(&head),
        "{}\nnot starting with\n{head}",
        lines[0]
    );
    assert!(lines[0].ends_with(" %, moves raw"), "{}", lines[0]);
    assert!(lines[0].contains(" %, plies ") && lines[0].contains(" %, best_move "));
    assert!(after * 2 < before, "{after} of {before}");
    assert!(
        lines[1].starts_with(&format!("{flip}: 590,912 bytes to ")),
        "{}",
        lines[1]
    );
    assert_eq!(names_in(&dir.0), ["euler-4x4.bin", "flip-4x4.bin"]);

    // verify checks every block and every entry against the built-in tables.
    let r = run(&["verify", &euler], "");
    assert_eq!((r.code, r.stderr.as_str()), (0, ""));
    assert_eq!(
        r.stdout,
        format!(
            "{euler}: ok (euler 4x4, version 4, columns winning, plies, best_move, moves; \
             35 block CRCs ok over 139,648 bytes; every entry equals the built-in tables)\n"
        )
    );
    // The judge's samples, answered from the compressed file.
    let sample = "2\nXXX.\nXXX.\n.XXX\n.XX.\nXXXX\n...X\nXX.X\nXX.X\n";
    let r = run(&["euler", "--table", &euler], sample);
    assert_eq!((r.code, r.stdout.as_str()), (0, "WINNING\nWINNING\n"));
    let r = run(&["flip", "--table", &flip], "bwwb\nbbwb\nbwwb\nbwww\n");
    assert_eq!((r.code, r.stdout.as_str()), (0, "4\n"));
}
