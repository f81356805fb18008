"""Answers made lazily: the value at once, the moves on first access. The
attributes read alone (without the moves ever made) against the oracles
on every 4×4 board and position, and ``to_dict()`` against the object the
oracles say, key for key (oracles.py)."""

from __future__ import annotations

from typing import Any, Dict, List, Optional

import pytest

import boardbase
from oracles import board_text, cells_of, euler_moves, euler_solve, flip_bfs, flip_sets, press_mask


def rounds_of(dw: int, db: int) -> Optional[int]:
    reach = [d for d in (dw, db) if d >= 0]
    return min(reach) if reach else None


def test_flip_value_of_every_4x4_board() -> None:
    dw, db = flip_bfs(4, 4)
    white, black = flip_sets(4, 4, "white"), flip_sets(4, 4, "black")
    for b in range(1 << 16):
        text = board_text(4, 4, b, "w", "b")
        a = boardbase.flip(text)
        rounds = rounds_of(dw[b], db[b])
        assert a.rounds == rounds, text
        assert a.solvable == (rounds is not None), text
        assert a.answer == ("Impossible" if rounds is None else str(rounds)), text
        if rounds is None:
            assert (a.colour, a.optimal_sets) == (None, 0), text
        else:
            assert a.colour == ("white" if dw[b] == rounds else "black"), text
            both = (white.count[b] if dw[b] == rounds else 0) + (black.count[b] if db[b] == rounds else 0)
            assert a.optimal_sets == both, text
        assert a.board == text


def test_euler_value_of_every_4x4_position() -> None:
    win, left = euler_solve(4, 4)
    moves = euler_moves(4, 4)
    for p in range(1 << 16):
        text = board_text(4, 4, p, ".", "X")
        a = boardbase.euler(text)
        assert a.winning == win[p], text
        assert a.moves_left == left[p], text
        assert a.outcome == ("win" if win[p] else "loss"), text
        assert a.answer == ("WINNING" if win[p] else "LOSING"), text
        legal = [m for m in moves if not p & m]
        assert a.legal_moves == len(legal), text
        assert a.winning_moves == sum(1 for m in legal if not win[p | m]), text
        assert a.board == text


def flip_expected(b: int) -> Dict[str, Any]:
    """``/api/v1/flip``'s object for a 4×4 board, from the oracles: the
    fields of docs/json.md, in their order."""
    dw, db = (d[b] for d in flip_bfs(4, 4))
    rounds = rounds_of(dw, db)

    def route(colour: str, d: int) -> Optional[Dict[str, Any]]:
        if d < 0:
            return None
        sets = flip_sets(4, 4, colour)
        presses = [list(c) for c in cells_of(4, sets.least_cells[b])]
        return {"rounds": d, "presses": presses, "optimal_sets": sets.count[b]}

    to_white, to_black = route("white", dw), route("black", db)
    colour = None if rounds is None else ("white" if dw == rounds else "black")
    best = to_white if colour == "white" else to_black
    moves: List[Dict[str, Any]] = []
    for r in range(4):
        for c in range(4):
            after = b ^ press_mask(4, 4, r, c)
            value = rounds_of(*(d[after] for d in flip_bfs(4, 4)))
            moves.append(
                {"cell": [r, c], "board": board_text(4, 4, after, "w", "b"), "solvable": value is not None, "rounds": value}
            )
    moves.sort(key=lambda m: 10**9 if m["rounds"] is None else m["rounds"])
    return {
        "case": 1,
        "board": board_text(4, 4, b, "w", "b"),
        "answer": "Impossible" if rounds is None else str(rounds),
        "solvable": rounds is not None,
        "rounds": rounds,
        "colour": colour,
        "presses": None if best is None else best["presses"],
        "optimal_sets": sum(r["optimal_sets"] for r, d in ((to_white, dw), (to_black, db)) if r and d == rounds),
        "to_white": to_white,
        "to_black": to_black,
        "moves": moves,
    }


@pytest.mark.parametrize("b", list(range(0, 1 << 16, 1021)) + [0, 0xFFFF, 0x19B9, 0x000F])
def test_flip_to_dict_as_the_oracles_say(b: int) -> None:
    expected = flip_expected(b)
    a = boardbase.flip(board_text(4, 4, b, "w", "b"))
    got = a.to_dict()
    assert list(got) == list(expected)
    assert got == expected
    # Its types are JSON's: lists, not tuples.
    assert all(type(m["cell"]) is list for m in got["moves"])
    # The typed attributes made from it on first access agree with it.
    assert [(m.cell, m.board, m.solvable, m.rounds) for m in a.moves] == [
        (tuple(m["cell"]), m["board"], m["solvable"], m["rounds"]) for m in expected["moves"]
    ]
    assert a.presses == [tuple(c) for c in expected["presses"] or []]
    for route, want in ((a.to_white, expected["to_white"]), (a.to_black, expected["to_black"])):
        if want is None:
            assert route is None
        else:
            assert route == boardbase.Route(want["rounds"], [tuple(c) for c in want["presses"]], want["optimal_sets"])


