"""A turn's root span names the mode that ran it."""

from __future__ import annotations

import json

from checkpoints.opening import Database
from tests.cli import run_cli
from tests.integration.graph.helpers import user_with_orders
from tests.integration.tracing.receiver import otlp_receiver


async def test_the_root_span_names_the_real_mode(
    retail_db: Database, db_env: dict[str, str]
) -> None:
    user, (order,) = await user_with_orders(retail_db.pool, "processed", skip=41)
    env = {k: v for k, v in db_env.items() if not k.startswith(("OTEL_", "LANGSMITH_"))}
    with otlp_receiver() as receiver:
        traced = {
            **env,
            "OTEL_EXPORTER_OTLP_ENDPOINT": receiver.url,
            "OTEL_SERVICE_NAME": "rg-test",
        }
        result = run_cli(traced, "run", "--json", "--mode", "plan_execute", "--user-id", user,
                         f"where is my package for {order}?")  # fmt: skip
        assert result.returncode == 0, result.stderr
        thread = json.loads(result.stdout.strip().splitlines()[-1])["thread_id"]
        (root,) = [
            s
            for s in receiver.spans
            if not s.parent_id and s.attributes.get("rolegraph.thread_id") == thread
        ]
    assert root.attributes["rolegraph.mode"] == "plan_execute"
