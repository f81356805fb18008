"""Every error type: Python's own classes, line and column, the command
that makes a missing table, and no panic crossing into Python."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Callable

import pytest

import boardbase
from boardbase import (
    BoardError,
    Error,
    InternalError,
    MissingTableError,
    NullityError,
    OptionError,
    ShapeError,
    TableFileError,
)


@pytest.mark.parametrize(
    "call,line,column",
    [
        (lambda: boardbase.flip("bwwb/bbxb/bwwb/bwww"), 1, 8),
        (lambda: boardbase.flip("bwwb\nbbwb\nbwXb\nbwww"), 3, 3),
        (lambda: boardbase.flip(["bwwb", "bbwb", "bwwb", "bwwq"]), 4, 4),
        (lambda: boardbase.flip([[0, 1], [2, 0]]), 2, 1),
        (lambda: boardbase.flip("bwwb/bbw/bwwb/bwww"), 1, 9),
        (lambda: boardbase.flip("bwwb/bbwb/bwwb/bwww", size="5x5"), 1, 5),
        (lambda: boardbase.flip(""), 1, 1),
        (lambda: boardbase.euler("XXXX/...X/XX#X/XX.X"), 1, 13),
        (lambda: boardbase.euler("X" * 65), 1, 65),
        (lambda: boardbase.lights("1012"), 1, 4),
        (lambda: boardbase.lights([[1, 0], [0, None]]), 2, 2),
        (lambda: boardbase.carcassonne(2, 2, ["RRRF", "FCCC", "RRRR", "CCXC"]), 2, 2),
    ],
)
def test_board_errors_say_where(call: Callable[[], Any], line: int, column: int) -> None:
    with pytest.raises(BoardError) as caught:
        call()
    e = caught.value
    assert isinstance(e, ValueError) and isinstance(e, Error)
    assert (e.line, e.column) == (line, column)
    assert f":{line}:{column}:" in str(e)


def test_numpy_board_error() -> None:
    np = pytest.importorskip("numpy")
    with pytest.raises(BoardError) as caught:
        boardbase.flip(np.array([[0, 1], [1, 3]]))
    assert (caught.value.line, caught.value.column) == (2, 2)
    with pytest.raises(ShapeError):
        boardbase.flip(np.zeros((2, 2, 2)))


def test_shape_and_option_errors() -> None:
    with pytest.raises(ShapeError):
        boardbase.flip("bwwb/bbwb/bwwb/bwww", size="4by4")
    with pytest.raises(ShapeError):
        boardbase.carcassonne(2, 2, ["RRRR"])
    with pytest.raises(OptionError):
        boardbase.lights("10/01", goal="grey")
    with pytest.raises(OptionError):
        boardbase.Tablebase(make_memory="lots")
    with pytest.raises(OptionError):
        boardbase.lights("10/01", max_nullity=65)
    for e in (ShapeError, OptionError):
        assert issubclass(e, ValueError)


def test_nullity_error() -> None:
    with pytest.raises(NullityError) as caught:
        boardbase.lights("1001/0110/0110/1001", max_nullity=3)
    assert (caught.value.nullity, caught.value.max_nullity) == (4, 3)
    with pytest.raises(NullityError) as big:
        boardbase.flip("/".join(["w" * 64] * 64))
    assert (big.value.nullity, big.value.max_nullity) == (28, 24)
    assert isinstance(big.value, ValueError)


def test_missing_table_names_the_command(tmp_path: Path) -> None:
    board = "/".join(["......"] * 5)
    with pytest.raises(MissingTableError) as caught:
        boardbase.euler(board)
    e = caught.value
    assert isinstance(e, KeyError)
    assert e.command == "boardbase generate euler 5x6 --dir my-tables"
    assert (e.puzzle, e.size) == ("euler", "5x6")
    assert "make it with: boardbase generate euler 5x6 --dir my-tables" in str(e)
    with pytest.raises(KeyError) as there:
        boardbase.euler(board, tables=str(tmp_path))
    assert isinstance(there.value, MissingTableError)
    assert there.value.command == f"boardbase generate euler 5x6 --dir {tmp_path}"
    assert str(there.value) == (
        f"no euler 5x6 table: no euler-5x6.bin in {tmp_path}, and 30 squares are too many to make it"
        f" in memory (at most 25); make it with: boardbase generate euler 5x6 --dir {tmp_path}"
    )


def test_missing_table_messages_name_the_options() -> None:
    # The library's sentence, with Tablebase's arguments for the options.
    with pytest.raises(MissingTableError) as caught:
        boardbase.euler("/".join(["......"] * 5))
    assert str(caught.value) == (
        "no euler 5x6 table: no table directory given (tables=DIR, or BOARDBASE_TABLES),"
        " and 30 squares are too many to make it in memory (at most 25);"
        ' make it with: boardbase generate euler 5x6 --dir my-tables, then pass tables="my-tables"'
    )
    with pytest.raises(MissingTableError) as off:
        boardbase.Tablebase(make_memory=0).euler("..../..../....")
    assert "and no tables are made in memory here (make_memory=0)" in str(off.value)
    assert (off.value.puzzle, off.value.size) == ("euler", "3x4")
    with pytest.raises(MissingTableError) as over:
        boardbase.Tablebase(make_memory="1M").euler("/".join(["....."] * 5))
    assert "over the budget of 1.00 MiB (make_memory)" in str(over.value)
    assert over.value.command == "boardbase generate euler 5x5 --dir my-tables"
    # The cases of a size: the same error.
    with pytest.raises(MissingTableError) as cases:
        boardbase.Tablebase(make_memory=0).cases("euler", 1, size="3x4")
    assert str(cases.value) == str(off.value)


def test_file_errors(tmp_path: Path) -> None:
    (tmp_path / "euler-3x3.bin").write_bytes(b"not a table")
    (tmp_path / "flip-5x5.bin").write_bytes(b"\0" * 100)
    tb = boardbase.Tablebase([tmp_path])
    with pytest.raises(TableFileError) as euler:
        tb.euler("XXX/.../...")
    assert isinstance(euler.value, OSError)
    assert euler.value.filename == str(tmp_path / "euler-3x3.bin")
    assert euler.value.size == "3x3"
    assert str(euler.value).startswith(f"{tmp_path / 'euler-3x3.bin'}: ")
    assert str(euler.value).endswith(
        f": no euler 3x3 board is answered until the file is replaced; make it with: boardbase generate euler 3x3 --dir {tmp_path}"
    )
    # The cases of its size: the same error.
    with pytest.raises(TableFileError) as cases:
        tb.cases("euler", 1, size="3x3")
    assert (str(cases.value), cases.value.filename) == (str(euler.value), euler.value.filename)
    with pytest.raises(OSError):
        tb.flip("/".join(["wwwww"] * 5))
    # Other shapes are still answered.
    assert tb.flip("bwwb/bbwb/bwwb/bwww").rounds == 4
    with pytest.raises(TableFileError) as missing_dir:
        boardbase.Tablebase(tmp_path / "no such directory")
    assert isinstance(missing_dir.value, OSError)


def test_a_panic_becomes_an_exception() -> None:
    with pytest.raises(InternalError) as caught:
        boardbase._boardbase._panic_for_test()
    assert isinstance(caught.value, RuntimeError)
    assert "panicked" in str(caught.value)
    # The module still answers afterwards.
    assert boardbase.flip("bwwb/bbwb/bwwb/bwww").rounds == 4


@pytest.mark.parametrize(
    "call,says",
    [
        (lambda: boardbase.flip(None), "board: expected a string of rows"),
        (lambda: boardbase.flip(42), "not int"),
        (lambda: boardbase.euler(None), "board: expected a string of rows"),
        (lambda: boardbase.lights(None), "board: expected a string of rows"),
        (lambda: boardbase.flip([1, 2]), "board: row 1 is a int"),
        (lambda: boardbase.flip("bwwb/bbwb/bwwb/bwww", size=4), "size: expected \"RxC\" or (rows, columns)"),  # type: ignore[arg-type]
        (lambda: boardbase.carcassonne(2, 2, None), "tiles: expected a sequence of four-letter codes"),  # type: ignore[arg-type]
        (lambda: boardbase.carcassonne(1, 1, [1234]), "tiles[0]: expected a four-letter code"),  # type: ignore[list-item]
        (lambda: boardbase.carcassonne("2", 2, ["RRRR"] * 4), "rows: expected an int, not str"),  # type: ignore[arg-type]
        (lambda: boardbase.Tablebase(None), "directories: expected a path"),  # type: ignore[arg-type]
        (lambda: boardbase.Tablebase(max_nullity="24"), "max_nullity: expected an int"),  # type: ignore[arg-type]
        (lambda: boardbase.cases("flip", "5"), "n: expected an int, not str"),  # type: ignore[arg-type]
        (lambda: boardbase.generate("flip", None), "shape: expected"),  # type: ignore[arg-type]
        (lambda: boardbase.generate("flip", "3x3", jobs=1.5), "jobs: expected an int, not float"),  # type: ignore[arg-type]
        (lambda: boardbase.lights("10/01", colours=True), "colours: expected an int, not bool"),
        (lambda: boardbase.lights("10/01", goal=None), "goal: expected \"white\""),  # type: ignore[arg-type]
        (lambda: boardbase.Table.open(None), "expected str, bytes or os.PathLike object"),  # type: ignore[arg-type]
    ],
)
def test_type_errors_name_what_is_accepted(call: Callable[[], Any], says: str) -> None:
    with pytest.raises(TypeError) as caught:
        call()
    assert says in str(caught.value)


@pytest.mark.parametrize(
    "call,error,says",
    [
        (lambda: boardbase.carcassonne(-1, 2, []), ShapeError, "rows -1: expected 1 to"),
        (lambda: boardbase.carcassonne(2, -3, []), ShapeError, "cols -3: expected 1 to"),
        (lambda: boardbase.carcassonne(2**70, 1, []), ShapeError, "rows 1180591620717411303424: expected 1 to"),
        (lambda: boardbase.flip("bwwb/bbwb/bwwb/bwww", size=(-4, 4)), ShapeError, "size -4: expected 1 to 64"),
        (lambda: boardbase.lights("10/01", colours=-1), OptionError, "colours -1: expected 2 to 16"),
        (lambda: boardbase.lights("10/01", max_nullity=-1), OptionError, "max_nullity -1: expected 0 to 64"),
        (lambda: boardbase.cases("flip", 1, seed=-1), OptionError, "seed -1: expected 0 to"),
        (lambda: boardbase.cases("flip", 2**64), OptionError, "n 18446744073709551616: expected 0 to"),
        (lambda: boardbase.cases("flip", 1, rounds=256), OptionError, "rounds 256: expected 0 to 255"),
        (lambda: boardbase.generate("flip", "3x3", jobs=-1), OptionError, "jobs -1: expected 1 to 1024"),
        (lambda: boardbase.generate("flip", "3x3", memory=-5), OptionError, "memory -5: expected 0 or more"),
        (lambda: boardbase.Tablebase(make_memory=-1), OptionError, "make_memory -1: expected 0 or more"),
        (lambda: boardbase.Table.embedded("flip").flip_rounds(-1), OptionError, "position -1"),
    ],
)
def test_range_errors_are_the_packages_value_errors(call: Callable[[], Any], error: type, says: str) -> None:
    with pytest.raises(error) as caught:
        call()
    assert isinstance(caught.value, ValueError) and isinstance(caught.value, Error)
    assert not isinstance(caught.value, OverflowError)
    assert says in str(caught.value)


def test_generate_errors_name_its_arguments(tmp_path: Path) -> None:
    with pytest.raises(OptionError) as wdl:
        boardbase.generate("flip", "3x3", dir=tmp_path, wdl_only=True)
    assert str(wdl.value) == "wdl_only=True is for euler: a Flip table has no win/loss column"
    with pytest.raises(boardbase.ResourceError) as memory:
        boardbase.generate("euler", "5x5", dir=tmp_path, memory="1M")
    message = str(memory.value)
    assert message.startswith("euler 5x5 needs ") and message.endswith(
        " of memory, over the limit of 1.00 MiB (memory=); nothing was generated"
    ), message
    assert "--" not in message
    assert list(tmp_path.iterdir()) == []


def test_without_numpy_the_error_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    # None in sys.modules makes `import numpy` fail as if it were not
    # installed, whether or not it is.
    monkeypatch.setitem(sys.modules, "numpy", None)
    table = boardbase.Table.embedded("flip")
    assert table.flip_rounds(0) == 0  # one int needs no numpy
    with pytest.raises(ModuleNotFoundError, match=r"Table\.flip_rounds .*pip install './python\[numpy\]'"):
        table.flip_rounds([1, 2, 3])
    with pytest.raises(ModuleNotFoundError, match=r"unpack_bits needs numpy"):
        boardbase.unpack_bits(b"\x01")
