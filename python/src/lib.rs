//! `boardbase._boardbase`: the compiled half of the `boardbase` Python
//! package, a thin front end on the library's answer layer
//! ([`boardbase::tablebase::Tablebase`]). It parses its arguments with the
//! library's board parser, asks the answer layer, and returns the answers
//! as dicts in the project's JSON vocabulary (docs/json.md), which the
//! Python layer (`boardbase/__init__.py`) wraps in typed objects. It holds
//! no puzzle logic.
//!
//! Every call that can take over a millisecond runs with the GIL released
//! ([`Python::detach`]), and inside [`std::panic::catch_unwind`]: a panic
//! becomes `boardbase.InternalError`, never Python's `PanicException`.
//! Errors are raised as the exception classes of `boardbase.errors`, built
//! with their attributes (`line`, `column`, `command`, ...).

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex};

use boardbase::carcassonne::{self, Tile};
use boardbase::error::{Classify, Kind, ParseError};
use boardbase::generate::{
    Cancel, GameJob, GamePlan, GameReport, GenerateError, Job, JobSetting, Plan, Progress, Report,
};
use boardbase::grid::{Alphabet, BoardTextError, Expect, Rows};
use boardbase::lights::family::{FamilyGoal, Pattern, Variant};
use boardbase::lights::{Goal, Grid, LightsError};
use boardbase::memory::ByteSize;
use boardbase::tablebase::{
    self, CountOptions, FlipFrom, LightsQuestion, LightsTowards, OptionNames, Tablebase,
};
use boardbase::tablefile::{self, Puzzle, TableError};
use boardbase::tables::shape::Shape;
use numpy::{PyArray1, PyReadonlyArray1};
use pyo3::IntoPyObjectExt;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use serde::Serialize;

mod answers;

use answers::{PyEulerLookup, PyFlipLookup};

/// One of the exception classes of `boardbase.errors`, called with
/// `message` and the keyword arguments `attrs`.
fn error(py: Python<'_>, class: &str, message: &str, attrs: &[(&str, Py<PyAny>)]) -> PyErr {
    let built = (|| -> PyResult<PyErr> {
        let module = py.import("boardbase.errors")?;
        let kwargs = PyDict::new(py);
        for (key, value) in attrs {
            kwargs.set_item(key, value)?;
        }
        let value = module.getattr(class)?.call((message,), Some(&kwargs))?;
        Ok(PyErr::from_value(value))
    })();
    built.unwrap_or_else(|e| e)
}

/// A Python object for an error's attribute.
fn attr<'py, T: IntoPyObject<'py>>(py: Python<'py>, value: T) -> Py<PyAny> {
    value.into_py_any(py).unwrap_or_else(|_| py.None())
}

/// `BoardError` for a parse error of `what`.
fn parse_error(py: Python<'_>, what: &str, e: &ParseError) -> PyErr {
    error(
        py,
        "BoardError",
        &format!("{what}:{e}"),
        &[("line", attr(py, e.line)), ("column", attr(py, e.column))],
    )
}

/// Runs `work` with the GIL released, turning a panic into
/// `boardbase.InternalError`.
fn run<T: Send>(py: Python<'_>, work: impl FnOnce() -> T + Send) -> PyResult<T> {
    py.detach(|| catch_unwind(AssertUnwindSafe(work)))
        .map_err(|panic| {
            let message = panic
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic".to_owned());
            error(
                py,
                "InternalError",
                &format!("boardbase panicked (a bug; please report it): {message}"),
                &[],
            )
        })
}

/// A serde answer as Python objects (dicts, lists, ints, strings).
fn to_python<T: Serialize>(py: Python<'_>, value: &T) -> PyResult<Py<PyAny>> {
    pythonize::pythonize(py, value)
        .map(Bound::unbind)
        .map_err(|e| PyRuntimeError::new_err(e.to_string()))
}

/// The shape of `size` (`"RxC"`), if given.
fn parse_size(py: Python<'_>, size: Option<&str>) -> PyResult<Option<Shape>> {
    size.map(|text| {
        Shape::parse(text.trim()).ok_or_else(|| {
            error(
                py,
                "ShapeError",
                &format!("size {text:?}: expected RxC with 1 to 64 rows and columns, e.g. 4x4"),
                &[],
            )
        })
    })
    .transpose()
}

/// The goals `lights()` names besides the family's own (a colour number
/// or `any`), with the family goal each is: `white` colour 0, `black`
/// colour 1 (of 2 colours), `either` `any`. The classic game towards one
/// of them is answered by its GF(2) solver.
fn named_goal(goal: &str) -> Option<(Goal, &'static str)> {
    match goal {
        "white" => Some((Goal::White, "0")),
        "black" => Some((Goal::Black, "1")),
        "either" => Some((Goal::Either, "any")),
        _ => None,
    }
}

/// `goal` as the family's goal on `k` colours: a colour number below `k`,
/// `any`, or a name of [`named_goal`]; one rule for `lights()` and
/// `cases("lights")`.
fn family_goal(goal: &str, k: u8) -> Result<FamilyGoal, String> {
    if goal == "black" && k != 2 {
        return Err(format!(
            "goal 'black' is colour 1 of 2 colours; with {k} colours give a colour number"
        ));
    }
    let text = named_goal(goal).map_or(goal, |(_, text)| text);
    let parsed: FamilyGoal = text.parse().map_err(|e| format!("goal {text:?}: {e}"))?;
    if let FamilyGoal::Colour(d) = parsed
        && d >= k
    {
        // The library's words for it, as `lights solve` says it.
        return Err(boardbase::lights::LightsError::GoalColour {
            colour: d,
            colours: k,
        }
        .to_string());
    }
    Ok(parsed)
}

