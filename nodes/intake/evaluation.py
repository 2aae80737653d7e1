"""How well a reader reads a labelled split: per-intent precision and recall,
whole-message exact match, write precision, and the model's calibration."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from nodes.intake.learned import LabelledText

Reader = Callable[[str], tuple[str, ...]]


@dataclass(frozen=True)
class IntentScore:
    intent: str
    precision: float
    recall: float
    support: int


@dataclass(frozen=True)
class SplitScore:
    """One reader on one split."""

    messages: int
    exact: float
    """Share of messages whose whole intent set was read exactly."""
    write_precision: float
    """Of the write intents read, the share the message asked for."""
    false_writes: int
    per_intent: tuple[IntentScore, ...]
    misses: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...]
    """(text, expected, read) of every message not read exactly."""


def score(
    reader: Reader, split: Sequence[LabelledText], labels: tuple[str, ...], writes: frozenset[str]
) -> SplitScore:
    """Read every message of `split` with `reader` and score it."""
    from sklearn.metrics import precision_recall_fscore_support
    from sklearn.preprocessing import MultiLabelBinarizer

    read = [reader(e.text) for e in split]
    binarizer = MultiLabelBinarizer(classes=list(labels))
    truth, guess = binarizer.fit_transform([e.intents for e in split]), binarizer.transform(read)
    precision, recall, _, support = precision_recall_fscore_support(
        truth, guess, labels=range(len(labels)), zero_division=0.0
    )
    per_intent = tuple(
        IntentScore(label, float(p), float(r), int(n))
        for label, p, r, n in zip(labels, precision, recall, support, strict=True)
    )
    misses = tuple(
        (e.text, tuple(sorted(e.intents)), tuple(sorted(r)))
        for e, r in zip(split, read, strict=True)
        if set(e.intents) != set(r)
    )
    written = [
        (w, set(e.intents)) for e, r in zip(split, read, strict=True) for w in r if w in writes
    ]
    false_writes = sum(1 for w, asked in written if w not in asked)
    return SplitScore(
        messages=len(split),
        exact=1 - len(misses) / max(len(split), 1),
        write_precision=1 - false_writes / max(len(written), 1),
        false_writes=false_writes,
        per_intent=per_intent,
        misses=misses,
    )


def calibration_error(
    probabilities: Sequence[dict[str, float]], split: Sequence[LabelledText], bins: int = 10
) -> float:
    """Expected calibration error over every (message, intent) probability: how far
    the stated confidence is from how often it is right, weighted by bin size."""
    pairs = [
        (p, label in e.intents)
        for scores, e in zip(probabilities, split, strict=True)
        for label, p in scores.items()
    ]
    total = 0.0
    for b in range(bins):
        low, high = b / bins, (b + 1) / bins
        in_bin = [(p, hit) for p, hit in pairs if low <= p < high or (b == bins - 1 and p == 1.0)]
        if in_bin:
            confidence = sum(p for p, _ in in_bin) / len(in_bin)
            accuracy = sum(1 for _, hit in in_bin if hit) / len(in_bin)
            total += len(in_bin) / len(pairs) * abs(confidence - accuracy)
    return total
