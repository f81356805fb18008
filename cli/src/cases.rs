//! `boardbase cases` (alias `gen`): judge inputs with known answers.

use std::fs::{self, File};
use std::io::BufWriter;
use std::path::{Path, PathBuf};

use boardbase::cases::sized::{SizedAnswers, SizedFilter};
use boardbase::cases::{CaseWriter, CasesError, Spec, carcassonne, euler, flip, fliptile, lights};
use boardbase::error::{Classify, Kind};
use boardbase::lights::family::{FamilyGoal, Pattern};
use boardbase::tablebase::{self, Origin};
use boardbase::tablefile::{AtomicFile, Puzzle};
use boardbase::tables::shape::{MAX_SIDE, Shape};
use clap::Args;

use super::options::{VariantArgs, parse_goal};
use super::{Failure, Output, PuzzleName, hinted};

/// Which cases, by answer or category: shared by `cases` and `check`.
#[derive(Debug, Args)]
pub struct FilterArgs {
    /// Which category of cases: flip `random` (all 65,536 boards), `solvable` or
    /// `impossible`; euler `random` (the 65,535 open positions), `winning`
    /// or `losing`; carcassonne `random`, `planted` (a placement exists),
    /// `two-pair` (every profile stays alive) or `uniform` (one tile
    /// everywhere); fliptile `random`, `solvable`, `impossible` or `ties`
    /// (several fewest flip sets: the tie rule decides); lightsout has
    /// only random puzzles; lights `random`, `solvable` (the goal can be
    /// reached) or `impossible` [default: random, or every category for
    /// check carcassonne and check fliptile].
    // Named `--family` on the command line, as it always was: scripts
    // written for it keep working.
    #[arg(long = "family", value_name = "F")]
    category: Option<String>,
    /// Flip: only boards whose fewest rounds are K (0 to 6).
    #[arg(long, value_name = "K")]
    rounds: Option<u8>,
    /// Euler: only positions lasting K moves with perfect play.
    #[arg(long, value_name = "K")]
    moves_left: Option<u8>,
}

impl FilterArgs {
    /// Refuses the options that are not for `puzzle`.
    fn applies_to(&self, puzzle: PuzzleName) -> Result<(), String> {
        let name = puzzle.name();
        if self.rounds.is_some() && puzzle != PuzzleName::Flip {
            return Err(format!("--rounds is for flip, not {name}"));
        }
        if self.moves_left.is_some() && puzzle != PuzzleName::Euler {
            return Err(format!("--moves-left is for euler, not {name}"));
        }
        if puzzle == PuzzleName::Lightsout
            && let Some(f) = self.category.as_deref().filter(|f| *f != "random")
        {
            return Err(format!(
                "--family {f}: lightsout has only random puzzles (every 5x6 board has exactly one press set; its puzzles are drawn uniformly)"
            ));
        }
        Ok(())
    }

    /// The Flip filter asked for.
    pub fn flip(&self) -> Result<flip::Filter, String> {
        self.applies_to(PuzzleName::Flip)?;
        Ok(flip::Filter {
            category: self.category.as_deref().unwrap_or("random").parse()?,
            rounds: self.rounds,
        })
    }

    /// The Euler filter asked for.
    pub fn euler(&self) -> Result<euler::Filter, String> {
        self.applies_to(PuzzleName::Euler)?;
        Ok(euler::Filter {
            category: self.category.as_deref().unwrap_or("random").parse()?,
            moves_left: self.moves_left,
        })
    }

    /// The Carcassonne category asked for, if any.
    pub fn carcassonne(&self) -> Result<Option<carcassonne::CarcassonneCategory>, String> {
        self.applies_to(PuzzleName::Carcassonne)?;
        self.category.as_deref().map(str::parse).transpose()
    }

    /// The Fliptile category asked for, if any.
    pub fn fliptile(&self) -> Result<Option<fliptile::FliptileCategory>, String> {
        self.applies_to(PuzzleName::Fliptile)?;
        self.category.as_deref().map(str::parse).transpose()
    }

