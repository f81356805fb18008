//! `table_file`: the table-file reader on arbitrary bytes and on damaged
//! exports.
//!
//! The first byte picks the mode (bits 0-1) and the export damaged (bit 2:
//! Flip or Euler); the rest is the input of the mode:
//!
//! 0. raw: the bytes themselves are the file;
//! 1. byte edits on a valid export (`TableFile::to_bytes`), then the CRC
//!    recomputed so that decoding and the structure checks are reached;
//! 2. the same edits, the CRC left as it is;
//! 3. field edits on the decoded export (magic, version, puzzle, shape,
//!    columns: removed, duplicated, renamed, resized, re-widthed, changed,
//!    added), written with `to_bytes`.
//!
//! Invariants: `TableFile::read` never panics, and a file it accepts encodes
//! back to the very same bytes, passes `check_structure`, and goes through
//! `verify_contents` without a panic; an unchanged export reads and
//! verifies; in mode 3, `read` of the written file says exactly what
//! `check_structure` says of the edited table (or that it is too large).

use std::sync::OnceLock;

use boardbase::tablefile::TableError;
use boardbase::tablefile::v1::{Column, MAX_FILE_LEN, TableFile};

/// The two exports, decoded and as bytes, made once per process.
fn exports() -> &'static [(TableFile, Vec<u8>); 2] {
    static EXPORTS: OnceLock<[(TableFile, Vec<u8>); 2]> = OnceLock::new();
    EXPORTS.get_or_init(|| {
        TableFile::all().map(|file| {
            let bytes = file.to_bytes();
            (file, bytes)
        })
    })
}

/// Reads `bytes` and checks what an accepted file must satisfy.
fn read_and_check(bytes: &[u8]) -> Result<TableFile, TableError> {
    let read = TableFile::read(bytes);
    if let Ok(file) = &read {
        assert_eq!(
            file.to_bytes(),
            bytes,
            "an accepted file re-encodes differently"
        );
        if let Err(e) = file.check_structure() {
            panic!("an accepted file fails check_structure: {e:?}");
        }
        let verified = file.verify_contents();
        if exports().iter().any(|(_, original)| original == bytes) {
            assert!(
                verified.is_ok(),
                "an unchanged export fails to verify: {verified:?}"
            );
        }
    }
    read
}

/// Offsets in an export where its fields start: the header, the puzzle,
/// the shape, the column count, each column's name, width and data length,
/// and the CRC.
fn field_offsets(file: &TableFile, len: usize) -> Vec<usize> {
    let mut at = 20 + file.puzzle.len();
    let mut offsets = vec![0, 8, 12, 20, at, at + 2];
    at += 10;
    for column in &file.columns {
        offsets.push(at);
        at += 8 + column.name.len();
        offsets.push(at);
        offsets.push(at + 1);
        at += 9 + column.data.len();
        offsets.push(at - 64);
    }
    offsets.push(len - 4);
    offsets
}

/// A 64-bit value for a length or count field.
fn wide(v: u8, sel: u8) -> u64 {
    match sel % 7 {
        0 => 0,
        1 => u64::from(v),
        2 => 1 << (v % 64),
        3 => u64::MAX - u64::from(v % 4),
        4 => 65_536 * u64::from(v % 9),
        5 => 65_536 * u64::from(v % 9) + 1,
        _ => (1 << 20) + u64::from(v),
    }
}

/// Applies byte edits (see [`edit_bytes`](crate::edit::edit_bytes)) near
/// the fields of `file`'s export.
fn edit_bytes(file: &TableFile, bytes: &mut Vec<u8>, script: &[u8]) {
    let offsets = field_offsets(file, bytes.len());
    crate::edit::edit_bytes(bytes, script, &offsets, 2 * MAX_FILE_LEN, wide);
}

