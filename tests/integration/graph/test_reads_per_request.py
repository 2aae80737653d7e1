"""One request reads the customer's row once: the API's check spares intake its
own, which still refuses an unknown customer when the graph is called directly."""

from __future__ import annotations

import re
from typing import Any

import psycopg
import pytest

from graphs.api import report, run_request
from nodes.identity import AUTH_USER_KEY
from tests.integration.graph.helpers import OPERATOR, user_with_orders
from tests.support_fixtures import Support

READS_USERS = re.compile(r"\bFROM\s+users\b", re.IGNORECASE)


def _statements(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every statement any cursor of this process executes from now on, as text."""
    seen: list[str] = []
    execute = psycopg.AsyncCursor.execute

    async def recording(cur: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
        seen.append(query if isinstance(query, str) else query.as_string(cur.connection))
        return await execute(cur, query, *args, **kwargs)

    monkeypatch.setattr(psycopg.AsyncCursor, "execute", recording)
    return seen


async def test_a_read_request_reads_the_customer_once(
    support: Support, monkeypatch: pytest.MonkeyPatch
) -> None:
    user, (order,) = await user_with_orders(support.db.pool, "processed", skip=3)
    statements = _statements(monkeypatch)
    first = await run_request(support.graph, support.ctx, text=f"status of {order}?", user_id=user)
    assert first.status == "completed"
    assert len([s for s in statements if READS_USERS.search(s)]) == 1
    statements.clear()
    again = await run_request(
        support.graph, support.ctx, text=f"and where is {order}?", user_id=user,
        thread_id=first.thread_id, actor=OPERATOR,
    )  # fmt: skip
    assert again.status == "completed"
    assert len([s for s in statements if READS_USERS.search(s)]) == 1


async def test_called_directly_the_graph_still_refuses_an_unknown_customer(
    support: Support, monkeypatch: pytest.MonkeyPatch
) -> None:
    statements = _statements(monkeypatch)
    config = {
        "configurable": {"thread_id": "direct-unknown", AUTH_USER_KEY: OPERATOR.as_auth_user()}
    }
    payload = {"text": "where is my order?", "user_id": "nobody_0000"}
    await support.graph.ainvoke(payload, config, context=support.ctx)
    refused = await report(support.graph, "direct-unknown")
    assert refused.status == "refused"
    assert [s for s in statements if READS_USERS.search(s)]
