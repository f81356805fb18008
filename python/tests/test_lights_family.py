"""boardbase.lights() on the Lights Out family (colours, wrap, pattern,
goal) against the brute force over every press vector (oracles.py)."""

from __future__ import annotations

import random
from typing import List, Tuple

import pytest

import boardbase
from oracles import PATTERNS, family_press, family_solve, stencil_offsets

KNIGHT = ".#.#./#...#/...../#...#/.#.#."

# (rows, cols, colours, pattern, wrap): small enough for K^(R·C) vectors.
VARIANTS = [
    (2, 3, 3, "plus", False),
    (3, 3, 2, "neighbours", True),
    (2, 2, 4, "x", False),
    (3, 2, 3, "king", True),
    (2, 3, 2, ".#./###/.#.", True),
    (3, 3, 2, KNIGHT, False),
    (2, 2, 5, "plus", True),
    (2, 2, 6, "neighbours", False),
    (1, 5, 3, "x", True),
]


def offsets(pattern: str) -> Tuple[Tuple[int, int], ...]:
    return PATTERNS.get(pattern) or stencil_offsets(pattern)


def text(cells: List[int], cols: int) -> str:
    digits = "".join("0123456789abcdef"[v] for v in cells)
    return "/".join(digits[i : i + cols] for i in range(0, len(digits), cols))


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: f"{v[0]}x{v[1]}-k{v[2]}-{v[3]}-{'wrap' if v[4] else 'flat'}")
def test_answers_are_the_brute_forces(variant: Tuple[int, int, int, str, bool]) -> None:
    rows, cols, k, pattern, wrap = variant
    rng = random.Random(rows * 100 + cols * 10 + k)
    offs = offsets(pattern)
    for _ in range(6):
        board = [rng.randrange(k) for _ in range(rows * cols)]
        for goal in ("0", str(k - 1), "any"):
            want = family_solve(board, rows, cols, k, offs, wrap, goal)
            a = boardbase.lights(text(board, cols), goal=goal if goal == "any" else int(goal), colours=k, wrap=wrap, pattern=pattern)
            assert (a.colours, a.wrap, a.goal) == (k, wrap, goal if goal == "any" else int(goal))
            if want is None:
                assert (a.solvable, a.rounds, a.colour, a.optimal_sets) == (False, None, None, 0)
                assert all(m.rounds is None for m in a.moves)
                continue
            total, vector, count, colour = want
            assert (a.solvable, a.rounds, a.optimal_sets, a.colour) == (True, total, count, colour)
            assert [c for row in a.press_grid for c in row] == list(vector)
            assert len(a.presses) == total
            # Every press valued: the brute force from the board after it.
            for m in a.moves:
                after = list(board)
                for cell in family_press(rows, cols, offs, wrap, *m.cell):
                    after[cell] = (after[cell] + 1) % k
                expect = family_solve(after, rows, cols, k, offs, wrap, goal)
                assert m.rounds == (None if expect is None else expect[0]), m
            assert [m.rounds for m in a.moves] == sorted(m.rounds for m in a.moves if m.rounds is not None)


def test_the_classic_game_is_the_same_either_way() -> None:
    # Goal 0 of the family on the classic variant = goal "white".
    for board in ("1001/0110/0110/1001", "110/011/001", "1/0"):
        classic = boardbase.lights(board, goal="white")
        family = boardbase.lights(board, goal=0)
        assert (family.rounds, family.presses, family.optimal_sets) == (classic.rounds, classic.presses, classic.optimal_sets)
        either, anyone = boardbase.lights(board, goal="either"), boardbase.lights(board, goal="any")
        assert (either.rounds, either.optimal_sets) == (anyone.rounds, anyone.optimal_sets)


def test_the_compiled_layer_picks_the_engine() -> None:
    # The classic game towards a named colour: the fliptile answer (the
    # shape's nullity, both routes, each press's board); any other goal or
    # variant: the family's (no nullity, no routes, no boards after a press).
    board = "110/011/001"
    classic = boardbase.lights(board, goal="black")
    assert (classic.nullity, classic.colours, classic.wrap, classic.pattern) == (0, 2, False, "plus")
    assert classic.to_white is not None and classic.to_black is not None
    assert all(m.board is not None for m in classic.moves)
    for family in (
        boardbase.lights(board, goal=1),
        boardbase.lights(board, goal="black", wrap=True),
        boardbase.lights(board, goal="black", pattern=".#./###/.#."),
    ):
        assert (family.nullity, family.to_white, family.to_black) == (None, None, None)
        assert family.goal == 1 and family.colour in (None, 1)
        assert all(m.board is None and m.solvable == (m.rounds is not None) for m in family.moves)
    # The plus given as a stencil presses as the plus does.
    stencil = boardbase.lights(board, goal=1, pattern=".#./###/.#.")
    assert (stencil.pattern, stencil.rounds, stencil.presses) == (".#./###/.#.", classic.rounds, classic.presses)
    # "either" of the classic game is "any" of the family.
    assert boardbase.lights(board, goal="either", wrap=True).goal == "any"


def test_bool_cells_are_colours_0_and_1() -> None:
    a = boardbase.lights([[True, False], [False, True]], colours=3, goal=0)
    assert a.board == "10/01"
    assert a == boardbase.lights("10/01", colours=3, goal=0)


def test_numpy_boards_and_press_counts() -> None:
    np = pytest.importorskip("numpy")
    a = boardbase.lights(np.array([[1, 2, 0], [0, 0, 0], [0, 0, 0]]), colours=3, goal=0)
    assert isinstance(a.press_grid, np.ndarray)
    assert a.press_grid.tolist() == [[2, 0, 2], [0, 0, 1], [1, 2, 0]]
    assert a.rounds == 8 == int(a.press_grid.sum())


def test_errors() -> None:
    with pytest.raises(boardbase.BoardError) as caught:
        boardbase.lights("120/301", colours=3)
    assert (caught.value.line, caught.value.column) == (1, 5)
    with pytest.raises(boardbase.BoardError) as caught:
        boardbase.lights([[0, 1], [2, 16]], colours=3)
    assert (caught.value.line, caught.value.column) == (2, 2)
    # A colour past 1 on the classic game: the cell that holds it.
    with pytest.raises(boardbase.BoardError) as caught:
        boardbase.lights([[0, 1], [1, 2]])
    assert (caught.value.line, caught.value.column) == (2, 2)
    with pytest.raises(boardbase.BoardError):
        boardbase.lights("01/10", pattern="##/##")  # an even stencil
    with pytest.raises(boardbase.OptionError):
        boardbase.lights("01/10", pattern="hexagon")
    with pytest.raises(boardbase.OptionError):
        boardbase.lights("01/10", colours=1)
    with pytest.raises(boardbase.OptionError):
        boardbase.lights("01/10", colours=17)
    with pytest.raises(boardbase.OptionError):
        boardbase.lights("01/10", colours=3, goal=3)
    with pytest.raises(boardbase.OptionError):
        boardbase.lights("01/10", colours=3, goal="black")
    with pytest.raises(boardbase.NullityError):
        boardbase.lights("0" * 64, colours=3, wrap=True, max_nullity=0)
