//! `boardbase euler --size RxC` and `boardbase flip --size RxC`: boards of
//! any shape, answered from a table (a file, or made in memory) or, for
//! Flip, by the GF(2) solver. The 4×4 default never comes here: it keeps its
//! own fast path over the embedded tables (`euler.rs`, `flip.rs`).

use std::io::Write;
use std::path::{Path, PathBuf};

use boardbase::error::Found as FoundText;
use boardbase::euler::{ALPHABET as EULER_ALPHABET, Outcome};
use boardbase::flip::{ALPHABET as FLIP_ALPHABET, Colour};
use boardbase::lights::Grid;
use boardbase::report::{EulerAnswer, FlipAnswer};
use boardbase::solvers::shape::{MAX_SIDE, Shape};
use boardbase::tablebase::{FlipAnswers, Loaded, Origin, Tablebase, TablebaseError};
use boardbase::tablefile::{ProbeError, Puzzle};
use clap::Args;

use super::bar::PhaseBar;
use super::pretty::{draw, side_by_side, squares};
use super::{Failure, Format, JudgeLines, Output, Source, write_json_line};

/// Where the table of a board size comes from: shared by `euler` and
/// `flip`.
#[derive(Debug, Args)]
pub struct TableArgs {
    #[arg(long, value_name = "RxC", value_parser = parse_shape,
          help = concat!(super::options::size_help!(), " [default: 4x4, or the shape of --table]"),
          long_help = concat!(super::options::size_help!(), " [default: 4x4, or the shape of --table]. Euler: up to 36 squares; Flip: up to 64x64"))]
    pub size: Option<Shape>,
    #[arg(long, value_name = "FILE", help = super::options::table_help!())]
    pub table: Option<PathBuf>,
    #[arg(long = "tables", value_name = "DIR", value_parser = super::existing_dir,
          help = super::options::tables_help!())]
    pub tables: Vec<PathBuf>,
}

impl TableArgs {
    /// Whether the arguments ask for the embedded 4×4 tables: no size other
    /// than 4x4 and no table file.
    pub fn is_embedded_4x4(&self) -> bool {
        self.table.is_none() && self.size.is_none_or(|s| s == Shape::SQUARE4)
    }

    /// The shape `puzzle`'s boards have: `--size`, else the shape of
    /// `--table`'s file, else 4×4.
    pub fn board_shape(&self, puzzle: Puzzle) -> Result<Shape, Failure> {
        match self.size {
            Some(shape) => Ok(shape),
            None => board_shape(
                self,
                &self.tablebase(boardbase::lights::MAX_NULLITY),
                puzzle,
            ),
        }
    }

    /// The tablebase of `--table`, `--tables` and `BOARDBASE_TABLES`,
    /// searching Flip boards by GF(2) up to nullity `max_nullity`.
    pub fn tablebase(&self, max_nullity: usize) -> Tablebase {
        tablebase_of(&self.tables, self.table.as_deref(), max_nullity)
    }
}

/// The tablebase of `--table FILE` when given (it alone answers its
/// puzzle), else of the `--tables` directories given, then those of
/// `BOARDBASE_TABLES`, searching Flip boards by GF(2) up to nullity
/// `max_nullity`. A directory that cannot be read holds no files (the
/// errors for a missing table name it among those searched).
pub fn tablebase_of(dirs: &[PathBuf], table: Option<&Path>, max_nullity: usize) -> Tablebase {
    let mut tablebase = Tablebase::new();
    tablebase.set_max_nullity(max_nullity);
    if let Some(path) = table {
        tablebase.set_table(path);
    }
    for dir in dirs {
        let _ = tablebase.add_directory(dir);
    }
    tablebase.add_env_directories();
    tablebase
}

/// Parses `RxC` (`5x5`, `5X5`, `5×5`): both sides 1 to 64.
pub fn parse_shape(text: &str) -> Result<Shape, String> {
    Shape::parse(text.trim()).ok_or_else(|| {
        format!("'{text}' is not a board size RxC with 1 to {MAX_SIDE} rows and columns (e.g. 5x5)")
    })
}

/// A probe that failed on a table that opened: the file is damaged.
fn probe_failure(found: &Loaded, error: ProbeError) -> Failure {
    Failure::Tablebase(TablebaseError::Probe {
        origin: found.origin.clone(),
        error,
    })
}

