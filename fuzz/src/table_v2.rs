//! `table_v2`: the table-file reader of versions 3 and 2
//! ([`Table::from_bytes`], [`Table::open`]), its probes and `verify`, on
//! arbitrary bytes and on damaged valid files. (Named for the version it
//! was written for; its corpus keeps the name.)
//!
//! The first byte picks the mode (bits 0-1), the valid file damaged (bits
//! 2-5: 0 and 1 the 4×4 Euler and Flip exports, which are slow to verify
//! whole, the other 14 small tables of other shapes built from the test
//! oracle in `tests/oracle`, as version 3 or as version 2) and whether the
//! bytes also go through a real file and [`Table::open`] (bit 6); the rest
//! is the input of the mode:
//!
//! 0. raw: the bytes themselves are the file;
//! 1. byte edits (5 input bytes each) on the valid file, then every CRC
//!    (version 3: each block's and each block-CRC array's; version 2: each
//!    column's) and the header CRC recomputed from the edited header, so
//!    that the structure checks and the contents check are reached;
//! 2. the same edits, only the header CRC recomputed;
//! 3. the same edits, no CRC recomputed.
//!
//! Invariants: reading never panics, and `open` says what `from_bytes`
//! says. An accepted table's columns lie within the file; probes of boards
//! within the shape never panic, and of boards outside it always give
//! `OutOfRange`; `verify` never panics. A table that verifies gives the
//! right answers: on 4×4 equal to the built-in tables, on the small shapes
//! equal to the oracle's (every entry is checked there: the local equations
//! determine the table, except which optimal press set Flip stores, which
//! must then have the right size and reach its colour), and it writes out
//! and reads back with the same entries. The unchanged files verify. A
//! version-3 file damaged with no CRC recomputed (mode 3) never answers
//! wrong: each probe gives the unchanged file's answer or an error.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use boardbase::euler::{self, Outcome, Position};
use boardbase::flip::{self, Board, Colour};
use boardbase::tablefile::{ColumnData, Puzzle, Table, TableError};
use boardbase::tables::shape::Shape;

use crate::oracle;
use crate::oracle::tables::{Euler, Flip};
use crate::table_file::crc32;

/// The valid files the edits start from, made once per process.
fn bases() -> &'static [Vec<u8>; 14] {
    static BASES: OnceLock<[Vec<u8>; 14]> = OnceLock::new();
    BASES.get_or_init(|| {
        let shape = |r, c| Shape::new(r, c).expect("a shape");
        let euler =
            |s, wdl| Table::from_euler(s, Euler::solve(s).columns(wdl)).expect("an Euler table");
        let flip = |s| Table::from_flip(s, Flip::solve(s).columns()).expect("a Flip table");
        let s = shape(3, 2);
        let o = Euler::solve(s);
        let with_extra = Table::from_columns(
            Puzzle::Euler,
            s,
            [
                (
                    "winning",
                    ColumnData::Bits {
                        words: o.winning_words(),
                        entries: 64,
                    },
                ),
                ("notes", ColumnData::U16(vec![7; 5])),
                ("plies", ColumnData::U8(o.plies.clone())),
                ("best_move", ColumnData::U8(o.best.clone())),
                ("moves", ColumnData::U64(o.order.clone())),
            ],
        )
        .expect("an Euler table with an extra column");
        let small = [
            euler(shape(2, 3), false),
            euler(shape(2, 3), true),
            flip(shape(2, 3)),
            flip(shape(3, 3)),
            with_extra,
            euler(shape(1, 1), false),
        ];
        let v3 = |t: &Table| t.to_bytes().expect("writable");
        let v2 = |t: &Table| t.to_bytes_version(2).expect("writable");
        [
            v3(&Table::embedded(Puzzle::Euler)),
            v3(&Table::embedded(Puzzle::Flip)),
            v3(&small[0]),
            v3(&small[1]),
            v3(&small[2]),
            v3(&small[3]),
            v3(&small[4]),
            v3(&small[5]),
            v2(&small[0]),
            v2(&small[1]),
            v2(&small[2]),
            v2(&small[3]),
            v2(&small[4]),
            v2(&small[5]),
        ]
    })
}

