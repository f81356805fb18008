//! Version-3 table files (and version 2, still read): the documented layout
//! decoded by hand, round trips (mapped, from bytes, in memory), probes
//! against test-local oracles on every small shape, every truncation and
//! every damaged byte of small files, damaged blocks refused at probe and
//! named by verify, named header errors, version-1 files, and the
//! temporary-file-and-rename write.

use crate::common;
use crate::oracle;

use boardbase::euler::{self, Outcome, Position};
use boardbase::flip::{self, Board, Colour};
use boardbase::tablefile::v1::TableFile;
use boardbase::tablefile::{
    Checked, ColumnData, EulerColumns, Phase, Puzzle, Table, TableError, VerifyOptions,
};
use boardbase::tables::shape::Shape;
use common::{TempDir, crc32, names_in};
use oracle::tables::{Euler, Flip, shapes};

/// A little-endian reader over a file's bytes, for decoding the layout by
/// hand as another language would.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> &[u8] {
        let s = &self.bytes[self.at..self.at + n];
        self.at += n;
        s
    }
    fn u8(&mut self) -> u8 {
        self.take(1)[0]
    }
    fn u32(&mut self) -> u32 {
        u32::from_le_bytes(self.take(4).try_into().unwrap())
    }
    fn u64(&mut self) -> u64 {
        u64::from_le_bytes(self.take(8).try_into().unwrap())
    }
    fn string(&mut self) -> String {
        let n = self.u64() as usize;
        String::from_utf8(self.take(n).to_vec()).unwrap()
    }
}

/// A column as decoded by hand: name, width, entries, offset, len, crc,
/// and in version 3 its block length and block-CRC array's offset (0 in
/// version 2).
#[derive(Debug, Clone)]
struct RawColumn {
    name: String,
    width: u8,
    entries: u64,
    offset: u64,
    len: u64,
    crc: u32,
    block_len: u32,
    block_crcs_offset: u64,
}

impl RawColumn {
    /// The number of blocks (version 3).
    fn blocks(&self) -> u64 {
        self.len.div_ceil(u64::from(self.block_len))
    }

    /// The byte range of the block-CRC array (version 3).
    fn array(&self) -> std::ops::Range<usize> {
        let start = self.block_crcs_offset as usize;
        start..start + 4 * self.blocks() as usize
    }

    /// The byte range of the column's bytes.
    fn data(&self) -> std::ops::Range<usize> {
        self.offset as usize..(self.offset + self.len) as usize
    }
}

/// The header decoded by hand: version, puzzle, rows, cols, file length,
/// columns, and where the header (with its CRC) ends.
struct RawHeader {
    version: u32,
    puzzle: String,
    rows: u8,
    cols: u8,
    file_len: u64,
    columns: Vec<RawColumn>,
    end: usize,
}

/// One column's header entry, of version 2 or 3; `crc_at` is where its
/// `crc` field is.
fn raw_column(r: &mut Reader<'_>, version: u32) -> (usize, RawColumn) {
    let name = r.string();
    let width = r.u8();
    let entries = r.u64();
    let offset = r.u64();
    let len = r.u64();
    let crc_at = r.at;
    let crc = r.u32();
    let (block_len, block_crcs_offset) = if version == 3 {
        (r.u32(), r.u64())
    } else {
        (0, 0)
    };
    (
        crc_at,
        RawColumn {
            name,
            width,
            entries,
            offset,
            len,
            crc,
            block_len,
            block_crcs_offset,
        },
    )
}

fn decode(bytes: &[u8]) -> RawHeader {
    let mut r = Reader { bytes, at: 0 };
    assert_eq!(r.take(8), b"BRDBASE\0");
    let version = r.u32();
    assert!(version == 2 || version == 3, "version {version}");
    let n = r.u32() as usize;
    let puzzle = r.string();
    let (rows, cols) = (r.u8(), r.u8());
    let file_len = r.u64();
    let count = r.u64();
    let columns = (0..count).map(|_| raw_column(&mut r, version).1).collect();
    assert_eq!(r.at, 16 + n, "the header length field covers the header");
    let stored = r.u32();
    assert_eq!(stored, crc32(&bytes[..16 + n]), "the header CRC");
    RawHeader {
        version,
        puzzle,
        rows,
        cols,
        file_len,
        columns,
        end: 16 + n + 4,
    }
}

/// Entry `i` of a hand-decoded column.
fn raw_entry(bytes: &[u8], c: &RawColumn, i: u64) -> u64 {
    let at = c.offset as usize;
    if c.width == 1 {
        return u64::from(bytes[at + i as usize / 8] >> (i % 8) & 1);
    }
    let w = usize::from(c.width / 8);
    let mut le = [0u8; 8];
    le[..w].copy_from_slice(&bytes[at + i as usize * w..at + (i as usize + 1) * w]);
    u64::from_le_bytes(le)
}

/// Rewrites the header CRC after an edit of the header bytes.
fn reseal_header(bytes: &mut [u8]) {
    let n = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    let crc = crc32(&bytes[..16 + n]);
    bytes[16 + n..20 + n].copy_from_slice(&crc.to_le_bytes());
}

/// CRC-32 as [`crc32`], a byte at a time from a table (fast enough to
/// reseal large files many times in a debug build).
fn fast_crc32(bytes: &[u8]) -> u32 {
    static TABLE: std::sync::OnceLock<[u32; 256]> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(|| {
        std::array::from_fn(|i| {
            let mut c = i as u32;
            for _ in 0..8 {
                c = if c & 1 != 0 {
                    (c >> 1) ^ 0xEDB8_8320
                } else {
                    c >> 1
                };
            }
            c
        })
    });
    !bytes.iter().fold(!0u32, |crc, &b| {
        table[usize::from(crc as u8 ^ b)] ^ (crc >> 8)
    })
}

/// Rewrites every CRC after an edit of the columns' bytes: in version 3
/// every block CRC and each block-CRC array's CRC, in version 2 each
/// column's; then the header CRC.
fn reseal_columns(bytes: &mut [u8]) {
    let (version, header) = decode_lenient(bytes);
    for (crc_at, c) in header {
        let crc = if version == 3 {
            let data = &bytes[c.data()];
            let array: Vec<u8> = data
                .chunks(c.block_len as usize)
                .flat_map(|block| fast_crc32(block).to_le_bytes())
                .collect();
            bytes[c.array()].copy_from_slice(&array);
            fast_crc32(&array)
        } else {
            fast_crc32(&bytes[c.data()])
        };
        bytes[crc_at..crc_at + 4].copy_from_slice(&crc.to_le_bytes());
    }
    reseal_header(bytes);
}

/// The version, and the columns of a header with where each one's CRC
/// field is, without checking the header CRC.
fn decode_lenient(bytes: &[u8]) -> (u32, Vec<(usize, RawColumn)>) {
    let version = u32::from_le_bytes(bytes[8..12].try_into().unwrap());
    let mut r = Reader { bytes, at: 16 };
    r.string();
    r.u8();
    r.u8();
    r.u64();
    let count = r.u64();
    let columns = (0..count).map(|_| raw_column(&mut r, version)).collect();
    (version, columns)
}

/// Where column `name`'s header entry starts: its name's length field.
fn column_field(bytes: &[u8], name: &str) -> usize {
    let mut needle = (name.len() as u64).to_le_bytes().to_vec();
    needle.extend_from_slice(name.as_bytes());
    bytes
        .windows(needle.len())
        .position(|w| w == needle)
        .expect("the column is in the header")
}

fn shape(rows: usize, cols: usize) -> Shape {
    Shape::new(rows, cols).unwrap()
}

/// Both puzzles' tables of `shape` from the oracles (Euler full).
pub(crate) fn oracle_tables(s: Shape) -> (Table, Table) {
    let euler = Table::from_euler(s, Euler::solve(s).columns(false)).expect("a valid Euler table");
    let flip = Table::from_flip(s, Flip::solve(s).columns()).expect("a valid Flip table");
    (euler, flip)
}

/// Every entry of every column of `a` and `b` is equal, and so are the
/// columns' names, widths and counts.
pub(crate) fn assert_same_entries(a: &Table, b: &Table) {
    let names = |t: &Table| {
        t.columns()
            .map(|c| (c.name.clone(), c.width, c.entries, c.byte_len))
            .collect::<Vec<_>>()
    };
    assert_eq!(names(a), names(b));
    assert_eq!((a.puzzle(), a.shape()), (b.puzzle(), b.shape()));
    for c in a.columns() {
        for i in 0..c.entries {
            assert_eq!(a.get(&c.name, i), b.get(&c.name, i), "{} entry {i}", c.name);
        }
        assert_eq!(a.get(&c.name, c.entries), None);
    }
}

