//! Checkpoints of a Game of Euler generation: the win/loss layers finished
//! so far and, where the full tables are made, the moves-left pass's
//! columns at its last step saved, kept beside the table so that the same
//! command resumes a run that was killed (SIGKILL, a reboot) or
//! interrupted, instead of starting over.
//!
//! The win/loss pass solves blocks of the bitset in layers (see
//! [`tables::euler::winloss`](crate::tables::euler::winloss)); a layer
//! only reads the layers before it, so a run that has the bits of its
//! first `k` layers can go on from layer `k`. After each layer the
//! generator hands the layer to a writer thread, which writes the layer's
//! blocks into the checkpoint at their place in the bitset, syncs them to
//! disk, then appends a record (layer, blocks, positions won, CRC-32 of
//! the blocks' bytes) and syncs again: a record is only ever written after
//! the data it vouches for is durable, while the next layer is computed.
//!
//! The moves-left pass (see
//! [`tables::euler::depth`](crate::tables::euler::depth)) takes positions
//! in step by step: after step `d` every position of at most `d` moves
//! left has its moves left and best move, and the sets `A(d)` and
//! `A(d - 1)` the next step reads are exactly the positions of at most `d`
//! and `d - 1` moves left. Its two byte columns at step `d` are thus its
//! whole state: the moves-left section holds them at each position's
//! place, and a step record vouches for them. An entry never changes once
//! its position is taken in, and the generator is deterministic, so every
//! byte of the section is either 0 (never written) or the position's final
//! entry: a save writes only the chunks that changed since the one before,
//! and what a step record vouches for is the columns *masked at its step*,
//! every entry of more than `d` moves left read as 0 (the full board, of 0
//! moves left, is the one position kept with a 0). A save that was cut off
//! thus never spoils the step recorded before it.
//!
//! # Runs by class
//!
//! A run by class (`--symmetry`: one entry a class of positions under the
//! board's symmetries, see
//! [`tables::classes`](crate::tables::classes)) keeps the same file for
//! its index: the bitset's blocks are its classes' blocks (`block bits` is
//! the bits of a class's entries, `top bits` the key cells), layer `k`
//! holds the classes of `top bits − k` key cells set in the order the class
//! solver takes them, and the moves-left section has the moves-left column
//! alone, one byte an entry (such a table stores no best move). Its header
//! names the puzzle `euler by class`, so that neither kind of run takes
//! the other's checkpoint.
//!
//! # Layout (all integers little-endian)
//!
//! | offset | bytes | field |
//! | ---: | ---: | --- |
//! | 0 | 8 | magic `BRDBCKPT` |
//! | 8 | 4 | format version, `u32`: 1 |
//! | 12 | 4 | `n`, `u32`: the header's length |
//! | 16 | `n` | header, bincode 2 legacy: generator version (string), puzzle (string), rows, cols (`u8`), block bits, top bits (`u32`), words (`u64`), data offset (`u64`) |
//! | 16 + `n` | 4 | CRC-32 of bytes 0 to 16 + `n` |
//! | data offset | words × 8 | the bitset, block `b` at `data offset + b × block bytes` (a sparse file until written) |
//! | data end | 40 each | records: layer (`u32`), reserved (`u32`, 0), first block in the layer's order (`u64`), blocks (`u64`), positions won (`u64`), CRC-32 of the blocks' bytes in that order (`u32`), CRC-32 of the record's first 36 bytes (`u32`) |
//! | depth offset | positions | the moves-left section, where made: the moves-left column, position `p`'s byte at `depth offset + p` (sparse until written) |
//! | depth offset + positions | positions | the best-move column, likewise |
//! | depth end | 40 each | step records: step `d` (`u32`), reserved (`u32`, 0), positions taken in by steps 0 to `d` (`u64`), CRC-32 of the moves-left column masked at `d` (`u32`), of the best-move column masked at `d` (`u32`), reserved (12 bytes, 0), CRC-32 of the record's first 36 bytes (`u32`) |
//!
//! The depth offset is the end of the room of every layer's record (data
//! end + 40 × layers), rounded up to 4 KiB. The moves-left section is made
//! (the file extended to the depth end) when the depth pass first saves,
//! and its step records are appended only once every win/loss layer is
//! recorded: the first save writes the layers not yet saved with its
//! step.
//!
//! A record names a range of one layer's blocks, in the order of
//! [`layer_members`](crate::tables::euler::winloss::layer_members); the generator writes a whole layer in one record. A
//! job over several ranks (see [`crate::ranks`]) saves its layers in this
//! same file, which the ranks then share: each rank writes its share of a
//! layer's blocks and syncs them, and once every rank has, rank 0 appends
//! the layer's record, its CRC made from the ranks' CRCs
//! ([`crc32fast::Hasher::combine`]). The ranks save their ranges of the
//! moves-left columns the same way, each at its positions' places, and a
//! step record's CRCs are made from theirs. A checkpoint is thus the same
//! whether one process or any number of ranks wrote it, and either
//! resumes it, whatever the ranks' split.
//!
//! # Trust
//!
//! A checkpoint is used only when its header matches the run exactly (the
//! same generator version, puzzle and shape) and every record's CRC and
//! every layer's and step's data CRC check; anything else is refused with
//! the reason, never repaired or guessed. The one exception is a torn
//! last record (the run was killed while appending it): its layer or step
//! was not complete, and it is dropped (as is a moves-left section begun
//! before every layer was recorded: nothing in it is vouched for yet).
//! While a run uses a checkpoint it holds a lock on it, so two runs never
//! write one checkpoint.

