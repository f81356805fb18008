"""Reads boardbase table files with the standard library: versions 3, 5
(one entry a class of symmetric positions), 6 (a game's table, one entry a
canonical position) and 2 (mapped with mmap, any board shape) and version 1
(the 4x4 exports of earlier releases); version 4 (compressed columns, and
version 5's and 6's when compressed) needs Zstandard too: Python 3.14's
compression.zstd, or the zstandard package from PyPI.

python3 read_table.py FILE...  checks every CRC, then prints one line per
column: puzzle, column name, then every entry (entry i of a per-board column
is for the board whose bits are i; in version 5, for a class of positions:
Table.entry gives a board's); for version 5, one more line: puzzle,
winning_by_board (Euler) or rounds_by_board (Flip), then that column's
entry of every board in turn; for version 6, one more line: the game,
outcome_by_index, then the outcome of every position index in turn (0 where
an index has no entry: Table.outcome_at gives it).
"""
import bisect
import mmap
import os
import struct
import sys
import zlib


class Column:
    """A column's entries, read from the file's bytes when indexed. In
    version 3 each block is checked against its CRC when first read."""

    def __init__(self, name, data, width, entries):
        self.name, self.data, self.width, self.entries = name, data, width, entries
        self.block_len, self.block_crcs, self.checked = 0, None, set()

    def __len__(self):
        return self.entries

    def __getitem__(self, i):
        if not 0 <= i < self.entries:
            raise IndexError(i)
        n = self.width // 8
        if self.block_crcs is not None:
            self.check((i // 8 if self.width == 1 else i * n) // self.block_len)
        if self.width == 1:  # packed, least significant bit first
            return self.data[i // 8] >> (i % 8) & 1
        return int.from_bytes(self.data[i * n:(i + 1) * n], "little")

    def check(self, k):
        """Checks block k against its CRC (version 3), once."""
        if k not in self.checked:
            start = k * self.block_len
            (stored,) = struct.unpack_from("<I", self.block_crcs, 4 * k)
            if zlib.crc32(self.data[start:start + self.block_len]) != stored:
                raise ValueError(f"column {self.name}, block {k}: CRC mismatch (the block is damaged)")
            self.checked.add(k)


def zstd_decompressor(dictionary):
    """A function that decompresses one block of a compressed column (at most
    `size` bytes) with the column's dictionary (empty: none)."""
    try:
        from compression import zstd  # Python 3.14
        d = zstd.ZstdDict(bytes(dictionary)) if len(dictionary) else None
        return lambda block, size: zstd.decompress(bytes(block), zstd_dict=d)
    except ImportError:
        import zstandard  # pip install zstandard
        d = zstandard.ZstdCompressionDict(bytes(dictionary)) if len(dictionary) else None
        z = zstandard.ZstdDecompressor(dict_data=d) if d else zstandard.ZstdDecompressor()
        return lambda block, size: z.decompress(bytes(block), max_output_size=size)


class PackedColumn(Column):
    """A compressed column (version 4): entries are read from the block that
    holds them, checked against its CRC and decompressed."""

    def __init__(self, name, stored, width, entries, block_len, index):
        super().__init__(name, None, width, entries)
        self.stored, self.block_len, self.blocks = stored, block_len, {}
        count = -(-(entries * width // 8 if width > 1 else -(-entries // 8)) // block_len)
        self.starts = struct.unpack_from(f"<{count + 1}Q", index)
        self.block_crcs = struct.unpack_from(f"<{count + 1}I", index, 8 * (count + 1))
        dictionary = stored[:self.starts[0]]
        if zlib.crc32(dictionary) != self.block_crcs[count]:
            raise ValueError(f"column {name}: dictionary CRC mismatch (the file is damaged)")
        self.length = entries * width // 8 if width > 1 else -(-entries // 8)
        self.unpack = zstd_decompressor(dictionary)

    def __getitem__(self, i):
        if not 0 <= i < self.entries:
            raise IndexError(i)
        n = self.width // 8
        at = i // 8 if self.width == 1 else i * n
        data = self.check(at // self.block_len)
        at %= self.block_len
        if self.width == 1:
            return data[at] >> (i % 8) & 1
        return int.from_bytes(data[at:at + n], "little")

    def check(self, k):
        """Block k, checked against its CRC and decompressed, once."""
        if k not in self.blocks:
            block = self.stored[self.starts[k]:self.starts[k + 1]]
            if zlib.crc32(block) != self.block_crcs[k]:
                raise ValueError(f"column {self.name}, block {k}: CRC mismatch (the block is damaged)")
            size = min(self.block_len, self.length - k * self.block_len)
            data = self.unpack(block, size)
            if len(data) != size:
                raise ValueError(f"column {self.name}, block {k}: {len(data)} bytes, not {size}")
            self.blocks[k] = data
        return self.blocks[k]


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
        self.pos, self.crcs, self.columns, self.version = 16, {}, {}, version
        self.symmetries = self.key = self.rest = None
        if version == 1:
            return self.read_v1(path, data)
        if version not in (2, 3, 4, 5, 6) or size < 20 + n:
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
            column = Column(name, data[offset:offset + length], width, entries)
            if version >= 3:  # then the CRC is the block-CRC array's
                column.block_len, crcs = self.take(data, "<IQ")
                blocks = -(-length // column.block_len)
                column.block_crcs = data[crcs:crcs + 4 * blocks]
            if version >= 4 and self.take(data, "<B")[0] == 1:  # compressed
                blocks = -(-(entries * width // 8 if width > 1 else -(-entries // 8)) // column.block_len)
                index = data[crcs:crcs + 12 * (blocks + 1)]
                if zlib.crc32(index) != crc:
                    raise ValueError(f"{path}: column {name}: index CRC mismatch")
                column = PackedColumn(name, data[offset:offset + length], width, entries,
                                      column.block_len, index)
            self.columns[name] = column
            self.crcs[name] = crc
        if version == 5:  # the index: symmetries, then key cells
            (count,) = self.take(data, "<Q")
            self.symmetries = [self.bytes(data) for _ in range(count)]
            self.key = self.bytes(data)
            self.rest = [c for c in range(self.rows * self.cols) if c not in self.key]

    def entry(self, board):
        """The entry of a per-board column that answers `board`: the board
        itself, or in version 5 its class's entry (the symmetry g whose
        image of the key pattern is the smallest, the first on ties; the
        class of that canonical pattern, found in `classes`; then the rest
        pattern of g(board))."""
        if self.key is None:
            return board
        def pattern(b, cells):  # bit i: cell cells[i]
            return sum((b >> c & 1) << i for i, c in enumerate(cells))
        images = [sum(1 << g[c] for c in range(len(g)) if board >> c & 1) for g in self.symmetries]
        keys = [pattern(image, self.key) for image in images]
        g = keys.index(min(keys))
        klass = bisect.bisect_left(self.columns["classes"], keys[g])
        return klass << len(self.rest) | pattern(images[g], self.rest)

    def outcome_at(self, i):
        """Version 6: the outcome entry of a game's position index i, 0 when
        it has none. Bit i of `canonical` says whether it has one; its entry
        is then canonical_rank[i // 512] plus the 1 bits of `canonical` from
        i - i % 512 to i - 1."""
        canonical = self.columns["canonical"]
        if not canonical[i]:
            return 0
        rank = self.columns["canonical_rank"][i // 512]
        rank += sum(canonical[j] for j in range(i - i % 512, i))
        return self.columns["outcome"][rank]

    def bytes(self, data):  # u64 length, then that many bytes
        (n,) = self.take(data, "<Q")
        self.pos += n
        return list(data[self.pos - n:self.pos])

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
            self.columns[name] = Column(name, raw, 8 * width, length // width)

    def verify(self):
        """Checks every CRC: in version 3 each column's block-CRC array,
        then every block; in version 2 each column (version 1: checked
        when read)."""
        for name, crc in self.crcs.items():
            column = self.columns[name]
            if isinstance(column, PackedColumn):  # its index was checked at open
                for k in range(len(column.starts) - 1):
                    column.check(k)
                continue
            if column.block_crcs is None:
                if zlib.crc32(column.data) != crc:
                    raise ValueError(f"column {name}: CRC mismatch")
                continue
            if zlib.crc32(column.block_crcs) != crc:
                raise ValueError(f"column {name}: block-CRC array CRC mismatch")
            for k in range(len(column.block_crcs) // 4):
                column.check(k)


if __name__ == "__main__":
    for path in sys.argv[1:]:
        table = Table(path)
        table.verify()
        for name, column in table.columns.items():
            print(table.puzzle, name, *column)
        if table.key is not None:  # version 5: the first column, by board
            name = "winning" if table.puzzle == "euler" else "rounds"
            column = table.columns[name]
            boards = range(1 << table.rows * table.cols)
            print(table.puzzle, name + "_by_board", *(column[table.entry(b)] for b in boards))
        if table.version == 6:  # a game's table: the outcome of every index
            indices = range(len(table.columns["canonical"]))
            print(table.puzzle, "outcome_by_index", *(table.outcome_at(i) for i in indices))
