"""Threads of finished turns for the compression unit tests (library ids: the harness is domain-neutral)."""

from __future__ import annotations

from langchain_core.messages import AIMessage, AnyMessage, HumanMessage

from nodes.conversation.record import StepRecord, TurnRecord, record_metadata


def answered(
    number: int,
    asked: str,
    answer: str,
    *,
    ids: tuple[str, ...] = (),
    facts: tuple[str, ...] = (),
    skill: str = "get_member_loans_v1",
) -> list[AnyMessage]:
    """One turn as it stays in `messages`: the customer's message and the recorded answer."""
    record = TurnRecord(
        turn=number,
        status="completed",
        intents=("loan_status",),
        steps=(StepRecord(skill=skill, status="succeeded"),),
        ids=ids,
        facts=facts,
    )
    return [
        HumanMessage(asked, id=f"ask-{number}"),
        AIMessage(answer, id=f"ans-{number}", response_metadata=record_metadata(record)),
    ]


def thread(turns: int, filler: int = 0) -> list[AnyMessage]:
    """`turns` turns about loan LN-000NN, each answer padded with `filler` words."""
    out: list[AnyMessage] = []
    for n in range(1, turns + 1):
        loan, due = f"LN-{n:05d}", f"2026-01-{n % 28 + 1:02d}"
        out += answered(
            n,
            f"what is the status of loan {loan}?",
            f"Loan {loan} is due back on {due}." + " more" * filler,
            ids=(loan,),
            facts=(loan, due),  # what the answer stated, as respond records it
        )
    return out
