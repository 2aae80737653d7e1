"""Input from outside (CLI argv, the Python API, served runs and resumes) checked once.

Everything a caller hands the graph ends up in Postgres: in checkpoints,
`approvals` (jsonb) and audit rows. Postgres refuses NUL in text and jsonb,
and a lone surrogate cannot be encoded at all, so such a value does not fail
where it was typed — it fails later, inside a node, and wedges the thread.
These checks run before anything is written and raise `InvalidArgument`
(one line, exit 2); `input_problem` says the same in words for the graph,
which refuses instead of raising.

This lives in `nodes/` (not `graphs/`) so the intake node can use it: the
import layers run cli -> graphs -> nodes.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Mapping
from typing import Any

from langchain_core.messages import HumanMessage, convert_to_messages

from checkpoints.errors import InvalidArgument, NotFound
from checkpoints.opening import Pool
from nodes.domain import Domain
from nodes.encoding import has_surrogate

MAX_TEXT = 4000
"""Characters of one customer request."""
MAX_ID = 200
"""Characters of a user id, thread id or request id."""
MAX_MESSAGE = 2000
"""Characters of an operator's reply to an escalation."""
MAX_ARGS_DEPTH = 6
"""Nesting of edited arguments: the deepest real skill argument is a list in an object."""
MAX_ARGS_BYTES = 16_000
"""Size of edited arguments as JSON."""

_ALLOWED_CONTROLS = {"\n", "\t", "\r"}


def clean_text(
    value: object,
    *,
    name: str = "the request text",
    limit: int = MAX_TEXT,
    hint: str = "say what the customer wants",
) -> str:
    """A non-empty, storable string of at most `limit` characters, stripped."""
    if not isinstance(value, str):
        raise InvalidArgument(f"{name} must be a string, not {_kind(value)}")
    text = value.strip()
    if not text:
        raise InvalidArgument(f"{name} is empty; {hint}")
    _check_storable(text, name)
    if len(text) > limit:
        raise InvalidArgument(f"{name} is {len(text)} characters; keep it under {limit}")
    return text


def clean_id(value: object, *, name: str) -> str:
    """An identifier: a short, storable string without spaces or control characters."""
    if not isinstance(value, str):
        raise InvalidArgument(f"{name} must be a string, not {_kind(value)}")
    text = value.strip()
    if not text:
        raise InvalidArgument(f"{name} is empty; pass an id")
    _check_storable(text, name)
    if len(text) > MAX_ID or any(c.isspace() or _is_control(c) for c in text):
        raise InvalidArgument(
            f"{name} {text[:40]!r} is not an id; use at most {MAX_ID} characters without spaces"
        )
    return text


def clean_user_id(value: object) -> str:
    """The customer's user id."""
    return clean_id(value, name="the user id")


def clean_args(value: object, *, name: str = "--args") -> dict[str, Any]:
    """Edited skill arguments: a JSON object, bounded in depth and size, storable as jsonb."""
    if not isinstance(value, Mapping):
        raise InvalidArgument(
            f'{name} must be a JSON object, e.g. \'{{"reason": "no longer needed"}}\''
        )
    _check_json(value, name, depth=1)
    try:
        size = len(json.dumps(value, ensure_ascii=False))
    except (TypeError, ValueError) as exc:
        raise InvalidArgument(f"{name} holds a value that is not JSON ({exc})") from None
    if size > MAX_ARGS_BYTES:
        raise InvalidArgument(
            f"{name} is {size} characters of JSON; keep it under {MAX_ARGS_BYTES}"
        )
    return dict(value)


def parse_args_json(text: str, *, name: str = "--args") -> dict[str, Any]:
    """Parse and check edited arguments given as JSON text."""
    clean_text(
        text,
        name=name,
        limit=MAX_ARGS_BYTES,
        hint='pass a JSON object such as \'{"reason": "no longer needed"}\'',
    )
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InvalidArgument(
            f"{name} is not valid JSON ({exc.msg} at column {exc.colno}); "
            'pass an object like \'{"order_id": "#W1"}\''
        ) from None
    except RecursionError:
        raise InvalidArgument(
            f"{name} is nested too deeply; at most {MAX_ARGS_DEPTH} levels"
        ) from None
    return clean_args(value, name=name)


