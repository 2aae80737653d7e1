"""From per-intent probabilities to a reading, clause by clause, with the vetoes
that keep a learned reader from ever widening what runs.

- Every request clause is read on its own, so "cancel #W1 and also track #W2"
  gets both readings; a condition clause asks nothing itself.
- A write is read only from a clause that asks for something to be done: a
  question about state ("was it cancelled?") reads as the domain's read of that
  state instead.
- A clause that only points at something ("W5190824, the sneakers") asks nothing itself.
- A message no clause of which reads anything is read whole, with the same vetoes, unless
  a condition or a taking back would be lost.
- A clause that takes back the one before it ("cancel it. wait no, don't.") leaves
  that one's write unread.
- A write the clause withdraws ("don't cancel") is never read from it, and one
  no word of the clause names needs near-certainty (a typo'd "cancle" is read,
  a stray write on "where is my package?" is not).
- A write needs the model's confidence (`WRITE_THRESHOLD`); below it, but above
  `UNCERTAIN`, it is reported as uncertain and not read, so the safest reading
  (no write) wins.
- An intent answered with a refusal (a bulk change) is read from the whole
  message, by the domain's rules or the model's confidence: it only ever
  narrows what runs; "nothing applies" is dropped next to any real intent.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from nodes.intake.clauses import Clause, clauses
from nodes.intake.learned import IntentModel
from nodes.intake.rules import screen_injection

READ_THRESHOLD = 0.5
WRITE_THRESHOLD = 0.7
"""A write is read at this confidence, a read at `READ_THRESHOLD`: a false write is the
costly error. On the development set 0.6 read no fewer messages right than 0.5 with a
fifth fewer false writes; on seven later ones (C-I, 6,353 messages) 0.7 reads a third
fewer false writes than 0.6 (12 against 18) for 0.2 points of exact match, and 0.8 one
fewer than 0.7 for 0.2-0.8 points more. A write between `UNCERTAIN` and this is asked
about, never run."""
UNWORDED = 0.97
UNCERTAIN = 0.25
"""Below this a write is simply not there; between it and the threshold it is
"uncertain" (reported, not read), and a read is plausible (`LearnedReading.plausible`)."""
LEANING = 0.15
"""A clause the model reads nothing in is read as the read it leans to most, if that has
this much: a message in words the corpus never used gets low scores throughout, and a
look-up answers it better than "nothing applies" (a read changes nothing; writes are never
taken this way)."""
SURE = 0.95
BESIDE = 0.7
"""Beside a read the model is `SURE` of, another read needs `BESIDE`."""
CLEAR = 0.97
"""A change read alone this surely needs no help from the condition gating it."""
ALONE_THRESHOLD = 0.7
"""A refusal of the whole message (a bulk change) the model reads at this confidence:
refusing only narrows what runs, and the domain's rules read it too."""


@dataclass(frozen=True)
class Vocabulary:
    """What the reader must know of the domain's intents."""

    writes: frozenset[str]
    alone: frozenset[str]
    """Intents answered with a refusal, which stand alone whatever else is read (bulk
    changes). The domain's rules read them, and the model from the whole message at
    `ALONE_THRESHOLD`: a refusal only narrows what runs; the bar keeps a reference to
    "the other one" from refusing a conversation."""
    nothing: str
    """The intent meaning "nothing applies"."""
    state_reads: Mapping[str, str] = field(default_factory=dict)
    """What a question about a write's state reads as (a question whether something was done reads as where it stands)."""
    negated: Callable[[str], frozenset[str]] = lambda clause: frozenset()
    """What a clause withdraws: a write is never read from it ("don't cancel", "不用退了"), a
    read is not asked ("don't tell me where it is, just cancel it")."""
    worded: Callable[[str], frozenset[str]] = lambda clause: frozenset()
    """The writes a clause has words for; any other write needs `UNWORDED` confidence."""
    takes_back: Callable[[str], bool] = lambda clause: False
    """Whether a clause takes back the change of the clause before it ("cancel it. wait no,
    don't."): that change is not read."""
    points_only: Callable[[str], bool] = lambda clause: False
    """Whether a clause only names what another one asks about ("W5190824, the sneakers"):
    it is not read on its own, where the model would guess a change from the product."""
    in_general: Callable[[str], frozenset[str]] = lambda reading: frozenset()
    """The writes a request, read with the condition gating it, asks whether they can be
    done at all ("can I return the kettle if I end up not liking it?"): none is read, but
    `rules` is. A condition is split off its request, so `negated` alone never sees it."""
    rules: str | None = None
    """The read that asks what the rules allow (the domain's policy question)."""


@dataclass(frozen=True)
class LearnedReading:
    intents: tuple[str, ...]
    uncertain: tuple[str, ...] = ()
    """Writes the model leaned to but not confidently enough to read."""
    clauses: tuple[Clause, ...] = ()
    read_in: tuple[tuple[str, frozenset[str]], ...] = ()
    """(clause text, intents read from it) for every clause that asks something."""
    plausible: tuple[str, ...] = ()
    """Reads the model gave some weight (`UNCERTAIN` or more) without reading them: what a
    model tier may choose among (`nodes.models.grounding`)."""


