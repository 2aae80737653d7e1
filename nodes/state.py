"""Graph state of the support graph (the contract between its nodes).

Values are plain JSON-shaped data (the `nodes.contracts` models dumped with
`model_dump(mode="json")`), so any checkpointer — ours, or the one
`langgraph dev` brings — stores and restores them without custom types.
Each channel is typed by a `TypedDict` mirror of its contract (the `…Data`
types below; `tests/unit/nodes/test_state.py` keeps them in step), and nodes
validate values back into contracts at their boundary.
"""

from __future__ import annotations

import operator
from typing import Annotated, Any, Literal, NotRequired, TypeVar, cast

from langchain_core.messages import AnyMessage, RemoveMessage
from langgraph.graph.message import add_messages
from langgraph.types import Overwrite
from pydantic import BaseModel

# pydantic (which builds the JSON schemas Studio shows) needs this TypedDict on Python < 3.12.
from typing_extensions import TypedDict

from nodes.contracts import Grant, Plan, TaskStatus, Tier

V = TypeVar("V")
RunStatus = Literal["completed", "failed", "refused", "needs_input"]
SlotValues = dict[str, list[str]]
"""Slot name -> value(s) as intake read them (untrusted customer text)."""


def merge(left: dict[str, V] | None, right: dict[str, V | None] | None) -> dict[str, V]:
    """Later writes win per key; a None value removes the key."""
    out = dict(left or {})
    for key, value in (right or {}).items():
        if value is None:
            out.pop(key, None)
        else:
            out[key] = value
    return out


class UnderstandingData(TypedDict):
    """`nodes.contracts.Understanding`, as stored."""

    text: str
    masked_text: str
    lang: Literal["en", "zh"]
    intents: list[str]
    slots: SlotValues
    injection: bool
    tier: Tier
    uncertain: list[str]
    plausible: list[str]
    targets: dict[str, list[str]]


class ConditionData(TypedDict):
    """`nodes.contracts.Condition`, as stored."""

    task: str
    field: str
    values: list[str]
    name: str


class TaskData(TypedDict):
    """`nodes.contracts.Task`, as stored."""

    id: str
    role: str
    skill: str
    args: dict[str, Any]
    depends_on: list[str]
    question: str | None
    when: ConditionData | None
    goal: str | None
    changes: bool


class PlanData(TypedDict):
    """`nodes.contracts.Plan`, as stored."""

    tasks: list[TaskData]
    rationale: str


class TaskOutcomeData(TypedDict):
    """`nodes.contracts.TaskOutcome`, as stored; `payload` is untrusted tool output."""

    task_id: str
    skill: str
    role: str
    status: TaskStatus
    payload: Any
    error_code: str | None
    error: str | None
    attempts: int
    notice: str | None
    partial: bool


class GrantData(TypedDict):
    """`nodes.contracts.Grant`, as stored."""

    skill_id: str
    args: dict[str, Any]
    args_hash: str
    approval_id: str


class ApprovalRequestData(TypedDict):
    """`nodes.contracts.ApprovalRequest`, as stored."""

    id: str
    kind: Literal["approval", "escalation"]
    task_id: str | None
    skill: str | None
    risk: str | None
    args: dict[str, Any]
    args_hash: str | None
    reason: str
    evidence: list[str]
    audit_id: str


class ConfirmationRequestData(TypedDict):
    """`nodes.contracts.ConfirmationRequest`, as stored."""

    task_id: str
    skill: str
    args: dict[str, Any]
    args_hash: str


class OptionData(TypedDict):
    """`nodes.contracts.Option`, as stored."""

    value: str
    label: str
    words: list[str]


class CallData(TypedDict):
    """`nodes.contracts.Call`, as stored."""

    skill: str
    args_hash: str


class QuestionData(TypedDict):
    """`nodes.contracts.Question`, as stored."""

    kind: Literal["clarify", "confirm"]
    text: str
    request: str
    slot: str | None
    options: list[OptionData]
    calls: list[CallData]
    audit_id: str
    asked: int
    intents: NotRequired[list[str]]


class FocusEntityData(TypedDict):
    """`nodes.contracts.FocusEntity`, as stored."""

    slot: str
    value: str
    turn: int


class HumanDecisionData(TypedDict):
    """`nodes.contracts.HumanDecision`, as stored."""

    decision: Literal["approve", "reject", "edit", "reply"]
    args: dict[str, Any] | None
    message: str | None


class ProposalData(TypedDict):
    """`nodes.contracts.Proposal`, as stored."""

    question: str
    role: str
    answer: str
    confidence: float
    evidence: list[str]


class DecisionData(TypedDict):
    """`nodes.contracts.Decision`, as stored."""

    question: str
    answer: str
    rule: Literal["adopt_confident", "weighted_vote", "single"]
    proposals: list[ProposalData]


