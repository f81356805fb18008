//! Option groups shared by several subcommands: one name, one value name,
//! one default, one help text and one range check each (`--jobs`,
//! `--max-nullity`), the one way a `--board` that cannot be read is
//! reported, and the Game of Euler judge's input as both its 4×4 and its
//! `--size` paths write and read it (rows, case count).

use std::io::Read;

use boardbase::catalogue;
use boardbase::error::ParseError;
use boardbase::grid::{Alphabet, Expect, Rows};
use boardbase::input::{InputError, Scanner};
use boardbase::lights::MAX_NULLITY;
use boardbase::lights::family::{FamilyGoal, MAX_COLOURS, MIN_COLOURS, Pattern, Variant};
use boardbase::tablebase::Tablebase;
use boardbase::tables::shape::Shape;
use clap::{ArgMatches, Args, FromArgMatches};

use super::Failure;

/// The help of `--jobs`, the same on every subcommand that has workers
/// (a macro, for `concat!` where an old name is an alias).
macro_rules! jobs_help {
    () => {
        "Workers at once [default: the number of cores]"
    };
}
pub(crate) use jobs_help;

/// The help of `--jobs`, the same on every subcommand that has workers.
pub const JOBS_HELP: &str = jobs_help!();

/// The most workers `--jobs` takes.
pub const MAX_JOBS: u16 = 1024;

/// `--jobs N`: 1 to [`MAX_JOBS`] (0 is refused everywhere, with the same
/// message).
pub fn parse_jobs(text: &str) -> Result<u16, String> {
    match text.trim().parse::<u64>() {
        Ok(n) if (1..=u64::from(MAX_JOBS)).contains(&n) => Ok(n as u16),
        _ => Err(format!(
            "'{text}' is not a number of workers from 1 to {MAX_JOBS} (leave --jobs out for the number of cores)"
        )),
    }
}

/// The number of cores, the default of `--jobs`.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// `--jobs N` on the subcommands whose workers are a thread pool or
/// programs run at once.
#[derive(Debug, Args)]
pub struct JobsArgs {
    #[arg(long, value_name = "N", value_parser = parse_jobs, help = JOBS_HELP)]
    pub jobs: Option<u16>,
}

impl JobsArgs {
    /// The workers asked for, or the number of cores.
    pub fn count(&self) -> usize {
        self.jobs.map_or_else(cores, usize::from)
    }

    /// Bounds the thread pool the solvers count and search on (rayon's
    /// global pool) to `--jobs` workers; nothing when it is not given.
    pub fn limit_pool(&self) {
        if let Some(n) = self.jobs {
            // Fails only when the pool already runs (never, at start).
            let _ = rayon::ThreadPoolBuilder::new()
                .num_threads(usize::from(n))
                .build_global();
        }
    }
}

/// The help of `--max-nullity`, the same on every subcommand that has it.
pub const MAX_NULLITY_HELP: &str = "Search the press sets of boards whose nullity is up to K: \
the search looks at 2^nullity press sets; up to the default 24 a board takes at most tens of \
milliseconds, 64x64 (nullity 28) about a second, 39x39 (32) about 15 seconds. A board over the \
limit is an error";

/// `--max-nullity K` (0 to 64), the GF(2) solver's limit: `flip --size`,
/// `fliptile`, `lightsout`, and the server's Flip lookups.
#[derive(Debug, Args)]
pub struct NullityArgs {
    #[arg(long, value_name = "K", default_value_t = MAX_NULLITY as u8,
          value_parser = clap::value_parser!(u8).range(0..=64), help = MAX_NULLITY_HELP)]
    pub max_nullity: u8,
}

impl NullityArgs {
    /// The limit.
    pub fn get(&self) -> usize {
        usize::from(self.max_nullity)
    }

    /// A tablebase with no table directory that answers boards of the
    /// Lights Out family (and Flip by GF(2)) up to this limit.
    pub fn tablebase(&self) -> Tablebase {
        let mut tablebase = Tablebase::new();
        tablebase.set_max_nullity(self.get());
        tablebase
    }
}

/// A `--board` that cannot be read: a usage error (exit status 2) in the
/// argument parser's wording, with the column.
pub fn bad_board(text: &str, e: &ParseError) -> Failure {
    Failure::Usage(format!(
        "invalid value '{text}' for '--board <ROWS>': column {}: expected {}, found {}",
        e.column, e.expected, e.found
    ))
}

/// Reads a `--board` of rows separated by `/` in `alphabet`; when `shape`
/// is given, the board must have it (`why` says where the shape comes
/// from). Errors are usage errors with the column.
pub fn read_board(
    text: &str,
    alphabet: &Alphabet,
    shape: Option<Shape>,
    why: &str,
) -> Result<Rows, Failure> {
    let Some(shape) = shape else {
        return alphabet
            .parse_board(text, Expect::Any)
            .map_err(|e| bad_board(text, e.parse_error()));
    };
    // Read as a board of the shape asked, so that a bad cell is named
    // where it stands; a board that is whole but of another shape is said
    // to be so.
    alphabet
        .parse_board(text, Expect::Shape(shape))
        .map_err(|e| match alphabet.parse_board(text, Expect::Any) {
            Ok(rows) if rows.shape() != shape => Failure::Usage(format!(
                "--board {text}: a {} board, not {shape} ({why})",
                rows.shape()
            )),
            _ => bad_board(text, e.parse_error()),
        })
}