def read(model: IntentModel, text: str, vocabulary: Vocabulary) -> LearnedReading:
    """The intents of `text` in the model's label order; never empty."""
    parts = clauses(text)
    # A condition asks nothing; an injected instruction is not the customer's request.
    asking = [
        c for c in parts if c.act != "conditional" and not screen_injection(c.text.lower())
    ] or list(parts)
    texts = [c.text for c in asking] if len(parts) > 1 else [text]
    gated = [c.reading for c in asking if c.reading != c.text] if len(parts) > 1 else []
    scored = model.scores_many([*texts, *gated, text] if len(parts) > 1 else texts)
    whole = scored[-1]
    if gated:
        scored = _with_conditions(asking, scored, len(texts), vocabulary.writes)
    refused = _ordered(
        {a for a in vocabulary.alone if whole.get(a, 0.0) >= ALONE_THRESHOLD}, model.labels
    )
    if refused:
        return LearnedReading(refused[:1], (), parts, ((text, frozenset(refused[:1])),))
    uncertain: set[str] = set()
    weighed: set[str] = set()
    read_in: list[tuple[str, frozenset[str]]] = []
    leaning: list[tuple[int, set[str], bool]] = []
    pointing = [len(asking) > 1 and vocabulary.points_only(c.text) for c in asking]
    if all(pointing):
        pointing = [False] * len(asking)
    for clause, scores, points in zip(asking, scored[: len(texts)], pointing, strict=True):
        if points:  # its ids and products are the other clauses' (slots read the whole text)
            read_in.append((clause.reading, frozenset()))
            continue
        found, unsure = _clause_intents(scores, vocabulary)
        if not found and (leant := _leaning(scores, vocabulary)):
            leaning.append((len(read_in), leant, clause.act == "question"))
        negated = vocabulary.negated(clause.text)
        if len(texts) > 1:
            found, unsure = _in_context(found, unsure, clause.text, scores, whole, vocabulary)
        vetoed = negated | _unworded(clause.text, scores, vocabulary)
        general = vocabulary.in_general(clause.reading)
        rules = {vocabulary.rules} if general and vocabulary.rules else set()
        vetoed |= general
        sure = found - negated
        found, unsure = _beside_the_sure(found - vetoed, sure, scores, vocabulary), unsure - vetoed
        found |= rules
        if clause.act == "question":
            found = _asked_about(found, vocabulary)
            unsure = set()
        # "If it has shipped, never mind": a branch under a condition takes back nothing.
        if read_in and clause.reading == clause.text and vocabulary.takes_back(clause.text):
            earlier, asked = read_in[-1]
            read_in[-1] = (earlier, asked - vocabulary.writes)
        uncertain |= unsure
        weighed |= _weighed(scores, vocabulary)
        read_in.append((clause.reading, frozenset(found)))
    read_in = _unread_filled(
        read_in, leaning, text, parts, whole if len(texts) > 1 else None, vocabulary
    )
    picked = set().union(*(found for _, found in read_in))
    intents = _settled(picked, model.labels, vocabulary)
    return LearnedReading(
        intents,
        _ordered(uncertain, model.labels),
        parts,
        tuple(read_in),
        _ordered(weighed - set(intents), model.labels),
    )


def _unread_filled(
    read_in: list[tuple[str, frozenset[str]]],
    leaning: list[tuple[int, set[str], bool]],
    text: str,
    parts: tuple[Clause, ...],
    whole: dict[str, float] | None,
    vocabulary: Vocabulary,
) -> list[tuple[str, frozenset[str]]]:
    """A message none of whose clauses reads anything is read whole (`_as_a_whole`), else
    each clause takes the read it leans to. A clause the model is unsure of, beside a
    clause it reads, describes that request ("no backpack.") unless it asks a question
    ("how much more would it be?")."""
    nothing_read = not any(found - {vocabulary.nothing} for _, found in read_in)
    if (
        nothing_read
        and whole is not None
        and (as_whole := _as_a_whole(text, parts, whole, vocabulary))
    ):
        return [(text, frozenset(as_whole))]
    filled = list(read_in)
    for at, leant, asks in leaning:
        if nothing_read or asks:
            earlier, asked = filled[at]
            filled[at] = (earlier, frozenset(asked | leant))
    return filled


def _as_a_whole(
    text: str, parts: tuple[Clause, ...], whole: dict[str, float], vocabulary: Vocabulary
) -> set[str]:
    """What a message none of whose clauses reads as anything asks as a whole: "I ordered
    the backpack in black but I'd rather have navy. it hasn't shipped yet" puts its request
    across clauses none of which is sure alone. Not where a condition gates a change or a
    clause takes one back (the whole would lose which), and with every veto the clauses
    have."""
    if any(c.act == "conditional" or vocabulary.takes_back(c.text) for c in parts):
        return set()
    found, _ = _clause_intents(whole, vocabulary)
    found -= vocabulary.negated(text) | _unworded(text, whole, vocabulary)
    if all(c.act == "question" for c in parts):
        found = _asked_about(found, vocabulary)
    return found


