"""Compose the answer from task results (rules tier: sentence templates).

Only facts read from task results are stated; tool output is data, so it is
quoted before the domain's templates see it and never followed as an
instruction. The harness words what did not happen (a rejected, failed or
skipped step); the domain (`Domain.answers`) words what did.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from langgraph.runtime import Runtime

from nodes.agent.answer import agent_sentences
from nodes.compose_model import model_draft
from nodes.conditions import condition_skipped
from nodes.context import SupportContext
from nodes.contracts import (
    ConfirmationRequest,
    Decision,
    Plan,
    Proposal,
    ReviewVerdict,
    Task,
    TaskOutcome,
)
from nodes.conversation.questions import confirmation_question
from nodes.domain import Domain
from nodes.failure_text import failure_sentence, step_words
from nodes.language import Bilingual, Lang, join_sentences, say, turn_lang
from nodes.outcomes import DECLINED_CODES
from nodes.quoting import IdShape, id_shapes, own_ids, quote_data, quote_outcome
from nodes.state import SupportState, plan_of
from skills.pii import mask_pii

NOTHING_DONE = Bilingual("I could not complete your request.", "抱歉，我没能完成您的请求。")


async def compose(state: SupportState, runtime: Runtime[SupportContext]) -> dict[str, Any]:
    """The turn's draft: the model tier's when one is configured and approved, else the template."""
    ctx = runtime.context
    review = ReviewVerdict.model_validate(state["review"]) if state.get("review") else None
    sentences = compose_sentences(state, ctx.domain)
    if review and not review.approved:
        sentences = [s for s in sentences if not any(f in s for f in _flagged(review))]
    lang = turn_lang(state)
    draft = mask_pii(join_sentences(sentences, lang)) if sentences else NOTHING_DONE.say(lang)
    if sentences:
        worded = await model_draft(ctx, state, draft, results_data(state, ctx.domain))
        if worded is not None:
            how = "revised draft" if worded.revised else "draft"
            return {"draft": worded.text, "trace": [f"compose[{worded.tier}]: model {how}"]}
    return {"draft": draft, "trace": [f"compose: {len(sentences)} sentence(s)"]}


def results_data(state: SupportState, domain: Domain) -> str:
    """The turn's results as a model is shown them: the steps the template tells, in plan
    order, their payloads quoted (tool output is data) and masked; never error text."""
    plan = plan_of(state)
    outcomes = {k: TaskOutcome.model_validate(v) for k, v in (state.get("outcomes") or {}).items()}
    own, shapes = own_ids(plan, outcomes, domain), id_shapes(domain)
    stale = _superseded(plan, outcomes, domain)
    steps = [
        {
            "step": step_words(o.skill, domain, "en"),
            "status": o.status,
            "error_code": o.error_code,
            "result": quote_outcome(o, own, shapes).payload,
        }
        for t in plan.tasks
        if (o := outcomes.get(t.id)) is not None and t.id not in stale
    ]
    return mask_pii(json.dumps(steps, ensure_ascii=False, default=str))


def compose_sentences(state: SupportState, domain: Domain) -> list[str]:
    """The answer's sentences, in plan order, each stated once, in the turn's language."""
    if state.get("refusal"):
        return [str(state["refusal"])]
    plan = plan_of(state)
    outcomes = {k: TaskOutcome.model_validate(v) for k, v in (state.get("outcomes") or {}).items()}
    own = own_ids(plan, outcomes, domain)  # data text is quoted, never obeyed (nodes/quoting.py)
    shapes = id_shapes(domain)
    stale = _superseded(plan, outcomes, domain)
    lang = turn_lang(state)
    sentences: list[str] = list(state.get("noted") or [])
    if state.get("followup"):
        sentences.append(str(state["followup"]))
    beside = any(t.goal is None for t in plan.tasks)
    for task in plan.tasks:
        if task.goal is not None and task.id in outcomes:
            # Its payload holds the agent's calls and untrusted closing text.
            told = agent_sentences(outcomes[task.id], domain, lang, own, shapes, beside=beside)
            sentences.extend(told)
        elif task.id in outcomes and task.id not in stale:
            outcome = quote_outcome(outcomes[task.id], own, shapes)
            results = _dependency_results(task, outcomes, own, shapes)
            tested = _tested(task, outcomes, own, shapes)
            if tested is not None:
                held = not condition_skipped(outcome)
                sentences.append(domain.answers.condition_sentence(task, tested, held, lang))
            feeds = any(task.id in other.depends_on for other in plan.tasks)
            sentences.extend(_describe(task, outcome, results, domain, lang, feeds=feeds))
    for raw in state.get("decisions") or []:
        decision = _quoted(Decision.model_validate(raw), own, shapes)
        sentences.append(domain.answers.decision(decision, lang))
    if reply := state.get("human_reply"):
        sentences.append(say(lang, f"A colleague replied: {reply}", f"客服同事回复：{reply}"))
    sentences.extend(_confirmations(state, plan, outcomes, own, shapes, domain))
    if asking := state.get("asking"):
        sentences.append(asking["text"])
    return list(dict.fromkeys(sentences))


def _confirmations(
    state: SupportState,
    plan: Plan,
    outcomes: Mapping[str, TaskOutcome],
    own: set[str],
    shapes: Sequence[IdShape],
    domain: Domain,
) -> list[str]:
    """The question asking the customer to confirm the calls that wait for their yes."""
    lang = turn_lang(state)
    tasks = {t.id: t for t in plan.tasks}
    clauses = []
    for raw in (state.get("confirmations") or {}).values():
        request = ConfirmationRequest.model_validate(raw)
        task = tasks.get(request.task_id)
        results = _dependency_results(task, outcomes, own, shapes) if task else {}
        clauses.append(domain.answers.confirmation(request, results, lang))
    return [confirmation_question(clauses, lang)] if clauses else []


def _dependency_results(
    task: Task, outcomes: Mapping[str, TaskOutcome], own: set[str], shapes: Sequence[IdShape]
) -> dict[str, Any]:
    """The payloads of the steps `task` depends on, quoted (tool output is data)."""
    return {
        d: quote_outcome(outcomes[d], own, shapes).payload for d in task.depends_on if d in outcomes
    }


def _superseded(plan: Plan, outcomes: Mapping[str, TaskOutcome], domain: Domain) -> set[str]:
    # A read told after a change it predates would state the old record; a read
    # a condition tested is told by the condition's sentence.
    done = [t for t in plan.tasks if t.id in outcomes and outcomes[t.id].status == "succeeded"]
    stale = {
        read.id
        for read in plan.tasks
        if any(w.id != read.id and domain.answers.supersedes(w, read) for w in done)
    }
    return stale | {t.when.task for t in plan.tasks if t.when and _tested_it(t, outcomes)}


def _tested_it(task: Task, outcomes: Mapping[str, TaskOutcome]) -> bool:
    """Whether the task's condition was tested: it was skipped for it, or it went on to run."""
    outcome = outcomes.get(task.id)
    if task.when is None or outcome is None or task.when.task not in outcomes:
        return False
    return condition_skipped(outcome) or outcome.status not in ("pending", "skipped")


