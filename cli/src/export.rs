//! `boardbase export` and `boardbase verify`: table files any language can
//! read (layout: `boardbase::tablefile`).

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use boardbase::tablefile::{Checked, Phase, Puzzle, Table};
use clap::Args;

use super::bar::PhaseBar;
use super::{Failure, Output, thousands};

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
    /// The table file to check (version 2, or 1 from earlier releases).
    #[arg(value_name = "FILE")]
    file: PathBuf,
}

/// Runs `boardbase export`.
pub fn export(args: &ExportArgs, out: &mut Output) -> Result<(), Failure> {
    std::fs::create_dir_all(&args.dir).map_err(|error| Failure::Write {
        path: args.dir.display().to_string(),
        error,
    })?;
    for puzzle in Puzzle::ALL {
        let table = Table::embedded(puzzle);
        let path = args.dir.join(table.file_name());
        let shown = path.display().to_string();
        let len = table
            .write(&path, &mut |_| {})
            .map_err(|error| Failure::table_write(&shown, error))?;
        writeln!(
            out,
            "wrote {shown} ({} {}, version {}, columns {}, {len} bytes)",
            table.puzzle(),
            table.shape(),
            table.version(),
            column_names(&table),
        )?;
    }
    Ok(())
}

/// Runs `boardbase verify`.
pub fn verify(args: &VerifyArgs, out: &mut Output) -> Result<(), Failure> {
    let path = args.file.display().to_string();
    let failure = |error| Failure::Table {
        path: path.clone(),
        error,
    };
    let table = Table::open(&args.file).map_err(failure)?;
    let bar = PhaseBar::with_templates(
        std::io::stderr().is_terminal(),
        [
            "{msg:>8} [{bar:40}] {percent:>3}% {bytes}/{total_bytes}, {eta} left",
            "{msg:>8} [{bar:40}] {percent:>3}% {pos}/{len} positions, {eta} left",
        ],
    );
    let verified = table.verify(&mut |p| {
        let bytes = matches!(p.phase, Phase::Crc | Phase::Checksum | Phase::Write);
        bar.update(p.phase.name(), p.done, p.total, bytes)
    });
    bar.finish();
    let verified = verified.map_err(failure)?;
    let crcs = match (table.version(), verified.crcs) {
        (1, _) => "file CRC ok".to_owned(),
        (_, n) => format!(
            "{n} column CRC{} ok over {} bytes",
            if n == 1 { "" } else { "s" },
            thousands(verified.bytes)
        ),
    };
    let entries = match verified.entries {
        Checked::Embedded { .. } => "every entry equals the built-in tables".to_owned(),
        Checked::Consistent { checked, positions } if checked == positions => {
            format!(
                "every entry agrees with its neighbours ({} positions)",
                thousands(positions)
            )
        }
        Checked::Consistent { checked, positions } => format!(
            "entries agree with their neighbours at {} of {} positions (a spot check)",
            thousands(checked),
            thousands(positions)
        ),
    };
    writeln!(
        out,
        "{path}: ok ({} {}, version {}, columns {}; {crcs}; {entries})",
        table.puzzle(),
        table.shape(),
        table.version(),
        column_names(&table),
    )?;
    Ok(())
}

/// `rounds, presses, ...`
fn column_names(table: &Table) -> String {
    table
        .columns()
        .map(|c| c.name.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}
