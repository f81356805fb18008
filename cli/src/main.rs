//! The `boardbase` command line: judge-compatible solvers for Flip Game,
//! Game of Euler, Carcassonne, Fliptile and Lights Out with readable and
//! JSON output, `check`, `cases`, `generate`, table files and `serve`.
//!
//! A front end over the `boardbase` library: each subcommand parses its
//! arguments, asks the library and renders the answer.

// `eprintln!` and `eprint!` of std panic when standard error is a closed
// pipe (`boardbase ... 2>&1 | true`), which would turn a message nobody can
// read into exit status 101. These two, defined before every module so that
// they are the ones in scope everywhere in the binary, write the same bytes
// and drop a write error instead: the run goes on and exits with the status
// it would have had.
macro_rules! eprintln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}
macro_rules! eprint {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stderr(), $($arg)*);
    }};
}

mod bar;
mod carcassonne;
mod cases;
#[cfg(unix)]
mod check;
mod compress;
mod demo;
mod euler;
mod export;
mod failure;
mod flip;
mod fliptile;
mod games;
mod generate;
mod lights;
#[cfg(feature = "mpi")]
mod mpi;
mod options;
mod output;
mod pretty;
mod shell;
mod signals;
mod solve;
mod table_args;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use options::Deferred;

pub use failure::{Failure, hinted, say};
pub use output::{InputArgs, JudgeLines, Output, Source, open_input, write_json_line};

// The HTTP server, `boardbase serve`.
#[cfg(feature = "serve")]
mod serve;

