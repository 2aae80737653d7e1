"""A whole `rolegraph run` process loads what its request needs and nothing else:
with no model configured, no model client; no trainer, web server or job queue."""

from __future__ import annotations

import json

from checkpoints.opening import Database
from tests.cli import LAZY, loaded, modules_after
from tests.integration.graph.helpers import user_with_orders


async def test_a_read_request_s_process_loads_none_of_the_lazy_packages(
    retail_db: Database, db_env: dict[str, str]
) -> None:
    user, (order,) = await user_with_orders(retail_db.pool, "processed")
    env = {k: v for k, v in db_env.items() if not k.startswith(("ROLEGRAPH_MODEL_", "OTEL_"))}
    argv = ["run", "--json", "--user-id", user, f"what's the status of {order}?"]
    modules, done = modules_after(argv, env)
    report = json.loads(done.stdout.splitlines()[-2])
    assert report["status"] == "completed" and report["intents"] == ["order_status"]
    assert "nodes.intake.learned" in modules  # the request was read by the learned reader
    assert loaded(modules, LAZY) == []
