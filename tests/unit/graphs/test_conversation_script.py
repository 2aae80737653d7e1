"""A conversation suite file: what loads, and the one line a broken file gets."""

from __future__ import annotations

from pathlib import Path

import pytest

from checkpoints.errors import DataFormatError
from graphs.conversations.script import CustomerTurn, OperatorTurn, load_suite

GOOD = """
conversations:
  - id: ask_then_approve
    user: u1
    changes: ["#A1"]
    turns:
      - say: "please change #A1"
        expect: {status: needs_input, question: {kind: confirm, contains: ["#A1"]}}
      - say: "yes"
        as: u2
        thread: 2
        expect: {status: [interrupted, error], interrupt: {skill: change_v1, args: {id: "#A1"}}}
      - operator: approve
        expect: {status: completed, any: ["done", "完成"], question: null}
"""


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "suite.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_suite_loads_with_every_kind_of_turn(tmp_path: Path) -> None:
    suite = load_suite(_write(tmp_path, GOOD))
    (conversation,) = suite.conversations
    ask, other, operator = conversation.turns
    assert isinstance(ask, CustomerTurn) and ask.thread == 1 and ask.as_user is None
    assert isinstance(other, CustomerTurn) and (other.as_user, other.thread) == ("u2", 2)
    assert isinstance(operator, OperatorTurn) and operator.operator == "approve"
    assert other.expect.status == ["interrupted", "error"]
    assert operator.expect.any_of == ["done", "完成"]
    # An explicit null is an expectation (no question), an absent key is none.
    assert "question" in operator.expect.model_fields_set
    assert "question" not in other.expect.model_fields_set
    assert suite.users() == {"u1", "u2"}


def test_notes_and_single_words_are_accepted_and_expect_may_be_left_out(tmp_path: Path) -> None:
    text = (
        "name: notes of the suite's own\n"
        "conversations:\n"
        "  - {id: a, user: u, class: references, tags: [en],\n"
        "     turns: [{say: hi, expect: {contains: hello, absent: bye}}, {operator: approve}]}"
    )
    (conversation,) = load_suite(_write(tmp_path, text)).conversations
    said, approved = conversation.turns
    assert said.expect.contains == ["hello"] and said.expect.absent == ["bye"]
    assert approved.expect.status is None and approved.expect.model_fields_set == set()


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("conversations: [", "not YAML at line 1"),
        ("- just a list", "(file): Input should be a valid dictionary"),
        ("conversations: []", "conversations: List should have at least 1 item"),
        (
            "conversations:\n  - {id: a, user: u, turns: [{say: hi, expect: {status: done}}]}",
            "conversations.0.turns.0.say.expect.status",
        ),
        (
            "conversations:\n  - {id: a, user: u, turns: [{say: hi, expect: {contain: x}}]}",
            "conversations.0.turns.0.say.expect.contain: Extra inputs are not permitted",
        ),
        (
            "conversations:\n  - {id: a, user: u, turns: [{operator: maybe, expect: {status: completed}}]}",
            "conversations.0.turns.0.operator.operator",
        ),
        (
            "conversations:\n  - {id: a, user: u, turns: [{say: hi, shout: yes, expect: {status: completed}}]}",
            "shout: Extra inputs are not permitted",
        ),
        (
            "conversations:\n  - {id: 'a b', user: u, turns: [{say: hi, expect: {status: completed}}]}",
            "conversations.0.id: String should match pattern",
        ),
        (
            "conversations:\n"
            "  - {id: a, user: u, turns: [{say: hi, expect: {status: completed}}]}\n"
            "  - {id: a, user: v, turns: [{say: hi, expect: {status: completed}}]}",
            "conversation id 'a' is used twice",
        ),
    ],
)
def test_a_broken_suite_is_one_line_naming_the_place(tmp_path: Path, text: str, says: str) -> None:
    path = _write(tmp_path, text)
    with pytest.raises(DataFormatError) as refused:
        load_suite(path)
    message = str(refused.value)
    assert message.startswith(f"{path}: ") and says in message, message
    assert "\n" not in message


def test_an_unreadable_suite_says_so(tmp_path: Path) -> None:
    with pytest.raises(DataFormatError, match="cannot read it"):
        load_suite(tmp_path / "missing.yaml")
    binary = tmp_path / "suite.yaml"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(DataFormatError, match="not UTF-8"):
        load_suite(binary)