/// A press pattern (`plus`, ..., or a stencil's rows): a stencil that
/// cannot be read is a `BoardError` at its column, any other an
/// `OptionError`.
fn parse_pattern(py: Python<'_>, pattern: &str) -> PyResult<Pattern> {
    pattern.parse().map_err(|e: LightsError| match e {
        LightsError::Stencil { column, .. } => error(
            py,
            "BoardError",
            &format!("pattern:1:{column}: {e}"),
            &[("line", attr(py, 1)), ("column", attr(py, column))],
        ),
        e => error(py, "OptionError", &format!("pattern: {e}"), &[]),
    })
}

/// The rows of `board` in `alphabet`, of `size` when it is given (then the
/// R·C cells may also come in one run), else of the shape the text has.
fn parse_rows(
    py: Python<'_>,
    board: &str,
    size: Option<&str>,
    alphabet: &Alphabet,
) -> PyResult<Rows> {
    let size = parse_size(py, size)?;
    let expect = size.map_or(Expect::Any, Expect::ShapeOrOneRun);
    alphabet
        .parse_board(board, expect)
        .map_err(|e| rows_error(py, e, size))
}

/// `BoardError` for board text that could not be read as rows (`size`:
/// the shape given, if any).
fn rows_error(py: Python<'_>, e: BoardTextError, size: Option<Shape>) -> PyErr {
    match e {
        BoardTextError::Misfit {
            rows,
            cols,
            ragged,
            error: at,
            ..
        } => {
            let message = match (ragged, size) {
                (Some((k, n)), _) => format!(
                    "board:{}:{}: row {} has {n} cells, row 1 has {cols}: every row needs as many",
                    at.line,
                    at.column,
                    k + 1
                ),
                (None, Some(size)) => format!(
                    "board:{}:{}: {rows} rows of {cols} cells, but size={size} was given",
                    at.line, at.column
                ),
                (None, None) => format!(
                    "board:{}:{}: {rows} rows of {cols} cells: boards have 1 to 64 rows and columns",
                    at.line, at.column
                ),
            };
            error(
                py,
                "BoardError",
                &message,
                &[("line", attr(py, at.line)), ("column", attr(py, at.column))],
            )
        }
        other => parse_error(py, "board", other.parse_error()),
    }
}

/// How the missing table's message names the options of `Tablebase`.
const OPTION_NAMES: OptionNames = OptionNames {
    tables: "tables=DIR",
    then: "pass tables=\"my-tables\"",
    make_memory: Some("make_memory="),
};

/// The Python exception of the answer layer's error, for a question about
/// a board of `shape` (the `size` attribute): the one place that maps
/// them. The tablebase's failures are `MissingTableError` (no table, with
/// the command that makes it) and `TableFileError` (a file that cannot be
/// used, a damaged table); the question's are `BoardError`, `ShapeError`,
/// `NullityError` and `OptionError`. Each message is the library's.
fn answer_error(py: Python<'_>, shape: Shape, e: tablebase::Error) -> PyErr {
    answer_error_of(py, Some(shape), e)
}

/// [`answer_error`] of a question whose board's shape is known only when
/// its text makes a board: without the `size` attribute when `shape` is
/// `None`.
fn answer_error_of(py: Python<'_>, shape: Option<Shape>, e: tablebase::Error) -> PyErr {
    let size = || shape.map(|shape| ("size", attr(py, shape.to_string())));
    let message = e.worded(OPTION_NAMES);
    match e.kind() {
        Kind::Missing => {
            let mut attrs = Vec::new();
            if let Some(command) = e.command() {
                attrs.push(("command", attr(py, command)));
            }
            if let Some(puzzle) = e.puzzle() {
                attrs.push(("puzzle", attr(py, puzzle.to_string())));
            }
            attrs.extend(size());
            error(py, "MissingTableError", &message, &attrs)
        }
        Kind::Syntax => match e.parse_error() {
            Some(at) => parse_error(py, "board", at),
            None => error(py, "BoardError", &message, &[]),
        },
        Kind::Search => {
            let mut attrs = Vec::new();
            if let Some(nullity) = e.nullity() {
                attrs.push(("nullity", attr(py, nullity)));
            }
            if let Some(max) = e.max_nullity() {
                attrs.push(("max_nullity", attr(py, max)));
            }
            error(py, "NullityError", &message, &attrs)
        }
        Kind::Option => error(py, "OptionError", &message, &[]),
        Kind::Mismatch | Kind::TooLarge => {
            error(py, "ShapeError", &message, &Vec::from_iter(size()))
        }
        _ => {
            let mut attrs = Vec::new();
            if let Some(path) = e.file() {
                attrs.push(("filename", attr(py, path.display().to_string())));
            }
            attrs.extend(size());
            error(py, "TableFileError", &message, &attrs)
        }
    }
}

/// The error of a game that cannot be set up as asked: a board it is not
/// played on is a `ShapeError`, an option out of range an `OptionError`.
fn setup_error(py: Python<'_>, e: &boardbase::catalogue::SetupError) -> PyErr {
    use boardbase::catalogue::SetupError;
    match e {
        SetupError::Shape { shape, .. } => error(
            py,
            "ShapeError",
            &e.to_string(),
            &[("size", attr(py, shape.to_string()))],
        ),
        _ => error(py, "OptionError", &e.to_string(), &[]),
    }
}

/// The answer layer: `boardbase.Tablebase` holds one and calls it.
#[pyclass(name = "Tablebase", module = "boardbase._boardbase", frozen)]
struct PyTablebase {
    inner: Arc<Tablebase>,
}