#[test]
fn the_layout_is_as_documented() {
    for (puzzle, version) in [
        (Puzzle::Euler, 3),
        (Puzzle::Flip, 3),
        (Puzzle::Euler, 2),
        (Puzzle::Flip, 2),
    ] {
        let table = Table::embedded(puzzle);
        let bytes = if version == 3 {
            table.to_bytes().expect("writable")
        } else {
            table.to_bytes_version(2).expect("writable")
        };
        if version == 3 {
            assert_eq!(bytes.len() as u64, table.file_len());
        }
        let h = decode(&bytes);
        assert_eq!(h.version, version);
        assert_eq!((h.puzzle.as_str(), h.rows, h.cols), (puzzle.name(), 4, 4));
        assert_eq!(h.file_len, bytes.len() as u64);
        let expected: Vec<(&str, u8, u64)> = match puzzle {
            Puzzle::Euler => vec![
                ("winning", 1, 65_536),
                ("plies", 8, 65_536),
                ("best_move", 8, 65_536),
                ("moves", 64, 48),
            ],
            Puzzle::Flip => vec![
                ("rounds", 8, 65_536),
                ("rounds_white", 8, 65_536),
                ("rounds_black", 8, 65_536),
                ("presses_white", 16, 65_536),
                ("presses_black", 16, 65_536),
                ("optimal_sets_white", 8, 65_536),
                ("optimal_sets_black", 8, 65_536),
            ],
        };
        let got: Vec<(&str, u8, u64)> = h
            .columns
            .iter()
            .map(|c| (c.name.as_str(), c.width, c.entries))
            .collect();
        assert_eq!(got, expected);
        // Columns: 64-byte aligned, in order, tightly after what precedes
        // them, zeros between; in version 3 each followed by its block-CRC
        // array (aligned, zeros between), the CRC of every 4 KiB block, and
        // the header's CRC is the array's; in version 2 the column's. The
        // file ends with the last column (version 2) or array (version 3).
        let mut end = h.end as u64;
        let zeros = |from: u64, to: u64| bytes[from as usize..to as usize].iter().all(|&b| b == 0);
        for c in &h.columns {
            assert_eq!(c.offset % 64, 0);
            assert_eq!(c.offset, end.div_ceil(64) * 64);
            assert!(zeros(end, c.offset));
            assert_eq!(c.len, (c.entries * u64::from(c.width)).div_ceil(8));
            let data = &bytes[c.data()];
            end = c.offset + c.len;
            if version == 2 {
                assert_eq!(c.crc, crc32(data), "{}", c.name);
                continue;
            }
            assert_eq!(c.block_len, 4096);
            assert_eq!(c.block_crcs_offset, end.div_ceil(64) * 64);
            assert!(zeros(end, c.block_crcs_offset));
            let array = &bytes[c.array()];
            assert_eq!(array.len() as u64, 4 * c.len.div_ceil(4096));
            for (block, stored) in data.chunks(4096).zip(array.chunks(4)) {
                assert_eq!(u32::from_le_bytes(stored.try_into().unwrap()), crc32(block));
            }
            assert_eq!(c.crc, crc32(array), "{}", c.name);
            end = c.array().end as u64;
        }
        assert_eq!(end, h.file_len);
    }
    // The entries decode by hand to the built-in tables' answers.
    let bytes = Table::embedded(Puzzle::Euler).to_bytes().unwrap();
    let h = decode(&bytes);
    let col = |name: &str| h.columns.iter().find(|c| c.name == name).unwrap().clone();
    let (winning, plies, best, moves) =
        (col("winning"), col("plies"), col("best_move"), col("moves"));
    for bits in 0..=u16::MAX {
        let entry = euler::probe(Position::from_bits(bits));
        let i = u64::from(bits);
        assert_eq!(
            raw_entry(&bytes, &winning, i),
            u64::from(entry.outcome.is_win())
        );
        assert_eq!(raw_entry(&bytes, &plies, i), u64::from(entry.moves_left));
        let b = raw_entry(&bytes, &best, i);
        match entry.best_move {
            None => assert_eq!(b, 255),
            Some(m) => assert_eq!(raw_entry(&bytes, &moves, b), u64::from(m.bits())),
        }
    }
    let bytes = Table::embedded(Puzzle::Flip).to_bytes().unwrap();
    let h = decode(&bytes);
    let col = |name: &str| h.columns.iter().find(|c| c.name == name).unwrap().clone();
    for bits in (0..=u16::MAX).step_by(7) {
        let board = Board::from_bits(bits);
        let i = u64::from(bits);
        assert_eq!(
            raw_entry(&bytes, &col("rounds"), i),
            u64::from(flip::rounds(board).unwrap_or(255))
        );
        for (colour, suffix) in [(Colour::White, "white"), (Colour::Black, "black")] {
            let route = flip::route(board, colour);
            let get = |name: &str| raw_entry(&bytes, &col(&format!("{name}_{suffix}")), i);
            assert_eq!(get("rounds"), route.map_or(255, |r| u64::from(r.rounds)));
            assert_eq!(
                get("presses"),
                route.map_or(0, |r| u64::from(r.presses.bits()))
            );
            assert_eq!(
                get("optimal_sets"),
                route.map_or(0, |r| u64::from(r.optimal_sets))
            );
        }
    }
}

#[test]
fn exports_round_trip_mapped_from_bytes_and_in_memory() {
    let dir = TempDir::new("round-trip");
    for puzzle in Puzzle::ALL {
        let memory = Table::embedded(puzzle);
        assert!(!memory.is_mapped());
        let path = dir.join(memory.file_name());
        let len = memory.write(&path, &mut |_| {}).expect("written");
        assert_eq!(len, std::fs::metadata(&path).unwrap().len());
        assert_eq!(len, memory.file_len());
        let bytes = std::fs::read(&path).unwrap();
        assert_eq!(bytes, memory.to_bytes().unwrap());

        let mapped = Table::open(&path).expect("opens");
        assert!(mapped.is_mapped());
        assert_eq!((mapped.version(), mapped.file_len()), (3, len));
        assert_same_entries(&memory, &mapped);
        let image = Table::from_bytes(bytes.clone()).expect("reads");
        assert_same_entries(&mapped, &image);
        // Written again from the map: the same bytes.
        assert_eq!(mapped.to_bytes().unwrap(), bytes);

        let verified = mapped.verify(&mut |_| {}).expect("intact");
        assert_eq!(verified.crcs, memory.columns().len());
        assert_eq!(
            verified.bytes,
            memory.columns().map(|c| c.byte_len).sum::<u64>()
        );
        // One CRC per 4 KiB block: Euler's winning (2 blocks), plies and
        // best_move (16 each), moves (1); Flip's five 8-bit columns (16
        // each) and two 16-bit (32 each).
        let blocks = match puzzle {
            Puzzle::Euler => 2 + 16 + 16 + 1,
            Puzzle::Flip => 5 * 16 + 2 * 32,
        };
        assert_eq!(verified.blocks, blocks);
        assert_eq!(
            mapped
                .columns()
                .map(|c| c.blocks.unwrap().count)
                .sum::<u64>(),
            blocks
        );
        assert!(matches!(verified.entries, Checked::Embedded { .. }));
        assert!(verified.entries.is_complete());
        // A table in memory has no CRCs, but its entries are checked.
        let verified = memory.verify(&mut |_| {}).expect("intact");
        assert_eq!((verified.crcs, verified.blocks), (0, 0));
        assert!(matches!(verified.entries, Checked::Embedded { .. }));
    }
    assert_eq!(dir.names(), ["euler-4x4.bin", "flip-4x4.bin"]);
}

