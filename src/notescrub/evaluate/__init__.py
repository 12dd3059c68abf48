"""Evaluation: score predicted spans against gold spans, as the challenges did.

:func:`evaluate` pairs documents by id, compares a gold layer with a predicted
layer (never rendered text) and returns every figure of a scheme in one
JSON-ready dict (layout in docs/evaluation.md). Schemes: ``i2b2-2014`` (official
strict / relaxed / token, HIPAA and binary variants, micro and macro),
``meddocan`` (subtasks 1 and 2, leak), ``i2b2-2006`` (token, phrase, MUC, binary,
weighted-with-TN) and ``binary`` (PHI vs non-PHI tokens). Submodules hold the
pieces: :mod:`~notescrub.evaluate.pairing`, :mod:`~notescrub.evaluate.counts`,
:mod:`~notescrub.evaluate.stats`, :mod:`~notescrub.evaluate.splits`,
:mod:`~notescrub.evaluate.error_analysis`, :mod:`~notescrub.evaluate.report`.

>>> from notescrub.types import Document, Span
>>> gold = [Document("n1", "Seen 3/18 by Ruiz.", layers={"gold": [Span(5, 9, "DATE"), Span(13, 17, "DOCTOR")]})]
>>> pred = [Document("n1", "Seen 3/18 by Ruiz.", layers={"gold": [Span(5, 9, "DATE")]})]
>>> r = evaluate(gold, pred)
>>> r["i2b2_2014"]["strict"]["micro"]["f1"]
0.6666666666666666
>>> r["error_analysis"]["totals"]["missing"]
1
"""

from notescrub.evaluate.api import SCHEMES, evaluate

__all__ = ["SCHEMES", "evaluate"]
