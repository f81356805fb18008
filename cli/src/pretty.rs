//! Boards drawn for `--format pretty`: rows of letters, drawings side by
//! side under their labels, cell lists, the best-move line.

use std::io::Write;

use boardbase::solvers::shape::Shape;

use super::{Failure, Output};

/// The rows of a board of `shape` drawn with `zero`/`one`, and the same
/// with the cells of `mark` drawn `marker`.
pub fn draw(
    shape: Shape,
    bits: u64,
    zero: char,
    one: char,
    mark: u64,
    marker: char,
) -> Vec<String> {
    (0..shape.rows())
        .map(|r| {
            (0..shape.cols())
                .map(|c| {
                    if shape.get(mark, r, c) {
                        marker
                    } else if shape.get(bits, r, c) {
                        one
                    } else {
                        zero
                    }
                })
                .collect()
        })
        .collect()
}

/// Columns of a drawing side by side: each padded to `cols + 3` (at least
/// the width of the longest label, plus 2), two spaces in front.
pub fn side_by_side(
    out: &mut Output,
    cols: usize,
    labels: &[&str],
    drawings: &[Vec<String>],
) -> Result<(), Failure> {
    let width = labels
        .iter()
        .take(labels.len().saturating_sub(1))
        .map(|l| l.chars().count() + 2)
        .fold(cols + 3, usize::max);
    let mut line = String::from("  ");
    for (i, label) in labels.iter().enumerate() {
        if i + 1 < labels.len() {
            line.push_str(&format!("{label:width$}"));
        } else {
            line.push_str(label);
        }
    }
    writeln!(out, "{line}")?;
    for r in 0..drawings[0].len() {
        let mut line = String::from("  ");
        for (i, d) in drawings.iter().enumerate() {
            if i + 1 < drawings.len() {
                line.push_str(&format!("{:width$}", d[r]));
            } else {
                line.push_str(&d[r]);
            }
        }
        writeln!(out, "{line}")?;
    }
    Ok(())
}

/// `(r,c) (r,c) ...`, 0-based.
pub fn squares(cells: &[[usize; 2]]) -> String {
    let cells: Vec<String> = cells.iter().map(|[r, c]| format!("({r},{c})")).collect();
    cells.join(" ")
}

/// `  best move covers (0,0) (0,1); winning moves: 2 of 9 legal` (`, resisting
/// longest` when no move wins).
pub fn write_best_move(
    out: &mut Output,
    covers: &str,
    winning: usize,
    legal: usize,
) -> Result<(), Failure> {
    let how = if winning == 0 {
        ", resisting longest"
    } else {
        ""
    };
    writeln!(
        out,
        "  best move covers {covers}{how}; winning moves: {winning} of {legal} legal"
    )?;
    Ok(())
}

/// `1 round`, `4 rounds`.
pub fn rounds(n: u64) -> String {
    if n == 1 {
        "1 round".to_owned()
    } else {
        format!("{n} rounds")
    }
}
