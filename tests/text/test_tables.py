"""Columns of plain-text tables: aligned cells of three or more consecutive rows."""

from notescrub.text.tables import columns


def _texts(text):
    return [[text[a:b] for a, b in col] for col in columns(text)]


def test_pipe_and_tab_tables():
    piped = "| Contact | Result | By |\n| Ana Ruiz | reached | CIW |\n| Bo Lee | left msg | CIW |\n| Al Ng | none | NB |\n"
    assert ["By", "CIW", "CIW", "NB"] in _texts(piped)
    tabbed = "13:18\tloaded\tHT\n13:26\tdeparted\tHT\n13:51\trerouted\tYG\n"
    assert ["HT", "HT", "YG"] in _texts(tabbed)


def test_two_rows_or_single_spaced_prose_are_no_table():
    assert columns("Age  Sex\n61   F\n") == []
    assert columns("He is 61 and she is 57.\nThe dog is 9.\nRoom 74 is free.\n") == []


def test_a_blank_line_ends_a_table():
    text = "a  1\nb  2\n\nc  3\nd  4\ne  5\n"
    assert _texts(text) == [["c", "d", "e"], ["3", "4", "5"]]


def test_offsets_are_the_texts_own_on_long_input():
    text = "x  12  AB\n" * 20_000
    cols = columns(text)
    assert all(text[a:b] in ("x", "12", "AB") for col in cols for a, b in col)
    assert sorted(len(c) for c in cols) == [20_000] * 3  # each column once (by start, end and place agree)