def clean_message(decision: str, value: object) -> str | None:
    """An operator's reply: required with `reply`, optional (a note) otherwise."""
    if value is None:
        if decision == "reply":
            raise InvalidArgument(
                "--decision reply needs --message with the answer for the customer"
            )
        return None
    return clean_text(
        value, name="the message", limit=MAX_MESSAGE, hint="write the answer for the customer"
    )


def input_problem(payload: Mapping[str, Any]) -> str | None:
    """What is wrong with a run input `{"text" | "messages", "user_id"}`, in words, or None.

    With `messages` (a chat client's turn) the last human message is the
    request text. For callers that refuse instead of raising: the intake node
    (served runs reach the graph without the Python API) and the server's
    auth handlers.
    """
    try:
        given = payload.get("messages")
        clean_text(payload.get("text") if given is None else last_human_text(given))
        if payload.get("user_id") is not None:
            clean_user_id(payload.get("user_id"))
    except InvalidArgument as exc:
        return str(exc)
    return None


def last_human_text(messages: Any) -> str:
    """The text of the last human message of chat input (LangChain messages or their dicts)."""
    try:
        parsed = convert_to_messages(messages if isinstance(messages, list) else [messages])
    except (ValueError, TypeError, NotImplementedError) as exc:
        raise InvalidArgument(
            f'the messages are not chat messages ({str(exc).splitlines()[0][:80]}); send [{{"role": "user",'
            ' "content": "..."}]'
        ) from None
    human = [m for m in parsed if isinstance(m, HumanMessage)]
    if not human:
        raise InvalidArgument(
            'the messages hold no message from the customer; add {"role": "user", "content": "..."}'
        )
    return human[-1].text


def value_problem(value: object, *, name: str = "the value") -> str | None:
    """What makes a JSON value (a resume value, edited args) unstorable, or None."""
    try:
        _check_json(value, name, depth=1)
    except InvalidArgument as exc:
        return str(exc)
    return None


async def unknown_user(domain: Domain, pool: Pool, user_id: str) -> NotFound:
    """The error for a user id that is not a customer; on an empty database, how to load one."""
    seed = domain.seed
    if seed is not None and not await seed.has_customers(pool):
        return NotFound(f"the database holds no customers yet; {seed.empty_hint}")
    return NotFound(f"unknown user {user_id!r}; pass the id of an existing customer with --user-id")


def _check_json(value: object, name: str, depth: int) -> None:
    if depth > MAX_ARGS_DEPTH:
        raise InvalidArgument(f"{name} is nested too deeply; at most {MAX_ARGS_DEPTH} levels")
    if isinstance(value, str):
        _check_storable(value, f"a value in {name}")
    elif isinstance(value, Mapping):
        for key, item in value.items():
            if not isinstance(key, str):
                raise InvalidArgument(f"{name} has a key that is not a string ({key!r})")
            _check_storable(key, f"a key in {name}")
            _check_json(item, name, depth + 1)
    elif isinstance(value, list | tuple):
        for item in value:
            _check_json(item, name, depth + 1)
    elif value is not None and not isinstance(value, bool | int | float):
        raise InvalidArgument(f"{name} holds {_kind(value)}, which is not JSON")


def _check_storable(text: str, name: str) -> None:
    if "\x00" in text:
        raise InvalidArgument(f"{name} contains a NUL character; remove it")
    if has_surrogate(text):
        raise InvalidArgument(f"{name} is not valid Unicode (a lone surrogate); re-type it")
    if any(_is_control(c) for c in text):
        raise InvalidArgument(f"{name} contains control characters; remove them")


def _is_control(char: str) -> bool:
    return char not in _ALLOWED_CONTROLS and unicodedata.category(char) == "Cc"


def _kind(value: object) -> str:
    return "nothing" if value is None else type(value).__name__
