//! How long the Game of Euler lasts from every position of a table file:
//! the number of positions with each count of moves left with perfect
//! play (even counts are won for the player to move, odd ones lost), as in
//! docs/results.md.
//!
//! ```sh
//! boardbase generate euler 5x5 --symmetry --dir my-tables
//! cargo run --release --example euler_moves_left -- my-tables/euler-5x5.bin
//! # and that another table of the board answers the same at every position:
//! boardbase generate euler 5x5 --dir by-position
//! cargo run --release --example euler_moves_left -- my-tables/euler-5x5.bin by-position/euler-5x5.bin
//! ```
//!
//! A table by position (version 3 or 4) has an entry a position; a table
//! by class (version 5, `generate --symmetry`) has an entry a class of
//! positions, each counted as many times as the positions it stands for
//! (`Classes::weight`), so that both give the same counts. The counts add
//! up to `2^cells`, which the program checks.

use std::error::Error;
use std::io::Write;

use boardbase::tablefile::{Puzzle, Table};

fn main() -> Result<(), Box<dyn Error>> {
    let Some(path) = std::env::args().nth(1) else {
        return Err("usage: euler_moves_left TABLE-FILE".into());
    };
    let table = Table::open(&path)?;
    if table.puzzle() != Puzzle::Euler || table.is_wdl_only() {
        return Err(format!("{path}: not an Euler table with moves left").into());
    }
    let shape = table.shape();
    let plies = |i: u64| {
        table
            .get("plies", i)
            .ok_or_else(|| format!("{path}: entry {i} of plies cannot be read (damaged?)"))
    };
    let mut counts = [0u64; 256];
    match table.classes() {
        Some(classes) => {
            let per_class = 1u64 << classes.rest_bits();
            for class in 0..classes.classes() {
                let weight = classes.weight(class);
                let first = (class as u64) << classes.rest_bits();
                for i in first..first + per_class {
                    counts[plies(i)? as usize] += weight;
                }
            }
        }
        None => {
            for p in 0..1u64 << shape.cells() {
                counts[plies(p)? as usize] += 1;
            }
        }
    }
    if let Some(other) = std::env::args().nth(2) {
        let other_table = Table::open(&other)?;
        if other_table.shape() != shape {
            return Err(format!("{other}: a table of another board").into());
        }
        let (a, b) = (table.as_euler()?, other_table.as_euler()?);
        // Moves left at a position: read at its entry (no best move).
        let at = |t: &Table, p: u64| {
            let i = t.classes().map_or(p, |c| c.index(p));
            t.get("plies", i)
        };
        for p in 0..1u64 << shape.cells() {
            let (x, y) = (
                (a.outcome(p)?, at(&table, p)),
                (b.outcome(p)?, at(&other_table, p)),
            );
            if x != y || x.1.is_none() {
                return Err(format!("position {p:#x}: {x:?} in {path}, {y:?} in {other}").into());
            }
        }
        writeln!(
            std::io::stdout(),
            "{other}: the same outcome and moves left at all {} positions",
            1u64 << shape.cells()
        )?;
    }
    let total: u64 = counts.iter().sum();
    if total != 1 << shape.cells() {
        return Err(format!(
            "{path}: the counts add up to {total}, not 2^{}",
            shape.cells()
        )
        .into());
    }
    // Written, not printed: a closed pipe is an error, not a panic.
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "euler {shape}: positions by moves left with perfect play"
    )?;
    writeln!(out, "moves left,positions,outcome for the player to move")?;
    for (d, &n) in counts.iter().enumerate().filter(|(_, n)| **n > 0) {
        let outcome = if d % 2 == 0 { "won" } else { "lost" };
        writeln!(out, "{d},{n},{outcome}")?;
    }
    Ok(())
}
