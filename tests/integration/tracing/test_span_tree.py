"""The spans of golden-path turns, exported by `rolegraph` processes to a local OTLP receiver."""

from __future__ import annotations

import hashlib
import json
import subprocess

from checkpoints.opening import Database
from tests.cli import run_cli
from tests.integration.graph.helpers import order_status, user_with_orders
from tests.integration.tracing.receiver import Receiver, Span


def _traced_env(db_env: dict[str, str], receiver: Receiver) -> dict[str, str]:
    env = {k: v for k, v in db_env.items() if not k.startswith(("OTEL_", "LANGSMITH_"))}
    # A short schedule delay, so the batch exporter is also exercised before shutdown.
    return {**env, "OTEL_EXPORTER_OTLP_ENDPOINT": receiver.url, "OTEL_SERVICE_NAME": "rg-test"}


def _last_json(result: subprocess.CompletedProcess[str]) -> dict:  # type: ignore[type-arg]
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def _root(spans: list[Span], thread_id: str) -> Span:
    (root,) = [
        s for s in spans if not s.parent_id and s.attributes.get("rolegraph.thread_id") == thread_id
    ]
    return root


def _children(spans: list[Span], parent: Span) -> list[Span]:
    return [s for s in spans if s.parent_id == parent.span_id and s.trace_id == parent.trace_id]


async def test_a_read_turn_is_a_root_with_node_children_and_skill_grandchildren(
    retail_db: Database, db_env: dict[str, str], receiver: Receiver
) -> None:
    user, (order,) = await user_with_orders(retail_db.pool, "processed")
    env = _traced_env(db_env, receiver)
    done = _last_json(
        run_cli(env, "run", "--json", "--user-id", user, f"where is my package for {order}?")
    )
    assert done["status"] == "completed"

    root = _root(receiver.spans, done["thread_id"])
    assert root.name == "rolegraph turn"
    assert root.attributes["rolegraph.audit_id"] == done["audit_id"]
    assert root.attributes["rolegraph.mode"] == "support"
    assert root.attributes["rolegraph.status"] == "completed"
    assert (
        root.attributes["rolegraph.customer_hash"] == hashlib.sha256(user.encode()).hexdigest()[:16]
    )
    assert {s.trace_id for s in receiver.spans} == {root.trace_id}

    nodes = _children(receiver.spans, root)
    names = [s.name for s in nodes]
    assert {"node turn", "node intake", "node planner", "node compose", "node respond"} <= set(
        names
    )
    assert all(s.name.startswith("node ") for s in nodes)
    skills = [(n, s) for n in nodes for s in _children(receiver.spans, n)]
    by_skill = {s.attributes["rolegraph.skill.id"]: (n, s) for n, s in skills}
    node, skill = by_skill["track_shipment_v1"]
    assert node.name.startswith("node role_")
    assert skill.name == "execute_tool track_shipment_v1"
    assert skill.attributes["gen_ai.operation.name"] == "execute_tool"
    assert skill.attributes["rolegraph.skill.status"] == "success"
    assert skill.attributes["rolegraph.skill.version"].count(".") == 2
    assert skill.attributes["rolegraph.skill.role"] == node.name.removeprefix("node role_")
    assert skill.attributes["rolegraph.skill.retries"] == 0
    assert skill.attributes["rolegraph.skill.breaker_state"] == "closed"
    assert isinstance(skill.attributes["rolegraph.skill.duration_ms"], int)
    # The customer's id never leaves the process, in no attribute and no span.
    assert user.encode() not in b"".join(receiver.raw)


async def test_an_approval_resumed_by_another_process_links_to_the_turn(
    retail_db: Database, db_env: dict[str, str], receiver: Receiver
) -> None:
    user, (order,) = await user_with_orders(retail_db.pool, "pending")
    env = _traced_env(db_env, receiver)
    asked = _last_json(
        run_cli(env, "run", "--json", "--user-id", user, f"cancel {order}, ordered by mistake")
    )
    thread = asked["thread_id"]
    receiver.clear()
    started = _last_json(
        run_cli(env, "run", "--json", "--user-id", user, "--thread-id", thread, "yes")
    )
    assert started["status"] == "interrupted"
    (request,) = started["interrupts"]
    first = _root(receiver.spans, thread)
    assert first.attributes["rolegraph.status"] == "interrupted"
    assert first.links == ()
    approvals = [s for s in _children(receiver.spans, first) if s.name == "node approval"]
    (asking,) = [s for s in approvals if s.attributes.get("rolegraph.interrupted")]
    assert asking.status_code == 0  # a stop for a person is no error
    asked_skills = [
        s
        for s in receiver.spans
        if s.attributes.get("rolegraph.skill.id") == "cancel_pending_order_v1"
    ]
    assert [s.attributes["rolegraph.skill.status"] for s in asked_skills] == ["approval_required"]

    receiver.clear()
    resumed = _last_json(
        run_cli(
            env, "resume", thread, "--decision", "approve", "--request-id", request["id"], "--json"
        )
    )
    assert resumed["status"] == "completed"
    assert await order_status(retail_db.pool, order) == "cancelled"
    second = _root(receiver.spans, thread)
    assert second.trace_id != first.trace_id
    assert second.links == ((first.trace_id, first.span_id),)
    assert second.attributes["rolegraph.resumed_from"].startswith(
        f"00-{first.trace_id}-{first.span_id}-"
    )
    assert second.attributes["rolegraph.audit_id"] == started["audit_id"]
    cancels = [
        s
        for s in receiver.spans
        if s.attributes.get("rolegraph.skill.id") == "cancel_pending_order_v1"
    ]
    (cancel,) = [s for s in cancels if s.attributes["rolegraph.skill.status"] == "success"]
    assert cancel.attributes["rolegraph.skill.approval_id"]
    assert user.encode() not in b"".join(receiver.raw)
