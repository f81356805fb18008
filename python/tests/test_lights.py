"""Flip and Lights Out on any board against light chasing (oracles.py)."""

from __future__ import annotations

from typing import List

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import boardbase
from oracles import lights as oracle

Grid = List[List[int]]


def check(grid: Grid, goal: str) -> None:
    want = oracle(grid, goal)
    a = boardbase.lights(grid, goal=goal)
    assert a.rounds == want.rounds
    assert a.solvable == (want.rounds is not None)
    assert a.presses == want.presses
    assert a.optimal_sets == want.optimal_sets
    assert a.colour == want.colour
    assert a.board == "/".join("".join(str(v) for v in row) for row in grid)
    assert a.press_grid == [[1 if (r, c) in want.presses else 0 for c in range(len(grid[0]))] for r in range(len(grid))]
    assert a.goal == goal
    # Both colours' routes, whatever the goal.
    for route, colour in ((a.to_white, "white"), (a.to_black, "black")):
        own = oracle(grid, colour)
        if own.rounds is None:
            assert route is None
        else:
            assert route == (own.rounds, own.presses, own.optimal_sets)


def check_moves(grid: Grid, goal: str) -> None:
    """Every press valued towards the goal: the oracle's fewest presses
    from the board after it, best first, ties in reading order."""
    rows, cols = len(grid), len(grid[0])
    a = boardbase.lights(grid, goal=goal)
    want = []
    for r in range(rows):
        for c in range(cols):
            after = [row[:] for row in grid]
            for dr, dc in ((0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)):
                if 0 <= r + dr < rows and 0 <= c + dc < cols:
                    after[r + dr][c + dc] ^= 1
            text = "/".join("".join(str(v) for v in row) for row in after)
            want.append(((r, c), text, oracle(after, goal).rounds))
    want.sort(key=lambda m: (m[2] is None, m[2] or 0))
    got = [(m.cell, m.board, m.rounds) for m in a.moves]
    assert got == want
    assert all(m.solvable == (m.rounds is not None) for m in a.moves)


grids = st.integers(1, 7).flatmap(
    lambda rows: st.integers(1, 8).flatmap(
        lambda cols: st.lists(
            st.lists(st.integers(0, 1), min_size=cols, max_size=cols), min_size=rows, max_size=rows
        )
    )
)


@settings(max_examples=200, deadline=None)
@given(grids, st.sampled_from(["white", "black", "either"]))
def test_random_boards(grid: Grid, goal: str) -> None:
    check(grid, goal)


@settings(max_examples=60, deadline=None)
@given(grids, st.sampled_from(["white", "black", "either"]))
def test_every_press_valued(grid: Grid, goal: str) -> None:
    check_moves(grid, goal)


@pytest.mark.parametrize("goal", ["white", "black", "either"])
def test_every_3x3_board(goal: str) -> None:
    for b in range(1 << 9):
        check([[b >> (3 * r + c) & 1 for c in range(3)] for r in range(3)], goal)


def test_numpy_in_numpy_out() -> None:
    np = pytest.importorskip("numpy")
    board = np.array([[1, 0, 0, 1], [0, 1, 1, 0], [0, 1, 1, 0], [1, 0, 0, 1]], dtype=np.int64)
    a = boardbase.lights(board)
    assert isinstance(a.press_grid, np.ndarray)
    assert a.press_grid.tolist() == [[0, 0, 0, 0], [1, 0, 0, 1], [1, 0, 0, 1], [0, 0, 0, 0]]
    assert (a.rounds, a.optimal_sets, a.nullity) == (4, 2, 4)


def test_large_board_clears() -> None:
    # A 20x20 board of one lit cell: the presses given really clear it.
    rows = cols = 20
    grid = [[0] * cols for _ in range(rows)]
    grid[7][11] = 1
    a = boardbase.lights(grid)
    state = [row[:] for row in grid]
    for r, c in a.presses:
        for dr, dc in ((0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)):
            if 0 <= r + dr < rows and 0 <= c + dc < cols:
                state[r + dr][c + dc] ^= 1
    if a.solvable:
        assert all(v == 0 for row in state for v in row)
        assert a.rounds == len(a.presses)
