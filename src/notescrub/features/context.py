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

import numpy as np

from notescrub.text.views import TokenView

__all__ = ["bag_windows", "context_bag", "length_bucket", "position_features", "position_table", "sentence_features", "sentence_table"]

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


def bag_windows(view: TokenView, k: int) -> tuple[list[str], np.ndarray, np.ndarray]:
    """The context-word bags of every token as ``(words, left, right)``.

    ``left[i, j]`` is the index in ``words`` (lower-cased) of the ``j``-th nearest distinct
    word before token ``i`` in its unit (its sentence; its line outside sentences), ``-1``
    where there is none; ``right`` the same after it. Only words of two or more letters
    count, as places and as entries, so punctuation and numbers neither fill the bag nor use
    up its places; a word met twice among the ``k`` nearest counts once (the nearer place).
    Built with array operations, ``O(n k^2)`` for ``n`` tokens and no Python loop per token
    beyond reading the words.

    >>> from notescrub.types import Document
    >>> from notescrub.text.views import token_view
    >>> words, left, right = bag_windows(token_view(Document("d", "Father alive, 79. Mother died.")), 2)
    >>> words, left[3].tolist(), right[3].tolist()
    (['father', 'alive', 'mother', 'died'], [1, 0], [-1, -1])
    """
    toks = view.tokens
    n = len(toks)
    sent = np.asarray(view.sentence, dtype=np.int64)
    line = np.asarray(view.line, dtype=np.int64)
    unit = np.where(sent >= 0, sent, -2 - line)
    # a unit is a run of consecutive tokens (a sentence interrupted and resumed is two runs)
    run = np.zeros(n, dtype=np.int64)
    if n > 1:
        np.cumsum(unit[1:] != unit[:-1], out=run[1:])
    vocab: dict[str, int] = {}
    pos: list[int] = []
    wid: list[int] = []
    for i, t in enumerate(toks):
        x = t.text
        if len(x) > 1 and x.isalpha():
            pos.append(i)
            wid.append(vocab.setdefault(x.lower(), len(vocab)))
    left = np.full((n, k), -1, dtype=np.int64)
    right = np.full((n, k), -1, dtype=np.int64)
    if pos and k:
        P = np.asarray(pos, dtype=np.int64)
        W = np.asarray(wid, dtype=np.int64)
        R = run[P]
        at = np.arange(n)
        before = np.searchsorted(P, at, side="left")  # word tokens before token i
        after = np.searchsorted(P, at, side="right")  # index of the first word token after i
        for j in range(k):
            for side, q in ((left, before - 1 - j), (right, after + j)):
                ok = (q >= 0) & (q < len(P))
                qq = np.where(ok, q, 0)
                ok &= R[qq] == run
                side[:, j] = np.where(ok, W[qq], -1)
        for side in (left, right):  # the same word twice: keep the nearer place
            for j in range(1, k):
                col = side[:, j]
                dup = (side[:, :j] == col[:, None]).any(axis=1) & (col >= 0)
                col[dup] = -1
    return list(vocab), left, right


def context_bag(view: TokenView, k: int) -> list[list[str]]:
    """Per token: ``bagL=w`` / ``bagR=w`` for the lower-cased words among the ``k`` nearest
    words before / after it in the same sentence (the same line outside sentences), nearest
    first (see :func:`bag_windows`; the featurizer hands these on as a
    :class:`~notescrub.features.extract.BagGroup`, which a CRF scorer adds up per word).

    >>> from notescrub.types import Document
    >>> from notescrub.text.views import token_view
    >>> v = token_view(Document("d", "Father alive, 79. Mother died."))
    >>> [t.text for t in v.tokens][3], context_bag(v, 2)[3]
    ('79', ['bagL=alive', 'bagL=father'])
    """
    words, left, right = bag_windows(view, k)
    return bag_lists(words, left, right)


def bag_lists(words: list[str], left: np.ndarray, right: np.ndarray,
              prefixes: tuple[str, str] = ("bagL=", "bagR=")) -> list[list[str]]:
    """The feature strings of :func:`bag_windows`' arrays: per token, its left words' then its
    right words' features, nearest first.

    >>> bag_lists(["seen", "dr"], np.array([[-1], [0]]), np.array([[1], [-1]]))
    [['bagR=dr'], ['bagL=seen']]
    """
    lf = [prefixes[0] + w for w in words]
    rf = [prefixes[1] + w for w in words]
    return [[lf[v] for v in a if v >= 0] + [rf[v] for v in b if v >= 0]
            for a, b in zip(left.tolist(), right.tolist())]
