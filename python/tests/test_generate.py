"""boardbase.generate(): a table file built from Python, its summary
against the independent oracles, read back by the CLI and by Table, its
progress reports, and Ctrl-C or an exception from the progress callable
stopping it with no file left."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Dict, List, Tuple

import pytest

import boardbase
from oracles import board_text, euler_solve, flip_bfs
from test_tables import boardbase_bin  # noqa: F401  (the fixture)


def test_euler_summary_file_and_cli(boardbase_bin: Path, tmp_path: Path) -> None:
    win, left = euler_solve(3, 4)
    summary = boardbase.generate("euler", "3x4", dir=tmp_path)
    path = tmp_path / "euler-3x4.bin"
    assert summary["puzzle"] == "euler" and (summary["rows"], summary["cols"]) == (3, 4)
    assert summary["positions"] == 1 << 12
    # The full board counts as won (the opponent covered the last square)
    # but is not a position anyone plays from.
    assert summary["winning"] == sum(win[:-1])
    assert summary["losing"] == win.count(False)
    assert summary["empty"] == ("win" if win[0] else "loss")
    assert summary["empty_moves_left"] == left[0]
    assert summary["wdl_only"] is False
    assert summary["file"] == str(path) and summary["file_bytes"] == path.stat().st_size
    assert os.listdir(tmp_path) == ["euler-3x4.bin"]
    # The CLI reads the table made from Python: verified, and answering.
    subprocess.run([str(boardbase_bin), "verify", str(path)], check=True, capture_output=True)
    for p in (0, 5, 100, 2047):
        out = subprocess.run(
            [str(boardbase_bin), "euler", "--size", "3x4", "--tables", str(tmp_path), "--format", "json",
             "--board", board_text(3, 4, p, ".", "X")],
            check=True, capture_output=True, text=True,
        ).stdout
        assert f'"outcome":"{"win" if win[p] else "loss"}"' in out
        assert f'"moves_left":{left[p]}' in out


def test_flip_summary_is_the_breadth_first_search(tmp_path: Path) -> None:
    white, black = flip_bfs(3, 4)
    rounds = [min(x for x in (w, b) if x >= 0) for w, b in zip(white, black) if max(w, b) >= 0]
    summary = boardbase.generate("flip", (3, 4), dir=tmp_path)
    assert summary["positions"] == 1 << 12
    assert summary["solvable_positions"] == len(rounds)
    assert summary["impossible_positions"] == (1 << 12) - len(rounds)
    assert summary["reach_white"] == sum(1 for w in white if w >= 0)
    assert summary["reach_black"] == sum(1 for b in black if b >= 0)
    assert summary["max_rounds"] == max(rounds)
    assert summary["histogram"] == [rounds.count(n) for n in range(max(rounds) + 1)]
    with boardbase.Table.open(tmp_path / "flip-3x4.bin") as table:
        assert table.flip_rounds(0) == 0


def test_flip_by_class_answers_as_the_breadth_first_search(tmp_path: Path) -> None:
    white, black = flip_bfs(3, 4)
    closer = [min((x for x in (w, b) if x >= 0), default=-1) for w, b in zip(white, black)]
    by_class = boardbase.generate("flip", (3, 4), dir=tmp_path / "c", symmetry=True)
    by_board = boardbase.generate("flip", (3, 4), dir=tmp_path / "b")
    for key in ("positions", "solvable_positions", "histogram", "max_rounds"):
        assert by_class[key] == by_board[key]
    assert by_class["file_bytes"] * 2 < by_board["file_bytes"]
    with boardbase.Table.open(tmp_path / "c" / "flip-3x4.bin") as table:
        assert table.version == 5
        assert list(table.flip_rounds(list(range(1 << 12)))) == closer


def test_progress_reports(tmp_path: Path) -> None:
    seen: List[Tuple[str, int, int]] = []
    boardbase.generate("euler", "4x5", dir=tmp_path, progress=lambda *r: seen.append(r))
    assert seen
    phases = [p for p, _, _ in seen]
    order = ["allocate", "win/loss", "moves left", "checksum", "write"]
    assert set(phases) <= set(order)
    assert sorted(phases, key=order.index) == phases  # in order
    last: Dict[str, int] = {}
    for phase, done, total in seen:
        assert 0 <= done <= total
        assert done >= last.get(phase, 0)  # never backwards within a phase
        last[phase] = done


@pytest.mark.parametrize(
    "puzzle,shape,compress,phases",
    [
        ("euler", "4x5", False, ["allocate", "win/loss", "moves left", "checksum", "write"]),
        ("euler", "5x5", False, ["allocate", "win/loss", "moves left", "checksum", "write"]),
        ("flip", "4x5", False, ["search", "summary", "checksum", "write"]),
        ("mnk", "3x3", False, ["solve", "reachable", "checksum", "write"]),
        # Compressed once written; 3x3's columns are too small to pack,
        # stored raw, and reported all the same.
        ("flip", "4x5", True, ["search", "summary", "checksum", "write", "compress"]),
        ("euler", "3x3", True, ["allocate", "win/loss", "moves left", "checksum", "write", "compress"]),
    ],
)
def test_every_phase_ends_at_its_total(
    tmp_path: Path, puzzle: str, shape: str, compress: bool, phases: List[str]
) -> None:
    # A slow callback too: reports pile up behind it, and a phase's last
    # one must not be lost to the next phase's first.
    for slow in (0.0, 0.005):
        seen: List[Tuple[str, int, int]] = []

        def progress(phase: str, done: int, total: int) -> None:
            seen.append((phase, done, total))
            time.sleep(slow)

        boardbase.generate(puzzle, shape, dir=tmp_path, progress=progress, compress=compress)
        assert [p for i, (p, _, _) in enumerate(seen) if i == 0 or seen[i - 1][0] != p] == phases, seen
        for phase in phases:
            reports = [(done, total) for p, done, total in seen if p == phase]
            assert [d for d, _ in reports] == sorted(d for d, _ in reports), (phase, reports)
            assert reports[-1][0] == reports[-1][1] > 0, (phase, reports)
            # Heard to start once, however often the job says so.
            assert [d for d, _ in reports].count(0) == 1, (phase, reports)


def test_an_exception_from_progress_stops_it_with_no_file(tmp_path: Path) -> None:
    class Stop(Exception):
        pass

    def progress(phase: str, done: int, total: int) -> None:
        raise Stop(phase)

    with pytest.raises(Stop):
        boardbase.generate("euler", "5x5", dir=tmp_path, progress=progress)
    assert os.listdir(tmp_path) == []

    # Stopped while writing: no table and no temporary file either.
    def in_write(phase: str, done: int, total: int) -> None:
        if phase in ("checksum", "write"):
            raise Stop(phase)

    with pytest.raises(Stop):
        boardbase.generate("euler", "5x5", dir=tmp_path, progress=in_write)
    assert os.listdir(tmp_path) == []


def test_a_stopped_euler_job_resumes_from_its_checkpoint(tmp_path: Path) -> None:
    whole = tmp_path / "whole"
    whole.mkdir()
    boardbase.generate("euler", "4x6", dir=whole)

    class Stop(Exception):
        pass

    def in_depth(phase: str, done: int, total: int) -> None:
        if phase == "moves left":
            raise Stop(phase)

    # Every layer saved (checkpoint_every=0), then stopped in the
    # moves-left pass: the checkpoint stays, no table.
    with pytest.raises(Stop):
        boardbase.generate("euler", "4x6", dir=tmp_path, checkpoint_every=0, progress=in_depth)
    assert sorted(os.listdir(tmp_path)) == ["euler-4x6.bin.checkpoint", "whole"]
    phases: List[str] = []

    def seen(phase: str, done: int, total: int) -> None:
        if not phases or phases[-1] != phase:
            phases.append(phase)

    summary = boardbase.generate("euler", "4x6", dir=tmp_path, progress=seen)
    assert phases[:3] == ["allocate", "resume", "win/loss"], phases
    assert summary["empty_moves_left"] == 19
    assert (tmp_path / "euler-4x6.bin").read_bytes() == (whole / "euler-4x6.bin").read_bytes()
    assert sorted(os.listdir(tmp_path)) == ["euler-4x6.bin", "whole"]

    # A checkpoint that is not one is refused, and left alone.
    bad = tmp_path / "euler-4x6.bin.checkpoint"
    bad.write_bytes(b"not a checkpoint at all")
    with pytest.raises(boardbase.TableFileError, match="not a boardbase checkpoint") as caught:
        boardbase.generate("euler", "4x6", dir=tmp_path)
    assert caught.value.filename == str(bad)
    assert bad.exists()
    with pytest.raises(boardbase.OptionError, match="checkpoint_every"):
        boardbase.generate("euler", "4x6", dir=tmp_path, checkpoint_every=-1)


def test_ctrl_c_stops_it_with_no_file(tmp_path: Path) -> None:
    # A real SIGINT, in a process of its own (run from tmp_path, so that
    # the installed boardbase is imported, not the source directory), with
    # no progress callable:
    # 5x6 takes seconds; the signal comes a quarter of a second in. No
    # table and no temporary file are left; the checkpoint only when a
    # win/loss layer was finished by then (on an idle machine one is), for
    # the same call to resume from.
    script = textwrap.dedent(
        f"""
        import os, signal, threading, time, boardbase
        # Python's own Ctrl-C handler, even where the process was started
        # with SIGINT ignored (a job put in the background by a shell
        # without job control inherits SIG_IGN, and Python keeps it).
        signal.signal(signal.SIGINT, signal.default_int_handler)
        threading.Timer(0.25, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
        start = time.monotonic()
        try:
            boardbase.generate("euler", "5x6", dir={str(tmp_path)!r})
        except KeyboardInterrupt:
            print("interrupted", round(time.monotonic() - start, 1))
        """
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert out.stdout.startswith("interrupted"), out.stdout + out.stderr
    assert float(out.stdout.split()[1]) < 10
    assert os.listdir(tmp_path) in ([], ["euler-5x6.bin.checkpoint"])


def test_errors(tmp_path: Path) -> None:
    with pytest.raises(boardbase.OptionError, match="chess"):
        boardbase.generate("chess", "4x4", dir=tmp_path)
    with pytest.raises(boardbase.ShapeError):
        boardbase.generate("flip", "6x5", dir=tmp_path)
    with pytest.raises(boardbase.ShapeError):
        boardbase.generate("flip", "4by4", dir=tmp_path)
    with pytest.raises(boardbase.OptionError, match="wdl"):
        boardbase.generate("flip", "3x3", dir=tmp_path, wdl_only=True)
    with pytest.raises(boardbase.OptionError, match="checkpoint_every is for euler"):
        boardbase.generate("flip", "3x3", dir=tmp_path, checkpoint_every=0)
    with pytest.raises(boardbase.OptionError, match="jobs"):
        boardbase.generate("flip", "3x3", dir=tmp_path, jobs=0)
    with pytest.raises(MemoryError):
        boardbase.generate("euler", "5x5", dir=tmp_path, memory="1M")
    blocked = tmp_path / "a-file"
    blocked.write_text("not a directory")
    with pytest.raises(OSError) as caught:
        boardbase.generate("flip", "3x3", dir=blocked)
    assert isinstance(caught.value, boardbase.TableFileError)
    assert os.listdir(tmp_path) == ["a-file"]


def test_euler_by_class_answers_as_the_oracle(tmp_path: Path) -> None:
    win, left = euler_solve(3, 4)
    summary = boardbase.generate("euler", "3x4", dir=tmp_path, symmetry=True)
    assert (summary["winning"], summary["losing"]) == (sum(win[:-1]), win.count(False))
    assert summary["empty_moves_left"] == left[0] and summary["wdl_only"] is False
    table = boardbase.Table.open(tmp_path / "euler-3x4.bin")
    assert table.version == 5
    # 3x4 has 4 symmetries: the file keeps fewer entries than positions.
    assert len(table.column("winning")) * 8 < 1 << 12
    positions = list(range(1 << 12))
    assert list(table.euler_winning(positions)) == win
    assert list(table.euler_moves_left(positions)) == left
    with pytest.raises(boardbase.OptionError, match="symmetry=True is for euler"):
        boardbase.generate("mnk", "3x3", dir=tmp_path, symmetry=True)
    with pytest.raises(TypeError, match="symmetry: expected True or False"):
        boardbase.generate("euler", "3x4", dir=tmp_path, symmetry="yes")  # type: ignore[arg-type]
