import pytest

from notescrub.evaluate.counts import PRF, f_beta, macro, ratio


@pytest.mark.parametrize(
    "tp, fp, fn, p, r, f",
    [
        (3, 1, 2, 0.75, 0.6, 2 / 3),
        (0, 0, 0, 0.0, 0.0, 0.0),  # 0/0 counts as 0 (official scripts)
        (0, 4, 0, 0.0, 0.0, 0.0),  # empty gold, spurious predictions
        (0, 0, 4, 0.0, 0.0, 0.0),  # empty prediction
        (5, 0, 0, 1.0, 1.0, 1.0),
        (1, 1, 0, 0.5, 1.0, 2 / 3),
    ],
)
def test_prf_table(tp, fp, fn, p, r, f):
    c = PRF(tp, fp, fn)
    assert c.precision == pytest.approx(p)
    assert c.recall == pytest.approx(r)
    assert c.f1 == pytest.approx(f)
    assert c.as_dict() == {"precision": c.precision, "recall": c.recall, "f1": c.f1, "tp": tp, "fp": fp, "fn": fn}


def test_sum_and_total():
    assert PRF(1, 2, 3) + PRF(10, 20, 30) == PRF(11, 22, 33)
    assert PRF.total([PRF(1, 0, 0), PRF(0, 1, 0), PRF(0, 0, 1)]) == PRF(1, 1, 1)
    assert PRF.total([]) == PRF()
    assert PRF(2, 0, 3).support == 5


def test_helpers():
    assert ratio(1, 0) == 0.0
    assert ratio(1, 4) == 0.25
    assert f_beta(0.0, 0.0) == 0.0
    # F2 weights recall: p=0.5, r=1 -> 5 * 0.5 / (4*0.5 + 1) = 0.8333
    assert f_beta(0.5, 1.0, beta=2) == pytest.approx(2.5 / 3)
    assert f_beta(1.0, 0.0, beta=2) == 0.0


def test_macro_hand_computed():
    # docs: P/R = (1, 1), (0.5, 0.5), (0, 0) [no gold, no prediction]
    m = macro([PRF(2, 0, 0), PRF(1, 1, 1), PRF()])
    assert m["precision"] == pytest.approx(0.5)
    assert m["recall"] == pytest.approx(0.5)
    assert m["f1"] == pytest.approx(0.5)
    # population SD of (1, .5, 0) = sqrt(((.5)^2 + 0 + (.5)^2) / 3)
    assert m["precision_sd"] == pytest.approx((0.5 / 3) ** 0.5)
    assert m["documents"] == 3


def test_macro_empty():
    assert macro([])["f1"] == 0.0
