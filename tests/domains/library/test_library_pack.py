"""The library's `Domain` hooks: bilingual rules reading, plan templates,
preconditions and binding on real payloads, answer sentences, ownership."""

from __future__ import annotations

from typing import Any

import pytest

from checkpoints.opening import Database
from domains.library.pack import DOMAIN as LIBRARY
from domains.library.storage import seed, store
from domains.library.storage.models import LibraryData
from nodes.contracts import Task, TaskOutcome, Understanding
from nodes.domain import load_domain
from nodes.errors import BindingError, PreconditionFailed
from nodes.intake.rules import understand
from skills.context import RuntimeContext
from skills.registry import load_catalog


def _reading(text: str) -> Understanding:
    return understand(text, LIBRARY.understanding, {})


async def _payload(db: Database, skill: str, args: dict[str, Any], user: str) -> Any:
    executor = load_catalog(LIBRARY.catalog).get(skill).executor
    return await executor.execute(
        executor.validate_input(args), RuntimeContext(pool=db.pool, user_id=user)
    )


def test_the_library_is_chosen_by_name() -> None:
    assert load_domain("library") is LIBRARY
    assert load_domain(env={"ROLEGRAPH_DOMAIN": "library"}) is LIBRARY


@pytest.mark.parametrize(
    ("text", "intents", "slots"),
    [
        ("Please renew ln-20001", ("renew_loan",), {"loan_ids": ("LN-20001",)}),
        ("我想续借 LN-20001", ("renew_loan",), {"loan_ids": ("LN-20001",)}),
        ("How many times can I renew a loan?", ("policy_question",), {}),
        ("逾期罚款怎么算？", ("policy_question",), {}),
        ("Waive the fine on LN-20002, it was a library error",
         ("waive_fine",), {"loan_ids": ("LN-20002",), "reason": ("library error",)}),
        ("请免除 LN-20002 的罚款，这是第一次", ("waive_fine",),
         {"loan_ids": ("LN-20002",), "reason": ("first offence",)}),
        ("Renew LN-20001 and email me", ("renew_loan", "notify"), {"loan_ids": ("LN-20001",)}),
        ("Is BK-0003 available?", ("book_availability",), {"book_ids": ("BK-0003",)}),
        ("我要找馆员", ("human_handoff",), {}),
        ("Sell me a bicycle", ("out_of_scope",), {}),
    ],
)  # fmt: skip
def test_rules_reading(text: str, intents: tuple[str, ...], slots: dict[str, Any]) -> None:
    assert LIBRARY.understanding.read(text, {})[:2] == (intents, slots)


def test_every_intent_read_is_declared_and_writes_are_marked() -> None:
    assert {"renew_loan", "waive_fine", "notify"} == {
        i.name for i in LIBRARY.understanding.intents if i.writes
    }
    assert [i.name for i in LIBRARY.understanding.intents if i.handoff] == ["human_handoff"]


def test_a_waiver_plan_reads_the_loans_first_as_the_fines_officer() -> None:
    plan = LIBRARY.planning.plan(_reading("waive the fine on LN-20002, hardship"), "M-1001")
    assert [(t.id, t.role, t.skill, t.depends_on) for t in plan.tasks] == [
        ("t1", "fines_officer", "get_member_loans_v1", ()),
        ("t2", "fines_officer", "waive_fine_v1", ("t1",)),
    ]
    assert plan.tasks[1].args == {"loan_id": "LN-20002", "reason": "hardship"}


def test_a_renewal_with_notice_binds_the_summary_last() -> None:
    plan = LIBRARY.planning.plan(_reading("renew LN-20001 and email me"), "M-1001")
    assert [t.skill for t in plan.tasks] == [
        "get_member_loans_v1", "renew_loan_v1", "send_notification_v1",
    ]  # fmt: skip
    notify = plan.tasks[-1]
    assert notify.depends_on == ("t1", "t2") and notify.args["body"] == "bind:loan_summary"
    assert LIBRARY.planning.is_marker("loan_summary") and not LIBRARY.planning.is_marker(
        "order_items"
    )


async def test_preconditions_read_the_loans_read_earlier(library_db: Database) -> None:
    loans = await _payload(library_db, "get_member_loans_v1", {"member_id": "M-1003"}, "M-1003")
    check = LIBRARY.planning.check_preconditions
    with pytest.raises(PreconditionFailed, match="fewer than twice"):
        check("renew_loan_v1", {"loan_id": "LN-20005"}, {"t1": loans})
    check("waive_fine_v1", {"loan_id": "LN-20006", "reason": "hardship"}, {"t1": loans})
    with pytest.raises(PreconditionFailed, match="no fine"):
        check("waive_fine_v1", {"loan_id": "LN-20005", "reason": "hardship"}, {"t1": loans})
    assert LIBRARY.planning.precondition_text("get_book_v1", "en") is None


