"""Who may do what on the served graph (`langgraph.json` `auth.path`).

Every request carries `Authorization: Bearer <token>` (issued by `rolegraph
tokens issue`); the token is checked against the project's database and
becomes an `Identity`, which the server hands the graph as
`langgraph_auth_user`. No token, an unknown one or a revoked one is 401.

A customer owns the threads they create (metadata `owner`), and every read,
search and run is filtered by it, so another customer's thread answers 404.
A customer may start runs (turns of the thread's conversation) on their own
threads with input naming nobody else — not while the last turn stopped
(409); a new turn while the last waits for an operator withdraws what waits
(`nodes.conversation.withdraw`) — and nothing more: no resume or other command
(only operators answer approvals), no state edits, deletions, forks from old
checkpoints, interrupts, webhooks, crons, store access or assistant changes
— each 403.
An operator may read every thread and answer approvals — with a resume value
that answers what the thread waits for (422 otherwise, 409 when it waits for
nothing), so a wrong value is the client's error, never a silent no-op.

The server keeps thread records in memory and forgets them on restart,
while checkpoints stay in Postgres; the owner recorded in a thread's last
checkpoint therefore decides who may attach a thread id the server no
longer knows.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

from langgraph_sdk import Auth

from checkpoints.tokens import verify_token
from graphs.served_persistence import served_database
from graphs.served_threads import OWNER_KEY, Checkpointed, checkpointed
from graphs.studio import make_graph
from nodes.context import SupportContext
from nodes.contracts import ApprovalRequest
from nodes.errors import AnswerRefused
from nodes.identity import AUTH_USER_KEY, Identity, identity_of
from nodes.inputs import input_problem, value_problem
from nodes.resume_value import read_answer
from nodes.turn import TURN_STAMP_KEY

auth = Auth()


# Run options that would let a customer steer execution around the graph's
# checks: time travel to an old checkpoint, breakpoints, outbound calls.
_CUSTOMER_FORBIDDEN_RUN_OPTIONS = ("interrupt_before", "interrupt_after", "webhook")
_CHECKPOINT_KEYS = ("checkpoint_id", "checkpoint", "checkpoint_map")


def _deny(detail: str, status: int = 403) -> Auth.exceptions.HTTPException:
    return Auth.exceptions.HTTPException(status_code=status, detail=detail)


@auth.authenticate
async def authenticate(authorization: str | None) -> Auth.types.MinimalUserDict:
    """The identity a bearer token proves; 401 without a live token."""
    scheme, _, token = (authorization or "").strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise _deny("send Authorization: Bearer <token> (rolegraph tokens issue)", 401)
    db = await served_database()
    async with db.pool.connection() as conn:
        record = await verify_token(conn, token.strip())
    if record is None:
        raise _deny("the token is invalid or revoked; issue a new one", 401)
    user: Auth.types.MinimalUserDict = Identity(record.kind, record.subject).as_auth_user()  # type: ignore[assignment]
    return user


def caller(ctx: Auth.types.AuthContext) -> Identity:
    """The authenticated identity of a request; 403 for any other kind of user."""
    identity = identity_of({"configurable": {AUTH_USER_KEY: ctx.user}})
    if identity is None:
        raise _deny("this server accepts only rolegraph tokens")
    return identity


@auth.on.threads.create
async def on_thread_create(
    ctx: Auth.types.AuthContext, value: Auth.types.ThreadsCreate
) -> Auth.types.FilterType | None:
    """Tag a new thread with its owner; re-attaching a checkpointed one restores it."""
    who = caller(ctx)
    metadata = value.setdefault("metadata", {})
    known = await checkpointed(value.get("thread_id"))
    if known is not None and not who.is_operator and known.owner != who.label:
        # As the server answers for a thread it knows: existence, not owner.
        raise _deny(f"thread {value.get('thread_id')} already exists", 409)
    metadata[OWNER_KEY] = who.label
    if known is not None:
        # The state endpoints find the graph through the thread's metadata.
        metadata.update(known.thread_metadata(default_owner=who.label))
    return _owner_filter(who)


@auth.on.threads.read
async def on_thread_read(
    ctx: Auth.types.AuthContext, value: Auth.types.ThreadsRead
) -> Auth.types.FilterType | None:
    """Operators read every thread; a customer only their own."""
    return _owner_filter(caller(ctx))


@auth.on.threads.search
async def on_thread_search(
    ctx: Auth.types.AuthContext, value: Auth.types.ThreadsSearch
) -> Auth.types.FilterType | None:
    """Operators find every thread; a customer only their own."""
    return _owner_filter(caller(ctx))


@auth.on.threads.update
async def on_thread_update(
    ctx: Auth.types.AuthContext, value: Auth.types.ThreadsUpdate
) -> Auth.types.FilterType | None:
    """A customer may cancel their own run; state and metadata edits are the operators'."""
    who = caller(ctx)
    if who.is_operator:
        return None
    if value.get("action") in ("interrupt", "rollback"):
        return _owner_filter(who)
    raise _deny("customers cannot edit a thread's state or metadata")


@auth.on.threads.delete
async def on_thread_delete(ctx: Auth.types.AuthContext, value: Any) -> None:
    """Deleting a thread erases its record of effects: operators only."""
    if not caller(ctx).is_operator:
        raise _deny("only operators delete threads")


