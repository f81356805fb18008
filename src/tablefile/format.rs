//! The version-2 byte layout: the header, its encoding and the checks of a
//! file's structure (everything but the column contents).

use serde::{Deserialize, Serialize};

use super::{ColumnInfo, MAGIC, MAX_HEADER_LEN, Puzzle, TableError, VERSION};
use boardbase_solvers::shape::Shape;

/// Bytes before the encoded header: magic, version, header length.
pub(crate) const PRELUDE_LEN: usize = 16;

/// Bytes of the header CRC after the encoded header.
pub(crate) const CRC_LEN: usize = 4;

/// Columns start at multiples of this.
pub(crate) const ALIGN: u64 = 64;

/// The encoded header (bincode 2, legacy configuration).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Header {
    pub(crate) puzzle: String,
    pub(crate) rows: u8,
    pub(crate) cols: u8,
    pub(crate) file_len: u64,
    pub(crate) columns: Vec<ColumnHeader>,
}

/// One column's entry in the header.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct ColumnHeader {
    pub(crate) name: String,
    pub(crate) width: u8,
    pub(crate) entries: u64,
    pub(crate) offset: u64,
    pub(crate) len: u64,
    pub(crate) crc: u32,
}

/// What the structural checks of a version-2 file found.
pub(crate) struct Parsed {
    pub(crate) puzzle: Puzzle,
    pub(crate) shape: Shape,
    pub(crate) columns: Vec<ColumnInfo>,
    pub(crate) file_len: u64,
}

/// Reads a little-endian `u32` at `at` (the caller checked the length).
fn le_u32(bytes: &[u8], at: usize) -> u32 {
    let mut b = [0u8; 4];
    b.copy_from_slice(&bytes[at..at + 4]);
    u32::from_le_bytes(b)
}

/// Checks the magic and reads the version: what every version shares.
pub(crate) fn version(bytes: &[u8]) -> Result<u32, TableError> {
    let n = bytes.len().min(MAGIC.len());
    if bytes[..n] != MAGIC[..n] {
        let mut found = [0u8; 8];
        found[..n].copy_from_slice(&bytes[..n]);
        return Err(TableError::BadMagic { found });
    }
    if bytes.len() < 12 {
        return Err(TableError::Truncated {
            len: bytes.len() as u64,
            expected: 12,
        });
    }
    Ok(le_u32(bytes, 8))
}

/// Round `at` up to a multiple of [`ALIGN`] (saturating).
pub(crate) fn align_up(at: u64) -> u64 {
    at.div_ceil(ALIGN).saturating_mul(ALIGN)
}

/// Bytes of `entries` entries of `width` bits, or `None` on overflow.
pub(crate) fn byte_len(entries: u64, width: u8) -> Option<u64> {
    entries
        .checked_mul(u64::from(width))
        .map(|bits| bits.div_ceil(8))
}

