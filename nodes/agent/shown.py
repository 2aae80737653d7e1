"""What a role agent's model is shown of a skill's result: its facts, less what the
call already states and what no answer needs.

The full result stays in the findings (`AgentCall.payload`), which the answer's
fact check and compose read, and in the audit. The model is shown a projection
that leaves out:

- empty fields (null or ""): they state nothing;
- the session customer's id under a customer parameter's name (an order's
  `user_id`): every record a customer session returns is theirs, and the model
  never passes that id;
- top-level fields equal to the call's argument of that name (the `order_id` it
  asked for): the call stands right before its result;
- a field repeating the key its record is filed under (a product's
  `variants["1836236107"]["item_id"]`);
- the fields the skill declares no answer needs (`SkillMetadata.model_omits`,
  e.g. a carrier scan's sequence number and code beside its description).

Each costs tokens in every later call of the loop, and a naive agent's history
repeats it on every turn after.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


def shown(
    payload: object,
    args: Mapping[str, Any],
    session: Mapping[str, str],
    omits: Sequence[str] = (),
) -> object:
    """`payload` as the model sees it (see the module docstring); `session` maps each
    customer parameter to the session customer's id."""
    value = _compact(payload, session)
    for path in omits:
        value = _omit(value, path.split("."))
    if isinstance(value, dict):
        return {k: v for k, v in value.items() if not (k in args and args[k] == v)}
    return value


def _compact(value: object, session: Mapping[str, str], filed_under: str | None = None) -> Any:
    if isinstance(value, dict):
        return {
            k: _compact(v, session, k)
            for k, v in value.items()
            if not _known(k, v, session, filed_under)
        }
    if isinstance(value, list):
        return [_compact(v, session) for v in value]
    return value


def _known(name: str, value: object, session: Mapping[str, str], filed_under: str | None) -> bool:
    """Whether a field says nothing the model does not have already."""
    empty = value is None or value == ""
    return empty or (name in session and session[name] == value) or value == filed_under


def _omit(value: object, path: list[str]) -> Any:
    if isinstance(value, list):
        return [_omit(v, path) for v in value]
    if not isinstance(value, dict) or not path:
        return value
    head, rest = path[0], path[1:]
    if not rest:
        return {k: v for k, v in value.items() if k != head}
    return {k: _omit(v, rest) if k == head else v for k, v in value.items()}
