//! `boardbase lights solve|info`: every Lights Out of the family (K
//! colours, a torus or not, any press pattern) by
//! [`boardbase::lights::family`]; a front end, with no puzzle logic here.

use std::io::{BufRead, Write};

use boardbase::error::{Classify, Kind};
use boardbase::error::{Found, ParseError};
use boardbase::input::InputError;
use boardbase::lights::family::{self, ColourGrid, FamilyAnswer, FamilyGoal, Variant, VariantInfo};
use boardbase::report::{LightsInfo, LightsSolve};
use boardbase::tablebase::Tablebase;
use boardbase::tables::shape::Shape;
use clap::{Args, Subcommand, ValueEnum};

use super::options::{NullityArgs, VariantArgs, bad_board, parse_goal};
use super::pretty::side_by_side;
use super::table_args::parse_shape;
use super::{Failure, Format, InputArgs, Output, thousands, write_json_line};

/// Arguments of `boardbase lights`.
#[derive(Debug, Args)]
pub struct LightsArgs {
    #[command(subcommand)]
    command: LightsCommand,
}

#[derive(Debug, Subcommand)]
enum LightsCommand {
    /// The fewest presses that make every cell one colour, for any member
    /// of the family.
    ///
    /// Input: boards of R lines of C digits 0 to K-1 (`a` to `f` for 10 to
    /// 15), optionally separated by blanks. With --size RxC the boards
    /// follow each other, R lines each (blank lines between boards are
    /// skipped); without it a board is a run of lines and boards are
    /// separated by blank lines, the shape being what the first board's
    /// lines hold. Output (judge format): per board the fewest presses on
    /// a line, then R lines of C digits, how many times to press each cell
    /// (the least optimal vector in reading order); or `Impossible`.
    /// The search visits every press vector of the goal, as many as the
    /// variant has quiet patterns: --max-nullity K bounds it at 2^K (for 2
    /// colours, nullity K); a board over it is an error.
    Solve(SolveArgs),
    /// The structure of a variant: its quiet patterns (presses that change
    /// nothing), how many boards are solvable and, up to 2^25 boards, the
    /// histogram of the fewest presses over every board.
    ///
    /// For a prime K the quiet patterns are a vector space over GF(K): its
    /// dimension (`nullity`) and a basis. For any K they form a group, shown
    /// as its invariant factors (`Z_2^2 × Z_4`), with generators and their
    /// orders. The counts are exact (JSON: strings of digits).
    Info(InfoArgs),
}

/// Arguments of `boardbase lights solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    #[command(flatten)]
    input: InputArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    format: Format,
    #[arg(long, value_name = "RxC", value_parser = parse_shape,
          help = concat!(super::options::size_help!(), ": every board has R lines of C cells, back to back [default: each board's own, boards separated by blank lines]"))]
    size: Option<Shape>,
    /// Solve this one board instead of reading input: rows of digits 0 to
    /// K-1 separated by `/` (e.g. `120/000/000`)
    #[arg(long, value_name = "ROWS", conflicts_with = "file")]
    board: Option<String>,
    #[command(flatten)]
    variant: VariantArgs,
    #[arg(long, value_name = "G", default_value = "0", value_parser = parse_goal,
          help = super::options::goal_help!())]
    goal: FamilyGoal,
    #[command(flatten)]
    nullity: NullityArgs,
}

/// How `lights info` writes its answer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
enum InfoFormat {
    /// For people.
    #[default]
    Text,
    /// One JSON object.
    Json,
}

/// Arguments of `boardbase lights info`.
#[derive(Debug, Args)]
pub struct InfoArgs {
    /// The board size RxC (rows first), e.g. 5x5
    #[arg(value_name = "RxC", value_parser = parse_shape)]
    size: Shape,
    #[command(flatten)]
    variant: VariantArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    format: InfoFormat,
}

/// Runs `boardbase lights`.
pub fn run(args: &LightsArgs, out: &mut Output) -> Result<(), Failure> {
    match &args.command {
        LightsCommand::Solve(args) => solve(args, out),
        LightsCommand::Info(args) => info(args, out),
    }
}