    /// The category of the Lights Out family's boards asked for.
    pub fn lights(&self) -> Result<lights::LightsCategory, String> {
        self.applies_to(PuzzleName::Lights)?;
        self.category.as_deref().unwrap_or("random").parse()
    }

    /// Lights Out takes none of the options.
    pub fn lightsout(&self) -> Result<(), String> {
        self.applies_to(PuzzleName::Lightsout)
    }
}

/// Arguments of `boardbase cases`.
#[derive(Debug, Args)]
pub struct CasesArgs {
    /// The puzzle whose judge input to write.
    #[arg(value_enum)]
    puzzle: PuzzleName,
    /// How many cases.
    #[arg(long, value_name = "N")]
    cases: u64,
    #[arg(long, value_name = "S", default_value_t = 0, help = super::options::seed_help!())]
    seed: u64,
    #[command(flatten)]
    filter: FilterArgs,
    #[arg(long, value_name = "RxC", value_parser = parse_size,
          help = super::options::size_help!(),
          long_help = concat!(super::options::size_help!(), ": carcassonne (default 12x12); fliptile (1 to 64 a side; default: each side drawn from 1 to 15, the judge's limits); flip (default 4x4; up to 64x64, answers from a table or the GF(2) solver) and euler (default 4x4; up to 36 squares, answers from a table: a file, or made in memory up to 25 squares); lights (needed: the variant's board). Lights Out is 5x6"))]
    size: Option<(usize, usize)>,
    #[arg(long, value_name = "FILE", help = super::options::table_help!())]
    table: Option<PathBuf>,
    #[arg(long = "tables", value_name = "DIR", value_parser = super::existing_dir,
          help = super::options::tables_help!())]
    tables: Vec<PathBuf>,
    /// `--max-nullity K`: the limit of the search that answers Flip boards
    /// of other sizes and the Lights Out family's (flip and lights; the
    /// other puzzles keep 24).
    #[command(flatten)]
    nullity: super::options::NullityArgs,
    /// lights: the variant's colours, wrap and press pattern.
    #[command(flatten)]
    variant: VariantArgs,
    #[arg(long, value_name = "G", value_parser = parse_goal,
          help = concat!(super::options::goal_help!(), " [default: 0]"))]
    goal: Option<FamilyGoal>,
    /// Also write the judge's expected output to FILE.
    #[arg(long, value_name = "FILE")]
    answers: Option<PathBuf>,
}

fn parse_size(text: &str) -> Result<(usize, usize), String> {
    let bad = || format!("'{text}' is not a size like 12x12");
    let (r, c) = text.split_once(['x', 'X', '×']).ok_or_else(bad)?;
    Ok((
        r.trim().parse().map_err(|_| bad())?,
        c.trim().parse().map_err(|_| bad())?,
    ))
}

/// Refuses the Lights Out family's options for another puzzle: shared by
/// `cases` and `check`.
pub fn lights_options(
    puzzle: PuzzleName,
    variant: &VariantArgs,
    goal: Option<FamilyGoal>,
) -> Result<(), String> {
    if puzzle != PuzzleName::Lights
        && (variant.colours != 2
            || variant.wrap
            || variant.pattern != Pattern::Plus
            || goal.is_some())
    {
        return Err(format!(
            "--colours, --wrap, --pattern and --goal are for lights, not {}",
            puzzle.name()
        ));
    }
    Ok(())
}

/// The Lights Out family's boards that `--size`, the variant's options,
/// `--goal` (0 by default), `--family` and `--max-nullity` ask for: shared
/// by `cases lights` and `check lights`.
pub fn lights_spec(
    size: Option<(usize, usize)>,
    variant: &VariantArgs,
    goal: Option<FamilyGoal>,
    filter: &FilterArgs,
    max_nullity: usize,
) -> Result<lights::Spec, String> {
    let (r, c) =
        size.ok_or_else(|| "--size RxC is needed for lights: the variant's board size".to_owned())?;
    let shape = Shape::new(r, c)
        .ok_or_else(|| format!("--size {r}x{c}: boards have 1 to {MAX_SIDE} rows and columns"))?;
    let goal = goal.unwrap_or(FamilyGoal::Colour(0));
    variant.check_goal(goal).map_err(|e| e.to_string())?;
    let variant = variant.variant(shape).map_err(|e| e.to_string())?;
    lights::Spec::new(filter.lights()?, variant, goal, max_nullity).map_err(|e| match e {
        CasesError::Answer(e) if e.kind() == Kind::Search => format!("{e}{}", hinted(&e)),
        e => e.to_string(),
    })
}

