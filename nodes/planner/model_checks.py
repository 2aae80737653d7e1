"""Cross-check a model's plan against the domain and the rules-tier plan.

A schema-valid plan is still untrusted. On top of `validate_plan` (known
skills, role whitelists, cycles, bulk args, the session user):

- every value shaped like one of the domain's owned record ids (its
  `identifier` slots with `owned`) must be one the customer wrote (intake
  already checked they own it), every `user_id` the session user;
- skills the domain keeps from planners (`unplannable`) are refused;
- only the `bind:` markers the domain knows (`is_marker`) are allowed;
- every step's arguments pass its skill's own `validate_input` (a step whose
  arguments are filled from earlier results at run time must at least name
  every required parameter), so a plan that drops what a skill needs is
  rejected here rather than failing step by step at run time;
- writes are the customer's, not the model's: each write must be a copy of
  a rules-plan write (same skill, args, the same lookups as dependencies and
  the same condition on the same lookup) and every rules-plan write must be
  there;
- the rules plan's reads are the floor of the answer: every one must be in
  the model's plan (same role, skill and arguments). A model may only reorder
  reads and add grounded ones, so a weak model cannot drop the read that
  answers the question.

Any failure raises `ModelOutputInvalid`, so the ladder tries the next tier.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from nodes.contracts import Condition, Plan, Task, Tier, Understanding
from nodes.domain import Domain, DomainPlanning
from nodes.errors import BindingError, ModelOutputInvalid, PlanRejected
from nodes.planner.binding import bind_args, marker_of
from nodes.planner.goals import MAX_GOAL_CHARS, goal_plan
from nodes.planner.validate import MAX_TASKS, validate_plan
from skills.errors import SkillError
from skills.pii import mask_pii
from skills.registry import LoadedSkill, SkillRegistry
from skills.roles import RoleSpec

NODE = "planner"
ArgValue = str | int | float | bool | None | list[str]


class _Strict(BaseModel):
    # Unlike intake replies, extra keys are refused: a plan step with an
    # unexpected field ("approved": true) is not something to ignore.
    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)


class PlanReplyCondition(_Strict):
    """A step's condition as a model writes it (`nodes.contracts.Condition`)."""

    task: str = Field(max_length=16)
    field: str = Field(max_length=60)
    values: tuple[str, ...] = Field(min_length=1, max_length=10)
    name: str = Field(max_length=40)


class PlanReplyTask(_Strict):
    id: str = Field(pattern=r"^[A-Za-z][A-Za-z0-9_-]{0,15}$")
    role: str = Field(max_length=60)
    skill: str = Field(default="", max_length=80)
    goal: str | None = Field(default=None, max_length=MAX_GOAL_CHARS)
    """A goal for the role's agent instead of a skill (`nodes.planner.goals`)."""
    args: dict[str, ArgValue] = Field(default_factory=dict, max_length=10)
    depends_on: tuple[str, ...] = Field(default=(), max_length=MAX_TASKS)
    when: PlanReplyCondition | None = None


class PlanReply(_Strict):
    """A model's plan (untrusted)."""

    tasks: tuple[PlanReplyTask, ...] = Field(min_length=1, max_length=MAX_TASKS)


def check_model_plan(
    reply: PlanReply,
    *,
    rules: Plan,
    understanding: Understanding,
    domain: Domain,
    roles: Mapping[str, RoleSpec],
    registry: SkillRegistry,
    user_id: str,
    tier: Tier,
    agents: frozenset[str] = frozenset(),
    keeps_reads: bool = True,
) -> Plan:
    """The model's plan as a `Plan`, or `ModelOutputInvalid` naming the first problem.

    `keeps_reads`: every read of the rules plan must be in it (False for a replan,
    which routes around reads that failed).

    `agents` are the roles that may take a goal (`nodes.planner.goals`)."""
    if any(t.goal is not None for t in reply.tasks):
        return _goal(reply, rules, agents, registry, tier)
    try:
        tasks = tuple(_task(t, rules) for t in reply.tasks)
    except ValidationError as exc:
        raise ModelOutputInvalid(NODE, f"condition: {exc.errors()[0]['msg']}") from exc
    plan = Plan(tasks=tasks, rationale=f"{tier} model plan")
    planning = domain.planning
    try:
        known = frozenset(registry.skill_ids)
        validate_plan(
            plan,
            roles,
            known,
            user_id,
            bulk_args=planning.bulk_args,
            conditions=planning.condition_fields,
        )
    except PlanRejected as exc:
        raise ModelOutputInvalid(NODE, f"{exc.code}: {exc}") from exc
    for task in tasks:
        _check_args(task, understanding, domain, registry, user_id)
        check_inputs(task, registry.get(task.skill), planning)
    _check_writes(plan, rules, registry)
    if keeps_reads:
        _check_reads_kept(plan, rules)
    return plan


def _goal(
    reply: PlanReply, rules: Plan, agents: frozenset[str], registry: SkillRegistry, tier: Tier
) -> Plan:
    (task, *rest) = reply.tasks
    if rest or task.skill or task.args or task.depends_on or task.when:
        raise ModelOutputInvalid(NODE, "a goal plan is one task with a role and a goal only")
    return goal_plan(
        task.id,
        task.role,
        task.goal or "",
        rules=rules,
        agents=agents,
        registry=registry,
        tier=tier,
    )


def _task(reply: PlanReplyTask, rules: Plan) -> Task:
    # A step the rules plan also has keeps the rules' real (unmasked) args and
    # its arbitration question: both are ours, not the model's.
    twin = next((t for t in rules.tasks if signature(t) == _signature(reply)), None)
    return Task(
        id=reply.id,
        role=reply.role,
        skill=reply.skill,
        args=dict(twin.args if twin else reply.args),
        depends_on=reply.depends_on,
        question=twin.question if twin else None,
        when=Condition.model_validate(reply.when.model_dump()) if reply.when else None,
    )


