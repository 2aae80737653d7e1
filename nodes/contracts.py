"""Typed contracts that cross node boundaries: intents, plans, approvals,
proposals and verdicts. Frozen, so a node can never mutate another's data."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from skills.roles import Tier as Tier

Intent = Literal[
    "order_status",
    "track_shipment",
    "delay_complaint",
    "cancel_order",
    "modify_order",
    "return_items",
    "exchange_items",
    "refund_status",
    "update_account",
    "notify",
    "policy_question",
    "product_info",
    "human_handoff",
    "bulk_modify",
    "out_of_scope",
]
INTENTS: tuple[str, ...] = Intent.__args__  # type: ignore[attr-defined]
TaskStatus = Literal["pending", "succeeded", "failed", "awaiting_approval", "rejected", "skipped"]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Slots(_Frozen):
    """What intake extracted from the text; every field is untrusted."""

    order_ids: tuple[str, ...] = ()
    emails: tuple[str, ...] = ()
    item_names: tuple[str, ...] = ()
    address: str | None = None
    reason: str | None = None
    payment_method: str | None = None


class Understanding(_Frozen):
    """Intake's reading of one request."""

    text: str
    masked_text: str
    lang: Literal["en", "zh"]
    intents: tuple[Intent, ...]
    slots: Slots
    injection: bool = False
    tier: Tier = "rules"


class Task(_Frozen):
    """One step of a plan: a role runs a skill with args once its deps succeed."""

    id: str
    role: str
    skill: str
    args: dict[str, Any] = Field(default_factory=dict)
    depends_on: tuple[str, ...] = ()
    question: str | None = None  # tasks sharing a question are arbitrated


class Plan(_Frozen):
    tasks: tuple[Task, ...] = ()
    rationale: str = ""

    def task(self, task_id: str) -> Task:
        return next(t for t in self.tasks if t.id == task_id)


class TaskOutcome(_Frozen):
    """What happened to a task; `payload` is untrusted tool output."""

    task_id: str
    skill: str
    role: str
    status: TaskStatus
    payload: Any = None
    error_code: str | None = None
    error: str | None = None
    attempts: int = 1
    notice: str | None = None


class ApprovalRequest(_Frozen):
    """A high-risk call waiting for a human, or an escalation."""

    id: str
    kind: Literal["approval", "escalation"]
    task_id: str | None = None
    skill: str | None = None
    risk: str | None = None
    args: dict[str, Any] = Field(default_factory=dict)
    args_hash: str | None = None
    reason: str
    evidence: tuple[str, ...] = ()
    audit_id: str


class HumanDecision(_Frozen):
    """A resume value for one request id.

    An approval is approved or rejected as asked, or approved with edited
    arguments (`edit`, which must carry them); an escalation gets a `reply`
    with a message. Anything else is not a decision.
    """

    decision: Literal["approve", "reject", "edit", "reply"]
    args: dict[str, Any] | None = None
    message: str | None = None

    @model_validator(mode="after")
    def _fits_decision(self) -> HumanDecision:
        if self.decision == "edit" and not self.args:
            raise ValueError("edit needs the edited arguments as a non-empty JSON object")
        if self.decision != "edit" and self.args is not None:
            raise ValueError(f"{self.decision} takes no arguments; use edit to change them")
        if self.decision == "reply" and not (self.message or "").strip():
            raise ValueError("reply needs a message for the customer")
        return self


class Proposal(_Frozen):
    """One role's answer to a shared question."""

    question: str
    role: str
    answer: str
    confidence: float = Field(ge=0.0, le=1.0)
    evidence: tuple[str, ...] = ()


class Decision(_Frozen):
    question: str
    answer: str
    rule: Literal["adopt_confident", "weighted_vote", "single"]
    proposals: tuple[Proposal, ...]


class ReviewVerdict(_Frozen):
    approved: bool
    feedback: tuple[str, ...] = ()