/// Says on stderr that a table was made in memory, and how to keep it.
fn note_made(found: &Loaded, tablebase: &Tablebase, puzzle: Puzzle, shape: Shape) {
    if found.origin != Origin::Made {
        return;
    }
    let missing = tablebase.missing(puzzle, shape);
    let looked = missing
        .looked()
        .unwrap_or_else(|| "no table directory given".into());
    eprintln!(
        "note: {looked}: made the {puzzle} {shape} table in memory ({:.2} s); `{}` writes it to a file",
        found.elapsed.as_secs_f64(),
        missing.command()
    );
}

/// A progress bar for a table made on the spot, when stderr is a terminal.
fn made_bar() -> PhaseBar {
    PhaseBar::new()
}

// ---------------------------------------------------------------- Euler --

/// What an input without the boards its count promised lacks.
const ANOTHER_BOARD: &str = "another board (the case count asks for more)";

/// Runs `boardbase euler` on boards of any shape from a table.
pub fn euler(
    args: &TableArgs,
    format: Format,
    source: &mut Source,
    out: &mut Output,
) -> Result<(), Failure> {
    let tablebase = args.tablebase(boardbase::lights::MAX_NULLITY);
    let shape = board_shape(args, &tablebase, Puzzle::Euler)?;
    let bar = made_bar();
    let found = tablebase.euler_answers(shape, |p| {
        bar.update(p.phase.name(), p.done, p.total, false)
    })?;
    bar.finish();
    note_made(&found, &tablebase, Puzzle::Euler, shape);
    let table = found
        .table
        .as_euler()
        .map_err(|e| probe_failure(&found, e))?;
    let count = source.read_count(super::options::read_count)?;
    let shape = table.shape();
    let mut rows = [0u64; MAX_SIDE];
    let mut lines = JudgeLines::new();
    for case in 1..=count {
        let position = match source.scanner.read_rows(&EULER_ALPHABET, shape, &mut rows) {
            Ok(true) => Ok(pack(shape, &rows)),
            Ok(false) => Err(source
                .scanner
                .error_here(ANOTHER_BOARD, FoundText::EndOfInput)),
            Err(e) => Err(e),
        };
        let position = match position {
            Ok(p) => p,
            Err(e) => {
                lines.flush(out)?;
                return Err(source.fail(e));
            }
        };
        match format {
            Format::Judge => {
                const ANSWERS: [&[u8; 8]; 2] = [b"LOSING\n\0", b"WINNING\n"];
                let win = match table.outcome(position) {
                    Ok(outcome) => outcome.is_win(),
                    Err(e) => {
                        // A damaged block of the file: the answers before
                        // it are given, then the error.
                        lines.flush(out)?;
                        return Err(probe_failure(&found, e));
                    }
                };
                let win = usize::from(win);
                lines.push(out, ANSWERS[win], 7 + win)?;
            }
            Format::Pretty | Format::Json => {
                let answer = EulerAnswer::from_table(case, position, &table)
                    .map_err(|e| probe_failure(&found, e))?;
                if format == Format::Json {
                    write_json_line(out, &answer)?;
                } else {
                    write_euler_pretty(out, shape, position, &answer)?;
                }
                out.end_case()?;
            }
        }
    }
    lines.flush(out)?;
    source.scanner.expect_end().map_err(|e| source.fail(e))
}

/// The `u64` layout of a board of at most 64 cells read as rows.
fn pack(shape: Shape, rows: &[u64; MAX_SIDE]) -> u64 {
    rows[..shape.rows()]
        .iter()
        .enumerate()
        .fold(0, |acc, (r, &bits)| acc | bits << (shape.cols() * r))
}