/// The oracles of a small shape, computed once per shape.
fn oracles(shape: Shape) -> &'static (Euler, Flip) {
    static ORACLES: OnceLock<Mutex<HashMap<Shape, &'static (Euler, Flip)>>> = OnceLock::new();
    let mut map = ORACLES
        .get_or_init(Default::default)
        .lock()
        .expect("not poisoned");
    map.entry(shape)
        .or_insert_with(|| Box::leak(Box::new((Euler::solve(shape), Flip::solve(shape)))))
}

/// A little-endian reader that gives up (None) past the end.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Option<&[u8]> {
        let s = self.bytes.get(self.at..self.at.checked_add(n)?)?;
        self.at += n;
        Some(s)
    }
    fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }
    fn skip_string(&mut self) -> Option<()> {
        let n = usize::try_from(self.u64()?).ok()?;
        self.take(n).map(|_| ())
    }
}

/// What the edits aim at: where each header field and each column (and
/// block-CRC array) starts, and each column's CRC field.
struct Fields {
    offsets: Vec<usize>,
    crcs: Vec<CrcField>,
}

/// A column's `crc` field, with what it covers: the column's offset and
/// length, and in version 3 its block length and block-CRC array's offset.
struct CrcField {
    at: usize,
    offset: u64,
    len: u64,
    blocks: Option<(u32, u64)>,
}

/// Finds the fields of a (possibly damaged) file, as far as it parses.
fn fields(bytes: &[u8]) -> Fields {
    let mut f = Fields {
        offsets: vec![0, 8, 12, 16],
        crcs: Vec::new(),
    };
    let version = bytes
        .get(8..12)
        .map_or(0, |v| u32::from_le_bytes(v.try_into().expect("4 bytes")));
    let mut r = Reader { bytes, at: 16 };
    let mut walk = || -> Option<()> {
        f.offsets.push(r.at);
        r.skip_string()?;
        f.offsets.push(r.at); // rows, cols
        r.take(2)?;
        f.offsets.push(r.at); // file_len
        r.u64()?;
        f.offsets.push(r.at); // count
        let count = r.u64()?.min(64);
        for _ in 0..count {
            f.offsets.push(r.at); // name
            r.skip_string()?;
            f.offsets.push(r.at); // width
            r.take(1)?;
            f.offsets.push(r.at); // entries
            r.u64()?;
            f.offsets.push(r.at); // offset
            let offset = r.u64()?;
            f.offsets.push(r.at); // len
            let len = r.u64()?;
            f.offsets.push(r.at); // crc
            let at = r.at;
            r.take(4)?;
            let blocks = if version == 3 {
                f.offsets.push(r.at); // block_len
                let block_len = u32::from_le_bytes(r.take(4)?.try_into().ok()?);
                f.offsets.push(r.at); // block_crcs_offset
                let crcs = r.u64()?;
                if let Ok(c) = usize::try_from(crcs) {
                    f.offsets.push(c);
                }
                Some((block_len, crcs))
            } else {
                None
            };
            f.crcs.push(CrcField {
                at,
                offset,
                len,
                blocks,
            });
            if let Ok(o) = usize::try_from(offset) {
                f.offsets.push(o);
                f.offsets
                    .push(o.saturating_add(usize::try_from(len).unwrap_or(0)));
            }
        }
        f.offsets.push(r.at); // the header CRC
        Some(())
    };
    let _ = walk();
    f
}

/// A 64-bit value for an offset, length or count field.
fn wide(v: u8, sel: u8) -> u64 {
    match sel % 8 {
        0 => 0,
        1 => u64::from(v),
        2 => 1 << (v % 64),
        3 => u64::MAX - u64::from(v % 4),
        4 => 64 * u64::from(v),
        5 => 64 * u64::from(v) + 1,
        6 => 1 << (v % 40),
        _ => u64::from(u32::MAX) + u64::from(v),
    }
}

/// The most bytes an edit may grow a file to.
const MAX_LEN: usize = 1 << 21;

