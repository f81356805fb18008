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
    "euler",
    "flip",
    "lights",
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
    lines = []
    for r, row in enumerate(board):
        if isinstance(row, str):
            lines.append(row)
            continue
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


def _digits_text(board: Board) -> str:
    """The text of a board of the Lights Out family: one digit a cell
    (``a``-``f`` past 9)."""

    def letter(value: Any) -> Optional[str]:
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 16:
            return None
        return _DIGITS[value]

    return _rows_text(board, letter, "a colour 0 to 15")


def _size_text(size: Union[None, str, Tuple[int, int]]) -> Optional[str]:
    if size is None or isinstance(size, str):
        return size
    rows, cols = size
    return f"{int(rows)}x{int(cols)}"


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
    # Positional, from the values as pythonize gives them (ints, bools):
    # a keyword NamedTuple costs twice as much, and a board has up to
    # 4,096 moves.
    return [FlipMove((m["cell"][0], m["cell"][1]), m.get("board"), m["solvable"], m["rounds"]) for m in moves]


@dataclass(frozen=True)
class FlipAnswer:
    """A Flip Game board's answer (the object of ``boardbase flip --format
    json`` and of ``/api/v1/flip``): ``rounds`` (``None`` when impossible),
    the ``colour`` reached, the tie rule's ``presses``, both colours'
    routes, and ``moves``, every press valued, best first."""

    board: str
    answer: str
    solvable: bool
    rounds: Optional[int]
    colour: Optional[str]
    presses: List[Cell]
    optimal_sets: int
    to_white: Optional[Route]
    to_black: Optional[Route]
    moves: List[FlipMove]
    _data: Dict[str, Any] = field(repr=False, compare=False)

    @staticmethod
    def _of(data: Dict[str, Any]) -> FlipAnswer:
        return FlipAnswer(
            board=data["board"],
            answer=data["answer"],
            solvable=bool(data["solvable"]),
            rounds=data["rounds"],
            colour=data["colour"],
            presses=_cells(data["presses"]),
            optimal_sets=int(data["optimal_sets"]),
            to_white=Route._of(data["to_white"]),
            to_black=Route._of(data["to_black"]),
            moves=_flip_moves(data["moves"]),
            _data=data,
        )

    def to_dict(self) -> Dict[str, Any]:
        """The answer in the JSON vocabulary (``/api/v1/flip``'s object)."""
        return _copy(self._data)

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


