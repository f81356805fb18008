//! `boardbase carcassonne`: Carcassonne (HDU 4064).

use std::io::Write;

use boardbase::carcassonne::{self, Board, Case, CountError, MODULUS, Tile};
use clap::Args;
use num_bigint::BigUint;
use rayon::prelude::*;
use serde::Serialize;

use super::{Failure, Format, InputArgs, Output, Source, write_json_line};

/// Arguments of `boardbase carcassonne`.
#[derive(Debug, Args)]
pub struct CarcassonneArgs {
    #[command(flatten)]
    input: InputArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    format: Format,
    /// Give the exact number of valid placements instead of the count
    /// modulo 1,000,000,007.
    #[arg(long)]
    exact: bool,
    /// Also print one valid placement: the board of rotated tiles (or that
    /// none exists).
    #[arg(long)]
    witness: bool,
}

/// Most cases counted together in parallel before their answers are written.
const BATCH_CASES: usize = 64;

/// Most tiles held in one batch (boards of up to 64 × 16 = 1,024 tiles fill
/// a batch of 64; a single larger board makes a batch of its own).
const BATCH_TILES: usize = 1 << 16;

/// Everything worked out for one case.
struct Answer {
    count: u64,
    exact: Option<BigUint>,
    /// Quarter turns clockwise per tile, row-major; `None` when no placement
    /// exists; only computed when asked for.
    witness: Option<Option<Vec<u8>>>,
}

/// Runs `boardbase carcassonne`: reads the case count, then that many cases,
/// counting each batch of cases in parallel and writing the answers in input
/// order; after the last case only whitespace may follow.
pub fn run(args: &CarcassonneArgs, out: &mut Output) -> Result<(), Failure> {
    let mut source = Source::open(&args.input, out)?;
    let total = carcassonne::read_case_count(&mut source.scanner).map_err(|e| source.fail(e))?;
    let batch_cases = if out.is_eager() { 1 } else { BATCH_CASES };
    let mut batch: Vec<Case> = Vec::new();
    let mut batch_tiles = 0;
    let mut first_case = 1u64;
    for _ in 0..total {
        let case = match carcassonne::read_case(&mut source.scanner) {
            Ok(case) => case,
            Err(e) => {
                // The answers for every case before the bad one come first.
                answer_batch(args, out, &source, first_case, &batch)?;
                return Err(source.fail(e));
            }
        };
        batch_tiles += case.board.tiles().len();
        batch.push(case);
        if batch.len() >= batch_cases || batch_tiles >= BATCH_TILES {
            answer_batch(args, out, &source, first_case, &batch)?;
            first_case += batch.len() as u64;
            batch.clear();
            batch_tiles = 0;
        }
    }
    answer_batch(args, out, &source, first_case, &batch)?;
    match source.scanner.at_end() {
        Ok(true) => Ok(()),
        Ok(false) => {
            let e = source
                .scanner
                .unexpected("the end of the input after the last case");
            Err(source.fail(e.unwrap_or_else(|e| e)))
        }
        Err(e) => Err(source.fail(e.into())),
    }
}

/// Counts `batch` in parallel and writes the answers in order; cases are
/// numbered from `first`. A case whose count fails stops the run after the
/// answers before it.
fn answer_batch(
    args: &CarcassonneArgs,
    out: &mut Output,
    source: &Source,
    first: u64,
    batch: &[Case],
) -> Result<(), Failure> {
    let want_witness = args.witness || args.format == Format::Pretty;
    let answers: Vec<Result<Answer, CountError>> = batch
        .par_iter()
        .map(|case| solve(&case.board, args.exact, want_witness))
        .collect();
    for ((k, case), answer) in (first..).zip(batch).zip(answers) {
        let answer = answer.map_err(|error| Failure::Count {
            name: source.name.clone(),
            line: case.line,
            case: k,
            error,
        })?;
        write_answer(out, args, k, &case.board, &answer)?;
        out.end_case()?;
    }
    Ok(())
}

/// HDU 4064's sample input: answers 4, 1 and 1048576.
const SAMPLE: &str = "3
1 1
RRRR
1 2
RRRF FCCC
8 8
FCFF RRFC FRCR FRFR RCCR FFCC RRFF CRFR
FRRC FRFR CCCR FCFC CRRC CRRR FRCR FRFR
RRCR FRRR CCCR FFFC RRFF RFCR CCFF FCCC
CFCF RRFF CRFR FFRR FRRF CCRR FFFC CRRF
CFRR FFFF FFFF RRFF RRRR RCRR FFCC RFRF
RRCF FRFR FRRR FRFR RCCR RCCC CFFC RFRF
CFCF FRFF RRFF FFFF CFFF CFFF FRFF RFRR
CCRR FCFC FCCC FCCC FFCC FCCF FFCC RFRF
";

/// Writes the judge's sample in pretty form, for `boardbase demo`.
pub fn demo(out: &mut Output) -> Result<(), Failure> {
    let broken = |e: &dyn std::fmt::Display| {
        Failure::Output(std::io::Error::other(format!(
            "the built-in sample is broken: {e}"
        )))
    };
    let mut scanner = boardbase::input::Scanner::new(SAMPLE.as_bytes());
    let total = carcassonne::read_case_count(&mut scanner).map_err(|e| broken(&e))?;
    for k in 1..=total {
        let case = carcassonne::read_case(&mut scanner).map_err(|e| broken(&e))?;
        let answer = solve(&case.board, false, true).map_err(|e| broken(&e))?;
        let shown = answer.count.to_string();
        write_pretty(out, k, &case.board, &answer, &shown)?;
    }
    Ok(())
}

