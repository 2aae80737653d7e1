"""A thread's context budget, and how its history is counted against it.

Tokens are counted with LangChain's `count_tokens_approximately` (about four
characters a token, plus a little per message): deterministic, offline, and
the same whichever model is configured. A model's own tokenizer would need
its vocabulary (`tiktoken` downloads it on first use; a local model behind an
OpenAI-compatible endpoint has none we can know), and the budget only decides
*when* to compress, which an approximation decides well enough.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from langchain_core.messages import BaseMessage
from langchain_core.messages.utils import count_tokens_approximately

from checkpoints.settings import env_number

CONTEXT_TOKENS_ENV = "ROLEGRAPH_CONTEXT_TOKENS"
DEFAULT_CONTEXT_TOKENS = 4000
"""Half the 8k context of the small local models the small tier targets: the
other half stays free for instructions, the turn's data and the answer. About
16 000 characters, some 15 turns of support conversation before compression."""
MIN_CONTEXT_TOKENS = 500
"""Below this the three turns kept verbatim alone would fill the budget."""
DEFAULT_THRESHOLD = 0.8
KEEP_TURNS = 3
"""The last turns (a customer message and its answer) always kept verbatim."""
GROUP_SIZE = 5
"""Messages summarised together (the map step)."""
GROUP_CHARS = 200
SUMMARY_CHARS = 300


@dataclass(frozen=True)
class ContextBudget:
    """How much history a thread keeps in its state before compressing it."""

    tokens: int = DEFAULT_CONTEXT_TOKENS
    threshold: float = DEFAULT_THRESHOLD
    """Share of `tokens` the history may reach before older turns are compressed."""

    @property
    def limit(self) -> int:
        """Tokens the history may hold before it is compressed."""
        return int(self.tokens * self.threshold)

    def exceeded_by(self, messages: Sequence[BaseMessage]) -> bool:
        """Whether `messages` hold more tokens than the budget allows."""
        return count_tokens(messages) > self.limit


def count_tokens(messages: Sequence[BaseMessage]) -> int:
    """The approximate token count of `messages` (see the module docstring)."""
    return count_tokens_approximately(messages)


def context_budget_from(env: Mapping[str, str] | None) -> ContextBudget:
    """`ROLEGRAPH_CONTEXT_TOKENS` (a whole number of tokens, at least 500; default 4000)."""
    tokens = env_number(
        env or {}, CONTEXT_TOKENS_ENV, DEFAULT_CONTEXT_TOKENS, int, MIN_CONTEXT_TOKENS
    )
    return ContextBudget(tokens=int(tokens))
