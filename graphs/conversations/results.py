"""A conversation suite's results: per turn, per conversation, and the totals."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from graphs.conversations.scoring import TurnOutcome


@dataclass(frozen=True)
class TurnResult:
    """One scored turn."""

    number: int
    said: str
    """The step as the script wrote it (`say: …`, `operator: approve`)."""
    outcome: TurnOutcome
    problems: list[str]

    @property
    def passed(self) -> bool:
        return not self.problems

    def describe(self) -> str:
        """The failing turn in one line: what was said, what went wrong, what was answered."""
        answer = " ".join(self.outcome.answer.split())[:160]
        question = self.outcome.question
        asked = f" | question {question.kind}: {question.text[:80]!r}" if question else ""
        return (
            f"turn {self.number} {self.said[:70]!r}: {'; '.join(self.problems)}"
            f" | got {self.outcome.status}: {answer!r}{asked}"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "turn": self.number,
            "said": self.said,
            "passed": self.passed,
            "problems": self.problems,
            **self.outcome.to_json(),
        }


@dataclass(frozen=True)
class ConversationResult:
    """One conversation: it passes when every turn does."""

    id: str
    turns: list[TurnResult]
    changed: tuple[str, ...] | None = None
    """The records the conversation changed (put back since); None: the domain cannot tell."""

    @property
    def passed(self) -> bool:
        return all(t.passed for t in self.turns)

    def describe(self) -> list[str]:
        """`PASS id` or `FAIL id`, then one line per failing turn."""
        head = f"{'PASS' if self.passed else 'FAIL'} {self.id} ({len(self.turns)} turns)"
        return [head, *(f"  {t.describe()}" for t in self.turns if not t.passed)]

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "passed": self.passed,
            "changed": list(self.changed) if self.changed is not None else None,
            "turns": [t.to_json() for t in self.turns],
        }


@dataclass(frozen=True)
class SuiteReport:
    """Every conversation's result, and the counts of passed and failed."""

    conversations: list[ConversationResult]

    @property
    def turns(self) -> list[TurnResult]:
        return [t for c in self.conversations for t in c.turns]

    @property
    def pass_rate(self) -> float:
        """Passed turns over all turns (the suite is scored turn by turn)."""
        turns = self.turns
        return sum(t.passed for t in turns) / len(turns) if turns else 0.0

    def summary(self) -> list[str]:
        """`conversations: N passed, N failed` and `turns: N passed, N failed`."""
        conv_ok = sum(c.passed for c in self.conversations)
        turn_ok = sum(t.passed for t in self.turns)
        return [
            f"conversations: {conv_ok} passed, {len(self.conversations) - conv_ok} failed",
            f"turns: {turn_ok} passed, {len(self.turns) - turn_ok} failed"
            f" (pass rate {self.pass_rate:.1%})",
        ]

    def failures(self) -> list[str]:
        """One line per failing turn, prefixed by its conversation."""
        return [
            f"{c.id}: {t.describe()}" for c in self.conversations for t in c.turns if not t.passed
        ]

    def to_json(self) -> dict[str, Any]:
        conv_ok = sum(c.passed for c in self.conversations)
        turn_ok = sum(t.passed for t in self.turns)
        return {
            "conversations": {"passed": conv_ok, "failed": len(self.conversations) - conv_ok},
            "turns": {"passed": turn_ok, "failed": len(self.turns) - turn_ok},
            "pass_rate": round(self.pass_rate, 4),
            "results": [c.to_json() for c in self.conversations],
        }
