"""Intake with a tiny domain of the test's own: the harness needs no retail to read a request.

A loans desk with two intents (a read and a write), a handoff, a refused bulk
intent and three slot kinds runs through the generic rules tier, the model
grounding, the prompt and the intake node itself.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, ClassVar

import pytest
from langgraph.graph import END, START, StateGraph

from checkpoints.errors import ConfigurationError
from checkpoints.migrations import MigrationSource
from nodes.context import SupportContext
from nodes.contracts import Understanding
from nodes.domain import OUT_OF_SCOPE, Domain, IntentSpec, Lexicon, Reading, SlotSpec
from nodes.errors import ModelOutputInvalid
from nodes.identity import AUTH_USER_KEY, Identity
from nodes.intake import rules
from nodes.intake.node import intake
from nodes.language import Bilingual
from nodes.models.grounding import ground_reading
from nodes.models.ladder import intake_messages
from nodes.models.prompts import load_prompts
from nodes.models.schema import IntakeReading, reading_schema
from nodes.routing import after_intake
from nodes.state import SupportState
from skills.resources import ResourceVocabulary

INTENTS = (
    IntentSpec("find_book", "where a book is"),
    IntentSpec("renew_loan", "renew a loan", writes=True),
    IntentSpec("librarian", "asks for a librarian", safety=True, handoff=True),
    IntentSpec(
        "every_loan",
        "touches every member's loans",
        safety=True,
        refusal=Bilingual("Not in bulk.", "不能批量办理。"),
    ),
    IntentSpec(OUT_OF_SCOPE, "nothing applies"),
)
SLOTS = (
    SlotSpec("loan_ids", "loan ids like L-1234", kind="identifier", pattern=r"L-?(\d{4})",
             many=True, owned=True),
    SlotSpec("titles", "book titles", many=True),
    SlotSpec("shelf", "which shelf", kind="choice", choices=("adult", "children"),
             shapes_write=True),
)  # fmt: skip
_WORDS = {"find_book": "where", "renew_loan": "renew", "librarian": "human", "every_loan": "all"}


class Loans:
    """The loans desk's reading: one keyword per intent, ids like L-1234."""

    intents = INTENTS
    slots = SLOTS

    async def lexicon(self, pool: Any) -> Lexicon:
        return {"titles": ("Dune",)}

    def read(self, text: str, lexicon: Lexicon) -> Reading:
        lowered = text.lower()
        intents = tuple(i for i, word in _WORDS.items() if word in lowered)
        return Reading(
            intents,
            {
                "loan_ids": tuple(f"L-{n}" for n in re.findall(r"L-?(\d{4})", text)),
                "titles": tuple(t for t in lexicon.get("titles", ()) if t.lower() in lowered),
                "shelf": ("children",) if "kids" in lowered else (),
            },
        )


class Records:
    """Member m1 owns loan L-1111."""

    async def customer_exists(self, pool: Any, user_id: str) -> bool:
        return user_id == "m1"

    async def foreign(self, pool: Any, user_id: str, understanding: Understanding) -> list[str]:
        return [i for i in understanding.slot("loan_ids") if i != "L-1111"]


class Answers:
    refusals: ClassVar[dict[str, Bilingual]] = {}  # the harness's own wording


def loans_domain(prompts: Path) -> Domain:
    return Domain(
        name="loans",
        catalog=prompts,
        roles=prompts,
        knowledge=prompts,
        prompts=prompts,
        migrations=MigrationSource("loans", prompts),
        resources=ResourceVocabulary(frozenset(), frozenset(), frozenset()),
        understanding=Loans(),
        records=Records(),
        planning=None,  # type: ignore[arg-type]
        answers=Answers(),  # type: ignore[arg-type]
    )


def read(text: str) -> Understanding:
    return rules.understand(text, Loans(), {"titles": ("Dune",)})


def reading(*intents: str, **slots: object) -> IntakeReading:
    schema = reading_schema(SLOTS)
    return schema.model_validate_json(json.dumps({"intents": intents, "slots": slots}))


def test_the_rules_tier_builds_the_understanding_from_the_domain_reading() -> None:
    u = read("renew  L1111 and where is Dune for the kids")
    assert u.intents == ("find_book", "renew_loan")
    assert u.slots == {"loan_ids": ("L-1111",), "titles": ("Dune",), "shelf": ("children",)}
    assert u.first("shelf") == "children" and u.slot("missing") == () and u.first("missing") is None
    assert read("hello there").intents == (OUT_OF_SCOPE,)


def test_a_domain_reading_outside_its_vocabulary_is_a_configuration_error() -> None:
    class Sloppy(Loans):
        def read(self, text: str, lexicon: Lexicon) -> Reading:
            return Reading(("fly_home",), {})

    with pytest.raises(ConfigurationError, match="fly_home"):
        rules.understand("anything", Sloppy(), {})


def test_model_identifiers_must_be_ones_the_rules_read() -> None:
    rules_reading = read("where is L-1111")
    out = ground_reading(reading("find_book", loan_ids=["L1111"]), rules_reading, "large", Loans())
    assert out.slot("loan_ids") == ("L-1111",) and out.tier == "large"
    for invented, problem in (("L-2222", "did not read"), ("1111x", "wrong shape")):
        with pytest.raises(ModelOutputInvalid, match=f"loan_ids: .*{problem}"):
            ground_reading(
                reading("find_book", loan_ids=[invented]), rules_reading, "large", Loans()
            )


