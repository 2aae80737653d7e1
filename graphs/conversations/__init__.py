"""Scripted conversations: a suite file, its runner and its scores (`rolegraph conversations run`)."""

from graphs.conversations.results import ConversationResult, SuiteReport, TurnResult
from graphs.conversations.runner import SUITE_OPERATOR, run_suite
from graphs.conversations.script import Suite, load_suite

__all__ = [
    "SUITE_OPERATOR",
    "ConversationResult",
    "Suite",
    "SuiteReport",
    "TurnResult",
    "load_suite",
    "run_suite",
]
