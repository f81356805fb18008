"""boardbase from Python: the tablebases and solvers of grid puzzles.

A thin front end on the Rust library's answer layer: every answer comes
from :class:`Tablebase` (the library's ``boardbase::tablebase::Tablebase``),
as typed objects whose ``to_dict()`` is the project's JSON vocabulary
(docs/json.md), the same objects as the HTTP API's.

>>> import boardbase
>>> boardbase.flip("bwwb/bbwb/bwwb/bwww").rounds
4
>>> boardbase.euler("XXXX/...X/XX.X/XX.X").best_move
[(1, 2)]

The module functions use one default :class:`Tablebase` (no directory but
``BOARDBASE_TABLES``); ``tables=DIR`` asks one that searches ``DIR`` first.
"""

from __future__ import annotations

import mmap
import operator
import os
import sys
import threading
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Sequence, Tuple, Union

from . import _boardbase, svg
from .errors import (
    BoardError,
    Error,
    InternalError,
    MissingTableError,
    NullityError,
    OptionError,
    ResourceError,
    ShapeError,
    TableFileError,
)

__all__ = [
    "Board",
    "Cell",
    "CarcassonneAnswer",
    "CarcassonneWitness",
    "EulerAnswer",
    "EulerMove",
    "FlipAnswer",
    "FlipMove",
    "LightsAnswer",
    "Route",
    "Tablebase",
    "Table",
    "Column",
    "unpack_bits",
    "carcassonne",
    "Cases",
    "cases",
    "generate",
    "games",
    "euler",
    "flip",
    "lights",
    "solve",
    "svg",
    "Error",
    "BoardError",
    "ShapeError",
    "OptionError",
    "NullityError",
    "MissingTableError",
    "TableFileError",
    "ResourceError",
    "InternalError",
]

__version__: str = _boardbase.__version__

#: A cell, ``(row, col)``, 0-based, row 0 being the first line of the board.
Cell = Tuple[int, int]

#: A board: row text (rows separated by ``/`` or new lines), a sequence of
#: rows (each a string or a sequence of 0/1 or bools), or a 2-D numpy array
#: of bools or integers 0/1.
Board = Union[str, Sequence[Union[str, Sequence[Any]]], Any]

#: A directory or directories of table files.
Tables = Union[str, "os.PathLike[str]", Sequence[Union[str, "os.PathLike[str]"]]]

#: The default memory for Euler tables made in memory (the CLI's
#: ``serve --make-memory`` default).
DEFAULT_MAKE_MEMORY = "512M"

#: The default limit of the exact GF(2) search (the CLI's ``--max-nullity``).
DEFAULT_MAX_NULLITY = 24


def _cells(value: Optional[List[List[int]]]) -> List[Cell]:
    return [(int(r), int(c)) for r, c in (value or [])]


def _is_array(board: Any) -> bool:
    return hasattr(board, "ndim") and hasattr(board, "tolist")


def _numpy(needed_by: str) -> Any:
    """The numpy module, imported for ``needed_by``; without numpy, a
    :class:`ModuleNotFoundError` naming the extra that brings it (numpy is
    optional, and Python's own message would not say how to get it)."""
    try:
        import numpy
    except ModuleNotFoundError as error:
        raise ModuleNotFoundError(
            f"{needed_by} needs numpy, which is not installed: install boardbase with its numpy extra, "
            "pip install './python[numpy]' in boardbase's checkout (or pip install numpy)",
            name="numpy",
        ) from error
    return numpy


def _rows_text(board: Board, letter: Callable[[Any], Optional[str]], expected: str) -> str:
    """The text of ``board``: a string as it is, else its rows joined by
    new lines (so that an error's line is the row's), each cell written by
    ``letter`` (``None``: not a cell, a :class:`BoardError` saying
    ``expected``)."""
    if isinstance(board, str):
        return board
    if isinstance(board, (bytes, bytearray)):
        return bytes(board).decode("utf-8", errors="replace")
    if _is_array(board):
        array: Any = board
        if array.ndim != 2:
            raise ShapeError(f"board: a {array.ndim}-dimensional array: expected 2 dimensions (rows, columns)")
        board = array.tolist()
    elif not hasattr(board, "__iter__"):
        raise TypeError(f"board: expected {_BOARD_TYPES}, not {type(board).__name__}")
    lines = []
    for r, row in enumerate(board):
        if isinstance(row, str):
            lines.append(row)
            continue
        if not hasattr(row, "__iter__"):
            raise TypeError(
                f"board: row {r + 1} is a {type(row).__name__}: expected a string or a sequence of cells"
            )
        cells = []
        for c, value in enumerate(row):
            written = letter(value)
            if written is None:
                raise BoardError(
                    f"board:{r + 1}:{c + 1}: expected {expected}, found {value!r}",
                    line=r + 1,
                    column=c + 1,
                )
            cells.append(written)
        lines.append("".join(cells))
    return "\n".join(lines)


def _board_text(board: Board, zero: str, one: str) -> str:
    """The text of a two-colour ``board`` in the puzzle's letters."""

    def letter(value: Any) -> Optional[str]:
        if value is True or (not isinstance(value, bool) and value == 1):
            return one
        if value is False or value == 0:
            return zero
        return None

    return _rows_text(board, letter, "0 or 1 (or a bool)")


_DIGITS = "0123456789abcdef"


def _lights_text(board: Board) -> str:
    """The text of a board of Lights Out or its family: one digit a cell
    (``a``-``f`` past 9), a bool as 0 or 1. Which variant reads it, and
    which digits it takes, is the compiled layer's to say."""

    def letter(value: Any) -> Optional[str]:
        if isinstance(value, int) and 0 <= value < 16:
            return _DIGITS[value]
        if value == 0 or value == 1:
            return _DIGITS[int(value)]
        return None

    return _rows_text(board, letter, "a colour 0 to 15 (or a bool)")


#: What a board may be, for the error of a value that is none of them.
_BOARD_TYPES = "a string of rows, a sequence of rows (strings or sequences of cells) or a 2-D numpy array"


