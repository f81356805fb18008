//! [`Table::verify`]: every CRC (version 3: every block's and each block-CRC
//! array's; version 2: each column's) and the padding, then the entries:
//! against the embedded tables for 4×4, by the rules' local equations for
//! other shapes.

use boardbase_tables::classes::Classes;
use boardbase_tables::flip::press_masks;
use boardbase_tables::shape::Shape;

use rayon::prelude::*;
use std::sync::atomic::Ordering;

use super::index::CLASSES;
use super::v1::TableFile;
use super::{
    ColumnRef, ContentsError, Data, Layout, NO_MOVE, Phase, Progress, Puzzle, RefData, Storage,
    Subject, Table, TableError, UNREACHABLE, format, read_entry,
};

/// Positions (or boards) [`Table::verify`] checks by default on shapes
/// other than 4×4: all of them up to 2^20, that many spread over the table
/// above.
pub const DEFAULT_SAMPLE: u64 = 1 << 20;

/// How thoroughly [`Table::verify_with`] checks entries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VerifyOptions {
    /// On shapes other than 4×4, the positions (or boards) whose local
    /// equations are checked: all of them when the table has at most this
    /// many, else this many spread pseudo-randomly (always the empty and
    /// the full board). Default [`DEFAULT_SAMPLE`]; `u64::MAX`
    /// ([`VerifyOptions::all`]) checks every position of any table.
    pub sample: u64,
}

impl VerifyOptions {
    /// Every position of the table checked, however many there are: on
    /// every core, about three minutes for the 2^30 positions of a 5×6
    /// Euler table on two cores (see `docs/performance.md`).
    pub fn all() -> VerifyOptions {
        VerifyOptions { sample: u64::MAX }
    }
}

impl Default for VerifyOptions {
    fn default() -> Self {
        VerifyOptions {
            sample: DEFAULT_SAMPLE,
        }
    }
}

/// What [`Table::verify`] checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verified {
    /// Columns whose CRC was checked: in version 3 the CRC of each column's
    /// block-CRC array, in version 2 that of each column (for a version-1
    /// file: 1, the file's CRC; 0 for a table built in memory).
    pub crcs: usize,
    /// Blocks whose CRC was checked (version 3; 0 for the other versions).
    pub blocks: u64,
    /// Bytes the CRCs covered: the columns' bytes (the whole file for
    /// version 1).
    pub bytes: u64,
    /// How the entries were checked.
    pub entries: Checked,
}

/// How [`Table::verify`] checked the entries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Checked {
    /// Every entry of every known column equals the embedded 4×4 tables.
    Embedded {
        /// Entries compared.
        entries: u64,
    },
    /// The rules' local equations hold at `checked` of the `positions`
    /// positions (or boards): each entry agrees with the entries of the
    /// positions one move away. When every position is checked this proves
    /// the table right; otherwise it is a spot check.
    Consistent {
        /// Positions checked (entries, each a class of positions, in a
        /// table of version 5).
        checked: u64,
        /// Positions in the table (entries in version 5).
        positions: u64,
    },
}

impl Checked {
    /// Whether every entry was checked.
    pub fn is_complete(&self) -> bool {
        match *self {
            Checked::Embedded { .. } => true,
            Checked::Consistent { checked, positions } => checked == positions,
        }
    }
}

/// The value the embedded 4×4 tables give for entry `i` of a version-2 or
/// 3 column, `None` for a column they do not have (or `i` past its end).
fn embedded_value(puzzle: Puzzle, column: &str, i: u64) -> Option<u64> {
    use crate::euler::{self, Move, Position};
    use crate::flip::{self, Board, Colour};

    if column == "moves" {
        return (puzzle == Puzzle::Euler)
            .then(|| {
                Move::ALL
                    .get(usize::try_from(i).ok()?)
                    .map(|m| u64::from(m.bits()))
            })
            .flatten();
    }
    let bits = u16::try_from(i).ok()?;
    let route = |colour| flip::route(Board::from_bits(bits), colour);
    let entry = || euler::probe(Position::from_bits(bits));
    Some(match (puzzle, column) {
        (Puzzle::Euler, "winning") => u64::from(euler::outcome(Position::from_bits(bits)).is_win()),
        (Puzzle::Euler, "plies") => u64::from(entry().moves_left),
        (Puzzle::Euler, "best_move") => entry().best_move.map_or(u64::from(NO_MOVE), |m| {
            Move::ALL
                .iter()
                .position(|&x| x == m)
                .map_or(u64::MAX, |k| k as u64)
        }),
        (Puzzle::Flip, "rounds") => {
            u64::from(flip::rounds(Board::from_bits(bits)).unwrap_or(UNREACHABLE))
        }
        (Puzzle::Flip, name) => {
            let (field, colour) = name.rsplit_once('_')?;
            let colour = match colour {
                "white" => Colour::White,
                "black" => Colour::Black,
                _ => return None,
            };
            let r = route(colour);
            match field {
                "rounds" => r.map_or(u64::from(UNREACHABLE), |r| u64::from(r.rounds)),
                "presses" => r.map_or(0, |r| u64::from(r.presses.bits())),
                "optimal_sets" => r.map_or(0, |r| u64::from(r.optimal_sets)),
                _ => return None,
            }
        }
        _ => return None,
    })
}

