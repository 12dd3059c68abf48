"""Rule-based detection: validated TOML rules compiled into a linear-time scanner.

- :mod:`.detector` — rule model, TOML loader and :class:`RulesDetector`;
- :mod:`.prefilter` and :mod:`.start_index` — which rules can match where (scanning);
- :mod:`.pattern_audit` — the check that refuses patterns with quadratic backtracking;
- :mod:`.negative_cues` — block-rule ranges shared by the detectors of one pipeline.
"""
