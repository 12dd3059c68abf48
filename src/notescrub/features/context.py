"""Per-token features that depend on the token's place in the record, not on its word.

* :func:`sentence_features` (Aramaki et al. 2006, Table 2): line position in the record
  (top 10 lines / bottom 5 lines / other), the lengths of the previous, current and next
  sentence, the last three words of the previous sentence, and the section heading.
* :func:`position_features` (Dehghan et al. 2015): line index, first token of its line,
  the first word of the line (``Nombre:``, ``MRN:`` header keys), no space after the token.
* :func:`context_bag`: the words around a token in its sentence, without their distance.

>>> from notescrub.types import Document
>>> from notescrub.text.views import token_view
>>> v = token_view(Document("d", "Name: Ana Ruiz\\nSeen today."))
>>> sentence_features(v)[1][:3]
['lpos=top', 'slen[-1]=none', 'slen[0]=4']
>>> position_features(v)[2]
['line=0', 'line_head=name']
"""

from __future__ import annotations

from notescrub.text.views import TokenView

__all__ = ["context_bag", "length_bucket", "position_features", "position_table", "sentence_features", "sentence_table"]

_TOP_LINES = 10
_BOTTOM_LINES = 5
_MAX_LINE = 20


# the strings are shared, so their hashes are computed once (feature lookups hash them)
_LINE_FEATURES = [f"line={k}" for k in range(_MAX_LINE)] + [f"line={_MAX_LINE}+"]


def length_bucket(n: int) -> str:
    """Coarse bucket of a sentence length in tokens."""
    if n <= 5:
        return str(n)
    if n <= 10:
        return "6-10"
    if n <= 20:
        return "11-20"
    return "21+"


def sentence_table(view: TokenView, last_words: int = 3) -> tuple[list[list[str]], list[int]]:
    """Aramaki's sentence features as ``(table, ids)``: token ``i`` gets ``table[ids[i]]``.

    Tokens of one sentence on lines of the same position bucket, in the same section and
    heading state share one row, so a scorer handles each distinct row once.

    >>> from notescrub.types import Document
    >>> from notescrub.text.views import token_view
    >>> table, ids = sentence_table(token_view(Document("d", "Seen today. Home.")))
    >>> ids, table[1]
    ([0, 0, 0, 1, 1], ['lpos=top', 'slen[-1]=3', 'slen[0]=2', 'slen[1]=none', 'prevlast=seen', 'prevlast=today'])
    """
    n_sent = len(view.sentence_offsets)
    counts = [0] * n_sent
    words: list[list[str]] = [[] for _ in range(n_sent)]
    toks = view.tokens
    for i, s in enumerate(view.sentence):
        if s >= 0:
            counts[s] += 1
            t = toks[i].text
            if t[0].isalnum():
                words[s].append(t.lower())
    n_lines = view.n_lines
    bottom = n_lines - _BOTTOM_LINES
    table: list[list[str]] = []
    rows: dict[tuple[str, int, str, bool], int] = {}
    ids: list[int] = []
    append = ids.append
    prev_key: tuple[str, int, str, bool] | None = None
    k = -1
    for s, line, sec, head in zip(view.sentence, view.line, view.section, view.is_heading):
        lpos = "lpos=top" if line < _TOP_LINES else ("lpos=bottom" if line >= bottom else "lpos=mid")
        key = (lpos, s, sec, head)
        if key != prev_key:
            prev_key = key
            got = rows.get(key)
            if got is None:
                feats = [lpos]
                for d in (-1, 0, 1):
                    j = s + d
                    ok = s >= 0 and 0 <= j < n_sent
                    feats.append(f"slen[{d}]={length_bucket(counts[j]) if ok else 'none'}")
                if s > 0:
                    feats.extend(f"prevlast={w}" for w in words[s - 1][-last_words:])
                if sec:
                    feats.append(f"sec={sec[:30]}")
                if head:
                    feats.append("heading")
                got = rows[key] = len(table)
                table.append(feats)
            k = got
        append(k)
    return table, ids


