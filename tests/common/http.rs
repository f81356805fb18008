//! A `boardbase serve` process on a free loopback port, and a small blocking
//! HTTP/1.1 client that can also send malformed, slow and oversized
//! requests.
#![allow(dead_code)]

use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, ChildStderr, ChildStdout, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// A running server, killed when dropped.
pub struct Server {
    child: Child,
    /// `127.0.0.1:PORT`.
    pub addr: String,
    stdout: BufReader<ChildStdout>,
    stderr: Option<ChildStderr>,
}

impl Server {
    /// Starts `boardbase serve --bind 127.0.0.1:0 ARGS` and waits for the
    /// line that gives the address it listens on.
    /// `BOARDBASE_TABLES` is removed from its environment.
    pub fn start(args: &[&str]) -> Server {
        Server::start_binary(env!("CARGO_BIN_EXE_boardbase"), args)
    }

    /// The same with `BOARDBASE_TABLES` set to `tables`.
    pub fn start_env(args: &[&str], tables: &str) -> Server {
        Server::spawn(env!("CARGO_BIN_EXE_boardbase"), args, Some(tables))
    }

    /// The same with another build of the binary.
    pub fn start_binary(binary: &str, args: &[&str]) -> Server {
        Server::spawn(binary, args, None)
    }

    fn spawn(binary: &str, args: &[&str], tables: Option<&str>) -> Server {
        let mut command = Command::new(binary);
        match tables {
            Some(dirs) => command.env("BOARDBASE_TABLES", dirs),
            None => command.env_remove("BOARDBASE_TABLES"),
        };
        let mut child = command
            .args(["serve", "--bind", "127.0.0.1:0"])
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary starts");
        let mut line = String::new();
        let mut stdout = BufReader::new(child.stdout.take().expect("stdout is piped"));
        stdout
            .read_line(&mut line)
            .expect("the server prints its address");
        let addr = line
            .trim()
            .strip_prefix("boardbase serve: listening on http://")
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .to_owned();
        let stderr = child.stderr.take();
        Server {
            child,
            addr,
            stdout,
            stderr,
        }
    }

    /// The next line the server printed on standard output after its
    /// address (what answers what).
    pub fn stdout_line(&mut self) -> String {
        let mut line = String::new();
        self.stdout
            .read_line(&mut line)
            .expect("stdout is readable");
        line
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// A new keep-alive connection.
    pub fn connect(&self) -> Conn {
        Conn::connect(&self.addr)
    }

    /// `GET path` on a new connection.
    pub fn get(&self, path: &str) -> Response {
        self.connect().get(path)
    }

    /// `POST path` with a body of `content_type` on a new connection.
    pub fn post(&self, path: &str, content_type: &str, body: &[u8]) -> Response {
        self.connect().post(path, content_type, body)
    }

    /// Sends `signal` (`TERM`, `INT`) to the server.
    pub fn signal(&self, signal: &str) {
        let number = match signal {
            "TERM" => libc::SIGTERM,
            "INT" => libc::SIGINT,
            other => panic!("no such signal in these tests: {other}"),
        };
        let pid = libc::pid_t::try_from(self.pid()).expect("a pid");
        // SAFETY: kill(2) only sends a signal to the child this test started.
        let sent = unsafe { libc::kill(pid, number) };
        assert_eq!(sent, 0, "kill -s {signal} failed");
    }

    /// Waits at most `limit` for the server to exit; its status and what
    /// it wrote on stderr.
    pub fn wait(&mut self, limit: Duration) -> (ExitStatus, String) {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().expect("try_wait works") {
                let mut err = String::new();
                if let Some(mut stderr) = self.stderr.take() {
                    let _ = stderr.read_to_string(&mut err);
                }
                return (status, err);
            }
            assert!(
                start.elapsed() < limit,
                "the server did not exit within {limit:?}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// The server's resident memory, from /proc, in KiB.
    pub fn rss_kib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid()))
            .expect("/proc/PID/status is readable");
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .expect("VmRSS is there")
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One answer.
#[derive(Debug)]
pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Response {
    /// The first header called `name` (any case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The body as text.
    pub fn text(&self) -> &str {
        std::str::from_utf8(&self.body).expect("the body is UTF-8")
    }

    /// The body parsed as JSON (panics with the body when it is not).
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {:?}", self.text()))
    }
}

/// One client connection, kept alive across requests.
pub struct Conn {
    reader: BufReader<TcpStream>,
}

impl Conn {
    /// Connects to `addr`.
    pub fn connect(addr: &str) -> Conn {
        let stream = TcpStream::connect(addr).expect("the server accepts");
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .expect("a read timeout can be set");
        stream.set_nodelay(true).expect("nodelay can be set");
        Conn {
            reader: BufReader::new(stream),
        }
    }

