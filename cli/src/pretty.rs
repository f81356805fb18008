//! Boards drawn for `--format pretty`: rows of letters, drawings side by
//! side under their labels, cell lists, the best-move line.

use std::io::Write;

use boardbase::tables::shape::Shape;

use super::{Failure, Output};

/// The rows of a board of `shape` (at most 64 cells, cell (r, c) at bit
/// `C·r + c`) drawn with `zero`/`one`, and the same with the cells of
/// `mark` drawn `marker`.
pub fn draw(
    shape: Shape,
    bits: u64,
    zero: char,
    one: char,
    mark: u64,
    marker: char,
) -> Vec<String> {
    let cols = shape.cols();
    (0..shape.rows())
        .map(|r| {
            let mut row = String::with_capacity(cols);
            for c in 0..cols {
                let i = r * cols + c;
                row.push(if mark >> i & 1 == 1 {
                    marker
                } else if bits >> i & 1 == 1 {
                    one
                } else {
                    zero
                });
            }
            row
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
    // Written straight to the (buffered) output: a board's lines are
    // most of what `--format pretty` costs.
    let last = labels.len().saturating_sub(1);
    out.write_all(b"  ")?;
    for (i, label) in labels.iter().enumerate() {
        if i < last {
            write!(out, "{label:width$}")?;
        } else {
            out.write_all(label.as_bytes())?;
        }
    }
    out.write_all(b"\n")?;
    let last = drawings.len().saturating_sub(1);
    for r in 0..drawings[0].len() {
        out.write_all(b"  ")?;
        for (i, d) in drawings.iter().enumerate() {
            if i < last {
                write!(out, "{:width$}", d[r])?;
            } else {
                out.write_all(d[r].as_bytes())?;
            }
        }
        out.write_all(b"\n")?;
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
