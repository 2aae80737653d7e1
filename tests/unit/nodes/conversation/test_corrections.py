"""Corrections ("my bad, I meant #W…") and references in a turn that names its own record."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage

from nodes.context import SupportContext
from nodes.contracts import Call, FocusEntity, Question, Understanding
from nodes.conversation.corrections import carried_over, named_first, retargeted
from nodes.conversation.followup import answer_to
from nodes.conversation.record import TurnRecord, record_metadata
from nodes.conversation.references import pointed_at
from nodes.domain import OUT_OF_SCOPE, load_domain

A, B, C = "#W1000001", "#W1000002", "#W1000003"


def _reading(text: str, intents: tuple[str, ...] = (OUT_OF_SCOPE,), **slots: Any) -> Understanding:
    lang = "zh" if any("\u4e00" <= c <= "\u9fff" for c in text) else "en"
    return Understanding(
        text=text, masked_text=text, lang=lang, intents=intents, slots=slots
    )  # fmt: skip


def _retail() -> SupportContext:
    return SupportContext(
        domain=load_domain("retail"), skills=None, registry=None, roles={}, pool=None,
    )  # type: ignore[arg-type]  # fmt: skip


def test_a_reference_points_at_the_record_its_own_turn_names() -> None:
    older = [FocusEntity(slot="order_ids", value=A, turn=1)]
    text = f"and {B}: would you drop that one"
    reading = _reading(text, order_ids=(B,))
    assert pointed_at(text.lower(), older) == A  # the older record, without the turn's own
    focus = named_first(_retail(), reading, older, turn=2)
    assert [e.value for e in focus] == [B, A]
    assert pointed_at(text.lower(), focus) == B


def test_a_named_record_keeps_its_place_in_an_earlier_list() -> None:
    older = [FocusEntity(slot="order_ids", value=v, turn=1) for v in (A, B)]
    focus = named_first(_retail(), _reading(f"that {B}", order_ids=(B,)), older, turn=2)
    assert [(e.value, e.turn) for e in focus] == [(B, 2), (A, 1), (B, 1)]


CANCEL = _reading(f"please cancel {A}", ("cancel_order",), order_ids=(A,))
CONFIRM = Question(
    kind="confirm", text="…?", request=CANCEL.text, calls=(Call(skill="c", args_hash="h"),),
    audit_id="a1",
)  # fmt: skip


@pytest.mark.parametrize("text", [f"wrong one, make that {C}", f"哦我搞错了，是{C}", C])
def test_a_correction_to_a_confirmation_asks_anew_for_the_named_record(text: str) -> None:
    reply = answer_to(CONFIRM, text, _reading(text, order_ids=(C,)), CANCEL)
    assert reply.outcome == "new_request" and reply.confirmed == ()
    assert C in reply.text and A not in reply.text and "cancel" in reply.text
    assert reply.note  # the customer is told the stated change was not made


def test_a_reply_naming_the_same_record_or_asking_something_is_no_correction() -> None:
    assert retargeted(CANCEL.text, CANCEL, _reading(f"hmm {A}", order_ids=(A,))) is None
    asks = _reading(f"where is {C}?", ("track_shipment",), order_ids=(C,))
    assert retargeted(CANCEL.text, CANCEL, asks) is None


def _after(intents: tuple[str, ...], status: str = "completed") -> dict[str, Any]:
    record = TurnRecord(turn=1, status=status, intents=intents, ids=(A,))  # type: ignore[arg-type]
    answer = AIMessage(content="…", response_metadata=record_metadata(record))
    return {"messages": [HumanMessage(content=f"is {A} shipped?"), answer]}


@pytest.mark.parametrize("text", [f"my bad, I meant {C}", f"不好意思打错了，应该是{C}", f"  {C} "])
def test_a_correction_carries_the_last_request_to_the_named_record(text: str) -> None:
    carried = carried_over(_after(("order_status",)), _reading(text, order_ids=(C,)))  # type: ignore[arg-type]
    assert carried is not None and carried.intents == ("order_status",)
    assert carried.slot("order_ids") == (C,)


def test_only_a_correction_after_a_request_carries_it() -> None:
    said = _reading(f"lovely, {C} arrived", order_ids=(C,))
    assert carried_over(_after(("order_status",)), said) is None  # not a correction  # type: ignore[arg-type]
    fixed = _reading(f"sorry, I meant {C}", order_ids=(C,))
    assert carried_over(_after(("order_status",), "refused"), fixed) is None  # type: ignore[arg-type]
    assert carried_over(_after((OUT_OF_SCOPE,)), fixed) is None  # type: ignore[arg-type]
    assert carried_over({"messages": []}, fixed) is None  # type: ignore[arg-type]
    screened = fixed.model_copy(update={"injection": True})
    assert carried_over(_after(("order_status",)), screened) is None  # type: ignore[arg-type]


def test_correction_words_around_an_id_are_judged_without_it() -> None:
    # "my mistake, #W…" may read as a question about the id; its words alone ask nothing.
    text = f"my mistake, {C}"
    reading = _reading(text, ("order_status",), order_ids=(C,))
    reply = answer_to(CONFIRM, text, reading, CANCEL, _reading("my mistake, "))
    assert reply.outcome == "new_request" and C in reply.text and "cancel" in reply.text
    plain = _reading(f"what about {C}", ("order_status",), order_ids=(C,))
    assert retargeted(CANCEL.text, CANCEL, plain, _reading("what about ")) is None
