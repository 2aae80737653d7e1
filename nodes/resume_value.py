"""An operator's resume value, read strictly against the requests that wait.

Two shapes answer an approval interrupt: rolegraph's map `{request_id:
{"decision": ..., "args"?, "message"?}}` (a bare decision when one request
waits), and LangChain v1's `{"decisions": [...]}`, one per action request in
order (`nodes.hitl`). Either way every answer must fit a pending request and
a decision that request allows, and edited arguments must satisfy the skill
and keep the record the request acts on; anything else is `AnswerRefused`,
one line saying what to send instead. The served graph refuses such a value
before its run starts (`graphs.auth`) and the Python API before it resumes
(`graphs.api`), so the client sees the error and the thread stays answerable.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from nodes.contracts import ApprovalRequest, HumanDecision
from nodes.errors import AnswerRefused
from nodes.hitl import read_hitl
from nodes.inputs import value_problem
from skills.errors import SkillError
from skills.registry import SkillRegistry

SHAPES = '{"decisions": [{"type": "approve"}, ...]} or {"<request id>": {"decision": "approve"}}'
"""The resume values an approval interrupt accepts, as error messages name them."""


def read_answer(
    answer: object, pending: list[ApprovalRequest], registry: SkillRegistry | None = None
) -> dict[str, HumanDecision]:
    """The decisions `answer` gives, by request id; raises `AnswerRefused`."""
    if not pending:
        raise AnswerRefused("nothing waits for a decision; there is no request to answer")
    if problem := value_problem(answer, name="the resume value"):
        raise AnswerRefused(problem)
    if isinstance(answer, dict) and "decisions" in answer:
        decisions = read_hitl(answer, pending)
    else:
        decisions = _by_id(answer, pending)
    by_id = {p.id: p for p in pending}
    return {rid: _with_edit_checked(d, by_id[rid], registry) for rid, d in decisions.items()}


def _by_id(answer: object, pending: list[ApprovalRequest]) -> dict[str, HumanDecision]:
    if len(pending) == 1 and (
        isinstance(answer, str) or (isinstance(answer, dict) and "decision" in answer)
    ):
        answer = {pending[0].id: answer}
    if not isinstance(answer, dict) or not answer:
        raise AnswerRefused(f"the resume value answers no pending request; send {SHAPES}")
    by_id = {p.id: p for p in pending}
    unknown = [str(k)[:40] for k in answer if k not in by_id]
    if unknown:
        raise AnswerRefused(
            f"no pending request {unknown[0]!r}; pending: {', '.join(by_id)} (or send {SHAPES})"
        )
    return {rid: _decision(raw, by_id[rid]) for rid, raw in answer.items()}


def _decision(raw: Any, request: ApprovalRequest) -> HumanDecision:
    try:
        decision = HumanDecision.model_validate({"decision": raw} if isinstance(raw, str) else raw)
    except ValidationError as exc:
        reason = str(exc.errors()[0]["msg"]).removeprefix("Value error, ")
        raise AnswerRefused(f"{request.id}: not a decision ({reason})") from exc
    if (request.kind == "escalation") != (decision.decision == "reply"):
        expected = (
            "reply with a message" if request.kind == "escalation" else "approve, reject or edit"
        )
        raise AnswerRefused(f"{request.id} is an {request.kind}; answer it with {expected}")
    return decision


def _with_edit_checked(
    decision: HumanDecision, request: ApprovalRequest, registry: SkillRegistry | None
) -> HumanDecision:
    if decision.decision != "edit" or registry is None:
        return decision
    edited = normalised_edit(registry, request, decision.args or {})
    if edited is None:
        raise AnswerRefused(
            f"the edited args are not valid for {request.skill}: pass every argument it needs"
            f" and keep the record it acts on, e.g. the request's own: {request.args}"
        )
    return decision.model_copy(update={"args": edited})


def normalised_edit(
    registry: SkillRegistry, request: ApprovalRequest, args: dict[str, Any]
) -> dict[str, Any] | None:
    """The edited arguments as the skill normalises them, or None if the skill
    refuses them or they name another record than the request did."""
    if request.skill is None:
        return None
    skill = registry.get(request.skill)
    try:
        edited = skill.executor.validate_input(args)
    except SkillError:
        return None
    targets = [n for n, spec in skill.metadata.parameters.items() if spec.target]
    if any(edited.get(n) != request.args.get(n) for n in targets):
        return None  # an edit never moves a call onto another record
    return edited
