"""``notescrub.extras``: the one-line message when an optional dependency is missing."""

import sys
import tomllib
from pathlib import Path

import pytest

from notescrub.errors import ConfigError, MissingExtraError
from notescrub.extras import EXTRAS, require

ROOT = Path(__file__).resolve().parents[1]


def block(monkeypatch, root):
    """Make ``import root`` (and its submodules) fail as on an install without it."""
    for name in [m for m in sys.modules if m == root or m.startswith(root + ".")]:
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.setitem(sys.modules, root, None)


@pytest.mark.parametrize("extra", sorted(EXTRAS))
def test_missing_module_names_the_extra(monkeypatch, extra):
    block(monkeypatch, EXTRAS[extra].module)
    with pytest.raises(MissingExtraError) as info:
        require(extra, "doing X")
    assert str(info.value) == f"doing X needs {EXTRAS[extra].package}: pip install 'notescrub[{extra}]'"
    assert isinstance(info.value, ConfigError)  # the CLI prints it as one line, exit 2


def test_submodule_of_a_missing_package(monkeypatch):
    block(monkeypatch, "sklearn")
    with pytest.raises(MissingExtraError, match=r"^training needs scikit-learn: pip install 'notescrub\[svm\]'$"):
        require("svm", "training", "sklearn.svm")


def test_broken_install_is_not_called_missing(monkeypatch, tmp_path):
    pkg = tmp_path / "pyarrow"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("import _notescrub_no_such_module_\n", encoding="utf-8")
    block(monkeypatch, "pyarrow")
    monkeypatch.delitem(sys.modules, "pyarrow")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(MissingExtraError, match="installed but cannot import '_notescrub_no_such_module_'"):
        require("parquet", "reading Parquet")


def test_present_module_is_returned():
    pytest.importorskip("numba")
    assert require("fast", "x").__name__ == "numba"


def test_every_checked_extra_is_declared_and_all_has_them():
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = meta["optional-dependencies"]
    base = " ".join(meta["dependencies"]).lower()
    for name, spec in EXTRAS.items():
        assert name in extras, name
        assert spec.package.lower() in " ".join(extras[name]).lower()
        assert spec.package.lower() not in base, f"{spec.package} is still a base dependency"
    (everything,) = extras["all"]
    assert everything.startswith("notescrub[")
    assert set(EXTRAS) <= set(everything[len("notescrub["):-1].split(","))