def _int(
    name: str, value: Any, low: int, high: Optional[int], error: Callable[[str], Exception] = OptionError
) -> int:
    """``value`` as an int from ``low`` to ``high`` (``None``: no bound):
    a :class:`TypeError` naming ``name`` when it is not an integer, else
    ``error`` (an :class:`OptionError` unless said) when it is out of that
    range."""
    if isinstance(value, bool):
        raise TypeError(f"{name}: expected an int, not bool")
    try:
        number = operator.index(value)
    except TypeError:
        raise TypeError(f"{name}: expected an int, not {type(value).__name__}") from None
    if number < low or (high is not None and number > high):
        expected = f"{low} or more" if high is None else f"{low} to {high}"
        raise error(f"{name} {number}: expected {expected}")
    return number


def _goal_text(goal: Union[str, int]) -> str:
    """A goal of the Lights Out family as the compiled layer reads it:
    ``"white"``, ``"black"``, ``"either"`` or ``"any"`` as they are, a
    colour number as its digits."""
    if isinstance(goal, bool) or not isinstance(goal, (str, int)):
        raise TypeError(
            f'goal: expected "white", "black", "either", "any" or a colour number, not {type(goal).__name__}'
        )
    return goal if isinstance(goal, str) else str(int(goal))


def _memory(name: str, size: Union[str, int]) -> str:
    """A memory size as the library reads it: text (``"512M"``) as it
    is, an int as bytes."""
    if isinstance(size, str):
        return size
    return f"{_int(name, size, 0, None)}B"


def _directories(directories: Tables) -> List[str]:
    """The directories of ``tables=``/``directories=``: one path or a
    sequence of them."""
    if isinstance(directories, (str, os.PathLike)):
        return [os.fspath(directories)]
    if not hasattr(directories, "__iter__"):
        raise TypeError(
            f"directories: expected a path (str or os.PathLike) or a sequence of paths, not {type(directories).__name__}"
        )
    return [os.fspath(d) for d in directories]


def _size_text(size: Union[None, str, Tuple[int, int]], name: str = "size") -> Optional[str]:
    if size is None or isinstance(size, str):
        return size
    if not isinstance(size, (tuple, list)) or len(size) != 2:
        raise TypeError(f"{name}: expected \"RxC\" or (rows, columns), not {size!r}")
    rows, cols = (_int(name, n, 1, 64, ShapeError) for n in size)
    return f"{rows}x{cols}"


class Route(NamedTuple):
    """The optimal way to one colour: ``rounds`` presses, the tie rule's
    press set, and how many optimal press sets there are."""

    rounds: int
    presses: List[Cell]
    optimal_sets: int

    @staticmethod
    def _of(data: Optional[Dict[str, Any]]) -> Optional[Route]:
        if data is None:
            return None
        return Route(int(data["rounds"]), _cells(data["presses"]), int(data["optimal_sets"]))


class FlipMove(NamedTuple):
    """One press from a Flip board: the ``cell``, the ``board`` after it
    (boards of at most 64 cells), and the fewest ``rounds`` from there
    (``None``: no uniform board can be reached)."""

    cell: Cell
    board: Optional[str]
    solvable: bool
    rounds: Optional[int]


def _flip_moves(moves: List[Dict[str, Any]]) -> List[FlipMove]:
    """The moves of a Flip lookup, or of a Lights Out lookup (whose moves
    of the family have no ``board`` nor ``solvable``: a press never makes
    a board solvable, so it is whether ``rounds`` is a number)."""
    # Positional, from the values as pythonize gives them (ints, bools):
    # a keyword NamedTuple costs twice as much, and a board has up to
    # 4,096 moves.
    return [
        FlipMove((m["cell"][0], m["cell"][1]), m.get("board"), m.get("solvable", m["rounds"] is not None), m["rounds"])
        for m in moves
    ]


class _Lazy:
    """The base of an answer whose value is at hand and whose moves are
    made on first access: ``_lookup`` is the compiled answer
    (``_boardbase.FlipLookup`` or ``EulerLookup``). Each lazy attribute
    is made once and kept (a slot, unset until then)."""

    __slots__ = ("_lookup", "_report", "_whole")
    _fields: Tuple[str, ...] = ()
    _report: Dict[str, Any]
    _whole: Dict[str, Any]

    def __init__(self, lookup: Any) -> None:
        self._lookup = lookup

    def _answer_data(self) -> Dict[str, Any]:
        """The answer's dict, without the moves (the whole lookup's when
        that was made first)."""
        try:
            return self._whole
        except AttributeError:
            pass
        try:
            return self._report
        except AttributeError:
            pass
        report: Dict[str, Any] = self._lookup.report()
        self._report = report
        return report

    def _data(self) -> Dict[str, Any]:
        """The whole lookup's dict, moves and all."""
        try:
            return self._whole
        except AttributeError:
            pass
        whole: Dict[str, Any] = self._lookup.lookup()
        self._whole = whole
        return whole

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, _Lazy)
        return self._data() == other._data()

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    __hash__ = None  # type: ignore[assignment]

    def __reduce__(self) -> Tuple[Any, ...]:
        # Pickled (and copied) as the whole answer's dict, as the
        # dataclasses these were: the compiled lookup does not pickle.
        return (_unpickle, (type(self), self._data()))

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"{type(self).__name__}({fields})"


class _Stored:
    """The compiled lookup's stand-in in an unpickled answer: its
    attributes read from the whole answer's dict."""

    def __init__(self, data: Dict[str, Any]) -> None:
        self._whole = data

    def __getattr__(self, name: str) -> Any:
        if name == "winning":
            return self._whole["outcome"] == "win"
        try:
            return self._whole[name]
        except KeyError:
            raise AttributeError(name) from None

    def report(self) -> Dict[str, Any]:
        return {k: v for k, v in self._whole.items() if k != "moves"}

    def lookup(self) -> Dict[str, Any]:
        return self._whole


def _unpickle(cls: Any, data: Dict[str, Any]) -> Any:
    answer = cls(_Stored(data))
    answer._whole = data
    return answer


