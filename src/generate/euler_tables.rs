//! What the Euler generator makes, and its depth pass: the tables of one
//! shape as owned columns ([`EulerTables`]), what they say in numbers
//! ([`EulerSummary`]), and the moves-left and best-move pass over a whole
//! win/loss bitset, which one process and every rank of a job run alike
//! (the ranks' pass runs it; [`euler`](super::euler) is its one-rank
//! case).

use std::ops::Range;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

use boardbase_tables::classes::Classes;
use boardbase_tables::euler::depth::{self, DepthSolver};
use boardbase_tables::shape::Shape;
use rayon::prelude::*;

use super::euler_depth_save::{Chunk, Columns, DepthSaver, Shared, load, lock};
use super::euler_winloss::{Unsaved, agree_not_cancelled};
use super::{GenerateError, Hooks, Phase, Progress, Reporter, try_vec};
use crate::euler::Outcome;
use crate::ranks::{Ranks, agree};
use crate::tablefile::EulerColumns;

/// The Euler tables of one shape, as owned columns (see the [module
/// docs](super) for the layout).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EulerTables {
    /// The board shape.
    pub shape: Shape,
    /// The move masks, in the order of
    /// [`tables::euler::moves`](crate::tables::euler::moves); best moves are indices into it.
    pub moves: Vec<u64>,
    /// One bit a position (bit `p % 64` of word `p / 64`), set when the
    /// player to move wins; the full board is set. At least one word; bits
    /// past `2^cells` are 0. With [`classes`](Self::classes), one bit an
    /// entry of the index instead ([`Classes::index`]).
    pub winning: Vec<u64>,
    /// Moves left and best moves, when made (see [`EulerOptions`](super::EulerOptions)).
    pub depth: Option<EulerDepth>,
    /// Counts and the empty board.
    pub summary: EulerSummary,
    /// The index of `winning` when it holds one entry a class of positions
    /// under the board's symmetries ([`EulerOptions::symmetry`](super::EulerOptions::symmetry)).
    pub classes: Option<Classes>,
}

/// The depth columns of Euler tables: one byte a position (an entry, by
/// class).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EulerDepth {
    /// Moves left with perfect play (the winner hurries, the loser resists);
    /// 0 for the full board.
    pub plies: Vec<u8>,
    /// Index into [`EulerTables::moves`] of one best move (the fastest win,
    /// the longest resistance; ties to the first in list order);
    /// [`NO_MOVE`](super::NO_MOVE) for the full board. Empty in tables by
    /// class ([`EulerTables::classes`]), which find best moves from moves
    /// left.
    pub best_move: Vec<u8>,
}

/// What Euler tables say, in numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct EulerSummary {
    /// Positions: `2^cells`.
    pub positions: u64,
    /// Open positions won by the player to move (the full board is in
    /// neither count).
    pub winning: u64,
    /// Open positions lost by the player to move.
    pub losing: u64,
    /// Who wins the empty board.
    pub empty: Outcome,
    /// Moves left from the empty board with perfect play, when the depth
    /// columns were made.
    pub empty_moves_left: Option<u8>,
}

impl EulerTables {
    /// The entry of `position` in the columns: the position itself, or its
    /// class's entry ([`Classes::index`]).
    fn entry(&self, position: u64) -> usize {
        assert!(position <= self.shape.full(), "a position of the shape");
        match &self.classes {
            Some(classes) => classes.index(position) as usize,
            None => position as usize,
        }
    }

    /// Whether the player to move wins `position` (bits in the shape's
    /// layout; the full board is won).
    ///
    /// # Panics
    ///
    /// Panics if `position` has bits outside the shape.
    pub fn winning(&self, position: u64) -> bool {
        let entry = self.entry(position);
        self.winning[entry / 64] >> (entry % 64) & 1 == 1
    }

    /// Moves left with perfect play, when the depth columns were made.
    pub fn plies(&self, position: u64) -> Option<u8> {
        let entry = self.entry(position);
        self.depth.as_ref().map(|d| d.plies[entry])
    }

    /// The mask of the best move, when the depth columns were made and the
    /// position is open: the fastest win or the longest resistance, the
    /// first in [`moves`](Self::moves) on ties. Tables by class store no
    /// best moves: the first move to a position of one ply fewer is found
    /// from the successors' moves left, the move the other tables store.
    pub fn best_move(&self, position: u64) -> Option<u64> {
        let depth = self.depth.as_ref()?;
        if self.classes.is_some() {
            let plies = self.plies(position)?;
            return self
                .moves
                .iter()
                .copied()
                .find(|&m| {
                    m & position == 0 && self.plies(position | m) == Some(plies.wrapping_sub(1))
                })
                .filter(|_| plies > 0);
        }
        let i = depth.best_move[self.entry(position)];
        (i != depth::NO_MOVE).then(|| self.moves[usize::from(i)])
    }
}

