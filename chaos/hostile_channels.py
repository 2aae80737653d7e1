"""The three ways a hostile input arrives: CLI subprocess, Python API in-process, served graph."""

from __future__ import annotations

import asyncio
import json
from typing import TYPE_CHECKING, Any

import httpx

from chaos import probe
from chaos.approver import OPERATOR, approver_kwargs
from chaos.confirm import YES, asks_to_confirm, run_confirmed
from chaos.golden import new_thread
from chaos.inputs import Hostile, fill_request
from chaos.proc import cli
from chaos.scratch import Scratch
from chaos.served import ASSISTANT, Served, serve
from chaos.state import thread_report
from chaos.tally import Outcome
from checkpoints.errors import RolegraphError
from checkpoints.opening import open_database
from graphs.api import compile_support, resume_thread, run_request
from nodes.bootstrap import build_support_context
from nodes.domain import load_domain
from nodes.hitl import requests_in

if TYPE_CHECKING:
    from chaos.hostile import World

CANCEL = "Please cancel order {order}, I ordered it by mistake"
ANSWERABLE = ("interrupted", "completed", "refused")


def cli_case(w: World, env: dict[str, str], h: Hostile, resumer: tuple[str, str] | None) -> Outcome:
    outcome = Outcome(h.name)
    owner = resumer[0] if resumer else w.me.user_id
    me = w.me if resumer is None else probe.person(w.target, owner)
    thread = new_thread("h")
    before = probe.fingerprint(w.target)
    if resumer is None:
        ran = cli(env, "run", "--json", "--user-id", str(h.user_id if h.user_id is not None else owner),
                  "--thread-id", thread, h.text)  # fmt: skip
    else:
        ran = _cli_resume(env, thread, resumer, h.resume)
    if ran.traceback:
        outcome.bad("crashes", ran.brief())
    elif ran.rc not in (0, 2):
        outcome.fail(ran.brief())
    w.scan(outcome, ran.stdout + ran.stderr, me, h.said)
    w.judge(outcome, before, owner, operator=resumer is not None)
    if resumer is not None:
        _answerable(outcome, w, thread)
    return outcome


def _cli_resume(env: dict[str, str], thread: str, resumer: tuple[str, str], value: Any) -> Any:
    user, order = resumer
    cli(env, "run", "--json", "--user-id", user, "--thread-id", thread, CANCEL.format(order=order))
    # The customer confirms their cancel; the hostile value then answers its approval.
    first = cli(env, "run", "--json", "--user-id", user, "--thread-id", thread, YES)
    request = ((first.report() or {}).get("interrupts") or [{}])[0].get("id", "apr-none")
    value = fill_request(value, request)
    args = ["resume", thread, "--json"]
    if isinstance(value, dict) and len(value) == 1:
        rid, d = next(iter(value.items()))
        d = d if isinstance(d, dict) else {"decision": d}
        args += ["--request-id", str(rid), "--decision", str(d.get("decision"))]
        args += ["--args", json.dumps(d["args"])] if "args" in d else []
        args += ["--message", str(d["message"])] if "message" in d else []
    else:
        args += ["--decision", json.dumps(value)]
    return cli(env, *args)


def _answerable(outcome: Outcome, w: World, thread: str) -> None:
    now = thread_report(w.target, thread)
    if now is None or now.status not in ANSWERABLE:
        outcome.bad("stuck", f"thread left {now.status if now else 'missing'}")


def api_outcomes(w: World, cases: list[Hostile]) -> list[Outcome]:
    return asyncio.run(_api(w, cases))


async def _api(w: World, cases: list[Hostile]) -> list[Outcome]:
    out: list[Outcome] = []
    resumers = iter(w.resumers)
    async with open_database(target=w.target, migrations=(load_domain().migrations,)) as db:
        ctx = await build_support_context(db.pool, env={})
        graph = compile_support(ctx, db.checkpointer)
        for h in cases:
            out.append(
                await _api_case(w, graph, ctx, h, next(resumers) if h.resume is not None else None)
            )
    return out


async def _api_case(
    w: World, graph: Any, ctx: Any, h: Hostile, resumer: tuple[str, str] | None
) -> Outcome:
    outcome = Outcome(h.name)
    owner = resumer[0] if resumer else w.me.user_id
    me = w.me if resumer is None else await asyncio.to_thread(probe.person, w.target, owner)
    thread = new_thread("h")
    before = await asyncio.to_thread(probe.fingerprint, w.target)
    try:
        if resumer is None:
            user = h.user_id if h.user_id is not None else owner
            result = await run_request(graph, ctx, text=h.text, user_id=user, thread_id=thread)
        else:
            first = await run_confirmed(
                graph, ctx, text=CANCEL.format(order=resumer[1]), user_id=owner, thread_id=thread
            )
            result = await _api_resume(
                graph, ctx, thread, fill_request(h.resume, _request(first.interrupts))
            )
        w.scan(outcome, result.answer, me, h.said)
        state = await graph.aget_state({"configurable": {"thread_id": thread}})
        w.scan(outcome, json.dumps(state.values, default=str, ensure_ascii=False), me, h.said)
    except RolegraphError as exc:
        w.scan(outcome, str(exc), me, h.said)
    except Exception as exc:  # noqa: BLE001 — any crash is what the campaign counts
        outcome.bad("crashes", f"{type(exc).__name__}: {str(exc)[:120]}")
    await asyncio.to_thread(w.judge, outcome, before, owner, operator=resumer is not None)
    if resumer is not None:
        await asyncio.to_thread(_answerable, outcome, w, thread)
    return outcome


