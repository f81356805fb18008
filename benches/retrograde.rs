//! The benchmark anchor of the Euler generator: a retrograde analysis
//! written plainly, one byte a position, one thread, no bit tricks. It
//! solves a shape from the full board down (every successor `p | m` of `p`
//! is a larger number, so a descending loop finds it solved), and says how
//! long that took and how much memory it held, for docs/performance.md to
//! set beside `boardbase generate`.
//!
//! Given a table file of the same shape, it then compares every position
//! (win/loss, moves left, and that the stored best move reaches a position
//! of the other outcome and one ply less): an exhaustive check of a
//! generated table by a second method, written apart from the library's
//! solvers (the moves come from the rules in `tests/oracle/euler.rs`).
//!
//! ```text
//! cargo bench --bench retrograde -- 5x6 [TABLE-FILE]
//! ```

use std::process::ExitCode;
use std::time::Instant;

use boardbase::memory::{ByteSize, peak_memory};
use boardbase::tablefile::Table;

#[path = "../tests/oracle/euler.rs"]
#[allow(dead_code)]
mod rules;

/// Bit 7 of a position's byte: the player to move wins.
const WIN: u8 = 0x80;

/// The values of every position: bit 7 set when the player to move wins,
/// the low bits the moves left with perfect play (the winner hurries, the
/// loser resists; the full board is a win in 0).
fn solve(cells: usize, moves: &[u64]) -> Vec<u8> {
    let full = (1u64 << cells) - 1;
    let mut value = vec![0u8; 1 << cells];
    value[full as usize] = WIN;
    for p in (0..full).rev() {
        let mut fastest_win = u8::MAX;
        let mut longest = 0u8;
        for &m in moves {
            if m & p != 0 {
                continue;
            }
            let child = value[(p | m) as usize];
            let plies = child & !WIN;
            if child & WIN == 0 {
                fastest_win = fastest_win.min(plies);
            }
            longest = longest.max(plies);
        }
        value[p as usize] = if fastest_win != u8::MAX {
            WIN | (fastest_win + 1)
        } else {
            longest + 1
        };
    }
    value
}

/// Compares every position of `table` with `value`; returns the positions
/// that differ (at most a few are printed).
fn compare(table: &Table, value: &[u8]) -> Result<u64, String> {
    let euler = table.as_euler().map_err(|e| e.to_string())?;
    let mut wrong = 0u64;
    let mut checked_best = false;
    for (p, &v) in value.iter().enumerate() {
        let p = p as u64;
        let entry = euler.probe(p).map_err(|e| e.to_string())?;
        let win = v & WIN != 0;
        let plies = v & !WIN;
        let mut ok = entry.outcome.is_win() == win;
        if let Some(stored) = entry.moves_left {
            ok &= stored == plies;
        }
        if let Some(best) = entry.best_move {
            checked_best = true;
            let child = value[(p | best) as usize];
            ok &= best & p == 0 && (child & WIN != 0) != win && (child & !WIN) + 1 == plies;
        }
        if !ok {
            if wrong < 5 {
                eprintln!("position {p:#x}: the table differs ({entry:?}; here {v:#04x})");
            }
            wrong += 1;
        }
    }
    if !checked_best && value.len() > 1 {
        eprintln!("note: the table holds win/loss only: moves left and best moves not compared");
    }
    Ok(wrong)
}

fn main() -> ExitCode {
    // `cargo bench` passes `--bench`; the shape and the file are the rest.
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let Some((rows, cols)) = args
        .first()
        .and_then(|s| s.split_once('x'))
        .and_then(|(r, c)| Some((r.parse::<usize>().ok()?, c.parse::<usize>().ok()?)))
        .filter(|&(r, c)| r >= 1 && c >= 1 && r * c <= 32)
    else {
        eprintln!("usage: cargo bench --bench retrograde -- RxC [TABLE-FILE] (at most 32 squares)");
        return ExitCode::from(2);
    };
    let cells = rows * cols;
    let moves: Vec<u64> = rules::moves(rows, cols).into_iter().collect();
    let start = Instant::now();
    let value = solve(cells, &moves);
    let seconds = start.elapsed().as_secs_f64();
    let losing = value.iter().filter(|&&v| v & WIN == 0).count();
    let peak = peak_memory().map_or_else(|| "unknown".to_owned(), |b| ByteSize(b).to_string());
    println!(
        "plain retrograde {rows}x{cols}: {} positions, {} moves, {seconds:.2} s, peak memory {peak}; empty board {} in {}, {losing} open positions lost",
        value.len(),
        moves.len(),
        if value[0] & WIN != 0 { "won" } else { "lost" },
        value[0] & !WIN,
    );
    let Some(file) = args.get(1) else {
        return ExitCode::SUCCESS;
    };
    let table = match Table::open(file) {
        Ok(table) => table,
        Err(e) => {
            eprintln!("error: {file}: {e}");
            return ExitCode::FAILURE;
        }
    };
    if (table.shape().rows(), table.shape().cols()) != (rows, cols) {
        eprintln!("error: {file} is for {}, not {rows}x{cols}", table.shape());
        return ExitCode::FAILURE;
    }
    let start = Instant::now();
    match compare(&table, &value) {
        Ok(0) => {
            println!(
                "{file}: every one of the {} positions agrees ({:.2} s)",
                value.len(),
                start.elapsed().as_secs_f64()
            );
            ExitCode::SUCCESS
        }
        Ok(wrong) => {
            eprintln!("error: {file}: {wrong} positions differ");
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("error: {file}: {e}");
            ExitCode::FAILURE
        }
    }
}
