"""One model call inside the request's deadline, retried only when the endpoint says when.

Each attempt's timeout is min(per-call timeout, time left in the request).
A 429 is retried (after its Retry-After, else a short backoff); a 408 or 5xx
only when it carries a Retry-After: any other failure moves the ladder on
at once. A retry whose wait would end past the deadline is not made.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from email.utils import parsedate_to_datetime
from typing import TYPE_CHECKING, Any

from langchain_core.messages import BaseMessage
from tenacity import AsyncRetrying, RetryCallState, retry_if_exception

from nodes.errors import ModelCallTimeout, ModelDeadlineExceeded

if TYPE_CHECKING:
    # Only annotations: a process with no model configured never imports the chat model classes.
    from langchain_core.language_models import BaseChatModel

log = logging.getLogger(__name__)
Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]

MAX_RETRIES = 2
BACKOFF_S = 0.5  # for a 429 without Retry-After, doubling per retry
MAX_RETRY_AFTER_S = 120.0  # a longer ask is treated as "not now" (the deadline is shorter anyway)


async def invoke(
    model: BaseChatModel,
    messages: Sequence[BaseMessage],
    *,
    per_call_s: float,
    deadline: float,
    clock: Clock = time.monotonic,
    sleep: Sleep = asyncio.sleep,
    max_tokens: int | None = None,
) -> BaseMessage:
    """The model's reply, or the last failure (`ModelCallTimeout`, `ModelDeadlineExceeded`, ...).

    `max_tokens`, when given, is passed to the model call (the request body's `max_tokens`).
    """
    retrying = AsyncRetrying(
        stop=lambda state: _attempts_or_deadline(state, deadline, clock),
        wait=_wait,
        retry=retry_if_exception(_retryable),
        before_sleep=_log_retry,
        sleep=sleep,
        reraise=True,
    )
    reply: BaseMessage = await retrying(
        _attempt, model, messages, per_call_s, deadline, clock, max_tokens
    )
    return reply


async def _attempt(
    model: BaseChatModel,
    messages: Sequence[BaseMessage],
    per_call_s: float,
    deadline: float,
    clock: Clock,
    max_tokens: int | None,
) -> BaseMessage:
    left_s = deadline - clock()
    if left_s <= 0:
        raise ModelDeadlineExceeded("the request's time for model calls is spent")
    timeout_s = min(per_call_s, left_s)
    try:
        # The client has its own timeout too; this one also bounds slow
        # streaming, a model object that has none, and the request deadline.
        async with asyncio.timeout(timeout_s):
            return await model.ainvoke(list(messages), **token_cap(model, max_tokens))
    except Exception as exc:
        if isinstance(exc, TimeoutError) or _client_timeout(exc):
            raise ModelCallTimeout(timeout_s, clipped=timeout_s < per_call_s) from exc
        raise


def token_cap(model: BaseChatModel, max_tokens: int | None) -> dict[str, Any]:
    """The call arguments that cap a reply at `max_tokens` output tokens.

    `ChatOpenAI` sends the cap as `max_completion_tokens`, which OpenAI reads
    but some OpenAI-compatible local servers ignore; to an endpoint of its own
    (`OPENAI_BASE_URL`) the cap also goes as the older `max_tokens`.
    """
    if max_tokens is None:
        return {}
    if getattr(model, "openai_api_base", None):
        return {"max_tokens": max_tokens, "extra_body": {"max_tokens": max_tokens}}
    return {"max_tokens": max_tokens}


def retry_after_s(exc: BaseException) -> float | None:
    """The wait an HTTP error asks for (Retry-After-Ms / Retry-After), else None."""
    headers = _http_error(exc)[1]
    if headers is None:
        return None
    raw_ms = headers.get("retry-after-ms")
    if raw_ms:
        try:
            return max(float(raw_ms) / 1000, 0.0)
        except ValueError:
            pass
    raw = (headers.get("retry-after") or "").strip()
    if not raw:
        return None
    try:
        return max(float(raw), 0.0)
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(raw)
    except (TypeError, ValueError):
        return None
    return max(when.timestamp() - time.time(), 0.0)


def _retryable(exc: BaseException) -> bool:
    status = _http_error(exc)[0]
    if status == 429:
        return True
    transient = status == 408 or (status is not None and status >= 500)
    return transient and retry_after_s(exc) is not None


def _wait(state: RetryCallState) -> float:
    failure = state.outcome.exception() if state.outcome else None
    asked = retry_after_s(failure) if failure else None
    if asked is not None:
        return asked
    return BACKOFF_S * 2.0 ** (state.attempt_number - 1)


def _attempts_or_deadline(state: RetryCallState, deadline: float, clock: Clock) -> bool:
    if state.attempt_number > MAX_RETRIES:
        return True
    wait = state.upcoming_sleep
    # Waiting past the deadline (or for an absurd Retry-After) buys nothing.
    return wait > MAX_RETRY_AFTER_S or clock() + wait >= deadline


def _log_retry(state: RetryCallState) -> None:
    failure = state.outcome.exception() if state.outcome else None
    status = _http_error(failure)[0] if failure else None
    log.warning("model call: HTTP %s, retrying in %.1fs", status, state.upcoming_sleep)


def _http_error(exc: BaseException | None) -> tuple[int | None, Mapping[str, str] | None]:
    # Imported here: a rules-only deployment never loads the OpenAI client.
    from openai import APIStatusError

    if isinstance(exc, APIStatusError):
        return exc.status_code, exc.response.headers
    return None, None


def _client_timeout(exc: BaseException) -> bool:
    # The OpenAI client's own timeout (same length as ours) may fire first.
    from openai import APITimeoutError

    return isinstance(exc, APITimeoutError)
