"""The turn node: every run from START is one customer turn on the thread.

A thread is a conversation. What belongs to the conversation (`messages`,
the summary of its compressed turns, the customer it is bound to, the turn
counter) carries over; everything a turn works with — understanding, plan,
outcomes, grants, pending requests, review, draft, answer, status, trace —
starts clean, so nothing one turn found or was allowed can reach the next (a
grant of turn 1 never authorises a call of turn 2). Each turn gets its own audit id; the audit events carry
the thread id, which links a thread's turns.

A served run can be delivered twice: `langgraph dev` saves its runs every few
seconds and, after a crash, runs again every run it had saved as pending or
running — including ones that finished before the crash. The server's auth
stamps each run that brings input (`TURN_STAMP_KEY`), and the thread keeps the
stamps of its latest turns. A run whose stamp started a turn already is no new
turn: the thread's current turn is taken up where it stands — left as it ended,
the operator asked again if it waits for one, or else restarted under its audit
id, so the ledger replays what already ran. Without the check a replayed
"cancel it" would withdraw the approval its own "yes" had asked for.
"""

from __future__ import annotations

from typing import Any, cast

from langchain_core.messages import HumanMessage, RemoveMessage
from langgraph.config import get_config
from langgraph.graph import END
from langgraph.runtime import Runtime
from langgraph.types import Command, Overwrite

from nodes.context import SupportContext
from nodes.conversation.withdraw import withdraw_open_requests, withdrawn_note
from nodes.handoff import new_audit_id
from nodes.language import lang_of
from nodes.state import StateUpdate, SupportState

CONVERSATION_CHANNELS = frozenset(
    {
        "messages",
        "summary",
        "customer",
        "turn",
        "turn_message",
        "user_id",
        "focus",
        "question",
        "run_stamps",
    }
)
"""What a turn inherits from the thread; every other channel is the turn's own."""

TURN_STAMP_KEY = "rolegraph_turn_stamp"
"""The configurable key that names the served run bringing a turn's input."""
KEPT_STAMPS = 32
"""Stamps a thread remembers: far more turns than a server saves in 10 s."""
TURN_NEXT = ("intake", "approval", END)
"""Where the turn node goes: a new turn to intake; a replayed one where it stood."""


async def turn(state: SupportState, runtime: Runtime[SupportContext]) -> Command[str]:
    """Start a turn; a request the last turn left waiting for an operator is withdrawn
    (the customer moved on), and the answer says so. A replayed run is not a turn."""
    stamp = _run_stamp()
    seen = state.get("run_stamps") or []
    if stamp in seen:
        return replayed(state)
    update = start_turn(state)
    if stamp is not None:
        update["run_stamps"] = [*seen, stamp][-KEPT_STAMPS:]
    withdrawn = await withdraw_open_requests(runtime.context, state)
    if withdrawn:
        asked = update.get("text") or state.get("text")
        update["followup"] = withdrawn_note(withdrawn, lang_of(asked))
        update["trace"] = Overwrite(
            [f"turn {update['turn']}: audit {update['audit_id']}; withdrew {withdrawn} request(s)"]
        )
    return Command(update=update, goto="intake")


def replayed(state: SupportState) -> Command[str]:
    """The thread's current turn, taken up where it stands (a replayed run's input
    changes nothing: it is the input an earlier turn already took)."""
    update = undo_input(state)
    if state.get("status"):
        return Command(update=update, goto=END)
    if state.get("pending"):
        # The approval node asks again for the same requests (its insert is idempotent).
        return Command(update=update, goto="approval")
    update.update(cleared(state))
    update["trace"] = Overwrite(
        [f"turn {state.get('turn')}: audit {state.get('audit_id')}; restarted by a retried run"]
    )
    return Command(update=update, goto="intake")


def undo_input(state: SupportState) -> StateUpdate:
    """Take back what a replayed run's input wrote: its text, and any customer message
    it added after the one the current turn answers."""
    messages = state.get("messages") or []
    ids = [m.id for m in messages]
    if state.get("turn_message") not in ids:
        return {}
    answered = ids.index(state.get("turn_message"))
    update: StateUpdate = {"text": messages[answered].text}
    added = [m for m in messages[answered + 1 :] if isinstance(m, HumanMessage) and m.id]
    if added:
        update["messages"] = [RemoveMessage(id=str(m.id)) for m in added]
    return update


def _run_stamp() -> str | None:
    stamp = get_config().get("configurable", {}).get(TURN_STAMP_KEY)
    return stamp if isinstance(stamp, str) and stamp else None


def start_turn(state: SupportState) -> StateUpdate:
    """Start a turn: take its text, give it an audit id, clear the last turn's state."""
    audit_id = new_audit_id()
    number = int(state.get("turn") or 0) + 1
    asked, is_new = turn_request(state, audit_id)
    update = cleared(state)
    update["turn"] = number
    update["audit_id"] = audit_id
    update["turn_message"] = asked.id or ""
    update["trace"] = Overwrite([f"turn {number}: audit {audit_id}"])
    if is_new:
        update["messages"] = [asked]
    else:
        update["text"] = asked.text
    return update


def turn_request(state: SupportState, audit_id: str) -> tuple[HumanMessage, bool]:
    """The customer message this turn answers, and whether the turn must add it.

    A human message no earlier turn answered (a chat client's `{"messages":
    [...]}`) is the request; otherwise the input was `{"text": ...}` and a new
    message is made for it (id derived from the turn's audit id).
    """
    last = next(
        (m for m in reversed(state.get("messages") or []) if isinstance(m, HumanMessage)), None
    )
    if last is not None and last.id != state.get("turn_message"):
        return last, False
    text = state.get("text")
    # Unreadable input is intake's to refuse, with words; the message only mirrors it.
    content = text if isinstance(text, str) else ""
    return HumanMessage(content=content, id=f"ask-{audit_id}"), True


def cleared(state: SupportState) -> StateUpdate:
    """The writes that empty every turn-scoped channel but `text`, `audit_id` and
    `trace`, which `turn` sets anew: keyed channels lose every key, lists are
    replaced, the rest is set to None. A channel already empty is not written:
    a write that changes nothing would still cost a channel version and a
    checkpoint blob on every step of the turn."""
    values = cast(dict[str, Any], state)
    keyed = {k: dict.fromkeys(values[k]) for k in KEYED_CHANNELS if values.get(k)}
    lists = {k: Overwrite([]) for k in LIST_CHANNELS if values.get(k)}
    plain = {k: None for k in PLAIN_CHANNELS if values.get(k) is not None}
    return cast(StateUpdate, keyed | lists | plain)


KEYED_CHANNELS = ("outcomes", "grants", "pending", "confirmations", "decided")
LIST_CHANNELS = ("decisions",)
PLAIN_CHANNELS = (
    "understanding",
    "plan",
    "refusal",
    "handoff",
    "rounds",
    "replan",
    "answer",
    "draft",
    "review",
    "revisions",
    "status",
    "human_reply",
    "memory",
    "noted",
    "asking",
    "followup",
)
TURN_CHANNELS = frozenset(KEYED_CHANNELS + LIST_CHANNELS + PLAIN_CHANNELS)
"""What `cleared` empties at the start of every turn."""
