//! The answer layer: one [`Tablebase`] answers every question of every
//! puzzle and board size, and every front end (the command line, the HTTP
//! server, the C library, Python) asks it.
//!
//! Where an answer comes from is decided here and nowhere else, in this
//! order:
//!
//! 1. 4×4: the tables embedded in the library ([`EmbeddedFlip`],
//!    [`EmbeddedEuler`]); no directory is searched.
//! 2. A table file `flip-RxC.bin` / `euler-RxC.bin` in the directories
//!    added ([`Tablebase::add_directory`], in order; the first file of a
//!    name wins), mapped ([`TableFlip`], [`TableEuler`]). A file that does
//!    not open, or holds another puzzle or shape, answers its error for
//!    its shape: it is never skipped for a later one.
//! 3. Flip of any other shape up to 64×64: the GF(2) solver
//!    ([`lights`]), exact up to nullity
//!    [`MAX_NULLITY`].
//! 4. Euler of a shape with no file and at most [`MAKE_MAX_CELLS`] squares:
//!    a table made in memory on first use, within a memory budget, the
//!    least recently used dropped first ([`Maker`]).
//! 5. Carcassonne: counted on request ([`Tablebase::carcassonne`]), since
//!    no table can hold every board.
//!
//! A lookup is the position's answer plus every move valued, best first:
//! typed ([`FlipLookup`], [`EulerLookup`], serde-serialisable) or as the
//! same JSON written by hand for speed ([`flip_json`], [`euler_json`]).
//!
//! ```
//! use boardbase::tablebase::{EulerLookup, Tablebase};
//! use boardbase::tables::shape::Shape;
//!
//! let tablebase = Tablebase::new();
//! // The judge's second sample: the player to move wins, 4 moves before
//! // the board is full, by covering the square marked `o`.
//! //
//! //   X X X X        X X X X
//! //   . . . X        . . o X
//! //   X X . X        X X . X
//! //   X X . X        X X . X
//! let lookup: EulerLookup = tablebase.euler_lookup(Shape::SQUARE4, 0b1011_1011_1000_1111)?;
//! assert_eq!(lookup.answer.answer, "WINNING");
//! assert_eq!(lookup.answer.moves_left, Some(4));
//! assert_eq!(lookup.moves[0].cells, [[1, 2]]);
//!
//! // A 3×4 Euler board has no table file here: its table is made in
//! // memory (milliseconds) on first use.
//! //   . . . .
//! //   . . . .     the empty 3×4 board is lost for the player to move
//! //   . . . .
//! let shape = Shape::new(3, 4).unwrap();
//! let lookup = tablebase.euler_lookup(shape, 0)?;
//! assert_eq!(lookup.answer.answer, "LOSING");
//!
//! // Flip on 5×5 by GF(2): the classic Lights Out board, every press valued.
//! let lookup = tablebase.flip_lookup(Shape::new(5, 5).unwrap(), 1)?;
//! assert_eq!(lookup.moves.len(), 25);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod answers;
mod carcassonne;
mod error;
mod find;
mod json;
mod lights_ask;
mod lookup;
mod made;
mod sizes;
mod solve;
mod source;
mod stream;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use std::time::Instant;

use boardbase_tables::shape::{MAX_SIDE, Shape};

pub use answers::{EulerAnswers, FlipAnswers, FlipView};
pub use carcassonne::{CountOptions, Counted};
pub use error::Error;
pub use find::{
    Loaded, Missing, NotMade, OptionNames, Origin, TABLES_ENV, parse_env, parse_file_name,
};
pub use lights_ask::{LightsQuestion, LightsReply, LightsTowards};
pub use lookup::{
    EulerLookup, EulerMoveValue, FlipLookup, FlipMove, FliptileLookup, euler_json, euler_lookup,
    flip_json, flip_lights_json, flip_lights_json_within, flip_lights_lookup,
    flip_lights_lookup_within, flip_lookup, fliptile_lookup,
};
pub use made::{
    Begin, DEFAULT_MAKE_MEMORY, MAKE_MAX_CELLS, Made, MadeInfo, MakeEvent, MakeJob, Maker, Pending,
};
pub use sizes::{Gf2Range, MadeRange, SizeEntry, Sizes};
pub use solve::{Query, Solution, SolvedMove};
pub use source::{
    EmbeddedEuler, EmbeddedFlip, EulerMoves, EulerSource, FlipSource, MoveTexts, Play, TableEuler,
    TableFlip,
};
pub use stream::{ANOTHER_BOARD, LINE, StreamError};

use crate::lights::family::{
    ColourGrid, FamilyAnswer, FamilyGoal, FamilySolver, Variant, VariantInfo,
};
use crate::lights::{self, Grid, LightsError, MAX_NULLITY, Solver};
use crate::tablefile::{Puzzle, Table, TableError};

/// A table file found in the directories: opened, or the reason it could
/// not be.
pub enum FileEntry<S> {
    /// Opened and checked.
    Ready {
        /// The answers.
        source: Arc<S>,
        /// The file.
        path: PathBuf,
    },
    /// Damaged or mislabelled: the shape's lookups answer this error.
    Broken {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        error: Arc<Error>,
    },
}

