"""Escalations: an explicit request for a human, or a draft the reviewer keeps rejecting."""

from __future__ import annotations

import uuid
from typing import Any

from nodes.approval import escalation_request
from nodes.state import SupportState


def handoff(state: SupportState) -> dict[str, Any]:
    request = escalation_request(
        state["audit_id"], "customer asked for a human", (state["text"][:200],)
    )
    return {
        "pending": {request.id: request.model_dump(mode="json")},
        "trace": ["handoff: escalation"],
    }


def escalate_review(state: SupportState) -> dict[str, Any]:
    review = state.get("review")
    feedback = tuple(review["feedback"]) if review else ()
    evidence = tuple(_without_error_text(f) for f in feedback)
    request = escalation_request(state["audit_id"], "answer failed review twice", evidence)
    return {
        "pending": {request.id: request.model_dump(mode="json")},
        "trace": ["review: escalate to a human"],
    }


def _without_error_text(feedback: str) -> str:
    # The request is part of the customer's thread state; the raw error text
    # is in the audit trail, where the operator reads it.
    kind = feedback.split(": ", 1)[0]
    return f"{kind} (see the audit trail)" if kind == "internal error text" else feedback


def new_audit_id() -> str:
    return "aud-" + uuid.uuid4().hex[:16]
