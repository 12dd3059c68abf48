"""Document-recurrence features: where else in the same document a token's word occurs.

A one-pass stand-in for label consistency. A name written under a header key
("Apellidos: Garcia Lopez") and again in the narrative ("la Sra. Garcia") is the same
PHI both times; the narrative occurrence alone has little context. Token ``i`` whose
lower-cased word also occurs on *other* lines of the document gets:

* ``doc:head=<key>`` for each distinct first word (lower-cased) of those other lines --
  the header key (``nombre``, ``apellidos``, ``medico``...) under which the word was
  also written;
* ``doc:again`` (the word recurs on another line), or ``doc:many`` instead of both when
  it occurs on more than :data:`MAX_LINES` lines (function words, frequent terms).

Only words with a letter or digit count; punctuation gets no feature. The features
depend on the document alone (no training data, no lexicon), so they are the same at
training and at run time. Cost: one pass to index the words' lines, one to emit; rows
are shared between tokens with the same features (a :class:`TableGroup` table).

>>> from notescrub.types import Document
>>> from notescrub.text.views import token_view
>>> v = token_view(Document("d", "Apellidos: Ruiz Gil.\\nVista por la Sra. Ruiz hoy."))
>>> table, ids = document_table(v)
>>> [(t.text, table[k]) for t, k in zip(v.tokens, ids) if table[k]]
[('Ruiz', ['doc:again', 'doc:head=vista']), ('Ruiz', ['doc:again', 'doc:head=apellidos'])]
"""

from __future__ import annotations

from collections import defaultdict

from notescrub.text.views import TokenView

__all__ = ["MAX_LINES", "document_table"]

#: a word on more lines than this is frequent: it gets ``doc:many`` and no header keys
MAX_LINES = 6


def document_table(view: TokenView) -> tuple[list[list[str]], list[int]]:
    """Document-recurrence features as ``(table, ids)``: token ``i`` gets ``table[ids[i]]``.

    >>> from notescrub.types import Document
    >>> from notescrub.text.views import token_view
    >>> table, ids = document_table(token_view(Document("d", "a b\\nc d")))
    >>> table, ids
    ([[]], [0, 0, 0, 0])
    """
    toks = view.tokens
    lines: dict[str, list[int]] = defaultdict(list)  # word -> distinct lines, in order
    head: dict[int, str] = {}
    words: list[str] = []
    for t, line in zip(toks, view.line):
        if line not in head:
            head[line] = t.text.lower()
        w = t.text.lower()
        words.append(w)
        if not any(c.isalnum() for c in w):
            continue
        lst = lines[w]
        if not lst or lst[-1] != line:  # tokens come in text order: lines never decrease
            lst.append(line)
    table: list[list[str]] = [[]]
    rows: dict[tuple[str, ...], int] = {(): 0}
    ids: list[int] = []
    for w, line in zip(words, view.line):
        seen = lines.get(w)
        if seen is None or len(seen) < 2:
            ids.append(0)
            continue
        if len(seen) > MAX_LINES:
            key: tuple[str, ...] = ("doc:many",)
        else:
            key = ("doc:again", *sorted({f"doc:head={head[x]}" for x in seen if x != line}))
        got = rows.get(key)
        if got is None:
            got = rows[key] = len(table)
            table.append(list(key))
        ids.append(got)
    return table, ids
