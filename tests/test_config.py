"""Tests of the model configuration (notescrub.config): every key of model.json is checked."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from notescrub.config import validate_meta
from notescrub.errors import ModelError
from notescrub.registry import load_model


def _valid() -> dict:
    return {"kind": "hybrid", "format": 1, "notescrub_version": "0.1.0",
            "components": [{"name": "rules", "kind": "rules", "options": {}},
                           {"name": "crf", "kind": "crf", "dir": "crf", "options": {}}],
            "resolver": {"name": "longest"}, "presets": {"p": {"components": {"crf": {"enabled": False}}}}}


def _mutate(path: str, value):
    def f(m: dict) -> dict:
        target = m
        keys = path.split(".")
        for k in keys[:-1]:
            target = target[int(k)] if isinstance(target, list) else target[k]
        if value is _DELETE:
            del target[keys[-1]]
        else:
            target[keys[-1]] = value
        return m
    return f


_DELETE = object()


@pytest.mark.parametrize("mutate, message", [
    (_mutate("colour", 1), "unknown keys \\['colour'\\]"),
    (_mutate("format", 7), "format 7 is not supported"),
    (_mutate("components", []), "non-empty list"),
    (_mutate("components.0.colour", 1), "components\\[0\\] has unknown keys"),
    (_mutate("components.0.kind", "magic"), "unknown kind 'magic'"),
    (_mutate("components.1.name", "rules"), "used twice"),
    (_mutate("components.1.dir", _DELETE), "needs 'dir'"),
    (_mutate("components.1.dir", "/abs"), "relative sub-directory"),
    (_mutate("components.1.dir", "../up"), "relative sub-directory"),
    (_mutate("components.0.dir", "x"), "takes no 'dir'"),
    (_mutate("components.0.options", {"bias": 1}), "unknown keys \\['bias'\\]"),
    (_mutate("components.1.options", {"threshold": 2}), "threshold"),
    (_mutate("components.0.options", {"types": "DATE"}), "list of non-empty strings"),
    (_mutate("components.0.options", {"enabled": "yes"}), "true or false"),
    (_mutate("resolver", {"name": "magic"}), "unknown resolver"),
    (_mutate("resolver", {"name": "priority"}), "order must be a list"),
    (_mutate("resolver", {"name": "priority", "order": ["A", "A"]}), "twice"),
    (_mutate("resolver", {"name": "longest", "order": ["A"]}), "only for the priority"),
    (_mutate("presets.p.components.ghost", {}), "unknown component 'ghost'"),
    (_mutate("presets.p.colour", 1), "preset 'p' has unknown keys"),
    (_mutate("default_preset", "q"), "default_preset 'q'"),
])
def test_invalid_model_json_is_refused_naming_the_file(tmp_path: Path, mutate, message):
    meta = mutate(_valid())
    d = tmp_path / "m"
    d.mkdir()
    (d / "model.json").write_text(json.dumps(meta), encoding="utf-8")
    with pytest.raises(ModelError, match=message) as info:
        load_model(d)
    assert str(d / "model.json") in str(info.value) or str(d) in str(info.value)


def test_valid_meta_passes_and_targets_are_checked():
    validate_meta(_valid())
    with pytest.raises(ModelError, match="expected 'hybrid'"):
        validate_meta({**_valid(), "kind": "crf"}, "x/model.json")
    bad = _valid()
    bad["components"].append({"name": "post", "kind": "postprocess", "options": {"targets": ["nope"]}})
    with pytest.raises(ModelError, match="targets names 'nope'"):
        validate_meta(bad, "x/model.json")


