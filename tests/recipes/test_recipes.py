"""The recipe registry and each recipe's paper configuration (tiny fits, seconds)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from notescrub.detect.crf.consistency import ConsistencyTagger
from notescrub.detect.crf.tagger import CRFTagger
from notescrub.errors import ConfigError
from notescrub.recipes import RECIPES, get_recipe

_spec = importlib.util.spec_from_file_location("crf_synth", Path(__file__).parents[1] / "detect" / "crf" / "crf_synth.py")
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


def test_wideid_uses_the_papers_table1_tokenizer_and_keeps_it_when_saved(tmp_path):
    """WI-deId tokenises with He et al.'s Table 1 rules; every other recipe keeps the generic tokenizer."""
    from notescrub.detect.crf.tagger import CRFTagger
    from notescrub.types import Document, Span

    t = get_recipe("wi-deid")(max_iterations=15)
    assert t.featurizer.fused == "he2015"
    assert get_recipe("carafe")().featurizer.fused is True
    assert get_recipe("wi-deid")(features={"fused": False}).featurizer.fused is False
    text = "Call 47798497-045-1949 today. Phone 55512-345-6789 now."
    docs = [Document(f"d{i}", text, layers={"gold": [Span(10, 22, "PHONE"), Span(41, 53, "PHONE")]})
            for i in range(6)]
    t.fit(docs)
    # the phone number is a whole number of Table 1 tokens, so it is learnt and found exactly
    found = {(s.start, s.end, s.label) for s in t.detect(Document("x", text))}
    assert (10, 22, "PHONE") in found
    out = t.save(tmp_path / "m")
    loaded = CRFTagger.load(out)
    assert loaded.featurizer.fused == "he2015"
    assert {(s.start, s.end) for s in loaded.detect(Document("y", text))} == {(s[0], s[1]) for s in found}
