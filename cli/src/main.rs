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
mod demo;
mod euler;
mod export;
mod flip;
mod fliptile;
mod games;
mod generate;
mod lights;
#[cfg(feature = "mpi")]
mod mpi;
mod options;
mod pretty;
mod shell;
mod solve;
mod tables;

use std::fs::File;
use std::io::{self, BufWriter, IsTerminal, Read, StdoutLock, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use boardbase::error::Classify;
use boardbase::input::{InputError, Scanner};
use clap::{Args, Parser, Subcommand, ValueEnum};
use options::Deferred;

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
    /// carcassonne 600 generated boards (four families, small and 12x12)
    /// in runs of 50, fliptile 1,000 generated boards (four families up to
    /// 15x15, and 15x15) one a run, lightsout 2,032 puzzles in one run,
    /// lights (the family: --size RxC needed, with --colours, --wrap,
    /// --pattern, --goal as `cases lights`) 1,000 boards drawn as `cases
    /// lights` draws them, 100 a run.
    /// Flip and Euler of another size (--size RxC, or --table FILE): --sample
    /// boards of that size (1,000 by default), drawn as `cases --size`
    /// draws them; fliptile and carcassonne --size RxC: 200 (fliptile) or
    /// 50 (carcassonne) boards of that size a family.
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
    Cases(Deferred<cases::GenArgs>),
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
    /// Make the Euler or Flip table of another board size and write it as
    /// a table file: `DIR/euler-RxC.bin` or `DIR/flip-RxC.bin`.
    ///
    /// Not to be mixed up with `cases`, which writes judge inputs.
    ///
    /// Euler boards up to 36 squares (full tables where they fit in
    /// --memory, win/loss only otherwise or with --wdl-only), Flip boards
    /// up to 25 cells, on every core.
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
    /// 2^20 above; every position with --all). Exit status 0 when it is
    /// intact, 1 with the reason otherwise. A progress bar shows on stderr when it is a terminal.
    Verify(Deferred<export::VerifyArgs>),
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

/// Where a subcommand's cases come from.
#[derive(Debug, Args)]
pub struct InputArgs {
    /// Input file; standard input when absent or `-`.
    #[arg(value_name = "FILE")]
    file: Option<PathBuf>,
}

/// Why a run failed.
#[derive(Debug, thiserror::Error)]
pub enum Failure {
    /// Bad or unreadable input, after the earlier answers were written.
    #[error("{}", input_message(name, error))]
    Input {
        /// File name, `<stdin>` or the option the text came from.
        name: String,
        /// What went wrong where.
        error: InputError,
    },
    /// A failure with what to do about it, said on a line of its own after
    /// it (`hint: ...`), so that the error's line reads as it would alone.
    #[error("{failure}")]
    Hinted {
        /// What went wrong.
        failure: Box<Failure>,
        /// What to do about it.
        hint: &'static str,
    },
    /// The server could not start.
    #[cfg(feature = "serve")]
    #[error("{0}")]
    Serve(String),
    /// The input file could not be opened.
    #[error("{path}: {error}")]
    Open {
        /// The path given.
        path: String,
        /// Why it could not be opened.
        error: io::Error,
    },
    /// A table file is damaged or not a table file.
    #[error("{path}: {error}")]
    Table {
        /// The path given.
        path: String,
        /// What is wrong with it.
        error: boardbase::tablefile::TableError,
    },
    /// The answer layer failed: a table file, its memory, a table it does
    /// not hold, a damaged table (exit status 1; its questions it cannot
    /// answer are usage errors, see `From<tablebase::Error>`).
    #[error(transparent)]
    Tablebase(boardbase::tablebase::TablebaseError),
    /// A job that needs more memory than it may take, or could not get it.
    #[error("{0}")]
    Memory(String),
    /// `generate`: the job failed (the library's message).
    #[error("{0}")]
    Job(boardbase::generate::JobError),
    /// `generate` was interrupted by a signal: its message, without
    /// `error: `, and exit status 128 + the signal.
    #[error("{message}")]
    Interrupted {
        /// `interrupted: PATH not written ...`.
        message: String,
        /// The signal.
        signal: i32,
    },
    /// A file or directory could not be written.
    #[error("cannot write {path}: {error}")]
    Write {
        /// The path.
        path: String,
        /// Why it could not be written.
        error: io::Error,
    },
    /// A case that was not answered (a Carcassonne case past the DP's
    /// budget, a board past the search's limit, a board that does not fit
    /// the variant): where it starts, the library's message and its hint.
    #[error("{name}:{line}: case {case}: {error}{}", hinted(&**error))]
    Case {
        /// File name, `<stdin>` or `--board`.
        name: String,
        /// Line where the case starts.
        line: u64,
        /// The case number, from 1.
        case: u64,
        /// Why it was not answered.
        error: Box<dyn Classify + Send + Sync>,
    },
    /// Writing the answers failed.
    #[error("cannot write output: {0}")]
    Output(io::Error),
    /// Arguments that make no sense together, or a program `check` cannot
    /// start: exit status 2.
    #[error("{0}")]
    Usage(String),
    /// `check`: the judge would not accept the program (the report says
    /// why): exit status 1, nothing more on stderr.
    #[error("not accepted")]
    Rejected,
    /// `cases` could not generate the cases.
    #[error("{0}")]
    Gen(boardbase::cases::GenError),
    /// Another rank of an MPI job says why the job failed: this one exits
    /// with the status, saying nothing more.
    #[error("another rank of the job said why it failed")]
    Silent(u8),
    /// The reader of the output went away (e.g. `| head`): stop quietly.
    #[error("broken pipe")]
    BrokenPipe,
}

impl Failure {
    /// Writing the table file `path` failed: [`Failure::Write`] for an I/O
    /// error, [`Failure::Table`] otherwise.
    pub fn table_write(path: &str, error: boardbase::tablefile::TableError) -> Failure {
        match error {
            boardbase::tablefile::TableError::Io(error) => Failure::Write {
                path: path.to_owned(),
                error,
            },
            error => Failure::Table {
                path: path.to_owned(),
                error,
            },
        }
    }
}

impl From<boardbase::tablebase::Error> for Failure {
    /// The answer layer's errors, mapped once by their kind: the
    /// tablebase's failures exit 1; a question it does not answer (a size
    /// past the puzzle's limits, a nullity past --max-nullity, a variant
    /// past the search) is a usage error, exit 2, with its hint; a board's
    /// text that does not parse exits 1 with its line and column.
    fn from(error: boardbase::tablebase::Error) -> Failure {
        use boardbase::tablebase::Error;
        if let Some(&at) = error.parse_error() {
            return Failure::Input {
                name: "the board".to_owned(),
                error: InputError::Parse(at),
            };
        }
        match error {
            Error::Tablebase(e) => Failure::Tablebase(e),
            e => Failure::Usage(format!("{e}{}", hinted(&e))),
        }
    }
}

impl From<io::Error> for Failure {
    fn from(error: io::Error) -> Self {
        if error.kind() == io::ErrorKind::BrokenPipe {
            Failure::BrokenPipe
        } else {
            Failure::Output(error)
        }
    }
}

/// `name:line:column: expected ..., found ...` for syntax errors,
/// `name: read error: ...` for I/O errors.
fn input_message(name: &str, error: &InputError) -> String {
    match error {
        InputError::Parse(e) => format!("{name}:{e}"),
        InputError::Io(e) => format!("{name}: read error: {e}"),
    }
}

/// ` (HINT)` when the error has a hint, said after its message.
pub fn hinted(error: &dyn Classify) -> String {
    error
        .hint()
        .map(|hint| format!(" ({hint})"))
        .unwrap_or_default()
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
        #[cfg(feature = "serve")]
        Command::Serve(Deferred(args)) => serve::run(&args),
        Command::Completions(Deferred(args)) => shell::completions(&args, &mut out),
        Command::Man => shell::man(&mut out),
    };
    // Answers written before an error still reach the reader.
    let flushed = out.flush();
    result.and(flushed.map_err(Failure::from))
}

