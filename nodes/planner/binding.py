"""Fill `bind:` markers in task args from the results of its dependencies.

The mechanism is the harness's; what a marker means is the domain's: each
`bind:<marker>` value is resolved by `DomainPlanning.bind`, then the args are
put in the skill's own shape by `DomainPlanning.prepare_args`. Results are
untrusted tool output the domain picks known fields from, never instructions.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from nodes.domain import DomainPlanning

BIND = "bind:"


def marker_of(value: object) -> str | None:
    """The marker name of a `bind:<marker>` value, else None."""
    if isinstance(value, str) and value.startswith(BIND):
        return value.removeprefix(BIND)
    return None


def bind_args(
    planning: DomainPlanning, skill: str, args: Mapping[str, Any], results: Mapping[str, Any]
) -> dict[str, Any]:
    """`args` with every marker resolved, in the shape `skill` takes.

    Raises `BindingError` when a marker cannot be filled from `results`.
    """
    bound: dict[str, Any] = {}
    for key, value in args.items():
        marker = marker_of(value)
        bound[key] = value if marker is None else planning.bind(marker, results)
    return planning.prepare_args(skill, bound)