/// Draws the position beside the same position with the move shown marked
/// `o`, with the answer and the moves left when known.
fn write_euler_pretty(
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

// ----------------------------------------------------------------- Flip --

/// The shape `puzzle`'s boards have: `--size`, else the shape of
/// `--table`'s file, else 4×4.
fn board_shape(args: &TableArgs, tablebase: &Tablebase, puzzle: Puzzle) -> Result<Shape, Failure> {
    match args.size {
        Some(shape) => Ok(shape),
        None => Ok(tablebase.default_shape(puzzle)?),
    }
}

/// Runs `boardbase flip` on boards of any shape: from stdin/FILE, or the one
/// `--board` given.
pub fn flip(
    args: &TableArgs,
    max_nullity: usize,
    format: Format,
    board: Option<&str>,
    source: Option<&mut Source>,
    out: &mut Output,
) -> Result<(), Failure> {
    let tablebase = args.tablebase(max_nullity);
    let shape = board_shape(args, &tablebase, Puzzle::Flip)?;
    let answers = tablebase.flip_answers(shape)?;
    if let Some(text) = board {
        let grid: Grid = text
            .parse()
            .map_err(|e: boardbase::error::ParseError| super::options::bad_board(text, &e))?;
        if grid.shape() != shape {
            return Err(Failure::Usage(format!(
                "--board {text}: a {} board, not {shape} (--size gives the board size; the default is 4x4)",
                grid.shape()
            )));
        }
        return write_flip(out, format, &answers, 1, &grid);
    }
    let Some(source) = source else {
        return Ok(());
    };
    let mut rows = [0u64; MAX_SIDE];
    let mut case = 0u64;
    let mut lines = JudgeLines::new();
    loop {
        match source.scanner.read_rows(&FLIP_ALPHABET, shape, &mut rows) {
            Ok(true) => {
                case += 1;
                let grid = Grid::from_rows(shape, &rows[..shape.rows()])
                    .expect("rows read within the shape");
                if format == Format::Judge {
                    let answer = match answers.rounds(&grid) {
                        Ok(answer) => answer,
                        Err(e) => {
                            // The answers before a board the table cannot
                            // answer (a damaged block) are given first.
                            lines.flush(out)?;
                            return Err(e.into());
                        }
                    };
                    match answer {
                        Some(r) => {
                            let mut line = [0u8; 16];
                            let text = r.to_string();
                            line[..text.len()].copy_from_slice(text.as_bytes());
                            line[text.len()] = b'\n';
                            lines.push(out, &line, text.len() + 1)?;
                        }
                        None => lines.push(out, b"Impossible\n\0\0\0\0\0", 11)?,
                    }
                } else {
                    write_flip(out, format, &answers, case, &grid)?;
                    out.end_case()?;
                }
            }
            // No board at all is no answer, as `cases flip --cases 0` writes.
            Ok(false) => break,
            Err(e) => {
                lines.flush(out)?;
                return Err(source.fail(e));
            }
        }
    }
    lines.flush(out)?;
    Ok(())
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
fn write_flip_pretty(out: &mut Output, grid: &Grid, answer: &FlipAnswer) -> Result<(), Failure> {
    let case = answer.case;
    let shape = grid.shape();
    let rows = |g: &Grid, one: char, zero: char| -> Vec<String> {
        g.show(one, zero)
            .to_string()
            .lines()
            .map(str::to_owned)
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

/// The demo's other sizes: the empty 4×5 Game of Euler board, from a table
/// made in memory (milliseconds), and a 5×5 Flip board, by the GF(2)
/// solver, both as the tablebase answers them.
pub fn demo(out: &mut Output) -> Result<(), Failure> {
    writeln!(
        out,
        "== Other board sizes (boardbase euler --size 4x5, boardbase flip --size 5x5) =="
    )?;
    writeln!(
        out,
        "   (Euler from a table made in memory; Flip by linear algebra over GF(2))\n"
    )?;
    let tablebase = Tablebase::new();
    let shape = Shape::new(4, 5).expect("4x5 is a shape");
    let found = tablebase.euler_answers(shape, |_| {})?;
    let euler = found
        .table
        .as_euler()
        .map_err(|e| probe_failure(&found, e))?;
    let answer = EulerAnswer::from_table(1, 0, &euler).map_err(|e| probe_failure(&found, e))?;
    write_euler_pretty(out, shape, 0, &answer)?;
    let board: Grid =
        "wwbww/wbbbw/bbwbb/wbbbw/wwbww"
            .parse()
            .map_err(|e: boardbase::error::ParseError| {
                Failure::Output(std::io::Error::other(e.to_string()))
            })?;
    let answer = tablebase.flip_answers(board.shape())?.answer(1, &board)?;
    write_flip_pretty(out, &board, &answer)?;
    Ok(())
}
