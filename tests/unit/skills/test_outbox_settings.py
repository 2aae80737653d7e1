"""Delivery settings from the environment, and the backoff they define."""

from __future__ import annotations

import pytest

from checkpoints.errors import ConfigurationError
from skills.outbox.settings import DeliverySettings
from skills.outbox.worker import DeliveryCounts, backoff_seconds


def test_defaults_are_generous_and_smtp_is_optional() -> None:
    settings = DeliverySettings.from_env({})
    assert settings.smtp_host is None and settings.max_attempts == 5
    assert settings.smtp_timeout == 60.0 and settings.lease_seconds >= 10 * settings.smtp_timeout


@pytest.mark.parametrize(
    ("name", "value"),
    [("NOTIFY_MAX_ATTEMPTS", "three"), ("NOTIFY_MAX_ATTEMPTS", "0"), ("NOTIFY_SMTP_TIMEOUT", "-1"),
     ("SMTP_PORT", "2.5"), ("NOTIFY_BACKOFF_BASE", "nan")],
)  # fmt: skip
def test_a_malformed_number_is_one_line_naming_the_variable(name: str, value: str) -> None:
    with pytest.raises(ConfigurationError, match=f"^{name} must be a positive"):
        DeliverySettings.from_env({name: value})


def test_backoff_doubles_within_its_jitter_band_and_is_capped() -> None:
    settings = DeliverySettings(backoff_base=10.0, backoff_max=50.0)
    for attempts, (low, high) in {1: (5, 10), 2: (10, 20), 3: (20, 40), 9: (25, 50)}.items():
        delays = [backoff_seconds(attempts, settings) for _ in range(50)]
        assert all(low <= d <= high for d in delays), (attempts, delays)


def test_counts_add_up_and_summarise() -> None:
    total = DeliveryCounts(claimed=2, sent=1, unknown=1) + DeliveryCounts(claimed=1, lost=1)
    assert total == DeliveryCounts(claimed=3, sent=1, unknown=1, lost=1)
    assert total.summary() == "1 sent, 0 retrying later, 0 failed, 1 unknown, 1 lost"
