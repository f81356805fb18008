//! `boardbase completions SHELL` and `boardbase man`: the bash script loads
//! in bash and completes subcommands and options, every shell gets a
//! script, and the man page is roff with a section per subcommand (rendered
//! by `man -l` where man is installed).

use std::io::Write;
use std::process::{Command, Stdio};

use crate::common::{binary, ok, run};

/// The subcommands `boardbase --help` lists.
fn subcommands() -> Vec<String> {
    let help = ok(&["--help"], "");
    let list = help
        .split("Commands:")
        .nth(1)
        .expect("a command list")
        .split("Options:")
        .next()
        .expect("the list ends");
    list.lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|w| *w != "help")
        .map(str::to_owned)
        .collect()
}

/// Runs `script` in bash with the completion script loaded.
fn bash(script: &str) -> String {
    let completion = ok(&["completions", "bash"], "");
    let mut child = Command::new("bash")
        .arg("--norc")
        .arg("-s")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("bash starts");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(completion.as_bytes()).unwrap();
    stdin.write_all(b"\n").unwrap();
    stdin.write_all(script.as_bytes()).unwrap();
    drop(stdin);
    let out = child.wait_with_output().expect("bash runs");
    assert!(
        out.status.success(),
        "bash: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

#[test]
fn the_bash_script_completes_subcommands_and_options() {
    let registered = bash("complete -p boardbase\n");
    assert!(registered.contains("boardbase"), "{registered}");
    let words = bash(
        "COMP_WORDS=(boardbase fl); COMP_CWORD=1; COMP_LINE='boardbase fl'; COMP_POINT=12; _boardbase boardbase fl boardbase; printf '%s\\n' \"${COMPREPLY[@]}\"\n",
    );
    let words: Vec<&str> = words.lines().collect();
    assert_eq!(words, ["flip", "fliptile"]);
    let words = bash(
        "COMP_WORDS=(boardbase euler --s); COMP_CWORD=2; COMP_LINE='boardbase euler --s'; COMP_POINT=19; _boardbase boardbase --s euler; printf '%s\\n' \"${COMPREPLY[@]}\"\n",
    );
    assert!(words.lines().any(|w| w == "--size"), "{words}");
    // Every subcommand of --help is offered after `boardbase `.
    let all = bash(
        "COMP_WORDS=(boardbase ''); COMP_CWORD=1; COMP_LINE='boardbase '; COMP_POINT=10; _boardbase boardbase '' boardbase; printf '%s\\n' \"${COMPREPLY[@]}\"\n",
    );
    for sub in subcommands() {
        assert!(all.lines().any(|w| w == sub), "{sub} in {all}");
    }
}

#[test]
fn no_arguments_print_the_help_as_a_usage_error() {
    let help = ok(&["--help"], "");
    let r = run(&[], "");
    assert_eq!(r.code, 2);
    assert_eq!(r.stdout, "");
    assert_eq!(r.stderr, help);
    for puzzle in [
        "Flip Game",
        "Game of Euler",
        "Carcassonne",
        "Fliptile",
        "Lights Out",
    ] {
        assert!(help.lines().next().unwrap().contains(puzzle), "{help}");
    }
}

#[test]
fn every_shell_gets_a_script() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let script = ok(&["completions", shell], "");
        assert!(script.contains("boardbase"), "{shell}");
        assert!(script.contains("--size"), "{shell}");
    }
    let r = run(&["completions", "tcsh"], "");
    assert_eq!(r.code, 2, "{}", r.stderr);
}

#[test]
fn the_man_page_has_a_section_per_subcommand() {
    let page = ok(&["man"], "");
    assert!(page.contains(".TH boardbase 1"), "{page}");
    for heading in [".SH NAME", ".SH SYNOPSIS", ".SH DESCRIPTION", ".SH OPTIONS"] {
        assert!(page.contains(heading), "{heading}");
    }
    for sub in subcommands() {
        let heading = format!(".SH \"BOARDBASE {}\"", sub.to_uppercase());
        assert!(page.contains(&heading), "{heading}");
        // Listed as a section of this page, not as a page of its own.
        assert!(
            page.contains(&format!("(section BOARDBASE {} below)", sub.to_uppercase())),
            "{sub}"
        );
        assert!(!page.contains(&format!("boardbase\\-{sub}(1)")), "{sub}");
    }
    // Rendered by man where it is installed: no warning, the name first.
    let man = Command::new("man").arg("--version").output();
    if man.is_ok_and(|o| o.status.success()) {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(format!("{} man | MANWIDTH=80 man -l - 2>&1", binary()))
            .stdout(Stdio::piped())
            .spawn()
            .expect("sh starts");
        let mut text = String::new();
        std::io::Read::read_to_string(child.stdout.as_mut().unwrap(), &mut text).unwrap();
        assert!(child.wait().unwrap().success());
        assert!(text.contains("BOARDBASE FLIP"), "{text}");
        assert!(!text.contains("warning"), "{text}");
    }
}
