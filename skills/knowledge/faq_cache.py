"""Cached FAQ answers read straight from the FAQ partition's files.

This is the fallback of the database search: it needs neither Postgres nor a
model, so it still answers common questions when full-text search is down.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from skills.knowledge.documents import PartitionSpec, load_partition
from skills.knowledge.tokenize import query_terms

FAQ_PARTITION = "faq"


@dataclass(frozen=True)
class FaqEntry:
    """One question and its answer from a FAQ document."""

    slug: str
    lang: str
    question: str
    answer: str
    question_terms: frozenset[str]
    answer_terms: frozenset[str]


@dataclass(frozen=True)
class FaqMatch:
    entry: FaqEntry
    score: int


@dataclass(frozen=True)
class FaqCache:
    """Every FAQ entry, matched by overlapping words and CJK bigrams."""

    entries: tuple[FaqEntry, ...]

    @classmethod
    def from_root(cls, root: Path | str) -> FaqCache:
        return cls.from_partition(load_partition(Path(root) / FAQ_PARTITION))

    @classmethod
    def from_partition(cls, spec: PartitionSpec) -> FaqCache:
        entries = [
            _entry(doc.slug, doc.lang, section)
            for doc in spec.documents
            for section in doc.body.split("\n## ")[1:]
        ]
        return cls(tuple(entries))

    def lookup(self, question: str, limit: int = 3) -> list[FaqMatch]:
        """Best entries for `question`; a question-word hit counts double."""
        terms = query_terms(question)
        scored = (
            FaqMatch(e, 2 * len(terms & e.question_terms) + len(terms & e.answer_terms))
            for e in self.entries
        )
        hits = [m for m in scored if m.score > 0]
        hits.sort(key=lambda m: (-m.score, m.entry.slug, m.entry.question))
        return hits[:limit]


def _entry(slug: str, lang: str, section: str) -> FaqEntry:
    question, _, answer = section.partition("\n")
    question, answer = question.strip(), answer.strip()
    return FaqEntry(slug, lang, question, answer, query_terms(question), query_terms(answer))