/// Applies byte edits (see [`edit_bytes`](crate::edit::edit_bytes)) near
/// the fields of the file.
fn edit(bytes: &mut Vec<u8>, script: &[u8]) {
    let offsets = fields(bytes).offsets;
    crate::edit::edit_bytes(bytes, script, &offsets, MAX_LEN, wide);
}

/// Recomputes the column CRCs (when `columns`: version 3, each block's and
/// each block-CRC array's; version 2, each column's) and the header CRC, as
/// far as the header can be followed.
fn reseal(bytes: &mut [u8], columns: bool) {
    if columns {
        for field in fields(bytes).crcs {
            let (Ok(offset), Ok(len)) = (usize::try_from(field.offset), usize::try_from(field.len))
            else {
                continue;
            };
            let Some(end) = offset.checked_add(len) else {
                continue;
            };
            let (Some(data), true) = (bytes.get(offset..end), field.at + 4 <= bytes.len()) else {
                continue;
            };
            let crc = match field.blocks {
                None => crc32(data),
                Some((block_len, crcs)) => {
                    // Blocks of at least 64 bytes, as the reader accepts:
                    // smaller ones are refused at open anyway.
                    let block_len = (block_len as usize).max(64);
                    let array: Vec<u8> = data
                        .chunks(block_len)
                        .flat_map(|block| crc32(block).to_le_bytes())
                        .collect();
                    let Some(target) = usize::try_from(crcs)
                        .ok()
                        .and_then(|c| bytes.get_mut(c..c.checked_add(array.len())?))
                    else {
                        continue;
                    };
                    target.copy_from_slice(&array);
                    crc32(&array)
                }
            };
            bytes[field.at..field.at + 4].copy_from_slice(&crc.to_le_bytes());
        }
    }
    let Some(n) = bytes.get(12..16) else { return };
    let n = u32::from_le_bytes(n.try_into().expect("4 bytes")) as usize;
    if bytes.len() >= 20 + n {
        let crc = crc32(&bytes[..16 + n]);
        bytes[16 + n..20 + n].copy_from_slice(&crc.to_le_bytes());
    }
}

/// Boards to probe: fixed ones and some from the input.
fn boards(shape: Shape, data: &[u8]) -> Vec<u64> {
    let full = shape.full();
    let mut boards = vec![0, full, full >> 1, 0x5555_5555_5555_5555 & full];
    for chunk in data.chunks(8).take(8) {
        let mut le = [0u8; 8];
        le[..chunk.len()].copy_from_slice(chunk);
        boards.push(u64::from_le_bytes(le) & full);
    }
    boards
}

/// Probes must not panic; boards outside the shape are `OutOfRange`.
fn probe_everything(table: &Table, data: &[u8]) {
    let shape = table.shape();
    let outside = [shape.full().wrapping_add(1), u64::MAX, 1 << 63];
    let out_of_range = |r: Result<(), TableError>| {
        assert!(matches!(r, Err(TableError::OutOfRange { .. })), "{r:?}");
    };
    match table.puzzle() {
        Puzzle::Euler => {
            let e = table.as_euler().expect("an Euler table");
            assert!(table.as_flip().is_err());
            for b in boards(shape, data) {
                let _ = e.outcome(b);
                let _ = e.probe(b);
                let _ = e.winning_moves(b);
                let _ = e.move_values(b);
            }
            for b in outside.into_iter().filter(|&b| b & !shape.full() != 0) {
                out_of_range(e.probe(b).map(drop));
                out_of_range(e.outcome(b).map(drop));
                out_of_range(e.winning_moves(b).map(drop));
            }
        }
        Puzzle::Flip => {
            let f = table.as_flip().expect("a Flip table");
            assert!(table.as_euler().is_err());
            for b in boards(shape, data) {
                let _ = f.rounds(b);
                let _ = f.solve(b);
                let _ = f.route(b, Colour::White);
                let _ = f.route(b, Colour::Black);
            }
            for b in outside.into_iter().filter(|&b| b & !shape.full() != 0) {
                out_of_range(f.rounds(b).map(drop));
                out_of_range(f.solve(b).map(drop));
            }
        }
    }
}

