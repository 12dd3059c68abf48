"""LingPipe recipe: the n-best rescoring depth is a parameter, and it is the search depth."""

from __future__ import annotations

import pytest

import notescrub.detect.lingpipe.rescore as rescore_mod
from notescrub.detect.lingpipe.chunker import CharLmHmmChunker
from notescrub.errors import ConfigError
from notescrub.recipes import get_recipe
from notescrub.types import Document, Span

_NAMES = ["Ruiz", "Diaz", "Sanz", "Paz", "Gil", "Leon", "Vega", "Mora"]
_CITIES = ["Lugo", "Soria", "Teruel", "Avila"]


def _docs() -> list[Document]:
    out = []
    for i, n in enumerate(_NAMES * 2):
        c = _CITIES[i % len(_CITIES)]
        text = f"Seen by Dr. {n} in {c} on {i % 9 + 1}/1{i % 7}. {c} clinic."
        a = text.index(n)
        b = text.index(c)
        d = text.index(f"{i % 9 + 1}/")
        spans = [Span(a, a + len(n), "DOCTOR"), Span(b, b + len(c), "CITY"), Span(d, d + len(f"{i % 9 + 1}/1{i % 7}"), "DATE")]
        out.append(Document(str(i), text, layers={"gold": spans}))
    return out


def test_depth_defaults_to_8_and_is_saved(tmp_path):
    assert get_recipe("lingpipe")().n_best == 8
    model = get_recipe("lingpipe")(n_best=512, order=4).fit(_docs())
    again = CharLmHmmChunker.load(model.save(tmp_path / "m"))
    assert again.n_best == 512
    with pytest.raises(ConfigError, match="n_best"):
        get_recipe("lingpipe")(n_best=0).fit(_docs())


def test_depth_bounds_the_candidates_rescored(monkeypatch):
    seen: dict[int, list[int]] = {}
    real = rescore_mod.k_best

    def counting(em, log_trans, first, last, k, active=None):
        got = real(em, log_trans, first, last, k, active)
        seen.setdefault(k, []).append(len(got))
        return got

    monkeypatch.setattr(rescore_mod, "k_best", counting)
    model = get_recipe("lingpipe")(order=4, rescore_eps=0.3).fit(_docs())
    # unseen names out of their usual contexts: the HMM hesitates there
    test = [Document("a", "Olmo Ronda Pardo Jaca 2/12"),
            Document("b", "Dr. Rey in Elche. Elche clinic. Seen by Dr. Elche in Rey on 3/14.")]
    for k in (2, 64):
        model.n_best = k
        for d in test:
            model.detect(d)
    assert seen[2] and seen[64], "no hesitant region to rescore"
    assert max(seen[2]) <= 2 and max(seen[64]) <= 64
    assert sum(seen[64]) > sum(seen[2])


def test_docs_depth_table_quotes_the_measurement():
    import json
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    res = json.loads((root / "docs" / "experiments" / "lingpipe-nbest.json").read_text(encoding="utf-8"))
    doc = (root / "docs" / "recipes-statdeid-lingpipe.md").read_text(encoding="utf-8")
    table = doc[doc.index("| `n_best` | strict P"):]
    rows = {line.split("|")[1].strip().split(" ")[0]: [c.strip() for c in line.strip("|").split("|")]
            for line in table.splitlines()[2:6]}
    for depth, rec in res["depths"].items():
        cells = rows[depth]
        s = rec["strict"]
        assert cells[1:4] == [f"{s['precision']:.4f}", f"{s['recall']:.4f}", f"{s['f1']:.4f}"]
        assert cells[5] == f"{rec['binary']['f1']:.4f}" and cells[6] == f"{rec['annotate_cpu_s']}"
