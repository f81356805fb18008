"""The Python package's speed figures (docs/python.md, "Speed"): one 4×4
probe against a trivial PyO3 call, one answer's value (flip().rounds,
euler().winning) against a trivial Python operation, a whole answer with
its moves, euler_winning over 1,000,000 positions,
and boardbase against the pure-Python breadth-first search that people
write for Flip Game. Run it on a quiet machine:

    python python/bench/bench.py [TABLE_DIR]

TABLE_DIR holds euler-5x5.bin (``boardbase generate euler 5x5 --dir
TABLE_DIR``); without it the euler_winning figure is skipped."""

from __future__ import annotations

import os
import platform
import sys
import time
import timeit
from collections import deque
from typing import Callable, List

import numpy

import boardbase


def per_call(stmt: Callable[[], object], number: int) -> float:
    """Seconds a call, the best of 7 runs of ``number`` calls."""
    return min(timeit.repeat(stmt, number=number, repeat=7)) / number


def bfs_rounds(board: int) -> int:
    """Flip Game as people write it in Python: breadth-first search from
    the board to either uniform board (-1: impossible)."""
    masks = []
    for r in range(4):
        for c in range(4):
            m = 1 << (4 * r + c)
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                if 0 <= r + dr < 4 and 0 <= c + dc < 4:
                    m |= 1 << (4 * (r + dr) + c + dc)
            masks.append(m)
    seen = {board: 0}
    queue = deque([board])
    while queue:
        b = queue.popleft()
        if b == 0 or b == 0xFFFF:
            return seen[b]
        for m in masks:
            n = b ^ m
            if n not in seen:
                seen[n] = seen[b] + 1
                queue.append(n)
    return -1


def main(argv: List[str]) -> None:
    print(f"python {platform.python_version()}, numpy {numpy.__version__}, boardbase {boardbase.__version__}")
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, {platform.platform()}")
    flip = boardbase.Table.embedded("flip")
    echo = boardbase._boardbase._echo
    trivial = per_call(lambda: echo(0x19B9), 300_000)
    probe = per_call(lambda: flip.flip_rounds(0x19B9), 300_000)
    text, position = "bwwb/bbwb/bwwb/bwww", "XXXX/...X/XX.X/XX.X"
    python = per_call(lambda: len(text.replace("/", "")), 1_000_000)
    rounds = per_call(lambda: boardbase.flip(text).rounds, 100_000)
    winning = per_call(lambda: boardbase.euler(position).winning, 100_000)
    moves = per_call(lambda: boardbase.flip(text).moves, 10_000)
    euler_moves = per_call(lambda: boardbase.euler(position).moves, 10_000)
    print(f"trivial PyO3 call (_echo):           {trivial * 1e9:8.0f} ns")
    print(f"4x4 probe (Table.flip_rounds(int)):  {probe * 1e9:8.0f} ns  ({probe / trivial:.1f}x the trivial call)")
    print(f"trivial Python (len(s.replace)):     {python * 1e9:8.0f} ns")
    print(f"boardbase.flip(text).rounds:         {rounds * 1e9:8.0f} ns  ({rounds / python:.1f}x the trivial Python)")
    print(f"boardbase.euler(text).winning:       {winning * 1e9:8.0f} ns  ({winning / python:.1f}x the trivial Python)")
    print(f"boardbase.flip(text).moves:          {moves * 1e9:8.0f} ns  (both routes, 16 presses valued, each board)")
    print(f"boardbase.euler(text).moves:         {euler_moves * 1e9:8.0f} ns  (9 legal moves valued, each board)")

    if len(argv) > 1:
        path = os.path.join(argv[1], "euler-5x5.bin")
        with boardbase.Table.open(path) as table:
            rng = numpy.random.default_rng(1)
            positions = rng.integers(0, 1 << 25, size=1_000_000, dtype=numpy.uint64)
            table.euler_winning(positions)
            seconds = per_call(lambda: table.euler_winning(positions), 5)
            print(
                f"euler_winning, 1,000,000 random 5x5 positions: {seconds * 1e3:.2f} ms, "
                f"{1e6 / seconds / 1e6:.0f} million positions a second"
            )

    boards = numpy.arange(1 << 16, dtype=numpy.uint64)
    start = time.perf_counter()
    table_rounds = flip.flip_rounds(boards)
    vectorised = time.perf_counter() - start
    start = time.perf_counter()
    one_by_one = [flip.flip_rounds(b) for b in range(1 << 16)]
    scalar = time.perf_counter() - start
    sample = range(0, 1 << 16, 257)  # 256 boards, spread evenly
    start = time.perf_counter()
    for b in sample:
        assert bfs_rounds(b) == int(table_rounds[b])
        assert (one_by_one[b] if one_by_one[b] is not None else -1) == int(table_rounds[b])
    bfs = (time.perf_counter() - start) / len(sample) * (1 << 16)
    print(f"all 65,536 4x4 boards: pure-Python BFS {bfs:.0f} s (from {len(sample)} boards),")
    print(f"  boardbase one call a board {scalar * 1e3:.1f} ms ({bfs / scalar:,.0f}x),")
    print(f"  boardbase one array call {vectorised * 1e3:.2f} ms ({bfs / vectorised:,.0f}x)")


if __name__ == "__main__":
    main(sys.argv)
