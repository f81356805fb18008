//! A job spread over several processes (the ranks of an MPI job): the
//! collective operations it needs, behind one trait, so that the library
//! holds the whole distributed algorithm and links no message layer. The
//! `boardbase` command implements [`Ranks`] over MPI (its `mpi` feature);
//! [`Solo`] is the job of one process.
//!
//! Every method is *collective*: every rank calls it, in the same order,
//! or the job waits for ever. A rank that fails therefore does not return
//! early on its own: it says so at the next agreement ([`first_failed`])
//! and every rank stops together.

use std::ops::Range;

/// The collective operations of a job spread over [`size`](Ranks::size)
/// processes. Errors of the message layer are not returned: MPI's default
/// is to end the whole job, which is what a generator wants.
pub trait Ranks {
    /// This process's number, from 0.
    fn rank(&self) -> usize;

    /// How many processes the job has.
    fn size(&self) -> usize;

    /// How many of them share this machine (threads are split between
    /// them).
    fn local_size(&self) -> usize;

    /// Tells every rank how many values this one will send it
    /// (`counts[r]` to rank `r`); returns how many each rank will send this
    /// one, in rank order.
    fn swap_counts(&self, counts: &[usize]) -> Vec<usize>;

    /// Sends `send[counts[0] + ... + counts[r - 1]..][..counts[r]]` to rank
    /// `r` (every rank, this one included), and puts what each rank sent
    /// this one, in rank order, at the start of `recv` (grown when short,
    /// never shrunk: a buffer kept from one exchange to the next costs its
    /// pages once). Returns how many values each rank sent.
    fn exchange(&self, send: &[u64], counts: &[usize], recv: &mut Vec<u64>) -> Vec<usize> {
        let theirs = self.swap_counts(counts);
        let total = theirs.iter().sum();
        if recv.len() < total {
            recv.resize(total, 0);
        }
        self.exchange_known(send, counts, &theirs, &mut recv[..total]);
        theirs
    }

    /// As [`exchange`](Ranks::exchange) when this rank knows what each rank
    /// sends it (`recv_counts[r]` values from rank `r`, which every rank's
    /// `counts` must agree with): one collective call fewer, and `recv` is
    /// filled in rank order from its start (it must be long enough).
    fn exchange_known(
        &self,
        send: &[u64],
        counts: &[usize],
        recv_counts: &[usize],
        recv: &mut [u64],
    );

    /// The sum of `value` over every rank.
    fn sum(&self, value: u64) -> u64;

    /// The largest `value` of any rank.
    fn max(&self, value: u64) -> u64;

    /// Every rank's `words` ORed together, into each rank's `words` (the
    /// same length on every rank).
    fn or_words(&self, words: &mut [u64]);

    /// Every rank's `bytes`, in rank order.
    fn gather_bytes(&self, bytes: &[u8]) -> Vec<Vec<u8>>;
}

/// The job of one process: every collective is the identity.
#[derive(Clone, Copy, Debug, Default)]
pub struct Solo;

impl Ranks for Solo {
    fn rank(&self) -> usize {
        0
    }

    fn size(&self) -> usize {
        1
    }

    fn local_size(&self) -> usize {
        1
    }

    fn swap_counts(&self, counts: &[usize]) -> Vec<usize> {
        counts.to_vec()
    }

    fn exchange_known(
        &self,
        send: &[u64],
        counts: &[usize],
        recv_counts: &[usize],
        recv: &mut [u64],
    ) {
        assert_eq!(counts, recv_counts, "one process sends itself what it asks");
        recv[..counts[0]].copy_from_slice(&send[..counts[0]]);
    }

    fn sum(&self, value: u64) -> u64 {
        value
    }

    fn max(&self, value: u64) -> u64 {
        value
    }

    fn or_words(&self, _words: &mut [u64]) {}

    fn gather_bytes(&self, bytes: &[u8]) -> Vec<Vec<u8>> {
        vec![bytes.to_vec()]
    }
}

/// Rank `rank`'s share of `len` items split over `size` ranks in
/// contiguous, nearly equal ranges: `rank * len / size ..
/// (rank + 1) * len / size`.
///
/// ```
/// use boardbase::ranks::share;
/// assert_eq!([0, 1, 2].map(|r| share(10, r, 3)), [0..3, 3..6, 6..10]);
/// assert_eq!(share(1, 0, 2), 0..0); // the last rank takes a lone item
/// ```
pub fn share(len: usize, rank: usize, size: usize) -> Range<usize> {
    let at = |r: usize| (r as u128 * len as u128 / size as u128) as usize;
    at(rank)..at(rank + 1)
}

/// The rank whose [`share`] of `len` items holds item `index`.
///
/// ```
/// use boardbase::ranks::{owner, share};
/// for (len, size) in [(10, 3), (1, 2), (48_620, 4), (7, 7)] {
///     for index in 0..len {
///         assert!(share(len, owner(index, len, size), size).contains(&index));
///     }
/// }
/// ```
pub fn owner(index: usize, len: usize, size: usize) -> usize {
    // The r with r * len / size <= index < (r + 1) * len / size.
    (((index as u128 + 1) * size as u128 - 1) / len as u128) as usize
}

