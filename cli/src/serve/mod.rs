//! `boardbase serve`: the JSON API and the web explorer over HTTP.
//!
//! A front end like the CLI, living with the binary so that the library
//! never opens a socket: the library's
//! [`Tablebase`](boardbase::tablebase::Tablebase) says what answers each
//! puzzle and board shape (embedded tables, table files, tables made in
//! memory, the GF(2) solver) and writes the lookups' JSON, [`api`] turns
//! requests into answers and errors into JSON,
//! [`count`] runs Carcassonne counts and other heavy work on a bounded
//! pool, [`assets`] serves the explorer embedded in the binary. This module parses the arguments, binds, serves connections
//! (hyper's HTTP/1.1 server with a header-read timeout) and shuts down
//! gracefully on Ctrl-C or SIGTERM.

pub mod api;
pub mod assets;
#[cfg(test)]
mod tests;

use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use boardbase::memory::ByteSize;
use boardbase::tablebase::{MakeEvent, Maker, Tablebase};
use boardbase::tablefile::Puzzle;
use boardbase::tables::shape::Shape;
use clap::Args;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

use super::Failure;

/// Arguments of `boardbase serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address to listen on, HOST:PORT: an IP address or a host name
    /// (`localhost:8080`, `[::1]:8080`); port 0 picks a free port. A name
    /// is resolved at start and the first of its addresses that can be
    /// bound is used. The address really listened on is printed on
    /// standard output.
    #[arg(long, value_name = "HOST:PORT", default_value = "127.0.0.1:8080", value_parser = host_port)]
    bind: String,
    #[arg(long = "tables", value_name = "DIR", value_parser = super::existing_dir,
          help = super::options::tables_help!(),
          long_help = concat!(super::options::tables_help!(), ". The files are opened (mapped) at start. Without a file, Flip boards up to 64x64 are answered by GF(2), and Euler tables of up to 25 squares are made in memory"))]
    tables: Vec<PathBuf>,
    #[arg(long, value_name = "FILE", help = super::options::table_help!(),
          long_help = concat!(super::options::table_help!(), ". Repeatable; searched before the --tables directories"))]
    table: Vec<PathBuf>,
    #[command(flatten)]
    nullity: super::options::NullityArgs,
    #[arg(long, value_name = "SIZE", default_value = "512M", value_parser = super::generate::parse_byte_size,
          help = concat!("Memory the Euler tables made in memory may take, e.g. 512M, 2G ", super::options::memory_units!(), "; the least recently used are dropped to make room; 0: make none. A 5x5 table takes 68 MiB, and about 82 MiB while it is made. The games /api/v1/solve solves in memory have a budget of the same size of their own"))]
    make_memory: u64,
    // The heavy work (Carcassonne counts, tables made in memory, large
    // GF(2) boards) runs on these workers, each on its own thread, off the
    // threads that answer lookups.
    #[arg(long = "jobs", visible_alias = "count-workers", value_name = "N",
          value_parser = super::options::parse_jobs,
          help = concat!(super::options::jobs_help!(), " (`--count-workers`, the old name, is an alias to be removed in a later release)"))]
    count_workers: Option<u16>,
    /// Longest a Carcassonne request, or a heavy lookup (a table made in
    /// memory, Flip by GF(2) on a shape of large nullity), may take,
    /// waiting for a worker included; past it the answer is an error (422,
    /// or 429 when the workers stayed busy).
    #[arg(long, value_name = "SECONDS", default_value_t = 20.0, value_parser = seconds)]
    count_timeout: f64,
    /// Longest a client may take to send a request's headers (and to send
    /// the next one on a kept-alive connection) or its body.
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0, value_parser = seconds)]
    read_timeout: f64,
}