/// What the CRC step of [`Table::verify_with`] checked.
struct CrcsChecked {
    /// Column CRCs (version 2) or block-CRC array CRCs (version 3).
    crcs: usize,
    /// Block CRCs (version 3).
    blocks: u64,
    /// The columns' bytes.
    bytes: u64,
}

/// How often (in positions) the contents check reports progress.
const PROGRESS_EVERY: u64 = 1 << 12;

/// Positions the contents check hands the threads at a time, reporting
/// progress after each batch: a few milliseconds of work.
const BATCH: u64 = 1 << 16;

/// The fewest positions a thread takes at once from a batch, so that the
/// work is split into pieces worth a task.
const MIN_PER_TASK: usize = 1 << 10;

/// Reports `done` of `total` entries of the contents check, every
/// [`PROGRESS_EVERY`] and at the end.
fn report_contents(done: u64, total: u64, progress: &mut dyn FnMut(Progress)) {
    if done.is_multiple_of(PROGRESS_EVERY) || done == total {
        progress(Progress {
            phase: Phase::Contents,
            done,
            total,
        });
    }
}

/// The positions (or, in version 5, entries) the contents check visits:
/// all of them, or a deterministic pseudo-random sample that starts with
/// the first and the last (the empty and the full board, in either order of
/// entries).
struct Sample {
    states: u64,
    count: u64,
    next: u64,
    rng: u64,
}

impl Sample {
    fn new(states: u64, sample: u64) -> Sample {
        Sample {
            states,
            count: states.min(sample.max(2)),
            next: 0,
            rng: 0x9E37_79B9_7F4A_7C15,
        }
    }
}

impl Iterator for Sample {
    type Item = u64;

    fn next(&mut self) -> Option<u64> {
        if self.next >= self.count {
            return None;
        }
        let i = self.next;
        self.next += 1;
        if self.count == self.states {
            return Some(i);
        }
        Some(match i {
            0 => 0,
            1 => self.states - 1,
            _ => {
                // splitmix64
                self.rng = self.rng.wrapping_add(0x9E37_79B9_7F4A_7C15);
                let mut z = self.rng;
                z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
                // A power of two of positions, else any count of entries.
                let z = z ^ (z >> 31);
                if self.states.is_power_of_two() {
                    z & (self.states - 1)
                } else {
                    z % self.states
                }
            }
        })
    }
}

/// A table's columns as the contents checks read them.
struct Views<'a> {
    table: &'a Table,
    columns: Vec<Option<ColumnRef<'a>>>,
}

impl Views<'_> {
    /// Entry `i` of a column the layout found (present by construction).
    #[inline]
    fn must(&self, column: usize, i: u64) -> Result<u64, TableError> {
        self.columns
            .get(column)
            .copied()
            .flatten()
            .and_then(|c| c.get(i).ok())
            .ok_or_else(|| self.table.inconsistent(column, i, "cannot be read".into()))
    }
}

/// A column of bytes: its index and entries.
type ByteColumn<'a> = (usize, &'a [u8]);

/// The columns of an Euler table, as [`Table::check_euler`] reads them.
struct EulerColumns<'a> {
    /// The win/loss column's index (it is read through a function).
    winning: usize,
    /// The moves-left and best-move columns: index and entries, each (no
    /// best moves by class: they are found from the moves left).
    depth: Option<(usize, &'a [u8], Option<ByteColumn<'a>>)>,
    /// The move masks.
    moves: &'a [u64],
    /// The full board.
    all: u64,
}

