"""A learned multi-label intent reader: character and word n-grams and calibrated
logistic regression (scikit-learn), trained on the corpus a domain pack writes.

Character n-grams read Chinese and English alike (no word segmentation), and
tolerate typos and mixed-language text that keyword lists miss; word n-grams
(runs of one to three words) tell apart messages whose characters mostly agree
("send it back", "sent it back"). Training is deterministic (a seeded SGD with a fixed number of epochs), so the same corpus
gives the same model in every process; the artifact is cached under the data
directory, named by a fingerprint of the corpus, the features and the scikit-learn
versions, and retrained whenever any of them changes.

scikit-learn trains the reader; reading needs plain Python (`LinearReader`), and
the artifact holds the arrays it reads with, so no process that reads a request
imports scikit-learn, scipy or numpy unless it has to train.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import sys
import tempfile
import threading
import zipfile
from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from sklearn.pipeline import Pipeline

FEATURES_VERSION = "char-wb-1-4-df8+word-1-3-df8+signals/sgd-log-1e-6-30x3-mean/v3"
"""Bump when the features or the estimator change: old artifacts are then retrained."""


class LabelledText(Protocol):
    """One training message and the set of intents it asks for."""

    @property
    def text(self) -> str: ...
    @property
    def intents(self) -> tuple[str, ...]: ...


@dataclass(frozen=True)
class ModelSpec:
    """What a domain pack brings to train its reader."""

    name: str
    """File-name-safe name of the artifact ("<pack>-intents")."""
    labels: tuple[str, ...]
    """Every intent the model may read, in vocabulary order."""
    corpus: Callable[[], Sequence[LabelledText]]
    prepare: Callable[[str], str]
    """The pack's masking of slot values (ids, addresses) before the character
    features: the model learns that an order id is there, not which one."""
    signals: Callable[[Sequence[str]], Any] | None = None
    """The pack's rule readings of raw texts as extra features (a matrix, one row
    per text): the model learns how far each rule is to be trusted."""
    version: str = "1"
    """The pack's version of `prepare` and `signals`: bumped when either changes, so
    an artifact trained on the old features is retrained."""
    features: tuple[Path, ...] = ()
    """Files (or folders) whose code makes `prepare` and `signals`: their digest is part of
    the fingerprint, so a changed keyword rule or masking retrains the reader instead of
    reusing one trained on the old features (`version` need not be bumped by hand)."""
    sources: tuple[Path, ...] = ()
    """Folders (or single files) whose files alone make the corpus (its generator is deterministic),
    if the pack says so: then a process finds the cached reader from a digest of
    them instead of generating the corpus to fingerprint it (a quarter second of
    every start), and generates it again only when a file changed."""


class IntentModel:
    """A trained reader: per-intent probabilities for a text."""

    def __init__(self, linear: LinearReader, spec: ModelSpec, fingerprint: str) -> None:
        self._linear = linear
        self._spec = spec
        self.fingerprint = fingerprint

    @classmethod
    def of(cls, pipeline: Pipeline, spec: ModelSpec, fingerprint: str) -> IntentModel:
        """The reader a fitted pipeline (`fit`) amounts to."""
        return cls(LinearReader.of(pipeline), spec, fingerprint)

    @property
    def labels(self) -> tuple[str, ...]:
        return self._spec.labels

    def scores(self, text: str) -> dict[str, float]:
        """The calibrated probability of every label for `text`."""
        return self.scores_many([text])[0]

    def scores_many(self, texts: Sequence[str]) -> list[dict[str, float]]:
        rows = self._probabilities(list(texts))
        return [
            {label: round(float(p), 6) for label, p in zip(self.labels, row, strict=True)}
            for row in rows
        ]

    def _probabilities(self, texts: list[str]) -> list[list[float]]:
        """The fitted pipeline's `predict_proba`, one row per text, without scikit-learn."""
        signals = self._spec.signals(texts) if self._spec.signals else ()
        if hasattr(signals, "toarray"):
            signals = signals.toarray()  # a sparse matrix of the pack's rules
        return self._linear.probabilities([self._spec.prepare(t) for t in texts], signals)


_WHITE_SPACES = re.compile(r"\s\s+")
WORD = r"(?u)\b\w+\b"
"""A word of the word n-grams: any run of letters or digits, one character or more."""
_WORD = re.compile(WORD)


