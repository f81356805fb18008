"""Reads boardbase table files (layout version 1) with the standard library.

python3 read_table.py FILE...  prints one line per column: puzzle, column
name, then the 65,536 entries (entry i is for the board whose bits are i).
"""
import struct
import sys
import zlib


def read_table(path):
    """Returns (puzzle, rows, cols, {column name: list of entries})."""
    data = open(path, "rb").read()
    body, (crc,) = data[:-4], struct.unpack("<I", data[-4:])
    if zlib.crc32(body) != crc:
        raise ValueError(f"{path}: CRC mismatch")
    pos = 0

    def take(fmt):
        nonlocal pos
        values = struct.unpack_from(fmt, body, pos)
        pos += struct.calcsize(fmt)
        return values

    def blob():  # u64 length, then that many bytes
        (n,) = take("<Q")
        return take(f"{n}s")[0]

    magic, version = take("<8sI")
    if magic != b"BRDBASE\0" or version != 1:
        raise ValueError(f"{path}: not a version 1 boardbase table file")
    puzzle = blob().decode()
    rows, cols, count = take("<BBQ")
    columns = {}
    for _ in range(count):
        name = blob().decode()
        (width,) = take("<B")
        raw = blob()
        code = {1: "B", 2: "H", 4: "I", 8: "Q"}[width]
        columns[name] = list(struct.unpack(f"<{len(raw) // width}{code}", raw))
    return puzzle, rows, cols, columns


if __name__ == "__main__":
    for path in sys.argv[1:]:
        puzzle, rows, cols, columns = read_table(path)
        for name, values in columns.items():
            print(puzzle, name, *values)
