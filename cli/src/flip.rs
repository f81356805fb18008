//! `boardbase flip`: Flip Game, boards of any shape, answered as the
//! tablebase chooses (the embedded 4×4 tables, a table file, or the GF(2)
//! solver).

use std::io::Write;

use boardbase::error::{Classify, Kind};
use boardbase::flip::{ALPHABET, Colour};
use boardbase::lights::Grid;
use boardbase::report::FlipAnswer;
use boardbase::tablebase::FlipAnswers;
use boardbase::tablefile::Puzzle;
use boardbase::tables::shape::MAX_SIDE;
use clap::Args;

use super::options::{JobsArgs, NullityArgs, read_board};
use super::pretty::side_by_side;
use super::table_args::{TableArgs, streamed};
use super::{Failure, Format, InputArgs, JudgeLines, Output, Source, write_json_line};

/// Arguments of `boardbase flip`.
#[derive(Debug, Args)]
pub struct FlipArgs {
    #[command(flatten)]
    input: InputArgs,
    /// Solve this one board instead of reading input: rows of `b`/`w`
    /// separated by `/` (e.g. `bwwb/bbwb/bwwb/bwww`); its shape must be
    /// --size's (4x4 by default).
    #[arg(long, value_name = "ROWS", conflicts_with = "file")]
    board: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    format: Format,
    #[command(flatten)]
    tables: TableArgs,
    #[command(flatten)]
    nullity: NullityArgs,
    #[command(flatten)]
    jobs: JobsArgs,
}

/// Runs `boardbase flip`: the one `--board`, or every board of the input,
/// each answered as soon as it is read.
pub fn run(args: &FlipArgs, out: &mut Output) -> Result<(), Failure> {
    args.jobs.limit_pool();
    // The input first, then the table, then the board, as `euler` does.
    let source = match args.board {
        Some(_) => None,
        None => Some(Source::open(&args.input, out)?),
    };
    let tablebase = args.tables.tablebase(args.nullity.get());
    let shape = args.tables.shape_in(&tablebase, Puzzle::Flip)?;
    let answers = tablebase.flip_answers(shape).map_err(|e| match e.kind() {
        // Past the search: the size, the hint, and why no answer is given.
        Kind::Search => Failure::Usage(format!(
            "flip {shape}: {e}{}, and an answer not proven minimal is never given",
            super::hinted(&e)
        )),
        _ => Failure::from(e),
    })?;
    let Some(mut source) = source else {
        let text = args.board.as_deref().unwrap_or_default();
        let why = "--size gives the board size; the default is 4x4";
        let rows = read_board(text, &ALPHABET, Some(shape), why)?;
        let grid = Grid::from_rows(shape, rows.rows()).expect("rows read within the shape");
        return write_flip(out, args.format, &answers, 1, &grid);
    };
    if args.format == Format::Judge {
        let mut lines = JudgeLines::new();
        let done = answers.judge_lines(&mut source.scanner, |line, len| lines.push(out, line, len));
        // The answers before a bad board (or a damaged block of a table)
        // are given first.
        lines.flush(out)?;
        return done
            .map(|_| ())
            .map_err(|e| args.tables.hint_size(&source, streamed(&source, e)));
    }
    let mut rows = [0u64; MAX_SIDE];
    let mut case = 0u64;
    loop {
        match source.scanner.read_rows(&ALPHABET, shape, &mut rows) {
            Ok(true) => {
                case += 1;
                let grid = Grid::from_rows(shape, &rows[..shape.rows()])
                    .expect("rows read within the shape");
                write_flip(out, args.format, &answers, case, &grid)?;
                out.end_case()?;
            }
            // No board at all is no answer, as `cases flip --cases 0` writes.
            Ok(false) => return Ok(()),
            Err(e) => return Err(args.tables.hint_size(&source, source.fail(e))),
        }
    }
}

/// Writes one board's answer in `format`.
fn write_flip(
    out: &mut Output,
    format: Format,
    answers: &FlipAnswers,
    case: u64,
    grid: &Grid,
) -> Result<(), Failure> {
    let answer = answers.answer(case, grid)?;
    match format {
        Format::Judge => writeln!(out, "{}", answer.answer)?,
        Format::Json => write_json_line(out, &answer)?,
        Format::Pretty => write_flip_pretty(out, grid, &answer)?,
    }
    Ok(())
}

/// Draws the board, the presses and the board after them, with the rounds,
/// the colour and both colours' figures.
pub fn write_flip_pretty(
    out: &mut Output,
    grid: &Grid,
    answer: &FlipAnswer,
) -> Result<(), Failure> {
    let case = answer.case;
    let shape = grid.shape();
    let rows = |g: &Grid, one: char, zero: char| -> Vec<String> {
        (0..shape.rows())
            .map(|r| {
                let row = g.row(r);
                (0..shape.cols())
                    .map(|c| if row >> c & 1 == 1 { one } else { zero })
                    .collect()
            })
            .collect()
    };
    let (Some(rounds), Some(colour), Some(cells)) =
        (answer.rounds, answer.colour, answer.presses.as_ref())
    else {
        writeln!(
            out,
            "Board {case}: Impossible (neither all white nor all black can be reached)"
        )?;
        for row in rows(grid, 'b', 'w') {
            writeln!(out, "  {row}")?;
        }
        writeln!(out)?;
        return Ok(());
    };
    match rounds {
        0 => writeln!(out, "Board {case}: 0 rounds, already all {colour}")?,
        1 => writeln!(out, "Board {case}: 1 round to all {colour}")?,
        r => writeln!(out, "Board {case}: {r} rounds to all {colour}")?,
    }
    let mut presses = Grid::new(shape);
    for &[r, c] in cells {
        presses.set(r, c, true);
    }
    let after = grid.apply(&presses);
    side_by_side(
        out,
        shape.cols(),
        &["board", "press", "after"],
        &[
            rows(grid, 'b', 'w'),
            rows(&presses, 'x', '.'),
            rows(&after, 'b', 'w'),
        ],
    )?;
    let sets = match answer.optimal_sets {
        1 => "1 optimal press set".to_owned(),
        n => format!("{n} optimal press sets"),
    };
    // Worded as the 4×4 answers are, so a 4×4 table file reads the same.
    let to = |route: &Option<boardbase::report::FlipRoute>| match route {
        Some(r) => super::pretty::rounds(r.rounds.into()),
        None => "impossible".to_owned(),
    };
    writeln!(
        out,
        "  {sets}; to all {}: {}, to all {}: {}",
        Colour::White,
        to(&answer.to_white),
        Colour::Black,
        to(&answer.to_black)
    )?;
    writeln!(out)?;
    Ok(())
}