/// The depth pass of the words `range` of every step, on every core, with
/// `winning` whole: their moves left and best moves, from the position
/// `range.start * 64`. Each step's other words come from the other ranks
/// (`ranks`; none for one process, whose range is every word). Where the
/// win/loss pass hands its checkpoint over (`saving`), the pass first
/// resumes from the last step it holds, and saves its steps to it (see
/// [`euler_depth_save`](super::euler_depth_save)).
pub(super) fn depth_pass<F: Fn(Progress) + Sync>(
    shape: Shape,
    winning: &[u64],
    range: Range<usize>,
    saving: Option<Unsaved>,
    ranks: &dyn Ranks,
    hooks: &Hooks<'_, F>,
) -> Result<(Vec<u8>, Vec<u8>), GenerateError> {
    let solver = DepthSolver::new(shape);
    let positions = solver.positions();
    let words = solver.words();
    let per_word = positions / words;
    let own = range.len() * per_word;
    // Every rank makes the same calls: one process has every word.
    let alone = ranks.size() == 1;
    let allocated = (|| -> Result<_, GenerateError> {
        let plies = try_vec(own, || 0u8)?;
        let best_move = try_vec(own, || 0u8)?;
        let sets = [
            try_vec(words, || 0u64)?,
            try_vec(words, || 0u64)?,
            try_vec(words, || 0u64)?,
        ];
        Ok((plies, best_move, sets))
    })();
    let (mut plies, mut best_move, mut sets) = agree(ranks, allocated)?;
    let chunk = DEPTH_CHUNK_WORDS;
    let first = range.start;
    {
        // The columns in chunks of `chunk` words' positions, each behind a
        // lock that a save takes to copy it out while the pass goes on, and
        // the chunks changed since the last save.
        let columns: Vec<Chunk<'_>> = plies
            .chunks_mut(chunk * per_word)
            .zip(best_move.chunks_mut(chunk * per_word))
            .map(Mutex::new)
            .collect();
        let dirty: Vec<AtomicBool> = columns.iter().map(|_| AtomicBool::new(false)).collect();
        let part = Columns {
            chunks: &columns,
            chunk_positions: chunk * per_word,
            first_position: (first * per_word) as u64,
        };
        // Resumed at step d, the pass has A(d) in sets[d % 3] and A(d - 1) in
        // sets[(d - 1) % 3], as after that step.
        let loaded = match &saving {
            Some(unsaved) => {
                let k = unsaved
                    .checkpoint
                    .depth_record()
                    .map_or(0, |r| r.step as usize);
                let [a, b, c] = &mut sets;
                let (now, before) = match k % 3 {
                    0 => (a, c),
                    1 => (b, a),
                    _ => (c, b),
                };
                let sets = (&mut now[..], &mut before[..]);
                load(
                    &unsaved.checkpoint,
                    (solver.positions(), solver.words()),
                    &part,
                    first,
                    sets,
                    ranks,
                    hooks,
                )?
            }
            None => None,
        };
        let report = Reporter::start(hooks, Phase::Depth, own as u64);
        winning[range.clone()]
            .par_chunks(chunk)
            .enumerate()
            .for_each(|(i, c)| {
                if !report.cancelled() {
                    solver.check(winning, first + i * chunk, c.len());
                }
            });
        let (mut taken, mut taken_here, mut d) = match &loaded {
            Some(loaded) => (ranks.sum(loaded.taken), loaded.taken, loaded.step + 1),
            None => (0, 0, 0u8),
        };
        report.add(taken_here);
        let shared = Shared::default();
        std::thread::scope(|scope| {
            let mut saver = saving
                .map(|unsaved| DepthSaver::start(scope, unsaved, part, loaded, winning, &shared));
            let mut solve = || -> Result<(), GenerateError> {
                while taken < positions as u64 {
                    agree_not_cancelled(&report, ranks)?;
                    // A(d) goes to sets[d % 3]; A(d - 1) and A(d - 2) are the
                    // others.
                    let [a, b, c] = &mut sets;
                    let (next, prev, prev2) = match d % 3 {
                        0 => (a, &*c, &*b),
                        1 => (b, &*a, &*c),
                        _ => (c, &*b, &*a),
                    };
                    if !alone {
                        // The other ranks' words still hold A(d - 3): cleared
                        // before their words of A(d) are ORed in.
                        next.fill(0);
                    }
                    assert!(
                        usize::from(d) <= shape.cells(),
                        "every position is taken in"
                    );
                    let step = next[range.clone()]
                        .par_chunks_mut(chunk)
                        .zip(columns.par_iter())
                        .enumerate()
                        .map(|(i, (next, columns))| {
                            if report.cancelled() {
                                return 0;
                            }
                            let mut columns = lock(columns);
                            let (plies, best) = &mut *columns;
                            let at = first + i * chunk;
                            let taken = if d == 0 {
                                solver.start(at, next, plies, best)
                            } else {
                                solver.step(d, winning, prev, prev2, at, next, plies, best)
                            };
                            if taken > 0 {
                                dirty[i].store(true, Relaxed);
                            }
                            taken
                        })
                        .sum::<u64>();
                    // A step reads the two before it: a skipped chunk stops the
                    // job.
                    agree_not_cancelled(&report, ranks)?;
                    taken_here += step;
                    report.add(taken_here - report.done.load(Relaxed));
                    if !alone {
                        ranks.or_words(next);
                    }
                    taken = ranks.sum(taken_here);
                    if let Some(saver) = &mut saver {
                        saver.step_done(d, taken_here, &dirty, ranks)?;
                    }
                    d += 1;
                }
                Ok(())
            };
            let solved = solve();
            // Every rank gets here (each failure above is agreed by all).
            let cancelled = matches!(solved, Err(GenerateError::Cancelled));
            let finished = saver.map_or(Ok(()), |s| s.finish(cancelled, ranks));
            solved.and(finished)
        })?;
        report.finish();
    }
    Ok((plies, best_move))
}

/// Words a task of the depth pass takes: 1,024 (65,536 positions).
pub(super) const DEPTH_CHUNK_WORDS: usize = 1 << 10;

impl From<EulerTables> for EulerColumns {
    /// The generator's columns, taken as they are (nothing is copied).
    fn from(tables: EulerTables) -> EulerColumns {
        EulerColumns {
            winning: tables.winning,
            full: tables.depth.map(|d| (d.plies, d.best_move)),
            classes: tables.classes,
        }
    }
}
