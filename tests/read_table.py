"""Reads boardbase table files with the standard library: version 2 (mapped
with mmap, any board shape) and version 1 (the 4x4 exports of earlier releases).

python3 read_table.py FILE...  checks every CRC, then prints one line per
column: puzzle, column name, then every entry (entry i of a per-board column
is for the board whose bits are i).
"""
import mmap
import os
import struct
import sys
import zlib


class Column:
    """A column's entries, read from the file's bytes when indexed."""

    def __init__(self, data, width, entries):
        self.data, self.width, self.entries = data, width, entries

    def __len__(self):
        return self.entries

    def __getitem__(self, i):
        if not 0 <= i < self.entries:
            raise IndexError(i)
        if self.width == 1:  # packed, least significant bit first
            return self.data[i // 8] >> (i % 8) & 1
        n = self.width // 8
        return int.from_bytes(self.data[i * n:(i + 1) * n], "little")


class Table:
    """A table file: puzzle, rows, cols, columns ({name: Column})."""

    def __init__(self, path):
        with open(path, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            if size < 16:
                raise ValueError(f"{path}: truncated ({size} bytes)")
            data = memoryview(mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ))
        magic, version, n = struct.unpack_from("<8sII", data)
        if magic != b"BRDBASE\0":
            raise ValueError(f"{path}: not a boardbase table file")
        self.pos, self.crcs, self.columns = 16, {}, {}
        if version == 1:
            return self.read_v1(path, data)
        if version != 2 or size < 20 + n:
            raise ValueError(f"{path}: unsupported version {version} or truncated")
        if zlib.crc32(data[:16 + n]) != struct.unpack_from("<I", data, 16 + n)[0]:
            raise ValueError(f"{path}: header CRC mismatch")
        self.puzzle = self.string(data)
        self.rows, self.cols, file_len, count = self.take(data, "<BBQQ")
        if size != file_len:
            raise ValueError(f"{path}: {size} bytes, the header says {file_len} (truncated?)")
        for _ in range(count):
            name = self.string(data)
            width, entries, offset, length, crc = self.take(data, "<BQQQI")
            self.columns[name] = Column(data[offset:offset + length], width, entries)
            self.crcs[name] = crc

    def take(self, data, fmt):
        values = struct.unpack_from(fmt, data, self.pos)
        self.pos += struct.calcsize(fmt)
        return values

    def string(self, data):  # u64 length, then UTF-8
        (n,) = self.take(data, "<Q")
        self.pos += n
        return bytes(data[self.pos - n:self.pos]).decode()

    def read_v1(self, path, data):  # body, then the body's CRC
        if zlib.crc32(data[:-4]) != struct.unpack_from("<I", data, len(data) - 4)[0]:
            raise ValueError(f"{path}: CRC mismatch")
        self.pos = 12
        self.puzzle = self.string(data)
        self.rows, self.cols, count = self.take(data, "<BBQ")
        for _ in range(count):
            name = self.string(data)
            (width,) = self.take(data, "<B")
            (length,) = self.take(data, "<Q")
            self.pos += length
            raw = data[self.pos - length:self.pos]
            self.columns[name] = Column(raw, 8 * width, length // width)

    def verify(self):
        """Checks every column's CRC-32 (version 1: checked when read)."""
        for name, crc in self.crcs.items():
            if zlib.crc32(self.columns[name].data) != crc:
                raise ValueError(f"column {name}: CRC mismatch")


if __name__ == "__main__":
    for path in sys.argv[1:]:
        table = Table(path)
        table.verify()
        for name, column in table.columns.items():
            print(table.puzzle, name, *column)
