//! Finding the table of a puzzle and shape: see [`Catalog`].

use std::ffi::OsString;
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use boardbase_tables::shape::Shape;

use super::{EulerColumns, Puzzle, Table, TableError};
use crate::generate::{self, EulerOptions, GenerateError};

/// The environment variable naming the directories searched for table
/// files, separated by `:` (empty entries are skipped).
pub const TABLES_ENV: &str = "BOARDBASE_TABLES";

/// The most squares of an Euler board whose table is made in memory when no
/// file holds it: 25 (2^25 positions, the full tables, about 100 MiB and a
/// second on two cores). Equal to
/// [`generate::FULL_TABLES_MAX_CELLS`]: what is made on the spot is always
/// a full table.
pub const MAKE_MAX_CELLS: usize = generate::FULL_TABLES_MAX_CELLS;

/// Where a table came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// The 4×4 tables built into the binary.
    Embedded,
    /// A table file, mapped.
    File(PathBuf),
    /// Generated in memory just now.
    Made,
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::Embedded => f.write_str("the built-in tables"),
            Origin::File(path) => write!(f, "{}", path.display()),
            Origin::Made => f.write_str("made in memory"),
        }
    }
}

/// A table found (or made) for a puzzle and shape.
#[derive(Debug)]
pub struct Found {
    /// The table.
    pub table: Table,
    /// Where it came from.
    pub origin: Origin,
    /// How long finding it took: opening a file is microseconds, making a
    /// table up to about a second.
    pub elapsed: Duration,
}

/// No table file for a puzzle and shape, and none could be made in memory:
/// says where it looked and how to make the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Missing {
    /// The puzzle.
    pub puzzle: Puzzle,
    /// The shape.
    pub shape: Shape,
    /// The directories searched, in order.
    pub searched: Vec<PathBuf>,
}

impl Missing {
    /// The file name looked for: `euler-6x6.bin`.
    pub fn file_name(&self) -> String {
        self.puzzle.file_name(self.shape)
    }

    /// The command that makes the table: `boardbase generate euler 6x6
    /// --dir DIR`, DIR being the first directory searched (or `tables`
    /// when none was given).
    pub fn command(&self) -> String {
        let dir = self.searched.first().map_or_else(
            || "tables".to_owned(),
            |d| shell_word(&d.display().to_string()),
        );
        format!(
            "boardbase generate {} {} --dir {dir}",
            self.puzzle, self.shape
        )
    }
}

impl fmt::Display for Missing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "no {} {} table: ", self.puzzle, self.shape)?;
        if self.searched.is_empty() {
            write!(
                f,
                "no directory to look for {} in (--tables DIR, or {TABLES_ENV})",
                self.file_name()
            )?;
        } else {
            let dirs: Vec<String> = self
                .searched
                .iter()
                .map(|d| d.display().to_string())
                .collect();
            write!(f, "no {} in {}", self.file_name(), dirs.join(", "))?;
        }
        match self.puzzle {
            Puzzle::Euler => write!(
                f,
                ", and {} squares are too many to make it in memory on the spot (at most {MAKE_MAX_CELLS})",
                self.shape.cells()
            )?,
            Puzzle::Flip => f.write_str(", and Flip tables are not made on the spot")?,
        }
        write!(f, "; make it with: {}", self.command())?;
        if self.searched.is_empty() {
            f.write_str(", then pass --tables tables")?;
        }
        Ok(())
    }
}

impl std::error::Error for Missing {}

/// `text` quoted for a POSIX shell when it needs it.
fn shell_word(text: &str) -> String {
    let plain = !text.is_empty()
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"/._-+,:@%=".contains(&b));
    if plain {
        text.to_owned()
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}

/// Why no table could be had for a puzzle and shape.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FindError {
    /// The shape has more cells than the puzzle's tables allow.
    #[error("{puzzle} tables take at most {max} cells; {shape} has {cells}")]
    TooManyCells {
        /// The puzzle.
        puzzle: Puzzle,
        /// The shape asked for.
        shape: Shape,
        /// Its cells.
        cells: usize,
        /// [`Puzzle::max_cells`].
        max: usize,
    },
    /// A file could not be opened as a table.
    #[error("{}: {error}", path.display())]
    Open {
        /// The file.
        path: PathBuf,
        /// Why.
        error: TableError,
    },
    /// A file holds another puzzle's or another shape's table.
    #[error("{}: a {found_puzzle} {found_shape} table, not {puzzle} {shape}", path.display())]
    Mismatch {
        /// The file.
        path: PathBuf,
        /// The puzzle asked for.
        puzzle: Puzzle,
        /// The shape asked for.
        shape: Shape,
        /// The file's puzzle.
        found_puzzle: Puzzle,
        /// The file's shape.
        found_shape: Shape,
    },
    /// No file, and none made on the spot.
    #[error(transparent)]
    Missing(#[from] Missing),
    /// Making the table in memory failed.
    #[error("cannot make the {puzzle} {shape} table in memory: {error}")]
    Generate {
        /// The puzzle.
        puzzle: Puzzle,
        /// The shape.
        shape: Shape,
        /// Why.
        error: GenerateError,
    },
}