/// A verified table's answers are right.
fn check_answers(table: &Table, data: &[u8]) {
    let shape = table.shape();
    if shape == Shape::SQUARE4 {
        for b in boards(shape, data) {
            let bits = b as u16;
            match table.puzzle() {
                Puzzle::Euler => {
                    let e = table.as_euler().expect("Euler");
                    let got = e.probe(b).expect("a verified table answers");
                    let expected = euler::probe(Position::from_bits(bits));
                    assert_eq!(got.outcome, expected.outcome);
                    if !e.is_wdl_only() {
                        assert_eq!(got.moves_left, Some(expected.moves_left));
                        assert_eq!(
                            got.best_move,
                            expected.best_move.map(|m| u64::from(m.bits()))
                        );
                    }
                }
                Puzzle::Flip => {
                    let f = table.as_flip().expect("Flip");
                    let board = Board::from_bits(bits);
                    assert_eq!(f.rounds(b).expect("answers"), flip::rounds(board));
                    let s = f.solve(b).expect("answers");
                    let e = flip::solve(board);
                    assert_eq!(
                        s.map(|s| (s.colour, s.rounds, s.presses, s.optimal_sets)),
                        e.map(|e| (
                            e.colour,
                            e.rounds,
                            u64::from(e.presses.bits()),
                            u16::from(e.optimal_sets)
                        ))
                    );
                }
            }
        }
        return;
    }
    if shape.cells() > 10 {
        return;
    }
    let (euler_oracle, flip_oracle) = oracles(shape);
    for b in 0..1u64 << shape.cells() {
        let i = b as usize;
        match table.puzzle() {
            Puzzle::Euler => {
                let e = table.as_euler().expect("Euler");
                let got = e.probe(b).expect("a verified table answers");
                let outcome = if euler_oracle.wins[i] {
                    Outcome::Win
                } else {
                    Outcome::Loss
                };
                assert_eq!(got.outcome, outcome, "{shape} position {b:#x}");
                if !e.is_wdl_only() {
                    assert_eq!(got.moves_left, Some(euler_oracle.plies[i]));
                    let best = (b != shape.full())
                        .then(|| euler_oracle.order[usize::from(euler_oracle.best[i])]);
                    assert_eq!(got.best_move, best);
                }
            }
            Puzzle::Flip => {
                let f = table.as_flip().expect("Flip");
                for colour in Colour::ALL {
                    let c = colour.index();
                    let route = f.route(b, colour).expect("answers");
                    let r = flip_oracle.rounds[c][i];
                    assert_eq!(route.map(|r| r.rounds), (r != 255).then_some(r));
                    if let Some(route) = route {
                        assert_eq!(route.optimal_sets, flip_oracle.sets[c][i]);
                        assert_eq!(route.presses.count_ones(), u32::from(route.rounds));
                        let after =
                            oracle::press::apply(shape.rows(), shape.cols(), b, route.presses);
                        let target = if colour == Colour::White {
                            0
                        } else {
                            shape.full()
                        };
                        assert_eq!(after, target);
                    }
                }
            }
        }
    }
}