def euler_expected(p: int) -> Dict[str, Any]:
    """``/api/v1/euler``'s object for a 4×4 position from the oracles, but
    for the order of moves of equal value and so the best move among
    them: ``moves`` sorted by mask here, ``best_move`` left out."""
    win, left = euler_solve(4, 4)
    legal = [m for m in euler_moves(4, 4) if not p & m]
    moves = [
        {
            "mask": m,
            "cells": [list(c) for c in cells_of(4, m)],
            "board": board_text(4, 4, p | m, ".", "X"),
            "outcome": "win" if win[p | m] else "loss",
            "moves_left": left[p | m],
        }
        for m in legal
    ]
    return {
        "case": 1,
        "board": board_text(4, 4, p, ".", "X"),
        "answer": "WINNING" if win[p] else "LOSING",
        "outcome": "win" if win[p] else "loss",
        "moves_left": left[p],
        "winning_moves": sum(1 for m in legal if not win[p | m]),
        "legal_moves": len(legal),
        "moves": sorted(moves, key=lambda m: m["mask"]),
    }


def value_key(move: Dict[str, Any]) -> List[int]:
    """Best first: moves to a lost position, fastest first; then the
    others, longest first."""
    return [0, move["moves_left"]] if move["outcome"] == "loss" else [1, -move["moves_left"]]


@pytest.mark.parametrize("p", list(range(0, 1 << 16, 1021)) + [0, 0xFFFF, 0x7FFF, 0xF2DD])
def test_euler_to_dict_as_the_oracles_say(p: int) -> None:
    expected = euler_expected(p)
    a = boardbase.euler(board_text(4, 4, p, ".", "X"))
    got = a.to_dict()
    keys = ["case", "board", "answer", "outcome", "moves_left", "best_move", "winning_moves", "legal_moves", "moves"]
    assert list(got) == keys
    moves = got.pop("moves")
    best = got.pop("best_move")
    assert [value_key(m) for m in moves] == sorted(value_key(m) for m in moves)
    assert sorted(moves, key=lambda m: m["mask"]) == expected.pop("moves")
    assert got == expected
    if moves:
        assert best == {"mask": moves[0]["mask"], "cells": moves[0]["cells"]}
        assert a.best_move == [tuple(c) for c in moves[0]["cells"]]
    else:
        assert best is None and a.best_move is None
    assert [m.mask for m in a.moves] == [m["mask"] for m in moves]


def test_lazy_attributes_are_made_once_and_read_only() -> None:
    a = boardbase.flip("bwwb/bbwb/bwwb/bwww")
    assert a.rounds == 4
    assert a.moves is a.moves and a.presses is a.presses and a.to_white is a.to_white
    with pytest.raises(AttributeError):
        a.rounds = 5  # type: ignore[misc]
    with pytest.raises(AttributeError):
        a.anything = 1  # type: ignore[attr-defined]
    e = boardbase.euler("XXXX/...X/XX.X/XX.X")
    assert e.moves is e.moves and e.best_move is e.best_move
    with pytest.raises(AttributeError):
        e.winning = False  # type: ignore[misc]


def test_equality_and_repr_as_before() -> None:
    text = "bwwb/bbwb/bwwb/bwww"
    a, b = boardbase.flip(text), boardbase.flip(text)
    assert a == b and not a != b
    assert a != boardbase.flip("wwww/wwww/wwww/wwwb")
    assert a != text
    with pytest.raises(TypeError):
        hash(a)
    # The order in which attributes are first read changes nothing.
    b.moves
    assert a == b and a.to_dict() == b.to_dict()
    assert repr(a).startswith("FlipAnswer(board='bwwb/bbwb/bwwb/bwww', answer='4', solvable=True, rounds=4, ")
    assert "moves=[FlipMove(cell=(0, 0), board='wbwb/wbwb/bwwb/bwww', solvable=True, rounds=3)" in repr(a)
    e = boardbase.euler("XXXX/XXXX/XXXX/XXXX")
    assert repr(e) == (
        "EulerAnswer(board='XXXX/XXXX/XXXX/XXXX', answer='WINNING', outcome='win', winning=True, "
        "moves_left=0, best_move=None, winning_moves=0, legal_moves=0, moves=[])"
    )


def test_gf2_shapes_answer_the_same_lazily() -> None:
    # 3x5 has no table here: the GF(2) solver answers, value and moves at once.
    dw, db = flip_bfs(3, 5)
    for b in range(0, 1 << 15, 331):
        a = boardbase.flip(board_text(3, 5, b, "w", "b"))
        assert a.rounds == rounds_of(dw[b], db[b])
        assert len(a.moves) == 15 and a.to_dict()["rounds"] == a.rounds


def test_answers_pickle_and_copy_whole() -> None:
    import copy
    import pickle

    for a in (boardbase.flip("bwwb/bbwb/bwwb/bwww"), boardbase.euler("XXXX/...X/XX.X/XX.X")):
        for b in (pickle.loads(pickle.dumps(a)), copy.copy(a), copy.deepcopy(a)):
            assert type(b) is type(a) and b == a and repr(b) == repr(a) and b.to_dict() == a.to_dict()
    e = pickle.loads(pickle.dumps(boardbase.euler("XXXX/...X/XX.X/XX.X")))
    assert (e.winning, e.moves_left, e.best_move, e.legal_moves) == (True, 4, [(1, 2)], 9)
