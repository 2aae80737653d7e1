"""The customer's explicit yes to a confirmation question (issue 9 §3), on every channel the
campaign drives: before a write the agent asks the customer to confirm, and only a "yes"
turn on the same thread goes on to the operator's approval."""

from __future__ import annotations

from typing import Any

from graphs.api import RunReport, run_request

YES = "yes"


def asks_to_confirm(report: object) -> bool:
    """Whether a turn (a report, or a run's JSON / state values) ended asking the customer
    to confirm a change."""
    if isinstance(report, RunReport):
        seen: dict[str, Any] = {"status": report.status, "question": report.question}
    elif isinstance(report, dict):
        seen = report
    else:
        return False
    question = seen.get("question")
    confirm = isinstance(question, dict) and question.get("kind") == "confirm"
    return seen.get("status") == "needs_input" and confirm


async def run_confirmed(graph: Any, ctx: Any, **request: Any) -> RunReport:
    """A request as its customer makes it through the Python API: the turn, then "yes" on
    the same thread when the turn asks them to confirm."""
    first: RunReport = await run_request(graph, ctx, **request)
    if not asks_to_confirm(first):
        return first
    return await run_request(graph, ctx, **{**request, "text": YES, "thread_id": first.thread_id})
