"""Token budgets per request, per agent and per day, and what one call may spend.

`ROLEGRAPH_BUDGET_REQUEST`, `ROLEGRAPH_BUDGET_AGENT` and `ROLEGRAPH_BUDGET_DAY`
are token counts (input plus output; unset = no limit), checked against the
token ledger before every model call (`nodes.models.call`):

- request: this thread's current turn (its audit id), every node together;
- agent: one node, or one role, within that request;
- day: every call of the UTC day, every thread.

A call may write at most min(`ROLEGRAPH_MAX_TOKENS`, what the tightest budget
leaves after the call's estimated input); a call that could not write even
`MIN_REPLY_TOKENS` is not made, and the ladder moves down.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from checkpoints.settings import env_number
from checkpoints.token_ledger import Spent
from nodes.errors import ModelConfigError

BudgetScope = Literal["request", "agent", "day"]
BUDGET_SETTINGS: Mapping[BudgetScope, str] = {
    "request": "ROLEGRAPH_BUDGET_REQUEST",
    "agent": "ROLEGRAPH_BUDGET_AGENT",
    "day": "ROLEGRAPH_BUDGET_DAY",
}
MAX_TOKENS_ENV = "ROLEGRAPH_MAX_TOKENS"
DEFAULT_MAX_TOKENS = 1024
"""Every reply the harness asks for (a reading, a plan, a summary) fits in far less;
a model that runs on is cut off here instead of at its context length."""
MIN_REPLY_TOKENS = 32
"""A call allowed fewer output tokens than this could not answer: it is not made."""


@dataclass(frozen=True)
class Allowance:
    """What one model call may spend: its `max_tokens`, or the budget that stops it."""

    max_tokens: int
    over: BudgetScope | None = None
    """The budget the call would exceed; None when the call may be made."""


@dataclass(frozen=True)
class Budgets:
    """Token limits (None = no limit) and the per-call output cap."""

    request: int | None = None
    agent: int | None = None
    day: int | None = None
    max_tokens: int = DEFAULT_MAX_TOKENS

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> Budgets:
        """Read the three budgets and `ROLEGRAPH_MAX_TOKENS` (whole numbers of tokens)."""
        limits = {scope: _limit(env, name) for scope, name in BUDGET_SETTINGS.items()}
        cap = env_number(
            env, MAX_TOKENS_ENV, DEFAULT_MAX_TOKENS, int, MIN_REPLY_TOKENS, ModelConfigError
        )
        return cls(limits["request"], limits["agent"], limits["day"], int(cap))

    @property
    def limited(self) -> bool:
        """True when any budget is set (the ledger must then be read before a call)."""
        return any(v is not None for v in self._limits().values())

    def allowance(self, spent: Spent, input_tokens: int) -> Allowance:
        """The output tokens a call with `input_tokens` may use, given what is `spent`."""
        left = {
            scope: limit - _spent_in(spent, scope) - input_tokens
            for scope, limit in self._limits().items()
            if limit is not None
        }
        if not left:
            return Allowance(self.max_tokens)
        tightest = min(left, key=lambda s: left[s])
        allowed = min(self.max_tokens, left[tightest])
        if allowed < MIN_REPLY_TOKENS:
            return Allowance(0, over=tightest)
        return Allowance(allowed)

    def describe(self) -> str:
        """The set budgets, for the CLI's start-up notice ("" when none)."""
        return ", ".join(f"{s} {v}" for s, v in self._limits().items() if v is not None)

    def _limits(self) -> dict[BudgetScope, int | None]:
        return {"request": self.request, "agent": self.agent, "day": self.day}


def _spent_in(spent: Spent, scope: BudgetScope) -> int:
    return {"request": spent.request, "agent": spent.agent, "day": spent.day}[scope]


def _limit(env: Mapping[str, str], name: str) -> int | None:
    if not env.get(name, "").strip():
        return None
    return int(env_number(env, name, 0, int, 1, ModelConfigError, unset="no limit"))
