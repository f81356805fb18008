"""boardbase.Table: a table file written by the CLI, mapped from Python:
its columns as zero-copy views, the vectorised probes against the
independent oracles (tests/oracles.py), the 1-bit unpacking helper, and
memory that does not grow past the mapping."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import numpy
import pytest

import boardbase
from oracles import euler_solve, flip_bfs
from test_tables import boardbase_bin  # noqa: F401  (the fixture)


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from test_tables import cli

    binary = cli()
    if binary is None:
        pytest.skip("no boardbase binary built (cargo build -p boardbase-cli)")
    out = tmp_path_factory.mktemp("tables")
    for args in (["euler", "3x4"], ["euler", "4x4", "--wdl-only"], ["flip", "3x4"]):
        subprocess.run([str(binary), "generate", *args, "--dir", str(out)], check=True, capture_output=True)
    return out


def test_euler_columns_are_views_of_the_mapping(tables: Path) -> None:
    win, left = euler_solve(3, 4)
    with boardbase.Table.open(tables / "euler-3x4.bin") as table:
        assert (table.puzzle, table.rows, table.cols, table.wdl_only) == ("euler", 3, 4, False)
        assert list(table.columns) == ["winning", "plies", "best_move", "moves"]
        assert table.columns["plies"].entries == 1 << 12
        plies = numpy.asarray(table.column("plies"))
        # Zero-copy: the array's memory is the file's mapping.
        assert isinstance(plies.base, memoryview)
        assert type(plies.base.obj).__name__ == "mmap"
        assert not plies.flags.writeable
        assert plies.dtype == numpy.uint8 and len(plies) == 1 << 12
        winning = boardbase.unpack_bits(table.column("winning"), 1 << 12)
        assert winning.tolist() == win
        # The plies column holds moves left from every position.
        assert plies.tolist() == left
        positions = numpy.arange(1 << 12, dtype=numpy.uint64)
        assert table.euler_winning(positions).tolist() == win
        assert table.euler_moves_left(positions).tolist() == left
        # Any shape of array, any integer type, answers in that shape.
        grid = numpy.arange(12, dtype=numpy.int32).reshape(3, 4)
        assert table.euler_winning(grid).tolist() == [win[i : i + 4] for i in range(0, 12, 4)]
        assert table.euler_winning([5, 6]).tolist() == win[5:7]
        moves = numpy.asarray(table.column("moves"))
        assert moves.dtype == numpy.uint64 and len(moves) == table.columns["moves"].entries


def test_wdl_only_tables_have_no_moves_left(tables: Path) -> None:
    win, _ = euler_solve(4, 4)
    with boardbase.Table.open(tables / "euler-4x4.bin") as table:
        assert table.wdl_only and "plies" not in table.columns
        positions = numpy.arange(1 << 16, dtype=numpy.uint64)
        assert table.euler_winning(positions).tolist() == win
        assert set(table.euler_moves_left(positions[:100]).tolist()) == {-1}
        with pytest.raises(KeyError, match="no column 'plies'"):
            table.column("plies")


def test_flip_rounds_match_the_breadth_first_search(tables: Path) -> None:
    white, black = flip_bfs(3, 4)
    expected = [min(x for x in (w, b) if x >= 0) if max(w, b) >= 0 else -1 for w, b in zip(white, black)]
    with boardbase.Table.open(tables / "flip-3x4.bin") as table:
        boards = numpy.arange(1 << 12, dtype=numpy.uint64)
        assert table.flip_rounds(boards).tolist() == expected
        rounds = numpy.asarray(table.column("rounds"))
        assert [(-1 if r == 255 else int(r)) for r in rounds] == expected


def test_probe_errors(tables: Path) -> None:
    with boardbase.Table.open(tables / "euler-3x4.bin") as table:
        with pytest.raises(boardbase.OptionError, match=r"positions\[2\]"):
            table.euler_winning(numpy.array([0, 1, 1 << 12], dtype=numpy.uint64))
        with pytest.raises(boardbase.OptionError, match="negative"):
            table.euler_winning(numpy.array([0, -1]))
        with pytest.raises(boardbase.OptionError, match="integers"):
            table.euler_winning(numpy.array([0.5]))
        with pytest.raises(boardbase.OptionError, match="euler, not flip"):
            table.flip_rounds(numpy.array([0], dtype=numpy.uint64))
        view = table.column("plies")
    # Closed: a live view keeps its memory; new views are refused.
    assert view[0] == euler_solve(3, 4)[1][0]
    with pytest.raises(boardbase.TableFileError, match="closed"):
        table.column("plies")


def test_bad_files_raise_os_errors(tmp_path: Path) -> None:
    with pytest.raises(boardbase.TableFileError) as caught:
        boardbase.Table.open(tmp_path / "euler-3x4.bin")
    assert isinstance(caught.value, OSError)
    bad = tmp_path / "euler-3x4.bin"
    bad.write_bytes(b"not a table at all" * 10)
    with pytest.raises(boardbase.TableFileError) as caught:
        boardbase.Table.open(bad)
    assert caught.value.filename == str(bad)


def test_a_damaged_block_raises_table_file_error(tables: Path, tmp_path: Path) -> None:
    # The 4x4 win/loss table: `winning` is two blocks of 4 KiB, the second
    # the positions with square (3,3) covered. One byte of it damaged.
    data = bytearray((tables / "euler-4x4.bin").read_bytes())
    with boardbase.Table.open(tables / "euler-4x4.bin") as table:
        offset = table.columns["winning"].offset
        intact = table.euler_winning(5)
    assert offset is not None
    data[offset + 4096 + 7] ^= 1
    bad = tmp_path / "euler-4x4.bin"
    bad.write_bytes(bytes(data))
    with boardbase.Table.open(bad) as table:
        with pytest.raises(boardbase.TableFileError, match=r"block 1 \(bytes \d+\.\.\d+ of the file\)") as caught:
            table.euler_winning(1 << 15)
        assert caught.value.filename == str(bad)
        with pytest.raises(boardbase.TableFileError, match=r"positions\[1\]: .*block 1"):
            table.euler_winning(numpy.array([5, 40000], dtype=numpy.uint64))
        # The other block still answers.
        assert table.euler_winning(5) == intact


def test_a_whole_table_through_numpy_stays_in_the_mapping(boardbase_bin: Path, tmp_path: Path) -> None:
    # 2^25 positions of Euler 5x5 (68 MiB of file), in a fresh process (run
    # from tmp_path: the installed boardbase, not the source directory):
    # its resident memory grows by at most the file plus the 1M-entry
    # chunks, never by a copy of the table.
    subprocess.run(
        [str(boardbase_bin), "generate", "euler", "5x5", "--dir", str(tmp_path)], check=True, capture_output=True
    )
    path = tmp_path / "euler-5x5.bin"
    script = textwrap.dedent(
        f"""
        import numpy, boardbase

        def rss():
            with open("/proc/self/status") as f:
                return next(int(l.split()[1]) * 1024 for l in f if l.startswith("VmRSS:"))

        with boardbase.Table.open({str(path)!r}) as table:
            before = rss()
            plies = numpy.asarray(table.column("plies"))
            wins = 0
            step = 1 << 20
            for start in range(0, 1 << 25, step):
                positions = numpy.arange(start, start + step, dtype=numpy.uint64)
                wins += int(table.euler_winning(positions).sum())
                assert int(plies[start:start + step].max()) <= 25
            grown = rss() - before
        print(wins, grown)
        """
    )
    out = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, check=True, capture_output=True, text=True).stdout.split()
    wins, grown = int(out[0]), int(out[1])
    assert 0 < wins < 1 << 25
    assert grown < path.stat().st_size + (48 << 20), f"grew by {grown} bytes"
