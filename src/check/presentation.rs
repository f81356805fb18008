//! How output is compared with the judge's ([`Presentation`]): strictly, its
//! lines as the judge sees them, or as tokens.
//!
//! The judges of the problems `check` knows compare the output with theirs
//! as files: the same, but for spaces at the ends of lines and blank lines
//! at its end, is Accepted; the same once every space, tab and line break
//! is taken out is Presentation Error on POJ and HDU, and Wrong Answer on
//! UVa, which no longer gives Presentation Error for a line break; anything
//! else, a word in other capitals included, is Wrong Answer.

use serde::Serialize;

use super::tokens::{Token, is_space};
use super::verdict::{Fault, Verdict, kinds};
use crate::catalogue::entry::Problem;

/// How a program's output is compared with the judge's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Presentation {
    /// As the judge compares: each answer on the judge's lines, with its
    /// spaces, no blank line before it, no other answer on its lines
    /// (spaces at the ends of lines and blank lines at the end of the
    /// output do not count). A difference of whitespace alone is the
    /// judge's verdict for layout ([`layout_verdict`]); a word that
    /// differs, in capitals too, is a Wrong Answer.
    #[default]
    Strict,
    /// Tokens (runs of non-whitespace) are compared, so line breaks and
    /// spaces do not matter, and a word in other capitals or a number
    /// written otherwise is a Presentation Error.
    Tokens,
}

impl Presentation {
    /// As the command line and the JSON report name it.
    pub const fn name(self) -> &'static str {
        match self {
            Presentation::Strict => "strict",
            Presentation::Tokens => "tokens",
        }
    }
}

/// The verdict the judge of `problem` gives output whose words are right
/// and whose whitespace is not: Wrong Answer on UVa (which gives it for a
/// line break out of place), Presentation Error on POJ, HDU and where
/// there is no judge.
pub fn layout_verdict(problem: &Problem) -> Verdict {
    if problem.judge.starts_with("UVA") {
        Verdict::WrongAnswer
    } else {
        Verdict::PresentationError
    }
}

/// A program's output cut into lines, each without its line break and the
/// whitespace before it.
pub(super) struct Lines<'a> {
    lines: Vec<&'a [u8]>,
}

impl<'a> Lines<'a> {
    pub(super) fn new(output: &'a [u8]) -> Lines<'a> {
        Lines {
            lines: output.split(|&b| b == b'\n').map(trim_end).collect(),
        }
    }

    /// Line `n` (from 1, as [`Token::line`] counts them).
    fn get(&self, n: usize) -> &'a [u8] {
        self.lines.get(n.wrapping_sub(1)).copied().unwrap_or(&[])
    }
}

fn trim_end(line: &[u8]) -> &[u8] {
    let end = line
        .iter()
        .rposition(|&b| !is_space(b))
        .map_or(0, |i| i + 1);
    &line[..end]
}

fn lines(n: usize) -> String {
    format!("{n} line{}", if n == 1 { "" } else { "s" })
}

