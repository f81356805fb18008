//! The commands of the README and of docs/ run, and print what the docs say.
//!
//! Every ```` ```console ```` block of `README.md` and `docs/**/*.md` is a
//! session: each `$ COMMAND` line runs in `sh` (stderr merged into stdout, in
//! the order written), and the lines after it, up to the next `$` or the end
//! of the block, are its expected output. A `? N` line right after the
//! command is its expected exit status (`? failed`: any but 0); without one it
//! must be 0. In the expected output `[..]` matches anything within a line
//! (times, memory, rates) and a line `...` any number of lines.
//!
//! The commands run as written from the repository root: each doc gets a
//! scratch directory (under cargo's target directory) holding a symbolic link
//! to every top-level entry of the repository but `target/`, `.git/` and
//! `tables/` (the solvers' source: a command writing there must not reach
//! the checkout; the docs write table files to `my-tables`, which a reader
//! in the repository root can make without touching a source folder), so
//! `examples/flip-sample.txt` is found and whatever a command writes
//! (`my-tables/`, `answers.txt`, a compiled `./flip`) stays in the scratch
//! directory. The blocks of one doc
//! run in order in the same directory; `boardbase` is the binary under test.
//!
//! `$ boardbase serve ...` (after `NAME=VALUE` words, if any) starts the server
//! in the background on a free loopback port (`--bind 127.0.0.1:0` is added)
//! until the next one starts or the doc ends; its expected output is its
//! start-up report, and `localhost:8080` in later commands is that port
//! (`8080` again in their output).
//!
//! To refresh the expected outputs after a change of output, from the
//! repository root:
//!
//! ```sh
//! DOCS=overwrite cargo test -p boardbase-cli --test docs
//! ```
//!
//! which rewrites each block's outputs and statuses that no longer match,
//! keeping the `...` and `[..]` of every line that still matches; review the
//! diff. `DOCS_ONLY=guide` runs only the docs whose path contains `guide`.
//! A command that could not run as meant (a program not found, or a
//! failure where the doc shows success) is never rewritten: the test fails
//! naming it, with or without `DOCS=overwrite`. The programs the commands
//! run besides `boardbase` are checked first ([`TOOLS`]).

use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The repository root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("cli/ is in the repository")
        .to_path_buf()
}

/// One `$` command of a block and what the doc expects of it.
struct Step {
    /// The line of the `$` (1-based), for messages.
    line: usize,
    command: String,
    /// The expected exit status: `None` for `? failed`, `Some(code)`.
    status: Option<i32>,
    /// Whether the doc wrote a `?` line.
    status_written: bool,
    expected: Vec<String>,
}

/// A ```` ```console ```` block: its steps and where it sits in the file.
struct Block {
    /// Index of the first line inside the fence, and one past the last.
    start: usize,
    end: usize,
    steps: Vec<Step>,
}

fn parse_blocks(text: &str) -> Vec<Block> {
    let lines: Vec<&str> = text.split('\n').collect();
    let mut blocks = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let fence = lines[i].trim_end();
        // An indented console block (in a list item) would be skipped
        // without a word: it must start at the margin to be run.
        assert!(
            !(fence.trim_start().starts_with("```console") && fence.starts_with(' ')),
            "line {}: an indented ```console block is not run; start it at the margin",
            i + 1
        );
        if fence.starts_with("```") {
            let console = fence == "```console";
            let start = i + 1;
            let mut end = start;
            while end < lines.len() && lines[end].trim_end() != "```" {
                end += 1;
            }
            if console {
                blocks.push(Block {
                    start,
                    end,
                    steps: parse_steps(&lines[start..end], start),
                });
            }
            i = end + 1;
        } else {
            i += 1;
        }
    }
    blocks
}

fn parse_steps(lines: &[&str], first: usize) -> Vec<Step> {
    let mut steps: Vec<Step> = Vec::new();
    for (k, line) in lines.iter().enumerate() {
        if let Some(command) = line.strip_prefix("$ ") {
            steps.push(Step {
                line: first + k + 1,
                command: command.to_owned(),
                status: Some(0),
                status_written: false,
                expected: Vec::new(),
            });
            continue;
        }
        let step = steps
            .last_mut()
            .unwrap_or_else(|| panic!("line {}: a console block starts with `$ `", first + k + 1));
        if let Some(status) = line.strip_prefix("? ")
            && step.expected.is_empty()
            && !step.status_written
        {
            step.status = match status.trim() {
                "failed" => None,
                code => Some(
                    code.parse()
                        .unwrap_or_else(|_| panic!("line {}: `? N` or `? failed`", first + k + 1)),
                ),
            };
            step.status_written = true;
            continue;
        }
        step.expected.push((*line).to_owned());
    }
    steps
}

