"""Tools that read nothing: arithmetic, summaries of given results, human handoff."""

from __future__ import annotations

import json
from typing import Any

from domains.retail.tools.calculator import calculate as _calculate

SUMMARY_LIMIT = 600
TRANSFER_OUTPUT = "Transfer successful"


def calculate(args: dict[str, Any]) -> str:
    return _calculate(args["expression"])


def transfer_to_human_agents(args: dict[str, Any]) -> str:
    """tau2's output; the handoff itself is recorded by the runtime's audit row."""
    return TRANSFER_OUTPUT


def generate_summary(args: dict[str, Any]) -> dict[str, Any]:
    """A short text built only from the given results, one line per result."""
    lines = [f"{args['topic']}:"]
    for name, value in args["results"].items():
        lines.append(f"- {name}: {_brief(value)}")
    text = "\n".join(lines)
    if len(text) > SUMMARY_LIMIT:
        text = text[: SUMMARY_LIMIT - 1] + "…"
    return {"summary": text, "sources": sorted(args["results"])}


def _brief(value: Any) -> str:
    """A one-line rendering: scalars as they are, records by their telling fields."""
    if isinstance(value, dict):
        keys = ("status", "verdict", "order_id", "tracking_id", "estimated_delivery", "summary")
        picked = {k: value[k] for k in keys if k in value}
        value = picked or value
    text = value if isinstance(value, str) else json.dumps(value, sort_keys=True, default=str)
    return text if len(text) <= 160 else text[:159] + "…"
