"""boardbase.lights() on the Lights Out family (colours, wrap, pattern,
goal) against the brute force over every press vector (oracles.py)."""

from __future__ import annotations

import itertools
import random
from typing import List, Optional, Tuple

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


Answered = List[Tuple[List[int], Optional[Tuple[int, List[int]]]]]


def read_cases(made: boardbase.Cases, rows: int) -> Answered:
    """The boards of `cases("lights")` (rows of digits, a blank line after
    each) with their answers (the fewest presses and the press vector's
    rows, or `Impossible`), read as `boardbase lights solve` reads and
    prints them."""
    blocks = made.input.split("\n\n")
    assert blocks[-1] == ""
    boards = [[int(d, 16) for d in block.replace("\n", "")] for block in blocks[:-1]]
    lines = made.answers.split("\n")
    assert lines[-1] == ""
    at = 0
    read: Answered = []
    for board in boards:
        if lines[at] == "Impossible":
            read.append((board, None))
            at += 1
            continue
        vector = [int(d, 16) for d in "".join(lines[at + 1 : at + 1 + rows])]
        read.append((board, (int(lines[at]), vector)))
        at += 1 + rows
    assert at == len(lines) - 1
    return read


# (rows, cols, colours, pattern, wrap, family, goal): the brute force's
# K^(R·C) press vectors stay under a thousand.
CASES = [
    (3, 3, 2, "plus", False, "random", None),
    (3, 3, 2, "plus", False, "solvable", "any"),
    (2, 3, 3, "plus", False, "solvable", 2),
    (2, 3, 3, "plus", False, "impossible", 0),
    (2, 2, 4, "x", False, "random", "any"),
    (2, 2, 4, "x", False, "impossible", "any"),
    (3, 3, 2, "neighbours", True, "impossible", 1),
    (3, 3, 2, "neighbours", True, "solvable", 1),
    (2, 3, 2, ".#./###/.#.", True, "random", 0),
    (2, 2, 5, "plus", True, "random", 3),
    (1, 5, 3, "x", True, "impossible", 2),
    (2, 2, 6, "neighbours", False, "solvable", "any"),
]


@pytest.mark.parametrize("case", CASES, ids=lambda v: f"{v[0]}x{v[1]}-k{v[2]}-{v[3]}-{'wrap' if v[4] else 'flat'}-{v[5]}-{v[6]}")
def test_cases_answers_are_the_brute_forces(case: Tuple[int, int, int, str, bool, str, Optional[object]]) -> None:
    rows, cols, k, pattern, wrap, family, goal = case
    made = boardbase.cases(
        "lights", 8, seed=rows * cols + k, family=family, size=f"{rows}x{cols}", colours=k, wrap=wrap, pattern=pattern, goal=goal  # type: ignore[arg-type]
    )
    read = read_cases(made, rows)
    assert len(read) == 8
    offs = offsets(pattern)
    for board, answer in read:
        assert len(board) == rows * cols and all(0 <= v < k for v in board)
        want = family_solve(board, rows, cols, k, offs, wrap, "0" if goal is None else str(goal))
        if family == "solvable":
            assert want is not None, board
        if family == "impossible":
            assert want is None, board
        if want is None:
            assert answer is None, board
        else:
            assert answer == (want[0], list(want[1])), board


def test_cases_goal_names_are_lights_ones() -> None:
    # One rule for lights() and cases: "white" is colour 0 (the default),
    # "black" colour 1 of 2, "either" is "any".
    def made(**goal: object) -> boardbase.Cases:
        return boardbase.cases("lights", 12, 5, size="3x4", pattern="x", **goal)  # type: ignore[arg-type]

    assert made() == made(goal=0) == made(goal="white") == made(goal="0")
    assert made(goal="black") == made(goal=1)
    assert made(goal="either") == made(goal="any")
    assert made(goal=1) != made(goal=0) != made(goal="any")


