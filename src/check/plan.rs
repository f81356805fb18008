//! The cases to run, arranged and cut into runs.

use super::judge::{Arrangement, Judge};
use crate::cases::Rng;

/// The cases to run, cut into runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunPlan {
    /// Case numbers, run by run.
    pub runs: Vec<Vec<usize>>,
    /// How many cases in all.
    pub cases: usize,
    /// Whether this is a sample rather than every case.
    pub sampled: bool,
    /// The sample asked for (`--sample`), if any.
    pub requested: Option<usize>,
}

/// What the sample and the shuffles are drawn with: `Rng::new(seed ^
/// PLAN_SALT)`, so they do not repeat the draws of cases generated from
/// the same seed.
pub const PLAN_SALT: u64 = 0x706C_616E; // "plan"

/// Every case of `puzzle`, or a random sample of `sample` of them (drawn
/// with [`Rng::sample`]), arranged and cut into runs of at most
/// the problem's [`max_cases`](crate::catalogue::Problem::max_cases).
pub fn plan<P: Judge + ?Sized>(puzzle: &P, sample: Option<usize>, seed: u64) -> RunPlan {
    let n = puzzle.case_count();
    let mut rng = Rng::new(seed ^ PLAN_SALT);
    let (mut cases, sampled) = match sample {
        Some(k) if k < n => (rng.sample(n, k), true),
        _ => ((0..n).collect(), puzzle.is_drawn()),
    };
    match puzzle.arrangement() {
        Arrangement::Ascending => cases.sort_unstable(),
        Arrangement::Shuffled => rng.shuffle(&mut cases),
        Arrangement::Grouped => cases.sort_unstable_by_key(|&c| (puzzle.group(c), c)),
    }
    let max = puzzle.problem().max_cases.max(1);
    let mut runs: Vec<Vec<usize>> = Vec::new();
    for &case in &cases {
        let group = puzzle.group(case);
        match runs.last_mut() {
            Some(run) if run.len() < max && puzzle.group(run[0]) == group => run.push(case),
            _ => runs.push(vec![case]),
        }
    }
    RunPlan {
        runs,
        cases: cases.len(),
        sampled,
        requested: sample,
    }
}
