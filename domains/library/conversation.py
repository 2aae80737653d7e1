"""The loans desk's part of a conversation: which loans a clarification offers, and
the question a member confirms before a fine is waived."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from checkpoints.opening import Pool
from domains.library.answers import LibraryAnswers
from domains.library.records import LibraryRecords
from domains.library.storage import store
from domains.library.storage.models import LoanView
from nodes.contracts import ConfirmationRequest, Option
from nodes.language import Lang, say


class LibraryConversationRecords(LibraryRecords):
    """Members' loans, offered as the options of a clarification."""

    async def options(
        self, pool: Pool, user_id: str, slot: str, intents: tuple[str, ...], lang: Lang
    ) -> list[Option]:
        if slot != "loan_ids":
            return []
        async with pool.connection() as conn:
            loans = [
                loan for loan in await store.loans_of(conn, user_id) if loan.returned_on is None
            ]
        if "waive_fine" in intents:
            loans = [loan for loan in loans if loan.fine_cents and not loan.fine_waived] or loans
        return [_option(loan, lang) for loan in loans]


class LibraryConversationAnswers(LibraryAnswers):
    """The desk's sentences, with the clarification and confirmation questions."""

    def ask(self, slot: str, intents: tuple[str, ...], lang: Lang) -> str:
        return say(lang, "Which loan do you mean?", "请问您指的是哪一笔借阅？")

    def confirmation(
        self, request: ConfirmationRequest, results: Mapping[str, Any], lang: Lang
    ) -> str:
        loan = request.args.get("loan_id", "")
        return say(lang, f"ask to waive the fine on loan {loan}", f"申请免除借阅 {loan} 的罚款")


def _option(loan: LoanView, lang: Lang) -> Option:
    due = say(lang, "due {d}", "{d} 到期").format(d=loan.due_on.isoformat())
    words = (loan.book_id.lower(), *loan.title.lower().split())
    return Option(value=loan.loan_id, label=f'{loan.loan_id} "{loan.title}" ({due})', words=words)
