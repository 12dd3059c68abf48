"""Policies over detected spans (they never detect anything themselves).

- :mod:`.resolve` — overlap resolution (``longest``, ``highest_score``, ``union``,
  ``priority``, ``cover``), the named, injectable policies a pipeline ends with;
- :mod:`.vote` — majority voting between detectors;
- :mod:`.postprocess` — data-driven post rules (extend, drop, merge, grow, split).
"""
