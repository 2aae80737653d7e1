"""The customer this request's caller has already found in the domain's records.

`graphs.api.run_request` looks the customer up before it starts a turn (an
unknown one is an error, not a new thread); intake looks again for callers that
reach the graph directly (LangGraph Studio, the SDK). Within one API call the
second look would read the same row again, so the API marks the customer it
found in a context variable: the graph's nodes run in copies of the caller's
context and see it, and no remote caller can set it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from checkpoints.opening import Pool
from nodes.domain import Domain

_CHECKED: ContextVar[str | None] = ContextVar("rolegraph_checked_customer", default=None)


@contextmanager
def customer_checked(user_id: str) -> Iterator[None]:
    """Within this block, `user_id` is known to be one of the domain's customers."""
    token = _CHECKED.set(user_id)
    try:
        yield
    finally:
        _CHECKED.reset(token)


async def customer_exists(domain: Domain, pool: Pool, user_id: str) -> bool:
    """Whether `user_id` is a customer: from the caller's check, else from the records."""
    if _CHECKED.get() == user_id:
        return True
    return await domain.records.customer_exists(pool, user_id)
