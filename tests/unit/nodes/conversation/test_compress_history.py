"""What compression takes, what it keeps, and the `messages` write it makes."""

from __future__ import annotations

from langchain_core.messages import HumanMessage, RemoveMessage, SystemMessage
from langgraph.graph.message import REMOVE_ALL_MESSAGES, add_messages

from nodes.conversation.history import (
    SUMMARY_ID,
    compressed,
    groups,
    is_summary,
    split_history,
    summary_message,
)
from tests.unit.nodes.conversation.turns import thread


def test_the_last_three_turns_are_kept_verbatim() -> None:
    messages = thread(7)
    history = split_history(messages)
    assert [m.id for m in history.kept] == ["ask-5", "ans-5", "ask-6", "ans-6", "ask-7", "ans-7"]
    assert list(history.older) == messages[:8]
    assert list(history.kept) == messages[8:]


def test_three_turns_or_fewer_give_nothing_to_compress() -> None:
    for turns in (0, 1, 3):
        history = split_history(thread(turns))
        assert history.older == () and len(history.kept) == 2 * turns


def test_the_old_summary_is_never_compressed_again() -> None:
    messages = [summary_message("turns 1-4: ids LN-00001"), *thread(5)]
    history = split_history(messages)
    assert not any(is_summary(m) for m in history.older)
    assert [m.id for m in history.older] == ["ask-1", "ans-1", "ask-2", "ans-2"]


def test_groups_of_five_messages() -> None:
    sizes = [len(g) for g in groups(thread(6))]
    assert sizes == [5, 5, 2]
    assert groups([]) == []


def test_the_write_removes_the_older_messages_and_heads_with_the_summary() -> None:
    messages = thread(6)
    history = split_history(messages)
    write = compressed(history, "turns 1-3: ids LN-00001")
    assert isinstance(write[0], RemoveMessage) and write[0].id == REMOVE_ALL_MESSAGES
    after = add_messages(messages, write)
    assert isinstance(after[0], SystemMessage) and after[0].id == SUMMARY_ID
    assert after[0].text.endswith("turns 1-3: ids LN-00001")
    assert after[1:] == list(history.kept)
    assert not {m.id for m in history.older} & {m.id for m in after}


def test_a_second_compression_leaves_one_summary_at_the_head() -> None:
    first = add_messages(thread(6), compressed(split_history(thread(6)), "first"))
    grown = add_messages(first, [HumanMessage("and LN-00009?", id="ask-9")])
    second = add_messages(grown, compressed(split_history(grown), "second"))
    assert [m.id for m in second] == [SUMMARY_ID, "ask-5", "ans-5", "ask-6", "ans-6", "ask-9"]
    assert second[0].text.endswith("second")