#[test]
fn probes_of_the_exports_equal_the_built_in_tables() {
    let euler_table = Table::embedded(Puzzle::Euler);
    let flip_table = Table::from_bytes(Table::embedded(Puzzle::Flip).to_bytes().unwrap()).unwrap();
    let e = euler_table.as_euler().unwrap();
    let f = flip_table.as_flip().unwrap();
    assert!(!e.is_wdl_only());
    for bits in 0..=u16::MAX {
        let covered = u64::from(bits);
        let position = Position::from_bits(bits);
        let expected = euler::probe(position);
        let got = e.probe(covered).unwrap();
        assert_eq!(got.outcome, expected.outcome);
        assert_eq!(got.moves_left, Some(expected.moves_left));
        assert_eq!(
            got.best_move,
            expected.best_move.map(|m| u64::from(m.bits()))
        );
        let wins: Vec<u64> = euler::winning_moves(position)
            .map(|m| u64::from(m.bits()))
            .collect();
        assert_eq!(e.winning_moves(covered).unwrap(), wins);
        let values = e.move_values(covered).unwrap();
        assert_eq!(values.len(), euler::legal_moves(position).count());
        for v in &values {
            let after = euler::probe(
                position
                    .play(euler::Move::from_bits(v.mask as u16).unwrap())
                    .unwrap(),
            );
            assert_eq!(v.outcome == Outcome::Win, after.outcome == Outcome::Loss);
            assert_eq!(v.moves_left, Some(after.moves_left + 1));
        }

        let board = Board::from_bits(bits);
        assert_eq!(f.rounds(covered).unwrap(), flip::rounds(board));
        let solution = flip::solve(board);
        let got = f.solve(covered).unwrap();
        assert_eq!(got.is_some(), solution.is_some());
        if let (Some(g), Some(s)) = (got, solution) {
            assert_eq!(
                (g.colour, g.rounds, g.presses, g.optimal_sets),
                (
                    s.colour,
                    s.rounds,
                    u64::from(s.presses.bits()),
                    u16::from(s.optimal_sets)
                )
            );
        }
        for colour in Colour::ALL {
            let route = flip::route(board, colour);
            let got = f.route(covered, colour).unwrap();
            assert_eq!(
                got.map(|r| (r.colour, r.rounds, r.presses, r.optimal_sets)),
                route.map(|r| (
                    r.colour,
                    r.rounds,
                    u64::from(r.presses.bits()),
                    r.optimal_sets
                ))
            );
        }
    }
}

#[test]
fn the_oracles_agree_with_the_built_in_4x4_tables() {
    // Checks the test-local oracles themselves.
    let s = Shape::SQUARE4;
    let e = Euler::solve(s);
    let f = Flip::solve(s);
    for bits in 0..=u16::MAX {
        let i = usize::from(bits);
        let entry = euler::probe(Position::from_bits(bits));
        assert_eq!(e.wins[i], entry.outcome.is_win());
        assert_eq!(e.plies[i], entry.moves_left);
        let best = entry.best_move.map_or(255, |m| {
            e.order
                .iter()
                .position(|&x| x == u64::from(m.bits()))
                .unwrap() as u8
        });
        assert_eq!(e.best[i], best);
        for colour in Colour::ALL {
            let route = flip::route(Board::from_bits(bits), colour);
            let c = colour.index();
            assert_eq!(f.rounds[c][i], route.map_or(255, |r| r.rounds));
            assert_eq!(f.sets[c][i], route.map_or(0, |r| r.optimal_sets));
        }
    }
}

#[test]
fn every_small_shape_round_trips_probes_and_verifies() {
    for s in shapes(12) {
        let euler_oracle = Euler::solve(s);
        let flip_oracle = Flip::solve(s);
        let full = Table::from_euler(s, euler_oracle.columns(false)).unwrap();
        let wdl = Table::from_euler(s, euler_oracle.columns(true)).unwrap();
        let flip_table = Table::from_flip(s, flip_oracle.columns()).unwrap();
        assert!(wdl.is_wdl_only() && !full.is_wdl_only());
        let names: Vec<_> = wdl.columns().map(|c| c.name.clone()).collect();
        assert_eq!(names, ["winning", "moves"]);
        for table in [&full, &wdl, &flip_table] {
            let read = Table::from_bytes(table.to_bytes().unwrap()).unwrap();
            assert_same_entries(table, &read);
            let v = read
                .verify(&mut |_| {})
                .unwrap_or_else(|e| panic!("{s} {}: {e}", table.puzzle()));
            assert_eq!(
                v.entries,
                Checked::Consistent {
                    checked: 1 << s.cells(),
                    positions: 1 << s.cells()
                }
            );
        }
        let (e, w, f) = (
            full.as_euler().unwrap(),
            wdl.as_euler().unwrap(),
            flip_table.as_flip().unwrap(),
        );
        for p in 0..1u64 << s.cells() {
            let i = p as usize;
            let outcome = if euler_oracle.wins[i] {
                Outcome::Win
            } else {
                Outcome::Loss
            };
            let entry = e.probe(p).unwrap();
            assert_eq!(entry.outcome, outcome);
            assert_eq!(entry.moves_left, Some(euler_oracle.plies[i]));
            let best =
                (p != s.full()).then(|| euler_oracle.order[usize::from(euler_oracle.best[i])]);
            assert_eq!(entry.best_move, best);
            let wdl_entry = w.probe(p).unwrap();
            assert_eq!(
                (wdl_entry.outcome, wdl_entry.moves_left, wdl_entry.best_move),
                (outcome, None, None)
            );
            // Winning moves from the WDL table, by probing each child.
            let oracle_wins: Vec<u64> = euler_oracle
                .order
                .iter()
                .copied()
                .filter(|&m| m & p == 0 && !euler_oracle.wins[(p | m) as usize])
                .collect();
            assert_eq!(w.winning_moves(p).unwrap(), oracle_wins);
            assert_eq!(e.winning_moves(p).unwrap(), oracle_wins);
            for (v, wv) in e
                .move_values(p)
                .unwrap()
                .iter()
                .zip(w.move_values(p).unwrap())
            {
                assert_eq!((v.mask, v.outcome), (wv.mask, wv.outcome));
                assert_eq!(wv.moves_left, None);
                assert_eq!(
                    v.moves_left,
                    Some(euler_oracle.plies[(p | v.mask) as usize] + 1)
                );
            }

            let (rw, rb) = (flip_oracle.rounds[0][i], flip_oracle.rounds[1][i]);
            let closest = rw.min(rb);
            assert_eq!(f.rounds(p).unwrap(), (closest != 255).then_some(closest));
            for colour in Colour::ALL {
                let c = colour.index();
                let route = f.route(p, colour).unwrap();
                let r = flip_oracle.rounds[c][i];
                assert_eq!(
                    route.map(|r| (r.rounds, r.presses, r.optimal_sets)),
                    (r != 255).then_some((r, flip_oracle.presses[c][i], flip_oracle.sets[c][i]))
                );
            }
            let solution = f.solve(p).unwrap();
            match solution {
                None => assert_eq!((rw, rb), (255, 255)),
                Some(sol) => {
                    let colour = if rb < rw {
                        Colour::Black
                    } else {
                        Colour::White
                    };
                    let sets = if rw == rb {
                        u16::from(flip_oracle.sets[0][i]) + u16::from(flip_oracle.sets[1][i])
                    } else {
                        u16::from(flip_oracle.sets[colour.index()][i])
                    };
                    assert_eq!(
                        (sol.colour, sol.rounds, sol.optimal_sets),
                        (colour, closest, sets)
                    );
                    assert_eq!(sol.presses, flip_oracle.presses[colour.index()][i]);
                }
            }
        }
        // Out of range, and the other puzzle: errors, not panics.
        let outside = 1u64 << s.cells();
        assert!(matches!(
            e.probe(outside),
            Err(TableError::OutOfRange { board, shape }) if board == outside && shape == s
        ));
        assert!(w.winning_moves(u64::MAX).is_err());
        assert!(f.rounds(outside).is_err() && f.solve(u64::MAX).is_err());
        assert!(matches!(
            full.as_flip(),
            Err(TableError::WrongPuzzle {
                expected: Puzzle::Flip,
                found: Puzzle::Euler
            })
        ));
        assert!(flip_table.as_euler().is_err());
    }
}

/// `result` with its error in full, as text: [`TableError`] holds I/O
/// errors, so it has no `==`, and its `Debug` form is all of it.
fn debug<T>(result: Result<T, TableError>) -> Result<T, String> {
    result.map_err(|e| format!("{e:?}"))
}

