"""Aramaki's second stage: labels move towards record-level consistency.

Each synthetic record names a doctor once with a cue ("Seen by Dr. X") and once or twice
without one ("X reviewed the chart."), among other capitalised words in the very same
cue-less context that are not PHI. The names are generated per record, so no local
feature tells a cue-less name from the other words: the first CRF finds the cued mention
and misses the cue-less ones. Per Aramaki et al. (Figure 2: "if there is strong evidence
that the first 'Dr. ROOM' should be labelled DOCTOR, the subsequent 'ROOM' should also
have the same label"), the second CRF, fed the record majorities, must label the cue-less
mentions DOCTOR too.
"""

from __future__ import annotations

import random

import pytest

from notescrub.recipes import aramaki
from notescrub.types import Document, Span

_SYL = ["ka", "lo", "mi", "ra", "ten", "vo", "su", "bel", "dor", "fi", "gan", "pe", "tu", "zal", "ro", "ni"]


def _word(rng: random.Random) -> str:
    return "".join(rng.choice(_SYL) for _ in range(3)).capitalize()


def _record(i: int, rng: random.Random, cueless: int) -> Document:
    name = _word(rng)
    parts: list[tuple[str, str | None]] = [("Seen by Dr. ", None), (name, "DOCTOR"), (" today.\n", None)]
    lines: list[tuple[str, str | None]] = [(name, "DOCTOR")] * cueless + [(_word(rng), None) for _ in range(3)]
    rng.shuffle(lines)
    for word, label in lines:
        parts += [(word, label), (" reviewed the chart.\n", None)]
    text, spans = "", []
    for piece, label in parts:
        if label:
            spans.append(Span(len(text), len(text) + len(piece), label))
        text += piece
    return Document(f"r{i}", text, layers={"gold": spans})


def _cueless_gold(doc: Document) -> set[tuple[int, int, str]]:
    return {(s.start, s.end, s.label) for s in doc.layer("gold") if not doc.text[:s.start].endswith("Dr. ")}


@pytest.fixture(scope="module", params=[1, 2], ids=["one-cueless", "two-cueless"])
def fitted(request):
    rng = random.Random(0)
    docs = [_record(i, rng, request.param) for i in range(60)]
    return aramaki.build(folds=3, max_iterations=60).fit(docs[:40]), docs[40:]


def test_second_stage_propagates_the_record_majority_to_cueless_mentions(fitted):
    tagger, test = fitted
    found1 = found2 = total = 0
    changed = False
    for doc in test:
        want = _cueless_gold(doc)
        blank = doc.copy(layers=False)
        stage1 = {(s.start, s.end, s.label) for s in tagger.first_.decode(blank).spans}
        stage2 = {(s.start, s.end, s.label) for s in tagger.detect(blank)}
        found1 += len(want & stage1)
        found2 += len(want & stage2)
        total += len(want)
        changed |= stage1 != stage2
    assert changed, "stage 2 returned stage 1's spans unchanged"
    assert found1 <= 0.25 * total  # the premise: stage 1 labels each name inconsistently
    assert found2 >= 0.9 * total


def test_second_stage_adds_no_false_positives(fitted):
    tagger, test = fitted
    spurious = 0
    for doc in test:
        gold = {(s.start, s.end) for s in doc.layer("gold")}
        spurious += sum((s.start, s.end) not in gold for s in tagger.detect(doc.copy(layers=False)))
    assert spurious <= 2
