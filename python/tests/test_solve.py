"""boardbase.solve: any two-player game of the catalogue, against the
oracle's memoised negamax (tests/oracles.py), every reachable position of
tic-tac-toe and of 3x4 with k = 3; the errors of bad positions and setups."""

from __future__ import annotations

from typing import Any

import pytest

import boardbase
from oracles import mnk_solve


def text(board: str, cols: int) -> str:
    return "/".join(board[i : i + cols] for i in range(0, len(board), cols))


@pytest.mark.parametrize("rows,cols,k", [(3, 3, 3), (3, 4, 3)])
def test_every_reachable_position_against_negamax(rows: int, cols: int, k: int) -> None:
    solved = mnk_solve(rows, cols, k)
    if (rows, cols) == (3, 3):
        assert len(solved) == 5478
    tablebase = boardbase.Tablebase()
    for board, (value, remoteness) in solved.items():
        s = tablebase.solve("mnk", text(board, cols), f"{rows}x{cols}", k=k)
        assert (s["value"], s["remoteness"]) == (value, remoteness), board
        assert s["position"] == text(board, cols)
        mover = "X" if board.count("X") == board.count("O") else "O"
        over = (value, remoteness) == ("lose", 0) or "." not in board
        want = sorted(
            (f"{'abcdefghij'[i % cols]}{i // cols + 1}", *solved[board[:i] + mover + board[i + 1 :]])
            for i, b in enumerate(board)
            if b == "." and not over
        )
        got = sorted((m["move"], m["value"], m["remoteness"]) for m in s["moves"])
        assert got == want, board


def test_the_start_and_the_defaults() -> None:
    start = boardbase.solve("mnk")
    assert (start["value"], start["remoteness"], start["size"]) == ("draw", None, "3x3")
    assert start["options"] == {"k": 3}
    assert len(start["moves"]) == 9
    assert boardbase.solve("connect4", size=(4, 4))["value"] == "draw"
    assert boardbase.solve("euler", "XXXX/XXXX/XXXX/XXX.")["value"] == "lose"


def test_bad_positions_and_setups() -> None:
    with pytest.raises(boardbase.BoardError) as e:
        boardbase.solve("mnk", "X../.Q./...")
    assert (e.value.line, e.value.column) == (1, 6)
    with pytest.raises(boardbase.BoardError, match="more O than X"):
        boardbase.solve("mnk", "OO./X../...")
    with pytest.raises(boardbase.OptionError, match="k = 0: mnk takes k from 1 to 40"):
        boardbase.solve("mnk", k=0)
    with pytest.raises(boardbase.OptionError, match="chess"):
        boardbase.solve("chess")
    with pytest.raises(boardbase.ShapeError):
        boardbase.solve("mnk", size="7x7")
    with pytest.raises(boardbase.ResourceError, match="needs"):
        boardbase.solve("connect4")


def test_a_games_table_file_generated_then_answered_with_no_memory_to_solve_in(tmp_path: Any) -> None:
    phases = []
    summary = boardbase.generate(
        "mnk", "3x4", tmp_path, progress=lambda phase, done, total: phases.append(phase), k=3
    )
    assert summary["file"].endswith("mnk-3x4-k3.bin")
    assert (summary["game"], summary["options"], summary["positions"]) == ("mnk", {"k": 3}, 3**12)
    assert summary["win"] + summary["lose"] + summary["draw"] == summary["reachable"] <= summary["legal"]
    assert "solve" in phases and "write" in phases
    solved = mnk_solve(3, 4, 3)
    # Only the file can answer: no memory to solve in.
    tablebase = boardbase.Tablebase([str(tmp_path)], make_memory=0)
    start = summary["start"]
    assert (start["value"], start["remoteness"]) == solved["." * 12]
    for board, (value, remoteness) in list(solved.items())[:2000]:
        s = tablebase.solve("mnk", text(board, 4), "3x4", k=3)
        assert (s["value"], s["remoteness"]) == (value, remoteness), board
    with pytest.raises(boardbase.ResourceError):
        tablebase.solve("mnk", None, "3x4", k=4)


def test_generate_refuses_the_settings_of_euler_and_flip_for_a_game() -> None:
    with pytest.raises(boardbase.OptionError, match="jobs is for euler and flip"):
        boardbase.generate("mnk", "3x3", jobs=2)
    with pytest.raises(boardbase.OptionError, match="k= is for the games of the model"):
        boardbase.generate("flip", "3x3", k=3)
    with pytest.raises(boardbase.OptionError, match="expected \"euler\", \"flip\" or a game of the model"):
        boardbase.generate("chess", "8x8")
