"""Token estimates for calls whose endpoint reported no counts (failed, timed out, silent),
and for the input of a call about to be made (budgets are checked before it).

LangChain's `count_tokens_approximately` (about four characters a token plus a
few per message, the estimator the context budget uses too), with one
correction: a character outside ASCII (Chinese, most accents, emoji) is
counted as a whole token, since tokenizers spend about one on each, and the
four-characters rule would under-count a Chinese conversation fourfold.

A model's own tokenizer is not used: `tiktoken` downloads its vocabulary on
first use, which an offline deployment cannot, and a local model behind an
OpenAI-compatible endpoint has no vocabulary we know. An estimate only has to
keep the ledger from under-counting by much.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from langchain_core.messages import BaseMessage
from langchain_core.messages.utils import count_tokens_approximately
from langchain_core.tools import BaseTool

CHARS_PER_TOKEN = 4.0


def estimate_input_tokens(
    messages: Sequence[BaseMessage], tools: Sequence[Mapping[str, Any]] = ()
) -> int:
    """The estimated prompt tokens of `messages`, and of the tool schemas bound with them
    (sent with every call too; see the module docstring)."""
    wide = sum(1 for m in messages for ch in m.text if ord(ch) > 127)
    shown: list[BaseTool | dict[str, Any]] | None = [dict(t) for t in tools] or None
    # count_tokens_approximately counted each of them as 1/4 token already.
    counted = count_tokens_approximately(messages, tools=shown)
    return counted + math.ceil(wide * (1 - 1 / CHARS_PER_TOKEN))
