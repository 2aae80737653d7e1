from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from checkpoints.database import redact_url, with_database
from checkpoints.errors import InvalidArgument
from checkpoints.retention import parse_age
from checkpoints.settings import DatabaseSettings


def test_database_url_wins_and_blank_means_embedded(tmp_path: Path) -> None:
    env = {"DATABASE_URL": "postgresql://a@h/db", "ROLEGRAPH_DATA_DIR": str(tmp_path)}
    assert DatabaseSettings.from_env(env).database_url == "postgresql://a@h/db"
    blank = DatabaseSettings.from_env({"DATABASE_URL": "  ", "ROLEGRAPH_DATA_DIR": str(tmp_path)})
    assert blank.database_url is None
    assert blank.data_dir == tmp_path.resolve()


def test_redact_url_hides_only_the_password() -> None:
    assert redact_url("postgresql://bob:s3cret@db:5432/app") == "postgresql://bob:***@db:5432/app"
    assert redact_url("postgresql://bob@db/app") == "postgresql://bob@db/app"
    assert "s3cret" not in redact_url("postgresql://bob:s3cret@db/app?sslmode=require")


def test_with_database_keeps_host_and_query() -> None:
    url = "postgresql://postgres:@/postgres?host=/tmp/sock"
    assert with_database(url, "other") == "postgresql://postgres:@/other?host=/tmp/sock"


@pytest.mark.parametrize(
    ("text", "expected"),
    [("7d", timedelta(days=7)), ("12h", timedelta(hours=12)), (" 2w ", timedelta(weeks=2))],
)
def test_parse_age(text: str, expected: timedelta) -> None:
    assert parse_age(text) == expected


@pytest.mark.parametrize("text", ["7", "d7", "7x", "-1d", ""])
def test_parse_age_rejects_with_a_hint(text: str) -> None:
    with pytest.raises(InvalidArgument, match=r"e\.g\. 7d"):
        parse_age(text)