#[pymethods]
impl PyTablebase {
    /// A tablebase searching `directories` (then `BOARDBASE_TABLES`), making
    /// Euler tables in memory within `make_memory` (`"1G"`, `"512M"`, as
    /// the CLI's --make-memory).
    #[new]
    #[pyo3(signature = (directories, make_memory, max_nullity))]
    fn new(
        py: Python<'_>,
        directories: Vec<PathBuf>,
        make_memory: &str,
        max_nullity: usize,
    ) -> PyResult<PyTablebase> {
        let bytes: ByteSize = make_memory.parse().map_err(|e: String| {
            error(
                py,
                "OptionError",
                &format!("make_memory {make_memory:?}: {e}"),
                &[],
            )
        })?;
        let mut tablebase = Tablebase::new();
        tablebase.set_make_memory(bytes.0);
        tablebase.set_max_nullity(max_nullity);
        for dir in directories {
            tablebase.add_directory(&dir).map_err(|e| {
                error(
                    py,
                    "TableFileError",
                    &format!("{}: {e}", dir.display()),
                    &[("filename", attr(py, dir.display().to_string()))],
                )
            })?;
        }
        tablebase.add_env_directories();
        Ok(PyTablebase {
            inner: Arc::new(tablebase),
        })
    }

    /// The directories searched, in order.
    #[getter]
    fn directories(&self) -> Vec<PathBuf> {
        self.inner.dirs().to_vec()
    }

    /// The Flip lookup of `board` (rows of `b`/`w`): the object of the
    /// server's `/api/v1/flip`.
    #[pyo3(signature = (board, size=None))]
    fn flip(&self, py: Python<'_>, board: &str, size: Option<&str>) -> PyResult<PyFlipLookup> {
        let rows = parse_rows(py, board, size, &boardbase::flip::ALPHABET)?;
        let shape = rows.shape();
        let grid = Grid::from_rows(shape, rows.rows())
            .map_err(|e| error(py, "ShapeError", &format!("board: {e}"), &[]))?;
        let tablebase = Arc::clone(&self.inner);
        // From a table, the answer now and the presses when asked for; the
        // GF(2) solver values every press as it answers.
        let found = run(py, move || match tablebase.flip(shape)? {
            FlipFrom::Table(source) => {
                let bits = grid.to_u64().ok_or(tablebase::Error::OutsideShape(shape))?;
                PyFlipLookup::of_table(tablebase, source, bits)
            }
            FlipFrom::Lights(_) => tablebase.flip_grid_lookup(&grid).map(PyFlipLookup::made),
        })?;
        found.map_err(|e| answer_error(py, shape, e))
    }

    /// The Euler lookup of `board` (rows of `X`/`.`): the object of the
    /// server's `/api/v1/euler`.
    #[pyo3(signature = (board, size=None))]
    fn euler(&self, py: Python<'_>, board: &str, size: Option<&str>) -> PyResult<PyEulerLookup> {
        let rows = parse_rows(py, board, size, &boardbase::euler::ALPHABET)?;
        let shape = rows.shape();
        let position = rows.to_u64().ok_or_else(|| {
            error(
                py,
                "ShapeError",
                &format!("board: a {shape} board has over 64 cells: no table holds it"),
                &[("size", attr(py, shape.to_string()))],
            )
        })?;
        let tablebase = Arc::clone(&self.inner);
        // The answer now, the moves valued when asked for. A table made in
        // memory for the shape is made now, on this thread.
        let found = run(py, move || {
            let source = tablebase.euler_made(shape, |_| {})?;
            PyEulerLookup::new(tablebase, source, position)
        })?;
        found.map_err(|e| answer_error(py, shape, e))
    }

    /// A position of a two-player game of the catalogue (`game`: `mnk`,
    /// `connect4`, `euler`, ...), its text `board` (`None`: the start) on a
    /// board of `size` (`None`: the game's default) with the game's
    /// `options` (`{"k": 4}`): the library's `Solution` (the object of
    /// `boardbase solve --format json`). A game solved in memory is solved
    /// now, on this thread, and kept.
    #[pyo3(signature = (game, board=None, size=None, options=None))]
    fn solve(
        &self,
        py: Python<'_>,
        game: &str,
        board: Option<&str>,
        size: Option<&str>,
        options: Option<std::collections::BTreeMap<String, u64>>,
    ) -> PyResult<Py<PyAny>> {
        let model = boardbase::catalogue::model(game).ok_or_else(|| {
            let names: Vec<&str> = boardbase::catalogue::MODELS
                .iter()
                .map(|m| m.game)
                .collect();
            error(
                py,
                "OptionError",
                &format!("game {game:?}: expected one of {}", names.join(", ")),
                &[],
            )
        })?;
        let shape = parse_size(py, size)?;
        let given: Vec<(&str, u64)> = options
            .iter()
            .flatten()
            .map(|(name, &value)| (name.as_str(), value))
            .collect();
        let setup = model
            .setup(shape, &given)
            .map_err(|e| setup_error(py, &e))?;
        let tablebase = Arc::clone(&self.inner);
        let query = match board {
            Some(text) => tablebase::Query::Text(text),
            None => tablebase::Query::Start,
        };
        let solved = run(py, || tablebase.solve(model, &setup, query))?;
        let solution = solved.map_err(|e| match e {
            tablebase::Error::Setup(e) => setup_error(py, &e),
            e if e.kind() == Kind::Resource => error(py, "ResourceError", &e.to_string(), &[]),
            e => answer_error(py, setup.shape, e),
        })?;
        to_python(py, &solution)
    }

