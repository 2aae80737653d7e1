"""Tokenising for bilingual full-text search.

Postgres has no Chinese parser (and no pg_trgm in the embedded build), so CJK
text is indexed as overlapping character bigrams in a 'simple'-style
tsvector, next to an 'english' tsvector built from the non-CJK text. The
bigram tsvector/tsquery literals are built here rather than by the server's
parser so that indexing does not depend on the database's ctype locale.
Queries are tokenised exactly like documents.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

# Bumped whenever tokenising changes, so `sync_knowledge` re-indexes every document.
TOKENIZER_VERSION = "1"

_CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3040-\u30ff\uac00-\ud7af"
_CJK_RUN = re.compile(f"[{_CJK}]+")
_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")
_MAX_POSITION = 16383  # tsvector position limit
_MAX_POSITIONS_PER_LEXEME = 256
# fmt: off
_STOPWORDS = frozenset((
    "a", "an", "and", "are", "as", "at", "be", "by", "can", "do", "does", "for", "from", "how",
    "i", "if", "in", "is", "it", "my", "of", "on", "or", "the", "to", "was", "what", "when",
    "where", "which", "who", "why", "will", "with", "you", "your",
))
# fmt: on


def cjk_bigrams(text: str) -> list[str]:
    """Overlapping bigrams of every CJK run, in order; a lone character stands alone."""
    grams: list[str] = []
    for run in _CJK_RUN.findall(text):
        if len(run) == 1:
            grams.append(run)
        grams.extend(run[i : i + 2] for i in range(len(run) - 1))
    return grams


def strip_cjk(text: str) -> str:
    """The text with CJK runs blanked out, for the 'english' tsvector."""
    return _CJK_RUN.sub(" ", text)


def cjk_tsvector(weighted: Sequence[tuple[str, str]]) -> str:
    """A tsvector literal of the bigrams of each (text, weight A-D) part, with positions."""
    positions: dict[str, list[str]] = {}
    pos = 0
    for text, weight in weighted:
        for gram in cjk_bigrams(text):
            pos = min(pos + 1, _MAX_POSITION)
            slots = positions.setdefault(gram, [])
            if len(slots) < _MAX_POSITIONS_PER_LEXEME:
                slots.append(f"{pos}{weight}")
    return " ".join(f"{_quote(g)}:{','.join(p)}" for g, p in sorted(positions.items()))


def cjk_tsquery(text: str) -> str | None:
    """An OR tsquery literal of the query's bigrams, or None when it has no CJK."""
    grams = sorted(set(cjk_bigrams(text)))
    return " | ".join(_quote(g) for g in grams) if grams else None


def query_terms(text: str) -> frozenset[str]:
    """Lower-cased English words (minus stop words) and CJK bigrams, for light matching."""
    words = {w for w in _WORD.findall(strip_cjk(text).lower()) if w not in _STOPWORDS}
    return frozenset(words | set(cjk_bigrams(text)))


def best_passage(body: str, terms: Iterable[str], max_chars: int = 400) -> str:
    """The passage of `body` sharing most terms with the query, trimmed.

    A passage is a paragraph together with the heading above it, so a FAQ
    answer is found by the words of its question.
    """
    wanted = frozenset(terms)
    passages = _passages(body)
    if not passages:
        return body[:max_chars]
    best = max(passages, key=lambda p: len(query_terms(p) & wanted))
    return best if len(best) <= max_chars else best[: max_chars - 1] + "…"


def _passages(body: str) -> list[str]:
    passages: list[str] = []
    heading = ""
    for block in (b.strip() for b in body.split("\n\n")):
        if block.startswith("#"):
            heading = block.lstrip("#").strip()
        elif block:
            passages.append(f"{heading}\n{block}" if heading else block)
    return passages


def _quote(lexeme: str) -> str:
    escaped = lexeme.replace("\\", "\\\\").replace("'", "''")
    return f"'{escaped}'"