#[test]
fn every_truncation_is_refused_at_open() {
    let dir = TempDir::new("truncated");
    let s = shape(2, 3);
    let (euler_table, flip_table) = oracle_tables(s);
    for table in [euler_table, flip_table] {
        let bytes = table.to_bytes().unwrap();
        let path = dir.join("cut.bin");
        for len in 0..bytes.len() {
            // From files, every length of the Euler table; from bytes, all.
            if table.puzzle() == Puzzle::Euler {
                std::fs::write(&path, &bytes[..len]).unwrap();
                let opened = Table::open(&path);
                assert!(
                    matches!(opened, Err(TableError::Truncated { len: l, .. }) if l == len as u64),
                    "{} cut to {len}: {opened:?}",
                    table.puzzle()
                );
            }
            assert!(matches!(
                Table::from_bytes(bytes[..len].to_vec()),
                Err(TableError::Truncated { .. })
            ));
        }
        // One byte too many is refused too.
        let mut long = bytes.clone();
        long.push(0);
        assert!(matches!(
            Table::from_bytes(long),
            Err(TableError::TrailingBytes { .. })
        ));
    }
    // A few cuts of a large file: the 4x4 Flip export (576 KiB).
    let bytes = Table::embedded(Puzzle::Flip).to_bytes().unwrap();
    let path = dir.join("flip-cut.bin");
    for len in [
        3,
        100,
        1_000,
        65_600,
        300_000,
        bytes.len() - 64,
        bytes.len() - 1,
    ] {
        std::fs::write(&path, &bytes[..len]).unwrap();
        let opened = Table::open(&path);
        assert!(
            matches!(opened, Err(TableError::Truncated { len: l, expected }) if l == len as u64 && expected > l),
            "cut to {len}: {opened:?}"
        );
    }
    let message = Table::open(&path).unwrap_err().to_string();
    assert_eq!(
        message,
        format!(
            "truncated file: {} bytes, the header says {}",
            bytes.len() - 1,
            bytes.len()
        )
    );
}

#[test]
fn every_damaged_byte_is_caught_by_open_or_verify() {
    let s = shape(2, 3);
    let (euler_table, flip_table) = oracle_tables(s);
    let wdl = Table::from_euler(s, Euler::solve(s).columns(true)).unwrap();
    for table in [euler_table, wdl, flip_table] {
        for version in [3, 2] {
            let bytes = table.to_bytes_version(version).unwrap();
            for at in 0..bytes.len() {
                for flip in [0x01u8, 0x80, 0xFF] {
                    let mut damaged = bytes.clone();
                    damaged[at] ^= flip;
                    let caught = match Table::from_bytes(damaged) {
                        Err(_) => true,
                        Ok(t) => t.verify(&mut |_| {}).is_err(),
                    };
                    assert!(
                        caught,
                        "{} version {version}: byte {at} ^ {flip:#x} not caught",
                        table.puzzle()
                    );
                }
            }
        }
    }
}

#[test]
fn changed_entries_with_fixed_crcs_are_caught_by_the_contents_check() {
    // With the CRCs recomputed, only the contents check can tell: on 4x4
    // against the built-in tables, on other shapes by the local equations
    // (complete on small shapes, so every single change is caught).
    let mut cases: Vec<(Table, bool)> = vec![
        (Table::embedded(Puzzle::Euler), true),
        (Table::embedded(Puzzle::Flip), true),
    ];
    for s in [shape(2, 3), shape(1, 5), shape(3, 3)] {
        let (e, f) = oracle_tables(s);
        cases.push((e, false));
        cases.push((f, false));
        cases.push((
            Table::from_euler(s, Euler::solve(s).columns(true)).unwrap(),
            false,
        ));
    }
    for (table, embedded) in cases {
        let bytes = table.to_bytes().unwrap();
        let header = decode(&bytes);
        for c in header.columns.iter().filter(|c| c.name != "moves") {
            // Every entry of columns of up to 64 entries, a spread of
            // larger ones (a few of the 4x4 ones, compared whole each
            // time); a few changes of each wide entry.
            let step = match (c.entries, embedded) {
                (0..=64, _) => 1,
                (n, true) => n / 6 + 1,
                (n, false) => n / 40 + 1,
            };
            for i in (0..c.entries).step_by(step as usize) {
                let deltas: &[u8] = match (c.width, embedded) {
                    (1, _) | (_, true) => &[1],
                    _ => &[1, 2, 0x80],
                };
                for &delta in deltas {
                    let mut damaged = bytes.clone();
                    let (byte, bit) = if c.width == 1 {
                        (c.offset + i / 8, i % 8)
                    } else {
                        (c.offset + i * u64::from(c.width / 8), 0)
                    };
                    damaged[byte as usize] ^= delta << bit;
                    reseal_columns(&mut damaged);
                    let t = Table::from_bytes(damaged).expect("the structure is intact");
                    let result = t.verify(&mut |_| {});
                    let ok = match (&result, embedded) {
                        (Err(TableError::Contents(e)), true) => e.column == c.name && e.index == i,
                        (Err(TableError::Inconsistent { .. }), false) => true,
                        _ => false,
                    };
                    assert!(
                        ok,
                        "{} {}: {} entry {i} ^ {delta:#x}: {result:?}",
                        table.puzzle(),
                        table.shape(),
                        c.name
                    );
                }
            }
        }
    }
}

