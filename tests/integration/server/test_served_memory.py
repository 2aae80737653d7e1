"""The served graph (`graphs.studio`) reaches customers' memory through LangGraph's store."""

from __future__ import annotations

from checkpoints.opening import Database
from graphs.api import run_request
from graphs.studio import open_served_graph
from nodes.memory.store import entries


async def test_the_served_graph_remembers_through_the_projects_store(retail_db: Database) -> None:
    graph = await open_served_graph(retail_db, {})
    assert graph.store is retail_db.store
    async with retail_db.pool.connection() as conn:
        cur = await conn.execute("SELECT user_id FROM users ORDER BY user_id LIMIT 1")
        row = await cur.fetchone()
    assert row is not None
    user = row["user_id"]
    # The server attaches its checkpointer the same way (`copy`), keeping the store.
    saved = graph.copy(update={"checkpointer": retail_db.checkpointer})
    said = await run_request(
        saved,
        graph.bound_context,
        text="Please contact me by email from now on",
        user_id=user,
    )
    assert said.answer == "Noted: from now on we contact you by e-mail."
    assert [(e.key, e.value) for e in await entries(retail_db.store, user)] == [
        ("contact_channel", "email")
    ]
