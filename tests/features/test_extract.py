"""The Featurizer: groups, windows, parameters, caching, config round trip."""

from __future__ import annotations

import pickle

import pytest

from notescrub.errors import ConfigError
from notescrub.features import GROUPS, Featurizer
from notescrub.features import pos as pos_module
from notescrub.types import Document

DOC = Document("d", "MRN: 4482911\nSeen by Dr. Ana Ruiz on 3/18.\nPlan: rest.")


def _prefixes(feats):
    return {f.split("=")[0].split(":")[-1] if "=" in f else f for f in feats}


@pytest.mark.parametrize(
    "groups, expect, forbid",
    [
        (("lexical",), {"w=Ana", "lw=ana", "p1=a", "bg[-1,0]=.|ana"}, {"shape=Xxx", "lpos=top"}),
        (("orthographic",), {"shape=Xxx", "INITCAP", "-1:PUNCTUATION"}, {"w=Ana"}),
        (("dictionary",), {"dict=first_names"}, {"w=Ana"}),
        (("sentence",), {"lpos=top", "slen[0]=11-20"}, {"w=Ana", "line=1"}),
        (("position",), {"line=1", "line_head=seen"}, {"lpos=top"}),
    ],
)
def test_groups_switch_features(groups, expect, forbid):
    feats = Featurizer(groups=groups).featurize(DOC)
    i = [t.text for t in Featurizer().view(DOC).tokens].index("Ana")
    assert expect <= set(feats[i]) and not (forbid & set(feats[i]))
    assert all(v == 1.0 for v in feats[i].values())


def test_window_sizes():
    toks = [t.text for t in Featurizer().view(DOC).tokens]
    i = toks.index("Ana")
    f32 = Featurizer(groups=("lexical",), window=(3, 2)).attributes(DOC)[i]
    assert {"-3:lw=by", "-2:lw=dr", "-1:lw=.", "1:lw=ruiz", "2:lw=on"} <= set(f32)
    assert not any(f.startswith(("-4:", "3:")) for f in f32)
    f00 = Featurizer(groups=("lexical",), window=(0, 0), bigrams=False).attributes(DOC)[i]
    assert not any(f[0] in "-123" and ":" in f.split("=")[0] for f in f00)


def test_window_affixes():
    i = [t.text for t in Featurizer().view(DOC).tokens].index("Ana")
    with_aff = Featurizer(groups=("lexical",), window_affixes=True).attributes(DOC)[i]
    without = Featurizer(groups=("lexical",)).attributes(DOC)[i]
    assert "1:p2=ru" in with_aff and "1:p2=ru" not in without


def test_record_boundaries():
    feats = Featurizer(groups=("lexical",)).attributes(DOC)
    assert "BOS" in feats[0] and "EOS" in feats[-1]


def test_empty_document():
    assert Featurizer().featurize(Document("e", "")) == []
    assert Featurizer().featurize(Document("e", "  \n ")) == []


def test_spanish_text():
    doc = Document("es", "Nº Col: 28 28 70973. Domicilio: c/ del Abedul 5, 2º dcha. Cuéllar")
    f = Featurizer(lang="es")
    feats = f.attributes(doc)
    toks = [t.text for t in f.view(doc).tokens]
    assert toks[:2] == ["Nº", "Col"] and "º" in toks
    assert "lw=cuéllar" in feats[toks.index("Cuéllar")]


@pytest.mark.parametrize(
    "params, message",
    [({"groups": ("lexical", "syntax")}, "unknown feature groups"), ({"window": (-1, 2)}, "window"),
     ({"affixes": 20}, "affixes"), ({"window_groups": ("sentence",)}, "window_groups")],
)
def test_bad_parameters(params, message):
    with pytest.raises(ConfigError, match=message):
        Featurizer(**params).featurize(DOC)


def test_params_and_config_round_trip():
    f = Featurizer(groups=("lexical", "orthographic"), window=(3, 2), lang="es")
    assert Featurizer.from_config(f.to_config()).get_params() == f.get_params()
    f.set_params(affixes=2)
    assert f.affixes == 2
    with pytest.raises(ConfigError):
        f.set_params(nope=1)
    with pytest.raises(ConfigError):
        Featurizer.from_config({"nope": 1})


def test_pickle_drops_cache_and_gives_same_features():
    f = Featurizer()
    before = f.attributes(DOC)
    g = pickle.loads(pickle.dumps(f))
    assert "_state" not in g.__dict__ and g.attributes(DOC) == before


def test_pos_group_is_explicit():
    f = Featurizer(groups=("lexical", "pos"))
    assert f.pos_enabled and not Featurizer().pos_enabled
    if not pos_module.available():
        with pytest.raises(ConfigError, match="spaCy|pipeline"):
            f.featurize(DOC)
    else:  # pragma: no cover - only with the [syntax] extra
        assert any(k.startswith("pos=") for k in f.featurize(DOC)[0])


def test_all_groups_listed():
    assert GROUPS == ("lexical", "orthographic", "dictionary", "sentence", "position", "pos")
