"""The LingPipe-style character language-model HMM chunker (a seed system).

- :mod:`.charlm` (character n-gram language models) and :mod:`.charlm_process`;
- :mod:`.chunker` — :class:`CharLmHmmChunker`, its training, decoding and model directory;
- :mod:`.rescore` — whole-record n-best rescoring.
"""