/// Reads `bytes` (and through a file when `through_file`) and checks the
/// invariants; returns what reading said.
fn read_and_check(bytes: Vec<u8>, through_file: bool, data: &[u8], pristine: bool) -> bool {
    if through_file {
        let path = std::env::temp_dir().join(format!("boardbase-fuzz-{}.bin", std::process::id()));
        std::fs::write(&path, &bytes).expect("temp file written");
        let opened = Table::open(&path);
        // A mapped file can go: the map stays valid.
        let _ = std::fs::remove_file(&path);
        let read = Table::from_bytes(bytes.clone());
        assert_eq!(
            opened.as_ref().map_err(kind).map(|t| t.columns().count()),
            read.as_ref().map_err(kind).map(|t| t.columns().count()),
            "open and from_bytes disagree"
        );
        if let Ok(t) = &opened {
            assert!(t.is_mapped() || t.version() == 1);
        }
    }
    let len = bytes.len() as u64;
    let table = match Table::from_bytes(bytes) {
        Ok(table) => table,
        Err(e) => {
            assert!(!pristine, "an unchanged file is refused: {e}");
            return false;
        }
    };
    assert_eq!(table.file_len(), len);
    for c in table.columns() {
        if let Some(offset) = c.offset {
            assert!(offset % 64 == 0 && offset + c.byte_len <= len);
        }
        assert_eq!(c.byte_len, (c.entries * u64::from(c.width)).div_ceil(8));
    }
    probe_everything(&table, data);
    let verified = table.verify(&mut |p| assert!(p.done <= p.total));
    if pristine {
        assert!(
            verified.is_ok(),
            "an unchanged file fails to verify: {verified:?}"
        );
    }
    if verified.is_ok() {
        check_answers(&table, data);
        if table.version() >= 2 && table.shape() != Shape::SQUARE4 {
            let again = table.to_bytes().expect("a verified table writes");
            let back = Table::from_bytes(again).expect("and reads back");
            for c in table.columns() {
                for i in 0..c.entries {
                    assert_eq!(table.get(&c.name, i), back.get(&c.name, i));
                }
            }
            back.verify(&mut |_| {}).expect("and verifies");
        }
    }
    true
}

/// Every probe of `damaged` that answers gives `base`'s answer: a damaged
/// block is refused, never read.
fn never_wrong(damaged: &Table, base: &Table, data: &[u8]) {
    if (damaged.puzzle(), damaged.shape()) != (base.puzzle(), base.shape()) {
        return;
    }
    for b in boards(base.shape(), data) {
        match base.puzzle() {
            Puzzle::Euler => {
                let (d, e) = (
                    damaged.as_euler().expect("Euler"),
                    base.as_euler().expect("Euler"),
                );
                if let Ok(got) = d.probe(b) {
                    assert_eq!(Some(got), e.probe(b).ok(), "position {b:#x}");
                }
                if let Ok(got) = d.move_values(b) {
                    assert_eq!(Some(got), e.move_values(b).ok(), "position {b:#x}");
                }
            }
            Puzzle::Flip => {
                let (d, f) = (
                    damaged.as_flip().expect("Flip"),
                    base.as_flip().expect("Flip"),
                );
                if let Ok(got) = d.rounds(b) {
                    assert_eq!(Some(got), f.rounds(b).ok(), "board {b:#x}");
                }
                if let Ok(got) = d.solve(b) {
                    assert_eq!(Some(got), f.solve(b).ok(), "board {b:#x}");
                }
            }
        }
    }
}

/// The error's variant, to compare two reads.
fn kind(e: &TableError) -> String {
    let text = format!("{e:?}");
    text.split(['(', ' ', '{'])
        .next()
        .unwrap_or_default()
        .to_owned()
}

/// The target.
pub fn check(data: &[u8]) {
    let _ = outcome(data);
}

/// Runs the target on `data`; returns whether the file was accepted
/// (`None` for an empty input).
pub fn outcome(data: &[u8]) -> Option<bool> {
    let (&head, script) = data.split_first()?;
    let through_file = head & 0x40 != 0;
    let base = match usize::from(head >> 2 & 15) {
        slot @ 0..=1 => &bases()[slot],
        slot => &bases()[2 + (slot - 2) % 12],
    };
    Some(match head & 3 {
        0 => read_and_check(script.to_vec(), through_file, script, false),
        mode => {
            let mut bytes = base.clone();
            edit(&mut bytes, script);
            match mode {
                1 => reseal(&mut bytes, true),
                2 => reseal(&mut bytes, false),
                _ => {}
            }
            let pristine = bytes == *base;
            if mode == 3
                && base.get(8) == Some(&3)
                && let (Ok(damaged), Ok(intact)) = (
                    Table::from_bytes(bytes.clone()),
                    Table::from_bytes(base.clone()),
                )
            {
                never_wrong(&damaged, &intact, script);
            }
            read_and_check(bytes, through_file, script, pristine)
        }
    })
}
