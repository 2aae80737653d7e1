"""The escalation attempts, one function each: CLI, Python API / SkillRuntime, served graph."""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from typing import Any

from chaos import probe
from chaos.approver import OPERATOR, approver_kwargs, takes_approver
from chaos.confirm import YES, run_confirmed
from chaos.golden import confirm_phase, new_thread
from chaos.proc import cli
from chaos.served import Served
from chaos.tally import Outcome
from checkpoints.audit import CUSTOMER_CONFIRMED, AuditEvent, record_event
from checkpoints.database import DatabaseTarget
from checkpoints.opening import Database, open_database
from graphs.api import compile_support, resume_thread, run_request
from nodes.bootstrap import build_support_context
from nodes.domain import load_domain
from nodes.identity import Identity
from skills.contract import Approval, SkillRequest
from skills.errors import ApprovalRequired, CallNeedsHuman, ConfirmationRequired

CANCEL = "Please cancel order {order}, I ordered it by mistake"
NOTIFY = "Where is my order {order}? Please email me the status"
REFUSALS = ("approval", "forbidden", "permission", "not_owner", "ownership", "unauthor")


@dataclass
class Ctx:
    target: DatabaseTarget
    env: dict[str, str]
    subjects: Iterator[tuple[str, str]]
    served: Served | None


def cancelled(ctx: Ctx, order: str) -> bool:
    return probe.order_status(ctx.target, order) == "cancelled"


def _verdict(name: str, escalated: bool, how: str) -> Outcome:
    outcome = Outcome(name)
    if escalated:
        outcome.bad("escalations", how)
    return outcome


def _chat(answer: str) -> Callable[[Ctx], Outcome]:
    def attempt(ctx: Ctx) -> Outcome:
        user, order = next(ctx.subjects)
        # The customer confirms their cancel (their yes is theirs to give), then answers the
        # operator's approval prompt.
        lines = f"{CANCEL.format(order=order)}\n{YES}\n{answer}\n\n"
        ran = cli(ctx.env, "chat", "--user-id", user, stdin=lines)
        outcome = _verdict(
            f"chat_{answer}",
            cancelled(ctx, order),
            f"typing {answer!r} at the chat prompt cancelled {order}",
        )
        if "needs approval" not in ran.stdout:
            outcome.fail(
                f"the chat never reached the approval prompt; nothing tested: {ran.brief()}"
            )
        return outcome

    return attempt


def cli_operator_is_customer(ctx: Ctx) -> Outcome:
    user, order = next(ctx.subjects)
    thread = new_thread("esc")
    cli(ctx.env, "run", "--user-id", user, "--thread-id", thread, CANCEL.format(order=order))
    cli(ctx.env, *confirm_phase(user, thread))
    waiting = probe.pending_approvals(ctx.target, thread)
    cli(ctx.env | {"ROLEGRAPH_OPERATOR": user}, "resume", thread, "--decision", "approve")
    outcome = _verdict(
        "cli_operator_is_customer",
        cancelled(ctx, order),
        "the customer approved their own cancel as ROLEGRAPH_OPERATOR",
    )
    if not waiting:
        outcome.fail("the confirmed cancel asked for no approval; nothing tested")
    return outcome


CLI_CASES: dict[str, Callable[[Ctx], Outcome]] = {
    "chat_abort_approves": _chat("abort"),
    "chat_yes_approves": _chat("yes"),
    "cli_operator_is_customer": cli_operator_is_customer,
}


async def api_customer_approves(ctx: Ctx) -> Outcome:
    """The Python API with the customer as approver (anonymous where no approver can be given)."""
    user, order = next(ctx.subjects)
    async with open_database(target=ctx.target, migrations=(load_domain().migrations,)) as db:
        sctx = await build_support_context(db.pool, env={})
        graph = compile_support(sctx, db.checkpointer)
        first = await run_confirmed(graph, sctx, text=CANCEL.format(order=order), user_id=user)
        if not first.interrupts:
            raise RuntimeError("the confirmed cancel asked for no approval; nothing to attack")
        with contextlib.suppress(Exception):  # a refusal is the defence working
            await resume_thread(graph, sctx, first.thread_id, decision="approve",
                                **approver_kwargs(Identity("customer", user)))  # fmt: skip
    how = (
        "the customer approved their own cancel"
        if takes_approver()
        else "an anonymous approval (no approver) ran"
    )
    return _verdict("api_customer_approves", cancelled(ctx, order), how)


async def runtime_forged_approval(ctx: Ctx) -> Outcome:
    """`SkillRequest(user_id=None, approval=Approval("apr-forged", ...))` straight into the runtime."""
    _, order = next(ctx.subjects)
    async with open_database(target=ctx.target, migrations=(load_domain().migrations,)) as db:
        runtime = (await build_support_context(db.pool, env={})).skills
        request = _cancel_request(order, None)
        hashed = await _hash_of(runtime, request)
        forged = request.model_copy(
            update={
                "approval": Approval(
                    approval_id="apr-forged", skill_id=request.skill_id, args_hash=hashed
                )
            }
        )
        result = await _call(runtime, forged)
    return _verdict(
        "runtime_forged_approval",
        cancelled(ctx, order) or result == "success",
        f"a forged approval ran: {result}",
    )


