"""The served graph's auth handlers on the shapes the server passes them.

Only calls that name no existing thread: those that do look the thread up
in Postgres and are covered against the real server in
tests/integration/server/.
"""

from __future__ import annotations

from typing import Any

import pytest
from langgraph_sdk import Auth

from graphs import auth as policy
from graphs import served_threads
from nodes.identity import Identity

CUSTOMER = Identity("customer", "anya_garcia_3271")
OPERATOR = Identity("operator", "alice")


def _ctx(who: Identity | dict[str, Any], resource: str, action: str) -> Auth.types.AuthContext:
    user = who.as_auth_user() if isinstance(who, Identity) else who
    return Auth.types.AuthContext(
        user=user,  # type: ignore[arg-type]
        permissions=user.get("permissions", []),
        resource=resource,  # type: ignore[arg-type]
        action=action,  # type: ignore[arg-type]
    )


def _run(**kwargs: Any) -> Auth.types.RunsCreate:
    return Auth.types.RunsCreate(thread_id=None, metadata={}, kwargs=kwargs)


async def _status(call: Any) -> int:
    with pytest.raises(Auth.exceptions.HTTPException) as refused:
        await call
    return refused.value.status_code


async def test_a_customer_thread_is_tagged_and_filtered_by_owner() -> None:
    value = Auth.types.ThreadsCreate(metadata={"owner": "customer:someone_else"})
    found = await policy.on_thread_create(ctx=_ctx(CUSTOMER, "threads", "create"), value=value)
    assert found == {"owner": "customer:anya_garcia_3271"}
    assert value["metadata"]["owner"] == "customer:anya_garcia_3271"
    read = _ctx(CUSTOMER, "threads", "read")
    assert await policy.on_thread_read(ctx=read, value=Auth.types.ThreadsRead()) == found
    assert await policy.on_thread_read(ctx=_ctx(OPERATOR, "threads", "read"), value={}) is None


async def test_a_customer_run_acts_for_their_own_user_id_only() -> None:
    ctx = _ctx(CUSTOMER, "threads", "create_run")
    value = _run(input={"text": "where is my order?"})
    assert await policy.on_run_create(ctx=ctx, value=value) == {"owner": CUSTOMER.label}
    assert value["kwargs"]["input"] == {"text": "where is my order?", "user_id": CUSTOMER.subject}
    assert value["metadata"]["owner"] == CUSTOMER.label
    other = _run(input={"text": "cancel #W1", "user_id": "someone_else"})
    assert await _status(policy.on_run_create(ctx=ctx, value=other)) == 403
    assert await _status(policy.on_run_create(ctx=ctx, value=_run(input="cancel"))) == 422


async def test_a_customer_turn_may_come_as_chat_messages() -> None:
    ctx = _ctx(CUSTOMER, "threads", "create_run")
    chat = [{"role": "user", "content": "where is my order?"}]
    value = _run(input={"messages": chat})
    assert await policy.on_run_create(ctx=ctx, value=value) == {"owner": CUSTOMER.label}
    assert value["kwargs"]["input"] == {"messages": chat, "user_id": CUSTOMER.subject}
    answered_only = _run(input={"messages": [{"role": "assistant", "content": "hello"}]})
    assert await _status(policy.on_run_create(ctx=ctx, value=answered_only)) == 422
    nul = _run(input={"messages": [{"role": "user", "content": "a\x00b"}]})
    assert await _status(policy.on_run_create(ctx=ctx, value=nul)) == 422


@pytest.mark.parametrize(
    "kwargs",
    [
        {"command": {"resume": {"apr-1": {"decision": "approve"}}}},
        {"command": {"update": {"user_id": "someone_else"}}},
        {"interrupt_before": ["approval"]},
        {"webhook": "http://127.0.0.1:9/hook"},
        {"config": {"configurable": {"checkpoint_id": "1ef"}}},
    ],
)
async def test_customers_cannot_steer_a_run(kwargs: dict[str, Any]) -> None:
    ctx = _ctx(CUSTOMER, "threads", "create_run")
    assert await _status(policy.on_run_create(ctx=ctx, value=_run(input=None, **kwargs))) == 403


async def test_operators_resume_only_what_waits_and_strangers_are_refused() -> None:
    operator = _ctx(OPERATOR, "threads", "create_run")
    assert await policy.on_run_create(ctx=operator, value=_run(input={"text": "hi"})) is None
    # No thread, so nothing waits: a resume is the client's error, not a silent no-op.
    resume = _run(command={"resume": {"decisions": [{"type": "approve"}]}})
    assert await _status(policy.on_run_create(ctx=operator, value=resume)) == 409
    studio = {"identity": "langgraph-studio-user", "kind": "StudioUser", "permissions": []}
    assert (
        await _status(policy.on_thread_read(ctx=_ctx(studio, "threads", "read"), value={})) == 403
    )


async def test_operator_only_resources() -> None:
    for resource, action in [("store", "put"), ("crons", "create"), ("assistants", "create")]:
        customer, operator = _ctx(CUSTOMER, resource, action), _ctx(OPERATOR, resource, action)
        handler = policy.on_assistants if resource == "assistants" else policy.operators_only
        assert await handler(ctx=customer, value={}) is False
        assert await handler(ctx=operator, value={}) is True
    assert await policy.on_assistants(ctx=_ctx(CUSTOMER, "assistants", "search"), value={}) is True
    update = Auth.types.ThreadsUpdate(metadata={"owner": "customer:x"})
    ctx = _ctx(CUSTOMER, "threads", "update")
    assert await _status(policy.on_thread_update(ctx=ctx, value=update)) == 403
    cancel = Auth.types.ThreadsUpdate(action="interrupt")
    assert await policy.on_thread_update(ctx=ctx, value=cancel) == {"owner": CUSTOMER.label}


def test_a_new_turn_on_an_unfinished_thread() -> None:
    """A customer's turn on a thread waiting for an operator is a change of mind (it
    withdraws what waits); on a thread whose run stopped, and for an operator, it is 409."""
    waiting = policy.Checkpointed("customer:u", {}, unfinished=True, waits_for_operator=True)
    stopped = policy.Checkpointed("customer:u", {}, unfinished=True)
    turn = {"input": {"text": "actually, don't"}}
    policy._refuse_turn_on_unfinished(waiting, turn, operator=False)
    policy._refuse_turn_on_unfinished(stopped, {"input": None}, operator=False)  # a resume
    for known, operator in ((stopped, False), (waiting, True), (stopped, True)):
        with pytest.raises(Auth.exceptions.HTTPException) as refused:
            policy._refuse_turn_on_unfinished(known, turn, operator=operator)
        assert refused.value.status_code == 409


def test_only_an_unanswered_interrupt_waits_for_an_operator() -> None:
    asked = [("t1", "__interrupt__", [{}])]
    assert served_threads.waits_for_operator(asked)
    assert not served_threads.waits_for_operator([*asked, ("t1", "__resume__", {})])  # the run died
    assert not served_threads.waits_for_operator([("t1", "messages", [])])
