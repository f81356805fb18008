//! Judge inputs with known answers: seeded, reproducible, streamed.
//!
//! `boardbase cases`, `boardbase check`, the benches and the tests all draw
//! their cases here, so there is one source of cases for the project.
//!
//! # The stream is a contract
//!
//! Every case is a function of the seed and the arguments alone, through
//! [`Rng`]: SplitMix64 (Steele, Lea and Flood, 2014) seeded with the seed
//! itself, and [`Rng::below`] (Lemire's multiply-and-reject) for every
//! choice among `n`. What each category of cases draws, and in which order, is written
//! in its documentation. The same arguments give the same bytes on every
//! platform and in every later version; a change to any of this is a
//! breaking change of the crate.
//!
//! # Categories
//!
//! Each puzzle's cases come in categories (by answer, or by how the board
//! is drawn), one enum a puzzle. The front ends take a category's name
//! through their option `--family` (Python: `family=`), a name kept so that
//! every command line and script written for it still works.
//!
//! - [`flip`]: all 65,536 boards, only the solvable ones, only the
//!   impossible ones, optionally only those taking a given number of rounds.
//! - [`euler`]: the 65,535 open positions, only winning or losing ones,
//!   optionally only those lasting a given number of moves.
//! - [`carcassonne`]: random tiles, planted placements, two-pair tiles and
//!   uniform boards of any size.
//! - [`fliptile`]: random boards, only the solvable ones, only the
//!   impossible ones, or only those with several fewest flip sets (where
//!   the judge's tie rule decides), of random sizes up to 15×15 or of one
//!   size up to 64×64.
//! - [`lightsout`]: random 5×6 puzzles.
//! - [`lights`]: boards of one variant of the Lights Out family, random,
//!   only those that reach the goal or only those that never do.
//! - [`sized`]: Flip and Euler boards of every size (up to 64×64 and 36
//!   squares; 4×4 drawn as [`flip`] and [`euler`] draw them, whatever
//!   table answers), with answers from a table or the GF(2) solver.
//!
//! [`CaseWriter::write`] streams `N` cases (and, when asked, the judge's
//! expected output for them) through fixed buffers: memory does not grow
//! with `N`.
//!
//! ```
//! use boardbase::cases::{CaseWriter, Spec, flip};
//!
//! let spec = Spec::Flip(flip::Filter { category: flip::FlipCategory::Impossible, rounds: None });
//! let mut input = Vec::new();
//! let mut answers = Vec::new();
//! CaseWriter::new(&spec)?.write(2, 7, &mut input, Some(&mut answers), &mut |_| {})?;
//! // Two boards of 4 lines each, both impossible.
//! assert_eq!(input.len(), 2 * 20);
//! assert_eq!(answers, b"Impossible\nImpossible\n");
//! # Ok::<(), boardbase::cases::CasesError>(())
//! ```

pub mod carcassonne;
mod category;
pub mod euler;
pub mod flip;
pub mod fliptile;
pub mod lights;
pub mod lightsout;
pub mod sized;

use std::io::{self, Write};
use std::marker::PhantomData;

use crate::lights::LightsError;

/// SplitMix64, the generator behind every generated case.
///
/// `next_u64` adds `0x9E37_79B9_7F4A_7C15` to the state and returns the
/// state mixed by the SplitMix64 finaliser; the state starts at the seed.
///
/// ```
/// use boardbase::cases::Rng;
/// let mut rng = Rng::new(0);
/// assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
/// let d = rng.below(6);
/// assert!(d < 6);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rng {
    state: u64,
}

