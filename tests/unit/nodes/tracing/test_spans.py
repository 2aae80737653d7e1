"""`SpanRecorder`: graph runs, nodes and model calls as OpenTelemetry spans."""

from __future__ import annotations

import uuid
from typing import TypedDict

import pytest
from langchain_core.messages import AIMessage, HumanMessage
from langchain_core.outputs import ChatGeneration, LLMResult
from langgraph.graph import END, START, StateGraph
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from nodes.tracing import SpanRecorder, customer_hash
from tests.fakes.chat import ScriptedChatModel


class _State(TypedDict, total=False):
    text: str
    user_id: str
    audit_id: str
    answer: str


def _recorder() -> tuple[SpanRecorder, InMemorySpanExporter]:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    return SpanRecorder(provider.get_tracer("test")), exporter


def _graph(model: ScriptedChatModel):  # type: ignore[no-untyped-def]
    async def ask(state: _State) -> _State:
        reply = await model.ainvoke([HumanMessage(state["text"])])
        return {"answer": str(reply.content), "audit_id": "aud-1"}

    builder = StateGraph(_State)
    builder.add_node("ask", ask)
    builder.add_edge(START, "ask")
    builder.add_edge("ask", END)
    return builder.compile()


def _by_name(spans: tuple[ReadableSpan, ...]) -> dict[str, ReadableSpan]:
    return {s.name: s for s in spans}


async def test_a_model_call_is_a_genai_span_under_its_node_under_the_turn() -> None:
    recorder, exporter = _recorder()
    model = ScriptedChatModel(script=["hello"], model_name="scripted-large")
    config = {"callbacks": [recorder], "configurable": {"thread_id": "thr-1"}}
    await _graph(model).ainvoke({"text": "hi", "user_id": "U-42"}, config)  # type: ignore[arg-type]

    spans = _by_name(exporter.get_finished_spans())
    root, node, chat = spans["rolegraph turn"], spans["node ask"], spans["chat scripted-large"]
    assert root.parent is None
    assert node.parent is not None and node.parent.span_id == root.context.span_id
    assert chat.parent is not None and chat.parent.span_id == node.context.span_id
    assert chat.attributes is not None and root.attributes is not None
    assert chat.attributes["gen_ai.operation.name"] == "chat"
    assert chat.attributes["gen_ai.request.model"] == "scripted-large"
    assert chat.attributes["gen_ai.usage.input_tokens"] == 11
    assert chat.attributes["gen_ai.usage.output_tokens"] == 7
    assert root.attributes["rolegraph.thread_id"] == "thr-1"
    assert root.attributes["rolegraph.audit_id"] == "aud-1"
    assert root.attributes["rolegraph.customer_hash"] == customer_hash("U-42")
    assert all("U-42" not in str(dict(s.attributes or {})) for s in spans.values())


def test_a_streamed_call_records_the_time_to_its_first_chunk() -> None:
    recorder, exporter = _recorder()
    run_id = uuid.uuid4()
    recorder.on_chat_model_start(
        {}, [[HumanMessage("hi")]], run_id=run_id, invocation_params={"model": "m", "stream": True}
    )
    recorder.on_llm_new_token("he", run_id=run_id)
    recorder.on_llm_new_token("llo", run_id=run_id)
    usage = {"input_tokens": 3, "output_tokens": 2, "total_tokens": 5}
    message = AIMessage("hello", usage_metadata=usage, response_metadata={"model_name": "m-1"})
    recorder.on_llm_end(LLMResult(generations=[[ChatGeneration(message=message)]]), run_id=run_id)

    (span,) = exporter.get_finished_spans()
    assert span.attributes is not None
    assert span.attributes["gen_ai.request.stream"] is True
    first_chunk = span.attributes["gen_ai.response.time_to_first_chunk"]
    assert isinstance(first_chunk, float) and first_chunk >= 0
    assert span.end_time is not None and span.start_time is not None
    assert first_chunk * 1e9 <= span.end_time - span.start_time
    assert span.attributes["gen_ai.response.model"] == "m-1"
    assert span.attributes["gen_ai.usage.output_tokens"] == 2


async def test_a_failed_model_call_fails_its_span_without_quoting_the_error() -> None:
    recorder, exporter = _recorder()
    model = ScriptedChatModel(script=[RuntimeError("customer U-42 said no")], model_name="m")
    graph = _graph(model)
    with pytest.raises(RuntimeError):
        await graph.ainvoke({"text": "hi"}, {"callbacks": [recorder]})
    spans = _by_name(exporter.get_finished_spans())
    chat = spans["chat m"]
    assert chat.status.status_code.name == "ERROR"
    assert chat.status.description == "RuntimeError"
    assert spans["rolegraph turn"].status.status_code.name == "ERROR"
