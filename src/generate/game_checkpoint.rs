//! Checkpoints of a game's table job: the whole state of its retrograde
//! analysis ([`Snapshot`]), saved beside the table so that the same command
//! resumes a run that was killed or interrupted instead of starting over.
//!
//! A snapshot is taken between two steps of the solver (it offers one every
//! 65,536 positions); the job writes one when the time since the last save
//! is at least `--checkpoint-every` and at least ten times what that save
//! took, so that saving costs at most about a tenth of the run, and once
//! more when the job is interrupted. Each save is a new file, written under
//! a temporary name, synced and renamed over the last: a kill during a save
//! leaves the previous checkpoint whole. The solver resumed from a
//! checkpoint ends with the very entries of a run that never stopped, so
//! the table file is byte-identical.
//!
//! # Layout (all integers little-endian)
//!
//! | offset | bytes | field |
//! | ---: | ---: | --- |
//! | 0 | 8 | magic `BRDBGCKP` |
//! | 8 | 4 | format version, `u32`: 1 |
//! | 12 | 4 | `n`, `u32`: the header's length |
//! | 16 | `n` | header, bincode 2 legacy: generator version (string), the table's file name (string: the game and its setup), position indices (`u64`), stage (`u8`: 0 the first pass, 1 the queue, 2 tier by tier), the stage's count (`u64`: the next index, the positions taken from the queue, or the tiers still to solve), queue length (`u64`) |
//! | 16 + `n` | 4 | CRC-32 of bytes 0 to 16 + `n` |
//! | 20 + `n` | 2 × indices | the entries so far (`u16` each) |
//! | | 2 × indices | the counts of children not known to be won (`u16` each) |
//! | | 8 × queue length | the positions still to leave the queue (`u64` each) |
//! | | 4 | CRC-32 of the three arrays' bytes |
//!
//! A run that solves a game tier by tier saves stage 2, whose count is the
//! number of tiers still to solve (those below it), with a queue length
//! of 0 and no arrays: the entries of the tiers solved are in the job's
//! entries file (`GAME-RxC-kK.bin.tiers`), synced before the checkpoint
//! is written. The entries file has no CRC of its own: a checkpoint vouches
//! for it by its length and by the order of the saves (the file synced
//! first), and the table written from it is checked as every table is
//! (`verify`).
//!
//! A checkpoint is used only when its header matches the job exactly (the
//! same generator version, game, setup and index space) and both CRCs
//! check; anything else is refused with the reason, never repaired.

use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::Path;

use boardbase_tables::game::retrograde::{Resume, Snapshot, Stage, zeroed_entries};
use serde::{Deserialize, Serialize};

use super::GenerateError;
use crate::tablefile::AtomicFile;

/// The first bytes of a game's checkpoint.
const MAGIC: [u8; 8] = *b"BRDBGCKP";

/// The format's version.
const FORMAT: u32 = 1;

/// The generator's version: a checkpoint of another version is refused.
const GENERATOR: &str = concat!("boardbase ", env!("CARGO_PKG_VERSION"));

/// Bytes converted at a time between the arrays and the file.
const CHUNK: usize = 1 << 16;

/// The checkpoint's header.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Header {
    generator: String,
    table: String,
    positions: u64,
    stage: u8,
    count: u64,
    queue: u64,
}

fn config() -> impl bincode::config::Config {
    bincode::config::legacy()
}

/// Writes `snapshot` of the solve of the table named `table` (its file
/// name, which names the game and its setup) to `path`, whole or not at
/// all.
pub(super) fn save(path: &Path, table: &str, snapshot: &Snapshot<'_>) -> Result<(), GenerateError> {
    let io = |error| GenerateError::Checkpoint {
        path: path.to_owned(),
        error,
    };
    let (stage, count) = match snapshot.stage {
        Stage::Scan { next } => (0, next),
        Stage::Queue { taken } => (1, taken),
    };
    let head = encode_head(&Header {
        generator: GENERATOR.to_owned(),
        table: table.to_owned(),
        positions: snapshot.cells.len() as u64,
        stage,
        count,
        queue: snapshot.queue.len() as u64,
    })
    .map_err(io)?;
    let file = AtomicFile::create(path).map_err(io)?;
    let mut out = BufWriter::with_capacity(CHUNK, file);
    out.write_all(&head).map_err(io)?;
    let mut hasher = crc32fast::Hasher::new();
    let mut bytes = Vec::with_capacity(CHUNK);
    for part in [snapshot.cells, snapshot.waiting] {
        for chunk in part.chunks(CHUNK / 2) {
            bytes.clear();
            bytes.extend(chunk.iter().flat_map(|v| v.to_le_bytes()));
            hasher.update(&bytes);
            out.write_all(&bytes).map_err(io)?;
        }
    }
    for chunk in snapshot.queue.chunks(CHUNK / 8) {
        bytes.clear();
        bytes.extend(chunk.iter().flat_map(|v| v.to_le_bytes()));
        hasher.update(&bytes);
        out.write_all(&bytes).map_err(io)?;
    }
    out.write_all(&hasher.finalize().to_le_bytes())
        .map_err(io)?;
    let file = out.into_inner().map_err(|e| io(e.into_error()))?;
    file.commit().map_err(io)
}

