//! Where answers go and cases come from: standard output buffered (and
//! flushed per case when a person is watching), the judges' line-by-line
//! input, FILE or standard input, and one line of JSON.

use std::fs::File;
use std::io::{self, BufWriter, IsTerminal, Read, StdoutLock, Write};
use std::path::PathBuf;

use boardbase::input::{InputError, Scanner};
use clap::Args;

use super::Failure;

/// Where a subcommand's cases come from.
#[derive(Debug, Args)]
pub struct InputArgs {
    /// Input file; standard input when absent or `-`.
    #[arg(value_name = "FILE")]
    file: Option<PathBuf>,
}

/// Buffered standard output that flushes after every case when a person is
/// watching (output to a terminal, or cases typed at one: see
/// [`Source::open`]), and only when full otherwise.
pub struct Output {
    w: BufWriter<StdoutLock<'static>>,
    eager: bool,
}

impl Output {
    pub(crate) fn stdout() -> Output {
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

    /// Writes what is buffered.
    pub(crate) fn flush(&mut self) -> io::Result<()> {
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
