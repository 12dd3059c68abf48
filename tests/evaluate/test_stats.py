import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notescrub.errors import ConfigError
from notescrub.evaluate.counts import PRF
from notescrub.evaluate.stats import (
    bootstrap_f1_ci,
    rankdata,
    spearman,
    z_test_two_proportions,
)


@pytest.mark.parametrize(
    "p1, n1, p2, n2, z, significant",
    [
        # pooled .85, se = sqrt(.85*.15*(2/100)) = .0504975 -> z = .1/.0504975
        (0.9, 100, 0.8, 100, 1.98030, True),
        # pooled .45, se = sqrt(.45*.55*.2) = .222486 -> z = .449467
        (0.5, 10, 0.4, 10, 0.449467, False),
        # unequal n: pooled (1000*.97 + 500*.95)/1500 = .963333; se = sqrt(.963333*.036667*(1/1000+1/500))
        (0.97, 1000, 0.95, 500, 0.02 / math.sqrt(0.9633333 * 0.0366667 * 0.003), False),  # z = 1.943 < 1.96
        (0.8, 100, 0.9, 100, -1.98030, True),
    ],
)
def test_z_test_eq_6_7(p1, n1, p2, n2, z, significant):
    r = z_test_two_proportions(p1, n1, p2, n2)
    assert r.z == pytest.approx(z, abs=1e-4)
    assert r.significant is significant
    assert r.p_value == pytest.approx(math.erfc(abs(r.z) / math.sqrt(2)))


def test_z_test_p_value_matches_scipy():
    from scipy.stats import norm

    r = z_test_two_proportions(0.9, 100, 0.8, 100)
    assert r.p_value == pytest.approx(2 * norm.sf(abs(r.z)))
    assert r.p_value == pytest.approx(0.0477, abs=1e-4)


def test_z_test_degenerate_and_invalid():
    r = z_test_two_proportions(1.0, 50, 1.0, 80)
    assert r.z == 0.0 and r.p_value == 1.0 and not r.significant
    with pytest.raises(ConfigError):
        z_test_two_proportions(1.2, 10, 0.5, 10)
    with pytest.raises(ConfigError):
        z_test_two_proportions(0.5, 0, 0.5, 10)
    # a stricter alpha needs a larger |z|
    assert not z_test_two_proportions(0.9, 100, 0.8, 100, alpha=0.01).significant


def test_bootstrap_constant_documents_give_a_point_interval():
    ci = bootstrap_f1_ci([PRF(3, 1, 1)] * 20, n_resamples=300, seed=3)
    assert ci.low == pytest.approx(0.75) and ci.high == pytest.approx(0.75) and ci.estimate == pytest.approx(0.75)


def test_bootstrap_is_deterministic_and_brackets_the_estimate():
    docs = [(5, 0, 1), (2, 3, 0), (0, 0, 4), (7, 1, 1), (3, 3, 3), (1, 0, 0)]
    a = bootstrap_f1_ci(docs, n_resamples=500, seed=7)
    b = bootstrap_f1_ci(docs, n_resamples=500, seed=7)
    assert a == b
    assert 0.0 <= a.low < a.estimate < a.high <= 1.0
    # estimate is the micro F1 of the summed counts: tp 18, fp 7, fn 9
    assert a.estimate == pytest.approx(PRF(18, 7, 9).f1)
    narrow = bootstrap_f1_ci(docs, n_resamples=500, seed=7, confidence=0.5)
    assert a.low <= narrow.low and narrow.high <= a.high


def test_paired_bootstrap():
    a = [(5, 0, 1), (2, 3, 0), (0, 0, 4), (7, 1, 1)]
    same = bootstrap_f1_ci(a, a, n_resamples=200)
    assert same.estimate == 0.0 and same.low == 0.0 and same.high == 0.0 and same.p_value == 1.0
    better = [(tp + fn, fp, 0) for tp, fp, fn in a]  # recovers every miss
    d = bootstrap_f1_ci(better, a, n_resamples=500)
    assert d.estimate > 0 and d.low > 0 and d.p_value < 0.05
    with pytest.raises(ConfigError):
        bootstrap_f1_ci(a, a[:2])
    with pytest.raises(ConfigError):
        bootstrap_f1_ci([])


def test_rankdata_ties():
    assert rankdata([10, 20, 20, 5]) == [2.0, 3.5, 3.5, 1.0]
    assert rankdata([]) == []


def test_spearman_hand_computed():
    assert spearman([1, 2, 3], [3, 2, 1]) == pytest.approx(-1.0)
    # ranks x: 1 2 3 4, y: 1 3 2 4 -> d^2 = 0+1+1+0 = 2 -> 1 - 6*2/(4*15) = 0.8
    assert spearman([1, 2, 3, 4], [10, 30, 20, 40]) == pytest.approx(0.8)
    assert math.isnan(spearman([1, 1, 1], [1, 2, 3]))
    assert math.isnan(spearman([1], [2]))
    with pytest.raises(ConfigError):
        spearman([1, 2], [1])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(-5, 5), st.integers(-5, 5)), min_size=3, max_size=30))
def test_spearman_matches_scipy(pairs):
    from scipy.stats import spearmanr

    x = [a for a, _ in pairs]
    y = [b for _, b in pairs]
    ours = spearman(x, y)
    if len(set(x)) < 2 or len(set(y)) < 2:
        assert math.isnan(ours)
    else:
        assert ours == pytest.approx(spearmanr(x, y).statistic, abs=1e-9)
        assert spearman([3 * v + 1 for v in x], y) == pytest.approx(ours)  # monotone invariance
