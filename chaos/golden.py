"""The three golden paths, their subjects from the reference data, and driving a thread.

A path is a list of CLI phases (`run`; for a write the customer's "yes" to the
confirmation question, a second `run` on the thread; then `resume --decision
approve` when the path needs an approval). `record` runs it uninterrupted on a clean clone and
keeps what it left behind; the kill -9 matrix compares every crashed and
continued run with that.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field

from chaos import probe
from chaos.confirm import YES, asks_to_confirm
from chaos.proc import PROGRESS, Ran, cli, cli_killed_after
from chaos.scratch import Scratch
from chaos.state import thread_report
from checkpoints.database import DatabaseTarget


@dataclass(frozen=True)
class Path:
    """One golden path: who asks what, whether they confirm a change, whether an operator
    approves it."""

    name: str
    user_id: str
    order_id: str
    text: str
    approve: bool
    confirm: bool = False

    def phases(self, thread: str) -> list[list[str]]:
        run = ["run", "--user-id", self.user_id, "--thread-id", thread, self.text]
        yes = confirm_phase(self.user_id, thread)
        return [
            run,
            *([yes] if self.confirm else []),
            *([["resume", thread, "--decision", "approve"]] if self.approve else []),
        ]


def confirm_phase(user_id: str, thread: str) -> list[str]:
    """The customer's explicit yes to the question their last turn ended with."""
    return ["run", "--user-id", user_id, "--thread-id", thread, YES]


@dataclass
class Baseline:
    """What the uninterrupted run printed and left behind."""

    status: str
    answer: str
    effects: probe.Effects
    lines: list[int] = field(default_factory=list)
    """Progress lines per phase: the node boundaries a kill can follow."""


def paths(scratch: Scratch) -> list[Path]:
    """The subjects of the golden paths, picked from the reference data."""
    tpl = scratch.target(scratch.template)
    read = probe.pick(tpl, _READ)[0]
    cancel = probe.pick(tpl, _PENDING)[0]
    ret = probe.pick(tpl, _DELIVERED)[0]
    return [
        Path("read_email", read["user_id"], read["order_id"],
             f"Where is my order {read['order_id']} and email me the status", False),
        Path("cancel", cancel["user_id"], cancel["order_id"],
             f"Please cancel order {cancel['order_id']}, I ordered it by mistake", True, True),
        Path("return", ret["user_id"], ret["order_id"],
             f"I'd like to return the items in order {ret['order_id']}, they arrived broken.",
             True, True),
    ]  # fmt: skip


def new_thread(label: str) -> str:
    return f"thr-chaos-{label}-{uuid.uuid4().hex[:8]}"


def record(scratch: Scratch, path: Path) -> Baseline:
    """Run `path` uninterrupted on a clean clone."""
    target = scratch.clone(f"base_{path.name}")
    env, thread = scratch.env(target), new_thread(path.name)
    try:
        runs = [cli(env, *phase) for phase in path.phases(thread)]
        bad = [r for r in runs if r.rc != 0]
        assert not bad, f"golden path {path.name} fails uninterrupted: {bad[0].brief()}"
        last = runs[-1]
        return Baseline(
            status=status_of(last, thread),
            answer=answer_of(last),
            effects=probe.effects(target, path.order_id, path.user_id, thread),
            lines=[r.stdout.count(PROGRESS) for r in runs],
        )
    finally:
        scratch.drop(target)


@dataclass
class Driven:
    """How continuing a thread went."""

    status: str = "unknown"
    answer: str = ""
    approvals_given: int = 0
    runs: list[Ran] = field(default_factory=list)
    stuck: str = ""


def drive(
    env: dict[str, str], target: DatabaseTarget, thread: str, user_id: str, *, rounds: int = 5
) -> Driven:
    """Continue `thread` as its people would: the customer says yes to a confirmation
    question, the operator approves what waits, else `resume T`.

    `resume THREAD` without a decision continues a crashed thread (issue 7 §3);
    where it fails, the thread counts as stuck.
    """
    out = Driven()
    for _ in range(rounds):
        now = thread_report(target, thread)
        if now is None:
            out.stuck = "the thread has no checkpoint; only a re-run would help"
            return out
        out.status, out.answer = now.status, now.answer
        confirm = asks_to_confirm(now)
        if now.status not in ("interrupted", "failed", "crashed") and not confirm:
            return out
        args = _continue(thread, user_id, now.status, confirm)
        out.approvals_given += now.status == "interrupted"
        ran = cli(env, *args)
        out.runs.append(ran)
        if ran.rc != 0:
            out.stuck = f"`{' '.join(args[:3])}` on a {now.status} thread -> {ran.brief()}"
            return out
    out.stuck = f"still {out.status} after {rounds} continues"
    return out


def _continue(thread: str, user_id: str, status: str, confirm: bool) -> list[str]:
    if confirm:
        return confirm_phase(user_id, thread)
    if status == "interrupted":
        return ["resume", thread, "--decision", "approve"]
    return ["resume", thread]


def run_phase(env: dict[str, str], phase: list[str], kill_after: int | None) -> Ran:
    return cli(env, *phase) if kill_after is None else cli_killed_after(env, kill_after, *phase)


def status_of(ran: Ran, thread: str) -> str:
    report = ran.report()
    if report is not None:
        return str(report.get("status"))
    prefix = f"thread {thread}: "
    # The last status line: `run` also prints one when it starts.
    for line in reversed(ran.stdout.splitlines()):
        if line.startswith(prefix):
            return line[len(prefix) :].strip()
    return "unknown"


def answer_of(ran: Ran) -> str:
    report = ran.report()
    if report is not None:
        return str(report.get("answer") or "")
    for line in ran.stdout.splitlines():
        if line.startswith("answer: "):
            return line[len("answer: ") :]
    return ""


_READ = """
SELECT o.order_id, o.user_id FROM shipments s
JOIN fulfillment_tracking_ids t ON t.tracking_id = s.tracking_id
JOIN orders o ON o.order_id = t.order_id
WHERE s.status = 'delayed' AND o.status = 'processed' ORDER BY o.order_id LIMIT %(n)s
"""
_PENDING = (
    "SELECT order_id, user_id FROM orders WHERE status = 'pending' ORDER BY order_id LIMIT %(n)s"
)
_DELIVERED = """
SELECT o.order_id, o.user_id FROM orders o JOIN order_items i USING (order_id)
WHERE o.status = 'delivered' GROUP BY 1, 2 HAVING count(*) = 1 ORDER BY 1 LIMIT %(n)s
"""
