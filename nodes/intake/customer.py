"""Whose request this is: the customer comes from the identity, never from input.

A customer identity acts for itself; input naming another user is refused
(with the same words as a missing account, so nothing is probed). An
operator acts for the customer the input names. Nobody else acts at all.
"""

from __future__ import annotations

from dataclasses import dataclass

from nodes.identity import Identity
from nodes.language import Bilingual

REFUSE_UNAUTHENTICATED = Bilingual(
    "I can't tell who you are, so I can't look anything up.",
    "我无法确认您的身份，所以没办法为您查询。",
)
REFUSE_OTHER_CUSTOMER = Bilingual(
    "I can only help with your own account.", "我只能协助处理您本人账户的事务。"
)
REFUSE_NO_CLAIM = Bilingual(
    "Tell me which customer this request is for (user_id).",
    "请告诉我这个请求是为哪位客户办理的（user_id）。",
)


@dataclass(frozen=True)
class Customer:
    """The customer a request acts for, or why there is none."""

    user_id: str | None
    refusal: Bilingual | None = None


def resolve_customer(identity: Identity | None, claimed: object) -> Customer:
    """The customer of this request, from the caller's identity and the input's claim."""
    if identity is None:
        return Customer(None, REFUSE_UNAUTHENTICATED)
    if identity.user_id is not None:
        if claimed not in (None, "", identity.user_id):
            return Customer(None, REFUSE_OTHER_CUSTOMER)
        return Customer(identity.user_id)
    if not isinstance(claimed, str) or not claimed:
        return Customer(None, REFUSE_NO_CLAIM)
    return Customer(claimed)
