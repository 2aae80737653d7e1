"""The per-tier model circuit breaker, on a hand-driven clock."""

from __future__ import annotations

from nodes.models.breaker import ModelBreakers


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def breakers(clock: Clock) -> ModelBreakers:
    return ModelBreakers(threshold=3, cooldown_s=30.0, clock=clock)


def test_consecutive_failures_open_it_and_a_success_in_between_resets() -> None:
    b = breakers(Clock())
    b.failed("large")
    b.failed("large")
    b.succeeded("large")
    b.failed("large")
    b.failed("large")
    assert b.state("large") == "closed" and b.admit("large")
    b.failed("large")
    assert b.state("large") == "open" and not b.admit("large")


def test_one_full_timeout_opens_it_at_once_and_only_for_its_tier() -> None:
    b = breakers(Clock())
    b.failed("large", opens=True)
    assert not b.admit("large")
    assert b.admit("small") and b.state("small") == "closed"


def test_after_the_cool_down_one_probe_decides() -> None:
    clock = Clock()
    b = breakers(clock)
    b.failed("large", opens=True)
    clock.now = 29.9
    assert not b.admit("large")
    clock.now = 30.0
    assert b.state("large") == "half_open"
    assert b.admit("large")  # the probe
    assert not b.admit("large")  # nobody else while it runs
    b.failed("large")  # a failed probe re-opens for a full cool-down
    assert b.state("large") == "open"
    clock.now = 59.0
    assert not b.admit("large")
    clock.now = 60.0
    assert b.admit("large")
    b.succeeded("large")
    assert b.state("large") == "closed" and b.admit("large") and b.admit("large")


def test_a_released_probe_lets_the_next_call_probe() -> None:
    clock = Clock()
    b = breakers(clock)
    b.failed("large", opens=True)
    clock.now = 31.0
    assert b.admit("large")
    b.release("large")  # cancelled: no verdict on the endpoint
    assert b.state("large") == "half_open" and b.admit("large")
