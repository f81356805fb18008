//! Checkpoints of a Game of Euler generation: the win/loss layers finished
//! so far, saved beside the table so that the same command resumes a run
//! that was killed (SIGKILL, a reboot) or interrupted, instead of starting
//! over.
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
//!
//! A record names a range of one layer's blocks, in the order of
//! [`layer_members`]; the generator writes a whole layer in one record. A
//! job over several ranks (see [`crate::ranks`]) saves its layers in this
//! same file, which the ranks then share: each rank writes its share of a
//! layer's blocks and syncs them, and once every rank has, rank 0 appends
//! the layer's record, its CRC made from the ranks' CRCs
//! ([`crc32fast::Hasher::combine`]). A checkpoint is thus the same whether
//! one process or any number of ranks wrote it, and either resumes it.
//!
//! # Trust
//!
//! A checkpoint is used only when its header matches the run exactly (the
//! same generator version, puzzle and shape) and every record's CRC and
//! every layer's data CRC check; anything else is refused with the reason,
//! never repaired or guessed. The one exception is a torn last record (the
//! run was killed while appending it): its layer was not complete, and it
//! is dropped. While a run uses a checkpoint it holds a lock on it, so two
//! runs never write one checkpoint.

use std::fs::{File, OpenOptions};
use std::io;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use super::error::GenerateError;
use crate::tablefile::parts::{FileExt, PartCrc};
use boardbase_tables::euler::winloss::{WinLossSolver, layer_members};
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

/// Bytes of one record.
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

impl Header {
    fn of(shape: Shape, wl: &WinLossSolver) -> Header {
        let mut header = Header {
            generator: GENERATOR.to_owned(),
            puzzle: "euler".to_owned(),
            rows: shape.rows() as u8,
            cols: shape.cols() as u8,
            block_bits: wl.block_bits(),
            top_bits: wl.top_bits(),
            words: wl.words() as u64,
            data_offset: 0,
        };
        let len = 16 + encode(&header).len() as u64 + 4;
        header.data_offset = len.div_ceil(DATA_ALIGN) * DATA_ALIGN;
        header
    }

    /// Where the bitset ends and the records start.
    fn data_end(&self) -> u64 {
        self.data_offset + self.words * 8
    }

    /// The checkpoint's length once every layer is saved: the header, the
    /// bitset, a record a layer.
    fn full_len(&self) -> u64 {
        self.data_end() + u64::from(self.top_bits + 1) * RECORD_LEN as u64
    }
}