/// What answers a Flip board of some shape.
pub enum FlipFrom {
    /// A table (embedded or file).
    Table(Arc<dyn FlipSource>),
    /// The GF(2) solver.
    Lights(&'static Solver),
}

/// Version-2 files up to this size (256 MiB) have their column CRCs
/// checked when they are opened to answer ([`open_as`], the [`Tablebase`]):
/// reading them costs a few tenths of a second at most, and a damaged file
/// is refused before it gives a wrong answer. Larger version-2 files (Euler
/// 6×6 is 8 GiB) are mapped without reading them; `boardbase verify` checks
/// them. Version-3 files are never read whole at open: each block's CRC is
/// checked by the first probe that reads the block, which refuses a damaged
/// one.
pub const CHECK_AT_OPEN_MAX_BYTES: u64 = 256 << 20;

/// Opens the table file at `path` and checks that it is `puzzle`'s, and of
/// `shape` when one is given (`None` takes the file's shape), and for a
/// version-2 file of at most [`CHECK_AT_OPEN_MAX_BYTES`] its column CRCs:
/// what `--table FILE` does. A version-3 file's blocks are checked as the
/// probes first read them.
pub fn open_as(path: &Path, puzzle: Puzzle, shape: Option<Shape>) -> Result<Loaded, Error> {
    let start = Instant::now();
    let table = Table::open(path).map_err(|error| Error::Open {
        path: path.to_owned(),
        error,
    })?;
    // Version 3 checks each block at its first probe; version 1 checked its
    // CRC when it was read.
    if table.version() == 2 && table.file_len() <= CHECK_AT_OPEN_MAX_BYTES {
        table
            .verify_crcs(&mut |_| {})
            .map_err(|error| Error::Open {
                path: path.to_owned(),
                error,
            })?;
    }
    if table.puzzle() != puzzle || shape.is_some_and(|s| s != table.shape()) {
        return Err(Error::Mismatch {
            path: path.to_owned(),
            puzzle,
            shape: shape.unwrap_or(table.shape()),
            found_puzzle: table.puzzle(),
            found_shape: table.shape(),
        });
    }
    Ok(Loaded::new(
        Arc::new(table),
        Origin::File(path.to_owned()),
        start.elapsed(),
    ))
}

/// The answer layer: every puzzle, every board size, from the embedded
/// tables, table files, tables made in memory and the GF(2) solver (see
/// the [module docs](self) for the order). Shared by threads: every method
/// takes `&self` but the set-up ones.
pub struct Tablebase {
    /// The directories searched, in order.
    dirs: Vec<PathBuf>,
    embedded_flip: Arc<dyn FlipSource>,
    embedded_euler: Arc<dyn EulerSource>,
    flip_files: BTreeMap<Shape, Lazy<TableFlip>>,
    euler_files: BTreeMap<Shape, Lazy<TableEuler>>,
    /// The 4×4 files found, which the embedded tables answer instead.
    unused: Vec<PathBuf>,
    maker: Arc<Maker>,
    /// Table files given one by one ([`Tablebase::add_file`]), searched
    /// before the directories.
    files: Vec<(Puzzle, Shape, PathBuf)>,
    /// The largest nullity the GF(2) solver searches for Flip, and the
    /// largest search of the Lights Out family (2^k press vectors).
    max_nullity: usize,
    /// The one table file that answers every question of its puzzle
    /// ([`Tablebase::set_table`]), before the embedded tables.
    table: Option<PathBuf>,
    /// The games of the model solved in memory ([`Tablebase::solve`]).
    solutions: solve::Solutions,
}

/// [`Tablebase::fliptile`]'s answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fliptile {
    /// The fewest presses and the least such set, `None` when the colour
    /// cannot be reached.
    pub answer: Option<lights::Answer>,
    /// The shape's nullity: `2^nullity` press sets reach a reachable board.
    pub nullity: usize,
}

/// A table file found in the directories, opened on first use (a lookup
/// of its shape, or [`Tablebase::open_all`]).
struct Lazy<S> {
    path: PathBuf,
    entry: OnceLock<FileEntry<S>>,
}

impl<S> Lazy<S> {
    fn new(path: PathBuf) -> Lazy<S> {
        Lazy {
            path,
            entry: OnceLock::new(),
        }
    }
}

impl Default for Tablebase {
    fn default() -> Tablebase {
        Tablebase::new()
    }
}

impl std::fmt::Debug for Tablebase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tablebase")
            .field("dirs", &self.dirs)
            .field("flip_files", &self.flip_files.keys().collect::<Vec<_>>())
            .field("euler_files", &self.euler_files.keys().collect::<Vec<_>>())
            .field("make_memory", &self.maker.budget())
            .finish()
    }
}

