"""Significance-aware verdicts for the paper comparisons of an experiments report.

A paper claim such as "Stat De-id beats CRFD" gets one of four verdicts:

* ``agrees``: our difference goes the paper's way **and** the named test calls it
  significant (two-sided, alpha 0.05);
* ``differs``: our difference goes the other way and is significant;
* ``not significant``: the test does not separate the two figures, whichever way the
  point estimates lean;
* ``-``: nothing to decide (a descriptive line, or a figure is missing).

Claims that are not a comparison of two proportions (a rank correlation against
another, a threshold on a learning curve) get the descriptive verdicts ``agrees
(no test)`` / ``differs (no test)``, so a reader never mistakes them for a tested result.

The test is Uzuner et al.'s z-test for two proportions (eq. 6-7,
:func:`notescrub.evaluate.stats.z_test_two_proportions`) applied to the figure the
claim is about, with ``n`` the denominator that figure is a share of (gold tokens for
token F and recall, gold spans for strict F and recall, predicted spans for strict
precision). It treats the two figures as independent samples: conservative for two
systems scored on the same notes, as the paper used it.

>>> v = z_verdict(0.9800, 0.9761, 20000, claim_first_higher=True, what="PHI token F", unit="gold PHI tokens")
>>> v["verdict"], v["test"]
('agrees', 'z-test (Uzuner eq. 6-7) on PHI token F, n = 20000 gold PHI tokens: z = +2.66, p = 0.008')
>>> z_verdict(0.9877, 0.9873, 9000, claim_first_higher=True, what="PHI token F", unit="gold PHI tokens")["verdict"]
'not significant'
>>> z_verdict(0.90, 0.95, 2000, claim_first_higher=True, what="strict F", unit="gold spans")["verdict"]
'differs'
>>> combine([z_verdict(0.6, 0.7, 1664, claim_first_higher=False, what="strict F", unit="gold spans"),
...          z_verdict(0.71, 0.73, 1664, claim_first_higher=False, what="strict F", unit="gold spans")])["verdict"]
'not significant'
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from notescrub.evaluate.stats import z_test_two_proportions

__all__ = [
    "AGREES",
    "DIFFERS",
    "NOT_SIGNIFICANT",
    "UNDECIDED",
    "VERDICTS",
    "combine",
    "descriptive",
    "verdict_of",
    "z_verdict",
]

AGREES = "agrees"
DIFFERS = "differs"
NOT_SIGNIFICANT = "not significant"
UNDECIDED = "-"
#: every verdict a comparison line can carry
VERDICTS = (AGREES, DIFFERS, NOT_SIGNIFICANT, UNDECIDED, "agrees (no test)", "differs (no test)")


def z_verdict(a: float | None, b: float | None, n: int | None, *, claim_first_higher: bool, what: str,
              unit: str, n_b: int | None = None, alpha: float = 0.05) -> dict[str, Any]:
    """The verdict on "``a`` is above ``b``" (or below, when ``claim_first_higher`` is False).

    ``n`` (and ``n_b`` when the two figures have different denominators) is the count
    each proportion is a share of; the result names the test, z and p.
    """
    if a is None or b is None or not n or (n_b is not None and n_b <= 0):
        return {"verdict": UNDECIDED, "test": f"no test: {what} or its n is missing"}
    t = z_test_two_proportions(float(a), int(n), float(b), int(n_b if n_b is not None else n), alpha=alpha)
    n_txt = f"n = {n} {unit}" if n_b is None or n_b == n else f"n = {n} / {n_b} {unit}"
    test = f"z-test (Uzuner eq. 6-7) on {what}, {n_txt}: z = {t.z:+.2f}, p = {t.p_value:.3f}"
    if not t.significant:
        verdict = NOT_SIGNIFICANT
    else:
        verdict = AGREES if (t.z > 0) == claim_first_higher else DIFFERS
    return {"verdict": verdict, "test": test, "z": round(t.z, 4), "p_value": t.p_value}


def combine(parts: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """One verdict for a claim made of several comparisons that must all hold.

    ``differs`` if any part differs, else ``agrees`` only if every part agrees, else
    ``not significant`` (``-`` when a part is undecided).
    """
    parts = list(parts)
    verdicts = [p["verdict"] for p in parts]
    if DIFFERS in verdicts:
        v = DIFFERS
    elif verdicts and all(x == AGREES for x in verdicts):
        v = AGREES
    elif UNDECIDED in verdicts or not verdicts:
        v = UNDECIDED
    else:
        v = NOT_SIGNIFICANT
    return {"verdict": v, "test": "; ".join(p["test"] for p in parts)}


def descriptive(holds: bool | None, why: str) -> dict[str, Any]:
    """A verdict for a claim no two-proportion test fits (``why`` says so)."""
    if holds is None:
        return {"verdict": UNDECIDED, "test": f"no test ({why})"}
    return {"verdict": f"{AGREES if holds else DIFFERS} (no test)", "test": f"no test ({why})"}


def verdict_of(comparison: dict[str, Any]) -> str:
    """The verdict word of a comparison line (older reports stored ``agrees`` as True/False/None)."""
    if "verdict" in comparison:
        return str(comparison["verdict"])
    return {True: AGREES, False: DIFFERS, None: UNDECIDED}[comparison.get("agrees")]
