"""scikit-learn's parameter contract, written once for every notescrub estimator.

Trainable taggers, featurizers and recipes follow scikit-learn's estimator contract:
``__init__`` only stores its arguments under their own names, validation happens in
``fit``, and :meth:`Params.get_params` / :meth:`Params.set_params` read and change the
constructor arguments. :class:`Params` implements the two methods from the ``__init__``
signature (as ``sklearn.base.BaseEstimator`` does, without depending on scikit-learn,
which is only an optional extra):

* ``get_params(deep=True)`` returns every constructor argument, plus ``name__param`` for
  the parameters of arguments that are estimators themselves (a tagger's featurizer);
  ``deep=False`` only the arguments;
* ``set_params(**params)`` sets them, nested ones too (``featurizer__affixes=2``), and
  returns the estimator; an unknown name is a :class:`~notescrub.errors.ConfigError`.

:func:`clone` builds an unfitted copy with the same parameters (estimator arguments
cloned too), as ``sklearn.base.clone`` does.

>>> class Tagger(Params):
...     def __init__(self, c2: float = 1.0, featurizer=None):
...         self.c2 = c2
...         self.featurizer = featurizer
>>> class Feats(Params):
...     def __init__(self, affixes: int = 4):
...         self.affixes = affixes
>>> t = Tagger(featurizer=Feats())
>>> sorted(t.get_params())
['c2', 'featurizer', 'featurizer__affixes']
>>> t.set_params(c2=0.1, featurizer__affixes=2).get_params(deep=False)["c2"], t.featurizer.affixes
(0.1, 2)
>>> u = clone(t)
>>> u is not t and u.featurizer is not t.featurizer and u.featurizer.affixes == 2
True
>>> t.set_params(gamma=1)
Traceback (most recent call last):
    ...
notescrub.errors.ConfigError: unknown Tagger parameters ['gamma']; known: c2, featurizer
"""

from __future__ import annotations

import inspect
from typing import Any, TypeVar

from notescrub.errors import ConfigError

__all__ = ["Params", "clone"]

E = TypeVar("E")


class Params:
    """Mixin: ``get_params``/``set_params`` from the ``__init__`` signature (see the module docstring)."""

    @classmethod
    def _param_names(cls) -> list[str]:
        """The constructor's parameter names, in declaration order."""
        init = cls.__init__
        if init is object.__init__:
            return []
        names = []
        for p in inspect.signature(init).parameters.values():
            if p.name == "self" or p.kind == p.VAR_KEYWORD:
                continue
            if p.kind == p.VAR_POSITIONAL:
                raise TypeError(f"{cls.__name__}.__init__ takes *{p.name}: estimators name every parameter")
            names.append(p.name)
        return names

    def get_params(self, deep: bool = True) -> dict[str, Any]:
        """The constructor arguments (``deep``: with ``name__param`` of estimator arguments)."""
        out: dict[str, Any] = {}
        for name in self._param_names():
            value = getattr(self, name)
            if deep and hasattr(value, "get_params") and not isinstance(value, type):
                out.update((f"{name}__{k}", v) for k, v in value.get_params(deep=True).items())
            out[name] = value
        return out

    def set_params(self: E, **params: Any) -> E:
        """Set constructor arguments, nested ones as ``name__param``; returns the estimator."""
        if not params:
            return self
        own = self._param_names()  # type: ignore[attr-defined]
        unknown = sorted({k for k in params if k.partition("__")[0] not in own})
        if unknown:
            raise ConfigError(f"unknown {type(self).__name__} parameters {unknown}; known: {', '.join(own)}")
        nested: dict[str, dict[str, Any]] = {}
        for key, value in params.items():
            name, sep, sub = key.partition("__")
            if sep:
                nested.setdefault(name, {})[sub] = value
            else:
                setattr(self, name, value)
        for name, sub_params in nested.items():
            inner = getattr(self, name)
            if not hasattr(inner, "set_params"):
                raise ConfigError(f"{type(self).__name__} parameter {name!r} has no parameters of its own "
                                  f"(cannot set {sorted(sub_params)})")
            inner.set_params(**sub_params)
        return self


def clone(estimator: E) -> E:
    """A new, unfitted estimator with the same parameters (estimator arguments cloned too).

    Parameters that are not estimators are passed as they are (not copied).
    """
    params = {k: clone(v) if isinstance(v, Params) else v
              for k, v in estimator.get_params(deep=False).items()}  # type: ignore[attr-defined]
    return type(estimator)(**params)
