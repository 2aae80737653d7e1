"""Withdrawals composed from a negating frame and a write's action ("no need to" × "cancel
{order}", "先别" × "取消"): each alone is out_of_scope, and next to another request it adds no
label. Composition teaches the negation itself rather than a few fixed sentences."""

from __future__ import annotations

from domains.retail.intents.group import Group

FRAMES_EN = (
    "don't {act}",
    "no need to {act}",
    "please don't {act}",
    "I don't want to {act} anymore",
    "never mind, don't {act}",
    "actually, do not {act}",
    "you don't have to {act} after all",
)
ACTIONS_EN = (
    ("cancel_order", "cancel {order}"),
    ("cancel_order", "cancel it"),
    ("cancel_order", "cancel my order"),
    ("return_items", "return it"),
    ("return_items", "return the {product}"),
    ("return_items", "refund it"),
    ("exchange_items", "exchange it"),
    ("exchange_items", "swap the {product}"),
    ("modify_order", "change the address on {order}"),
    ("modify_order", "switch the payment"),
    ("update_account", "update my account address"),
    ("notify", "email me"),
    ("human_handoff", "transfer me to a human"),
    ("human_handoff", "get me an agent"),
)
FRAMES_ZH = (
    "不用{act}了",
    "别{act}",
    "先不要{act}",
    "算了，不{act}了",
    "不想{act}了",
    "还是别{act}了",
    "暂时不{act}",
)
ACTIONS_ZH = (
    ("cancel_order", "取消"),
    ("cancel_order", "取消{order}"),
    ("cancel_order", "取消订单"),
    ("return_items", "退货"),
    ("return_items", "退{product}"),
    ("return_items", "退款"),
    ("exchange_items", "换货"),
    ("exchange_items", "换{product}"),
    ("modify_order", "改{order}的地址"),
    ("modify_order", "改付款方式"),
    ("update_account", "改账户地址"),
    ("notify", "发邮件"),
    ("human_handoff", "转人工"),
    ("human_handoff", "找客服"),
)


def composed(frames: tuple[str, ...], acts: tuple[tuple[str, str], ...]) -> Group:
    """Every frame with every action, as one out_of_scope group (filled fewer times than a
    written template: there are many of them and they differ by a word)."""
    texts = tuple(frame.format(act=act) for _, act in acts for frame in frames)
    return Group("withdrawal", ("out_of_scope",), texts, renders=3)


def as_pairs(
    frames: tuple[str, ...], acts: tuple[tuple[str, str], ...]
) -> tuple[tuple[str, str], ...]:
    """Every composed withdrawal with the intent it withdraws, to put next to a request."""
    return tuple((intent, frame.format(act=act)) for intent, act in acts for frame in frames)


WITHDRAWALS_EN = composed(FRAMES_EN, ACTIONS_EN)
WITHDRAWALS_ZH = composed(FRAMES_ZH, ACTIONS_ZH)
