"""The exceptions of boardbase.

Each subclasses Python's own exception for its kind of problem, and
:class:`Error`, so ``except boardbase.Error`` catches them all:

- :class:`BoardError` (``ValueError``): a board or tile list that cannot be
  read, with the 1-based ``line`` and ``column`` (in bytes) of the problem;
- :class:`ShapeError` (``ValueError``): a size or a shape no solver takes;
- :class:`OptionError` (``ValueError``): an argument out of its range;
- :class:`NullityError` (``ValueError``): a Flip/Lights Out board past the
  exact search (``max_nullity``);
- :class:`MissingTableError` (``KeyError``): no table answers the shape;
  ``command`` is the ``boardbase generate`` call that makes it;
- :class:`TableFileError` (``OSError``): a table file or directory that
  cannot be used;
- :class:`ResourceError` (``MemoryError``): a count past its memory budget;
- :class:`InternalError` (``RuntimeError``): a bug in boardbase (a Rust
  panic, caught before it reaches Python).
"""

from __future__ import annotations

from typing import Optional

__all__ = [
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


class Error(Exception):
    """The base of every boardbase exception."""


class BoardError(Error, ValueError):
    """A board that cannot be read: ``line`` and ``column`` (1-based, in
    bytes of the board's text) say where."""

    def __init__(self, message: str, *, line: int, column: int) -> None:
        super().__init__(message)
        self.line = line
        self.column = column


class ShapeError(Error, ValueError):
    """A size or shape that nothing answers (``size``: ``"RxC"``, if known)."""

    def __init__(self, message: str, *, size: Optional[str] = None) -> None:
        super().__init__(message)
        self.size = size


class OptionError(Error, ValueError):
    """An argument out of its range (a goal, a memory size)."""


class NullityError(Error, ValueError):
    """A board whose shape's nullity is past ``max_nullity``: no answer is
    claimed minimal there."""

    def __init__(
        self,
        message: str,
        *,
        nullity: Optional[int] = None,
        max_nullity: Optional[int] = None,
    ) -> None:
        super().__init__(message)
        self.nullity = nullity
        self.max_nullity = max_nullity


class MissingTableError(Error, KeyError):
    """No table answers this puzzle and shape; ``command`` makes it."""

    def __init__(self, message: str, *, command: str, puzzle: str, size: str) -> None:
        super().__init__(message)
        self.message = message
        self.command = command
        self.puzzle = puzzle
        self.size = size

    def __str__(self) -> str:
        # KeyError quotes its argument; the message reads better plain.
        return self.message


class TableFileError(Error, OSError):
    """A table file or directory that cannot be used (``filename``: which)."""

    def __init__(
        self,
        message: str,
        *,
        filename: Optional[str] = None,
        size: Optional[str] = None,
    ) -> None:
        super().__init__(message)
        self.filename = filename
        self.size = size

    def __str__(self) -> str:
        return str(self.args[0])


class ResourceError(Error, MemoryError):
    """A computation past its memory budget."""


class InternalError(Error, RuntimeError):
    """A bug in boardbase: a Rust panic, stopped before it reached Python."""
