"""Library long-term memory: which stable facts a member states, and what they change.

Facts: whether to e-mail them after a change to their loans, and the branch
they pick books up at. Only a lasting statement ("always", "from now on",
"以后") is a fact. A member who asked to be e-mailed after every change gets
a notification step after a renewal or a waived fine without asking again.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from domains.library.planning import LOAN_SUMMARY, NOTIFIER
from nodes.contracts import Plan, Task, Understanding
from nodes.memory.facts import Fact

EMAIL_UPDATES, PICKUP_BRANCH = "email_updates", "pickup_branch"
_WRITES = frozenset({"renew_loan_v1", "waive_fine_v1"})
_NOTIFY = "send_notification_v1"
_LASTING = re.compile(
    r"from now on|going forward|\balways\b|\bevery time\b|\bprefer\b|以后|今后|总是"
)
_GUESS = re.compile(r"\bmaybe\b|\bperhaps\b|\bi think\b|\bnot sure\b|可能|也许")
_NO_EMAIL = re.compile(r"\b(?:don'?t|do not|never|stop)\b.{0,20}\be-?mail|不要.{0,6}邮件")
_EMAIL = re.compile(r"\be-?mail me\b|发邮件给我|邮件通知我")
_BRANCH = re.compile(
    r"\b(?:pick (?:books )?up|collect)\b.{0,30}?\bat (?:the )?([a-z]{3,20}) branch\b"
)


class LibraryMemory:
    """The library `DomainMemory`."""

    def facts(self, understanding: Understanding) -> list[Fact]:
        text = understanding.text.lower()
        importance = 0.1 if _GUESS.search(text) else 0.9 if _LASTING.search(text) else 0.3
        found = []
        if _NO_EMAIL.search(text):
            found.append(Fact(EMAIL_UPDATES, "no", importance))
        elif _EMAIL.search(text):
            found.append(Fact(EMAIL_UPDATES, "yes", importance))
        if branch := _BRANCH.search(text):
            found.append(Fact(PICKUP_BRANCH, branch.group(1), importance))
        return found

    def relevance(self, key: str, understanding: Understanding) -> float:
        writes = {"renew_loan", "waive_fine"} & set(understanding.intents)
        return 1.0 if key == EMAIL_UPDATES and writes else 0.3

    def acknowledge(self, fact: Fact, lang: str) -> str:
        if fact.key == PICKUP_BRANCH:
            return (
                f"好的，已记下您在{fact.value}分馆取书。"
                if lang == "zh"
                else f"Noted: you pick up books at the {fact.value.title()} branch."
            )
        wants = fact.value == "yes"
        if lang == "zh":
            return (
                "好的，以后借阅有变动时会发邮件通知您。"
                if wants
                else "好的，以后不再发邮件通知您。"
            )
        return f"Noted: from now on we {'e-mail' if wants else 'do not e-mail'} you after a change to your loans."

    def apply(self, plan: Plan, remembered: Mapping[str, str], user_id: str) -> Plan:
        changes = [t.id for t in plan.tasks if t.skill in _WRITES]
        if remembered.get(EMAIL_UPDATES) != "yes" or not changes:
            return plan
        if any(t.skill == _NOTIFY for t in plan.tasks):
            return plan
        body = {
            "member_id": user_id,
            "subject": "Your library loans",
            "body": "bind:" + LOAN_SUMMARY,
        }
        step = Task(id=_free_id(plan), role=NOTIFIER, skill=_NOTIFY, args=body,
                    depends_on=tuple(t.id for t in plan.tasks))  # fmt: skip
        return plan.model_copy(update={"tasks": (*plan.tasks, step)})


def _free_id(plan: Plan) -> str:
    taken = {t.id for t in plan.tasks}
    return next(f"m{n}" for n in range(1, len(taken) + 2) if f"m{n}" not in taken)
