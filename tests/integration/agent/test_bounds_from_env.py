"""The agent bounds a deployment configures reach the role agents' loops."""

from __future__ import annotations

import dataclasses

import pytest

from checkpoints.errors import ConfigurationError
from nodes.bootstrap import build_support_context
from tests.cli import run_cli
from tests.fakes.chat import ToolCalls
from tests.integration.agent.helpers import agent_tiers, ask, fake, goal, intake
from tests.integration.graph.helpers import user_with_orders
from tests.support_fixtures import Support


async def test_max_steps_from_the_environment_stops_the_loop(support: Support) -> None:
    user, _ = await user_with_orders(support.db.pool, "pending", skip=40)
    ctx = await build_support_context(support.db.pool, env={"ROLEGRAPH_AGENT_MAX_STEPS": "1"})
    assert ctx.agent_bounds.max_steps == 1
    large = fake(intake("order_status"), goal("order_query", "tell the customer about orders"))
    # One model call is allowed: the second scripted step is never asked for.
    small = fake(ToolCalls.of(("get_user_details_v1", {})), name="agent-model")
    ctx = dataclasses.replace(ctx, models=agent_tiers(large=large, small=small))
    done = await ask(support, ctx, "what is going on with my orders?", user)
    assert len(small.calls) == 1
    assert any("g1 goal -> succeeded partial (max_steps" in line for line in done.trace)


async def test_a_bad_bound_is_a_start_up_error(support: Support) -> None:
    with pytest.raises(ConfigurationError, match="ROLEGRAPH_AGENT_REPEATS"):
        await build_support_context(support.db.pool, env={"ROLEGRAPH_AGENT_REPEATS": "1"})


def test_the_cli_refuses_a_bad_bound_in_one_line(db_env: dict[str, str]) -> None:
    result = run_cli(
        {**db_env, "ROLEGRAPH_AGENT_TOKENS": "lots"}, "run", "--user-id", "u1", "where is it?"
    )
    assert result.returncode == 2
    # The start-up notice about models may come first; the error is one line.
    [error] = [line for line in result.stderr.splitlines() if "error" in line]
    assert error.startswith("rolegraph: error: ROLEGRAPH_AGENT_TOKENS='lots' is not usable")
