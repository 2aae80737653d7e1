"""LangChain v1's human-in-the-loop schema for rolegraph's approval interrupts.

A generic client written for `langchain.agents.middleware.HumanInTheLoopMiddleware`
reads an interrupt's `action_requests` (name, args, description) and
`review_configs` (action_name, allowed_decisions, args_schema) and resumes with
`{"decisions": [...]}`, one decision per action request, in order. The approval
node's interrupt value carries that shape beside rolegraph's own `requests`
(the typed `ApprovalRequest`s the CLI and inbox read), and a decision maps onto
rolegraph's `HumanDecision`: approve, edit (`edited_action`, same action name),
reject (optional message) and, for an escalation, respond (the operator's reply).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from nodes.contracts import ApprovalRequest, HumanDecision
from nodes.errors import AnswerRefused
from skills.contract import ParameterSpec
from skills.registry import SkillRegistry

DecisionType = Literal["approve", "edit", "reject", "respond"]
ESCALATION_ACTION = "escalation"
"""The action name of an escalation: a colleague's reply to the customer, no skill."""
_APPROVAL_DECISIONS: list[DecisionType] = ["approve", "edit", "reject"]
_ESCALATION_DECISIONS: list[DecisionType] = ["respond"]


class _Schema(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Action(_Schema):
    """An action as an edit names it: the skill and its arguments."""

    name: str
    args: dict[str, Any]


class ActionRequest(_Schema):
    """One request for review, as LangChain's `ActionRequest`."""

    name: str
    args: dict[str, Any]
    description: str


class ReviewConfig(_Schema):
    """What a reviewer may decide about one action, as LangChain's `ReviewConfig`."""

    action_name: str
    allowed_decisions: list[DecisionType]
    args_schema: dict[str, Any] | None = None


class ApproveDecision(_Schema):
    type: Literal["approve"]


class EditDecision(_Schema):
    type: Literal["edit"]
    edited_action: Action


class RejectDecision(_Schema):
    type: Literal["reject"]
    message: str | None = None


class RespondDecision(_Schema):
    type: Literal["respond"]
    message: str


Decision = Annotated[
    ApproveDecision | EditDecision | RejectDecision | RespondDecision, Field(discriminator="type")
]


class HITLResponse(_Schema):
    """A resume value in LangChain's shape: `{"decisions": [...]}`."""

    decisions: list[Decision]


def interrupt_value(
    pending: list[ApprovalRequest], registry: SkillRegistry | None = None
) -> dict[str, Any]:
    """The approval node's interrupt: LangChain's request shape plus rolegraph's `requests`."""
    return {
        "action_requests": [action_request(p).model_dump(mode="json") for p in pending],
        "review_configs": [
            review_config(p, registry).model_dump(mode="json", exclude_none=True) for p in pending
        ],
        "requests": [p.model_dump(mode="json") for p in pending],
    }


def requests_in(value: object) -> list[dict[str, Any]]:
    """Rolegraph's requests in an interrupt value (a bare list in older checkpoints)."""
    found = value.get("requests") if isinstance(value, dict) else value
    return [r for r in found if isinstance(r, dict)] if isinstance(found, list) else []


def action_request(request: ApprovalRequest) -> ActionRequest:
    """The request as a reviewer reads it: skill, arguments, reason and risk."""
    description = request.reason
    if request.risk:
        description += f" (risk: {request.risk})"
    if request.kind == "escalation" and request.evidence:
        description += "\n" + "\n".join(request.evidence)
    return ActionRequest(
        name=action_name(request), args=dict(request.args), description=description
    )


def review_config(request: ApprovalRequest, registry: SkillRegistry | None = None) -> ReviewConfig:
    """The decisions a request allows; an approval's edit is described by its skill's parameters."""
    skill = registry.lookup(request.skill) if registry and request.skill else None
    schema = None
    if request.kind == "approval" and skill is not None:
        schema = args_schema(skill.metadata.parameters, request)
    return ReviewConfig(
        action_name=action_name(request), allowed_decisions=allowed(request), args_schema=schema
    )


def action_name(request: ApprovalRequest) -> str:
    """The reviewed action: the skill of an approval, `escalation` for an escalation."""
    if request.kind == "escalation" or not request.skill:
        return ESCALATION_ACTION
    return request.skill


def allowed(request: ApprovalRequest) -> list[DecisionType]:
    """Approvals are approved, edited or rejected; an escalation gets a response."""
    return list(_ESCALATION_DECISIONS if request.kind == "escalation" else _APPROVAL_DECISIONS)


def args_schema(parameters: dict[str, ParameterSpec], request: ApprovalRequest) -> dict[str, Any]:
    """A JSON schema of the skill's arguments; the record it acts on is fixed (`const`)."""
    properties: dict[str, Any] = {}
    for name, spec in parameters.items():
        prop = {**_json_type(spec.type), "description": spec.description}
        if spec.target and name in request.args:
            prop["const"] = request.args[name]  # an edit never moves a call onto another record
        properties[name] = prop
    required = [n for n, spec in parameters.items() if spec.required]
    return {"type": "object", "properties": properties, "required": required}


def _json_type(declared: str) -> dict[str, Any]:
    if declared.startswith("array[") and declared.endswith("]"):
        return {"type": "array", "items": _json_type(declared[6:-1])}
    return {"type": declared}


def read_hitl(answer: dict[str, Any], pending: list[ApprovalRequest]) -> dict[str, HumanDecision]:
    """`{"decisions": [...]}` as rolegraph decisions by request id; edits as given
    (the caller normalises their arguments). Raises `AnswerRefused`."""
    try:
        response = HITLResponse.model_validate(answer)
    except ValidationError as exc:
        raise AnswerRefused(
            f"the decisions are not LangChain HITL decisions: {_first(exc)}"
        ) from exc
    if len(response.decisions) != len(pending):
        raise AnswerRefused(
            f"{len(response.decisions)} decision(s) for {len(pending)} action request(s);"
            " send one decision per action request, in order"
        )
    return {p.id: to_human(d, p) for d, p in zip(response.decisions, pending, strict=True)}


def to_human(decision: Decision, request: ApprovalRequest) -> HumanDecision:
    """One LangChain decision as rolegraph's, if the request allows it."""
    if decision.type not in allowed(request):
        raise AnswerRefused(
            f"{decision.type!r} is not allowed for {action_name(request)} ({request.id});"
            f" allowed: {', '.join(allowed(request))}"
        )
    if isinstance(decision, EditDecision):
        if decision.edited_action.name != action_name(request):
            raise AnswerRefused(
                f"an edit keeps the action {action_name(request)!r}; it cannot become"
                f" {decision.edited_action.name[:60]!r}"
            )
        if not decision.edited_action.args:
            raise AnswerRefused("an edit needs the edited args as a non-empty object")
        return HumanDecision(decision="edit", args=decision.edited_action.args)
    if isinstance(decision, RespondDecision):
        if not decision.message.strip():
            raise AnswerRefused("respond needs a message for the customer")
        return HumanDecision(decision="reply", message=decision.message)
    if isinstance(decision, RejectDecision):
        return HumanDecision(decision="reject", message=decision.message)
    return HumanDecision(decision="approve")


def _first(exc: ValidationError) -> str:
    error = exc.errors()[0]
    where = ".".join(str(p) for p in error["loc"])
    return f"{where}: {error['msg']}" if where else str(error["msg"])