async def runtime_reused_approval(ctx: Ctx) -> Outcome:
    """An approval an operator gave for one call, presented again for another call."""
    user, order = next(ctx.subjects)
    async with open_database(target=ctx.target, migrations=(load_domain().migrations,)) as db:
        sctx = await build_support_context(db.pool, env={})
        graph = compile_support(sctx, db.checkpointer)
        first = await run_confirmed(graph, sctx, text=CANCEL.format(order=order), user_id=user)
        await resume_thread(
            graph, sctx, first.thread_id, decision="approve", **approver_kwargs(OPERATOR)
        )
        if not cancelled(ctx, order):
            raise RuntimeError("the operator's own approval did not run; nothing to reuse")
        used = first.interrupts[0]["id"] if first.interrupts else "apr-none"
        request = _cancel_request(order, user).model_copy(
            update={"run_id": "run-" + uuid.uuid4().hex[:8]}
        )
        hashed = await _hash_of(sctx.skills, request)
        # The customer did confirm such a cancel: only the operator's approval is at stake.
        await _customer_confirmed(db, request, hashed)
        reused = request.model_copy(
            update={
                "approval": Approval(approval_id=used, skill_id=request.skill_id, args_hash=hashed)
            }
        )
        result = await _call(sctx.skills, reused)
    return _verdict(
        "runtime_reused_approval",
        not _refused(result),
        f"a used approval passed the gate again: {result}",
    )


async def compensate_foreign_notification(ctx: Ctx) -> Outcome:
    """compensate() of another customer's queued notification, as a customer and as nobody."""
    me, _ = next(ctx.subjects)
    victim, order = next(ctx.subjects)
    async with open_database(target=ctx.target, migrations=(load_domain().migrations,)) as db:
        sctx = await build_support_context(db.pool, env={})
        graph = compile_support(sctx, db.checkpointer)
        await run_request(graph, sctx, text=NOTIFY.format(order=order), user_id=victim)
        ids = probe.notification_ids(ctx.target, victim)
        before = [probe.notification_status(ctx.target, i) for i in ids]
        for who in (me, None):
            request = SkillRequest(skill_id="send_notification_v1", role="notifier", user_id=who, audit_id="aud-chaos-comp",
                                   args={"user_id": victim, "subject": "x", "body": "y"})  # fmt: skip
            for nid in ids:
                with contextlib.suppress(Exception):  # a refusal may be raised or returned
                    await sctx.skills.compensate(request, {"notification_id": nid})
        after = [probe.notification_status(ctx.target, i) for i in ids]
    return _verdict(
        "compensate_foreign_notification",
        bool(ids) and before != after,
        f"another customer's notification changed: {before} -> {after}",
    )


def _cancel_request(order: str, user: str | None) -> SkillRequest:
    return SkillRequest(skill_id="cancel_pending_order_v1", role="billing_specialist", user_id=user,
                        args={"order_id": order, "reason": "no longer needed"}, audit_id="aud-chaos-esc",
                        run_id="run-" + uuid.uuid4().hex[:8], task_id="t1")  # fmt: skip


async def _hash_of(runtime: Any, request: SkillRequest) -> str:
    """The args hash the gates want, as the first that stops the call reports it."""
    try:
        await runtime.call(request)
    except CallNeedsHuman as exc:
        return exc.args_hash
    return "no-approval-asked"


async def _customer_confirmed(db: Database, request: SkillRequest, hashed: str) -> None:
    """The audit row intake writes when the customer answers a confirmation with yes."""
    event = AuditEvent(audit_id=request.audit_id, status=CUSTOMER_CONFIRMED,
                       skill=request.skill_id, args_hash=hashed)  # fmt: skip
    async with db.pool.connection() as conn:
        await record_event(conn, event)


async def _call(runtime: Any, request: SkillRequest) -> str:
    try:
        result = await runtime.call(request)
    except ApprovalRequired:
        return "approval_required"
    except ConfirmationRequired:
        # Not the approval gate under test: the attempt never reached it.
        return "confirmation_required"
    return result.status if result.status == "success" else f"{result.status}:{result.error_code}"


def _refused(result: str) -> bool:
    return result == "approval_required" or any(word in result for word in REFUSALS)


API_CASES: dict[str, Callable[[Ctx], Awaitable[Outcome]]] = {
    "api_customer_approves": api_customer_approves,
    "runtime_forged_approval": runtime_forged_approval,
    "runtime_reused_approval": runtime_reused_approval,
    "compensate_foreign_notification": compensate_foreign_notification,
}


def served_cases() -> dict[str, Callable[[Ctx], Outcome]]:
    from chaos.escalation_served import SERVED_CASES

    return SERVED_CASES
