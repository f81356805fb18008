"""Carcassonne against brute force on boards up to 3×3 tiles (oracles.py)."""

from __future__ import annotations

from typing import List

from hypothesis import given, settings
from hypothesis import strategies as st

import boardbase
from oracles import carcassonne_count, carcassonne_valid, turned

MODULUS = 1_000_000_007


def check(rows: int, cols: int, tiles: List[str]) -> None:
    want = carcassonne_count(rows, cols, tiles)
    a = boardbase.carcassonne(rows, cols, tiles)
    assert (a.rows, a.cols) == (rows, cols)
    assert a.exact == want and isinstance(a.exact, int)
    assert a.count == want % MODULUS and a.modulus == MODULUS
    if want == 0:
        assert a.witness is None
    else:
        assert a.witness is not None
        placed = [[turned(tiles[r * cols + c], a.witness.turns[r][c]) for c in range(cols)] for r in range(rows)]
        assert placed == a.witness.tiles
        assert carcassonne_valid(rows, cols, placed)


tile = st.text(alphabet="CRF", min_size=4, max_size=4)
# Two letters make matching boards common.
tile_two = st.text(alphabet="CR", min_size=4, max_size=4)


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 3), st.integers(1, 3), st.data())
def test_random_boards(rows: int, cols: int, data: st.DataObject) -> None:
    letters = data.draw(st.sampled_from([tile, tile_two]))
    tiles = data.draw(st.lists(letters, min_size=rows * cols, max_size=rows * cols))
    check(rows, cols, tiles)


def test_uniform_tiles() -> None:
    check(3, 3, ["CCCC"] * 9)
    assert boardbase.carcassonne(3, 3, ["CCCC"] * 9).exact == 4**9
    check(2, 3, ["CRCR"] * 6)


def test_to_dict_exact_is_text() -> None:
    d = boardbase.carcassonne(1, 2, ["RRRF", "FCCC"]).to_dict()
    assert d == {
        "case": 1,
        "rows": 1,
        "cols": 2,
        "count": 1,
        "modulus": MODULUS,
        "exact": "1",
        "witness": {"turns": [[2, 3]], "tiles": [["RFRR", "CCCF"]]},
    }
