"""What memory holds: stable facts about one customer, and how recall weighs them.

A domain reads candidate `Fact`s out of a request (`DomainMemory.facts`); the
harness keeps the important ones, stores each (key, value) beside the others
of its key with its times, and at recall the newest value of a key wins and
keys rank by relevance times a decay that halves every half-life.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from checkpoints.errors import ConfigurationError

MIN_IMPORTANCE = 0.5
"""Candidates below this are one-off commands or guesses, not facts."""
DEFAULT_HALF_LIFE = timedelta(hours=24)
HALF_LIFE_ENV = "ROLEGRAPH_MEMORY_HALF_LIFE"
_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([smhd]?)\s*$")
_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "": 3600}


@dataclass(frozen=True)
class Fact:
    """A candidate fact a request states: `key` (e.g. a preference) has `value`."""

    key: str
    value: str
    importance: float
    """0..1: a stated lasting preference is high; a one-off command or a guess is low."""


@dataclass(frozen=True)
class Remembered:
    """One stored (key, value) observation of a customer, as recall reads it."""

    key: str
    value: str
    first_seen: datetime
    last_seen: datetime
    count: int
    """How often it was stated (duplicates merge into one entry)."""
    version: int
    """Bumped on every write of this entry (the compare-and-set check)."""
    score: float = 0.0


def is_fact(fact: Fact) -> bool:
    """The importance filter: only stable facts are remembered."""
    return fact.importance >= MIN_IMPORTANCE


def decay(age: timedelta, half_life: timedelta) -> float:
    """The weight of something `age` old: 1 now, 1/2 after one half-life."""
    return float(0.5 ** (max(age.total_seconds(), 0.0) / half_life.total_seconds()))


def winners(
    entries: list[Remembered], relevance: dict[str, float], now: datetime, half_life: timedelta
) -> list[Remembered]:
    """The newest value of every key, ranked by relevance x decay (best first)."""
    newest: dict[str, Remembered] = {}
    for entry in entries:
        held = newest.get(entry.key)
        if held is None or entry.last_seen > held.last_seen:
            newest[entry.key] = entry
    scored = [
        replace(e, score=relevance.get(e.key, 0.1) * decay(now - e.last_seen, half_life))
        for e in newest.values()
    ]
    return sorted(scored, key=lambda e: (-e.score, e.key))


def half_life_from(env: Mapping[str, str] | None) -> timedelta:
    """`ROLEGRAPH_MEMORY_HALF_LIFE` ("24h", "90m", "2d", "3600s"; bare numbers are hours)."""
    raw = (env or {}).get(HALF_LIFE_ENV, "").strip()
    if not raw:
        return DEFAULT_HALF_LIFE
    match = _DURATION.match(raw.lower())
    if not match or float(match.group(1)) <= 0:
        raise ConfigurationError(
            f"{HALF_LIFE_ENV}={raw!r} is not a duration; use e.g. 24h, 90m, 2d or 3600s"
        )
    return timedelta(seconds=float(match.group(1)) * _UNITS[match.group(2)])
