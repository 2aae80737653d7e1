"""Tool output and other untrusted text, fenced as data for a model's context.

A tool result is JSON inside `<tool_result>` markers the data cannot close
(markers inside it are removed), cut to `MAX_TOOL_CHARS`: a huge or hostile
result can neither flood the context nor pass for instructions.
"""

from __future__ import annotations

import json
import re

MAX_TOOL_CHARS = 6000
_COMPACT = (",", ":")
"""JSON without the spaces after separators: about a tenth fewer tokens per result."""
_MARKERS = re.compile(r"</?\s*(?:tool_result|goal|inputs|skill_doc)\b[^>]*>", re.IGNORECASE)
_NAME = re.compile(r"[^a-z0-9_]")


def as_text(value: object) -> str:
    """`value` as one JSON (or plain) text with no fence markers in it."""
    text = (
        value
        if isinstance(value, str)
        else json.dumps(value, ensure_ascii=False, default=str, separators=_COMPACT)
    )
    return _MARKERS.sub(" ", text)


def fenced(tag: str, value: object, limit: int = MAX_TOOL_CHARS, **attrs: str) -> str:
    """`value` between `<tag>` markers, cut to `limit` characters."""
    text = as_text(value)
    if len(text) > limit:
        text = text[:limit] + f" …[{len(text) - limit} more characters cut]"
    shown = "".join(f' {k}="{safe_name(v)}"' for k, v in attrs.items())
    return f"<{tag}{shown}>\n{text}\n</{tag}>"


def safe_name(name: object) -> str:
    """A tool name as it may be echoed: lower-case letters, digits, underscores, 80 at most."""
    return _NAME.sub("_", str(name).lower())[:80]