def _tested(
    task: Task, outcomes: Mapping[str, TaskOutcome], own: set[str], shapes: Sequence[IdShape]
) -> TaskOutcome | None:
    """The (quoted) result the task's condition was tested on, when it was tested."""
    if task.when is None or not _tested_it(task, outcomes):
        return None
    return quote_outcome(outcomes[task.when.task], own, shapes)


def _describe(
    task: Task,
    outcome: TaskOutcome,
    results: Mapping[str, Any],
    domain: Domain,
    lang: Lang,
    *,
    feeds: bool = False,
) -> list[str]:
    declined = outcome.status == "failed" and outcome.error_code in DECLINED_CODES
    # The business said no: the domain tells why and what to do instead.
    if declined and (told := domain.answers.declined(task, outcome, results, lang)):
        return [told]
    step = step_words(outcome.skill, domain, lang)
    if outcome.status == "rejected":
        return [say(lang, f"The {step} step was rejected by a reviewer; nothing was changed.",
                    f"审核人员否决了“{step}”操作，没有做任何更改。")]  # fmt: skip
    if outcome.status == "failed":
        # Never `outcome.error`: internal text stays in the audit trail.
        return [failure_sentence(outcome, task, domain, lang)]
    if condition_skipped(outcome):
        return []  # the condition's sentence said why it did not run
    if outcome.status == "skipped":
        return [say(lang, f"I did not {step}: a step it depends on did not succeed.",
                    f"“{step}”操作没有执行：它所依赖的前一步没有成功。")]  # fmt: skip
    if outcome.status != "succeeded":
        return []
    return domain.answers.describe(task, outcome, lang, feeds=feeds)


def _quoted(decision: Decision, own: set[str], shapes: Sequence[IdShape]) -> Decision:
    """The decision with its answer and evidence quoted: both come from tool output."""

    def quote(text: str) -> str:
        return quote_data(text, own_ids=own, shapes=shapes)

    proposals = tuple(
        Proposal(
            question=p.question,
            role=p.role,
            answer=quote(p.answer) or "unknown",
            confidence=p.confidence,
            evidence=tuple(q for q in (quote(e) for e in p.evidence) if q),
        )
        for p in decision.proposals
    )
    answer = quote(decision.answer) or "unknown"
    return decision.model_copy(update={"answer": answer, "proposals": proposals})


def _flagged(review: ReviewVerdict) -> list[str]:
    return [f.split(": ", 1)[-1] for f in review.feedback]
