//! `boardbase euler`: Game of Euler, positions of any shape, answered from
//! the table the tablebase chooses (the embedded 4×4 tables, a table file,
//! or one made in memory).

use std::io::Write;

use boardbase::error::Found;
use boardbase::euler::{ALPHABET, Outcome};
use boardbase::report::EulerAnswer;
use boardbase::tablebase::{ANOTHER_BOARD, EulerAnswers};
use boardbase::tablefile::Puzzle;
use boardbase::tables::shape::{MAX_SIDE, Shape};
use clap::Args;

use super::options::{JobsArgs, read_board, read_count, rows_text};
use super::pretty::{draw, side_by_side, squares};
use super::table_args::{TableArgs, made_bar, note_made, streamed};
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

/// Runs `boardbase euler`: reads the case count, then exactly that many
/// boards, answering each as soon as it is read; after them only whitespace
/// may follow. The table comes first: a missing one is an error before any
/// input is read (on a terminal, before anything is typed).
pub fn run(args: &EulerArgs, out: &mut Output) -> Result<(), Failure> {
    args.jobs.limit_pool();
    let tablebase = args.tables.tablebase(boardbase::lights::MAX_NULLITY);
    let shape = args.tables.shape_in(&tablebase, Puzzle::Euler)?;
    let mut source = match &args.board {
        // The one board, as the judge's input of one case.
        Some(text) => {
            let why = "--size gives the board size; the default is 4x4";
            let rows = read_board(text, &ALPHABET, Some(shape), why)?;
            let input = format!("1\n{}", rows_text(&rows, '.', 'X', ""));
            Source::from_text("--board", input)
        }
        None => Source::open(&args.input, out)?,
    };
    let bar = made_bar();
    let found = tablebase.euler_answers(shape, |p| {
        bar.update(p.phase.name(), p.done, p.total, false)
    })?;
    bar.finish();
    note_made(&found, &tablebase, Puzzle::Euler, shape);
    let answers = EulerAnswers::new(&found)?;
    let count = source.read_count(read_count)?;
    if args.format == Format::Judge {
        let mut lines = JudgeLines::new();
        let done = answers.judge_lines(count, &mut source.scanner, |line, len| {
            lines.push(out, line, len)
        });
        // The answers before a bad board (or a damaged block of a table)
        // are given first.
        lines.flush(out)?;
        done.map_err(|e| args.tables.hint_size(&source, streamed(&source, e)))?;
        return source.scanner.expect_end().map_err(|e| source.fail(e));
    }
    let mut rows = [0u64; MAX_SIDE];
    for case in 1..=count {
        match source.scanner.read_rows(&ALPHABET, shape, &mut rows) {
            Ok(true) => {}
            Ok(false) => {
                let e = source.scanner.error_here(ANOTHER_BOARD, Found::EndOfInput);
                return Err(source.fail(e));
            }
            Err(e) => return Err(args.tables.hint_size(&source, source.fail(e))),
        }
        let position = shape.board_of_rows(&rows);
        let answer = answers.answer(case, position)?;
        if args.format == Format::Json {
            write_json_line(out, &answer)?;
        } else {
            write_euler_pretty(out, shape, position, &answer)?;
        }
        out.end_case()?;
    }
    source.scanner.expect_end().map_err(|e| source.fail(e))
}

/// Draws the position beside the same position with the move shown marked
/// `o`, with the answer and the moves left when known.
pub fn write_euler_pretty(
    out: &mut Output,
    shape: Shape,
    position: u64,
    answer: &EulerAnswer,
) -> Result<(), Failure> {
    let case = answer.case;
    let board = draw(shape, position, '.', 'X', 0, 'o');
    let Some(best) = &answer.best_move else {
        writeln!(
            out,
            "Board {case}: {}, game over (the opponent covered the last square)",
            answer.answer
        )?;
        for row in board {
            writeln!(out, "  {row}")?;
        }
        writeln!(out)?;
        return Ok(());
    };
    let marked = draw(shape, position, '.', 'X', best.mask, 'o');
    let covers = squares(&best.cells);
    let (legal, winning) = (answer.legal_moves, answer.winning_moves);
    match answer.moves_left {
        Some(left) => {
            let moves = if left == 1 { "move" } else { "moves" };
            writeln!(
                out,
                "Board {case}: {}, {left} {moves} left with perfect play",
                answer.answer
            )?;
            side_by_side(out, shape.cols(), &["board", "best move"], &[board, marked])?;
            super::pretty::write_best_move(out, &covers, winning, legal)?;
        }
        None => {
            writeln!(
                out,
                "Board {case}: {} (moves left unknown: the table holds win/loss only)",
                answer.answer
            )?;
            if answer.outcome == Outcome::Win {
                side_by_side(
                    out,
                    shape.cols(),
                    &["board", "winning move"],
                    &[board, marked],
                )?;
                writeln!(
                    out,
                    "  a winning move covers {covers} (the first of {winning} winning of {legal} legal moves)"
                )?;
            } else {
                side_by_side(out, shape.cols(), &["board", "a move"], &[board, marked])?;
                let every = if legal == 1 {
                    "the only legal move loses".to_owned()
                } else {
                    format!("every one of the {legal} legal moves loses")
                };
                writeln!(
                    out,
                    "  {every}; shown: the first, covering {covers} (which resists longest is unknown)"
                )?;
            }
        }
    }
    writeln!(out)?;
    Ok(())
}