async def test_the_summary_binds_from_real_results(library_db: Database) -> None:
    loans = await _payload(library_db, "get_member_loans_v1", {"member_id": "M-1001"}, "M-1001")
    summary = LIBRARY.planning.bind("loan_summary", {"t1": loans})
    assert summary == "Loan LN-20002: due 2026-10-26\nLoan LN-20001: due 2026-11-23"
    renewed = await _payload(library_db, "renew_loan_v1", {"loan_id": "LN-20001"}, "M-1001")
    after = LIBRARY.planning.bind("loan_summary", {"t1": loans, "t2": renewed})
    assert after == "Loan LN-20001: due 2026-12-07, fine $0.00"  # the stale list is left out
    async with library_db.pool.connection() as conn:
        await seed.load(conn)  # the renewal above is undone for the tests after this one
    with pytest.raises(BindingError):
        LIBRARY.planning.bind("loan_summary", {"t1": {"unrelated": True}})


async def test_answer_sentences_quote_real_payloads(library_db: Database) -> None:
    loans = await _payload(library_db, "get_member_loans_v1", {"member_id": "M-1001"}, "M-1001")
    book = await _payload(library_db, "get_book_v1", {"book_id": "BK-0003"}, "M-1001")
    sentences = [
        *LIBRARY.answers.describe(
            _task("get_member_loans_v1"), _done("get_member_loans_v1", loans), "en"
        ),
        *LIBRARY.answers.describe(_task("get_book_v1"), _done("get_book_v1", book), "en"),
    ]
    assert sentences[0].startswith("You have 2 book(s) on loan: LN-20002 ")
    assert sentences[1] == "Your unpaid fines come to $3.50."
    assert "0 of 2 copies on the shelf, 1 hold(s)" in sentences[2]
    assert LIBRARY.answers.facts.findall(" ".join(sentences))[:2] == ["LN-20002", "2026-10-26"]
    assert (
        LIBRARY.answers.target(_task("renew_loan_v1", loan_id="LN-20001"), "en")
        == " for loan LN-20001"
    )


async def test_ownership_hides_other_members_and_unknown_loans(library_db: Database) -> None:
    reading = _reading("renew LN-20001, LN-20005 and LN-99999")
    foreign = await LIBRARY.records.foreign(library_db.pool, "M-1001", reading)
    assert foreign == ["LN-20005", "LN-99999"]
    assert await LIBRARY.records.customer_exists(library_db.pool, "M-1005")
    assert not await LIBRARY.records.customer_exists(library_db.pool, "M-9999")


def _task(skill: str, **args: Any) -> Task:
    return Task(id="t1", role="circulation_desk", skill=skill, args=args)


def _done(skill: str, payload: Any) -> TaskOutcome:
    return TaskOutcome(
        task_id="t1", skill=skill, role="circulation_desk", status="succeeded", payload=payload
    )


async def test_what_answers_keep_quiet_about_and_what_they_own(library_db: Database) -> None:
    loans = await _payload(library_db, "get_member_loans_v1", {"member_id": "M-1001"}, "M-1001")
    answers = LIBRARY.answers
    assert answers.own_ids(_done("get_member_loans_v1", loans)) == ("LN-20002", "LN-20001")
    assert answers.supersedes(_task("renew_loan_v1"), _task("get_member_loans_v1"))
    assert not answers.supersedes(_task("get_book_v1"), _task("get_member_loans_v1"))
    # A payload that is not the skill's result shape is not described, never guessed at.
    renewed = _done("renew_loan_v1", {"due": "soon"})
    assert answers.describe(_task("renew_loan_v1"), renewed, "en") == []
    assert LIBRARY.planning.summarize({"t1": loans}).splitlines()[0] == (
        "Loan LN-20002: due 2026-10-26"
    )


async def test_an_empty_database_is_seeded_once(library_db: Database) -> None:
    empty = LibraryData(members=(), books=(), copies=(), loans=())
    async with library_db.pool.connection() as conn, conn.transaction():
        await store.replace_all(conn, empty)
    assert not await LIBRARY.seed.has_customers(library_db.pool)
    assert await LIBRARY.seed.seed_if_empty(library_db.pool) == (
        "loaded 3 holds, 8 loans, 18 copies, 15 books, 5 members"
    )
    assert await LIBRARY.seed.seed_if_empty(library_db.pool) is None