@dataclass(frozen=True)
class EulerAnswer:
    """A Game of Euler position's answer (``/api/v1/euler``'s object):
    whether the player to move is ``winning``, ``moves_left`` with best
    play (``None`` when unknown), the ``best_move``'s cells (``None`` with
    no legal move) and ``moves``, every legal move valued, best first."""

    board: str
    answer: str
    outcome: str
    winning: bool
    moves_left: Optional[int]
    best_move: Optional[List[Cell]]
    winning_moves: int
    legal_moves: int
    moves: List[EulerMove]
    _data: Dict[str, Any] = field(repr=False, compare=False)

    @staticmethod
    def _of(data: Dict[str, Any]) -> EulerAnswer:
        best = data.get("best_move")
        return EulerAnswer(
            board=data["board"],
            answer=data["answer"],
            outcome=data["outcome"],
            winning=data["outcome"] == "win",
            moves_left=data["moves_left"],
            best_move=None if best is None else _cells(best["cells"]),
            winning_moves=int(data["winning_moves"]),
            legal_moves=int(data["legal_moves"]),
            moves=[
                EulerMove(
                    cells=_cells(m["cells"]),
                    mask=int(m["mask"]),
                    board=m["board"],
                    outcome=m["outcome"],
                    moves_left=m["moves_left"],
                )
                for m in data["moves"]
            ],
            _data=data,
        )

    def to_dict(self) -> Dict[str, Any]:
        """The answer in the JSON vocabulary (``/api/v1/euler``'s object)."""
        return _copy(self._data)

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
        if isinstance(directories, (str, os.PathLike)):
            directories = [directories]
        if isinstance(make_memory, int):
            if make_memory < 0:
                raise OptionError(f"make_memory {make_memory}: expected a size of 0 or more")
            make_memory = f"{make_memory}B"
        if not 0 <= max_nullity <= 64:
            raise OptionError(f"max_nullity {max_nullity}: expected 0 to 64")
        self._inner = _boardbase.Tablebase(
            [os.fspath(d) for d in directories], make_memory, max_nullity
        )
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
        return FlipAnswer._of(self._inner.flip(_board_text(board, "w", "b"), _size_text(size)))

    def euler(self, board: Board, size: Union[None, str, Tuple[int, int]] = None) -> EulerAnswer:
        """Game of Euler (UVA 10536): ``X``/``.`` rows (covered/open)."""
        return EulerAnswer._of(self._inner.euler(_board_text(board, ".", "X"), _size_text(size)))

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
        limit = self._max_nullity if max_nullity is None else max_nullity
        if not 0 <= limit <= 64:
            raise OptionError(f"max_nullity {limit}: expected 0 to 64")
        if colours == 2 and not wrap and pattern == "plus" and goal in ("white", "black", "either"):
            data = self._inner.lights(_board_text(board, "0", "1"), str(goal), limit)
            return LightsAnswer(
                board=data["board"],
                goal=data["goal"],
                solvable=bool(data["solvable"]),
                rounds=data["rounds"],
                colour=data["colour"],
                presses=_cells(data["presses"]),
                optimal_sets=int(data["optimal_sets"]),
                nullity=int(data["nullity"]),
                to_white=Route._of(data["to_white"]),
                to_black=Route._of(data["to_black"]),
                moves=_flip_moves(data["moves"]),
                press_grid=_press_grid(board, data),
                _data=data,
            )
        names = {"white": "0", "black": "1", "either": "any"}
        if goal == "black" and colours != 2:
            raise OptionError(f"goal 'black' is colour 1 of 2 colours; with {colours} colours give a colour number")
        goal_text = names.get(goal, str(goal)) if isinstance(goal, str) else str(int(goal))
        data = self._inner.lights_family(_digits_text(board), colours, wrap, pattern, goal_text, limit)
        return LightsAnswer(
            board=data["board"],
            goal=data["goal"],
            solvable=bool(data["solvable"]),
            rounds=data["rounds"],
            colour=data["colour"],
            presses=_cells(data["presses"]),
            optimal_sets=int(data["optimal_sets"]),
            nullity=None,
            to_white=None,
            to_black=None,
            moves=[FlipMove((m["cell"][0], m["cell"][1]), None, m["rounds"] is not None, m["rounds"]) for m in data["moves"]],
            press_grid=_press_grid(board, data),
            colours=int(data["colours"]),
            wrap=bool(data["wrap"]),
            pattern=data["pattern"],
            _data=data,
        )

    def carcassonne(self, rows: int, cols: int, tiles: Sequence[str]) -> CarcassonneAnswer:
        """Counts the placements of a Carcassonne board (HDU 4064) of
        ``rows`` × ``cols`` tiles, four-letter codes in reading order."""
        if isinstance(tiles, str):
            tiles = tiles.split()
        return CarcassonneAnswer._of(self._inner.carcassonne(rows, cols, list(tiles)))

    def cases(
        self,
        puzzle: str,
        n: int,
        seed: int = 0,
        family: Optional[str] = None,
        size: Union[None, str, Tuple[int, int]] = None,
        rounds: Optional[int] = None,
        moves_left: Optional[int] = None,
    ) -> Cases:
        """``n`` judge cases of ``puzzle`` (``"flip"``, ``"euler"``,
        ``"carcassonne"``, ``"fliptile"``, ``"lightsout"``) drawn from
        ``seed``, byte for byte what ``boardbase cases PUZZLE --cases N
        --seed S [--family F] [--size RxC] [--rounds K] [--moves-left K]
        --answers FILE`` writes. Flip and Euler boards of other sizes are
        answered by this tablebase (its files, Euler tables made in memory,
        GF(2) for Flip), as the CLI's ``--tables`` does."""
        for name, value in (("n", n), ("seed", seed)):
            if value < 0:
                raise OptionError(f"{name} {value}: expected a number of 0 or more")
        for name, limit in (("rounds", rounds), ("moves_left", moves_left)):
            if limit is not None and not 0 <= limit <= 255:
                raise OptionError(f"{name} {limit}: expected 0 to 255")
        data, answers = self._inner.cases(puzzle, n, seed, family, _size_text(size), rounds, moves_left)
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
        if info.offset is None:
            raise TableFileError(
                f"{self.path}: a version-1 file's columns are not mapped; rewrite it with boardbase convert",
                filename=self.path,
            )
        if sys.byteorder != "little" and info.width > 8:
            raise TableFileError(f"{self.path}: {info.width}-bit columns are little-endian; this machine is not")
        view = memoryview(self._map)[info.offset : info.offset + info.byte_len]
        return _cast(view, info.width)

    def _positions(self, positions: Any) -> Any:
        import numpy

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
        flat, shape = self._positions(positions)
        return self._inner.euler_winning(flat).reshape(shape)

    def euler_moves_left(self, positions: Any) -> Any:
        """Moves left with best play from Euler positions: an int (``None``
        where the table has no moves left: win/loss only) for an int, else
        an int16 array (-1 for ``None``)."""
        if type(positions) is int:
            return self._inner.euler_moves_left(positions)
        flat, shape = self._positions(positions)
        return self._inner.euler_moves_left(flat).reshape(shape)

    def flip_rounds(self, boards: Any) -> Any:
        """Fewest rounds from Flip boards (black cells as bits) to a
        uniform board: an int (``None`` where neither colour can be
        reached) for an int, else an int16 array (-1 for ``None``)."""
        if type(boards) is int:
            return self._inner.flip_rounds(boards)
        flat, shape = self._positions(boards)
        return self._inner.flip_rounds(flat).reshape(shape)


