"""The embedded judge: semantic loop detection with no API key, no network and no cost.

Needs the ``local`` extra (numpy, onnxruntime and the int8 all-MiniLM-L6-v2 model wheel);
importing :class:`LocalBackend` without it raises :class:`~semloop.MissingExtraError`.
See ``docs/local-judge.md``.
"""

from ._backend import LocalBackend
from ._model import MODEL_SHA256, ModelIntegrityError

__all__ = ["MODEL_SHA256", "LocalBackend", "ModelIntegrityError"]
