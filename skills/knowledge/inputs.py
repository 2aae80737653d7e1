"""Input validation shared by the knowledge skills' executors."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from typing import Any

from skills.errors import SkillValidationError

MAX_QUERY_CHARS = 500


def require_text(args: Mapping[str, Any], field: str, max_chars: int = MAX_QUERY_CHARS) -> str:
    """A non-empty string of at most `max_chars`, without control characters."""
    value = args.get(field)
    if not isinstance(value, str):
        raise SkillValidationError(f"{field} must be a string", field=field)
    text = unicodedata.normalize("NFC", value).strip()
    if not text:
        raise SkillValidationError(f"{field} must not be empty", field=field)
    if len(text) > max_chars:
        raise SkillValidationError(f"{field} is longer than {max_chars} characters", field=field)
    # Lone surrogates cannot be encoded for the database; control bytes have no place in a question.
    if any(unicodedata.category(c) in ("Cc", "Cs") and c not in "\t\n" for c in text):
        raise SkillValidationError(f"{field} contains control characters", field=field)
    return text


def optional_int(args: Mapping[str, Any], field: str, default: int, maximum: int) -> int:
    """An integer in 1..maximum (booleans are not integers here), else `default`."""
    value = args.get(field, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise SkillValidationError(f"{field} must be an integer", field=field)
    if not 1 <= value <= maximum:
        raise SkillValidationError(f"{field} must be between 1 and {maximum}", field=field)
    return value


def reject_unknown(args: Mapping[str, Any], allowed: frozenset[str]) -> None:
    """Unknown argument names are refused rather than ignored."""
    unknown = sorted(set(args) - allowed)
    if unknown:
        raise SkillValidationError(f"unknown argument {unknown[0]!r}", field=unknown[0])