/// Opens the table file at `path` and checks that it is `puzzle`'s, and of
/// `shape` when one is given (`None` takes the file's shape): what
/// `--table FILE` does.
pub fn open_as(path: &Path, puzzle: Puzzle, shape: Option<Shape>) -> Result<Found, FindError> {
    let start = Instant::now();
    let table = Table::open(path).map_err(|error| FindError::Open {
        path: path.to_owned(),
        error,
    })?;
    if table.puzzle() != puzzle || shape.is_some_and(|s| s != table.shape()) {
        return Err(FindError::Mismatch {
            path: path.to_owned(),
            puzzle,
            shape: shape.unwrap_or(table.shape()),
            found_puzzle: table.puzzle(),
            found_shape: table.shape(),
        });
    }
    Ok(Found {
        table,
        origin: Origin::File(path.to_owned()),
        elapsed: start.elapsed(),
    })
}

/// The directories searched for table files, and where the table of a
/// puzzle and shape comes from: the embedded 4×4 tables, a file
/// in the directories searched, or (Euler, up to [`MAKE_MAX_CELLS`] squares)
/// a table made in memory on the spot.
///
/// The command line (`boardbase euler --size`, `boardbase flip --size`) and
/// the HTTP server look tables up the same way, through a [`Catalog`]:
///
/// 1. 4×4 uses the tables embedded in the binary ([`Table::embedded`]); no
///    directory is searched.
/// 2. Otherwise the first `euler-RxC.bin` / `flip-RxC.bin` in the
///    catalog's directories, in order: the ones given (`--tables DIR`,
///    repeatable), then those of [`TABLES_ENV`] (`BOARDBASE_TABLES`,
///    colon-separated). A file found there must open, and hold that puzzle
///    and shape: a damaged or mislabelled file is an error, never skipped
///    for the next one.
/// 3. Otherwise ([`Catalog::find_or_make`]) an Euler table of at most
///    [`MAKE_MAX_CELLS`] squares is generated in memory (about a second for
///    5×5); past that the error ([`Missing`]) gives the `boardbase
///    generate` command that makes the file. Flip tables are never made on
///    the spot: [`lights`](crate::lights) answers any Flip board without one.
///
/// An explicit file (`--table FILE`) is opened with [`open_as`], which
/// checks its puzzle and shape.
///
/// ```
/// use boardbase::tablefile::{Catalog, Origin, Puzzle};
/// use boardbase::tables::shape::Shape;
///
/// let dir = std::env::temp_dir().join(format!("boardbase-catalog-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let catalog = Catalog::new([&dir]);
///
/// // 4×4: the embedded tables, whatever the directories hold.
/// let found = catalog.find(Puzzle::Euler, Shape::SQUARE4)?.expect("embedded");
/// assert_eq!(found.origin, Origin::Embedded);
///
/// // 3×4: no file in `dir`, so the table is made in memory (milliseconds).
/// let shape = Shape::new(3, 4).unwrap();
/// assert!(catalog.find(Puzzle::Euler, shape)?.is_none());
/// let found = catalog.find_or_make(Puzzle::Euler, shape, |_| {})?;
/// assert_eq!(found.origin, Origin::Made);
/// //   . . . .
/// //   . . . .     the empty 3×4 board is lost for the player to move
/// //   . . . .
/// let euler = found.table.as_euler()?;
/// assert!(!euler.outcome(0)?.is_win());
///
/// // Written to `dir`, the file is what the catalog finds next time.
/// found.table.write(dir.join("euler-3x4.bin"), &mut |_| {})?;
/// let found = catalog.find(Puzzle::Euler, shape)?.expect("the file");
/// assert_eq!(found.origin, Origin::File(dir.join("euler-3x4.bin")));
///
/// // 6×6 is too large to make on the spot: the error says how to make it.
/// let six = Shape::new(6, 6).unwrap();
/// let missing = catalog.find_or_make(Puzzle::Euler, six, |_| {}).unwrap_err();
/// assert!(missing.to_string().contains("boardbase generate euler 6x6 --dir"));
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Catalog {
    dirs: Vec<PathBuf>,
}

impl Catalog {
    /// A catalog searching `dirs`, in order (and not [`TABLES_ENV`]).
    pub fn new<P: Into<PathBuf>>(dirs: impl IntoIterator<Item = P>) -> Catalog {
        Catalog {
            dirs: dirs.into_iter().map(Into::into).collect(),
        }
    }

    /// A catalog searching `dirs`, then the directories of [`TABLES_ENV`]:
    /// what the command line does with `--tables DIR`.
    pub fn with_env<P: Into<PathBuf>>(dirs: impl IntoIterator<Item = P>) -> Catalog {
        let mut catalog = Catalog::new(dirs);
        catalog
            .dirs
            .extend(Catalog::parse_env(std::env::var_os(TABLES_ENV)));
        catalog
    }