impl Tablebase {
    /// The embedded 4×4 tables, the GF(2) solver, and Euler tables made in
    /// memory within [`DEFAULT_MAKE_MEMORY`]; no directory yet.
    pub fn new() -> Tablebase {
        Tablebase {
            dirs: Vec::new(),
            embedded_flip: Arc::new(EmbeddedFlip::new()),
            embedded_euler: Arc::new(EmbeddedEuler::new()),
            flip_files: BTreeMap::new(),
            euler_files: BTreeMap::new(),
            unused: Vec::new(),
            maker: Arc::new(Maker::new(DEFAULT_MAKE_MEMORY)),
            files: Vec::new(),
            max_nullity: MAX_NULLITY,
            table: None,
            solutions: solve::Solutions::default(),
        }
    }

    /// Answers Flip boards by GF(2) on shapes of nullity up to `k` (by
    /// default [`MAX_NULLITY`]; the search looks at `2^k` press sets).
    pub fn set_max_nullity(&mut self, k: usize) {
        self.max_nullity = k;
    }

    /// The largest nullity searched for Flip by GF(2).
    pub fn max_nullity(&self) -> usize {
        self.max_nullity
    }

    /// Adds one table file, searched before the directories (the first
    /// file of a puzzle and shape wins). Its header is read now, for its
    /// puzzle and shape; the file is opened to answer (its CRCs checked)
    /// as a directory's files are.
    pub fn add_file(&mut self, path: impl AsRef<Path>) -> Result<(Puzzle, Shape), Error> {
        let path = path.as_ref();
        let table = Table::open(path).map_err(|error| Error::Open {
            path: path.to_owned(),
            error,
        })?;
        let (puzzle, shape) = (table.puzzle(), table.shape());
        self.files.push((puzzle, shape, path.to_owned()));
        self.reopen();
        Ok((puzzle, shape))
    }

    /// Answers [`Tablebase::flip_answers`] and [`Tablebase::euler_answers`]
    /// of the puzzle of the table file at `path` from it alone (`--table
    /// FILE`), before the embedded tables and the directories: a question
    /// of another shape or puzzle answers [`Error::Mismatch`], and
    /// nothing else is tried. The file is opened, and checked as
    /// [`open_as`] checks it, when asked.
    pub fn set_table(&mut self, path: impl Into<PathBuf>) {
        self.table = Some(path.into());
    }

    /// The table file of [`Tablebase::set_table`] opened as `puzzle`'s,
    /// checked against `shape` (`None`: the file's own shape).
    fn set_table_of(&self, puzzle: Puzzle, shape: Option<Shape>) -> Option<Result<Loaded, Error>> {
        let path = self.table.as_deref()?;
        Some(open_as(path, puzzle, shape))
    }

    /// The shape of `puzzle`'s boards when the question gives none: that
    /// of the table file of [`Tablebase::set_table`], else 4×4.
    pub fn default_shape(&self, puzzle: Puzzle) -> Result<Shape, Error> {
        let Some(path) = self.table.as_deref() else {
            return Ok(Shape::SQUARE4);
        };
        // The header alone: the file is checked when it answers.
        let table = Table::open(path).map_err(|error| Error::Open {
            path: path.to_owned(),
            error,
        })?;
        if table.puzzle() != puzzle {
            return Err(Error::Mismatch {
                path: path.to_owned(),
                puzzle,
                shape: table.shape(),
                found_puzzle: table.puzzle(),
                found_shape: table.shape(),
            });
        }
        Ok(table.shape())
    }

    /// Makes Euler tables in memory within `bytes` (0: none are made),
    /// with `maker`'s log. Call before the first lookup: the tables made
    /// before are dropped.
    pub fn set_maker(&mut self, maker: Maker) {
        self.maker = Arc::new(maker);
    }

    /// Makes Euler tables in memory within `bytes` (0: none are made).
    /// Call before the first lookup: the tables made before are dropped.
    pub fn set_make_memory(&mut self, bytes: u64) {
        self.set_maker(Maker::new(bytes));
    }

    /// Adds a directory to look for table files in, after those added
    /// before; its files are opened (mapped, their headers checked, and
    /// the column CRCs of version-2 files up to [`CHECK_AT_OPEN_MAX_BYTES`];
    /// a version-3 file's blocks are checked as probes first read them)
    /// when their shape is first asked for, or by [`Tablebase::open_all`].
    /// Returns the number of table files named
    /// `flip-RxC.bin` / `euler-RxC.bin` in it. A directory that cannot be
    /// read is an error, but stays in the list of directories searched
    /// (which the errors for missing tables name), holding no files.
    pub fn add_directory(&mut self, dir: impl AsRef<Path>) -> std::io::Result<usize> {
        let dir = dir.as_ref();
        self.dirs.push(dir.to_owned());
        let entries = std::fs::read_dir(dir);
        self.reopen();
        let count = entries?
            .filter_map(Result::ok)
            .filter(|e| {
                e.file_name()
                    .to_str()
                    .and_then(parse_file_name)
                    .is_some_and(|_| e.path().is_file())
            })
            .count();
        Ok(count)
    }

