//! Flip Game's tables of any shape up to 25 cells: for every board and
//! colour the fewest rounds, one optimal press set and the number of
//! optimal sets (a breadth-first search over the press sets, on every
//! core), and the closer colour.

use boardbase_tables::flip::search::{self, PressSet, Search};
use boardbase_tables::shape::Shape;
use rayon::prelude::*;

use super::{
    Cancel, GenerateError, Hooks, Phase, Progress, Puzzle, Reporter, SMALL_ALLOCATIONS,
    check_cells, check_memory, in_pool, try_vec,
};
use crate::flip::{Colour, UNREACHABLE};
use crate::tablefile::{ColumnData, FlipColumns as TableFlipColumns};

/// The most cells of a Flip board: 25 (2^25 boards).
pub const FLIP_MAX_CELLS: usize = Puzzle::Flip.max_cells();

/// How to generate Flip tables.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FlipOptions {
    /// Threads to use: `None` for rayon's global pool (every core), or a
    /// dedicated pool of this many threads.
    pub threads: Option<usize>,
    /// Refuse the job, before allocating anything, when it needs more than
    /// this many bytes. `None`: no limit.
    pub memory_limit: Option<u64>,
    /// Stop early, with [`GenerateError::Cancelled`], once this handle is
    /// cancelled (checked between chunks of work: within a fraction of a
    /// second). `None`: run to the end.
    pub cancel: Option<Cancel>,
}

/// The Flip columns towards one colour.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ColourColumns {
    /// Fewest rounds to the colour, [`UNREACHABLE`] when it cannot be
    /// reached.
    pub rounds: Vec<u8>,
    /// One optimal press set, 0 when unreachable: the table file's column,
    /// in the narrowest of `U8`, `U16`, `U32` that holds the shape's cells
    /// ([`presses_width`](crate::tablefile::presses_width)).
    pub presses: ColumnData,
    /// Number of distinct optimal press sets, 0 when unreachable.
    pub optimal_sets: Vec<u8>,
}

/// The Flip tables of one shape, as owned columns (see the [module
/// docs](super) for the layout).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FlipTables {
    /// The board shape.
    pub shape: Shape,
    /// Fewest rounds to the closer colour, [`UNREACHABLE`] when neither can
    /// be reached: the judge's answer in one read.
    pub rounds: Vec<u8>,
    /// The columns towards white and black, indexed by [`Colour::index`].
    pub colours: [ColourColumns; 2],
    /// Counts.
    pub summary: FlipSummary,
}

/// What Flip tables say, in numbers.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct FlipSummary {
    /// Boards: `2^cells`.
    pub boards: u64,
    /// Boards that reach one colour or both.
    pub solvable: u64,
    /// Boards that reach each colour (white, black): `2^rank` of the press
    /// masks each.
    pub reach: [u64; 2],
    /// Solvable boards by fewest rounds to the closer colour: index = rounds.
    pub histogram: Vec<u64>,
    /// The most rounds any solvable board needs.
    pub max_rounds: u8,
}

impl FlipTables {
    /// The columns towards `colour`.
    pub fn colour(&self, colour: Colour) -> &ColourColumns {
        &self.colours[colour.index()]
    }

    /// Fewest rounds from `board` to the closer colour, `None` when neither
    /// can be reached.
    ///
    /// # Panics
    ///
    /// Panics if `board` has bits outside the shape.
    pub fn rounds(&self, board: u64) -> Option<u8> {
        assert!(board <= self.shape.full(), "a board of the shape");
        Some(self.rounds[board as usize]).filter(|&r| r != UNREACHABLE)
    }
}

/// Bytes a Flip job allocates: per colour the rounds, press sets and set
/// counts; the closer-colour rounds; the search's bitsets.
///
/// ```
/// use boardbase::generate::{self, FlipOptions};
/// use boardbase::tables::shape::Shape;
///
/// // 5×5: 2^25 boards, 4-byte press sets: 13 bytes a board; and 9 bitsets
/// // of 4 MiB (boards seen; two levels, each with 3 bit-planes of set
/// // counts: up to 4 optimal sets a board).
/// let five = Shape::new(5, 5).unwrap();
/// let bytes = generate::flip_memory(five, &FlipOptions::default())?;
/// assert_eq!(bytes, (13 << 25) + (9 << 22) + (1 << 20));
/// # Ok::<(), boardbase::generate::GenerateError>(())
/// ```
pub fn flip_memory(shape: Shape, options: &FlipOptions) -> Result<u64, GenerateError> {
    check_cells(Puzzle::Flip, shape)?;
    let _ = options;
    let boards = 1u64 << shape.cells();
    let press_bytes = u64::from(search::press_bits(shape.cells()) / 8);
    // Rounds, press sets and set counts per colour; the closer rounds; for
    // the search, the bitset of boards seen and two levels of bit-planes.
    let search = Search::new(shape, 0);
    let bitsets = (1 + 2 * search.stride() as u64) * search.words() as u64 * 8;
    Ok(boards * (2 * (1 + press_bytes + 1) + 1) + bitsets + SMALL_ALLOCATIONS)
}