    /// The directories of a [`TABLES_ENV`] value: split at `:`, empty
    /// entries skipped.
    ///
    /// ```
    /// use boardbase::tablefile::Catalog;
    /// use std::path::PathBuf;
    ///
    /// let dirs = Catalog::parse_env(Some("/srv/tables::./more".into()));
    /// assert_eq!(dirs, [PathBuf::from("/srv/tables"), PathBuf::from("./more")]);
    /// ```
    pub fn parse_env(value: Option<OsString>) -> Vec<PathBuf> {
        value
            .map(|v| {
                std::env::split_paths(&v)
                    .filter(|p| !p.as_os_str().is_empty())
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The directories searched, in order.
    pub fn dirs(&self) -> &[PathBuf] {
        &self.dirs
    }

    /// The first `puzzle-RxC.bin` file in the directories, if any.
    pub fn path_of(&self, puzzle: Puzzle, shape: Shape) -> Option<PathBuf> {
        let name = puzzle.file_name(shape);
        self.dirs
            .iter()
            .map(|d| d.join(&name))
            .find(|p| p.is_file())
    }

    /// Every table file in the directories, by its name (`euler-5x5.bin`,
    /// `flip-4x5.bin`; the first of a name wins, as [`Catalog::find`]
    /// would), sorted by puzzle and shape. The files are not opened.
    pub fn list(&self) -> Vec<(Puzzle, Shape, PathBuf)> {
        let mut found: Vec<(Puzzle, Shape, PathBuf)> = Vec::new();
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

    /// The table of `puzzle` on `shape`: the embedded one for 4×4, else the
    /// first file of its name in the directories (opened and checked), else
    /// `None`.
    pub fn find(&self, puzzle: Puzzle, shape: Shape) -> Result<Option<Found>, FindError> {
        check_shape(puzzle, shape)?;
        let start = Instant::now();
        if shape == Shape::SQUARE4 {
            return Ok(Some(Found {
                table: Table::embedded(puzzle),
                origin: Origin::Embedded,
                elapsed: start.elapsed(),
            }));
        }
        match self.path_of(puzzle, shape) {
            Some(path) => open_as(&path, puzzle, Some(shape)).map(Some),
            None => Ok(None),
        }
    }

    /// As [`Catalog::find`], and when no file holds the table: an Euler
    /// table of at most [`MAKE_MAX_CELLS`] squares is made in memory
    /// (`progress` hears of the generator's phases); otherwise
    /// [`FindError::Missing`], which gives the command that makes the file.
    pub fn find_or_make<F: Fn(generate::Progress) + Sync>(
        &self,
        puzzle: Puzzle,
        shape: Shape,
        progress: F,
    ) -> Result<Found, FindError> {
        if let Some(found) = self.find(puzzle, shape)? {
            return Ok(found);
        }
        if puzzle == Puzzle::Flip || shape.cells() > MAKE_MAX_CELLS {
            return Err(self.missing(puzzle, shape).into());
        }
        let start = Instant::now();
        let generate_error = |error| FindError::Generate {
            puzzle,
            shape,
            error,
        };
        let tables =
            generate::euler(shape, &EulerOptions::default(), progress).map_err(generate_error)?;
        let table = Table::from_euler(shape, EulerColumns::from(tables)).map_err(|error| {
            FindError::Open {
                path: PathBuf::from("<memory>"),
                error,
            }
        })?;
        Ok(Found {
            table,
            origin: Origin::Made,
            elapsed: start.elapsed(),
        })
    }

    /// The error for a table this catalog does not hold.
    pub fn missing(&self, puzzle: Puzzle, shape: Shape) -> Missing {
        Missing {
            puzzle,
            shape,
            searched: self.dirs.clone(),
        }
    }
}

/// An error unless `shape` is within `puzzle`'s table limits.
fn check_shape(puzzle: Puzzle, shape: Shape) -> Result<(), FindError> {
    if shape.cells() > puzzle.max_cells() {
        return Err(FindError::TooManyCells {
            puzzle,
            shape,
            cells: shape.cells(),
            max: puzzle.max_cells(),
        });
    }
    Ok(())
}

/// The puzzle and shape of a table file's usual name, `euler-5x5.bin`.
///
/// ```
/// use boardbase::tablefile::{Puzzle, parse_file_name};
/// use boardbase::tables::shape::Shape;
///
/// assert_eq!(parse_file_name("flip-4x5.bin"), Some((Puzzle::Flip, Shape::new(4, 5).unwrap())));
/// assert_eq!(parse_file_name("euler-7x7.bin"), None); // past Euler's 36 squares
/// assert_eq!(parse_file_name("notes.txt"), None);
/// ```
pub fn parse_file_name(name: &str) -> Option<(Puzzle, Shape)> {
    let stem = name.strip_suffix(".bin")?;
    let (puzzle, shape) = stem.split_once('-')?;
    let puzzle = Puzzle::from_name(puzzle)?;
    let shape = Shape::parse(shape)?;
    (shape.cells() <= puzzle.max_cells() && puzzle.file_name(shape) == name)
        .then_some((puzzle, shape))
}
