"""The second domain end to end on the SAME support graph (issue 8 §1, "Proof
that it holds"): intake, plan, dispatch, an approval interrupt for the
high-risk waiver, resume in another process, review, the audit chain — with
`ROLEGRAPH_DOMAIN=library` for the CLI and the `Domain` passed in from Python.

Nothing under graphs/ or nodes/ names the library; these tests fail until
the harness takes everything domain-specific from the `Domain` (helpers A–E
of issue 8). The marker comes off when the lead merges them.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import pytest_asyncio

from checkpoints import outbox
from checkpoints.audit import fetch_audit_chain
from checkpoints.opening import Database
from domains.library.answers import REFUSALS
from domains.library.pack import DOMAIN as LIBRARY
from domains.library.storage import store
from graphs.api import compile_support, resume_thread, run_request
from nodes.bootstrap import build_support_context
from nodes.context import SupportContext
from nodes.identity import Identity
from tests.cli import run_cli
from tests.support_fixtures import run_confirmed

OPERATOR = Identity("operator", "test-librarian")


@dataclass(frozen=True)
class Desk:
    db: Database
    ctx: SupportContext
    graph: Any


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def desk(library_db: Database) -> AsyncIterator[Desk]:
    """The support graph over the library, rules tier only, the Domain passed in."""
    ctx = await build_support_context(library_db.pool, env={}, domain=LIBRARY)
    yield Desk(db=library_db, ctx=ctx, graph=compile_support(ctx, library_db.checkpointer))


async def _loan(db: Database, loan_id: str) -> Any:
    async with db.pool.connection() as conn:
        found = await store.loan(conn, loan_id)
    assert found is not None
    return found


def _last_json(result: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    assert result.returncode == 0, result.stderr
    parsed: dict[str, Any] = json.loads(result.stdout.strip().splitlines()[-1])
    return parsed


async def test_loan_status_is_read_planned_dispatched_and_reviewed(desk: Desk) -> None:
    done = await run_request(desk.graph, desk.ctx, text="What do I have on loan?", user_id="M-1001")
    assert done.status == "completed" and done.intents == ["loan_status"]
    assert [t["skill"] for t in done.plan] == ["get_member_loans_v1"]
    assert "LN-20001" in done.answer and "2026-11-23" in done.answer and "$3.50" in done.answer
    assert "review: approved" in done.trace


async def test_a_renewal_runs_once_with_a_notice_and_is_audited(desk: Desk) -> None:
    done = await run_request(desk.graph, desk.ctx, text="Please renew LN-20001", user_id="M-1001")
    assert done.status == "completed", done.answer
    assert "is renewed" in done.answer and "2026-12-07" in done.answer
    assert (await _loan(desk.db, "LN-20001")).renewals == 1
    async with desk.db.pool.connection() as conn:
        chain = await fetch_audit_chain(conn, done.audit_id or "")
    calls = [(r.event.role, r.event.skill, r.event.status) for r in chain if r.event.skill]
    assert ("circulation_desk", "get_member_loans_v1", "success") in calls
    assert calls[-1] == ("circulation_desk", "renew_loan_v1", "success")


async def test_a_waiver_waits_for_a_librarian_and_another_process_resumes_it(
    desk: Desk, library_env: dict[str, str]
) -> None:
    text = "Please waive the fine on LN-20006, it is my first offence"
    asked = await run_request(desk.graph, desk.ctx, text=text, user_id="M-1003")
    assert asked.status == "needs_input" and asked.intents == ["waive_fine"], asked.trace
    assert asked.question is not None and asked.question["kind"] == "confirm"
    assert "LN-20006" in asked.question["text"] and asked.interrupts == []
    assert (await _loan(desk.db, "LN-20006")).fine_cents == 1200  # nothing asked of anyone yet
    first = await run_request(
        desk.graph, desk.ctx, text="yes", user_id="M-1003", thread_id=asked.thread_id
    )
    assert first.status == "interrupted", first.trace
    (request,) = first.interrupts
    assert (request["kind"], request["skill"], request["risk"]) == (
        "approval", "waive_fine_v1", "high",
    )  # fmt: skip
    assert request["args"] == {"loan_id": "LN-20006", "reason": "first offence"}
    assert (await _loan(desk.db, "LN-20006")).fine_cents == 1200  # nothing ran yet

    assert request["id"] in run_cli(library_env, "inbox").stdout
    resumed = _last_json(
        run_cli(library_env, "resume", first.thread_id, "--decision", "approve",
                "--request-id", request["id"], "--json")
    )  # fmt: skip
    assert resumed["status"] == "completed" and "is waived" in resumed["answer"]
    assert (await _loan(desk.db, "LN-20006")).fine_waived

    audit = run_cli(library_env, "audit", first.audit_id or "")
    assert audit.returncode == 0, audit.stderr
    async with desk.db.pool.connection() as conn:
        asking = await fetch_audit_chain(conn, asked.audit_id or "")
        chain = await fetch_audit_chain(conn, first.audit_id or "")
    question = [r.event.status for r in asking if r.event.skill == "waive_fine_v1"]
    assert question == ["confirmation_required"]
    waiver = [r.event for r in chain if r.event.skill == "waive_fine_v1"]
    assert [e.status for e in waiver] == [
        "customer_confirmed", "approval_required", "approved", "success",
    ]  # fmt: skip
    assert waiver[2].approval_id == waiver[3].approval_id == request["id"]
    assert [e.role for e in waiver[1:]] == ["fines_officer"] * 3
    again = run_cli(library_env, "resume", first.thread_id, "--decision", "approve")
    assert again.returncode == 2 and "nothing to resume" in again.stderr


async def test_a_rejected_waiver_changes_nothing(desk: Desk) -> None:
    first = await run_confirmed(
        desk.graph, desk.ctx, text="waive the fine on LN-20008, hardship", user_id="M-1005"
    )
    assert first.status == "interrupted" and first.turn == 2, first.trace  # asked, then yes
    done = await resume_thread(
        desk.graph, desk.ctx, first.thread_id, decision="reject", actor=OPERATOR
    )
    assert done.status == "completed"
    assert (await _loan(desk.db, "LN-20008")).fine_cents == 150
    assert "is waived" not in done.answer


async def test_the_whole_request_runs_from_the_cli_with_the_library_chosen_by_env(
    library_env: dict[str, str],
) -> None:
    asked = _last_json(
        run_cli(library_env, "run", "--json", "--user-id", "M-1001", "waive the fine on LN-20002")
    )
    assert asked["status"] == "needs_input" and asked["question"]["kind"] == "confirm"
    assert "LN-20002" in asked["question"]["text"]
    started = _last_json(
        run_cli(library_env, "run", "--json", "--user-id", "M-1001",
                "--thread-id", asked["thread_id"], "yes")
    )  # fmt: skip
    assert started["status"] == "interrupted" and started["thread_id"] == asked["thread_id"]
    assert [t["skill"] for t in started["plan"]] == ["get_member_loans_v1", "waive_fine_v1"]
    resumed = _last_json(
        run_cli(library_env, "resume", started["thread_id"], "--decision", "reject", "--json")
    )
    assert resumed["status"] == "completed"


async def test_a_renewal_with_an_email_queues_the_new_due_date(desk: Desk) -> None:
    done = await run_request(
        desk.graph, desk.ctx, text="Renew LN-20003 and email me", user_id="M-1002"
    )
    assert done.status == "completed", done.answer
    assert "is queued for delivery" in done.answer
    async with desk.db.pool.connection() as conn:
        (row,) = [r for r in await outbox.list_rows(conn) if r.user_id == "M-1002"]
    assert "Loan LN-20003: due 2026-12-15" in row.body and row.recipient == "liang.wei@example.org"
    assert "2026-12-01" not in row.body  # the loan list read before the renewal is stale


async def test_another_members_loan_is_refused_before_planning(desk: Desk) -> None:
    done = await run_request(desk.graph, desk.ctx, text="renew LN-20005", user_id="M-1001")
    assert done.status == "refused" and done.plan == []
    assert done.answer == REFUSALS["foreign"].en.format(ids="LN-20005")
    assert (await _loan(desk.db, "LN-20005")).renewals == 2


async def test_out_of_scope_is_refused_in_the_domains_words(desk: Desk) -> None:
    done = await run_request(desk.graph, desk.ctx, text="Sell me a bicycle", user_id="M-1004")
    assert (done.status, done.answer) == ("refused", REFUSALS["out_of_scope"].en)


async def test_a_policy_question_in_chinese_is_answered_from_the_partition(desk: Desk) -> None:
    done = await run_request(desk.graph, desk.ctx, text="可以续借几次？", user_id="M-1004")
    assert done.status == "completed" and done.intents == ["policy_question"]
    assert "14" in done.answer


async def test_asking_for_a_librarian_hands_the_thread_over(desk: Desk) -> None:
    done = await run_request(
        desk.graph, desk.ctx, text="I want to speak to a librarian", user_id="M-1004"
    )
    assert done.status == "interrupted" and done.plan == []
    assert [i["kind"] for i in done.interrupts] == ["escalation"]
    replied = await resume_thread(
        desk.graph, desk.ctx, done.thread_id, decision="reply",
        message="A librarian will call you today.", actor=OPERATOR,
    )  # fmt: skip
    assert replied.status == "completed" and "A librarian will call you today." in replied.answer


async def test_a_member_holds_a_conversation_of_two_turns(desk: Desk) -> None:
    first = await run_request(desk.graph, desk.ctx, text="可以续借几次？", user_id="M-1004")
    second = await run_request(
        desk.graph, desk.ctx, text="What do I have on loan?", user_id="M-1004",
        thread_id=first.thread_id,
    )  # fmt: skip
    assert (first.turn, second.turn) == (1, 2) and second.audit_id != first.audit_id
    assert second.status == "completed" and second.intents == ["loan_status"]
    assert [t["skill"] for t in second.plan] == ["get_member_loans_v1"]
    state = await desk.graph.aget_state({"configurable": {"thread_id": first.thread_id}})
    assert [m.text for m in state.values["messages"]] == [
        "可以续借几次？", first.answer, "What do I have on loan?", second.answer,
    ]  # fmt: skip


async def test_a_renewal_the_desk_declines_completes_with_the_reason(desk: Desk) -> None:
    # At the renewal limit: the precondition declines it before anything runs.
    limit = await run_request(desk.graph, desk.ctx, text="Please renew LN-20005", user_id="M-1003")
    assert limit.status == "completed", limit.trace
    assert limit.answer.endswith(
        "Loan LN-20005 was renewed 2 times already, the most a loan allows;"
        " please return the book by 2026-12-03."
    )
    assert limit.interrupts == [] and "could not complete" not in limit.answer
    # Another member holds the book: the tool's own rule declines it, in Chinese.
    held = await run_request(desk.graph, desk.ctx, text="请帮我续借 LN-20002", user_id="M-1001")
    assert held.status == "completed", held.trace
    assert "借阅 LN-20002 的图书已有其他读者预约，无法续借；请在 2026-10-26 前归还。" in held.answer
    assert "没能完成" not in held.answer
    assert (await _loan(desk.db, "LN-20002")).renewals == 1
    assert (await _loan(desk.db, "LN-20005")).renewals == 2
