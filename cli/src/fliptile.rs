//! `boardbase fliptile` (POJ 3279) and `boardbase lightsout` (POJ 1222,
//! UVA 1560): Flip and Lights Out on any board, by [`boardbase::lights`].

use std::io::Write;

use boardbase::error::{Classify, Kind};
use boardbase::input::Scanner;
use boardbase::lights::{self, Answer, Colour, FliptileCase, Grid};
use boardbase::report::LightsAnswer;
use boardbase::tablebase::{self, Fliptile, Tablebase};
use clap::Args;

use super::options::{JobsArgs, NullityArgs, read_board};
use super::{Failure, Format, InputArgs, Output, Source, write_json_line};

/// Arguments of `boardbase fliptile`.
#[derive(Debug, Args)]
pub struct FliptileArgs {
    #[command(flatten)]
    input: InputArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    format: Format,
    /// Solve this one board instead of reading input: rows of `0`/`1`
    /// separated by `/` (e.g. `1001/0110/0110/1001`); the board's shape is
    /// the case's (1 to 64 a side).
    #[arg(long, value_name = "ROWS", conflicts_with = "file")]
    board: Option<String>,
    #[command(flatten)]
    nullity: NullityArgs,
    #[command(flatten)]
    jobs: JobsArgs,
}

/// Arguments of `boardbase lightsout`.
#[derive(Debug, Args)]
pub struct LightsoutArgs {
    #[command(flatten)]
    input: InputArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    format: Format,
    /// Solve this one puzzle instead of reading input: 5 rows of six
    /// `0`/`1` separated by `/` (e.g. `011010/100111/001001/101001/011100`).
    #[arg(long, value_name = "ROWS", conflicts_with = "file")]
    board: Option<String>,
    #[command(flatten)]
    nullity: NullityArgs,
}

/// The input: FILE or stdin, or the one `--board` as the judge's input of
/// one case (`header` and its rows of `0`/`1` separated by blanks).
fn open_board(
    input: &InputArgs,
    board: Option<&str>,
    shape: Option<boardbase::tables::shape::Shape>,
    why: &str,
    header: impl FnOnce(boardbase::tables::shape::Shape) -> String,
    out: &mut Output,
) -> Result<Source, Failure> {
    match board {
        Some(text) => {
            let rows = read_board(text, &lights::CELLS, shape, why)?;
            let grid = Grid::from_rows(rows.shape(), rows.rows())
                .map_err(|e| Failure::Usage(format!("--board {text}: {e}")))?;
            // The judge's rows, as `cases` writes them.
            let mut input = header(rows.shape()).into_bytes();
            lights::write_judge_rows(&mut input, &grid)?;
            let input = String::from_utf8(input).expect("judge rows are ASCII");
            Ok(Source::from_text("--board", input))
        }
        None => Source::open(input, out),
    }
}

/// Runs `boardbase fliptile`: cases back to back until the end of the
/// input, each answered as soon as it is read.
pub fn fliptile(args: &FliptileArgs, out: &mut Output) -> Result<(), Failure> {
    args.jobs.limit_pool();
    let header = |s: boardbase::tables::shape::Shape| format!("{} {}\n", s.rows(), s.cols());
    let mut source = open_board(&args.input, args.board.as_deref(), None, "", header, out)?;
    let tablebase = args.nullity.tablebase();
    let mut case = 0u64;
    loop {
        match lights::read_fliptile_case(&mut source.scanner) {
            Ok(Some(FliptileCase { board, line })) => {
                case += 1;
                let Fliptile { answer, nullity } = tablebase
                    .fliptile(&board, Colour::White)
                    .map_err(|e| solve_failure(e, &source.name, line, case))?;
                match args.format {
                    Format::Judge => write_judge_grid(out, answer.as_ref())?,
                    Format::Pretty => write_fliptile_pretty(out, case, &board, answer, nullity)?,
                    Format::Json => write_json_line(
                        out,
                        &LightsAnswer::new(case, &board, answer.as_ref(), nullity),
                    )?,
                }
                out.end_case()?;
            }
            // No case at all is no answer, as `cases fliptile --cases 0` writes.
            Ok(None) => return Ok(()),
            Err(e) => return Err(source.fail(e)),
        }
    }
}

