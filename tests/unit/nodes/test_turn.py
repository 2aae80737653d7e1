"""The turn node: which message a turn answers, and that it starts every turn clean."""

from __future__ import annotations

from typing import Any, get_type_hints

from langchain_core.messages import AIMessage, HumanMessage
from langgraph.types import Overwrite

from nodes.state import SupportState, merge
from nodes.turn import CONVERSATION_CHANNELS, TURN_CHANNELS, cleared, start_turn

SET_BY_TURN = {"text", "audit_id", "trace"}


def _last_turn() -> dict[str, Any]:
    """A thread after one turn that cancelled an order under an approval."""
    return {
        "messages": [HumanMessage("cancel #W1", id="ask-1"), AIMessage("done", id="ans-1")],
        "turn_message": "ask-1",
        "turn": 1,
        "customer": "u1",
        "user_id": "u1",
        "text": "cancel #W1",
        "audit_id": "aud-1",
        "outcomes": {"t1": {"status": "succeeded"}},
        "grants": {"t1": {"approval_id": "apr-1"}},
        "pending": {},
        "decided": {"apr-1": {"decision": "approve"}},
        "decisions": [{"question": "q"}],
        "trace": ["respond: completed"],
        "status": "completed",
        "answer": "done",
    }


def test_every_channel_is_either_the_conversations_or_cleared_by_each_turn() -> None:
    # A new channel must be placed: carried over, or the turn's own.
    turn_scoped = set(get_type_hints(SupportState)) - CONVERSATION_CHANNELS - SET_BY_TURN
    assert turn_scoped == TURN_CHANNELS


def test_a_turn_writes_only_the_channels_it_empties() -> None:
    # A write that changes nothing still costs a channel version and a blob per step.
    assert cleared({}) == {}
    update = cleared({"outcomes": {}, "status": "completed", "handoff": False, "answer": ""})
    assert update == {"status": None, "handoff": None, "answer": None}
    full = {
        channel: ["something"]
        for channel in TURN_CHANNELS - {"outcomes", "grants", "pending", "confirmations", "decided"}
    }
    assert set(cleared({**full, "grants": {"t1": {}}})) == set(full) | {"grants"}


def test_a_text_turn_clears_the_last_turn_and_adds_its_message() -> None:
    state = {**_last_turn(), "text": "cancel #W2"}
    update = start_turn(state)
    assert update["turn"] == 2 and update["audit_id"] not in ("", "aud-1")
    for keyed in ("outcomes", "grants", "decided"):
        assert merge(state[keyed], update[keyed]) == {}
    assert update["decisions"] == Overwrite([])
    assert update["trace"] == Overwrite([f"turn 2: audit {update['audit_id']}"])
    assert update["status"] is None and update["answer"] is None
    (asked,) = update["messages"]
    assert (asked.text, asked.id) == ("cancel #W2", f"ask-{update['audit_id']}")
    assert update["turn_message"] == asked.id and "text" not in update


def test_a_new_human_message_is_the_turns_text_and_is_not_added_twice() -> None:
    state = {**_last_turn()}
    state["messages"] = [*state["messages"], HumanMessage("and #W3?", id="m-9")]
    update = start_turn(state)
    assert update["text"] == "and #W3?" and update["turn_message"] == "m-9"
    assert "messages" not in update


def test_an_answered_message_is_never_taken_again() -> None:
    # The last turn stopped before its answer (an interrupt); new text input
    # must not be mistaken for the old, already answered human message.
    state = {**_last_turn(), "text": "yes"}
    state["messages"] = state["messages"][:1]
    update = start_turn(state)
    assert update["messages"][0].text == "yes" and update["turn_message"] != "ask-1"