    /// A board of the Lights Out family towards `goal`, searching up to
    /// 2^`max_nullity` press vectors a goal. The variant is `colours`
    /// colours (2 to 16), on a torus when `wrap`, pressed by `pattern`
    /// (`plus`, `neighbours`, `x`, `king` or a stencil's rows). The classic
    /// game (2 colours, plus, no wrap) towards `"white"`, `"black"` or
    /// `"either"` answers the library's `FliptileLookup` (the object of
    /// `boardbase fliptile --format json`: the colour reached, both
    /// colours' routes, every press valued with its board; `board` rows of
    /// `0`/`1` or `w`/`b`); any other variant or goal (a colour number or
    /// `"any"`; `"white"` is colour 0, `"black"` colour 1 of 2, `"either"`
    /// is `"any"`) the library's `report::LightsLookup` (the object of
    /// `/api/v1/lights`; `board` rows of digits, `a`-`f` past 9).
    #[pyo3(signature = (board, colours, wrap, pattern, goal, max_nullity))]
    #[allow(clippy::too_many_arguments)]
    fn lights(
        &self,
        py: Python<'_>,
        board: &str,
        colours: u64,
        wrap: bool,
        pattern: &str,
        goal: &str,
        max_nullity: usize,
    ) -> PyResult<Py<PyAny>> {
        let option = |message: String| error(py, "OptionError", &message, &[]);
        if !(2..=16).contains(&colours) {
            return Err(option(format!("colours {colours}: expected 2 to 16")));
        }
        let k = colours as u8;
        // Checked before the tablebase chooses the engine: one rule for
        // every goal.
        let family = family_goal(goal, k).map_err(option)?;
        let pattern = parse_pattern(py, pattern)?;
        let towards = match named_goal(goal) {
            Some((named, _)) => LightsTowards::Named(named),
            None => LightsTowards::Family(family),
        };
        let question = LightsQuestion {
            board,
            colours: k,
            wrap,
            pattern,
            towards,
        };
        let tablebase = &*self.inner;
        let replied = run(py, || tablebase.lights_answer(&question, max_nullity))?;
        // The classic game's rows in the words of every board's rows;
        // the rest by kind (a search past the limit names no shape).
        let reply = replied.map_err(|e| match e.board_text() {
            Some(&text) => rows_error(py, text, None),
            None => answer_error_of(py, None, e),
        })?;
        to_python(py, &reply)
    }

