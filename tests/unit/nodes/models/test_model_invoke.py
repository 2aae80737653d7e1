"""One model call: per-call timeout within the request deadline, Retry-After retries."""

from __future__ import annotations

import httpx2
import openai
import pytest

from nodes.errors import ModelCallTimeout, ModelDeadlineExceeded
from nodes.models.invoke import invoke, retry_after_s
from tests.fakes.chat import ScriptedChatModel, Sleep

MESSAGES: list[object] = []


def http_error(status: int, **headers: str) -> openai.APIStatusError:
    request = httpx2.Request("POST", "http://127.0.0.1/v1/chat/completions")
    response = httpx2.Response(status, headers=headers, request=request)
    kind = openai.RateLimitError if status == 429 else openai.InternalServerError
    return kind("endpoint says no", response=response, body=None)


class Waits:
    """Records the waits asked for instead of sleeping; advances a fake clock."""

    def __init__(self) -> None:
        self.now = 0.0
        self.asked: list[float] = []

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.asked.append(seconds)
        self.now += seconds


async def call(model: ScriptedChatModel, waits: Waits, *, deadline: float = 60.0) -> str:
    reply = await invoke(
        model, [], per_call_s=30.0, deadline=deadline, clock=waits.clock, sleep=waits.sleep
    )
    return reply.text


@pytest.mark.parametrize(
    ("headers", "seconds"),
    [({"retry-after": "1"}, 1.0), ({"retry-after": "2.5"}, 2.5),
     ({"retry-after-ms": "1500", "retry-after": "9"}, 1.5), ({}, None),
     ({"retry-after": "soon"}, None)],
)  # fmt: skip
def test_retry_after_is_read_from_either_header(
    headers: dict[str, str], seconds: float | None
) -> None:
    assert retry_after_s(http_error(429, **headers)) == seconds


def test_retry_after_as_an_http_date_in_the_past_is_no_wait() -> None:
    assert retry_after_s(http_error(503, **{"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"})) == 0


async def test_a_429_is_retried_after_its_retry_after() -> None:
    waits = Waits()
    model = ScriptedChatModel(script=[http_error(429, **{"retry-after": "1"}), "ok"])
    assert await call(model, waits) == "ok"
    assert waits.asked == [1.0] and len(model.calls) == 2


async def test_a_429_without_retry_after_backs_off_and_gives_up_after_two_retries() -> None:
    waits = Waits()
    model = ScriptedChatModel(script=[http_error(429)] * 3)
    with pytest.raises(openai.RateLimitError):
        await call(model, waits)
    assert waits.asked == [0.5, 1.0] and len(model.calls) == 3


async def test_a_5xx_is_retried_only_when_it_says_when() -> None:
    waits = Waits()
    plain = ScriptedChatModel(script=[http_error(500)])
    with pytest.raises(openai.InternalServerError):
        await call(plain, waits)
    told = ScriptedChatModel(script=[http_error(503, **{"retry-after": "2"}), "ok"])
    assert await call(told, waits) == "ok"
    assert waits.asked == [2.0]


async def test_a_wait_that_ends_past_the_deadline_is_not_made() -> None:
    waits = Waits()
    model = ScriptedChatModel(script=[http_error(429, **{"retry-after": "30"})])
    with pytest.raises(openai.RateLimitError):
        await call(model, waits, deadline=10.0)
    assert waits.asked == [] and len(model.calls) == 1


async def test_the_timeout_is_clipped_to_the_time_left() -> None:
    waits = Waits()
    model = ScriptedChatModel(script=[Sleep()])
    with pytest.raises(ModelCallTimeout) as caught:
        await call(model, waits, deadline=0.05)
    assert caught.value.clipped and caught.value.seconds == pytest.approx(0.05)


async def test_a_full_per_call_timeout_is_not_clipped() -> None:
    model = ScriptedChatModel(script=[Sleep()])
    with pytest.raises(ModelCallTimeout) as caught:
        await invoke(model, [], per_call_s=0.05, deadline=1e9)
    assert not caught.value.clipped


async def test_no_time_left_makes_no_call() -> None:
    waits = Waits()
    waits.now = 61.0
    model = ScriptedChatModel(script=[])
    with pytest.raises(ModelDeadlineExceeded):
        await call(model, waits)
    assert model.calls == []
