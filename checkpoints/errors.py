"""Errors of the persistence layer.

Every error a user can cause carries a one-line message that says what went
wrong and how to fix it; the CLI prints it and exits with code 2.
"""

from __future__ import annotations


class RolegraphError(Exception):
    """Base for errors that are reported to the user as one line."""

    exit_code = 2


class ConfigurationError(RolegraphError):
    """The environment or a configuration file is unusable (raised at start-up)."""


class DatabaseUnavailable(RolegraphError):
    """The database cannot be reached."""


class DataFormatError(RolegraphError):
    """An input file is unreadable, malformed or in the wrong format."""


class LoadInProgress(RolegraphError):
    """Another process holds the retail data lock."""


class NotFound(RolegraphError):
    """A named thing (thread, order, audit id) does not exist."""


class InvalidArgument(RolegraphError):
    """A command-line argument or API parameter has an unusable value."""
