//! One entry read from a column's bytes ([`read_entry`]), and why a read
//! gave none ([`Fault`]): what the raw and the compressed columns share.

use super::TableError;

/// Why a column gave no entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fault {
    /// Past the column's end (or not within the file's bytes).
    Past,
    /// The entry's block does not match its CRC (version 3), or its
    /// compressed block or the column's dictionary does not, or does not
    /// decompress (version 4: `array_damaged` then).
    Block {
        /// The block's index in the column.
        block: u64,
        /// Where it starts in the file.
        start: u64,
        /// Where it ends (excluded).
        end: u64,
        /// Whether the column's block-CRC array is damaged itself.
        array_damaged: bool,
    },
}

impl Fault {
    /// The probe error of this fault at entry `index` of `column`.
    pub(crate) fn probe_error(self, column: &'static str, index: u64) -> TableError {
        match self {
            Fault::Past => TableError::BadEntry {
                column,
                index,
                value: 0,
            },
            Fault::Block {
                block,
                start,
                end,
                array_damaged,
            } => TableError::DamagedBlock {
                column,
                block,
                start,
                end,
                array_damaged,
            },
        }
    }
}

/// Reads entry `i` of `width` bits from a column's bytes.
#[inline]
pub(super) fn read_entry(bytes: &[u8], width: u8, i: u64) -> Option<u64> {
    let i = usize::try_from(i).ok()?;
    match width {
        1 => Some(u64::from(*bytes.get(i / 8)? >> (i % 8) & 1)),
        8 => bytes.get(i).map(|&b| u64::from(b)),
        16 => {
            let b = bytes.get(i.checked_mul(2)?..)?.get(..2)?;
            Some(u64::from(u16::from_le_bytes([b[0], b[1]])))
        }
        32 => {
            let b = bytes.get(i.checked_mul(4)?..)?.get(..4)?;
            Some(u64::from(u32::from_le_bytes([b[0], b[1], b[2], b[3]])))
        }
        64 => {
            let b = bytes.get(i.checked_mul(8)?..)?.get(..8)?;
            let mut le = [0u8; 8];
            le.copy_from_slice(b);
            Some(u64::from_le_bytes(le))
        }
        _ => None,
    }
}