    /// Counts a Carcassonne board of `rows` × `cols` tiles (four-letter
    /// codes, in reading order): the object of `boardbase carcassonne
    /// --format json` with the exact count and a witness.
    fn carcassonne(
        &self,
        py: Python<'_>,
        rows: usize,
        cols: usize,
        tiles: Vec<String>,
    ) -> PyResult<Py<PyAny>> {
        let mut parsed = Vec::with_capacity(tiles.len());
        for (i, code) in tiles.iter().enumerate() {
            let tile: Tile = code.parse().map_err(|e| {
                let (line, column) = (i / cols.max(1) + 1, i % cols.max(1) + 1);
                error(
                    py,
                    "BoardError",
                    &format!("tiles:{line}:{column}: tile {code:?}: {e}"),
                    &[("line", attr(py, line)), ("column", attr(py, column))],
                )
            })?;
            parsed.push(tile);
        }
        let board = carcassonne::Board::new(rows, cols, parsed)
            .map_err(|e| error(py, "ShapeError", &format!("tiles: {e}"), &[]))?;
        let tablebase = Arc::clone(&self.inner);
        let options = CountOptions {
            exact: true,
            witness: true,
            ..CountOptions::default()
        };
        let counted = run(py, || {
            tablebase
                .carcassonne(&board, &options, || false)
                .map(|c| c.answer(1, &board))
        })?;
        match counted {
            Ok(answer) => to_python(py, &answer),
            Err(e) => Err(error(py, "ResourceError", &e.to_string(), &[])),
        }
    }
    /// Judge cases with known answers, as `boardbase cases PUZZLE --cases
    /// N --seed S [--family F] [--size RxC] [--rounds K] [--moves-left K]
    /// [--colours K] [--wrap] [--pattern P] [--goal G] [--max-nullity K]`
    /// writes them: the input and the expected output, as bytes. Flip and
    /// Euler boards of other sizes than 4×4 are answered by this
    /// tablebase (its table files, an Euler table made in memory, GF(2)
    /// for Flip), as the CLI's `--tables` answers them. The Lights Out
    /// family's variant is `size` (needed), `colours`, `wrap` and
    /// `pattern`, towards `goal` (as `lights()` takes it; colour 0 unless
    /// given), searched up to 2^`max_nullity` press vectors (this
    /// tablebase's limit unless given).
    #[pyo3(signature = (
        puzzle, n, seed, family=None, size=None, rounds=None, moves_left=None,
        colours=2, wrap=false, pattern="plus", goal=None, max_nullity=None
    ))]
    #[allow(clippy::too_many_arguments)]
    fn cases(
        &self,
        py: Python<'_>,
        puzzle: &str,
        n: u64,
        seed: u64,
        family: Option<&str>,
        size: Option<&str>,
        rounds: Option<u8>,
        moves_left: Option<u8>,
        colours: u8,
        wrap: bool,
        pattern: &str,
        goal: Option<&str>,
        max_nullity: Option<usize>,
    ) -> PyResult<(Vec<u8>, Vec<u8>)> {
        use boardbase::cases::lights::LightsCategory;
        use boardbase::cases::sized::{SizedAnswers, SizedFilter};
        use boardbase::cases::{self, CaseWriter, CasesError, Spec};
        let option = |e: String| error(py, "OptionError", &e, &[]);
        let shape = parse_size(py, size)?;
        let pattern = parse_pattern(py, pattern)?;
        if rounds.is_some() && puzzle != "flip" {
            return Err(option(format!("rounds is for flip, not {puzzle}")));
        }
        if moves_left.is_some() && puzzle != "euler" {
            return Err(option(format!("moves_left is for euler, not {puzzle}")));
        }
        // The variant's options differing from their defaults, as the CLI
        // refuses them for another puzzle.
        if puzzle != "lights"
            && (colours != 2 || wrap || pattern != Pattern::Plus || goal.is_some())
        {
            return Err(option(format!(
                "colours, wrap, pattern and goal are for lights, not {puzzle}"
            )));
        }
        if max_nullity.is_some() && puzzle != "lights" {
            return Err(option(format!(
                "max_nullity is for lights, not {puzzle} (the tablebase's max_nullity answers flip boards of other sizes)"
            )));
        }
        if shape.is_some()
            && !matches!(
                puzzle,
                "flip" | "euler" | "carcassonne" | "fliptile" | "lights"
            )
        {
            return Err(option(format!(
                "size is for flip, euler, carcassonne, fliptile and lights, not {puzzle}"
            )));
        }
        // `family` names the category of cases, as `--family` does.
        let category = family.unwrap_or("random");
        let flip_filter = || -> PyResult<cases::flip::Filter> {
            Ok(cases::flip::Filter {
                category: category.parse().map_err(option)?,
                rounds,
            })
        };
        let euler_filter = || -> PyResult<cases::euler::Filter> {
            Ok(cases::euler::Filter {
                category: category.parse().map_err(option)?,
                moves_left,
            })
        };
        let cases_error = |e: CasesError| option(e.to_string());
        // Flip and Euler of every size: what the answer layer finds (the
        // embedded 4×4 tables, a table file, or GF(2) for Flip), as
        // `boardbase cases` asks it.
        let sized_puzzle = match puzzle {
            "flip" => Some(Puzzle::Flip),
            "euler" => Some(Puzzle::Euler),
            _ => None,
        };
        if let Some(puzzle) = sized_puzzle {
            let shape = shape.unwrap_or(Shape::SQUARE4);
            let filter = match puzzle {
                Puzzle::Flip => SizedFilter::Flip(flip_filter()?),
                Puzzle::Euler => SizedFilter::Euler(euler_filter()?),
            };
            let tablebase = &*self.inner;
            let made = run(py, || {
                let answers =
                    SizedAnswers::new(tablebase, puzzle, shape).map_err(CasesError::Answer)?;
                let (mut input, mut expected) = (Vec::new(), Vec::new());
                answers.cases(filter)?.write(
                    n,
                    seed,
                    &mut input,
                    Some(&mut expected),
                    &mut |_| {},
                )?;
                Ok::<_, CasesError>((input, expected))
            })?;
            // The answer layer's errors (and a damaged table's, said with
            // its origin) as its lookups raise them; the cases' own as
            // option errors.
            return made.map_err(|e| match e {
                CasesError::Answer(e) => answer_error(py, shape, e),
                CasesError::Probe(e) => {
                    answer_error(py, shape, tablebase.damaged(puzzle, shape, e))
                }
                CasesError::Lights(e) => answer_error(py, shape, e.into()),
                e => cases_error(e),
            });
        }
        let spec = match puzzle {
            "carcassonne" => {
                let (rows, cols) = shape.map_or((12, 12), |s| (s.rows(), s.cols()));
                Spec::Carcassonne(cases::carcassonne::Spec {
                    category: category.parse().map_err(option)?,
                    rows,
                    cols,
                })
            }
            "fliptile" => Spec::Fliptile(cases::fliptile::Spec {
                category: category.parse().map_err(option)?,
                size: shape,
            }),
            "lightsout" if category == "random" => Spec::LightsOut,
            "lightsout" => {
                return Err(option(format!(
                    "family {category:?}: lightsout has only random puzzles"
                )));
            }
            "lights" => {
                let shape = shape.ok_or_else(|| {
                    option("size is needed for lights: the variant's board size".to_owned())
                })?;
                let category: LightsCategory = category.parse().map_err(option)?;
                let variant = Variant::of_shape(shape, colours)
                    .map_err(|e| option(e.to_string()))?
                    .with_wrap(wrap)
                    .with_pattern(pattern);
                let goal = goal.map_or(Ok(FamilyGoal::Colour(0)), |g| {
                    family_goal(g, colours).map_err(option)
                })?;
                let limit = max_nullity.unwrap_or_else(|| self.inner.max_nullity());
                // The variant's solver made (or found cached) without the
                // GIL: it can take a while.
                let made = run(py, || {
                    cases::lights::Spec::new(category, variant, goal, limit)
                })?;
                // The answer layer's refusals (a goal colour past the
                // variant's, a search past the limit) raise what `lights()`
                // raises for them.
                Spec::Lights(made.map_err(|e| match e {
                    CasesError::Answer(e) => answer_error(py, shape, e),
                    e => cases_error(e),
                })?)
            }
            other => {
                return Err(option(format!(
                    "puzzle {other:?}: expected flip, euler, carcassonne, fliptile, lightsout or lights"
                )));
            }
        };
        let made = run(py, move || {
            let writer = CaseWriter::new(&spec)?;
            let (mut input, mut answers) = (Vec::new(), Vec::new());
            writer.write(n, seed, &mut input, Some(&mut answers), &mut |_| {})?;
            Ok::<_, CasesError>((input, answers))
        })?;
        made.map_err(cases_error)
    }
}

/// A table file opened (mapped): `boardbase.Table` holds one. Its columns
/// are read by the Python layer through its own read-only mapping of the
/// same file (no copy); the vectorised probes run here, over numpy arrays,
/// with the GIL released.
#[pyclass(name = "Table", module = "boardbase._boardbase", frozen)]
struct PyTable {
    inner: Arc<tablefile::Table>,
    /// The file, for the errors of a damaged one (`None`: embedded).
    path: Option<PathBuf>,
}

/// `TableFileError` for a table file that cannot be opened.
fn table_error(py: Python<'_>, path: &std::path::Path, e: &dyn std::fmt::Display) -> PyErr {
    error(
        py,
        "TableFileError",
        &format!("{}: {e}", path.display()),
        &[("filename", attr(py, path.display().to_string()))],
    )
}

/// The error of a probe (`index`: the position's place in the array
/// probed), by its kind: `TableFileError` when the file is damaged (a block
/// that does not match its CRC, an entry that cannot be right), with the
/// file's name; `OptionError` for a position outside the table's shape.
fn probe_error(py: Python<'_>, path: Option<&Path>, index: Option<usize>, e: &TableError) -> PyErr {
    let message = match index {
        Some(i) => format!("positions[{i}]: {e}"),
        None => e.to_string(),
    };
    match e.kind() {
        Kind::Table => match path {
            Some(path) => error(
                py,
                "TableFileError",
                &format!("{}: {message}", path.display()),
                &[("filename", attr(py, path.display().to_string()))],
            ),
            None => error(py, "TableFileError", &message, &[]),
        },
        _ => error(py, "OptionError", &message, &[]),
    }
}