fn solve(board: &Board, exact: bool, witness: bool) -> Result<Answer, CountError> {
    Ok(Answer {
        count: carcassonne::count(board)?,
        exact: exact.then(|| carcassonne::count_exact(board)).transpose()?,
        witness: witness.then(|| carcassonne::witness(board)).transpose()?,
    })
}

/// The board with each tile turned by its witness turns, as rows of codes.
fn rotated_rows(board: &Board, turns: &[u8]) -> Vec<Vec<Tile>> {
    board
        .tiles()
        .chunks(board.cols())
        .zip(turns.chunks(board.cols()))
        .map(|(tiles, turns)| {
            tiles
                .iter()
                .zip(turns)
                .map(|(t, &k)| t.rotated(u32::from(k)))
                .collect()
        })
        .collect()
}

fn write_rows(out: &mut Output, indent: &str, rows: &[Vec<String>]) -> Result<(), Failure> {
    for row in rows {
        writeln!(out, "{indent}{}", row.join(" "))?;
    }
    Ok(())
}

fn write_answer(
    out: &mut Output,
    args: &CarcassonneArgs,
    k: u64,
    board: &Board,
    a: &Answer,
) -> Result<(), Failure> {
    let shown = a
        .exact
        .as_ref()
        .map_or_else(|| a.count.to_string(), BigUint::to_string);
    match args.format {
        Format::Judge => {
            writeln!(out, "Case {k}: {shown}")?;
            match &a.witness {
                Some(Some(turns)) => {
                    let rows = rotated_rows(board, turns);
                    let text: Vec<Vec<String>> = rows
                        .iter()
                        .map(|r| r.iter().map(Tile::to_string).collect())
                        .collect();
                    write_rows(out, "", &text)?;
                }
                Some(None) => writeln!(out, "no valid placement")?,
                None => {}
            }
        }
        Format::Pretty => write_pretty(out, k, board, a, &shown)?,
        Format::Json => write_json_line(out, &JsonAnswer::new(k, board, a))?,
    }
    Ok(())
}

/// Writes the tiles as given and one valid placement, each tile followed by
/// its quarter turns clockwise.
fn write_pretty(
    out: &mut Output,
    k: u64,
    board: &Board,
    a: &Answer,
    shown: &str,
) -> Result<(), Failure> {
    let (rows, cols) = (board.rows(), board.cols());
    let modulo = if a.exact.is_some() {
        ""
    } else {
        " (mod 1,000,000,007)"
    };
    let what = if a.exact.is_some() || a.count != 1 {
        "valid placements"
    } else {
        "valid placement"
    };
    writeln!(out, "Case {k}: {rows}×{cols} board, {shown} {what}{modulo}")?;
    writeln!(out, "  tiles (top, right, bottom, left; clockwise):")?;
    let given: Vec<Vec<String>> = board
        .tiles()
        .chunks(cols)
        .map(|r| r.iter().map(Tile::to_string).collect())
        .collect();
    write_rows(out, "    ", &given)?;
    match &a.witness {
        Some(Some(turns)) => {
            writeln!(
                out,
                "  one valid placement (each tile turned the bracketed quarter turns clockwise):"
            )?;
            let placed: Vec<Vec<String>> = rotated_rows(board, turns)
                .iter()
                .zip(turns.chunks(cols))
                .map(|(r, t)| {
                    r.iter()
                        .zip(t)
                        .map(|(tile, k)| format!("{tile}({k})"))
                        .collect()
                })
                .collect();
            write_rows(out, "    ", &placed)?;
        }
        _ => writeln!(out, "  no valid placement exists")?,
    }
    writeln!(out)?;
    Ok(())
}

/// One line of `--format json`.
#[derive(Serialize)]
struct JsonAnswer {
    case: u64,
    rows: usize,
    cols: usize,
    /// The number of valid placements modulo `modulus`.
    count: u64,
    modulus: u64,
    /// The exact number, as a decimal string (only with `--exact`).
    #[serde(skip_serializing_if = "Option::is_none")]
    exact: Option<String>,
    /// One valid placement (only with `--witness`; `null` when none exists).
    #[serde(skip_serializing_if = "Option::is_none")]
    witness: Option<Option<JsonWitness>>,
}

#[derive(Serialize)]
struct JsonWitness {
    /// Quarter turns clockwise per tile, by row.
    turns: Vec<Vec<u8>>,
    /// The rotated tiles' codes, by row.
    tiles: Vec<Vec<String>>,
}

impl JsonAnswer {
    fn new(case: u64, board: &Board, a: &Answer) -> JsonAnswer {
        let cols = board.cols();
        JsonAnswer {
            case,
            rows: board.rows(),
            cols,
            count: a.count,
            modulus: MODULUS,
            exact: a.exact.as_ref().map(BigUint::to_string),
            witness: a.witness.as_ref().map(|w| {
                w.as_ref().map(|turns| JsonWitness {
                    turns: turns.chunks(cols).map(<[u8]>::to_vec).collect(),
                    tiles: rotated_rows(board, turns)
                        .iter()
                        .map(|r| r.iter().map(Tile::to_string).collect())
                        .collect(),
                })
            }),
        }
    }
}
