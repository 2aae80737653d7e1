"""Replanning from the current state when a step cannot be retried or substituted.

A failed step whose skill declares `replan_with` in its `metadata.yaml` is
replaced in the plan by that lesser step on the same record (a tracking
service is down, so the record's own read answers instead). Steps that
already ran keep their ids and outcomes, so nothing is run twice; only the
replaced step's dependents are pointed at its replacement and reopened.
"""

from __future__ import annotations

from nodes.contracts import Plan, Task
from skills.contract import Replacement
from skills.registry import SkillRegistry


def replacement_of(task: Task, registry: SkillRegistry) -> Replacement | None:
    """The declared replacement of the task's skill, if the task has its args."""
    skill = registry.lookup(task.skill)
    replacement = skill.metadata.replan_with if skill else None
    if replacement is None or any(a not in task.args for a in replacement.args):
        return None
    return replacement


def can_replan(task: Task, registry: SkillRegistry) -> bool:
    return replacement_of(task, registry) is not None


def revise_plan(
    plan: Plan, failed_ids: list[str], registry: SkillRegistry
) -> tuple[Plan, set[str]]:
    """The plan with each failed step's dependents moved to a replacement step.

    Returns the revised plan and the ids of tasks whose dependencies changed.
    Failed steps without a declared replacement are left as they are.
    """
    tasks = list(plan.tasks)
    moved: set[str] = set()
    for failed_id in failed_ids:
        failed = next(t for t in tasks if t.id == failed_id)
        replacement = replacement_of(failed, registry)
        if replacement is None:
            continue
        step = _existing(tasks, failed, replacement) or _new_step(failed, replacement)
        if step not in tasks:
            tasks.append(step)
        for i, task in enumerate(tasks):
            if failed_id in task.depends_on:
                tasks[i] = task.rewired(failed_id, step.id)
                moved.add(task.id)
    return plan.model_copy(
        update={"tasks": tuple(tasks), "rationale": plan.rationale + "; replanned"}
    ), moved


def _args(failed: Task, replacement: Replacement) -> dict[str, object]:
    return {name: failed.args[name] for name in replacement.args}


def _existing(tasks: list[Task], failed: Task, replacement: Replacement) -> Task | None:
    args = _args(failed, replacement)
    return next(
        (
            t
            for t in tasks
            if t.skill == replacement.skill
            and t.role == replacement.role
            and all(t.args.get(k) == v for k, v in args.items())
        ),
        None,
    )


def _new_step(failed: Task, replacement: Replacement) -> Task:
    return Task(
        id=f"{failed.id}r",
        role=replacement.role,
        skill=replacement.skill,
        args=_args(failed, replacement),
    )
