//! `boardbase carcassonne`: Carcassonne.

use std::io::Write;

use std::sync::LazyLock;

use boardbase::carcassonne::{self, Board, Case, Tile};
use boardbase::report::{CarcassonneAnswer, turned_rows};
use boardbase::tablebase::{CountOptions, Counted, Tablebase};
use clap::Args;
use num_bigint::BigUint;
use rayon::prelude::*;

use super::options::{JobsArgs, bad_board};
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
    /// Count this one board instead of reading input: rows separated by
    /// `/`, the tiles of a row by blanks or commas (e.g. `"CRFC RRFF/FFCC
    /// CRCR"` or `CRFC,RRFF/FFCC,CRCR`), each tile four letters `C`, `R` or
    /// `F` (edges clockwise from the top).
    #[arg(long, value_name = "ROWS", conflicts_with = "file")]
    board: Option<String>,
    #[command(flatten)]
    jobs: JobsArgs,
}

/// Reads a `--board` of tiles (the library's `carcassonne::parse_rows`).
/// Returns the judge's input of that one case.
fn board_input(text: &str) -> Result<String, Failure> {
    let rows = carcassonne::parse_rows(text).map_err(|e| bad_board(text, &e))?;
    let (n, m) = (rows.len(), rows[0].len());
    let tiles: Vec<Tile> = rows.iter().flatten().copied().collect();
    Board::new(n, m, tiles.clone()).map_err(|e| Failure::Usage(format!("--board {text}: {e}")))?;
    let mut input = format!("1\n{n} {m}\n");
    for row in &rows {
        let codes: Vec<String> = row.iter().map(Tile::to_string).collect();
        input.push_str(&codes.join(" "));
        input.push('\n');
    }
    Ok(input)
}

/// Most cases counted together in parallel before their answers are written.
const BATCH_CASES: usize = 64;

/// Most tiles held in one batch (boards of up to 64 × 16 = 1,024 tiles fill
/// a batch of 64; a single larger board makes a batch of its own).
const BATCH_TILES: usize = 1 << 16;

/// One case's counts: the answer layer's.
type Answer = Counted;

/// The answer layer (Carcassonne is counted on request: no table).
static TABLEBASE: LazyLock<Tablebase> = LazyLock::new(Tablebase::new);

/// Runs `boardbase carcassonne`: reads the case count, then that many cases,
/// counting each batch of cases in parallel and writing the answers in input
/// order; after the last case only whitespace may follow.
///
/// Reading and counting overlap: while a worker thread counts one batch (on
/// rayon's pool), this thread reads the next, so a large input keeps both
/// cores busy. At most two batches are in flight. When a person is typing
/// the cases or watching the answers, each case is counted and answered as
/// soon as it is read instead.
pub fn run(args: &CarcassonneArgs, out: &mut Output) -> Result<(), Failure> {
    args.jobs.limit_pool();
    let mut source = match &args.board {
        Some(text) => Source::from_text("--board", board_input(text)?),
        None => Source::open(&args.input, out)?,
    };
    let total = source.read_count(carcassonne::read_case_count)?;
    let mut cases = Cases {
        remaining: total,
        next: 1,
    };
    if out.is_eager() {
        loop {
            let batch = cases.read(&mut source, 1);
            answer(args, out, &source, &batch, count_batch(args, &batch.cases))?;
            if let Some(e) = batch.error {
                return Err(source.fail(e));
            }
            if cases.remaining == 0 {
                break;
            }
        }
    } else {
        pipelined(args, out, &mut source, &mut cases)?;
    }
    source.scanner.expect_end().map_err(|e| source.fail(e))
}

/// The cases still to read.
struct Cases {
    remaining: u64,
    /// Number of the next case, from 1.
    next: u64,
}

/// Cases read together, numbered from `first`, and the error that stopped
/// reading, if any.
struct Batch {
    first: u64,
    cases: Vec<Case>,
    error: Option<boardbase::input::InputError>,
}

