"""A chat model run's attributes in the OpenTelemetry GenAI semantic conventions."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from langchain_core.messages import AIMessage
from langchain_core.outputs import ChatGeneration, LLMResult
from opentelemetry.util.types import AttributeValue


def model_attributes(
    metadata: Mapping[str, Any], invocation: Mapping[str, Any]
) -> dict[str, AttributeValue]:
    """The request side: operation, provider and the model asked for."""
    attributes: dict[str, AttributeValue] = {"gen_ai.operation.name": "chat"}
    model = invocation.get("model") or invocation.get("model_name") or metadata.get("ls_model_name")
    if model:
        attributes["gen_ai.request.model"] = str(model)
    provider = metadata.get("ls_provider")
    if provider:
        attributes["gen_ai.provider.name"] = str(provider)
    for key, name in (("ls_temperature", "temperature"), ("ls_max_tokens", "max_tokens")):
        if isinstance(metadata.get(key), int | float):
            attributes[f"gen_ai.request.{name}"] = metadata[key]
    if invocation.get("stream") is True:
        attributes["gen_ai.request.stream"] = True
    return attributes


def response_attributes(response: LLMResult) -> dict[str, AttributeValue]:
    """The response side: tokens in and out, the model that answered."""
    attributes: dict[str, AttributeValue] = {}
    first = response.generations[0][0] if response.generations and response.generations[0] else None
    if isinstance(first, ChatGeneration) and isinstance(first.message, AIMessage):
        usage: Mapping[str, Any] = first.message.usage_metadata or {}
        if "input_tokens" in usage:
            attributes["gen_ai.usage.input_tokens"] = int(usage["input_tokens"])
        if "output_tokens" in usage:
            attributes["gen_ai.usage.output_tokens"] = int(usage["output_tokens"])
        answered = first.message.response_metadata.get("model_name")
        if answered:
            attributes["gen_ai.response.model"] = str(answered)
    if not attributes:
        attributes.update(_llm_output_usage(response.llm_output or {}))
    return attributes


def _llm_output_usage(output: Mapping[str, Any]) -> dict[str, AttributeValue]:
    """Older integrations report usage only in `llm_output["token_usage"]`."""
    usage = output.get("token_usage") or {}
    found = {
        "gen_ai.usage.input_tokens": usage.get("prompt_tokens"),
        "gen_ai.usage.output_tokens": usage.get("completion_tokens"),
    }
    return {k: int(v) for k, v in found.items() if isinstance(v, int)}
