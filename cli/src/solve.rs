//! `boardbase solve`: any two-player game of the catalogue's models, a
//! position's value for the player to move, its remoteness and every move
//! valued, from the answer layer (`Tablebase::solve`). The games, their
//! options and their text are the library's: nothing here names one.

use std::io::{BufRead, BufReader, Read, Write};

use boardbase::catalogue::{self, Model};
use boardbase::error::ParseError;
use boardbase::input::InputError;
use boardbase::tablebase::{Query, Solution, SolvedMove};
use boardbase::tables::game::Value;
use boardbase::tables::shape::Shape;
use clap::Args;

use super::options::GameOptions;
use super::table_args::{parse_shape, tablebase_of};
use super::{Failure, InputArgs, Output, open_input, write_json_line};

/// Arguments of `boardbase solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// The game (`boardbase games` lists them).
    #[arg(value_name = "GAME", value_parser = game_model)]
    game: &'static Model,
    #[command(flatten)]
    input: InputArgs,
    /// Solve this one position instead of reading input: its rows separated
    /// by `/` (e.g. `X../.O./...`), in the game's text.
    #[arg(long, value_name = "ROWS", conflicts_with_all = ["file", "start"])]
    board: Option<String>,
    /// Solve the game's start position.
    #[arg(long, conflicts_with = "file")]
    start: bool,
    /// The board size RxC [default: the game's own, as `boardbase games`
    /// lists it].
    #[arg(long, value_name = "RxC", value_parser = parse_shape)]
    size: Option<Shape>,
    #[command(flatten)]
    options: GameOptions,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    format: SolveFormat,
    #[arg(long = "tables", value_name = "DIR", value_parser = super::existing_dir,
          help = super::options::tables_help!())]
    tables: Vec<std::path::PathBuf>,
    #[arg(long, value_name = "SIZE", default_value = "512M", value_parser = super::generate::parse_byte_size,
          help = concat!("Memory a game solved in memory may take, e.g. 512M, 2G ", super::options::memory_units!(), "; tic-tac-toe takes 231 KiB, a 4x4 board 493 MiB"))]
    make_memory: u64,
}

/// How solved positions are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum SolveFormat {
    /// For people: the value, then each move and what it gives the mover.
    #[default]
    Text,
    /// One JSON object a position and line (JSON Lines).
    Json,
}

/// The game named on the command line, among the catalogue's models.
fn game_model(name: &str) -> Result<&'static Model, String> {
    catalogue::model(name).ok_or_else(|| {
        let names: Vec<&str> = catalogue::MODELS.iter().map(|m| m.game).collect();
        format!("'{name}' is not a game solve knows: {}", names.join(", "))
    })
}

/// Runs `boardbase solve`.
pub fn run(args: &SolveArgs, out: &mut Output) -> Result<(), Failure> {
    let model = args.game;
    let setup = model
        .setup(args.size, args.options.given())
        .map_err(|e| Failure::Usage(e.to_string()))?;
    let mut tablebase = tablebase_of(&args.tables, None, boardbase::lights::MAX_NULLITY);
    tablebase.set_make_memory(args.make_memory);
    let solve = |query: Query| tablebase.solve(model, &setup, query);
    if args.start {
        return write(out, args.format, &solve(Query::Start)?);
    }
    if let Some(text) = &args.board {
        return match solve(Query::Text(text)) {
            Ok(solution) => write(out, args.format, &solution),
            Err(e) => Err(on_board("--board", 1, e)),
        };
    }
    let (name, file) = open_input(&args.input, out)?;
    let reader: Box<dyn Read> = match file {
        Some(f) => Box::new(f),
        None => Box::new(std::io::stdin().lock()),
    };
    // A game whose text takes more lines than the board's rows (Quixo's
    // line of whose turn it is) says how many; a game that cannot be made
    // is refused by the first solve, with its reason.
    let lines = model
        .make(&setup)
        .ok()
        .and_then(|game| game.position_lines())
        .unwrap_or(setup.shape.rows());
    each_position(BufReader::new(reader), lines, |line, text| {
        let solution = solve(Query::Text(text)).map_err(|e| on_board(&name, line, e))?;
        write(out, args.format, &solution)?;
        out.end_case()?;
        Ok(())
    })
    .map_err(|e| match e {
        Stop::Io(error) => Failure::Input {
            name: name.clone(),
            error: InputError::Io(error),
        },
        Stop::Failed(failure) => failure,
    })
}

/// Why reading positions stopped.
enum Stop {
    Io(std::io::Error),
    Failed(Failure),
}

impl From<Failure> for Stop {
    fn from(failure: Failure) -> Stop {
        Stop::Failed(failure)
    }
}

/// Calls `f` with each position of the input and the line it starts on:
/// a line holding `/` is one position; otherwise `rows` lines are one (the
/// board's rows, or as many as the game's text takes).
/// Blank lines between positions are skipped.
fn each_position(
    mut input: impl BufRead,
    rows: usize,
    mut f: impl FnMut(u64, &str) -> Result<(), Failure>,
) -> Result<(), Stop> {
    let mut case = String::new();
    let (mut held, mut start, mut number) = (0, 0, 0u64);
    let mut line = String::new();
    loop {
        line.clear();
        let read = input.read_line(&mut line).map_err(Stop::Io)?;
        if read == 0 {
            break;
        }
        number += 1;
        let row = line.trim_end_matches(['\n', '\r']);
        if held == 0 {
            if row.trim().is_empty() {
                continue;
            }
            start = number;
            if row.contains('/') {
                f(start, row)?;
                continue;
            }
        }
        case.push_str(row);
        case.push('\n');
        held += 1;
        if held == rows {
            f(start, &case)?;
            case.clear();
            held = 0;
        }
    }
    if held > 0 {
        f(start, &case)?;
    }
    Ok(())
}

/// The failure of a position read at `line` of `name`: its text's error
/// at its line and column, or the answer layer's.
fn on_board(name: &str, line: u64, error: boardbase::tablebase::Error) -> Failure {
    match error.parse_error() {
        Some(&e) => Failure::Input {
            name: name.to_owned(),
            error: InputError::Parse(ParseError {
                line: line + e.line - 1,
                ..e
            }),
        },
        None => error.into(),
    }
}

/// Writes one solved position.
fn write(out: &mut Output, format: SolveFormat, solution: &Solution) -> Result<(), Failure> {
    if format == SolveFormat::Json {
        return write_json_line(out, solution);
    }
    writeln!(
        out,
        "{}: {}",
        solution.position,
        outcome_text(solution.value, solution.remoteness)
    )?;
    for m in &solution.moves {
        writeln!(out, "  {:<6} {}", m.text, for_mover(m))?;
    }
    Ok(())
}

/// `win in 3`, `lose in 4`, `draw`; `win` where the remoteness is not
/// known.
fn outcome_text(value: Value, remoteness: Option<u16>) -> String {
    match (value, remoteness) {
        (Value::Draw, _) => "draw".to_owned(),
        (value, Some(r)) => format!("{value} in {r}"),
        (value, None) => value.to_string(),
    }
}

/// What a move gives the player making it: the opposite of the value of
/// the position after it, one ply longer.
fn for_mover(m: &SolvedMove) -> String {
    let plies = m
        .remoteness
        .map(|r| format!(" in {}", r + 1))
        .unwrap_or_default();
    match m.value {
        Value::Lose => format!("wins{plies}"),
        Value::Win => format!("loses{plies}"),
        Value::Draw => "draws".to_owned(),
    }
}
