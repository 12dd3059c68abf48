"""Packaged risk calibrations, one ``<model>.json`` per packaged model (see :mod:`notescrub.risk.calibration`)."""