/// Reads the checkpoint at `path` of the table named `table`, of
/// `positions` indices, into arrays allocated zeroed (so that pages of
/// zeros in the file stay untouched in memory, as in a solve that never
/// stopped). `Ok(None)` when there is no checkpoint.
pub(super) fn load(
    path: &Path,
    table: &str,
    positions: u64,
) -> Result<Option<Resume>, GenerateError> {
    let Some((header, mut input)) = read_head(path, table, positions)? else {
        return Ok(None);
    };
    let refused = |reason: String| GenerateError::CheckpointRefused {
        path: path.to_owned(),
        reason,
    };
    let io = |error: io::Error| read_error(path, error);
    let stage = match header.stage {
        0 if header.count <= positions => Stage::Scan { next: header.count },
        1 if header.count <= positions => Stage::Queue {
            taken: header.count,
        },
        TIERS => {
            return Err(refused(
                "it was saved by a run that solved the game tier by tier".to_owned(),
            ));
        }
        _ => return Err(refused("its header is damaged".to_owned())),
    };
    if header.queue > positions {
        return Err(refused("its header is damaged".to_owned()));
    }
    let n = usize::try_from(positions).map_err(|_| refused("too large here".to_owned()))?;
    let memory = || refused(format!("no memory for its {n} entries"));
    let mut hasher = crc32fast::Hasher::new();
    let mut bytes = vec![0u8; CHUNK];
    let mut arrays = [
        zeroed_entries(n).map_err(|_| memory())?,
        zeroed_entries(n).map_err(|_| memory())?,
    ];
    for array in &mut arrays {
        for chunk in array.chunks_mut(CHUNK / 2) {
            let part = &mut bytes[..2 * chunk.len()];
            input.read_exact(part).map_err(io)?;
            hasher.update(part);
            // Only chunks holding something are copied: the others stay
            // untouched pages of the zeroed allocation.
            if part.iter().any(|&b| b != 0) {
                for (v, b) in chunk.iter_mut().zip(part.chunks_exact(2)) {
                    *v = u16::from_le_bytes([b[0], b[1]]);
                }
            }
        }
    }
    let q = header.queue as usize;
    let mut queue = Vec::new();
    queue.try_reserve_exact(q).map_err(|_| memory())?;
    let mut left = q;
    while left > 0 {
        let take = left.min(CHUNK / 8);
        let part = &mut bytes[..8 * take];
        input.read_exact(part).map_err(io)?;
        hasher.update(part);
        queue.extend(
            part.chunks_exact(8)
                .map(|b| u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]])),
        );
        left -= take;
    }
    let mut trailer = [0u8; 4];
    input.read_exact(&mut trailer).map_err(io)?;
    if hasher.finalize() != u32::from_le_bytes(trailer) {
        return Err(refused("its data is damaged (CRC mismatch)".to_owned()));
    }
    if input.read(&mut [0u8; 1]).map_err(io)? != 0 {
        return Err(refused("it has bytes past its end".to_owned()));
    }
    let [cells, waiting] = arrays;
    Ok(Some(Resume {
        stage,
        cells,
        waiting,
        queue,
    }))
}

/// The stage of a checkpoint of a run tier by tier: its count is the
/// tiers still to solve, and it holds no arrays (the entries are in the
/// job's entries file).
const TIERS: u8 = 2;

/// The fixed bytes, the header and its CRC.
fn encode_head(header: &Header) -> io::Result<Vec<u8>> {
    let encoded = bincode::serde::encode_to_vec(header, config())
        .map_err(|e| io::Error::other(e.to_string()))?;
    let mut head = Vec::with_capacity(20 + encoded.len());
    head.extend_from_slice(&MAGIC);
    head.extend_from_slice(&FORMAT.to_le_bytes());
    head.extend_from_slice(&(encoded.len() as u32).to_le_bytes());
    head.extend_from_slice(&encoded);
    let crc = crc32fast::hash(&head);
    head.extend_from_slice(&crc.to_le_bytes());
    Ok(head)
}

/// A read's error: a file cut short is refused, other errors are I/O.
fn read_error(path: &Path, error: io::Error) -> GenerateError {
    if error.kind() == io::ErrorKind::UnexpectedEof {
        GenerateError::CheckpointRefused {
            path: path.to_owned(),
            reason: "it is cut short".to_owned(),
        }
    } else {
        GenerateError::Checkpoint {
            path: path.to_owned(),
            error,
        }
    }
}

