"""The pure-Python WordPiece tokenizer gives the same ids as Hugging Face ``tokenizers``."""

from __future__ import annotations

import hashlib
import random
from importlib import resources

import pytest
from tokenizers import BertWordPieceTokenizer

from semloop.judge.local._tokenizer import VOCAB_SHA256, WordPieceTokenizer

from .conftest import SEED_DATASET, WILD_DATASET, read_rows

VOCAB = resources.files("semloop.judge.local").joinpath("vocab.txt")

CASES = [
    "Hello, world!",
    "Café naïve résumé — ÅÄÖ ñ ß ﬁ İstanbul",
    "read_file(path='src/app.py') && grep -rn \"TODO\" ./src",
    "日本語のテキスト 中文 한국어",
    "emoji 🎉🚀 ok",
    "  multiple\t\twhitespace\n\nlines \u00a0nbsp\u2003emsp x\u0085y ",
    "control\x00chars\u200band\ufffdreplacement",
    "$100 + 5% = <tag> ^ ` | ~ {json: [1, 2]}",
    "a" * 150,
    "unaffable antidisestablishmentarianism",
    "",
    "word " * 400,
]


@pytest.fixture(scope="module")
def reference() -> BertWordPieceTokenizer:
    ref = BertWordPieceTokenizer(
        str(VOCAB), lowercase=True, strip_accents=None, clean_text=True, handle_chinese_chars=True
    )
    ref.enable_truncation(256)
    return ref


def test_vendored_vocab_is_the_pinned_file() -> None:
    assert hashlib.sha256(VOCAB.read_bytes()).hexdigest() == VOCAB_SHA256


def test_hand_checked_ids() -> None:
    tok = WordPieceTokenizer()
    # [CLS] hello , world ! [SEP] and a word split into pieces
    assert tok.encode("Hello, world!") == [101, 7592, 1010, 2088, 999, 102]
    assert tok.encode("unaffable") == [101, 14477, 20961, 3468, 102]
    assert tok.encode("") == [101, 102]


def test_truncates_at_256_tokens() -> None:
    ids = WordPieceTokenizer().encode("word " * 400)
    assert len(ids) == 256
    assert ids[0] == 101 and ids[-1] == 102


@pytest.mark.parametrize("text", CASES)
def test_matches_reference_on_edge_cases(reference: BertWordPieceTokenizer, text: str) -> None:
    assert WordPieceTokenizer().encode(text) == reference.encode(text).ids


def test_matches_reference_on_every_dataset_text(reference: BertWordPieceTokenizer) -> None:
    tok = WordPieceTokenizer()
    texts = []
    for path in (SEED_DATASET, WILD_DATASET):
        for row in read_rows(path):
            texts.append(row["goal"])
            for step in row["root"]["children"]:
                texts.extend((str(step.get("input", "")), str(step["output"])))
    mismatches = [t for t in texts if tok.encode(t) != reference.encode(t).ids]
    assert len(texts) > 1000
    assert mismatches == []


def test_ascii_fast_path_matches_the_reference_on_every_ascii_character(
    reference: BertWordPieceTokenizer,
) -> None:
    tok = WordPieceTokenizer()
    # Each character alone, between letters and between spaces: control characters are
    # dropped, whitespace splits, punctuation stands alone, letters are lowercased.
    texts = [f"{frame[0]}{chr(c)}{frame[1]}" for c in range(128)
             for frame in ("ab", "  ", "A ", " 9")]
    rng = random.Random(7)
    alphabet = [chr(c) for c in range(128)]
    texts += ["".join(rng.choices(alphabet, k=rng.randint(1, 60))) for _ in range(2000)]
    assert all(t.isascii() for t in texts)
    mismatches = [t for t in texts if tok.encode(t) != reference.encode(t).ids]
    assert mismatches == []