/// `HOST:PORT`, the port a number up to 65535, the host not empty.
fn host_port(text: &str) -> Result<String, String> {
    let bad =
        || format!("expected HOST:PORT (e.g. 127.0.0.1:8080 or localhost:8080), found {text:?}");
    let (host, port) = text.rsplit_once(':').ok_or_else(bad)?;
    if host.is_empty() || port.is_empty() || !port.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    if port.parse::<u16>().is_err() {
        return Err(format!(
            "port {port} is out of range: a port is a number from 0 to 65535 (0 picks a free port)"
        ));
    }
    Ok(text.to_owned())
}

/// Binds the first address of `bind` (resolved: a host name may have
/// several) that can be bound.
async fn listen(bind: &str) -> Result<TcpListener, Failure> {
    let addrs: Vec<SocketAddr> = tokio::net::lookup_host(bind)
        .await
        .map_err(|e| Failure::Serve(format!("cannot listen on {bind}: {e}")))?
        .collect();
    let mut last = None;
    for addr in &addrs {
        match TcpListener::bind(addr).await {
            Ok(listener) => return Ok(listener),
            Err(e) => last = Some(e),
        }
    }
    Err(Failure::Serve(match last {
        Some(e) => format!("cannot listen on {bind}: {e}"),
        None => format!("cannot listen on {bind}: the name has no address"),
    }))
}

fn seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s > 0.0 && s <= 3600.0 => Ok(s),
        _ => Err("expected a number of seconds above 0, at most 3600".to_owned()),
    }
}

/// Most connections served at once; more wait in the listen backlog.
const MAX_CONNECTIONS: usize = 1024;

/// How long shutdown waits for open requests to finish.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(30);

/// Runs `boardbase serve` until Ctrl-C or SIGTERM.
pub fn run(args: &ServeArgs) -> Result<(), Failure> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::Serve(format!("cannot start the runtime: {e}")))?;
    runtime.block_on(serve(args))
}

