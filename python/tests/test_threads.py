"""Many Python threads probing at once: the same answers as one thread,
and one Euler table made in memory however many threads ask for it."""

from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor
from typing import List, Optional, Tuple

import boardbase
from oracles import board_text, euler_solve, flip_bfs


def test_flip_and_euler_from_many_threads() -> None:
    rng = random.Random(18)
    boards = [rng.randrange(1 << 16) for _ in range(4000)]
    dw, db = flip_bfs(4, 4)
    win, _ = euler_solve(4, 4)

    def work(chunk: List[int]) -> List[Tuple[Optional[int], bool]]:
        out = []
        for b in chunk:
            f = boardbase.flip(board_text(4, 4, b, "w", "b"))
            e = boardbase.euler(board_text(4, 4, b, ".", "X"))
            out.append((f.rounds, e.winning))
        return out

    chunks = [boards[i::8] for i in range(8)]
    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(work, chunks))
    for chunk, got in zip(chunks, results):
        for b, (rounds, winning) in zip(chunk, got):
            reach = [d for d in (dw[b], db[b]) if d >= 0]
            assert rounds == (min(reach) if reach else None)
            assert winning == win[b]


def test_one_made_table_for_many_threads() -> None:
    # A fresh tablebase: the 3x4 table is made on first use, once, while
    # eight threads ask for positions of it.
    tb = boardbase.Tablebase()
    win, left = euler_solve(3, 4)
    positions = list(range(0, 1 << 12, 5))

    def work(k: int) -> List[Tuple[bool, Optional[int]]]:
        return [
            (a.winning, a.moves_left)
            for a in (tb.euler(board_text(3, 4, p, ".", "X")) for p in positions[k::8])
        ]

    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(work, range(8)))
    for k, got in enumerate(results):
        assert got == [(win[p], left[p]) for p in positions[k::8]]


def test_lights_and_carcassonne_from_many_threads() -> None:
    grid = [[(r * 7 + c * 3) % 2 for c in range(12)] for r in range(12)]
    tiles = ["CCCC"] * 9
    first = boardbase.lights(grid)

    def work(_: int) -> Tuple[Optional[int], List[Tuple[int, int]], int]:
        a = boardbase.lights(grid)
        return a.rounds, a.presses, boardbase.carcassonne(3, 3, tiles).exact

    with ThreadPoolExecutor(6) as pool:
        for got in pool.map(work, range(24)):
            assert got == (first.rounds, first.presses, 4**9)