/// Generates the Flip tables of `shape`: for every board and colour the
/// fewest rounds, one optimal press set and the number of optimal sets.
/// `progress` is called from the worker threads (see [`Progress`]).
///
/// ```
/// use boardbase::flip::Colour;
/// use boardbase::generate::{self, FlipOptions};
/// use boardbase::tables::shape::Shape;
///
/// // Flip Game on 3×3: all 512 boards can be made one colour.
/// //   b w w      pressing the corner flips it and its two neighbours, so
/// //   w w w      one black corner takes more than one press: the only
/// //   w w w      way to white is 5 presses.
/// let tables = generate::flip(Shape::new(3, 3).unwrap(), &FlipOptions::default(), |_| {})?;
/// let white = tables.colour(Colour::White);
/// let board = 0b000_000_001;
/// assert_eq!(white.rounds[board as usize], 5);
/// assert_eq!(white.optimal_sets[board as usize], 1);
/// //   o . o
/// //   . . o      the cells to press
/// //   o o .
/// assert_eq!(white.presses.get(board), 0b011_100_101);
/// assert_eq!(tables.summary.reach, [512, 512]);
/// assert_eq!(tables.summary.solvable, 512);
/// assert_eq!(tables.summary.histogram.iter().sum::<u64>(), 512);
/// assert_eq!(tables.rounds(0), Some(0));
/// # Ok::<(), boardbase::generate::GenerateError>(())
/// ```
///
/// # Errors
///
/// [`GenerateError::TooManyCells`] past [`FLIP_MAX_CELLS`],
/// [`GenerateError::OverMemoryLimit`] when [`flip_memory`] exceeds the
/// limit, and the errors of starting threads or allocating;
/// [`GenerateError::Cancelled`] once [`cancel`](FlipOptions::cancel) is
/// cancelled.
pub fn flip<F: Fn(Progress) + Sync>(
    shape: Shape,
    options: &FlipOptions,
    progress: F,
) -> Result<FlipTables, GenerateError> {
    let needed = flip_memory(shape, options)?;
    check_memory(Puzzle::Flip, shape, needed, options.memory_limit)?;
    let hooks = Hooks {
        progress: &progress,
        cancel: options.cancel.as_ref(),
    };
    if hooks.cancel.is_some_and(Cancel::is_cancelled) {
        return Err(GenerateError::Cancelled);
    }
    in_pool(options.threads, || {
        match search::press_bits(shape.cells()) {
            8 => flip_in_pool::<u8, F>(shape, &hooks, ColumnData::U8),
            16 => flip_in_pool::<u16, F>(shape, &hooks, ColumnData::U16),
            _ => flip_in_pool::<u32, F>(shape, &hooks, ColumnData::U32),
        }
    })
}

/// Words a task of the Flip search takes: 1,024 (65,536 boards).
const FLIP_CHUNK_WORDS: usize = 1 << 10;

/// One colour's search on every core, reporting boards reached.
type Columns<P> = (Vec<u8>, Vec<P>, Vec<u8>);

fn search_colour<P: PressSet, F: Fn(Progress) + Sync>(
    shape: Shape,
    target: u64,
    report: &Reporter<'_, F>,
) -> Result<Columns<P>, GenerateError> {
    let search = Search::new(shape, target);
    let boards = search.boards();
    let words = search.words();
    let per_word = boards / words;
    let chunk = FLIP_CHUNK_WORDS;
    let stride = search.stride();
    let mut rounds = try_vec(boards, || UNREACHABLE)?;
    let presses = try_vec(boards, || P::atomic(P::default()))?;
    let mut sets = try_vec(boards, || 0u8)?;
    let mut seen = try_vec(words, || 0u64)?;
    let mut level = try_vec(words * stride, || 0u64)?;
    let mut next = try_vec(words * stride, || 0u64)?;
    search.start::<P>(&mut seen, &mut level, &mut rounds, &presses, &mut sets);
    report.add(1);
    let mut reached = 1u64;
    let mut d = 0u8;
    loop {
        d += 1;
        let level_words: &[u64] = &level;
        let found: u64 = seen
            .par_chunks_mut(chunk)
            .zip(next.par_chunks_mut(chunk * stride))
            .zip(rounds.par_chunks_mut(chunk * per_word))
            .zip(sets.par_chunks_mut(chunk * per_word))
            .enumerate()
            .map(|(i, (((seen, next), rounds), sets))| {
                if report.cancelled() {
                    return 0;
                }
                let found = search.step::<P>(
                    d,
                    level_words,
                    i * chunk,
                    seen,
                    next,
                    rounds,
                    sets,
                    &presses,
                );
                report.add(found);
                found
            })
            .sum();
        // A level is made from the one before: a skipped chunk stops the
        // job.
        report.check()?;
        if found == 0 {
            break;
        }
        reached += found;
        std::mem::swap(&mut level, &mut next);
    }
    drop((seen, level, next));
    assert_eq!(
        reached,
        1 << search::rank(shape),
        "2^rank boards reach a colour"
    );
    // Same sizes and alignments: collected in place.
    let presses: Vec<P> = presses.into_iter().map(P::into_inner).collect();
    let chunk = chunk * per_word;
    rounds
        .par_chunks(chunk)
        .zip(presses.par_chunks(chunk))
        .zip(sets.par_chunks(chunk))
        .enumerate()
        .for_each(|(i, ((r, p), s))| {
            if !report.cancelled() {
                search.check(i * chunk, r, p, s);
            }
        });
    report.check()?;
    Ok((rounds, presses, sets))
}