#[test]
fn header_errors_are_named_at_open() {
    let s = shape(2, 3);
    let (euler_table, flip_table) = oracle_tables(s);
    let good = euler_table.to_bytes().unwrap();
    let read = |edit: &dyn Fn(&mut Vec<u8>), reseal: bool| {
        let mut b = good.clone();
        edit(&mut b);
        if reseal {
            reseal_header(&mut b);
        }
        Table::from_bytes(b)
    };
    // Magic and version come first, whatever the CRC.
    assert!(matches!(
        read(&|b| b[0] = b'X', false),
        Err(TableError::BadMagic { found }) if &found == b"XRDBASE\0"
    ));
    assert!(matches!(
        read(&|b| b[8] = 7, false),
        Err(TableError::Version(7))
    ));
    assert!(matches!(
        read(
            &|b| b[12..16].copy_from_slice(&(1u32 << 20).to_le_bytes()),
            false
        ),
        Err(TableError::HeaderTooLarge {
            len: 1_048_576,
            max: 65_536
        })
    ));
    // A header length past the file: truncated.
    assert!(matches!(
        read(
            &|b| b[12..16].copy_from_slice(&60_000u32.to_le_bytes()),
            false
        ),
        Err(TableError::Truncated {
            expected: 60_020,
            ..
        })
    ));
    // A changed header byte: the header CRC.
    assert!(matches!(
        read(&|b| b[30] ^= 4, false),
        Err(TableError::HeaderCrc { .. })
    ));
    // And a changed CRC.
    let crc_at = 16 + u32::from_le_bytes(good[12..16].try_into().unwrap()) as usize;
    assert!(matches!(
        read(&|b| b[crc_at] ^= 1, false),
        Err(TableError::HeaderCrc { .. })
    ));
    // With the CRC fixed, each field is named. Puzzle (bytes 24..29: "euler").
    assert!(matches!(
        read(&|b| b[24..29].copy_from_slice(b"chess"), true),
        Err(TableError::UnknownPuzzle(p)) if p == "chess"
    ));
    assert!(matches!(
        read(&|b| b[24..29].copy_from_slice(b"eul\xffr"), true),
        Err(TableError::HeaderDecode(_))
    ));
    // Rows and cols follow the puzzle.
    assert!(matches!(
        read(&|b| b[29] = 0, true),
        Err(TableError::BadShape {
            rows: 0,
            cols: 3,
            ..
        })
    ));
    assert!(matches!(
        read(
            &|b| {
                b[29] = 6;
                b[30] = 7;
            },
            true
        ),
        Err(TableError::BadShape {
            puzzle: Puzzle::Euler,
            rows: 6,
            cols: 7
        })
    ));
    // Another shape of the same size: the column lengths no longer fit.
    assert!(matches!(
        read(
            &|b| {
                b[29] = 3;
                b[30] = 2;
            },
            true
        ),
        Err(TableError::ColumnEntries { .. }) | Err(TableError::Moves { .. })
    ));
    // The file length (bytes 31..39).
    assert!(matches!(
        read(&|b| b[31] ^= 1, true),
        Err(TableError::Truncated { .. }) | Err(TableError::TrailingBytes { .. })
    ));
    // A column's width, entries, offset, length.
    let at = column_field(&good, "plies") + 8 + 5;
    assert!(matches!(
        read(&|b| b[at] = 16, true),
        Err(TableError::ColumnLength { .. })
    ));
    assert!(matches!(
        read(&|b| b[at] = 7, true),
        Err(TableError::BadWidth { width: 7, .. })
    ));
    // Narrower (so that it still fits before the next column).
    assert!(matches!(
        read(
            &|b| {
                b[at] = 1;
                b[at + 17] = 8;
            },
            true
        ),
        Err(TableError::ColumnWidth {
            width: 1,
            expected: 8,
            ..
        })
    ));
    assert!(matches!(
        read(
            &|b| {
                b[at + 1] = 32;
                b[at + 17] = 32;
            },
            true
        ),
        Err(TableError::ColumnEntries {
            entries: 32,
            expected: 64,
            ..
        })
    ));
    assert!(matches!(
        read(&|b| b[at + 9] += 1, true),
        Err(TableError::ColumnOffset { .. })
    ));
    assert!(matches!(
        read(&|b| b[at + 9] -= 64, true),
        Err(TableError::ColumnOffset { .. })
    ));
    // Longer: into its block-CRC array (version 3), or into the next
    // column (version 2), or past the end of the file.
    let r = read(&|b| b[at + 17] = 0x7F, true);
    assert!(
        matches!(&r, Err(TableError::BlockCrcsOffset { column, min, .. }) if column == "plies" && min % 64 == 0x3F),
        "{r:?}"
    );
    let v2 = euler_table.to_bytes_version(2).unwrap();
    let mut b = v2.clone();
    b[column_field(&v2, "plies") + 8 + 5 + 17] = 0x7F;
    reseal_header(&mut b);
    let r = Table::from_bytes(b);
    assert!(
        matches!(&r, Err(TableError::ColumnOffset { column, .. }) if column == "best_move"),
        "{r:?}"
    );
    // Version 3's block fields: the block length (a power of two from 64
    // to 1 MiB), the block-CRC array's offset (aligned, after the column,
    // its end within the file).
    for bad in [0u32, 32, 4095, 4097, 2 << 20] {
        let r = read(
            &|b| b[at + 29..at + 33].copy_from_slice(&bad.to_le_bytes()),
            true,
        );
        assert!(
            matches!(&r, Err(TableError::BlockLen { column, block_len }) if column == "plies" && *block_len == bad),
            "{bad}: {r:?}"
        );
    }
    // Another block length is fine as long as the array's length agrees:
    // one block of 1 MiB for the 64 bytes of `plies`, as one of 4 KiB; but
    // 64-byte blocks make two of the 120 bytes of `moves`, whose array
    // holds one CRC.
    let r = read(
        &|b| b[at + 29..at + 33].copy_from_slice(&(1u32 << 20).to_le_bytes()),
        true,
    );
    assert!(r.is_ok(), "{r:?}");
    let moves_block_len = column_field(&good, "moves") + 8 + 5 + 29;
    assert!(matches!(
        read(&|b| b[moves_block_len..moves_block_len + 4].copy_from_slice(&64u32.to_le_bytes()), true),
        Err(TableError::ColumnEnd { column, .. }) if column == "moves"
    ));
    let crcs_at = at + 33;
    let moved = |delta: i64| {
        move |b: &mut Vec<u8>| {
            let field = &mut b[crcs_at..crcs_at + 8];
            let offset = u64::from_le_bytes(field.try_into().unwrap());
            field.copy_from_slice(&offset.wrapping_add_signed(delta).to_le_bytes());
        }
    };
    assert!(matches!(
        read(&moved(1), true),
        Err(TableError::BlockCrcsOffset { column, .. }) if column == "plies"
    ));
    assert!(matches!(
        read(&moved(-64), true),
        Err(TableError::BlockCrcsOffset { column, .. }) if column == "plies"
    ));
    assert!(matches!(
        read(&|b| b[crcs_at + 2] = 1, true),
        Err(TableError::ColumnEnd { column, .. }) if column == "plies"
    ));
    let moves_len = column_field(&good, "moves") + 8 + 5 + 17;
    assert!(matches!(
        read(&|b| b[moves_len + 1] = 1, true),
        Err(TableError::ColumnEnd { column, .. }) if column == "moves"
    ));
    // A renamed column: missing, or a duplicate.
    let name = column_field(&good, "plies") + 8;
    assert!(matches!(
        read(&|b| b[name] = b'P', true),
        Err(TableError::MissingColumn(c)) if c == "plies"
    ));
    assert!(matches!(
        read(&|b| b[name..name + 5].copy_from_slice(b"moves"), true),
        Err(TableError::DuplicateColumn(c)) if c == "moves"
    ));
    // The best move without the plies.
    assert!(matches!(
        read(&|b| b[name..name + 5].copy_from_slice(b"other"), true),
        Err(TableError::MissingColumn(c)) if c == "plies"
    ));
    // A changed move in `moves` (its CRC fixed): refused at open.
    let h = decode(&good);
    let moves = h.columns.iter().find(|c| c.name == "moves").unwrap().offset as usize;
    let mut b = good.clone();
    b[moves] ^= 2;
    reseal_columns(&mut b);
    assert!(matches!(
        Table::from_bytes(b),
        Err(TableError::Moves {
            index: 0,
            found: 3,
            expected: 1,
            ..
        })
    ));
    // Flip's presses are 8 bits on 2x3, no fewer.
    let good = flip_table.to_bytes().unwrap();
    let at = column_field(&good, "presses_black") + 8 + 13;
    let mut b = good.clone();
    b[at] = 1;
    b[at + 17] = 8;
    reseal_header(&mut b);
    assert!(matches!(
        Table::from_bytes(b),
        Err(TableError::ColumnWidth {
            width: 1,
            expected: 8,
            ..
        })
    ));
    // Messages.
    assert_eq!(
        read(&|b| b[8] = 7, false).unwrap_err().to_string(),
        "unsupported version 7 (this library reads versions 1 to 6)"
    );
    assert_eq!(
        Table::from_bytes(b"GIF89a".to_vec())
            .unwrap_err()
            .to_string(),
        "bad magic: not a boardbase table file (expected \"BRDBASE\\x00\", found \"GIF89a\\x00\\x00\")"
    );
}

#[test]
fn unknown_columns_are_kept_and_skipped() {
    let s = shape(2, 2);
    let oracle = Euler::solve(s);
    let columns = oracle.columns(true);
    let table = Table::from_columns(
        Puzzle::Euler,
        s,
        [
            ("notes", ColumnData::U32(vec![7, 8, 9])),
            (
                "winning",
                ColumnData::Bits {
                    words: columns.winning,
                    entries: 16,
                },
            ),
            ("moves", ColumnData::U64(oracle.order.clone())),
            (
                "flags",
                ColumnData::Bits {
                    words: vec![u64::MAX],
                    entries: 5,
                },
            ),
        ],
    )
    .expect("unknown columns are allowed");
    let read = Table::from_bytes(table.to_bytes().unwrap()).unwrap();
    assert_same_entries(&table, &read);
    assert_eq!(read.get("notes", 2), Some(9));
    assert_eq!(read.get("flags", 4), Some(1));
    assert_eq!(read.get("flags", 5), None);
    // The unused bits of the 5-bit column were written as 0.
    let bytes = read.to_bytes().unwrap();
    let flags = decode(&bytes)
        .columns
        .into_iter()
        .find(|c| c.name == "flags")
        .unwrap();
    assert_eq!(bytes[flags.offset as usize], 0b1_1111);
    read.verify(&mut |_| {}).expect("intact");
}

