//! Running the built `boardbase` binary from integration tests.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The `boardbase` binary: set by cargo for the tests of the package that
/// builds it (boardbase-cli); the library's tests share these helpers but
/// never run it.
pub fn binary() -> &'static str {
    match option_env!("CARGO_BIN_EXE_boardbase") {
        Some(path) => path,
        None => panic!("only the boardbase-cli package's tests run the boardbase binary"),
    }
}

/// What one run of the binary produced.
pub struct Run {
    pub stdout: String,
    pub stderr: String,
    pub code: i32,
}

/// Runs `boardbase ARGS` with `stdin` as standard input.
pub fn run(args: &[&str], stdin: impl AsRef<[u8]>) -> Run {
    spawn_and_wait(Command::new(binary()).args(args), stdin)
}

/// [`run`] with `BOARDBASE_TABLES` set to `tables`, or removed when `None`.
pub fn run_env(args: &[&str], stdin: impl AsRef<[u8]>, tables: Option<&str>) -> Run {
    let mut cmd = Command::new(binary());
    cmd.args(args);
    match tables {
        Some(v) => cmd.env("BOARDBASE_TABLES", v),
        None => cmd.env_remove("BOARDBASE_TABLES"),
    };
    spawn_and_wait(&mut cmd, stdin)
}

/// [`run`] under an address-space cap of `kib` KiB (`ulimit -v`), so
/// that an allocation a declared size decided aborts the binary.
pub fn run_capped(args: &[&str], stdin: impl AsRef<[u8]>, kib: u32) -> Run {
    spawn_and_wait(
        Command::new("sh")
            .arg("-c")
            .arg(format!("ulimit -v {kib} && exec \"$@\""))
            .arg("sh")
            .arg(binary())
            .args(args),
        stdin,
    )
}

fn spawn_and_wait(cmd: &mut Command, stdin: impl AsRef<[u8]>) -> Run {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let input = stdin.as_ref().to_vec();
    let mut pipe = child.stdin.take().expect("stdin is piped");
    // Write from another thread so a large input cannot deadlock with output.
    let writer = std::thread::spawn(move || {
        // The binary may stop reading early on bad input: ignore EPIPE.
        let _ = pipe.write_all(&input);
    });
    let out = child.wait_with_output().expect("the binary runs");
    writer.join().expect("the writer thread finishes");
    let stderr = String::from_utf8(out.stderr).expect("stderr is UTF-8");
    let Some(code) = out.status.code() else {
        panic!(
            "the binary was killed by a signal ({}): {stderr}",
            out.status
        );
    };
    Run {
        stdout: String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        stderr,
        code,
    }
}

/// Runs and asserts success with an empty stderr; returns stdout.
pub fn ok(args: &[&str], stdin: impl AsRef<[u8]>) -> String {
    let r = run(args, stdin);
    assert_eq!(r.code, 0, "stderr: {}", r.stderr);
    assert_eq!(r.stderr, "");
    r.stdout
}

/// A scratch file under the target directory, removed on drop.
pub struct TempFile(pub std::path::PathBuf);

impl TempFile {
    pub fn new(name: &str, contents: impl AsRef<[u8]>) -> TempFile {
        let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
        let path = dir.join(format!("{}-{name}", std::process::id()));
        std::fs::write(&path, contents).expect("temp file written");
        TempFile(path)
    }

    pub fn path(&self) -> &str {
        self.0.to_str().expect("UTF-8 path")
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// A scratch directory under the target directory, removed on drop.
pub struct TempDir(pub PathBuf);

impl TempDir {
    /// A fresh, empty directory.
    pub fn new(name: &str) -> TempDir {
        let dir = TempDir::absent(name);
        std::fs::create_dir_all(&dir.0).expect("temp dir created");
        dir
    }

    /// A directory's path, with nothing there yet (for a command that
    /// should create it).
    pub fn absent(name: &str) -> TempDir {
        let path = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("{}-dir-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        TempDir(path)
    }

    pub fn path(&self) -> &str {
        self.0.to_str().expect("UTF-8 path")
    }

    /// The path of `name` in the directory.
    pub fn join(&self, name: impl AsRef<Path>) -> PathBuf {
        self.0.join(name)
    }

    /// [`join`](Self::join) as text.
    pub fn file(&self, name: &str) -> String {
        self.0.join(name).to_str().expect("UTF-8 path").to_owned()
    }

    /// The names in the directory, sorted (hidden temporary files too).
    pub fn names(&self) -> Vec<String> {
        names_in(&self.0)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The names in `dir`, sorted (hidden ones too).
pub fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("readable directory")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// SplitMix64 (Steele, Lea and Flood), written here from its description:
/// the test inputs' random numbers, and the stream `boardbase::cases`
/// documents.
pub struct SplitMix(pub u64);

impl SplitMix {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// CRC-32 (IEEE, reflected, as zlib), bit by bit: independent of the
/// library's implementation.
pub fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// `n` with a comma between each three digits, as the summaries and the
/// explorer write large counts.
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}