/// Whether `line` matches `pattern`, where `[..]` matches any text.
fn line_matches(pattern: &str, line: &str) -> bool {
    let mut parts = pattern.split("[..]");
    let first = parts.next().unwrap_or("");
    let Some(mut rest) = line.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    for (k, part) in parts.iter().enumerate() {
        if k + 1 == parts.len() {
            return rest.ends_with(part);
        }
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.is_empty()
}

/// Whether the actual lines match the expected ones (`...` lines included).
fn matches(expected: &[String], actual: &[&str]) -> bool {
    // m[i][j]: expected[i..] matches actual[j..].
    let (n, k) = (expected.len(), actual.len());
    let mut m = vec![vec![false; k + 1]; n + 1];
    m[n][k] = true;
    for i in (0..n).rev() {
        for j in (0..=k).rev() {
            m[i][j] = if expected[i] == "..." {
                m[i + 1][j] || (j < k && m[i][j + 1])
            } else {
                j < k && line_matches(&expected[i], actual[j]) && m[i + 1][j + 1]
            };
        }
    }
    m[0][0]
}

/// The expected lines rewritten to the actual output, keeping every `...`
/// and every pattern line that still matches its line (an alignment of
/// least edits, where `...` takes any lines for free).
fn merge(expected: &[String], actual: &[&str]) -> Vec<String> {
    let (n, k) = (expected.len(), actual.len());
    // cost[i][j]: the fewest edits turning expected[i..] into actual[j..].
    let mut cost = vec![vec![0usize; k + 1]; n + 1];
    for j in (0..k).rev() {
        cost[n][j] = cost[n][j + 1] + 1;
    }
    for i in (0..n).rev() {
        for j in (0..=k).rev() {
            cost[i][j] = if expected[i] == "..." {
                let skip = cost[i + 1][j];
                if j < k {
                    skip.min(cost[i][j + 1])
                } else {
                    skip
                }
            } else {
                let drop = cost[i + 1][j] + 1;
                if j < k {
                    let here = if line_matches(&expected[i], actual[j]) {
                        0
                    } else {
                        1
                    };
                    drop.min(cost[i + 1][j + 1] + here).min(cost[i][j + 1] + 1)
                } else {
                    drop
                }
            };
        }
    }
    let (mut i, mut j, mut out) = (0, 0, Vec::new());
    while i < n || j < k {
        if i < n && expected[i] == "..." {
            if cost[i][j] == cost[i + 1][j] || j == k {
                out.push("...".to_owned());
                i += 1;
            } else {
                j += 1;
            }
        } else if i < n
            && j < k
            && line_matches(&expected[i], actual[j])
            && cost[i][j] == cost[i + 1][j + 1]
        {
            out.push(expected[i].clone());
            i += 1;
            j += 1;
        } else if i < n && j < k && cost[i][j] == cost[i + 1][j + 1] + 1 {
            out.push(actual[j].to_owned());
            i += 1;
            j += 1;
        } else if i < n && cost[i][j] == cost[i + 1][j] + 1 {
            i += 1;
        } else {
            out.push(actual[j].to_owned());
            j += 1;
        }
    }
    out
}

/// The server a block started, and what its commands substitute.
struct Server {
    child: Child,
    port: u16,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The lines a command printed.
fn lines_of(output: &str) -> Vec<&str> {
    let output = output.strip_suffix('\n').unwrap_or(output);
    if output.is_empty() {
        Vec::new()
    } else {
        output.split('\n').collect()
    }
}

/// The longest a command may run.
const COMMAND_TIMEOUT: Duration = Duration::from_secs(300);

/// Runs one command line in `dir`; its output (stderr merged) and status.
fn run(command: &str, dir: &Path, path: &str) -> (String, Option<i32>) {
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("exec 2>&1\n{command}"))
        .current_dir(dir)
        .env("PATH", path)
        .env_remove("BOARDBASE_TABLES")
        .env("NO_COLOR", "1")
        .env("LC_ALL", "C")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sh starts");
    let mut stdout = child.stdout.take().expect("piped");
    let reader = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = stdout.read_to_end(&mut bytes);
        bytes
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if started.elapsed() > COMMAND_TIMEOUT {
            let _ = child.kill();
            panic!("`{command}` ran over {COMMAND_TIMEOUT:?}");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let bytes = reader.join().expect("reader");
    // CRLF (HTTP headers) is compared as LF.
    let output = String::from_utf8_lossy(&bytes).replace("\r\n", "\n");
    (output, status.code())
}

/// Starts `boardbase serve ARGS` in the background on a free port; its
/// start-up report (up to its `euler:` line, the last) and the server.
fn serve(command: &str, dir: &Path, path: &str) -> (String, Server) {
    let bind = if command.contains("--bind") {
        ""
    } else {
        " --bind 127.0.0.1:0"
    };
    // Leading NAME=VALUE words are the server's environment.
    let mut words = command.splitn(2, ' ');
    let mut env = Vec::new();
    let mut rest = command;
    while let Some(word) = words.next() {
        match word.split_once('=') {
            Some((name, value)) if !name.is_empty() && !name.contains('-') => {
                env.push((name.to_owned(), value.to_owned()));
                rest = words.next().unwrap_or("");
                words = rest.splitn(2, ' ');
            }
            _ => break,
        }
    }
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("exec 2>&1\nexec {rest}{bind}"))
        .env_remove("BOARDBASE_TABLES")
        .envs(env)
        .current_dir(dir)
        .env("PATH", path)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sh starts");
    let stdout = child.stdout.take().expect("piped");
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if send.send(line).is_err() {
                break;
            }
        }
    });
    let mut report = String::new();
    let mut port = None;
    let deadline = Instant::now() + Duration::from_secs(60);
    while let Ok(line) = receive.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
        if let Some(address) = line.strip_prefix("boardbase serve: listening on http://127.0.0.1:")
        {
            port = address.parse().ok();
        }
        let last = line.starts_with("euler:");
        report.push_str(&line);
        report.push('\n');
        if last {
            break;
        }
    }
    let Some(port) = port else {
        let _ = child.kill();
        panic!("`{command}` did not start: {report}");
    };
    let server = Server { child, port };
    (
        report.replace(&format!("127.0.0.1:{port}"), "127.0.0.1:8080"),
        server,
    )
}

