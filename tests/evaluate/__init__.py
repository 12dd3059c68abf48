"""Tests of notescrub.evaluate (a package so module names cannot clash with other test folders)."""
