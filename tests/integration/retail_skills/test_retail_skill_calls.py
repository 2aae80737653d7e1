"""Retail executors and the runtime on real Postgres: ownership, risk, shipments."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import psycopg
import pytest

from checkpoints.audit import CUSTOMER_CONFIRMED, AuditEvent, record_event
from checkpoints.opening import Database
from domains.retail.storage.reads import fetch_order
from domains.retail.tools.replay import CATALOG, ReplayRole
from skills.context import RuntimeContext
from skills.contract import Approval, SkillRequest
from skills.errors import ApprovalRequired, ConfirmationRequired, OwnershipError, RecordNotFound
from skills.hashing import args_hash
from skills.registry import SkillRegistry, load_catalog
from skills.runtime import SkillRuntime
from tests.fakes.approvals import record_approval

OWNER = "yusuf_rossi_9620"
OWN_ORDER = "#W4776164"  # pending, Yusuf's
OTHER_ORDER = "#W5199551"  # pending, fatima_johnson_7581's
AS_OF = "2025-03-14T12:00:00-05:00"


@pytest.fixture(scope="module")
def registry() -> SkillRegistry:
    return load_catalog(CATALOG)


def _executor(registry: SkillRegistry, skill_id: str) -> Any:
    return registry.get(skill_id).executor


async def _run(
    registry: SkillRegistry, db: Database, skill: str, args: dict[str, Any], user: str | None
) -> Any:
    executor = _executor(registry, skill)
    ctx = RuntimeContext(pool=db.pool, user_id=user)
    return await executor.execute(executor.validate_input(args), ctx)


async def test_customer_sees_own_order(registry: SkillRegistry, retail_db: Database) -> None:
    order = await _run(registry, retail_db, "get_order_details_v1", {"order_id": OWN_ORDER}, OWNER)
    assert order["user_id"] == OWNER


async def test_customer_is_refused_another_users_order(
    registry: SkillRegistry, retail_db: Database
) -> None:
    with pytest.raises(OwnershipError) as caught:
        await _run(registry, retail_db, "get_order_details_v1", {"order_id": OTHER_ORDER}, OWNER)
    assert caught.value.code == "not_owner"
    assert "fatima" not in str(caught.value) and OTHER_ORDER not in str(caught.value)


async def test_customer_cannot_cancel_another_users_order(
    registry: SkillRegistry, retail_db: Database
) -> None:
    args = {"order_id": OTHER_ORDER, "reason": "no longer needed"}
    with pytest.raises(OwnershipError):
        await _run(registry, retail_db, "cancel_pending_order_v1", args, OWNER)
    async with retail_db.pool.connection() as conn:
        order = await fetch_order(conn, OTHER_ORDER)
    assert order is not None and order["status"] == "pending"


async def test_customer_cannot_read_another_user_or_find_them(
    registry: SkillRegistry, retail_db: Database
) -> None:
    with pytest.raises(OwnershipError):
        await _run(
            registry, retail_db, "get_user_details_v1", {"user_id": "fatima_johnson_7581"}, OWNER
        )
    with pytest.raises(OwnershipError):
        args = {"email": "mia.garcia2723@example.com"}
        await _run(registry, retail_db, "find_user_id_by_email_v1", args, OWNER)


async def test_operator_sees_everything(registry: SkillRegistry, retail_db: Database) -> None:
    order = await _run(registry, retail_db, "get_order_details_v1", {"order_id": OTHER_ORDER}, None)
    assert order["user_id"] == "fatima_johnson_7581"
    with pytest.raises(RecordNotFound, match="Order not found"):
        await _run(registry, retail_db, "get_order_details_v1", {"order_id": "#W0000000"}, None)


def _runtime(registry: SkillRegistry, db: Database) -> SkillRuntime:
    role = ReplayRole(execute=frozenset(s.skill_id for s in registry))
    return SkillRuntime(registry, {role.name: role}, RuntimeContext(pool=db.pool))


def _request(skill: str, args: dict[str, Any], **extra: Any) -> SkillRequest:
    return SkillRequest(skill_id=skill, args=args, role="tau2_replay", audit_id="t", **extra)


async def test_runtime_refuses_other_owner_with_code(
    registry: SkillRegistry, retail_db: Database
) -> None:
    result = await _runtime(registry, retail_db).call(
        _request("get_order_details_v1", {"order_id": OTHER_ORDER}, user_id=OWNER)
    )
    assert result.error_code == "not_owner" and result.payload is None


async def _confirm(db: Database, audit_id: str, skill: str, args: dict[str, Any]) -> None:
    """The row intake writes when the customer answers a confirmation with yes."""
    event = AuditEvent(
        audit_id=audit_id, status=CUSTOMER_CONFIRMED, skill=skill, args_hash=args_hash(args)
    )
    async with db.pool.connection() as conn:
        await record_event(conn, event)


async def test_a_customer_write_needs_their_confirmation_then_an_approval(
    registry: SkillRegistry, retail_db: Database
) -> None:
    runtime = _runtime(registry, retail_db)
    args = {"user_id": OWNER, **_ADDRESS}
    with pytest.raises(ConfirmationRequired) as asked:
        await runtime.call(_request("modify_user_address_v1", args, run_id="r1", user_id=OWNER))
    assert asked.value.args_hash == args_hash(args)
    # A confirmation of other arguments, or of another turn, is no confirmation.
    await _confirm(retail_db, "t", "modify_user_address_v1", {**args, "city": "Boston"})
    await _confirm(retail_db, "another-turn", "modify_user_address_v1", args)
    with pytest.raises(ConfirmationRequired):
        await runtime.call(_request("modify_user_address_v1", args, run_id="r1", user_id=OWNER))
    await _confirm(retail_db, "t", "modify_user_address_v1", args)
    with pytest.raises(ApprovalRequired):
        await runtime.call(_request("modify_user_address_v1", args, run_id="r1", user_id=OWNER))
    approval = Approval(
        approval_id="a1", skill_id="modify_user_address_v1", args_hash=args_hash(args)
    )
    await record_approval(retail_db.pool, approval)
    result = await runtime.call(
        _request("modify_user_address_v1", args, run_id="r1", approval=approval, user_id=OWNER)
    )
    assert result.ok and result.payload["address"]["city"] == "New York"


async def test_user_address_of_another_user_is_forbidden(
    registry: SkillRegistry, retail_db: Database
) -> None:
    args = {"user_id": "fatima_johnson_7581", **_ADDRESS}
    result = await _runtime(registry, retail_db).call(
        _request("modify_user_address_v1", args, user_id=OWNER)
    )
    assert result.error_code == "forbidden"


_ADDRESS = {
    "address1": "101 Highway",
    "address2": "",
    "city": "New York",
    "state": "NY",
    "country": "USA",
    "zip": "10001",
}


async def test_track_eta_and_delay_of_delivered_order(
    registry: SkillRegistry, retail_db: Database
) -> None:
    args = {"order_id": "#W2378156", "as_of": AS_OF}
    tracked = await _run(registry, retail_db, "track_shipment_v1", {"order_id": "#W2378156"}, None)
    shipment = tracked["shipments"][0]
    assert shipment["tracking_id"] == "843053632392"
    assert shipment["events"][-1]["event_code"] == "delivered"
    eta = await _run(registry, retail_db, "calculate_eta_v1", args, None)
    assert eta["shipments"][0]["state"] == "delivered"
    delay = await _run(registry, retail_db, "detect_delay_pattern_v1", args, None)
    assert delay["shipments"][0]["verdict"] in ("delivered_on_time", "delivered_late")


async def test_delay_detection_finds_a_stalled_shipment(
    registry: SkillRegistry, retail_db: Database
) -> None:
    async with retail_db.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT tracking_id FROM shipments WHERE status = 'delayed' ORDER BY tracking_id LIMIT 1"
        )
        row = await cur.fetchone()
    assert row is not None
    args = {"tracking_id": row["tracking_id"], "as_of": AS_OF, "stall_hours": 24}
    verdict = (await _run(registry, retail_db, "detect_delay_pattern_v1", args, None))["shipments"][
        0
    ]
    assert verdict["verdict"] == "delayed"
    assert any("delay scan" in e for e in verdict["evidence"])


def test_every_successful_reference_call_validates(registry: SkillRegistry, tau2_dir: Path) -> None:
    conformance = json.loads((tau2_dir / "conformance_train.json").read_text())
    checked = 0
    for task in conformance["tasks"]:
        for action in task["actions"]:
            if not action["error"]:
                registry.get(action["name"]).executor.validate_input(action["arguments"])
                checked += 1
    assert checked > 300


async def test_customer_records_need_a_customer_or_a_named_operator(
    registry: SkillRegistry, retail_db: Database
) -> None:
    runtime = _runtime(registry, retail_db)
    anonymous = await runtime.call(_request("get_order_details_v1", {"order_id": OTHER_ORDER}))
    assert anonymous.error_code == "identity_required" and anonymous.payload is None
    operator = await runtime.call(
        _request("get_order_details_v1", {"order_id": OTHER_ORDER}, operator="back-office")
    )
    assert operator.ok and operator.payload["order_id"] == OTHER_ORDER


class _CommitReplyLost:
    """Runs the real write, then fails as a connection dropped at COMMIT would."""

    def __init__(self, real: Any) -> None:
        self._real = real
        self.calls = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)

    async def execute(self, args: dict[str, Any], ctx: Any) -> Any:
        self.calls += 1
        payload = await self._real.execute(args, ctx)
        if self.calls == 1:
            raise psycopg.OperationalError("server closed the connection unexpectedly")
        return payload


async def test_a_write_whose_commit_reply_was_lost_is_retried_without_applying_twice(
    registry: SkillRegistry, retail_db: Database
) -> None:
    skill = registry.get("cancel_pending_order_v1")
    flaky = _CommitReplyLost(skill.executor)
    swapped = SkillRegistry([dataclasses.replace(s, executor=flaky) if s is skill else s
                             for s in registry])  # fmt: skip
    runtime = _runtime(swapped, retail_db)
    args = {"order_id": OWN_ORDER, "reason": "no longer needed"}
    await _confirm(retail_db, "t", skill.skill_id, args)  # the customer said yes to this cancel
    approval = Approval(approval_id="a-lost", skill_id=skill.skill_id, args_hash=args_hash(args))
    await record_approval(retail_db.pool, approval)
    result = await runtime.call(
        _request(skill.skill_id, args, run_id="r-lost", approval=approval, user_id=OWNER)
    )
    assert result.ok and result.retries == 1 and flaky.calls == 2
    async with retail_db.pool.connection() as conn:
        order = await fetch_order(conn, OWN_ORDER)
    assert order is not None and order["status"] == "cancelled"
    refunds = [p for p in order["payment_history"] if p["transaction_type"] == "refund"]
    payments = [p for p in order["payment_history"] if p["transaction_type"] == "payment"]
    assert len(refunds) == len(payments)  # the retry replayed; it did not refund again
