"""Packaged post-processing rule files (TOML) for :mod:`notescrub.detect.spans.postprocess`."""