use std::fs::{File, OpenOptions};
use std::io;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

use super::error::GenerateError;
use crate::tablefile::parts::{FileExt, PartCrc};
use boardbase_tables::classes::Classes;
use boardbase_tables::euler::classes::SolverSizes;
use boardbase_tables::euler::winloss::WinLossSolver;
use boardbase_tables::shape::Shape;
use serde::{Deserialize, Serialize};

/// The first bytes of a checkpoint file.
const MAGIC: [u8; 8] = *b"BRDBCKPT";

/// The checkpoint format's version.
const FORMAT: u32 = 1;

/// The generator's version: a checkpoint of another version is refused.
const GENERATOR: &str = concat!("boardbase ", env!("CARGO_PKG_VERSION"));

/// The data starts at a multiple of this (a page).
const DATA_ALIGN: u64 = 4096;

/// How long a run waits for a checkpoint's lock before it says another run
/// holds it.
pub(super) const LOCK_WAIT: Duration = Duration::from_secs(2);

/// Bytes of one record, of a layer or of a step.
const RECORD_LEN: usize = 40;

/// The checkpoint's header.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Header {
    generator: String,
    puzzle: String,
    rows: u8,
    cols: u8,
    block_bits: u32,
    top_bits: u32,
    words: u64,
    data_offset: u64,
}

/// What a checkpoint holds: the win/loss bitset's blocks and layers and
/// the moves-left section's columns, of a run by position or of one by
/// class (one entry a class of positions under the board's symmetries:
/// the bitset's blocks are the classes, in the layers the class solver
/// takes them in, and the section has the moves-left column alone).
#[derive(Clone, Debug)]
pub(crate) struct Geometry {
    /// The header a checkpoint of the run has.
    header: Header,
    /// Bytes of a block.
    block_bytes: u64,
    /// Entries of each moves-left column: positions, or entries by class.
    entries: u64,
    /// Columns of the moves-left section: the moves left and the best
    /// move, or (by class) the moves left.
    columns: u64,
    /// Blocks of each win/loss layer, in the order solved.
    layer_blocks: Vec<u64>,
}

impl Geometry {
    /// A run by position of `shape`.
    pub(crate) fn of_positions(shape: Shape) -> Geometry {
        let wl = WinLossSolver::new(shape);
        let top = wl.top_bits();
        let layer_blocks = (0..=top)
            .map(|i| binomial(u64::from(top), u64::from(top - i)))
            .collect();
        Geometry::new(
            Header::new(shape, "euler", wl.block_bits(), top, wl.words() as u64),
            wl.block_words() as u64 * 8,
            1 << shape.cells(),
            2,
            layer_blocks,
        )
    }

    /// A run by class of `shape` ([`ClassSolver::new`]'s index), counted
    /// without making the index.
    pub(crate) fn of_classes(shape: Shape) -> Geometry {
        let sizes = SolverSizes::of_shape(shape);
        let index = sizes.index();
        // Solved from the most key cells set down.
        let layer_blocks = Classes::layers_of_shape(shape)
            .into_iter()
            .rev()
            .map(|n| n as u64)
            .collect();
        Geometry::new(
            Header::new(
                shape,
                "euler by class",
                index.rest_bits,
                index.key_cells as u32,
                sizes.words() as u64,
            ),
            sizes.block_words() as u64 * 8,
            index.entries(),
            1,
            layer_blocks,
        )
    }

    fn new(
        mut header: Header,
        block_bytes: u64,
        entries: u64,
        columns: u64,
        layer_blocks: Vec<u64>,
    ) -> Geometry {
        let len = 16 + encode(&header).len() as u64 + 4;
        header.data_offset = len.div_ceil(DATA_ALIGN) * DATA_ALIGN;
        Geometry {
            header,
            block_bytes,
            entries,
            columns,
            layer_blocks,
        }
    }

    /// Win/loss layers of the run.
    pub(crate) fn layers(&self) -> u32 {
        self.layer_blocks.len() as u32
    }

    /// Where the bitset ends and the records start.
    fn data_end(&self) -> u64 {
        self.header.data_offset + self.header.words * 8
    }