/// Runs `boardbase lightsout`: a puzzle count, then that many 5×6 puzzles;
/// after them only whitespace may follow.
pub fn lightsout(args: &LightsoutArgs, out: &mut Output) -> Result<(), Failure> {
    let why = "Extended Lights Out boards are 5x6";
    let header = |_| "1\n".to_owned();
    let board = args.board.as_deref();
    let mut source = open_board(
        &args.input,
        board,
        Some(lights::LIGHTS_OUT),
        why,
        header,
        out,
    )?;
    let tablebase = args.nullity.tablebase();
    let count = source.read_count(lights::read_lights_out_count)?;
    for puzzle in 1..=count {
        let board =
            lights::read_lights_out_puzzle(&mut source.scanner).map_err(|e| source.fail(e))?;
        // 5×6 has nullity 0: every board has exactly one solution.
        let Fliptile { answer, nullity } = tablebase
            .fliptile(&board, Colour::White)
            .map_err(Failure::from)?;
        let answer = answer
            .ok_or_else(|| Failure::Output(std::io::Error::other("5x6 is always solvable")))?;
        match args.format {
            Format::Judge => {
                writeln!(out, "PUZZLE #{puzzle}")?;
                write_judge_grid(out, Some(&answer))?;
            }
            Format::Pretty => write_lightsout_pretty(out, puzzle, &board, &answer)?,
            Format::Json => write_json_line(
                out,
                &LightsAnswer::new(puzzle, &board, Some(&answer), nullity),
            )?,
        }
        out.end_case()?;
    }
    source.scanner.expect_end().map_err(|e| source.fail(e))
}

/// A Fliptile case the tablebase did not answer, with where it stands
/// when it is past the search's limit (a failure of the case, with its
/// hint); any other error as the answer layer's are.
fn solve_failure(error: tablebase::Error, name: &str, line: u64, case: u64) -> Failure {
    match error.kind() {
        Kind::Search => Failure::Case {
            name: name.to_owned(),
            line,
            case,
            error: Box::new(error),
        },
        _ => Failure::from(error),
    }
}

/// Writes the press set as the judges print it: rows of `0`/`1` separated
/// by single spaces, or `IMPOSSIBLE`.
fn write_judge_grid(out: &mut Output, answer: Option<&Answer>) -> Result<(), Failure> {
    match answer {
        Some(answer) => lights::write_judge_rows(out, &answer.presses)?,
        None => out.write_all(b"IMPOSSIBLE\n")?,
    }
    Ok(())
}

/// Draws grids side by side under their headings: each a grid and the
/// characters of its set and clear cells.
fn write_side_by_side(
    out: &mut Output,
    columns: &[(&str, &Grid, char, char)],
) -> Result<(), Failure> {
    let cols = columns[0].1.shape().cols();
    let mut heading = String::new();
    for (title, _, _, _) in columns {
        let width = cols.max(title.chars().count());
        heading.push_str(&format!("  {title:<width$}"));
    }
    writeln!(out, "{}", heading.trim_end())?;
    let drawn: Vec<String> = columns
        .iter()
        .map(|(_, g, set, clear)| g.show(*set, *clear).to_string())
        .collect();
    let mut lines: Vec<_> = drawn.iter().map(|d| d.lines()).collect();
    for _ in 0..columns[0].1.shape().rows() {
        let mut text = String::new();
        for ((title, _, _, _), l) in columns.iter().zip(&mut lines) {
            let width = cols.max(title.chars().count());
            text.push_str(&format!("  {:<width$}", l.next().unwrap_or("")));
        }
        writeln!(out, "{}", text.trim_end())?;
    }
    Ok(())
}

