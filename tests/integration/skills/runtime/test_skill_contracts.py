"""Declared skill and binding fields are enforced by the real chain: result
models, required context, privacy levels and payload limits (issue 8 §2)."""

from __future__ import annotations

import dataclasses
from functools import partial
from typing import Any

import pytest
from pydantic import BaseModel
from runtime_helpers import ROLES, Role, audit_rows, request

from checkpoints import ledger
from checkpoints.opening import Database
from skills.context import RuntimeContext
from skills.contract import PrivacyLevel, ResourceLimits, TruncatedResult
from skills.errors import ResultInvalid
from skills.middleware.result_check import check_result
from skills.registry import LoadedSkill, SkillRegistry
from skills.runtime import SkillRuntime

EMAIL = "jane.doe@example.com"


def _scripted(registry: SkillRegistry, *outcomes: Any) -> Any:
    scripted = registry.get("scripted_v1").executor
    scripted.script = list(outcomes)  # type: ignore[attr-defined]
    return scripted


def _with_metadata(registry: SkillRegistry, skill_id: str, **fields: Any) -> SkillRegistry:
    def changed(skill: LoadedSkill) -> LoadedSkill:
        if skill.skill_id != skill_id:
            return skill
        return dataclasses.replace(skill, metadata=skill.metadata.model_copy(update=fields))

    return SkillRegistry(changed(s) for s in registry)


def _runtime(db: Database, registry: SkillRegistry, roles: Any = ROLES) -> SkillRuntime:
    return SkillRuntime(registry, roles, RuntimeContext(pool=db.pool))


async def test_a_result_the_model_rejects_is_an_audited_result_invalid_failure(
    runtime: SkillRuntime, registry: SkillRegistry, db: Database
) -> None:
    scripted = _scripted(registry, "not an object", {"ok": "yes"})
    req = request("scripted_v1", {"label": "x"})
    result = await runtime.call(req)
    assert (result.status, result.error_code, result.payload) == ("error", "result_invalid", None)
    assert "not a valid Outcome" in (result.error_message or "")
    assert scripted.calls == 1  # never retried
    [row] = await audit_rows(db, req.audit_id)
    assert (row["status"], row["error_code"]) == ("error", "result_invalid")
    assert row["detail"]["result_errors"] and "result" not in row["detail"]

    wrong_type = await runtime.call(request("scripted_v1", {"label": "x"}))
    assert wrong_type.error_code == "result_invalid" and "ok" in (wrong_type.error_message or "")
    assert (
        await runtime.call(request("scripted_v1", {"label": "x"}))
    ).ok  # the default {"ok": True}


async def test_invalid_results_count_against_the_breaker(
    runtime: SkillRuntime, registry: SkillRegistry
) -> None:
    scripted = _scripted(registry, *(["garbage"] * 8))
    for _ in range(8):
        assert (await runtime.call(request("scripted_v1", {"label": "x"}))).error_code == (
            "result_invalid"
        )
    assert runtime.breaker_state("scripted_v1") == "open"
    fast = await runtime.call(request("scripted_v1", {"label": "x"}))
    assert fast.error_code == "circuit_open" and scripted.calls == 8


async def test_a_write_whose_result_is_invalid_records_no_effect(db: Database) -> None:
    class Shape(BaseModel):
        row: int

    key = "contract-test-key"
    async with db.pool.connection() as conn:
        await conn.execute("DELETE FROM idempotency_ledger WHERE key = %s", (key,))
        assert (
            await ledger.claim(
                conn, key=key, run_id="r", task_id="t", skill="w_v1", args_hash="h", lease_seconds=5
            )
            is None
        )
    ctx = RuntimeContext(
        pool=db.pool, idempotency_key=key, check_result=partial(check_result, "w_v1", Shape)
    )
    with pytest.raises(ResultInvalid):
        async with db.pool.connection() as conn, conn.transaction():
            await ctx.record_effect(conn, {"row": "not a number"})
    async with db.pool.connection() as conn:
        entry = await ledger.get_entry(conn, key)
        assert entry is not None and entry.state == "started"  # nothing committed as done
        await ctx.record_effect(conn, {"row": 7})
        entry = await ledger.get_entry(conn, key)
    assert entry is not None and (entry.state, entry.result) == ("succeeded", {"row": 7})


async def test_required_context_is_checked_at_call_time(
    db: Database, registry: SkillRegistry
) -> None:
    needs = (("echo_v1", ("user_id", "label")), ("scripted_v1", ("label",)))
    roles = {"operator": Role("operator", frozenset({"echo_v1", "scripted_v1"}), context=needs)}
    runtime = _runtime(db, registry, roles)

    anonymous = request("echo_v1", {"text": "hi"})
    refused = await runtime.call(anonymous)
    assert (refused.error_code, refused.payload) == ("context_missing", None)
    assert "user_id, label" in (refused.error_message or "")
    [row] = await audit_rows(db, anonymous.audit_id)
    assert row["error_code"] == "context_missing"
    still = await runtime.call(request("echo_v1", {"text": "hi"}, user_id="u1"))
    assert still.error_code == "context_missing" and "only with label" in (
        still.error_message or ""
    )
    # A key that is no request field is the record the call acts on: an argument.
    assert (await runtime.call(request("scripted_v1", {"label": "x"}))).ok


@pytest.mark.parametrize(
    ("level", "audit_masked", "payload_masked"),
    [
        ("public", False, False),
        ("internal", True, False),
        ("customer", True, False),
        ("sensitive", True, True),
    ],
)
async def test_privacy_level_decides_which_copies_are_masked(
    db: Database,
    registry: SkillRegistry,
    level: PrivacyLevel,
    audit_masked: bool,
    payload_masked: bool,
) -> None:
    runtime = _runtime(db, _with_metadata(registry, "echo_v1", privacy_level=level))
    text = f"write to {EMAIL} or call 555-123-4567, card 4111 1111 1111 1111"
    req = request("echo_v1", {"text": text}, user_id="u1")
    result = await runtime.call(req)
    assert result.ok
    masked = "write to j***@example.com or call [phone], card [card]"
    assert result.payload == {"echo": masked if payload_masked else text}
    [row] = await audit_rows(db, req.audit_id)
    assert row["detail"]["result"] == {"echo": masked if audit_masked else text}


async def test_an_over_limit_result_is_truncated_with_a_pointer_to_its_audit_row(
    db: Database, registry: SkillRegistry
) -> None:
    limits = ResourceLimits(max_payload_bytes=180)
    runtime = _runtime(db, _with_metadata(registry, "echo_v1", resource_limits=limits))
    text = "x" * 190
    req = request("echo_v1", {"text": text})
    result = await runtime.call(req)
    assert result.ok and result.truncated
    marker = TruncatedResult.model_validate(result.payload)
    assert (marker.audit_id, marker.task_id, marker.skill_id) == (
        req.audit_id,
        req.task_id,
        "echo_v1",
    )
    assert marker.size_bytes > 190 and marker.limit_bytes == 180
    assert marker.preview.startswith('{"echo":"xxx') and len(marker.preview) < 180
    assert f"truncated: {marker.size_bytes} bytes" in (result.notice or "")
    assert req.audit_id in (result.notice or "")
    [row] = await audit_rows(db, req.audit_id)
    assert row["detail"]["result"] == {"echo": text}  # the whole result, where the pointer says
    assert row["detail"]["truncated"] == {"size_bytes": marker.size_bytes, "limit_bytes": 180}

    small = await runtime.call(request("echo_v1", {"text": "short"}))
    assert small.payload == {"echo": "short"} and not small.truncated