/// boardbase: instant answers for grid puzzles (Flip Game, Game of Euler,
/// Carcassonne, Fliptile, Lights Out). The 4×4 Flip Game and Game of Euler
/// boards are answered from tables built into the binary; the others are
/// solved at run time, or read from the table files `boardbase generate`
/// writes.
///
/// Every solver reads the judge's input format (from FILE, or standard input
/// when FILE is absent or `-`) and streams one answer per case. On bad input
/// the answers for earlier cases are printed, then the error with its line
/// and column, and the exit status is 1. Usage errors exit with status 2.
#[derive(Debug, Parser)]
#[command(
    name = "boardbase",
    version,
    about = "Instant answers for grid puzzles: Flip Game, Game of Euler, Carcassonne, Fliptile, Lights Out",
    long_about
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Flip Game (POJ 1753): fewest rounds to make a 4x4 board (or any
    /// size, with --size) one colour.
    ///
    /// Input: one or more boards of 4 lines of 4 `b`/`w` (R lines of C with
    /// --size RxC), blank lines between boards optional. Output (judge
    /// format): per board the number of rounds or `Impossible`. Other sizes
    /// are answered from a table file when one is found (up to 25 cells;
    /// --table, --tables, BOARDBASE_TABLES), otherwise by linear algebra
    /// over GF(2) (any size up to 64x64 whose nullity is at most
    /// --max-nullity, 24 by default).
    #[command(visible_alias = "poj1753")]
    Flip(Deferred<flip::FlipArgs>),
    /// Game of Euler (UVA 10536): who wins from a 4x4 board of pins (or
    /// any size up to 36 squares, with --size).
    ///
    /// Input: a case count, then that many boards of 4 lines of 4 `X`
    /// (covered) / `.` (uncovered) (R lines of C with --size RxC), blank
    /// lines between boards optional; after the last board only whitespace
    /// may follow. Output (judge format): per board `WINNING` or `LOSING`
    /// for the player to move; a fully covered board is `WINNING` (the
    /// opponent covered the last square). Other sizes are answered from a
    /// table file (--table, --tables, BOARDBASE_TABLES), or from a table
    /// made in memory up to 25 squares.
    #[command(visible_alias = "uva10536")]
    Euler(Deferred<euler::EulerArgs>),
    /// Carcassonne (HDU 4064): count the tile rotations that match every
    /// shared edge, modulo 1,000,000,007.
    ///
    /// Input: a case count T, then per case `N M` and N×M four-letter tile
    /// codes (edges clockwise from the top, each `C`, `R` or `F`), all
    /// separated by any whitespace; the narrower side may be at most 16.
    /// After the last case only whitespace may follow. Output (judge
    /// format): `Case k: count` per case. Cases are counted in parallel;
    /// answers keep the input order.
    #[command(visible_alias = "hdu4064")]
    Carcassonne(Deferred<carcassonne::CarcassonneArgs>),
    /// Fliptile (POJ 3279): fewest flips to make every tile white.
    ///
    /// Input: one or more cases, each `M N` (1 to 64) on a line, then M
    /// lines of N cells `0` (white) or `1` (black) separated by blanks.
    /// Output (judge format): M lines of N `0`/`1` separated by spaces, 1
    /// where to flip, the fewest flips and among those the least in reading
    /// order; or `IMPOSSIBLE`.
    #[command(visible_alias = "poj3279")]
    Fliptile(Deferred<fliptile::FliptileArgs>),
    /// Extended Lights Out (POJ 1222, UVA 1560): the buttons that turn every
    /// light of a 5x6 board off.
    ///
    /// Input: a puzzle count, then that many puzzles of 5 lines of six `0`/`1`
    /// separated by blanks; after the last only whitespace may follow.
    /// Output (judge format): per puzzle `PUZZLE #m` and 5 lines of six
    /// `0`/`1` separated by single spaces, 1 for a button to press.
    #[command(visible_aliases = ["poj1222", "uva1560"])]
    Lightsout(Deferred<fliptile::LightsoutArgs>),
    /// Every Lights Out: K colours (2 to 16), on a torus or not, any press
    /// pattern; the proven fewest presses (`lights solve`) and the
    /// structure of a variant (`lights info`).
    ///
    /// A press adds 1 (mod K) to every cell of its pattern centred on the
    /// pressed cell (--pattern: plus, neighbours, x, king or a stencil),
    /// clipped at the border or wrapped around (--wrap); pressing a cell j
    /// times counts as j presses. 2 colours and plus is Fliptile's and
    /// Extended Lights Out's game, answered by the same engine.
    Lights(Deferred<lights::LightsArgs>),
    /// Run a solution as the judge does, on every case, and say which
    /// cases it gets wrong and why.
    ///
    /// `boardbase check PUZZLE [OPTIONS] -- PROGRAM [ARGS...]`. Each run
    /// gets a judge input on stdin and its stdout is compared with the
    /// right answers token by token: flip sends each of the 65,536 boards
    /// in a run of its own, euler the 65,535 open positions in one run,
    /// carcassonne 600 generated boards (four categories, small and 12x12)
    /// in runs of 50, fliptile 1,000 generated boards (four categories up to
    /// 15x15, and 15x15) one a run, lightsout 2,032 puzzles in one run,
    /// lights (the family: --size RxC needed, with --colours, --wrap,
    /// --pattern, --goal as `cases lights`) 1,000 boards drawn as `cases
    /// lights` draws them, 100 a run.
    /// Flip and Euler of another size (--size RxC, or --table FILE): --sample
    /// boards of that size (1,000 by default), drawn as `cases --size`
    /// draws them; fliptile and carcassonne --size RxC: 200 (fliptile) or
    /// 50 (carcassonne) boards of that size a category.
    /// Exit status 0 when every run is accepted, 1 otherwise, 2 on usage
    /// errors or a PROGRAM that cannot be started.
    #[cfg(unix)]
    Check(Deferred<check::CheckArgs>),
    /// Write judge inputs (and with --answers their expected output):
    /// the same arguments give the same bytes (`gen`, the old name, is an
    /// alias to be removed in a later release).
    ///
    /// Not to be mixed up with `generate`, which builds a table file.
    #[command(name = "cases", visible_alias = "gen")]
    Cases(Deferred<cases::CasesArgs>),
    /// Solve a position of any two-player game of the catalogue (`boardbase
    /// games` lists them with their boards and options): its value for the
    /// player to move (win, lose or draw), the remoteness (plies to the end
    /// with perfect play: the winner hurries, the loser resists), and every
    /// move valued, best first.
    ///
    /// The position: --board ROWS (rows joined by `/`), --start, or
    /// positions read from FILE or standard input, each a line with its
    /// rows joined by `/` or R lines of the board; blank lines between
    /// them are skipped. Each game has its text: one line a row, top row
    /// first, `.` an empty cell, `X` and `O` the players' pieces (X moves
    /// first; the player to move follows from the counts), or Euler's `X`
    /// covered. A move is named by its cell, the column's letter and the
    /// row's number from the top (`a1` the top-left cell), or by its column
    /// where pieces fall. --format json: one object a position and line
    /// with `value`, `remoteness` and `moves` (each the `move`, and the
    /// `value` and `remoteness` of the position after it for the player to
    /// move there).
    Solve(Deferred<solve::SolveArgs>),
    /// Solve each puzzle's published sample and show it in pretty form.
    Demo,
    /// List every game answered, with the judges' problems on it and their
    /// limits (`--format json`: one JSON array).
    Games(Deferred<games::GamesArgs>),
    /// Write the 4x4 tables as files for other languages: `flip-4x4.bin`
    /// and `euler-4x4.bin` in DIR.
    ///
    /// Layout (version 3, memory-mappable): magic `BRDBASE\0`, version,
    /// header length, a bincode header (legacy config: fixed-width
    /// little-endian integers, u64 lengths) naming the puzzle, shape, file
    /// length and each column's name, bits per entry, entry count, offset,
    /// length, the CRC-32 of its block-CRC array, block length and the
    /// array's offset, the header's CRC-32, then each column 64-byte
    /// aligned, followed by the CRC-32 of each of its 4 KiB blocks. Each
    /// file is written to a temporary name and renamed.
    Export(Deferred<export::ExportArgs>),
    /// Make the table of a game on a board size and write it as a table
    /// file: `DIR/euler-RxC.bin`, `DIR/flip-RxC.bin`, `DIR/mnk-RxC-kK.bin`.
    ///
    /// Not to be mixed up with `cases`, which writes judge inputs.
    ///
    /// Euler boards up to 36 squares (full tables where they fit in
    /// --memory, win/loss only otherwise or with --wdl-only), Flip boards
    /// up to 25 cells, on every core. Every other game that `solve` answers
    /// (`boardbase games`), with its options (`--k`): the value and
    /// remoteness of every position, by retrograde analysis, in
    /// `DIR/GAME-RxC-kK.bin`, which `solve --tables DIR` then answers from.
    /// The memory the job needs is said first; over --memory (default: the
    /// memory available) it stops, exit status 1. The file is written to a
    /// temporary name and renamed when complete; on Ctrl-C the temporary
    /// file is removed. A progress bar shows on stderr when it is a terminal;
    /// the summary (positions, outcomes, time, peak memory, file size) goes
    /// to stdout.
    Generate(Deferred<generate::GenerateArgs>),
    /// Check table files: structure, CRCs and entries.
    ///
    /// Each FILE (version 3, or 2 or 1 from earlier releases): its
    /// structure, every CRC (each block's and each column's block-CRC
    /// array's; a version-2 file's column CRCs), and the entries: on 4x4 every entry
    /// against the built-in tables; on other shapes each entry against its
    /// neighbours by the rules (every position up to 2^20, a spot check of
    /// 2^20 above; every position with --all). A table of a game of the
    /// model: every entry against its moves by the game's rules. Exit status 0 when it is
    /// intact, 1 with the reason otherwise. A progress bar shows on stderr when it is a terminal.
    Verify(Deferred<export::VerifyArgs>),
    /// Compress table files: each rewritten as version 4 (a table by class
    /// stays version 5), its large columns compressed in blocks of 4 KiB
    /// (Zstandard, with a dictionary), each block decompressed alone when a
    /// probe reads it. Ctrl-C leaves the file being compressed as it was.
    ///
    /// Each FILE is replaced by its compressed form under the same name
    /// (written to a temporary name, renamed when complete), so that
    /// `--tables DIR` answers from it as before. Every block of the source
    /// is checked against its CRC as it is read. One line a file: its size
    /// before and after, and what each column takes of its entries' bytes.
    Compress(Deferred<compress::CompressArgs>),
    /// Serve the JSON API and the web explorer over HTTP until Ctrl-C or
    /// SIGTERM.
    ///
    /// `GET /api/v1/flip?board=bwwb/bbwb/bwwb/bwww`,
    /// `GET /api/v1/euler?board=XXX./XXX./.XXX/.XXX`,
    /// `POST /api/v1/carcassonne` (JSON or the judge's text),
    /// `GET /api/v1/sizes`, `GET /api/v1/health`; the explorer at `/`.
    #[cfg(feature = "serve")]
    Serve(Deferred<serve::ServeArgs>),
    /// Print the completion script of a shell (bash, zsh, fish,
    /// powershell, elvish): `source <(boardbase completions bash)`.
    Completions(Deferred<shell::CompletionsArgs>),
    /// Print the manual page (roff): `boardbase man | man -l -`.
    Man,
}

