"""The customer's own records, as intake checks them (`DomainRecords`)."""

from __future__ import annotations

from checkpoints.opening import Pool
from domains.retail.storage.customers import foreign_orders, user_exists
from nodes.contracts import Understanding


class RetailRecords:
    """Accounts are `users` rows; the owned records a request names are orders."""

    async def customer_exists(self, pool: Pool, user_id: str) -> bool:
        return await user_exists(pool, user_id)

    async def foreign(self, pool: Pool, user_id: str, understanding: Understanding) -> list[str]:
        return await foreign_orders(pool, user_id, understanding.slot("order_ids"))
