"""The Python sessions of docs/python.md run as written (doctest)."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "python.md"


def test_docs_sessions() -> None:
    if not DOC.exists():
        pytest.skip(f"{DOC} is not here (the package was installed without the repository)")
    pytest.importorskip("numpy")
    blocks = re.findall(r"^```python\n(.*?)^```", DOC.read_text(), flags=re.S | re.M)
    assert len(blocks) >= 3
    test = doctest.DocTestParser().get_doctest("\n".join(blocks), {}, "python.md", str(DOC), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.attempted >= 10
    assert result.failed == 0


def test_module_docstrings() -> None:
    import boardbase
    import boardbase.svg

    for module in (boardbase, boardbase.svg):
        failed, attempted = doctest.testmod(module)
        assert attempted > 0 and failed == 0
