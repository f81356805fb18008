//! Running the built `boardbase` binary from integration tests.
#![allow(dead_code)]

use std::io::Write;
use std::process::{Command, Stdio};

/// What one run of the binary produced.
pub struct Run {
    pub stdout: String,
    pub stderr: String,
    pub code: i32,
}

/// Runs `boardbase ARGS` with `stdin` as standard input.
pub fn run(args: &[&str], stdin: impl AsRef<[u8]>) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_boardbase"))
        .args(args)
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
    Run {
        stdout: String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(out.stderr).expect("stderr is UTF-8"),
        code: out
            .status
            .code()
            .expect("the binary exits normally, not by a signal"),
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
