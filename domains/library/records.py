"""The member's own records, as intake checks them."""

from __future__ import annotations

from checkpoints.opening import Pool
from domains.library.storage import store
from domains.library.vocabulary import slot
from nodes.contracts import Understanding


class LibraryRecords:
    """`DomainRecords` of the library desk: members own their loans."""

    async def customer_exists(self, pool: Pool, user_id: str) -> bool:
        async with pool.connection() as conn:
            return await store.member(conn, user_id) is not None

    async def foreign(self, pool: Pool, user_id: str, understanding: Understanding) -> list[str]:
        """Loan ids that do not exist or are another member's (answered alike)."""
        loan_ids = slot(understanding, "loan_ids")
        async with pool.connection() as conn:
            owners = await store.loan_owners(conn, loan_ids)
        return [loan_id for loan_id in loan_ids if owners.get(loan_id) != user_id]