def test_cases_without_impossible_boards_are_refused() -> None:
    # A variant whose press map is one to one (the brute force reaches
    # every board from the board all 0) has no impossible board.
    for rows, cols, k, pattern, wrap in ((3, 3, 2, "plus", False), (2, 2, 5, "plus", True)):
        offs = offsets(pattern)
        masks = [family_press(rows, cols, offs, wrap, i // cols, i % cols) for i in range(rows * cols)]
        reached = set()
        for vector in itertools.product(range(k), repeat=rows * cols):
            state = [0] * (rows * cols)
            for i, times in enumerate(vector):
                for cell in masks[i]:
                    state[cell] = (state[cell] + times) % k
            reached.add(tuple(state))
        assert len(reached) == k ** (rows * cols)
        with pytest.raises(boardbase.OptionError, match="no impossible board .* no quiet pattern"):
            boardbase.cases("lights", 1, family="impossible", size=f"{rows}x{cols}", colours=k, wrap=wrap, pattern=pattern)


def test_cases_max_nullity_is_the_tablebases_unless_given() -> None:
    # The 9x9 torus has 16 quiet patterns: 2^4 press vectors a goal.
    tight = boardbase.Tablebase(max_nullity=3)
    with pytest.raises(boardbase.NullityError, match="more than 2\\^3"):
        tight.cases("lights", 1, size="9x9", wrap=True)
    assert tight.cases("lights", 2, size="9x9", wrap=True, max_nullity=4) == boardbase.Tablebase().cases(
        "lights", 2, size="9x9", wrap=True
    )
    with pytest.raises(boardbase.NullityError, match="more than 2\\^2"):
        boardbase.cases("lights", 1, size="9x9", wrap=True, max_nullity=2)


def test_cases_options() -> None:
    with pytest.raises(boardbase.OptionError, match="^size is needed for lights"):
        boardbase.cases("lights", 1)
    for other in ("flip", "euler", "carcassonne", "fliptile", "lightsout"):
        for option in ({"colours": 3}, {"wrap": True}, {"pattern": "x"}, {"goal": 0}, {"goal": "any"}):
            with pytest.raises(boardbase.OptionError, match=f"^colours, wrap, pattern and goal are for lights, not {other}$"):
                boardbase.cases(other, 1, **option)
        with pytest.raises(boardbase.OptionError, match=f"^max_nullity is for lights, not {other}"):
            boardbase.cases(other, 1, max_nullity=24)
    # The defaults given are no option.
    assert boardbase.cases("flip", 3, colours=2, wrap=False, pattern="plus") == boardbase.cases("flip", 3)
    with pytest.raises(boardbase.OptionError, match="^rounds is for flip, not lights$"):
        boardbase.cases("lights", 1, size="3x3", rounds=2)
    with pytest.raises(boardbase.OptionError, match="expected random, solvable or impossible"):
        boardbase.cases("lights", 1, size="3x3", family="ties")
    with pytest.raises(boardbase.OptionError, match="^goal colour 3, but there are 3 colours"):
        boardbase.cases("lights", 1, size="3x3", colours=3, goal=3)
    with pytest.raises(boardbase.OptionError, match="^goal 'black' is colour 1 of 2 colours"):
        boardbase.cases("lights", 1, size="3x3", colours=3, goal="black")
    with pytest.raises(boardbase.OptionError, match="^goal \"purple\""):
        boardbase.cases("lights", 1, size="3x3", goal="purple")
    with pytest.raises(TypeError, match="^goal: expected"):
        boardbase.cases("lights", 1, size="3x3", goal=1.5)  # type: ignore[arg-type]
    with pytest.raises(boardbase.OptionError, match="^colours 17: expected 2 to 16"):
        boardbase.cases("lights", 1, size="3x3", colours=17)
    with pytest.raises(boardbase.OptionError, match="^pattern: "):
        boardbase.cases("lights", 1, size="3x3", pattern="hexagon")
    with pytest.raises(boardbase.BoardError) as caught:
        boardbase.cases("lights", 1, size="3x3", pattern="##/##")
    assert (caught.value.line, caught.value.column) == (1, 3)
    with pytest.raises(boardbase.ShapeError):
        boardbase.cases("lights", 1, size="65x2")
