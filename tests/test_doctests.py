"""Run every module's docstring examples (each public module documents an example)."""

import doctest
import importlib
import pkgutil

import pytest

import notescrub
from notescrub.errors import MissingExtraError

MODULES = sorted(
    m.name for m in pkgutil.walk_packages(notescrub.__path__, prefix="notescrub.")
    if not m.name.split(".")[-1].startswith("_")
)


@pytest.mark.parametrize("name", MODULES)
def test_module_doctests(name):
    try:
        mod = importlib.import_module(name)
    except (ImportError, MissingExtraError) as exc:  # optional extras (notescrub.extras) may be absent
        pytest.skip(f"optional dependency missing: {exc}")
    failures, _ = doctest.testmod(mod, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert failures == 0


def test_readme_examples():
    from pathlib import Path

    readme = Path(__file__).resolve().parents[1] / "README.md"
    result = doctest.testfile(str(readme), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
