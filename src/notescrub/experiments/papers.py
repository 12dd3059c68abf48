"""Figures reported by the seed papers, for side-by-side comparison (facts from the papers).

Numbers are percentages or fractions exactly as printed; keys name the table.
The papers' corpora (i2b2 2006 / 2014, Partners and BIDMC summaries) are not the
corpora run here, so absolute values are context, and the *conclusions* (which system
or feature set wins) are what a report checks.

>>> UZUNER["table14_challenge"]["Stat De-id"]["phi_f"]
98.03
>>> WELLNER["table1"]["Carafe-ALL (b=-1.0)"]["phrase_f"]
0.9716
>>> SOURCES["UZUNER.feature_alone_phi_f"][0]
'Tables 16-18 (random / authentic / challenge), PHI F-measure column'

:data:`SOURCES` records where each figure is printed: for every key path (a prefix
covers everything below it) the table or passage, and the text that starts it in the
seed paper's text (:data:`SEED_FILES`), so ``tests/experiments/test_papers.py`` can
check every number against the papers' texts.
"""

from __future__ import annotations

from typing import Any

__all__ = ["ARAMAKI", "DEHGHAN", "HE", "SEED_FILES", "SOURCES", "UZUNER", "WELLNER"]

# the tables are nested dicts of numbers and strings, as printed: typed Any to be read freely

#: Uzuner et al. 2008 (Stat De-id): binary token P/R/F (%) of PHI and non-PHI
UZUNER: dict[str, Any] = {
    "table6_authentic": {
        "Stat De-id": {"phi_p": 98.46, "phi_r": 95.24, "phi_f": 96.82, "non_phi_f": 99.90},
        "H+D": {"phi_p": 82.67, "phi_r": 87.30, "phi_f": 84.92, "non_phi_f": 99.48},
        "CRFD": {"phi_p": 91.16, "phi_r": 84.75, "phi_f": 87.83, "non_phi_f": 99.74},
    },
    "table14_challenge": {
        "Stat De-id": {"phi_p": 98.69, "phi_r": 97.37, "phi_f": 98.03, "non_phi_f": 99.86},
        "H+D": {"phi_p": 36.24, "phi_r": 55.84, "phi_f": 43.95, "non_phi_f": 96.29},
        "CRFD": {"phi_p": 86.37, "phi_r": 84.79, "phi_f": 85.57, "non_phi_f": 99.60},
    },
    # Tables 4, 8, 11: random, ambiguous, out-of-vocabulary re-populated corpora
    "repopulated": {
        "random": {"Stat De-id": 97.63, "H+D": 77.82, "CRFD": 81.55},
        "ambiguous": {"Stat De-id": 95.31, "H+D": 56.90, "CRFD": 79.92},
        "oov": {"Stat De-id": 97.44, "H+D": 38.71, "CRFD": 80.32},
    },
    # Table 13: recall on out-of-vocabulary PHI only
    "table13_oov_recall": {"Stat De-id": 96.49, "H+D": 11.15, "CRFD": 84.75},
    # Tables 16-18: PHI F (%) of each feature group alone (random / authentic / challenge)
    "feature_alone_phi_f": {
        "target_word": (56.52, 79.74, 65.38),
        "lexical_bigrams": (77.63, 71.73, 70.29),
        "syntactic_bigrams": (85.15, 74.17, 72.79),
        "pos": (74.73, 57.81, 48.80),
        "dictionary": (33.95, 34.10, 7.19),
        "medical_vocabulary": (0.0, 0.0, 0.0),
        "orthographic": (0.0, 1.19, 49.83),
    },
}

#: Wellner et al. 2007 (Carafe, LingPipe), i2b2 2006 evaluation data
WELLNER: dict[str, Any] = {
    "table1": {
        "Carafe-ALL (b=-1.0)": {"phrase_r": 0.9597, "phrase_p": 0.9839, "phrase_f": 0.9716, "token_f": 0.99714},
        "LingPipe": {"phrase_r": 0.9212, "phrase_p": 0.9430, "phrase_f": 0.9320, "token_f": 0.99400},
        "Carafe-ALL (b=-1.75)": {"phrase_r": 0.9693, "phrase_p": 0.9818, "phrase_f": 0.9756, "token_f": 0.99763},
        "Carafe-ALL+PP (b=-1.5)": {"phrase_r": 0.9694, "phrase_p": 0.9778, "phrase_f": 0.9736, "token_f": 0.99745},
    },
    "spearman_logprob": 0.7267,
    "spearman_length": 0.5392,
    "learning_curve": "over 0.80 phrase F with 2% of the training data (13 records); 60% and 70% indistinguishable",
    "table6_errors_pct": {"incorrect": 3.1, "missing": 50.0, "spurious": 15.3, "extent": 31.7},
    "best_bias": -1.75,
}

#: He et al. 2015 (WI-deId), i2b2 2014 test set, strict micro
HE: dict[str, Any] = {
    "strict_f": 0.9232, "strict_p": 0.9561, "strict_r": 0.8925, "token_f": 0.9514,
    # Table 5: F by category, without preprocessing vs WI-deId
    "table5_no_preprocessing": {"NAME": 0.8753, "PROFESSION": 0.4314, "LOCATION": 0.8255, "AGE": 0.6999,
                                "DATE": 0.9140, "CONTACT": 0.9296, "ID": 0.9125, "ALL": 0.8638},
    "table5_wideid": {"NAME": 0.9243, "PROFESSION": 0.5929, "LOCATION": 0.8689, "AGE": 0.9137, "DATE": 0.9746,
                      "CONTACT": 0.9420, "ID": 0.9296, "ALL": 0.9232},
    "fig3": "strict F rises Lex < Lex+Ort < Lex+Ort+Dic; orthographic helps LOCATION/CONTACT/IDs, dictionaries LOCATION",
}

