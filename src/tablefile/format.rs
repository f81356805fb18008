//! The byte layouts of versions 2 to 6: the header, its encoding and the
//! checks of a file's structure (everything but the column contents).

use serde::{Deserialize, Serialize};

use super::index::{IndexHeader, VERSION_5};
use super::{ColumnBlocks, ColumnInfo, MAGIC, MAX_HEADER_LEN, Puzzle, TableError, VERSION};
use boardbase_tables::shape::Shape;

/// Bytes before the encoded header: magic, version, header length.
pub(crate) const PRELUDE_LEN: usize = 16;

/// Bytes of the header CRC after the encoded header.
pub(crate) const CRC_LEN: usize = 4;

/// Columns (and, in version 3, block-CRC arrays) start at multiples of this.
pub(crate) const ALIGN: u64 = 64;

/// The version without block CRCs, still read and verified.
pub(crate) const VERSION_2: u32 = 2;

/// The version whose columns may be stored compressed in blocks
/// ([`Codec`]), written by [`Table::compress`](super::Table::compress).
pub(crate) const VERSION_4: u32 = 4;

/// The layout version of a game's table with one entry a class
/// ([`ranked`](super::ranked)): version 4's columns (each with its codec),
/// `canonical` and `canonical_rank` saying where each position's entry is.
pub(crate) const VERSION_6: u32 = 6;

/// How a version-4 column's blocks are stored (the header's `codec`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Codec {
    /// As in version 3: the entries' bytes, then the block-CRC array.
    Raw,
    /// Each block compressed on its own with Zstandard, with a dictionary
    /// trained on the column's blocks, so that a probe decompresses one
    /// small block; an index of where each block starts, then the CRC-32 of
    /// each compressed block and of the dictionary.
    Zstd,
}

impl Codec {
    /// The header's code for the codec.
    pub(crate) fn code(self) -> u8 {
        match self {
            Codec::Raw => 0,
            Codec::Zstd => 1,
        }
    }

    /// The codec of a header's code.
    pub(crate) fn from_code(code: u8) -> Option<Codec> {
        match code {
            0 => Some(Codec::Raw),
            1 => Some(Codec::Zstd),
            _ => None,
        }
    }
}

/// Bytes of one entry of a compressed column's index: where a block starts,
/// a `u64` from the column's start.
pub(crate) const INDEX_ENTRY_LEN: u64 = 8;

/// Bytes of a compressed column's index: `count + 1` offsets (the first
/// where the first block starts, after the column's dictionary; the last
/// where the column ends), then `count` block CRC-32s and the dictionary's.
pub(crate) fn packed_index_len(count: u64) -> u64 {
    count
        .saturating_add(1)
        .saturating_mul(INDEX_ENTRY_LEN + BLOCK_CRC_LEN)
}

/// The block length the writer uses: 4 KiB, one page, so that a probe's
/// first read of a block checks about what the system reads for it anyway
/// (a CRC-32 of 4 KiB takes well under a microsecond).
pub(crate) const BLOCK_LEN: u32 = 4096;

/// The shortest block a reader accepts: one alignment unit, so that no
/// entry (at most 8 bytes, at a multiple of its width) straddles two blocks.
pub(crate) const MIN_BLOCK_LEN: u32 = ALIGN as u32;

/// The longest block a reader accepts (1 MiB): a probe checks a whole block
/// the first time it reads it, so this bounds what one probe can cost.
pub(crate) const MAX_BLOCK_LEN: u32 = 1 << 20;

/// Bytes of one block CRC in a block-CRC array.
pub(crate) const BLOCK_CRC_LEN: u64 = 4;

/// The encoded header (bincode 2, legacy configuration), of either version:
/// `C` is [`ColumnHeader`] (version 2) or [`ColumnHeaderV3`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Header<C> {
    pub(crate) puzzle: String,
    pub(crate) rows: u8,
    pub(crate) cols: u8,
    pub(crate) file_len: u64,
    pub(crate) columns: Vec<C>,
}

impl<C> Header<C> {
    /// The header with each column's entry in a later version's form.
    fn widen<D: From<C>>(self) -> Header<D> {
        Header {
            puzzle: self.puzzle,
            rows: self.rows,
            cols: self.cols,
            file_len: self.file_len,
            columns: self.columns.into_iter().map(D::from).collect(),
        }
    }
}

