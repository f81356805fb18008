//! What the generic solvers share: arrays checked against the memory, a
//! position's distinct canonical children, and its parents, from the game
//! or from the reverse graph built in memory.

use alloc::vec::Vec;

use super::{Rules, SolveError};

/// The position count as an index, refused when it does not fit.
pub(super) fn index_len(positions: u64) -> Result<usize, SolveError> {
    usize::try_from(positions)
        .ok()
        .filter(|&n| n < usize::MAX / 16)
        .ok_or(SolveError::TooManyPositions(positions))
}

/// `len` copies of `value`, or [`SolveError::OutOfMemory`].
pub(super) fn filled<T: Clone>(len: usize, value: T) -> Result<Vec<T>, SolveError> {
    let mut v = Vec::new();
    v.try_reserve_exact(len)
        .map_err(|_| SolveError::OutOfMemory {
            bytes: (len as u64).saturating_mul(core::mem::size_of::<T>() as u64),
        })?;
    v.resize(len, value);
    Ok(v)
}

/// `len` zeros of `u16`, asked of the allocator already zeroed: the pages
/// of a large array that are never written are never touched and cost no
/// memory. A game whose symmetry leaves whole ranges of indices without a
/// canonical position (Quixo's positions with O to move, each the image of
/// one with X to move) so solves in half the memory.
pub(super) fn zeroed(len: usize) -> Result<Vec<u16>, SolveError> {
    let refused = SolveError::OutOfMemory {
        bytes: (len as u64).saturating_mul(2),
    };
    let layout = core::alloc::Layout::array::<u16>(len).map_err(|_| refused)?;
    if layout.size() == 0 {
        return Ok(Vec::new());
    }
    // SAFETY: the layout's size is not zero, as `alloc_zeroed` requires;
    // a non-null pointer holds `len` zeroed `u16`s, which are valid
    // values, allocated by the global allocator with the layout of
    // `[u16; len]`, which is what `Vec::from_raw_parts` requires of a
    // vector of capacity `len`.
    unsafe {
        let ptr = alloc::alloc::alloc_zeroed(layout).cast::<u16>();
        if ptr.is_null() {
            return Err(refused);
        }
        Ok(Vec::from_raw_parts(ptr, len, len))
    }
}

/// Appends `position` to `queue`, or [`SolveError::OutOfMemory`].
pub(super) fn push(queue: &mut Vec<u64>, position: u64) -> Result<(), SolveError> {
    queue.try_reserve(1).map_err(|_| SolveError::OutOfMemory {
        bytes: 8 * (queue.len() as u64 + 1),
    })?;
    queue.push(position);
    Ok(())
}

/// Puts the distinct canonical children of `position` in `out`, sorted.
pub(super) fn children<G: Rules>(
    game: &G,
    position: u64,
    out: &mut Vec<u64>,
) -> Result<(), SolveError> {
    out.clear();
    game.for_each_move(position, |mv| {
        out.push(game.canonical(game.play(position, mv)))
    });
    out.sort_unstable();
    out.dedup();
    match out.last() {
        Some(&last) if last >= game.positions() => Err(SolveError::BadMove { position }),
        // A move into an index that is not a position would never be
        // decided and make its parent a draw: the game's fault, said so.
        _ if out.iter().any(|&c| !game.is_legal(c)) => Err(SolveError::BadMove { position }),
        _ => Ok(()),
    }
}

/// The parents of every position: the game's own, or the reverse graph.
pub(super) enum Parents {
    /// [`Rules::for_each_parent`].
    Game,
    /// The reverse graph in compressed rows: the parents of `c` are
    /// `edges[starts[c]..starts[c + 1]]`.
    Built { starts: Vec<u64>, edges: Vec<u64> },
}

impl Parents {
    /// The game's parents when it has them, else the reverse graph of the
    /// legal canonical positions for which `expanded` holds (those with
    /// moves the solver follows).
    pub(super) fn new<G: Rules>(
        game: &G,
        expanded: impl Fn(u64) -> bool,
    ) -> Result<Parents, SolveError> {
        if G::PARENTS {
            return Ok(Parents::Game);
        }
        let n = index_len(game.positions())?;
        let mut starts = filled(n + 1, 0u64)?;
        let mut buf = Vec::new();
        let sources =
            || (0..n as u64).filter(|&p| game.is_legal(p) && game.canonical(p) == p && expanded(p));
        // Counted at each child, summed to the end of its row, then filled
        // from the end: each row's count falls back to its start.
        for p in sources() {
            children(game, p, &mut buf)?;
            for &c in &buf {
                starts[c as usize] += 1;
            }
        }
        for i in 1..n {
            starts[i] += starts[i - 1];
        }
        starts[n] = if n > 0 { starts[n - 1] } else { 0 };
        let mut edges = filled(index_len(starts[n])?, 0u64)?;
        for p in sources() {
            children(game, p, &mut buf)?;
            for &c in &buf {
                let slot = &mut starts[c as usize];
                *slot -= 1;
                edges[*slot as usize] = p;
            }
        }
        Ok(Parents::Built { starts, edges })
    }

    /// Calls `f` with each parent of `position`.
    pub(super) fn each<G: Rules>(&self, game: &G, position: u64, mut f: impl FnMut(u64)) {
        match self {
            Parents::Game => game.for_each_parent(position, |p| {
                debug_assert!(
                    p >= game.positions() || game.canonical(p) == p,
                    "a parent that is not canonical: {p}"
                );
                f(p)
            }),
            Parents::Built { starts, edges } => {
                let (a, b) = (starts[position as usize], starts[position as usize + 1]);
                edges[a as usize..b as usize].iter().for_each(|&p| f(p));
            }
        }
    }
}