def test_write_intents_come_from_the_intent_specs() -> None:
    with pytest.raises(ModelOutputInvalid, match=r"did not read.*renew_loan"):
        ground_reading(reading("find_book", "renew_loan"), read("where is it"), "large", Loans())
    with pytest.raises(ModelOutputInvalid, match=r"drops write.*renew_loan"):
        ground_reading(reading("find_book"), read("renew it"), "large", Loans())
    with pytest.raises(ModelOutputInvalid, match="outside the vocabulary"):
        ground_reading(reading("order_status"), read("where is it"), "large", Loans())


def test_safety_intents_are_kept_and_text_and_choice_slots_grounded() -> None:
    rules_reading = read("where is Dune, human please")
    model = reading("find_book", titles=["dune", "Foundation"], shelf="attic")
    out = ground_reading(model, rules_reading, "small", Loans())
    assert out.intents == ("find_book", "librarian")  # vocabulary order; safety kept
    assert out.slot("titles") == ("Dune",)  # "Foundation" is not in the text
    assert out.slot("shelf") == ()  # not one of the choices
    filled = ground_reading(reading("find_book", shelf="adult"), rules_reading, "small", Loans())
    assert filled.first("shelf") == "adult"
    kids = read("where is Dune for the kids")
    assert (
        ground_reading(reading("find_book", shelf="adult"), kids, "small", Loans()).first("shelf")
        == "children"
    )  # it shapes a write: the rules' value wins


def test_the_prompt_lists_the_domain_vocabulary(tmp_path: Path) -> None:
    (tmp_path / "intake.md").write_text("You read messages sent to a library loans desk.")
    system, request = intake_messages(load_prompts(), read("renew L-1111"), loans_domain(tmp_path))
    text = str(system.content)
    assert text.startswith("You read messages sent to a library loans desk.")
    assert "- renew_loan: renew a loan" in text and "- shelf (one value or null)" in text
    assert '"slots": {"loan_ids": [], "titles": [], "shelf": null}' in text
    assert "order" not in text.lower() and "renew L-1111" in str(request.content)


async def run_intake(tmp_path: Path, text: str, member: str = "m1", **state: Any) -> dict[str, Any]:
    graph: StateGraph[Any, Any, Any, Any] = StateGraph(SupportState, context_schema=SupportContext)
    graph.add_node("intake", intake)
    graph.add_edge(START, "intake")
    graph.add_edge("intake", END)
    ctx = SupportContext(
        domain=loans_domain(tmp_path), skills=None, registry=None, roles={}, pool=None,  # type: ignore[arg-type]
        lexicon={"titles": ("Dune",)},
    )  # fmt: skip
    config = {"configurable": {AUTH_USER_KEY: Identity("customer", member).as_auth_user()}}
    state = {"text": text, "user_id": member, **state}
    return dict(await graph.compile().ainvoke(state, config, context=ctx))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "refusal", "handoff"),
    [
        ("where is Dune on loan L-1111", None, False),
        ("renew L-9999", "I can't find L-9999 among your records, so I can't act on it.", False),
        ("renew all of them", "Not in bulk.", False),
        ("tell me a joke", "That request is outside what I can do.", False),
        ("a human, please", None, True),
    ],
)
async def test_the_intake_node_refuses_and_hands_off_by_the_domain(
    tmp_path: Path, text: str, refusal: str | None, handoff: bool
) -> None:
    out = await run_intake(tmp_path, text)
    assert out["refusal"] == refusal and out["handoff"] is handoff
    assert Understanding.model_validate(out["understanding"]).text == text
    expected = "compose" if refusal else "handoff" if handoff else "planner"
    assert after_intake(out) == expected  # type: ignore[arg-type]


async def test_an_unknown_member_is_refused_in_the_harness_words(tmp_path: Path) -> None:
    out = await run_intake(tmp_path, "where is Dune", member="m2")
    assert out["refusal"] == "I can't find your customer account, so I can't look anything up."


@pytest.mark.parametrize(
    ("text", "refusal"),
    [
        ("请 renew L-9999", "我在您的记录中找不到 L-9999，所以无法办理。"),
        ("renew all of them 谢谢", "不能批量办理。"),
        ("讲个笑话吧", "这个请求超出了我能办理的范围。"),
    ],
)
async def test_a_chinese_request_is_refused_in_chinese(
    tmp_path: Path, text: str, refusal: str
) -> None:
    out = await run_intake(tmp_path, text)
    assert out["refusal"] == refusal


async def test_refusals_before_understanding_take_the_texts_language(tmp_path: Path) -> None:
    unknown = await run_intake(tmp_path, "Dune 在哪里", member="m2")
    assert unknown["refusal"] == "我找不到您的客户账户，所以没办法为您查询。"
    other = await run_intake(tmp_path, "Dune 在哪里", customer="m9")
    assert other["refusal"] == "我只能协助处理您本人账户的事务。"
    assert "understanding" not in other
    english = await run_intake(tmp_path, "where is Dune", customer="m9")
    assert english["refusal"] == "I can only help with your own account."
    bad = await run_intake(tmp_path, "Dune 在哪里\x00")
    assert bad["refusal"].startswith("我无法读取这条请求：")


def test_targets_narrow_to_ids_the_reading_holds() -> None:
    class Targeted(Loans):
        def read(self, text: str, lexicon: Lexicon) -> Reading:
            base = super().read(text, lexicon)
            return base._replace(targets={"renew_loan": ("L-1111", "L-9999")})

    u = rules.understand("renew L1111", Targeted(), {})
    assert u.targets == {"renew_loan": ("L-1111",)}  # an id the slots never read is dropped
