//! Generates one table in memory and prints the time, the peak memory and
//! the summary: the whole-process measurement of the generator.
//!
//! ```sh
//! cargo run --release --example generate -- euler 5x5
//! cargo run --release --example generate -- euler 6x6 --wdl-only --threads 2
//! cargo run --release --example generate -- flip 5x5
//! ```
//!
//! Peak memory is the kernel's high-water mark of the resident set
//! (`VmHWM` in `/proc/self/status`, what `getrusage` reports as
//! `ru_maxrss`), so it counts everything the process touched.

use std::process::ExitCode;
use std::time::Instant;

use boardbase::generate::{self, ByteSize, EulerOptions, FlipOptions, Progress};
use boardbase::tables::shape::Shape;

fn peak_rss() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line[6..]
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kib * 1024)
}

fn usage() -> ExitCode {
    eprintln!("usage: generate (euler|flip) RxC [--wdl-only] [--threads N] [--memory BYTES]");
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(puzzle), Some(shape)) = (args.first(), args.get(1).and_then(|s| Shape::parse(s)))
    else {
        return usage();
    };
    let (mut wdl_only, mut threads, mut memory_limit) = (false, None, None);
    let mut rest = args[2..].iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--wdl-only" => wdl_only = true,
            "--threads" => match rest.next().and_then(|n| n.parse().ok()) {
                Some(n) => threads = Some(n),
                None => return usage(),
            },
            "--memory" => match rest.next().and_then(|n| n.parse().ok()) {
                Some(n) => memory_limit = Some(n),
                None => return usage(),
            },
            _ => return usage(),
        }
    }
    let last = std::sync::Mutex::new((String::new(), Instant::now()));
    let progress = |p: Progress| {
        let mut last = last.lock().unwrap();
        let phase = p.phase.to_string();
        if phase != last.0 {
            if !last.0.is_empty() {
                eprintln!("  {}: {:.2} s", last.0, last.1.elapsed().as_secs_f64());
            }
            *last = (phase, Instant::now());
        }
    };
    let start = Instant::now();
    let summary = match puzzle.as_str() {
        "euler" => {
            let options = EulerOptions {
                wdl_only,
                threads,
                memory_limit,
            };
            match generate::euler_memory(shape, &options) {
                Ok(bytes) => eprintln!("euler {shape}: needs {}", ByteSize(bytes)),
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::FAILURE;
                }
            }
            generate::euler(shape, &options, progress).map(|t| format!("{:?}", t.summary))
        }
        "flip" => {
            let options = FlipOptions {
                threads,
                memory_limit,
            };
            match generate::flip_memory(shape, &options) {
                Ok(bytes) => eprintln!("flip {shape}: needs {}", ByteSize(bytes)),
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::FAILURE;
                }
            }
            generate::flip(shape, &options, progress).map(|t| format!("{:?}", t.summary))
        }
        _ => return usage(),
    };
    let seconds = start.elapsed().as_secs_f64();
    {
        let last = last.lock().unwrap();
        eprintln!("  {}: {:.2} s", last.0, last.1.elapsed().as_secs_f64());
    }
    match summary {
        Ok(summary) => {
            println!("{summary}");
            println!(
                "time {seconds:.3} s, peak RSS {}",
                peak_rss().map_or("unknown".into(), |b| ByteSize(b).to_string())
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