impl EulerColumns<'_> {
    /// Whether position `p`'s entries follow from the positions one move
    /// away, `win` reading the win/loss bit of a position and `entry`
    /// giving a position's entry in the byte columns.
    #[inline]
    fn check(
        &self,
        table: &Table,
        p: u64,
        win: impl Fn(u64) -> Option<bool>,
        entry: impl Fn(u64) -> u64,
    ) -> Result<(), TableError> {
        let winning = self.winning;
        let unreadable =
            |column: usize, i: u64| table.inconsistent(column, i, "cannot be read".into());
        let won = |q: u64| win(q).ok_or_else(|| unreadable(winning, q));
        let byte = |column: usize, bytes: &[u8], q: u64| {
            let i = entry(q);
            read_entry(bytes, 8, i).ok_or_else(|| unreadable(column, i))
        };
        let is_win = won(p)?;
        if p == self.all {
            if !is_win {
                return Err(table.inconsistent(winning, p, "the full board must be won".into()));
            }
            if let Some((plies, plies_bytes, best)) = self.depth {
                let d = byte(plies, plies_bytes, p)?;
                if d != 0 {
                    return Err(table.inconsistent(
                        plies,
                        entry(p),
                        format!("the full board has 0 moves left, not {d}"),
                    ));
                }
                let Some((best, best_bytes)) = best else {
                    return Ok(());
                };
                let b = byte(best, best_bytes, p)?;
                if b != u64::from(NO_MOVE) {
                    return Err(table.inconsistent(
                        best,
                        p,
                        format!("the full board has no best move ({NO_MOVE}), not {b}"),
                    ));
                }
            }
            return Ok(());
        }
        // The first losing child, the first losing child with the fewest
        // plies, and the first child with the most plies.
        let mut first_loss: Option<(usize, u64)> = None;
        let mut fastest: Option<(usize, u64)> = None;
        let mut longest: Option<(usize, u64)> = None;
        for (k, &m) in self.moves.iter().enumerate() {
            if m & p != 0 {
                continue;
            }
            let child = p | m;
            let child_wins = won(child)?;
            if !child_wins && first_loss.is_none() {
                first_loss = Some((k, child));
            }
            if let Some((plies, plies_bytes, _)) = self.depth {
                let d = byte(plies, plies_bytes, child)?;
                if !child_wins && fastest.is_none_or(|(_, best)| d < best) {
                    fastest = Some((k, d));
                }
                if longest.is_none_or(|(_, best)| d > best) {
                    longest = Some((k, d));
                }
            } else if first_loss.is_some() {
                // Win/loss only: one losing child settles it.
                break;
            }
        }
        match (is_win, first_loss) {
            (true, None) => {
                return Err(table.inconsistent(
                    winning,
                    p,
                    "stored as won, but no move leaves a lost position".into(),
                ));
            }
            (false, Some((k, child))) => {
                return Err(table.inconsistent(
                    winning,
                    p,
                    format!(
                        "stored as lost, but move {k} ({:#x}) leaves {child:#x}, which is lost",
                        self.moves[k]
                    ),
                ));
            }
            _ => {}
        }
        if let Some((plies, plies_bytes, best)) = self.depth {
            let Some((k, d)) = (if is_win { fastest } else { longest }) else {
                return Err(table.inconsistent(
                    best.map_or(plies, |(best, _)| best),
                    entry(p),
                    "an open position without a legal move".into(),
                ));
            };
            let stored_d = byte(plies, plies_bytes, p)?;
            if stored_d != d + 1 {
                return Err(table.inconsistent(
                    plies,
                    entry(p),
                    format!(
                        "{stored_d} moves left, but its best move leads to a position with {d}, so {}",
                        d + 1
                    ),
                ));
            }
            let Some((best, best_bytes)) = best else {
                return Ok(());
            };
            let stored_k = byte(best, best_bytes, p)?;
            if stored_k != k as u64 {
                return Err(table.inconsistent(
                    best,
                    p,
                    format!("best move {stored_k}, but the first best move is {k}"),
                ));
            }
        }
        Ok(())
    }
}

