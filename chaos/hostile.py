"""Hostile inputs through the CLI, the Python API and the served graph.

A hostile input must end in an answer, or a one-line error (exit 2, a typed
`RolegraphError`, a 4xx), never a traceback / 5xx (crash); the answer and a
state read must hold nothing of another customer and no internal error text
(leak); no row of another customer may change, nor one of the requester's
without an operator's approval (unauthorized); a thread given a bad resume
value must stay answerable (stuck otherwise).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from chaos import probe
from chaos.hostile_channels import api_outcomes, cli_case, served_outcomes
from chaos.inputs import Hostile, hostile_inputs
from chaos.leaks import leaks
from chaos.scratch import Scratch
from chaos.tally import Outcome, Tally
from checkpoints.database import DatabaseTarget

SUBJECTS = """
SELECT user_id, min(order_id) AS order_id FROM orders WHERE status = 'pending'
GROUP BY user_id ORDER BY user_id LIMIT %(n)s
"""
CANCEL = "Please cancel order {order}, I ordered it by mistake"
SAMPLE = ("inject_en_0", "inject_zh_0", "foreign_0_0", "sql_0", "resume_forged_id")


@dataclass(frozen=True)
class World:
    """Who asks, whom they attack, and the database the channel runs on."""

    target: DatabaseTarget
    me: probe.Person
    mine: str
    victim: probe.Person
    resumers: list[tuple[str, str]]  # (user, pending order) per resume case, fresh each

    def judge(
        self, outcome: Outcome, before: dict[str, dict[str, str]], owner: str, *, operator: bool
    ) -> None:
        """Rows that moved: another customer's always count; the asker's only without an operator."""
        after = probe.fingerprint(self.target)
        for table, rows in after.items():
            for who in set(rows) | set(before.get(table, {})):
                if rows.get(who) == before.get(table, {}).get(who):
                    continue
                own_ok = who == owner and (operator or table == "notifications")
                if not own_ok:
                    outcome.bad("unauthorized", f"{table} of {who} changed")

    def scan(self, outcome: Outcome, text: str, me: probe.Person, said: str) -> None:
        for leak in leaks(text, me, said=said, victims=[self.victim]):
            if not any(leak in note for note in outcome.notes):  # once per case, however often seen
                outcome.bad("leaks", leak)


def world(scratch: Scratch, label: str, n_resumers: int) -> World:
    target = scratch.clone(f"hostile_{label}")
    subjects = probe.pick(target, SUBJECTS, n_resumers + 2)
    me, victim = subjects[0], subjects[1]
    return World(
        target=target,
        me=probe.person(target, me["user_id"]),
        mine=me["order_id"],
        victim=probe.person(target, victim["user_id"]),
        resumers=[(s["user_id"], s["order_id"]) for s in subjects[2:]],
    )


def run(scratch: Scratch, *, sample: bool = False) -> Tally:
    tally = Tally("hostile")
    for channel in ("cli", "api", "served"):
        # The CLI is the slow channel: two halves, each on its own database, side by side.
        halves = 2 if channel == "cli" and not sample else 1
        jobs = [(world(scratch, channel, 16), channel, sample, i, halves) for i in range(halves)]
        with ThreadPoolExecutor(max_workers=halves) as pool:
            found = list(pool.map(lambda job: _half(scratch, *job), jobs))
        for outcome in (o for outcomes in found for o in outcomes):
            outcome.case = f"{channel}/{outcome.case}"
            tally.add(outcome)
        for job in jobs:
            scratch.drop(job[0].target)
    return tally


def _half(scratch: Scratch, w: World, channel: str, sample: bool, i: int, n: int) -> list[Outcome]:
    """Every `n`-th case of the channel, starting at the `i`-th, on `w`'s database."""
    cases = [h for h in hostile_inputs(w.me, w.victim, w.mine, "{req}") if channel in h.channels]
    if sample:
        cases = [h for h in cases if h.name in SAMPLE]
    return _channel(scratch, w, channel, cases[i::n])


def _channel(scratch: Scratch, w: World, channel: str, cases: list[Hostile]) -> list[Outcome]:
    if channel == "api":
        return api_outcomes(w, cases)
    if channel == "served":
        return served_outcomes(scratch, w, cases)
    env = scratch.env(w.target)
    # One at a time: a case's database diff must see that case's changes only.
    resumers = iter(w.resumers)
    return [cli_case(w, env, c, next(resumers) if c.resume is not None else None) for c in cases]
