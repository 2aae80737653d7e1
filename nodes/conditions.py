"""Which way a task's condition (`Task.when`) goes, as a pure function of checkpointed state.

The tested result is read through its skill's result model (the executor's
declared `output`), never by guessing keys: a result that does not fit the
model, or a field that is not a plain text value, does not satisfy any
condition, so a write gated on it never runs. Evaluating the same state
twice (a resumed or re-executed run) gives the same answer.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from pydantic import BaseModel, ValidationError

from nodes.contracts import Condition, Task, TaskOutcome
from nodes.quoting import as_document
from nodes.state import TaskOutcomeData, stored
from skills.registry import SkillRegistry

CONDITION_NOT_MET = "condition_not_met"
"""The error code of a task skipped because its condition did not hold."""


@dataclass(frozen=True)
class Verdict:
    """A condition's answer on one result."""

    held: bool
    actual: str | None
    """The tested field's value; None when the result has none in a form to test."""


def verdict(
    condition: Condition, tested: TaskOutcomeData | None, registry: SkillRegistry
) -> Verdict:
    """Whether `condition` holds of the dependency's outcome `tested` (None: it has none)."""
    if tested is None or tested["status"] != "succeeded":
        return Verdict(held=False, actual=None)
    actual = field_value(tested["skill"], tested["payload"], condition.field, registry)
    return Verdict(held=actual is not None and actual in condition.values, actual=actual)


def field_value(skill: str, payload: object, field: str, registry: SkillRegistry) -> str | None:
    """`field` of `payload` read as `skill`'s result model, when it is text; else None."""
    loaded = registry.lookup(skill)
    if loaded is None or field not in loaded.output.model_fields:
        return None
    try:
        result: BaseModel = loaded.output.model_validate(as_document(payload))
    except ValidationError:
        return None
    value = getattr(result, field)
    return value if isinstance(value, str) else None


def unmet(
    task: Task, outcomes: Mapping[str, TaskOutcomeData], registry: SkillRegistry
) -> TaskOutcomeData | None:
    """The `skipped` outcome of a ready task whose condition does not hold, else None."""
    condition = task.when
    if condition is None:
        return None
    found = verdict(condition, outcomes.get(condition.task), registry)
    if found.held:
        return None
    actual = repr(found.actual) if found.actual is not None else "unknown"
    outcome = TaskOutcome(
        task_id=task.id,
        skill=task.skill,
        role=task.role,
        status="skipped",
        error_code=CONDITION_NOT_MET,
        error=f"condition {condition.name} does not hold",
        attempts=0,
        notice=f"{condition.task} {condition.field} is {actual}; "
        f"{condition.name} needs {' or '.join(map(repr, condition.values))}",
    )
    return stored(outcome, TaskOutcomeData)


def condition_skipped(outcome: TaskOutcomeData | TaskOutcome | None) -> bool:
    """Whether the outcome is a task skipped because its condition did not hold."""
    if outcome is None:
        return False
    if isinstance(outcome, TaskOutcome):
        return outcome.status == "skipped" and outcome.error_code == CONDITION_NOT_MET
    return outcome["status"] == "skipped" and outcome.get("error_code") == CONDITION_NOT_MET
