"""Database settings, read from the environment once at an entry point."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class DatabaseSettings:
    """Where the database lives.

    `database_url` wins when set; otherwise an embedded server keeps its data
    under `data_dir`.
    """

    database_url: str | None
    data_dir: Path

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> DatabaseSettings:
        env = os.environ if env is None else env
        url = env.get("DATABASE_URL", "").strip() or None
        data_dir = Path(env.get("ROLEGRAPH_DATA_DIR", ".rolegraph")).expanduser().resolve()
        return cls(database_url=url, data_dir=data_dir)
