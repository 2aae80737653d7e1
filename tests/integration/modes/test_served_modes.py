"""The served graphs (`graphs.studio`): every mode over one context, each thread in its mode."""

from __future__ import annotations

from checkpoints.opening import Database
from graphs.api import run_request
from graphs.modes import MODES, mode_of, thread_mode
from graphs.studio import open_served_graphs
from tests.integration.graph.helpers import user_with_orders


async def test_every_mode_is_served_over_one_context(retail_db: Database) -> None:
    graphs = await open_served_graphs(retail_db, {})
    assert sorted(graphs) == sorted(MODES)
    assert {mode_of(g) for g in graphs.values()} == set(MODES)
    assert len({id(g.bound_context) for g in graphs.values()}) == 1
    user, (order,) = await user_with_orders(retail_db.pool, "processed", skip=40)
    # As the server attaches its checkpointer (`copy`): the mode survives it.
    served = graphs["plan_execute"].copy(update={"checkpointer": retail_db.checkpointer})
    done = await run_request(
        served, served.bound_context, text=f"where is my package for {order}?", user_id=user
    )
    assert done.status == "completed" and done.mode == "plan_execute"
    assert await thread_mode(retail_db.checkpointer, done.thread_id) == "plan_execute"