    /// Adds the directories of [`TABLES_ENV`] (`BOARDBASE_TABLES`,
    /// colon-separated), in order, as [`Tablebase::add_directory`] does;
    /// one that cannot be read holds no files.
    pub fn add_env_directories(&mut self) {
        for dir in parse_env(std::env::var_os(TABLES_ENV)) {
            let _ = self.add_directory(dir);
        }
    }

    /// The directories searched, in order.
    pub fn dirs(&self) -> &[PathBuf] {
        &self.dirs
    }

    /// Opens every table file found now (a server does, to say what it
    /// answers before the first request), and says in one line per file,
    /// sorted by puzzle and shape, what it answers or why it is not used.
    pub fn open_all(&self) -> Vec<String> {
        let mut lines: Vec<(Puzzle, Shape, String)> = self
            .unused
            .iter()
            .filter_map(|path| {
                let name = path.file_name()?.to_str()?;
                let (puzzle, shape) = parse_file_name(name)?;
                let line = format!(
                    "{}: not used (4x4 is answered by the embedded tables)",
                    path.display()
                );
                Some((puzzle, shape, line))
            })
            .collect();
        for &shape in self.flip_files.keys() {
            lines.extend(
                self.describe(Puzzle::Flip, shape)
                    .map(|l| (Puzzle::Flip, shape, l)),
            );
        }
        for &shape in self.euler_files.keys() {
            lines.extend(
                self.describe(Puzzle::Euler, shape)
                    .map(|l| (Puzzle::Euler, shape, l)),
            );
        }
        lines.sort_by_key(|l| (l.0, l.1));
        lines.into_iter().map(|(_, _, line)| line).collect()
    }

    /// Every table file in the directories, by its name (the first of a
    /// name wins), sorted by puzzle and shape. The files are not opened.
    pub fn list(&self) -> Vec<(Puzzle, Shape, PathBuf)> {
        let mut found: Vec<(Puzzle, Shape, PathBuf)> = Vec::new();
        for entry in &self.files {
            if !found.iter().any(|f| f.0 == entry.0 && f.1 == entry.1) {
                found.push(entry.clone());
            }
        }
        for dir in &self.dirs {
            let Ok(entries) = std::fs::read_dir(dir) else {
                continue;
            };
            let mut here: Vec<(Puzzle, Shape, PathBuf)> = entries
                .filter_map(Result::ok)
                .filter_map(|e| {
                    let name = e.file_name().into_string().ok()?;
                    let (puzzle, shape) = parse_file_name(&name)?;
                    e.path().is_file().then(|| (puzzle, shape, e.path()))
                })
                .collect();
            here.sort();
            for entry in here {
                if !found.iter().any(|f| f.0 == entry.0 && f.1 == entry.1) {
                    found.push(entry);
                }
            }
        }
        found.sort();
        found
    }

    /// Lists the table files of the directories again (none is opened).
    fn reopen(&mut self) {
        self.flip_files.clear();
        self.euler_files.clear();
        self.unused.clear();
        for (puzzle, shape, path) in self.list() {
            if shape == Shape::SQUARE4 {
                self.unused.push(path);
                continue;
            }
            match puzzle {
                Puzzle::Flip => {
                    self.flip_files.insert(shape, Lazy::new(path));
                }
                Puzzle::Euler => {
                    self.euler_files.insert(shape, Lazy::new(path));
                }
            }
        }
    }

    /// The Flip file of `shape`, opened now if it was not.
    fn flip_file(&self, shape: Shape) -> Option<&FileEntry<TableFlip>> {
        let lazy = self.flip_files.get(&shape)?;
        Some(
            lazy.entry
                .get_or_init(|| match open_as(&lazy.path, Puzzle::Flip, Some(shape)) {
                    Ok(loaded) => FileEntry::Ready {
                        source: Arc::new(TableFlip::new(loaded.into_table())),
                        path: lazy.path.clone(),
                    },
                    Err(e) => FileEntry::Broken {
                        path: lazy.path.clone(),
                        error: Arc::new(e),
                    },
                }),
        )
    }

    /// The Euler file of `shape`, opened now if it was not.
    fn euler_file(&self, shape: Shape) -> Option<&FileEntry<TableEuler>> {
        let lazy = self.euler_files.get(&shape)?;
        Some(lazy.entry.get_or_init(|| {
            let path = &lazy.path;
            let broken = |error| FileEntry::Broken {
                path: path.clone(),
                error,
            };
            match open_as(path, Puzzle::Euler, Some(shape)) {
                Ok(loaded) => match TableEuler::new(loaded.into_table()) {
                    Ok(source) => FileEntry::Ready {
                        source: Arc::new(source),
                        path: path.clone(),
                    },
                    Err(error) => broken(Arc::new(Error::Probe {
                        origin: Origin::File(path.clone()),
                        error,
                    })),
                },
                Err(e) => broken(Arc::new(e)),
            }
        }))
    }