#: Dehghan et al. 2015 (Manchester), i2b2 2014 test set
DEHGHAN: dict[str, Any] = {
    "submission3_strict_f": 90.65,
    "submission3_strict_p": 93.06,
    "submissions": "1 = precision (knowledge taggers for Date/Doctor/Patient), 2 = recall (+ all CRFs), "
                   "3 = F1 (+ CRFs for Date and Patient); submission 3 had the best F1",
    "precision_outcome": "submission 3, not submission 1, had the highest precision (93.06%); submission 1 was "
                         "slightly lower",
    "two_pass": "gain of 2-7% F1 on five of the seven two-pass types, 3-9% recall on four",
}

#: Aramaki et al. 2006, i2b2 2006, 2-way (PHI vs non-PHI) and typed P/R/F (%)
ARAMAKI: dict[str, Any] = {
    "table4_2way": {"BASELINE": (98.00, 95.21, 96.59), "BASE+SF": (98.49, 95.28, 96.86),
                    "BASE+EX": (98.11, 96.00, 97.04), "BASE+LC": (97.43, 95.77, 96.60),
                    "PROPOSED": (98.29, 96.66, 97.47)},
    "table5_typed_f": {"BASELINE": 94.27, "BASE+SF": 96.50, "BASE+EX": 94.76, "BASE+LC": 94.33, "PROPOSED": 97.05},
}


#: the seed papers' text files (``/work/shared/seeds`` in the development setup)
SEED_FILES = {
    "UZUNER": "uzuner2008-stat-deid-svm.txt",
    "WELLNER": "wellner2007-carafe-lingpipe.txt",
    "HE": "he2015-wideid-crf.txt",
    "DEHGHAN": "dehghan2015-hybrid-two-pass.txt",
    "ARAMAKI": "aramaki2006-sentence-features-label-consistency.txt",
}

#: key path -> (where in the paper, text that starts that table or passage in the seed text)
SOURCES: dict[str, tuple[str, str | tuple[str, ...]]] = {
    "UZUNER.table6_authentic": ("Table 6, PHI and non-PHI rows", "**Table 6**"),
    "UZUNER.table14_challenge": ("Table 14, PHI and non-PHI rows", "**Table 14**"),
    "UZUNER.repopulated.random": ("Table 4, PHI F-measure column", "**Table 4**"),
    "UZUNER.repopulated.ambiguous": ("Table 8, PHI F-measure column", "**Table 8**"),
    "UZUNER.repopulated.oov": ("Table 11, PHI F-measure column", "**Table 11**"),
    "UZUNER.table13_oov_recall": ("Table 13", "**Table 13**"),
    "UZUNER.feature_alone_phi_f": ("Tables 16-18 (random / authentic / challenge), PHI F-measure column",
                                   ("**Table 16**", "**Table 17**", "**Table 18**")),
    "WELLNER.table1": ("Table 1", "Table 1.\nPhrase Recall"),
    "WELLNER.spearman_logprob": ("Discussion, record confidence paragraph", "using Spearman"),
    "WELLNER.spearman_length": ("Discussion, record confidence paragraph", "using Spearman"),
    "WELLNER.learning_curve": ("Learning Curves section", "The results here are somewhat surprising"),
    "WELLNER.table6_errors_pct": ("Table 6", "Table 6.\nCount"),
    "WELLNER.best_bias": ("Effect of Bias section", "optimal bias (of"),
    "HE.strict_f": ("Table 3, unofficial run 2, i2b2 strict micro F", "Table 3Best official run"),
    "HE.strict_p": ("Table 3, unofficial run 2, i2b2 strict micro P", "Table 3Best official run"),
    "HE.strict_r": ("Table 3, unofficial run 2, i2b2 strict micro R", "Table 3Best official run"),
    "HE.token_f": ("Table 3, unofficial run 2, i2b2 token micro F", "Table 3Best official run"),
    "HE.table5_no_preprocessing": ("Table 5, comparison system row (IDs = ID, Total = ALL)", "Table 5Performance"),
    "HE.table5_wideid": ("Table 5, WI-deId row (IDs = ID, Total = ALL)", "Table 5Performance"),
    "HE.fig3": ("Fig. 2/3 discussion", "Fig. 2 shows"),
    "DEHGHAN.submission3_strict_f": ("Results and discussion, first paragraph (Table 2 is not in the text)",
                                     "Our third run provided"),
    "DEHGHAN.submission3_strict_p": ("Results and discussion, first paragraph (Table 2 is not in the text)",
                                     "Our third run provided"),
    "DEHGHAN.submissions": ("Methods, integration: the three submissions", "Submission 1 included"),
    "DEHGHAN.precision_outcome": ("Results and discussion, second paragraph", "Our third run provided"),
    "DEHGHAN.two_pass": ("Two-pass results (Table 5 is not in the text)", "Five of the seven entity types"),
    "ARAMAKI.table4_2way": ("Table 4", "Table 4: 2-Way"),
    "ARAMAKI.table5_typed_f": ("Table 5, F column", "Table 5: Detailed Results"),
}
