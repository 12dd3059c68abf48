"""Done-when checks on the MEDDOCAN dev split in ../shared (skipped when absent).

1. Gold against itself scores 1.0 on every figure of every scheme, from XML and from brat.
2. A prediction set perturbed on purpose (drop, shift, retype) scores exactly what the
   perturbation implies.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import pairwise
from typing import Any

import pytest

from notescrub.evaluate import evaluate
from notescrub.io import read_corpus
from notescrub.text.segment import sentences

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def dev(meddocan_dir):
    return list(read_corpus(meddocan_dir / "dev" / "xml"))


@pytest.fixture(scope="module")
def dev_brat(meddocan_dir):
    return list(read_corpus(meddocan_dir / "dev" / "brat"))


def prf_nodes(node: Any, path: str = "") -> Iterator[tuple[str, dict]]:
    if isinstance(node, dict):
        if "f1" in node:
            yield path, node
        for k, v in node.items():
            yield from prf_nodes(v, f"{path}.{k}")


@pytest.mark.parametrize("scheme", ["i2b2-2014", "meddocan", "i2b2-2006", "binary"])
def test_gold_against_itself_is_perfect(dev, dev_brat, scheme):
    r = evaluate(dev, dev_brat, scheme=scheme)  # XML gold, brat "prediction": same spans
    assert r["documents"]["scored"] == 250
    nodes = list(prf_nodes(r))
    assert len(nodes) >= 3
    for path, node in nodes:
        for k in ("precision", "recall", "f1"):
            if k in node:
                assert node[k] == 1.0, f"{path}.{k}"
    assert r["headline"]["f1_ci95"] == [1.0, 1.0]
    t = r["error_analysis"]["totals"]
    assert t["correct"] > 0 and sum(v for k, v in t.items() if k != "correct") == 0
    if scheme == "meddocan":
        assert r["meddocan"]["leak"]["micro"] == 0.0


def perturb(docs):
    """Every 10th span (global order) dropped, (k=3) end shifted +1, (k=7) retyped."""
    out, n = [], {"spans": 0, "drop": 0, "shift": 0, "retype": 0}
    i = 0
    for d in docs:
        spans = []
        for s in d.layer("gold"):
            k = i % 10
            i += 1
            n["spans"] += 1
            if k == 0:
                n["drop"] += 1
                continue
            if k == 3 and s.end < len(d.text):
                n["shift"] += 1
                s = s.with_(end=s.end + 1)
            elif k == 7:
                n["retype"] += 1
                s = s.with_(label="PAIS" if s.label != "PAIS" else "TERRITORIO")
            spans.append(s)
        c = d.copy(layers=False)
        c.add_layer("gold", spans)
        out.append(c)
    return out, n


def test_perturbed_predictions_score_as_predicted(dev):
    # preconditions the arithmetic relies on: no duplicate or overlapping gold spans
    for d in dev:
        s = sorted(d.layer("gold"), key=lambda x: (x.start, x.end))
        assert all(b.start >= a.end for a, b in pairwise(s))
    pred, n = perturb(dev)
    N, D, S, R = n["spans"], n["drop"], n["shift"], n["retype"]
    assert N == 5801 and D > 0 and S > 0 and R > 0

    med = evaluate(dev, pred, scheme="meddocan", bootstrap_resamples=0)["meddocan"]
    assert (med["subtask1"]["tp"], med["subtask1"]["fp"], med["subtask1"]["fn"]) == (N - D - S - R, S + R, D + S + R)
    assert (med["subtask2_strict"]["tp"], med["subtask2_strict"]["fp"], med["subtask2_strict"]["fn"]) == (
        N - D - S, S, D + S)
    assert med["subtask1"]["precision"] == pytest.approx((N - D - S - R) / (N - D))
    assert med["subtask1"]["recall"] == pytest.approx((N - D - S - R) / N)
    n_sent = sum(len(sentences(d.text)) for d in dev)
    assert med["leak"]["micro"] == pytest.approx((D + S + R) / n_sent)

    r = evaluate(dev, pred, scheme="i2b2-2014", labels="native", bootstrap_resamples=0)
    i2 = r["i2b2_2014"]
    assert (i2["strict"]["micro"]["tp"], i2["strict"]["micro"]["fp"]) == (N - D - S - R, S + R)
    # a +1 end shift is within the relaxed tolerance; a retype is not
    assert (i2["relaxed"]["micro"]["tp"], i2["relaxed"]["micro"]["fp"], i2["relaxed"]["micro"]["fn"]) == (
        N - D - R, R, D + R)
    assert (i2["binary_strict"]["micro"]["tp"], i2["binary_strict"]["micro"]["fn"]) == (N - D - S, D + S)
    t = r["error_analysis"]["totals"]
    assert (t["correct"], t["missing"], t["extent_long"], t["type"], t["spurious"]) == (N - D - S - R, D, S, R, 0)