class FlipAnswer(_Lazy):
    """A Flip Game board's answer (the object of ``boardbase flip --format
    json`` and of ``/api/v1/flip``): ``rounds`` (``None`` when impossible),
    the ``colour`` reached, the tie rule's ``presses``, both colours'
    routes, and ``moves``, every press valued, best first.

    The value (``rounds``, ``solvable``, ``answer``, ``colour``,
    ``optimal_sets``) is worked out with the answer; ``presses``, the
    routes and ``moves`` (each press valued, with its board) are made on
    first access and kept. Read-only."""

    __slots__ = ("_presses", "_to_white", "_to_black", "_moves")
    _presses: List[Cell]
    _to_white: Optional[Route]
    _to_black: Optional[Route]
    _moves: List[FlipMove]
    _fields = (
        "board",
        "answer",
        "solvable",
        "rounds",
        "colour",
        "presses",
        "optimal_sets",
        "to_white",
        "to_black",
        "moves",
    )

    @property
    def board(self) -> str:
        """The board, rows separated by ``/``."""
        board: str = self._lookup.board
        return board

    @property
    def answer(self) -> str:
        """The judge's answer: the rounds, or ``"Impossible"``."""
        answer: str = self._lookup.answer
        return answer

    @property
    def solvable(self) -> bool:
        """Whether a uniform board can be reached."""
        solvable: bool = self._lookup.solvable
        return solvable

    @property
    def rounds(self) -> Optional[int]:
        """Fewest rounds to a uniform board (``None`` when impossible)."""
        rounds: Optional[int] = self._lookup.rounds
        return rounds

    @property
    def colour(self) -> Optional[str]:
        """The colour reached in fewest rounds, ``"white"`` or ``"black"``
        (white when both tie; ``None`` when impossible)."""
        colour: Optional[str] = self._lookup.colour
        return colour

    @property
    def optimal_sets(self) -> int:
        """How many press sets reach a uniform board in ``rounds`` rounds
        (both colours counted when they tie; 0 when impossible)."""
        sets: int = self._lookup.optimal_sets
        return sets

    @property
    def presses(self) -> List[Cell]:
        """One optimal set of cells to press, by the tie rule (empty when
        impossible)."""
        try:
            return self._presses
        except AttributeError:
            pass
        presses = self._presses = _cells(self._answer_data()["presses"])
        return presses

    @property
    def to_white(self) -> Optional[Route]:
        """The optimal way to all white (``None``: it cannot be reached)."""
        try:
            return self._to_white
        except AttributeError:
            pass
        route = self._to_white = Route._of(self._answer_data()["to_white"])
        return route

    @property
    def to_black(self) -> Optional[Route]:
        """The optimal way to all black (``None``: it cannot be reached)."""
        try:
            return self._to_black
        except AttributeError:
            pass
        route = self._to_black = Route._of(self._answer_data()["to_black"])
        return route

    @property
    def moves(self) -> List[FlipMove]:
        """Every press valued, fewest rounds after it first, impossible ones
        last, ties in reading order."""
        try:
            return self._moves
        except AttributeError:
            pass
        moves = self._moves = _flip_moves(self._data()["moves"])
        return moves

    def to_dict(self) -> Dict[str, Any]:
        """The answer in the JSON vocabulary (``/api/v1/flip``'s object)."""
        return _copy(self._data())

    def _repr_svg_(self) -> str:
        """The board with the presses ringed (Jupyter)."""
        return svg.board(self.board, puzzle="flip", marks=self.presses, title=f"rounds: {self.answer}")


class EulerMove(NamedTuple):
    """One legal move of Game of Euler: its ``cells``, the ``board`` after
    it, and that position's ``outcome`` (``"win"``/``"loss"`` for the
    player to move there) and ``moves_left``."""

    cells: List[Cell]
    mask: int
    board: str
    outcome: str
    moves_left: Optional[int]


class EulerAnswer(_Lazy):
    """A Game of Euler position's answer (``/api/v1/euler``'s object):
    whether the player to move is ``winning``, ``moves_left`` with best
    play (``None`` when unknown), the ``best_move``'s cells (``None`` with
    no legal move) and ``moves``, every legal move valued, best first.

    The value (``winning``, ``outcome``, ``answer``, ``moves_left`` and the
    counts of moves) is worked out with the answer; ``best_move`` and
    ``moves`` (each with its board) are made on first access and kept.
    Read-only."""

    __slots__ = ("_best_move", "_moves")
    _best_move: Optional[List[Cell]]
    _moves: List[EulerMove]
    _fields = (
        "board",
        "answer",
        "outcome",
        "winning",
        "moves_left",
        "best_move",
        "winning_moves",
        "legal_moves",
        "moves",
    )

    @property
    def board(self) -> str:
        """The position, rows separated by ``/`` (``X`` covered)."""
        board: str = self._lookup.board
        return board

    @property
    def answer(self) -> str:
        """The judge's answer: ``"WINNING"`` or ``"LOSING"``."""
        answer: str = self._lookup.answer
        return answer

    @property
    def outcome(self) -> str:
        """``"win"`` or ``"loss"``, for the player to move."""
        outcome: str = self._lookup.outcome
        return outcome

    @property
    def winning(self) -> bool:
        """Whether the player to move wins with perfect play."""
        winning: bool = self._lookup.winning
        return winning

    @property
    def moves_left(self) -> Optional[int]:
        """Moves (plies) left with perfect play (``None`` when the table
        holds win/loss only)."""
        left: Optional[int] = self._lookup.moves_left
        return left

    @property
    def winning_moves(self) -> int:
        """How many legal moves win."""
        count: int = self._lookup.winning_moves
        return count

    @property
    def legal_moves(self) -> int:
        """How many moves are legal."""
        count: int = self._lookup.legal_moves
        return count

    @property
    def best_move(self) -> Optional[List[Cell]]:
        """One best move's cells: the fastest win or the longest
        resistance (``None`` with no legal move)."""
        try:
            return self._best_move
        except AttributeError:
            pass
        best = self._answer_data().get("best_move")
        cells = self._best_move = None if best is None else _cells(best["cells"])
        return cells

    @property
    def moves(self) -> List[EulerMove]:
        """Every legal move valued: winning ones first, fastest first; then
        losing ones, longest resistance first."""
        try:
            return self._moves
        except AttributeError:
            pass
        moves = self._moves = [
            EulerMove(
                cells=_cells(m["cells"]),
                mask=int(m["mask"]),
                board=m["board"],
                outcome=m["outcome"],
                moves_left=m["moves_left"],
            )
            for m in self._data()["moves"]
        ]
        return moves

    def to_dict(self) -> Dict[str, Any]:
        """The answer in the JSON vocabulary (``/api/v1/euler``'s object)."""
        return _copy(self._data())

    def _repr_svg_(self) -> str:
        """The board with the best move ringed (Jupyter)."""
        return svg.board(self.board, puzzle="euler", marks=self.best_move or [], title=self.answer)