/// An error that says another rank failed: what a rank returns from an
/// agreement ([`agree`], [`agree_gather`]) where only other ranks failed.
pub trait OtherRank {
    /// The error of a rank that stopped because rank `rank`, the first
    /// that failed, did.
    fn other_rank(rank: usize) -> Self;
}

/// Every rank's outcome of a step, agreed (collective: every rank calls it
/// with its own result): this rank's own result where it failed or where
/// every rank succeeded; where only other ranks failed,
/// [`OtherRank::other_rank`] of the first that did. The one way a job over
/// ranks agrees on a failure; one process ([`Solo`]) has its own result.
///
/// ```
/// use boardbase::ranks::{OtherRank, Solo, agree};
///
/// #[derive(Debug, PartialEq)]
/// enum Failed { Full, Rank(usize) }
/// impl OtherRank for Failed {
///     fn other_rank(rank: usize) -> Failed { Failed::Rank(rank) }
/// }
/// // One process: its own result, whatever it is.
/// assert_eq!(agree(&Solo, Ok::<u8, Failed>(7)), Ok(7));
/// assert_eq!(agree(&Solo, Err::<u8, _>(Failed::Full)), Err(Failed::Full));
/// ```
pub fn agree<T, E: OtherRank>(ranks: &dyn Ranks, result: Result<T, E>) -> Result<T, E> {
    match (first_failed(ranks, result.is_err()), result) {
        (Some(rank), Ok(_)) => Err(E::other_rank(rank)),
        (_, result) => result,
    }
}

/// [`agree`] and [`Ranks::gather_bytes`] in one collective call: every
/// rank's bytes, in rank order, where every rank succeeded; this rank's
/// own error where it failed; [`OtherRank::other_rank`] of the first that
/// failed where only others did.
pub fn agree_gather<E: OtherRank>(
    ranks: &dyn Ranks,
    result: Result<Vec<u8>, E>,
) -> Result<Vec<Vec<u8>>, E> {
    // A failure flag before the bytes.
    let mut mine = vec![u8::from(result.is_err())];
    if let Ok(bytes) = &result {
        mine.extend_from_slice(bytes);
    }
    let all = ranks.gather_bytes(&mine);
    match (all.iter().position(|m| m.first() != Some(&0)), result) {
        (None, _) => Ok(all.into_iter().map(|m| m[1..].to_vec()).collect()),
        (Some(_), Err(e)) => Err(e),
        (Some(rank), Ok(_)) => Err(E::other_rank(rank)),
    }
}

/// One round of a checkpoint's saves over the ranks (collective): each rank
/// sends whether a save is due by its own clock and what it has saved since
/// the last round (each written by `write`), or its first failure (`failed`,
/// then the saves' own); rank 0 hands every rank's bytes, in rank order, to
/// `record`. Returns whether every rank found the save due, or the first
/// failure: this rank's, `record`'s, or [`OtherRank::other_rank`] of another.
pub fn agree_saves<T, E: OtherRank>(
    ranks: &dyn Ranks,
    due: bool,
    saved: Vec<Result<T, E>>,
    mut failed: Option<E>,
    write: impl Fn(T, &mut Vec<u8>),
    record: impl FnOnce(&[&[u8]]) -> Result<(), E>,
) -> Result<bool, E> {
    let mut mine = vec![u8::from(due)];
    for s in saved {
        match s {
            Ok(s) => write(s, &mut mine),
            Err(e) => failed = failed.or(Some(e)),
        }
    }
    let mine = match failed {
        Some(e) => Err(e),
        None => Ok(mine),
    };
    let all = agree_gather(ranks, mine)?;
    let due = all.iter().all(|m| m.first() == Some(&1));
    let recorded = if ranks.rank() == 0 {
        let saves: Vec<&[u8]> = all.iter().map(|m| m.get(1..).unwrap_or_default()).collect();
        record(&saves)
    } else {
        Ok(())
    };
    agree(ranks, recorded).map(|()| due)
}

/// Whether any rank says `yes` (collective: every rank calls it with its
/// own flag): how the ranks stop together when one is cancelled.
pub fn any(ranks: &dyn Ranks, yes: bool) -> bool {
    first_failed(ranks, yes).is_some()
}

/// The first rank that `failed`, agreed by every rank (collective: every
/// rank calls it with its own flag), or `None` when none did.
pub fn first_failed(ranks: &dyn Ranks, failed: bool) -> Option<usize> {
    let mark = if failed {
        u64::MAX - ranks.rank() as u64
    } else {
        0
    };
    match ranks.max(mark) {
        0 => None,
        first => Some((u64::MAX - first) as usize),
    }
}