/// Whether a command starts the server (after NAME=VALUE words).
fn is_serve(command: &str) -> bool {
    command
        .split(' ')
        .find(|w| !w.contains('='))
        .is_some_and(|w| w == "boardbase")
        && command.contains("boardbase serve")
}

/// Makes the scratch directory of one doc: a link to every top-level entry
/// of the repository but the build's own.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("docs")
        .join(name.replace('/', "-"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    for entry in std::fs::read_dir(root()).expect("the repository") {
        let entry = entry.expect("an entry");
        let file = entry.file_name();
        // Not `tables/` (the no_std crate's source): were a doc to write
        // table files there, they must land in the scratch directory, not
        // in the checkout.
        if file == "target" || file == ".git" || file == "tables" {
            continue;
        }
        std::os::unix::fs::symlink(entry.path(), dir.join(&file)).expect("a link");
    }
    dir
}

/// The docs whose commands are tested: README.md and docs/**/*.md.
fn docs() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push(path);
            }
        }
    }
    let mut out = vec![root().join("README.md")];
    walk(&root().join("docs"), &mut out);
    out.sort();
    out
}

/// What the runs of one doc's commands found.
struct Report {
    /// The commands that ran and printed something else than the doc says
    /// (or ended with another status): what `DOCS=overwrite` refreshes.
    differences: String,
    /// The commands that could not run as the doc means them (see
    /// [`command_error`]): the doc's text is no place for their output.
    errors: String,
    /// The doc with the outputs of [`Report::differences`] rewritten, and
    /// the steps of [`Report::errors`] as they were.
    rewritten: String,
}

