"""Sentence (Aramaki) and position (Dehghan) features."""

from __future__ import annotations

import random

import numpy as np

from notescrub.features.context import (
    bag_windows,
    context_bag,
    length_bucket,
    position_features,
    sentence_features,
)
from notescrub.text.views import token_view
from notescrub.types import Document


def _view(text):
    return token_view(Document("d", text))


def test_line_position_top_bottom_mid():
    text = "\n".join(f"line {i}." for i in range(30))
    v = _view(text)
    feats = sentence_features(v)
    by_line = {v.line[i]: feats[i][0] for i in range(len(v.tokens))}
    assert by_line[0] == "lpos=top" and by_line[9] == "lpos=top"
    assert by_line[10] == "lpos=mid" and by_line[24] == "lpos=mid"
    assert by_line[25] == "lpos=bottom" and by_line[29] == "lpos=bottom"


def test_sentence_lengths_and_previous_last_words():
    v = _view("One two three four.\nShort.\nThe end here.")
    feats = sentence_features(v)
    i = [t.text for t in v.tokens].index("Short")
    assert "slen[-1]=5" in feats[i] and "slen[0]=2" in feats[i] and "slen[1]=4" in feats[i]
    assert [f for f in feats[i] if f.startswith("prevlast=")] == ["prevlast=two", "prevlast=three", "prevlast=four"]
    assert "slen[-1]=none" in feats[0]


def test_section_and_heading():
    v = _view("HISTORY:\nSeen today.")
    feats = sentence_features(v)
    assert "heading" in feats[0] and "sec=HISTORY" in feats[0]
    assert "sec=HISTORY" in feats[-1] and "heading" not in feats[-1]


def test_position_features():
    v = _view("MRN: 123\nName Ana")
    feats = position_features(v)
    texts = [t.text for t in v.tokens]
    assert feats[0] == ["line=0", "line_first", "glued"]  # 'MRN' glued to ':'
    assert "line_head=mrn" in feats[texts.index("123")]
    assert "line=1" in feats[texts.index("Ana")] and "line_head=name" in feats[texts.index("Ana")]


def test_length_bucket():
    assert [length_bucket(n) for n in (0, 5, 6, 10, 11, 20, 21)] == ["0", "5", "6-10", "6-10", "11-20", "11-20", "21+"]


def _bag(text, k, word):
    v = _view(text)
    i = [t.text for t in v.tokens].index(word)
    return context_bag(v, k)[i]


def test_context_bag_skips_punctuation_and_numbers_and_stops_at_the_sentence():
    assert _bag("Father alive, 79. Mother died at 81.", 3, "79") == ["bagL=alive", "bagL=father"]
    # words two places away count as much as neighbours; the bag holds k words each side
    assert _bag("He works as a welder at the plant now", 2, "welder") == [
        "bagL=as", "bagL=works", "bagR=at", "bagR=the"]
    # repeated words once; one-letter words neither count nor take a place
    assert _bag("seen seen a x Tanner came came", 2, "Tanner") == ["bagL=seen", "bagR=came"]


def test_context_bag_is_linear_and_empty_for_zero():
    v = _view("word " * 20000)
    bags = context_bag(v, 4)
    assert len(bags) == len(v.tokens) and all(len(b) <= 2 for b in bags)  # one distinct word each side
    assert context_bag(v, 0)[5] == []


def _reference_bag(view, k):
    """Per token, by the definition: the k nearest word tokens before/after it in the same run
    of its unit (sentence, else line), each side's words once, nearest first."""
    toks = view.tokens
    unit = [s if s >= 0 else -2 - ln for s, ln in zip(view.sentence, view.line)]
    is_word = [len(t.text) > 1 and t.text.isalpha() for t in toks]
    out = []
    for i in range(len(toks)):
        feats = []
        for step, prefix in ((-1, "bagL="), (1, "bagR=")):
            j, seen = i + step, 0
            while 0 <= j < len(toks) and seen < k and unit[j] == unit[j - step]:
                if is_word[j]:
                    seen += 1
                    f = prefix + toks[j].text.lower()
                    if f not in feats:
                        feats.append(f)
                j += step
        out.append(feats)
    return out


def test_bag_windows_agree_with_the_definition_on_random_texts():
    rnd = random.Random(5)
    pieces = ["Ana ", "ruiz", ". ", "\n", "Dr. ", "12 ", "MRN: ", "x ", "seen by ", "...", "\n\n", "Mr. Bell "]
    for _ in range(300):
        v = _view("".join(rnd.choice(pieces) for _ in range(rnd.randint(0, 50))))
        for k in (1, 2, 4):
            assert context_bag(v, k) == _reference_bag(v, k)


def test_bag_windows_index_words_once_and_mark_empty_places():
    words, left, right = bag_windows(_view("Seen seen by Dr. Ruiz."), 3)
    assert words == ["seen", "by", "dr", "ruiz"]
    assert left.shape == right.shape == (7, 3) and left.dtype == np.int64
    assert left[0].tolist() == [-1, -1, -1] and right[0].tolist() == [0, 1, 2]  # "seen" twice: once
    assert bag_windows(_view(""), 4)[1].shape == (0, 4)
