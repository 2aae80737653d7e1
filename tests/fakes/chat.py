"""A scripted chat model: answers from a list, in order, like a tape.

Each script entry is one call's behaviour:
- a `str`: the reply text (valid JSON, broken JSON, hostile content...);
- an `Exception` instance: raised, like an endpoint failure;
- a `Sleep`: the call hangs (until the caller's timeout cancels it);
- a `ToolCalls`: an assistant turn that calls tools (function calling), with
  optional text beside the calls.

`bind_tools` records the names of the tools each binding offered (`bound`),
so a test can assert that a denied tool was never offered to the model; the
kwargs of each call (`max_tokens`...) are kept in `call_kwargs`.

Every reply carries `usage_metadata`, so token recording can be asserted.
Calls beyond the script fail loudly rather than repeating the last answer,
and so does a script left unconsumed: `unconsumed_scripts()` lists every
model made since the last `forget_scripts()` that was called fewer or more
times than scripted; `check_scripts_consumed` (an autouse fixture's body)
fails a test that leaves one.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest
from langchain_core.callbacks import AsyncCallbackManagerForLLMRun, CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import Field


@dataclass(frozen=True)
class Sleep:
    seconds: float = 3600.0


@dataclass(frozen=True)
class ToolCalls:
    """One scripted assistant turn that calls tools: `(name, args)` pairs."""

    calls: tuple[tuple[str, dict[str, Any]], ...]
    text: str = ""

    @classmethod
    def of(cls, *calls: tuple[str, dict[str, Any]], text: str = "") -> ToolCalls:
        return cls(tuple(calls), text)


class ScriptExhausted(AssertionError):
    """The code under test made more model calls than the test scripted."""


class ScriptedChatModel(BaseChatModel):
    """A `BaseChatModel` whose answers are scripted per call."""

    script: list[Any] = Field(default_factory=list)
    model_name: str = "scripted-model"
    input_tokens: int = 11
    output_tokens: int = 7
    calls: list[list[BaseMessage]] = Field(default_factory=list)
    call_kwargs: list[dict[str, Any]] = Field(default_factory=list)
    bound: list[list[str]] = Field(default_factory=list)
    """The tool names offered by each `bind_tools`, in order."""
    made: ClassVar[list[ScriptedChatModel]] = []

    def model_post_init(self, context: Any, /) -> None:
        ScriptedChatModel.made.append(self)

    @property
    def unconsumed(self) -> list[Any]:
        """The script entries no call has used yet."""
        return self.script[len(self.calls) :]

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> Runnable[Any, BaseMessage]:
        """Record the offered tools' names; the script decides what is called."""
        self.bound.append([convert_to_openai_tool(t)["function"]["name"] for t in tools])
        return self.bind(**kwargs) if kwargs else self

    def _next(self, messages: list[BaseMessage], kwargs: dict[str, Any]) -> Any:
        self.calls.append(list(messages))
        self.call_kwargs.append(dict(kwargs))
        if len(self.calls) > len(self.script):
            raise ScriptExhausted(f"{self.model_name}: call {len(self.calls)} was not scripted")
        return self.script[len(self.calls) - 1]

    def _result(self, step: Any) -> ChatResult:
        if isinstance(step, BaseException):
            raise step
        usage = {
            "input_tokens": self.input_tokens,
            "output_tokens": self.output_tokens,
            "total_tokens": self.input_tokens + self.output_tokens,
        }
        if isinstance(step, ToolCalls):
            calls = [
                {
                    "name": name,
                    "args": args,
                    "id": f"call-{len(self.calls)}-{i}",
                    "type": "tool_call",
                }
                for i, (name, args) in enumerate(step.calls)
            ]
            message = AIMessage(content=step.text, tool_calls=calls, usage_metadata=usage)
        else:
            message = AIMessage(content=str(step), usage_metadata=usage)
        return ChatResult(generations=[ChatGeneration(message=message)])

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        step = self._next(messages, kwargs)
        if isinstance(step, Sleep):
            raise AssertionError("Sleep is scripted for async calls only")
        return self._result(step)

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        step = self._next(messages, kwargs)
        if isinstance(step, Sleep):
            await asyncio.sleep(step.seconds)
        return self._result(step)


def forget_scripts() -> None:
    """Stop tracking the models made so far."""
    ScriptedChatModel.made.clear()


def unconsumed_scripts() -> list[str]:
    """One line per tracked model whose script was not used up, or was called past its end.

    A call past the end raises `ScriptExhausted` where it is made, but code under test
    that survives a failing model (a fallback ladder) would swallow it: listed here,
    it still fails the test.
    """
    return [
        f"{m.model_name}: {len(m.unconsumed)} scripted call(s) never made"
        f" (made {len(m.calls)} of {len(m.script)})"
        if m.unconsumed
        else f"{m.model_name}: called {len(m.calls) - len(m.script)} time(s) past its script"
        f" of {len(m.script)}"
        for m in ScriptedChatModel.made
        if len(m.calls) != len(m.script)
    ]


def check_scripts_consumed() -> Iterator[None]:
    """Body of an autouse fixture: fail a test that leaves a script unconsumed or overrun.

    `yield from check_scripts_consumed()` in a conftest fixture.
    """
    forget_scripts()
    yield
    left = unconsumed_scripts()
    forget_scripts()
    if left:
        pytest.fail("scripted chat model not called as scripted: " + "; ".join(left), pytrace=False)
