"""Calibration: from a leftover token's features to the probability that it is missed PHI.

A calibration is a logistic model over the :data:`~notescrub.risk.features.FEATURES`
of untagged tokens, fitted on notes the model never saw (held-out writers, a held-out
split) and shipped as validated JSON in ``notescrub/resources/risk/<model>.json``::

    {"format": 1, "model": "en-default", "kind": "logistic",
     "intercept": -5.1, "weights": {"crf_logit": 0.8, "feeder": 1.2, ...},
     "fitted_on": {"description": "...", "notes": 104, "tokens": 51234, "positives": 160}}

An optional ``"tagged"`` object (``{"intercept", "weights", "fitted_on"}``, the same
features read on the tagged side: :func:`~notescrub.risk.features.tagged_features`) is the
probability that a *tagged* token is really PHI; with it a note also gets an expected
binary-token F (:mod:`notescrub.risk.score`).

Every key is checked when the file is read (:meth:`Calibration.from_json`); a bad file
is refused with a :class:`~notescrub.errors.ConfigError` naming it. :func:`fit_logistic`
is the (L2-regularised, Newton) fit the shipped files come from
(``benchmarks/risk_eval.py``).

>>> import numpy as np
>>> from notescrub.risk.features import FEATURES
>>> cal = Calibration("demo", -3.0, {"digit": 2.0})
>>> x = np.zeros((2, len(FEATURES))); x[1, FEATURES.index("digit")] = 1.0
>>> [round(float(p), 3) for p in cal.probability(x)]
[0.047, 0.269]
>>> Calibration.from_json({"format": 1, "model": "m", "kind": "logistic", "intercept": 0.0,
...                        "weights": {"shoe_size": 1.0}, "fitted_on": {}})
Traceback (most recent call last):
...
notescrub.errors.ConfigError: risk calibration: unknown feature(s) ['shoe_size']; known: crf_logit, crf_seen, ...
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from notescrub.errors import ConfigError
from notescrub.risk.features import FEATURES

__all__ = ["FORMAT", "Calibration", "crf_fingerprint", "fit_logistic", "fitted_with_other_crf", "packaged_calibration"]

FORMAT = 1
_KEYS = {"format", "model", "kind", "intercept", "weights", "fitted_on", "validation", "tagged"}
_TAGGED_KEYS = {"intercept", "weights", "fitted_on"}
_REQUIRED = ("format", "model", "kind", "intercept", "weights", "fitted_on")
_CRF_FEATURES = ("crf_logit", "crf_seen")


@dataclass(frozen=True)
class Calibration:
    """Logistic calibration: ``P(PHI | leftover) = sigmoid(intercept + sum w_f * x_f)``.

    ``fitted_on`` records the data it was fitted on; ``validation`` figures measured on
    other notes (both free-form, JSON-serialisable). ``tagged``: the calibration of tagged
    tokens (``P(PHI | tagged token)``), or ``None``.
    """

    model: str
    intercept: float
    weights: Mapping[str, float]
    fitted_on: Mapping[str, Any] = field(default_factory=dict)
    validation: Mapping[str, Any] = field(default_factory=dict)
    tagged: Calibration | None = None

    @property
    def uses_crf(self) -> bool:
        """True when a feature of the CRF posteriors has a non-zero weight."""
        return any(self.weights.get(f, 0.0) for f in _CRF_FEATURES)

    def vector(self) -> np.ndarray:
        """The weights in :data:`FEATURES` order."""
        return np.array([float(self.weights.get(f, 0.0)) for f in FEATURES])

    def probability(self, matrix: np.ndarray) -> np.ndarray:
        """Per row of ``matrix`` (tokens x :data:`FEATURES`): the calibrated probability of PHI."""
        if matrix.size == 0:
            return np.zeros(len(matrix))
        z = self.intercept + matrix @ self.vector()
        return 1.0 / (1.0 + np.exp(-np.clip(z, -50.0, 50.0)))

    def to_json(self) -> dict[str, Any]:
        out = {"format": FORMAT, "model": self.model, "kind": "logistic", "intercept": self.intercept,
               "weights": {f: self.weights[f] for f in FEATURES if f in self.weights},
               "fitted_on": dict(self.fitted_on), "validation": dict(self.validation)}
        if self.tagged is not None:
            out["tagged"] = {"intercept": self.tagged.intercept,
                             "weights": {f: self.tagged.weights[f] for f in FEATURES if f in self.tagged.weights},
                             "fitted_on": dict(self.tagged.fitted_on)}
        return out

    @classmethod
    def from_json(cls, data: Any, where: str = "risk calibration") -> Calibration:
        """Validate and build; every problem is a :class:`ConfigError` naming ``where``."""
        if not isinstance(data, dict):
            raise ConfigError(f"{where}: expected a JSON object, got {type(data).__name__}")
        unknown = set(data) - _KEYS
        if unknown:
            raise ConfigError(f"{where}: unknown key(s) {sorted(unknown)}")
        missing = [k for k in _REQUIRED if k not in data]
        if missing:
            raise ConfigError(f"{where}: missing key(s) {missing}")
        if data["format"] != FORMAT:
            raise ConfigError(f"{where}: format {data['format']!r} is not supported (expected {FORMAT})")
        if data["kind"] != "logistic":
            raise ConfigError(f"{where}: kind must be 'logistic', got {data['kind']!r}")
        if not isinstance(data["model"], str) or not data["model"]:
            raise ConfigError(f"{where}: model must be a non-empty string")
        intercept, weights = _logistic(data, where)
        for key in ("fitted_on", "validation"):
            if not isinstance(data.get(key, {}), dict):
                raise ConfigError(f"{where}: {key} must be an object")
        tagged = None
        if "tagged" in data:
            sub, at = data["tagged"], f"{where}: tagged"
            if not isinstance(sub, dict):
                raise ConfigError(f"{at}: expected an object")
            unknown = set(sub) - _TAGGED_KEYS
            missing = [k for k in ("intercept", "weights") if k not in sub]
            if unknown or missing:
                raise ConfigError(f"{at}: unknown key(s) {sorted(unknown)}, missing key(s) {missing}")
            if not isinstance(sub.get("fitted_on", {}), dict):
                raise ConfigError(f"{at}: fitted_on must be an object")
            t_intercept, t_weights = _logistic(sub, at)
            tagged = cls(data["model"], t_intercept, t_weights, sub.get("fitted_on", {}))
        return cls(data["model"], intercept, weights, data["fitted_on"], data.get("validation", {}), tagged)

    @classmethod
    def load(cls, path: str | Path) -> Calibration:
        """Read a calibration file (errors name the file, never note text)."""
        p = Path(path)
        try:
            data = json.loads(p.read_text(encoding="utf-8"))
        except OSError as exc:
            raise ConfigError(f"risk calibration {p}: cannot be read ({exc.strerror or exc})") from None
        except ValueError as exc:
            raise ConfigError(f"risk calibration {p}: not valid JSON ({exc})") from None
        return cls.from_json(data, f"risk calibration {p}")

    def save(self, path: str | Path) -> Path:
        """Write atomically (temp + rename)."""
        from notescrub.io.atomic import atomic_file

        p = Path(path)
        with atomic_file(p) as tmp:
            Path(tmp).write_text(json.dumps(self.to_json(), indent=2) + "\n", encoding="utf-8")
        return p


def _logistic(data: dict[str, Any], where: str) -> tuple[float, dict[str, float]]:
    """The validated ``intercept`` and ``weights`` of a logistic calibration object."""
    weights = data["weights"]
    if not isinstance(weights, dict) or not weights:
        raise ConfigError(f"{where}: weights must be a non-empty object {{feature: number}}")
    bad = sorted(set(weights) - set(FEATURES))
    if bad:
        raise ConfigError(f"{where}: unknown feature(s) {bad}; known: {', '.join(FEATURES)}")
    for name, value in [("intercept", data["intercept"]), *weights.items()]:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise ConfigError(f"{where}: {name} must be a finite number, got {value!r}")
    return float(data["intercept"]), {k: float(v) for k, v in weights.items()}


def crf_fingerprint(model_dir: str | Path, component_dir: str = "crf") -> str | None:
    """The SHA-256 of a model directory's CRF file as its ``crf/model.json`` records it (the
    loader checks the file against it), ``None`` when there is none.

    A calibration records the fingerprint of the CRF it was fitted with (``fitted_on.crf_sha256``),
    so that using it with another CRF (a model retrained from the same recipe) can be noticed.

    >>> crf_fingerprint("/no/such/model") is None
    True
    """
    meta = Path(model_dir) / component_dir / "model.json"
    try:
        files = json.loads(meta.read_text(encoding="utf-8")).get("files") or {}
    except (OSError, ValueError):
        return None
    model_file = files.get("model")
    sums = files.get("sha256") or {}
    value = sums.get(model_file) if isinstance(sums, dict) and isinstance(model_file, str) else None
    return value if isinstance(value, str) else None


def fitted_with_other_crf(calibration: Calibration, fingerprint: str | None) -> bool:
    """Whether ``calibration`` records a CRF (``fitted_on.crf_sha256``) other than ``fingerprint``.

    ``False`` when either side is unknown: a calibration without a record, or a model whose
    CRF carries no checksum, cannot be told apart and is not reported.

    >>> cal = packaged_calibration("en-default")
    >>> fitted_with_other_crf(cal, "0" * 64), fitted_with_other_crf(cal, None)
    (True, False)
    """
    fitted = calibration.fitted_on.get("crf_sha256")
    return isinstance(fitted, str) and fingerprint is not None and fingerprint != fitted


def packaged_calibration(model: str) -> Calibration | None:
    """The calibration shipped for packaged model ``model`` (``None`` when there is none).

    >>> packaged_calibration("en-default").model
    'en-default'
    >>> packaged_calibration("no-such-model") is None
    True
    """
    if not model or "/" in model or "\\" in model or model.startswith("."):
        return None
    res = resources.files("notescrub.resources.risk").joinpath(f"{model}.json")
    if not res.is_file():
        return None
    where = f"packaged risk calibration {model}.json"
    try:
        data = json.loads(res.read_text(encoding="utf-8"))
    except ValueError as exc:
        raise ConfigError(f"{where}: not valid JSON ({exc})") from None
    return Calibration.from_json(data, where)


def fit_logistic(x: np.ndarray, y: np.ndarray, names: tuple[str, ...] = FEATURES, l2: float = 1.0,
                 iterations: int = 50) -> tuple[float, dict[str, float]]:
    """L2-regularised logistic regression by Newton steps: ``(intercept, {feature: weight})``.

    Only the columns named in ``names`` are used (the others get no weight); the intercept
    is not penalised.

    >>> rng = np.random.default_rng(0)
    >>> d = FEATURES.index("digit")
    >>> x = np.zeros((400, len(FEATURES))); x[:, d] = rng.integers(0, 2, 400)
    >>> y = (rng.random(400) < np.where(x[:, d] > 0, 0.8, 0.1)).astype(float)
    >>> b, w = fit_logistic(x, y, names=("digit",))
    >>> round(b, 1), round(w["digit"], 1)
    (-2.0, 3.5)
    """
    cols = [FEATURES.index(n) for n in names]
    a = np.hstack([np.ones((len(x), 1)), x[:, cols]])
    beta = np.zeros(a.shape[1])
    penalty = np.full(a.shape[1], float(l2))
    penalty[0] = 0.0
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-np.clip(a @ beta, -50, 50)))
        grad = a.T @ (p - y) + penalty * beta
        hess = (a * (p * (1 - p))[:, None]).T @ a + np.diag(penalty) + 1e-9 * np.eye(a.shape[1])
        step = np.linalg.solve(hess, grad)
        beta -= step
        if float(np.abs(step).max()) < 1e-8:
            break
    return float(beta[0]), {n: float(beta[k + 1]) for k, n in enumerate(names)}
