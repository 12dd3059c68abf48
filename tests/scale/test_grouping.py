"""Patient groups in two streaming passes (notescrub.scale.grouping)."""

import random

import pytest

from notescrub.errors import ProcessingError
from notescrub.scale.grouping import GroupBuffer, groups, plan
from notescrub.types import Document


def _docs(n=60, patients=7, seed=3):
    rng = random.Random(seed)
    out = []
    for i in range(n):
        p = rng.randrange(patients + 1)
        out.append(Document(f"n{i}", f"note {i} " * rng.randint(1, 30), None if p == patients else f"P{p}"))
    return out


@pytest.mark.parametrize("memory_chars", [10**9, 200, 1])
def test_interleaved_patients_come_out_whole_whatever_the_buffer(memory_chars, tmp_path):
    docs = _docs()
    p = plan(docs)
    got = list(groups(docs, p, memory_chars=memory_chars, spill_dir=tmp_path))
    # every note exactly once, each group one patient (or one note without a patient), in input order
    assert sorted(pos for g in got for pos, _ in g) == list(range(len(docs)))
    for g in got:
        assert [pos for pos, _ in g] == sorted(pos for pos, _ in g)
        pats = {d.patient_id for _, d in g}
        assert len(pats) == 1 and (None not in pats or len(g) == 1)
        assert all(docs[pos] is d or docs[pos].id == d.id for pos, d in g)
    by_patient = {g[0][1].patient_id: [pos for pos, _ in g] for g in got if g[0][1].patient_id}
    for pid, positions in by_patient.items():
        assert positions == [i for i, d in enumerate(docs) if d.patient_id == pid]
    # groups leave in the order of their last note: the same for any buffer size
    assert [g[-1][0] for g in got] == sorted(g[-1][0] for g in got)
    assert list(tmp_path.iterdir()) == []  # the spill file is unlinked at once


def test_spill_moves_open_groups_to_disk():
    buf = GroupBuffer(memory_chars=10)
    for i in range(5):
        buf.add("P1", i, Document(f"n{i}", "x" * 6, "P1"))
    assert buf.spilled >= 4
    assert [pos for pos, _ in buf.pop("P1")] == [0, 1, 2, 3, 4]
    buf.close()


def test_a_changed_input_is_refused():
    docs = _docs(20)
    p = plan(docs)
    with pytest.raises(ProcessingError, match="input changed"):
        list(groups(docs[:-3], p))
    with pytest.raises(ProcessingError, match="input changed"):
        list(groups(docs + [Document("new", "x", "P-new")], p))
