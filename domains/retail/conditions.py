"""Conditions a retail customer puts on a change ("if it hasn't shipped yet, cancel it").

The rules read a condition only where the text makes one: a conditional word
(if / unless / as long as / only if / provided, 如果 / 要是 / 假如 / 只要 /
除非, or 的话 / 就 after the state) next to a state of the order ("hasn't
shipped", "still pending", "还没发货", "送到了"). "Unless" flips it. The
result is one `condition` slot value; the templates put it on every order
write as a `Condition` on the write's order lookup, so the write runs only
when the status read just before it is one the condition allows.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from domains.retail.storage.models import ORDER_STATUSES
from nodes.contracts import Condition
from nodes.domain import ConditionField, SlotSpec

ORDER_READ = "get_order_details_v1"
STATUS = "status"
CONDITIONS: Mapping[str, tuple[str, ...]] = {
    "not_shipped": ("pending", "pending (item modified)"),
    "not_delivered": ("pending", "pending (item modified)", "processed"),
    "shipped": ("processed", "delivered"),
    "delivered": ("delivered",),
}
"""Condition slot value -> the tau2 order statuses for which it holds ("processed" is shipped)."""
OPPOSITE: Mapping[str, str] = {
    "not_shipped": "shipped",
    "shipped": "not_shipped",
    "not_delivered": "delivered",
    "delivered": "not_delivered",
}
CONDITION_SLOT = SlotSpec(
    "condition",
    "a condition the customer puts on the change, on the order's state: not_shipped"
    ' ("if it hasn\'t shipped yet"), not_delivered ("if it hasn\'t arrived"), shipped, delivered'
    ' ("if it\'s been delivered"); "unless" flips it',
    kind="choice",
    choices=tuple(CONDITIONS),
    shapes_write=True,
    max_chars=20,
)
"""The `condition` slot of the retail vocabulary (`domains.retail.understanding.SLOTS`)."""
FIELDS: tuple[ConditionField, ...] = (ConditionField(ORDER_READ, STATUS, tuple(ORDER_STATUSES)),)
"""What a retail condition may test: the status of an order just read."""

_NOT = r"\b(?:hasn'?t|has not|haven'?t|have not|isn'?t|is not|wasn'?t|was not|didn'?t|did not|not)"
# Negative states first: at one position "hasn't shipped" wins over "shipped".
_STATES: tuple[tuple[str, str], ...] = (
    ("not_shipped", _NOT + r"\s+(?:yet\s+|been\s+|even\s+)*(?:shipped|sent(?:\s+out)?"
                    r"|dispatched|gone\s+out|left|processed)\b"),
    ("not_shipped", r"\bpending\b"),
    ("not_shipped", "(?:还|仍|尚)?(?:没有?|未)(?:发货|发出|寄出|出库|发)|待处理"),
    ("not_delivered", _NOT + r"\s+(?:yet\s+|been\s+|even\s+)*(?:delivered|arrived?|come|here"
                      r"|received|got(?:ten)?)\b"),
    ("not_delivered", "(?:还|仍|尚)?(?:没有?|未)(?:送到|送达|到货|到|收到|签收)"),
    ("delivered", r"\b(?:delivered|arrived|received|got(?:ten)?\s+it|it'?s\s+here|it\s+is\s+here)\b"),
    ("delivered", "(?:送到|送达|到货|签收|收到|到)了|已经?(?:送到|送达|到货|签收|收到|到)"),
    ("shipped", r"\b(?:shipped|dispatched|sent\s+out|on\s+its\s+way|in\s+transit)\b"),
    ("shipped", "已经?(?:发货|发出|寄出|出库)|(?:发货|发出|寄出)了|在路上"),
)  # fmt: skip
_IF = re.compile(
    r"\b(?:if|only if|as long as|so long as|provided(?: that)?|providing|assuming|in case)\b"
    "|如果|要是|假如|假使|倘若|若是|只要"
)
_UNLESS = re.compile(r"\bunless\b|除非")
_THEN = re.compile(r"^\s*了?\s*(?:的话|就)")
"""After a state: "送到了的话", "还没发货就…"."""
_CLAUSE_END = re.compile(r"[.!?。！？;；\n]")
WINDOW = 50
"""Characters after a conditional word in which its state must start."""


def read_condition(text: str) -> str | None:
    """The condition the text puts on its request (a `CONDITIONS` key), or None."""
    lowered = text.lower().replace("’", "'")
    for clause in _CLAUSE_END.split(lowered):
        if found := _in_clause(clause):
            return found
    return None


def condition_on(lookup: str, name: str) -> Condition:
    """The `Condition` slot value `name` puts on a write whose order lookup is `lookup`."""
    return Condition(task=lookup, field=STATUS, values=CONDITIONS[name], name=name)


def _in_clause(clause: str) -> str | None:
    for marker, flip in ((_IF, False), (_UNLESS, True)):
        for match in marker.finditer(clause):
            state = _first_state(clause[match.end() : match.end() + WINDOW])
            if state is not None:
                return OPPOSITE[state[0]] if flip else state[0]
    for name, pattern in _STATES:
        for match in re.finditer(pattern, clause):
            if _THEN.match(clause[match.end() :]):
                return name
    return None


def _first_state(window: str) -> tuple[str, int] | None:
    """The state that starts first in `window` (ties: the earlier, more specific pattern)."""
    found = [
        (name, match.start())
        for name, pattern in _STATES
        if (match := re.search(pattern, window)) is not None
    ]
    return min(found, key=lambda f: f[1]) if found else None
