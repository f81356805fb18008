//! `boardbase euler`: Game of Euler.

use std::io::Write;

use boardbase::error::Found;
use boardbase::euler::{self, ALPHABET, Position};
use boardbase::report::EulerAnswer;
use clap::Args;

use boardbase::tablefile::Puzzle;

use super::options::{JobsArgs, read_board, read_count, rows_text};
use super::pretty::squares;
use super::sized::{self, TableArgs};
use super::{Failure, Format, InputArgs, JudgeLines, Output, Source, write_json_line};

/// Arguments of `boardbase euler`.
#[derive(Debug, Args)]
pub struct EulerArgs {
    #[command(flatten)]
    input: InputArgs,
    /// Solve this one board instead of reading input: rows of `X`/`.`
    /// separated by `/` (e.g. `XX../X.../..../....`); its shape must be
    /// --size's (4x4 by default).
    #[arg(long, value_name = "ROWS", conflicts_with = "file")]
    board: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    format: Format,
    #[command(flatten)]
    tables: TableArgs,
    #[command(flatten)]
    jobs: JobsArgs,
}

/// What the error says is missing when the case count promises more boards
/// than the input holds.
const ANOTHER_BOARD: &str = "another board (the case count asks for more)";

/// Runs `boardbase euler`: reads the case count, then exactly that many
/// boards, answering each as soon as it is read; after them only whitespace
/// may follow.
pub fn run(args: &EulerArgs, out: &mut Output) -> Result<(), Failure> {
    args.jobs.limit_pool();
    let open = |out: &mut Output| match &args.board {
        // The one board, as the judge's input of one case.
        Some(text) => {
            let shape = args.tables.board_shape(Puzzle::Euler)?;
            let why = "--size gives the board size; the default is 4x4";
            let rows = read_board(text, &ALPHABET, Some(shape), why)?;
            let input = format!("1\n{}", rows_text(&rows, '.', 'X', ""));
            Ok(Source::from_text("--board", input))
        }
        None => Source::open(&args.input, out),
    };
    if !args.tables.is_embedded_4x4() {
        // The table first: a missing one is an error before any input is
        // read (on a terminal, before anything is typed).
        let mut source = open(out)?;
        return sized::euler(&args.tables, args.format, &mut source, out);
    }
    let mut source = open(out)?;
    let count = source.read_count(read_count)?;
    match args.format {
        Format::Judge => judge(&mut source, count, out)?,
        Format::Pretty => each_case(&mut source, count, out, write_pretty)?,
        Format::Json => each_case(&mut source, count, out, |out, case, position| {
            write_json_line(out, &EulerAnswer::new(case, position))
        })?,
    }
    source.scanner.expect_end().map_err(|e| source.fail(e))
}

/// Reads `count` boards and writes each answer with `write` as soon as its
/// board is read.
fn each_case(
    source: &mut Source,
    count: u64,
    out: &mut Output,
    mut write: impl FnMut(&mut Output, u64, Position) -> Result<(), Failure>,
) -> Result<(), Failure> {
    for case in 1..=count {
        let position = next_board(source)?;
        write(out, case, position)?;
        out.end_case()?;
    }
    Ok(())
}

/// The hot path: one table read per case, answers gathered branch-free.
fn judge(source: &mut Source, count: u64, out: &mut Output) -> Result<(), Failure> {
    const ANSWERS: [&[u8; 8]; 2] = [b"LOSING\n\0", b"WINNING\n"];
    let mut lines = JudgeLines::new();
    for _ in 0..count {
        let position = match next_board(source) {
            Ok(position) => position,
            Err(e) => {
                lines.flush(out)?;
                return Err(e);
            }
        };
        let win = usize::from(euler::outcome(position).is_win());
        lines.push(out, ANSWERS[win], 7 + win)?;
    }
    lines.flush(out)?;
    Ok(())
}

/// Reads the next board; running out of input is an error, as the case
/// count promised one more.
#[inline]
fn next_board(source: &mut Source) -> Result<Position, Failure> {
    match source.scanner.read_grid(&ALPHABET) {
        Ok(Some(bits)) => Ok(Position::from_bits(bits)),
        Ok(None) => Err(source.fail(source.scanner.error_here(ANOTHER_BOARD, Found::EndOfInput))),
        Err(e) => Err(source.fail(e)),
    }
}

/// Draws the position beside the same position with the best move marked
/// `o`, with the answer and how many moves remain with perfect play.
pub fn write_pretty(out: &mut Output, case: u64, position: Position) -> Result<(), Failure> {
    let entry = euler::probe(position);
    let answer = entry.outcome.answer();
    let Some(best) = entry.best_move else {
        writeln!(
            out,
            "Board {case}: {answer}, game over (the opponent covered the last square)"
        )?;
        for row in position.to_string().lines() {
            writeln!(out, "  {row}")?;
        }
        writeln!(out)?;
        return Ok(());
    };
    let left = entry.moves_left;
    let moves = if left == 1 { "move" } else { "moves" };
    writeln!(
        out,
        "Board {case}: {answer}, {left} {moves} left with perfect play"
    )?;
    writeln!(out, "  board  best move")?;
    let (b, m) = (position.to_string(), position.marked(best).to_string());
    for (b, m) in b.lines().zip(m.lines()) {
        writeln!(out, "  {b}   {m}")?;
    }
    let legal = euler::legal_moves(position).count();
    let winning = euler::winning_moves(position).count();
    let cells: Vec<[usize; 2]> = best.cells().map(|(r, c)| [r, c]).collect();
    super::pretty::write_best_move(out, &squares(&cells), winning, legal)?;
    writeln!(out)?;
    Ok(())
}