/// The spec the arguments ask for, or why they do not make one.
fn spec(args: &CasesArgs) -> Result<Spec, String> {
    let name = args.puzzle.name();
    if let (PuzzleName::Lightsout, Some((r, c))) = (args.puzzle, args.size)
        && (r, c) != (5, 6)
    {
        return Err(format!(
            "--size {r}x{c}: Extended Lights Out boards are 5x6"
        ));
    }
    if !matches!(args.puzzle, PuzzleName::Flip | PuzzleName::Euler)
        && (args.table.is_some() || !args.tables.is_empty())
    {
        return Err(format!(
            "--table and --tables are for flip and euler, not {name}"
        ));
    }
    Ok(match args.puzzle {
        // Flip and Euler are drawn through the answer layer (`run_sized`),
        // every size alike.
        PuzzleName::Flip | PuzzleName::Euler => {
            return Err(format!("{name} cases are drawn by the answer layer"));
        }
        PuzzleName::Carcassonne => {
            let (rows, cols) = args.size.unwrap_or((12, 12));
            Spec::Carcassonne(carcassonne::Spec {
                category: args.filter.carcassonne()?.unwrap_or_default(),
                rows,
                cols,
            })
        }
        PuzzleName::Fliptile => Spec::Fliptile(fliptile::Spec {
            category: args.filter.fliptile()?.unwrap_or_default(),
            size: args
                .size
                .map(|(r, c)| {
                    Shape::new(r, c).ok_or_else(|| {
                        format!("--size {r}x{c}: Fliptile sides are 1 to {MAX_SIDE}")
                    })
                })
                .transpose()?,
        }),
        PuzzleName::Lightsout => {
            args.filter.lightsout()?;
            Spec::LightsOut
        }
        PuzzleName::Lights => Spec::Lights(lights_spec(
            args.size,
            &args.variant,
            args.goal,
            &args.filter,
            args.nullity.get(),
        )?),
    })
}

/// Where the answers go: a temporary file beside FILE, renamed to it once
/// complete, removed if anything fails; or, when FILE is a device, a pipe
/// or a terminal (`>(sha256sum)`, a FIFO, `/dev/null`), FILE itself, since
/// a rename would replace the device instead of writing to it (see
/// [`AtomicFile`]). Never the standard output the cases go to.
struct AnswerFile {
    path: PathBuf,
    w: BufWriter<AtomicFile>,
}

impl AnswerFile {
    fn create(path: &Path) -> Result<AnswerFile, Failure> {
        if is_standard_output(path) {
            return Err(Failure::Usage(format!(
                "--answers {} is the standard output too: the cases and the answers would be mixed; \
                 give the answers a file of their own",
                path.display()
            )));
        }
        let file = AtomicFile::create(path).map_err(|error| Failure::Write {
            path: path.display().to_string(),
            error,
        })?;
        Ok(AnswerFile {
            path: path.to_owned(),
            w: BufWriter::with_capacity(64 * 1024, file),
        })
    }

    /// Flushes the answers and renames them into place (dropped before,
    /// the temporary file is removed: nothing half-written is left).
    fn commit(self) -> Result<(), Failure> {
        let path = self.path.display().to_string();
        let failure = |error| Failure::Write {
            path: path.clone(),
            error,
        };
        let file = self.w.into_inner().map_err(|e| failure(e.into_error()))?;
        file.commit().map_err(failure)
    }
}

