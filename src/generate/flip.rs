//! Flip Game's tables of any shape up to 25 cells: for every board and
//! colour the fewest rounds, one optimal press set and the number of
//! optimal sets (a breadth-first search over the press sets, on every
//! core), and the closer colour; one entry a board, or one a class of
//! boards under the board's symmetries ([`FlipOptions::symmetry`]).

use boardbase_tables::classes::Classes;
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
    /// One entry a class of boards under the board's symmetries
    /// ([`Classes::of_shape`]): the columns shrink by up to the number of
    /// symmetries (8 on a square, 4 on a rectangle), for a table of
    /// version 5. The search still visits every board (a bitset of them);
    /// a board's class entry holds what that board takes, and a probe maps
    /// the press set to the board asked about.
    pub symmetry: bool,
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
/// docs](super) for the layout): one entry a board, or with
/// [`classes`](FlipTables::classes) one a class of boards.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FlipTables {
    /// The board shape.
    pub shape: Shape,
    /// The index of the entries when they are one a class of boards
    /// ([`FlipOptions::symmetry`]): entry [`Classes::index`] of a board,
    /// holding what the board [`Classes::position`] takes.
    pub classes: Option<Classes>,
    /// Fewest rounds to the closer colour, [`UNREACHABLE`] when neither can
    /// be reached: the judge's answer in one read.
    pub rounds: Vec<u8>,
    /// The columns towards white and black, indexed by [`Colour::index`].
    pub colours: [ColourColumns; 2],
    /// Counts, over every board.
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
        let entry = self.classes.as_ref().map_or(board, |c| c.index(board));
        Some(self.rounds[entry as usize]).filter(|&r| r != UNREACHABLE)
    }
}

/// Bytes a Flip job allocates: per colour the rounds, press sets and set
/// counts; the closer-colour rounds; the search's bitsets. By class
/// ([`FlipOptions::symmetry`]), the search's columns towards white, one
/// entry a board, and the tables' columns, one entry a class.
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
/// // By class: 6 bytes a board towards white while it searches, then
/// // 13 bytes for each of the 5.6 M entries (43 classes of the key cells,
/// // 2^17 boards of the rest each).
/// let by_class = FlipOptions { symmetry: true, ..FlipOptions::default() };
/// let entries: u64 = 43 << 17;
/// let bytes = generate::flip_memory(five, &by_class)?;
/// assert_eq!(bytes, (6 << 25) + (9 << 22) + 13 * entries + (1 << 20));
/// # Ok::<(), boardbase::generate::GenerateError>(())
/// ```
pub fn flip_memory(shape: Shape, options: &FlipOptions) -> Result<u64, GenerateError> {
    check_cells(Puzzle::Flip, shape)?;
    let boards = 1u64 << shape.cells();
    let press_bytes = u64::from(search::press_bits(shape.cells()) / 8);
    // Rounds, press sets and set counts per colour; the closer rounds; for
    // the search, the bitset of boards seen and two levels of bit-planes.
    let search = Search::new(shape, 0);
    let bitsets = (1 + 2 * search.stride() as u64) * search.words() as u64 * 8;
    let per_entry = 2 * (1 + press_bytes + 1) + 1;
    if options.symmetry {
        // The search's columns towards white stay until the class columns
        // (both colours, read from them) are made; the bitsets are freed
        // before, and counted so as not to depend on which is larger.
        let entries = Classes::sizes_of_shape(shape).entries();
        let white = boards * (1 + press_bytes + 1);
        return Ok(white + bitsets + entries * per_entry + SMALL_ALLOCATIONS);
    }
    Ok(boards * per_entry + bitsets + SMALL_ALLOCATIONS)
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
            8 => flip_in_pool::<u8, F>(shape, options.symmetry, &hooks, ColumnData::U8),
            16 => flip_in_pool::<u16, F>(shape, options.symmetry, &hooks, ColumnData::U16),
            _ => flip_in_pool::<u32, F>(shape, options.symmetry, &hooks, ColumnData::U32),
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
    symmetry: bool,
    hooks: &Hooks<'_, F>,
    column: fn(Vec<P>) -> ColumnData,
) -> Result<FlipTables, GenerateError> {
    let reach = 1u64 << search::rank(shape);
    let report = Reporter::start(hooks, Phase::Search, reach);
    let white = search_colour::<P, F>(shape, 0, &report)?;
    report.finish();
    if symmetry {
        return by_class(shape, white, hooks, column);
    }
    let boards = 1u64 << shape.cells();
    let cancelled = || match hooks.cancel {
        Some(cancel) if cancel.is_cancelled() => Err(GenerateError::Cancelled),
        _ => Ok(()),
    };
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
        .reduce(|| vec![0u64; search::MAX_CELLS + 1], add_histograms);
    report.check()?;
    report.finish();
    Ok(tables(
        shape,
        None,
        rounds,
        [white, black],
        column,
        histogram,
    ))
}