/// A `--tables DIR` that must be a directory: one that does not exist is
/// a usage error on every subcommand that takes it.
pub fn existing_dir(text: &str) -> Result<PathBuf, String> {
    let path = PathBuf::from(text);
    if path.is_dir() {
        Ok(path)
    } else {
        Err(format!("{text} is not a directory"))
    }
}

/// How answers are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Exactly the judge's output.
    #[default]
    Judge,
    /// The board drawn with its answer, for people.
    Pretty,
    /// One JSON object per case and line (JSON Lines).
    Json,
}

/// The puzzles `check` and `cases` know.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum PuzzleName {
    /// Flip Game (POJ 1753).
    #[value(alias = "poj1753")]
    Flip,
    /// Game of Euler (UVA 10536).
    #[value(alias = "uva10536")]
    Euler,
    /// Carcassonne (HDU 4064).
    #[value(alias = "hdu4064")]
    Carcassonne,
    /// Fliptile (POJ 3279).
    #[value(alias = "poj3279")]
    Fliptile,
    /// Extended Lights Out (POJ 1222, UVA 1560).
    #[value(aliases = ["poj1222", "uva1560"])]
    Lightsout,
    /// The Lights Out family (`boardbase lights solve`): K colours, a
    /// torus, any press pattern.
    Lights,
}

