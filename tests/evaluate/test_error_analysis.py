import pytest

from notescrub.evaluate.align import align, dedupe
from notescrub.evaluate.error_analysis import (
    analyse,
    classify,
    error_listing,
    format_listing,
)

from .helpers import at, item


@pytest.mark.parametrize(
    "gold, pred, kind",
    [
        ((0, 10, "A"), (0, 10, "A"), "correct"),
        ((0, 10, "A"), (0, 10, "B"), "type"),
        ((0, 10, "A"), (5, 15, "B"), "type"),  # type wins over extent
        ((0, 10, "A"), (2, 8, "A"), "extent_short"),
        ((0, 10, "A"), (0, 8, "A"), "extent_short"),
        ((0, 10, "A"), (0, 12, "A"), "extent_long"),
        ((2, 10, "A"), (0, 12, "A"), "extent_long"),
        ((0, 10, "A"), (5, 15, "A"), "extent_short_long"),
        ((0, 10, "A"), None, "missing"),
        (None, (0, 10, "A"), "spurious"),
    ],
)
def test_classify(gold, pred, kind):
    g = item(*gold) if gold else None
    p = item(*pred) if pred else None
    assert classify(g, p) == kind


def test_confusion_with_margins():
    text = "Aaaa      Bbbb      Cccc      Dddd"
    gold = [item(0, 4, "AGE"), item(10, 14, "CITY"), item(20, 24, "DATE")]
    pred = [item(0, 4, "AGE"), item(10, 14, "AGE"), item(30, 34, "ZIP")]
    a = analyse([("d", text, gold, pred)])
    c = a["confusion"]
    assert c["rows"] == ["AGE", "CITY", "DATE", "ZIP", "SPURIOUS"]
    assert c["columns"] == ["AGE", "CITY", "DATE", "ZIP", "MISSING"]
    m = c["matrix"]
    assert m["AGE"]["AGE"] == 1 and m["CITY"]["AGE"] == 1 and m["DATE"]["MISSING"] == 1
    assert m["SPURIOUS"]["ZIP"] == 1
    assert sum(v for row in m.values() for v in row.values()) == 4
    assert a["totals"] == {"correct": 1, "type": 1, "extent_short": 0, "extent_long": 0,
                           "extent_short_long": 0, "missing": 1, "spurious": 1}
    assert a["counts"]["CITY"]["type"] == 1 and a["counts"]["ZIP"]["spurious"] == 1


def test_two_predictions_inside_one_gold():
    text = "Newton Hospital"
    gold = [item(0, 15, "HOSPITAL")]
    pred = [item(0, 6, "HOSPITAL"), item(7, 15, "HOSPITAL")]
    pairs = align(gold, pred)
    assert [(g and (g.start, g.end), p and (p.start, p.end)) for g, p in pairs] == [((0, 15), (7, 15)), (None, (0, 6))]
    t = analyse([("d", text, gold, pred)])["totals"]
    assert t["extent_short"] == 1 and t["spurious"] == 1


def test_exact_match_preferred_over_bigger_overlap():
    gold = [item(0, 10, "A"), item(0, 20, "A")]
    pred = [item(0, 20, "A")]
    pairs = align(gold, pred)
    assert (pairs[1][0].end, pairs[1][1].end) == (20, 20) and pairs[0][1] is None


def test_duplicates_collapse():
    assert len(dedupe([item(0, 3, "A"), item(0, 3, "A"), item(0, 3, "B")])) == 2
    a = analyse([("d", "abc", [item(0, 3, "A")] * 2, [item(0, 3, "A")])])
    assert a["totals"]["missing"] == 0 and a["totals"]["correct"] == 1


def test_listing_has_context_for_terminal_only():
    text = "Seen by Dr. Niste Marhalt yesterday."
    gold = [at(text, "Niste Marhalt", "DOCTOR")]
    pred = [at(text, "Dr. Niste Marhalt", "DOCTOR")]
    errs = error_listing([("n1", text, gold, pred)], context=5)
    assert len(errs) == 1 and errs[0]["kind"] == "extent_long" and errs[0]["extent_differs"]
    assert errs[0]["context"] == "n by [Dr. Niste Marhalt] yest"
    line = format_listing(errs)[0]
    assert line.startswith("n1\textent_long\tgold=DOCTOR[12:25]\tpred=DOCTOR[8:25]")
    assert analyse([("n1", text, gold, pred)]).__repr__().find("Marhalt") == -1  # counts only, no text


def test_empty():
    a = analyse([("d", "", [], [])])
    assert a["counts"] == {} and a["confusion"]["rows"] == ["SPURIOUS"] and a["totals"]["correct"] == 0