impl<I: Subject> Table<I> {
    /// Step 1 of [`Table::verify_with`] alone: every CRC (version 3: each
    /// column's block-CRC array against the header's CRC, then every block
    /// against its CRC; version 2: each column against the header's CRC),
    /// and the zero padding ([`Phase::Crc`]); the number of CRCs checked
    /// (version 3: blocks; version 2: columns) and the bytes read. A
    /// version-1 file is read whole as [`TableFile::read`] does, which
    /// checks its CRC; a table in memory has none to check.
    pub fn verify_crcs(
        &self,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<(usize, u64), TableError> {
        if self.version == 1 {
            TableFile::read(self.storage.bytes())?;
            return Ok((1, self.file_len));
        }
        let checked = self.check_crcs(progress)?;
        let count = if self.version == format::VERSION_2 {
            checked.crcs
        } else {
            usize::try_from(checked.blocks).unwrap_or(usize::MAX)
        };
        Ok((count, checked.bytes))
    }

    /// Step 1 of [`Table::verify_with`]: the CRCs and the padding. In
    /// version 3 a column's block-CRC array is checked before its blocks,
    /// so that a damaged array is named as such rather than as the blocks
    /// whose CRCs it garbles; every block found intact is marked so, and
    /// the probes after a verify check none again.
    fn check_crcs(&self, progress: &mut dyn FnMut(Progress)) -> Result<CrcsChecked, TableError> {
        let file = self.storage.bytes();
        let total: u64 = self
            .columns
            .iter()
            .filter(|c| matches!(c.data, Data::File { .. }))
            .map(|c| c.info.byte_len)
            .sum();
        let mut checked = CrcsChecked {
            crcs: 0,
            blocks: 0,
            bytes: total,
        };
        let mut done = 0u64;
        // The end of the header (checked at open) is where padding starts.
        let mut end = match self.storage {
            Storage::Memory => 0,
            _ => format::PRELUDE_LEN + format::le_u32(file, 12) as usize + format::CRC_LEN,
        };
        let zeros = |from: usize, to: usize| match file.get(from..to) {
            Some(gap) => match gap.iter().position(|&b| b != 0) {
                Some(at) => Err(TableError::Padding {
                    offset: (from + at) as u64,
                }),
                None => Ok(()),
            },
            None => Ok(()),
        };
        for (i, c) in self.columns.iter().enumerate() {
            let Data::File { start, len } = c.data else {
                continue;
            };
            zeros(end, start)?;
            end = start + len;
            if let Some(blocks) = c.blocks.as_ref().filter(|b| b.packed.is_some()) {
                end = self.check_packed(i, blocks, &mut done, total, progress)?;
                checked.crcs += 1;
                checked.blocks += blocks.count;
                continue;
            }
            let data = &file[start..end];
            match (&c.blocks, self.block_crcs(i)) {
                (Some(blocks), Some(array)) => {
                    let stored = c.info.crc.unwrap_or(0);
                    let computed = crc32fast::hash(array);
                    let array_start = blocks.crcs as u64;
                    if stored != computed {
                        return Err(TableError::BlockCrcs {
                            column: c.info.name.clone(),
                            start: array_start,
                            end: array_start + array.len() as u64,
                            stored,
                            computed,
                        });
                    }
                    checked.crcs += 1;
                    let block_len = 1usize << blocks.shift;
                    let marks = blocks.checked();
                    // Progress about every MiB, as the other versions'.
                    let per_report = (1usize << 20).div_ceil(block_len).max(1);
                    for (k, (bytes, stored)) in data
                        .chunks(block_len)
                        .zip(array.chunks_exact(4))
                        .enumerate()
                    {
                        let stored =
                            u32::from_le_bytes([stored[0], stored[1], stored[2], stored[3]]);
                        let computed = crc32fast::hash(bytes);
                        if stored != computed {
                            let at = (start + k * block_len) as u64;
                            return Err(TableError::BlockCrc {
                                column: c.info.name.clone(),
                                block: k as u64,
                                start: at,
                                end: at + bytes.len() as u64,
                                stored,
                                computed,
                            });
                        }
                        if let Some(word) = marks.get(k / 64) {
                            word.fetch_or(1 << (k % 64), Ordering::Relaxed);
                        }
                        checked.blocks += 1;
                        done += bytes.len() as u64;
                        if (k + 1) % per_report == 0 || (k + 1) * block_len >= len {
                            progress(Progress {
                                phase: Phase::Crc,
                                done,
                                total,
                            });
                        }
                    }
                }
                _ => {
                    let mut hasher = crc32fast::Hasher::new();
                    self.column_chunks::<TableError>(i, &mut |bytes| {
                        hasher.update(bytes);
                        done += bytes.len() as u64;
                        progress(Progress {
                            phase: Phase::Crc,
                            done,
                            total,
                        });
                        Ok(())
                    })?;
                    let computed = hasher.finalize();
                    if let Some(stored) = c.info.crc {
                        if stored != computed {
                            return Err(TableError::ColumnCrc {
                                column: c.info.name.clone(),
                                stored,
                                computed,
                            });
                        }
                        checked.crcs += 1;
                    }
                }
            }
            let used = c.info.entries % 8;
            if c.info.width == 1 && used != 0 && len > 0 && file[start + len - 1] >> used != 0 {
                return Err(TableError::Padding {
                    offset: (start + len - 1) as u64,
                });
            }
            if let Some(blocks) = &c.blocks {
                let array_len = (blocks.count * format::BLOCK_CRC_LEN) as usize;
                zeros(end, blocks.crcs)?;
                end = blocks.crcs + array_len;
            }
        }
        zeros(end, file.len())?;
        Ok(checked)
    }
}

impl Table {
    /// Verifies the table with the default [`VerifyOptions`]: see
    /// [`Table::verify_with`].
    pub fn verify(&self, progress: &mut dyn FnMut(Progress)) -> Result<Verified, TableError> {
        self.verify_with(VerifyOptions::default(), progress)
    }

