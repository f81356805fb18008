"""The SVG of boards and answers is valid XML with a cell a rect."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

import boardbase
from boardbase import svg

NS = "{http://www.w3.org/2000/svg}"


def parse(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == NS + "svg"
    return root


def test_answers_draw_themselves() -> None:
    flip = boardbase.flip("bwwb/bbwb/bwwb/bwww")
    root = parse(flip._repr_svg_())
    rects = root.findall(NS + "rect")
    assert len(rects) == 16
    assert len(root.findall(NS + "circle")) == len(flip.presses) == 4
    assert [r.get("fill") for r in rects[:4]] == ["#222222", "#f4f1e8", "#f4f1e8", "#222222"]
    euler = boardbase.euler("XXXX/...X/XX.X/XX.X")
    assert len(parse(euler._repr_svg_()).findall(NS + "circle")) == 1
    lights = boardbase.lights("011/101/110")
    assert len(parse(lights._repr_svg_()).findall(NS + "rect")) == 9


def test_board_text_and_title_are_escaped() -> None:
    root = parse(svg.board("bw\nwb", title="<&>", marks=[(1, 1)], cell=10))
    assert root.get("width") == "22"
    assert root.find(NS + "title") is not None


def test_unknown_puzzle() -> None:
    with pytest.raises(ValueError):
        svg.board("bw", puzzle="chess")


def test_boards_draw_themselves() -> None:
    b = svg.Board("bw/\nwb", puzzle="flip", marks=[(0, 1)])
    root = parse(b._repr_svg_())
    assert [r.get("fill") for r in root.findall(NS + "rect")] == ["#222222", "#f4f1e8", "#f4f1e8", "#222222"]
    assert len(root.findall(NS + "circle")) == 1
    with pytest.raises(ValueError):
        svg.Board("bw", puzzle="go")


def test_carcassonne_witness_draws_its_tiles() -> None:
    a = boardbase.carcassonne(1, 2, ["RRRF", "FCCC"])
    assert a.witness is not None
    root = parse(a._repr_svg_() or "")
    polygons = root.findall(NS + "polygon")
    assert len(polygons) == 8
    # The first tile as placed, RFRR: road, field, road, road clockwise from the top.
    assert [p.get("fill") for p in polygons[:4]] == [svg.EDGES[e] for e in a.witness.tiles[0][0]]
    assert boardbase.carcassonne(1, 2, ["CCCC", "FFFF"])._repr_svg_() is None
    with pytest.raises(ValueError):
        svg.tiles([["CCXC"]])
