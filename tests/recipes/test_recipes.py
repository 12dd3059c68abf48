"""The recipe registry and each recipe's paper configuration (tiny fits, seconds)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from notescrub.detect.consistency import ConsistencyTagger
from notescrub.detect.crf import CRFTagger
from notescrub.errors import ConfigError
from notescrub.recipes import RECIPES, get_recipe

_spec = importlib.util.spec_from_file_location("crf_synth", Path(__file__).parents[1] / "detect" / "crf_synth.py")
crf_synth = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(crf_synth)


def test_registry_names():
    assert {"carafe", "wi-deid", "aramaki"} <= set(RECIPES)
    with pytest.raises(ConfigError, match="unknown recipe"):
        get_recipe("nope")


@pytest.mark.parametrize(
    "name, window, sequence, groups, affixes",
    [
        ("carafe", (3, 2), "record", ("lexical", "orthographic", "dictionary"), 2),
        ("wi-deid", (2, 2), "sentence", ("lexical", "orthographic", "dictionary"), 4),
    ],
)
def test_paper_configurations(name, window, sequence, groups, affixes):
    t = get_recipe(name)(lang="es")
    assert isinstance(t, CRFTagger) and t.scheme == "BIO"
    f = t.featurizer
    assert (f.window, t.sequence, tuple(f.groups), f.affixes, f.lang) == (window, sequence, groups, affixes, "es")


def test_aramaki_configuration():
    t = get_recipe("aramaki")(pos=False, folds=3)
    assert isinstance(t, ConsistencyTagger) and t.folds == 3
    assert "sentence" in t.first.featurizer.groups and t.first.featurizer.affixes == 0


def test_pos_option_requests_the_pos_group():
    assert "pos" in get_recipe("wi-deid")(pos=True).featurizer.groups
    assert "pos" in get_recipe("aramaki")(pos=True).first.featurizer.groups


def test_overrides():
    t = get_recipe("carafe")(c1=0.2, bias=0.0, features={"window": (1, 1)})
    assert (t.c1, t.bias, t.featurizer.window) == (0.2, 0.0, (1, 1))


@pytest.mark.parametrize("name", ["carafe", "wi-deid", "aramaki"])
def test_each_recipe_trains_and_tags(name):
    docs = crf_synth.corpus(24, seed=7)
    extra = {"folds": 2} if name == "aramaki" else {}
    t = get_recipe(name)(max_iterations=25, **extra).fit(docs[:18])
    found = {(s.start, s.end, s.label) for d in docs[18:] for s in t.detect(d.copy(layers=False))}
    assert found
