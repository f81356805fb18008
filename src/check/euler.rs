//! The Game of Euler's wrong answers for `check`, of every board size
//! (the judge is [`SizedCheck`](super::SizedCheck): by default the 65,535
//! open 4×4 positions, all in one run, as the judge allows up to 99,999
//! cases an input).

use super::{FaultKind, Verdict};

/// A losing position answered `WINNING`.
pub static LOSING_CALLED_WINNING: FaultKind = FaultKind {
    id: "losing_called_winning",
    title: "losing position answered WINNING",
    verdict: Verdict::WrongAnswer,
};
/// A winning position answered `LOSING`.
pub static WINNING_CALLED_LOSING: FaultKind = FaultKind {
    id: "winning_called_losing",
    title: "winning position answered LOSING",
    verdict: Verdict::WrongAnswer,
};