def _with_conditions(
    asking: list[Clause], scored: list[dict[str, float]], alone: int, writes: frozenset[str]
) -> list[dict[str, float]]:
    """Each request's scores: read alone (the first `alone` of `scored`) when the model is
    sure (`CLEAR`) of a change in it, else as read with the condition gating it, which the
    rows after them hold, one per gated request. A change stands whatever gates it
    ("cancel #W1 unless it shipped" is a cancel); a question is about what the condition
    names ("if my refund is done, tell me when it lands" asks about the refund, though
    "tell me when it lands" alone asks about a parcel). A request the model is sure of
    alone takes no change from its condition ("if the return went through, where is my
    refund?" asks for no return): its writes stay at most what they were alone."""
    read = list(scored[:alone])
    with_condition = iter(scored[alone:-1])
    for at, clause in enumerate(asking):
        if clause.reading != clause.text:
            gated = next(with_condition)
            own = read[at]
            if max(own.values()) < CLEAR:
                read[at] = gated
            elif not any(own.get(w, 0.0) >= CLEAR for w in writes):
                read[at] = {
                    k: min(p, own.get(k, 0.0)) if k in writes else p for k, p in gated.items()
                }
    return read


def _in_context(
    found: set[str],
    unsure: set[str],
    clause: str,
    scores: dict[str, float],
    whole: dict[str, float],
    vocabulary: Vocabulary,
) -> tuple[set[str], set[str]]:
    """A write the clause words and leans to, which the whole message asks for surely
    enough: "I got the white ones but wanted black. Exchange please" — the reason is in
    one clause, the request in the next, and neither alone is sure. Never a write the
    clause has no word for, nor one it does not lean to most ("tell me which items are
    eligible for return" leans to the policy)."""
    top = max(scores.values(), default=0.0)
    context = {
        w
        for w in unsure & vocabulary.worded(clause)
        if whole.get(w, 0.0) >= WRITE_THRESHOLD and scores.get(w, 0.0) >= max(top, UNCERTAIN)
    }
    return found | context, unsure - context


def _asked_about(found: set[str], vocabulary: Vocabulary) -> set[str]:
    """A question's reading: a write it names asks where that stands ("was it
    cancelled?"), unless the question already reads what it asks ("did the refund
    for my returned watch go to my card?" asks about the refund)."""
    reads = found - vocabulary.writes
    if reads - {vocabulary.nothing}:
        return reads
    return {vocabulary.state_reads.get(i, i) for i in found} - vocabulary.writes


def _weighed(scores: dict[str, float], vocabulary: Vocabulary) -> set[str]:
    # Reads only: which changes run is never a model's choice.
    ruled = vocabulary.writes | vocabulary.alone | {vocabulary.nothing}
    return {label for label, p in scores.items() if label not in ruled and p >= UNCERTAIN}


def _clause_intents(scores: dict[str, float], vocabulary: Vocabulary) -> tuple[set[str], set[str]]:
    picked = {
        label
        for label, p in scores.items()
        if label not in vocabulary.alone
        and p >= (WRITE_THRESHOLD if label in vocabulary.writes else READ_THRESHOLD)
    }
    unsure = {
        label
        for label, p in scores.items()
        if label in vocabulary.writes and UNCERTAIN <= p < WRITE_THRESHOLD
    }
    return picked, unsure


def _leaning(scores: dict[str, float], vocabulary: Vocabulary) -> set[str]:
    """The read a clause the model reads nothing in leans to most, if it has `LEANING`."""
    best = max((s for s in scores if s not in vocabulary.alone), key=lambda s: scores[s])
    return {best} if best not in vocabulary.writes and scores[best] >= LEANING else set()


def _beside_the_sure(
    found: set[str], weighed: set[str], scores: dict[str, float], vocabulary: Vocabulary
) -> set[str]:
    """`found` less the reads the model only half-believes beside one of `weighed` it is
    sure of: that is its habit of pairing them, not something asked ("怎么还没到"
    complains of a delay and asks no status)."""
    if not any(scores[label] >= SURE for label in weighed):
        return found
    return {label for label in found if scores[label] >= BESIDE or label in vocabulary.writes}


def _unworded(clause: str, scores: dict[str, float], vocabulary: Vocabulary) -> set[str]:
    """The writes no word of `clause` names that the model is not near-certain of."""
    worded = vocabulary.worded(clause)
    return {w for w in vocabulary.writes - worded if scores.get(w, 0.0) < UNWORDED}


def _settled(picked: set[str], labels: tuple[str, ...], vocabulary: Vocabulary) -> tuple[str, ...]:
    real = picked - {vocabulary.nothing}
    return _ordered(real, labels) if real else (vocabulary.nothing,)


def _ordered(found: set[str], labels: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(label for label in labels if label in found)