class ReviewVerdictData(TypedDict):
    """`nodes.contracts.ReviewVerdict`, as stored."""

    approved: bool
    feedback: list[str]


class SupportInput(TypedDict, total=False):
    """One customer turn: `{"text": ...}`, or `{"messages": [...]}` as chat clients
    send it (the last human message is the turn's text)."""

    text: str
    user_id: str
    messages: Annotated[list[AnyMessage], add_messages]


class SupportState(TypedDict, total=False):
    # Conversation-scoped: carried from turn to turn (see `nodes.turn`).
    messages: Annotated[list[AnyMessage], add_messages]  # the customer's turns and the answers
    summary: str  # the turns compressed out of `messages` (`nodes.conversation`)
    customer: str  # the customer the thread belongs to: its first turn's
    turn: int  # turns started on this thread
    turn_message: str  # id of the customer message the current turn answers
    user_id: str
    focus: list[FocusEntityData]  # the customer's records named or shown, most recent first
    question: QuestionData | None  # what the last turn asked; the next turn answers it
    run_stamps: list[str]  # the served runs that started its latest turns (`nodes.turn`)
    # Turn-scoped: the turn node clears them at the start of every turn.
    text: str
    audit_id: str
    understanding: UnderstandingData
    refusal: str | None
    handoff: bool  # intake read an intent the domain hands to a human
    plan: PlanData
    outcomes: Annotated[dict[str, TaskOutcomeData], merge]  # task id -> outcome
    grants: Annotated[dict[str, GrantData], merge]  # task id -> approved call
    pending: Annotated[dict[str, ApprovalRequestData], merge]  # request id -> request
    confirmations: Annotated[dict[str, ConfirmationRequestData], merge]  # task id -> call
    asking: QuestionData | None  # the clarification this turn ends with
    followup: str | None  # what reading the answer to the last question meant, in words
    decided: Annotated[dict[str, HumanDecisionData], merge]  # request id -> decision
    decisions: Annotated[list[DecisionData], operator.add]  # arbitrated answers
    rounds: int
    replan: list[str] | None  # failed task ids the planner must plan around
    answer: str
    draft: str
    review: ReviewVerdictData
    revisions: int
    status: RunStatus
    human_reply: str | None
    memory: dict[str, str]  # recalled fact key -> winning value, most relevant first
    noted: list[str]  # sentences acknowledging facts this request stated
    trace: Annotated[list[str], operator.add]


class StateUpdate(TypedDict, total=False):
    """What a node returns: a partial `SupportState`; in the keyed channels a
    None value removes the key (see `merge`). None also clears a plain channel, and
    `Overwrite` replaces a list: the turn node starts every turn so."""

    messages: list[AnyMessage | RemoveMessage]  # RemoveMessage: compression
    summary: str
    customer: str
    turn: int
    turn_message: str
    user_id: str
    focus: list[FocusEntityData]
    question: QuestionData | None
    text: str
    audit_id: str
    run_stamps: list[str]
    understanding: UnderstandingData | None
    refusal: str | None
    handoff: bool | None
    plan: PlanData | None
    outcomes: dict[str, TaskOutcomeData | None]
    grants: dict[str, GrantData | None]
    pending: dict[str, ApprovalRequestData | None]
    confirmations: dict[str, ConfirmationRequestData | None]
    asking: QuestionData | None
    followup: str | None
    decided: dict[str, HumanDecisionData | None]
    decisions: list[DecisionData] | Overwrite
    rounds: int | None
    replan: list[str] | None
    answer: str | None
    draft: str | None
    review: ReviewVerdictData | None
    revisions: int | None
    status: RunStatus | None
    human_reply: str | None
    memory: dict[str, str] | None
    noted: list[str] | None
    trace: list[str] | Overwrite


class TaskInput(TypedDict):
    """What `dispatch` sends to a role node for one task."""

    task: TaskData
    user_id: str
    audit_id: str
    grant: GrantData | None
    results: dict[str, Any]
    """Dependency task id -> its payload (untrusted tool output)."""
    attempt: int
    paused: NotRequired[Any]
    """A goal task's role agent loop as it paused for an approval (`nodes.agent.pause`)."""


D = TypeVar("D")


def stored(model: BaseModel, shape: type[D]) -> D:
    """`model` as its JSON-shaped state mirror `shape` (the checkpoint stores JSON)."""
    return cast(D, model.model_dump(mode="json"))


def plan_of(state: SupportState) -> Plan:
    """The thread's current plan as a contract (empty before planning)."""
    return Plan.model_validate(state.get("plan") or {})


def grant_of(inp: TaskInput) -> Grant | None:
    """The approval the task runs under, if any (it names one exact call)."""
    raw = inp.get("grant")
    return Grant.model_validate(raw) if raw else None