def unpack_bits(column: Any, entries: Optional[int] = None) -> Any:
    """The entries of a 1-bit column (:meth:`Table.column`) as a numpy
    bool array: entry ``i`` is bit ``i % 8`` of byte ``i // 8`` (the
    file's order). ``entries`` trims the padding of the last byte. This
    one copies (a byte an entry); index the bytes for no copy."""
    import numpy

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
) -> Cases:
    """:meth:`Tablebase.cases` of the default tablebase (or of one
    searching ``tables``)."""
    return _tablebase(tables).cases(puzzle, n, seed, family, size, rounds, moves_left)


def generate(
    puzzle: str,
    shape: Union[str, Tuple[int, int]],
    dir: Union[str, "os.PathLike[str]"] = ".",
    wdl_only: bool = False,
    progress: Optional[Callable[[str, int, int], object]] = None,
    memory: Union[None, str, int] = None,
    jobs: Optional[int] = None,
) -> Dict[str, Any]:
    """Builds the table file of ``puzzle`` (``"euler"``, up to 36 squares,
    or ``"flip"``, up to 25 cells) on ``shape`` (``"5x5"`` or ``(5, 5)``)
    in ``dir``, as ``boardbase generate PUZZLE RxC --dir DIR`` does, on
    every core (or ``jobs`` threads), within ``memory`` (``"8G"``, bytes
    as an int; default: the memory available). Returns the summary, the
    fields of ``boardbase generate --format json``.

    ``progress(phase, done, total)`` is called from this thread with the
    latest report (``phase`` a name such as ``"win/loss"``; ``done`` of
    ``total`` positions, boards or bytes); it works with tqdm. Ctrl-C, or
    an exception raised by ``progress``, stops the job: the exception
    propagates and no file is left, neither the table nor a temporary
    one. A table of that name is replaced only once the new one is
    complete."""
    if isinstance(memory, int):
        if memory < 0:
            raise OptionError(f"memory {memory}: expected a size of 0 or more")
        memory = f"{memory}B"
    shape_text = _size_text(shape)
    assert shape_text is not None
    summary: Dict[str, Any] = _boardbase.generate(
        puzzle, shape_text, os.fspath(dir), wdl_only, memory, jobs, progress
    )
    return summary


_lock = threading.Lock()
_default: Optional[Tablebase] = None
_by_tables: Dict[Tuple[str, ...], Tablebase] = {}


def _tablebase(tables: Optional[Tables]) -> Tablebase:
    global _default
    with _lock:
        if tables is None:
            if _default is None:
                _default = Tablebase()
            return _default
        if isinstance(tables, (str, os.PathLike)):
            tables = [tables]
        key = tuple(os.fspath(t) for t in tables)
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
    return _tablebase(tables).flip(board, size)


def euler(
    board: Board,
    size: Union[None, str, Tuple[int, int]] = None,
    tables: Optional[Tables] = None,
) -> EulerAnswer:
    """:meth:`Tablebase.euler` of the default tablebase (or of one searching
    ``tables``)."""
    return _tablebase(tables).euler(board, size)


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
