"""Stat De-id local-context features and the spaCy parse wrapper."""

from __future__ import annotations

import pytest

from notescrub.errors import ConfigError
from notescrub.features import syntax
from notescrub.features.statdeid import (
    StatDeidFeaturizer,
    heuristic_phrases,
    lexical_bigrams,
    medical_np,
)
from notescrub.text.views import token_view
from notescrub.types import Document

needs_parser = pytest.mark.skipif(not syntax.available("en"), reason="spaCy English model not installed")


def _feats(f: StatDeidFeaturizer, text: str) -> dict[str, list[str]]:
    doc = Document("d", text)
    return {t.text: a for t, a in zip(token_view(doc).tokens, f.attributes(doc))}


@pytest.mark.parametrize(
    "words, i, expected",
    [
        (["a", "b", "c", "d", "e"], 2, ["lbg=a|b", "rbg=d|e"]),
        (["a", "b"], 0, ["lbg=<s>|<s>", "rbg=b|</s>"]),
        (["x"], 0, ["lbg=<s>|<s>", "rbg=</s>|</s>"]),
    ],
)
def test_lexical_bigrams(words, i, expected):
    assert lexical_bigrams(words)[i] == expected


def test_medical_np_marks_whole_phrase():
    low = ["severe", "chest", "pain", ",", "john"]
    out = medical_np(low, [0, 0, 0, -1, 1], "en")
    assert "mnp" in out[0] and out[0] == out[1] == out[2]
    assert out[3] == [] and out[4] == []


def test_heuristic_phrases_break_at_punctuation_and_lines():
    doc = Document("d", "chest pain, fever\nnausea")
    view = token_view(doc)
    ph = heuristic_phrases(view, [t.text.lower() for t in view.tokens], "en")
    assert ph[0] == ph[1] != ph[3]
    assert ph[2] == -1
    assert ph[3] != ph[4]


def test_section_feature():
    f = StatDeidFeaturizer(groups=("section",), shared_groups=(), np_source="heuristic")
    feats = _feats(f, "SOCIAL HISTORY:\nLives with wife.")
    assert feats["Lives"] == ["sec=SOCIAL HISTORY"]
    assert "heading" in feats["SOCIAL"]


def test_shared_groups_included_and_config_roundtrip():
    f = StatDeidFeaturizer(groups=("lexical_bigrams",), shared_groups=("lexical",), np_source="heuristic")
    feats = _feats(f, "Seen by Dr. Ruiz today")
    assert "w=Ruiz" in feats["Ruiz"] and "lbg=dr|." in feats["Ruiz"]
    cfg = f.to_config()
    assert cfg["featurizer"] == "stat-deid"
    again = StatDeidFeaturizer.from_config(cfg)
    assert again.get_params() == f.get_params()
    assert f.describe()["parser"] is None


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"groups": ("nope",)}, "unknown Stat De-id feature groups"),
        ({"np_source": "magic"}, "np_source"),
        ({"lang": "fr", "groups": ("section",)}, "unsupported language"),
        ({"lang": "es", "groups": ("syntactic_bigrams",)}, "dependency parser for language 'es'"),
        ({"lang": "es", "groups": ("medical_np",), "np_source": "parser"}, "dependency parser"),
    ],
)
def test_bad_configurations_fail_loudly(kwargs, match):
    with pytest.raises(ConfigError, match=match):
        StatDeidFeaturizer(shared_groups=(), **kwargs).attributes(Document("d", "x y"))


def test_from_config_rejects_other_featurizers():
    with pytest.raises(ConfigError):
        StatDeidFeaturizer.from_config({"featurizer": "other"})
    with pytest.raises(ConfigError):
        StatDeidFeaturizer.from_config({"bogus": 1})


def test_missing_spacy_is_a_clear_error(monkeypatch):
    import builtins

    real_import = builtins.__import__

    def fake_import(name, *args, **kwargs):
        if name == "spacy" or name.startswith("spacy."):
            raise ImportError("no spacy")
        return real_import(name, *args, **kwargs)

    syntax._nlp.cache_clear()
    monkeypatch.setattr(builtins, "__import__", fake_import)
    try:
        with pytest.raises(ConfigError, match="notescrub\\[syntax\\]"):
            StatDeidFeaturizer(groups=("syntactic_bigrams",), shared_groups=()).attributes(Document("d", "x"))
        assert not syntax.available("en")
    finally:
        monkeypatch.undo()
        syntax._nlp.cache_clear()


@needs_parser
def test_syntactic_bigrams_follow_links_not_adjacency():
    # the paper's example: the left syntactic context of Hatfield is stable across fillers
    f = StatDeidFeaturizer(groups=("syntactic_bigrams",), shared_groups=())
    a = _feats(f, "She lives in Hatfield.")["Hatfield"]
    b = _feats(f, "She lives alone in Hatfield.")["Hatfield"]
    assert "sL1=pobj|in" in a and "sL1=pobj|in" in b
    assert "sL2=prep|lives" in a and "sL2=prep|lives" in b


@needs_parser
def test_no_links_fall_back_to_neighbours_with_none():
    f = StatDeidFeaturizer(groups=("syntactic_bigrams",), shared_groups=())
    feats = _feats(f, "She lives in Hatfield.")
    # Hatfield has no right-hand link (the period attaches to the verb): adjacent word, link NONE
    assert "sR1=NONE|." in feats["Hatfield"]
    # the first word has neither a left link nor a word on its left
    assert not any(x.startswith("sL") for x in feats["She"])


@needs_parser
def test_pos_window_and_parser_metadata():
    f = StatDeidFeaturizer(groups=("pos",), shared_groups=())
    feats = _feats(f, "John was admitted yesterday.")
    assert feats["John"][0] == "pos=NNP"
    assert "1:pos=VBD" in feats["John"] and "2:pos=VBN" in feats["John"]
    info = f.describe()["parser"]
    assert info["parser"] == "spacy" and info["model"].endswith("3.8.0")


@needs_parser
def test_parse_maps_fused_tokens_to_one_word():
    doc = Document("d", "Seen on 3/18 by Dr. Ruiz")
    p = syntax.parse(doc)
    toks = token_view(doc).tokens
    date = [p.word_of[i] for i, t in enumerate(toks) if t.text in ("3", "/", "18")]
    assert len(set(date)) == 1 and p.words[date[0]] == "3/18"
