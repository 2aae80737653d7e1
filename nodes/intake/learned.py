"""A learned multi-label intent reader: character n-grams and calibrated logistic
regression (scikit-learn), trained on the corpus a domain pack writes.

Character n-grams read Chinese and English alike (no word segmentation), and
tolerate typos and mixed-language text that keyword lists miss. Training is
deterministic (a seeded SGD with a fixed number of epochs), so the same corpus
gives the same model in every process; the artifact is cached under the data
directory, named by a fingerprint of the corpus, the features and the scikit-learn
versions, and retrained whenever any of them changes.

scikit-learn is imported on first use only: a process that never reads a
request (`rolegraph --help`) does not pay for it.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from sklearn.pipeline import Pipeline

FEATURES_VERSION = "char-wb-1-4+signals/sgd-log-2e-6-30/v1"
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


class IntentModel:
    """A trained reader: per-intent probabilities for a text."""

    def __init__(self, pipeline: Pipeline, spec: ModelSpec, fingerprint: str) -> None:
        self._pipeline = pipeline
        self._spec = spec
        self.fingerprint = fingerprint
        self._linear = _linear_parts(pipeline)

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

    def _probabilities(self, texts: list[str]) -> Any:
        """`predict_proba`, computed as the one matrix product it amounts to.

        scikit-learn validates its input once per intent's estimator, which
        costs a request ten times what the arithmetic does; a test checks the
        two agree.
        """
        if self._linear is None:
            return self._pipeline.predict_proba(texts)
        from scipy.sparse import hstack
        from scipy.special import expit

        parts, weights, intercepts = self._linear
        features = hstack([part.transform(texts) for part in parts], format="csr")
        return expit(features @ weights + intercepts)


def _linear_parts(pipeline: Pipeline) -> tuple[list[Any], Any, Any] | None:
    """The feature transformers (their outputs side by side are the features),
    the stacked per-intent weights (features x intents) and intercepts; None when
    an intent's estimator is not linear (a label the corpus never or always uses
    gets a constant predictor) or the features are weighted."""
    import numpy as np
    from sklearn.pipeline import FeatureUnion

    features = pipeline.named_steps["features"]
    union = isinstance(features, FeatureUnion)
    estimators = pipeline.named_steps["intents"].estimators_
    if (union and features.transformer_weights) or not all(
        hasattr(e, "coef_") and e.coef_.shape[0] == 1 for e in estimators
    ):
        return None
    weights = np.vstack([e.coef_[0] for e in estimators]).T
    intercepts = np.array([e.intercept_[0] for e in estimators])
    parts = [part for _, part in features.transformer_list] if union else [features]
    return parts, weights, intercepts


def fingerprint(spec: ModelSpec, examples: Sequence[LabelledText]) -> str:
    """What the artifact depends on: corpus, labels, features (the harness's and the
    pack's), and the scikit-learn and scipy versions."""
    import scipy
    import sklearn

    digest = hashlib.sha256()
    header = [
        spec.name,
        list(spec.labels),
        FEATURES_VERSION,
        spec.version,
        sklearn.__version__,
        scipy.__version__,
    ]
    digest.update(json.dumps(header).encode())
    for example in examples:
        digest.update(json.dumps([example.text, sorted(example.intents)]).encode())
    return digest.hexdigest()[:16]


def train(spec: ModelSpec, examples: Sequence[LabelledText] | None = None) -> IntentModel:
    """Train the reader on the pack's corpus (or `examples`); deterministic."""
    from sklearn.linear_model import SGDClassifier
    from sklearn.multiclass import OneVsRestClassifier
    from sklearn.pipeline import Pipeline
    from sklearn.preprocessing import MultiLabelBinarizer

    examples = list(spec.corpus() if examples is None else examples)
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
    # calibration error), and a fixed seed and epoch count make it reproducible.
    estimator = SGDClassifier(loss="log_loss", alpha=2e-6, max_iter=30, tol=None, random_state=0)
    pipeline = Pipeline(
        [("features", _features(spec)), ("intents", OneVsRestClassifier(estimator))]
    )
    pipeline.fit([e.text for e in examples], targets)
    return IntentModel(pipeline, spec, fingerprint(spec, examples))


def _features(spec: ModelSpec) -> Any:
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.pipeline import FeatureUnion
    from sklearn.preprocessing import FunctionTransformer

    chars = TfidfVectorizer(
        analyzer="char_wb",
        ngram_range=(1, 4),
        sublinear_tf=True,
        min_df=2,
        preprocessor=spec.prepare,
    )
    if spec.signals is None:
        return chars
    return FeatureUnion([("chars", chars), ("signals", FunctionTransformer(spec.signals))])


_LOADED: dict[str, IntentModel] = {}
_LOCK = threading.Lock()


def cache_dir() -> Path:
    """Where trained readers are kept: beside the embedded database's data."""
    from checkpoints.settings import DatabaseSettings

    return DatabaseSettings.from_env().data_dir / "models"


def load(spec: ModelSpec, directory: Path | None = None) -> IntentModel:
    """The pack's reader: from this process's memory, else the cached artifact,
    else trained now and cached. An artifact that does not load is retrained."""
    with _LOCK:
        if (model := _LOADED.get(spec.name)) is not None:
            return model
        examples = spec.corpus()
        key = fingerprint(spec, examples)
        model = _read(_artifact(spec, key, directory), spec, key) or train(spec, examples)
        _keep(spec, model, directory)
        return model


def remember(spec: ModelSpec, model: IntentModel, directory: Path | None = None) -> None:
    """Use `model` (just trained) as the reader of `spec`, in this process and the cache."""
    with _LOCK:
        _keep(spec, model, directory)


def _artifact(spec: ModelSpec, key: str, directory: Path | None) -> Path:
    return (directory or cache_dir()) / f"{spec.name}-{key}.joblib"


def _keep(spec: ModelSpec, model: IntentModel, directory: Path | None) -> None:
    """`model` as this process's reader of `spec`, and on disk unless already there."""
    _LOADED[spec.name] = model
    path = _artifact(spec, model.fingerprint, directory)
    if not path.exists():
        _write(path, model)


def _read(path: Path, spec: ModelSpec, key: str) -> IntentModel | None:
    import joblib

    if not path.exists():
        return None
    try:
        pipeline: Any = joblib.load(path)
    except Exception:  # noqa: BLE001 - a damaged or foreign cache file is retrained, never trusted
        return None
    return IntentModel(pipeline, spec, key)


def _write(path: Path, model: IntentModel) -> None:
    import joblib

    path.parent.mkdir(parents=True, exist_ok=True)
    # Written whole under another name, then renamed: a concurrent reader sees
    # the old state or the new one, never half a file.
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    os.close(fd)
    try:
        joblib.dump(model._pipeline, tmp)
        os.replace(tmp, path)
    finally:
        Path(tmp).unlink(missing_ok=True)
    # Artifacts of an older corpus or scikit-learn version are never read again.
    for stale in path.parent.glob(f"{path.name.rsplit('-', 1)[0]}-*.joblib"):
        if stale != path:
            stale.unlink(missing_ok=True)
