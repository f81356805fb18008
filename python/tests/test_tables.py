"""A table file written by the CLI (`boardbase generate`) and read from
Python, and judge cases the same bytes as `boardbase cases` writes. The binary is $BOARDBASE_BIN (.ci/run sets it), else the
workspace's target/debug or target/release build; without one the test is
skipped, except under CI, where it fails."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Dict, List, Optional, Tuple

import pytest

import boardbase
from oracles import board_text, euler_solve

ROOT = Path(__file__).resolve().parents[2]


def cli() -> Optional[Path]:
    given = os.environ.get("BOARDBASE_BIN")
    if given:
        return Path(given)
    for profile in ("debug", "release"):
        path = ROOT / "target" / profile / "boardbase"
        if path.exists():
            return path
    return None


@pytest.fixture
def boardbase_bin() -> Path:
    path = cli()
    if path is None or not path.exists():
        if os.environ.get("CI"):
            pytest.fail("no boardbase binary: set BOARDBASE_BIN (CI builds it with cargo test)")
        pytest.skip("no boardbase binary built (cargo build -p boardbase-cli)")
    return path


def test_euler_table_from_the_cli(boardbase_bin: Path, tmp_path: Path) -> None:
    # No table made in memory: only the file answers 3x4.
    tb = boardbase.Tablebase([tmp_path], make_memory=0)
    with pytest.raises(boardbase.MissingTableError) as caught:
        tb.euler("..../..../....")
    assert caught.value.command == f"boardbase generate euler 3x4 --dir {tmp_path}"
    subprocess.run([str(boardbase_bin), *caught.value.command.split()[1:]], check=True, capture_output=True)
    assert (tmp_path / "euler-3x4.bin").exists()
    tb = boardbase.Tablebase([tmp_path], make_memory=0)
    win, left = euler_solve(3, 4)
    for p in range(0, 1 << 12, 3):
        a = tb.euler(board_text(3, 4, p, ".", "X"))
        assert (a.winning, a.moves_left) == (win[p], left[p])
    assert tb.directories == [str(tmp_path)]


@pytest.mark.parametrize(
    "args",
    [
        ("flip", 50, 7, None, None),
        ("flip", 20, 1, "solvable", None),
        ("euler", 40, 3, None, None),
        ("euler", 10, 0, "losing", None),
        ("carcassonne", 3, 5, "planted", "3x4"),
        ("fliptile", 5, 2, None, "4x5"),
        ("lightsout", 4, 9, None, None),
        ("flip", 30, 4, None, "5x5"),
        ("flip", 12, 8, "solvable", "3x4"),
        ("flip", 6, 2, "impossible", "9x9"),
        ("euler", 25, 6, None, "3x4"),
        ("euler", 10, 1, "winning", "4x5"),
    ],
)
def test_cases_are_the_clis_bytes(
    boardbase_bin: Path,
    tmp_path: Path,
    args: Tuple[str, int, int, Optional[str], Optional[str]],
) -> None:
    puzzle, n, seed, family, size = args
    made = boardbase.cases(puzzle, n, seed, family=family, size=size)
    command = [str(boardbase_bin), "cases", puzzle, "--cases", str(n), "--seed", str(seed)]
    command += ["--answers", str(tmp_path / "answers.txt")]
    if family:
        command += ["--family", family]
    if size:
        command += ["--size", size]
    out = subprocess.run(command, check=True, capture_output=True, text=True)
    assert made.input == out.stdout
    assert made.answers == (tmp_path / "answers.txt").read_text()
    assert made.input and made.answers


@pytest.mark.parametrize(
    "args",
    [("flip", "--rounds", "3", {"rounds": 3}), ("euler", "--moves-left", "5", {"moves_left": 5})],
)
def test_cases_filters_are_the_clis(boardbase_bin: Path, args: Tuple[str, str, str, Dict[str, int]]) -> None:
    puzzle, flag, value, kwargs = args
    made = boardbase.cases(puzzle, 15, 3, **kwargs)  # type: ignore[arg-type]
    out = subprocess.run(
        [str(boardbase_bin), "cases", puzzle, "--cases", "15", "--seed", "3", flag, value],
        check=True,
        capture_output=True,
        text=True,
    )
    assert made.input == out.stdout


@pytest.mark.parametrize(
    "args",
    [
        (6, 1, {"size": "3x3"}, []),
        (5, 4, {"size": "2x3", "colours": 3, "family": "solvable", "goal": 2}, ["--colours", "3", "--family", "solvable", "--goal", "2"]),
        (4, 9, {"size": "3x3", "wrap": True, "pattern": "neighbours", "family": "impossible", "goal": "any"},
         ["--wrap", "--pattern", "neighbours", "--family", "impossible", "--goal", "any"]),
        (5, 2, {"size": "4x5", "colours": 16, "pattern": ".#.#./#...#/...../#...#/.#.#."},
         ["--colours", "16", "--pattern", ".#.#./#...#/...../#...#/.#.#."]),
        (3, 7, {"size": "9x9", "wrap": True, "family": "solvable", "max_nullity": 4, "goal": 1},
         ["--wrap", "--family", "solvable", "--max-nullity", "4", "--goal", "1"]),
        (4, 3, {"size": "4x4", "family": "impossible", "goal": "white"}, ["--family", "impossible", "--goal", "0"]),
    ],
)
def test_lights_cases_are_the_clis_bytes(
    boardbase_bin: Path, tmp_path: Path, args: Tuple[int, int, Dict[str, object], List[str]]
) -> None:
    n, seed, kwargs, flags = args
    made = boardbase.cases("lights", n, seed, **kwargs)  # type: ignore[arg-type]
    command = [str(boardbase_bin), "cases", "lights", "--cases", str(n), "--seed", str(seed)]
    command += ["--size", str(kwargs["size"]), *flags, "--answers", str(tmp_path / "answers.txt")]
    out = subprocess.run(command, check=True, capture_output=True, text=True)
    assert made.input == out.stdout
    assert made.answers == (tmp_path / "answers.txt").read_text()
    assert made.input.count("\n\n") == n


def test_cases_options() -> None:
    with pytest.raises(boardbase.OptionError):
        boardbase.cases("chess", 1)
    with pytest.raises(boardbase.OptionError):
        boardbase.cases("flip", 1, family="sideways")
    with pytest.raises(boardbase.OptionError, match="rounds is for flip"):
        boardbase.cases("euler", 1, rounds=2)
    with pytest.raises(boardbase.OptionError, match="size is for"):
        boardbase.cases("lightsout", 1, size="5x5")
    with pytest.raises(boardbase.MissingTableError):
        boardbase.Tablebase(make_memory=0).cases("euler", 1, size="5x5")
    # The same seed, the same cases; the flip answers are the solver's.
    a = boardbase.cases("flip", 30, 11)
    assert a == boardbase.cases("flip", 30, 11)
    boards = a.input.split()
    expected = [boardbase.flip("/".join(boards[4 * i : 4 * i + 4])).answer for i in range(30)]
    assert a.answers.split("\n")[:-1] == expected


def test_games_is_the_catalogue_the_cli_lists(boardbase_bin: Path) -> None:
    listed = subprocess.run(
        [str(boardbase_bin), "games", "--format", "json"], check=True, capture_output=True, text=True
    ).stdout
    assert boardbase.games() == json.loads(listed)
    euler = next(g for g in boardbase.games() if g["name"] == "euler")
    assert (euler["kind"], euler["problems"][0]["time_limit"]) == ("two-player", 3.0)