impl PuzzleName {
    /// The subcommand's name.
    pub fn name(self) -> &'static str {
        match self {
            PuzzleName::Flip => "flip",
            PuzzleName::Euler => "euler",
            PuzzleName::Carcassonne => "carcassonne",
            PuzzleName::Fliptile => "fliptile",
            PuzzleName::Lightsout => "lightsout",
            PuzzleName::Lights => "lights",
        }
    }
}

/// Runs the parsed command line.
pub fn run(cli: Cli) -> Result<(), Failure> {
    let mut out = Output::stdout();
    let result = match cli.command {
        Command::Flip(Deferred(args)) => flip::run(&args, &mut out),
        Command::Euler(Deferred(args)) => euler::run(&args, &mut out),
        Command::Carcassonne(Deferred(args)) => carcassonne::run(&args, &mut out),
        Command::Fliptile(Deferred(args)) => fliptile::fliptile(&args, &mut out),
        Command::Lightsout(Deferred(args)) => fliptile::lightsout(&args, &mut out),
        Command::Lights(Deferred(args)) => lights::run(&args, &mut out),
        #[cfg(unix)]
        Command::Check(Deferred(args)) => check::run(&args, &mut out),
        Command::Cases(Deferred(args)) => cases::run(&args, &mut out),
        Command::Demo => demo::run(&mut out),
        Command::Games(Deferred(args)) => games::run(&args, &mut out),
        Command::Solve(Deferred(args)) => solve::run(&args, &mut out),
        Command::Generate(Deferred(args)) => match generate::launcher() {
            // One job over the ranks an MPI launcher started.
            #[cfg(feature = "mpi")]
            Some((launcher, _)) => mpi::generate(&args, &mut out, launcher),
            launched => generate::run(&args, launched, &mut out),
        },
        Command::Export(Deferred(args)) => export::export(&args, &mut out),
        Command::Verify(Deferred(args)) => export::verify(&args, &mut out),
        Command::Compress(Deferred(args)) => compress::compress(&args, &mut out),
        #[cfg(feature = "serve")]
        Command::Serve(Deferred(args)) => serve::run(&args),
        Command::Completions(Deferred(args)) => shell::completions(&args, &mut out),
        Command::Man => shell::man(&mut out),
    };
    // Answers written before an error still reach the reader.
    let flushed = out.flush();
    result.and(flushed.map_err(Failure::from))
}

/// A whole number with its thousands grouped: `65536` as `65,536`.
pub use boardbase::report::thousands;

fn main() -> ExitCode {
    // No arguments: the command list of --help, as a usage error.
    if std::env::args_os().len() == 1 {
        use clap::CommandFactory;
        eprint!("{}", Cli::command().render_long_help());
        return ExitCode::from(2);
    }
    let args = Cli::parse();
    match run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => ExitCode::from(say(failure)),
    }
}