fn flip_in_pool<P: PressSet, F: Fn(Progress) + Sync>(
    shape: Shape,
    hooks: &Hooks<'_, F>,
    column: fn(Vec<P>) -> ColumnData,
) -> Result<FlipTables, GenerateError> {
    let boards = 1u64 << shape.cells();
    let reach = 1u64 << search::rank(shape);
    let report = Reporter::start(hooks, Phase::Search, reach);
    let white = search_colour::<P, F>(shape, 0, &report)?;
    let cancelled = || match hooks.cancel {
        Some(cancel) if cancel.is_cancelled() => Err(GenerateError::Cancelled),
        _ => Ok(()),
    };
    report.finish();
    // Towards black: the search towards white translated by the full
    // board, entry b ⊕ full = full - b, the columns reversed.
    let reversed = |v: &[u8]| -> Result<Vec<u8>, GenerateError> {
        let mut out = try_vec(v.len(), || 0u8)?;
        out.par_iter_mut()
            .zip(v.par_iter().rev())
            .for_each(|(o, &x)| *o = x);
        Ok(out)
    };
    let mut black_presses = try_vec(white.1.len(), P::default)?;
    black_presses
        .par_iter_mut()
        .zip(white.1.par_iter().rev())
        .for_each(|(o, &x)| *o = x);
    let black = (reversed(&white.0)?, black_presses, reversed(&white.2)?);
    // White's columns were checked in full; black's are a copy, checked
    // on one chunk in 16.
    let black_search = Search::new(shape, shape.full());
    let chunk = FLIP_CHUNK_WORDS * 64;
    black
        .0
        .par_chunks(chunk)
        .zip(black.1.par_chunks(chunk))
        .zip(black.2.par_chunks(chunk))
        .enumerate()
        .filter(|(i, _)| i % 16 == 0)
        .for_each(|(i, ((r, p), s))| black_search.check(i * chunk, r, p, s));
    cancelled()?;

    let report = Reporter::start(hooks, Phase::Summary, boards);
    let mut rounds = try_vec(boards as usize, || 0u8)?;
    let chunk = 1 << 16;
    let histogram = rounds
        .par_chunks_mut(chunk)
        .zip(white.0.par_chunks(chunk).zip(black.0.par_chunks(chunk)))
        .map(|(out, (w, b))| {
            let mut histogram = vec![0u64; search::MAX_CELLS + 1];
            if report.cancelled() {
                return histogram;
            }
            for ((o, &w), &b) in out.iter_mut().zip(w).zip(b) {
                *o = w.min(b);
                if *o != UNREACHABLE {
                    histogram[usize::from(*o)] += 1;
                }
            }
            report.add(out.len() as u64);
            histogram
        })
        .reduce(
            || vec![0u64; search::MAX_CELLS + 1],
            |mut a, b| {
                for (x, y) in a.iter_mut().zip(b) {
                    *x += y;
                }
                a
            },
        );
    report.check()?;
    report.finish();
    let max_rounds = histogram.iter().rposition(|&n| n > 0).unwrap_or(0);
    let mut histogram = histogram;
    histogram.truncate(max_rounds + 1);
    let summary = FlipSummary {
        boards,
        solvable: histogram.iter().sum(),
        reach: [reach, reach],
        histogram,
        max_rounds: max_rounds as u8,
    };
    let columns = |(rounds, presses, optimal_sets): (Vec<u8>, Vec<P>, Vec<u8>)| ColourColumns {
        rounds,
        presses: column(presses),
        optimal_sets,
    };
    Ok(FlipTables {
        shape,
        rounds,
        colours: [columns(white), columns(black)],
        summary,
    })
}

impl From<FlipTables> for TableFlipColumns {
    /// The generator's columns, taken as they are (nothing is copied).
    fn from(tables: FlipTables) -> TableFlipColumns {
        let [white, black] = tables.colours;
        TableFlipColumns {
            rounds: tables.rounds,
            rounds_white: white.rounds,
            rounds_black: black.rounds,
            presses_white: white.presses,
            presses_black: black.presses,
            optimal_sets_white: white.optimal_sets,
            optimal_sets_black: black.optimal_sets,
        }
    }
}
