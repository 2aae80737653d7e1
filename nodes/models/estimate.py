"""Token estimates for calls whose endpoint reported no counts (failed, timed out, silent).

LangChain's `count_tokens_approximately`: about four characters a token plus
a few per message, the same estimator the context budget uses
(`nodes.conversation.budget`). A model's own tokenizer is not used: `tiktoken`
downloads its vocabulary on first use, which an offline deployment cannot, and
a local model behind an OpenAI-compatible endpoint has no vocabulary we know.
An estimate only has to keep the ledger from under-counting by much.
"""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.messages import BaseMessage
from langchain_core.messages.utils import count_tokens_approximately


def estimate_input_tokens(messages: Sequence[BaseMessage]) -> int:
    """The estimated prompt tokens of `messages` (see the module docstring)."""
    return count_tokens_approximately(messages)
