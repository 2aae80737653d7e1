"""Typed contracts that cross node boundaries: intents, plans, approvals,
proposals and verdicts. Frozen, so a node can never mutate another's data."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from skills.contract import Approval
from skills.roles import Tier as Tier

Intent = str
"""An intent name of the domain's vocabulary (`Domain.intent_names`); intake checks it."""
TaskStatus = Literal[
    "pending",
    "succeeded",
    "failed",
    "awaiting_approval",
    "awaiting_confirmation",
    "rejected",
    "skipped",
]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Understanding(_Frozen):
    """Intake's reading of one request."""

    text: str
    masked_text: str
    lang: Literal["en", "zh"]
    intents: tuple[Intent, ...]
    slots: dict[str, tuple[str, ...]] = Field(default_factory=dict)
    """Slot name (a `SlotSpec` of the domain) -> values read from the text; all untrusted."""
    injection: bool = False
    tier: Tier = "rules"
    uncertain: tuple[Intent, ...] = ()
    """Writes the reading leaned to but did not read (see `nodes.domain.Reading`)."""
    plausible: tuple[Intent, ...] = ()
    """Reads the rules tier weighed without taking them: the only reads a model tier may
    add (`nodes.models.grounding`). Empty for a domain whose reading weighs nothing."""
    targets: dict[Intent, tuple[str, ...]] = Field(default_factory=dict)
    """Intent -> the owned ids its own clause names, when a message asks different
    things of different records ("cancel #W1 and track #W2"); a subset of the
    slot values, so narrowing only. An intent absent here acts on all of them."""

    def slot(self, name: str) -> tuple[str, ...]:
        """The values of slot `name`; empty when the request has none."""
        return self.slots.get(name, ())

    def first(self, name: str) -> str | None:
        """The first value of slot `name`, or None."""
        return next(iter(self.slot(name)), None)


class Condition(_Frozen):
    """What must hold of a dependency's result for its task to run ("if it hasn't shipped").

    Tested when the task is ready, on the dependency's checkpointed payload read
    through its skill's result model: `field` of that model must be one of
    `values`. When it is not, the task is skipped (`condition_not_met`) and
    never runs; the answer says which way it went either way.
    """

    task: str
    """The id of the dependency whose result is tested (one of the task's `depends_on`)."""
    field: str
    """A field of that result's model the domain lets conditions test (`ConditionField`)."""
    values: tuple[str, ...] = Field(min_length=1)
    """The field's values for which the condition holds."""
    name: str = Field(pattern=r"^[a-z][a-z0-9_]{0,39}$")
    """The condition in the domain's words ("not_shipped"): what the answer and traces say."""


class Task(_Frozen):
    """One step of a plan: a role runs a skill with args once its deps succeed,
    or, for a goal task (`goal` set, `skill` empty), pursues the goal with its
    role agent through its whitelisted skills (`nodes.agent`)."""

    id: str
    role: str
    skill: str = ""
    args: dict[str, Any] = Field(default_factory=dict)
    depends_on: tuple[str, ...] = ()
    question: str | None = None  # tasks sharing a question are arbitrated
    when: Condition | None = None
    """Runs only if this holds of a dependency's result; else it is skipped, never run."""
    goal: str | None = None
    """What the role agent is to find out or do, in the planner's words (untrusted)."""
    changes: bool = False
    """Whether the goal's agent may call writes: a `react` turn's goal (the customer's
    whole request) may; a goal a planner hands out beside its plan only reads."""

    @model_validator(mode="after")
    def _skill_or_goal(self) -> Task:
        if self.goal is not None and (self.skill or not self.goal.strip()):
            raise ValueError("a goal task names a non-empty goal and no skill")
        if self.changes and self.goal is None:
            raise ValueError("only a goal task may be marked as making changes")
        return self

    def rewired(self, old: str, new: str) -> Task:
        """The task with dependency `old` replaced by `new`, its condition's too."""
        if old not in self.depends_on:
            return self
        deps = tuple(new if d == old else d for d in self.depends_on)
        when = self.when
        if when is not None and when.task == old:
            when = when.model_copy(update={"task": new})
        return self.model_copy(update={"depends_on": deps, "when": when})


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
    partial: bool = False
    """A role agent stopped at a bound (steps, repeats, tokens, time) before it was
    done: the payload holds what it found; refinement decides what follows."""


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


class ConfirmationRequest(_Frozen):
    """A call the customer must confirm in the conversation before it runs."""

    task_id: str
    skill: str
    args: dict[str, Any]
    """As the call would run (bound and normalised); what the question states."""
    args_hash: str


class Option(_Frozen):
    """One answer a clarification question offers: one of the customer's own records."""

    value: str
    """The slot value choosing it ("#W2611340")."""
    label: str
    """How the customer recognises it ("#W2611340 (pending: Keyboard, Mouse)")."""
    words: tuple[str, ...] = ()
    """Lower-cased words that single it out ("pending", "keyboard")."""


class Call(_Frozen):
    """One exact call a confirmation question asks about."""

    skill: str
    args_hash: str


class Question(_Frozen):
    """What a turn asked the customer; the next turn's answer is read against it.

    `request` is the request the question belongs to, with every reference already
    resolved: answering the question continues it (a clarification fills `slot`
    with the chosen option; an explicit yes runs exactly `calls`).
    """

    kind: Literal["clarify", "confirm"]
    text: str
    request: str
    slot: str | None = None
    options: tuple[Option, ...] = ()
    calls: tuple[Call, ...] = ()
    audit_id: str
    """The turn that asked."""
    asked: int = 1
    """How many turns in a row asked it (an unclear answer asks again, up to a bound)."""
    intents: tuple[Intent, ...] = ()
    """A confirmation's: the intents of the request it states. A yes goes on with them, not
    with a new reading of the request's words, which a model might read otherwise."""


class FocusEntity(_Frozen):
    """A record of the customer's the conversation has named or shown."""

    slot: str
    value: str
    turn: int


class Grant(_Frozen):
    """An operator's approval of one exact call, as the approved task runs it.

    It names one skill and the arguments it was approved with: a grant never
    carries over to another skill, and the runtime re-checks `args_hash`
    against the approvals table before the call runs.
    """

    skill_id: str
    args: dict[str, Any]
    """The arguments as approved (the operator's edit, else as asked)."""
    args_hash: str
    approval_id: str
    """The approval request this grant answers."""

    def approval(self) -> Approval:
        """The approval token the skill request carries."""
        return Approval(
            approval_id=self.approval_id, skill_id=self.skill_id, args_hash=self.args_hash
        )


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