/// The most bytes the checkpoint of a run of `shape` takes: its length once
/// every win/loss layer is saved (the bitset's pages are allocated as the
/// layers are written).
pub(crate) fn checkpoint_len(shape: Shape) -> u64 {
    Header::of(shape, &WinLossSolver::new(shape)).full_len()
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
    header: Header,
    /// The complete layers' records, in order.
    records: Vec<Record>,
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
        let mut buf = vec![0u8; self.block_bytes as usize];
        let mut crc = crc32fast::Hasher::new();
        for &b in blocks {
            for (word, bytes) in block(b).iter().zip(buf.chunks_exact_mut(8)) {
                bytes.copy_from_slice(&word.load(Relaxed).to_le_bytes());
            }
            crc.update(&buf);
            let at = self.data_offset + b as u64 * self.block_bytes;
            self.file
                .write_all_at(&buf, at)
                .map_err(|e| self.io_error(e))?;
        }
        self.file.sync_data().map_err(|e| self.io_error(e))?;
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

impl Checkpoint {
    /// What the checkpoint at `path` holds for a run of `shape`, if there
    /// is one; `Err` when it would be refused.
    pub(crate) fn inspect(path: &Path, shape: Shape) -> Result<Option<Resume>, GenerateError> {
        let wl = WinLossSolver::new(shape);
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
        let (_, records) = read(&file, path, shape, &wl)?;
        Ok(Some(Resume {
            path: path.to_owned(),
            layers_done: records.last().map_or(0, |r| r.layer + 1),
            layers: wl.top_bits() + 1,
        }))
    }

    /// Opens the checkpoint at `path` for a run of `shape`, or creates it;
    /// takes its lock.
    pub(crate) fn open(path: &Path, shape: Shape) -> Result<Checkpoint, GenerateError> {
        let wl = WinLossSolver::new(shape);
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
        match file.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                return Err(GenerateError::CheckpointLocked {
                    path: path.to_owned(),
                });
            }
            Err(std::fs::TryLockError::Error(e)) => return Err(io_error(e)),
        }
        let fresh = file.metadata().map_err(io_error)?.len() == 0;
        let (header, records) = if fresh {
            let header = Header::of(shape, &wl);
            let body = encode(&header);
            let mut bytes = Vec::with_capacity(16 + body.len() + 4);
            bytes.extend_from_slice(&MAGIC);
            bytes.extend_from_slice(&FORMAT.to_le_bytes());
            bytes.extend_from_slice(&(body.len() as u32).to_le_bytes());
            bytes.extend_from_slice(&body);
            let crc = crc32fast::hash(&bytes);
            bytes.extend_from_slice(&crc.to_le_bytes());
            file.write_all_at(&bytes, 0).map_err(io_error)?;
            // The bitset's room, sparse until the layers are written.
            file.set_len(header.data_end()).map_err(io_error)?;
            file.sync_all().map_err(io_error)?;
            sync_dir(path).map_err(io_error)?;
            (header, Vec::new())
        } else {
            read(&file, path, shape, &wl)?
        };
        // A torn record after the complete ones is dropped: its layer is
        // saved again.
        let end = header.data_end() + (records.len() * RECORD_LEN) as u64;
        file.set_len(end).map_err(io_error)?;
        Ok(Checkpoint::of(file, path, header, records, &wl))
    }

    /// Opens the checkpoint at `path` that another rank of the same job
    /// [`open`](Checkpoint::open)ed (and holds the lock of), to write this
    /// rank's blocks into and read them back from.
    pub(crate) fn join(path: &Path, shape: Shape) -> Result<Checkpoint, GenerateError> {
        let wl = WinLossSolver::new(shape);
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)
            .map_err(|error| GenerateError::Checkpoint {
                path: path.to_owned(),
                error,
            })?;
        let (header, records) = read(&file, path, shape, &wl)?;
        Ok(Checkpoint::of(file, path, header, records, &wl))
    }

    fn of(
        file: File,
        path: &Path,
        header: Header,
        records: Vec<Record>,
        wl: &WinLossSolver,
    ) -> Checkpoint {
        Checkpoint {
            blocks: BlockFile {
                file: Arc::new(file),
                path: path.to_owned(),
                data_offset: header.data_offset,
                block_bytes: wl.block_words() as u64 * 8,
            },
            header,
            records,
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
    /// layer's `len` blocks, in its order) into their words (`block(b)` for
    /// block `b`), and returns the CRC of each layer's part, to be checked
    /// by [`check_parts`](Checkpoint::check_parts) with the other ranks'.
    pub(crate) fn load_part<'a>(
        &self,
        part: &dyn Fn(usize) -> Range<usize>,
        block: &dyn Fn(usize) -> &'a [AtomicU64],
        progress: &dyn Fn(u64),
    ) -> Result<Vec<PartCrc>, GenerateError> {
        let top_bits = self.header.top_bits;
        self.records
            .iter()
            .map(|record| {
                let ones = top_bits - record.layer;
                let range = part(record.blocks as usize);
                let members = layer_members(top_bits, ones)
                    .skip(range.start)
                    .take(range.len());
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
        let at = self.header.data_end() + (self.records.len() * RECORD_LEN) as u64;
        let file = &self.blocks.file;
        file.write_all_at(&record.to_bytes(), at)
            .and_then(|()| file.sync_data())
            .map_err(|e| self.blocks.io_error(e))?;
        self.records.push(record);
        Ok(())
    }

    fn refused(&self, reason: String) -> GenerateError {
        GenerateError::CheckpointRefused {
            path: self.blocks.path.clone(),
            reason,
        }
    }
}

/// Reads and checks the header and the records of a checkpoint for a run
/// of `shape`.
fn read(
    file: &File,
    path: &Path,
    shape: Shape,
    wl: &WinLossSolver,
) -> Result<(Header, Vec<Record>), GenerateError> {
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
    let expected = Header::of(shape, wl);
    if header.generator != expected.generator {
        return Err(refused(format!(
            "it was written by {}, this is {}",
            header.generator, expected.generator
        )));
    }
    if header != expected {
        return Err(refused(format!(
            "it is for {} {}x{}, not this run's {} {shape}",
            header.puzzle, header.rows, header.cols, expected.puzzle
        )));
    }
    if len < header.data_end() {
        return Err(refused(format!(
            "it is {len} bytes long, shorter than its bitset ({} bytes)",
            header.data_end()
        )));
    }
    // The records: everything after the bitset, as long as the file was
    // when its length was taken above.
    let tail_len = usize::try_from(len - header.data_end())
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
        let layer_blocks = layer_members(
            header.top_bits,
            header.top_bits.wrapping_sub(expected_layer),
        )
        .count() as u64;
        match record {
            Some(r) if r.layer == expected_layer && r.first == 0 && r.blocks == layer_blocks => {
                records.push(r)
            }
            // Killed while appending: the last layer was not complete.
            _ if i + 1 == count => break,
            _ => {
                return Err(refused(format!(
                    "its record {} is damaged or out of order",
                    i + 1
                )));
            }
        }
    }
    if records.last().is_some_and(|r| r.layer > header.top_bits) {
        return Err(refused("it records more layers than the run has".into()));
    }
    Ok((header, records))
}

/// Syncs the directory of `path`, so that a new file's name is durable.
fn sync_dir(path: &Path) -> io::Result<()> {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => File::open(dir)?.sync_all(),
        _ => File::open(".")?.sync_all(),
    }
}
