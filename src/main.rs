//! The `boardbase` command line: judge-compatible solvers for Flip Game,
//! Game of Euler and Carcassonne, with readable and JSON output.

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    match cli::run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(cli::Failure::BrokenPipe) => ExitCode::SUCCESS,
        Err(cli::Failure::Rejected) => ExitCode::FAILURE,
        Err(e @ cli::Failure::Usage(_)) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
