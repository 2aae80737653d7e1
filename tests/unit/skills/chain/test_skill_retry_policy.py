from __future__ import annotations

import asyncio
import json
import ssl

import pytest
from chain_helpers import make_call
from langgraph.errors import GraphBubbleUp

from skills.contract import SkillResult
from skills.errors import (
    DomainError,
    SkillTimeout,
    SkillValidationError,
    UpstreamHTTPError,
    UpstreamNetworkError,
)
from skills.middleware.call import Call
from skills.middleware.classify import is_retryable
from skills.middleware.retry import Retry, backoff_seconds
from skills.registry import SkillRegistry


def test_backoff_doubles_from_half_a_second_with_twenty_percent_jitter() -> None:
    assert [backoff_seconds(n, 0.5) for n in (1, 2, 3, 4)] == [0.5, 1.0, 2.0, 4.0]
    assert backoff_seconds(1, 0.0) == pytest.approx(0.4)
    assert backoff_seconds(1, 0.999999) == pytest.approx(0.6, abs=1e-5)
    assert backoff_seconds(12, 0.999999) == 30.0


@pytest.mark.parametrize(
    ("exc", "expected"),
    [
        (UpstreamHTTPError(429), True),
        (UpstreamHTTPError(503), True),
        (UpstreamHTTPError(408), True),
        (UpstreamNetworkError("reset"), True),
        (SkillTimeout("x", 1.0), True),
        (UpstreamHTTPError(400), False),
        (UpstreamHTTPError(404), False),
        (ssl.SSLError(1, "bad certificate"), False),
        (json.JSONDecodeError("bad", "{", 0), False),
        (SkillValidationError("no"), False),
        (DomainError("order already shipped"), False),
        (asyncio.CancelledError(), False),
        (GraphBubbleUp(), False),
        (ValueError("plain bug"), False),
    ],
)
def test_retry_classification(registry: SkillRegistry, exc: BaseException, expected: bool) -> None:
    assert is_retryable(exc, registry.get("echo_v1").metadata) is expected


def test_metadata_error_policy_can_mark_a_type_retryable(registry: SkillRegistry) -> None:
    scripted = registry.get("scripted_v1")
    flaky_thing = type(scripted.executor).__module__
    flaky = __import__(flaky_thing, fromlist=["FlakyThing"]).FlakyThing("blip")
    assert is_retryable(flaky, scripted.metadata)
    assert not is_retryable(flaky, registry.get("echo_v1").metadata)


class _Failing:
    def __init__(self, *failures: BaseException) -> None:
        self.failures = list(failures)
        self.calls = 0

    async def __call__(self, call: Call) -> SkillResult:
        self.calls += 1
        if self.failures:
            raise self.failures.pop(0)
        return SkillResult(skill_id=call.skill_id, status="success")


def _retry(waits: list[float]) -> Retry:
    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    return Retry(sleep=sleep, unit_random=lambda: 0.5)


async def test_at_most_three_retries_then_the_error_surfaces(registry: SkillRegistry) -> None:
    waits: list[float] = []
    inner = _Failing(*[UpstreamHTTPError(503) for _ in range(10)])
    call = make_call(registry)
    with pytest.raises(UpstreamHTTPError):
        await _retry(waits)(call, inner)
    assert inner.calls == 4 and call.trace.retries == 3
    assert waits == [0.5, 1.0, 2.0]


async def test_retry_after_wins_over_a_shorter_backoff(registry: SkillRegistry) -> None:
    waits: list[float] = []
    inner = _Failing(UpstreamHTTPError(429, retry_after=2.0))
    result = await _retry(waits)(make_call(registry), inner)
    assert result.ok and inner.calls == 2 and waits == [2.0]


@pytest.mark.parametrize(
    "exc",
    [
        UpstreamHTTPError(400),
        ssl.SSLError(1, "bad certificate"),
        json.JSONDecodeError("bad", "{", 0),
        SkillValidationError("no"),
        asyncio.CancelledError(),
    ],
)
async def test_non_retryable_failures_run_once(registry: SkillRegistry, exc: BaseException) -> None:
    waits: list[float] = []
    inner = _Failing(exc)
    with pytest.raises(type(exc)):
        await _retry(waits)(make_call(registry), inner)
    assert inner.calls == 1 and waits == []
