"""tau2 conformance replay: ground-truth calls through the skill runtime, hash compared.

The tau2 data is loaded once into a template database; a few workers each
copy it (`CREATE DATABASE ... TEMPLATE`) and run tasks on their copy one
after another, putting back every document a task changed before the next
one starts (see `reset`). Measured per task: a reload 1.5 s, a template copy
plus drop 2-3 s on a busy server, a reset under 0.1 s. Calls go through `SkillRuntime.call` exactly
as an operator's would (no session user, so no ownership filter) under a
replay role allowed the tau2 tools only, each high-risk call carrying an
approval of its exact normalised arguments.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path

from checkpoints import approvals
from checkpoints.database import DatabaseTarget
from checkpoints.opening import Pool, open_database
from checkpoints.pool import open_pool
from checkpoints.scratch import database_name, scratch_database
from checkpoints.settings import PoolSettings
from domains.retail.storage.canonical import canonical_hash, export_canonical
from domains.retail.storage.loader import load_tau2
from domains.retail.storage.records import JsonDict
from domains.retail.tools.reset import reset_documents
from domains.retail.tools.tau2_tasks import Action, Tau2Task
from nodes.domain import load_domain
from skills.context import RuntimeContext
from skills.contract import Approval, SkillRequest
from skills.errors import ApprovalRequired, SkillValidationError
from skills.hashing import args_hash
from skills.registry import LoadedSkill, SkillRegistry, load_catalog
from skills.runtime import SkillRuntime

CATALOG = Path(__file__).resolve().parent.parent / "catalog"
REPLAY_ROLE = "tau2_replay"
REPLAY_OPERATOR = "tau2-replay"
TAU2_TOOLS = frozenset(
    {
        "calculate_v1",
        "cancel_pending_order_v1",
        "exchange_delivered_order_items_v1",
        "find_user_id_by_email_v1",
        "find_user_id_by_name_zip_v1",
        "get_item_details_v1",
        "get_order_details_v1",
        "get_product_details_v1",
        "get_user_details_v1",
        "list_all_product_types_v1",
        "modify_pending_order_address_v1",
        "modify_pending_order_items_v1",
        "modify_pending_order_payment_v1",
        "modify_user_address_v1",
        "return_delivered_order_items_v1",
        "transfer_to_human_agents_v1",
    }
)


@dataclass(frozen=True)
class ReplayRole:
    """The operator role of a replay: the tau2 tools, nothing else."""

    name: str = REPLAY_ROLE
    execute: frozenset[str] = TAU2_TOOLS
    deny: frozenset[str] = frozenset()
    read: frozenset[str] = frozenset()

    def required_context(self, skill_id: str) -> tuple[str, ...]:
        """None: an operator replays recorded calls, with no customer session."""
        return ()


@dataclass(frozen=True)
class CallOutcome:
    """One replayed call: did it succeed, and did the reference fail on it?"""

    name: str
    ok: bool
    error_code: str | None
    reference_error: bool | None

    @property
    def agrees(self) -> bool:
        return self.reference_error is None or self.reference_error == (not self.ok)


@dataclass(frozen=True)
class TaskOutcome:
    task_id: str
    final_hash: str
    expected_hash: str | None
    calls: tuple[CallOutcome, ...] = field(default=())

    @property
    def passed(self) -> bool:
        return self.expected_hash is None or self.final_hash == self.expected_hash

    def describe(self) -> str:
        """One line: task id, final hash, verdict, call counts."""
        verdict = "-" if self.expected_hash is None else ("ok" if self.passed else "MISMATCH")
        errors = sum(not c.ok for c in self.calls)
        disagree = sum(not c.agrees for c in self.calls)
        note = f" ({len(self.calls)} calls, {errors} errors"
        note += f", {disagree} differ from the reference)" if disagree else ")"
        return f"task {self.task_id}: {self.final_hash} {verdict}{note}"


@dataclass(frozen=True)
class ReplayReport:
    tasks: tuple[TaskOutcome, ...]

    @property
    def passed(self) -> int:
        return sum(t.passed for t in self.tasks)

    @property
    def failed(self) -> int:
        return len(self.tasks) - self.passed

    def hashes(self) -> dict[str, str]:
        return {t.task_id: t.final_hash for t in self.tasks}


async def replay_tasks(
    server: DatabaseTarget,
    tasks: Sequence[Tau2Task],
    db_path: Path,
    *,
    catalog: Path = CATALOG,
    concurrency: int = 4,
    on_task: Callable[[TaskOutcome], None] | None = None,
) -> ReplayReport:
    """Replay every task on a fresh copy of `db_path`; `on_task` sees results in task order."""
    registry = load_catalog(catalog)
    queue: asyncio.Queue[int] = asyncio.Queue()
    for index in range(len(tasks)):
        queue.put_nowait(index)
    done: list[asyncio.Future[TaskOutcome]] = [asyncio.Future() for _ in tasks]
    async with _template(server, db_path) as (template, initial):
        workers = [
            asyncio.ensure_future(_worker(server, template, initial, registry, tasks, queue, done))
            for _ in range(max(1, min(concurrency, len(tasks))))
        ]
        try:
            outcomes = []
            for future in done:
                outcomes.append(await future)
                if on_task is not None:
                    on_task(outcomes[-1])
        finally:
            for worker in workers:
                worker.cancel()
            await asyncio.gather(*workers, return_exceptions=True)
    return ReplayReport(tuple(outcomes))


@asynccontextmanager
async def _template(server: DatabaseTarget, db_path: Path) -> AsyncIterator[tuple[str, JsonDict]]:
    """A database holding the loaded tau2 data (and every migration), and its export."""
    async with scratch_database(server, "rg_tau2_template") as target:
        migrations = (load_domain("retail").migrations,)
        async with (
            open_database(target=target, migrations=migrations) as db,
            db.pool.connection() as conn,
        ):
            await load_tau2(conn, db_path)
            initial = await export_canonical(conn)
        # Closed before use: a template database must have no open connections.
        yield database_name(target), initial


async def _worker(
    server: DatabaseTarget,
    template: str,
    initial: JsonDict,
    registry: SkillRegistry,
    tasks: Sequence[Tau2Task],
    queue: asyncio.Queue[int],
    done: list[asyncio.Future[TaskOutcome]],
) -> None:
    """One database copy; tasks run on it one after another, reset to `initial` between."""
    async with scratch_database(server, "rg_tau2_copy", template=template) as target:
        pool = await open_pool(target, settings=PoolSettings(size=2))
        try:
            while not queue.empty():
                index = queue.get_nowait()
                try:
                    done[index].set_result(await _replay_one(pool, initial, registry, tasks[index]))
                except Exception as exc:  # noqa: BLE001 — handed to the task's future, re-raised by the caller
                    done[index].set_exception(exc)
                    return
        finally:
            await pool.close()


async def _replay_one(
    pool: Pool, initial: JsonDict, registry: SkillRegistry, task: Tau2Task
) -> TaskOutcome:
    runtime = SkillRuntime(registry, {REPLAY_ROLE: ReplayRole()}, RuntimeContext(pool=pool))
    run_id = f"tau2-replay-{uuid.uuid4().hex[:8]}"
    calls = [
        await _call(runtime, registry, pool, run_id, f"{task.task_id}/{step}", step, action)
        for step, action in enumerate(task.actions)
    ]
    async with pool.connection() as conn:
        final = await export_canonical(conn)
        await reset_documents(conn, initial, final)
    return TaskOutcome(task.task_id, canonical_hash(final), task.expected_hash, tuple(calls))


async def _call(
    runtime: SkillRuntime,
    registry: SkillRegistry,
    pool: Pool,
    run_id: str,
    task_id: str,
    step: int,
    action: Action,
) -> CallOutcome:
    skill = registry.lookup(action.name)
    approval = _approval(skill, action, f"{run_id}:{task_id}") if skill else None
    if approval is not None:
        await _approve(pool, approval, task_id)
    request = SkillRequest(
        skill_id=skill.skill_id if skill else action.name,
        args=action.arguments,
        role=REPLAY_ROLE,
        operator=REPLAY_OPERATOR,
        run_id=run_id,
        task_id=task_id,
        node="tau2_replay",
        audit_id=f"{run_id}:{task_id}",
        step=step,
        approval=approval,
    )
    try:
        result = await runtime.call(request)
    except ApprovalRequired:
        return CallOutcome(action.name, False, "approval_required", action.reference_error)
    return CallOutcome(action.name, result.ok, result.error_code, action.reference_error)


async def _approve(pool: Pool, approval: Approval, task_id: str) -> None:
    """Record the replay operator's approval: the risk gate verifies it in the table.

    A tau2 task is a script of calls a human agent made with the customer's
    consent, so replaying it is an operator approving exactly those calls.
    """
    call = approvals.CallToApprove(
        approval_id=approval.approval_id,
        thread_id="adhoc",
        task_id=task_id,
        skill=approval.skill_id,
        args_hash=approval.args_hash,
        effect_key="",
    )
    async with pool.connection() as conn:
        await approvals.record_granted(
            conn, call, decided_by=f"operator:{REPLAY_OPERATOR}", reason="tau2 replay"
        )


def _approval(skill: LoadedSkill, action: Action, approval_id: str) -> Approval | None:
    """An approval of exactly the arguments the risk gate will see (the normalised ones)."""
    if not skill.metadata.side_effect:
        return None
    try:
        normalised = skill.executor.validate_input(action.arguments)
    except SkillValidationError:
        return None  # refused before the gate; nothing to approve
    return Approval(
        approval_id=approval_id,
        skill_id=skill.skill_id,
        args_hash=args_hash(normalised),
        approver=REPLAY_OPERATOR,
    )
