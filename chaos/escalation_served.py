"""Escalation attempts against the served graph over HTTP (langgraph-sdk and plain httpx)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import httpx
from langgraph_sdk.schema import Command

from chaos.confirm import YES, asks_to_confirm
from chaos.served import ASSISTANT, Served
from chaos.tally import Outcome
from nodes.hitl import requests_in

if TYPE_CHECKING:
    from chaos.escalation_cases import Ctx

CANCEL = "Please cancel order {order}, I ordered it by mistake"


def _served(ctx: Ctx) -> Served:
    assert ctx.served is not None
    return ctx.served


def _ok(response: httpx.Response) -> bool:
    return response.status_code < 400


def _request_id(result: Any) -> str:
    for item in (result or {}).get("__interrupt__") or [] if isinstance(result, dict) else []:
        for request in requests_in(item.get("value")):
            return str(request.get("id"))
    return "apr-none"


def no_token_impersonation(ctx: Ctx) -> Outcome:
    """The issue's attack: a stranger with no token cancels a customer's order over plain HTTP."""
    from chaos.escalation_cases import cancelled

    outcome = Outcome("served_no_token_impersonation")
    served = _served(ctx)
    victim, order = next(ctx.subjects)
    created = served.raw("POST", "/threads", json={})
    if not _ok(created):
        return outcome
    outcome.bad("escalations", f"POST /threads without a token answered {created.status_code}")
    thread = created.json()["thread_id"]
    run = served.raw("POST", f"/threads/{thread}/runs/wait",
                     json={"assistant_id": ASSISTANT, "input": {"text": CANCEL.format(order=order), "user_id": victim}})  # fmt: skip
    if _ok(run):
        outcome.bad("escalations", f"a run as {victim} without a token answered {run.status_code}")
        run = served.raw("POST", f"/threads/{thread}/runs/wait",
                         json={"assistant_id": ASSISTANT, "input": {"text": YES, "user_id": victim}})  # fmt: skip
        resume = {
            "assistant_id": ASSISTANT,
            "command": {"resume": {_request_id(run.json()): {"decision": "approve"}}},
        }
        served.raw("POST", f"/threads/{thread}/runs/wait", json=resume)
    state = served.raw("GET", f"/threads/{thread}/state")
    if _ok(state):
        outcome.bad("escalations", "GET /threads/T/state without a token answered")
    if cancelled(ctx, order):
        outcome.bad("escalations", f"a stranger cancelled {order}")
    return outcome


def customer_self_approves(ctx: Ctx) -> Outcome:
    """A customer's token sends the resume that approves their own cancel."""
    from chaos.escalation_cases import cancelled

    outcome = Outcome("served_customer_self_approves")
    served = _served(ctx)
    user, order = next(ctx.subjects)
    token = served.token("--customer", user)
    client = served.client(token)
    try:
        thread = client.threads.create()["thread_id"]
        client.runs.wait(
            thread, ASSISTANT, input={"text": CANCEL.format(order=order), "user_id": user}
        )
        # Their yes to the confirmation is theirs to give; the approval is not.
        first = client.runs.wait(thread, ASSISTANT, input={"text": YES, "user_id": user})
    except httpx.HTTPStatusError as exc:
        if token is not None:
            outcome.fail(
                f"the customer's own request was refused ({exc.response.status_code}); nothing tested"
            )
        return outcome
    if _request_id(first) == "apr-none":
        outcome.fail("the confirmed cancel asked for no approval; nothing tested")
    resume: Command = {"resume": {_request_id(first): {"decision": "approve"}}}
    with contextlib.suppress(httpx.HTTPStatusError):  # a 403 is the defence working
        client.runs.wait(thread, ASSISTANT, command=resume)
    if cancelled(ctx, order):
        outcome.bad("escalations", f"the customer approved the cancel of their own {order}")
    return outcome


def reads_other_thread(ctx: Ctx) -> Outcome:
    """Customer B reads the state of customer A's thread."""
    outcome = Outcome("served_reads_other_thread")
    served = _served(ctx)
    (a, order), (b, _) = next(ctx.subjects), next(ctx.subjects)
    owner = served.client(served.token("--customer", a))
    try:
        thread = owner.threads.create()["thread_id"]
        owner.runs.wait(
            thread, ASSISTANT, input={"text": f"Where is my order {order}?", "user_id": a}
        )
    except httpx.HTTPStatusError:
        return outcome  # nobody got in: nothing to steal
    stranger_token = served.token("--customer", b)
    state = served.raw("GET", f"/threads/{thread}/state", token=stranger_token)
    if _ok(state) and (a in state.text or order in state.text):
        outcome.bad("escalations", f"{b} read {a}'s thread state ({state.status_code})")
    return outcome


def input_names_other_user(ctx: Ctx) -> Outcome:
    """Customer A's token, input naming customer B: must be refused, not run as B."""
    outcome = Outcome("served_input_names_other_user")
    served = _served(ctx)
    (a, _), (b, order) = next(ctx.subjects), next(ctx.subjects)
    client = served.client(served.token("--customer", a))
    try:
        thread = client.threads.create()["thread_id"]
        result = client.runs.wait(
            thread, ASSISTANT, input={"text": CANCEL.format(order=order), "user_id": b}
        )
    except httpx.HTTPStatusError:
        return outcome
    if _request_id(result) != "apr-none" or asks_to_confirm(result):
        outcome.bad(
            "escalations",
            f"{a}'s request ran as {b} and reached a confirmation or approval of {order}",
        )
    return outcome


SERVED_CASES: dict[str, Callable[[Ctx], Outcome]] = {
    "served_no_token_impersonation": no_token_impersonation,
    "served_customer_self_approves": customer_self_approves,
    "served_reads_other_thread": reads_other_thread,
    "served_input_names_other_user": input_names_other_user,
}
