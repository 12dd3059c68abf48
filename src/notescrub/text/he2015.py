"""He et al. (2015) Table 1: the WI-deId preprocessing that splits fused tokens.

WI-deId tokenised i2b2 2014 notes in three steps: OpenNLP's tokenizer, then nine
regular expressions (their Table 1) that cut a matching token in two, then every
punctuation character on its own. This module is step 2, written as *split points*
(character offsets), so that offsets stay the single truth: :func:`split_points`
returns the offsets where a Table 1 rule cuts, and :func:`tokenize_he2015` is the
whole pipeline over the text.

Each rule is the paper's regular expression (ASCII classes, as in the paper) and the
place inside its match where the paper cuts, written as a look-behind/look-ahead pair
that matches the empty string at that place. The rules are applied to the original
text all at once (every match cuts, as a global replace would); a cut needs a
non-space character on both sides, so it is always inside a whitespace-delimited chunk.

=========================================  ======================  =======================
paper's regular expression                 example                 after the rule
=========================================  ======================  =======================
``\\d{2}/\\d{2}/\\d{4}``                     ``PEND01/26/2098``      ``PEND 01/26/2098``
``\\d{2}-year-old``                         ``45-year-old``         ``45 -year-old``
``[A-Za-z]+\\d/\\d{2}``                      ``CABG6/95``            ``CABG 6/95``
``[a-z]\\d{5}``                             ``x76221``              ``x 76221``
``[A-Z]\\d-\\d{4}``                          ``X1-1335``             ``X 1-1335``
``\\d{3}[-,]\\d{3}[-,]\\d{4}``                ``47798497-045-1949``   ``47798 497-045-1949``
``[A-Z]{2}[a-z][a-z]+``                     ``ALMarital``           ``AL Marital``
``\\d[A-Za-z][A-Za-z]+``                     ``34712RadiologyExam``  ``34712 RadiologyExam``
``[a-z][a-z]+[A-Z]``                        ``JaffreyMarital``      ``Jaffrey Marital``
=========================================  ======================  =======================

The cut is where the paper's "after" column puts the space: ``[A-Z]{2}[a-z][a-z]+`` matches
``LMarital`` inside ``ALMarital`` and the cut follows its first letter, so ``AL | Marital``.

Step 1 (OpenNLP) and step 3 (punctuation) are stood in for by the toolkit's plain
tokenizer (``tokenize(text, fused=False)``: whitespace, and every punctuation character
on its own, which covers the paper's list ``" , : ; # * - = / < > [ ] { }``).
Letters and digits that no Table 1 rule separates stay together (``MRN4482911``,
``3x``), unlike the toolkit's default clinical tokenizer.

>>> [t.text for t in tokenize_he2015("PEND01/26/2098 47798497-045-1949 MRN4482911")]
['PEND', '01', '/', '26', '/', '2098', '47798', '497', '-', '045', '-', '1949', 'MRN4482911']
>>> split_points("JaffreyMarital")
[7]
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from notescrub.text.tokenize import Token

__all__ = ["TABLE1", "SplitRule", "apply_rule", "split_points", "tokenize_he2015"]


@dataclass(frozen=True)
class SplitRule:
    """One row of He et al.'s Table 1.

    Attributes
    ----------
    paper: the regular expression as printed in the paper.
    cut: a zero-width pattern matching exactly where the paper cuts a match of ``paper``.
    example: the paper's example token; ``after``: the example after the rule (one space at the cut).
    """

    paper: str
    cut: str
    example: str
    after: str

    @property
    def pattern(self) -> re.Pattern[str]:
        """The compiled ``cut`` pattern."""
        return _compiled(self.cut)


_CACHE: dict[str, re.Pattern[str]] = {}


def _compiled(cut: str) -> re.Pattern[str]:
    pat = _CACHE.get(cut)
    if pat is None:
        pat = _CACHE[cut] = re.compile(cut)
    return pat


#: the nine rows of Table 1, in the paper's order
TABLE1: tuple[SplitRule, ...] = (
    SplitRule(r"\d{2}/\d{2}/\d{4}", r"(?<=\S)(?=[0-9]{2}/[0-9]{2}/[0-9]{4})", "PEND01/26/2098", "PEND 01/26/2098"),
    SplitRule(r"\d{2}-year-old", r"(?<=[0-9]{2})(?=-year-old)", "45-year-old", "45 -year-old"),
    SplitRule(r"[A-Za-z]+\d/\d{2}", r"(?<=[A-Za-z])(?=[0-9]/[0-9]{2})", "CABG6/95", "CABG 6/95"),
    SplitRule(r"[a-z]\d{5}", r"(?<=[a-z])(?=[0-9]{5})", "x76221", "x 76221"),
    SplitRule(r"[A-Z]\d-\d{4}", r"(?<=[A-Z])(?=[0-9]-[0-9]{4})", "X1-1335", "X 1-1335"),
    SplitRule(r"\d{3}[\-,]\d{3}[\-,]\d{4}", r"(?<=\S)(?=[0-9]{3}[-,][0-9]{3}[-,][0-9]{4})", "47798497-045-1949",
              "47798 497-045-1949"),
    SplitRule(r"[A-Z]{2}[a-z][a-z]+", r"(?<=[A-Z])(?=[A-Z][a-z]{2})", "ALMarital", "AL Marital"),
    SplitRule(r"\d[A-Za-z][A-Za-z]+", r"(?<=[0-9])(?=[A-Za-z]{2})", "34712RadiologyExam", "34712 RadiologyExam"),
    SplitRule(r"[a-z][a-z]+[A-Z]", r"(?<=[a-z]{2})(?=[A-Z])", "JaffreyMarital", "Jaffrey Marital"),
)

_ALL = re.compile("|".join(f"(?:{r.cut})" for r in TABLE1))


def apply_rule(rule: SplitRule, text: str) -> str:
    """``text`` with one space inserted at every cut of ``rule`` (the paper's "after" column).

    >>> apply_rule(TABLE1[5], "47798497-045-1949")
    '47798 497-045-1949'
    """
    return rule.pattern.sub(" ", text)


def split_points(text: str) -> list[int]:
    """Sorted offsets where some Table 1 rule cuts ``text`` (never at a space, never at 0 or ``len(text)``).

    >>> split_points("PEND01/26/2098 x76221")
    [4, 16]
    """
    return [m.start() for m in _ALL.finditer(text)]


def tokenize_he2015(text: str) -> list[Token]:
    """WI-deId's tokens: the plain tokenizer's tokens, each cut again at the Table 1 split points.

    Linear in ``len(text)``: one pass of the rules, one of the plain tokenizer, one merge.

    >>> [t.text for t in tokenize_he2015("45-year-old, ALMarital 34712RadiologyExam")]
    ['45', '-', 'year', '-', 'old', ',', 'AL', 'Marital', '34712', 'Radiology', 'Exam']
    """
    from notescrub.text.tokenize import tokenize

    cuts = split_points(text)
    plain = tokenize(text, fused=False)
    if not cuts:
        return plain
    out: list[Token] = []
    k, n_cuts = 0, len(cuts)
    for tok in plain:
        while k < n_cuts and cuts[k] <= tok.start:
            k += 1
        start = tok.start
        while k < n_cuts and cuts[k] < tok.end:
            cut = cuts[k]
            out.append(Token(start, cut, text[start:cut]))
            start = cut
            k += 1
        out.append(tok if start == tok.start else Token(start, tok.end, text[start:tok.end]))
    return out
