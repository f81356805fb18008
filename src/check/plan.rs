//! The cases to run, arranged and cut into runs.

use super::puzzle::{Arrangement, Check};
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
pub fn plan<P: Check + ?Sized>(puzzle: &P, sample: Option<usize>, seed: u64) -> RunPlan {
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
        Arrangement::HardFirst => hard_first(puzzle, &mut cases),
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

/// Puts `cases` in the order of [`Arrangement::HardFirst`]: by their place
/// in their class (in case order), then the hardest class first.
fn hard_first<P: Check + ?Sized>(puzzle: &P, cases: &mut [usize]) {
    cases.sort_unstable();
    let mut seen: std::collections::HashMap<usize, usize> = std::collections::HashMap::new();
    let mut keyed: Vec<(usize, std::cmp::Reverse<usize>, usize)> = cases
        .iter()
        .map(|&case| {
            let hardness = puzzle.hardness(case);
            let place = seen.entry(hardness).or_insert(0);
            *place += 1;
            (*place, std::cmp::Reverse(hardness), case)
        })
        .collect();
    keyed.sort_unstable();
    for (slot, (_, _, case)) in cases.iter_mut().zip(keyed) {
        *slot = case;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::entry::Problem;
    use crate::check::{CaseView, Judgement, Token};

    /// Cases 0..12 of hardness `case % 3`, one a run.
    struct Classes;

    impl Check for Classes {
        fn problem(&self) -> &'static Problem {
            &crate::flip::POJ_1753
        }
        fn case_count(&self) -> usize {
            12
        }
        fn arrangement(&self) -> Arrangement {
            Arrangement::HardFirst
        }
        fn hardness(&self, case: usize) -> usize {
            case % 3
        }
        fn write_input(&self, _cases: &[usize], _out: &mut Vec<u8>) {}
        fn tokens_per_answer(&self) -> usize {
            1
        }
        fn expected(&self, _case: usize, _number: usize) -> String {
            String::new()
        }
        fn judge_answer(&self, _case: usize, _number: usize, _answer: &[Token<'_>]) -> Judgement {
            Judgement::Accepted
        }
        fn describe(&self, case: usize) -> CaseView {
            CaseView {
                key: case as u64,
                title: String::new(),
                board: Vec::new(),
            }
        }
    }

    #[test]
    fn hard_first_takes_each_class_in_turn() {
        let order: Vec<usize> = plan(&Classes, None, 0).runs.concat();
        assert_eq!(order, [2, 1, 0, 5, 4, 3, 8, 7, 6, 11, 10, 9]);
        // A sample is put in the same order among the cases drawn.
        let sample = plan(&Classes, Some(5), 0);
        assert_eq!(sample.runs.len(), 5);
        let drawn = sample.runs.concat();
        let mut again = drawn.clone();
        again.sort_unstable();
        hard_first(&Classes, &mut again);
        assert_eq!(drawn, again);
        assert_eq!(
            drawn[0] % 3,
            *drawn
                .iter()
                .map(|c| c % 3)
                .collect::<Vec<_>>()
                .iter()
                .max()
                .unwrap()
        );
    }
}