    /// The checkpoint's length once every layer is saved: the header, the
    /// bitset, a record a layer.
    fn full_len(&self) -> u64 {
        self.data_end() + u64::from(self.layers()) * RECORD_LEN as u64
    }

    /// Where the moves-left section starts: past the room of every layer's
    /// record, at a page.
    fn depth_offset(&self) -> u64 {
        self.full_len().div_ceil(DATA_ALIGN) * DATA_ALIGN
    }

    /// Where the moves-left section's columns end and its step records
    /// start.
    fn depth_end(&self) -> u64 {
        self.depth_offset() + self.columns * self.entries
    }

    /// The most bytes the checkpoint takes: its length once every win/loss
    /// layer is saved and, where the run makes the full tables (`full`),
    /// every step of the moves-left pass (the pages are allocated as they
    /// are written).
    pub(crate) fn checkpoint_len(&self, full: bool) -> u64 {
        let most_steps = u64::from(self.header.rows) * u64::from(self.header.cols) + 1;
        if full {
            self.depth_end() + most_steps * RECORD_LEN as u64
        } else {
            self.full_len()
        }
    }
}

/// `n` choose `k`.
fn binomial(n: u64, k: u64) -> u64 {
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

impl Header {
    fn new(shape: Shape, puzzle: &str, block_bits: u32, top_bits: u32, words: u64) -> Header {
        Header {
            generator: GENERATOR.to_owned(),
            puzzle: puzzle.to_owned(),
            rows: shape.rows() as u8,
            cols: shape.cols() as u8,
            block_bits,
            top_bits,
            words,
            data_offset: 0,
        }
    }
}

fn encode(header: &Header) -> Vec<u8> {
    bincode::serde::encode_to_vec(header, bincode::config::legacy())
        .expect("encoding into a Vec cannot fail")
}

/// One saved range of a layer's blocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Record {
    /// The layer, in the order the generator solves them (0 first: the
    /// blocks with every top bit set).
    pub(crate) layer: u32,
    /// The first block of the range, counted in the layer's order.
    pub(crate) first: u64,
    /// Blocks in the range.
    pub(crate) blocks: u64,
    /// Positions of those blocks won by the player to move.
    pub(crate) won: u64,
    /// CRC-32 of the blocks' bytes, in the layer's order.
    pub(crate) crc: u32,
}

impl Record {
    fn to_bytes(self) -> [u8; RECORD_LEN] {
        let mut b = [0u8; RECORD_LEN];
        b[0..4].copy_from_slice(&self.layer.to_le_bytes());
        b[8..16].copy_from_slice(&self.first.to_le_bytes());
        b[16..24].copy_from_slice(&self.blocks.to_le_bytes());
        b[24..32].copy_from_slice(&self.won.to_le_bytes());
        b[32..36].copy_from_slice(&self.crc.to_le_bytes());
        let crc = crc32fast::hash(&b[..36]);
        b[36..40].copy_from_slice(&crc.to_le_bytes());
        b
    }

    fn from_bytes(b: &[u8; RECORD_LEN]) -> Option<Record> {
        let u32_at = |at: usize| u32::from_le_bytes(b[at..at + 4].try_into().unwrap_or([0; 4]));
        let u64_at = |at: usize| u64::from_le_bytes(b[at..at + 8].try_into().unwrap_or([0; 8]));
        (crc32fast::hash(&b[..36]) == u32_at(36) && u32_at(4) == 0).then(|| Record {
            layer: u32_at(0),
            first: u64_at(8),
            blocks: u64_at(16),
            won: u64_at(24),
            crc: u32_at(32),
        })
    }
}

/// A step of the moves-left pass saved: the columns hold the entries of
/// every position of at most `step` moves left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct DepthRecord {
    /// The step, `d`: the largest number of moves left saved.
    pub(crate) step: u32,
    /// Positions taken in by steps 0 to `d`, every rank's.
    pub(crate) taken: u64,
    /// CRC-32 of the moves-left column masked at the step.
    pub(crate) plies_crc: u32,
    /// CRC-32 of the best-move column masked at the step.
    pub(crate) best_crc: u32,
}

impl DepthRecord {
    fn to_bytes(self) -> [u8; RECORD_LEN] {
        let mut b = [0u8; RECORD_LEN];
        b[0..4].copy_from_slice(&self.step.to_le_bytes());
        b[8..16].copy_from_slice(&self.taken.to_le_bytes());
        b[16..20].copy_from_slice(&self.plies_crc.to_le_bytes());
        b[20..24].copy_from_slice(&self.best_crc.to_le_bytes());
        let crc = crc32fast::hash(&b[..36]);
        b[36..40].copy_from_slice(&crc.to_le_bytes());
        b
    }