/// A board read, with the line it starts on.
struct Read {
    board: ColourGrid,
    line: u64,
}

/// The input's lines, numbered from 1.
struct Lines {
    reader: Box<dyn BufRead>,
    line_no: u64,
    buf: Vec<u8>,
    /// Whether the last line read ended with a newline.
    ended: bool,
}

impl Lines {
    /// The next line without its end (`\n` or `\r\n`) and its number;
    /// `None` at the end of the input.
    fn next(&mut self) -> Result<Option<(u64, String)>, InputError> {
        self.buf.clear();
        let n = self.reader.read_until(b'\n', &mut self.buf)?;
        if n == 0 {
            return Ok(None);
        }
        self.line_no += 1;
        self.ended = self.buf.last() == Some(&b'\n');
        if self.ended {
            self.buf.pop();
        }
        match std::str::from_utf8(&self.buf) {
            Ok(text) => Ok(Some((self.line_no, text.to_owned()))),
            Err(e) => Err(InputError::Parse(ParseError {
                line: self.line_no,
                column: e.valid_up_to() as u64 + 1,
                expected: "a colour",
                found: Found::first_of(&self.buf[e.valid_up_to()..]),
            })),
        }
    }

    /// Where the end of the input is: the line after the last when it
    /// ended with a newline.
    fn end(&self) -> (u64, u64) {
        if self.ended || self.line_no == 0 {
            (self.line_no + 1, 1)
        } else {
            (self.line_no, self.buf.len() as u64 + 1)
        }
    }
}

fn is_blank(line: &str) -> bool {
    line.trim_matches([' ', '\t', '\r']).is_empty()
}

/// Reads the next board: `shape` given, R lines after any blank ones;
/// otherwise the next run of non-blank lines. `None` at the end.
fn read_board(
    lines: &mut Lines,
    shape: Option<Shape>,
    colours: u8,
) -> Result<Option<Read>, InputError> {
    let (first_no, first) = loop {
        match lines.next()? {
            None => return Ok(None),
            Some((_, l)) if is_blank(&l) => continue,
            Some(found) => break found,
        }
    };
    match shape {
        Some(shape) => {
            let mut cells = Vec::with_capacity(shape.cells());
            ColourGrid::parse_row(&first, first_no, shape.cols(), colours, &mut cells)?;
            for row in 1..shape.rows() {
                let Some((no, line)) = lines.next()? else {
                    let (line, column) = lines.end();
                    return Err(InputError::Parse(ParseError {
                        line,
                        column,
                        expected: if row + 1 == shape.rows() {
                            "the board's last row"
                        } else {
                            "another row of the board"
                        },
                        found: Found::EndOfInput,
                    }));
                };
                ColourGrid::parse_row(&line, no, shape.cols(), colours, &mut cells)?;
            }
            let board = ColourGrid::from_cells(shape, cells).ok_or_else(|| {
                InputError::Io(std::io::Error::other("a board's cells were lost"))
            })?;
            Ok(Some(Read {
                board,
                line: first_no,
            }))
        }
        None => {
            let mut text = first;
            // At most one row past the largest board: the parser says why
            // it is too many.
            for _ in 0..boardbase::tables::shape::MAX_SIDE {
                match lines.next()? {
                    Some((_, l)) if !is_blank(&l) => {
                        text.push('\n');
                        text.push_str(&l);
                    }
                    _ => break,
                }
            }
            let board = ColourGrid::parse(&text, colours).map_err(|mut e| {
                e.line += first_no - 1;
                InputError::Parse(e)
            })?;
            Ok(Some(Read {
                board,
                line: first_no,
            }))
        }
    }
}

/// The input: FILE or stdin with its name, or the one `--board`.
enum Boards {
    Lines { name: String, lines: Lines },
    One(Option<ColourGrid>),
}