/// Why a step's run is an error of the command rather than an output to
/// compare, if it is: the shell did not find a program (status 127, or a
/// `sh: ...: not found` line where a pipeline's status is its last
/// stage's) or could not run it (126), or the command failed where the doc
/// shows it succeeding. Rewriting the doc to such a run would write the
/// error into it, so these are reported apart and never rewritten.
fn command_error(
    step: &Step,
    status: Option<i32>,
    status_ok: bool,
    actual: &[&str],
) -> Option<String> {
    let not_found = actual.iter().find(|line| {
        line.starts_with("sh: ")
            && line.ends_with("not found")
            && !step
                .expected
                .iter()
                .any(|expected| line_matches(expected, line))
    });
    if let Some(line) = not_found {
        return Some(format!("the shell did not find a program: {line}"));
    }
    if status_ok {
        return None;
    }
    match status {
        Some(127) => Some("the shell did not find a program (exit status 127)".to_owned()),
        Some(126) => Some("the shell could not run a program (exit status 126)".to_owned()),
        Some(code) if step.status == Some(0) => Some(format!(
            "it failed (exit status {code}) where the doc shows it succeeding"
        )),
        None if step.status == Some(0) => {
            Some("it was killed by a signal where the doc shows it succeeding".to_owned())
        }
        _ => None,
    }
}

/// Runs every block of one doc; what differs, what failed, and the doc
/// rewritten to the actual outputs.
fn check_doc(path: &Path, bin_dir: &Path) -> Report {
    let text = std::fs::read_to_string(path).expect("a doc");
    let name = path
        .strip_prefix(root())
        .expect("in the repository")
        .to_string_lossy()
        .into_owned();
    let blocks = parse_blocks(&text);
    if blocks.is_empty() {
        return Report {
            differences: String::new(),
            errors: String::new(),
            rewritten: text,
        };
    }
    let dir = scratch(&name);
    let search = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let (mut differences, mut errors) = (String::new(), String::new());
    let mut replaced: HashMap<usize, Vec<String>> = HashMap::new();
    // A server runs until the next one starts or the doc ends.
    let mut server: Option<Server> = None;
    for block in &blocks {
        let mut rewritten = Vec::new();
        for step in &block.steps {
            let serving = is_serve(&step.command);
            let (output, status) = if serving {
                drop(server.take()); // the previous server stops first
                let (report, started) = serve(&step.command, &dir, &search);
                server = Some(started);
                (report, None)
            } else {
                let command = match &server {
                    Some(s) => step
                        .command
                        .replace("localhost:8080", &format!("127.0.0.1:{}", s.port)),
                    None => step.command.clone(),
                };
                let (output, status) = run(&command, &dir, &search);
                let output = match &server {
                    Some(s) => output.replace(&format!(":{}", s.port), ":8080"),
                    None => output,
                };
                (output, status)
            };
            let actual = lines_of(&output);
            let status_ok = serving
                || match step.status {
                    Some(code) => status == Some(code),
                    None => status != Some(0),
                };
            let output_ok = matches(&step.expected, &actual);
            let error = if serving {
                None
            } else {
                command_error(step, status, status_ok, &actual)
            };
            rewritten.push(format!("$ {}", step.command));
            if error.is_some() {
                // Kept as the doc has it: the run is no output to show.
                if step.status_written {
                    rewritten.push(match step.status {
                        Some(code) => format!("? {code}"),
                        None => "? failed".to_owned(),
                    });
                }
                rewritten.extend(step.expected.iter().cloned());
            } else if !serving {
                match (status_ok, step.status_written, status) {
                    (true, true, _) => rewritten.push(match step.status {
                        Some(code) => format!("? {code}"),
                        None => "? failed".to_owned(),
                    }),
                    (true, false, _) | (false, _, Some(0)) => {}
                    (false, _, Some(code)) => rewritten.push(format!("? {code}")),
                    (false, _, None) => rewritten.push("? failed".to_owned()),
                }
            }
            if error.is_none() {
                rewritten.extend(if output_ok {
                    step.expected.clone()
                } else {
                    merge(&step.expected, &actual)
                });
            }
            if !status_ok || !output_ok || error.is_some() {
                let report = if error.is_some() {
                    &mut errors
                } else {
                    &mut differences
                };
                let _ = writeln!(report, "{name}:{}: $ {}", step.line, step.command);
                if let Some(error) = &error {
                    let _ = writeln!(report, "  {error}");
                }
                if !status_ok {
                    let _ = writeln!(
                        report,
                        "  exit status {status:?}, the doc says {}",
                        match step.status {
                            Some(code) => code.to_string(),
                            None => "failed".to_owned(),
                        }
                    );
                }
                if !output_ok {
                    let _ = writeln!(report, "  expected:");
                    for line in &step.expected {
                        let _ = writeln!(report, "    |{line}");
                    }
                    let _ = writeln!(report, "  actual:");
                    for line in &actual {
                        let _ = writeln!(report, "    |{line}");
                    }
                }
            }
        }
        replaced.insert(block.start, rewritten);
    }
    drop(server);
    // The doc with each block's body replaced.
    let lines: Vec<&str> = text.split('\n').collect();
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    for block in &blocks {
        out.extend(lines[i..block.start].iter().map(|l| (*l).to_owned()));
        out.extend(replaced.remove(&block.start).unwrap_or_default());
        i = block.end;
    }
    out.extend(lines[i..].iter().map(|l| (*l).to_owned()));
    let _ = std::fs::remove_dir_all(&dir);
    Report {
        differences,
        errors,
        rewritten: out.join("\n"),
    }
}

