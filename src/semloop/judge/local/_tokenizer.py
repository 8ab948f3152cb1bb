"""BERT WordPiece tokenisation (uncased) for the embedded MiniLM model, standard library only.

The model ships without a tokenizer; this is the ``bert-base-uncased`` scheme: clean the
text, split CJK characters, lowercase and strip accents, split on whitespace and
punctuation, then greedy longest-match WordPiece with ``##`` continuations, wrapped in
``[CLS]`` ... ``[SEP]``. It matches the Hugging Face ``tokenizers`` BERT pipeline id for id
(``tests/local/test_tokenizer.py`` checks that).
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Sequence
from functools import lru_cache
from importlib import resources

__all__ = ["VOCAB_SHA256", "WordPieceTokenizer", "load_vocab", "strip_accents", "vocab_words"]

#: sha256 of the vendored ``vocab.txt`` (bert-base-uncased, 30 522 entries).
VOCAB_SHA256 = "07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3"

_WHITESPACE = frozenset("\t\n\r\x0b\x0c \x85\u2028\u2029")
_CJK_RANGES = (
    (0x4E00, 0x9FFF),
    (0x3400, 0x4DBF),
    (0x20000, 0x2A6DF),
    (0x2A700, 0x2B73F),
    (0x2B740, 0x2B81F),
    (0x2B820, 0x2CEAF),
    (0xF900, 0xFAFF),
    (0x2F800, 0x2FA1F),
)

# ASCII text, the usual case, in one regex: control characters other than tab, newline and
# carriage return dropped, then runs of letters and digits and single punctuation marks
# (every printable non-alphanumeric ASCII character is one to BERT); lowercasing is all
# the accent stripping ASCII needs.
_ASCII_CONTROL = dict.fromkeys([*(c for c in range(32) if chr(c) not in "\t\n\r"), 127])
_ASCII_TOKEN = re.compile(r"[a-z0-9]+|[!-/:-@\[-`{-~]")


def load_vocab() -> list[str]:
    """The vendored vocabulary, verified against :data:`VOCAB_SHA256`."""
    from ..._exceptions import SemloopError

    data = resources.files(__package__).joinpath("vocab.txt").read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    if digest != VOCAB_SHA256:
        raise SemloopError(
            f"semloop/judge/local/vocab.txt is corrupted: sha256 {digest}, "
            f"expected {VOCAB_SHA256}; reinstall semloop"
        )
    return data.decode("utf-8").splitlines()


@lru_cache(maxsize=1)
def vocab_words() -> frozenset[str]:
    """The vocabulary's entries as a set: a word in it is a whole word MiniLM read in English."""
    return frozenset(load_vocab())


def _is_whitespace(ch: str) -> bool:
    return ch in _WHITESPACE or unicodedata.category(ch) == "Zs"


def _is_control(ch: str) -> bool:
    # Tab, newline and carriage return count as whitespace, not control.
    return ch not in "\t\n\r" and unicodedata.category(ch).startswith("C")


def _is_punctuation(ch: str) -> bool:
    cp = ord(ch)
    # ASCII symbols such as $ + < = > ^ ` | ~ are not Unicode "P*" but BERT splits them too.
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True
    return unicodedata.category(ch).startswith("P")


def _is_cjk(cp: int) -> bool:
    return any(lo <= cp <= hi for lo, hi in _CJK_RANGES)


def strip_accents(text: str) -> str:
    """``text`` without its combining marks ("Sofía" → "Sofia"), as BERT's basic
    tokenisation reads a word."""
    if text.isascii():
        return text
    return "".join(c for c in unicodedata.normalize("NFD", text) if unicodedata.category(c) != "Mn")


class WordPieceTokenizer:
    """Text to model ids. ``max_length`` counts ``[CLS]`` and ``[SEP]``."""

    def __init__(self, vocab: Sequence[str] | None = None, *, max_length: int = 256) -> None:
        tokens = list(vocab) if vocab is not None else load_vocab()
        self.vocab: dict[str, int] = {tok: i for i, tok in enumerate(tokens)}
        self.max_length = max_length
        self.cls_id = self.vocab["[CLS]"]
        self.sep_id = self.vocab["[SEP]"]
        self.unk_id = self.vocab["[UNK]"]
        self.pad_id = self.vocab["[PAD]"]
        self.max_chars_per_word = 100

    def basic_tokens(self, text: str) -> list[str]:
        """Cleaned, lowercased, accent-stripped words and punctuation marks."""
        if text.isascii():
            return _ASCII_TOKEN.findall(text.translate(_ASCII_CONTROL).lower())
        out: list[str] = []
        buf: list[str] = []
        for ch in text:
            cp = ord(ch)
            if cp == 0 or cp == 0xFFFD or _is_control(ch):
                continue
            if _is_whitespace(ch):
                buf.append(" ")
            elif _is_cjk(cp):
                buf.extend((" ", ch, " "))
            else:
                buf.append(ch)
        for word in "".join(buf).split():
            word = strip_accents(word.lower())
            current: list[str] = []
            for ch in word:
                if _is_punctuation(ch):
                    if current:
                        out.append("".join(current))
                        current = []
                    out.append(ch)
                else:
                    current.append(ch)
            if current:
                out.append("".join(current))
        return out

    def _wordpiece(self, word: str, out: list[int]) -> None:
        if len(word) > self.max_chars_per_word:
            out.append(self.unk_id)
            return
        pieces: list[int] = []
        start = 0
        while start < len(word):
            end = len(word)
            found = -1
            while start < end:
                piece = word[start:end] if start == 0 else "##" + word[start:end]
                found = self.vocab.get(piece, -1)
                if found >= 0:
                    break
                end -= 1
            if found < 0:
                out.append(self.unk_id)
                return
            pieces.append(found)
            start = end
        out.extend(pieces)

    def encode(self, text: str) -> list[int]:
        """Ids of ``[CLS] text [SEP]``, truncated to ``max_length``."""
        ids: list[int] = []
        limit = self.max_length - 2
        for word in self.basic_tokens(text):
            self._wordpiece(word, ids)
            if len(ids) >= limit:
                break
        return [self.cls_id, *ids[:limit], self.sep_id]