@dataclass(frozen=True)
class CarcassonneWitness:
    """One valid placement: each tile's quarter ``turns`` clockwise and the
    ``tiles`` as placed, by row."""

    turns: List[List[int]]
    tiles: List[List[str]]


@dataclass(frozen=True)
class CarcassonneAnswer:
    """A Carcassonne board's count (``boardbase carcassonne --format
    json``'s object with the exact count and a witness): ``count`` modulo
    1,000,000,007, ``exact`` (a Python int) and a ``witness`` (``None`` when
    no placement exists)."""

    rows: int
    cols: int
    count: int
    modulus: int
    exact: int
    witness: Optional[CarcassonneWitness]
    _data: Dict[str, Any] = field(repr=False, compare=False)

    @staticmethod
    def _of(data: Dict[str, Any]) -> CarcassonneAnswer:
        w = data.get("witness")
        return CarcassonneAnswer(
            rows=int(data["rows"]),
            cols=int(data["cols"]),
            count=int(data["count"]),
            modulus=int(data["modulus"]),
            exact=int(data["exact"]),
            witness=None if w is None else CarcassonneWitness(w["turns"], w["tiles"]),
            _data=data,
        )

    def to_dict(self) -> Dict[str, Any]:
        """The answer in the JSON vocabulary (``exact`` as a string)."""
        return _copy(self._data)

    def _repr_svg_(self) -> Optional[str]:
        """The witness's tiles as placed (Jupyter); nothing when there is
        no placement."""
        if self.witness is None:
            return None
        return svg.tiles(self.witness.tiles, title=f"{self.exact} placements")


@dataclass(frozen=True)
class LightsAnswer:
    """A Flip/Lights Out board's answer on any board up to 64×64 towards a
    ``goal`` (``boardbase fliptile --format json``'s object and the
    ``colour`` reached): ``rounds`` (``None`` when impossible), the tie
    rule's ``presses``, ``optimal_sets``, the shape's ``nullity``, both
    colours' routes ``to_white`` and ``to_black``, ``moves`` (every press
    valued towards the goal, best first; ``board`` after each press in
    ``0``/``1`` rows for boards of at most 64 cells), and ``press_grid``,
    the presses as a grid of 0/1 (a numpy array when the board was one).

    A variant of the family (``colours`` K > 2, ``wrap``, another
    ``pattern``, or a goal given as a colour number or ``"any"``) answers
    with the same fields: ``goal`` and ``colour`` are colour numbers (or
    ``"any"``), ``presses`` lists a cell pressed j times j times,
    ``press_grid`` holds the press counts, each move's ``board`` is
    ``None``, and ``nullity``, ``to_white`` and ``to_black`` are ``None``."""

    board: str
    goal: Union[str, int]
    solvable: bool
    rounds: Optional[int]
    colour: Union[None, str, int]
    presses: List[Cell]
    optimal_sets: int
    nullity: Optional[int]
    to_white: Optional[Route]
    to_black: Optional[Route]
    moves: List[FlipMove]
    press_grid: Any
    colours: int = 2
    wrap: bool = False
    pattern: str = "plus"
    _data: Dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    def to_dict(self) -> Dict[str, Any]:
        """The answer in the JSON vocabulary: the fliptile object with
        ``goal``, ``colour``, ``to_white``, ``to_black`` and ``moves``."""
        return _copy(self._data)

    def _repr_svg_(self) -> str:
        """The board with the presses ringed (Jupyter)."""
        return svg.board(self.board, puzzle="lights", marks=self.presses, title=f"rounds: {self.rounds}")


