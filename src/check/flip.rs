//! Flip Game's wrong answers for `check`, of every board size (the
//! judge is [`SizedCheck`](super::SizedCheck)).

use super::{Fault, FaultKind, Verdict, kinds, parse_int};

/// An impossible board answered with a number.
pub static IMPOSSIBLE_ANSWERED_NUMBER: FaultKind = FaultKind {
    id: "impossible_answered_number",
    title: "impossible board answered with a number",
    verdict: Verdict::WrongAnswer,
};
/// A solvable board answered `Impossible`.
pub static POSSIBLE_ANSWERED_IMPOSSIBLE: FaultKind = FaultKind {
    id: "possible_answered_impossible",
    title: "solvable board answered Impossible",
    verdict: Verdict::WrongAnswer,
};
/// More rounds than the fewest.
pub static TOO_MANY_ROUNDS: FaultKind = FaultKind {
    id: "too_many_rounds",
    title: "too many rounds",
    verdict: Verdict::WrongAnswer,
};
/// Fewer rounds than can be done.
pub static TOO_FEW_ROUNDS: FaultKind = FaultKind {
    id: "too_few_rounds",
    title: "too few rounds",
    verdict: Verdict::WrongAnswer,
};

/// What is wrong with `got`, a Flip answer that is not `want` (the fewest
/// rounds, `None` when impossible).
pub(super) fn wrong_rounds(got: &[u8], want: Option<i64>) -> Fault {
    let shown = || format!("'{}'", super::show(got, 20));
    match (parse_int(got), want) {
        (Some(n), None) => Fault::new(&IMPOSSIBLE_ANSWERED_NUMBER, format!("answered {n}")),
        (Some(n), Some(w)) if n == w => {
            Fault::new(&kinds::NUMBER_FORM, format!("{} for {w}", shown()))
        }
        (Some(n), Some(w)) => Fault::new(
            if n > w {
                &TOO_MANY_ROUNDS
            } else {
                &TOO_FEW_ROUNDS
            },
            format!("expected {w}, answered {n}"),
        ),
        (None, Some(w)) if got == b"Impossible" => Fault::new(
            &POSSIBLE_ANSWERED_IMPOSSIBLE,
            format!("{w} round{}", if w == 1 { "" } else { "s" }),
        ),
        (None, _) if got.eq_ignore_ascii_case(b"impossible") => {
            Fault::new(&kinds::MISSPELT, format!("{} for 'Impossible'", shown()))
        }
        (None, _) => Fault::new(&kinds::NOT_AN_ANSWER, shown()),
    }
}
