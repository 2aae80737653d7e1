"""Arbitration when several roles answer one question.

Deterministic rules: adopt a proposal with confidence > 0.9 unless a
proposal with confidence > 0.6 disagrees; otherwise a confidence-weighted
vote. Every decision is written to the audit log with its evidence.

What a result answers is the domain's to read (`Domain.answers.stance`,
through the skill's result model); a result with no answer to the question
makes no proposal.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from langgraph.runtime import Runtime

from checkpoints.audit import AuditEvent, record_event
from nodes.context import SupportContext
from nodes.contracts import Decision, Proposal, TaskOutcome
from nodes.domain import DomainAnswers
from nodes.state import SupportState, plan_of

MAX_EVIDENCE = 5
MAX_EVIDENCE_CHARS = 200

ADOPT = 0.9
DISSENT = 0.6


def decide(question: str, proposals: list[Proposal]) -> Decision:
    if len(proposals) == 1:
        return Decision(
            question=question, answer=proposals[0].answer, rule="single", proposals=tuple(proposals)
        )
    best = max(proposals, key=lambda p: p.confidence)
    dissent = [p for p in proposals if p.answer != best.answer and p.confidence > DISSENT]
    if best.confidence > ADOPT and not dissent:
        return Decision(
            question=question,
            answer=best.answer,
            rule="adopt_confident",
            proposals=tuple(proposals),
        )
    weights: dict[str, float] = defaultdict(float)
    for p in proposals:
        weights[p.answer] += p.confidence
    answer = max(weights, key=lambda a: (weights[a], a))
    return Decision(
        question=question, answer=answer, rule="weighted_vote", proposals=tuple(proposals)
    )


def contested(state: SupportState) -> bool:
    """Whether more than one succeeded task answers the same question."""
    outcomes = state.get("outcomes") or {}
    answered = [
        t.question
        for t in plan_of(state).tasks
        if t.question and t.id in outcomes and outcomes[t.id]["status"] == "succeeded"
    ]
    return len(answered) > len(set(answered))


def proposals_by_question(state: SupportState, answers: DomainAnswers) -> dict[str, list[Proposal]]:
    """The proposals of every succeeded task that shares a question, by question."""
    plan = plan_of(state)
    outcomes = state.get("outcomes") or {}
    grouped: dict[str, list[Proposal]] = defaultdict(list)
    for task in plan.tasks:
        outcome = outcomes.get(task.id)
        if task.question and outcome and outcome["status"] == "succeeded":
            proposal = to_proposal(task.question, TaskOutcome.model_validate(outcome), answers)
            if proposal is not None:
                grouped[task.question].append(proposal)
    return grouped


def to_proposal(question: str, outcome: TaskOutcome, answers: DomainAnswers) -> Proposal | None:
    """The result's answer as a proposal; confidence clamped, evidence bounded (untrusted data)."""
    stance = answers.stance(outcome)
    if stance is None:
        return None
    return Proposal(
        question=question,
        role=outcome.role,
        answer=stance.answer,
        confidence=min(max(float(stance.confidence), 0.0), 1.0),
        evidence=tuple(e[:MAX_EVIDENCE_CHARS] for e in stance.evidence[:MAX_EVIDENCE]),
    )


async def arbitrate(state: SupportState, runtime: Runtime[SupportContext]) -> dict[str, Any]:
    answers = runtime.context.domain.answers
    decisions = [decide(q, ps) for q, ps in proposals_by_question(state, answers).items()]
    async with runtime.context.pool.connection() as conn:
        for d in decisions:
            event = AuditEvent(
                audit_id=state["audit_id"],
                node="arbitrate",
                status="arbitrated",
                detail=d.model_dump(mode="json"),
            )
            await record_event(conn, event)
    notes = [f"{d.question}: {d.answer} ({d.rule})" for d in decisions]
    return {
        "decisions": [d.model_dump(mode="json") for d in decisions],
        "trace": [f"arbitrate: {notes}"],
    }