/// A program the docs' commands run besides `boardbase` and the POSIX
/// shell and utilities: its name on the PATH, what it is, and the Debian
/// package that brings it.
struct Tool {
    name: &'static str,
    what: &'static str,
    package: &'static str,
}

/// Every [`Tool`] the docs' commands run (README.md's install line names
/// each package; a test holds it to that).
const TOOLS: [Tool; 6] = [
    Tool {
        name: "curl",
        what: "curl",
        package: "curl",
    },
    Tool {
        name: "jq",
        what: "jq",
        package: "jq",
    },
    Tool {
        name: "python3",
        what: "Python 3",
        package: "python3",
    },
    Tool {
        name: "cc",
        what: "a C compiler as `cc`",
        package: "gcc",
    },
    Tool {
        name: "c++",
        what: "a C++ compiler as `c++`",
        package: "g++",
    },
    Tool {
        name: "man",
        what: "the manual page reader `man`",
        package: "man-db",
    },
];

/// The tools of [`TOOLS`] that `command` runs: a word in a command's place
/// (the first of a pipeline's stage, of a list's item or of a
/// substitution, after `NAME=VALUE` words) or the program after a `--`
/// (what `boardbase check ... -- PROGRAM` runs). Not any word: in
/// `boardbase man` the word `man` is a subcommand, and needs no `man`.
fn tools_of(command: &str) -> impl Iterator<Item = &'static str> {
    let mut run: Vec<&str> = Vec::new();
    for stage in command.split(|c: char| "|;&()$`".contains(c)) {
        let words: Vec<&str> = stage.split_whitespace().collect();
        if let Some(first) = words
            .iter()
            .find(|w| w.split_once('=').is_none_or(|(name, _)| name.is_empty()))
        {
            run.push(first);
        }
        run.extend(
            words
                .windows(2)
                .filter(|pair| pair[0] == "--")
                .map(|pair| pair[1]),
        );
    }
    TOOLS
        .iter()
        .map(|tool| tool.name)
        .filter(move |name| run.contains(name))
}