    /// One line about the file of `puzzle` on `shape`.
    fn describe(&self, puzzle: Puzzle, shape: Shape) -> Option<String> {
        let (path, error, wdl) = match puzzle {
            Puzzle::Flip => match self.flip_file(shape)? {
                FileEntry::Ready { path, .. } => (path, None, false),
                FileEntry::Broken { path, error } => (path, Some(error), false),
            },
            Puzzle::Euler => match self.euler_file(shape)? {
                FileEntry::Ready { path, source } => (path, None, source.is_wdl_only()),
                FileEntry::Broken { path, error } => (path, Some(error), false),
            },
        };
        Some(match error {
            Some(error) => format!("{error} (not used: its lookups answer 422)"),
            None => format!(
                "{}: {puzzle} {shape}{}",
                path.display(),
                if wdl { " (win/loss only)" } else { "" }
            ),
        })
    }

    /// The maker of Euler tables in memory.
    pub fn maker(&self) -> &Arc<Maker> {
        &self.maker
    }

    /// What answers Flip boards of `shape`, for a front end that looks up
    /// one board at a time and values every press ([`FlipSource`]): the
    /// embedded 4×4 table, else a file in the directories, else the GF(2)
    /// solver when the shape's nullity is within
    /// [`Tablebase::max_nullity`] ([`Error::Lights`] otherwise).
    pub fn flip(&self, shape: Shape) -> Result<FlipFrom, Error> {
        if shape == Shape::SQUARE4 {
            return Ok(FlipFrom::Table(self.embedded_flip.clone()));
        }
        match self.flip_file(shape) {
            Some(FileEntry::Ready { source, .. }) => Ok(FlipFrom::Table(source.clone())),
            Some(FileEntry::Broken { path, error }) => {
                Err(self.unusable(Puzzle::Flip, shape, path, error))
            }
            None => Ok(FlipFrom::Lights(self.flip_solver(shape)?)),
        }
    }