/// One column's entry in a version-2 header.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct ColumnHeader {
    pub(crate) name: String,
    pub(crate) width: u8,
    pub(crate) entries: u64,
    pub(crate) offset: u64,
    pub(crate) len: u64,
    /// The CRC-32 of the column's bytes.
    pub(crate) crc: u32,
}

/// One column's entry in a version-3 header: version 2's fields, then where
/// its block CRCs are.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct ColumnHeaderV3 {
    pub(crate) name: String,
    pub(crate) width: u8,
    pub(crate) entries: u64,
    pub(crate) offset: u64,
    pub(crate) len: u64,
    /// The CRC-32 of the column's block-CRC array.
    pub(crate) crc: u32,
    pub(crate) block_len: u32,
    pub(crate) block_crcs_offset: u64,
}

/// One column's entry in a version-4 header: version 3's fields, then its
/// codec. In a compressed column `len` is the bytes stored (the compressed
/// blocks), `block_len` the bytes of entries each block holds, and
/// `block_crcs_offset` where its index is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct ColumnHeaderV4 {
    pub(crate) name: String,
    pub(crate) width: u8,
    pub(crate) entries: u64,
    pub(crate) offset: u64,
    pub(crate) len: u64,
    /// The CRC-32 of the column's block-CRC array (raw) or of its index and
    /// block CRCs (compressed).
    pub(crate) crc: u32,
    pub(crate) block_len: u32,
    pub(crate) block_crcs_offset: u64,
    /// [`Codec::code`].
    pub(crate) codec: u8,
}

impl From<ColumnHeader> for ColumnHeaderV4 {
    /// A version-2 column: no blocks.
    fn from(c: ColumnHeader) -> ColumnHeaderV4 {
        ColumnHeaderV4 {
            name: c.name,
            width: c.width,
            entries: c.entries,
            offset: c.offset,
            len: c.len,
            crc: c.crc,
            block_len: 0,
            block_crcs_offset: 0,
            codec: Codec::Raw.code(),
        }
    }
}

impl From<ColumnHeaderV3> for ColumnHeaderV4 {
    /// A version-3 column: stored raw.
    fn from(c: ColumnHeaderV3) -> ColumnHeaderV4 {
        ColumnHeaderV4 {
            name: c.name,
            width: c.width,
            entries: c.entries,
            offset: c.offset,
            len: c.len,
            crc: c.crc,
            block_len: c.block_len,
            block_crcs_offset: c.block_crcs_offset,
            codec: Codec::Raw.code(),
        }
    }
}

/// What the structural checks of a version-2 to 5 file found.
pub(crate) struct Parsed {
    /// The header's `puzzle` field: what the table is for.
    pub(crate) name: String,
    pub(crate) rows: u8,
    pub(crate) cols: u8,
    pub(crate) version: u32,
    pub(crate) columns: Vec<ColumnInfo>,
    pub(crate) file_len: u64,
    /// Version 5's index of positions up to the board's symmetries, as
    /// the header gives it (not checked yet).
    pub(crate) index: Option<IndexHeader>,
}

