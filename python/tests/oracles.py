"""Independent oracles, written from the puzzle statements (POJ 1753, UVA 10536, POJ 3279 and
POJ 1222, HDU 4064; docs/guide.md restates each rule) and nothing else: no
call into boardbase, no algebra. Each rule is written once, here.

Boards are ints: cell (row, col) at bit ``cols * row + col``, set = black
(Flip, Lights Out: lit) or covered (Euler).
"""

from __future__ import annotations

import functools
import itertools
from collections import deque
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple

Cell = Tuple[int, int]


def bit(cols: int, row: int, col: int) -> int:
    return 1 << (cols * row + col)


def board_text(rows: int, cols: int, board: int, zero: str, one: str) -> str:
    """The board as rows separated by '/'."""
    return "/".join(
        "".join(one if board & bit(cols, r, c) else zero for c in range(cols)) for r in range(rows)
    )


def cells_of(cols: int, mask: int) -> List[Cell]:
    """The cells of a mask, in reading order."""
    out = []
    i = 0
    while mask:
        if mask & 1:
            out.append((i // cols, i % cols))
        mask >>= 1
        i += 1
    return out


# ---- Flip Game: pressing a cell flips it and its orthogonal neighbours ----


def press_mask(rows: int, cols: int, row: int, col: int) -> int:
    mask = bit(cols, row, col)
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        r, c = row + dr, col + dc
        if 0 <= r < rows and 0 <= c < cols:
            mask |= bit(cols, r, c)
    return mask


def press_masks(rows: int, cols: int) -> List[int]:
    return [press_mask(rows, cols, r, c) for r in range(rows) for c in range(cols)]


@functools.lru_cache(maxsize=None)
def flip_bfs(rows: int, cols: int) -> Tuple[List[int], List[int]]:
    """Breadth-first search from the all-white and the all-black boards:
    the fewest rounds from every board to each colour (-1: never)."""
    n = rows * cols
    masks = press_masks(rows, cols)
    out = []
    for start in (0, (1 << n) - 1):
        dist = [-1] * (1 << n)
        dist[start] = 0
        queue = deque([start])
        while queue:
            b = queue.popleft()
            for m in masks:
                nb = b ^ m
                if dist[nb] < 0:
                    dist[nb] = dist[b] + 1
                    queue.append(nb)
        out.append(dist)
    return out[0], out[1]


@dataclass(frozen=True)
class FlipSets:
    """For every board, towards one colour: how many press sets of the
    fewest presses reach it, and two of them: the least by its row-major
    0/1 string, and the least by its list of cells in increasing order."""

    count: List[int]
    least_string: List[int]
    least_cells: List[int]


@functools.lru_cache(maxsize=None)
def flip_sets(rows: int, cols: int, colour: str) -> FlipSets:
    """Every one of the 2^(R·C) press sets tried, for boards of at most 16
    cells or so."""
    n = rows * cols
    full = (1 << n) - 1
    masks = press_masks(rows, cols)
    effect = [0] * (1 << n)
    for s in range(1, 1 << n):
        low = (s & -s).bit_length() - 1
        effect[s] = effect[s & (s - 1)] ^ masks[low]
    dist = flip_bfs(rows, cols)[0 if colour == "white" else 1]
    count = [0] * (1 << n)
    least_string = [-1] * (1 << n)
    least_cells = [-1] * (1 << n)

    def string_key(s: int) -> str:
        return "".join("1" if s >> i & 1 else "0" for i in range(n))

    def cells_key(s: int) -> List[int]:
        return [i for i in range(n) if s >> i & 1]

    for s in range(1 << n):
        b = effect[s] if colour == "white" else effect[s] ^ full
        if bin(s).count("1") != dist[b]:
            continue
        count[b] += 1
        if least_string[b] < 0 or string_key(s) < string_key(least_string[b]):
            least_string[b] = s
        if least_cells[b] < 0 or cells_key(s) < cells_key(least_cells[b]):
            least_cells[b] = s
    return FlipSets(count, least_string, least_cells)


# ---- Lights Out / Fliptile: light chasing ----


@dataclass(frozen=True)
class LightsOracle:
    rounds: Optional[int]
    colour: Optional[str]
    presses: List[Cell]
    optimal_sets: int


def chase(grid: Sequence[Sequence[int]], target: int) -> List[List[List[int]]]:
    """Every press grid that makes ``grid`` all ``target``: each choice of
    the first row's presses, the later rows forced (press under each cell
    still wrong), kept when the last row comes out right."""
    rows, cols = len(grid), len(grid[0])
    found = []
    for first in range(1 << cols):
        state = [list(row) for row in grid]
        presses = [[0] * cols for _ in range(rows)]

        def press(r: int, c: int) -> None:
            presses[r][c] = 1
            for dr, dc in ((0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)):
                rr, cc = r + dr, c + dc
                if 0 <= rr < rows and 0 <= cc < cols:
                    state[rr][cc] ^= 1

        for c in range(cols):
            if first >> c & 1:
                press(0, c)
        for r in range(1, rows):
            for c in range(cols):
                if state[r - 1][c] != target:
                    press(r, c)
        if all(v == target for v in state[rows - 1]):
            found.append(presses)
    return found


def lights(grid: Sequence[Sequence[int]], goal: str) -> LightsOracle:
    """The fewest presses towards ``goal`` ("white": all 0, "black": all 1,
    "either": fewer presses, white on a tie, both colours' sets counted),
    the optimal set least as a row-major 0/1 string."""

    def best(target: int) -> Optional[Tuple[int, List[List[int]], int]]:
        sets = chase(grid, target)
        if not sets:
            return None
        fewest = min(sum(map(sum, s)) for s in sets)
        optimal = [s for s in sets if sum(map(sum, s)) == fewest]
        least = min(optimal, key=lambda s: "".join(str(v) for row in s for v in row))
        return fewest, least, len(optimal)

    def answer(found: Optional[Tuple[int, List[List[int]], int]], colour: str, sets: int) -> LightsOracle:
        if found is None:
            return LightsOracle(None, None, [], 0)
        fewest, least, _ = found
        cells = [(r, c) for r, row in enumerate(least) for c, v in enumerate(row) if v]
        return LightsOracle(fewest, colour, cells, sets)

    if goal == "white":
        w = best(0)
        return answer(w, "white", w[2] if w else 0)
    if goal == "black":
        b = best(1)
        return answer(b, "black", b[2] if b else 0)
    w, b = best(0), best(1)
    if w is None and b is None:
        return answer(None, "white", 0)
    if b is None or (w is not None and w[0] < b[0]):
        return answer(w, "white", w[2] if w else 0)
    if w is None or b[0] < w[0]:
        return answer(b, "black", b[2])
    return answer(w, "white", w[2] + b[2])


# ---- Game of Euler: pins of length 1 to 3 from the sides, or one square ----


@functools.lru_cache(maxsize=None)
def euler_moves(rows: int, cols: int) -> Tuple[int, ...]:
    moves = set()
    for r in range(rows):
        for c in range(cols):
            moves.add(bit(cols, r, c))
    for length in (1, 2, 3):
        if length <= cols:
            for r in range(rows):
                moves.add(sum(bit(cols, r, k) for k in range(length)))
                moves.add(sum(bit(cols, r, cols - 1 - k) for k in range(length)))
        if length <= rows:
            for c in range(cols):
                moves.add(sum(bit(cols, k, c) for k in range(length)))
                moves.add(sum(bit(cols, rows - 1 - k, c) for k in range(length)))
    return tuple(sorted(moves))


@functools.lru_cache(maxsize=None)
def euler_solve(rows: int, cols: int) -> Tuple[List[bool], List[int]]:
    """Backward induction over every position: whether the player to move
    wins (covering the last square loses, so the full board is a win for
    the player to move, 0 moves left) and the moves left with best play
    (the fastest win, the longest loss)."""
    n = rows * cols
    full = (1 << n) - 1
    moves = euler_moves(rows, cols)
    win = [False] * (1 << n)
    left = [0] * (1 << n)
    for p in sorted(range(1 << n), key=lambda p: -bin(p).count("1")):
        if p == full:
            win[p], left[p] = True, 0
            continue
        succ = [p | m for m in moves if not p & m]
        losing = [s for s in succ if not win[s]]
        if losing:
            win[p], left[p] = True, 1 + min(left[s] for s in losing)
        else:
            win[p], left[p] = False, 1 + max(left[s] for s in succ)
    return win, left


# ---- Carcassonne: rotate tiles so that every shared edge matches ----


def turned(code: str, quarter_turns: int) -> str:
    """``code`` (top, right, bottom, left) turned clockwise."""
    k = quarter_turns % 4
    return code[len(code) - k :] + code[: len(code) - k] if k else code


def carcassonne_count(rows: int, cols: int, tiles: Sequence[str]) -> int:
    """Every choice of rotations, by backtracking in reading order."""
    placed: List[str] = []

    def go(i: int) -> int:
        if i == rows * cols:
            return 1
        r, c = divmod(i, cols)
        total = 0
        for k in range(4):
            t = turned(tiles[i], k)
            if c > 0 and placed[i - 1][1] != t[3]:
                continue
            if r > 0 and placed[i - cols][2] != t[0]:
                continue
            placed.append(t)
            total += go(i + 1)
            placed.pop()
        return total

    return go(0)


def carcassonne_valid(rows: int, cols: int, placed: Sequence[Sequence[str]]) -> bool:
    """Whether tiles as placed (by row) match on every shared edge."""
    for r in range(rows):
        for c in range(cols):
            if c + 1 < cols and placed[r][c][1] != placed[r][c + 1][3]:
                return False
            if r + 1 < rows and placed[r][c][2] != placed[r + 1][c][0]:
                return False
    return True


# ---- The Lights Out family: K colours, any pattern, on a rectangle or a torus ----

#: Each named pattern's cells around the pressed one, (row, col) offsets.
PATTERNS = {
    "plus": ((0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)),
    "neighbours": ((-1, 0), (1, 0), (0, -1), (0, 1)),
    "x": ((0, 0), (-1, -1), (-1, 1), (1, -1), (1, 1)),
    "king": tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)),
}