/// The tables of `shape` (one entry a class of `classes` when given) of
/// their columns, the summary of `histogram`: the rounds to the closer
/// colour over every board (index = rounds, [`search::MAX_CELLS`] + 1
/// long).
fn tables<P: PressSet>(
    shape: Shape,
    classes: Option<Classes>,
    rounds: Vec<u8>,
    colours: [Columns<P>; 2],
    column: fn(Vec<P>) -> ColumnData,
    histogram: Vec<u64>,
) -> FlipTables {
    let max_rounds = histogram.iter().rposition(|&n| n > 0).unwrap_or(0);
    let mut histogram = histogram;
    histogram.truncate(max_rounds + 1);
    let reach = 1u64 << search::rank(shape);
    let summary = FlipSummary {
        boards: 1u64 << shape.cells(),
        solvable: histogram.iter().sum(),
        reach: [reach, reach],
        histogram,
        max_rounds: max_rounds as u8,
    };
    FlipTables {
        shape,
        classes,
        rounds,
        colours: colours.map(|(rounds, presses, optimal_sets)| ColourColumns {
            rounds,
            presses: column(presses),
            optimal_sets,
        }),
        summary,
    }
}

/// Two histograms of rounds added, entry by entry.
fn add_histograms(mut a: Vec<u64>, b: Vec<u64>) -> Vec<u64> {
    for (x, y) in a.iter_mut().zip(b) {
        *x += y;
    }
    a
}

/// Entries a task of the class columns fills.
const CLASS_CHUNK: usize = 1 << 14;

/// The tables one entry a class of boards, from the search towards white
/// by board: entry `i` holds what board `h =` [`Classes::position`]`(i)`
/// takes, towards white at `h` and towards black at `h ⊕ full` (the search
/// towards black is the one towards white translated by the full board),
/// so its press sets are the least optimal ones of `h`, as a table by
/// position stores them. The summary counts every board, from the columns
/// by board: it is the one of the tables by board.
fn by_class<P: PressSet, F: Fn(Progress) + Sync>(
    shape: Shape,
    (rounds_w, presses_w, sets_w): Columns<P>,
    hooks: &Hooks<'_, F>,
    column: fn(Vec<P>) -> ColumnData,
) -> Result<FlipTables, GenerateError> {
    let boards = 1u64 << shape.cells();
    let full = shape.full() as usize;
    let classes = Classes::of_shape(shape);
    let entries = classes.entries() as usize;
    // One phase: the boards counted, then the entries filled.
    let report = Reporter::start(hooks, Phase::Summary, boards + entries as u64);
    let chunk = 1 << 16;
    let histogram = rounds_w
        .par_chunks(chunk)
        .enumerate()
        .map(|(k, w)| {
            let mut histogram = vec![0u64; search::MAX_CELLS + 1];
            if report.cancelled() {
                return histogram;
            }
            for (j, &w) in w.iter().enumerate() {
                let closer = w.min(rounds_w[(k * chunk + j) ^ full]);
                if closer != UNREACHABLE {
                    histogram[usize::from(closer)] += 1;
                }
            }
            report.add(w.len() as u64);
            histogram
        })
        .reduce(|| vec![0u64; search::MAX_CELLS + 1], add_histograms);
    report.check()?;
    let mut rounds = try_vec(entries, || 0u8)?;
    let mut white = (
        try_vec(entries, || 0u8)?,
        try_vec(entries, P::default)?,
        try_vec(entries, || 0u8)?,
    );
    let mut black = (
        try_vec(entries, || 0u8)?,
        try_vec(entries, P::default)?,
        try_vec(entries, || 0u8)?,
    );
    rounds
        .par_chunks_mut(CLASS_CHUNK)
        .zip(white.0.par_chunks_mut(CLASS_CHUNK))
        .zip(white.1.par_chunks_mut(CLASS_CHUNK))
        .zip(white.2.par_chunks_mut(CLASS_CHUNK))
        .zip(black.0.par_chunks_mut(CLASS_CHUNK))
        .zip(black.1.par_chunks_mut(CLASS_CHUNK))
        .zip(black.2.par_chunks_mut(CLASS_CHUNK))
        .enumerate()
        .for_each(|(k, ((((((r, wr), wp), ws), br), bp), bs))| {
            if report.cancelled() {
                return;
            }
            for j in 0..r.len() {
                let entry = (k * CLASS_CHUNK + j) as u64;
                let h = classes.position(entry).expect("an entry of the index") as usize;
                (wr[j], wp[j], ws[j]) = (rounds_w[h], presses_w[h], sets_w[h]);
                let opposite = h ^ full;
                (br[j], bp[j], bs[j]) = (rounds_w[opposite], presses_w[opposite], sets_w[opposite]);
                r[j] = wr[j].min(br[j]);
            }
            report.add(r.len() as u64);
        });
    report.check()?;
    report.finish();
    drop((rounds_w, presses_w, sets_w));
    Ok(tables(
        shape,
        Some(classes),
        rounds,
        [white, black],
        column,
        histogram,
    ))
}

impl From<FlipTables> for TableFlipColumns {
    /// The generator's columns, taken as they are (nothing is copied).
    fn from(tables: FlipTables) -> TableFlipColumns {
        let [white, black] = tables.colours;
        TableFlipColumns {
            classes: tables.classes,
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
