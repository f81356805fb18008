#!/usr/bin/env python3
"""Writes large, deterministic judge inputs for benchmarking the CLI.

    python3 benches/inputs.py SUBCOMMAND CASES OUTPUT [--family F] [--seed N]

SUBCOMMAND is flip, euler, carcassonne or fliptile; OUTPUT is a path or - for
standard output. The same arguments always give the same bytes.

- flip: CASES random boards, 4 lines of 4 b/w each, no blank lines
  (20 bytes a board: 10,000,000 boards are 200 MB).
- euler: the count CASES, then CASES random positions of 4 lines of X/.,
  a blank line before each (21 bytes a case: 9,500,000 are 199.5 MB).
- carcassonne: the count CASES, then CASES boards of 12x12 tiles, "12 12"
  and 12 lines of 12 space-separated codes (726 bytes a case: 275,000 are
  199.65 MB). --family random (default: every tile uniform over the 81
  codes), planted (random colours on every grid edge, each tile shown in a
  random rotation, so a valid placement exists) or two-pair (rotations of
  RRFF).
- fliptile: CASES cases back to back, each "N N" and N lines of N random
  0/1 separated by single spaces; N is --size (default 15, POJ 3279's
  largest: 456 bytes a case).

Standard library only.
"""

import argparse
import array
import random
import sys

CHUNK = 1 << 16  # cases generated per write


def u16s(rng, n):
    """n random 16-bit numbers, the same on every platform."""
    values = array.array("H", rng.randbytes(2 * n))
    if sys.byteorder == "big":
        values.byteswap()
    return values


def grids(one, zero, prefix=b""):
    """The text of all 65,536 4x4 grids (bit 4*row+col set = `one`)."""
    rows = [
        bytes(one if bits >> col & 1 else zero for col in range(4)) + b"\n"
        for bits in range(16)
    ]
    return [
        prefix + b"".join(rows[board >> (4 * r) & 0xF] for r in range(4))
        for board in range(1 << 16)
    ]


def write_grids(out, rng, cases, text):
    done = 0
    while done < cases:
        n = min(CHUNK, cases - done)
        out.write(b"".join(map(text.__getitem__, u16s(rng, n))))
        done += n


SIDE = 12
LETTERS = b"CRF"
# All 81 codes, index = base-3 digits (top first).
CODES = [
    bytes(LETTERS[i // 3**k % 3] for k in range(4)) for i in range(81)
]


def turned(code, k):
    """`code` turned k quarter turns clockwise (the left edge comes to the top)."""
    k %= 4
    return code[4 - k:] + code[:4 - k]


def random_tiles(rng):
    """SIDE*SIDE indices into CODES, uniform (bytes >= 243 are dropped)."""
    tiles = b""
    while len(tiles) < SIDE * SIDE:
        tiles += rng.randbytes(SIDE * SIDE).translate(None, bytes(range(243, 256)))
    return [CODES[b % 81] for b in tiles[: SIDE * SIDE]]


def planted_tiles(rng):
    horizontal = rng.choices(LETTERS, k=(SIDE + 1) * SIDE)
    vertical = rng.choices(LETTERS, k=SIDE * (SIDE + 1))
    tiles = []
    for r in range(SIDE):
        for c in range(SIDE):
            code = bytes(
                (
                    horizontal[r * SIDE + c],
                    vertical[r * (SIDE + 1) + c + 1],
                    horizontal[(r + 1) * SIDE + c],
                    vertical[r * (SIDE + 1) + c],
                )
            )
            tiles.append(turned(code, rng.randrange(4)))
    return tiles


TWO_PAIR = [turned(b"RRFF", k) for k in range(4)]


def two_pair_tiles(rng):
    return [TWO_PAIR[b & 3] for b in rng.randbytes(SIDE * SIDE)]


FAMILIES = {"random": random_tiles, "planted": planted_tiles, "two-pair": two_pair_tiles}


def write_carcassonne(out, rng, cases, family):
    make = FAMILIES[family]
    header = b"%d %d\n" % (SIDE, SIDE)
    done = 0
    while done < cases:
        n = min(CHUNK // 64, cases - done)
        parts = []
        for _ in range(n):
            tiles = make(rng)
            parts.append(header)
            for r in range(SIDE):
                parts.append(b" ".join(tiles[r * SIDE:(r + 1) * SIDE]) + b"\n")
        out.write(b"".join(parts))
        done += n


def write_fliptile(out, rng, cases, size):
    header = b"%d %d\n" % (size, size)
    rows = [
        b" ".join(b"1" if bits >> c & 1 else b"0" for c in range(size)) + b"\n"
        for bits in range(1 << size)
    ]
    for _ in range(cases):
        out.write(header + b"".join(rows[rng.getrandbits(size)] for _ in range(size)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("subcommand", choices=["flip", "euler", "carcassonne", "fliptile"])
    parser.add_argument("cases", type=int)
    parser.add_argument("output")
    parser.add_argument("--family", choices=sorted(FAMILIES), default="random")
    parser.add_argument("--seed", type=int, default=4064)
    parser.add_argument("--size", type=int, default=15, help="fliptile: the side N (1 to 16)")
    args = parser.parse_args()
    if args.cases < 0:
        parser.error("CASES must be at least 0")
    rng = random.Random(args.seed)
    out = sys.stdout.buffer if args.output == "-" else open(args.output, "wb")
    with out:
        if args.subcommand == "flip":
            write_grids(out, rng, args.cases, grids(ord("b"), ord("w")))
        elif args.subcommand == "fliptile":
            if not 1 <= args.size <= 16:
                parser.error("--size must be from 1 to 16")
            write_fliptile(out, rng, args.cases, args.size)
        elif args.subcommand == "euler":
            out.write(b"%d\n" % args.cases)
            write_grids(out, rng, args.cases, grids(ord("X"), ord("."), b"\n"))
        else:
            out.write(b"%d\n" % args.cases)
            write_carcassonne(out, rng, args.cases, args.family)


if __name__ == "__main__":
    main()