    fn from_bytes(b: &[u8; RECORD_LEN]) -> Option<DepthRecord> {
        let u32_at = |at: usize| u32::from_le_bytes(b[at..at + 4].try_into().unwrap_or([0; 4]));
        let u64_at = |at: usize| u64::from_le_bytes(b[at..at + 8].try_into().unwrap_or([0; 8]));
        let reserved = u32_at(4) == 0 && b[24..36].iter().all(|&x| x == 0);
        (crc32fast::hash(&b[..36]) == u32_at(36) && reserved).then(|| DepthRecord {
            step: u32_at(0),
            taken: u64_at(8),
            plies_crc: u32_at(16),
            best_crc: u32_at(20),
        })
    }
}

/// What a checkpoint left by an earlier run holds, read without its data:
/// what a plan says before the run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resume {
    /// The checkpoint.
    pub path: PathBuf,
    /// Win/loss layers it holds, complete.
    pub layers_done: u32,
    /// Win/loss layers of the run.
    pub layers: u32,
    /// Steps of the moves-left pass it holds, complete: 0 when it holds
    /// none, `d + 1` when it holds the entries of every position of at
    /// most `d` moves left.
    pub depth_steps_done: u32,
    /// The most steps the moves-left pass of the run can take: one more
    /// than the board's squares.
    pub depth_steps: u32,
}

/// The checkpoint of the Euler table of `shape` written to `table`:
/// `euler-RxC.bin.checkpoint` beside it.
pub fn checkpoint_path(table: &Path) -> PathBuf {
    let mut name = table.file_name().unwrap_or_default().to_os_string();
    name.push(".checkpoint");
    table.with_file_name(name)
}

/// A checkpoint open for a run: locked, its header checked, its records
/// read.
pub(crate) struct Checkpoint {
    blocks: BlockFile,
    geometry: Geometry,
    /// The complete layers' records, in order.
    records: Vec<Record>,
    /// The moves-left section's complete step records, in order; `None`
    /// while the section is not made.
    depth: Option<Vec<DepthRecord>>,
}

/// The bitset of a checkpoint: where each block's bytes go, shared by the
/// thread that saves layers and the one that appends their records.
#[derive(Clone)]
pub(crate) struct BlockFile {
    file: Arc<File>,
    path: PathBuf,
    data_offset: u64,
    block_bytes: u64,
}

impl BlockFile {
    fn io_error(&self, error: io::Error) -> GenerateError {
        GenerateError::Checkpoint {
            path: self.path.clone(),
            error,
        }
    }

    /// Bytes of one block.
    pub(crate) fn block_bytes(&self) -> usize {
        self.block_bytes as usize
    }

    /// Writes `blocks` (block `b`'s words are `block(b)`) at their places
    /// and syncs them; returns the CRC of their bytes in that order.
    pub(crate) fn write<'a>(
        &self,
        blocks: &[usize],
        block: &dyn Fn(usize) -> &'a [AtomicU64],
    ) -> Result<PartCrc, GenerateError> {
        let part = self.write_unsynced(blocks, &|b, buf| {
            for (word, bytes) in block(b).iter().zip(buf.chunks_exact_mut(8)) {
                bytes.copy_from_slice(&word.load(Relaxed).to_le_bytes());
            }
        })?;
        self.file.sync_data().map_err(|e| self.io_error(e))?;
        Ok(part)
    }

    /// Writes `blocks` at their places, each block's bytes put in a buffer
    /// by `fill(b, buffer)`, without syncing them; returns the CRC of their
    /// bytes in that order.
    pub(crate) fn write_unsynced(
        &self,
        blocks: &[usize],
        fill: &dyn Fn(usize, &mut [u8]),
    ) -> Result<PartCrc, GenerateError> {
        let mut buf = vec![0u8; self.block_bytes as usize];
        let mut crc = crc32fast::Hasher::new();
        for &b in blocks {
            fill(b, &mut buf);
            crc.update(&buf);
            let at = self.data_offset + b as u64 * self.block_bytes;
            self.file
                .write_all_at(&buf, at)
                .map_err(|e| self.io_error(e))?;
        }
        Ok(PartCrc {
            crc: crc.finalize(),
            len: blocks.len() as u64 * self.block_bytes,
        })
    }

    /// Reads `blocks` into their words (`block(b)` for block `b`); returns
    /// the CRC of their bytes in that order. `progress` hears of the bytes
    /// read.
    fn read<'a>(
        &self,
        blocks: impl Iterator<Item = usize>,
        block: &dyn Fn(usize) -> &'a [AtomicU64],
        progress: &dyn Fn(u64),
    ) -> Result<PartCrc, GenerateError> {
        let mut buf = vec![0u8; self.block_bytes as usize];
        let mut crc = crc32fast::Hasher::new();
        let mut len = 0;
        for b in blocks {
            let at = self.data_offset + b as u64 * self.block_bytes;
            self.file
                .read_exact_at(&mut buf, at)
                .map_err(|e| self.io_error(e))?;
            crc.update(&buf);
            for (word, bytes) in block(b).iter().zip(buf.chunks_exact(8)) {
                let mut b = [0u8; 8];
                b.copy_from_slice(bytes);
                word.store(u64::from_le_bytes(b), Relaxed);
            }
            len += self.block_bytes;
            progress(self.block_bytes);
        }
        Ok(PartCrc {
            crc: crc.finalize(),
            len,
        })
    }
}

