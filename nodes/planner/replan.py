"""Replanning from the current state when a step cannot be retried or substituted.

A failed step whose question a lesser step can still answer is replaced in the
plan: the tracking service is down, so the order's own record (status,
fulfillments, tracking numbers) answers instead. Steps that already ran keep
their ids and outcomes, so nothing is run twice; only the replaced step's
dependents are pointed at its replacement and reopened.
"""

from __future__ import annotations

from nodes.contracts import Plan, Task

# failed skill -> (role, skill) that answers the same question about the same order
ALTERNATIVES: dict[str, tuple[str, str]] = {
    "track_shipment_v1": ("order_query", "get_order_details_v1"),
    "calculate_eta_v1": ("order_query", "get_order_details_v1"),
    "detect_delay_pattern_v1": ("order_query", "get_order_details_v1"),
}


def can_replan(task: Task) -> bool:
    return task.skill in ALTERNATIVES and "order_id" in task.args


def revise_plan(plan: Plan, failed_ids: list[str]) -> tuple[Plan, set[str]]:
    """The plan with each failed step's dependents moved to a replacement step.

    Returns the revised plan and the ids of tasks whose dependencies changed.
    """
    tasks = list(plan.tasks)
    moved: set[str] = set()
    for failed_id in failed_ids:
        failed = next(t for t in tasks if t.id == failed_id)
        replacement = _existing(tasks, failed) or _new_step(tasks, failed)
        if replacement not in tasks:
            tasks.append(replacement)
        for i, task in enumerate(tasks):
            if failed_id in task.depends_on:
                deps = tuple(replacement.id if d == failed_id else d for d in task.depends_on)
                tasks[i] = task.model_copy(update={"depends_on": deps})
                moved.add(task.id)
    return plan.model_copy(
        update={"tasks": tuple(tasks), "rationale": plan.rationale + "; replanned"}
    ), moved


def _existing(tasks: list[Task], failed: Task) -> Task | None:
    role, skill = ALTERNATIVES[failed.skill]
    order_id = failed.args["order_id"]
    return next(
        (
            t
            for t in tasks
            if t.skill == skill and t.role == role and t.args.get("order_id") == order_id
        ),
        None,
    )


def _new_step(tasks: list[Task], failed: Task) -> Task:
    role, skill = ALTERNATIVES[failed.skill]
    return Task(
        id=f"{failed.id}r", role=role, skill=skill, args={"order_id": failed.args["order_id"]}
    )
