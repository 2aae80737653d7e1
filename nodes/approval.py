"""The approval node: the only place that calls `interrupt()`.

Every pending request (high-risk calls and escalations) is asked in ONE
interrupt whose value is a list of typed requests; the resume value maps
request ids to decisions. The node re-runs from its start on resume, so the
only side effect before `interrupt()` — recording the requests for the inbox —
is an idempotent upsert.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

from langgraph.config import get_config
from langgraph.runtime import Runtime
from langgraph.types import interrupt
from pydantic import ValidationError

from nodes.context import SupportContext
from nodes.contracts import ApprovalRequest, HumanDecision, TaskOutcome
from nodes.inputs import value_problem
from nodes.state import SupportState
from skills.hashing import args_hash


async def approval(state: SupportState, runtime: Runtime[SupportContext]) -> dict[str, Any]:
    pending = [ApprovalRequest.model_validate(p) for p in (state.get("pending") or {}).values()]
    if not pending:
        return {}
    thread_id = str(get_config().get("configurable", {}).get("thread_id", "adhoc"))
    await record_requests(runtime.context.pool, thread_id, pending)
    answer = interrupt([p.model_dump(mode="json") for p in pending])
    decisions = parse_decisions(answer, pending)
    await record_decisions(runtime.context.pool, decisions)
    return apply_decisions(pending, decisions)


def parse_decisions(answer: Any, pending: list[ApprovalRequest]) -> dict[str, HumanDecision]:
    """Accept `{request_id: decision}`; a bare decision only when one request waits.

    The resume value comes from outside (CLI, SDK, Studio): an entry that is not
    a valid decision counts as no answer, so its request is simply asked again
    instead of wedging the thread on a value LangGraph would replay forever.
    """
    if len(pending) == 1 and (
        isinstance(answer, str) or (isinstance(answer, dict) and "decision" in answer)
    ):
        answer = {pending[0].id: answer}
    if not isinstance(answer, dict):
        return {}
    decisions: dict[str, HumanDecision] = {}
    for request in pending:
        raw = answer.get(request.id)
        if value_problem(raw) is not None:
            continue  # Postgres would refuse it (NUL, too deep): ask again, never wedge
        try:
            decision = HumanDecision.model_validate(
                {"decision": raw} if isinstance(raw, str) else raw
            )
        except ValidationError:
            continue
        if (request.kind == "escalation") == (decision.decision == "reply"):
            decisions[request.id] = decision
    return decisions


def apply_decisions(
    pending: list[ApprovalRequest], decisions: dict[str, HumanDecision]
) -> dict[str, Any]:
    update: dict[str, Any] = {"pending": {}, "decided": {}, "grants": {}, "outcomes": {}}
    notes = []
    for request in pending:
        decision = decisions.get(request.id)
        if decision is None:
            continue  # unanswered requests stay pending and are asked again
        update["pending"][request.id] = None
        update["decided"][request.id] = decision.model_dump(mode="json")
        notes.append(f"{request.id}={decision.decision}")
        if request.kind == "escalation":
            update["human_reply"] = decision.message or "a colleague has reviewed your case"
        elif decision.decision in ("approve", "edit"):
            args = decision.args if decision.decision == "edit" and decision.args else request.args
            update["grants"][request.task_id] = {
                "args": args,
                "args_hash": args_hash(args),
                "approval_id": request.id,
                "skill": request.skill,
            }
        else:
            update["outcomes"][request.task_id] = TaskOutcome(
                task_id=request.task_id or "",
                skill=request.skill or "",
                role="human",
                status="rejected",
                error="rejected by a human reviewer; nothing was changed",
                attempts=0,
            ).model_dump(mode="json")
    update["trace"] = [f"approval: {', '.join(notes) or 'no decision'}"]
    return update


def escalation_request(audit_id: str, reason: str, evidence: tuple[str, ...]) -> ApprovalRequest:
    request_id = "esc-" + uuid.uuid5(uuid.NAMESPACE_URL, f"{audit_id}/{reason}").hex[:12]
    return ApprovalRequest(
        id=request_id, kind="escalation", reason=reason, evidence=evidence, audit_id=audit_id
    )


async def record_requests(pool: Any, thread_id: str, pending: list[ApprovalRequest]) -> None:
    async with pool.connection() as conn:
        for p in pending:
            await conn.execute(
                "INSERT INTO approvals (request_id, thread_id, kind, skill, risk, args, reason, audit_id)"
                " VALUES (%s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT (request_id) DO NOTHING",
                (
                    p.id,
                    thread_id,
                    p.kind,
                    p.skill,
                    p.risk,
                    json.dumps(p.args),
                    p.reason,
                    p.audit_id,
                ),
            )


async def record_decisions(pool: Any, decisions: dict[str, HumanDecision]) -> None:
    status = {"approve": "approved", "reject": "rejected", "edit": "edited", "reply": "answered"}
    async with pool.connection() as conn:
        for request_id, d in decisions.items():
            await conn.execute(
                "UPDATE approvals SET status = %s, decided_args = %s, decided_at = now()"
                " WHERE request_id = %s AND status = 'pending'",
                (status[d.decision], json.dumps(d.args) if d.args else None, request_id),
            )
