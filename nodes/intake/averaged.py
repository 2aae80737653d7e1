"""The learned reader's estimator: logistic regression fitted by SGD from several seeds,
their weights averaged.

One SGD run's weights depend on the order it visits the examples in: retrained on a
corpus a few templates larger, or from another seed, a reader changes its mind on
messages near a threshold, and its scores on the held-out splits move by points. The
mean of `SEEDS` runs is a linear model like each of them (the reader reads it alike,
`nodes.intake.learned.LinearReader`), with most of that noise averaged out.

Imported only to train: it imports scikit-learn, which no process that only reads
requests loads.
"""

from __future__ import annotations

from typing import Any

from sklearn.base import clone
from sklearn.linear_model import SGDClassifier

SEEDS = 3


class SeedAveragedSGD(SGDClassifier):  # type: ignore[misc]
    """An `SGDClassifier` whose weights are the mean of `SEEDS` fits, from `random_state`
    on: deterministic, and predicting as an `SGDClassifier` with those weights would."""

    def fit(self, X: Any, y: Any, **kwargs: Any) -> SeedAveragedSGD:
        super().fit(X, y, **kwargs)
        fits: list[Any] = [self]
        for offset in range(1, SEEDS):
            other = SGDClassifier(**clone(self).get_params())
            fits.append(
                other.set_params(random_state=self.random_state + offset).fit(X, y, **kwargs)
            )
        self.coef_ = sum(f.coef_ for f in fits) / SEEDS
        self.intercept_ = sum(f.intercept_ for f in fits) / SEEDS
        return self