/// Whether `path` is the file or pipe the cases go to (`--answers
/// /dev/stdout`, or the file stdout is redirected to): the two writers
/// would overwrite or interleave each other. A terminal or a device such as
/// /dev/null is not counted: nothing written there is lost.
#[cfg(unix)]
fn is_standard_output(path: &Path) -> bool {
    use std::os::fd::AsFd;
    use std::os::unix::fs::{FileTypeExt, MetadataExt};
    let Ok(target) = fs::metadata(path) else {
        return false;
    };
    let Ok(fd) = std::io::stdout().as_fd().try_clone_to_owned() else {
        return false;
    };
    let Ok(out) = File::from(fd).metadata() else {
        return false;
    };
    let kind = target.file_type();
    (kind.is_file() || kind.is_fifo() || kind.is_socket())
        && (target.dev(), target.ino()) == (out.dev(), out.ino())
}

#[cfg(not(unix))]
fn is_standard_output(_: &Path) -> bool {
    false
}

/// The shape of a Flip or Euler `cases`: `--size`, else the shape of
/// `--table`, else 4×4.
fn sized_shape(args: &CasesArgs, puzzle: Puzzle) -> Result<Shape, Failure> {
    let shape = match args.size {
        Some((r, c)) => Some(Shape::new(r, c).ok_or_else(|| {
            Failure::Usage(format!(
                "--size {r}x{c}: {puzzle} boards have 1 to {MAX_SIDE} rows and columns"
            ))
        })?),
        None => None,
    };
    match (&args.table, shape) {
        (None, s) => Ok(s.unwrap_or(Shape::SQUARE4)),
        (Some(path), s) => tablebase::open_as(path, puzzle, s)
            .map(|f| f.table().shape())
            .map_err(Failure::Tablebase),
    }
}

/// What answers `puzzle` on `shape` for `cases --size` and `check --size`,
/// as the tablebase of `--table`, `--tables` and `--max-nullity` finds it;
/// says on stderr when an Euler table was made in memory.
pub fn sized_answers(
    puzzle: Puzzle,
    shape: Shape,
    table: Option<&Path>,
    tables: &[PathBuf],
    max_nullity: usize,
) -> Result<SizedAnswers, Failure> {
    let tablebase = super::table_args::tablebase_of(tables, table, max_nullity);
    let answers = SizedAnswers::new(&tablebase, puzzle, shape)?;
    if let Some(found) = answers.table()
        && found.origin == Origin::Made
    {
        eprintln!(
            "note: made the euler {shape} table in memory ({:.2} s); `{}` writes it to a file",
            found.elapsed.as_secs_f64(),
            tablebase.missing(puzzle, shape).command()
        );
    }
    Ok(answers)
}

/// The filter of `puzzle`'s cases that `filter`'s options ask for.
pub fn sized_filter(puzzle: Puzzle, filter: &FilterArgs) -> Result<SizedFilter, Failure> {
    Ok(match puzzle {
        Puzzle::Flip => SizedFilter::Flip(filter.flip().map_err(Failure::Usage)?),
        Puzzle::Euler => SizedFilter::Euler(filter.euler().map_err(Failure::Usage)?),
    })
}

/// `boardbase cases flip|euler`, of any size: the boards drawn as
/// [`SizedAnswers::cases`] draws them (on 4×4 from the list of every
/// eligible board, whatever table answers), answered by the table or the
/// GF(2) solver the tablebase finds.
fn run_sized(
    args: &CasesArgs,
    puzzle: Puzzle,
    shape: Shape,
    out: &mut Output,
) -> Result<(), Failure> {
    let usage = |e: CasesError| match e {
        CasesError::Empty { .. } | CasesError::Size(_) | CasesError::Lights(_) => {
            Failure::Usage(e.to_string())
        }
        e => Failure::Cases(e),
    };
    let answers = sized_answers(
        puzzle,
        shape,
        args.table.as_deref(),
        &args.tables,
        args.nullity.get(),
    )?;
    let cases = answers
        .cases(sized_filter(puzzle, &args.filter)?)
        .map_err(usage)?;
    let uva = &boardbase::euler::UVA_10536;
    if args.cases > uva.max_cases as u64 && puzzle == Puzzle::Euler {
        eprintln!(
            "note: {} cases: {} {}; writing it anyway",
            args.cases, uva.judge, uva.limits
        );
    }
    write_cases(args, out, |out, answer_file, progress| {
        Ok(cases.write(args.cases, args.seed, out, answer_file, progress))
    })
}

