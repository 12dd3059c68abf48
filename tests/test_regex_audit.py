"""Every packaged regular expression is free of catastrophic backtracking (ReDoS).

regexploit (static analysis of the parsed pattern) reports sub-patterns whose failure
costs a polynomial of degree > 2 or an exponential number of steps on some input, such
as three adjacent quantifiers over overlapping characters (``[ \\t]*#?[ \\t]*:?[ \\t]*``).
Patterns it cannot parse (possessive quantifiers, which never backtrack) are skipped.
"""

import importlib
import pkgutil
import re

import pytest

import notescrub
from notescrub.detect.rules.detector import load_rules
from notescrub.detect.spans.postprocess import load_post_rules

regexploit_sre = pytest.importorskip("regexploit.ast.sre")
redos = pytest.importorskip("regexploit.redos")


def packaged_patterns() -> dict[str, re.Pattern]:
    pats: dict[str, re.Pattern] = {}
    for info in pkgutil.walk_packages(notescrub.__path__, "notescrub."):
        if ".cli." in info.name or "numba" in info.name:
            continue
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if isinstance(value, re.Pattern):
                pats[f"{info.name}.{name}"] = value
    for rule in load_rules().rules:
        pats[f"rule {rule.name}"] = rule.regex
    from pathlib import Path

    from notescrub.registry import model_dir

    model_rules = [Path(model_dir(m)) / "post.toml" for m in ("en-default", "es-meddocan")]
    for rule in load_post_rules(["default.toml"] + [str(f) for f in model_rules if f.is_file()]):
        for field, value in vars(rule).items():
            if isinstance(value, re.Pattern):
                pats[f"post rule {rule.name}.{field}"] = value
    return pats


def test_no_packaged_pattern_backtracks_catastrophically():
    pats = packaged_patterns()
    assert len(pats) > 100
    bad = []
    for name, pat in pats.items():
        try:
            parsed = regexploit_sre.SreOpParser().parse_sre(pat.pattern, pat.flags)
        except Exception:  # noqa: BLE001 - possessive quantifiers are not understood by the parser
            continue
        bad += [(name, r.starriness) for r in redos.find(parsed) if r.starriness > 2]
    assert bad == []


def test_the_checker_finds_a_catastrophic_pattern():
    parsed = regexploit_sre.SreOpParser().parse_sre(r"ID[ \t]*#?[ \t]*:?[ \t]*(?P<phi>\d{4,})", 0)
    assert any(r.starriness > 2 for r in redos.find(parsed))


def test_no_packaged_pattern_backtracks_quadratically():
    """``\\s*:?\\s*$`` on "ID" + 25,000 blanks + "x" took 256 s in the section splitter."""
    from notescrub.detect.rules.pattern_audit import quadratic_pairs

    bad = {name: pairs for name, pat in packaged_patterns().items() if (pairs := quadratic_pairs(pat.pattern, pat.flags))}
    assert bad == {}


def test_the_quadratic_checker_finds_the_heading_pattern_that_hung():
    from notescrub.detect.rules.pattern_audit import quadratic_pairs

    assert quadratic_pairs(r"^\s*([A-Z][A-Z0-9 &/,()'\-]{2,60}?)\s*:?\s*$")
    assert quadratic_pairs(r"[ \t]*,?[ \t]+(?:and)")
    assert not quadratic_pairs(r"(?:[ \t]*+,)?[ \t]++(?:and)")
    assert not quadratic_pairs(r"[ \t]*,[ \t]*\d")  # a required comma between the repeats