    /// The GF(2) solver of `shape`, when its nullity is within
    /// [`Tablebase::max_nullity`]: past it, no answer is proven minimal.
    fn flip_solver(&self, shape: Shape) -> Result<&'static Solver, Error> {
        let solver = Solver::cached(shape);
        if solver.nullity() > self.max_nullity {
            return Err(LightsError::NullityTooLarge {
                shape,
                nullity: solver.nullity(),
                max: self.max_nullity,
            }
            .into());
        }
        Ok(solver)
    }

    /// The error of a table file that cannot be used.
    fn unusable(&self, puzzle: Puzzle, shape: Shape, path: &Path, error: &Arc<Error>) -> Error {
        Error::Unusable {
            puzzle,
            shape,
            path: path.to_owned(),
            error: error.clone(),
            command: self.generate_command(puzzle, shape),
        }
    }

    /// What answers Euler positions of `shape`, for a front end that looks
    /// up one position at a time and values every move ([`EulerSource`]):
    /// `Some` a table at hand (embedded, a file, or made in memory
    /// before), `None` one to make in memory first ([`Tablebase::maker`]
    /// makes it, or [`Tablebase::euler_made`] on this thread). A table
    /// neither found nor made here is [`Error::Missing`].
    pub fn euler(&self, shape: Shape) -> Result<Option<Arc<dyn EulerSource>>, Error> {
        if shape == Shape::SQUARE4 {
            return Ok(Some(self.embedded_euler.clone()));
        }
        Puzzle::Euler.check_cells(shape)?;
        match self.euler_file(shape) {
            Some(FileEntry::Ready { source, .. }) => Ok(Some(source.clone())),
            Some(FileEntry::Broken { path, error }) => {
                Err(self.unusable(Puzzle::Euler, shape, path, error))
            }
            // A table made before: without asking again whether it would
            // be made (which plans the generator's memory).
            None => match self.maker.ready(shape) {
                Some(made) => Ok(Some(made as Arc<dyn EulerSource>)),
                None if self.maker.would_make(shape) => Ok(None),
                None => Err(self.missing(Puzzle::Euler, shape).into()),
            },
        }
    }

    /// [`Tablebase::euler`], the table made in memory now on this thread
    /// if need be (`progress` hears of the generator's phases).
    pub fn euler_made<F: Fn(crate::generate::Progress) + Sync>(
        &self,
        shape: Shape,
        progress: F,
    ) -> Result<Arc<dyn EulerSource>, Error> {
        match self.euler(shape)? {
            Some(source) => Ok(source),
            None => Ok(self
                .maker
                .get(self.missing(Puzzle::Euler, shape), progress)?
                as Arc<dyn EulerSource>),
        }
    }

    /// The Euler table of `shape` made in memory, for a caller that makes
    /// it on a thread of its own and waits for it as it likes (the
    /// server): in memory already, being made (a [`Pending`]), or to be
    /// made by this caller ([`Begin::Start`]: its memory reserved now,
    /// evicting the least recently used tables). Not made here (too many
    /// squares, over the budget) is [`Error::Missing`]; no room while
    /// other tables are made, [`Error::Busy`].
    pub fn begin_made(&self, shape: Shape) -> Result<Begin, Error> {
        self.maker.begin(self.missing(Puzzle::Euler, shape))
    }

    /// The Flip table of `shape`: the embedded one for 4×4, else the file
    /// of its name in the directories; `None` when there is none (the
    /// GF(2) solver answers).
    fn flip_table(&self, shape: Shape) -> Result<Option<Loaded>, Error> {
        let start = Instant::now();
        if shape == Shape::SQUARE4 {
            return Ok(Some(Loaded::embedded(Puzzle::Flip)));
        }
        match self.flip_file(shape) {
            Some(FileEntry::Ready { source, path }) => Ok(Some(Loaded::new(
                source.table().clone(),
                Origin::File(path.clone()),
                start.elapsed(),
            ))),
            Some(FileEntry::Broken { path, error }) => {
                Err(self.unusable(Puzzle::Flip, shape, path, error))
            }
            None => Ok(None),
        }
    }

    /// The Euler table of `shape`: the embedded one for 4×4, else the file
    /// of its name in the directories, else one made in memory now, on
    /// this thread (`progress` hears of the generator's phases), when the
    /// shape is small enough and fits the memory budget.
    fn euler_table<F: Fn(crate::generate::Progress) + Sync>(
        &self,
        shape: Shape,
        progress: F,
    ) -> Result<Loaded, Error> {
        Puzzle::Euler.check_cells(shape)?;
        let start = Instant::now();
        if shape == Shape::SQUARE4 {
            return Ok(Loaded::embedded(Puzzle::Euler));
        }
        match self.euler_file(shape) {
            Some(FileEntry::Ready { source, path }) => Ok(Loaded::new(
                source.table().clone(),
                Origin::File(path.clone()),
                start.elapsed(),
            )),
            Some(FileEntry::Broken { path, error }) => {
                Err(self.unusable(Puzzle::Euler, shape, path, error))
            }
            None if self.maker.would_make(shape) => {
                let made = self
                    .maker
                    .get(self.missing(Puzzle::Euler, shape), progress)?;
                Ok(Loaded::new(
                    made.table().clone(),
                    Origin::Made,
                    start.elapsed(),
                ))
            }
            None => Err(self.missing(Puzzle::Euler, shape).into()),
        }
    }

    /// What answers Flip boards of `shape`, for a front end that answers
    /// many: the table file of [`Tablebase::set_table`], else the
    /// embedded 4×4 table, else a file in the directories, else the GF(2)
    /// solver when the shape's nullity is within
    /// [`Tablebase::max_nullity`] ([`Error::Lights`] otherwise: no
    /// answer past it is proven minimal).
    ///
    /// ```
    /// use boardbase::lights::Grid;
    /// use boardbase::tables::shape::Shape;
    /// use boardbase::tablebase::Tablebase;
    ///
    /// // The 5×5 board with the centre cell black: by GF(2).
    /// let answers = Tablebase::new().flip_answers(Shape::new(5, 5).unwrap())?;
    /// assert!(answers.table().is_none());
    /// let board: Grid = "wwwww/wwwww/wwbww/wwwww/wwwww".parse()?;
    /// assert_eq!(answers.rounds(&board)?, Some(answers.answer(1, &board)?.rounds.unwrap().into()));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn flip_answers(&self, shape: Shape) -> Result<FlipAnswers, Error> {
        let table = match self.set_table_of(Puzzle::Flip, Some(shape)) {
            Some(loaded) => Some(loaded?),
            None => self.flip_table(shape)?,
        };
        if table.is_none() {
            self.flip_solver(shape)?;
        }
        Ok(FlipAnswers::new(shape, table, self.max_nullity))
    }

    /// The Euler table that answers positions of `shape`: the table file
    /// of [`Tablebase::set_table`], else the embedded 4×4 table, else a
    /// file in the directories, else one made in memory now, on this
    /// thread (`progress` hears of the generator's phases). A shape past
    /// Euler's 36 squares is [`Error::TooManyCells`]; a table
    /// neither found nor made is [`Error::Missing`], which gives
    /// the command that makes the file.
    pub fn euler_answers<F: Fn(crate::generate::Progress) + Sync>(
        &self,
        shape: Shape,
        progress: F,
    ) -> Result<Loaded, Error> {
        match self.set_table_of(Puzzle::Euler, Some(shape)) {
            Some(loaded) => loaded,
            None => self.euler_table(shape, progress),
        }
    }

    /// The fewest presses that make a board of the Lights Out family
    /// `goal`'s colour (`None`: no press vector does), the one place that
    /// picks the engine: the GF(2) solver for the classic game, the ring
    /// engine over Z_K otherwise ([`FamilySolver`]). The search visits at
    /// most `2^`[`Tablebase::max_nullity`] press vectors; a variant past
    /// it is [`Error::Lights`].
    ///
    /// ```
    /// use boardbase::lights::family::{ColourGrid, FamilyGoal, Variant};
    /// use boardbase::tables::shape::Shape;
    /// use boardbase::tablebase::Tablebase;
    ///
    /// // 3 colours on 2×2: pressing the top-left cell once makes this
    /// // board all 0 (a press adds 1 mod 3 to the cell and its neighbours).
    /// //   2 2        0 0
    /// //   2 0   ->   0 0
    /// let variant = Variant::of_shape(Shape::new(2, 2).unwrap(), 3)?;
    /// let board = ColourGrid::parse("22/20", 3)?;
    /// let answer = Tablebase::new().lights(&variant, &board, FamilyGoal::Colour(0))?.unwrap();
    /// assert_eq!(answer.rounds, 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn lights(
        &self,
        variant: &Variant,
        board: &ColourGrid,
        goal: FamilyGoal,
    ) -> Result<Option<FamilyAnswer>, Error> {
        Ok(FamilySolver::cached(variant).solve_within(board, goal, self.max_nullity)?)
    }

    /// [`Tablebase::lights`]'s answer with every press valued (the object
    /// of the server's `/api/v1/lights`).
    pub fn lights_lookup(
        &self,
        variant: &Variant,
        board: &ColourGrid,
        goal: FamilyGoal,
    ) -> Result<crate::report::LightsLookup, Error> {
        Ok(crate::report::LightsLookup::new(
            variant,
            board,
            goal,
            self.max_nullity,
        )?)
    }

    /// A board of the classic game (2 colours, the plus pattern, no wrap:
    /// Fliptile and Extended Lights Out) towards all `colour`: the fewest
    /// presses, the least such set in reading order, by GF(2) up to the
    /// nullity limit, with the shape's nullity.
    ///
    /// ```
    /// use boardbase::lights::{Colour, Grid};
    /// use boardbase::tablebase::Tablebase;
    ///
    /// // POJ 3279's sample: 4 flips, (1,0), (1,3), (2,0) and (2,3).
    /// //   1 0 0 1
    /// //   0 1 1 0
    /// //   0 1 1 0
    /// //   1 0 0 1
    /// let board: Grid = "1001/0110/0110/1001".parse()?;
    /// let solved = Tablebase::new().fliptile(&board, Colour::White)?;
    /// assert_eq!((solved.answer.map(|a| a.rounds), solved.nullity), (Some(4), 4));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn fliptile(&self, board: &Grid, colour: lights::Colour) -> Result<Fliptile, Error> {
        let solver = Solver::cached(board.shape());
        Ok(Fliptile {
            answer: solver.route_within(board, colour, self.max_nullity)?,
            nullity: solver.nullity(),
        })
    }

    /// Whether a board of `variant` is answered in microseconds: its press
    /// vectors to search are few (at most 2^`bits` a goal). The answer
    /// comes from the same place either way; a server uses this to choose
    /// the thread that asks.
    pub fn lights_is_quick(&self, variant: &Variant, bits: u32) -> bool {
        FamilySolver::cached(variant).quiet_count().bits() <= u64::from(bits)
    }

    /// The structure of a variant of the Lights Out family: its quiet
    /// patterns, its solvable boards, and the histogram of the fewest
    /// presses up to 2^25 boards.
    pub fn lights_info(&self, variant: &Variant) -> VariantInfo {
        FamilySolver::cached(variant).info()
    }

    /// The lookup of a Flip board of `shape` (`board`: cell (r, c) at bit
    /// `C·r + c`, set = black): its answer and every press valued, best
    /// first.
    pub fn flip_lookup(&self, shape: Shape, board: u64) -> Result<FlipLookup, Error> {
        if !shape.fits_u64() || board & !shape.full() != 0 {
            return Err(Error::OutsideShape(shape));
        }
        let grid = Grid::from_u64(shape, board).map_err(|_| Error::OutsideShape(shape))?;
        self.flip_grid_lookup(&grid)
    }

    /// [`Tablebase::flip_lookup`] of a board of any shape up to 64×64.
    pub fn flip_grid_lookup(&self, board: &Grid) -> Result<FlipLookup, Error> {
        let shape = board.shape();
        match self.flip(shape)? {
            FlipFrom::Table(source) => {
                let bits = board.to_u64().ok_or(Error::OutsideShape(shape))?;
                flip_lookup(&*source, bits).map_err(|e| self.damaged(Puzzle::Flip, shape, e))
            }
            FlipFrom::Lights(solver) => {
                Ok(flip_lights_lookup_within(solver, board, self.max_nullity)?)
            }
        }
    }

    /// The lookup of an Euler position of `shape` (bit set = covered): its
    /// answer and every legal move valued, best first. A table made in
    /// memory for it is made now, on this thread.
    pub fn euler_lookup(&self, shape: Shape, position: u64) -> Result<EulerLookup, Error> {
        if position & !shape.full() != 0 {
            return Err(Error::OutsideShape(shape));
        }
        let source = self.euler_made(shape, |_| {})?;
        euler_lookup(&*source, position).map_err(|e| self.damaged(Puzzle::Euler, shape, e))
    }

    /// The error of a table of `shape` that answered `error` for a board:
    /// it is damaged ([`Error::Probe`], with where it came from).
    /// For the sources of [`Tablebase::flip`], [`Tablebase::euler`] and
    /// [`Tablebase::euler_made`]: the file of [`Tablebase::set_table`] is
    /// not among them (its answers say their origin themselves).
    pub fn damaged(&self, puzzle: Puzzle, shape: Shape, error: TableError) -> Error {
        let origin = if shape == Shape::SQUARE4 {
            Origin::Embedded
        } else {
            let path = match puzzle {
                Puzzle::Flip => self.flip_files.get(&shape).map(|lazy| &lazy.path),
                Puzzle::Euler => self.euler_files.get(&shape).map(|lazy| &lazy.path),
            };
            path.map_or(Origin::Made, |path| Origin::File(path.clone()))
        };
        Error::Probe { origin, error }
    }

    /// Counts a Carcassonne board as `options` ask (the count modulo
    /// 1,000,000,007, and the exact count and a valid placement when
    /// asked), giving up when `stop` returns `true` (asked before each
    /// tile).
    ///
    /// ```
    /// use boardbase::carcassonne::Board;
    /// use boardbase::tablebase::{CountOptions, Tablebase};
    ///
    /// // One tile with a city on every side: any of its four turns fits.
    /// //   C
    /// // C   C
    /// //   C
    /// let board = Board::new(1, 1, vec!["CCCC".parse()?])?;
    /// let options = CountOptions { exact: true, witness: true, ..CountOptions::default() };
    /// let counted = Tablebase::new().carcassonne(&board, &options, || false)?;
    /// assert_eq!(counted.count, 4);
    /// assert_eq!(counted.witness, Some(Some(vec![0])));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn carcassonne(
        &self,
        board: &crate::carcassonne::Board,
        options: &CountOptions,
        stop: impl FnMut() -> bool,
    ) -> Result<Counted, crate::carcassonne::Error> {
        carcassonne::count(board, options, stop)
    }

    /// The `boardbase generate` command that makes the table of `puzzle`
    /// on `shape` where this tablebase looks for it.
    pub fn generate_command(&self, puzzle: Puzzle, shape: Shape) -> String {
        self.missing(puzzle, shape).command()
    }

    /// The error for a table this tablebase does not hold.
    pub fn missing(&self, puzzle: Puzzle, shape: Shape) -> Missing {
        Missing {
            puzzle,
            shape,
            searched: self.dirs.clone(),
            not_made: self.maker.not_made(puzzle, shape),
        }
    }

    /// The shapes answered, for a client to offer (the server's
    /// `/api/v1/sizes`).
    pub fn sizes(&self) -> Sizes {
        let embedded = || SizeEntry::new(Shape::SQUARE4, "embedded");
        let file = |shape: Shape, path: &PathBuf, error: Option<&Arc<Error>>| SizeEntry {
            file: Some(path.display().to_string()),
            error: error.map(|e| e.to_string()),
            ..SizeEntry::new(shape, "file")
        };
        let mut flip = vec![embedded()];
        for &shape in self.flip_files.keys() {
            let Some(entry) = self.flip_file(shape) else {
                continue;
            };
            flip.push(match entry {
                FileEntry::Ready { path, .. } => file(shape, path, None),
                FileEntry::Broken { path, error } => file(shape, path, Some(error)),
            });
        }
        let mut euler = vec![embedded()];
        for &shape in self.euler_files.keys() {
            let Some(entry) = self.euler_file(shape) else {
                continue;
            };
            euler.push(match entry {
                FileEntry::Ready { path, source } => SizeEntry {
                    wdl_only: Some(source.is_wdl_only()),
                    ..file(shape, path, None)
                },
                FileEntry::Broken { path, error } => file(shape, path, Some(error)),
            });
        }
        let info = self.maker.info();
        let mut made = Vec::new();
        for cells in 1..=self.maker.max_cells() {
            for rows in 1..=cells {
                if cells % rows != 0 {
                    continue;
                }
                let Some(shape) = Shape::new(rows, cells / rows) else {
                    continue;
                };
                if shape == Shape::SQUARE4
                    || self.euler_files.contains_key(&shape)
                    || !self.maker.would_make(shape)
                {
                    continue;
                }
                made.push(SizeEntry {
                    wdl_only: Some(false),
                    in_memory: Some(info.ready.contains(&shape)),
                    make_bytes: Some(Maker::needed(shape)),
                    ..SizeEntry::new(shape, "made on demand")
                });
            }
        }
        euler.extend(made);
        // The shapes past the default limit include every shape past a
        // higher one (a lower limit lists only those past the default).
        let beyond: Vec<String> = lights::PAST_MAX_NULLITY
            .iter()
            .filter_map(|&(r, c)| Shape::new(r, c))
            .filter(|&s| self.max_nullity <= MAX_NULLITY || lights::nullity(s) > self.max_nullity)
            .map(|s| s.to_string())
            .collect();
        Sizes {
            flip,
            flip_gf2: Gf2Range {
                max_rows: MAX_SIDE,
                max_cols: MAX_SIDE,
                max_nullity: self.max_nullity,
                beyond,
            },
            euler,
            euler_made: MadeRange {
                max_cells: self.maker.max_cells(),
                memory_budget_bytes: self.maker.budget(),
                memory_held_bytes: info.held,
            },
        }
    }
}