/// Writes the cases with `write` (given the output, the `--answers` file
/// if asked for and a progress callback; it fails with a [`Failure`] before
/// writing, with a [`CasesError`] while writing), a progress bar on stderr
/// meanwhile; then flushes the output and renames the answers into place.
fn write_cases(
    args: &CasesArgs,
    out: &mut Output,
    write: impl FnOnce(
        &mut Output,
        Option<&mut BufWriter<AtomicFile>>,
        &mut dyn FnMut(u64),
    ) -> Result<Result<(), CasesError>, Failure>,
) -> Result<(), Failure> {
    let mut answers = args
        .answers
        .as_deref()
        .map(AnswerFile::create)
        .transpose()?;
    let bar = super::bar::counter("cases", args.cases);
    let result = write(out, answers.as_mut().map(|a| &mut a.w), &mut |done| {
        bar.set_position(done)
    });
    bar.finish_and_clear();
    match result? {
        Ok(()) => {}
        Err(CasesError::Io(e)) => {
            // Either stream: a broken stdout pipe ends quietly (the answers
            // file is then removed, being incomplete); others are reported.
            if e.kind() == std::io::ErrorKind::BrokenPipe {
                return Err(Failure::BrokenPipe);
            }
            return Err(Failure::Output(e));
        }
        Err(e) => return Err(Failure::Cases(e)),
    }
    out.flush()?;
    if let Some(a) = answers {
        a.commit()?;
    }
    Ok(())
}

/// Runs `boardbase cases`.
pub fn run(args: &CasesArgs, out: &mut Output) -> Result<(), Failure> {
    lights_options(args.puzzle, &args.variant, args.goal).map_err(Failure::Usage)?;
    let sized_puzzle = match args.puzzle {
        PuzzleName::Flip => Some(Puzzle::Flip),
        PuzzleName::Euler => Some(Puzzle::Euler),
        _ => None,
    };
    if let Some(puzzle) = sized_puzzle {
        let shape = sized_shape(args, puzzle)?;
        return run_sized(args, puzzle, shape, out);
    }
    let spec = spec(args).map_err(Failure::Usage)?;
    let writer = CaseWriter::new(&spec).map_err(|e| match e {
        CasesError::Empty { .. } | CasesError::Size(_) => Failure::Usage(e.to_string()),
        e => Failure::Cases(e),
    })?;
    judge_limits_note(args, &spec);
    write_cases(args, out, |out, answers, progress| {
        Ok(writer.write(args.cases, args.seed, out, answers, progress))
    })
}

/// Says on stderr when the input goes past the judge's own limits (it is
/// still written as asked: `boardbase` reads any count).
fn judge_limits_note(args: &CasesArgs, spec: &Spec) {
    let (hdu, poj) = (
        &boardbase::carcassonne::HDU_4064,
        &boardbase::lights::POJ_3279,
    );
    let note = match spec {
        Spec::Carcassonne(c) if args.cases > hdu.max_cases as u64 || c.rows > 12 || c.cols > 12 => {
            Some(format!(
                "{} {} of {}x{}: {} {}",
                args.cases,
                if args.cases == 1 { "case" } else { "cases" },
                c.rows,
                c.cols,
                hdu.judge,
                hdu.limits
            ))
        }
        Spec::Fliptile(fliptile::Spec {
            size: Some(shape), ..
        }) if shape.rows() > fliptile::JUDGE_MAX_SIDE
            || shape.cols() > fliptile::JUDGE_MAX_SIDE =>
        {
            Some(format!(
                "{}x{}: {} {}",
                shape.rows(),
                shape.cols(),
                poj.judge,
                poj.limits
            ))
        }
        _ => None,
    };
    if let Some(note) = note {
        eprintln!("note: {note}; writing it anyway");
    }
}
