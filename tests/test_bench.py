"""Benchmark registry (speed itself is measured by `notescrub bench`, never asserted here)."""

import pytest

from notescrub.bench import BENCHMARKS, discover, run_benchmark
from notescrub.cli.main import main
from notescrub.errors import ConfigError


def test_registry_lists_targets(capsys):
    assert {"tokenize", "token-view"} <= set(discover())
    assert main(["bench", "--list"]) == 0
    assert "tokenize" in capsys.readouterr().out


def test_unknown_target():
    with pytest.raises(ConfigError, match="unknown benchmark"):
        run_benchmark("no-such-target")


def test_target_contract():
    # a registered target is called with the corpus paths and the repeat count
    seen = {}
    BENCHMARKS["_probe"] = BENCHMARKS["tokenize"].__class__("_probe", "test", lambda p, r: seen.update(p=p, r=r) or {"ok": 1})
    try:
        assert run_benchmark("_probe", ["a", "b"], repeat=3) == {"benchmark": "_probe", "ok": 1}
        assert [str(x) for x in seen["p"]] == ["a", "b"] and seen["r"] == 3
    finally:
        del BENCHMARKS["_probe"]
