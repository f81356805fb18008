"""Compressed table files (version 4, `boardbase compress`): boardbase.Table
answers from them as from the version-3 file they were made from, refuses
to give a compressed column as a view of the file, and the docs' reader
(tests/read_table.py, with the zstandard package) reads and checks them."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
from pathlib import Path
from types import ModuleType
from typing import Tuple

import numpy
import pytest

import boardbase
from test_tables import boardbase_bin  # noqa: F401  (the fixture)

READER = Path(__file__).resolve().parents[2] / "tests" / "read_table.py"


def reader() -> ModuleType:
    spec = importlib.util.spec_from_file_location("read_table", READER)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Tuple[Path, Path]:
    """An Euler 4x5 table file, and its compressed copy."""
    from test_tables import cli

    binary = cli()
    if binary is None:
        pytest.skip("no boardbase binary built (cargo build -p boardbase-cli)")
    raw = tmp_path_factory.mktemp("raw")
    subprocess.run([str(binary), "generate", "euler", "4x5", "--dir", str(raw)], check=True, capture_output=True)
    packed = tmp_path_factory.mktemp("packed")
    shutil.copy(raw / "euler-4x5.bin", packed / "euler-4x5.bin")
    out = subprocess.run(
        [str(binary), "compress", str(packed / "euler-4x5.bin")], check=True, capture_output=True, text=True
    ).stdout
    assert "version 4; winning " in out
    return raw / "euler-4x5.bin", packed / "euler-4x5.bin"


def test_the_probes_answer_as_from_the_version_3_file(files: Tuple[Path, Path]) -> None:
    raw, packed = boardbase.Table.open(files[0]), boardbase.Table.open(files[1])
    assert (raw.version, packed.version) == (3, 4)
    assert files[1].stat().st_size * 4 < files[0].stat().st_size
    positions = numpy.arange(1 << 20, dtype=numpy.uint64)
    assert (packed.euler_winning(positions) == raw.euler_winning(positions)).all()
    assert (packed.euler_moves_left(positions) == raw.euler_moves_left(positions)).all()
    # The moves column is small and stays a view; the compressed ones are not.
    assert len(packed.column("moves")) == len(raw.column("moves"))
    with pytest.raises(boardbase.TableFileError, match="'plies' is compressed"):
        packed.column("plies")


def test_the_docs_reader_reads_and_checks_version_4(files: Tuple[Path, Path]) -> None:
    pytest.importorskip("zstandard")
    read_table = reader()
    raw, packed = read_table.Table(str(files[0])), read_table.Table(str(files[1]))
    packed.verify()
    for name in ("winning", "plies", "best_move", "moves"):
        a, b = raw.columns[name], packed.columns[name]
        assert len(a) == len(b)
        assert all(a[i] == b[i] for i in range(0, len(a), 97)), name
    # A damaged block of `plies` is refused by its CRC when it is read.
    data = bytearray(files[1].read_bytes())
    column = packed.columns["plies"]
    block = bytes(column.stored[column.starts[1] : column.starts[2]])
    at = data.find(block)
    assert at > 0 and data.find(block, at + 1) == -1
    data[at + len(block) // 2] ^= 0xFF
    damaged = files[1].parent / "damaged.bin"
    damaged.write_bytes(bytes(data))
    table = read_table.Table(str(damaged))
    assert table.columns["plies"][0] == raw.columns["plies"][0]
    with pytest.raises(ValueError, match="plies, block 1: CRC mismatch"):
        table.columns["plies"][column.block_len]


def test_generate_compress_writes_what_compress_writes(files: Tuple[Path, Path], tmp_path: Path) -> None:
    summary = boardbase.generate("euler", "4x5", dir=tmp_path, compress=True)
    made = tmp_path / "euler-4x5.bin"
    assert made.read_bytes() == files[1].read_bytes()
    assert summary["file_bytes"] == files[1].stat().st_size
    assert summary["uncompressed_bytes"] == files[0].stat().st_size
    assert boardbase.Table.open(made).version == 4
    plain = boardbase.generate("euler", "3x3", dir=tmp_path)
    assert "uncompressed_bytes" not in plain
    with pytest.raises(TypeError, match="compress: expected True or False, not int"):
        boardbase.generate("euler", "3x3", dir=tmp_path, compress=1)  # type: ignore[arg-type]


def test_the_docs_reader_reads_a_game_table_of_version_6_compressed(tmp_path: Path) -> None:
    """A game's table (version 6: one entry a legal canonical position)
    compressed by `boardbase compress` keeps its version and reads as the
    raw file does, through the docs' reader."""
    pytest.importorskip("zstandard")
    from test_tables import cli

    binary = cli()
    if binary is None:
        pytest.skip("no boardbase binary built (cargo build -p boardbase-cli)")
    raw = tmp_path / "raw"
    packed = tmp_path / "packed"
    name = "mnk-3x4-k3.bin"
    subprocess.run(
        [str(binary), "generate", "mnk", "3x4", "--k", "3", "--dir", str(raw)], check=True, capture_output=True
    )
    packed.mkdir()
    shutil.copy(raw / name, packed / name)
    subprocess.run([str(binary), "compress", str(packed / name)], check=True, capture_output=True)
    read_table = reader()
    a, b = read_table.Table(str(raw / name)), read_table.Table(str(packed / name))
    assert (a.version, b.version) == (6, 6)
    b.verify()
    assert isinstance(b.columns["canonical"], read_table.PackedColumn)
    for column in ("canonical", "canonical_rank", "outcome"):
        x, y = a.columns[column], b.columns[column]
        assert len(x) == len(y) and all(x[i] == y[i] for i in range(len(x))), column
    # 3^12 indices; 28,330 legal canonical positions have an entry.
    assert len(a.columns["canonical"]) == 531_441 and len(a.columns["outcome"]) == 28_330
    for i in range(0, 531_441, 997):
        assert a.outcome_at(i) == b.outcome_at(i), i
    # The empty board, index 0, is won in 7 for X: 1 << 14 | 7.
    assert b.outcome_at(0) == 1 << 14 | 7
