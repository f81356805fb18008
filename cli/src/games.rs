//! `boardbase games`: the catalogue, every game answered and the judges'
//! problems on it.

use std::io::Write;

use boardbase::catalogue::{GAMES, MB};
use boardbase::report::{GameEntry, thousands};
use clap::{Args, ValueEnum};

use super::{Failure, Output, write_json_line};

/// `boardbase games`'s arguments.
#[derive(Args, Debug)]
pub struct GamesArgs {
    /// How the list is written.
    #[arg(long, value_enum, default_value_t = ListFormat::Text)]
    format: ListFormat,
}

/// List formats.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum ListFormat {
    /// For people: a game a paragraph.
    #[default]
    Text,
    /// One JSON array of objects, one a game.
    Json,
}

/// Runs `boardbase games`.
pub fn run(args: &GamesArgs, out: &mut Output) -> Result<(), Failure> {
    if args.format == ListFormat::Json {
        return write_json_line(out, &GameEntry::all());
    }
    for (i, game) in GAMES.iter().enumerate() {
        if i > 0 {
            writeln!(out)?;
        }
        writeln!(
            out,
            "{} ({}, {}): {}",
            game.name,
            game.title,
            game.kind.name(),
            game.question
        )?;
        writeln!(out, "  sizes: {}", game.sizes)?;
        if game.tables {
            writeln!(out, "  tables: boardbase generate {} RxC", game.name)?;
        }
        if let Some(model) = boardbase::catalogue::model(game.name) {
            let mut line = format!(
                "  solve: boardbase solve {} [--size RxC, {} by default]",
                game.name, model.default_shape
            );
            for o in model.options {
                line += &format!(
                    " [--{} N: {}, {} to {}, {} by default]",
                    o.name, o.help, o.min, o.max, o.default
                );
            }
            writeln!(out, "{line}")?;
        }
        for p in game.problems {
            let cases = match p.max_cases {
                usize::MAX => format!("any number of {}", p.noun.1),
                1 => format!("one {}", p.noun.0),
                n => format!("up to {} {}", thousands(n), p.noun.1),
            };
            let memory = match p.memory_limit {
                m if m % MB == 0 => format!("{} MB", m / MB),
                m => format!("{} KB", thousands(m / 1024)),
            };
            writeln!(
                out,
                "  {}: {}; {} s, {memory}, {cases} a run{}{}",
                p.command,
                p.judge,
                p.time_limit.as_secs_f64(),
                if p.limits.is_empty() { "" } else { "; " },
                p.limits
            )?;
        }
    }
    Ok(())
}