/// Runs `boardbase lights solve`: boards until the end of the input, each
/// answered as soon as it is read.
fn solve(args: &SolveArgs, out: &mut Output) -> Result<(), Failure> {
    let colours = args.variant.colours;
    args.variant.check_goal(args.goal)?;
    // The variant's options are checked before any input is read.
    let checked = args.variant.variant(args.size.unwrap_or(Shape::SQUARE4))?;
    let mut boards = match &args.board {
        Some(text) => {
            let board = ColourGrid::parse(text, colours).map_err(|e| bad_board(text, &e))?;
            if let Some(shape) = args.size
                && board.shape() != shape
            {
                return Err(Failure::Usage(format!(
                    "--board {text}: a {} board, not {shape} (--size)",
                    board.shape()
                )));
            }
            Boards::One(Some(board))
        }
        None => {
            let (name, file) = super::open_input(&args.input, out)?;
            let reader: Box<dyn BufRead> = match file {
                Some(f) => Box::new(std::io::BufReader::with_capacity(64 * 1024, f)),
                None => Box::new(std::io::stdin().lock()),
            };
            Boards::Lines {
                name,
                lines: Lines {
                    reader,
                    line_no: 0,
                    buf: Vec::new(),
                    ended: true,
                },
            }
        }
    };
    let mut variant = checked;
    let tablebase = args.nullity.tablebase();
    let mut case = 0u64;
    loop {
        let (read, name) = match &mut boards {
            Boards::One(board) => match board.take() {
                Some(board) => (Read { board, line: 1 }, "--board"),
                None => return Ok(()),
            },
            Boards::Lines { name, lines } => match read_board(lines, args.size, colours) {
                Ok(Some(read)) => (read, name.as_str()),
                Ok(None) => return Ok(()),
                Err(error) => {
                    return Err(Failure::Input {
                        name: name.clone(),
                        error,
                    });
                }
            },
        };
        case += 1;
        if variant.shape() != read.board.shape() {
            variant = args.variant.variant(read.board.shape())?;
        }
        let answer = tablebase
            .lights(&variant, &read.board, args.goal)
            // Past the search, or a board or goal the variant does not
            // take: a failure of the case, with its hint.
            .map_err(|e| match e.kind() {
                Kind::Search | Kind::Option => Failure::Case {
                    name: name.to_owned(),
                    line: read.line,
                    case,
                    error: Box::new(e),
                },
                _ => Failure::from(e),
            })?;
        match args.format {
            Format::Judge => write_judge(out, answer.as_ref())?,
            Format::Pretty => write_pretty(out, case, &variant, &read.board, args.goal, answer)?,
            Format::Json => write_json_line(
                out,
                &LightsSolve::new(case, &variant, &read.board, args.goal, answer.as_ref()),
            )?,
        }
        out.end_case()?;
    }
}

/// The judge's form: the fewest presses, then the press vector's rows; or
/// `Impossible`.
fn write_judge(out: &mut Output, answer: Option<&FamilyAnswer>) -> Result<(), Failure> {
    match answer {
        Some(a) => writeln!(out, "{}\n{}", a.rounds, a.presses)?,
        None => out.write_all(b"Impossible\n")?,
    }
    Ok(())
}

/// `n noun` or `n nouns`.
fn plural(n: u64, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{} {noun}s", thousands(n))
    }
}

/// The goal in words.
fn goal_words(goal: FamilyGoal) -> String {
    match goal {
        FamilyGoal::Colour(d) => format!("every cell {d:x}"),
        FamilyGoal::Any => "every cell one colour".to_owned(),
    }
}

/// The rows of a grid, as drawn: its digits, `zero` for 0.
fn rows_of(grid: &ColourGrid, zero: char) -> Vec<String> {
    grid.to_string()
        .lines()
        .map(|l| l.replace('0', &zero.to_string()))
        .collect()
}

