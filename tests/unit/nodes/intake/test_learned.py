"""The learned intent reader: deterministic training, a versioned cache, and the
vetoes that keep it from ever widening what runs (on a small corpus of its own,
so the harness is tested without a domain)."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from nodes.intake import learned, learned_reading
from nodes.intake.learned import ModelSpec
from nodes.intake.learned_reading import Vocabulary


@dataclass(frozen=True)
class Example:
    text: str
    intents: tuple[str, ...]


LABELS = ("door_state", "open_door", "close_door", "weather", "nothing")
_TEMPLATES = {
    ("open_door",): [
        "open the {d}",
        "please open the {d}",
        "can you open the {d}",
        "打开{d}",
        "帮我打开{d}",
    ],
    ("close_door",): [
        "close the {d}",
        "shut the {d} please",
        "could you close the {d}",
        "关上{d}",
        "帮我关{d}",
    ],
    ("door_state",): [
        "is the {d} open?",
        "was the {d} closed?",
        "has the {d} been opened?",
        "{d}开了吗",
        "{d}关了没有",
    ],
    ("weather",): [
        "what's the weather",
        "will it rain today",
        "is it sunny",
        "今天天气怎么样",
        "会下雨吗",
    ],
    ("nothing",): ["hello", "thanks a lot", "tell me a joke", "你好", "谢谢"],
}
_DOORS = ["door", "gate", "garage door", "window", "门", "大门", "车库门"]


def corpus() -> tuple[Example, ...]:
    rows = [
        Example(t.format(d=d), intents)
        for intents, texts in _TEMPLATES.items()
        for t, d in itertools.product(texts, _DOORS)
    ]
    both = [
        Example(f"{verb} the {d} and what's the weather", (intent, "weather"))
        for d in _DOORS
        for verb, intent in (("open", "open_door"), ("close", "close_door"))
    ]
    # A condition is labelled by the request it gates: the corpus teaches that it asks nothing.
    gated = [
        Example(f"{condition}, {verb} the {d}", (intent,))
        for condition in ("if it rains", "if it's cold", "in case it gets windy")
        for verb, intent in (("open", "open_door"), ("close", "close_door"))
        for d in _DOORS[:4]
    ]
    return tuple(rows + both + gated)


def spec(examples: tuple[Example, ...] | None = None) -> ModelSpec:
    return ModelSpec("doors", LABELS, lambda: examples or corpus(), str.lower)


VOCABULARY = Vocabulary(
    writes=frozenset({"open_door", "close_door"}),
    alone=frozenset(),
    nothing="nothing",
    state_reads={"open_door": "door_state", "close_door": "door_state"},
    negated=lambda clause: (
        frozenset({"open_door"}) if "don't open" in clause.lower() else frozenset()
    ),
    worded=lambda clause: (
        frozenset(
            w
            for w, word in (("open_door", "open"), ("close_door", "clos"))
            if word in clause.lower()
        )
        | (frozenset({"open_door"}) if "打开" in clause else frozenset())
        | (frozenset({"close_door"}) if "关" in clause else frozenset())
    ),
)


@pytest.fixture(scope="module")
def model() -> learned.IntentModel:
    return learned.train(spec())


def test_training_is_deterministic(model: learned.IntentModel) -> None:
    again = learned.train(spec())
    probes = ["open the door", "is the gate open?", "会下雨吗", "hello there"]
    assert again.fingerprint == model.fingerprint
    assert again.scores_many(probes) == model.scores_many(probes)


def test_the_fingerprint_follows_the_corpus(model: learned.IntentModel) -> None:
    changed = corpus()[:-1]
    assert learned.fingerprint(spec(changed), changed) != model.fingerprint


def test_a_corpus_label_outside_the_vocabulary_is_refused() -> None:
    bad = (Example("fly me to the moon", ("fly",)), *corpus())
    with pytest.raises(ValueError, match="outside its labels"):
        learned.train(spec(bad))


def test_the_artifact_is_cached_by_fingerprint_and_a_damaged_one_is_retrained(
    tmp_path: Path, model: learned.IntentModel, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(learned, "_LOADED", {})
    first = learned.load(spec(), tmp_path)
    [artifact] = tmp_path.glob("doors-*")
    assert artifact.name == f"doors-{model.fingerprint}.zip"
    monkeypatch.setattr(learned, "_LOADED", {})
    cached = learned.load(spec(), tmp_path)
    assert cached.scores("open the gate") == first.scores("open the gate")
    artifact.write_bytes(b"not a model")
    monkeypatch.setattr(learned, "_LOADED", {})
    retrained = learned.load(spec(), tmp_path)
    assert retrained.scores("open the gate") == first.scores("open the gate")


def test_probabilities_are_probabilities(model: learned.IntentModel) -> None:
    scores = model.scores("open the garage door")
    assert set(scores) == set(LABELS)
    assert all(0.0 <= p <= 1.0 for p in scores.values())
    assert max(scores, key=lambda k: scores[k]) == "open_door"


PROBES = ["open the garage door", "is the gate open?", "会下雨吗", "", "open 打开 the door!!"]


def _signals(texts: Sequence[str]) -> Any:
    from scipy.sparse import csr_matrix

    return csr_matrix([[1.0 if "open" in t else 0.0] for t in texts])


def test_the_probabilities_are_scikit_learns_to_the_last_bit() -> None:
    for signals in (None, _signals):
        examples = corpus()
        doors = ModelSpec("doors", LABELS, corpus, str.lower, signals=signals)
        pipeline = learned.fit(doors, examples)
        trained = learned.IntentModel.of(pipeline, doors, learned.fingerprint(doors, examples))
        expected = pipeline.predict_proba(PROBES)
        assert np.array_equal(trained._probabilities(PROBES), expected)


def test_the_cached_reader_reads_as_the_trained_one(
    tmp_path: Path, model: learned.IntentModel
) -> None:
    learned._write(tmp_path / "doors.npz", model)
    cached = learned._read(tmp_path / "doors.npz", spec(), model.fingerprint)
    assert cached is not None
    assert np.array_equal(cached._probabilities(PROBES), model._probabilities(PROBES))


def test_char_wb_ngrams_are_scikit_learns() -> None:
    from sklearn.feature_extraction.text import TfidfVectorizer

    analyzer = TfidfVectorizer(
        analyzer="char_wb", ngram_range=(1, 4), preprocessor=str
    ).build_analyzer()
    for text in [*PROBES, "  a  bb\tccc \n dddd eeeee ", "打开 车库门", "x"]:
        assert learned.char_wb_ngrams(text, 1, 4) == analyzer(text)


def test_word_ngrams_are_scikit_learns() -> None:
    from sklearn.feature_extraction.text import TfidfVectorizer

    for low, high in ((1, 1), (1, 2), (2, 3)):
        analyzer = TfidfVectorizer(
            analyzer="word", token_pattern=learned.WORD, ngram_range=(low, high), preprocessor=str
        ).build_analyzer()
        for text in [*PROBES, "a bb, c-d e's 0 \t打开 车库门", "x"]:
            assert learned.word_ngrams(text, low, high) == analyzer(text)


# scikit-learn warns of the constant label from the worker that fits it, if anywhere.
@pytest.mark.filterwarnings(r"ignore:Label not \d+ is present in all training examples")
def test_a_label_the_corpus_never_uses_reads_as_never_there() -> None:
    trained = learned.train(ModelSpec("doors", (*LABELS, "never"), corpus, str.lower))
    assert trained.scores("open the door")["never"] == 0.0


def _read(model: learned.IntentModel, text: str) -> tuple[str, ...]:
    return learned_reading.read(model, text, VOCABULARY).intents


def test_a_command_reads_as_its_write(model: learned.IntentModel) -> None:
    assert _read(model, "open the gate") == ("open_door",)
    assert _read(model, "帮我打开车库门") == ("open_door",)


def test_a_question_about_state_never_writes(model: learned.IntentModel) -> None:
    assert _read(model, "was the gate opened?") == ("door_state",)
    assert _read(model, "大门开了吗") == ("door_state",)


def test_a_negated_write_is_never_read(model: learned.IntentModel) -> None:
    assert "open_door" not in _read(model, "don't open the gate")


def test_a_write_no_word_names_is_not_read(model: learned.IntentModel) -> None:
    assert _read(model, "hello") == ("nothing",)
    reading = learned_reading.read(model, "the gate", VOCABULARY)
    assert not set(reading.intents) & VOCABULARY.writes


def test_several_requests_each_get_their_reading(model: learned.IntentModel) -> None:
    assert set(_read(model, "open the door, and close the window")) == {"open_door", "close_door"}


def test_a_condition_asks_nothing_itself(model: learned.IntentModel) -> None:
    # "if it's sunny" would read as a weather question on its own.
    assert _read(model, "if it is sunny, open the window") == ("open_door",)


def test_a_request_is_read_with_the_condition_that_gates_it() -> None:
    # "If the refund is done, tell me when it reaches my card" asks about the refund,
    # though its request alone names none: the model reads the two together.
    parts = learned_reading.clauses("if it is sunny, open the window")
    assert [(c.text, c.act, c.reading) for c in parts] == [
        ("if it is sunny", "conditional", "if it is sunny"),
        ("open the window", "command", "if it is sunny, open the window"),
    ]


def test_a_refusal_of_the_whole_message_is_the_models_to_read_too() -> None:
    # A stand-alone refusal only narrows what runs: the model may read it (above the
    # bar) from the whole message, and then nothing else is read beside it.
    refusing = Vocabulary(
        writes=VOCABULARY.writes,
        alone=frozenset({"close_door"}),
        nothing="nothing",
        state_reads=VOCABULARY.state_reads,
        worded=VOCABULARY.worded,
    )
    model = learned.train(spec())
    text = "close the garage door and what's the weather"
    assert model.scores(text)["close_door"] >= learned_reading.ALONE_THRESHOLD
    assert model.scores(text)["weather"] >= learned_reading.READ_THRESHOLD
    assert learned_reading.read(model, text, refusing).intents == ("close_door",)
    assert learned_reading.read(model, "open the gate", refusing).intents == ("open_door",)


def test_a_weak_read_beside_a_sure_one_is_not_taken(model: learned.IntentModel) -> None:
    scores = {
        "open_door": 0.99,
        "weather": 0.6,
        "door_state": 0.75,
        "close_door": 0.0,
        "nothing": 0.0,
    }
    found = {"open_door", "weather", "door_state"}
    assert learned_reading._beside_the_sure(found, found, scores, VOCABULARY) == {
        "open_door",
        "door_state",
    }
    unsure = {**scores, "open_door": 0.9}
    assert learned_reading._beside_the_sure(found, found, unsure, VOCABULARY) == found


def test_a_worded_write_unsure_alone_is_read_when_the_whole_message_asks_it() -> None:
    # "The door is stuck shut. Open it please": the reason in one clause, the request in
    # the next; neither alone is sure, the whole message is.
    clause = "open it please"
    alone = {"open_door": 0.45, "close_door": 0.3, "weather": 0.0}
    whole = {"open_door": 0.9, "close_door": 0.7, "weather": 0.0}
    unsure = {"open_door", "close_door"}
    in_context = learned_reading._in_context
    assert in_context(set(), unsure, clause, alone, whole, VOCABULARY) == (
        {"open_door"},
        {"close_door"},  # no word of the clause names closing
    )
    # A whole message unsure of it, or a clause giving it little weight, reads nothing.
    assert (
        in_context(set(), unsure, clause, alone, {**whole, "open_door": 0.5}, VOCABULARY)[0]
        == set()
    )
    assert (
        in_context(set(), set(), clause, {**alone, "open_door": 0.1}, whole, VOCABULARY)[0] == set()
    )


def test_a_question_that_reads_what_it_asks_keeps_that_reading(
    model: learned.IntentModel,
) -> None:
    # "Did the refund for my returned watch reach my card?" asks about the refund; the
    # write it names is no question of state of its own.
    asked = learned_reading._asked_about({"weather", "open_door"}, VOCABULARY)
    assert asked == {"weather"}
    assert learned_reading._asked_about({"open_door"}, VOCABULARY) == {"door_state"}


def test_a_change_sure_of_itself_is_read_alone_the_condition_aside() -> None:
    parts = list(learned_reading.clauses("if it is sunny, open the window"))
    _, request = parts
    writes = VOCABULARY.writes
    alone = {"open_door": 0.99, "weather": 0.01}
    gated = {"open_door": 0.2, "weather": 0.9}
    whole = {"open_door": 0.5, "weather": 0.5}
    conditioned = learned_reading._with_conditions
    assert conditioned([request], [alone, gated, whole], 1, writes) == [alone]
    unclear = {"open_door": 0.6, "weather": 0.01}
    assert conditioned([request], [unclear, gated, whole], 1, writes) == [gated]


def test_a_question_is_read_with_the_condition_that_names_its_subject() -> None:
    # "if the refund is out, tell me when it lands": alone, "when it lands" reads as a
    # parcel's arrival however sure the model is; the condition says what "it" is.
    _, request = learned_reading.clauses("if the door is shut, tell me how it looks")
    sure_read = {"door_state": 0.99, "weather": 0.01}
    gated = {"door_state": 0.1, "weather": 0.9}
    read = learned_reading._with_conditions(
        [request], [sure_read, gated, gated], 1, VOCABULARY.writes
    )
    assert read == [gated]
    # … but takes no change from it: a write stays at most what it was alone.
    naming = {"door_state": 0.1, "weather": 0.2, "open_door": 0.9}
    read = learned_reading._with_conditions(
        [request], [sure_read, naming, naming], 1, VOCABULARY.writes
    )
    assert read == [{"door_state": 0.1, "weather": 0.2, "open_door": 0.0}]


def test_a_corpus_of_its_sources_alone_is_generated_again_only_when_they_change(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sources = tmp_path / "pack"
    sources.mkdir()
    (sources / "templates.py").write_text("OPEN = 'open the {d}'\n")
    language = tmp_path / "language.py"  # a single file may be a source too
    language.write_text("LANGS = ('en', 'zh')\n")
    generated: list[int] = []

    def counted() -> tuple[Example, ...]:
        generated.append(1)
        return corpus()

    doors = ModelSpec("doors", LABELS, counted, str.lower, sources=(sources, language))
    monkeypatch.setattr(learned, "_LOADED", {})
    first = learned.load(doors, tmp_path)
    assert len(generated) == 1
    monkeypatch.setattr(learned, "_LOADED", {})
    again = learned.load(doors, tmp_path)
    assert len(generated) == 1 and again.fingerprint == first.fingerprint
    assert again.scores("open the gate") == first.scores("open the gate")
    (sources / "templates.py").write_text("OPEN = 'please open the {d}'\n")
    monkeypatch.setattr(learned, "_LOADED", {})
    learned.load(doors, tmp_path)
    assert len(generated) == 2
    language.write_text("LANGS = ('en',)\n")
    monkeypatch.setattr(learned, "_LOADED", {})
    learned.load(doors, tmp_path)
    assert len(generated) == 3


def test_a_change_to_the_features_code_retrains_on_the_same_corpus(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The keyword rules a pack feeds as signals are features: the same corpus read
    # through changed rules is another model, never the cached one.
    rules = tmp_path / "rules.py"
    rules.write_text("OPEN = r'open'\n")
    doors = ModelSpec("doors", LABELS, corpus, str.lower, features=(rules,))
    monkeypatch.setattr(learned, "_LOADED", {})
    first = learned.load(doors, tmp_path)
    rules.write_text("OPEN = r'open|unlock'\n")
    monkeypatch.setattr(learned, "_LOADED", {})
    again = learned.load(doors, tmp_path)
    assert again.fingerprint != first.fingerprint
    assert [p.name for p in tmp_path.glob("doors-*")] == [f"doors-{again.fingerprint}.zip"]


def test_without_sources_the_corpus_is_generated_by_every_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    generated: list[int] = []

    def counted() -> tuple[Example, ...]:
        generated.append(1)
        return corpus()

    for _ in range(2):
        monkeypatch.setattr(learned, "_LOADED", {})
        learned.load(ModelSpec("doors", LABELS, counted, str.lower), tmp_path)
    assert len(generated) == 2 and not list(tmp_path.glob("*.sources.json"))


def test_a_clause_read_as_nothing_takes_the_read_the_model_leans_to() -> None:
    # Words the corpus never used score low throughout: the strongest read is taken if it
    # has `LEANING`, a write never is.
    low = {
        "open_door": 0.12,
        "close_door": 0.0,
        "weather": 0.18,
        "door_state": 0.05,
        "nothing": 0.1,
    }
    assert learned_reading._clause_intents(low, VOCABULARY)[0] == set()
    assert learned_reading._leaning(low, VOCABULARY) == {"weather"}
    faint = {**low, "weather": 0.1}
    assert learned_reading._leaning(faint, VOCABULARY) == set()
    assert learned_reading._leaning({**low, "open_door": 0.4}, VOCABULARY) == set()


@dataclass(frozen=True)
class _Scored:
    """Scores set per text: the reading's rules on given probabilities."""

    table: dict[str, dict[str, float]]
    labels: tuple[str, ...] = LABELS

    def scores_many(self, texts: Sequence[str]) -> list[dict[str, float]]:
        return [self.table[t] for t in texts]


