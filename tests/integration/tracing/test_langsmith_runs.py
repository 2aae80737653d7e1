"""With LangSmith's usual variables, a `rolegraph run` posts its skill calls as tool runs."""

from __future__ import annotations

import json

from checkpoints.opening import Database
from tests.cli import run_cli
from tests.integration.graph.helpers import user_with_orders
from tests.integration.tracing.langsmith_receiver import langsmith_receiver


async def test_langsmith_sees_skill_calls_as_tool_runs_of_their_role_node(
    retail_db: Database, db_env: dict[str, str]
) -> None:
    user, (order,) = await user_with_orders(retail_db.pool, "processed")
    env = {
        k: v for k, v in db_env.items() if not k.startswith(("OTEL_", "LANGSMITH_", "LANGCHAIN_"))
    }
    with langsmith_receiver() as langsmith:
        env |= {
            "LANGSMITH_TRACING": "true",
            "LANGSMITH_ENDPOINT": langsmith.url,
            "LANGSMITH_API_KEY": "lsv2_pt_local_test",
        }
        result = run_cli(
            env, "run", "--json", "--user-id", user, f"where is my package for {order}?"
        )
        assert result.returncode == 0, result.stderr
        runs = dict(langsmith.runs)
    assert json.loads(result.stdout.splitlines()[-1])["status"] == "completed"
    tools = [r for r in runs.values() if r.get("run_type") == "tool"]
    (track,) = [r for r in tools if r["name"] == "track_shipment_v1"]
    parent = runs[str(track["parent_run_id"])]
    assert parent["name"] == "role_logistics_analyst" and parent["run_type"] == "chain"
    assert "rolegraph:skill" in track["tags"]
    assert track["end_time"] and track["trace_id"] == parent["trace_id"]