@dataclass(frozen=True)
class TfidfBlock:
    """One TF-IDF vectorizer of the features, as arithmetic: n-grams of characters inside
    word boundaries (`char_wb`) or of words, sublinear tf, idf, an l2-normed row."""

    analyzer: str
    """"char_wb" or "word"."""
    vocabulary: dict[str, int]
    """N-gram -> its column within the block."""
    ngrams: tuple[int, int]
    idf: array[float]
    """One per column."""

    @classmethod
    def of(cls, vectorizer: Any) -> TfidfBlock:
        return cls(
            str(vectorizer.analyzer),
            {str(gram): int(column) for gram, column in vectorizer.vocabulary_.items()},
            (int(vectorizer.ngram_range[0]), int(vectorizer.ngram_range[1])),
            _floats(vectorizer.idf_),
        )

    def terms(self) -> list[str]:
        """The n-grams in column order."""
        return sorted(self.vocabulary, key=lambda gram: self.vocabulary[gram])

    def grams(self, text: str) -> list[str]:
        if self.analyzer == "word":
            return word_ngrams(text, *self.ngrams)
        return char_wb_ngrams(text, *self.ngrams)

    def weights(self, text: str, offset: int) -> list[tuple[int, float]]:
        """The columns of `text` (from `offset`) and their weights, as `TfidfVectorizer.transform`."""
        counts: dict[int, int] = {}
        for gram in self.grams(text):
            if (column := self.vocabulary.get(gram)) is not None:
                counts[column] = counts.get(column, 0) + 1
        # Sublinear tf times idf, then the row's l2 norm, summed in column order.
        columns = sorted(counts)
        values = [(math.log(counts[c]) + 1.0) * self.idf[c] for c in columns]
        norm = 0.0
        for value in values:
            norm += value * value
        if norm:
            root = math.sqrt(norm)
            values = [v / root for v in values]
        return [(offset + c, v) for c, v in zip(columns, values, strict=True)]


@dataclass(frozen=True)
class LinearReader:
    """A fitted pipeline as the arithmetic it amounts to, in plain Python.

    The features are TF-IDF blocks (`TfidfBlock`: character n-grams inside word
    boundaries, then word n-grams), followed by the pack's signals; each intent
    is a logistic regression over them. Reading a request this way needs neither
    scikit-learn and scipy, whose import would cost every `rolegraph run` process
    about a second, nor numpy; every sum is taken in scikit-learn's order, so a
    test finds the probabilities equal to the pipeline's to the last bit.
    """

    blocks: tuple[TfidfBlock, ...]
    weights: array[float]
    """Row-major: for each feature column (the blocks', then signals), one per intent."""
    intercepts: array[float]
    """One per intent; +-inf for an intent the corpus always or never uses."""

    @classmethod
    def of(cls, pipeline: Pipeline) -> LinearReader:
        import numpy as np
        from sklearn.feature_extraction.text import TfidfVectorizer
        from sklearn.pipeline import FeatureUnion

        features = pipeline.named_steps["features"]
        parts = (
            [t for _, t in features.transformer_list]
            if isinstance(features, FeatureUnion)
            else [features]
        )
        estimators = pipeline.named_steps["intents"].estimators_
        width = next(e.coef_.shape[1] for e in estimators if hasattr(e, "coef_"))
        weights = np.zeros((width, len(estimators)))
        intercepts = np.zeros(len(estimators))
        for n, estimator in enumerate(estimators):
            if hasattr(estimator, "coef_"):
                weights[:, n] = estimator.coef_[0]
                intercepts[n] = estimator.intercept_[0]
            else:  # a label the corpus never (or always) uses: a constant 0 (or 1)
                intercepts[n] = np.inf if estimator.y_[0] else -np.inf
        return cls(
            tuple(TfidfBlock.of(p) for p in parts if isinstance(p, TfidfVectorizer)),
            _floats(weights),
            _floats(intercepts),
        )

    @property
    def columns(self) -> int:
        """How many columns the TF-IDF blocks take; the signals follow them."""
        return sum(len(block.vocabulary) for block in self.blocks)

    def probabilities(
        self, prepared: Sequence[str], signals: Sequence[Sequence[float]]
    ) -> list[list[float]]:
        """Per-intent probabilities of each prepared text, with its row of signals."""
        labels = len(self.intercepts)
        first = self.columns
        rows = []
        for n, text in enumerate(prepared):
            features: list[tuple[int, float]] = []
            offset = 0
            for block in self.blocks:
                features += block.weights(text, offset)
                offset += len(block.vocabulary)
            if len(signals):
                features += [(first + j, float(v)) for j, v in enumerate(signals[n]) if v]
            # Summed feature by feature in column order, as the sparse product does.
            decision = [0.0] * labels
            for column, value in features:
                start = column * labels
                for k, weight in enumerate(self.weights[start : start + labels]):
                    decision[k] += value * weight
            rows.append([_expit(d + b) for d, b in zip(decision, self.intercepts, strict=True)])
        return rows

    def save(self, path: str) -> None:
        meta = [
            {"analyzer": block.analyzer, "ngrams": block.ngrams, "terms": block.terms()}
            for block in self.blocks
        ]
        with zipfile.ZipFile(path, "w") as saved:
            saved.writestr("meta.json", json.dumps({"blocks": meta}, ensure_ascii=False))
            for n, block in enumerate(self.blocks):
                saved.writestr(f"idf{n}.f64", _little_endian(block.idf))
            for name in _ARRAYS:
                saved.writestr(f"{name}.f64", _little_endian(getattr(self, name)))

    @classmethod
    def load(cls, path: Path) -> LinearReader:
        with zipfile.ZipFile(path) as saved:
            meta = json.loads(saved.read("meta.json"))["blocks"]
            idfs = [_from_little_endian(saved.read(f"idf{n}.f64")) for n in range(len(meta))]
            arrays = {n: _from_little_endian(saved.read(f"{n}.f64")) for n in _ARRAYS}
        blocks = tuple(
            TfidfBlock(
                m["analyzer"],
                dict(zip(m["terms"], range(len(m["terms"])), strict=True)),
                (m["ngrams"][0], m["ngrams"][1]),
                idf,
            )
            for m, idf in zip(meta, idfs, strict=True)
        )
        return cls(blocks, **arrays)