async fn serve(args: &ServeArgs) -> Result<(), Failure> {
    let workers = args
        .count_workers
        .map_or_else(super::options::cores, usize::from);
    let limits = api::Limits {
        count_timeout: Duration::from_secs_f64(args.count_timeout),
        read_timeout: Duration::from_secs_f64(args.read_timeout),
        ..api::Limits::default()
    };
    let budget = args.make_memory;
    let mut tablebase = Tablebase::new();
    tablebase.set_maker(Maker::new(budget).with_log(log_made));
    tablebase.set_max_nullity(args.nullity.get());
    for file in &args.table {
        tablebase.add_file(file).map_err(Failure::Tablebase)?;
    }
    for dir in &args.tables {
        // Checked to be a directory when the arguments were parsed.
        let _ = tablebase.add_directory(dir);
    }
    tablebase.add_env_directories();
    let dirs: Vec<String> = tablebase
        .dirs()
        .iter()
        .map(|d| d.display().to_string())
        .collect();
    // The puzzles with a table file of a shape the embedded tables do not
    // answer: only those are answered by "the table files above".
    let files_of = |puzzle: Puzzle| {
        tablebase
            .list()
            .iter()
            .any(|(p, shape, _)| *p == puzzle && *shape != Shape::SQUARE4)
    };
    let (flip_files, euler_files) = (files_of(Puzzle::Flip), files_of(Puzzle::Euler));
    let found_lines = tablebase.open_all();
    let state = Arc::new(api::State::new(
        tablebase,
        api::pool::Pool::new(workers),
        limits,
    ));
    let app = api::router(state);

    let listener = listen(&args.bind).await?;
    let addr = listener
        .local_addr()
        .map_err(|e| Failure::Serve(format!("cannot read the bound address: {e}")))?;
    {
        // The address first, on its own; then what answers what, which
        // nobody needs to read (write errors are ignored: a reader that
        // only wanted the address may have gone).
        let mut out = std::io::stdout().lock();
        writeln!(out, "boardbase serve: listening on http://{addr}")?;
        out.flush()?;
        let mut more = String::new();
        if dirs.is_empty() && args.table.is_empty() {
            more.push_str("tables: none (no --tables DIR, no BOARDBASE_TABLES)\n");
        } else if dirs.is_empty() {
            more.push_str("tables: the --table files\n");
        } else {
            more.push_str(&format!("tables: looked in {}\n", dirs.join(", ")));
        }
        for line in &found_lines {
            more.push_str(&format!("  {line}\n"));
        }
        let above = |files: bool| if files { ", table files above" } else { "" };
        more.push_str(&format!(
            "flip: 4x4 embedded{}, any other size up to 64x64 by GF(2) (nullity up to {})\n",
            above(flip_files),
            args.nullity.get()
        ));
        if budget == 0 {
            more.push_str(&format!(
                "euler: 4x4 embedded{}; none made in memory (--make-memory 0)\n",
                above(euler_files)
            ));
        } else {
            more.push_str(&format!(
                "euler: 4x4 embedded{}, others of up to 25 squares made in memory on first use (up to {} MiB)\n",
                above(euler_files),
                args.make_memory >> 20
            ));
        }
        let _ = out.write_all(more.as_bytes()).and_then(|()| out.flush());
    }

    let graceful = GracefulShutdown::new();
    let connections = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.read_timeout)
        .max_buf_size(64 * 1024);
    let shutdown = shutdown_signal();
    tokio::pin!(shutdown);
    loop {
        let permit = tokio::select! {
            permit = connections.clone().acquire_owned() => permit,
            signal = &mut shutdown => {
                eprintln!("boardbase serve: {signal}: finishing open requests");
                break;
            }
        };
        let Ok(permit) = permit else { break };
        let (stream, _peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    // Out of file descriptors and the like: wait, retry.
                    eprintln!("boardbase serve: accept failed: {e}");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            signal = &mut shutdown => {
                eprintln!("boardbase serve: {signal}: finishing open requests");
                break;
            }
        };
        // Answers are small and written at once: send them without delay.
        let _ = stream.set_nodelay(true);
        let service = TowerToHyperService::new(app.clone());
        let conn = builder.serve_connection(TokioIo::new(stream), service);
        let conn = graceful.watch(conn);
        tokio::spawn(async move {
            // A client that resets or times out ends only its connection.
            let _ = conn.await;
            drop(permit);
        });
    }
    drop(listener);
    tokio::select! {
        () = graceful.shutdown() => {
            eprintln!("boardbase serve: stopped");
        }
        () = tokio::time::sleep(SHUTDOWN_GRACE) => {
            eprintln!(
                "boardbase serve: requests still open after {} s, stopping anyway",
                SHUTDOWN_GRACE.as_secs()
            );
        }
    }
    Ok(())
}

/// Says on stderr what happened to a table made in memory.
fn log_made(event: &MakeEvent) {
    match event {
        MakeEvent::Made {
            shape,
            elapsed,
            bytes,
        } => eprintln!(
            "boardbase serve: made the euler {shape} table in memory ({:.2} s, {})",
            elapsed.as_secs_f64(),
            ByteSize(*bytes)
        ),
        MakeEvent::Dropped { shape, bytes } => eprintln!(
            "boardbase serve: dropped the euler {shape} table made in memory (least recently used, {})",
            ByteSize(*bytes)
        ),
        MakeEvent::Failed { shape, error } => {
            eprintln!("boardbase serve: could not make the euler {shape} table: {error}")
        }
        _ => {}
    }
}

/// Completes on Ctrl-C (SIGINT) or SIGTERM, naming the signal.
async fn shutdown_signal() -> &'static str {
    let interrupt = async {
        match tokio::signal::ctrl_c().await {
            Ok(()) => "interrupted",
            Err(_) => std::future::pending().await,
        }
    };
    #[cfg(unix)]
    let terminate = async {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
                "terminated"
            }
            Err(_) => std::future::pending().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<&'static str>();
    tokio::select! {
        name = interrupt => name,
        name = terminate => name,
    }
}
