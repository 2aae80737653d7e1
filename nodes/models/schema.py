"""Schemas for what a model may answer, and parsing of its raw text.

The model's reply is parsed here from plain text (not tool calls), so any
OpenAI-compatible endpoint works. Types are strict: a string where a list
is expected is a schema violation, not something to coerce.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Annotated, Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError, create_model

from nodes.domain import SlotSpec
from nodes.errors import ModelOutputInvalid

M = TypeVar("M", bound=BaseModel)
_FENCE = re.compile(r"^```[a-zA-Z]*\s*|\s*```$")
MAX_REPLY_CHARS = 20_000


class _Reply(BaseModel):
    # Unknown keys (a "confidence" a model adds) are ignored; known keys are strict.
    model_config = ConfigDict(frozen=True, extra="ignore", strict=True)


class ReadingSlots(_Reply):
    """A model's slot values; `reading_schema` adds one field per domain slot."""

    def values(self) -> dict[str, tuple[str, ...]]:
        """Slot name -> its values (a single-valued slot gives at most one)."""
        out: dict[str, tuple[str, ...]] = {}
        for name, value in self.model_dump().items():
            out[name] = tuple(value) if isinstance(value, tuple | list) else _one(value)
        return out


class IntakeReading(_Reply):
    """A model's structured reading of one request (untrusted)."""

    intents: tuple[str, ...] = Field(min_length=1, max_length=6)
    slots: ReadingSlots = ReadingSlots()
    injection: bool = False


@lru_cache(maxsize=16)
def reading_schema(specs: tuple[SlotSpec, ...]) -> type[IntakeReading]:
    """The reading schema for a domain's slots: lists for `many` slots, else a string or null."""
    fields: dict[str, Any] = {spec.name: _slot_field(spec) for spec in specs}
    slots = create_model("DomainReadingSlots", __base__=ReadingSlots, **fields)
    return create_model("DomainIntakeReading", __base__=IntakeReading, slots=(slots, slots()))


def _slot_field(spec: SlotSpec) -> tuple[Any, Any]:
    value = Annotated[str, StringConstraints(max_length=spec.max_chars)]
    if spec.many:
        return tuple[value, ...], Field(default=(), max_length=spec.max_values)
    return value | None, None


def _one(value: object) -> tuple[str, ...]:
    return (value,) if isinstance(value, str) and value else ()


def parse_reply(node: str, text: str, schema: type[M]) -> M:
    """Extract the one JSON object in `text` and validate it against `schema`."""
    if len(text) > MAX_REPLY_CHARS:
        raise ModelOutputInvalid(node, f"reply too long ({len(text)} chars)")
    body = _json_object(node, text)
    try:
        # Validated from JSON (not a decoded dict) so strict mode accepts
        # arrays for tuple fields while still refusing "1" for 1.
        return schema.model_validate_json(body)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "reply"
        raise ModelOutputInvalid(node, f"schema: {where}: {first['msg']}") from exc


def _json_object(node: str, text: str) -> str:
    body = _FENCE.sub("", text.strip())
    start, end = body.find("{"), body.rfind("}")
    if start < 0 or end <= start:
        raise ModelOutputInvalid(node, "no JSON object in reply")
    try:
        data = json.loads(body[start : end + 1])
    except json.JSONDecodeError as exc:
        raise ModelOutputInvalid(node, f"invalid JSON ({exc.msg})") from exc
    if not isinstance(data, dict):
        raise ModelOutputInvalid(node, "reply is not a JSON object")
    return body[start : end + 1]