    /// Verifies the table, reporting to `progress` on the way:
    ///
    /// 1. every column's CRC-32 against the header's, streaming through the
    ///    file ([`Phase::Crc`]), and that every byte outside the header and
    ///    the columns is zero (as are the unused bits of 1-bit columns);
    ///    this is complete;
    /// 2. the entries ([`Phase::Contents`]). On 4×4, every entry of every
    ///    known column is compared with the embedded tables. On other
    ///    shapes, each checked position must agree with its neighbours by
    ///    the rules: for Euler, a position is won exactly when some move
    ///    leaves a lost one, the full board is won, and (full tables) moves
    ///    left and the best move follow from the positions one move away
    ///    (fastest win, longest resistance, first move on ties); for Flip,
    ///    per colour, the target takes 0 rounds, a board one round more
    ///    than its closest neighbour (one press away), unreachable boards
    ///    only neighbour unreachable ones, the stored press set has
    ///    `rounds` cells and reaches the colour, the optimal sets add up
    ///    over the closer neighbours, and `rounds` is the closer colour's.
    ///    Checked at every position this proves the table right; above
    ///    [`VerifyOptions::sample`] positions it is a spot check
    ///    ([`Checked::Consistent`] says which).
    ///
    /// A version-1 file is checked as [`TableFile::verify_contents`] does.
    pub fn verify_with(
        &self,
        options: VerifyOptions,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<Verified, TableError> {
        if self.version == 1 {
            let file = TableFile::read(self.storage.bytes())?;
            file.verify_contents()?;
            return Ok(Verified {
                crcs: 1,
                blocks: 0,
                bytes: self.file_len,
                entries: Checked::Embedded {
                    entries: file.columns.iter().map(|c| c.len() as u64).sum(),
                },
            });
        }
        let checked = self.check_crcs(progress)?;
        // Compressed columns are checked in memory: the rules read each
        // entry from its neighbours', one block apart or more.
        let unpacked = self.unpacked()?;
        let table = unpacked.as_ref().unwrap_or(self);
        // The embedded tables have one entry a board: a 4×4 table of one
        // entry a class is checked by the rules.
        let entries = if self.shape == Shape::SQUARE4 && self.index().is_none() {
            table.check_embedded(progress)?
        } else {
            match self.id {
                Puzzle::Euler => table.check_euler(options, progress)?,
                Puzzle::Flip => table.check_flip(options, progress)?,
            }
        };
        Ok(Verified {
            crcs: checked.crcs,
            blocks: checked.blocks,
            bytes: checked.bytes,
            entries,
        })
    }

    /// Step 2 on 4×4: every known column against the embedded tables.
    fn check_embedded(&self, progress: &mut dyn FnMut(Progress)) -> Result<Checked, TableError> {
        let known: Vec<usize> = (0..self.columns.len())
            .filter(|&c| embedded_value(self.id, &self.columns[c].info.name, 0).is_some())
            .collect();
        let total: u64 = known.iter().map(|&c| self.columns[c].info.entries).sum();
        let mut done = 0;
        for c in known {
            let info = &self.columns[c].info;
            for index in 0..info.entries {
                let expected = embedded_value(self.id, &info.name, index).unwrap_or(u64::MAX);
                let found = self.entry(c, index).unwrap_or(u64::MAX);
                if found != expected {
                    return Err(ContentsError {
                        column: info.name.clone(),
                        index,
                        found,
                        expected,
                    }
                    .into());
                }
                done += 1;
                report_contents(done, total, progress);
            }
        }
        Ok(Checked::Embedded { entries: done })
    }

    /// Runs `check` on every position of the [`Sample`] of `options`, on
    /// every core, a batch at a time so that progress is reported from
    /// this thread; the error is the one of the first failing position in
    /// the sample's order, as a run on one thread would find it.
    fn each_sampled(
        &self,
        options: VerifyOptions,
        progress: &mut dyn FnMut(Progress),
        check: impl Fn(u64) -> Result<(), TableError> + Sync,
    ) -> Result<Checked, TableError> {
        let states = self
            .classes()
            .map_or(1u64 << self.shape.cells(), Classes::entries);
        let mut sample = Sample::new(states, options.sample);
        let (total, positions) = (sample.count, sample.states);
        let every = total == positions;
        let mut batch = Vec::new();
        let mut done = 0;
        while done < total {
            let n = (total - done).min(BATCH);
            let failure = if every {
                // No list: the positions are a range.
                (0..n as usize)
                    .into_par_iter()
                    .with_min_len(MIN_PER_TASK)
                    .find_map_first(|k| check(done + k as u64).err())
            } else {
                batch.clear();
                batch.extend(sample.by_ref().take(n as usize));
                batch
                    .par_iter()
                    .with_min_len(MIN_PER_TASK)
                    .find_map_first(|&p| check(p).err())
            };
            if let Some(error) = failure {
                return Err(error);
            }
            done += n;
            progress(Progress {
                phase: Phase::Contents,
                done,
                total,
            });
        }
        Ok(Checked::Consistent {
            checked: done,
            positions,
        })
    }

    /// Every column as the checks read it (resolved once, not at each of
    /// the billions of entries a large table's check reads).
    fn views(&self) -> Views<'_> {
        Views {
            table: self,
            columns: (0..self.columns.len())
                .map(|c| self.column_ref(c))
                .collect(),
        }
    }