_ARRAYS = ("weights", "intercepts")


def _floats(values: Any) -> array[float]:
    """A numpy array's float64s, row-major, as a plain `array`."""
    floats = array("d")
    floats.frombytes(values.astype("=f8").tobytes(order="C"))
    return floats


def _little_endian(floats: array[float]) -> bytes:
    if sys.byteorder == "little":
        return floats.tobytes()
    swapped = array("d", floats)
    swapped.byteswap()
    return swapped.tobytes()


def _from_little_endian(data: bytes) -> array[float]:
    floats = array("d")
    floats.frombytes(data)
    if sys.byteorder != "little":
        floats.byteswap()
    return floats


def _expit(x: float) -> float:
    """The logistic function as scipy's `expit` computes it (numpy's exp may round differently)."""
    try:
        return 1.0 / (1.0 + math.exp(-x))
    except OverflowError:  # exp(-x) beyond a float: the probability is 0
        return 0.0


def char_wb_ngrams(text: str, low: int, high: int) -> list[str]:
    """scikit-learn's `char_wb` analyzer: the n-grams of each word padded with spaces."""
    grams: list[str] = []
    for word in _WHITE_SPACES.sub(" ", text).split():
        padded = f" {word} "
        for n in range(low, high + 1):
            offset = 0
            grams.append(padded[offset : offset + n])
            while offset + n < len(padded):
                offset += 1
                grams.append(padded[offset : offset + n])
            if offset == 0:  # a short word counts once
                break
    return grams


def word_ngrams(text: str, low: int, high: int) -> list[str]:
    """scikit-learn's `word` analyzer with `WORD` tokens: the words, then their runs of
    two, and so on up to `high`."""
    words = _WORD.findall(text)
    grams = list(words) if low == 1 else []
    for n in range(max(low, 2), min(high, len(words)) + 1):
        grams += [" ".join(words[i : i + n]) for i in range(len(words) - n + 1)]
    return grams


def fingerprint(spec: ModelSpec, examples: Sequence[LabelledText]) -> str:
    """What the artifact depends on: corpus, labels, features (the harness's and the
    pack's), and the scikit-learn and scipy versions."""
    digest = hashlib.sha256(json.dumps(_fingerprint_header(spec)).encode())
    for example in examples:
        digest.update(json.dumps([example.text, sorted(example.intents)]).encode())
    return digest.hexdigest()[:16]