/// Runs `probe` on every position (GIL released), stopping at the first
/// error with its index.
fn probe_all<T: Send + Copy + Default>(
    py: Python<'_>,
    path: Option<&Path>,
    positions: &[u64],
    probe: impl Fn(u64) -> Result<T, TableError> + Sync,
) -> PyResult<Vec<T>> {
    let done = run(py, || {
        let mut out = Vec::with_capacity(positions.len());
        for (i, &p) in positions.iter().enumerate() {
            match probe(p) {
                Ok(v) => out.push(v),
                Err(e) => return Err((i, e)),
            }
        }
        Ok(out)
    })?;
    done.map_err(|(i, e)| probe_error(py, path, Some(i), &e))
}

#[pymethods]
impl PyTable {
    /// Opens (maps) the table file at `path`, checking its header.
    #[new]
    fn new(py: Python<'_>, path: PathBuf) -> PyResult<PyTable> {
        let opened = run(py, || tablefile::Table::open(&path))?;
        let table = opened.map_err(|e| table_error(py, &path, &e))?;
        Ok(PyTable {
            inner: Arc::new(table),
            path: Some(path),
        })
    }

    /// `"euler"` or `"flip"`.
    #[getter]
    fn puzzle(&self) -> String {
        self.inner.puzzle().to_string()
    }

    /// Rows of the board shape.
    #[getter]
    fn rows(&self) -> usize {
        self.inner.shape().rows()
    }

    /// Columns of the board shape.
    #[getter]
    fn cols(&self) -> usize {
        self.inner.shape().cols()
    }

    /// The file format's version.
    #[getter]
    fn version(&self) -> u32 {
        self.inner.version()
    }

    /// Whether an Euler table holds the win/loss bits only.
    #[getter]
    fn wdl_only(&self) -> bool {
        self.inner.is_wdl_only()
    }

    /// The columns: (name, bits an entry, entries, bytes, offset in the
    /// file or None: held in memory, or compressed, so not a view of the
    /// file).
    fn columns(&self) -> Vec<(String, u8, u64, u64, Option<u64>)> {
        self.inner
            .columns()
            .map(|c| {
                let packed = c.blocks.is_some_and(|b| b.packed.is_some());
                let offset = if packed { None } else { c.offset };
                (c.name.clone(), c.width, c.entries, c.byte_len, offset)
            })
            .collect()
    }

    /// Who wins each Euler position (covered squares in the board layout)
    /// for the player to move: a bool for an int, a bool array for a
    /// `uint64` array.
    fn euler_winning(&self, py: Python<'_>, positions: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let euler = self.inner.as_euler().map_err(|e| not_this(py, &e))?;
        probe_many(
            py,
            self.path.as_deref(),
            positions,
            |p| {
                euler
                    .outcome(p)
                    .map(|o| o == boardbase::euler::Outcome::Win)
            },
            |won| won,
        )
    }

    /// Moves left with best play from each Euler position: an int (None
    /// where the table holds no moves left, win/loss only) for an int, an
    /// int16 array (-1 for None) for a `uint64` array.
    fn euler_moves_left(
        &self,
        py: Python<'_>,
        positions: &Bound<'_, PyAny>,
    ) -> PyResult<Py<PyAny>> {
        let euler = self.inner.as_euler().map_err(|e| not_this(py, &e))?;
        probe_many(
            py,
            self.path.as_deref(),
            positions,
            |p| euler.moves_left(p),
            |left| left.map_or(-1, i16::from),
        )
    }

    /// Fewest rounds from each Flip board to a uniform one: an int (None
    /// where neither colour can be reached) for an int, an int16 array (-1
    /// for None) for a `uint64` array.
    fn flip_rounds(&self, py: Python<'_>, boards: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let flip = self.inner.as_flip().map_err(|e| not_this(py, &e))?;
        probe_many(
            py,
            self.path.as_deref(),
            boards,
            |b| flip.rounds(b),
            |rounds| rounds.map_or(-1, i16::from),
        )
    }

    /// The embedded 4×4 table of `puzzle` (`"flip"` or `"euler"`), in
    /// memory.
    #[staticmethod]
    fn embedded(py: Python<'_>, puzzle: &str) -> PyResult<PyTable> {
        let puzzle = match puzzle {
            "flip" => Puzzle::Flip,
            "euler" => Puzzle::Euler,
            other => {
                return Err(error(
                    py,
                    "OptionError",
                    &format!("puzzle {other:?}: expected \"flip\" or \"euler\""),
                    &[],
                ));
            }
        };
        Ok(PyTable {
            inner: Arc::new(tablefile::Table::embedded(puzzle)),
            path: None,
        })
    }
}

/// A probe of one position (a Python int: the answer as a Python object)
/// or of a `uint64` array (GIL released; `entry` makes each answer an
/// array element).
fn probe_many<'py, T, E>(
    py: Python<'py>,
    path: Option<&Path>,
    positions: &Bound<'py, PyAny>,
    probe: impl Fn(u64) -> Result<T, TableError> + Sync,
    entry: impl Fn(T) -> E,
) -> PyResult<Py<PyAny>>
where
    T: IntoPyObject<'py> + Send + Copy + Default,
    E: numpy::Element,
{
    if positions.is_instance_of::<pyo3::types::PyInt>() {
        let position: u64 = positions.extract().map_err(|_| {
            error(
                py,
                "OptionError",
                &format!("position {positions}: expected 0 to 2^64 - 1 (the board's bits)"),
                &[],
            )
        })?;
        let answer = probe(position).map_err(|e| probe_error(py, path, None, &e))?;
        return answer.into_py_any(py);
    }
    let array: PyReadonlyArray1<'py, u64> = positions.extract()?;
    let slice = array.as_slice().map_err(|e| contiguous(py, &e))?;
    let answers = probe_all(py, path, slice, probe)?;
    let out: Vec<E> = answers.into_iter().map(entry).collect();
    Ok(PyArray1::from_vec(py, out).into_any().unbind())
}