/// The moves-left section of a checkpoint: where each position's entries
/// go, shared by the thread that saves the columns and the pass that reads
/// them back.
#[derive(Clone)]
pub(crate) struct DepthFile {
    blocks: BlockFile,
    plies_at: u64,
    best_at: u64,
}

impl DepthFile {
    /// The checkpoint file.
    pub(crate) fn file(&self) -> &File {
        &self.blocks.file
    }

    /// The checkpoint's path.
    pub(crate) fn path(&self) -> &Path {
        &self.blocks.path
    }

    /// The error of a read, write or sync of the section.
    pub(crate) fn io_error(&self, error: io::Error) -> GenerateError {
        self.blocks.io_error(error)
    }

    /// Where the moves-left byte of `position` is.
    pub(crate) fn plies_at(&self, position: u64) -> u64 {
        self.plies_at + position
    }

    /// Where the best-move byte of `position` is.
    pub(crate) fn best_at(&self, position: u64) -> u64 {
        self.best_at + position
    }

    /// Reads the entries of the positions from `first` into `plies` and
    /// `best` (as many as they hold).
    pub(crate) fn read(
        &self,
        first: u64,
        plies: &mut [u8],
        best: &mut [u8],
    ) -> Result<(), GenerateError> {
        let file = &self.blocks.file;
        file.read_exact_at(plies, self.plies_at(first))
            .and_then(|()| file.read_exact_at(best, self.best_at(first)))
            .map_err(|e| self.io_error(e))
    }
}

