"""Whose request this is: the customer comes from the identity, never from input.

A customer identity acts for itself; input naming another user is refused
(with the same words as a missing account, so nothing is probed). An
operator acts for the customer the input names. Nobody else acts at all.
"""

from __future__ import annotations

from dataclasses import dataclass

from nodes.identity import Identity

REFUSE_UNAUTHENTICATED = "I can't tell who you are, so I can't look anything up."
REFUSE_OTHER_CUSTOMER = "I can only help with your own account."


@dataclass(frozen=True)
class Customer:
    """The customer a request acts for, or why there is none."""

    user_id: str | None
    refusal: str | None = None


def resolve_customer(identity: Identity | None, claimed: object) -> Customer:
    """The customer of this request, from the caller's identity and the input's claim."""
    if identity is None:
        return Customer(None, REFUSE_UNAUTHENTICATED)
    if identity.user_id is not None:
        if claimed not in (None, "", identity.user_id):
            return Customer(None, REFUSE_OTHER_CUSTOMER)
        return Customer(identity.user_id)
    if not isinstance(claimed, str) or not claimed:
        return Customer(None, "Tell me which customer this request is for (user_id).")
    return Customer(claimed)