/// Opens the checkpoint at `path` and reads its header, checked against
/// the job (the table named `table`, of `positions` indices); the reader
/// stands after the header's CRC. `Ok(None)` when there is no checkpoint.
fn read_head(
    path: &Path,
    table: &str,
    positions: u64,
) -> Result<Option<(Header, BufReader<File>)>, GenerateError> {
    let file = match File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(error) => {
            return Err(GenerateError::Checkpoint {
                path: path.to_owned(),
                error,
            });
        }
    };
    let refused = |reason: String| GenerateError::CheckpointRefused {
        path: path.to_owned(),
        reason,
    };
    let io = |error: io::Error| read_error(path, error);
    let mut input = BufReader::with_capacity(CHUNK, file);
    let mut fixed = [0u8; 16];
    input.read_exact(&mut fixed).map_err(io)?;
    if fixed[..8] != MAGIC {
        return Err(refused(
            "it is not a checkpoint of a game's table".to_owned(),
        ));
    }
    let format = u32::from_le_bytes([fixed[8], fixed[9], fixed[10], fixed[11]]);
    if format != FORMAT {
        return Err(refused(format!("format version {format}, not {FORMAT}")));
    }
    let len = u32::from_le_bytes([fixed[12], fixed[13], fixed[14], fixed[15]]) as usize;
    if len > 4096 {
        return Err(refused("its header is damaged".to_owned()));
    }
    let mut encoded = vec![0u8; len + 4];
    input.read_exact(&mut encoded).map_err(io)?;
    let stored = u32::from_le_bytes([
        encoded[len],
        encoded[len + 1],
        encoded[len + 2],
        encoded[len + 3],
    ]);
    let mut hasher = crc32fast::Hasher::new();
    hasher.update(&fixed);
    hasher.update(&encoded[..len]);
    if hasher.finalize() != stored {
        return Err(refused("its header is damaged (CRC mismatch)".to_owned()));
    }
    let header: Header = bincode::serde::decode_from_slice(&encoded[..len], config())
        .map_err(|_| refused("its header is damaged".to_owned()))?
        .0;
    if header.generator != GENERATOR {
        return Err(refused(format!(
            "it was saved by {}, this is {GENERATOR}",
            header.generator
        )));
    }
    if header.table != table || header.positions != positions {
        return Err(refused(format!(
            "it is of {} ({} position indices), not of {table} ({positions})",
            header.table, header.positions
        )));
    }
    Ok(Some((header, input)))
}

/// Writes the checkpoint of a run tier by tier of the table named
/// `table` (`positions` indices): the tiers below `left` are still to
/// solve, those from `left` on are in the entries file, synced before.
pub(super) fn save_tiers(
    path: &Path,
    table: &str,
    positions: u64,
    left: u64,
) -> Result<(), GenerateError> {
    let io = |error| GenerateError::Checkpoint {
        path: path.to_owned(),
        error,
    };
    let mut head = encode_head(&Header {
        generator: GENERATOR.to_owned(),
        table: table.to_owned(),
        positions,
        stage: TIERS,
        count: left,
        queue: 0,
    })
    .map_err(io)?;
    // The CRC of no arrays: the layout of every stage.
    head.extend_from_slice(&crc32fast::hash(&[]).to_le_bytes());
    let mut file = AtomicFile::create(path).map_err(io)?;
    file.write_all(&head).map_err(io)?;
    file.commit().map_err(io)
}

/// Whether the checkpoint at `path` of the table named `table` was saved
/// by a run tier by tier (`Some(false)`: by a whole solve); `None` where
/// there is none, or it cannot be read (the run says why).
pub(super) fn saved_tier_by_tier(path: &Path, table: &str, positions: u64) -> Option<bool> {
    let (header, _) = read_head(path, table, positions).ok()??;
    Some(header.stage == TIERS)
}

/// Reads the checkpoint of a run tier by tier at `path`: the tiers still
/// to solve, at most `tiers`. `Ok(None)` when there is none.
pub(super) fn load_tiers(
    path: &Path,
    table: &str,
    positions: u64,
    tiers: u64,
) -> Result<Option<u64>, GenerateError> {
    let Some((header, mut input)) = read_head(path, table, positions)? else {
        return Ok(None);
    };
    let refused = |reason: &str| GenerateError::CheckpointRefused {
        path: path.to_owned(),
        reason: reason.to_owned(),
    };
    match header.stage {
        TIERS if header.count <= tiers && header.queue == 0 => {}
        0 | 1 => return Err(refused("it was saved by a run that solved the game whole")),
        _ => return Err(refused("its header is damaged")),
    }
    let mut rest = Vec::new();
    input
        .read_to_end(&mut rest)
        .map_err(|e| read_error(path, e))?;
    if rest != crc32fast::hash(&[]).to_le_bytes() {
        return Err(refused("its data is damaged"));
    }
    Ok(Some(header.count))
}