/// `OptionError` for a probe of the other puzzle's table.
fn not_this(py: Python<'_>, e: &TableError) -> PyErr {
    error(py, "OptionError", &e.to_string(), &[])
}

/// `OptionError` for an array that is not contiguous.
fn contiguous(py: Python<'_>, e: &dyn std::fmt::Display) -> PyErr {
    error(
        py,
        "OptionError",
        &format!("positions: {e} (pass numpy.ascontiguousarray(positions, dtype=numpy.uint64))"),
        &[],
    )
}

/// The progress reports of a job running on another thread that the
/// calling thread has not passed on yet, and whether the job has ended:
/// what the calling thread waits on. A report replaces the one before it
/// when both are of one phase and that one neither starts the phase
/// (`done == 0`) nor ends it (`done == total`): the callback hears the
/// latest count, not every one, while every phase is heard to start and to
/// end, however slow the callback. A report equal to the one before it
/// (a compression's training says "nothing done yet" after each chunk it
/// reads) is dropped. At most three reports a phase wait.
#[derive(Default)]
struct Pending {
    reports: Vec<Progress>,
    /// The last report pushed, passed on or not.
    last: Option<Progress>,
    ended: bool,
}

impl Pending {
    fn push(&mut self, report: Progress) {
        if self.last.replace(report) == Some(report) {
            return;
        }
        match self.reports.last_mut() {
            Some(last)
                if last.phase == report.phase && last.done != 0 && last.done < last.total =>
            {
                *last = report;
            }
            _ => self.reports.push(report),
        }
    }
}

/// `boardbase generate PUZZLE RxC --dir DIR [--wdl-only] [--memory M]
/// [--jobs N]` from Python: the library's [`Job`], run on a
/// thread of its own while this one (GIL released between reports) calls
/// `progress(phase, done, total)` with the latest report, each phase's
/// first and last included ([`Pending`]), and checks for Ctrl-C. A Ctrl-C or an exception from `progress` cancels the job: the
/// exception is raised and no table (nor a temporary file) is left, only
/// an Euler job's checkpoint when it saved layers. Returns
/// the summary of `generate --format json`.
#[pyfunction]
#[pyo3(signature = (puzzle, shape, dir, wdl_only, memory, jobs, checkpoint_every, progress, options=None, compress=false, symmetry=false))]
#[allow(clippy::too_many_arguments)]
fn generate(
    py: Python<'_>,
    puzzle: &str,
    shape: &str,
    dir: PathBuf,
    wdl_only: bool,
    memory: Option<&str>,
    jobs: Option<usize>,
    checkpoint_every: f64,
    progress: Option<Py<PyAny>>,
    options: Option<std::collections::BTreeMap<String, u64>>,
    compress: bool,
    symmetry: bool,
) -> PyResult<Py<PyAny>> {
    let option = |message: String| error(py, "OptionError", &message, &[]);
    let given: Vec<(&str, u64)> = options
        .iter()
        .flatten()
        .map(|(name, &value)| (name.as_str(), value))
        .collect();
    let model = match puzzle {
        "euler" | "flip" => None,
        other => Some(boardbase::catalogue::model(other).ok_or_else(|| {
            let names: Vec<&str> = boardbase::catalogue::MODELS
                .iter()
                .map(|m| m.game)
                .filter(|&g| g != "euler")
                .collect();
            option(format!(
                "puzzle {other:?}: expected \"euler\", \"flip\" or a game of the model ({})",
                names.join(", ")
            ))
        })?),
    };
    let puzzle = if puzzle == "flip" {
        Puzzle::Flip
    } else {
        Puzzle::Euler
    };
    let shape = parse_size(py, Some(shape))?.ok_or_else(|| option("no shape".to_owned()))?;
    let memory_limit = memory
        .map(|m| {
            m.parse::<ByteSize>()
                .map(|b| b.0)
                .map_err(|e| option(format!("memory {m:?}: {e}")))
        })
        .transpose()?;
    if jobs == Some(0) || jobs.is_some_and(|n| n > 1024) {
        return Err(option(format!(
            "jobs {}: expected 1 to 1024",
            jobs.unwrap_or_default()
        )));
    }
    if !(0.0..=86_400.0).contains(&checkpoint_every) {
        return Err(option(format!(
            "checkpoint_every {checkpoint_every}: expected seconds from 0 to 86400"
        )));
    }
    let plan = match model {
        Some(model) => {
            let euler_only = [("wdl_only=True", wdl_only), ("jobs", jobs.is_some())];
            if let Some((name, _)) = euler_only.iter().find(|(_, given)| *given) {
                return Err(option(format!(
                    "{name} is for euler and flip: a {} table is solved by one thread",
                    model.game
                )));
            }
            if symmetry {
                return Err(option(format!(
                    "symmetry=True is for euler and flip: a {} table is solved by classes of the game's symmetries already",
                    model.game
                )));
            }
            let setup = model
                .setup(Some(shape), &given)
                .map_err(|e| setup_error(py, &e))?;
            let job = GameJob {
                dir,
                memory_limit,
                checkpoint_every: std::time::Duration::from_secs_f64(checkpoint_every),
                compress,
                ..GameJob::new(model, setup)
            };
            Planned::Game(job.plan().map_err(|e| job_error(py, e))?)
        }
        None => {
            if let Some((name, _)) = given.first() {
                return Err(option(format!(
                    "{name}= is for the games of the model (games()), not {puzzle}"
                )));
            }
            let job = Job {
                dir,
                wdl_only,
                threads: jobs,
                memory_limit,
                checkpoint_every: std::time::Duration::from_secs_f64(checkpoint_every),
                compress,
                symmetry,
                ..Job::new(puzzle, shape)
            };
            Planned::Table(job.plan().map_err(|e| job_error(py, e))?)
        }
    };
    let cancel = Cancel::new();
    let pending = (Mutex::new(Pending::default()), Condvar::new());
    let outcome = std::thread::scope(|scope| -> PyResult<_> {
        let worker = scope.spawn(|| {
            let ran = catch_unwind(AssertUnwindSafe(|| {
                plan.run(
                    |p| {
                        let (slot, wake) = &pending;
                        if let Ok(mut slot) = slot.lock() {
                            slot.push(p);
                            wake.notify_one();
                        }
                    },
                    &cancel,
                )
            }));
            let (slot, wake) = &pending;
            if let Ok(mut slot) = slot.lock() {
                slot.ended = true;
            }
            wake.notify_one();
            ran
        });
        // This thread: wait (GIL released) for reports or the end, then
        // (GIL held) pass the reports on, in order, and look for Ctrl-C.
        // The reports and the end are taken together: once the job has
        // ended, none is left behind.
        let mut raised: Option<PyErr> = None;
        loop {
            let (reports, ended) = py.detach(|| {
                let (slot, wake) = &pending;
                let mut guard = slot.lock().unwrap_or_else(|e| e.into_inner());
                if !guard.ended && guard.reports.is_empty() {
                    guard = wake
                        .wait_timeout(guard, std::time::Duration::from_millis(100))
                        .map(|(g, _)| g)
                        .unwrap_or_else(|e| e.into_inner().0);
                }
                (std::mem::take(&mut guard.reports), guard.ended)
            });
            if raised.is_none() {
                if let Err(e) = py.check_signals() {
                    cancel.cancel();
                    raised = Some(e);
                } else if let Some(callback) = &progress {
                    for p in reports {
                        if let Err(e) = callback.call1(py, (p.phase.name(), p.done, p.total)) {
                            cancel.cancel();
                            raised = Some(e);
                            break;
                        }
                    }
                }
            }
            if ended {
                break;
            }
        }
        let ran = py.detach(|| worker.join());
        Ok((ran, raised))
    })?;
    let (ran, raised) = outcome;
    if let Some(e) = raised {
        return Err(e);
    }
    match ran {
        Ok(Ok(Ok(report))) => to_python(py, &report),
        Ok(Ok(Err(e))) => Err(job_error(py, e)),
        Ok(Err(_)) | Err(_) => Err(error(
            py,
            "InternalError",
            "boardbase panicked while generating (a bug; please report it)",
            &[],
        )),
    }
}

