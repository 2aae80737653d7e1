"""Which steps that did not happen were the business saying no, not the system failing.

A write the domain refuses for a business reason — its precondition
(`DomainPlanning.check_preconditions`: the record is in the wrong state), a value
the customer gave that their records cannot supply (`nodes.errors.UnusableValue`:
no PayPal on file, an address not written as one), or the
skill's own business error (`skills.errors.DomainError` and its kinds: the
state does not allow it, no such record on the account) — is a *declined*
step: the run completes and the answer says why, and what to do instead
(`DomainAnswers.declined`). Every other failure (timeouts, an open breaker, an
invalid result, a binding the run could not fill, an unknown outcome) is the
system failing, and only those make a run `failed`.

Why an error-code class and not a new `TaskStatus`: a declined step is still a
step that did not happen, and everything the graph does about that is already
right for it — dispatch skips the steps that depend on it, refine retries only
transient codes (`nodes.refine.TRANSIENT`), the skill chain never retries a
`DomainError`, and a precondition fails before the confirmation and approval
gates are reached, so nobody is asked about a change that cannot happen. What
differs is only the run's status and the answer's wording, and the error code
the outcome already carries says which applies. A new status would have to be
taught to every reader of task statuses (dispatch, refine, review, compose,
conversation records) for no behaviour they need.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from nodes.contracts import Task
from nodes.errors import UnusableValue
from nodes.state import TaskOutcomeData
from skills.errors import DomainError, OwnershipError, RecordNotFound
from skills.registry import SkillRegistry

PRECONDITION_FAILED = "precondition_failed"
DECLINED_CODES = frozenset(
    {
        PRECONDITION_FAILED,
        UnusableValue.code,
        DomainError.code,
        RecordNotFound.code,
        OwnershipError.code,
    }
)
"""Error codes of a business refusal: the step's answer is "no", and it is final."""


def is_declined(outcome: TaskOutcomeData, registry: SkillRegistry) -> bool:
    """Whether `outcome` is a write the business refused (never retried, never the system's fault)."""
    return (
        outcome["status"] == "failed"
        and outcome["error_code"] in DECLINED_CODES
        and registry.is_side_effect(outcome["skill"])
    )


def declined_ids(
    tasks: Iterable[Task], outcomes: Mapping[str, TaskOutcomeData], registry: SkillRegistry
) -> set[str]:
    """Declined steps, and the steps skipped only because of one (they did not fail either)."""
    found = {k for k, o in outcomes.items() if is_declined(o, registry)}
    skipped = {t.id: t for t in tasks if _status(outcomes, t.id) == "skipped"}
    grew = True
    while grew:
        grew = False
        for task_id, task in skipped.items():
            blockers = [d for d in task.depends_on if _status(outcomes, d) != "succeeded"]
            if task_id not in found and blockers and all(d in found for d in blockers):
                found.add(task_id)
                grew = True
    return found


def _status(outcomes: Mapping[str, TaskOutcomeData], task_id: str) -> str | None:
    outcome = outcomes.get(task_id)
    return outcome["status"] if outcome else None