def test_beside_a_read_only_a_question_takes_the_read_it_leans_to() -> None:
    quiet = dict.fromkeys(LABELS, 0.01)
    sure = {**quiet, "door_state": 0.99}
    leaning = {**quiet, "weather": 0.3}
    said, asked = "is the gate open? no sun at all.", "is the gate open? will it rain?"
    model = _Scored(
        {
            "is the gate open?": sure,
            "no sun at all.": leaning,
            "will it rain?": leaning,
            said: sure,
            asked: sure,
            "no sun at all": leaning,
        }
    )
    # A statement beside a read describes it; a question asks its own.
    assert learned_reading.read(model, said, VOCABULARY).intents == ("door_state",)  # type: ignore[arg-type]
    assert learned_reading.read(model, asked, VOCABULARY).intents == ("door_state", "weather")  # type: ignore[arg-type]
    # Alone, the statement takes the read it leans to.
    assert learned_reading.read(model, "no sun at all", VOCABULARY).intents == ("weather",)  # type: ignore[arg-type]


def test_a_message_no_clause_of_which_reads_anything_is_read_whole() -> None:
    # The request is spread over clauses none of which is sure alone, or even unsure.
    quiet = dict.fromkeys(LABELS, 0.01)
    text = "the door is stuck. it should be open by now."
    model = _Scored(
        {
            "the door is stuck.": quiet,
            "it should be open by now.": {**quiet, "open_door": 0.2},
            text: {**quiet, "open_door": 0.9},
        }
    )
    assert learned_reading.read(model, text, VOCABULARY).intents == ("open_door",)  # type: ignore[arg-type]
    # The whole has every veto the clauses have: a write it withdraws stays unread.
    withdrawn = "the door is stuck. don't open it by force."
    model = _Scored(
        {
            "the door is stuck.": quiet,
            "don't open it by force.": {**quiet, "open_door": 0.4},
            withdrawn: {**quiet, "open_door": 0.9},
        }
    )
    assert learned_reading.read(model, withdrawn, VOCABULARY).intents == ("nothing",)  # type: ignore[arg-type]
