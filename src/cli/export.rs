//! `boardbase export` and `boardbase verify`: the 4×4 tables as files any
//! language can read (layout: `boardbase::export`).

use std::io::Write;
use std::path::PathBuf;

use boardbase::export::TableFile;
use clap::Args;

use super::{Failure, Output};

/// Arguments of `boardbase export`.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// Directory to write `flip-4x4.bin` and `euler-4x4.bin` into (created
    /// if missing; existing files of those names are replaced).
    #[arg(long, value_name = "DIR")]
    dir: PathBuf,
}

/// Arguments of `boardbase verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// The table file to check.
    #[arg(value_name = "FILE")]
    file: PathBuf,
}

/// Runs `boardbase export`.
pub fn export(args: &ExportArgs, out: &mut Output) -> Result<(), Failure> {
    std::fs::create_dir_all(&args.dir).map_err(|error| Failure::Write {
        path: args.dir.display().to_string(),
        error,
    })?;
    for file in TableFile::all() {
        let path = args.dir.join(file.file_name());
        let bytes = file.to_bytes();
        std::fs::write(&path, &bytes).map_err(|error| Failure::Write {
            path: path.display().to_string(),
            error,
        })?;
        writeln!(
            out,
            "wrote {} ({} {}x{}, columns {}, {} bytes)",
            path.display(),
            file.puzzle,
            file.rows,
            file.cols,
            column_names(&file),
            bytes.len()
        )?;
    }
    Ok(())
}

/// Runs `boardbase verify`.
pub fn verify(args: &VerifyArgs, out: &mut Output) -> Result<(), Failure> {
    let path = args.file.display().to_string();
    let bytes = match std::fs::read(&args.file) {
        Ok(bytes) => bytes,
        Err(error) => return Err(Failure::Open { path, error }),
    };
    let file = TableFile::read(&bytes)
        .and_then(|file| file.verify_contents().map(|()| file))
        .map_err(|error| Failure::Table {
            path: path.clone(),
            error,
        })?;
    writeln!(
        out,
        "{path}: ok ({} {}x{}, columns {})",
        file.puzzle,
        file.rows,
        file.cols,
        column_names(&file)
    )?;
    Ok(())
}

/// `rounds, presses, ...`
fn column_names(file: &TableFile) -> String {
    file.columns
        .iter()
        .map(|c| c.name.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}