/// Applies field edits, 3 input bytes each: `[op, a, v]`.
fn edit_fields(file: &mut TableFile, script: &[u8]) {
    const PUZZLES: [&str; 6] = ["flip", "euler", "", "flip\0", "Flip", "euler "];
    const NAMES: [&str; 8] = [
        "rounds",
        "presses",
        "optimal_sets",
        "winning",
        "plies",
        "best_move",
        "",
        "extra",
    ];
    for op in script.chunks_exact(3) {
        let &[kind, a, v] = op else { unreachable!() };
        let n = file.columns.len();
        let i = usize::from(a) % n.max(1);
        let name = NAMES[usize::from(v) % NAMES.len()].to_owned();
        match kind % 14 {
            0 => file.magic[usize::from(a % 8)] = v,
            1 => file.version = if v == 255 { u32::MAX } else { u32::from(v) },
            2 => file.puzzle = PUZZLES[usize::from(v) % PUZZLES.len()].to_owned(),
            3 => file.rows = v,
            4 => file.cols = v,
            5 if n > 0 => {
                file.columns.remove(i);
            }
            6 if n > 0 && n < 8 => file.columns.push(file.columns[i].clone()),
            7 if n > 0 => file.columns[i].name = name,
            8 if n > 0 => file.columns[i].width = v % 10,
            9 if n > 0 => {
                let data = &mut file.columns[i].data;
                data.truncate(data.len() * usize::from(v) / 256);
            }
            10 if n > 0 => file.columns[i].data.extend((0..v).map(|x| x ^ a)),
            11 if n > 0 => {
                let data = &mut file.columns[i].data;
                if !data.is_empty() {
                    let at = (usize::from(v) << 8 | usize::from(a)) * 7 % data.len();
                    data[at] ^= 1 << (v % 8);
                }
            }
            12 if n < 8 => {
                let width = v % 9;
                file.columns.push(Column {
                    name,
                    width,
                    data: vec![a; 65_536 * usize::from(width)],
                });
            }
            13 if n > 1 => file.columns.swap(i, (i + 1) % n),
            _ => {}
        }
    }
}

/// The target.
pub fn check(data: &[u8]) {
    let _ = outcome(data);
}

/// Runs the target on `data` and returns what `TableFile::read` said (`None`
/// for an empty input), to see which checks a corpus reaches.
pub fn outcome(data: &[u8]) -> Option<Result<TableFile, TableError>> {
    let (&head, script) = data.split_first()?;
    let (original, original_bytes) = &exports()[usize::from(head >> 2 & 1)];
    Some(match head & 3 {
        0 => read_and_check(script),
        mode @ (1 | 2) => {
            let mut bytes = original_bytes.clone();
            edit_bytes(original, &mut bytes, script);
            if mode == 1 && bytes.len() >= 4 {
                let body = bytes.len() - 4;
                let crc = crc32(&bytes[..body]);
                bytes[body..].copy_from_slice(&crc.to_le_bytes());
            }
            read_and_check(&bytes)
        }
        _ => {
            let mut file = original.clone();
            edit_fields(&mut file, script);
            let bytes = file.to_bytes();
            let expected = if bytes.len() > MAX_FILE_LEN {
                Err(TableError::V1TooLarge {
                    len: bytes.len(),
                    max: MAX_FILE_LEN,
                })
            } else {
                file.check_structure().map(|()| file.clone())
            };
            let read = read_and_check(&bytes);
            // The error holds no I/O error here, so its Debug form is all
            // of it: equal forms are equal outcomes.
            assert_eq!(format!("{read:?}"), format!("{expected:?}"));
            read
        }
    })
}

/// CRC-32 (IEEE, as zlib), written here so that the target does not share
/// the library's CRC code.
pub fn crc32(bytes: &[u8]) -> u32 {
    /// The byte-at-a-time table of the reflected polynomial.
    const TABLE: [u32; 256] = {
        let mut table = [0u32; 256];
        let mut i = 0;
        while i < 256 {
            let mut crc = i as u32;
            let mut bit = 0;
            while bit < 8 {
                crc = if crc & 1 != 0 {
                    crc >> 1 ^ 0xEDB8_8320
                } else {
                    crc >> 1
                };
                bit += 1;
            }
            table[i] = crc;
            i += 1;
        }
        table
    };
    !bytes.iter().fold(!0u32, |crc, &b| {
        TABLE[usize::from(crc as u8 ^ b)] ^ crc >> 8
    })
}