/// Reads a little-endian `u32` at `at` (the caller checked the length).
pub(crate) fn le_u32(bytes: &[u8], at: usize) -> u32 {
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

/// Whether files of `version` are read through [`parse`] (mapped): 2 to 6.
pub(crate) fn is_mapped_version(version: u32) -> bool {
    matches!(
        version,
        VERSION | VERSION_2 | VERSION_4 | VERSION_5 | VERSION_6
    )
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

/// The blocks of `block_len` bytes that `len` bytes make, the last one
/// possibly short.
pub(crate) fn block_count(len: u64, block_len: u32) -> u64 {
    len.div_ceil(u64::from(block_len.max(1)))
}

/// Decodes the encoded header of `bytes[PRELUDE_LEN..header_end]`.
fn decode<C: serde::de::DeserializeOwned>(
    bytes: &[u8],
    header_end: usize,
) -> Result<Header<C>, TableError> {
    let (header, used) = decode_part(&bytes[PRELUDE_LEN..header_end])?;
    if used != header_end - PRELUDE_LEN {
        return Err(TableError::HeaderTrailing(header_end - PRELUDE_LEN - used));
    }
    Ok(header)
}

/// Decodes a version-5 header: version 4's, then the `index` field (bincode
/// encodes a struct's fields one after the other, so the field is what
/// follows version 4's fields).
fn decode_v5(
    bytes: &[u8],
    header_end: usize,
) -> Result<(Header<ColumnHeaderV4>, IndexHeader), TableError> {
    let body = &bytes[PRELUDE_LEN..header_end];
    let (header, used) = decode_part(body)?;
    let (index, more) = decode_part(&body[used..])?;
    if used + more != body.len() {
        return Err(TableError::HeaderTrailing(body.len() - used - more));
    }
    Ok((header, index))
}

/// Decodes a `T` at the start of `bytes`, and the bytes it took.
fn decode_part<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<(T, usize), TableError> {
    let config = bincode::config::legacy().with_limit::<{ MAX_HEADER_LEN as usize }>();
    bincode::serde::decode_from_slice(bytes, config)
        .map_err(|e| TableError::HeaderDecode(e.to_string()))
}

/// Parses and checks a version-2 or 3 file's structure: everything up to
/// the required columns' presence, widths and entry counts. The column
/// CRCs, block CRCs and contents are not read.
pub(crate) fn parse(bytes: &[u8]) -> Result<Parsed, TableError> {
    let len = bytes.len() as u64;
    let version = version(bytes)?;
    debug_assert!(is_mapped_version(version));
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
    // Every version as one header: a version-2 column has no blocks, a
    // version-3 one is raw.
    let (header, index): (Header<ColumnHeaderV4>, _) = match version {
        VERSION_5 => {
            let (header, index) = decode_v5(bytes, header_end)?;
            (header, Some(index))
        }
        VERSION_4 | VERSION_6 => (decode(bytes, header_end)?, None),
        VERSION_2 => (decode::<ColumnHeader>(bytes, header_end)?.widen(), None),
        _ => (decode::<ColumnHeaderV3>(bytes, header_end)?.widen(), None),
    };
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
        let blocks = if version == VERSION_2 {
            None
        } else {
            if !c.block_len.is_power_of_two()
                || !(MIN_BLOCK_LEN..=MAX_BLOCK_LEN).contains(&c.block_len)
            {
                return Err(TableError::BlockLen {
                    column: c.name,
                    block_len: c.block_len,
                });
            }
            let Some(codec) = Codec::from_code(c.codec) else {
                return Err(TableError::Codec {
                    column: c.name,
                    codec: c.codec,
                });
            };
            // A compressed column's blocks are counted in the entries'
            // bytes, which its stored bytes do not tell.
            let entry_bytes = match codec {
                Codec::Raw => c.len,
                Codec::Zstd => byte_len(c.entries, c.width).unwrap_or(u64::MAX),
            };
            let count = block_count(entry_bytes, c.block_len);
            let index_len = match codec {
                Codec::Raw => count.saturating_mul(BLOCK_CRC_LEN),
                Codec::Zstd => packed_index_len(count),
            };
            if c.block_crcs_offset % ALIGN != 0 || c.block_crcs_offset < end {
                return Err(TableError::BlockCrcsOffset {
                    column: c.name,
                    offset: c.block_crcs_offset,
                    min: end,
                });
            }
            let crcs_end = c.block_crcs_offset.saturating_add(index_len);
            if crcs_end > header.file_len {
                return Err(TableError::ColumnEnd {
                    column: c.name,
                    end: crcs_end,
                    file_len: header.file_len,
                });
            }
            end = crcs_end;
            Some(ColumnBlocks {
                block_len: c.block_len,
                count,
                crcs_offset: c.block_crcs_offset,
                packed: (codec == Codec::Zstd).then_some(c.len),
            })
        };
        let byte_len = match &blocks {
            Some(ColumnBlocks {
                packed: Some(_), ..
            }) => byte_len(c.entries, c.width).unwrap_or(u64::MAX),
            _ => c.len,
        };
        columns.push(ColumnInfo {
            name: c.name,
            width: c.width,
            entries: c.entries,
            byte_len,
            offset: Some(c.offset),
            crc: Some(c.crc),
            blocks,
        });
    }
    if end != header.file_len {
        return Err(TableError::FileEnd {
            file_len: header.file_len,
            end,
        });
    }
    Ok(Parsed {
        name: header.puzzle,
        rows: header.rows,
        cols: header.cols,
        version,
        columns,
        file_len: header.file_len,
        index,
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

/// Where [`encode_header`] puts a column: its bytes, and in version 3 its
/// block-CRC array.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Placed {
    /// Where the column's bytes start.
    pub(crate) offset: u64,
    /// Where its block-CRC array starts (version 3), right after it.
    pub(crate) block_crcs: Option<u64>,
}

/// The encoded prelude, header and header CRC of a table of `version` (2 or
/// 3; 5 with an `index`; 6) with these columns (their `crc` fields given: of
/// the column in version 2, of its block-CRC array in versions 3 to 6),
/// the places the columns get, and the file's length. Each region starts at
/// the first multiple of [`ALIGN`] after what precedes it: a column, then
/// (versions 3 to 6) its block-CRC array of blocks of [`BLOCK_LEN`], then
/// the next column. Version 5 and 6 columns are stored raw (codec 0).
pub(crate) fn encode_header(
    name: &str,
    shape: Shape,
    version: u32,
    columns: &[ColumnInfo],
    crcs: &[u32],
    index: Option<&IndexHeader>,
) -> (Vec<u8>, Vec<Placed>, u64) {
    debug_assert_eq!(index.is_some(), version == VERSION_5);
    let mut header = Header {
        puzzle: name.to_owned(),
        rows: shape.rows() as u8,
        cols: shape.cols() as u8,
        file_len: 0,
        columns: columns
            .iter()
            .zip(crcs)
            .map(|(c, &crc)| ColumnHeaderV3 {
                name: c.name.clone(),
                width: c.width,
                entries: c.entries,
                offset: 0,
                len: c.byte_len,
                crc,
                block_len: BLOCK_LEN,
                block_crcs_offset: 0,
            })
            .collect(),
    };
    // The legacy configuration encodes integers at a fixed width, so the
    // length does not depend on the offsets filled in below.
    let encode = |h: &Header<ColumnHeaderV3>| {
        let config = bincode::config::legacy();
        let encoded = if version == VERSION_2 {
            let v2 = Header {
                puzzle: h.puzzle.clone(),
                rows: h.rows,
                cols: h.cols,
                file_len: h.file_len,
                columns: h
                    .columns
                    .iter()
                    .map(|c| ColumnHeader {
                        name: c.name.clone(),
                        width: c.width,
                        entries: c.entries,
                        offset: c.offset,
                        len: c.len,
                        crc: c.crc,
                    })
                    .collect(),
            };
            bincode::serde::encode_to_vec(&v2, config)
        } else if version == VERSION_5 || version == VERSION_6 {
            let v4: Header<ColumnHeaderV4> = h.clone().widen();
            bincode::serde::encode_to_vec(&v4, config).map(|mut bytes| {
                bytes.extend(index.iter().flat_map(|index| index.encode()));
                bytes
            })
        } else {
            bincode::serde::encode_to_vec(h, config)
        };
        encoded.expect("encoding into a Vec cannot fail")
    };
    let header_len = encode(&header).len();
    let mut end = (PRELUDE_LEN + header_len + CRC_LEN) as u64;
    let mut placed = Vec::with_capacity(columns.len());
    for c in &mut header.columns {
        c.offset = align_up(end);
        end = c.offset.saturating_add(c.len);
        let block_crcs = (version != VERSION_2).then(|| {
            c.block_crcs_offset = align_up(end);
            end = c
                .block_crcs_offset
                .saturating_add(block_count(c.len, c.block_len) * BLOCK_CRC_LEN);
            c.block_crcs_offset
        });
        placed.push(Placed {
            offset: c.offset,
            block_crcs,
        });
    }
    header.file_len = end;
    let body = encode(&header);
    debug_assert_eq!(body.len(), header_len);
    (sealed(version, &body), placed, end)
}

/// A file's first bytes: the magic, `version`, the encoded header's length,
/// the header `body`, then the CRC-32 of all of them.
pub(crate) fn sealed(version: u32, body: &[u8]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(PRELUDE_LEN + body.len() + CRC_LEN);
    bytes.extend_from_slice(&MAGIC);
    bytes.extend_from_slice(&version.to_le_bytes());
    bytes.extend_from_slice(&(body.len() as u32).to_le_bytes());
    bytes.extend_from_slice(body);
    let crc = crc32fast::hash(&bytes);
    bytes.extend_from_slice(&crc.to_le_bytes());
    bytes
}