/// Buffered standard output that flushes after every case when a person is
/// watching (output to a terminal, or cases typed at one: see
/// [`Source::open`]), and only when full otherwise.
pub struct Output {
    w: BufWriter<StdoutLock<'static>>,
    eager: bool,
}

impl Output {
    fn stdout() -> Output {
        let stdout = io::stdout();
        let eager = stdout.is_terminal();
        Output {
            w: BufWriter::with_capacity(64 * 1024, stdout.lock()),
            eager,
        }
    }

    /// Whether every case's answer is flushed at once (a person is watching).
    pub fn is_eager(&self) -> bool {
        self.eager
    }

    /// Marks the end of one case's answer.
    pub fn end_case(&mut self) -> io::Result<()> {
        if self.eager { self.w.flush() } else { Ok(()) }
    }

    fn flush(&mut self) -> io::Result<()> {
        self.w.flush()
    }
}

impl Write for Output {
    #[inline]
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.w.write(buf)
    }

    #[inline]
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.w.write_all(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.w.flush()
    }
}

/// Judge answers gathered in a small buffer before they reach [`Output`]:
/// each answer is copied as a fixed-width padded chunk and the end advances
/// by its real length, so no branch depends on the (unpredictable) answer.
pub struct JudgeLines {
    buf: [u8; 4096],
    len: usize,
}

impl Default for JudgeLines {
    fn default() -> JudgeLines {
        JudgeLines::new()
    }
}

impl JudgeLines {
    /// The widest padded answer.
    const MAX_WIDTH: usize = 16;

    /// An empty buffer.
    pub fn new() -> JudgeLines {
        JudgeLines {
            buf: [0; 4096],
            len: 0,
        }
    }

