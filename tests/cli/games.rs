//! `boardbase games`: the catalogue as people and programs read it. The
//! judges' limits are checked against the problem statements (written
//! here, not read from the library), and every problem's command against
//! the subcommands that answer it and `check` it.

use serde_json::Value;

use crate::common::{ok, run};
use crate::schemas::assert_valid;

/// The statements' facts: command, judge, time limit (s), memory limit
/// (MB), the most cases an input holds.
const STATEMENTS: [(&str, &str, f64, f64, Option<u64>); 6] = [
    ("flip", "POJ 1753", 1.0, 64.0, Some(1)),
    ("fliptile", "POJ 3279", 2.0, 64.0, Some(1)),
    // POJ 1222: 10000K.
    ("lightsout", "POJ 1222", 1.0, 10_000.0 / 1024.0, None),
    ("lights", "no original judge", 1.0, 64.0, Some(100)),
    // UVA 10536: "N < 100,000".
    ("euler", "UVA 10536", 3.0, 64.0, Some(99_999)),
    // HDU 4064: "T ≤ 50".
    ("carcassonne", "HDU 4064", 1.0, 64.0, Some(50)),
];

fn games() -> Vec<Value> {
    let out = ok(&["games", "--format", "json"], "");
    assert_eq!(out.lines().count(), 1, "one line: {out}");
    let value: Value = serde_json::from_str(&out).expect("JSON");
    assert_valid("games", &value, "games --format json");
    value.as_array().expect("an array").clone()
}

#[test]
fn every_game_is_listed_with_its_problems_and_their_limits() {
    let games = games();
    let names: Vec<&str> = games.iter().map(|g| g["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "flip",
            "lights",
            "euler",
            "carcassonne",
            "mnk",
            "connect4",
            "quixo",
            "teeko"
        ]
    );
    let kinds: Vec<&str> = games.iter().map(|g| g["kind"].as_str().unwrap()).collect();
    assert_eq!(
        kinds,
        [
            "puzzle",
            "puzzle",
            "two-player",
            "count",
            "two-player",
            "two-player",
            "two-player",
            "two-player"
        ]
    );
    let tables: Vec<bool> = games
        .iter()
        .map(|g| g["tables"].as_bool().unwrap())
        .collect();
    assert_eq!(tables, [true, false, true, false, true, true, true, true]);
    // The two-player games are solved by `boardbase solve`, with their
    // boards and options: tic-tac-toe by default for mnk.
    let solve: Vec<&Value> = games.iter().map(|g| &g["solve"]).collect();
    assert!(solve[..2].iter().chain(&solve[3..4]).all(|s| s.is_null()));
    assert_eq!(solve[2]["default_size"], "4x4");
    assert_eq!(solve[4]["default_size"], "3x3");
    assert_eq!(solve[4]["options"][0]["name"], "k");
    assert_eq!(solve[4]["options"][0]["default"], 3);
    assert_eq!(solve[5]["default_size"], "6x7");
    assert_eq!(solve[5]["options"][0]["default"], 4);
    // Quixo: the standard 5x5, k = 0 standing for the board's shorter side.
    assert_eq!(solve[6]["default_size"], "5x5");
    assert_eq!(solve[6]["options"][0]["default"], 0);
    // Teeko: the standard 5x5, the standard winning rule.
    assert_eq!(solve[7]["default_size"], "5x5");
    assert_eq!(solve[7]["options"][0]["name"], "advanced");
    assert_eq!(solve[7]["options"][0]["default"], 0);
    let problems: Vec<&Value> = games
        .iter()
        .flat_map(|g| g["problems"].as_array().unwrap())
        .collect();
    assert_eq!(problems.len(), STATEMENTS.len());
    for (command, judge, time, memory, max_cases) in STATEMENTS {
        let p = problems
            .iter()
            .find(|p| p["command"] == command)
            .unwrap_or_else(|| panic!("{command} listed"));
        assert_eq!(p["judge"], judge, "{command}");
        assert_eq!(p["time_limit"].as_f64(), Some(time), "{command}");
        assert_eq!(p["memory_limit_mb"].as_f64(), Some(memory), "{command}");
        assert_eq!(p["max_cases"].as_u64(), max_cases, "{command}");
    }
}

#[test]
fn every_problem_is_a_subcommand_and_check_takes_its_limits() {
    for game in games() {
        for p in game["problems"].as_array().unwrap() {
            let command = p["command"].as_str().unwrap();
            let help = run(&[command, "--help"], "");
            assert_eq!(help.code, 0, "{command} --help: {}", help.stderr);
            let help = run(&["check", command, "--help"], "");
            assert_eq!(help.code, 0, "check {command} --help: {}", help.stderr);
        }
    }
}

#[test]
fn the_text_list_names_every_game_and_judge() {
    let text = ok(&["games"], "");
    for (command, judge, ..) in STATEMENTS {
        assert!(
            text.contains(&format!("  {command}: {judge}; ")),
            "{command}: {text}"
        );
    }
    assert!(text.starts_with("flip (Flip Game, puzzle): fewest rounds to a uniform board\n"));
    assert!(text.contains("\neuler (Game of Euler, two-player): covering the last square loses\n"));
    assert!(text.contains("  lightsout: POJ 1222; 1 s, 10,000 KB, any number of puzzles a run\n"));
    // A usage error for an unknown format.
    assert_eq!(run(&["games", "--format", "yaml"], "").code, 2);
}
