//! `boardbase flip`: Flip Game.

use std::io::Write;

use boardbase::error::ParseError;
use boardbase::flip::{self, Board};
use boardbase::report::FlipAnswer;
use clap::Args;

use super::options::{JobsArgs, NullityArgs, bad_board};
use super::sized::{self, TableArgs};
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

/// Parses a 4×4 `--board`, with the argument parser's wording of errors.
fn parse_board(text: &str) -> Result<Board, Failure> {
    text.parse().map_err(|e: ParseError| bad_board(text, &e))
}

/// Runs `boardbase flip`.
pub fn run(args: &FlipArgs, out: &mut Output) -> Result<(), Failure> {
    args.jobs.limit_pool();
    if !args.tables.is_embedded_4x4() {
        let mut source = match args.board {
            Some(_) => None,
            None => Some(Source::open(&args.input, out)?),
        };
        return sized::flip(
            &args.tables,
            args.nullity.get(),
            args.format,
            args.board.as_deref(),
            source.as_mut(),
            out,
        );
    }
    if let Some(text) = &args.board {
        write_answer(out, args.format, 1, parse_board(text)?)?;
        return Ok(());
    }
    let mut source = Source::open(&args.input, out)?;
    if args.format == Format::Judge {
        return judge(&mut source, out);
    }
    let mut case = 0u64;
    loop {
        match source.scanner.read_grid(&flip::ALPHABET) {
            Ok(Some(bits)) => {
                case += 1;
                write_answer(out, args.format, case, Board::from_bits(bits))?;
                out.end_case()?;
            }
            // No board at all is no answer, as `cases flip --cases 0` writes.
            Ok(None) => return Ok(()),
            Err(e) => return Err(source.fail(e)),
        }
    }
}

/// The judge's answer lines indexed by [`flip::rounds`] (15 when
/// impossible), padded to 16 bytes, with their lengths.
const JUDGE: ([[u8; 16]; 16], [usize; 16]) = {
    let mut lines = [[0u8; 16]; 16];
    let mut lens = [0usize; 16];
    let mut r = 0;
    while r < 15 {
        lines[r][0] = b'0' + r as u8;
        lines[r][1] = b'\n';
        lens[r] = 2;
        r += 1;
    }
    let impossible = b"Impossible\n";
    let mut i = 0;
    while i < impossible.len() {
        lines[15][i] = impossible[i];
        i += 1;
    }
    lens[15] = impossible.len();
    (lines, lens)
};

/// The hot path: the judge's answer per board, gathered branch-free.
fn judge(source: &mut Source, out: &mut Output) -> Result<(), Failure> {
    let mut lines = JudgeLines::new();
    loop {
        match source.scanner.read_grid(&flip::ALPHABET) {
            Ok(Some(bits)) => {
                let r = usize::from(flip::rounds(Board::from_bits(bits)).unwrap_or(15));
                lines.push(out, &JUDGE.0[r], JUDGE.1[r])?;
            }
            Ok(None) => break,
            Err(e) => {
                lines.flush(out)?;
                return Err(source.fail(e));
            }
        }
    }
    lines.flush(out)?;
    Ok(())
}

/// Writes the answer for one board in `format`.
#[inline]
pub fn write_answer(
    out: &mut Output,
    format: Format,
    case: u64,
    board: Board,
) -> Result<(), Failure> {
    match format {
        Format::Judge => match flip::rounds(board) {
            Some(r) => out.write_all(&[b'0' + r, b'\n'])?,
            None => out.write_all(b"Impossible\n")?,
        },
        Format::Pretty => write_pretty(out, case, board)?,
        Format::Json => write_json(out, case, board)?,
    }
    Ok(())
}

#[inline(never)]
fn write_json(out: &mut Output, case: u64, board: Board) -> Result<(), Failure> {
    write_json_line(out, &FlipAnswer::new(case, board))
}

/// Draws the board beside the cells to press, with the rounds and colour.
#[inline(never)]
pub fn write_pretty(out: &mut Output, case: u64, board: Board) -> Result<(), Failure> {
    let Some(s) = flip::solve(board) else {
        writeln!(
            out,
            "Board {case}: Impossible (neither all white nor all black can be reached)"
        )?;
        for row in board.to_string().lines() {
            writeln!(out, "  {row}")?;
        }
        writeln!(out)?;
        return Ok(());
    };
    match s.rounds {
        0 => writeln!(out, "Board {case}: 0 rounds, already all {}", s.colour)?,
        1 => writeln!(out, "Board {case}: 1 round to all {}", s.colour)?,
        r => writeln!(out, "Board {case}: {r} rounds to all {}", s.colour)?,
    }
    writeln!(out, "  board  press  after")?;
    let after = board.apply(s.presses);
    let (b, p, a) = (board.to_string(), s.presses.to_string(), after.to_string());
    for ((b, p), a) in b.lines().zip(p.lines()).zip(a.lines()) {
        writeln!(out, "  {b}   {p}   {a}")?;
    }
    let sets = match s.optimal_sets {
        1 => "1 optimal press set".to_owned(),
        n => format!("{n} optimal press sets"),
    };
    writeln!(
        out,
        "  {sets}; to all white: {}, to all black: {}",
        super::pretty::rounds(s.to_white.rounds.into()),
        super::pretty::rounds(s.to_black.rounds.into())
    )?;
    writeln!(out)?;
    Ok(())
}
