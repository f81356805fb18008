//! Version 6: a game's table with one entry a class of positions. A game
//! of the model numbers its positions itself and says which index is the
//! canonical one of its class ([`Rules::canonical`]); most indices are
//! not (they are another position of a class, or no legal position at
//! all), so the table keeps the entries of the canonical legal positions
//! alone, in the order of their indices, and finds a position's entry by
//! counting:
//!
//! | column | width | entries | value |
//! | --- | ---: | --- | --- |
//! | `canonical` | 1 | the game's position indices | 1 where the index is a legal canonical position: it has an entry |
//! | `canonical_rank` | 64 | one a span of [`RANK_SPAN`] indices | the 1 bits of `canonical` before the span's first index |
//! | `outcome` | 16 | the 1 bits of `canonical` | the entries of those indices, in order |
//!
//! Index `i`'s entry, when bit `i` of `canonical` is 1, is entry
//! `canonical_rank[i / RANK_SPAN]` plus the 1 bits of `canonical` from
//! `i - i % RANK_SPAN` to `i` of `outcome`: a probe reads one entry of
//! `canonical_rank` and at most 64 bytes of `canonical`, within one block.
//! The index costs 1.125 bits a position index; a version-3 table's 16
//! bits an index become 16 bits a class (a quarter or an eighth of the
//! legal positions, on a rectangle or a square).
//!
//! [`Rules::canonical`]: boardbase_tables::game::Rules::canonical

use super::columns::ColumnRef;
use super::entry::Fault;

/// The column of 1 bit a position index: whether it has an entry.
pub(crate) const CANONICAL: &str = "canonical";

/// The column of the entries before each span of indices.
pub(crate) const CANONICAL_RANK: &str = "canonical_rank";

/// Position indices a `canonical_rank` entry stands for: 512, the 64
/// bytes of `canonical` a probe counts at most. Spans of 512 cost an
/// eighth of a bit an index; of 4,096, a sixty-fourth, but a probe would
/// count eight times as far.
pub(crate) const RANK_SPAN: u64 = 512;

/// Words of `canonical` in a span.
const SPAN_WORDS: u64 = RANK_SPAN / 64;

/// The entries of `canonical_rank` for a game of `positions` indices.
pub(crate) fn rank_entries(positions: u64) -> u64 {
    positions.div_ceil(RANK_SPAN)
}

/// Where index `i`'s entry is in the entries column: `None` when `i` has
/// none (bit `i` of `canonical` is 0).
#[inline]
pub(crate) fn rank_of(
    canonical: &ColumnRef<'_>,
    ranks: &ColumnRef<'_>,
    i: u64,
) -> Result<Option<u64>, RankFault> {
    let w = i / 64;
    let word = canonical.word(w).map_err(RankFault::Canonical)?;
    if word >> (i % 64) & 1 == 0 {
        return Ok(None);
    }
    let span = i / RANK_SPAN;
    let below = u64::from((word & ((1 << (i % 64)) - 1)).count_ones());
    let ones = below
        + canonical
            .ones(span * SPAN_WORDS, w)
            .map_err(RankFault::Canonical)?;
    // A damaged count leads past the entries, which the read of the entry
    // refuses; one near 2^64 is refused here.
    let before = ranks.get(span).map_err(RankFault::Ranks)?;
    before
        .checked_add(ones)
        .map(Some)
        .ok_or(RankFault::Ranks(Fault::Past))
}

/// Which column of the index a read of it found damaged (or short).
#[derive(Clone, Copy, Debug)]
pub(crate) enum RankFault {
    /// `canonical`.
    Canonical(Fault),
    /// `canonical_rank`.
    Ranks(Fault),
}

/// Cuts a game's entries, one a position index (0 where an index has
/// none), into the three columns of version 6, a run of indices at a time:
/// what the writer streams, and what a table built in memory holds.
#[derive(Debug, Default)]
pub(crate) struct Split {
    /// The indices taken so far.
    pub(crate) indices: u64,
    /// Of them, those with an entry.
    pub(crate) ones: u64,
    /// `canonical`'s bytes not yet taken by the caller.
    pub(crate) canonical: Vec<u8>,
    /// `canonical_rank`'s bytes not yet taken.
    pub(crate) ranks: Vec<u8>,
    /// `outcome`'s bytes not yet taken.
    pub(crate) outcome: Vec<u8>,
}

impl Split {
    /// Takes the next entries, as the entries file stores them (two bytes
    /// an index, little-endian). Every run but the last must be of a whole
    /// number of spans, so that each span's rank is written at its start.
    pub(crate) fn take(&mut self, entries: &[u8]) {
        self.take_with(entries.len() / 2, |i| {
            u16::from_le_bytes([entries[2 * i], entries[2 * i + 1]])
        });
    }

    /// [`take`](Split::take) of entries held as numbers (a solve's cells).
    pub(crate) fn take_cells(&mut self, cells: &[u16]) {
        self.take_with(cells.len(), |i| cells[i]);
    }

    /// Takes the `len` entries `entry(0..len)`.
    fn take_with(&mut self, len: usize, entry: impl Fn(usize) -> u16) {
        debug_assert!(self.indices.is_multiple_of(RANK_SPAN));
        let span = RANK_SPAN as usize;
        for start in (0..len).step_by(span) {
            self.ranks.extend_from_slice(&self.ones.to_le_bytes());
            let end = (start + span).min(len);
            for byte in (start..end).step_by(8) {
                let mut bits = 0u8;
                for k in 0..(end - byte).min(8) {
                    let e = entry(byte + k);
                    if e != 0 {
                        bits |= 1 << k;
                        self.outcome.extend_from_slice(&e.to_le_bytes());
                    }
                }
                self.ones += u64::from(bits.count_ones());
                self.canonical.push(bits);
            }
            self.indices += (end - start) as u64;
        }
    }
}
