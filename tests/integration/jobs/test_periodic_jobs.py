"""The worker's periodic jobs: outbox delivery runs without `rolegraph notify deliver`."""

from __future__ import annotations

import asyncio

from tests.integration.jobs.workers import workers
from tests.integration.outbox.outbox_rows import add_user, enqueue, row
from tests.smtp_servers import Inbox, serving
from tests.support_fixtures import Support

DEADLINE_S = 120.0
POLL_S = 0.5


async def test_a_queued_notification_is_delivered_by_a_worker(
    support: Support, db_env: dict[str, str]
) -> None:
    await add_user(support.db)
    queued = await enqueue(support.db, "Delivered by a worker")
    inbox = Inbox()
    with serving(inbox) as smtp, workers({**db_env, **smtp}):
        for _ in range(int(DEADLINE_S / POLL_S)):
            if (await row(support.db, queued.id)).status == "sent":
                break
            await asyncio.sleep(POLL_S)
    assert (await row(support.db, queued.id)).status == "sent"
    assert inbox.message_ids() == [queued.message_id]