/// A job planned: a puzzle's table, or a game of the model's.
enum Planned {
    Table(Plan),
    Game(GamePlan),
}

/// What a job made, as `generate --format json` writes it.
#[derive(Serialize)]
#[serde(untagged)]
enum Summary {
    Table(Report),
    Game(GameReport),
}

impl Planned {
    fn run(
        &self,
        progress: impl Fn(Progress) + Sync,
        cancel: &Cancel,
    ) -> Result<Summary, GenerateError> {
        match self {
            Planned::Table(plan) => plan.run(progress, cancel).map(Summary::Table),
            Planned::Game(plan) => plan.run(progress, cancel).map(Summary::Game),
        }
    }
}

/// The Python exception of a job's error.
fn job_error(py: Python<'_>, e: GenerateError) -> PyErr {
    // The settings as `generate()` takes them.
    let message = e.message(|setting| match setting {
        JobSetting::WdlOnly => "wdl_only=True".to_owned(),
        JobSetting::MemoryLimit => "memory=".to_owned(),
        JobSetting::CheckpointEvery => "checkpoint_every".to_owned(),
        JobSetting::Symmetry => "symmetry=True".to_owned(),
        other => other.flag().to_owned(),
    });
    match e.kind() {
        Kind::TooLarge => error(py, "ShapeError", &message, &[]),
        Kind::Mismatch | Kind::Option | Kind::Syntax | Kind::Search => {
            error(py, "OptionError", &message, &[])
        }
        // A table or a checkpoint that cannot be written or used: a file's
        // error.
        Kind::Table | Kind::Io => match e.file() {
            Some(path) => error(
                py,
                "TableFileError",
                &message,
                &[("filename", attr(py, path.display().to_string()))],
            ),
            None => error(py, "TableFileError", &message, &[]),
        },
        Kind::Resource => error(py, "ResourceError", &message, &[]),
        Kind::Interrupted => pyo3::exceptions::PyKeyboardInterrupt::new_err(message),
        _ => error(py, "InternalError", &message, &[]),
    }
}

/// The catalogue: every game and the judges' problems on it, as
/// `boardbase games --format json` lists them.
#[pyfunction]
fn games(py: Python<'_>) -> PyResult<Py<PyAny>> {
    to_python(py, &boardbase::report::GameEntry::all())
}

/// Returns its argument: the trivial PyO3 call that docs/python.md's
/// benchmark compares a probe with.
#[pyfunction]
fn _echo(x: u64) -> u64 {
    x
}

/// Panics inside the guarded call, for the test that no panic crosses into
/// Python.
#[pyfunction]
fn _panic_for_test(py: Python<'_>) -> PyResult<()> {
    run(py, || panic!("a panic on purpose (the binding's test)"))
}

/// The compiled module.
#[pymodule]
fn _boardbase(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyTablebase>()?;
    m.add_class::<PyTable>()?;
    m.add_class::<PyFlipLookup>()?;
    m.add_class::<PyEulerLookup>()?;
    m.add_function(wrap_pyfunction!(_panic_for_test, m)?)?;
    m.add_function(wrap_pyfunction!(_echo, m)?)?;
    m.add_function(wrap_pyfunction!(generate, m)?)?;
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