def _fingerprint_header(spec: ModelSpec) -> list[Any]:
    # The versions are read from the installed metadata: importing them would cost a second.
    return [
        spec.name,
        list(spec.labels),
        FEATURES_VERSION,
        spec.version,
        version("scikit-learn"),
        version("scipy"),
        _files_digest(spec.features),
    ]


def train(spec: ModelSpec, examples: Sequence[LabelledText] | None = None) -> IntentModel:
    """Train the reader on the pack's corpus (or `examples`); deterministic."""
    examples = list(spec.corpus() if examples is None else examples)
    return IntentModel.of(fit(spec, examples), spec, fingerprint(spec, examples))


def fit(spec: ModelSpec, examples: Sequence[LabelledText]) -> Pipeline:
    """The scikit-learn pipeline `train` reads with, fitted on `examples`."""
    from sklearn.multiclass import OneVsRestClassifier
    from sklearn.pipeline import Pipeline
    from sklearn.preprocessing import MultiLabelBinarizer

    from nodes.intake.averaged import SeedAveragedSGD

    unknown = {i for e in examples for i in e.intents} - set(spec.labels)
    if unknown:
        raise ValueError(
            f"the corpus of {spec.name} uses intents outside its labels: {sorted(unknown)[:3]}"
        )
    targets = MultiLabelBinarizer(classes=list(spec.labels)).fit_transform(
        [e.intents for e in examples]
    )
    # One logistic regression per intent, fitted by SGD on log-loss: its
    # probabilities are calibrated by construction (`make eval` reports the
    # calibration error), and fixed seeds and epoch count make it reproducible.
    # The weights are the mean of a few seeds' (`nodes.intake.averaged`).
    # The intents are fitted on two cores at once: each is its own fit with its own
    # seeds, so the result is the same as one after another, in 40 s instead of 55.
    estimator = SeedAveragedSGD(loss="log_loss", alpha=1e-6, max_iter=20, tol=None, random_state=0)
    pipeline = Pipeline(
        [("features", _features(spec)), ("intents", OneVsRestClassifier(estimator, n_jobs=2))]
    )
    pipeline.fit([e.text for e in examples], targets)
    return pipeline


def _features(spec: ModelSpec) -> Any:
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.pipeline import FeatureUnion
    from sklearn.preprocessing import FunctionTransformer

    chars = TfidfVectorizer(
        analyzer="char_wb",
        ngram_range=(1, 4),
        sublinear_tf=True,
        # An n-gram fewer than 8 messages share is a name, a number or one writer's typo:
        # without them the artifact is a third of the size (about 18 ms, not 50, to load
        # in every process) and the held-out splits read the same.
        min_df=8,
        preprocessor=spec.prepare,
    )
    # Words and their runs beside the characters: "send it back" and "sent it back" share
    # most of their characters; which word is there, and which follow it, tells them apart.
    # A written message is taught in three renders, so a run in fewer than 8 messages is
    # one writer's: without them the development sets read better (set C 96.2 % against
    # 95.6 % at 3) and the artifact is smaller. Runs of three ("no longer need", "the
    # second one") read every development set better than pairs alone (set I, never
    # tuned on, 91.0 % against 90.5 %; sets C-H 0.1-0.6 points); runs of four no better.
    words = TfidfVectorizer(
        analyzer="word",
        token_pattern=WORD,
        ngram_range=(1, 3),
        sublinear_tf=True,
        min_df=8,
        preprocessor=spec.prepare,
    )
    blocks = [("chars", chars), ("words", words)]
    if spec.signals is not None:
        blocks.append(("signals", FunctionTransformer(_sparse, kw_args={"signals": spec.signals})))
    # The blocks are computed two at a time: the pack's rules take as long as the n-grams.
    return FeatureUnion(blocks, n_jobs=2)


def _sparse(texts: Sequence[str], signals: Callable[[Sequence[str]], Any]) -> Any:
    """The signals as a sparse matrix: SGD fits sparse and dense features differently."""
    from scipy.sparse import csr_matrix

    return csr_matrix(signals(texts))


_LOADED: dict[str, IntentModel] = {}
_LOCK = threading.Lock()


