"""Tests of the typed component options (notescrub.options) and their place in the registry."""

from __future__ import annotations

import pytest

from notescrub.config import validate_meta
from notescrub.errors import ModelError
from notescrub.options import StackedOptions, TwoPassOptions, field_names, options_class, options_for
from notescrub.registry import REGISTRY, kinds


def test_every_component_kind_takes_exactly_its_dataclass_fields():
    for kind in kinds("component"):
        entry = REGISTRY[f"notescrub.component.{kind}.v1"]
        assert entry.settings is options_class(kind)
        assert entry.options == field_names(options_class(kind))
        assert entry.knobs <= entry.options


def test_options_for_turns_lists_into_tuples_and_keeps_none_as_not_given():
    o = options_for("stacked", {"feeders": ["rules", "dictionary"], "bias": -2.1})
    assert o == StackedOptions(feeders=("rules", "dictionary"), bias=-2.1)
    assert o.threshold is None and o.enabled is True
    t = options_for("two_pass", {})
    assert t == TwoPassOptions() and t.min_chars is None and t.min_score == 0.5
    with pytest.raises(TypeError):
        options_for("two_pass", {"colour": 1})  # config.check_options refuses it first, with the file


def _meta(options: dict) -> dict:
    return {"kind": "hybrid", "components": [{"name": "ner", "kind": "ner", "options": options}]}


def test_ner_labels_are_a_mapping():
    validate_meta(_meta({"labels": {"ORG": "ORGANIZATION", "GPE": "CITY"}, "cues": ["works at"]}), "m/model.json")
    assert options_for("ner", {"labels": {"ORG": "ORGANIZATION"}}).labels == {"ORG": "ORGANIZATION"}
    with pytest.raises(ModelError, match="'labels' must map labels to labels"):
        validate_meta(_meta({"labels": ["ORG"]}), "m/model.json")
    with pytest.raises(ModelError, match="'cues' must be a list"):
        validate_meta(_meta({"cues": "works at"}), "m/model.json")
