"""Who approves through the Python API: the approver keyword of `resume_thread`, if it has one.

Issue 7 §1 has the Python API take the approver explicitly; the campaign
finds that keyword by name so its cases work before and after it lands.
"""

from __future__ import annotations

import inspect
from typing import Any

from graphs.api import resume_thread
from nodes.identity import Identity

_NAMES = ("approver", "approved_by", "operator", "identity", "decided_by")


def approver_kwargs(who: Identity) -> dict[str, Any]:
    """`{"approver": who}` when `resume_thread` takes an approver, else `{}` (anonymous)."""
    params = inspect.signature(resume_thread).parameters
    for name in _NAMES:
        if name in params:
            annotation = str(params[name].annotation)
            return {name: who.subject if annotation in ("str", "str | None") else who}
    return {}


def takes_approver() -> bool:
    return bool(approver_kwargs(Identity("operator", "chaos")))


OPERATOR = Identity("operator", "chaos-operator")