    /// Adds one answer: the first `len` bytes of `padded`. Inlined into
    /// the answer loops (the library's among them), where a call a board
    /// cost a fifth of the time.
    #[inline(always)]
    pub fn push<const W: usize>(
        &mut self,
        out: &mut Output,
        padded: &[u8; W],
        len: usize,
    ) -> io::Result<()> {
        const { assert!(W <= Self::MAX_WIDTH) };
        self.buf[self.len..self.len + W].copy_from_slice(padded);
        self.len += len.min(W);
        if out.eager || self.len > self.buf.len() - Self::MAX_WIDTH {
            return self.hand_on(out);
        }
        Ok(())
    }

    /// [`JudgeLines::flush`] and the end of the cases so far, out of the
    /// answer loops.
    #[cold]
    #[inline(never)]
    fn hand_on(&mut self, out: &mut Output) -> io::Result<()> {
        self.flush(out)?;
        out.end_case()
    }

    /// Hands the gathered answers to `out`; call it before reporting an
    /// error and at the end.
    pub fn flush(&mut self, out: &mut Output) -> io::Result<()> {
        out.write_all(&self.buf[..self.len])?;
        self.len = 0;
        Ok(())
    }
}

/// An opened input with the name errors give it.
pub struct Source {
    /// `<stdin>` or the path as given.
    pub name: String,
    /// The scanner over it.
    pub scanner: Scanner<Box<dyn Read>>,
}

impl Source {
    /// Opens FILE, or standard input when it is absent or `-`. When the
    /// cases are typed at a terminal, `out` flushes after every answer.
    pub fn open(args: &InputArgs, out: &mut Output) -> Result<Source, Failure> {
        let (name, file) = open_input(args, out)?;
        let reader: Box<dyn Read> = match file {
            Some(f) => Box::new(f),
            None => Box::new(io::stdin().lock()),
        };
        Ok(Source {
            name,
            scanner: Scanner::new(reader),
        })
    }

    /// A source over `text`, named `name` in errors: a `--board` given on
    /// the command line, as the judge's input it stands for.
    pub fn from_text(name: &str, text: String) -> Source {
        Source {
            name: name.to_owned(),
            scanner: Scanner::new(Box::new(io::Cursor::new(text.into_bytes()))),
        }
    }

    /// Reads the count at the top of a judge input that starts with one
    /// (Euler, Carcassonne, Extended Lights Out) with `read`; an input of
    /// nothing but whitespace has no cases, as an empty input of the
    /// formats without a count (boards until the end) has none: 0, and no
    /// answer is written.
    pub fn read_count(
        &mut self,
        read: impl FnOnce(&mut Scanner<Box<dyn Read>>) -> Result<u64, InputError>,
    ) -> Result<u64, Failure> {
        let count = match self.scanner.at_end() {
            Ok(true) => Ok(0),
            Ok(false) => read(&mut self.scanner),
            Err(e) => Err(InputError::Io(e)),
        };
        count.map_err(|e| self.fail(e))
    }

    /// Wraps an error met while reading this source.
    pub fn fail(&self, error: InputError) -> Failure {
        Failure::Input {
            name: self.name.clone(),
            error,
        }
    }
}

/// Opens FILE (`Some`), or names standard input (`None`) when it is
/// absent or `-`, with the name errors give it. When the cases are typed at
/// a terminal, `out` flushes after every answer.
pub fn open_input(args: &InputArgs, out: &mut Output) -> Result<(String, Option<File>), Failure> {
    match &args.file {
        Some(path) if path.as_os_str() != "-" => {
            let name = path.display().to_string();
            match File::open(path) {
                Ok(f) => Ok((name, Some(f))),
                Err(error) => Err(Failure::Open { path: name, error }),
            }
        }
        _ => {
            out.eager |= io::stdin().is_terminal();
            Ok(("<stdin>".to_owned(), None))
        }
    }
}

/// Writes `value` as one line of JSON.
pub fn write_json_line(out: &mut Output, value: &impl serde::Serialize) -> Result<(), Failure> {
    serde_json::to_writer(&mut *out, value).map_err(|e| Failure::from(io::Error::from(e)))?;
    out.write_all(b"\n")?;
    Ok(())
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

/// Says why the command failed, on stderr (nothing for a closed pipe, a
/// rejected program or a failure said already), and returns its exit
/// status.
fn say(failure: Failure) -> u8 {
    match failure {
        Failure::Hinted { failure, hint } => {
            let code = say(*failure);
            eprintln!("hint: {hint}");
            code
        }
        Failure::BrokenPipe => 0,
        Failure::Rejected => 1,
        Failure::Silent(code) => code,
        Failure::Interrupted { message, signal } => {
            eprintln!("\n{message}");
            u8::try_from(128 + signal).unwrap_or(u8::MAX)
        }
        e @ Failure::Usage(_) => {
            eprintln!("error: {e}");
            2
        }
        e => {
            eprintln!("error: {e}");
            1
        }
    }
}
