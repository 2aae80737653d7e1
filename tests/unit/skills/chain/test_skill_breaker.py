from __future__ import annotations

import asyncio
import contextlib

import pytest
from chain_helpers import make_call, ok

from skills.contract import SkillResult
from skills.errors import CircuitOpenError, DomainError, UpstreamHTTPError
from skills.middleware.breaker import CircuitBreaker
from skills.middleware.call import Call
from skills.registry import SkillRegistry


class _Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def _fail(call: Call) -> SkillResult:
    raise UpstreamHTTPError(503)


async def _refuse(call: Call) -> SkillResult:
    raise DomainError("order already shipped")


def _breaker(clock: _Clock, transitions: list[str]) -> CircuitBreaker:
    async def record(call: Call, state: str) -> None:
        transitions.append(state)

    return CircuitBreaker(clock=clock, on_transition=record)


async def _run(breaker: CircuitBreaker, registry: SkillRegistry, inner) -> None:  # type: ignore[no-untyped-def]
    async def wrapped(call: Call) -> SkillResult:
        result = inner(call)
        return await result if asyncio.iscoroutine(result) else result

    with contextlib.suppress(UpstreamHTTPError, DomainError):
        await breaker(make_call(registry), wrapped)


async def test_opens_after_eight_failures_in_last_ten_and_fails_fast(
    registry: SkillRegistry,
) -> None:
    clock, transitions = _Clock(), []
    breaker = _breaker(clock, transitions)
    for inner in [ok, ok, *[_fail] * 7]:
        await _run(breaker, registry, inner)
    assert breaker.state("echo_v1") == "closed"  # 7 of 9
    await _run(breaker, registry, _fail)
    assert breaker.state("echo_v1") == "open" and transitions == ["open"]
    ran = []
    with pytest.raises(CircuitOpenError):
        await breaker(make_call(registry), lambda call: ran.append(call))  # type: ignore[arg-type,return-value]
    assert ran == []


async def test_domain_refusals_do_not_count_as_failures(registry: SkillRegistry) -> None:
    breaker = _breaker(_Clock(), [])
    for _ in range(10):
        await _run(breaker, registry, _refuse)
    assert breaker.state("echo_v1") == "closed"


async def test_half_open_after_sixty_seconds_allows_one_probe(registry: SkillRegistry) -> None:
    clock, transitions = _Clock(), []
    breaker = _breaker(clock, transitions)
    for _ in range(8):
        await _run(breaker, registry, _fail)
    clock.now += 59.9
    with pytest.raises(CircuitOpenError):
        await breaker(make_call(registry), ok)  # type: ignore[arg-type]
    clock.now += 0.1
    gate = asyncio.Event()

    async def slow_probe(call: Call) -> SkillResult:
        await gate.wait()
        return ok(call)

    probe = asyncio.create_task(breaker(make_call(registry), slow_probe))
    await asyncio.sleep(0)
    assert breaker.state("echo_v1") == "half_open"
    with pytest.raises(CircuitOpenError):  # a second caller while the probe runs
        await breaker(make_call(registry), slow_probe)
    gate.set()
    assert (await probe).ok
    assert breaker.state("echo_v1") == "closed"
    assert transitions == ["open", "half_open", "closed"]


async def test_failed_probe_reopens(registry: SkillRegistry) -> None:
    clock, transitions = _Clock(), []
    breaker = _breaker(clock, transitions)
    for _ in range(8):
        await _run(breaker, registry, _fail)
    clock.now += 60
    await _run(breaker, registry, _fail)
    assert transitions == ["open", "half_open", "open"]
    clock.now += 30
    with pytest.raises(CircuitOpenError):
        await breaker(make_call(registry), ok)  # type: ignore[arg-type]