    fn inconsistent(&self, column: usize, index: u64, detail: String) -> TableError {
        TableError::Inconsistent {
            column: self
                .columns
                .get(column)
                .map_or_else(String::new, |c| c.info.name.clone()),
            index,
            detail,
        }
    }

    /// Step 2 for Euler on other shapes. The columns are read as plain
    /// bytes: step 1 checked all of them, and this step reads each entry
    /// some thirty times (once a position, once from each parent), so the
    /// probes' per-entry checks would cost most of its time.
    fn check_euler(
        &self,
        options: VerifyOptions,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<Checked, TableError> {
        let Layout::Euler {
            winning,
            full,
            moves,
            classes,
        } = &self.layout
        else {
            return Ok(Checked::Embedded { entries: 0 });
        };
        let columns = EulerColumns {
            winning: *winning,
            depth: match *full {
                Some((plies, best)) => Some((
                    plies,
                    self.bytes8(plies)?,
                    match best {
                        Some(best) => Some((best, self.bytes8(best)?)),
                        None => None,
                    },
                )),
                None => None,
            },
            moves: moves.as_slice(),
            all: self.shape.full(),
        };
        let enumerated = self.enumerated(classes.as_deref())?;
        let classes = enumerated.as_ref();
        match self.column_ref_with(*winning, false).map(|c| c.data) {
            Some(RefData::File(bytes, 1)) => {
                self.check_euler_bits(options, progress, &columns, classes, |i| {
                    read_entry(bytes, 1, i).map(|b| b != 0)
                })
            }
            Some(RefData::Bits(words)) => {
                self.check_euler_bits(options, progress, &columns, classes, |i| {
                    words.get((i / 64) as usize).map(|w| w >> (i % 64) & 1 != 0)
                })
            }
            _ => Err(self.inconsistent(*winning, 0, "is not a column of bits".into())),
        }
    }

    /// The rules' check of every sampled entry, `bit` reading entry `i` of
    /// `winning`: entry `i` is position `i`, or (version 5) the position
    /// [`Classes::position`] gives, and each child is read at its entry
    /// [`Classes::index`].
    fn check_euler_bits(
        &self,
        options: VerifyOptions,
        progress: &mut dyn FnMut(Progress),
        columns: &EulerColumns<'_>,
        classes: Option<&Classes>,
        bit: impl Fn(u64) -> Option<bool> + Sync,
    ) -> Result<Checked, TableError> {
        match classes {
            None => self.each_sampled(options, progress, |p| columns.check(self, p, &bit, |q| q)),
            Some(classes) => self.each_sampled(options, progress, |i| {
                let p = classes.position(i).ok_or_else(|| {
                    self.inconsistent(columns.winning, i, "is past the index's entries".into())
                })?;
                // The rules speak of boards: the error names the board,
                // and says which entry of the index holds it.
                columns
                    .check(self, p, |q| bit(classes.index(q)), |q| classes.index(q))
                    .map_err(|e| match e {
                        TableError::Inconsistent {
                            column,
                            index,
                            detail,
                        } => TableError::Inconsistent {
                            column,
                            index,
                            detail: format!("{detail} (entry {i} of the symmetric index)"),
                        },
                        e => e,
                    })
            }),
        }
    }

    /// A version-5 table's index as the enumeration of every key pattern
    /// makes it, the file's list of classes (`classes`, opening the file
    /// read it) checked against it: its tables find the neighbours'
    /// entries faster than the list's search. `None` by position.
    fn enumerated(&self, classes: Option<&Classes>) -> Result<Option<Classes>, TableError> {
        let Some(classes) = classes else {
            return Ok(None);
        };
        let full = Classes::try_with_key(classes.cells(), classes.symmetries(), classes.key())
            .map_err(|e| TableError::Index(e.to_string()))?;
        self.check_classes_column(classes, &full)?;
        Ok(Some(full))
    }

    /// Checks a version-5 table's `classes` column, which opening the file
    /// read into its index (`listed`): each class's canonical key pattern,
    /// in order, as the enumeration of every key pattern (`enumerated`)
    /// finds them (a reader in another language finds a position's class
    /// in it), and no more.
    fn check_classes_column(
        &self,
        listed: &Classes,
        enumerated: &Classes,
    ) -> Result<(), TableError> {
        let column = self
            .columns
            .iter()
            .position(|c| c.info.name == CLASSES)
            .ok_or_else(|| TableError::MissingColumn(CLASSES.into()))?;
        let (listed, enumerated) = (listed.canonical_patterns(), enumerated.canonical_patterns());
        if listed.len() > enumerated.len() {
            let k = enumerated.len();
            return Err(self.inconsistent(
                column,
                k as u64,
                format!("class {k} is past the {k} classes of the key patterns"),
            ));
        }
        for (k, &expected) in enumerated.iter().enumerate() {
            let found = listed.get(k).map(|&p| u64::from(p));
            if found != Some(u64::from(expected)) {
                return Err(self.inconsistent(
                    column,
                    k as u64,
                    match found {
                        Some(found) => format!(
                            "class {k} holds key pattern {found:#x}, but its canonical key pattern is {expected:#x}"
                        ),
                        None => format!(
                            "is missing: the column has {} classes, the key patterns make {}",
                            listed.len(),
                            enumerated.len()
                        ),
                    },
                ));
            }
        }
        Ok(())
    }

    /// The entries of a column of bytes, as stored (see
    /// [`Table::check_euler`]).
    fn bytes8(&self, column: usize) -> Result<&[u8], TableError> {
        match self.column_ref_with(column, false).map(|c| c.data) {
            Some(RefData::File(bytes, 8) | RefData::U8(bytes)) => Ok(bytes),
            _ => Err(self.inconsistent(column, 0, "is not a column of bytes".into())),
        }
    }

    /// Step 2 for Flip on other shapes.
    fn check_flip(
        &self,
        options: VerifyOptions,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<Checked, TableError> {
        let Layout::Flip {
            rounds,
            colours,
            ref classes,
            ..
        } = self.layout
        else {
            return Ok(Checked::Embedded { entries: 0 });
        };
        // By class, entry `i` holds the board `position(i)`, checked as a
        // table by position checks it; its neighbours are read at their
        // classes' entries.
        let enumerated = self.enumerated(classes.as_deref())?;
        let index = |board: u64| enumerated.as_ref().map_or(board, |c| c.index(board));
        let board_of = |entry: u64| {
            enumerated
                .as_ref()
                .map_or(Some(entry), |c| c.position(entry))
        };
        let shape = self.shape;
        let all = shape.full();
        let masks = press_masks(shape);
        let masks = &masks[..shape.cells()];
        let effect = |presses: u64| {
            shape
                .cells_of(presses)
                .fold(0, |acc, (r, c)| acc ^ masks[shape.index(r, c)])
        };
        let unreachable = u64::from(UNREACHABLE);
        let v = self.views();
        // The rules speak of boards: an error names the board, and (by
        // class) says which entry of the index holds it.
        let check = |i: u64, b: u64| -> Result<(), TableError> {
            let mut closest = unreachable;
            for (colour, target) in [0, all].into_iter().enumerate() {
                let (rc, pc, sc) = colours[colour];
                let (d, x, s) = (v.must(rc, i)?, v.must(pc, i)?, v.must(sc, i)?);
                closest = closest.min(d);
                if b == target {
                    if d != 0 {
                        return Err(self.inconsistent(
                            rc,
                            b,
                            format!("a board of that colour takes 0 rounds, not {d}"),
                        ));
                    }
                    if x != 0 || s != 1 {
                        return Err(self.inconsistent(pc, b, format!("a board of that colour has the one empty press set, not {x:#x} ({s} sets)")));
                    }
                } else if d == unreachable {
                    if x != 0 || s != 0 {
                        return Err(self.inconsistent(pc, b, format!("an unreachable colour has press set 0 and 0 sets, not {x:#x} ({s} sets)")));
                    }
                    for &m in masks {
                        if v.must(rc, index(b ^ m))? != unreachable {
                            return Err(self.inconsistent(rc, b, format!("stored as unreachable, but {:#x}, one press away, is reachable", b ^ m)));
                        }
                    }
                } else {
                    if d == 0 {
                        return Err(self.inconsistent(
                            rc,
                            b,
                            "0 rounds, but the board is not of that colour".into(),
                        ));
                    }
                    if x & !all != 0 || u64::from(x.count_ones()) != d || b ^ effect(x) != target {
                        return Err(self.inconsistent(
                            pc,
                            b,
                            format!("press set {x:#x} does not reach the colour in {d} rounds"),
                        ));
                    }
                    let mut sum = 0u64;
                    for &m in masks {
                        let e = v.must(rc, index(b ^ m))?;
                        if e == unreachable || e + 1 < d {
                            return Err(self.inconsistent(
                                rc,
                                b,
                                format!("{d} rounds, but {:#x}, one press away, takes {e}", b ^ m),
                            ));
                        }
                        if e + 1 == d {
                            sum += v.must(sc, index(b ^ m))?;
                        }
                    }
                    if sum == 0 {
                        return Err(self.inconsistent(
                            rc,
                            b,
                            format!("{d} rounds, but no board one press away takes {}", d - 1),
                        ));
                    }
                    if d * s != sum {
                        return Err(self.inconsistent(sc, b, format!("{s} optimal sets, but the boards one press closer have {sum} between them: {s} × {d} rounds must equal that")));
                    }
                }
            }
            let r = v.must(rounds, i)?;
            if r != closest {
                return Err(self.inconsistent(
                    rounds,
                    b,
                    format!("{r} rounds, but the closer colour takes {closest}"),
                ));
            }
            Ok(())
        };
        self.each_sampled(options, progress, |i| {
            let b = board_of(i).ok_or_else(|| {
                self.inconsistent(rounds, i, "is past the index's entries".into())
            })?;
            check(i, b).map_err(|e| match e {
                TableError::Inconsistent {
                    column,
                    index,
                    detail,
                } if enumerated.is_some() => TableError::Inconsistent {
                    column,
                    index,
                    detail: format!("{detail} (entry {i} of the symmetric index)"),
                },
                e => e,
            })
        })
    }
}
