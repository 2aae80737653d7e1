"""Permission → validation → knowledge → risk gate, through the real chain."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from runtime_helpers import ROLES, approval, audit_rows, counter_rows, request

from checkpoints.opening import Database
from skills.contract import SkillMetadata
from skills.errors import ApprovalRequired, SkillLoadError
from skills.middleware.call import RoleLike
from skills.registry import SkillRegistry
from skills.runtime import SkillRuntime
from tests.fakes.approvals import record_approval


async def test_permission_denied_even_when_called_directly(
    runtime: SkillRuntime, db: Database
) -> None:
    req = request("counter_v1", {"label": "denied"}, role="analyst")
    result = await runtime.call(req)
    assert result.status == "error" and result.error_code == "permission_denied"
    assert result.error_message == "counter_v1 not registered for role analyst"
    assert await counter_rows(db, "denied") == 0
    [row] = await audit_rows(db, req.audit_id)
    assert (row["status"], row["skill"], row["role"]) == ("denied", "counter_v1", "analyst")


async def test_deny_list_and_unknown_roles_win_over_execute(
    runtime: SkillRuntime, registry: SkillRegistry
) -> None:
    sender = registry.get("send_notification_v1").executor
    denied = await runtime.call(
        request("send_notification_v1", {"recipient": "u1", "message": "m"}, role="analyst")
    )
    ghost = await runtime.call(request("echo_v1", {"text": "hi"}, role="ghost"))
    assert denied.error_code == ghost.error_code == "permission_denied"
    assert sender.sent == []  # type: ignore[attr-defined]
    bound = {m.skill_id for m in runtime.bound_skills(ROLES["analyst"])}
    assert bound == {"echo_v1", "primary_lookup_v1", "faq_lookup_v1"}


async def test_validation_error_is_not_retried_and_never_executes(
    runtime: SkillRuntime, registry: SkillRegistry, db: Database
) -> None:
    scripted = registry.get("scripted_v1").executor
    req = request("scripted_v1", {"label": 42})
    result = await runtime.call(req)
    assert result.error_code == "validation_error" and result.retries == 0
    assert scripted.calls == 0  # type: ignore[attr-defined]
    [row] = await audit_rows(db, req.audit_id)
    assert (row["status"], row["error_code"]) == ("error", "validation_error")


def _needs_readable_partitions(metadata: SkillMetadata, role: RoleLike) -> None:
    for dep in metadata.knowledge_dependencies:
        if f"kb://{dep.partition}" not in role.read:
            raise SkillLoadError(f"{metadata.skill_id} needs kb://{dep.partition}")


async def test_knowledge_the_role_cannot_read_fails_with_its_own_code(
    make_runtime: Callable[..., SkillRuntime],
) -> None:
    runtime = make_runtime(knowledge_check=_needs_readable_partitions)
    args = {"question": "returns?"}
    blind = await runtime.call(request("faq_lookup_v1", args, role="analyst"))
    sighted = await runtime.call(request("faq_lookup_v1", args, role="operator"))
    assert blind.error_code == "knowledge_unavailable" and sighted.ok
    with pytest.raises(SkillLoadError, match="kb://faq"):
        runtime.bound_skills(ROLES["analyst"])


async def test_high_risk_needs_approval_of_exactly_these_args(
    runtime: SkillRuntime, registry: SkillRegistry, db: Database
) -> None:
    sender = registry.get("send_notification_v1").executor
    args = {"recipient": "u2", "message": "your refund"}
    req = request("send_notification_v1", args, user_id="u1")
    with pytest.raises(ApprovalRequired) as info:
        await runtime.call(req)
    assert info.value.skill_id == "send_notification_v1" and info.value.args == args
    [row] = await audit_rows(db, req.audit_id)
    assert row["status"] == "approval_required" and sender.sent == []  # type: ignore[attr-defined]

    granted = approval("send_notification_v1", info.value.args_hash)
    await record_approval(db.pool, granted, task_id=req.task_id)
    other = request(
        "send_notification_v1", {**args, "recipient": "u3"}, user_id="u1", approval=granted
    )
    with pytest.raises(ApprovalRequired, match="covers other arguments"):
        await runtime.call(other)
    assert sender.sent == []  # type: ignore[attr-defined]

    approved = req.model_copy(update={"approval": granted, "audit_id": req.audit_id + "-2"})
    result = await runtime.call(approved)
    assert result.ok and sender.sent == [args]  # type: ignore[attr-defined]
    [row] = await audit_rows(db, approved.audit_id)
    assert (row["status"], row["approval_id"]) == ("success", "apr-1")


async def test_medium_risk_runs_and_records_a_notice(
    runtime: SkillRuntime, registry: SkillRegistry, db: Database
) -> None:
    req = request("send_notification_v1", {"recipient": "u1", "message": "hi"}, user_id="u1")
    result = await runtime.call(req)
    assert result.ok and result.notice and "medium-risk" in result.notice
    [row] = await audit_rows(db, req.audit_id)
    assert row["detail"]["risk"] == "medium" and "medium-risk" in row["detail"]["notice"]


async def test_forbidden_never_runs_even_with_an_approval(
    runtime: SkillRuntime, registry: SkillRegistry, db: Database
) -> None:
    dropper = registry.get("drop_everything_v1").executor
    req = request("drop_everything_v1", {})
    result = await runtime.call(req)
    approved = await runtime.call(
        request("drop_everything_v1", {}, approval=approval("drop_everything_v1", "x"))
    )
    assert result.error_code == approved.error_code == "forbidden"
    assert dropper.ran is False  # type: ignore[attr-defined]
    [row] = await audit_rows(db, req.audit_id)
    assert row["status"] == "forbidden"


async def test_unknown_skill_is_an_audited_error(runtime: SkillRuntime, db: Database) -> None:
    req = request("teleport_v1", {"to": "mars"})
    result = await runtime.call(req)
    assert result.error_code == "unknown_skill"
    [row] = await audit_rows(db, req.audit_id)
    assert (row["status"], row["skill"]) == ("error", "teleport_v1")


async def test_an_approval_the_table_does_not_hold_is_refused_and_audited(
    runtime: SkillRuntime, registry: SkillRegistry, db: Database
) -> None:
    sender = registry.get("send_notification_v1").executor
    args = {"recipient": "u2", "message": "forged"}
    with pytest.raises(ApprovalRequired) as info:
        await runtime.call(request("send_notification_v1", args, user_id="u1"))
    forged = approval("send_notification_v1", info.value.args_hash, approval_id="apr-forged")
    req = request("send_notification_v1", args, user_id="u1", approval=forged)
    result = await runtime.call(req)
    assert result.error_code == "approval_invalid" and sender.sent == []  # type: ignore[attr-defined]
    [row] = await audit_rows(db, req.audit_id)
    assert (row["status"], row["error_code"]) == ("error", "approval_invalid")


async def test_a_customer_decision_or_another_task_cannot_use_an_approval(
    runtime: SkillRuntime, registry: SkillRegistry, db: Database
) -> None:
    sender = registry.get("send_notification_v1").executor
    args = {"recipient": "u9", "message": "self-approved"}
    with pytest.raises(ApprovalRequired) as info:
        await runtime.call(request("send_notification_v1", args, user_id="u1"))
    own = approval("send_notification_v1", info.value.args_hash, approval_id="apr-self")
    await record_approval(db.pool, own, task_id="t0", decided_by="customer:u1")
    refused = await runtime.call(
        request("send_notification_v1", args, user_id="u1", approval=own, task_id="t0")
    )
    assert refused.error_code == "approval_invalid"

    granted = approval("send_notification_v1", info.value.args_hash, approval_id="apr-once")
    await record_approval(db.pool, granted, task_id="t1")
    first = await runtime.call(
        request("send_notification_v1", args, user_id="u1", approval=granted, task_id="t1")
    )
    assert first.ok
    reused = await runtime.call(
        request("send_notification_v1", args, user_id="u1", approval=granted, task_id="t2")
    )
    assert reused.error_code == "approval_invalid"
    assert sender.sent == [args]  # type: ignore[attr-defined]
