"""Boards drawn as SVG, for Jupyter (the answers' ``_repr_svg_``) and for
pages: :func:`board` returns the SVG text.

>>> from boardbase import svg
>>> svg.board("bw/wb").startswith("<svg")
True
"""

from __future__ import annotations

from typing import Iterable, List, Sequence, Tuple
from xml.sax.saxutils import escape

__all__ = ["Board", "board", "tiles"]

#: Each puzzle's cell colours: (clear, set) — Flip white/black, Euler
#: open/covered, Lights Out off/lit.
COLOURS = {
    "flip": ("#f4f1e8", "#222222"),
    "euler": ("#e8dcc0", "#8a5a2b"),
    "lights": ("#30343b", "#ffd23f"),
}

#: The letters a set cell is written with, in every puzzle's text.
SET = frozenset("bX1")


def _rows(text: str) -> List[str]:
    rows = [r.strip() for r in text.replace("\n", "/").split("/")]
    return [r for r in rows if r]


def _open(rows: Sequence[Sequence[object]], cell: int, title: str) -> List[str]:
    """The opening of the SVG of a grid of ``rows`` with cells of ``cell``
    pixels, a 1-pixel margin, and its ``title`` if any."""
    height, width = len(rows) * cell, max((len(r) for r in rows), default=0) * cell
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width + 2}" height="{height + 2}" '
        f'viewBox="-1 -1 {width + 2} {height + 2}">'
    ]
    if title:
        out.append(f"<title>{escape(title)}</title>")
    return out


def board(
    text: str,
    *,
    puzzle: str = "flip",
    marks: Iterable[Tuple[int, int]] = (),
    cell: int = 40,
    title: str = "",
) -> str:
    """The SVG of a board's text (rows separated by ``/`` or new lines, as
    the answers' ``.board`` give it), with ``marks`` (cells to press, a
    move) drawn as rings: one ``rect`` a cell, one ``circle`` a mark."""
    if puzzle not in COLOURS:
        raise ValueError(f"puzzle {puzzle!r}: expected one of {', '.join(sorted(COLOURS))}")
    clear, full = COLOURS[puzzle]
    rows = _rows(text)
    out = _open(rows, cell, title)
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            fill = full if ch in SET else clear
            out.append(
                f'<rect x="{c * cell}" y="{r * cell}" width="{cell}" height="{cell}" '
                f'fill="{fill}" stroke="#888888" stroke-width="1"/>'
            )
    for r, c in marks:
        out.append(
            f'<circle cx="{c * cell + cell / 2}" cy="{r * cell + cell / 2}" r="{cell * 0.3}" '
            f'fill="none" stroke="#e03c31" stroke-width="{max(2, cell // 12)}"/>'
        )
    out.append("</svg>")
    return "".join(out)


class Board:
    """A board that draws itself in Jupyter (``_repr_svg_``): its text,
    the puzzle whose colours it takes, and cells to ring.

    >>> Board("bwwb/bbwb/bwwb/bwww", puzzle="flip", marks=[(0, 0)])
    Board('bwwb/bbwb/bwwb/bwww', puzzle='flip')
    """

    def __init__(self, text: str, *, puzzle: str = "flip", marks: Iterable[Tuple[int, int]] = ()) -> None:
        if puzzle not in COLOURS:
            raise ValueError(f"puzzle {puzzle!r}: expected one of {', '.join(sorted(COLOURS))}")
        self.text = "/".join(_rows(text))
        self.puzzle = puzzle
        self.marks = list(marks)

    def __repr__(self) -> str:
        return f"Board({self.text!r}, puzzle={self.puzzle!r})"

    def _repr_svg_(self) -> str:
        return board(self.text, puzzle=self.puzzle, marks=self.marks)


#: Carcassonne's edge colours: city, road, field.
EDGES = {"C": "#c8553d", "R": "#f2e6c9", "F": "#6a994e"}


def tiles(rows: Sequence[Sequence[str]], *, cell: int = 48, title: str = "") -> str:
    """The SVG of Carcassonne tiles as placed (four-letter codes, edges
    clockwise from the top, as a witness's ``tiles`` give them): each tile
    a square of four triangles, one ``polygon`` an edge."""
    out = _open(rows, cell, title)
    for r, row in enumerate(rows):
        for c, code in enumerate(row):
            if len(code) != 4 or any(e not in EDGES for e in code):
                raise ValueError(f"tile {code!r} at ({r}, {c}): expected four of C, R, F")
            x, y = c * cell, r * cell
            centre = f"{x + cell / 2},{y + cell / 2}"
            corners = [(x, y), (x + cell, y), (x + cell, y + cell), (x, y + cell)]
            for k, edge in enumerate(code):
                (ax, ay), (bx, by) = corners[k], corners[(k + 1) % 4]
                out.append(
                    f'<polygon points="{ax},{ay} {bx},{by} {centre}" fill="{EDGES[edge]}" '
                    f'stroke="#555555" stroke-width="1"/>'
                )
    out.append("</svg>")
    return "".join(out)