#[test]
fn from_columns_checks_what_open_checks() {
    let s = shape(2, 3);
    let oracle = Euler::solve(s);
    let e = |wdl| oracle.columns(wdl);
    assert!(matches!(
        Table::from_euler(
            s,
            EulerColumns {
                winning: vec![0; 2],
                ..e(true)
            }
        ),
        Err(TableError::ColumnLength { .. })
    ));
    assert!(matches!(
        Table::from_euler(
            s,
            EulerColumns {
                full: Some((vec![0; 64], vec![0; 63])),
                ..e(true)
            }
        ),
        Err(TableError::ColumnEntries {
            entries: 63,
            expected: 64,
            ..
        })
    ));
    assert!(matches!(
        Table::from_euler(shape(6, 7), e(true)),
        Err(TableError::BadShape {
            rows: 6,
            cols: 7,
            ..
        })
    ));
    assert!(matches!(
        Table::from_columns(Puzzle::Euler, s, [("winning", ColumnData::U8(vec![0; 64]))]),
        Err(TableError::ColumnWidth {
            width: 8,
            expected: 1,
            ..
        })
    ));
    assert!(matches!(
        Table::from_columns(Puzzle::Euler, s, [("moves", ColumnData::U64(oracle.order.clone()))]),
        Err(TableError::MissingColumn(c)) if c == "winning"
    ));
    let mut wrong = oracle.order.clone();
    wrong.swap(0, 1);
    assert!(matches!(
        Table::from_columns(
            Puzzle::Euler,
            s,
            [
                (
                    "winning",
                    ColumnData::Bits {
                        words: e(true).winning,
                        entries: 64
                    }
                ),
                ("moves", ColumnData::U64(wrong)),
            ]
        ),
        Err(TableError::Moves { index: 0, .. })
    ));
    let f = Flip::solve(s).columns();
    assert!(matches!(
        Table::from_flip(
            s,
            boardbase::tablefile::FlipColumns {
                presses_white: ColumnData::U16(vec![0; 64]),
                ..f.clone()
            }
        ),
        Err(TableError::ColumnWidth {
            width: 16,
            expected: 8,
            ..
        })
    ));
    assert!(matches!(
        Table::from_flip(shape(5, 6), f),
        Err(TableError::BadShape {
            rows: 5,
            cols: 6,
            ..
        })
    ));
}

#[test]
fn version_1_files_are_read_and_verified() {
    let dir = TempDir::new("v1");
    for file in TableFile::all() {
        let path = dir.join(file.file_name());
        std::fs::write(&path, file.to_bytes()).unwrap();
        let table = Table::open(&path).expect("a version-1 file opens");
        assert_eq!((table.version(), table.shape()), (1, Shape::SQUARE4));
        assert!(!table.is_mapped());
        let v = table.verify(&mut |_| {}).expect("intact");
        assert_eq!(v.crcs, 1);
        assert!(v.entries.is_complete());
        // A damaged version-1 file is refused at open (its CRC covers all).
        let mut bytes = file.to_bytes();
        bytes[5_000] ^= 1;
        assert!(matches!(
            Table::from_bytes(bytes),
            Err(TableError::V1Crc { .. })
        ));
    }
    let euler_v1 = Table::from_bytes(TableFile::euler().to_bytes()).unwrap();
    let flip_v1 = Table::from_bytes(TableFile::flip().to_bytes()).unwrap();
    // Euler: converted to the version-2 columns, equal to the export's.
    assert_same_entries(&euler_v1, &Table::embedded(Puzzle::Euler));
    let (e, f) = (euler_v1.as_euler().unwrap(), flip_v1.as_flip().unwrap());
    for bits in 0..=u16::MAX {
        let b = u64::from(bits);
        let entry = euler::probe(Position::from_bits(bits));
        let got = e.probe(b).unwrap();
        assert_eq!(
            (got.outcome, got.moves_left),
            (entry.outcome, Some(entry.moves_left))
        );
        let board = Board::from_bits(bits);
        assert_eq!(f.rounds(b).unwrap(), flip::rounds(board));
        let s = flip::solve(board);
        assert_eq!(
            f.solve(b)
                .unwrap()
                .map(|g| (g.colour, g.rounds, g.presses, g.optimal_sets)),
            s.map(|s| (
                s.colour,
                s.rounds,
                u64::from(s.presses.bits()),
                u16::from(s.optimal_sets)
            ))
        );
    }
    // Flip's version 1 has no per-colour columns: said, not guessed, and
    // it cannot be written as version 3.
    assert!(matches!(
        f.route(0, Colour::White),
        Err(TableError::NoColumn("rounds_white"))
    ));
    assert!(matches!(flip_v1.to_bytes(), Err(TableError::MissingColumn(c)) if c == "rounds_white"));
    // Euler's converts and writes.
    let v3 = Table::from_bytes(euler_v1.to_bytes().unwrap()).unwrap();
    assert_eq!(v3.version(), 3);
    assert_same_entries(&v3, &euler_v1);
}

#[test]
fn a_failed_write_leaves_no_file_under_the_final_name() {
    let dir = TempDir::new("atomic");
    let table = Table::embedded(Puzzle::Flip);
    let path = dir.join("flip-4x4.bin");
    // A write interrupted half-way (the progress callback panics, as a
    // crash would stop it): no file, no temporary file.
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        table.write(&path, &mut |p| {
            if p.phase == Phase::Write && p.done > p.total / 2 {
                panic!("interrupted");
            }
        })
    }));
    assert!(result.is_err());
    assert_eq!(dir.names(), Vec::<String>::new());
    // An existing table is untouched by an interrupted rewrite.
    std::fs::write(&path, b"the old table").unwrap();
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        table.write(&path, &mut |p| {
            if p.phase == Phase::Write && p.done > 0 {
                panic!("interrupted");
            }
        })
    }));
    assert!(result.is_err());
    assert_eq!(std::fs::read(&path).unwrap(), b"the old table");
    assert_eq!(dir.names(), ["flip-4x4.bin"]);
    // The temporary file exists while writing, beside the target, under
    // another name.
    let mut seen = Vec::new();
    table
        .write(&path, &mut |p| {
            if p.phase == Phase::Write && seen.is_empty() {
                seen = names_in(&dir.0);
            }
        })
        .expect("written");
    assert_eq!(seen.len(), 2, "{seen:?}");
    assert!(
        seen.iter()
            .any(|n| n.starts_with(".flip-4x4.bin.") && n.ends_with(".tmp"))
    );
    assert_eq!(dir.names(), ["flip-4x4.bin"]);
    Table::open(&path)
        .expect("complete")
        .verify(&mut |_| {})
        .expect("intact");
    // The rename fails (the target is a directory): an error, and the
    // temporary file is gone.
    let blocked = dir.join("blocked.bin");
    std::fs::create_dir(&blocked).unwrap();
    assert!(matches!(
        table.write(&blocked, &mut |_| {}),
        Err(TableError::Io(_))
    ));
    assert_eq!(dir.names(), ["blocked.bin", "flip-4x4.bin"]);
    // A directory that does not exist.
    assert!(matches!(
        table.write(dir.join("missing/flip.bin"), &mut |_| {}),
        Err(TableError::Io(_))
    ));
}

#[test]
fn verify_reports_progress_and_samples_large_tables() {
    let s = shape(3, 4);
    let (table, _) = oracle_tables(s);
    let mut phases = Vec::new();
    let v = table
        .verify_with(VerifyOptions { sample: 100 }, &mut |p| {
            assert!(p.done <= p.total);
            if phases.last() != Some(&p.phase) {
                phases.push(p.phase);
            }
        })
        .unwrap();
    assert_eq!(
        v.entries,
        Checked::Consistent {
            checked: 100,
            positions: 4_096
        }
    );
    assert!(!v.entries.is_complete());
    assert_eq!(phases, [Phase::Contents]); // in memory: no CRCs
    assert_eq!(
        table
            .verify_with(VerifyOptions::all(), &mut |_| {})
            .unwrap()
            .entries,
        Checked::Consistent {
            checked: 4_096,
            positions: 4_096
        }
    );
    let read = Table::from_bytes(table.to_bytes().unwrap()).unwrap();
    let mut last = None;
    let mut phases = Vec::new();
    read.verify(&mut |p| {
        if phases.last() != Some(&p.phase) {
            phases.push(p.phase);
        }
        last = Some(p);
    })
    .unwrap();
    assert_eq!(phases, [Phase::Crc, Phase::Contents]);
    let last = last.unwrap();
    assert_eq!((last.done, last.total), (4_096, 4_096));
}