def cache_dir() -> Path:
    """Where trained readers are kept: beside the embedded database's data."""
    from checkpoints.settings import DatabaseSettings

    return DatabaseSettings.from_env().data_dir / "models"


def load(spec: ModelSpec, directory: Path | None = None) -> IntentModel:
    """The pack's reader: from this process's memory, else the cached artifact
    (named by the corpus's fingerprint, which the digest of the pack's `sources`
    recalls without generating the corpus), else trained now and cached. An
    artifact that does not load is retrained."""
    with _LOCK:
        if (model := _LOADED.get(spec.name)) is not None:
            return model
        sources = _sources_digest(spec) if spec.sources else None
        known = _known_fingerprint(spec, sources, directory)
        if known and (model := _read(_artifact(spec, known, directory), spec, known)):
            _LOADED[spec.name] = model
            return model
        examples = spec.corpus()
        key = fingerprint(spec, examples)
        model = _read(_artifact(spec, key, directory), spec, key) or train(spec, examples)
        _keep(spec, model, directory)
        if sources:
            taken = json.dumps([sources, key])
            write_whole(_sources_file(spec, directory), lambda tmp: Path(tmp).write_text(taken))
        return model


def remember(spec: ModelSpec, model: IntentModel, directory: Path | None = None) -> None:
    """Use `model` (just trained) as the reader of `spec`, in this process and the cache."""
    with _LOCK:
        _keep(spec, model, directory)


def _sources_digest(spec: ModelSpec) -> str:
    """A digest of every file under the pack's `sources`, and of what else the
    fingerprint names besides the corpus."""
    header = [*_fingerprint_header(spec), list(sys.version_info[:2])]
    return _files_digest(spec.sources, json.dumps(header))


def _files_digest(roots: Sequence[Path], header: str = "") -> str:
    """A digest of `header` and every file under `roots` (folders or single files), by
    their paths relative to their root's parent and their bytes."""
    digest = hashlib.sha256(header.encode())
    for root in roots:
        files = sorted(p for p in root.rglob("*") if p.is_file()) if root.is_dir() else [root]
        for path in files:
            if "__pycache__" not in path.parts:
                digest.update(f"\0{path.relative_to(root.parent)}\0".encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _known_fingerprint(spec: ModelSpec, sources: str | None, directory: Path | None) -> str | None:
    """The corpus fingerprint last taken from these very sources, if any."""
    if sources is None:
        return None
    try:
        taken_from, key = json.loads(_sources_file(spec, directory).read_bytes())
    except (OSError, ValueError, TypeError):  # never taken, or damaged: generate the corpus
        return None
    return str(key) if taken_from == sources else None


def _sources_file(spec: ModelSpec, directory: Path | None) -> Path:
    return (directory or cache_dir()) / f"{spec.name}.sources.json"


def _artifact(spec: ModelSpec, key: str, directory: Path | None) -> Path:
    return (directory or cache_dir()) / f"{spec.name}-{key}.zip"


def _keep(spec: ModelSpec, model: IntentModel, directory: Path | None) -> None:
    """`model` as this process's reader of `spec`, and on disk unless already there."""
    _LOADED[spec.name] = model
    path = _artifact(spec, model.fingerprint, directory)
    if not path.exists():
        _write(path, model)


def _read(path: Path, spec: ModelSpec, key: str) -> IntentModel | None:
    if not path.exists():
        return None
    try:
        linear = LinearReader.load(path)
    except Exception:  # noqa: BLE001 - a damaged or foreign cache file is retrained, never trusted
        return None
    return IntentModel(linear, spec, key)


def _write(path: Path, model: IntentModel) -> None:
    write_whole(path, model._linear.save)
    # Artifacts of an older corpus or scikit-learn version (or format) are never read again.
    for stale in path.parent.glob(f"{path.name.rsplit('-', 1)[0]}-*"):
        if stale != path and stale.suffix in (".zip", ".npz", ".joblib"):
            stale.unlink(missing_ok=True)


def write_whole(path: Path, write: Callable[[str], object]) -> None:
    """`write` the file whole under another name, then rename it to `path`: a
    concurrent reader sees the old state or the new one, never half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    os.close(fd)
    try:
        write(tmp)
        os.replace(tmp, path)
    finally:
        Path(tmp).unlink(missing_ok=True)
