"""A decision form read into what `graphs.api.resume_thread` takes, checked before it is sent.

Edited arguments come as one input per skill parameter (`arg:<name>`): a
string parameter as typed, anything else as JSON. They are checked the way
resume checks them (`nodes.inputs` for size and storability, the skill's own
input validation through `nodes.resume_value.normalised_edit`, the record
the call acts on kept), so a bad edit is refused with one line and nothing
is sent to the graph.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from checkpoints.errors import InvalidArgument
from graphs.inbox_web.views import RequestView
from nodes.inputs import clean_args, clean_message
from nodes.resume_value import normalised_edit
from skills.registry import SkillRegistry

ARG_PREFIX = "arg:"
_DECISIONS = {"approval": ("approve", "reject", "edit"), "escalation": ("reply",)}


@dataclass(frozen=True)
class FormDecision:
    """One operator decision on one request."""

    decision: str
    args: dict[str, Any] | None = None
    message: str | None = None


def read_decision(
    form: Mapping[str, str], view: RequestView, registry: SkillRegistry
) -> FormDecision:
    """The decision the form gives for `view`'s request; `InvalidArgument` if it cannot stand."""
    decision = form.get("decision", "")
    allowed = _DECISIONS[view.request.kind]
    if decision not in allowed:
        raise InvalidArgument(
            f"{view.request.kind}s are answered with {' or '.join(allowed)}, not {decision[:20]!r}"
        )
    note = (form.get("message") or "").strip() or None
    if decision == "reply" and note is None:
        raise InvalidArgument("a reply needs a message for the customer; write it and send again")
    message = clean_message(decision, note) if decision in ("reply", "reject") else None
    if decision != "edit":
        return FormDecision(decision, message=message)
    edited = clean_args(_edited(form, view), name="the edited arguments")
    if not edited:
        raise InvalidArgument("an edit needs the edited arguments; fill in the fields")
    if normalised_edit(registry, view.request, edited) is None:
        raise InvalidArgument(
            f"the edited arguments are not valid for {view.request.skill}: give every argument"
            " it needs in a form it accepts; nothing was changed"
        )
    return FormDecision("edit", args=edited)


def _edited(form: Mapping[str, str], view: RequestView) -> dict[str, Any]:
    edited: dict[str, Any] = {}
    for field in view.fields:
        if field.fixed:
            # The record the call acts on never changes in an edit, whatever the form says.
            edited[field.name] = view.request.args.get(field.name)
            continue
        raw = form.get(ARG_PREFIX + field.name, "")
        if raw.strip() == "" and not field.required:
            continue
        edited[field.name] = raw if field.type == "string" else _json(field.name, raw)
    return edited


def _json(name: str, raw: str) -> Any:
    try:
        return json.loads(raw)
    except json.JSONDecodeError as exc:
        raise InvalidArgument(
            f'{name} is not valid JSON ({exc.msg} at column {exc.colno}); e.g. ["a", "b"]'
            " for a list"
        ) from None
    except RecursionError:
        raise InvalidArgument(f"{name} is nested too deeply") from None