    /// The socket, to write to it directly.
    pub fn stream(&mut self) -> &mut TcpStream {
        self.reader.get_mut()
    }

    /// Writes raw bytes.
    pub fn send(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.stream().write_all(bytes)
    }

    /// `GET path`.
    pub fn get(&mut self, path: &str) -> Response {
        self.request("GET", path, &[], b"")
    }

    /// `POST path` with a body.
    pub fn post(&mut self, path: &str, content_type: &str, body: &[u8]) -> Response {
        self.request("POST", path, &[("content-type", content_type)], body)
    }

    /// Sends a request with a `content-length` (when there is a body) and
    /// reads the answer.
    pub fn request(
        &mut self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> Response {
        let mut head = format!("{method} {path} HTTP/1.1\r\nhost: localhost\r\n");
        for (k, v) in headers {
            head.push_str(&format!("{k}: {v}\r\n"));
        }
        if !body.is_empty() || method == "POST" {
            head.push_str(&format!("content-length: {}\r\n", body.len()));
        }
        head.push_str("\r\n");
        let mut bytes = head.into_bytes();
        bytes.extend_from_slice(body);
        self.send(&bytes).expect("the request is sent");
        self.read_response(method == "HEAD")
            .unwrap_or_else(|e| panic!("no answer to {method} {path}: {e}"))
    }

    /// Reads one answer (without a body for HEAD).
    pub fn read_response(&mut self, head_only: bool) -> io::Result<Response> {
        let mut line = String::new();
        if self.reader.read_line(&mut line)? == 0 {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "connection closed",
            ));
        }
        let status = line
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| io::Error::other(format!("bad status line {line:?}")))?;
        let mut headers = Vec::new();
        loop {
            line.clear();
            self.reader.read_line(&mut line)?;
            let l = line.trim_end();
            if l.is_empty() {
                break;
            }
            let (k, v) = l
                .split_once(':')
                .ok_or_else(|| io::Error::other(format!("bad header {l:?}")))?;
            headers.push((k.trim().to_owned(), v.trim().to_owned()));
        }
        let mut response = Response {
            status,
            headers,
            body: Vec::new(),
        };
        if head_only {
            return Ok(response);
        }
        if let Some(len) = response.header("content-length") {
            let len: usize = len.parse().map_err(io::Error::other)?;
            response.body.resize(len, 0);
            self.reader.read_exact(&mut response.body)?;
        } else if response
            .header("transfer-encoding")
            .is_some_and(|v| v.eq_ignore_ascii_case("chunked"))
        {
            loop {
                line.clear();
                self.reader.read_line(&mut line)?;
                let size = usize::from_str_radix(line.trim(), 16).map_err(io::Error::other)?;
                let start = response.body.len();
                response.body.resize(start + size, 0);
                self.reader.read_exact(&mut response.body[start..])?;
                line.clear();
                self.reader.read_line(&mut line)?;
                if size == 0 {
                    break;
                }
            }
        }
        Ok(response)
    }

    /// Whether the server closed the connection within `limit`: a read
    /// finds the end of input (or a reset). Panics, saying what was read,
    /// when anything else comes.
    pub fn closed_within(&mut self, limit: Duration) -> bool {
        self.stream()
            .set_read_timeout(Some(limit))
            .expect("a read timeout can be set");
        let mut byte = [0u8; 64];
        match self.reader.read(&mut byte) {
            Ok(0) => true,
            Err(e) if e.kind() == io::ErrorKind::ConnectionReset => true,
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                ) =>
            {
                false
            }
            Ok(n) => panic!(
                "expected the connection closed, read {:?}",
                String::from_utf8_lossy(&byte[..n])
            ),
            Err(e) => panic!("expected the connection closed, got {e}"),
        }
    }
}

/// Percent-encodes a query value.
pub fn encode(text: &str) -> String {
    let mut out = String::new();
    for b in text.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' | b'/' => {
                out.push(b as char)
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}
