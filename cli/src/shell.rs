//! `boardbase completions SHELL` and `boardbase man`: shell integration,
//! generated from the same argument parser that reads the command line, so
//! that they cannot drift from it.

use std::io::Write;

use clap::{Args, CommandFactory, ValueEnum};
use clap_complete::Shell as CompleteShell;

use super::{Cli, Failure, Output};

/// The shells `completions` writes for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Shell {
    /// Bash: `source <(boardbase completions bash)`, or save it as
    /// `~/.local/share/bash-completion/completions/boardbase`.
    Bash,
    /// Zsh: save it as `_boardbase` in a directory of `$fpath`.
    Zsh,
    /// Fish: save it as `~/.config/fish/completions/boardbase.fish`.
    Fish,
    /// PowerShell: `boardbase completions powershell | Out-String | Invoke-Expression`.
    Powershell,
    /// Elvish: `eval (boardbase completions elvish | slurp)`.
    Elvish,
}

/// Arguments of `boardbase completions`.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to write the completion script for.
    #[arg(value_enum)]
    shell: Shell,
}

/// Writes the completion script of `args.shell` to standard output.
pub fn completions(args: &CompletionsArgs, out: &mut Output) -> Result<(), Failure> {
    let shell = match args.shell {
        Shell::Bash => CompleteShell::Bash,
        Shell::Zsh => CompleteShell::Zsh,
        Shell::Fish => CompleteShell::Fish,
        Shell::Powershell => CompleteShell::PowerShell,
        Shell::Elvish => CompleteShell::Elvish,
    };
    super::options::eager_arguments();
    let mut command = Cli::command();
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut command, "boardbase", &mut script);
    out.write_all(&script)?;
    Ok(())
}

/// Writes the man page, `boardbase(1)` in roff, with a section per
/// subcommand, to standard output: `boardbase man | man -l -`.
pub fn man(out: &mut Output) -> Result<(), Failure> {
    super::options::eager_arguments();
    let command = Cli::command();
    let mut page = Vec::new();
    let top = clap_mangen::Man::new(command.clone());
    top.render_title(&mut page)?;
    top.render_name_section(&mut page)?;
    top.render_synopsis_section(&mut page)?;
    top.render_description_section(&mut page)?;
    top.render_options_section(&mut page)?;
    // The subcommands are sections of this page, not pages of their own
    // (clap_mangen's list would name `boardbase-flip(1)` and the like).
    writeln!(page, ".SH SUBCOMMANDS")?;
    for sub in command.get_subcommands().filter(|s| !s.is_hide_set()) {
        let about = sub.get_about().map(|a| a.to_string()).unwrap_or_default();
        writeln!(
            page,
            ".TP\n\\fB{}\\fR\n{} (section BOARDBASE {} below)",
            sub.get_name(),
            roff_text(&about),
            sub.get_name().to_uppercase()
        )?;
    }
    top.render_version_section(&mut page)?;
    for sub in command.get_subcommands().filter(|s| !s.is_hide_set()) {
        let name = sub.get_name();
        writeln!(page, ".SH \"BOARDBASE {}\"", name.to_uppercase())?;
        let sub = sub.clone().bin_name(format!("boardbase {name}"));
        let man = clap_mangen::Man::new(sub);
        man.render_synopsis_section(&mut page)?;
        man.render_description_section(&mut page)?;
        man.render_options_section(&mut page)?;
    }
    out.write_all(&page)?;
    Ok(())
}

/// Text for a roff line: backslashes escaped, hyphens as `\-`, and a line
/// that would start with a control character kept as text.
fn roff_text(text: &str) -> String {
    let escaped = text.replace('\\', "\\e").replace('-', "\\-");
    if escaped.starts_with('.') || escaped.starts_with('\'') {
        format!("\\&{escaped}")
    } else {
        escaped
    }
}
