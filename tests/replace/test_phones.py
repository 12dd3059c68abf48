"""Phone and fax surrogates: valid North-American form, fictional 555-01xx by default, format kept."""

import re

import pytest

from notescrub.replace import Replacer, SurrogateKey
from notescrub.replace.phones import is_fictional, nanp_parts
from notescrub.types import Document, Span

KEY = SurrogateKey(bytes(range(32)))
VALID_NPA = re.compile(r"^[2-9][0-8]\d$")


def _replace(values, label="PHONE", **kw):
    text = " / ".join(values)
    spans, pos = [], 0
    for v in values:
        i = text.index(v, pos)
        spans.append(Span(i, i + len(v), label))
        pos = i + len(v)
    res = Replacer("surrogate", key=KEY, **kw).replace(Document("d", text, "P1", layers={"phi": spans}))
    return [res.text[s.start:s.end] for s in res.spans]


def _form(text):
    return re.sub(r"\d", "d", text)


@pytest.mark.parametrize("phone", ["(617) 555-0148", "617-555-0148", "617.555.0148", "617 555 0148", "6175550148",
                                   "+1 617 555 0148", "+1 (617) 555-0148", "1-617-555-0148", "(617)555-0148",
                                   "182-284-4016", "212-736-5000"])
def test_numbers_keep_their_form_and_are_valid_and_fictional(phone):
    [out] = _replace([phone])
    assert _form(out) == _form(phone) and out != phone
    npa, nxx, line = nanp_parts(out)
    assert VALID_NPA.match(npa) and npa[1:] != "11"
    assert nxx == "555" and "0100" <= line <= "0199"
    assert is_fictional(out)


def test_toll_free_stays_toll_free_and_extensions_change():
    free, ext = _replace(["1-800-555-0176", "440-555-0100 ext 3311"])
    assert free.startswith("1-8") and nanp_parts(free)[0] in ("800", "833", "844", "855", "866", "877", "888")
    assert ext.endswith(ext[-4:]) and " ext " in ext and not ext.endswith("3311") and is_fictional(ext)


def test_same_number_in_any_form_and_as_fax_gets_the_same_surrogate():
    a, b, c = _replace(["(617) 555-0148", "617.555.0148", "+1 617 555 0148"])
    [fax] = _replace(["617-555-0148"], "FAX")
    digits = {re.sub(r"\D", "", x)[-10:] for x in (a, b, c, fax)}
    assert len(digits) == 1


def test_real_exchanges_on_request():
    outs = _replace([f"617-555-01{i:02d}" for i in range(30)], fictional_phones=False)
    for out in outs:
        npa, nxx, _line = nanp_parts(out)
        assert VALID_NPA.match(npa) and re.match(r"^[2-9]\d\d$", nxx) and nxx[1:] != "11" and nxx != "555"
        assert not is_fictional(out)


def test_numbers_that_are_not_north_american_keep_their_shape():
    ext, local = _replace(["4-6290", "555-0148"])
    assert _form(ext) == "d-dddd" and ext != "4-6290"
    assert local.startswith("555-01") and local != "555-0148"
