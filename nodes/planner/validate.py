"""Deterministic plan validation: a plan that fails here never runs.

Model-made and rules-made plans pass the same checks, so a model can never
widen what may run (a goal task goes only to a role with a model tier): unknown skills, skills outside the assigned role's
whitelist, dangling or cyclic dependencies, forbidden operations and
conditions the domain does not allow are rejected with typed errors.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from nodes.contracts import Plan, Task
from nodes.domain import ConditionField
from nodes.errors import PlanRejected
from skills.roles import RoleSpec

MAX_TASKS = 12
# Selectors of many records or raw queries, in any domain; a domain adds its own
# (`DomainPlanning.bulk_args`, e.g. a list of record ids).
FORBIDDEN_ARGS = frozenset({"all", "where", "sql", "filter", "user_ids"})


def validate_plan(
    plan: Plan,
    roles: Mapping[str, RoleSpec],
    known_skills: frozenset[str],
    user_id: str,
    *,
    bulk_args: Iterable[str],
    conditions: Iterable[ConditionField] = (),
) -> Plan:
    """Return the plan unchanged, or raise `PlanRejected` naming the first problem.

    `bulk_args` are the domain's argument names that select many records;
    `conditions` what a task's `when` may test (`DomainPlanning.condition_fields`).
    """
    forbidden = sorted(FORBIDDEN_ARGS | frozenset(bulk_args))
    if len(plan.tasks) > MAX_TASKS:
        raise PlanRejected("too_many_tasks", f"plan has {len(plan.tasks)} tasks (max {MAX_TASKS})")
    ids = [t.id for t in plan.tasks]
    if len(set(ids)) != len(ids):
        raise PlanRejected("duplicate_task", "plan repeats a task id")
    for task in plan.tasks:
        if task.goal is not None:
            _check_goal(task, roles)
            continue
        if task.skill not in known_skills:
            raise PlanRejected("unknown_skill", f"{task.id}: unknown skill {task.skill}")
        role = roles.get(task.role)
        if role is None:
            raise PlanRejected("unknown_role", f"{task.id}: unknown role {task.role}")
        if task.skill not in role.execute or task.skill in role.deny:
            raise PlanRejected(
                "not_whitelisted", f"{task.id}: {task.skill} not registered for role {task.role}"
            )
        for dep in task.depends_on:
            if dep not in ids:
                raise PlanRejected("unknown_dependency", f"{task.id}: depends on unknown {dep}")
        _check_scope(task.id, task.args, user_id, forbidden)
    allowed = tuple(conditions)
    for task in plan.tasks:
        _check_condition(task, plan, allowed)
    _check_acyclic(plan)
    return plan


def _check_goal(task: Task, roles: Mapping[str, RoleSpec]) -> None:
    # A goal goes to a role agent: a role with a model tier, whose runtime
    # whitelist bounds what the agent may call; it names no skill or args itself.
    role = roles.get(task.role)
    if role is None:
        raise PlanRejected("unknown_role", f"{task.id}: unknown role {task.role}")
    if role.model_tier == "rules":
        raise PlanRejected("not_an_agent", f"{task.id}: role {task.role} takes no goals")
    if task.args or task.when is not None:
        raise PlanRejected("bad_goal", f"{task.id}: a goal task takes no arguments or condition")


def _check_scope(
    task_id: str, args: Mapping[str, object], user_id: str, forbidden: list[str]
) -> None:
    # Bulk selectors and another customer's id are forbidden operations.
    for key in forbidden:
        if key in args:
            raise PlanRejected("forbidden", f"{task_id}: bulk argument {key!r} is not allowed")
    owner = args.get("user_id")
    if owner is not None and owner != user_id:
        raise PlanRejected("forbidden", f"{task_id}: touches another customer's data")


def _check_condition(task: Task, plan: Plan, allowed: tuple[ConditionField, ...]) -> None:
    # A condition tests a result the task waits for, in a field the domain lets
    # conditions test, for values that field takes.
    when = task.when
    if when is None:
        return
    if when.task not in task.depends_on:
        raise PlanRejected(
            "bad_condition", f"{task.id}: its condition tests {when.task}, not a dependency"
        )
    skill = plan.task(when.task).skill
    field = next((f for f in allowed if f.skill == skill and f.field == when.field), None)
    if field is None:
        raise PlanRejected(
            "bad_condition", f"{task.id}: a condition may not test {skill} {when.field!r}"
        )
    unknown = sorted(set(when.values) - set(field.values))
    if unknown:
        raise PlanRejected(
            "bad_condition", f"{task.id}: {when.field} never takes the value(s) {unknown[:3]}"
        )


def _check_acyclic(plan: Plan) -> None:
    deps = {t.id: set(t.depends_on) for t in plan.tasks}
    done: set[str] = set()
    while deps:
        ready = [t for t, d in deps.items() if d <= done]
        if not ready:
            raise PlanRejected("cycle", f"dependency cycle among {sorted(deps)}")
        for task_id in ready:
            done.add(task_id)
            del deps[task_id]