def _check_args(
    task: Task, understanding: Understanding, domain: Domain, registry: SkillRegistry, user_id: str
) -> None:
    if task.skill in domain.planning.unplannable:
        raise ModelOutputInvalid(NODE, f"{task.id}: {task.skill} is not for planners")
    _check_owned_ids(task, understanding, domain)
    if "user_id" in task.args and task.args["user_id"] != user_id:
        raise ModelOutputInvalid(NODE, f"{task.id}: another customer's user id")
    for value in _strings(task.args.values()):
        marker = marker_of(value)
        if marker is not None and not domain.planning.is_marker(marker):
            raise ModelOutputInvalid(NODE, f"{task.id}: unknown marker {value[:40]!r}")
    if not registry.is_side_effect(task.skill):
        params = set(registry.get(task.skill).metadata.parameters)
        unknown = sorted(set(task.args) - params)
        if unknown:
            raise ModelOutputInvalid(NODE, f"{task.id}: unknown argument(s) {unknown[:3]}")


def _check_owned_ids(task: Task, understanding: Understanding, domain: Domain) -> None:
    """A value shaped like an owned record id must be one the request named."""
    for spec in domain.understanding.slots:
        pattern = spec.compiled() if spec.kind == "identifier" and spec.owned else None
        if pattern is None:
            continue
        named = set(understanding.slot(spec.name))
        for value in _strings(task.args.values()):
            if pattern.fullmatch(value) and value not in named:
                raise ModelOutputInvalid(NODE, f"{task.id}: {spec.name} value not in the request")


def check_inputs(task: Task, skill: LoadedSkill, planning: DomainPlanning) -> None:
    """`ModelOutputInvalid` unless the step's arguments are ones its skill accepts."""
    plain = {k: v for k, v in task.args.items() if not _is_marker(v)}
    try:
        # Bound as the role node will bind them (values in the skill's shape).
        bound = bind_args(planning, task.skill, plain, {})
        if len(plain) == len(task.args):
            skill.executor.validate_input(bound)
            return
    except (SkillError, BindingError, TypeError, ValueError, KeyError) as exc:
        raise ModelOutputInvalid(NODE, f"{task.id}: {task.skill} arguments: {exc}") from exc
    # Some values come from earlier results at run time: what can be checked
    # now is that every required parameter is given, as a value or a marker.
    given = set(bound) | {k for k, v in task.args.items() if _is_marker(v)}
    params = skill.metadata.parameters
    missing = sorted(n for n, p in params.items() if p.required and n not in given)
    if missing:
        raise ModelOutputInvalid(NODE, f"{task.id}: {task.skill} lacks {missing[:3]}")


def _is_marker(value: Any) -> bool:
    return marker_of(value) is not None


def _check_writes(plan: Plan, rules: Plan, registry: SkillRegistry) -> None:
    wanted = [write_key(t, rules) for t in rules.tasks if registry.is_side_effect(t.skill)]
    made = [write_key(t, plan) for t in plan.tasks if registry.is_side_effect(t.skill)]
    for key in made:
        if key not in wanted:
            raise ModelOutputInvalid(NODE, f"a write the customer did not ask for: {key[0]}")
    if sorted(map(repr, made)) != sorted(map(repr, wanted)):
        raise ModelOutputInvalid(NODE, "the plan drops or repeats a requested change")


def _check_reads_kept(plan: Plan, rules: Plan) -> None:
    # The rules' reads are the floor of what the answer states: a model may add reads
    # and reorder them, never drop or alter one (a weak model would drop the one that
    # answers the question).
    made = Counter(signature(t) for t in plan.tasks)
    for task in rules.tasks:
        key = signature(task)
        if made[key] == 0:
            raise ModelOutputInvalid(NODE, f"the plan drops a planned read: {task.skill}")
        made[key] -= 1


def write_key(task: Task, plan: Plan) -> tuple[Any, ...]:
    """What a write runs, on what it depends (by what those run) and on what condition,
    PII-masked."""
    deps = sorted(repr(signature(plan.task(d))) for d in task.depends_on)
    return (*signature(task), tuple(deps), _condition_key(task, plan))


def _condition_key(task: Task, plan: Plan) -> tuple[str, ...] | None:
    # The tested lookup by what it runs: a model's ids are not the rules plan's.
    when = task.when
    if when is None:
        return None
    tested = repr(signature(plan.task(when.task)))
    return (tested, when.field, *sorted(when.values), when.name)


def signature(task: Task) -> tuple[str, str, str]:
    """A step by what it runs, independent of ids; values masked as models see them."""
    return (task.role, task.skill, repr(sorted(masked_args(task.args).items())))


def _signature(reply: PlanReplyTask) -> tuple[str, str, str]:
    return (reply.role, reply.skill, repr(sorted(masked_args(reply.args).items())))


def masked_args(args: Mapping[str, Any]) -> dict[str, Any]:
    """Args with e-mails, cards and phones masked: what a model is shown."""
    return {k: _masked(v) for k, v in args.items()}


def _masked(value: Any) -> Any:
    if isinstance(value, str):
        return mask_pii(value)
    if isinstance(value, list | tuple):
        return [_masked(v) for v in value]
    return value


def _strings(values: Iterable[Any]) -> Iterable[str]:
    for value in values:
        if isinstance(value, str):
            yield value
        elif isinstance(value, list):
            yield from (v for v in value if isinstance(v, str))
