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

/// The layout version of a game's table with one entry a class: version
/// 4's columns (each with its codec), `canonical` and `canonical_rank`
/// saying where each position's entry is.
pub(crate) const VERSION_6: u32 = 6;

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
    let mut rank = ranks.get(span).map_err(RankFault::Ranks)?;
    for v in span * SPAN_WORDS..w {
        rank += u64::from(
            canonical
                .word(v)
                .map_err(RankFault::Canonical)?
                .count_ones(),
        );
    }
    Ok(Some(
        rank + u64::from((word & ((1 << (i % 64)) - 1)).count_ones()),
    ))
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
        debug_assert!(self.indices.is_multiple_of(RANK_SPAN));
        for span in entries.chunks(2 * RANK_SPAN as usize) {
            self.ranks.extend_from_slice(&self.ones.to_le_bytes());
            for byte in span.chunks(16) {
                let mut bits = 0u8;
                for (k, pair) in byte.chunks_exact(2).enumerate() {
                    if pair != [0, 0] {
                        bits |= 1 << k;
                        self.outcome.extend_from_slice(pair);
                    }
                }
                self.ones += u64::from(bits.count_ones());
                self.canonical.push(bits);
            }
            self.indices += span.len() as u64 / 2;
        }
    }
}