/// `1 optimal X set`, `n optimal X sets`.
fn optimal_sets(answer: &Answer, what: &str) -> String {
    if answer.is_unique() {
        format!("the only optimal {what} set")
    } else {
        format!(
            "{} optimal {what} sets; shown: the least in reading order",
            answer.optimal_sets
        )
    }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Pretty form of a Fliptile case: the tiles, the flips and the result.
fn write_fliptile_pretty(
    out: &mut Output,
    case: u64,
    board: &Grid,
    answer: Option<Answer>,
    k: usize,
) -> Result<(), Failure> {
    let shape = board.shape();
    let size = shape.to_string();
    match answer {
        Some(a) => {
            writeln!(
                out,
                "Case {case}: {size} tiles, {} every tile white",
                plural(a.rounds, "flip makes", "flips make")
            )?;
            let after = board.apply(&a.presses);
            write_side_by_side(
                out,
                &[
                    ("tiles", board, '1', '0'),
                    ("flips", &a.presses, 'x', '.'),
                    ("after", &after, '1', '0'),
                ],
            )?;
            if k == 0 {
                writeln!(
                    out,
                    "  the only flip set that makes these tiles white (nullity 0)"
                )?;
            } else {
                writeln!(out, "  {}", optimal_sets(&a, "flip"))?;
                writeln!(
                    out,
                    "  nullity {k}: {} flip sets in all make these tiles white",
                    1u128 << k
                )?;
            }
        }
        None => {
            writeln!(
                out,
                "Case {case}: {size} tiles, IMPOSSIBLE: no flips make every tile white"
            )?;
            write_side_by_side(out, &[("tiles", board, '1', '0')])?;
            writeln!(
                out,
                "  nullity {k}: only 1 board of this size in {} can be made white",
                1u128 << k
            )?;
        }
    }
    writeln!(out)?;
    Ok(())
}

/// Pretty form of an Extended Lights Out puzzle.
fn write_lightsout_pretty(
    out: &mut Output,
    puzzle: u64,
    board: &Grid,
    answer: &Answer,
) -> Result<(), Failure> {
    writeln!(
        out,
        "PUZZLE #{puzzle}: {} every light off",
        plural(answer.rounds, "press turns", "presses turn")
    )?;
    let after = board.apply(&answer.presses);
    write_side_by_side(
        out,
        &[
            ("lights", board, '1', '0'),
            ("press", &answer.presses, 'x', '.'),
            ("after", &after, '1', '0'),
        ],
    )?;
    if answer.is_unique() {
        writeln!(out, "  the only press set that does it (5x6 has nullity 0)")?;
    } else {
        writeln!(out, "  {}", optimal_sets(answer, "press"))?;
    }
    writeln!(out)?;
    Ok(())
}

/// POJ 3279's and POJ 1222's samples in pretty form, for `boardbase demo`.
pub fn demo(out: &mut Output) -> Result<(), Failure> {
    let broken = |e: &dyn std::fmt::Display| {
        Failure::Output(std::io::Error::other(format!(
            "the built-in sample is broken: {e}"
        )))
    };
    writeln!(
        out,
        "== Fliptile ({}): fewest flips to make every tile white ==",
        lights::POJ_3279.judge
    )?;
    writeln!(
        out,
        "   (published sample: flip (1,0), (1,3), (2,0), (2,3), the lesser of 2 optimal sets)\n"
    )?;
    let mut scanner = Scanner::new(FLIPTILE_SAMPLE.as_bytes());
    let case = lights::read_fliptile_case(&mut scanner)
        .map_err(|e| broken(&e))?
        .ok_or_else(|| broken(&"no case"))?;
    let tablebase = Tablebase::new();
    let Fliptile { answer, nullity } = tablebase
        .fliptile(&case.board, Colour::White)
        .map_err(|e| broken(&e))?;
    write_fliptile_pretty(out, 1, &case.board, answer, nullity)?;
    writeln!(
        out,
        "== Extended Lights Out ({}, UVA 1560): press buttons until every light is off ==",
        lights::POJ_1222.judge
    )?;
    writeln!(
        out,
        "   (published sample: two puzzles, each with exactly one solution)\n"
    )?;
    let mut scanner = Scanner::new(LIGHTS_OUT_SAMPLE.as_bytes());
    let count = lights::read_lights_out_count(&mut scanner).map_err(|e| broken(&e))?;
    for puzzle in 1..=count {
        let board = lights::read_lights_out_puzzle(&mut scanner).map_err(|e| broken(&e))?;
        let answer = tablebase
            .fliptile(&board, Colour::White)
            .map_err(|e| broken(&e))?
            .answer
            .ok_or_else(|| broken(&"unsolvable"))?;
        write_lightsout_pretty(out, puzzle, &board, &answer)?;
    }
    Ok(())
}

/// POJ 3279's sample input.
const FLIPTILE_SAMPLE: &str = "4 4\n1 0 0 1\n0 1 1 0\n0 1 1 0\n1 0 0 1\n";

/// POJ 1222's sample input.
const LIGHTS_OUT_SAMPLE: &str = "2
0 1 1 0 1 0
1 0 0 1 1 1
0 0 1 0 0 1
1 0 0 1 0 1
0 1 1 1 0 0
0 0 1 0 1 0
1 0 1 0 1 1
0 0 1 0 1 1
1 0 1 1 0 0
0 1 0 1 0 0
";