def stencil_offsets(rows: str) -> Tuple[Tuple[int, int], ...]:
    """The offsets of a stencil such as ``.#./###/.#.`` (odd sides,
    centred on the pressed cell, ``#`` for a cell it changes)."""
    lines = rows.split("/")
    h, w = len(lines), len(lines[0])
    return tuple((r - h // 2, c - w // 2) for r in range(h) for c in range(w) if lines[r][c] == "#")


def family_press(
    rows: int, cols: int, offsets: Sequence[Tuple[int, int]], wrap: bool, r: int, c: int
) -> List[int]:
    """The cells (row-major indices) one press at (r, c) changes, each
    once: clipped at the border, or wrapped around on a torus."""
    cells = []
    for dr, dc in offsets:
        rr, cc = r + dr, c + dc
        if wrap:
            rr, cc = rr % rows, cc % cols
        elif not (0 <= rr < rows and 0 <= cc < cols):
            continue
        if rr * cols + cc not in cells:
            cells.append(rr * cols + cc)
    return cells


def family_solve(
    board: Sequence[int], rows: int, cols: int, k: int, offsets: Sequence[Tuple[int, int]], wrap: bool, goal: str
) -> Optional[Tuple[int, Tuple[int, ...], int, int]]:
    """Every press vector (each cell pressed 0 to K-1 times) applied press
    by press: the fewest presses to ``goal`` (a colour as a decimal, or
    "any"), the least optimal vector in reading order, how many optimal
    vectors there are (over every tied colour for "any", the lowest colour
    reported), and the colour reached; None when no vector reaches it."""
    n = rows * cols
    masks = [family_press(rows, cols, offsets, wrap, i // cols, i % cols) for i in range(n)]
    found: Dict[int, Tuple[int, Tuple[int, ...], int]] = {}
    for vector in itertools.product(range(k), repeat=n):
        state = list(board)
        for i, times in enumerate(vector):
            for _ in range(times):
                for cell in masks[i]:
                    state[cell] = (state[cell] + 1) % k
        if len(set(state)) != 1:
            continue
        colour, total = state[0], sum(vector)
        best = found.get(colour)
        if best is None or total < best[0]:
            found[colour] = (total, vector, 1)
        elif total == best[0]:
            found[colour] = (total, min(best[1], vector), best[2] + 1)
    colours = range(k) if goal == "any" else [int(goal)]
    reached = [(found[d], d) for d in colours if d in found]
    if not reached:
        return None
    fewest = min(f[0] for f, _ in reached)
    tied = [(f, d) for f, d in reached if f[0] == fewest]
    (total, vector, _), colour = tied[0]
    return total, vector, sum(f[2] for f, _ in tied), colour


# --- m,n,k-games (tic-tac-toe) ----------------------------------------------
# Two players place X and O in turn, X first; the first with k in a row
# (across, down or along a diagonal) wins; a full board without one is a
# draw. Solved by plain memoised negamax over the board as a string.


def mnk_wins(board: str, rows: int, cols: int, k: int, player: str) -> bool:
    def at(r: int, c: int) -> bool:
        return 0 <= r < rows and 0 <= c < cols and board[r * cols + c] == player

    return any(
        all(at(r + dr * i, c + dc * i) for i in range(k))
        for r in range(rows)
        for c in range(cols)
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1))
    )


def mnk_solve(rows: int, cols: int, k: int) -> Dict[str, Tuple[str, Optional[int]]]:
    """Every position reachable from the empty board (cells in reading
    order, no separators): its value for the player to move and the plies
    to the end, the winner hurrying and the loser resisting (None for a
    draw)."""
    memo: Dict[str, Tuple[str, Optional[int]]] = {}

    def value(board: str) -> Tuple[str, Optional[int]]:
        if board in memo:
            return memo[board]
        mover = "X" if board.count("X") == board.count("O") else "O"
        other = "O" if mover == "X" else "X"
        result: Tuple[str, Optional[int]]
        if mnk_wins(board, rows, cols, k, other):
            result = ("lose", 0)
        elif "." not in board:
            result = ("draw", None)
        else:
            children = [
                value(board[:i] + mover + board[i + 1 :]) for i, b in enumerate(board) if b == "."
            ]
            wins = [r for v, r in children if v == "lose" and r is not None]
            if wins:
                result = ("win", min(wins) + 1)
            elif any(v == "draw" for v, _ in children):
                result = ("draw", None)
            else:
                result = ("lose", max(r for _, r in children if r is not None) + 1)
        memo[board] = result
        return result

    value("." * (rows * cols))
    return memo
