"""Timeout, retry, breaker, fallback and rollback, through the real chain."""

from __future__ import annotations

import json
import ssl

import pytest
from runtime_helpers import FakeClock, SleepRecorder, audit_rows, counter_rows, request

from checkpoints.opening import Database
from skills.errors import UpstreamHTTPError, UpstreamNetworkError
from skills.registry import SkillRegistry
from skills.runtime import SkillRuntime


async def test_timeout_is_a_result_and_retried_at_most_three_times(
    runtime: SkillRuntime, registry: SkillRegistry, db: Database
) -> None:
    req = request("slow_v1", {"seconds": 30})
    result = await runtime.call(req)
    assert (result.status, result.error_code, result.retries) == ("timeout", "timeout", 3)
    assert "timed out after 0.05s" in (result.error_message or "")
    assert registry.get("slow_v1").executor.calls == 4  # type: ignore[attr-defined]
    [row] = await audit_rows(db, req.audit_id)
    assert (row["status"], row["retries"]) == ("timeout", 3)


async def test_transient_http_errors_are_retried_with_backoff(
    runtime: SkillRuntime, registry: SkillRegistry, sleep: SleepRecorder, db: Database
) -> None:
    scripted = registry.get("scripted_v1").executor
    scripted.script = [UpstreamHTTPError(429), UpstreamHTTPError(503), {"n": 1}]  # type: ignore[attr-defined]
    req = request("scripted_v1", {"label": "x"})
    result = await runtime.call(req)
    assert result.ok and result.payload == {"n": 1} and result.retries == 2
    assert len(sleep.waits) == 2 and 0.4 <= sleep.waits[0] <= 0.6 and 0.8 <= sleep.waits[1] <= 1.2
    [row] = await audit_rows(db, req.audit_id)
    assert (row["status"], row["retries"]) == ("success", 2)


@pytest.mark.parametrize(
    ("failure", "code"),
    [
        (UpstreamHTTPError(400), "http_error"),
        (ssl.SSLError(1, "certificate verify failed"), "ssl_error"),
        (json.JSONDecodeError("Expecting value", "<html>", 0), "invalid_response"),
    ],
)
async def test_permanent_failures_run_once(
    runtime: SkillRuntime, registry: SkillRegistry, failure: Exception, code: str
) -> None:
    scripted = registry.get("scripted_v1").executor
    scripted.script = [failure, {"never": "reached"}]  # type: ignore[attr-defined]
    result = await runtime.call(request("scripted_v1", {"label": "x"}))
    assert (result.error_code, result.retries, scripted.calls) == (code, 0, 1)  # type: ignore[attr-defined]


async def test_breaker_opens_fails_fast_and_half_opens_on_the_fake_clock(
    runtime: SkillRuntime, registry: SkillRegistry, clock: FakeClock, db: Database
) -> None:
    scripted = registry.get("scripted_v1").executor
    scripted.script = [UpstreamNetworkError("down") for _ in range(32)]  # type: ignore[attr-defined]
    audit_ids = []
    for _ in range(8):
        req = request("scripted_v1", {"label": "x"})
        audit_ids.append(req.audit_id)
        assert (await runtime.call(req)).error_code == "network_error"
    opened = await audit_rows(db, audit_ids[-1], calls_only=False)
    assert [r["status"] for r in opened] == ["breaker_open", "error"]
    assert opened[-1]["breaker_state"] == "open"

    calls_before = scripted.calls  # type: ignore[attr-defined]
    fast = request("scripted_v1", {"label": "x"})
    result = await runtime.call(fast)
    assert result.error_code == "circuit_open" and scripted.calls == calls_before  # type: ignore[attr-defined]
    [row] = await audit_rows(db, fast.audit_id)
    assert row["breaker_state"] == "open"

    clock.now += 60
    probe = request("scripted_v1", {"label": "x"})
    assert (await runtime.call(probe)).ok
    rows = await audit_rows(db, probe.audit_id, calls_only=False)
    assert [r["status"] for r in rows] == ["breaker_half_open", "breaker_closed", "success"]
    assert runtime.breaker_state("scripted_v1") == "closed"


async def test_fallback_answers_through_the_chain_and_is_marked(
    runtime: SkillRuntime, registry: SkillRegistry, db: Database
) -> None:
    req = request("primary_lookup_v1", {"key": "k1"})
    result = await runtime.call(req)
    assert result.ok and result.payload == {"key": "k1", "source": "cache"}
    assert result.notice and "fallback" in result.notice and "cached_lookup_v1" in result.notice
    rows = await audit_rows(db, req.audit_id)
    assert [(r["skill"], r["status"]) for r in rows] == [
        ("cached_lookup_v1", "success"),
        ("primary_lookup_v1", "fallback"),
    ]
    assert rows[1]["error_code"] == "network_error" and rows[1]["retries"] == 3


async def test_fallback_needs_the_role_to_be_allowed_to_run_it(
    runtime: SkillRuntime, db: Database
) -> None:
    req = request("primary_lookup_v1", {"key": "k1"}, role="analyst")
    result = await runtime.call(req)
    assert result.error_code == "network_error" and result.notice is None
    rows = await audit_rows(db, req.audit_id)
    assert [(r["skill"], r["status"]) for r in rows] == [
        ("cached_lookup_v1", "denied"),
        ("primary_lookup_v1", "error"),
    ]


async def test_partial_work_is_rolled_back_on_failure(
    runtime: SkillRuntime, registry: SkillRegistry, db: Database
) -> None:
    req = request("two_step_v1", {"label": "half-done", "fail": True})
    result = await runtime.call(req)
    assert result.error_code == "domain_error" and result.retries == 0
    assert await counter_rows(db, "half-done") == 0
    assert len(registry.get("two_step_v1").executor.rolled_back) == 1  # type: ignore[attr-defined]
    [row] = await audit_rows(db, req.audit_id)
    [rollback] = row["detail"]["rollbacks"]
    assert rollback["status"] == "done" and rollback["reason"] == "domain_error"


async def test_caller_can_compensate_a_completed_side_effect(
    runtime: SkillRuntime, db: Database
) -> None:
    req = request("counter_v1", {"label": "undo-me"})
    assert (await runtime.call(req)).ok
    assert await counter_rows(db, "undo-me") == 1
    undo = req.model_copy(update={"audit_id": req.audit_id + "-undo"})
    result = await runtime.compensate(undo)
    assert result.ok and await counter_rows(db, "undo-me") == 0
    [row] = await audit_rows(db, undo.audit_id)
    assert row["status"] == "rolled_back"
    # The compensated key no longer replays: running the task again redoes the effect.
    again = await runtime.call(req.model_copy(update={"audit_id": req.audit_id + "-again"}))
    assert again.ok and not again.replayed and await counter_rows(db, "undo-me") == 1


async def test_compensation_undoes_only_what_this_exact_call_recorded(
    runtime: SkillRuntime, db: Database
) -> None:
    req = request("counter_v1", {"label": "keep-me"})
    assert (await runtime.call(req)).ok
    # A payload naming some other effect is refused: only the recorded result is undone.
    forged = await runtime.compensate(req, payload={"label": "someone-else"})
    assert forged.error_code == "domain_error" and await counter_rows(db, "keep-me") == 1
    # A call that never ran has nothing to undo.
    never = await runtime.compensate(request("counter_v1", {"label": "never-ran"}))
    assert never.error_code == "domain_error"
