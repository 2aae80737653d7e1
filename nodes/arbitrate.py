"""Arbitration when several roles answer one question.

Deterministic rules: adopt a proposal with confidence > 0.9 unless a
proposal with confidence > 0.6 disagrees; otherwise a confidence-weighted
vote. Every decision is written to the audit log with its evidence.
"""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

from langgraph.runtime import Runtime

from nodes.context import SupportContext
from nodes.contracts import Decision, Proposal, TaskOutcome
from nodes.state import SupportState, plan_of

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


def proposals_by_question(state: SupportState) -> dict[str, list[Proposal]]:
    plan = plan_of(state)
    outcomes = state.get("outcomes") or {}
    grouped: dict[str, list[Proposal]] = defaultdict(list)
    for task in plan.tasks:
        outcome = outcomes.get(task.id)
        if task.question and outcome and outcome["status"] == "succeeded":
            grouped[task.question].append(
                to_proposal(task.question, TaskOutcome.model_validate(outcome))
            )
    return grouped


def to_proposal(question: str, outcome: TaskOutcome) -> Proposal:
    """Read a proposal out of a skill payload; missing fields mean low confidence."""
    payload = outcome.payload if isinstance(outcome.payload, dict) else {}
    answer = str(payload.get("verdict") or payload.get("cause") or _top_hit(payload) or "unknown")
    confidence = payload.get("confidence", 0.5)
    confidence = (
        min(max(float(confidence), 0.0), 1.0) if isinstance(confidence, (int, float)) else 0.5
    )
    evidence = payload.get("evidence") or []
    return Proposal(
        question=question,
        role=outcome.role,
        answer=answer,
        confidence=confidence,
        evidence=tuple(str(e)[:200] for e in evidence)[:5] if isinstance(evidence, list) else (),
    )


async def arbitrate(state: SupportState, runtime: Runtime[SupportContext]) -> dict[str, Any]:
    decisions = [decide(q, ps) for q, ps in proposals_by_question(state).items()]
    async with runtime.context.pool.connection() as conn:
        for d in decisions:
            await conn.execute(
                "INSERT INTO audit_events (audit_id, node, status, detail) VALUES (%s, 'arbitrate', %s, %s)",
                (state["audit_id"], "arbitrated", json.dumps(d.model_dump(mode="json"))),
            )
    notes = [f"{d.question}: {d.answer} ({d.rule})" for d in decisions]
    return {
        "decisions": [d.model_dump(mode="json") for d in decisions],
        "trace": [f"arbitrate: {notes}"],
    }


def _top_hit(payload: dict[str, Any]) -> str | None:
    hits = payload.get("results") or payload.get("hits") or []
    if hits and isinstance(hits, list) and isinstance(hits[0], dict):
        return str(hits[0].get("cause") or hits[0].get("topic") or hits[0].get("title"))
    return None
