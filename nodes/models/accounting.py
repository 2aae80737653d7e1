"""Honest accounting of model calls: what a call may spend, and what it did spend.

Before a call, the budgets (`nodes.models.budget`) are checked against the
ledger; after it, one ledger row records it whatever happened. A reply's own
counts are used when the endpoint reports them; otherwise, and for a failed
or timed-out call (which reports nothing), the input is estimated from the
messages (`nodes.models.estimate`) and the row marked `estimated`. A failed
call is counted with no output; a timed-out one with all the `max_tokens` it
was allowed, since the server may well have generated them all.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from langchain_core.messages import BaseMessage
from langchain_core.runnables import Runnable

from checkpoints import token_ledger
from checkpoints.opening import Pool
from checkpoints.token_ledger import Outcome
from nodes.models.budget import Allowance, Budgets
from nodes.models.estimate import estimate_input_tokens
from nodes.models.tiers import model_name
from nodes.models.usage import Usage, record_usage, usage_of

if TYPE_CHECKING:
    # Only annotations: a process with no model configured never imports the chat model classes.
    from langchain_core.language_models import BaseChatModel


@dataclass(frozen=True)
class CallSite:
    """Who is asking, for the token ledger, the budgets and logs."""

    node: str
    role: str | None = None
    thread_id: str | None = None
    audit_id: str | None = None
    """The request (turn) the call is made for; the request and agent budgets count by it."""


@dataclass(frozen=True)
class Spend:
    """One model call about to be made: where, to whom, what, and its output cap."""

    site: CallSite
    model: BaseChatModel
    messages: Sequence[BaseMessage]
    max_tokens: int
    via: Runnable[Sequence[BaseMessage], BaseMessage] | None = None
    """What the call goes through when not `model` itself (`model` with tools bound)."""
    tools: Sequence[Mapping[str, Any]] = ()
    """The tool schemas bound in `via`: their tokens are part of the prompt."""


async def allowance(
    budgets: Budgets,
    pool: Pool | None,
    site: CallSite,
    messages: Sequence[BaseMessage],
    tools: Sequence[Mapping[str, Any]] = (),
) -> Allowance:
    """What a call from `site` with `messages` (and `tools` bound) may spend under
    `budgets`, from the ledger."""
    if not budgets.limited or pool is None:
        return Allowance(budgets.max_tokens)
    async with pool.connection() as conn:
        spent = await token_ledger.spent(
            conn,
            thread_id=site.thread_id,
            audit_id=site.audit_id,
            node=site.node,
            role=site.role,
            day=datetime.now(UTC).date(),
        )
    return budgets.allowance(spent, estimate_input_tokens(messages, tools))


async def record_call(
    pool: Pool | None, spend: Spend, reply: BaseMessage | None, outcome: Outcome
) -> None:
    """Append the ledger row of one call that was made (see the module docstring)."""
    if pool is None:
        return
    reported = usage_of(reply) if reply is not None else None
    usage = reported or _estimate(spend, reply, outcome)
    site = spend.site
    await record_usage(
        pool,
        thread_id=site.thread_id,
        audit_id=site.audit_id,
        node=site.node,
        role=site.role,
        model=model_name(spend.model),
        input_tokens=usage.input_tokens,
        output_tokens=usage.output_tokens,
        outcome=outcome,
        estimated=reported is None,
    )


def endpoint_of(model: BaseChatModel) -> tuple[str, ...]:
    """What identifies the endpoint a model's requests go to: base URL and model name.

    A model with no base URL of its own (not an OpenAI-compatible client) is
    only ever the same endpoint as itself.
    """
    if not hasattr(model, "openai_api_base"):
        return ("object", str(id(model)))
    base = str(getattr(model, "openai_api_base", None) or "default")
    return ("openai", base.rstrip("/"), model_name(model))


def _estimate(spend: Spend, reply: BaseMessage | None, outcome: Outcome) -> Usage:
    prompt = estimate_input_tokens(spend.messages, spend.tools)
    if reply is not None:
        return Usage(prompt, estimate_input_tokens([reply]))
    return Usage(prompt, spend.max_tokens if outcome == "timed_out" else 0)