impl Checkpoint {
    /// What the checkpoint at `path` holds for a run of `shape`, if there
    /// is one; `Err` when it would be refused.
    pub(crate) fn inspect(
        path: &Path,
        geometry: &Geometry,
    ) -> Result<Option<Resume>, GenerateError> {
        let file = match File::open(path) {
            Ok(file) => file,
            // No checkpoint; a directory that cannot be is for the job's
            // own checks to report.
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::NotFound | io::ErrorKind::NotADirectory
                ) =>
            {
                return Ok(None);
            }
            Err(error) => {
                return Err(GenerateError::Checkpoint {
                    path: path.to_owned(),
                    error,
                });
            }
        };
        let (records, depth) = read(&file, path, geometry)?;
        let last = depth.as_ref().and_then(|d| d.last());
        let header = &geometry.header;
        Ok(Some(Resume {
            path: path.to_owned(),
            layers_done: records.last().map_or(0, |r| r.layer + 1),
            layers: geometry.layers(),
            depth_steps_done: last.map_or(0, |r| r.step + 1),
            depth_steps: u32::from(header.rows) * u32::from(header.cols) + 1,
        }))
    }

    /// Opens the checkpoint at `path` for a run of `geometry`, or creates
    /// it; takes its lock.
    pub(crate) fn open(path: &Path, geometry: Geometry) -> Result<Checkpoint, GenerateError> {
        let io_error = |error| GenerateError::Checkpoint {
            path: path.to_owned(),
            error,
        };
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(io_error)?;
        // A run killed a moment ago may hold the lock a moment longer: the
        // system closes the files of a process killed while a thread of it
        // waited for the disk (a save's sync) after it reports the process
        // gone. Measured: under 0.3 s.
        let deadline = Instant::now() + LOCK_WAIT;
        loop {
            match file.try_lock() {
                Ok(()) => break,
                Err(std::fs::TryLockError::WouldBlock) if Instant::now() < deadline => {
                    std::thread::sleep(LOCK_WAIT / 40);
                }
                Err(std::fs::TryLockError::WouldBlock) => {
                    return Err(GenerateError::CheckpointLocked {
                        path: path.to_owned(),
                    });
                }
                Err(std::fs::TryLockError::Error(e)) => return Err(io_error(e)),
            }
        }
        let fresh = file.metadata().map_err(io_error)?.len() == 0;
        let (records, depth) = if fresh {
            let body = encode(&geometry.header);
            let mut bytes = Vec::with_capacity(16 + body.len() + 4);
            bytes.extend_from_slice(&MAGIC);
            bytes.extend_from_slice(&FORMAT.to_le_bytes());
            bytes.extend_from_slice(&(body.len() as u32).to_le_bytes());
            bytes.extend_from_slice(&body);
            let crc = crc32fast::hash(&bytes);
            bytes.extend_from_slice(&crc.to_le_bytes());
            file.write_all_at(&bytes, 0).map_err(io_error)?;
            // The bitset's room, sparse until the layers are written.
            file.set_len(geometry.data_end()).map_err(io_error)?;
            file.sync_all().map_err(io_error)?;
            sync_dir(path).map_err(io_error)?;
            (Vec::new(), None)
        } else {
            read(&file, path, &geometry)?
        };
        // A torn record after the complete ones is dropped: its layer or
        // step is saved again (and a moves-left section begun before every
        // layer was recorded is made again).
        let end = match &depth {
            Some(steps) => geometry.depth_end() + (steps.len() * RECORD_LEN) as u64,
            None => geometry.data_end() + (records.len() * RECORD_LEN) as u64,
        };
        file.set_len(end).map_err(io_error)?;
        Ok(Checkpoint::of(file, path, geometry, records, depth))
    }

    /// Opens the checkpoint at `path` that another rank of the same job
    /// [`open`](Checkpoint::open)ed (and holds the lock of), to write this
    /// rank's blocks into and read them back from.
    pub(crate) fn join(path: &Path, geometry: Geometry) -> Result<Checkpoint, GenerateError> {
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)
            .map_err(|error| GenerateError::Checkpoint {
                path: path.to_owned(),
                error,
            })?;
        let (records, depth) = read(&file, path, &geometry)?;
        Ok(Checkpoint::of(file, path, geometry, records, depth))
    }

    fn of(
        file: File,
        path: &Path,
        geometry: Geometry,
        records: Vec<Record>,
        depth: Option<Vec<DepthRecord>>,
    ) -> Checkpoint {
        Checkpoint {
            blocks: BlockFile {
                file: Arc::new(file),
                path: path.to_owned(),
                data_offset: geometry.header.data_offset,
                block_bytes: geometry.block_bytes,
            },
            geometry,
            records,
            depth,
        }
    }

    /// Win/loss layers complete in the checkpoint.
    pub(crate) fn layers_done(&self) -> u32 {
        self.records.last().map_or(0, |r| r.layer + 1)
    }

    /// Positions won in the complete layers, all of each layer's blocks.
    pub(crate) fn won(&self) -> u64 {
        self.records.iter().map(|r| r.won).sum()
    }

    /// Where the layers' blocks are written.
    pub(crate) fn block_file(&self) -> &BlockFile {
        &self.blocks
    }

    /// Reads `part(len)` of each complete layer's blocks (a range of the
    /// layer's `len` blocks, in its order: `members(layer)`) into their
    /// words (`block(b)` for block `b`), and returns the CRC of each
    /// layer's part, to be checked by
    /// [`check_parts`](Checkpoint::check_parts) with the other ranks'.
    pub(crate) fn load_part<'a, I: Iterator<Item = usize>>(
        &self,
        members: &dyn Fn(u32) -> I,
        part: &dyn Fn(usize) -> Range<usize>,
        block: &dyn Fn(usize) -> &'a [AtomicU64],
        progress: &dyn Fn(u64),
    ) -> Result<Vec<PartCrc>, GenerateError> {
        self.records
            .iter()
            .map(|record| {
                let range = part(record.blocks as usize);
                let members = members(record.layer).skip(range.start).take(range.len());
                self.blocks.read(members, block, progress)
            })
            .collect()
    }

    /// Checks each complete layer's CRC against its parts read by each
    /// rank in turn (`parts[rank][layer]`; one process: one rank).
    pub(crate) fn check_parts(&self, parts: &[Vec<PartCrc>]) -> Result<(), GenerateError> {
        for (i, record) in self.records.iter().enumerate() {
            let layer: Vec<PartCrc> = parts.iter().filter_map(|p| p.get(i).copied()).collect();
            if layer.len() != parts.len() || PartCrc::combine(&layer) != record.crc {
                return Err(self.refused(format!(
                    "the data of win/loss layer {} does not match its CRC (the checkpoint is damaged)",
                    record.layer
                )));
            }
        }
        Ok(())
    }

    /// Appends the record of layer `layer`, all its `blocks` saved (by
    /// every rank), `won` positions of them won, the CRC of their bytes
    /// `crc`, and syncs it.
    pub(crate) fn append(
        &mut self,
        layer: u32,
        blocks: u64,
        won: u64,
        crc: u32,
    ) -> Result<(), GenerateError> {
        let record = Record {
            layer,
            first: 0,
            blocks,
            won,
            crc,
        };
        let at = self.geometry.data_end() + (self.records.len() * RECORD_LEN) as u64;
        let file = &self.blocks.file;
        file.write_all_at(&record.to_bytes(), at)
            .and_then(|()| file.sync_data())
            .map_err(|e| self.blocks.io_error(e))?;
        self.records.push(record);
        Ok(())
    }

    /// The last step of the moves-left pass saved, if any.
    pub(crate) fn depth_record(&self) -> Option<DepthRecord> {
        self.depth.as_ref().and_then(|d| d.last().copied())
    }

    /// Where the moves-left columns are written and read.
    pub(crate) fn depth_file(&self) -> DepthFile {
        DepthFile {
            blocks: self.blocks.clone(),
            plies_at: self.geometry.depth_offset(),
            best_at: self.geometry.depth_offset() + self.geometry.entries,
        }
    }

    /// Makes the moves-left section, sparse, unless it is made (the job's
    /// first rank, before any rank writes into it); syncs it.
    pub(crate) fn begin_depth(&mut self) -> Result<(), GenerateError> {
        if self.depth.is_some() {
            return Ok(());
        }
        let file = &self.blocks.file;
        file.set_len(self.geometry.depth_end())
            .and_then(|()| file.sync_all())
            .map_err(|e| self.blocks.io_error(e))?;
        self.depth = Some(Vec::new());
        Ok(())
    }

    /// Appends the record of a step of the moves-left pass, its columns
    /// saved (by every rank) and synced, and syncs it. Every win/loss
    /// layer must be recorded and the section made
    /// ([`begin_depth`](Checkpoint::begin_depth)).
    pub(crate) fn append_depth(&mut self, record: DepthRecord) -> Result<(), GenerateError> {
        debug_assert_eq!(self.layers_done(), self.geometry.layers());
        let steps = self.depth.get_or_insert_default();
        let at = self.geometry.depth_end() + (steps.len() * RECORD_LEN) as u64;
        let file = &self.blocks.file;
        file.write_all_at(&record.to_bytes(), at)
            .and_then(|()| file.sync_data())
            .map_err(|e| self.blocks.io_error(e))?;
        steps.push(record);
        Ok(())
    }

    /// Checks the moves-left columns read back by each rank in turn
    /// (`plies[rank]`, `best[rank]`: the CRCs of its range masked at the
    /// step), and the positions they hold, `taken`, against the last step
    /// record.
    pub(crate) fn check_depth(
        &self,
        plies: &[PartCrc],
        best: &[PartCrc],
        taken: u64,
    ) -> Result<(), GenerateError> {
        let Some(record) = self.depth_record() else {
            return Ok(());
        };
        let damaged = |what: &str| {
            self.refused(format!(
                "the {what} of moves-left step {} does not match its record (the checkpoint is damaged)",
                record.step
            ))
        };
        if PartCrc::combine(plies) != record.plies_crc || PartCrc::combine(best) != record.best_crc
        {
            return Err(damaged("data"));
        }
        if taken != record.taken {
            return Err(damaged("positions"));
        }
        Ok(())
    }

    fn refused(&self, reason: String) -> GenerateError {
        GenerateError::CheckpointRefused {
            path: self.blocks.path.clone(),
            reason,
        }
    }
}

