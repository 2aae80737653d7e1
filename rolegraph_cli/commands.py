"""The harness's own commands, named here so `rolegraph --help` imports none of them."""

from __future__ import annotations

from nodes.packs import CommandGroup

_SUPPORT = "rolegraph_cli.support_cmd"

HARNESS_COMMANDS = (
    CommandGroup("db", "the database rolegraph uses", "rolegraph_cli.db_cmd"),
    CommandGroup("threads", "checkpointed conversation threads", "rolegraph_cli.threads_cmd"),
    CommandGroup(
        "tokens", "bearer tokens for `langgraph dev` / the server", "rolegraph_cli.tokens_cmd"
    ),
    CommandGroup("audit", "the audited chain of one audit id, in order", "rolegraph_cli.audit_cmd"),
    CommandGroup("usage", "model tokens by day, node, role and model", "rolegraph_cli.usage_cmd"),
    CommandGroup("run", "run one customer turn (a new thread, or --thread-id)", _SUPPORT),
    CommandGroup(
        "resume",
        "answer a thread's pending approval, or continue a crashed thread (no --decision)",
        _SUPPORT,
    ),
    CommandGroup(
        "inbox", "requests waiting for an operator; --serve: the web approval inbox", _SUPPORT
    ),
    CommandGroup(
        "chat", "interactive conversation on one thread; approvals asked inline", _SUPPORT
    ),
    CommandGroup(
        "worker",
        "run queued turns and the periodic jobs (outbox, retention)",
        "rolegraph_cli.worker_cmd",
    ),
    CommandGroup("notify", "the notifications outbox and its worker", "rolegraph_cli.notify_cmd"),
    CommandGroup(
        "memory", "customers' long-term memory (stable facts)", "rolegraph_cli.memory_cmd"
    ),
    CommandGroup(
        "conversations", "scripted conversation suites", "rolegraph_cli.conversations_cmd"
    ),
)