async def _api_resume(graph: Any, ctx: Any, thread: str, value: Any) -> Any:
    if isinstance(value, dict) and len(value) == 1:
        rid, d = next(iter(value.items()))
        d = d if isinstance(d, dict) else {"decision": d}
        return await resume_thread(graph, ctx, thread, decision=d.get("decision"), request_id=rid, **approver_kwargs(OPERATOR),  # type: ignore[arg-type]  # hostile on purpose
                                   args=d.get("args"), message=d.get("message"))  # fmt: skip
    return await resume_thread(graph, ctx, thread, decision=value, **approver_kwargs(OPERATOR))


def _request(interrupts: list[dict[str, Any]]) -> str:
    return str((interrupts or [{}])[0].get("id", "apr-none"))


def served_outcomes(scratch: Scratch, w: World, cases: list[Hostile]) -> list[Outcome]:
    with serve(scratch.env(w.target)) as served:
        if problem := _control(w, served):
            return [Outcome(h.name, ok=False, notes=[problem]) for h in cases]
        resumers = iter(w.resumers)
        return [
            _served_case(w, served, h, next(resumers) if h.resume is not None else None)
            for h in cases
        ]


def _control(w: World, served: Served) -> str:
    """The customer's own plain request must work, or no hostile case proves anything."""
    client = served.client(served.token("--customer", w.me.user_id))
    try:
        thread = client.threads.create()["thread_id"]
        result = client.runs.wait(
            thread,
            ASSISTANT,
            input={"text": f"Where is my order {w.mine}?", "user_id": w.me.user_id},
        )
    except Exception as exc:  # noqa: BLE001 — any failure of the probe is reported as a refusal
        return f"the served graph refused the customer's own request: {type(exc).__name__}: {str(exc)[:120]}"
    if not isinstance(result, dict) or not result.get("answer"):
        return f"the customer's own request got no answer: {str(result)[:120]}"
    return ""


def _served_case(w: World, served: Served, h: Hostile, resumer: tuple[str, str] | None) -> Outcome:
    outcome = Outcome(h.name)
    owner = resumer[0] if resumer else w.me.user_id
    me = w.me if resumer is None else probe.person(w.target, owner)
    token = served.token("--customer", owner)
    before = probe.fingerprint(w.target)
    try:
        thread, result = _served_send(served, token, h, owner, resumer)
        state = served.client(token).threads.get_state(thread)
        for seen in (result, state):
            w.scan(outcome, json.dumps(seen, default=str, ensure_ascii=False), me, h.said)
    except httpx.HTTPStatusError as exc:
        if exc.response.status_code >= 500:
            outcome.bad("crashes", f"HTTP {exc.response.status_code}: {exc.response.text[:120]}")
        w.scan(outcome, exc.response.text, me, h.said)
    except Exception as exc:  # noqa: BLE001 — any crash is what the campaign counts
        outcome.bad("crashes", f"{type(exc).__name__}: {str(exc)[:120]}")
    # A customer's resume is no operator approval: their own rows may not move either.
    w.judge(outcome, before, owner, operator=False)
    return outcome


def _served_send(
    served: Served, token: str | None, h: Hostile, owner: str, resumer: tuple[str, str] | None
) -> tuple[str, Any]:
    """Send the hostile run, or my pending cancel and then the hostile resume value."""
    thread = served.client(token).threads.create()["thread_id"]
    if resumer is None:
        user = h.user_id if h.user_id is not None else owner
        return thread, served.wait_run(thread, token, {"input": {"text": h.text, "user_id": user}})
    text = CANCEL.format(order=resumer[1])
    first = served.wait_run(thread, token, {"input": {"text": text, "user_id": owner}})
    if asks_to_confirm(first):
        first = served.wait_run(thread, token, {"input": {"text": YES, "user_id": owner}})
    value = fill_request(h.resume, _served_request(first))
    return thread, served.wait_run(thread, token, {"command": {"resume": value}})


def _served_request(result: Any) -> str:
    for item in (result or {}).get("__interrupt__") or []:
        for request in requests_in(item.get("value")):
            return str(request.get("id"))
    return "apr-none"
