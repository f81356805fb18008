//! Finding table files: their names, the directories searched, where a
//! table came from, and the errors of a table that cannot be had.

use std::ffi::OsString;
use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

use boardbase_tables::shape::Shape;

use std::sync::{Arc, OnceLock};

use crate::tablefile::{Puzzle, Table};

/// The environment variable naming the directories searched for table
/// files, separated by `:` (empty entries are skipped).
pub const TABLES_ENV: &str = "BOARDBASE_TABLES";

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

/// A table loaded for a puzzle and shape: opened, embedded or made.
#[derive(Debug)]
pub struct Loaded {
    /// The table; `None` for the embedded tables, built as a [`Table`]
    /// only when a question needs one (the judge's answers of
    /// `boardbase flip` and `euler` read the embedded arrays themselves).
    table: Option<Arc<Table>>,
    /// The puzzle of the embedded table.
    puzzle: Puzzle,
    /// Where it came from.
    pub origin: Origin,
    /// How long finding it took: opening a file is microseconds, making a
    /// table up to about a second.
    pub elapsed: Duration,
}

/// The embedded tables as [`Table`]s, built once a process (about a
/// millisecond each) when first asked for.
static EMBEDDED: [OnceLock<Arc<Table>>; 2] = [OnceLock::new(), OnceLock::new()];

impl Loaded {
    /// `table`, found at `origin` in `elapsed`.
    pub fn new(table: Arc<Table>, origin: Origin, elapsed: Duration) -> Loaded {
        Loaded {
            puzzle: table.puzzle(),
            table: Some(table),
            origin,
            elapsed,
        }
    }

    /// The embedded table of `puzzle` (4×4).
    pub(crate) fn embedded(puzzle: Puzzle) -> Loaded {
        Loaded {
            table: None,
            puzzle,
            origin: Origin::Embedded,
            elapsed: Duration::ZERO,
        }
    }

    /// The puzzle of the table.
    pub fn puzzle(&self) -> Puzzle {
        self.puzzle
    }

    /// The table.
    pub fn table(&self) -> &Arc<Table> {
        match &self.table {
            Some(table) => table,
            None => {
                let slot = match self.puzzle {
                    Puzzle::Flip => &EMBEDDED[0],
                    Puzzle::Euler => &EMBEDDED[1],
                };
                slot.get_or_init(|| Arc::new(Table::embedded(self.puzzle)))
            }
        }
    }

    /// The table, owned.
    pub fn into_table(self) -> Arc<Table> {
        match self.table {
            Some(table) => table,
            None => Loaded::embedded(self.puzzle).table().clone(),
        }
    }
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
    /// Why it is not made in memory instead.
    pub not_made: NotMade,
}

/// Why a table is not made in memory when no file holds it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NotMade {
    /// Flip tables are not made in memory (the GF(2) solver answers
    /// Flip boards instead, up to its nullity limit).
    Flip,
    /// More squares than a table made in memory may have.
    TooManyCells {
        /// The most squares made in memory.
        max: usize,
    },
    /// This tablebase makes no tables in memory (a budget of 0).
    NoMemory,
    /// Making it needs more memory than the budget.
    OverBudget {
        /// The bytes it needs.
        needed: u64,
        /// The budget, in bytes.
        budget: u64,
    },
}

impl Missing {
    /// The file name looked for: `euler-6x6.bin`.
    pub fn file_name(&self) -> String {
        self.puzzle.file_name(self.shape)
    }

    /// The command that makes the table: `boardbase generate euler 6x6
    /// --dir DIR`, DIR being the first directory searched (or `my-tables`
    /// when none was given).
    pub fn command(&self) -> String {
        let dir = self.searched.first().map_or_else(
            || "my-tables".to_owned(),
            |d| shell_word(&d.display().to_string()),
        );
        format!(
            "boardbase generate {} {} --dir {dir}",
            self.puzzle, self.shape
        )
    }
}

impl Missing {
    /// Where the file was looked for: `no euler-6x6.bin in DIR, DIR2`, or
    /// `None` when no directory was searched.
    pub fn looked(&self) -> Option<String> {
        if self.searched.is_empty() {
            return None;
        }
        let dirs: Vec<String> = self
            .searched
            .iter()
            .map(|d| d.display().to_string())
            .collect();
        Some(format!("no {} in {}", self.file_name(), dirs.join(", ")))
    }
}

/// How a front end names the options a [`Missing`] table's message points
/// to ([`Missing::worded`]): the message is written once, the options in
/// each front end's terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionNames {
    /// The option that gives a directory: `--tables DIR`.
    pub tables: &'static str,
    /// What to do once the file is made in `tables`, when no directory was
    /// given: `pass --tables my-tables`.
    pub then: &'static str,
    /// The option that sets the memory for tables made in memory
    /// (`--make-memory`), when the front end has one.
    pub make_memory: Option<&'static str>,
}

impl OptionNames {
    /// The command line's words (and those of [`Missing`]'s `Display`).
    pub const CLI: OptionNames = OptionNames {
        tables: "--tables DIR",
        then: "pass --tables my-tables",
        make_memory: None,
    };
}

impl Missing {
    /// The message, naming the options as `names` say.
    pub fn worded(&self, names: OptionNames) -> impl fmt::Display + '_ {
        Worded {
            missing: self,
            names,
        }
    }
}

struct Worded<'a> {
    missing: &'a Missing,
    names: OptionNames,
}

impl fmt::Display for Missing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.worded(OptionNames::CLI).fmt(f)
    }
}

impl fmt::Display for Worded<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Worded {
            missing: this,
            names,
        } = self;
        write!(f, "no {} {} table: ", this.puzzle, this.shape)?;
        match this.looked() {
            Some(looked) => f.write_str(&looked)?,
            None => write!(
                f,
                "no table directory given ({}, or {TABLES_ENV})",
                names.tables
            )?,
        }
        // `(--make-memory)`, `(make_memory)`: the option named, not set.
        let memory = names
            .make_memory
            .map(|option| format!(" ({})", option.trim_end_matches('=')))
            .unwrap_or_default();
        match this.not_made {
            NotMade::TooManyCells { max } => write!(
                f,
                ", and {} squares are too many to make it in memory (at most {max})",
                this.shape.cells()
            )?,
            NotMade::Flip => f.write_str(", and Flip tables are not made in memory")?,
            NotMade::NoMemory => {
                // `--make-memory 0`, `make_memory=0`.
                let off = names
                    .make_memory
                    .map(|option| {
                        let space = if option.ends_with('=') { "" } else { " " };
                        format!(" ({option}{space}0)")
                    })
                    .unwrap_or_default();
                write!(f, ", and no tables are made in memory here{off}")?
            }
            NotMade::OverBudget { needed, budget } => write!(
                f,
                ", and making it in memory needs {}, over the budget of {}{memory}",
                crate::memory::ByteSize(needed),
                crate::memory::ByteSize(budget)
            )?,
        }
        write!(f, "; make it with: {}", this.command())?;
        if this.searched.is_empty() {
            write!(f, ", then {}", names.then)?;
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

/// The puzzle and shape of a table file's usual name, `euler-5x5.bin`.
///
/// ```
/// use boardbase::tablebase::parse_file_name;
/// use boardbase::tablefile::Puzzle;
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

/// The directories of a [`TABLES_ENV`] value: split at `:`, empty entries
/// skipped.
///
/// ```
/// use boardbase::tablebase::parse_env;
/// use std::path::PathBuf;
///
/// let dirs = parse_env(Some("/srv/tables::./more".into()));
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
