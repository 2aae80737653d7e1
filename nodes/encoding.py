"""Text that Python decoded but Postgres could not store: lone surrogates."""

from __future__ import annotations

from checkpoints.errors import InvalidArgument


def has_surrogate(text: str) -> bool:
    """Whether `text` holds a lone surrogate (bytes that were not UTF-8, decoded with surrogateescape)."""
    return any("\ud800" <= c <= "\udfff" for c in text)


def check_argv(argv: list[str]) -> None:
    """Refuse command-line arguments that were not valid UTF-8.

    Python decodes such bytes to lone surrogates (surrogateescape); they
    would fail much later, when encoded for Postgres.
    """
    for position, arg in enumerate(argv, start=1):
        if has_surrogate(arg):
            shown = arg.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
            raise InvalidArgument(
                f"argument {position} ({shown[:40]!r}) is not valid UTF-8; "
                "check the terminal's encoding (LANG=C.UTF-8)"
            )