/// Parses and checks a version-2 file's structure: everything up to the
/// required columns' presence, widths and entry counts. The column CRCs and
/// contents are not read.
pub(crate) fn parse(bytes: &[u8]) -> Result<Parsed, TableError> {
    let len = bytes.len() as u64;
    let version = version(bytes)?;
    debug_assert_eq!(version, VERSION);
    if bytes.len() < PRELUDE_LEN {
        return Err(TableError::Truncated {
            len,
            expected: PRELUDE_LEN as u64,
        });
    }
    let header_len = u64::from(le_u32(bytes, 12));
    if header_len > u64::from(MAX_HEADER_LEN) {
        return Err(TableError::HeaderTooLarge {
            len: header_len,
            max: u64::from(MAX_HEADER_LEN),
        });
    }
    // At most 16 + 65,536 + 4: no overflow.
    let header_end = PRELUDE_LEN + header_len as usize;
    if bytes.len() < header_end + CRC_LEN {
        return Err(TableError::Truncated {
            len,
            expected: (header_end + CRC_LEN) as u64,
        });
    }
    let stored = le_u32(bytes, header_end);
    let computed = crc32fast::hash(&bytes[..header_end]);
    if stored != computed {
        return Err(TableError::HeaderCrc { stored, computed });
    }
    let config = bincode::config::legacy().with_limit::<{ MAX_HEADER_LEN as usize }>();
    let (header, used): (Header, usize) =
        bincode::serde::decode_from_slice(&bytes[PRELUDE_LEN..header_end], config)
            .map_err(|e| TableError::HeaderDecode(e.to_string()))?;
    if used != header_end - PRELUDE_LEN {
        return Err(TableError::HeaderTrailing(header_end - PRELUDE_LEN - used));
    }
    if len < header.file_len {
        return Err(TableError::Truncated {
            len,
            expected: header.file_len,
        });
    }
    if len > header.file_len {
        return Err(TableError::TrailingBytes {
            len,
            expected: header.file_len,
        });
    }
    let (puzzle, shape) = puzzle_and_shape(&header.puzzle, header.rows, header.cols)?;
    let mut end = (header_end + CRC_LEN) as u64;
    let mut columns = Vec::with_capacity(header.columns.len());
    for c in header.columns {
        if c.offset % ALIGN != 0 || c.offset < end {
            return Err(TableError::ColumnOffset {
                column: c.name,
                offset: c.offset,
                min: end,
            });
        }
        let column_end = c.offset.saturating_add(c.len);
        if column_end > header.file_len {
            return Err(TableError::ColumnEnd {
                column: c.name,
                end: column_end,
                file_len: header.file_len,
            });
        }
        end = column_end;
        columns.push(ColumnInfo {
            name: c.name,
            width: c.width,
            entries: c.entries,
            byte_len: c.len,
            offset: Some(c.offset),
            crc: Some(c.crc),
        });
    }
    if end != header.file_len {
        return Err(TableError::FileEnd {
            file_len: header.file_len,
            end,
        });
    }
    Ok(Parsed {
        puzzle,
        shape,
        columns,
        file_len: header.file_len,
    })
}

/// The puzzle of `name` and the shape `rows`×`cols`, checked against the
/// puzzle's limits.
pub(crate) fn puzzle_and_shape(
    name: &str,
    rows: u8,
    cols: u8,
) -> Result<(Puzzle, Shape), TableError> {
    let puzzle = Puzzle::from_name(name).ok_or_else(|| TableError::UnknownPuzzle(name.into()))?;
    match Shape::new(usize::from(rows), usize::from(cols)) {
        Some(shape) if shape.cells() <= puzzle.max_cells() => Ok((puzzle, shape)),
        _ => Err(TableError::BadShape { puzzle, rows, cols }),
    }
}

/// The encoded prelude, header and header CRC of a table with these
/// columns (CRCs given), and the offsets the columns get: each at the first
/// multiple of [`ALIGN`] after what precedes it.
pub(crate) fn encode_header(
    puzzle: Puzzle,
    shape: Shape,
    columns: &[ColumnInfo],
    crcs: &[u32],
) -> (Vec<u8>, Vec<u64>, u64) {
    let mut header = Header {
        puzzle: puzzle.name().to_owned(),
        rows: shape.rows() as u8,
        cols: shape.cols() as u8,
        file_len: 0,
        columns: columns
            .iter()
            .zip(crcs)
            .map(|(c, &crc)| ColumnHeader {
                name: c.name.clone(),
                width: c.width,
                entries: c.entries,
                offset: 0,
                len: c.byte_len,
                crc,
            })
            .collect(),
    };
    // The legacy configuration encodes integers at a fixed width, so the
    // length does not depend on the offsets filled in below.
    let encode = |h: &Header| {
        bincode::serde::encode_to_vec(h, bincode::config::legacy())
            .expect("encoding into a Vec cannot fail")
    };
    let header_len = encode(&header).len();
    let mut end = (PRELUDE_LEN + header_len + CRC_LEN) as u64;
    let mut offsets = Vec::with_capacity(columns.len());
    for c in &mut header.columns {
        c.offset = align_up(end);
        end = c.offset + c.len;
        offsets.push(c.offset);
    }
    header.file_len = end;
    let body = encode(&header);
    debug_assert_eq!(body.len(), header_len);
    let mut bytes = Vec::with_capacity(PRELUDE_LEN + body.len() + CRC_LEN);
    bytes.extend_from_slice(&MAGIC);
    bytes.extend_from_slice(&VERSION.to_le_bytes());
    bytes.extend_from_slice(&(body.len() as u32).to_le_bytes());
    bytes.extend_from_slice(&body);
    let crc = crc32fast::hash(&bytes);
    bytes.extend_from_slice(&crc.to_le_bytes());
    (bytes, offsets, end)
}