#[test]
fn damaged_entries_give_probe_errors_not_panics() {
    // A best move that is not legal, or past the move list, in a file whose
    // CRCs were fixed: probes say so.
    let s = shape(2, 3);
    let (table, flip_table) = oracle_tables(s);
    let bytes = table.to_bytes().unwrap();
    let h = decode(&bytes);
    let best = h
        .columns
        .iter()
        .find(|c| c.name == "best_move")
        .unwrap()
        .offset as usize;
    let mut b = bytes.clone();
    b[best] = 200; // position 0: index 200 of 15 moves
    b[best + 63] = 3; // the full board must have 255
    b[best + 1] = 0; // position 1 (cell 0 covered): move 0 covers it
    reseal_columns(&mut b);
    let t = Table::from_bytes(b).unwrap();
    let e = t.as_euler().unwrap();
    for p in [0, 63, 1] {
        assert!(
            matches!(
                e.probe(p),
                Err(TableError::BadEntry {
                    column: "best_move",
                    ..
                })
            ),
            "{p}"
        );
    }
    assert!(t.verify(&mut |_| {}).is_err());
    let bytes = flip_table.to_bytes().unwrap();
    let h = decode(&bytes);
    let c = h
        .columns
        .iter()
        .find(|c| c.name == "presses_white")
        .unwrap();
    let mut b = bytes.clone();
    b[c.offset as usize] = 0xC0; // bits 6 and 7: outside 2x3
    reseal_columns(&mut b);
    let t = Table::from_bytes(b).unwrap();
    assert!(matches!(
        t.as_flip().unwrap().route(0, Colour::White),
        Err(TableError::BadEntry {
            column: "presses_white",
            index: 0,
            value: 0xC0
        })
    ));
}

#[cfg(unix)]
/// A FIFO at `path`, made by mkfifo(1).
fn mkfifo(path: &std::path::Path) {
    let made = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(made.success(), "mkfifo {}", path.display());
}

#[cfg(unix)]
#[test]
fn a_pipe_is_written_in_place_and_a_link_keeps_pointing_at_the_new_file() {
    use std::os::unix::fs::FileTypeExt;
    let dir = TempDir::new("write-destinations");
    let table = Table::embedded(Puzzle::Flip);
    let expected = table.to_bytes().unwrap();

    // A FIFO (as `>(...)` or /dev/stdout on a pipe would be): the table goes
    // down the pipe, and the FIFO is still a FIFO, not a file put in its
    // place by a rename.
    let fifo = dir.join("pipe");
    mkfifo(&fifo);
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read(fifo).expect("read from the FIFO"))
    };
    let len = table.write(&fifo, &mut |_| {}).expect("written");
    // Checked first: had the FIFO been replaced, the reader would wait for
    // a writer for ever.
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
    assert_eq!(reader.join().unwrap(), expected);
    assert_eq!(len, expected.len() as u64);

    // A symbolic link to a file: the file is replaced, the link stays.
    let target = dir.join("real.bin");
    std::fs::write(&target, b"old").unwrap();
    let link = dir.join("link.bin");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    table.write(&link, &mut |_| {}).expect("written");
    assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
    assert_eq!(std::fs::read(&target).unwrap(), expected);
    assert_eq!(dir.names(), ["link.bin", "pipe", "real.bin"]);
}

/// The embedded 4×4 Euler table written as a version-3 file, its bytes, and
/// the hand-decoded column `name`.
fn euler_file(dir: &TempDir, name: &str) -> (std::path::PathBuf, Vec<u8>, RawColumn) {
    let path = dir.join("euler-4x4.bin");
    let bytes = Table::embedded(Puzzle::Euler).to_bytes().unwrap();
    std::fs::write(&path, &bytes).unwrap();
    let column = decode(&bytes)
        .columns
        .into_iter()
        .find(|c| c.name == name)
        .unwrap();
    (path, bytes, column)
}

#[test]
fn a_damaged_block_is_refused_at_probe_and_named_by_verify() {
    let dir = TempDir::new("damaged-block");
    // `plies`: 16 blocks of 4,096 positions. One byte of block 3 (position
    // 3 × 4,096 + 17) damaged.
    let (path, mut bytes, plies) = euler_file(&dir, "plies");
    let at = plies.offset as usize + 3 * 4096 + 17;
    let stored = u32::from_le_bytes(bytes[plies.array()][12..16].try_into().unwrap());
    bytes[at] ^= 0x20;
    let computed = crc32(&bytes[at - 17..at - 17 + 4096]);
    std::fs::write(&path, &bytes).unwrap();
    let (start, end) = (plies.offset + 3 * 4096, plies.offset + 4 * 4096);
    let refused = TableError::DamagedBlock {
        column: "plies",
        block: 3,
        start,
        end,
        array_damaged: false,
    };
    let mapped = Table::open(&path).expect("opens: no block is read");
    let image = Table::from_bytes(bytes.clone()).expect("reads");
    for table in [&mapped, &image] {
        let e = table.as_euler().unwrap();
        // Twice: a damaged block is refused every time, never remembered
        // as checked.
        for _ in 0..2 {
            for p in [3 * 4096 + 17, 3 * 4096, 4 * 4096 - 1] {
                assert_eq!(debug(e.probe(p)), Err(format!("{refused:?}")));
            }
        }
        assert_eq!(
            refused.to_string(),
            format!(
                "column \"plies\", block 3 (bytes {start}..{end} of the file) does not match its CRC: the table is damaged"
            )
        );
        // The position's other column, and the other blocks of `plies`,
        // answer right.
        let p = 3 * 4096 + 17;
        assert_eq!(
            debug(e.outcome(p)),
            Ok(euler::outcome(Position::from_bits(p as u16)))
        );
        for p in (0..=u16::MAX).filter(|p| p >> 12 != 3).step_by(7) {
            let want = euler::probe(Position::from_bits(p));
            let got = e.probe(u64::from(p)).unwrap();
            assert_eq!(
                (got.outcome, got.moves_left),
                (want.outcome, Some(want.moves_left)),
                "{p:#x}"
            );
        }
        // A position whose moves lead into the block: its move values are
        // refused too (each reads the block), its winning moves are not
        // (they read `winning` only).
        let p = 2 * 4096;
        assert_eq!(debug(e.move_values(p)), Err(format!("{refused:?}")));
        assert!(e.winning_moves(p).is_ok());
        // `get` never returns a damaged entry.
        assert_eq!(table.get("plies", 3 * 4096 + 17), None);
        assert_eq!(
            table.get("plies", 0),
            Some(u64::from(euler::probe(Position::EMPTY).moves_left))
        );
        // verify names the block, with both CRCs.
        let error = table.verify(&mut |_| {}).unwrap_err();
        assert!(
            matches!(
                &error,
                TableError::BlockCrc { column, block: 3, start: s, end: e, stored: st, computed: c }
                    if column == "plies" && (*s, *e, *st, *c) == (start, end, stored, computed)
            ),
            "{error:?}"
        );
        assert_eq!(
            error.to_string(),
            format!(
                "column \"plies\", block 3 (bytes {start}..{end}): CRC mismatch: stored {stored:#010x}, \
                 computed {computed:#010x} (the block is damaged)"
            )
        );
        // And the damage is not copied under new CRCs.
        assert!(matches!(
            table.to_bytes(),
            Err(TableError::BlockCrc { block: 3, .. })
        ));
    }

    // A 1-bit column (`winning`: 2 blocks of 32,768 positions), and a
    // 16-bit one (Flip's `presses_white`: 32 blocks of 2,048 boards).
    let (path, mut bytes, winning) = euler_file(&dir, "winning");
    bytes[winning.offset as usize + 4096 + 5] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    let t = Table::open(&path).unwrap();
    let e = t.as_euler().unwrap();
    assert!(matches!(
        e.outcome(40_000),
        Err(TableError::DamagedBlock {
            column: "winning",
            block: 1,
            array_damaged: false,
            ..
        })
    ));
    assert_eq!(
        debug(e.outcome(100)),
        Ok(euler::outcome(Position::from_bits(100)))
    );
    let bytes = Table::embedded(Puzzle::Flip).to_bytes().unwrap();
    let presses = decode(&bytes)
        .columns
        .into_iter()
        .find(|c| c.name == "presses_white")
        .unwrap();
    // A board of block 5 that can be made white: its press set is read.
    let board = (5 * 2048..6 * 2048)
        .find(|&b| flip::route(Board::from_bits(b), Colour::White).is_some())
        .map(u64::from)
        .expect("a board of block 5 reaches white");
    let mut damaged = bytes.clone();
    damaged[(presses.offset + 2 * board) as usize] ^= 0x80;
    let t = Table::from_bytes(damaged).unwrap();
    let f = t.as_flip().unwrap();
    assert!(matches!(
        f.route(board, Colour::White),
        Err(TableError::DamagedBlock {
            column: "presses_white",
            block: 5,
            start,
            end,
            array_damaged: false,
        }) if (start, end) == (presses.offset + 5 * 4096, presses.offset + 6 * 4096)
    ));
    assert!(f.solve(board).is_err());
    let b = Board::from_bits(board as u16);
    assert_eq!(debug(f.rounds(board)), Ok(flip::rounds(b)));
    assert_eq!(
        f.route(board, Colour::Black).unwrap().map(|r| r.rounds),
        flip::route(b, Colour::Black).map(|r| r.rounds)
    );
    let other = board + 2048;
    assert_eq!(
        f.route(other, Colour::White).unwrap().map(|r| r.presses),
        flip::route(Board::from_bits(other as u16), Colour::White)
            .map(|r| u64::from(r.presses.bits()))
    );
}

