"""Database settings, read from the environment once at an entry point."""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from checkpoints.errors import ConfigurationError

PROJECT_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA_DIR = PROJECT_ROOT / ".rolegraph"
"""Anchored to the project, not the working directory: a notebook or a shell in a
subfolder attaches to the same embedded server instead of starting a second one."""


@dataclass(frozen=True)
class PoolSettings:
    """How many connections one process opens, and how long a caller waits for one."""

    size: int = 8
    """`ROLEGRAPH_POOL_SIZE`: the most connections the pool opens."""
    timeout_s: float = 10.0
    """`ROLEGRAPH_POOL_TIMEOUT`: seconds to wait for a free connection before failing."""

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> PoolSettings:
        size = env_number(env, "ROLEGRAPH_POOL_SIZE", cls.size, int, minimum=1)
        timeout = env_number(env, "ROLEGRAPH_POOL_TIMEOUT", cls.timeout_s, float, minimum=0.1)
        return cls(size=int(size), timeout_s=float(timeout))


CHECKPOINT_COMMIT_ENV = "ROLEGRAPH_CHECKPOINT_COMMIT"
_CHECKPOINT_COMMITS = ("fast", "durable")


def durable_checkpoints(env: Mapping[str, str]) -> bool:
    """`ROLEGRAPH_CHECKPOINT_COMMIT`: `fast` (default) commits checkpoints without
    waiting for the disk, `durable` waits (`checkpoints.saver` says what either risks)."""
    raw = env.get(CHECKPOINT_COMMIT_ENV, "").strip().lower() or "fast"
    if raw not in _CHECKPOINT_COMMITS:
        raise ConfigurationError(
            f"{CHECKPOINT_COMMIT_ENV}={raw!r} is not usable; set fast or durable,"
            " or unset it for fast"
        )
    return raw == "durable"


@dataclass(frozen=True)
class DatabaseSettings:
    """Where the database lives.

    `database_url` wins when set; otherwise an embedded server keeps its data
    under `data_dir`.
    """

    database_url: str | None
    data_dir: Path
    pool: PoolSettings = field(default_factory=PoolSettings)
    durable_checkpoints: bool = False
    """`ROLEGRAPH_CHECKPOINT_COMMIT=durable`: checkpoint commits wait for the disk too."""

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> DatabaseSettings:
        env = os.environ if env is None else env
        url = env.get("DATABASE_URL", "").strip() or None
        raw_dir = env.get("ROLEGRAPH_DATA_DIR", "").strip()
        data_dir = Path(raw_dir).expanduser().resolve() if raw_dir else DEFAULT_DATA_DIR
        return cls(
            database_url=url,
            data_dir=data_dir,
            pool=PoolSettings.from_env(env),
            durable_checkpoints=durable_checkpoints(env),
        )


_KINDS: Mapping[type, str] = {int: "a whole number", float: "a number"}


def env_number(
    env: Mapping[str, str],
    name: str,
    default: float,
    kind: type[int] | type[float],
    minimum: float,
    error: type[ConfigurationError] = ConfigurationError,
    unset: str | None = None,
) -> float:
    """The numeric setting `name`: a finite `kind` of at least `minimum`, else `default` when unset.

    The one reader of numeric environment settings: a bad value is a start-up
    error of class `error`, one line naming the variable and how to fix it
    (`unset` says what leaving it unset means, by default "the default <default>").
    """
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value: float | None = kind(raw)
    except ValueError:
        value = None
    if value is None or not math.isfinite(value) or value < minimum:
        raise error(
            f"{name}={raw[:40]!r} is not usable; set {_KINDS[kind]} of at least {minimum:g}, "
            f"or unset it for {unset or f'the default {default:g}'}"
        )
    return value
