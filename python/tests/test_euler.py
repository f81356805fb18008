"""Game of Euler against brute-force play on small shapes (oracles.py)."""

from __future__ import annotations

from typing import Tuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import boardbase
from oracles import board_text, cells_of, euler_moves, euler_solve


def check_position(rows: int, cols: int, p: int) -> None:
    win, left = euler_solve(rows, cols)
    text = board_text(rows, cols, p, ".", "X")
    a = boardbase.euler(text)
    assert a.board == text
    assert a.winning == win[p], text
    assert a.outcome == ("win" if win[p] else "loss")
    assert a.answer == ("WINNING" if win[p] else "LOSING")
    assert a.moves_left == left[p], text
    legal = [m for m in euler_moves(rows, cols) if not p & m]
    assert a.legal_moves == len(legal)
    assert a.winning_moves == sum(1 for m in legal if not win[p | m])
    # Every legal move once, valued as the oracle values it, best first:
    # moves to a lost position (fastest first), then the others (longest
    # first).
    assert sorted(m.mask for m in a.moves) == sorted(legal)
    for m in a.moves:
        after = p | m.mask
        assert m.cells == cells_of(cols, m.mask)
        assert m.board == board_text(rows, cols, after, ".", "X")
        assert m.outcome == ("win" if win[after] else "loss")
        assert m.moves_left == left[after]
    keys = [(0, m.moves_left or 0) if m.outcome == "loss" else (1, -(m.moves_left or 0)) for m in a.moves]
    assert keys == sorted(keys)
    if legal:
        assert a.best_move == a.moves[0].cells
    else:
        assert a.best_move is None and a.moves == []


@pytest.mark.parametrize("shape", [(1, 1), (1, 4), (2, 2), (2, 3), (3, 3), (2, 5), (3, 4)])
def test_small_shapes_every_position(shape: Tuple[int, int]) -> None:
    rows, cols = shape
    for p in range(1 << (rows * cols)):
        check_position(rows, cols, p)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, (1 << 16) - 1))
def test_4x4_positions(p: int) -> None:
    check_position(4, 4, p)


def test_4x4_every_outcome() -> None:
    win, left = euler_solve(4, 4)
    for p in range(0, 1 << 16, 7):
        a = boardbase.euler(board_text(4, 4, p, ".", "X"))
        assert (a.winning, a.moves_left) == (win[p], left[p])


def test_array_board() -> None:
    np = pytest.importorskip("numpy")
    grid = np.array([[1, 1, 1, 1], [0, 0, 0, 1], [1, 1, 0, 1], [1, 1, 0, 1]])
    a = boardbase.euler(grid)
    assert (a.winning, a.moves_left, a.best_move) == (True, 4, [(1, 2)])
    assert a.to_dict()["best_move"] == {"mask": 64, "cells": [[1, 2]]}
