"""Recall rules added for leak classes seen on writers' notes (resources/rules/en_recall.toml, en_contact.toml)."""

from __future__ import annotations

import pytest

from notescrub.detect.rules.detector import RulesDetector
from notescrub.types import Document

DETECTOR = RulesDetector()


def _found(text: str, label: str) -> list[str]:
    return [text[s.start:s.end] for s in DETECTOR.detect(Document("d", text)) if s.label == label]


@pytest.mark.parametrize("text, ages", [
    ("Lives w kids (7 and 4) - kids with nana now.", ["7", "4"]),
    ("Kids: 9, 6, 3. Wants to be home.", ["9", "6", "3"]),
    ("Married, 5 children 7-19; eldest at college.", ["7", "19"]),
    ("Bereavement: grandchildren 6, 9, 13 - child life offered.", ["6", "9", "13"]),
])
def test_ages_in_kin_lists(text, ages):
    assert _found(text, "AGE") == ages


@pytest.mark.parametrize("text, days", [
    ("Nurse BP checks M/W/F x 2 weeks.", ["M", "W", "F"]),
    ("Work: on-site M/T/Th.", ["M", "T", "Th"]),
    ("PT T/Th 0900 at the gym.", ["T", "Th"]),
    ("works M-F days", ["M", "F"]),
    ("ESRD on HD MWF at the unit", ["MWF"]),
    ("HD TTS, missed Tuesday", ["TTS", "Tuesday"]),
])
def test_weekday_letter_schedules(text, days):
    assert _found(text, "DATE") == days


@pytest.mark.parametrize("text", [
    "Sex ratio M/F 1.2 in this cohort",
    "Grade 2/3 M/F",
    "T/F questions answered",
    "W/U negative; F/U in clinic",
])
def test_letters_that_are_not_schedules(text):
    assert _found(text, "DATE") == []


def test_spoken_phone_number():
    text = "Call me at five oh five, five five five, oh one one two. Thanks."
    assert _found(text, "PHONE") == ["five oh five, five five five, oh one one two"]
    assert _found("one or two times a day, three to four days", "PHONE") == []


@pytest.mark.parametrize("text, number", [
    ("Discussed with Dr Lucy Graves bleep 3391 today", "3391"),
    ("(HD RN paged 2290).", "2290"),
])
def test_bleeps_and_pages(text, number):
    assert _found(text, "PHONE") == [number]