/// The Debian packages of every tool, as the README's install line names
/// them: `curl jq python3 gcc g++ man-db`.
fn packages() -> String {
    TOOLS
        .iter()
        .map(|tool| tool.package)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether `tool` is found on `path`.
fn on_path(tool: &str, path: &str) -> bool {
    std::env::split_paths(path).any(|dir| dir.join(tool).is_file())
}

/// Panics, naming each missing tool, the install hint and the doc lines
/// that run it, when a doc's commands need a program that is not on
/// `path`: otherwise the run would fail on `sh: 1: curl: not found` far
/// from the reason.
fn require_tools(docs: &[PathBuf], path: &str) {
    let mut missing: Vec<(&str, Vec<String>)> = Vec::new();
    for doc in docs {
        let text = std::fs::read_to_string(doc).expect("a doc");
        let name = doc
            .strip_prefix(root())
            .unwrap_or(doc)
            .display()
            .to_string();
        for block in parse_blocks(&text) {
            for step in &block.steps {
                for tool in tools_of(&step.command).filter(|t| !on_path(t, path)) {
                    let at = format!("{name}:{}", step.line);
                    match missing.iter_mut().find(|(t, _)| *t == tool) {
                        Some((_, lines)) => lines.push(at),
                        None => missing.push((tool, vec![at])),
                    }
                }
            }
        }
    }
    if missing.is_empty() {
        return;
    }
    let mut message = format!(
        "the docs' examples run programs that are not on PATH; `cargo test --workspace` needs \
         them besides Rust (on Debian or Ubuntu: apt-get install {}; README.md, Quick start):\n",
        packages()
    );
    for (name, lines) in &missing {
        let tool = TOOLS
            .iter()
            .find(|tool| tool.name == *name)
            .expect("a tool of TOOLS");
        let more = match lines.len() {
            0..=3 => String::new(),
            n => format!(" and {} more", n - 3),
        };
        let _ = writeln!(
            message,
            "  {name}: install {} (e.g. apt-get install {}); used at {}{more}",
            tool.what,
            tool.package,
            lines[..lines.len().min(3)].join(", ")
        );
    }
    panic!("{message}");
}

#[test]
fn every_console_block_prints_what_the_docs_say() {
    let overwrite = ["DOCS", "TRYCMD"]
        .iter()
        .any(|v| std::env::var(v).is_ok_and(|v| v == "overwrite"));
    let only = std::env::var("DOCS_ONLY").ok();
    let bin_dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("docs-bin");
    std::fs::create_dir_all(&bin_dir).expect("bin directory");
    let link = bin_dir.join("boardbase");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_boardbase"), &link).expect("a link");
    let selected: Vec<PathBuf> = docs()
        .into_iter()
        .filter(|path| {
            only.as_ref()
                .is_none_or(|o| path.to_string_lossy().contains(o.as_str()))
        })
        .collect();
    require_tools(&selected, &std::env::var("PATH").unwrap_or_default());
    let (mut differences, mut errors) = (String::new(), String::new());
    let mut blocks = 0;
    for path in &selected {
        blocks += parse_blocks(&std::fs::read_to_string(path).expect("a doc")).len();
        let report = check_doc(path, &bin_dir);
        if overwrite && !report.differences.is_empty() {
            std::fs::write(path, report.rewritten).expect("the doc rewritten");
            eprintln!("rewrote {}", path.display());
        }
        differences.push_str(&report.differences);
        errors.push_str(&report.errors);
    }
    assert!(
        only.is_some() || blocks >= 10,
        "only {blocks} console blocks found"
    );
    // A command that could not run is fixed in the command or on this
    // machine, never by rewriting the doc: no refresh is advised for it,
    // and even under DOCS=overwrite it fails.
    if !errors.is_empty() {
        let also = if differences.is_empty() {
            String::new()
        } else {
            format!("\nand some that ran print something else:\n{differences}")
        };
        panic!(
            "some of the docs' commands did not run as the docs mean them (a program missing or \
             failing): fix the command, the program or this machine's setup (README.md, Quick \
             start), not the doc's output:\n{errors}{also}"
        );
    }
    if !overwrite {
        assert!(
            differences.is_empty(),
            "the docs' commands print something else (refresh with \
             `DOCS=overwrite cargo test -p boardbase-cli --test docs`, then review the diff):\n{differences}"
        );
    }
}

#[test]
fn patterns_match_as_documented() {
    let lines = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
    assert!(line_matches(
        "time [..] s (generate [..])",
        "time 1.09 s (generate 0.96 s)"
    ));
    assert!(!line_matches("time [..] s", "time 1.09 ms"));
    assert!(line_matches("[..]", ""));
    assert!(!line_matches("a", "ab"));
    assert!(matches(&lines(&["a", "...", "d"]), &["a", "b", "c", "d"]));
    assert!(matches(&lines(&["a", "..."]), &["a"]));
    assert!(!matches(&lines(&["a", "d"]), &["a", "b", "d"]));
    assert!(!matches(&lines(&["a"]), &["a", "b"]));
    // Overwriting keeps what still matches.
    assert_eq!(
        merge(&lines(&["x [..]", "...", "z"]), &["x 1", "y", "y", "w"]),
        lines(&["x [..]", "...", "w"])
    );
    assert_eq!(
        merge(&lines(&["a", "b"]), &["a", "c", "b"]),
        lines(&["a", "c", "b"])
    );
    assert_eq!(merge(&lines(&[]), &["a"]), lines(&["a"]));
}

#[test]
fn tools_are_the_programs_a_command_runs() {
    let tools = |command: &str| tools_of(command).collect::<Vec<_>>();
    assert_eq!(
        tools("boardbase man > boardbase.1 && man -l boardbase.1 | head -3"),
        ["man"]
    );
    assert_eq!(tools("boardbase man | head -3"), Vec::<&str>::new());
    assert_eq!(
        tools("sed s/a/b/ x.cpp > y.cpp && c++ -O2 -o y y.cpp"),
        ["c++"]
    );
    assert_eq!(tools("curl -s localhost:8080/x | jq -c ."), ["curl", "jq"]);
    assert_eq!(tools("CC=1 cc -O2 -o flip flip.c"), ["cc"]);
    assert_eq!(
        tools("boardbase check flip -- python3 flip.py"),
        ["python3"]
    );
    assert_eq!(tools("echo $(python3 -c 1)"), ["python3"]);
}

#[test]
fn a_command_that_cannot_run_is_an_error_not_an_output() {
    let step = |status: Option<i32>, expected: &[&str]| Step {
        line: 1,
        command: String::new(),
        status,
        status_written: status != Some(0),
        expected: expected.iter().map(|s| (*s).to_owned()).collect(),
    };
    // A pipeline ending in `head` exits 0 though its `man` was not found.
    assert!(
        command_error(
            &step(Some(0), &["NAME"]),
            Some(0),
            true,
            &["sh: 1: man: not found"]
        )
        .is_some_and(|e| e.contains("sh: 1: man: not found"))
    );
    assert!(command_error(&step(Some(0), &[]), Some(127), false, &[]).is_some());
    assert!(command_error(&step(Some(0), &[]), Some(1), false, &["error: x"]).is_some());
    // The doc expects a failure: another status or message is an output.
    assert!(command_error(&step(Some(1), &["error: x"]), Some(2), false, &["error: y"]).is_none());
    assert!(command_error(&step(Some(0), &["4"]), Some(0), true, &["5"]).is_none());
}

#[test]
fn the_readme_install_line_names_every_tool() {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let line = format!("apt-get install {}", packages());
    assert!(
        readme.contains(&line),
        "README.md's prerequisites should say `{line}` (the tools of tests/docs.rs's TOOLS)"
    );
}

/// Whether `dir` (as a command run from the repository root names it) is
/// one of the repository's source folders: a top-level directory holding
/// source files, as `tables/` (the solvers' crate) does.
fn is_source_folder(dir: &str) -> bool {
    let Some(top) = Path::new(dir).components().next() else {
        return false;
    };
    let top = root().join(top);
    top.is_dir()
        && std::fs::read_dir(&top).is_ok_and(|entries| {
            entries.flatten().any(|entry| {
                let path = entry.path();
                path.is_dir()
                    || path.extension().is_some_and(|e| {
                        ["rs", "md", "toml", "c", "h", "py"].iter().any(|s| e == *s)
                    })
            })
        })
}

#[test]
fn no_command_writes_tables_into_a_source_folder() {
    // The docs' commands run in a scratch directory here, but a reader
    // runs them in the checkout: a `--dir` naming a source folder there
    // would write table files among its sources.
    let mut found = Vec::new();
    for doc in docs() {
        let text = std::fs::read_to_string(&doc).expect("a doc");
        for block in parse_blocks(&text) {
            for step in &block.steps {
                let words: Vec<&str> = step.command.split_whitespace().collect();
                for pair in words.windows(2) {
                    if pair[0] == "--dir" && is_source_folder(pair[1]) {
                        found.push(format!(
                            "{}:{}: --dir {}",
                            doc.strip_prefix(root()).unwrap_or(&doc).display(),
                            step.line,
                            pair[1]
                        ));
                    }
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "run from the repository root, these write into a source folder (use `--dir my-tables`):\n{}",
        found.join("\n")
    );
    assert!(is_source_folder("tables"));
    assert!(!is_source_folder("my-tables"));
}