/// How a complete answer (`answer`, its tokens) is laid out otherwise than
/// `expected`, the judge's answer, as the judge sees it; `None` when it is
/// laid out as the judge's. `before` is the token before the answer and
/// `after` the token after it, if any. The fault has `verdict`.
pub(super) fn layout(
    output: &Lines<'_>,
    answer: &[Token<'_>],
    before: Option<&Token<'_>>,
    after: Option<&Token<'_>>,
    expected: &str,
    verdict: Verdict,
) -> Option<Fault> {
    let (first, last) = (answer.first()?.line, answer.last()?.line);
    let fault = |detail: String| Some(Fault::new(&kinds::LAYOUT, detail).judged(verdict));
    if before.is_some_and(|t| t.line == first) {
        return fault("on a line of the output before it".to_owned());
    }
    let blank = first - before.map_or(0, |t| t.line) - 1;
    if blank > 0 {
        let place = if before.is_some() {
            "before it"
        } else {
            "at the start of the output"
        };
        return fault(format!("{} blank {place}", lines(blank)));
    }
    if after.is_some_and(|t| t.line == last) {
        return fault("on a line with output after it".to_owned());
    }
    let want: Vec<&[u8]> = expected
        .split('\n')
        .map(|l| trim_end(l.as_bytes()))
        .collect();
    let got: Vec<&[u8]> = (first..=last).map(|n| output.get(n)).collect();
    if got == want {
        return None;
    }
    if got.len() != want.len() {
        return fault(format!(
            "on {} where the judge's answer takes {}",
            lines(got.len()),
            lines(want.len())
        ));
    }
    let (i, line) = got.iter().enumerate().find(|(i, l)| **l != want[*i])?;
    let which = if got.len() == 1 {
        String::new()
    } else {
        format!(" on its line {}", i + 1)
    };
    if line.first().is_some_and(|&b| is_space(b)) {
        fault(format!("spaces before its words{which}"))
    } else {
        fault(format!("other spaces between its words{which}"))
    }
}

/// The lines of `answer` as the program printed them, for a report of its
/// layout: from the line after `before` (the token before the answer),
/// blank lines included, to the answer's last line; each without the
/// whitespace at its end.
pub(super) fn printed(
    output: &Lines<'_>,
    answer: &[Token<'_>],
    before: Option<&Token<'_>>,
) -> String {
    let (Some(first), Some(last)) = (answer.first(), answer.last()) else {
        return String::new();
    };
    let from = before.map_or(1, |t| t.line + 1).min(first.line);
    let shown: Vec<String> = (from..=last.line)
        .map(|n| super::tokens::show(output.get(n), 200))
        .collect();
    shown.join("\n")
}

/// Whether `got` and `expected` differ in whitespace alone.
pub(super) fn same_words(got: &[Token<'_>], expected: &str) -> bool {
    let got = got.iter().flat_map(|t| t.text.iter().copied());
    let want = expected.bytes().filter(|&b| !is_space(b));
    got.eq(want)
}

#[cfg(test)]
mod tests {
    use super::super::tokens::tokens;
    use super::*;

    fn judge(output: &str, expected: &[&str]) -> Vec<Option<String>> {
        let toks = tokens(output.as_bytes(), false);
        let lines = Lines::new(output.as_bytes());
        let mut at = 0;
        let mut out = Vec::new();
        for want in expected {
            let n = want.split_whitespace().count();
            let answer = &toks[at..at + n];
            let fault = layout(
                &lines,
                answer,
                at.checked_sub(1).map(|i| &toks[i]),
                toks.get(at + n),
                want,
                Verdict::PresentationError,
            );
            out.push(fault.map(|f| f.detail));
            at += n;
        }
        out
    }

    #[test]
    fn the_judge_s_layout_is_accepted() {
        // Spaces at the ends of lines and blank lines at the end do not count.
        let got = judge("0 1\n1 0 \r\nLOSING\n\n\n", &["0 1\n1 0", "LOSING"]);
        assert_eq!(got, [None, None]);
    }

    #[test]
    fn each_layout_fault_is_named() {
        let grid = ["0 1\n1 0"];
        let cases: [(&str, &[&str], &str); 7] = [
            (
                "0 1 1 0\n",
                &grid,
                "on 1 line where the judge's answer takes 2 lines",
            ),
            (
                "\n\n0 1\n1 0\n",
                &grid,
                "2 lines blank at the start of the output",
            ),
            (
                " 0 1\n1 0\n",
                &grid,
                "spaces before its words on its line 1",
            ),
            (
                "0 1\n1  0\n",
                &grid,
                "other spaces between its words on its line 2",
            ),
            (
                "0 1\n\n1 0\n",
                &grid,
                "on 3 lines where the judge's answer takes 2 lines",
            ),
            ("  4\n", &["4"], "spaces before its words"),
            ("4\t\n5 x\n", &["4", "5"], "on a line with output after it"),
        ];
        for (output, expected, detail) in cases {
            let got = judge(output, expected);
            let got = got.iter().flatten().next().map(String::as_str);
            assert_eq!(got, Some(detail), "{output:?}");
        }
        let got = judge("WINNING LOSING\n", &["WINNING", "LOSING"]);
        assert_eq!(
            got,
            [
                Some("on a line with output after it".to_owned()),
                Some("on a line of the output before it".to_owned())
            ]
        );
        let got = judge("WINNING\n\nLOSING\n", &["WINNING", "LOSING"]);
        assert_eq!(got, [None, Some("1 line blank before it".to_owned())]);
    }

    #[test]
    fn printed_as_it_was() {
        let output = "4\n\n  WINNING LOSING\n";
        let toks = tokens(output.as_bytes(), false);
        let lines = Lines::new(output.as_bytes());
        assert_eq!(
            printed(&lines, &toks[1..2], Some(&toks[0])),
            "\n  WINNING LOSING"
        );
        assert_eq!(
            printed(&lines, &toks[2..], Some(&toks[1])),
            "  WINNING LOSING"
        );
        assert_eq!(printed(&lines, &toks[..1], None), "4");
    }

    #[test]
    fn words_against_whitespace() {
        let toks = tokens(b"0101\n10", false);
        assert!(same_words(&toks, "0 1 0 1\n1 0"));
        assert!(!same_words(&toks, "0 1 0 1\n1 1"));
        assert!(!same_words(&tokens(b"impossible", false), "Impossible"));
    }
}