/// The records of the complete moves-left steps, `None` where the section
/// is not made.
type Steps = Option<Vec<DepthRecord>>;

/// Reads and checks the header and the records of a checkpoint for a run
/// of `geometry`.
fn read(
    file: &File,
    path: &Path,
    geometry: &Geometry,
) -> Result<(Vec<Record>, Steps), GenerateError> {
    let refused = |reason: String| GenerateError::CheckpointRefused {
        path: path.to_owned(),
        reason,
    };
    let io_error = |error| GenerateError::Checkpoint {
        path: path.to_owned(),
        error,
    };
    let len = file.metadata().map_err(io_error)?.len();
    if len < 16 {
        return Err(refused(format!(
            "it is {len} bytes long, too short for a header"
        )));
    }
    let mut prelude = [0u8; 16];
    file.read_exact_at(&mut prelude, 0).map_err(io_error)?;
    if prelude[..8] != MAGIC {
        return Err(refused("it is not a boardbase checkpoint".into()));
    }
    let format = u32::from_le_bytes([prelude[8], prelude[9], prelude[10], prelude[11]]);
    if format != FORMAT {
        return Err(refused(format!(
            "it is of checkpoint format {format}, this generator writes {FORMAT}"
        )));
    }
    let n = u64::from(u32::from_le_bytes([
        prelude[12],
        prelude[13],
        prelude[14],
        prelude[15],
    ]));
    if n > 1 << 16 || len < 16 + n + 4 {
        return Err(refused("its header is cut short or too long".into()));
    }
    // The header and its CRC, after the prelude already read; the CRC
    // covers both.
    let mut rest = vec![0u8; n as usize + 4];
    file.read_exact_at(&mut rest, 16).map_err(io_error)?;
    let (body, crc) = rest.split_at(n as usize);
    let mut computed = crc32fast::Hasher::new();
    computed.update(&prelude);
    computed.update(body);
    if computed.finalize() != u32::from_le_bytes([crc[0], crc[1], crc[2], crc[3]]) {
        return Err(refused(
            "its header does not match its CRC (it is damaged)".into(),
        ));
    }
    let header: Header = bincode::serde::decode_from_slice(body, bincode::config::legacy())
        .map_err(|e| refused(format!("its header cannot be read ({e})")))?
        .0;
    let expected = &geometry.header;
    if header.generator != expected.generator {
        return Err(refused(format!(
            "it was written by {}, this is {}",
            header.generator, expected.generator
        )));
    }
    if header != *expected {
        return Err(refused(format!(
            "it is for {} {}x{}, not this run's {} {}x{}",
            header.puzzle, header.rows, header.cols, expected.puzzle, expected.rows, expected.cols
        )));
    }
    let header = geometry;
    if len < header.data_end() {
        return Err(refused(format!(
            "it is {len} bytes long, shorter than its bitset ({} bytes)",
            header.data_end()
        )));
    }
    // The records: everything after the bitset, as long as the file was
    // when its length was taken above, up to the room of every layer's
    // record. Past it, the moves-left section.
    let section = len > header.full_len();
    let tail_len = usize::try_from(len.min(header.full_len()) - header.data_end())
        .map_err(|_| refused("its records are too long".into()))?;
    let mut tail = vec![0u8; tail_len];
    file.read_exact_at(&mut tail, header.data_end())
        .map_err(io_error)?;
    let chunks = tail.chunks(RECORD_LEN);
    let count = chunks.len();
    let mut records: Vec<Record> = Vec::new();
    for (i, chunk) in chunks.enumerate() {
        let record = <&[u8; RECORD_LEN]>::try_from(chunk)
            .ok()
            .and_then(Record::from_bytes);
        let expected_layer = records.last().map_or(0, |r| r.layer + 1);
        let layer_blocks = header.layer_blocks.get(expected_layer as usize);
        match record {
            Some(r)
                if r.layer == expected_layer && r.first == 0 && Some(&r.blocks) == layer_blocks =>
            {
                records.push(r)
            }
            // Killed while appending: the last layer was not complete.
            _ if i + 1 == count => break,
            // The room of the layers not recorded when the moves-left
            // section was made, never written.
            _ if section && tail[i * RECORD_LEN..].iter().all(|&b| b == 0) => break,
            _ => {
                return Err(refused(format!(
                    "its record {} is damaged or out of order",
                    i + 1
                )));
            }
        }
    }
    if records.last().is_some_and(|r| r.layer >= header.layers()) {
        return Err(refused("it records more layers than the run has".into()));
    }
    // A section made before every layer was recorded vouches for nothing
    // yet: it is dropped.
    let depth = if section && records.len() == header.layers() as usize {
        Some(read_steps(file, len, header, &refused, &io_error)?)
    } else {
        None
    };
    Ok((records, depth))
}

