//! The judges' sample inputs, read from the files of `examples/` (the docs
//! and `boardbase demo` use the same files), and their published outputs,
//! written here from the problem statements. Nothing here calls the
//! library; this file needs nothing else of `tests/oracle`, so a binary may
//! include it alone.

/// POJ 1753's sample: one Flip Game board, answer [`FLIP_ANSWER`].
pub const FLIP: &str = include_str!("../../examples/flip-sample.txt");
/// POJ 1753's published output.
pub const FLIP_ANSWER: &str = "4\n";

/// UVA 10536's sample: a case count, then three boards, each after a blank
/// line ([`euler_boards`]); answers [`EULER_ANSWER`].
pub const EULER: &str = include_str!("../../examples/euler-sample.txt");
/// UVA 10536's published output.
pub const EULER_ANSWER: &str = "LOSING\nWINNING\nLOSING\n";

/// HDU 4064's sample: three cases, whose answers are 4, 1 and 1,048,576.
pub const CARCASSONNE: &str = include_str!("../../examples/carcassonne-sample.txt");
/// HDU 4064's published output.
pub const CARCASSONNE_ANSWER: &str = "Case 1: 4\nCase 2: 1\nCase 3: 1048576\n";

/// POJ 3279's sample: one 4×4 board.
pub const FLIPTILE: &str = include_str!("../../examples/fliptile-sample.txt");
/// POJ 3279's published output.
pub const FLIPTILE_ANSWER: &str = "0 0 0 0\n1 0 0 1\n1 0 0 1\n0 0 0 0\n";

/// POJ 1222's sample: two 5×6 puzzles.
pub const LIGHTS_OUT: &str = include_str!("../../examples/lightsout-sample.txt");
/// POJ 1222's published output.
pub const LIGHTS_OUT_ANSWER: &str = "PUZZLE #1
1 0 1 0 0 1
1 1 0 1 0 1
0 0 1 0 1 1
1 0 0 1 0 0
0 1 0 0 0 0
PUZZLE #2
1 0 0 1 1 1
1 1 0 0 0 0
0 0 0 1 0 0
1 1 0 1 0 1
1 0 1 1 0 1
";

/// The boards of [`EULER`], each as its rows joined by `\n`: the blocks of
/// lines after the case count, between blank lines.
pub fn euler_boards() -> Vec<String> {
    let lines: Vec<&str> = EULER.lines().skip(1).map(str::trim).collect();
    lines
        .split(|line| line.is_empty())
        .filter(|block| !block.is_empty())
        .map(|block| block.join("\n"))
        .collect()
}