/// The board's rows as the Game of Euler judge's input writes them: a line
/// a row, the cells `clear`/`set` separated by `gap` (Fliptile and Lights
/// Out boards are written by `lights::write_judge_rows`).
pub fn rows_text(rows: &Rows, clear: char, set: char, gap: &str) -> String {
    let cols = rows.shape().cols();
    let mut text = String::new();
    for &row in rows.rows() {
        let cells: Vec<String> = (0..cols)
            .map(|c| if row >> c & 1 == 1 { set } else { clear }.to_string())
            .collect();
        text.push_str(&cells.join(gap));
        text.push('\n');
    }
    text
}

/// Reads the Game of Euler judge's case count, alone on its line (the 4×4
/// boards and `--size`'s alike).
pub fn read_count(scanner: &mut Scanner<Box<dyn Read>>) -> Result<u64, InputError> {
    let count = scanner.read_unsigned("a case count", u64::MAX)?;
    scanner.end_of_line("the end of the line after the case count")?;
    Ok(count)
}

/// `--goal G`'s help, the same on every subcommand that takes it.
macro_rules! goal_help {
    () => {
        "The goal: every cell this colour (0 to K-1), or `any` (the fewest presses over every colour, the least colour on a tie)"
    };
}
pub(crate) use goal_help;

/// The help of `--size`, the first words of every subcommand's.
macro_rules! size_help {
    () => {
        "Board size RxC (rows first), e.g. 5x5"
    };
}
pub(crate) use size_help;

/// The help of `--table`, the same on every subcommand that has it.
macro_rules! table_help {
    () => {
        "The table file to answer from (its puzzle and shape are read from it and checked)"
    };
}
pub(crate) use table_help;

/// The help of `--tables`, the same on every subcommand that has it.
macro_rules! tables_help {
    () => {
        "A directory to look for table files `euler-RxC.bin` / `flip-RxC.bin` in (repeatable; searched in order, before the directories of BOARDBASE_TABLES, colon-separated); one that does not exist is a usage error"
    };
}
pub(crate) use tables_help;

/// The help of `--seed`, the first words of every subcommand's.
macro_rules! seed_help {
    () => {
        "Seed of the random draws: the same arguments give the same bytes, always"
    };
}
pub(crate) use seed_help;

/// How every memory size is written.
macro_rules! memory_units {
    () => {
        "(K, M, G, T and KiB, MiB, GiB, TiB are powers of 1024; KB, MB, GB, TB powers of 1000; B bytes; a bare number is MiB)"
    };
}
pub(crate) use memory_units;

/// The options of a variant of the Lights Out family, shared by `lights
/// solve`, `lights info` and `cases lights`.
#[derive(Debug, Args)]
pub struct VariantArgs {
    /// Colours K: a cell holds 0 to K-1 and a press adds 1 mod K (2 to 16)
    #[arg(long, value_name = "K", default_value_t = 2,
          value_parser = clap::value_parser!(u8).range(i64::from(MIN_COLOURS)..=i64::from(MAX_COLOURS)))]
    pub colours: u8,
    /// Play on a torus: the pattern wraps around the edges instead of being
    /// clipped at the border
    #[arg(long)]
    pub wrap: bool,
    /// The cells a press changes: plus (the cell and its 4 neighbours),
    /// neighbours (only the 4), x (the cell and its 4 diagonal neighbours),
    /// king (all 9), or a stencil of odd height and width centred on the
    /// pressed cell, `#` for a changed cell (e.g. `.#./###/.#.`)
    #[arg(long, value_name = "P", default_value = "plus", value_parser = parse_pattern)]
    pub pattern: Pattern,
}

impl VariantArgs {
    /// A usage error unless `goal` is one of the variant's colours (or
    /// `any`).
    pub fn check_goal(&self, goal: FamilyGoal) -> Result<(), Failure> {
        let colours = self.colours;
        if let FamilyGoal::Colour(d) = goal
            && d >= colours
        {
            return Err(Failure::Usage(format!(
                "--goal {goal}: there are {colours} colours (0 to {})",
                colours - 1
            )));
        }
        Ok(())
    }

    /// The variant of `shape`.
    pub fn variant(&self, shape: Shape) -> Result<Variant, Failure> {
        Variant::of_shape(shape, self.colours)
            .map(|v| v.with_wrap(self.wrap).with_pattern(self.pattern.clone()))
            .map_err(|e| Failure::Usage(e.to_string()))
    }
}

/// `--pattern P`.
fn parse_pattern(text: &str) -> Result<Pattern, String> {
    text.parse()
        .map_err(|e: boardbase::lights::LightsError| e.to_string())
}

