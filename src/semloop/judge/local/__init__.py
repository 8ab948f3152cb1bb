"""The embedded judge: semantic loop detection and the evaluators' answers with no API key,
no network and no cost. :class:`Embedder` is its sentence model, for other uses of the same
vectors (grouping findings into recurring issues).

Needs the ``local`` extra (numpy, onnxruntime and the int8 all-MiniLM-L6-v2 model wheel);
importing :class:`LocalBackend` without it raises :class:`~semloop.MissingExtraError`.
See ``docs/local-judge.md``.
"""

from ._backend import LocalBackend
from ._model import MODEL_SHA256, Embedder, ModelIntegrityError

__all__ = ["MODEL_SHA256", "Embedder", "LocalBackend", "ModelIntegrityError"]
