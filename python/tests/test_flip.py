"""Flip Game against a breadth-first search and every press set (oracles.py)."""

from __future__ import annotations

from typing import List, Optional

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import boardbase
from oracles import board_text, cells_of, flip_bfs, flip_sets, press_mask


def rounds_of(dw: int, db: int) -> Optional[int]:
    reach = [d for d in (dw, db) if d >= 0]
    return min(reach) if reach else None


def check_board(rows: int, cols: int, b: int, tie: str) -> None:
    """One board's whole answer against the oracles; ``tie``: which least
    optimal set the answer shows ("cells" for the 4×4 tables, "string" for
    GF(2))."""
    dw, db = (d[b] for d in flip_bfs(rows, cols))
    text = board_text(rows, cols, b, "w", "b")
    a = boardbase.flip(text)
    assert a.board == text
    rounds = rounds_of(dw, db)
    assert a.rounds == rounds
    assert a.solvable == (rounds is not None)
    assert a.answer == ("Impossible" if rounds is None else str(rounds))
    for colour, d, route in (("white", dw, a.to_white), ("black", db, a.to_black)):
        sets = flip_sets(rows, cols, colour)
        if d < 0:
            assert route is None
            continue
        assert route is not None
        assert route.rounds == d
        assert route.optimal_sets == sets.count[b]
        least = sets.least_cells[b] if tie == "cells" else sets.least_string[b]
        assert route.presses == cells_of(cols, least)
    if rounds is None:
        assert a.colour is None and a.presses == [] and a.optimal_sets == 0
    else:
        colour = "white" if dw == rounds else "black"
        assert a.colour == colour
        route = a.to_white if colour == "white" else a.to_black
        assert route is not None and a.presses == route.presses
        both = (a.to_white.optimal_sets if dw == rounds and a.to_white else 0) + (
            a.to_black.optimal_sets if db == rounds and a.to_black else 0
        )
        assert a.optimal_sets == both
    # Every press valued, best first (impossible last, ties in reading order).
    expected = []
    for r in range(rows):
        for c in range(cols):
            after = b ^ press_mask(rows, cols, r, c)
            value = rounds_of(*(d[after] for d in flip_bfs(rows, cols)))
            expected.append(((r, c), board_text(rows, cols, after, "w", "b"), value))
    expected.sort(key=lambda m: 10**9 if m[2] is None else m[2])
    got = [(m.cell, m.board, m.rounds) for m in a.moves]
    assert got == expected
    assert all(m.solvable == (m.rounds is not None) for m in a.moves)


def test_every_4x4_board_against_bfs() -> None:
    dw, db = flip_bfs(4, 4)
    for b in range(1 << 16):
        text = board_text(4, 4, b, "w", "b")
        a = boardbase.flip(text)
        assert a.rounds == rounds_of(dw[b], db[b]), text


@pytest.mark.parametrize("b", list(range(0, 1 << 16, 97)))
def test_4x4_answers_in_full(b: int) -> None:
    check_board(4, 4, b, "cells")


@pytest.mark.parametrize("rows,cols", [(1, 1), (1, 5), (2, 3), (3, 3), (2, 6), (3, 4), (4, 3)])
def test_small_shapes_every_board(rows: int, cols: int) -> None:
    for b in range(1 << (rows * cols)):
        check_board(rows, cols, b, "string")


@settings(max_examples=150, deadline=None)
@given(st.sampled_from([(3, 5), (5, 3), (4, 4), (2, 7)]), st.data())
def test_larger_shapes_random_boards(shape: tuple[int, int], data: st.DataObject) -> None:
    rows, cols = shape
    b = data.draw(st.integers(0, (1 << (rows * cols)) - 1))
    check_board(rows, cols, b, "cells" if shape == (4, 4) else "string")


def test_board_forms_agree() -> None:
    np = pytest.importorskip("numpy")
    text = "bwwb/bbwb/bwwb/bwww"
    rows: List[List[int]] = [[1 if ch == "b" else 0 for ch in row] for row in text.split("/")]
    forms = [
        text,
        text.replace("/", "\n") + "\n",
        text.split("/"),
        rows,
        [[bool(v) for v in row] for row in rows],
        np.array(rows, dtype=np.uint8),
        np.array(rows, dtype=bool),
        "bwwbbbwbbwwbbwww",
    ]
    answers = [boardbase.flip(f, size="4x4") for f in forms]
    assert all(a == answers[0] for a in answers)
    assert answers[0].rounds == 4


def test_size_as_tuple_and_one_run() -> None:
    assert boardbase.flip("bwwbbbwbbwwbbwww", size=(4, 4)).rounds == 4


def test_to_dict_is_the_json_vocabulary() -> None:
    a = boardbase.flip("bwwb/bbwb/bwwb/bwww")
    d = a.to_dict()
    assert d["rounds"] == 4 and d["colour"] == "white"
    assert d["presses"] == [[0, 0], [1, 1], [1, 3], [2, 0]]
    assert d["to_white"] == {"rounds": 4, "presses": [[0, 0], [1, 1], [1, 3], [2, 0]], "optimal_sets": 1}
    assert d["moves"][0] == {"cell": [0, 0], "board": "wbwb/wbwb/bwwb/bwww", "solvable": True, "rounds": 3}
    assert "rounds=4" in repr(a)


def test_large_board_by_gf2() -> None:
    # 32x32, every cell white: 0 rounds; a single black cell at a corner of
    # a 5x6 board (nullity 0) is solvable, and its presses clear it.
    assert boardbase.flip("/".join(["w" * 32] * 32)).rounds == 0
    a = boardbase.flip("bwwwww/wwwwww/wwwwww/wwwwww/wwwwww")
    b = 1
    for r, c in a.presses:
        b ^= press_mask(5, 6, r, c)
    assert b in (0, (1 << 30) - 1)
    assert a.rounds == len(a.presses)
