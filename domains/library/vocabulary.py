"""The library desk's intents and slots, and its rules-tier reading (English and Chinese).

`read` looks only at the text: write intents need a loan id written in the
request, so "how many times can I renew?" is a policy question and
"renew LN-20001" is a renewal.
"""

from __future__ import annotations

import re

from nodes.contracts import Understanding
from nodes.domain import OUT_OF_SCOPE, IntentSpec, SlotSpec

LOAN_ID = r"LN-\d{5}"
BOOK_ID = r"BK-\d{4}"
EMAIL = r"[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}"
WAIVE_REASONS = ("first offence", "library error", "hardship")

INTENTS = (
    IntentSpec("human_handoff", "the member asks for a librarian", safety=True, handoff=True),
    IntentSpec(
        "waive_fine",
        "waive the fine of a loan (needs approval)",
        writes=True,
        requires=("loan_ids",),
    ),
    IntentSpec("renew_loan", "renew a loan", writes=True, refers=("loan_ids",)),
    IntentSpec("loan_status", "the member's loans, due dates and fines", refers=("loan_ids",)),
    IntentSpec("book_availability", "whether a book is on the shelf"),
    IntentSpec("notify", "e-mail the member about their loans", writes=True),
    IntentSpec("policy_question", "loan periods, renewals, holds and fines"),
    IntentSpec(OUT_OF_SCOPE, "anything the desk does not do", safety=True),
)
SLOTS = (
    SlotSpec("loan_ids", "loan ids (LN- and 5 digits)", kind="identifier",
             pattern=LOAN_ID, many=True, owned=True),
    SlotSpec("book_ids", "book ids (BK- and 4 digits)", kind="identifier",
             pattern=BOOK_ID, many=True),
    SlotSpec("emails", "e-mail addresses", kind="identifier", pattern=EMAIL, many=True),
    SlotSpec("reason", "why a fine should be waived", kind="choice",
             choices=WAIVE_REASONS, shapes_write=True),
)  # fmt: skip

_I = re.IGNORECASE
_PHRASES: dict[str, re.Pattern[str]] = {
    "human_handoff": re.compile(
        r"\b(librarian|human|real person|speak to (someone|a person|staff))\b|人工|馆员|真人", _I
    ),
    "waive_fine": re.compile(
        r"\b(waive|forgive|remove|cancel)\b.*\bfines?\b|(免除|取消|减免).*罚款|罚款.*(免除|减免)|免罚",
        _I,
    ),
    "renew_loan": re.compile(r"\b(renew|extend)\w*\b|续借", _I),
    "loan_status": re.compile(
        r"\b(my loans|loan status|due|borrowed|checked out|what (books )?do i have)\b"
        r"|借了|借阅记录|到期|借阅状态",
        _I,
    ),
    "book_availability": re.compile(r"\b(available|on the shelf|in stock)\b|可借|在架", _I),
    "notify": re.compile(r"\b(e-?mail|send) me\b|\bnotify me\b|发邮件|邮件通知", _I),
    "policy_question": re.compile(
        r"\b(how (long|many|much)|policy|rules?|what happens|can i|is there)\b"
        r"|政策|规则|多久|几次|怎么算|可以.*吗",
        _I,
    ),
}
_WRITES_NEED_LOAN = ("waive_fine", "renew_loan")
_REASONS = (
    ("first offence", re.compile(r"first (offence|offense|time)|首次|第一次", _I)),
    ("library error", re.compile(r"library error|your (mistake|error)|图书馆.*(错|差错)", _I)),
    ("hardship", re.compile(r"hardship|can(no|')t afford|困难", _I)),
)


def read(text: str) -> tuple[tuple[str, ...], dict[str, tuple[str, ...]]]:
    """(intents in priority order, never empty; slots) of normalised text."""
    slots = _slots(text)
    found = [name for name, pattern in _PHRASES.items() if pattern.search(text)]
    if not slots["loan_ids"]:
        found = [i for i in found if i not in _WRITES_NEED_LOAN]
    if not slots["book_ids"]:
        found = [i for i in found if i != "book_availability"]
    if len(found) > 1 and "policy_question" in found:
        found.remove("policy_question")  # "can I renew LN-…" asks for the renewal itself
    order = [spec.name for spec in INTENTS]
    intents = tuple(sorted(found, key=order.index)) or (OUT_OF_SCOPE,)
    return intents, {k: v for k, v in slots.items() if v}


def _slots(text: str) -> dict[str, tuple[str, ...]]:
    reason = next((name for name, pattern in _REASONS if pattern.search(text)), None)
    return {
        "loan_ids": _ids(LOAN_ID, text),
        "book_ids": _ids(BOOK_ID, text),
        "emails": tuple(dict.fromkeys(re.findall(EMAIL, text))),
        "reason": (reason,) if reason else (),
    }


def _ids(pattern: str, text: str) -> tuple[str, ...]:
    found = re.findall(rf"(?<![A-Za-z0-9]){pattern}(?![0-9])", text, _I)
    return tuple(dict.fromkeys(value.upper() for value in found))


def slot(understanding: Understanding, name: str) -> tuple[str, ...]:
    """The values intake read for one slot."""
    return understanding.slot(name)
