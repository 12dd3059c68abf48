"""Linear-chain CRFs: the tagger and everything that makes it fast and explainable.

- :mod:`.tagger` — :class:`~notescrub.detect.crf.tagger.CRFTagger` (training with
  python-crfsuite, decoding, saving/loading model directories, record confidence);
  :mod:`.load` reads a ``crf`` directory of one or two stages;
- :mod:`.scorer` — the :class:`Scorer` that owns immutable weights and every cache;
- :mod:`.decode`, :mod:`.kernels`, :mod:`._numba` — Viterbi/forward-backward and the
  compute kernel chosen once per loaded model (numpy, or numba when installed);
- :mod:`.stacked` (a CRF fed by other detectors' spans), :mod:`.consistency` (Aramaki's
  two-stage CRF), :mod:`.statdeid` (Stat De-id's CRF);
- :mod:`.explain` (top features of a span), :mod:`.posteriors` (token posteriors kept for
  risk scoring), :mod:`.train_events` (training progress).
"""