/// Reads and checks the step records of the moves-left section of a
/// checkpoint `len` bytes long.
fn read_steps(
    file: &File,
    len: u64,
    header: &Geometry,
    refused: &dyn Fn(String) -> GenerateError,
    io_error: &dyn Fn(io::Error) -> GenerateError,
) -> Result<Vec<DepthRecord>, GenerateError> {
    if len < header.depth_end() {
        return Err(refused(format!(
            "it is {len} bytes long, shorter than its moves-left columns ({} bytes)",
            header.depth_end()
        )));
    }
    let tail_len = usize::try_from(len - header.depth_end())
        .map_err(|_| refused("its moves-left records are too long".into()))?;
    let mut tail = vec![0u8; tail_len];
    file.read_exact_at(&mut tail, header.depth_end())
        .map_err(io_error)?;
    let chunks = tail.chunks(RECORD_LEN);
    let count = chunks.len();
    let most = u32::from(header.header.rows) * u32::from(header.header.cols);
    let mut steps: Vec<DepthRecord> = Vec::new();
    for (i, chunk) in chunks.enumerate() {
        let record = <&[u8; RECORD_LEN]>::try_from(chunk)
            .ok()
            .and_then(DepthRecord::from_bytes);
        let follows = |r: &DepthRecord| {
            r.step <= most
                && r.taken <= header.entries
                && steps
                    .last()
                    .is_none_or(|last| r.step > last.step && r.taken >= last.taken)
        };
        match record {
            Some(r) if follows(&r) => steps.push(r),
            // Killed while appending: the step was not recorded.
            _ if i + 1 == count => break,
            _ => {
                return Err(refused(format!(
                    "its moves-left record {} is damaged or out of order",
                    i + 1
                )));
            }
        }
    }
    Ok(steps)
}

/// Syncs the directory of `path`, so that a new file's name is durable.
fn sync_dir(path: &Path) -> io::Result<()> {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => File::open(dir)?.sync_all(),
        _ => File::open(".")?.sync_all(),
    }
}
