"""Shared helper of the rule-file tests: the texts one packaged rule matches."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from notescrub.detect.rules.detector import load_rules


@pytest.fixture(scope="session")
def rule_texts() -> Callable[[str, str, str], list[str]]:
    """``rule_texts(file, rule, text)``: the ``phi`` texts rule ``rule`` of packaged ``file`` finds in ``text``."""
    files: dict[str, dict] = {}

    def texts(file: str, rule: str, text: str) -> list[str]:
        if file not in files:
            files[file] = {r.name: r for r in load_rules([file]).rules}
        return [text[a:b] for a, b, _ in files[file][rule].matches(text)]

    return texts