/// Pretty form of one board: the board, the presses and the board after
/// them side by side, and how many optimal vectors there are.
fn write_pretty(
    out: &mut Output,
    case: u64,
    variant: &Variant,
    board: &ColourGrid,
    goal: FamilyGoal,
    answer: Option<FamilyAnswer>,
) -> Result<(), Failure> {
    let cols = board.cols();
    match answer {
        Some(a) => {
            let reached = match goal {
                FamilyGoal::Colour(_) => goal_words(goal),
                FamilyGoal::Any => format!("every cell {:x}", a.colour),
            };
            let presses = a.rounds as u64;
            writeln!(
                out,
                "Case {case}: {variant}: {} {reached}",
                if presses == 1 {
                    "1 press makes".to_owned()
                } else {
                    format!("{} presses make", thousands(presses))
                }
            )?;
            let after = variant.apply(board, &a.presses);
            side_by_side(
                out,
                cols,
                &["board", "presses", "after"],
                &[
                    rows_of(board, '0'),
                    rows_of(&a.presses, '.'),
                    rows_of(&after, '0'),
                ],
            )?;
            if a.optimal_sets == 1 {
                writeln!(out, "  the only optimal press vector")?;
            } else {
                writeln!(
                    out,
                    "  {}; shown: the least in reading order",
                    plural(a.optimal_sets, "optimal press vector")
                )?;
            }
        }
        None => {
            writeln!(
                out,
                "Case {case}: {variant}: Impossible: no presses make {}",
                goal_words(goal)
            )?;
            side_by_side(out, cols, &["board"], &[rows_of(board, '0')])?;
        }
    }
    writeln!(out)?;
    Ok(())
}

/// Runs `boardbase lights info`.
fn info(args: &InfoArgs, out: &mut Output) -> Result<(), Failure> {
    let variant = args.variant.variant(args.size)?;
    let info = Tablebase::new().lights_info(&variant);
    match args.format {
        InfoFormat::Json => write_json_line(out, &LightsInfo::new(&info)),
        InfoFormat::Text => write_info_text(out, &info),
    }
}

/// `lights info`'s text form.
fn write_info_text(out: &mut Output, info: &VariantInfo) -> Result<(), Failure> {
    let v = &info.variant;
    writeln!(out, "{v}")?;
    let count = info.quiet_group.order();
    match info.nullity {
        Some(n) => writeln!(
            out,
            "quiet patterns: nullity {n}, {} ({})",
            plural_big(&count, "quiet pattern"),
            info.quiet_group
        )?,
        None => writeln!(
            out,
            "quiet patterns: {}, the group {}",
            plural_big(&count, "quiet pattern"),
            info.quiet_group
        )?,
    }
    let basis = if info.nullity.is_some() {
        "a basis"
    } else {
        "generators (each with the order of its coefficient)"
    };
    if !info.quiet_generators.is_empty() {
        writeln!(out, "{basis}:")?;
        for (i, (g, order)) in info
            .quiet_generators
            .iter()
            .zip(&info.generator_orders)
            .enumerate()
        {
            if info.nullity.is_some() {
                writeln!(out, "  #{}", i + 1)?;
            } else {
                writeln!(out, "  #{} (order {order})", i + 1)?;
            }
            for row in rows_of(g, '.') {
                writeln!(out, "    {row}")?;
            }
        }
    }
    let boards = &info.solvable_boards * &count;
    writeln!(
        out,
        "solvable boards: {} of {} (1 in {})",
        thousands(&info.solvable_boards),
        thousands(&boards),
        thousands(&count)
    )?;
    match (&info.histogram, info.max_presses) {
        (Some(histogram), Some(max)) => {
            writeln!(out, "fewest presses to all 0, over every solvable board:")?;
            let width = thousands(histogram.iter().max().copied().unwrap_or(0)).len();
            for (n, boards) in histogram.iter().enumerate() {
                writeln!(out, "  {n:>3}  {:>width$}", thousands(boards))?;
            }
            writeln!(out, "max presses (God's number): {max}")?;
        }
        _ => writeln!(
            out,
            "histogram: not computed (more than 2^{} boards)",
            family::HISTOGRAM_MAX_BITS
        )?,
    }
    Ok(())
}

/// `n noun` or `n nouns` for a number of any size.
fn plural_big(n: &impl std::fmt::Display, noun: &str) -> String {
    let digits = n.to_string();
    if digits == "1" {
        format!("1 {noun}")
    } else {
        format!("{} {noun}s", thousands(n))
    }
}
