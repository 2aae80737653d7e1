"""The library desk on the support graph with compose on the small model tier:
an approved draft (dates spoken, not ISO) answers; a wrong due date falls back to
the exact template answer; a Chinese request is answered in Chinese."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import pytest_asyncio

from checkpoints.opening import Database
from domains.library.pack import DOMAIN as LIBRARY
from graphs.api import RunReport, compile_support, run_request
from nodes.bootstrap import build_support_context
from nodes.context import SupportContext
from nodes.models import ModelTiers
from tests.fakes.chat import ScriptedChatModel

NOT_JSON = "I would rather chat."
"""Intake's and the planner's calls: rejected, so their rules tier runs."""


@dataclass(frozen=True)
class Desk:
    ctx: SupportContext
    graph: Any


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def desk(library_db: Database) -> AsyncIterator[Desk]:
    ctx = await build_support_context(library_db.pool, env={}, domain=LIBRARY)
    yield Desk(ctx=ctx, graph=compile_support(ctx, library_db.checkpointer))


async def ask(desk: Desk, text: str, *compose: str) -> tuple[RunReport, ScriptedChatModel]:
    small = ScriptedChatModel(script=[NOT_JSON, NOT_JSON, *compose], model_name="tiny")
    ctx = dataclasses.replace(desk.ctx, models=ModelTiers(small=small))
    return await run_request(desk.graph, ctx, text=text, user_id="M-1001"), small


async def test_the_model_words_the_loans_and_a_wrong_due_date_leaves_the_template(
    desk: Desk,
) -> None:
    text = "What do I have on loan?"
    rules = await run_request(desk.graph, desk.ctx, text=text, user_id="M-1001")
    assert "2026-11-23" in rules.answer and "$3.50" in rules.answer
    good = rules.answer.replace("2026-11-23", "November 23, 2026")
    done, _ = await ask(desk, text, good)
    assert done.answer == good and "compose[small]: model draft" in done.trace
    wrong = rules.answer.replace("2026-11-23", "November 30, 2026")
    done, small = await ask(desk, text, wrong, wrong)
    assert done.answer == rules.answer and done.status == "completed"
    assert "untraceable date: November 30, 2026" in small.calls[3][-1].text


async def test_a_chinese_request_is_answered_in_chinese(desk: Desk) -> None:
    english = await run_request(
        desk.graph, desk.ctx, text="What do I have on loan?", user_id="M-1001"
    )
    text = "我借了哪些书？"
    rules = await run_request(desk.graph, desk.ctx, text=text, user_id="M-1001")
    chinese = "您好！" + rules.answer.replace("2026-11-23", "2026年11月23日")
    done, small = await ask(desk, text, english.answer, chinese)
    assert done.answer == chinese
    assert "not in the customer's language" in small.calls[3][-1].text