def sentence_features(view: TokenView, last_words: int = 3) -> list[list[str]]:
    """Aramaki's sentence features for every token of ``view``."""
    table, ids = sentence_table(view, last_words)
    return [list(table[k]) for k in ids]


def position_table(view: TokenView) -> tuple[list[list[str]], list[int]]:
    """:func:`position_features` as ``(table, ids)``: token ``i`` gets ``table[ids[i]]``.

    >>> from notescrub.types import Document
    >>> from notescrub.text.views import token_view
    >>> table, ids = position_table(token_view(Document("d", "MRN: 12\\nok")))
    >>> [table[k] for k in ids]
    [['line=0', 'line_first', 'glued'], ['line=0', 'line_head=mrn'], ['line=0', 'line_head=mrn'], ['line=1', 'line_first']]
    """
    toks = view.tokens
    table: list[list[str]] = []
    rows: dict[tuple[int, bool, bool], int] = {}
    ids: list[int] = []
    append = ids.append
    head = ""
    prev_line = -1
    for t, line, space in zip(toks, view.line, view.space_after):
        first = line != prev_line
        if first:
            head = f"line_head={t.text.lower()}"  # rows of this line are built with it
            prev_line = line
        key = (line, first, space)
        got = rows.get(key)
        if got is None:
            feats = [_LINE_FEATURES[min(line, _MAX_LINE)], "line_first" if first else head]
            if not space:
                feats.append("glued")
            got = rows[key] = len(table)
            table.append(feats)
        append(got)
    return table, ids


def position_features(view: TokenView) -> list[list[str]]:
    """Line index, line-initial flag, first word of the line, glued-to-next flag."""
    table, ids = position_table(view)
    return [list(table[k]) for k in ids]


def context_bag(view: TokenView, k: int) -> list[list[str]]:
    """Per token: ``bagL=w`` / ``bagR=w`` for the lower-cased words among the ``k`` nearest
    words before / after it in the same sentence (the same line outside sentences).

    Only words of two or more letters count, as places and as features, so punctuation and
    numbers neither fill the bag nor use up its places. Linear in the number of tokens.

    >>> from notescrub.types import Document
    >>> from notescrub.text.views import token_view
    >>> v = token_view(Document("d", "Father alive, 79. Mother died."))
    >>> [t.text for t in v.tokens][3], context_bag(v, 2)[3]
    ('79', ['bagL=alive', 'bagL=father'])
    """
    toks = view.tokens
    n = len(toks)
    unit = [view.sentence[i] if view.sentence[i] >= 0 else -2 - view.line[i] for i in range(n)]
    left_f: dict[str, str] = {}
    right_f: dict[str, str] = {}
    word: list[str | None] = []
    for t in toks:
        w = t.text.lower() if len(t.text) > 1 and t.text.isalpha() else None
        if w is not None and w not in left_f:
            left_f[w], right_f[w] = "bagL=" + w, "bagR=" + w
        word.append(w)
    lefts: list[tuple[str, ...]] = [()] * n
    bag: list[str] = []  # feature strings of the last k words of the current unit, nearest last
    for i in range(n):
        if i and unit[i] != unit[i - 1]:
            bag = []
        lefts[i] = tuple(reversed(bag))
        w = word[i]
        if w is not None:
            bag.append(left_f[w])
            if len(bag) > k:
                del bag[0]
    out: list[list[str]] = [[] for _ in range(n)]
    bag = []
    for i in range(n - 1, -1, -1):
        if i < n - 1 and unit[i] != unit[i + 1]:
            bag = []
        feats = [*lefts[i], *reversed(bag)]
        out[i] = feats if len(set(feats)) == len(feats) else list(dict.fromkeys(feats))
        w = word[i]
        if w is not None:
            bag.append(right_f[w])
            if len(bag) > k:
                del bag[0]
    return out