@auth.on.threads.create_run
async def on_run_create(
    ctx: Auth.types.AuthContext, value: Auth.types.RunsCreate
) -> Auth.types.FilterType | None:
    """Operators run and resume anything; a customer starts turns as themselves.

    Nobody starts a new turn on a thread whose last run stopped before its end,
    and an operator none on a thread waiting for a decision (they answer it);
    the customer's new turn there is a change of mind that withdraws it.
    """
    who = caller(ctx)
    kwargs = value.get("kwargs") or {}
    _refuse_unreadable(kwargs)
    known = await checkpointed(value.get("thread_id"))
    if who.is_operator:
        _refuse_turn_on_unfinished(known, kwargs, operator=True)
        await _refuse_unanswerable(known, kwargs)
        _stamp_turn(kwargs)
        return None
    _refuse_steering(kwargs)
    kwargs["input"] = _customer_input(who, kwargs.get("input"))
    if known is not None and known.owner != who.label:
        # The server's own answer for a thread the caller may not see.
        raise _deny("Thread or assistant not found.", 404)
    _refuse_turn_on_unfinished(known, kwargs, operator=False)
    _stamp_turn(kwargs)
    # A run on a new thread creates it with the run's metadata.
    value.setdefault("metadata", {})[OWNER_KEY] = who.label
    return {OWNER_KEY: who.label}


@auth.on.assistants
async def on_assistants(ctx: Auth.types.AuthContext, value: Any) -> bool:
    """Everyone may read the served assistants; only operators change them."""
    return caller(ctx).is_operator or ctx.action in ("read", "search")


@auth.on.crons
@auth.on.store
async def operators_only(ctx: Auth.types.AuthContext, value: Any) -> bool:
    """Scheduled runs and the memory store are the operators'."""
    return caller(ctx).is_operator


@auth.on
async def default_deny(ctx: Auth.types.AuthContext, value: Any) -> bool:
    """Anything without its own rule is for operators only."""
    return caller(ctx).is_operator


def _stamp_turn(kwargs: dict[str, Any]) -> None:
    """Name the run that brings a turn's input, so a second delivery of the same run
    after a server crash is told from a new turn (`nodes.turn`). Set here, never
    taken from the caller: a client cannot make a new turn pass for a replay."""
    configurable = kwargs.setdefault("config", {}).setdefault("configurable", {})
    configurable.pop(TURN_STAMP_KEY, None)
    if kwargs.get("input") is not None:
        configurable[TURN_STAMP_KEY] = uuid.uuid4().hex


def _owner_filter(who: Identity) -> Auth.types.FilterType | None:
    return None if who.is_operator else {OWNER_KEY: who.label}


def _refuse_steering(kwargs: Mapping[str, Any]) -> None:
    if kwargs.get("command"):
        raise _deny("only an operator can answer an approval or send a command")
    if any(kwargs.get(name) for name in _CUSTOMER_FORBIDDEN_RUN_OPTIONS):
        raise _deny("customers cannot set breakpoints or webhooks")
    configurable = (kwargs.get("config") or {}).get("configurable") or {}
    if any(configurable.get(name) for name in _CHECKPOINT_KEYS):
        raise _deny("customers cannot run from an earlier checkpoint")


def _refuse_turn_on_unfinished(
    known: Checkpointed | None, kwargs: Mapping[str, Any], *, operator: bool
) -> None:
    if known is None or not known.unfinished or kwargs.get("input") is None:
        return
    if known.waits_for_operator and not operator:
        return  # the customer moved on: the turn withdraws the waiting request
    raise _deny(
        "this thread's last turn is not over (it waits for an operator, or stopped): an"
        " operator resumes it first (rolegraph resume THREAD_ID); or start a new thread",
        409,
    )


async def _refuse_unanswerable(known: Checkpointed | None, kwargs: Mapping[str, Any]) -> None:
    """409 for a resume of a thread that waits for no decision, 422 for one that answers
    no pending request or not as it allows (`nodes.resume_value`).

    Refused before the run starts: a bad value the approval node read would
    otherwise be replayed to it on every later resume.
    """
    command = kwargs.get("command")
    if not isinstance(command, Mapping) or command.get("resume") is None:
        return
    if known is None or not known.waiting:
        raise _deny("this thread waits for no decision; there is nothing to resume", 409)
    resume = command["resume"]
    if (
        isinstance(resume, Mapping)
        and len(resume) == 1
        and next(iter(resume)) in known.interrupt_ids
    ):
        resume = next(iter(resume.values()))  # keyed by the interrupt's id, as LangGraph allows
    pending = [ApprovalRequest.model_validate(r) for r in known.waiting]
    ctx: SupportContext = (await make_graph()).bound_context
    try:
        read_answer(resume, pending, ctx.registry)
    except AnswerRefused as exc:
        raise _deny(str(exc), 422) from exc


def _refuse_unreadable(kwargs: Mapping[str, Any]) -> None:
    """422 for input Postgres could not store or the graph could not read, from anyone.

    Refused here, before the server writes its first checkpoint: a NUL in
    `text` would otherwise fail that write and surface as a 500.
    """
    given = kwargs.get("input")
    if isinstance(given, Mapping) and (problem := input_problem(given)):
        raise _deny(problem, 422)
    command = kwargs.get("command")
    if isinstance(command, Mapping) and (
        problem := value_problem(command.get("resume"), name="the resume value")
    ):
        raise _deny(problem, 422)


def _customer_input(who: Identity, given: Any) -> dict[str, Any] | None:
    """The run input with the customer's own user id; another user's is refused.

    No input continues the thread from its last checkpoint (after a crash),
    which acts for the customer already in its state.
    """
    if given is None:
        return None
    if not isinstance(given, Mapping):
        raise _deny('the run input must be an object such as {"text": "..."}', 422)
    named = given.get("user_id")
    if named is not None and named != who.user_id:
        raise _deny("a customer can act only for their own user id")
    return {**given, "user_id": who.user_id}
