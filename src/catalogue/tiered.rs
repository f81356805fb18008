//! Games that declare tiers ([`Tiers`]): what the generator needs of them
//! to solve one tier at a time ([`AnyTiers`]). A game's catalogue entry
//! makes such a game as [`Tiered`](super::Tiered), so that
//! [`AnyGame::tiers`](super::AnyGame::tiers) finds them. A game without
//! tiers needs neither: it is solved whole.
//!
//! ```
//! use boardbase::catalogue;
//! use boardbase::tables::shape::Shape;
//!
//! let quixo = catalogue::model("quixo").expect("in the catalogue");
//! let game = quixo.make(&quixo.setup(Shape::new(3, 3), &[])?)?;
//! let tiers = game.tiers().expect("Quixo declares its tiers");
//! // Tiers {a, b}: a cubes of one player, b of the other (a <= b,
//! // a + b <= 9 on 3x3), either to move.
//! assert_eq!(tiers.tier_count(), 30);
//! let mnk = catalogue::model("mnk").expect("in the catalogue");
//! assert!(mnk.make(&mnk.setup(None, &[])?)?.tiers().is_none());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use boardbase_tables::game::retrograde;
use boardbase_tables::game::tiers::{ByteStore, TierStep, solve_tiers_from};
use boardbase_tables::game::{SolveError, Tiers};

/// Bytes the tier solver holds a rank of the tier it solves: six for its
/// arrays, eight for its queues at most.
const BYTES_A_RANK: u64 = 14;

/// A game's tiers, as the generator solves them: one tier at a time, the
/// entries of the tiers solved kept in bytes the caller holds (a mapped
/// file), two a position index, little-endian.
pub trait AnyTiers: Send + Sync {
    /// The number of tiers.
    fn tier_count(&self) -> u64;

    /// The bytes the solver holds at most while it solves the largest
    /// tier, besides the entries' bytes.
    fn tier_memory(&self) -> u64;

    /// Solves the tiers below `left` (those from `left` on are in `entries`
    /// already) into `entries`, from the last down; `progress` is called
    /// before each tier ([`solve_tiers_from`]: the tiers after the one it
    /// names are in `entries` then), and within a tier.
    fn solve_into(
        &self,
        entries: &mut [u8],
        left: u64,
        progress: &mut dyn FnMut(TierStep) -> bool,
    ) -> Result<(), SolveError>;

    /// The canonical positions reachable from the start of each value (won,
    /// lost, drawn), read from `entries`: [`retrograde::reachable_counts`],
    /// `progress` told the positions counted so far.
    fn reachable_counts(
        &self,
        entries: &[u8],
        progress: &mut dyn FnMut(u64) -> bool,
    ) -> Result<[u64; 3], SolveError>;
}

impl<G: Tiers + Send + Sync> AnyTiers for G {
    fn tier_count(&self) -> u64 {
        self.tiers()
    }

    fn tier_memory(&self) -> u64 {
        let largest = (0..self.tiers())
            .map(|t| self.tier_size(t))
            .max()
            .unwrap_or(0);
        largest.saturating_mul(BYTES_A_RANK)
    }

    fn solve_into(
        &self,
        entries: &mut [u8],
        left: u64,
        progress: &mut dyn FnMut(TierStep) -> bool,
    ) -> Result<(), SolveError> {
        solve_tiers_from(self, &mut ByteStore::new(self, entries), left, progress)
    }

    fn reachable_counts(
        &self,
        entries: &[u8],
        progress: &mut dyn FnMut(u64) -> bool,
    ) -> Result<[u64; 3], SolveError> {
        retrograde::reachable_counts(
            self,
            |p| {
                let i = usize::try_from(p).ok()?;
                let b = entries.get(2 * i..2 * i + 2)?;
                retrograde::decode(u16::from_le_bytes([b[0], b[1]]))
            },
            progress,
        )
    }
}
