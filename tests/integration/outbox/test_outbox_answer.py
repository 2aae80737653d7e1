"""Through the support graph: the answer says what is true about the e-mail."""

from __future__ import annotations

from graphs.api import run_request
from skills.outbox.settings import DeliverySettings
from skills.outbox.worker import deliver_due
from tests.integration.graph.helpers import user_with_orders
from tests.smtp_servers import Inbox, serving
from tests.support_fixtures import Support


async def test_without_smtp_the_answer_says_queued_and_the_worker_sends_it_later(
    support: Support,
) -> None:
    user, [order] = await user_with_orders(support.db.pool, "processed")
    text = f"Check order {order}, track the shipment and email me the details."
    result = await run_request(support.graph, support.ctx, text=text, user_id=user)
    assert result.status == "completed", result.trace
    assert "is queued for delivery" in result.answer and "was sent" not in result.answer
    async with support.db.pool.connection() as conn:
        cur = await conn.execute(
            "SELECT status, attempts FROM notifications WHERE user_id = %s", (user,)
        )
        assert await cur.fetchall() == [{"status": "pending", "attempts": 0}]
    inbox = Inbox()
    with serving(inbox) as smtp:
        counts = await deliver_due(support.db.pool, DeliverySettings.from_env(smtp))
    assert counts.sent == 1 and [m["Subject"] for m in inbox.messages] == ["Your request"]