impl Rng {
    /// A generator whose state is `seed`.
    pub const fn new(seed: u64) -> Rng {
        Rng { state: seed }
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform number in `0..n` (`n ≥ 1`; 0 when `n` is 0).
    ///
    /// Lemire's method: draw `x`, form the 128-bit product `x · n`; its low
    /// 64 bits below `2^64 mod n` are rejected (draw again), otherwise its
    /// high 64 bits are the answer.
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            return 0;
        }
        let threshold = n.wrapping_neg() % n;
        loop {
            let m = u128::from(self.next_u64()) * u128::from(n);
            if m as u64 >= threshold {
                return (m >> 64) as u64;
            }
        }
    }

    /// [`below`](Rng::below) for `usize`.
    #[inline]
    pub fn index(&mut self, n: usize) -> usize {
        self.below(n as u64) as usize
    }

    /// Shuffles `items` in place (Fisher–Yates from the back: for `i` from
    /// `len - 1` down to 1, swap item `i` with item `below(i + 1)`).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.index(i + 1);
            items.swap(i, j);
        }
    }

    /// `k` distinct numbers of `0..n` in random order (`k ≤ n`): a partial
    /// Fisher–Yates from the front (for `i` in `0..k`, swap slot `i` with
    /// slot `i + below(n - i)`) over `0..n`, kept sparse so that memory
    /// grows with `k`, not `n`.
    pub fn sample(&mut self, n: usize, k: usize) -> Vec<usize> {
        let k = k.min(n);
        let mut moved = std::collections::HashMap::new();
        let mut out = Vec::with_capacity(k);
        for i in 0..k {
            let j = i + self.index(n - i);
            let at_j = *moved.get(&j).unwrap_or(&j);
            let at_i = *moved.get(&i).unwrap_or(&i);
            moved.insert(j, at_i);
            out.push(at_j);
        }
        out
    }
}

/// The eligible boards of a 4×4 filter ([`flip::Pool`], [`euler::Pool`]),
/// ascending by their bits; each case is `pool[rng.below(pool.len())]`.
#[derive(Debug)]
pub struct Pool<B> {
    bits: Vec<u16>,
    board: PhantomData<fn() -> B>,
}

impl<B> Clone for Pool<B> {
    fn clone(&self) -> Pool<B> {
        Pool {
            bits: self.bits.clone(),
            board: PhantomData,
        }
    }
}

impl<B> PartialEq for Pool<B> {
    fn eq(&self, other: &Pool<B>) -> bool {
        self.bits == other.bits
    }
}

impl<B> Eq for Pool<B> {}

impl<B: From<u16>> Pool<B> {
    /// The boards of all 65,536 bit patterns that `accepts` passes;
    /// [`CasesError::Empty`] saying `no {filter} exists` when none does.
    fn filtered(
        filter: impl std::fmt::Display,
        accepts: impl Fn(B) -> bool,
    ) -> Result<Pool<B>, CasesError> {
        let bits: Vec<u16> = (0..=u16::MAX).filter(|&b| accepts(B::from(b))).collect();
        if bits.is_empty() {
            return Err(CasesError::Empty {
                what: format!("{filter} exists"),
            });
        }
        Ok(Pool {
            bits,
            board: PhantomData,
        })
    }

    /// How many boards are eligible.
    pub fn len(&self) -> usize {
        self.bits.len()
    }

    /// The eligible bits, ascending.
    pub fn as_slice(&self) -> &[u16] {
        &self.bits
    }

    /// Whether none is (never true for a constructed pool).
    pub fn is_empty(&self) -> bool {
        self.bits.is_empty()
    }

    /// The `i`-th eligible board, ascending.
    ///
    /// # Panics
    ///
    /// Panics if `i` is `len()` or more.
    pub fn get(&self, i: usize) -> B {
        B::from(self.bits[i])
    }

    /// One board, uniformly: `pool[rng.below(len)]`.
    #[inline]
    pub fn pick(&self, rng: &mut Rng) -> B {
        B::from(self.bits[rng.index(self.bits.len())])
    }
}

/// Each row of 4 cells (bit `c` = column `c`) as text with its newline:
/// `one` where set, `zero` where clear.
const fn rows4(zero: u8, one: u8) -> [[u8; 5]; 16] {
    let mut rows = [[b'\n'; 5]; 16];
    let mut bits = 0;
    while bits < 16 {
        let mut c = 0;
        while c < 4 {
            rows[bits][c] = if bits >> c & 1 == 1 { one } else { zero };
            c += 1;
        }
        bits += 1;
    }
    rows
}

/// Writes a 4×4 board (cell (r, c) at bit `4r + c`) as 4 lines through
/// `rows`, a table made by [`rows4`].
#[inline]
fn write4x4<W: Write + ?Sized>(out: &mut W, bits: u16, rows: &[[u8; 5]; 16]) -> io::Result<()> {
    let mut text = [0u8; 20];
    for r in 0..4 {
        let row = usize::from(bits >> (4 * r) & 0xF);
        text[5 * r..5 * r + 5].copy_from_slice(&rows[row]);
    }
    out.write_all(&text)
}

