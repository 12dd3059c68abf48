"""Per-token features that depend on the token's place in the record, not on its word.

* :func:`sentence_features` (Aramaki et al. 2006, Table 2): line position in the record
  (top 10 lines / bottom 5 lines / other), the lengths of the previous, current and next
  sentence, the last three words of the previous sentence, and the section heading.
* :func:`position_features` (Dehghan et al. 2015): line index, first token of its line,
  the first word of the line (``Nombre:``, ``MRN:`` header keys), no space after the token.

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

__all__ = ["length_bucket", "position_features", "sentence_features"]

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


def _line_position(line: int, n_lines: int) -> str:
    if line < _TOP_LINES:
        return "lpos=top"
    if line >= n_lines - _BOTTOM_LINES:
        return "lpos=bottom"
    return "lpos=mid"


def sentence_features(view: TokenView, last_words: int = 3) -> list[list[str]]:
    """Aramaki's sentence features for every token of ``view``."""
    n_sent = len(view.sentence_offsets)
    counts = [0] * n_sent
    words: list[list[str]] = [[] for _ in range(n_sent)]
    for i, s in enumerate(view.sentence):
        if s >= 0:
            counts[s] += 1
            t = view.tokens[i].text
            if t[0].isalnum():
                words[s].append(t.lower())
    per_sentence: dict[int, list[str]] = {}
    sec_feats: dict[str, str] = {}
    out = []
    for i, s in enumerate(view.sentence):
        feats = per_sentence.get(s)
        if feats is None:
            feats = []
            for k in (-1, 0, 1):
                j = s + k
                ok = s >= 0 and 0 <= j < n_sent
                feats.append(f"slen[{k}]={length_bucket(counts[j]) if ok else 'none'}")
            if s > 0:
                feats.extend(f"prevlast={w}" for w in words[s - 1][-last_words:])
            per_sentence[s] = feats
        tok = [_line_position(view.line[i], view.n_lines), *feats]
        sec = view.section[i]
        if sec:
            feat = sec_feats.get(sec)
            if feat is None:
                feat = sec_feats[sec] = f"sec={sec[:30]}"
            tok.append(feat)
        if view.is_heading[i]:
            tok.append("heading")
        out.append(tok)
    return out


def position_features(view: TokenView) -> list[list[str]]:
    """Line index, line-initial flag, first word of the line, glued-to-next flag."""
    out: list[list[str]] = []
    toks = view.tokens
    head = ""
    prev_line = -1
    for i, t in enumerate(toks):
        line = view.line[i]
        feats = [_LINE_FEATURES[min(line, _MAX_LINE)]]
        if line != prev_line:
            feats.append("line_first")
            head = f"line_head={t.text.lower()}"  # built once per line
            prev_line = line
        else:
            feats.append(head)
        if not view.space_after[i]:
            feats.append("glued")
        out.append(feats)
    return out
