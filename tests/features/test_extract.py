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
        with pytest.raises(ConfigError, match=r"spaCy|pipeline"):
            f.featurize(DOC)
    else:  # pragma: no cover - only with the [syntax] extra
        assert any(k.startswith("pos=") for k in f.featurize(DOC)[0])


def test_all_groups_listed():
    assert GROUPS == ("lexical", "orthographic", "dictionary", "sentence", "position", "pos", "document", "clusters")


# -- feature groups (document features as tables / word pairs) ------------------------------
from notescrub.features.context import position_table, sentence_table  # noqa: E402
from notescrub.features.extract import FeatureParts, ListGroup, PairGroup, TableGroup  # noqa: E402
from notescrub.features.patterns import chunk_table  # noqa: E402
from notescrub.features.token import carafe_classes, short_shape  # noqa: E402
from notescrub.text.views import token_view  # noqa: E402

GROUP_TEXT = ("HISTORY:\nMr. Ruiz, 67M, seen 3/18/2091 (tel 555-1234).\n\nPLAN:\nCall | Dr. Ana-Maria Vega.\n"
              + "\n".join(f"line {i} of a long note." for i in range(30)))


def _reference_bigrams(low, pairs):
    n = len(low)
    return [[f"bg[{a},{b}]={low[i + a]}|{low[i + b]}" for a, b in pairs if i + a >= 0 and i + b < n]
            for i in range(n)]


def test_pair_group_lists_match_a_per_token_loop():
    low = [t.text.lower() for t in token_view(Document("d", GROUP_TEXT)).tokens]
    pairs = [(-1, 0), (0, 1), (-2, -1), (1, 2), (-1, 1)]
    assert PairGroup(low, pairs).lists() == _reference_bigrams(low, pairs)
    assert PairGroup(["x"], pairs).lists() == [[]]


def _reference_sentence(view, last_words=3):
    n_sent = len(view.sentence_offsets)
    counts, words = [0] * n_sent, [[] for _ in range(n_sent)]
    for i, s in enumerate(view.sentence):
        if s >= 0:
            counts[s] += 1
            if view.tokens[i].text[0].isalnum():
                words[s].append(view.tokens[i].text.lower())
    from notescrub.features.context import length_bucket

    out = []
    for i, s in enumerate(view.sentence):
        line = view.line[i]
        lpos = "lpos=top" if line < 10 else ("lpos=bottom" if line >= view.n_lines - 5 else "lpos=mid")
        tok = [lpos] + [f"slen[{k}]={length_bucket(counts[s + k]) if s >= 0 and 0 <= s + k < n_sent else 'none'}"
                        for k in (-1, 0, 1)]
        if s > 0:
            tok += [f"prevlast={w}" for w in words[s - 1][-last_words:]]
        if view.section[i]:
            tok.append(f"sec={view.section[i][:30]}")
        if view.is_heading[i]:
            tok.append("heading")
        out.append(tok)
    return out


def _reference_position(view):
    out, head, prev = [], "", -1
    for i, t in enumerate(view.tokens):
        line = view.line[i]
        feats = [f"line={line}" if line < 20 else "line=20+"]
        if line != prev:
            feats.append("line_first")
            head, prev = f"line_head={t.text.lower()}", line
        else:
            feats.append(head)
        if not view.space_after[i]:
            feats.append("glued")
        out.append(feats)
    return out


def _reference_chunks(view):
    toks, out, i, n = view.tokens, [], 0, len(view.tokens)
    while i < n:
        j = i
        while j < n - 1 and not view.space_after[j] and toks[j + 1].start == toks[j].end:
            j += 1
        if j == i:
            out.append([])
        else:
            text = "".join(t.text for t in toks[i : j + 1])
            classes = [f"c:{c}" for c in carafe_classes(text)]
            for k in range(i, j + 1):
                pos = "B" if k == i else ("L" if k == j else "I")
                out.append([f"cshape={short_shape(text)[:20]}", f"cpos={pos}", *classes])
        i = j + 1
    return out


@pytest.mark.parametrize("text", [GROUP_TEXT, "", "x", "a-b", "One.\nTwo three-four."])
def test_tables_expand_to_the_per_token_features(text):
    view = token_view(Document("d", text))
    for table_fn, reference in ((sentence_table, _reference_sentence), (position_table, _reference_position),
                                (chunk_table, _reference_chunks)):
        table, ids = table_fn(view)
        assert len(ids) == len(view.tokens)
        assert TableGroup(table, ids).lists() == reference(view)


def test_feature_parts_groups_join_in_order():
    f = Featurizer()
    doc = Document("d", GROUP_TEXT)
    parts = f.parts(doc)
    assert [type(g) for g in parts.groups][:2] == [PairGroup, TableGroup]
    more = [[f"stk={i}"] for i in range(len(parts))]
    joined = parts.with_extra(more).join()
    flat = FeatureParts(parts.words, parts.units, parts.offsets, [a + b for a, b in zip(parts.extra, more)]).join()
    assert joined == flat
    assert all(a[-1] == f"stk={i}" for i, a in enumerate(joined))
    assert "BOS" in parts.extra[0] and "EOS" in parts.extra[-1]
    one = f.parts(Document("d", "Hi"))
    assert one.extra[0][-2:] == ["BOS", "EOS"]
    assert isinstance(FeatureParts(["a"], [([], {})], []).groups[0], ListGroup)


def test_context_bag_parameter_adds_bag_features_and_survives_config():
    f = Featurizer(context_bag=3)
    attrs = f.attributes(Document("d", "Roommate Tanner drove her in."))
    assert "bagL=roommate" in attrs[1] and "bagR=drove" in attrs[1]
    assert not any(a.startswith("bag") for a in Featurizer().attributes(Document("d", "Roommate Tanner"))[1])
    assert Featurizer.from_config(f.to_config()).context_bag == 3
    with pytest.raises(ConfigError, match="context_bag"):
        Featurizer(context_bag=11).attributes(Document("d", "x y"))