def _plain(value: Any) -> Any:
    """``value`` as JSON reads it: dicts, lists (not tuples), scalars."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _copy(data: Dict[str, Any]) -> Dict[str, Any]:
    plain: Dict[str, Any] = _plain(data)
    return plain


def _press_grid(board: Board, data: Dict[str, Any]) -> Any:
    rows = data["board"].split("/")
    grid = [[0] * len(rows[0]) for _ in rows]
    for r, c in _cells(data["presses"]):
        grid[r][c] += 1
    if _is_array(board):
        import numpy

        return numpy.array(grid, dtype=numpy.uint8)
    return grid


def _lights_answer(board: Board, data: Dict[str, Any]) -> LightsAnswer:
    """The :class:`LightsAnswer` of ``board`` from the compiled layer's
    dict: the classic game's (the fliptile object: ``nullity``, both
    routes) or a variant's of the family (``colours``, ``wrap``,
    ``pattern``)."""
    nullity = data.get("nullity")
    return LightsAnswer(
        board=data["board"],
        goal=data["goal"],
        solvable=bool(data["solvable"]),
        rounds=data["rounds"],
        colour=data["colour"],
        presses=_cells(data["presses"]),
        optimal_sets=int(data["optimal_sets"]),
        nullity=None if nullity is None else int(nullity),
        to_white=Route._of(data.get("to_white")),
        to_black=Route._of(data.get("to_black")),
        moves=_flip_moves(data["moves"]),
        press_grid=_press_grid(board, data),
        colours=int(data.get("colours", 2)),
        wrap=bool(data.get("wrap", False)),
        pattern=data.get("pattern", "plus"),
        _data=data,
    )


@dataclass(frozen=True)
class Cases:
    """Judge cases with known answers: ``input`` in the judge's input
    format and ``answers``, its expected output."""

    input: str
    answers: str


class Tablebase:
    """The answer layer: the embedded 4×4 tables, the table files of
    ``directories`` (then of ``BOARDBASE_TABLES``), Euler tables made in
    memory within ``make_memory`` (``"512M"``, ``"1G"``, or bytes as an
    int), and the GF(2) solver, exact up to ``max_nullity``. Shared by
    threads; every call that can take long releases the GIL."""

    def __init__(
        self,
        directories: Tables = (),
        make_memory: Union[str, int] = DEFAULT_MAKE_MEMORY,
        max_nullity: int = DEFAULT_MAX_NULLITY,
    ) -> None:
        directories = _directories(directories)
        make_memory = _memory("make_memory", make_memory)
        max_nullity = _int("max_nullity", max_nullity, 0, 64)
        self._inner = _boardbase.Tablebase(directories, make_memory, max_nullity)
        self._max_nullity = max_nullity

    @property
    def directories(self) -> List[str]:
        """The directories searched, in order."""
        return [os.fspath(d) for d in self._inner.directories]

    def __repr__(self) -> str:
        return f"Tablebase(directories={self.directories!r})"

    def flip(self, board: Board, size: Union[None, str, Tuple[int, int]] = None) -> FlipAnswer:
        """Flip Game (POJ 1753) on any board the CLI answers: ``b``/``w``
        rows; ``size`` (``"RxC"``) checks the shape and allows the cells in
        one run."""
        text = board if type(board) is str else _board_text(board, "w", "b")
        return FlipAnswer(self._inner.flip(text, None if size is None else _size_text(size)))

    def euler(self, board: Board, size: Union[None, str, Tuple[int, int]] = None) -> EulerAnswer:
        """Game of Euler (UVA 10536): ``X``/``.`` rows (covered/open)."""
        text = board if type(board) is str else _board_text(board, ".", "X")
        return EulerAnswer(self._inner.euler(text, None if size is None else _size_text(size)))

    def solve(
        self,
        game: str,
        board: Optional[str] = None,
        size: Union[None, str, Tuple[int, int]] = None,
        **options: int,
    ) -> Dict[str, Any]:
        """A position of any two-player game of the catalogue (``"mnk"``,
        ``"connect4"``, ``"quixo"``, ``"teeko"``, ``"euler"``; :func:`games` lists them with their
        boards and options): ``board`` in the game's text (rows of ``.``,
        ``X`` and ``O`` separated by ``/``; ``None``: the start), on a
        board of ``size`` (``None``: the game's default), with the game's
        options by name (``k=4``). A dict, what ``boardbase solve --format
        json`` prints: ``value`` (``"win"``, ``"lose"`` or ``"draw"`` for
        the player to move), ``remoteness`` (plies to the end, ``None`` for
        a draw) and ``moves``, best first, each the ``move`` and the
        ``value`` and ``remoteness`` of the position after it, for the
        player to move there."""
        return self._inner.solve(
            game, board, None if size is None else _size_text(size), options or None
        )

    def lights(
        self,
        board: Board,
        goal: Union[str, int] = "white",
        max_nullity: Optional[int] = None,
        colours: int = 2,
        wrap: bool = False,
        pattern: str = "plus",
    ) -> LightsAnswer:
        """Flip, Lights Out and their family on any board up to 64×64
        towards ``goal``: ``"white"`` (all clear, colour 0: POJ 3279 and
        POJ 1222), ``"black"``, ``"either"``, a colour number or ``"any"``.
        ``colours`` (2 to 16), ``wrap`` (a torus) and ``pattern``
        (``"plus"``, ``"neighbours"``, ``"x"``, ``"king"`` or a stencil's
        rows such as ``".#./###/.#."``) choose the variant; its boards are
        rows of digits (``a``-``f`` past 9), or arrays of colour numbers.
        ``max_nullity`` bounds the search at 2^max_nullity press vectors a
        goal."""
        limit = self._max_nullity if max_nullity is None else _int("max_nullity", max_nullity, 0, 64)
        colours = _int("colours", colours, 2, 16)
        data = self._inner.lights(_lights_text(board), colours, wrap, pattern, _goal_text(goal), limit)
        return _lights_answer(board, data)

    def carcassonne(self, rows: int, cols: int, tiles: Sequence[str]) -> CarcassonneAnswer:
        """Counts the placements of a Carcassonne board (HDU 4064) of
        ``rows`` × ``cols`` tiles, four-letter codes in reading order."""
        rows = _int("rows", rows, 1, sys.maxsize, ShapeError)
        cols = _int("cols", cols, 1, sys.maxsize, ShapeError)
        if isinstance(tiles, str):
            tiles = tiles.split()
        elif not hasattr(tiles, "__iter__"):
            raise TypeError(
                f"tiles: expected a sequence of four-letter codes or a string of them, not {type(tiles).__name__}"
            )
        codes = list(tiles)
        for i, code in enumerate(codes):
            if not isinstance(code, str):
                raise TypeError(f"tiles[{i}]: expected a four-letter code (a string), not {type(code).__name__}")
        return CarcassonneAnswer._of(self._inner.carcassonne(rows, cols, codes))

    def cases(
        self,
        puzzle: str,
        n: int,
        seed: int = 0,
        family: Optional[str] = None,
        size: Union[None, str, Tuple[int, int]] = None,
        rounds: Optional[int] = None,
        moves_left: Optional[int] = None,
        colours: int = 2,
        wrap: bool = False,
        pattern: str = "plus",
        goal: Union[None, str, int] = None,
        max_nullity: Optional[int] = None,
    ) -> Cases:
        """``n`` judge cases of ``puzzle`` (``"flip"``, ``"euler"``,
        ``"carcassonne"``, ``"fliptile"``, ``"lightsout"``, ``"lights"``)
        drawn from ``seed``, byte for byte what ``boardbase cases PUZZLE
        --cases N --seed S [--family F] [--size RxC] [--rounds K]
        [--moves-left K] [--colours K] [--wrap] [--pattern P] [--goal G]
        [--max-nullity K] --answers FILE`` writes. Flip and Euler boards of
        other sizes are answered by this tablebase (its files, Euler tables
        made in memory, GF(2) for Flip), as the CLI's ``--tables`` does.

        ``"lights"`` is one variant of the Lights Out family: ``size``
        (needed), ``colours``, ``wrap`` and ``pattern`` as :meth:`lights`
        takes them, towards ``goal`` (a colour number or ``"any"``, or
        :meth:`lights`'s names: ``"white"`` colour 0, ``"black"`` colour 1
        of 2, ``"either"`` ``"any"``; colour 0 when not given), answered
        by a search of up to 2^``max_nullity`` press vectors (this
        tablebase's ``max_nullity`` when not given). These options are for
        ``"lights"`` only."""
        n = _int("n", n, 0, 2**64 - 1)
        seed = _int("seed", seed, 0, 2**64 - 1)
        if rounds is not None:
            rounds = _int("rounds", rounds, 0, 255)
        if moves_left is not None:
            moves_left = _int("moves_left", moves_left, 0, 255)
        colours = _int("colours", colours, 2, 16)
        if max_nullity is not None:
            max_nullity = _int("max_nullity", max_nullity, 0, 64)
        goal_text = None if goal is None else _goal_text(goal)
        data, answers = self._inner.cases(
            puzzle,
            n,
            seed,
            family,
            _size_text(size),
            rounds,
            moves_left,
            colours,
            wrap,
            pattern,
            goal_text,
            max_nullity,
        )
        return Cases(bytes(data).decode(), bytes(answers).decode())


class Column(NamedTuple):
    """A column of a table file: its ``name``, ``width`` in bits an entry
    (1, 8, 16, 32 or 64), ``entries``, ``byte_len`` and ``offset`` in the
    file (docs/table-format.md)."""

    name: str
    width: int
    entries: int
    byte_len: int
    offset: Optional[int]


def _cast(view: memoryview, width: int) -> memoryview:
    """``view`` typed by a column's width in bits (1-bit columns stay
    bytes, 8 entries a byte, the first in the lowest bit)."""
    if width == 16:
        return view.cast("H")
    if width == 32:
        return view.cast("I")
    if width == 64:
        return view.cast("Q")
    return view.cast("B")


class Table:
    """A table file (``euler-RxC.bin`` or ``flip-RxC.bin``), mapped, not
    read: :meth:`column` is a zero-copy view of the file, and the
    vectorised probes (:meth:`euler_winning`, :meth:`euler_moves_left`,
    :meth:`flip_rounds`) take numpy arrays of positions and run in Rust
    with the GIL released.

    >>> with boardbase.Table.open("tables/euler-5x5.bin") as table:  # doctest: +SKIP
    ...     plies = numpy.asarray(table.column("plies"))  # no copy

    Use it as a context manager, or call :meth:`close`: a column view
    still alive at close keeps the mapping until it is dropped."""

    def __init__(self, path: Union[str, "os.PathLike[str]"]) -> None:
        self.path = os.fspath(path)
        self._inner = _boardbase.Table(self.path)
        self._columns = {c[0]: Column(*c) for c in self._inner.columns()}
        self._file: Optional[Any] = open(self.path, "rb")
        try:
            self._map: Optional[mmap.mmap] = mmap.mmap(self._file.fileno(), 0, access=mmap.ACCESS_READ)
        except (OSError, ValueError) as e:
            self._file.close()
            raise TableFileError(f"{self.path}: cannot map it: {e}", filename=self.path) from e

    @classmethod
    def embedded(cls, puzzle: str) -> Table:
        """The 4×4 table built into boardbase (``"flip"`` or
        ``"euler"``), in memory: the probes, without a file (no
        :meth:`column` views)."""
        table = cls.__new__(cls)
        table.path = f"<embedded {puzzle} 4x4>"
        table._inner = _boardbase.Table.embedded(puzzle)
        table._columns = {c[0]: Column(*c) for c in table._inner.columns()}
        table._file = None
        table._map = None
        return table

    @classmethod
    def open(cls, path: Union[str, "os.PathLike[str]"]) -> Table:
        """Opens the table file at ``path`` (its header is checked; a bad
        file raises :class:`TableFileError`)."""
        return cls(path)

    def __enter__(self) -> Table:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Closes the file. The mapping goes when the last column view of
        it is dropped."""
        if self._map is not None:
            try:
                self._map.close()
            except BufferError:
                pass  # a column view still uses it: it goes with the view
            self._map = None
        if self._file is not None:
            self._file.close()
            self._file = None

    @property
    def puzzle(self) -> str:
        """``"euler"`` or ``"flip"``."""
        return str(self._inner.puzzle)

    @property
    def rows(self) -> int:
        """Rows of the board shape."""
        return int(self._inner.rows)

    @property
    def cols(self) -> int:
        """Columns of the board shape."""
        return int(self._inner.cols)

    @property
    def wdl_only(self) -> bool:
        """Whether an Euler table holds the win/loss bits only."""
        return bool(self._inner.wdl_only)

    @property
    def version(self) -> int:
        """The file's layout version: 5 for a table of one entry a class
        of positions (``generate(..., symmetry=True)``: its per-position
        columns have an entry a class, not a board), 4 for a compressed
        file (its compressed columns are not views of the file), 3 for
        files ``boardbase generate`` writes, 2 or 1 from earlier releases."""
        return int(self._inner.version)

    @property
    def columns(self) -> Dict[str, Column]:
        """The columns by name, in the file's order."""
        return dict(self._columns)

    def __repr__(self) -> str:
        return f"Table({self.path!r}: {self.puzzle} {self.rows}x{self.cols}, columns {list(self._columns)})"

    def column(self, name: str) -> memoryview:
        """The entries of column ``name`` as a read-only memoryview of the
        mapped file (the buffer protocol: ``numpy.asarray(column)`` is a
        zero-copy view), typed by the column's width: ``B``, ``H``, ``I``
        or ``Q`` for 8 to 64 bits, little-endian as the file is. A 1-bit
        column is its bytes, 8 entries a byte: see :func:`unpack_bits`."""
        info = self._columns.get(name)
        if info is None:
            raise KeyError(f"{self.path}: no column {name!r}; the columns are {list(self._columns)}")
        if self._map is None:
            what = "is in memory, not a file" if self._file is None and self.path.startswith("<") else "is closed"
            raise TableFileError(f"{self.path}: the table {what}", filename=self.path)
        if info.offset is None and self._inner.version in (4, 5):
            raise TableFileError(
                f"{self.path}: column {name!r} is compressed (version {self._inner.version}), not a view of the file: "
                "read its entries with the probes, or keep the version-3 file",
                filename=self.path,
            )
        if info.offset is None:
            raise TableFileError(
                f"{self.path}: a version-1 file's columns are not mapped; rewrite it with boardbase convert",
                filename=self.path,
            )
        if sys.byteorder != "little" and info.width > 8:
            raise TableFileError(f"{self.path}: {info.width}-bit columns are little-endian; this machine is not")
        view = memoryview(self._map)[info.offset : info.offset + info.byte_len]
        return _cast(view, info.width)

    def _positions(self, positions: Any, probe: str) -> Any:
        numpy = _numpy(f"Table.{probe} of many positions (a list or an array; one int needs no numpy)")
        array = numpy.asarray(positions)
        if array.dtype.kind == "i" and array.size and int(array.min()) < 0:
            raise OptionError("positions: negative numbers: positions are unsigned (the board's bits)")
        if array.dtype.kind not in "iu":
            raise OptionError(f"positions: an array of {array.dtype}: expected integers (numpy.uint64)")
        return numpy.ascontiguousarray(array.reshape(-1), dtype=numpy.uint64), array.shape

    def euler_winning(self, positions: Any) -> Any:
        """Whether the player to move wins Euler positions (covered
        squares as bits, cell (r, c) at bit ``cols*r + c``): a bool for an
        int, else a numpy bool array of the positions' shape."""
        if type(positions) is int:
            return self._inner.euler_winning(positions)
        flat, shape = self._positions(positions, "euler_winning")
        return self._inner.euler_winning(flat).reshape(shape)

    def euler_moves_left(self, positions: Any) -> Any:
        """Moves left with best play from Euler positions: an int (``None``
        where the table has no moves left: win/loss only) for an int, else
        an int16 array (-1 for ``None``)."""
        if type(positions) is int:
            return self._inner.euler_moves_left(positions)
        flat, shape = self._positions(positions, "euler_moves_left")
        return self._inner.euler_moves_left(flat).reshape(shape)

    def flip_rounds(self, boards: Any) -> Any:
        """Fewest rounds from Flip boards (black cells as bits) to a
        uniform board: an int (``None`` where neither colour can be
        reached) for an int, else an int16 array (-1 for ``None``)."""
        if type(boards) is int:
            return self._inner.flip_rounds(boards)
        flat, shape = self._positions(boards, "flip_rounds")
        return self._inner.flip_rounds(flat).reshape(shape)


def unpack_bits(column: Any, entries: Optional[int] = None) -> Any:
    """The entries of a 1-bit column (:meth:`Table.column`) as a numpy
    bool array: entry ``i`` is bit ``i % 8`` of byte ``i // 8`` (the
    file's order). ``entries`` trims the padding of the last byte. This
    one copies (a byte an entry); index the bytes for no copy."""
    numpy = _numpy("unpack_bits")
    bits = numpy.unpackbits(numpy.frombuffer(column, dtype=numpy.uint8), bitorder="little")
    if entries is not None:
        bits = bits[:entries]
    return bits.astype(bool)


def cases(
    puzzle: str,
    n: int,
    seed: int = 0,
    family: Optional[str] = None,
    size: Union[None, str, Tuple[int, int]] = None,
    rounds: Optional[int] = None,
    moves_left: Optional[int] = None,
    tables: Optional[Tables] = None,
    colours: int = 2,
    wrap: bool = False,
    pattern: str = "plus",
    goal: Union[None, str, int] = None,
    max_nullity: Optional[int] = None,
) -> Cases:
    """:meth:`Tablebase.cases` of the default tablebase (or of one
    searching ``tables``)."""
    return _tablebase(tables).cases(
        puzzle, n, seed, family, size, rounds, moves_left, colours, wrap, pattern, goal, max_nullity
    )


def solve(
    game: str,
    board: Optional[str] = None,
    size: Union[None, str, Tuple[int, int]] = None,
    tables: Optional[Tables] = None,
    **options: int,
) -> Dict[str, Any]:
    """:meth:`Tablebase.solve` of the default tablebase (or of one searching
    ``tables``).

    >>> s = solve("mnk", "XX./OO./...")
    >>> s["value"], s["remoteness"], s["moves"][0]
    ('win', 1, {'move': 'c1', 'value': 'lose', 'remoteness': 0})
    >>> solve("connect4", size="4x4")["value"]
    'draw'
    """
    tablebase = _default if tables is None and _default is not None else _tablebase(tables)
    return tablebase.solve(game, board, size, **options)


def games() -> List[Dict[str, Any]]:
    """The catalogue: every game answered, each a dict with ``name``,
    ``title``, ``kind`` (``"two-player"``, ``"puzzle"`` or ``"count"``),
    ``question``, ``sizes``, ``tables`` (whether other shapes are answered
    from table files) and ``problems``, the judges' problems on it (their
    ``command``, ``judge``, ``time_limit`` in seconds, ``memory_limit_mb``,
    ``case``, ``max_cases`` and ``limits``): what ``boardbase games --format
    json`` prints and ``GET /api/v1/games`` returns.

    ``solve`` is ``None``, or how :func:`solve` sets the game up
    (``default_size``, ``max_cells`` and its ``options``).

    >>> [g["name"] for g in games()]
    ['flip', 'lights', 'euler', 'carcassonne', 'mnk', 'connect4', 'quixo', 'teeko']
    >>> games()[2]["problems"][0]["time_limit"]
    3.0
    """
    return _boardbase.games()


def generate(
    puzzle: str,
    shape: Union[str, Tuple[int, int]],
    dir: Union[str, "os.PathLike[str]"] = ".",
    wdl_only: bool = False,
    progress: Optional[Callable[[str, int, int], object]] = None,
    memory: Union[None, str, int] = None,
    jobs: Optional[int] = None,
    checkpoint_every: float = 10.0,
    compress: bool = False,
    symmetry: bool = False,
    **options: int,
) -> Dict[str, Any]:
    """Builds the table file of ``puzzle`` (``"euler"``, up to 36 squares,
    or ``"flip"``, up to 25 cells) on ``shape`` (``"5x5"`` or ``(5, 5)``)
    in ``dir``, as ``boardbase generate PUZZLE RxC --dir DIR`` does, on
    every core (or ``jobs`` threads), within ``memory`` (``"8G"``, bytes
    as an int; default: the memory available). Returns the summary, the
    fields of ``boardbase generate --format json``.

    ``puzzle`` may also be any other game :func:`solve` answers
    (``"mnk"``, ``"connect4"``), with its options by name (``k=4``): every
    position solved by retrograde analysis, written as
    ``DIR/GAME-RxC-kK.bin``, which :func:`solve` with ``tables=DIR`` then
    answers from. Such a game is solved by one thread: ``wdl_only`` and
    ``jobs`` are refused (:class:`OptionError`). Its solver's whole state
    is saved to ``DIR/GAME-RxC-kK.bin.checkpoint`` at most every
    ``checkpoint_every`` seconds (never sooner than ten times what the last
    save took) and when the job is stopped, and a job run again resumes
    from it.

    ``progress(phase, done, total)`` is called from this thread with the
    latest report (``phase`` a name such as ``"win/loss"``; ``done`` of
    ``total`` positions, boards or bytes): each phase's first call has
    ``done == 0`` and its last ``done == total``, however slow the
    callable; it works with tqdm. Ctrl-C, or
    an exception raised by ``progress``, stops the job: the exception
    propagates and no table is left, nor a temporary file. A table of that
    name is replaced only once the new one is complete.

    An Euler job saves its finished win/loss layers to
    ``DIR/euler-RxC.bin.checkpoint`` at most every ``checkpoint_every``
    seconds (0: after every layer) and resumes from them when run again
    after a kill or a stop; the checkpoint is removed once the table is
    written, as ``boardbase generate --checkpoint-every`` does.

    ``compress=True`` compresses the table once written (version 4, as
    ``boardbase generate --compress`` and ``boardbase compress`` do); the
    summary's ``file_bytes`` is then its compressed length and
    ``uncompressed_bytes`` its length before.

    ``symmetry=True`` (Euler and Flip) keeps one entry a class of
    positions under the board's symmetries (version 5), as ``boardbase
    generate --symmetry`` does: up to an eighth of the file on a square
    board, a quarter on another rectangle. Euler: moves left without best
    moves, which are found from them, in up to an eighth of the memory;
    its full tables keep a checkpoint as by position. Flip: a board's press
    set is mapped from its class's (5x5: a sixth of the file, 63 % of the
    memory)."""
    if memory is not None:
        memory = _memory("memory", memory)
    if jobs is not None:
        jobs = _int("jobs", jobs, 1, 1024)
    shape_text = _size_text(shape, "shape")
    if shape_text is None:
        raise TypeError("shape: expected \"RxC\" or (rows, columns), not None")
    if isinstance(checkpoint_every, bool) or not isinstance(checkpoint_every, (int, float)):
        raise TypeError(
            f"checkpoint_every: expected seconds, not {type(checkpoint_every).__name__}"
        )
    if not 0 <= checkpoint_every <= 86400:
        raise OptionError(
            f"checkpoint_every {checkpoint_every}: expected seconds from 0 to 86400"
        )
    if not isinstance(compress, bool):
        raise TypeError(f"compress: expected True or False, not {type(compress).__name__}")
    if not isinstance(symmetry, bool):
        raise TypeError(f"symmetry: expected True or False, not {type(symmetry).__name__}")
    summary: Dict[str, Any] = _boardbase.generate(
        puzzle,
        shape_text,
        os.fspath(dir),
        wdl_only,
        memory,
        jobs,
        float(checkpoint_every),
        progress,
        {name: _int(name, value, 0, 2**63 - 1) for name, value in options.items()} or None,
        compress,
        symmetry,
    )
    return summary


_lock = threading.Lock()
_default: Optional[Tablebase] = None
_by_tables: Dict[Tuple[str, ...], Tablebase] = {}


def _tablebase(tables: Optional[Tables]) -> Tablebase:
    global _default
    # The default, once made, without the lock: a probe in a loop comes
    # here on every call.
    if tables is None and _default is not None:
        return _default
    with _lock:
        if tables is None:
            if _default is None:
                _default = Tablebase()
            return _default
        key = tuple(_directories(tables))
        found = _by_tables.get(key)
        if found is None:
            found = _by_tables[key] = Tablebase(key)
        return found


def flip(
    board: Board,
    size: Union[None, str, Tuple[int, int]] = None,
    tables: Optional[Tables] = None,
) -> FlipAnswer:
    """:meth:`Tablebase.flip` of the default tablebase (or of one searching
    ``tables``)."""
    tablebase = _default if tables is None and _default is not None else _tablebase(tables)
    return tablebase.flip(board, size)


def euler(
    board: Board,
    size: Union[None, str, Tuple[int, int]] = None,
    tables: Optional[Tables] = None,
) -> EulerAnswer:
    """:meth:`Tablebase.euler` of the default tablebase (or of one searching
    ``tables``)."""
    tablebase = _default if tables is None and _default is not None else _tablebase(tables)
    return tablebase.euler(board, size)


def lights(
    board: Board,
    goal: Union[str, int] = "white",
    max_nullity: int = DEFAULT_MAX_NULLITY,
    colours: int = 2,
    wrap: bool = False,
    pattern: str = "plus",
) -> LightsAnswer:
    """:meth:`Tablebase.lights` of the default tablebase."""
    return _tablebase(None).lights(board, goal, max_nullity, colours, wrap, pattern)


def carcassonne(rows: int, cols: int, tiles: Sequence[str]) -> CarcassonneAnswer:
    """:meth:`Tablebase.carcassonne` of the default tablebase."""
    return _tablebase(None).carcassonne(rows, cols, tiles)