/// `--goal G`.
pub fn parse_goal(text: &str) -> Result<FamilyGoal, String> {
    text.parse()
        .map_err(|e: boardbase::lights::LightsError| e.to_string())
}

/// Whether [`Deferred`] arguments are added at once: for the man page and
/// the completion scripts, which describe every subcommand.
static EAGER: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Makes [`Deferred`] add its arguments at once from now on (see
/// [`EAGER`]).
pub fn eager_arguments() {
    EAGER.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// A subcommand's arguments, added to clap's command only when that
/// subcommand is the one run: building every subcommand's arguments was a
/// quarter of the instructions of a one-board query (the process runs for
/// about a millisecond, so start-up is most of it).
#[derive(Debug)]
pub struct Deferred<T>(pub T);

impl<T: clap::FromArgMatches> clap::FromArgMatches for Deferred<T> {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        T::from_arg_matches(matches).map(Deferred)
    }

    fn from_arg_matches_mut(matches: &mut clap::ArgMatches) -> Result<Self, clap::Error> {
        T::from_arg_matches_mut(matches).map(Deferred)
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        self.0.update_from_arg_matches(matches)
    }

    fn update_from_arg_matches_mut(
        &mut self,
        matches: &mut clap::ArgMatches,
    ) -> Result<(), clap::Error> {
        self.0.update_from_arg_matches_mut(matches)
    }
}

impl<T: Args> Args for Deferred<T> {
    fn augment_args(command: clap::Command) -> clap::Command {
        if EAGER.load(std::sync::atomic::Ordering::Relaxed) {
            T::augment_args(command)
        } else {
            command.defer(expand::<T>)
        }
    }

    fn augment_args_for_update(command: clap::Command) -> clap::Command {
        if EAGER.load(std::sync::atomic::Ordering::Relaxed) {
            T::augment_args_for_update(command)
        } else {
            command.defer(expand_for_update::<T>)
        }
    }

    fn group_id() -> Option<clap::Id> {
        T::group_id()
    }
}

/// Adds `T`'s arguments to a subcommand deferred by [`Deferred`], keeping
/// the subcommand's own help texts: clap's derive sets the variant's after
/// the arguments' (whose struct has a doc comment of its own), so a deferred
/// struct's would otherwise replace them.
fn expand<T: Args>(command: clap::Command) -> clap::Command {
    keep_about(command, T::augment_args)
}

/// [`expand`] for [`Args::augment_args_for_update`].
fn expand_for_update<T: Args>(command: clap::Command) -> clap::Command {
    keep_about(command, T::augment_args_for_update)
}

/// `augment(command)` with `command`'s about and long about kept.
fn keep_about(
    command: clap::Command,
    augment: fn(clap::Command) -> clap::Command,
) -> clap::Command {
    let about = command.get_about().cloned();
    let long_about = command.get_long_about().cloned();
    let mut command = augment(command);
    if let Some(about) = about {
        command = command.about(about);
    }
    if let Some(long_about) = long_about {
        command = command.long_about(long_about);
    }
    command
}

/// Every game's options (`--k`), each once, from the catalogue's models:
/// a new game's options appear here with no change to this file.
#[derive(Debug, Default)]
pub struct GameOptions(Vec<(&'static str, u64)>);

impl GameOptions {
    /// The options given, by name.
    pub fn given(&self) -> &[(&'static str, u64)] {
        &self.0
    }
}

fn option_names() -> Vec<&'static catalogue::GameOption> {
    let mut seen: Vec<&'static catalogue::GameOption> = Vec::new();
    for model in catalogue::MODELS {
        for option in model.options {
            if !seen.iter().any(|o| o.name == option.name) {
                seen.push(option);
            }
        }
    }
    seen
}

impl FromArgMatches for GameOptions {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let mut given = Vec::new();
        for option in option_names() {
            if let Some(&value) = matches.get_one::<u64>(option.name) {
                given.push((option.name, value));
            }
        }
        Ok(GameOptions(given))
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = GameOptions::from_arg_matches(matches)?;
        Ok(())
    }
}

impl Args for GameOptions {
    fn augment_args(mut command: clap::Command) -> clap::Command {
        for option in option_names() {
            // Each game's range and default: games share an option's name
            // and meaning, not its values.
            let per_game: Vec<String> = catalogue::MODELS
                .iter()
                .filter_map(|m| {
                    let o = m.options.iter().find(|o| o.name == option.name)?;
                    Some(format!(
                        "{}: {} to {}, default {}",
                        m.game, o.min, o.max, o.default
                    ))
                })
                .collect();
            command = command.arg(
                clap::Arg::new(option.name)
                    .long(option.name)
                    .value_name("N")
                    .value_parser(clap::value_parser!(u64))
                    .help(format!(
                        "{} ({})",
                        capitalized(option.help),
                        per_game.join("; ")
                    )),
            );
        }
        command
    }

    fn augment_args_for_update(command: clap::Command) -> clap::Command {
        GameOptions::augment_args(command)
    }
}

/// `text` with its first letter in capitals, as clap's help texts are.
fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}