#[test]
fn damage_in_a_block_crc_array_is_refused_at_probe_and_by_verify() {
    let dir = TempDir::new("damaged-array");
    let (path, mut bytes, plies) = euler_file(&dir, "plies");
    // The CRC of block 2 of `plies` (positions 8,192 to 12,287).
    let array = plies.array();
    bytes[array.start + 2 * 4 + 1] ^= 0x10;
    std::fs::write(&path, &bytes).unwrap();
    let t = Table::open(&path).expect("opens");
    let e = t.as_euler().unwrap();
    let refused = TableError::DamagedBlock {
        column: "plies",
        block: 2,
        start: plies.offset + 2 * 4096,
        end: plies.offset + 3 * 4096,
        array_damaged: true,
    };
    assert_eq!(debug(e.probe(2 * 4096 + 9)), Err(format!("{refused:?}")));
    assert_eq!(
        refused.to_string(),
        format!(
            "column \"plies\", block 2 (bytes {}..{} of the file) cannot be checked: the column's \
             block-CRC array is damaged",
            plies.offset + 2 * 4096,
            plies.offset + 3 * 4096
        )
    );
    // The blocks whose CRCs are intact still answer (each matches its own).
    let want = euler::probe(Position::from_bits(4 * 4096 + 9));
    assert_eq!(
        e.probe(4 * 4096 + 9).unwrap().moves_left,
        Some(want.moves_left)
    );
    let error = t.verify(&mut |_| {}).unwrap_err();
    let computed = crc32(&bytes[array.clone()]);
    assert!(
        matches!(
            &error,
            TableError::BlockCrcs { column, start, end, stored, computed: c }
                if column == "plies"
                    && (*start, *end) == (array.start as u64, array.end as u64)
                    && *stored == plies.crc
                    && *c == computed
        ),
        "{error:?}"
    );
    assert_eq!(
        error.to_string(),
        format!(
            "column \"plies\": its block-CRC array (bytes {}..{}) does not match its CRC: stored {:#010x}, \
             computed {computed:#010x} (the array is damaged)",
            array.start, array.end, plies.crc
        )
    );
    assert!(matches!(t.to_bytes(), Err(TableError::BlockCrcs { .. })));
}

#[test]
fn version_2_files_are_still_read_answered_and_verified() {
    let dir = TempDir::new("version-2");
    let s = shape(3, 3);
    let (euler_table, flip_table) = oracle_tables(s);
    for memory in [
        Table::embedded(Puzzle::Euler),
        Table::embedded(Puzzle::Flip),
        euler_table,
        flip_table,
    ] {
        let path = dir.join(memory.file_name());
        let v2 = memory.to_bytes_version(2).unwrap();
        std::fs::write(&path, &v2).unwrap();
        let mapped = Table::open(&path).expect("a version-2 file opens");
        assert!(mapped.is_mapped());
        assert_eq!((mapped.version(), mapped.file_len()), (2, v2.len() as u64));
        assert!(
            mapped
                .columns()
                .all(|c| c.blocks.is_none() && c.crc.is_some())
        );
        assert_same_entries(&memory, &mapped);
        let v = mapped.verify(&mut |_| {}).expect("intact");
        assert_eq!((v.crcs, v.blocks), (memory.columns().len(), 0));
        assert!(v.entries.is_complete());
        assert_eq!(
            mapped.verify_crcs(&mut |_| {}).unwrap(),
            (memory.columns().len(), v.bytes)
        );
        // Written again: version 3, the bytes of the table in memory.
        assert_eq!(mapped.to_bytes().unwrap(), memory.to_bytes().unwrap());
        // A damaged column: verify names it, and it is not copied.
        let first = mapped.columns().next().unwrap().clone();
        let mut damaged = v2.clone();
        damaged[first.offset.unwrap() as usize + 1] ^= 1;
        let t = Table::from_bytes(damaged).unwrap();
        for r in [t.verify(&mut |_| {}).map(drop), t.to_bytes().map(drop)] {
            assert!(
                matches!(&r, Err(TableError::ColumnCrc { column, .. }) if *column == first.name),
                "{r:?}"
            );
        }
    }
    // Probes of a version-2 file answer as the built-in tables.
    let t = Table::from_bytes(Table::embedded(Puzzle::Euler).to_bytes_version(2).unwrap()).unwrap();
    let e = t.as_euler().unwrap();
    for bits in (0..=u16::MAX).step_by(13) {
        let want = euler::probe(Position::from_bits(bits));
        let got = e.probe(u64::from(bits)).unwrap();
        assert_eq!(
            (got.outcome, got.moves_left),
            (want.outcome, Some(want.moves_left))
        );
    }
    // Only versions 2 and 3 are written.
    assert!(matches!(
        Table::embedded(Puzzle::Euler).to_bytes_version(1),
        Err(TableError::Version(1))
    ));
}

#[test]
fn a_file_with_other_blocks_is_read_and_written_with_4_kib_blocks() {
    // A writer may choose another block length: 64 bytes for `plies` of
    // 4×4 (1,024 blocks), its block CRCs and the array's CRC made by hand.
    let table = Table::embedded(Puzzle::Euler);
    let bytes = table.to_bytes().unwrap();
    let h = decode(&bytes);
    let c = h.columns.iter().find(|c| c.name == "moves").unwrap();
    // `moves` (384 bytes) is last: its array can grow at the end of the file.
    let mut b = bytes[..c.block_crcs_offset as usize].to_vec();
    let array: Vec<u8> = bytes[c.data()]
        .chunks(64)
        .flat_map(|block| crc32(block).to_le_bytes())
        .collect();
    b.extend_from_slice(&array);
    let field = column_field(&b, "moves") + 8 + 5;
    b[field + 25..field + 29].copy_from_slice(&crc32(&array).to_le_bytes());
    b[field + 29..field + 33].copy_from_slice(&64u32.to_le_bytes());
    let file_len = b.len() as u64;
    b[31..39].copy_from_slice(&file_len.to_le_bytes());
    reseal_header(&mut b);
    let read = Table::from_bytes(b).expect("64-byte blocks are read");
    assert_eq!(
        read.column("moves")
            .unwrap()
            .blocks
            .map(|b| (b.block_len, b.count)),
        Some((64, 6))
    );
    let v = read.verify(&mut |_| {}).expect("intact");
    assert_eq!(v.blocks, 2 + 16 + 16 + 6);
    assert_same_entries(&table, &read);
    // Written again with 4 KiB blocks: the bytes of the table in memory.
    assert_eq!(read.to_bytes().unwrap(), bytes);
}

#[test]
fn blocks_are_checked_from_many_threads_at_once() {
    let dir = TempDir::new("threads");
    let (path, _, _) = euler_file(&dir, "plies");
    let table = Table::open(&path).unwrap();
    std::thread::scope(|scope| {
        for t in 0..4u16 {
            let table = &table;
            scope.spawn(move || {
                let e = table.as_euler().unwrap();
                // Each thread in its own order, so that they meet on blocks.
                for i in 0..=u16::MAX {
                    let bits = i.wrapping_mul(2 * t + 1).wrapping_add(t * 4099);
                    let want = euler::probe(Position::from_bits(bits));
                    let got = e.probe(u64::from(bits)).unwrap();
                    assert_eq!(
                        (got.outcome, got.moves_left),
                        (want.outcome, Some(want.moves_left))
                    );
                }
            });
        }
    });
    // After the probes, verify still checks every block.
    assert_eq!(table.verify(&mut |_| {}).unwrap().blocks, 35);
}