impl Cases {
    /// Reads up to `max` cases (fewer once [`BATCH_TILES`] tiles are held).
    fn read(&mut self, source: &mut Source, max: usize) -> Batch {
        let mut batch = Batch {
            first: self.next,
            cases: Vec::new(),
            error: None,
        };
        let mut tiles = 0;
        while self.remaining > 0 && batch.cases.len() < max && tiles < BATCH_TILES {
            match carcassonne::read_case(&mut source.scanner) {
                Ok(case) => {
                    tiles += case.board.tiles().len();
                    batch.cases.push(case);
                    self.remaining -= 1;
                    self.next += 1;
                }
                Err(e) => {
                    batch.error = Some(e);
                    break;
                }
            }
        }
        batch
    }
}

/// The answers of one batch, in order.
type Answers = Vec<Result<Answer, carcassonne::Error>>;

fn count_batch(args: &CarcassonneArgs, cases: &[Case]) -> Answers {
    let want_witness = args.witness || args.format == Format::Pretty;
    cases
        .par_iter()
        .map(|case| solve(&case.board, args.exact, want_witness))
        .collect()
}

/// Reads batch `k + 1` while a worker counts batch `k`, then writes batch
/// `k`'s answers: every answer before a bad case is written before its error.
fn pipelined(
    args: &CarcassonneArgs,
    out: &mut Output,
    source: &mut Source,
    cases: &mut Cases,
) -> Result<(), Failure> {
    use std::sync::mpsc::sync_channel;
    std::thread::scope(|scope| {
        let (to_worker, work) = sync_channel::<Batch>(1);
        let (to_main, done) = sync_channel::<(Batch, Answers)>(1);
        scope.spawn(move || {
            for batch in work {
                let answers = count_batch(args, &batch.cases);
                if to_main.send((batch, answers)).is_err() {
                    break; // the main thread stopped early
                }
            }
        });
        // `to_worker` and `done` are dropped when this returns, early or
        // not, which ends the worker before the scope joins it.
        let mut in_flight = 0;
        loop {
            let batch = cases.read(source, BATCH_CASES);
            let last = batch.error.is_some() || cases.remaining == 0;
            if to_worker.send(batch).is_err() {
                break;
            }
            in_flight += 1;
            // Keep one batch counting while the next is read.
            while in_flight > 1 || (last && in_flight > 0) {
                let Ok((batch, answers)) = done.recv() else {
                    break;
                };
                in_flight -= 1;
                answer(args, out, source, &batch, answers)?;
                if let Some(e) = batch.error {
                    return Err(source.fail(e));
                }
            }
            if last {
                return Ok(());
            }
        }
        Err(Failure::Output(std::io::Error::other(
            "the counting thread stopped",
        )))
    })
}

/// Writes a batch's answers in order; a case whose count failed stops the
/// run after the answers before it.
fn answer(
    args: &CarcassonneArgs,
    out: &mut Output,
    source: &Source,
    batch: &Batch,
    answers: Answers,
) -> Result<(), Failure> {
    for ((k, case), answer) in (batch.first..).zip(&batch.cases).zip(answers) {
        let answer = answer.map_err(|error| Failure::Case {
            name: source.name.clone(),
            line: case.line,
            case: k,
            error: Box::new(error),
        })?;
        write_answer(out, args, k, &case.board, &answer)?;
        out.end_case()?;
    }
    Ok(())
}

/// The judge's sample input (answers 4, 1 and 1048576), the file the
/// examples and the tests read.
const SAMPLE: &str = include_str!("../../examples/carcassonne-sample.txt");

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

fn solve(board: &Board, exact: bool, witness: bool) -> Result<Answer, carcassonne::Error> {
    let options = CountOptions {
        exact,
        witness,
        ..CountOptions::default()
    };
    TABLEBASE.carcassonne(board, &options, || false)
}

/// A count's digits grouped in thousands, as people read them
/// (`1048576` as `1,048,576`); the judge's output keeps them bare.
fn grouped(digits: &str) -> String {
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
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
                    let rows = turned_rows(board, turns);
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
        Format::Json => {
            let witness = a.witness.as_ref().map(Option::as_deref);
            let json = CarcassonneAnswer::new(k, board, a.count, a.exact.as_ref(), witness);
            write_json_line(out, &json)?;
        }
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
    writeln!(
        out,
        "Case {k}: {rows}x{cols} board, {} {what}{modulo}",
        grouped(shown)
    )?;
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
            let placed: Vec<Vec<String>> = turned_rows(board, turns)
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
