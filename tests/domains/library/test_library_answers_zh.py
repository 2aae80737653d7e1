"""The library desk answers a Chinese member in Chinese: every sentence kind from real
payloads keeps its ids, dates and amounts, and whole requests run through the graph."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest_asyncio

from checkpoints.opening import Database
from domains.library.pack import DOMAIN as LIBRARY
from domains.library.storage import seed
from graphs.api import compile_support, run_request
from nodes.bootstrap import build_support_context
from nodes.contracts import Task, TaskOutcome
from nodes.failure_text import failure_sentence
from nodes.language import CJK
from nodes.review import check
from skills.context import RuntimeContext
from skills.registry import load_catalog

# (skill, args, member, the Chinese words its sentences hold)
CALLS: list[tuple[str, dict[str, Any], str, tuple[str, ...]]] = [
    ("get_member_loans_v1", {"member_id": "M-1001"}, "M-1001",
     ("您目前借了 2 本书：", " 到期", "您尚未缴纳的罚款共计 $3.50。")),
    ("get_book_v1", {"book_id": "BK-0003"}, "M-1001", ("在架 0 本（共 2 本）", "预约 1 人")),
    ("renew_loan_v1", {"loan_id": "LN-20001"}, "M-1001",
     ("借阅 LN-20001 已续借成功，新的到期日为 ",)),
    ("waive_fine_v1", {"loan_id": "LN-20006", "reason": "hardship"}, "M-1003",
     ("借阅 LN-20006 的罚款已为您减免。",)),
    ("send_notification_v1", {"member_id": "M-1001", "subject": "Loans", "body": "Due soon."},
     "M-1001", ("的邮件已加入发送队列。",)),
    ("search_policy_v1", {"query": "可以续借几次"}, "M-1001", ("借阅规定（",)),
]  # fmt: skip


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def told(library_db: Database) -> AsyncIterator[list[tuple[Task, TaskOutcome]]]:
    """Every library skill run once for real; the data set is loaded again afterwards."""
    registry = load_catalog(LIBRARY.catalog)
    done = []
    for n, (skill, args, member, _) in enumerate(CALLS):
        executor = registry.get(skill).executor
        ctx = RuntimeContext(pool=library_db.pool, user_id=member)
        payload = await executor.execute(executor.validate_input(args), ctx)
        task = Task(id=f"t{n}", role="circulation_desk", skill=skill, args=args)
        done.append((task, TaskOutcome(task_id=task.id, skill=skill, role=task.role,
                                       status="succeeded", payload=payload)))  # fmt: skip
    yield done
    async with library_db.pool.connection() as conn:
        await seed.load(conn)


def test_every_library_sentence_is_chinese_with_its_facts_kept(
    told: list[tuple[Task, TaskOutcome]],
) -> None:
    for (task, outcome), (_, _, _, words) in zip(told, CALLS, strict=True):
        zh = LIBRARY.answers.describe(task, outcome, "zh")
        en = LIBRARY.answers.describe(task, outcome, "en")
        joined = " ".join(zh)
        assert zh and len(zh) == len(en), task.skill
        assert all(w in joined for w in words), (task.skill, joined)
        assert all(CJK.search(s) for s in zh), task.skill
        facts = LIBRARY.answers.facts.findall
        assert sorted(facts(joined)) == sorted(facts(" ".join(en))), (task.skill, joined)
        state: Any = {"understanding": {"lang": "zh"}, "text": "我的借阅",
                      "outcomes": {task.id: outcome.model_dump(mode="json")}}  # fmt: skip
        assert check(joined, state, LIBRARY.answers).approved, (task.skill, joined)


def test_library_failures_and_refusals_are_chinese() -> None:
    renew = Task(id="t2", role="circulation_desk", skill="renew_loan_v1",
                 args={"loan_id": "LN-20005"})  # fmt: skip
    failed = TaskOutcome(task_id="t2", skill=renew.skill, role=renew.role, status="failed",
                         error_code="precondition_failed", error="renewed twice")  # fmt: skip
    assert failure_sentence(failed, renew, LIBRARY, "zh") == (
        "抱歉，借阅 LN-20005 的“续借”操作没能完成："
        "只有在这笔借阅尚未归还、且续借少于两次时才能办理。"
    )
    for kind, refusal in LIBRARY.answers.refusals.items():
        assert CJK.search(refusal.zh) and not CJK.search(refusal.en), kind


async def test_chinese_requests_to_the_desk_are_answered_in_chinese(
    library_db: Database, told: list[tuple[Task, TaskOutcome]]
) -> None:
    ctx = await build_support_context(library_db.pool, env={}, domain=LIBRARY)
    graph = compile_support(ctx, library_db.checkpointer)
    loans = await run_request(graph, ctx, text="我现在借了哪些书？", user_id="M-1001")
    assert loans.status == "completed" and loans.intents == ["loan_status"]
    assert "您目前借了 2 本书：LN-20002《" in loans.answer
    policy = await run_request(graph, ctx, text="可以续借几次？", user_id="M-1004")
    assert policy.status == "completed" and policy.answer.startswith("借阅规定（")
    foreign = await run_request(graph, ctx, text="我想续借 LN-20005", user_id="M-1001")
    assert (foreign.status, foreign.answer) == (
        "refused", "我在您的借阅记录中找不到 LN-20005，所以无法为您办理。"
    )  # fmt: skip
