"""Who approves through the Python API: `resume_thread(..., actor=Identity)`."""

from __future__ import annotations

from typing import Any

from nodes.identity import Identity


def approver_kwargs(who: Identity) -> dict[str, Any]:
    """The keyword arguments that make `who` the one answering a request."""
    return {"actor": who}


def takes_approver() -> bool:
    """The Python API names its approver explicitly (issue 7 §1)."""
    return True


OPERATOR = Identity("operator", "chaos-operator")