/// Calls `case(n)` for the cases `n` = 1 to `cases`, and `progress(n)`
/// after every [`PROGRESS_STEP`]th case and after the last (`progress(0)`
/// when there are none).
#[inline]
fn each_case<E>(
    cases: u64,
    progress: &mut dyn FnMut(u64),
    mut case: impl FnMut(u64) -> Result<(), E>,
) -> Result<(), E> {
    for n in 1..=cases {
        case(n)?;
        if n % PROGRESS_STEP == 0 {
            progress(n);
        }
    }
    progress(cases);
    Ok(())
}

/// Which cases to write.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Spec {
    /// Flip Game boards.
    Flip(flip::Filter),
    /// Game of Euler positions.
    Euler(euler::Filter),
    /// Carcassonne boards.
    Carcassonne(carcassonne::Spec),
    /// Fliptile (POJ 3279) boards.
    Fliptile(fliptile::Spec),
    /// Extended Lights Out (POJ 1222, UVA 1560) puzzles.
    LightsOut,
    /// Boards of one variant of the Lights Out family (`boardbase lights
    /// solve`).
    Lights(lights::Spec),
}

/// Why no cases could be written.
#[derive(Debug, thiserror::Error)]
pub enum CasesError {
    /// No board satisfies the filter.
    #[error("no {what}")]
    Empty {
        /// The boards asked for, e.g. `impossible Flip board taking 3 rounds`.
        what: String,
    },
    /// The size cannot be drawn.
    #[error("{0}")]
    Size(String),
    /// A board could not be counted within the memory budget.
    #[error("case {case}: {error}")]
    Count {
        /// 1-based case number.
        case: u64,
        /// Why.
        error: crate::carcassonne::Error,
    },
    /// A Fliptile or Lights Out board could not be answered (a size whose
    /// nullity is over the search limit).
    #[error(transparent)]
    Lights(#[from] LightsError),
    /// A table gave an answer that cannot be right (it is damaged).
    #[error(transparent)]
    Probe(#[from] crate::tablefile::TableError),
    /// The answer layer could not answer (a table file, the tablebase's
    /// limits).
    #[error(transparent)]
    Answer(crate::tablebase::Error),
    /// Writing failed.
    #[error(transparent)]
    Io(#[from] io::Error),
}

impl From<crate::tablebase::Error> for CasesError {
    /// A damaged table is [`CasesError::Probe`] and a shape past the GF(2)
    /// search [`CasesError::Lights`], as the cases' own probes say them; the
    /// family's refusals (past its search, a colour it does not have) stay
    /// the answer layer's, which a front end words as a question's.
    fn from(error: crate::tablebase::Error) -> CasesError {
        use crate::tablebase::Error;
        match error {
            Error::Damaged(e) => CasesError::Probe(e),
            Error::Lights(
                e @ (LightsError::NullityTooLarge { .. } | LightsError::ShapeMismatch { .. }),
            ) => CasesError::Lights(e),
            e => CasesError::Answer(e),
        }
    }
}

/// Cases ready to be written: [`Spec`] with its pools of eligible
/// boards computed.
#[derive(Clone, Debug)]
pub enum CaseWriter {
    /// Flip boards.
    Flip(flip::Pool),
    /// Euler positions.
    Euler(euler::Pool),
    /// Carcassonne boards.
    Carcassonne(carcassonne::Spec),
    /// Fliptile boards.
    Fliptile(fliptile::Spec),
    /// Lights Out puzzles.
    LightsOut,
    /// Boards of the Lights Out family.
    Lights(lights::Spec),
}

/// Cases written between two calls of the progress callback.
pub const PROGRESS_STEP: u64 = 1 << 16;

impl CaseWriter {
    /// Checks `spec` and computes what it needs (at most 65,536 boards for
    /// the 4×4 pools).
    pub fn new(spec: &Spec) -> Result<CaseWriter, CasesError> {
        Ok(match spec {
            Spec::Flip(filter) => CaseWriter::Flip(flip::Pool::new(*filter)?),
            Spec::Euler(filter) => CaseWriter::Euler(euler::Pool::new(*filter)?),
            Spec::Carcassonne(spec) => CaseWriter::Carcassonne(spec.validated()?),
            Spec::Fliptile(spec) => CaseWriter::Fliptile(spec.validated()?),
            Spec::LightsOut => CaseWriter::LightsOut,
            Spec::Lights(spec) => CaseWriter::Lights(spec.clone()),
        })
    }

    /// Writes `cases` cases drawn from `Rng::new(seed)` to `input` in the
    /// judge's input format, and their expected output to `answers` when
    /// given. The input bytes do not depend on whether answers are asked
    /// for. `progress` receives the number of cases written so far every
    /// [`PROGRESS_STEP`] cases (Carcassonne: every batch) and at the end.
    ///
    /// - Flip: the boards one after another, 4 lines each (the
    ///   judge sends one board a run; `boardbase flip` reads many).
    /// - Euler: the count, then each position after a blank
    ///   line.
    /// - Carcassonne: the count `T`, then each board.
    /// - Fliptile (POJ 3279): the cases one after another, each `M N` and M
    ///   rows of `0`/`1` separated by single spaces (the judge sends one case
    ///   a run; `boardbase fliptile` reads many); the answers as `boardbase
    ///   fliptile` prints them.
    /// - Lights Out (POJ 1222): the count, then each puzzle's 5 rows; the
    ///   answers `PUZZLE #m` and 5 rows each.
    /// - The Lights Out family: each board's rows of digits and a blank
    ///   line (`boardbase lights solve` reads many); the answers as it
    ///   prints them.
    ///
    /// The counts are written as asked even past the judges' limits (Euler
    /// `N < 100,000`, Carcassonne `T ≤ 50`): the CLI accepts any count.
    pub fn write<W: Write + ?Sized, A: Write + ?Sized>(
        &self,
        cases: u64,
        seed: u64,
        input: &mut W,
        mut answers: Option<&mut A>,
        progress: &mut dyn FnMut(u64),
    ) -> Result<(), CasesError> {
        let mut rng = Rng::new(seed);
        match self {
            CaseWriter::Flip(pool) => each_case(cases, progress, |_| {
                let board = pool.pick(&mut rng);
                flip::write_board(input, board)?;
                if let Some(a) = answers.as_deref_mut() {
                    flip::write_answer(a, board)?;
                }
                Ok(())
            }),
            CaseWriter::Euler(pool) => {
                writeln!(input, "{cases}")?;
                each_case(cases, progress, |_| {
                    let position = pool.pick(&mut rng);
                    input.write_all(b"\n")?;
                    euler::write_position(input, position)?;
                    if let Some(a) = answers.as_deref_mut() {
                        euler::write_answer(a, position)?;
                    }
                    Ok(())
                })
            }
            CaseWriter::Carcassonne(spec) => {
                writeln!(input, "{cases}")?;
                carcassonne::write_cases(spec, cases, &mut rng, input, answers, progress)
            }
            CaseWriter::Fliptile(spec) => each_case(cases, progress, |_| {
                let board = spec.board(&mut rng)?;
                fliptile::write_case(input, &board)?;
                if let Some(a) = answers.as_deref_mut() {
                    fliptile::write_answer(a, &board)?;
                }
                Ok(())
            }),
            CaseWriter::LightsOut => {
                writeln!(input, "{cases}")?;
                each_case(cases, progress, |n| {
                    let board = lightsout::board(&mut rng);
                    lightsout::write_puzzle(input, &board)?;
                    if let Some(a) = answers.as_deref_mut() {
                        lightsout::write_answer(a, n, &board)?;
                    }
                    Ok(())
                })
            }
            CaseWriter::Lights(spec) => each_case(cases, progress, |_| {
                let board = spec.board(&mut rng)?;
                lights::write_board(input, &board)?;
                if let Some(a) = answers.as_deref_mut() {
                    lights::write_answer(a, spec.answer(&board)?.as_ref())?;
                }
                Ok(())
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix64_reference_values() {
        // The reference implementation's first outputs for seed 0.
        let mut rng = Rng::new(0);
        assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(rng.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(rng.next_u64(), 0x06C4_5D18_8009_454F);
    }

    #[test]
    fn below_is_in_range_and_covers_it() {
        let mut rng = Rng::new(5);
        let mut seen = [0u32; 7];
        for _ in 0..7000 {
            seen[rng.below(7) as usize] += 1;
        }
        assert!(seen.iter().all(|&s| (800..1200).contains(&s)), "{seen:?}");
        assert_eq!(rng.below(1), 0);
        assert_eq!(rng.below(0), 0);
    }

    #[test]
    fn sample_is_distinct_and_matches_a_dense_partial_shuffle() {
        let mut a = Rng::new(9);
        let got = a.sample(50, 20);
        let mut b = Rng::new(9);
        let mut dense: Vec<usize> = (0..50).collect();
        for i in 0..20 {
            let j = i + b.index(50 - i);
            dense.swap(i, j);
        }
        assert_eq!(got, dense[..20]);
        let mut sorted = got.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), 20);
    }
}
